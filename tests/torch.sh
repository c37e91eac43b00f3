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

# The first of $PYTHON, python3 and Debian's own python3 that imports torch:
# a python3 earlier on PATH (a pyenv, a venv) may not see Debian's package.
py=
for cand in ${PYTHON:-} python3 /usr/bin/python3; do
    if command -v "$cand" >/dev/null && "$cand" -c 'import torch' >/dev/null 2>&1; then
        py=$cand
        break
    fi
done
if [[ -z $py ]]; then
    skip "torch: NaN gradients of a fully masked row (no python3 here imports torch: apt-get install python3-torch)" "$CHECKS"
    finish
    exit
fi

"$py" "$here/torch_nan_grad.py" >"$TMP/torch.out" 2>&1 && status=0 || status=$?
before=$passed
while IFS= read -r line; do
    case $line in
        "ok   "*) pass "torch: ${line#ok   }" ;;
        *) echo "$line" ;;
    esac
done <"$TMP/torch.out"
((status == 0)) || fail "torch: torch_nan_grad.py exited with status $status" "$(tail -n 4 "$TMP/torch.out")"
((passed - before == CHECKS)) || fail "torch: torch_nan_grad.py made $((passed - before)) checks (want $CHECKS)"
finish
