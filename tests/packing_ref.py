#!/usr/bin/env python3
"""padlab probe packing against a flattening collator written afresh here.

For each configuration, padlab's packing JSON is read, and so is the batch
probe's JSON for the same settings (another code path of padlab: the padded
batch). From the batch probe's rows alone this script builds the packed row
the way transformers' DataCollatorWithFlattening does (as read for padlab in
src/transformers/data/data_collator.py of the 4.5x releases, defaults
return_position_ids=True, separator_id=-100, with return_seq_idx and
return_flash_attn_kwargs on): input_ids concatenated, labels [-100] + ids[1:]
per example, position_ids range(len) per example, seq_idx, cu_seq_lens as the
cumulative lengths. Then the boundaries are read back from position_ids as a
varlen attention reads them (each index where they are 0, then N), and the
cells and loss terms are counted. Every figure that needs no weights is
compared exactly; the model's figures are held to what must hold whatever
the weights.

Usage: packing_ref.py PADLAB [IMDB_TSV]. Prints "ok   NAME" for each check
that holds and stops at the first that does not (a plain assert, whose
message says what was found); ends with "summary: N checks".
"""
import json
import subprocess
import sys

import torch

PADLAB = sys.argv[1]
IMDB = sys.argv[2] if len(sys.argv) > 2 else None
DOCS = 4  # PL_PACKING_DOCS
checks = 0


def ok(name):
    global checks
    checks += 1
    print("ok   " + name, flush=True)


