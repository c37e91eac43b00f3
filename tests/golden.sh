#!/usr/bin/env bash
# Golden outputs: a fixed set of commands on small built-in corpora, each
# compared byte for byte with the output stored in tests/golden/NAME.out.
# A refactor that should change nothing a user sees must keep every one of
# them; the training runs keep their losses to the last bit.
#
# Each .out holds the command's stdout, then "--- stderr" and its stderr
# when it wrote any, then "--- exit N" when N is not 0. Wall-clock columns
# (seconds, s/epoch) are replaced by "<time>" and the test's temporary
# folder by "<tmp>" before comparing.
#
# The first part holds no number a model computes: help texts, the corpus
# commands, the batches and the refusals are the same bytes on any machine,
# and make check compares them (tests/golden_fixed.sh). The rest (probes with
# weights, training) follows the CPU's floating point, so it is the tool of
# the one making a change (make golden), not part of make check.
#
#   tests/golden.sh                  compare all (PADLAB and PADLAB_GOLDEN_TRAIN set by make golden)
#   tests/golden.sh --deterministic  compare the first part alone (PADLAB set by make check)
#   tests/golden.sh --update         write the expected outputs instead
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
GOLDEN=$here/golden
update=0 deterministic=0
for arg in "$@"; do
    case $arg in
        --update) update=1 && mkdir -p "$GOLDEN" ;;
        --deterministic) deterministic=1 ;;
        *) echo "golden.sh: unknown option '$arg' (--deterministic, --update)" >&2 && exit 2 ;;
    esac
done
((deterministic)) || TRAIN=${PADLAB_GOLDEN_TRAIN:?set PADLAB_GOLDEN_TRAIN to tests/golden_train}
# The tables elide to the terminal's width; without one they take 100.
unset COLUMNS

# golden NAME [--filter F] [--stdin FILE] CMD...: runs CMD and compares (or
# stores) what it printed.
golden() {
    local name=$1 filter=cat input=/dev/null
    shift
    while [[ $1 == --* ]]; do
        case $1 in
            --filter) filter=$2 ;;
            --stdin) input=$2 ;;
        esac
        shift 2
    done
    local got=$TMP/$name.out rc=0
    "$@" <"$input" >"$TMP/stdout" 2>"$TMP/stderr" || rc=$?
    {
        $filter <"$TMP/stdout"
        if [[ -s $TMP/stderr ]]; then echo "--- stderr"; cat "$TMP/stderr"; fi
        if [[ $rc -ne 0 ]]; then echo "--- exit $rc"; fi
    } | sed "s|$TMP|<tmp>|g" >"$got"
    if ((update)); then
        cp "$got" "$GOLDEN/$name.out"
        pass "$name (stored)"
    elif [[ ! -f $GOLDEN/$name.out ]]; then
        fail "$name" "no tests/golden/$name.out (run tests/golden.sh --update on the commit before the change)"
    elif cmp -s "$got" "$GOLDEN/$name.out"; then
        pass "$name"
    else
        fail "$name" "differs from tests/golden/$name.out:" "$(diff "$GOLDEN/$name.out" "$got" | head -n 20)"
    fi
}

C=builtin:0:400
SMALL=(--maxlen 32 --batch 8)

# ---- help texts ----
golden help "$P" --help
golden version "$P" --version
for c in lab pad stats buckets experiment bench report; do golden "help-$c" "$P" "$c" --help; done
golden help-probe "$P" probe --help
for k in batch attention rnn pooling loss layers generate kvcache masks identity blocks packing; do
    golden "help-probe-$k" "$P" probe "$k" --help
done

# ---- the corpus commands ----
printf '17 42 9 6 3\n17 81 4\n\n5 6 7 8 9 10 11\n' >"$TMP/seqs.txt"
golden pad "$P" pad "$TMP/seqs.txt"
golden pad-post-torch --stdin "$TMP/seqs.txt" "$P" pad --padding post --truncating post --maxlen 5 --value -1 --mask torch -
golden pad-additive "$P" pad --maxlen 4 --mask additive "$TMP/seqs.txt"
golden stats "$P" stats
golden stats-csv "$P" stats --corpus "$C" --maxlen 20,64,300 --format csv
golden stats-json "$P" stats --corpus "$C" --num-words 300 --format json
golden buckets "$P" buckets --corpus "$C"
golden buckets-json "$P" buckets --corpus builtin:3:200 --maxlen 64 --batch 16 --format json
golden buckets-csv "$P" buckets --corpus "$C" --boundaries 20,80,160 --batch-sizes 32,16,8,4 --format csv
golden report "$P" report --corpus "$C"
golden lab-settings "$P" lab --padding post --mask on --model gru --maxlen 120 --print-settings
golden lab-no-terminal "$P" lab --corpus builtin:2:300

