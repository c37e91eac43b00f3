#!/usr/bin/env python3
"""What lessons/09-causal.lesson and decks/cards-attention.deck say about a
softmax over a row in which every key is masked, measured with PyTorch.

Scores are q @ k^T for a batch of one sequence of 3 positions; the mask hides
every key from query 0 (a left pad under a causal mask) and the last key from
query 1, so row 0 is empty, row 1 is partly masked, row 2 is whole. The loss
reads every row of the weights with random coefficients, so any NaN that
reaches a gradient shows. Each case is: mask the scores one way, softmax,
then zero the empty row's NaN one way; we look at the forward weights and at
the gradients of the scores and of q and k.

Prints "ok   NAME" for each check that holds and stops at the first that
does not (a plain assert, whose message says what was found); ends with
"summary: N checks".
"""
import torch

torch.manual_seed(0)
T, D = 3, 4
# hide[i, j]: key j is hidden from query i.
hide = torch.tensor([[True, True, True],
                     [False, False, True],
                     [False, False, False]])
empty = hide.all(dim=-1, keepdim=True)  # (T, 1): query 0 sees nothing
coef = torch.randn(T, T)
checks = 0


def ok(name):
    global checks
    checks += 1
    print("ok   " + name, flush=True)


def run(mask_scores, clean_weights):
    """Returns (weights, scores.grad, q.grad, k.grad) for one recipe."""
    q = torch.randn(T, D, requires_grad=True)
    k = torch.randn(T, D, requires_grad=True)
    scores = q @ k.T
    scores.retain_grad()
    weights = clean_weights(torch.softmax(mask_scores(scores), dim=-1))
    (weights * coef).sum().backward()
    return weights.detach(), scores.grad, q.grad, k.grad


def additive(scores):  # scores + bias, the bias -inf where hidden
    bias = torch.zeros(T, T).masked_fill(hide, float("-inf"))
    return scores + bias


def filled(scores):  # the hidden scores replaced by -inf
    return scores.masked_fill(hide, float("-inf"))


def finite_fill(scores):  # the hidden scores replaced by the dtype's minimum
    return scores.masked_fill(hide, torch.finfo(scores.dtype).min)


def nan_to_num(w):
    return torch.nan_to_num(w, nan=0.0)


def where_zero(w):
    return torch.where(empty, torch.zeros_like(w), w)


def finite(t):
    return bool(torch.isfinite(t).all())


print("torch " + torch.__version__)

# The forward pass: a softmax over a row of -inf is NaN, and both cleanups
# turn it into zeros.
w, _, _, _ = run(additive, lambda w: w)
assert torch.isnan(w[0]).all() and finite(w[1:]), f"softmax weights {w}"
ok("softmax over a row of -inf gives NaN; the other rows are finite")
w, _, _, _ = run(additive, nan_to_num)
assert finite(w) and (w[0] == 0).all(), f"weights after nan_to_num {w}"
ok("nan_to_num after the softmax gives a clean forward pass (the empty row is zeros)")

# Additive -inf bias: the cleanup after the softmax does not reach the
# gradient. The softmax's backward for the empty row multiplies by its NaN
# weights, and the addition hands that NaN on to the scores, q and k.
for label, clean in (("nan_to_num", nan_to_num), ("torch.where", where_zero)):
    _, gs, gq, gk = run(additive, clean)
    assert torch.isnan(gs[0]).all(), f"scores.grad {gs}"
    assert finite(gs[1:]), f"scores.grad {gs}"
    assert not finite(gq) and not finite(gk), f"q.grad {gq} k.grad {gk}"
    ok(f"additive -inf bias, softmax, {label}: the empty row's score gradient is NaN, and so are q's and k's")

# masked_fill(-inf): its backward zeroes the gradient at every filled
# position, which covers the whole empty row, so the NaN stops there.
for label, clean in (("nan_to_num", nan_to_num), ("torch.where", where_zero)):
    _, gs, gq, gk = run(filled, clean)
    assert finite(gs) and finite(gq) and finite(gk), f"scores.grad {gs} q.grad {gq} k.grad {gk}"
    assert (gs[hide] == 0).all(), f"scores.grad at hidden positions {gs[hide]}"
    assert (gs[~hide] != 0).any(), f"scores.grad at visible positions {gs[~hide]}"
    ok(f"masked_fill(-inf), softmax, {label}: every gradient is finite, 0 at the filled positions")

# Mending the scores before the softmax: a finite fill makes the empty row
# uniform rather than NaN, and nothing needs zeroing afterwards.
w, gs, gq, gk = run(finite_fill, lambda w: w)
assert finite(w) and torch.allclose(w[0], torch.full((T,), 1.0 / T)), f"weights {w}"
assert finite(gs) and finite(gq) and finite(gk), f"scores.grad {gs}"
ok("masked_fill(finfo.min), softmax: the empty row is uniform and every gradient is finite")

print(f"summary: {checks} checks")
