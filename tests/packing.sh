#!/usr/bin/env bash
# padlab probe packing against a flattening collator written afresh in
# PyTorch (tests/packing_ref.py): the packed row's input_ids, position_ids,
# seq_idx, labels and cu_seqlens, the boundaries read back from the position
# ids, the cells and the loss terms, compared exactly on four builtin
# configurations (and imdb5k when it is beside the tree). Skipped, with the
# reason, when no Python here imports torch (Debian: apt-get install
# python3-torch).
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
PER=10 # the checks packing_ref.py makes per configuration
imdb=()
[[ -f ${PADLAB_SHARED_DATA:-$here/../../shared/data}/imdb5k.tsv ]] && imdb=("${PADLAB_SHARED_DATA:-$here/../../shared/data}/imdb5k.tsv")
CHECKS=$((PER * (4 + ${#imdb[@]})))

if ! py=$(python_with torch); then
    skip "packing: the probe against a flattening collator (no python3 here imports torch: apt-get install python3-torch)" "$CHECKS"
    finish
    exit
fi

"$py" "$here/packing_ref.py" "$P" "${imdb[@]}" >"$TMP/packing.out" 2>&1 && status=0 || status=$?
reference_checks packing "$TMP/packing.out" "$CHECKS" "$status"
finish
