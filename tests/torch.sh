#!/usr/bin/env bash
# What the lessons and decks say about NaN gradients from a fully masked
# attention row, measured with PyTorch: tests/torch_nan_grad.py runs each way
# of masking the scores and of zeroing the NaN after the softmax, and checks
# which of them leave a NaN in the gradients. Skipped, with the reason, when
# no Python here imports torch (Debian: apt-get install python3-torch).
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
CHECKS=7 # the checks torch_nan_grad.py makes

if ! py=$(python_with torch); then
    skip "torch: NaN gradients of a fully masked row (no python3 here imports torch: apt-get install python3-torch)" "$CHECKS"
    finish
    exit
fi

"$py" "$here/torch_nan_grad.py" >"$TMP/torch.out" 2>&1 && status=0 || status=$?
reference_checks torch "$TMP/torch.out" "$CHECKS" "$status"
finish
