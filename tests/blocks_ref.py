"""An independent reference for `padlab probe blocks`, in numpy.

For one setting it reads three files written by padlab:
  blocks.json  padlab probe blocks --format json (what is checked)
  batch.json   padlab probe batch --format json with the same settings
               (the batch's padding mask, keras convention: 1 = real)
  docs.json    for a packed batch, padlab probe batch --batching dynamic
               over the same rows: each document's real tokens, whose
               concatenation must be the packed row
and builds the dense (B, T, T) mask of every rule with numpy, pads it with
False up to a multiple of the block as FlexAttention's create_block_mask
does, sums each block x block tile and compares every count exactly.

Prints "ok   NAME" per check that holds and "FAIL NAME: why" per one that
does not; exits 1 when any failed. Usage:
  blocks_ref.py LABEL blocks.json batch.json [docs.json]
"""

import json
import sys

import numpy as np

GLYPH = np.array([".", "+", "#"])


def load(path):
    with open(path) as f:
        return json.load(f)


def batch_mask(batch):
    """(B, T) bool, True at real tokens, from the batch probe's keras mask."""
    if batch["convention"] != "keras":
        raise SystemExit("blocks_ref.py: the batch must be printed in the keras convention")
    return np.array([row["mask"] for row in batch["rows"]], dtype=bool)


def packed_docs(batch, docs):
    """(1, T) document ids of the packed row: each document's real ids,
    taken from the dynamic batch, concatenated in turn must give the row."""
    row = np.array(batch["rows"][0]["ids"])
    parts = []
    for r in docs["rows"]:
        ids = np.array(r["ids"])
        parts.append(ids[np.array(r["mask"], dtype=bool)])
    joined = np.concatenate(parts)
    if joined.shape != row.shape or not (joined == row).all():
        raise SystemExit("blocks_ref.py: the documents do not concatenate to the packed row")
    return np.concatenate([np.full(len(p), d) for d, p in enumerate(parts)])[None, :], [len(p) for p in parts]


def rules(real, doc, window):
    """Every rule's dense mask, (B, T, T) bool: query down, key across."""
    B, T = real.shape
    q = np.arange(T)[:, None]
    kv = np.arange(T)[None, :]
    causal = np.broadcast_to(kv <= q, (B, T, T))
    key_real = np.broadcast_to(real[:, None, :], (B, T, T))
    same_doc = doc[:, :, None] == doc[:, None, :]
    near = np.broadcast_to(q - kv < window, (B, T, T))
    return {
        "padding": key_real,
        "causal": causal,
        "causal+padding": causal & key_real,
        "document": same_doc,
        "causal+document": causal & same_doc,
        "sliding_window": causal & key_real & near,
    }


def tiles(mask, S):
    """Kept cells per tile, (B, nb, nb), the mask padded with False to Tp."""
    B, T, _ = mask.shape
    nb = -(-T // S)
    padded = np.zeros((B, nb * S, nb * S), dtype=np.int64)
    padded[:, :T, :T] = mask
    return padded.reshape(B, nb, S, nb, S).sum(axis=(2, 4))


def main():
    label, blocks_path, batch_path = sys.argv[1:4]
    got = load(blocks_path)
    batch = load(batch_path)
    failed = 0

    def check(name, ok, why=""):
        nonlocal failed
        if ok:
            print(f"ok   {label}: {name}")
        else:
            failed += 1
            print(f"FAIL {label}: {name}: {why}")

    real = batch_mask(batch)
    if got["packed"]:
        doc, lengths = packed_docs(batch, load(sys.argv[4]))
    else:
        doc, lengths = np.zeros(real.shape, dtype=np.int64), [int(n) for n in real.sum(axis=1)]
    B, T = real.shape
    S = got["summary"]["block"]
    nb = -(-T // S)
    summary = got["summary"]
    want = {
        "B": B,
        "T": T,
        "padded_width": nb * S,
        "blocks_per_side": nb,
        "tiles": B * nb * nb,
        "dense_bool_bytes": B * T * T,
        "dense_float_bytes": 4 * B * T * T,
        # kv_num_blocks (B,1,nb) and kv_indices (B,1,nb,nb), int32, and the full_ pair
        "block_mask_forward_bytes": 2 * 4 * (B * nb + B * nb * nb),
        # and the q_ pairs transposed from them for the backward pass
        "block_mask_bytes": 4 * 4 * (B * nb + B * nb * nb),
    }
    have = {k: (got[k] if k in ("B", "T") else summary[k]) for k in want}
    have_lengths = got["lengths"]
    check(
        "shapes, bytes and lengths",
        have == want and have_lengths == lengths,
        f"{have} {have_lengths}, want {want} {lengths}",
    )

    by_name = {r["name"]: r for r in got["rules"]}
    for name, mask in rules(real, doc, got["window"]).items():
        kept = tiles(mask, S)
        kind = np.where(kept == 0, 0, np.where(kept == S * S, 2, 1))  # empty, partial, full
        rows = np.stack([(kind == k).sum(axis=(1, 2)) for k in range(3)], axis=1)
        totals = rows.sum(axis=0)
        r, s = by_name[name], summary["rules"][name]
        computed = int((totals[1] + totals[2]) * S * S)
        problems = []
        if [s["empty"], s["partial"], s["full"]] != totals.tolist():
            problems.append(f"tiles {[s['empty'], s['partial'], s['full']]}, want {totals.tolist()}")
        if r["rows"] != rows.tolist():
            problems.append("per-row tiles differ")
        if r["kept_cells"] != int(mask.sum()) or r["computed_cells"] != computed:
            problems.append(f"cells {r['kept_cells']}/{r['computed_cells']}, want {int(mask.sum())}/{computed}")
        if abs(s["kept_share"] - mask.sum() / (B * T * T)) > 1e-12:
            problems.append("kept_share")
        if abs(s["computed_share"] - computed / (B * T * T)) > 1e-12:
            problems.append("computed_share")
        if r["map"] is not None:
            drawn = ["".join(line) for line in GLYPH[kind[got["map_row"]]]]
            if r["map"] != drawn:
                problems.append("the map differs")
        elif nb <= 64:
            problems.append("no map, though it has at most 64 tiles per side")
        check(f"{name}: {totals.tolist()} empty/partial/full tiles", not problems, "; ".join(problems))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