# ---- the batch probe (no weights) and the probes' refusals ----
golden probe-batch "$P" probe batch --corpus "$C"
golden probe-batch-json "$P" probe batch --corpus "$C" "${SMALL[@]}" --format json
golden probe-batch-post-dynamic "$P" probe batch --corpus "$C" --padding post --batching dynamic --convention torch
golden probe-batch-packed-rows "$P" probe batch --corpus "$C" --batching packed --rows 3,4,5 --full
golden probe-masks-hf "$P" probe masks --corpus "$C" --convention hf --rows 1,2
golden probe-blocks "$P" probe blocks --corpus "$C" --block 16
golden probe-blocks-packed-json "$P" probe blocks --corpus "$C" --batching packed --rows 3,4,5 --block 8 --window 16 --format json
golden probe-blocks-refused-block "$P" probe blocks --corpus "$C" --block 48
golden probe-unknown "$P" probe frobnicate
golden probe-refused-option "$P" probe pooling --mask on
golden probe-rnn-not-recurrent "$P" probe rnn --model avgpool

if ((deterministic)); then
    finish
    exit $?
fi

# ---- every probe with weights, as a table and as JSON ----
for k in attention rnn pooling loss layers generate kvcache masks identity; do
    golden "probe-$k" "$P" probe "$k" --corpus "$C"
    golden "probe-$k-json" "$P" probe "$k" --corpus "$C" "${SMALL[@]}" --format json
done
golden probe-attention-causal "$P" probe attention --corpus "$C" --mask on --causal on --heads 1 --dhead 8 "${SMALL[@]}"
golden probe-rnn-gru-masked "$P" probe rnn --corpus "$C" --model gru --mask on --padding post
golden probe-rnn-lstm-zero-pad "$P" probe rnn --corpus "$C" --model lstm --pad_embedding zero --format json "${SMALL[@]}"
# seed 1's fresh cell never settles on a fixed point over these pads: no h*, so no distance to one
golden probe-rnn-no-fixed-point "$P" probe rnn --corpus builtin:1:200 --maxlen 60 --padding post --seed 1
golden probe-rnn-no-fixed-point-json "$P" probe rnn --corpus builtin:1:200 --maxlen 60 --padding post --seed 1 --format json
golden probe-pooling-post "$P" probe pooling --corpus "$C" --padding post --example 7
for m in gru lstm avgpool attention; do
    golden "probe-identity-$m" "$P" probe identity --corpus "$C" --model "$m" "${SMALL[@]}"
done
golden probe-layers-bucket "$P" probe layers --corpus "$C" --batching bucket_longest --seed 4
golden probe-generate-short "$P" probe generate --corpus "$C" --maxlen 24 # the decoder probes lay out both sides: padding is none of their settings
golden probe-kvcache-static "$P" probe kvcache --corpus "$C" --batching dynamic --steps 3 --cache-len 300 --maxlen 120

# ---- training: experiments, a saved model read back by the probes ----
E=(--epochs 1 --seeds 1 --corpus builtin:0:300)
golden experiment-padding --filter untime "$P" experiment padding "${E[@]}"
golden experiment-padding-json --filter untime "$P" experiment padding "${E[@]}" --format json
golden experiment-pooling-csv --filter untime "$P" experiment pooling "${E[@]}" --format csv
golden experiment-cells --filter untime "$P" experiment cells --epochs 2 --seed 5 --corpus builtin:1:200 --maxlen 60
golden experiment-loss-json --filter untime "$P" experiment loss --epochs 1 --seeds 2 --corpus builtin:1:200 --maxlen 60 --format json
golden experiment-batching --filter untime "$P" experiment batching --epochs 1 --seeds 1 --corpus builtin:1:200 --maxlen 60
golden experiment-truncation --filter untime "$P" experiment truncation --epochs 1 --seeds 1 --corpus builtin:1:200 --maxlen 60
golden experiment-save --filter untime "$P" experiment padding "${E[@]}" --save-model "$TMP/padding.model"
golden model-file-sum --stdin "$TMP/padding.model" cksum
golden probe-rnn-weights "$P" probe rnn --corpus "$C" --weights "$TMP/padding.model"
golden probe-identity-weights "$P" probe identity --corpus "$C" --weights "$TMP/padding.model" "${SMALL[@]}"
"$P" experiment loss --epochs 1 --seeds 1 --corpus builtin:1:200 --maxlen 60 --save-model "$TMP/loss.model" >/dev/null
golden probe-loss-weights "$P" probe loss --corpus "$C" --weights "$TMP/loss.model" "${SMALL[@]}"
golden probe-loss-wrong-weights "$P" probe loss --corpus "$C" --weights "$TMP/padding.model"
golden train "$TRAIN"

finish