def padlab(*args):
    out = subprocess.run([PADLAB, "probe", *args, "--format", "json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def flatten(features, separator_id=-100):
    """The collator's row, from a list of examples' input_ids (lists of ints)."""
    ids = [torch.tensor(f, dtype=torch.int64) for f in features]
    sep = torch.tensor([separator_id], dtype=torch.int64)
    lens = torch.tensor([len(f) for f in features], dtype=torch.int32)
    return {
        "input_ids": torch.cat(ids),
        "labels": torch.cat([torch.cat([sep, f[1:]]) for f in ids]),
        "position_ids": torch.cat([torch.arange(len(f), dtype=torch.int64) for f in ids]),
        "seq_idx": torch.cat([torch.full((len(f),), i, dtype=torch.int32) for i, f in enumerate(ids)]),
        "cu_seq_lens": torch.cat([torch.zeros(1, dtype=torch.int32), torch.cumsum(lens, 0, dtype=torch.int32)]),
        "max_length": int(lens.max()),
    }


def read_back(position_ids):
    """Boundaries from position ids alone: where they are 0, then N."""
    starts = (position_ids == 0).nonzero().flatten().to(torch.int32)
    return torch.cat([starts, torch.tensor([position_ids.numel()], dtype=torch.int32)])


def without(flags, *names):
    """flags less the given options and their values: the batch probe takes no --seed."""
    out, skip = [], False
    for f in flags:
        if skip:
            skip = False
        elif f in names:
            skip = True
        else:
            out.append(f)
    return out


def check(name, flags, rows=None):
    pk = padlab("packing", *flags, *(["--rows", ",".join(map(str, rows))] if rows else []))
    s = pk["settings"]
    maxlen, example = s["maxlen"], s["example"]
    docs = [d["example"] for d in pk["documents"]]

    # The documents: the example and the rows after it in its batch, wrapping.
    if rows:
        batch_rows = rows
    else:
        b = padlab("batch", *without(flags, "--seed", "--example"), "--example", str(example), "--padding", "post")
        batch_rows = [r["example"] for r in b["rows"]]
    at = batch_rows.index(example)
    want = [batch_rows[(at + i) % len(batch_rows)] for i in range(min(DOCS, len(batch_rows)))]
    assert docs == want, f"{name}: documents {docs}, want {want}"
    ok(f"{name}: the documents are example {example} and the rows after it in its batch")

    # Each document's ids, cut to maxlen, from the batch probe's padded rows.
    b = padlab("batch", *without(flags, "--seed", "--example", "--batching", "--batch"), "--rows",
               ",".join(map(str, docs)), "--example", str(docs[0]), "--batching", "dynamic", "--padding", "post")
    by_row = {r["example"]: r for r in b["rows"]}
    features = [by_row[d]["ids"][: by_row[d]["kept"]] for d in docs]
    for d, doc in zip(features, pk["documents"]):
        assert len(d) == doc["length"] == min(doc["whole"], maxlen), f"{name}: lengths {len(d)}, {doc}"
    flat = flatten(features)
    N = flat["input_ids"].numel()
    assert pk["input_ids"] == flat["input_ids"].tolist(), f"{name}: input_ids differ"
    ok(f"{name}: input_ids are the {len(docs)} documents' ids concatenated ({N} tokens)")
    assert pk["position_ids"] == flat["position_ids"].tolist(), f"{name}: position_ids differ"
    ok(f"{name}: position_ids restart at 0 in each document")
    assert pk["seq_idx"] == flat["seq_idx"].tolist(), f"{name}: seq_idx differ"
    ok(f"{name}: seq_idx")
    assert pk["labels"] == flat["labels"].tolist(), f"{name}: labels differ"
    ok(f"{name}: labels are -100 at each document's first token, the ids elsewhere")
    assert pk["cu_seqlens"] == flat["cu_seq_lens"].tolist(), f"{name}: cu_seqlens {pk['cu_seqlens']}"
    ok(f"{name}: cu_seqlens are the collator's cu_seq_lens_q and _k")

    back = read_back(torch.tensor(pk["position_ids"]))
    sm = pk["summary"]
    assert pk["cu_seqlens_read_back"] == back.tolist(), f"{name}: read back {pk['cu_seqlens_read_back']}"
    assert sm["read_back_documents"] == back.numel() - 1
    assert sm["cu_seqlens_match"] == (back.tolist() == flat["cu_seq_lens"].tolist())
    counted = read_back(torch.arange(N))
    assert sm["counted_read_back_documents"] == counted.numel() - 1 == 1
    ok(f"{name}: boundaries read back from position_ids; counted along the row they read as one document")

    cells, D = sm["cells"], len(docs)
    longest = flat["max_length"]
    dyn, stat = D * longest, D * maxlen
    assert cells["maxlen"] == maxlen and cells["longest"] == longest and cells["packed"] == N == sm["N"]
    assert (cells["dynamic"], cells["static"]) == (dyn, stat), f"{name}: cells {cells}"
    assert (cells["dynamic_saved"], cells["static_saved"]) == (dyn - N, stat - N)
    assert abs(cells["dynamic_saved_share"] - (dyn - N) / dyn) < 1e-12
    assert abs(cells["static_saved_share"] - (stat - N) / stat) < 1e-12
    ok(f"{name}: cells packed {N}, dynamic {dyn}, static {stat}")

    # A causal LM's loss reads labels[1:] against the logits of tokens [:-1].
    shifted = flat["labels"][1:]
    plain = flat["input_ids"][1:]
    boundary = (flat["position_ids"][1:] == 0).sum().item()
    loss = sm["loss"]
    assert loss["terms"] == (shifted != -100).sum().item() == N - D, f"{name}: loss {loss}"
    assert loss["terms_without_separator"] == (plain != -100).sum().item() == N - 1
    assert loss["boundary_terms"] == boundary == D - 1
    assert abs(loss["boundary_share"] - (boundary / (N - 1) if N > 1 else 0.0)) < 1e-12
    ok(f"{name}: {D - 1} loss terms would cross a boundary without the -100s")

    att = sm["attention"]
    shares = [d["causal_cross_share"] for d in pk["documents"]]
    lens = [d["length"] for d in pk["documents"]]
    weighted = sum(a * L for a, L in zip(shares, lens)) / N
    assert att["document_mask_max_diff"] < 1e-5, f"{name}: document mask {att}"
    assert shares[0] == 0 and all(0 < a < 1 for a in shares[1:]), f"{name}: shares {shares}"
    assert abs(att["causal_cross_share"] - weighted) < 1e-6, f"{name}: row share {att}, weighted {weighted}"
    if D > 1:
        assert att["causal_mask_max_diff"] > 1e-3 and att["counted_positions_max_diff"] > 1e-3, f"{name}: {att}"
    ok(f"{name}: the document mask matches each document alone; a plain causal one leaks "
       f"{100 * att['causal_cross_share']:.1f}% onto earlier documents")


CONFIGS = [
    ("builtin static", ["--corpus", "builtin"], None),
    ("builtin dynamic, cut at the end", ["--corpus", "builtin", "--batching", "dynamic", "--maxlen", "60",
                                         "--truncating", "post", "--seed", "3"], None),
    ("builtin grouped, batches of 3", ["--corpus", "builtin", "--batching", "length_grouped", "--batch", "3",
                                       "--example", "10", "--maxlen", "120"], None),
    ("builtin packed, rows given", ["--corpus", "builtin", "--batching", "packed", "--maxlen", "80",
                                    "--example", "12"], [9, 12, 40, 3, 7]),
]
if IMDB:
    CONFIGS.append(("imdb5k static", ["--corpus", IMDB], None))

for name, flags, rows in CONFIGS:
    check(name, flags, rows)
print(f"summary: {checks} checks")
