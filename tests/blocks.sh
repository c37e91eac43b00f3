#!/usr/bin/env bash
# padlab probe blocks against an independent reference: tests/blocks_ref.py
# builds every rule's dense mask with numpy from the batch probe's mask (and,
# packed, from each document's tokens), pads it to a multiple of the block
# as FlexAttention's create_block_mask does, and compares every tile count,
# cell count, share, byte count and map of the probe's JSON. Three settings
# on the builtin corpus: tiles of 16 pre-padded, tiles of 32 post-padded in
# dynamic batches, tiles of 128 over a packed row. Skipped, with the reason,
# when no Python here imports numpy (Debian: apt-get install python3-numpy).
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
CHECKS=21 # blocks_ref.py makes 7 a setting: the shapes and bytes, then one per rule

if ! py=$(python_with numpy); then
    skip "blocks: the tiles against a numpy reference (no python3 here imports numpy: apt-get install python3-numpy)" "$CHECKS"
    finish
    exit
fi

# setting LABEL FLAGS...: the blocks and batch probes with FLAGS, then the reference.
setting() {
    local label=$1
    shift
    local packed=0 rows=
    "$P" probe blocks "$@" --format json >"$TMP/blocks.json" || fail "blocks: $label: padlab probe blocks $*"
    # the batch's mask, keras convention (1 = real); --block and --window are the blocks probe's alone
    local flags=() skip_next=0
    for a in "$@"; do
        if ((skip_next)); then skip_next=0 && continue; fi
        case $a in
            --block | --window) skip_next=1 && continue ;;
            packed) packed=1 ;;
        esac
        flags+=("$a")
    done
    "$P" probe batch "${flags[@]}" --convention keras --format json >"$TMP/batch.json" ||
        fail "blocks: $label: padlab probe batch ${flags[*]}"
    local docs=()
    if ((packed)); then
        # each document's tokens, from the same rows padded in a dynamic batch
        for ((i = 0; i < ${#flags[@]}; i++)); do [[ ${flags[i]} == --rows ]] && rows=${flags[i + 1]}; done
        "$P" probe batch --corpus builtin --rows "$rows" --batching dynamic --convention keras --format json \
            >"$TMP/docs.json" || fail "blocks: $label: the documents of rows $rows"
        docs=("$TMP/docs.json")
    fi
    "$py" "$here/blocks_ref.py" "$label" "$TMP/blocks.json" "$TMP/batch.json" "${docs[@]}" >>"$TMP/ref.out" 2>&1 ||
        echo "FAIL $label: blocks_ref.py exited with status $?" >>"$TMP/ref.out"
}

: >"$TMP/ref.out"
setting "block 16, pre" --corpus builtin --block 16
setting "block 32, post, dynamic" --corpus builtin --block 32 --padding post --batching dynamic --window 24
setting "block 128, packed" --corpus builtin --block 128 --batching packed --rows 0,1,2,3,4,5,6,7,8,9

reference_checks blocks "$TMP/ref.out" "$CHECKS"
finish
