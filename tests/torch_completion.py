#!/usr/bin/env python3
"""padlab's completion-only loss (padlab probe loss --format json, its "chat"
rows) against PyTorch's F.cross_entropy(ignore_index=-100), as a Hugging Face
causal LM computes its loss: logits[:, :-1] against labels[:, 1:].

The JSON holds each chat row's ids, its labels (-100 on the prompt and the
pads) and each real token's cross-entropy beside its label (terms[t]: the
term of predicting token t from position t - 1). From each term this script
builds a logit row whose cross-entropy is that term (0 at the target class,
log(e^term - 1) at one other, -1e4 elsewhere), so what is checked here is
which positions each loss counts and what it divides by: the template's -100s,
the shift by one, ignore_index and the mean. That each term is the model's
own cross-entropy, test_probe.c checks from the logits.

Reads the JSON on stdin; prints "ok   NAME" for each check that holds and
stops at the first that does not; ends with "summary: N checks".
"""
import json
import math
import sys

import torch
import torch.nn.functional as F

START, PAD = 1, 0
d = json.load(sys.stdin)
C = d["classes"]
chat, s = d["chat"], d["summary"]
ids = torch.tensor([r["ids"] for r in chat["rows"]])
labels = torch.tensor([r["labels"] for r in chat["rows"]])
terms = torch.tensor([r["terms"] for r in chat["rows"]], dtype=torch.float64)
B, T = ids.shape
checks = 0


def ok(name):
    global checks
    checks += 1
    print("ok   " + name, flush=True)


print("torch " + torch.__version__)
assert (B, T) == (chat["B"], chat["T"]), (B, T)

# The template: -100 up to and including the third <start>, then the ids,
# then -100 at the pads.
want = torch.full_like(ids, -100)
for b in range(B):
    starts = (ids[b] == START).nonzero().flatten().tolist()
    assert len(starts) >= 3, f"row {b} has {len(starts)} <start>"
    real = int((ids[b] != PAD).sum())
    assert (ids[b, :real] != PAD).all() and (ids[b, real:] == PAD).all(), f"row {b} is not padded on the right"
    want[b, starts[2] + 1:real] = ids[b, starts[2] + 1:real]
assert torch.equal(labels, want), "labels differ from the template's"
ok("labels are -100 on every prompt token (the third <start> included) and on the pads")

# Logits whose cross-entropy at (b, t - 1) is terms[b, t] for the class of
# token t (ids at or above C - 1 share the last class, as padlab's model has C).
cls = ids.clamp(max=C - 1)
logits = torch.full((B, T, C), -1e4, dtype=torch.float64)
for b in range(B):
    for t in range(1, T):
        if ids[b, t] == PAD:
            continue
        y = int(cls[b, t])
        logits[b, t - 1, y] = 0.0
        logits[b, t - 1, (y + 1) % C] = math.log(math.expm1(float(terms[b, t])))


def hf_loss(lab):
    lab = torch.where(lab == -100, lab, lab.clamp(max=C - 1))
    return F.cross_entropy(logits[:, :-1].reshape(-1, C), lab[:, 1:].reshape(-1), ignore_index=-100)


done = hf_loss(labels)
assert abs(float(done) - s["completion_loss"]) < 1e-5, (float(done), s["completion_loss"])
ok(f"completion_loss {s['completion_loss']:.6f} is F.cross_entropy over labels[:, 1:] with ignore_index=-100")

plain = torch.where(ids == PAD, torch.full_like(ids, -100), ids)  # a plain LM collator: labels[attention_mask == 0] = -100
full = hf_loss(plain)
assert abs(float(full) - s["prompt_included_loss"]) < 1e-5, (float(full), s["prompt_included_loss"])
ok(f"prompt_included_loss {s['prompt_included_loss']:.6f} is the same with the prompt's labels kept")

n_done, n_real = int((labels != -100).sum()), int((ids != PAD).sum())
assert n_done == s["completion_tokens"] and n_real == chat["real_tokens"], (n_done, n_real)
assert abs(n_done / n_real - s["completion_share"]) < 1e-12
assert int((plain[:, 1:] != -100).sum()) == s["prompt_terms"]
ok(f"completion_share {s['completion_share']:.4f}: {n_done} labels of {n_real} real tokens; {s['prompt_terms']} terms with the prompt")
print(f"summary: {checks} checks")
