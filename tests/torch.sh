#!/usr/bin/env bash
# What the lessons and decks say about NaN gradients from a fully masked
# attention row, measured with PyTorch: tests/torch_nan_grad.py runs each way
# of masking the scores and of zeroing the NaN after the softmax, and checks
# which of them leave a NaN in the gradients; tests/torch_completion.py reads
# padlab probe loss's chat rows and checks its completion-only loss and the
# loss with the prompt counted against F.cross_entropy(ignore_index=-100).
# Skipped, with the reason, when no Python here imports torch (Debian:
# apt-get install python3-torch).
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
CHECKS=7      # the checks torch_nan_grad.py makes
CHAT_CHECKS=4 # and torch_completion.py, on each corpus

if ! py=$(python_with torch); then
    skip "torch: NaN gradients of a fully masked row (no python3 here imports torch: apt-get install python3-torch)" "$CHECKS"
    skip "torch: the completion-only loss (no python3 here imports torch)" "$((2 * CHAT_CHECKS))"
    finish
    exit
fi

"$py" "$here/torch_nan_grad.py" >"$TMP/torch.out" 2>&1 && status=0 || status=$?
reference_checks torch "$TMP/torch.out" "$CHECKS" "$status"

# The chat rows of two built-in corpora, the lab padding post and pre (the
# chat rows are padded right either way).
for args in "--corpus builtin --padding post" "--corpus builtin:3:400:70 --padding pre --maxlen 60"; do
    # shellcheck disable=SC2086 # the words of args are options
    "$P" probe loss $args --format json >"$TMP/loss.json" 2>"$TMP/loss.err" || fail "torch: padlab probe loss $args" "$(cat "$TMP/loss.err")"
    "$py" "$here/torch_completion.py" <"$TMP/loss.json" >"$TMP/chat.out" 2>&1 && status=0 || status=$?
    reference_checks "torch ($args)" "$TMP/chat.out" "$CHAT_CHECKS" "$status"
done
finish
