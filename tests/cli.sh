#!/usr/bin/env bash
# Command-line tests: every headless command on small inputs worked out by
# hand, its errors, and the reference corpus when it is there.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}

# ---- help and version ----
run "$P" --version
expect "version prints the package version" 0 "padlab 0.1.0"
run "$P" --help
expect_has "help lists the commands" "  buckets "
for c in pad stats buckets report; do
    run "$P" "$c" --help
    expect_has "$c --help shows its usage" "usage: padlab $c"
done
run "$P" help stats
expect_has "help COMMAND is the same as COMMAND --help" "usage: padlab stats"

# ---- usage errors: one line, exit status 2 ----
run "$P" frobnicate
expect_error "an unknown command is refused" "unknown command 'frobnicate'"
run "$P" stats --bogus
expect_error "an unknown flag is named" "unknown option '--bogus'"
run "$P" stats --maxlen abc
expect_error "a bad maxlen is named" "--maxlen: expected integers"
run "$P" stats --format xml
expect_error "a bad format is named" "--format: expected table|csv|json, got 'xml'"
run "$P" pad --padding left
expect_error "a bad padding side is named" "--padding: expected pre|post, got 'left'"
run "$P" buckets --batch-sizes 1,2
expect_error "batch sizes must match the buckets (the quarters of maxlen make 4)" "--batch-sizes: expected 4 values (one per bucket: 3 boundaries make 4 buckets), got 2"
run "$P" buckets --boundaries 200,100
expect_error "boundaries must increase" "--boundaries: values must increase"
run "$P" stats --maxlen
expect_error "a missing value is named" "--maxlen needs a value"

# ---- pad ----
printf '17 42 9 6 3\n17 81 4\n' >"$TMP/two.txt"
run "$P" pad --padding post "$TMP/two.txt"
expect "post padding keeps real tokens first" 0 $'17 42 9 6 3\n17 81 4 0 0'
run "$P" pad "$TMP/two.txt"
expect "pre padding is the default, as in Keras" 0 $'17 42 9 6 3\n0 0 17 81 4'
run "$P" pad --padding post --mask keras "$TMP/two.txt"
expect "keras mask: 1 = real" 0 $'17 42 9 6 3\n17 81 4 0 0\nmask\n1 1 1 1 1\n1 1 1 0 0'
run "$P" pad --padding post --mask torch "$TMP/two.txt"
expect "torch key_padding_mask: 1 = pad" 0 $'17 42 9 6 3\n17 81 4 0 0\nmask\n0 0 0 0 0\n0 0 0 1 1'
run "$P" pad --padding post --mask hf "$TMP/two.txt"
expect "hf attention_mask: 1 = real" 0 $'17 42 9 6 3\n17 81 4 0 0\nmask\n1 1 1 1 1\n1 1 1 0 0'
run "$P" pad --mask additive - <"$TMP/two.txt"
expect "additive mask: 0 / -inf, read from stdin" 0 $'17 42 9 6 3\n0 0 17 81 4\nmask\n0 0 0 0 0\n-inf -inf 0 0 0'
run bash -c "printf '1 2 3 4 5\n\n7\n' | '$P' pad --maxlen 3"
expect "truncating pre keeps the end; an empty line is a row of pads" 0 $'3 4 5\n0 0 0\n0 0 7'
run bash -c "printf '1 2 3 4 5\n' | '$P' pad --maxlen 3 --truncating post --padding post --value -1"
expect "truncating post keeps the start" 0 "1 2 3"
run bash -c "printf '1 2 3\n4 -5\n' | '$P' pad --maxlen 4 --value -1 --padding post"
expect "a custom pad value" 0 $'1 2 3 -1\n4 -5 -1 -1'
run bash -c "printf '1 2\n3 x 4\n' | '$P' pad"
expect_error "a non-integer is refused with its line" "<stdin>:2: expected integers separated by spaces, got 'x'"
run "$P" pad "$TMP/absent.txt"
expect_error "a missing input file is named" "absent.txt: cannot open"

# ---- a small corpus worked out by hand: lengths 3, 5, 2 ----
printf 'label\ttext\n1\tGood fun\n0\tBad, bad, bad film!\n1\tOk\n' >"$TMP/small.tsv"
run "$P" stats --corpus "$TMP/small.tsv" --maxlen 4 --format csv
expect "stats csv on three reviews" 0 $'maxlen,padding_share,kept_share,rows_truncated\n4,0.2500,0.9000,0.3333'
# --maxlen none is the longest review, 5: 15 cells hold the 10 tokens, nothing cut
run "$P" stats --corpus "$TMP/small.tsv" --maxlen none,4 --format csv
expect "stats --maxlen none costs the longest review's width" 0 $'maxlen,padding_share,kept_share,rows_truncated\n5,0.3333,1.0000,0.0000\n4,0.2500,0.9000,0.3333'
run "$P" stats --corpus "$TMP/small.tsv" --maxlen none
expect_has "the table says which row is none" "none (5)         0.3333      1.0000          0.0000"
run "$P" stats --corpus "$TMP/small.tsv" --maxlen none --format json
expect_has "the JSON marks it" $'"maxlen": 5,\n      "none": true,'
run "$P" stats --maxlen 200,nothing
expect_error "a maxlen that is neither a number nor none is named" "--maxlen: expected integers from 1 to 10000000 or none, separated by commas, got '200,nothing'"
run "$P" experiment pooling --maxlen 1
expect_error "experiment's maxlen is one number or none" "--maxlen: expected an integer from 2 to 100000 or none, got '1'"
run "$P" experiment pooling --corpus builtin:1:120 --maxlen none --epochs 1 --format json
if [[ $rc -eq 0 && $out == *'"max_length": -1,
          "n": 0,
          "acc": null'* ]]; then pass "experiment --maxlen none: no review is longer, so the long group has no accuracy (null, not 0)"
else fail "experiment --maxlen none: no review is longer, so the long group has no accuracy (null, not 0)" "status $rc" "$err"; fi
longest=$("$P" stats --corpus builtin:1:120 --maxlen 10 --format json | awk -F': ' '/"max"/ {print $2 + 0}')
run "$P" experiment pooling --corpus builtin:1:120 --maxlen none --epochs 1
expect_has "experiment --maxlen none trains as wide as the longest review, and says so" "1 epochs, maxlen $longest (the longest review: nothing cut), 1 seed"
run "$P" bench --probes --corpus builtin:1:120 --maxlen none --reps 1
expect_has "bench --probes --maxlen none measures at the longest review" "maxlen $longest "

run "$P" stats --corpus "$TMP/small.tsv" --maxlen 4
expect_has "stats table shows the length summary" "lengths    min 2, median 3, mean 3.3, p95 5, max 5"
run "$P" stats --corpus "$TMP/small.tsv" --maxlen 4,10 --format json
want_json='{
  "corpus": "'"$TMP/small.tsv"'",
  "sequences": 3,
  "positive": 2,
  "vocabulary": 5,
  "chance": {
    "share": 1,
    "label": "positive",
    "n_val": 1,
    "noise": 0
  },
  "lengths": {
    "min": 2,
    "median": 3,
    "mean": 3.3333333333333335,
    "p95": 5,
    "max": 5
  },
  "maxlen": [
    {
      "maxlen": 4,
      "padding_share": 0.25,
      "kept_share": 0.9,
      "rows_truncated": 0.3333333333333333
    },
    {
      "maxlen": 10,
      "padding_share": 0.6666666666666667,
      "kept_share": 1,
      "rows_truncated": 0
    }
  ]
}'
expect "stats json has the documented shape" 0 "$want_json"
if command -v python3 >/dev/null; then
    run python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["lengths"]["p95"], d["maxlen"][0]["kept_share"])' <<<"$want_json"
    expect "stats json parses as JSON" 0 "5 0.9"
else
    skip "stats json parses as JSON (no python3)"
fi
run "$P" buckets --corpus "$TMP/small.tsv" --boundaries 3 --batch-sizes 2,2 --batch 2 --maxlen 4 --format csv
# lengths 3, 5, 2 cut to 4 (but under longest): kept 3, 4, 2; batches {0,1} {2}, widths 4 and 2;
# cells saved and attention saved are against static's 12 cells and 3 x 16 = 48 score cells, and so
# are the ratios: longest 15/12 and 75/48, multiple_of_8 24/12 and 192/48, packed 9/12 and 29/48
# and every strategy's two batches, of two rows and of one, are two shapes
expect "buckets csv on three reviews" 0 "strategy,batches,shapes,padding_share,slots,real_tokens,tokens_cut,attention_cells,cells_saved,attention_saved,cells_vs_static,attention_vs_static
longest,2,2,0.3333,15,10,0,75,-0.2500,-0.5625,1.2500,1.5625
static,2,2,0.2500,12,9,1,48,0.0000,0.0000,1.0000,1.0000
dynamic,2,2,0.1000,10,9,1,36,0.1667,0.2500,0.8333,0.7500
multiple_of_8,2,2,0.6250,24,9,1,192,-1.0000,-3.0000,2.0000,4.0000
length_grouped,2,2,0.1000,10,9,1,36,0.1667,0.2500,0.8333,0.7500
bucket_longest,2,2,0.1000,10,9,1,36,0.1667,0.2500,0.8333,0.7500
tf_bucket,2,2,0.1000,10,9,1,36,0.1667,0.2500,0.8333,0.7500
packed,2,2,0.0000,9,9,1,29,0.2500,0.3958,0.7500,0.6042"
run "$P" buckets --corpus "$TMP/small.tsv" --boundaries 3 --batch-sizes 2,2 --batch 2 --maxlen 4
expect_has "buckets table says a strategy that computes more in words, never as a saving" "192  2.0x as many     4.0x as many"
run "$P" buckets --corpus "$TMP/small.tsv" --boundaries 3 --batch-sizes 2,2 --format json
expect_has "buckets json lists strategies" '"name": "bucket_longest",'
# maxlen none: whole reviews, nothing cut. Ten reviews of 900, 50, 250, 1200, 120, 790, 90, 390,
# 180 and 500 tokens (start token included), 4470 in all, in one batch of 32:
#   every review padded to the longest: 10 x 1200 = 12000 cells, 1 - 4470/12000 = 0.6275 pads;
#   buckets at 100, 200, 400, 800 hold {50, 90} {120, 180} {250, 390} {500, 790} {900, 1200},
#   each as wide as its longest: 2 x (90 + 180 + 390 + 790 + 1200) = 5300 cells, 830/5300 = 0.1566;
#   score cells 2 x (90^2 + 180^2 + 390^2 + 790^2 + 1200^2) = 4513400.
for L in 900 50 250 1200 120 790 90 390 180 500; do
    printf '%d\t' $((L % 3 % 2))
    for ((i = 1; i < L; i++)); do printf 'w%d ' $((i % 7)); done
    printf '\n'
done >"$TMP/ten.tsv"
run "$P" buckets --corpus "$TMP/ten.tsv" --maxlen none --boundaries 100,200,400,800 --format csv
# (one shape for static's one batch, 2 x 90, 180, 390, 790 and 1200 for the buckets' five)
if [[ $rc -eq 0 && $out == *$'\nstatic,1,1,0.6275,12000,4470,0,14400000,'* && $out == *$'\nbucket_longest,5,5,0.1566,5300,4470,0,4513400,'* && $out == *$'\ntf_bucket,5,5,0.1566,5300,4470,0,4513400,'* ]]; then
    pass "buckets --maxlen none: static pads every review to the longest (62.75%), five buckets pad 15.66%, nothing cut"
else
    fail "buckets --maxlen none: static pads every review to the longest (62.75%), five buckets pad 15.66%, nothing cut" "$out" "$err"
fi
if [[ $(cut -d, -f7 <<<"$out" | sort -u | tr '\n' ' ') == "0 tokens_cut " ]]; then pass "buckets --maxlen none cuts no token under any strategy"
else fail "buckets --maxlen none cuts no token under any strategy" "$out"; fi
run "$P" buckets --corpus "$TMP/ten.tsv" --maxlen 800 --boundaries 100,200,400,800 --format csv
# at 800 the two longest lose 100 + 400 tokens: 3970 kept in 8000 cells, 4030/8000 = 0.50375 pads
# (0.5037: computed as 1 - 3970/8000, which in doubles lands just under 0.50375)
expect_has "at maxlen 800 the two longest lose 100 + 400 tokens" $'\nstatic,1,1,0.5037,8000,3970,500,'
run "$P" buckets --corpus "$TMP/ten.tsv" --maxlen nonsense
expect_error "a maxlen that is neither a number nor none is refused" "--maxlen: expected a whole number from 1 to 2000 or none, got 'nonsense'"
run "$P" probe batch --corpus "$TMP/ten.tsv" --maxlen none --example 3 --format json
expect_has "probe batch --maxlen none: the static batch is as wide as the longest review" '"T": 1200'
expect_has "and its JSON names the maxlen none" '"maxlen": "none"'
run "$P" --corpus "$TMP/small.tsv"
expect_has "padlab with no command prints the report" "batching strategies"
run "$P" report --corpus "$TMP/small.tsv" </dev/null
expect_has "the report shows the maxlen table" "padding_share"

# ---- an aclImdb-style folder ----
mkdir -p "$TMP/acl/test/pos" "$TMP/acl/test/neg"
printf 'A fine, fine film.' >"$TMP/acl/test/pos/0_8.txt"
printf 'Awful.<br />Just awful.' >"$TMP/acl/test/neg/0_1.txt"
run "$P" stats --corpus "$TMP/acl" --maxlen 4 --format csv
expect "stats on an aclImdb folder (lengths 4, 5)" 0 $'maxlen,padding_share,kept_share,rows_truncated\n4,0.0000,0.8889,0.5000'
run "$P" buckets --corpus "$TMP/acl" --format csv
expect_has "buckets on an aclImdb folder (packed: 4 + 5 tokens, 16 + 25 score cells, one shape)" "packed,1,1,0.0000,9,9,0,41,"

# A file name's control bytes are written out in the loader's messages (ESC ] 0 ; would set the
# terminal's title): a NUL in a file named with ESC, and a FIFO named with ESC [ 2 J.
mkdir -p "$TMP/aclesc/pos" "$TMP/aclesc/neg"
printf 'good' >"$TMP/aclesc/pos/1.txt"
printf 'bad\0' >"$TMP/aclesc/neg/"$'\e]0;owned\a'.txt
run "$P" stats --corpus "$TMP/aclesc"
if [[ $rc -eq 2 && $err == *'neg/\x1b]0;owned\x07.txt:1: contains a NUL byte'* && $err != *$'\e'* ]]; then
    pass "the aclImdb loader writes out a file name's control bytes in its errors"
else fail "the aclImdb loader writes out a file name's control bytes in its errors" "status $rc" "$(cat -v <<<"$err")"; fi
rm "$TMP/aclesc/neg/"*
printf 'bad' >"$TMP/aclesc/neg/1.txt"
mkfifo "$TMP/aclesc/neg/"$'\e[2J'.txt
run timeout 10 "$P" stats --corpus "$TMP/aclesc" --format csv
if [[ $rc -eq 0 && $err == *'neg/\x1b[2J.txt'* && $err != *$'\e'* ]]; then pass "and in the note of what it skipped"
else fail "and in the note of what it skipped" "status $rc" "$(cat -v <<<"$err")"; fi

# ---- bad corpora: one line naming the file and line, exit status 2 ----
printf '1\tfine\nno tab\n' >"$TMP/notab.tsv"
run "$P" stats --corpus "$TMP/notab.tsv"
expect_error "a line without a tab is named" "notab.tsv:2: expected LABEL<TAB>TEXT, found no tab"
printf '1\tfine\n5\tbad label\n' >"$TMP/label.tsv"
run "$P" buckets --corpus "$TMP/label.tsv"
expect_error "a bad label is named" "label.tsv:2: label must be 0 or 1, got '5'"
: >"$TMP/empty.tsv"
run "$P" stats --corpus "$TMP/empty.tsv"
expect_error "an empty file is refused" "empty.tsv: empty file"
printf 'label\ttext\n' >"$TMP/header.tsv"
run "$P" stats --corpus "$TMP/header.tsv"
expect_error "a header alone has no examples" "header.tsv: no examples"
printf '1\tok\n0\tnul\0here\n' >"$TMP/nul.tsv"
run "$P" stats --corpus "$TMP/nul.tsv"
expect_error "a NUL byte is refused with its line" "nul.tsv:2: contains a NUL byte"
# A UTF-8 byte order mark before the first line is skipped, header or not: the same corpus.
printf '1\tgood film\n0\tbad film\n' >"$TMP/nobom.tsv"
printf '\xef\xbb\xbf1\tgood film\n0\tbad film\n' >"$TMP/bom.tsv"
printf '\xef\xbb\xbflabel\ttext\n1\tgood film\n0\tbad film\n' >"$TMP/bomhead.tsv"
run "$P" stats --corpus "$TMP/nobom.tsv" --maxlen 2 --format csv
want=$out
run "$P" stats --corpus "$TMP/bom.tsv" --maxlen 2 --format csv
expect "a TSV starting with a UTF-8 BOM is read as without it" 0 "$want"
run "$P" stats --corpus "$TMP/bomhead.tsv" --maxlen 2 --format csv
expect "and so is one whose header follows the BOM" 0 "$want"
run "$P" stats --corpus "$TMP/no-such-dir/x.tsv"
expect_error "a missing corpus is named" "x.tsv: cannot open"
mkdir -p "$TMP/plain"
run "$P" stats --corpus "$TMP/plain"
expect_error "a folder without pos/neg is refused" "not an aclImdb-style folder"
run "$P" stats --corpus builtin:abc
expect_error "a bad builtin spec is refused" "expected builtin, builtin:SEED"
printf '1\tcaf\xe9 \xff\xfe na\xefve\n' >"$TMP/latin1.tsv"
run "$P" stats --corpus "$TMP/latin1.tsv" --format json
expect_has "invalid UTF-8 loads and prints" '"sequences": 1'

# ---- garbage in: random bytes as a corpus, a model file, a pad input; never a crash ----
crashes=""
for i in $(seq 1 40); do
    head -c $((i * 97)) /dev/urandom >"$TMP/junk$i"
    (( i % 3 == 0 )) && printf '1\t' | cat - "$TMP/junk$i" >"$TMP/junk$i.tsv" && mv "$TMP/junk$i.tsv" "$TMP/junk$i"
    "$P" stats --corpus "$TMP/junk$i" >/dev/null 2>&1; r1=$?
    "$P" probe rnn --corpus builtin:1:20 --weights "$TMP/junk$i" >/dev/null 2>&1; r2=$?
    "$P" pad "$TMP/junk$i" >/dev/null 2>&1; r3=$?
    for r in $r1 $r2 $r3; do [[ $r -eq 0 || $r -eq 2 ]] || crashes+=" junk$i:$r"; done
done
if [[ -z $crashes ]]; then pass "random bytes as corpus, model and pad input: exit 0 or 2, never a crash"
else fail "random bytes as corpus, model and pad input: exit 0 or 2, never a crash" "$crashes"; fi

# ---- the built-in corpus ----
run "$P" stats --format csv --maxlen 200
expect_has "stats on the built-in corpus" "200,"
run "$P" buckets --corpus builtin:1:300 --format csv
# packed: each of the 10 batches is one row of its own count of tokens, 10 shapes
expect_has "buckets on a small built-in corpus" "packed,10,10,0.0000,"

# ---- training: experiments and the benchmark on a small built-in corpus ----
run "$P" experiment padding --corpus builtin:3:300 --epochs 1 --seed 7 --format json
if [[ $rc -eq 0 && $out == *'"experiment": "padding"'* && $out == *'"setup": {'*'"padding": "post",'*'"mask": true'* && $out == *'"seed": 7,'* ]]; then
    pass "experiment json names each setup"
else
    fail "experiment json names each setup" "status $rc" "$out" "$err"
fi
if command -v python3 >/dev/null; then
    run python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["runs"]), len(d["summary"]), d["runs"][0]["setup"], len(d["runs"][0]["val_acc"]), d["summary"][3]["n"])' <<<"$out"
    expect "experiment json parses with 4 runs and 4 summaries" 0 "4 4 {'padding': 'pre', 'mask': False} 1 1"
else
    skip "experiment json parses (no python3)"
fi
run "$P" experiment padding --corpus builtin:3:300 --epochs 1 --seeds 2 --format csv
if [[ $rc -eq 0 && $(printf '%s\n' "$out" | head -n 1) == "padding,mask,n,median,chance,mean,std,min,max,s/epoch,steps" && $(printf '%s\n' "$out" | wc -l) -eq 5 && $out == *$'\npost,true,2,'* ]]; then
    pass "experiment csv: one summary row per setup over 2 seeds"
else
    fail "experiment csv: one summary row per setup over 2 seeds" "$out" "$err"
fi
run "$P" experiment padding --corpus builtin:3:300 --epochs 1 --threads 1 --format csv --seeds 2
csv1=$out
run "$P" experiment padding --corpus builtin:3:300 --epochs 1 --threads 2 --format csv --seeds 2
if [[ $(cut -d, -f1-8 <<<"$out") == "$(cut -d, -f1-8 <<<"$csv1")" ]]; then pass "experiment numbers do not depend on the thread count"
else fail "experiment numbers do not depend on the thread count" "$csv1" "$out"; fi
run "$P" experiment padding --corpus builtin:3:300 --epochs 1 --save-model "$TMP/rnn.model" --format csv
if [[ $rc -eq 0 && -s $TMP/rnn.model ]]; then pass "padding experiment saves its first model (rnn, pre padding, no mask)"
else fail "padding experiment saves its first model (rnn, pre padding, no mask)" "$out" "$err"; fi
run "$P" experiment pooling --corpus builtin:3:300 --epochs 1 --save-model "$TMP/pool.model"
if [[ $rc -eq 0 && -s $TMP/pool.model && $out == *"real_weight"* && $out == *"divide_by_T"* ]]; then pass "pooling experiment saves its first model"
else fail "pooling experiment saves its first model" "$out" "$err"; fi
# every other experiment runs end to end on a small corpus, with figures that must hold
run "$P" experiment batching --corpus builtin:3:200 --epochs 1 --maxlen 50 --format csv
if [[ $rc -eq 0 ]]; then
    static=$(awk -F, '$1=="static"{print $NF}' <<<"$out"); packed=$(awk -F, '$1=="packed"{print $NF}' <<<"$out")
    dynamic=$(awk -F, '$1=="dynamic"{print $NF}' <<<"$out")
    if [[ $static -eq $((160 * 50)) && $packed -lt $static && $dynamic -le $static ]]; then pass "batching: packed computes fewer steps than static (160 x 50)"
    else fail "batching: packed computes fewer steps than static (160 x 50)" "$out"; fi
else
    fail "batching experiment runs" "$err"
fi
run "$P" experiment cells --corpus builtin:3:200 --epochs 1 --maxlen 30 --format csv
expect_has "cells: lstm with the mask has a summary row" $'\nlstm,post,true,1,'
run "$P" experiment maxlen --corpus builtin:3:200 --epochs 1 --format csv
expect_has "maxlen: the rnn at maxlen 400 has a summary row" $'\nrnn,400,true,1,'
run "$P" experiment truncation --corpus builtin:3:200 --epochs 1 --maxlen 40 --format csv
expect_has "truncation: windows for the pooling model" $'\navgpool,window,1,'
run "$P" experiment loss --corpus builtin:3:200 --epochs 1 --maxlen 30 --format json
if command -v python3 >/dev/null; then
    run python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["summary"]; print(len(s), s[0]["metric"], all(0 < x["median"] < 10 for x in s), [x["setup"]["pads_in_loss"] for x in s])' <<<"$out"
    expect "loss: four setups summarised by validation loss" 0 "4 best_val_loss True [False, False, False, True]"
fi
run "$P" experiment nonsense
expect_error "an unknown experiment is named" "unknown experiment 'nonsense'"
run "$P" experiment padding --seeds 2 --seed 3
expect_error "--seeds and --seed exclude each other" "--seeds and --seed cannot be combined"
run "$P" experiment padding --epochs 0
expect_error "zero epochs are refused" "--epochs: expected an integer from 1 to 100"
run "$P" bench --corpus builtin:3:300 --epochs 1 --format json
if [[ $rc -eq 0 && $out == *'"gemm_gflops"'* && $out == *'"model": "rnn"'* && $out == *'"model": "avgpool"'* ]]; then pass "bench json reports the machine and both models"
else fail "bench json reports the machine and both models" "$out" "$err"; fi
# Every vector level can be forced, and bench names the one in use (a level
# this CPU lacks falls back to the widest it has, unforced).
for level in baseline avx2 avx512; do
    PADLAB_SIMD=$level run "$P" bench --corpus builtin:3:40 --epochs 1 --models rnn,gru --format json
    if [[ $rc -eq 0 && $out == *"\"simd\": \"$level\""* && $out == *'"simd_forced": 1'* ]]; then pass "PADLAB_SIMD=$level is the level bench trains on"
    elif [[ $rc -eq 0 && $out == *'"simd_forced": 0'* ]]; then pass "PADLAB_SIMD=$level, which this CPU lacks, falls back unforced"
    else fail "PADLAB_SIMD=$level is the level bench trains on" "$out" "$err"; fi
done
# A TSV corpus is also timed loading: tokenized, and read back from the corpus cache.
run env XDG_CACHE_HOME="$TMP/cache" "$P" bench --corpus "$TMP/small.tsv" --epochs 1 --models avgpool --format json
if [[ $rc -eq 0 && $out == *'"tokenized_ms"'* && $out =~ \"from_cache_ms\":\ [0-9] && -n $(ls "$TMP/cache/padlab/corpus") ]]; then
    pass "bench times loading a TSV corpus tokenized and from the corpus cache"
else fail "bench times loading a TSV corpus tokenized and from the corpus cache" "$out" "$err"; fi
run "$P" bench --corpus builtin:3:40 --epochs 1 --models rnn,nonsense
expect_error "bench names an unknown model" "--models: unknown or repeated model 'nonsense'"

# ---- probes: one run body over the lab's results; every one prints JSON with its documented summary ----
declare -A probe_keys=(
    [batch]="real_tokens mask_real label_positions agree"
    [attention]="pad_weight_max row_sum_error_max batch_invariance_max_diff packed_vs_padded_max_diff nan_count leak_total"
    [rnn]="final_distance_to_last_real distance_to_fixed_point last_real_survival"
    [pooling]="mean_real_weight min_real_weight avg_unmasked_distance avg_divide_by_T_distance max_unmasked_distance"
    [loss]="per_token per_sequence batch_t fake_terms"
    [layers]="masked_leak_max"
    [generate]="left right left_vs_single_max_diff"
    [masks]="share_right share_none share_inverted padded_rows blind_rows blind_queries agree"
    [identity]="masked_max_diff unmasked_max_diff mask_effect_max_diff order_blind pads"
    [kvcache]="left slot_positions no_mask right cache static_cache left_max_diff right_max_diff"
    [blocks]="block padded_width tiles dense_bool_bytes block_mask_bytes rules"
    [packing]="D N read_back_documents cu_seqlens_match cells attention loss"
)
for kind in batch attention rnn pooling loss layers generate kvcache masks identity blocks packing; do
    side=(--padding post)
    # a packed row has no pads, and the decoder probes lay their prompts out on both sides: no side for them
    [[ $kind == packing || $kind == generate || $kind == kvcache ]] && side=()
    run "$P" probe "$kind" --corpus builtin:5:40 --example 3 --maxlen 24 "${side[@]}" --format json
    if ! command -v python3 >/dev/null; then skip "probe $kind json parses (no python3)"; continue; fi
    keys=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(" ".join(d["summary"].keys()), "|", " ".join(k for k in ("settings", "source") if k in d))' <<<"$out" 2>&1)
    missing=""
    for k in ${probe_keys[$kind]}; do [[ " ${keys%|*} " == *" $k "* ]] || missing+=" $k"; done
    [[ ${keys#*|} == " settings source" ]] || missing+=" settings/source"
    if [[ $rc -eq 0 && -z $missing ]]; then pass "probe $kind json has its summary, settings and source"
    else fail "probe $kind json has its summary, settings and source" "status $rc, missing:$missing" "keys: $keys" "$err"; fi
done

# kvcache's two named fields are the left and right ways' largest differences
run "$P" probe kvcache --corpus builtin:5:40 --format json
same=$(python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["left_max_diff"] == s["left"]["max_diff"], s["right_max_diff"] == s["right"]["max_diff"], s["right_max_diff"] > s["left_max_diff"])' <<<"$out" 2>&1)
if [[ $rc -eq 0 && $same == "True True True" ]]; then pass "probe kvcache json: left_max_diff and right_max_diff are the left and right ways', right the larger"
else fail "probe kvcache json: left_max_diff and right_max_diff" "status $rc" "$same"; fi

# a probe takes exactly the settings its result depends on: any other is refused by the parser
run "$P" probe pooling --mask on
expect_error "probe pooling refuses --mask (it computes every variant)" "padlab probe pooling: unknown option '--mask' (see padlab probe pooling --help)"
run "$P" probe masks --mask on
expect_error "probe masks refuses --mask (every mask is computed)" "padlab probe masks: unknown option '--mask' (see padlab probe masks --help)"
run "$P" probe batch --seed 3
expect_error "probe batch refuses --seed (no weights)" "padlab probe batch: unknown option '--seed' (see padlab probe batch --help)"
run "$P" probe generate --weights "$TMP/none.model"
expect_error "probe generate refuses --weights (its decoder is seeded)" "padlab probe generate: unknown option '--weights'"
run "$P" probe layers --model gru
expect_error "probe layers refuses --model (it runs every layer)" "padlab probe layers: unknown option '--model'"
run "$P" probe pooling --help
if [[ $rc -eq 0 && $out == *"--batching STRATEGY"* && $out == *"--example I"* && $out == *"--weights FILE"* && $out == *"(default auto)"* && $out != *"--mask "* ]]; then
    pass "probe pooling --help lists its settings from the registry, and no --mask"
else fail "probe pooling --help lists its settings from the registry, and no --mask" "$out"; fi
run "$P" probe rnn --help
expect_has "probe rnn --help: the registry's --model names the cell" "--model MODEL"
if command -v python3 >/dev/null; then
    run "$P" probe pooling --corpus builtin:5:40 --format json
    run python3 -c 'import json,sys; print(sorted(json.load(sys.stdin)["settings"]))' <<<"$out"
    expect "probe pooling json names the settings it read" 0 "['batch', 'batching', 'corpus', 'example', 'maxlen', 'padding', 'seed', 'truncating']"
fi
run "$P" probe rnn --model avgpool
expect_error "probe rnn names a model that is not a recurrent cell" "--model avgpool: the rnn probe follows a recurrent cell: rnn, gru or lstm"
run "$P" probe rnn --corpus builtin:5:40 --model gru --maxlen 30 --format json
expect_has "probe rnn --model gru follows a GRU" '"cell": "gru"'
run "$P" probe batch --corpus builtin:5:40 --batch 0,1
expect_error "--batch is the rows per batch; the rows are --rows" "--batch N is the rows per batch; name the rows of a batch with --rows 0,1"

# the batch: the one of the plan that holds the example (auto: the first review shorter than maxlen / 2)
if command -v python3 >/dev/null; then
    run "$P" probe batch --batching dynamic --maxlen 2000 --batch 8 --example 0 --format json
    auto=$(python3 -c 'import json,sys; print(next(i for i,r in enumerate(json.load(sys.stdin)["rows"]) if r["length"] < 100))' <<<"$out")
    run "$P" probe attention
    first=$(head -n 1 <<<"$out")
    # 5000 reviews in batches of 32 make 157; the auto example sits in the first
    want="batch 1 of 157: 32 rows x 200 (static); close-up: example $auto and batch-mates $((auto + 1)), $((auto + 2)), $((auto + 3)) at width 200; fresh weights from seed 0"
    if [[ $rc -eq 0 && $first == "$want" ]]; then pass "probe attention's first line names the batch, the close-up rows and the weights"
    else fail "probe attention's first line names the batch, the close-up rows and the weights" "got:  $first" "want: $want" "$err"; fi
    run "$P" probe batch --corpus builtin:5:40 --example 35 --batch 8 --format json
    run python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["source"]; print(s["batch_index"], s["batches"], [r["example"] for r in d["rows"]], d["T"])' <<<"$out"
    expect "probe batch --batch 8: example 35 is in batch 4 of 5 (rows 32..39), static width maxlen" 0 "4 5 [32, 33, 34, 35, 36, 37, 38, 39] 200"
    run "$P" probe batch --batching dynamic --maxlen 100 --format json
    run python3 -c 'import json,sys; d=json.load(sys.stdin); r=d["rows"]; print(d["T"] == max(min(x["length"], 100) for x in r), all(x["kept"] == min(x["length"], 100) for x in r), d["T"])' <<<"$out"
    expect "probe batch --batching dynamic --maxlen 100: the width is the longest kept row of its batch" 0 "True True 100"
    "$P" probe batch --corpus builtin:5:300 --maxlen 400 --batch 4 --batching dynamic --example 70 --format json >"$TMP/dynamic.json"
    # a batch as large as the corpus holds the example's whole bucket: what bucket_longest pads every batch of it to
    "$P" probe batch --corpus builtin:5:300 --maxlen 400 --batch 300 --batching bucket_longest --example 70 --format json >"$TMP/bucket.json"
    for strategy in static dynamic multiple_of_8 bucket_longest tf_bucket packed; do
        "$P" probe batch --corpus builtin:5:300 --maxlen 400 --batch 4 --batching "$strategy" --example 70 --format json >"$TMP/$strategy.json"
        run python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1])); dyn = json.load(open(sys.argv[2])); kind = sys.argv[3]
kept = lambda rows: [min(r["length"], 400) for r in rows]
T, rows = d["T"], d["rows"]
if kind == "static": ok = T == 400
elif kind == "dynamic": ok = T == max(kept(rows))
elif kind == "multiple_of_8": ok = T % 8 == 0 and T == 8 * math.ceil(max(kept(dyn["rows"])) / 8)
elif kind == "packed": ok = d["B"] == 1 and T == sum(kept(dyn["rows"])) and d["source"]["batch_rows"] == dyn["B"]
else:  # one bucket per range of the quarters of maxlen (100, 200, 300), by the uncut length
    bucket = lambda L: sum(L >= b for b in (100, 200, 300))
    ok = (kind != "tf_bucket" or T == max(kept(rows))) and len({bucket(r["length"]) for r in rows}) == 1 and 70 in [r["example"] for r in rows]
if kind == "bucket_longest":  # as wide as the longest kept row of the whole bucket of the example
    whole = json.load(open(sys.argv[4]))["rows"]
    ok = ok is not False and len({bucket(r["length"]) for r in whole}) == 1 and T == max(kept(whole)) >= max(kept(rows))
print(ok, T)' "$TMP/$strategy.json" "$TMP/dynamic.json" "$strategy" "$TMP/bucket.json"
        if [[ $rc -eq 0 && $out == True* ]]; then pass "probe batch --batching $strategy: width ${out#* } as the strategy pads"
        else fail "probe batch --batching $strategy: the width as the strategy pads" "$out" "$err"; fi
    done
fi

# rows wider than the terminal (100 columns without one) are elided in tables; --full and JSON keep every cell
run "$P" probe batch --corpus builtin:5:40
ids=$(grep -m 1 '^  ids ' <<<"$out")
if command -v python3 >/dev/null; then
    run python3 -c '
import re, sys
line = sys.argv[1]
m = re.search(r" \u2026 \((\d+) more; --full prints all\) ", line)
shown = len(re.findall(r"-?\d+", line.replace(m.group(0), " "))) if m else -1
print(len(line) <= 100, int(m.group(1)) + shown if m else None)' "$ids"
    expect "a 200-wide row is elided to 100 columns, the count of cells left out with it" 0 "True 200"
fi
run "$P" probe batch --corpus builtin:5:40 --full
if [[ $rc -eq 0 && $out != *"--full prints all"* && $(grep -m 1 '^  ids ' <<<"$out" | wc -w) -eq 201 ]]; then pass "--full prints every cell of a row"
else fail "--full prints every cell of a row" "$(grep -m 1 '^  ids ' <<<"$out")"; fi
run "$P" probe batch --corpus builtin:5:40 --maxlen 12
if [[ $rc -eq 0 && $out != *"more; --full"* ]]; then pass "rows that fit are not elided"; else fail "rows that fit are not elided" "$out"; fi

# generate with no options: the auto example (short) and its batch-mates are prompts of different lengths
if command -v python3 >/dev/null; then
    run "$P" probe generate --format json
    run python3 -c 'import json,sys; d=json.load(sys.stdin); L=[p["length"] for p in d["prompts"]]; print(len(set(L)) > 1, d["source"]["close_up"] == [p["example"] for p in d["prompts"]], min(L) < 100)' <<<"$out"
    expect "probe generate with no options: prompts of different lengths, the short auto example among them" 0 "True True True"
fi
run "$P" probe generate
expect_has "probe generate's table says how long each prompt is" "  prompt 0: review $auto, "

# --weights: a model file saved by padlab experiment
run "$P" probe rnn --corpus builtin:3:300 --weights "$TMP/rnn.model"
expect_has "probe rnn --weights names the file in its first line" "; the weights in $TMP/rnn.model (rnn)"
if command -v python3 >/dev/null; then
    run "$P" probe rnn --corpus builtin:3:300 --weights "$TMP/rnn.model" --format json
    trained=$out
    run "$P" probe rnn --corpus builtin:3:300 --format json
    run python3 -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); print(a["source"]["weights"]["from"], b["source"]["weights"]["from"], a["norm"] != b["norm"])' "$trained" "$out"
    expect "probe rnn reads the trained weights, not fresh ones" 0 "file seed True"
    run "$P" probe identity --corpus builtin:3:300 --weights "$TMP/rnn.model" --format json
    run python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["arch"], d["settings"]["model"], d["summary"]["masked_max_diff"] < 1e-5)' <<<"$out"
    expect "probe identity follows the file's model" 0 "rnn rnn True"
fi
run "$P" probe masks --corpus builtin:3:300 --weights "$TMP/rnn.model"
expect_error "probe masks reads only an attention model" "the masks probe needs an attention model, this one is rnn"

run "$P" probe layers --corpus builtin:5:40 --maxlen 300 --format json
if command -v python3 >/dev/null; then
    run python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted({(l["name"],l["mask"]) for l in d["layers"] if l["leak"]==0}))' <<<"$out"
    expect "probe layers: exactly the masked and per-position layers show 0" 0 "[('attention', 'on'), ('avgpool', 'on'), ('dense', 'none'), ('embedding', 'none'), ('gru', 'on'), ('lstm', 'on'), ('maxpool', 'on'), ('rnn', 'on')]"
fi
# rows 0..3 as one dynamic batch are as wide as the longest, 102: three of them have pads and one is full
run "$P" probe masks --corpus builtin:5:40 --maxlen 300 --padding post --rows 0,1,2,3 --batching dynamic --format json
if command -v python3 >/dev/null; then
    run python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["summary"]; r=d["rows"]; print(s["share_right"], s["share_inverted"], 0 < s["share_none"] < 1, s["blind_rows"], s["agree"], [x["pads"] for x in r], [x["blind"] for x in r], r[0]["torch"][-1], r[0]["additive"][-1], d["conventions"][1]["code"])' <<<"$out"
    expect "probe masks: right mask 0, inverted 1, the full row blind" 0 "0 1 True 1 True [5, 0, 47, 47] [False, True, False, False] 1 None key_padding_mask = input_ids == pad_id"
fi
run "$P" probe masks --corpus builtin:5:40 --maxlen 300 --padding pre --rows 0,1,2,3 --batching dynamic
expect_has "probe masks table names the blind row" "1 row (102 query positions) has no pad, so the inverted mask hides every key"
for arch in rnn lstm; do
    run "$P" probe identity --corpus builtin:5:40 --maxlen 300 --model "$arch" --format json
    if command -v python3 >/dev/null; then
        run python3 -c 'import json,sys; s=json.load(sys.stdin)["summary"]; print(s["masked_max_diff"] < 1e-5, s["unmasked_max_diff"] > 1e-3, s["order_blind"])' <<<"$out"
        expect "probe identity $arch: pre = post with the mask, not without" 0 "True True False"
    fi
done
run "$P" probe identity --corpus builtin:5:40 --maxlen 300 --model avgpool
expect_has "probe identity avgpool: order-blind, so pre = post even unmasked" "avgpool does not see token order"
run "$P" probe identity --model transformer
expect_error "probe identity names a bad --model" "--model: expected one of rnn,gru,lstm,avgpool,attention, got 'transformer'"
run "$P" probe identity --corpus builtin:3:300 --weights "$TMP/pool.model" --model gru
expect_error "probe identity: --model must match the --weights" "--model gru: the weights in $TMP/pool.model are avgpool (leave --model out to follow them)"
run "$P" probe masks --corpus builtin:5:40 --example 40
expect_error "probe masks: an out-of-range example is named" "example 40 is out of range (the corpus has 40, from 0)"
run "$P" probe
expect_error "probe without a kind names the kinds" "expected a probe kind: batch, attention"
run "$P" probe telescope
expect_error "an unknown probe is named" "unknown probe 'telescope'"
run "$P" probe rnn --corpus builtin:5:40 --example 99
expect_error "an out-of-range example is named" "example 99 is out of range (the corpus has 40, from 0)"
run "$P" probe batch --corpus builtin:5:40 --example 2 --rows 0,1
expect_error "--rows must include --example" "--rows must include the --example row (2)"
printf 'not a model' >"$TMP/bad.model"
run "$P" probe rnn --corpus builtin:5:40 --weights "$TMP/bad.model"
expect_error "a damaged model file is refused" "bad.model: not a padlab model file (bad magic)"
run "$P" probe rnn --corpus builtin:5:40 --weights "$TMP/pool.model"
expect_error "a pooling model cannot drive the rnn probe" "the rnn probe needs a recurrent model (rnn, gru or lstm), this one is avgpool"
run "$P" probe pooling --corpus builtin:3:300 --weights "$TMP/pool.model" --format json
expect_has "a trained pooling model drives the pooling probe" '"from": "file"'

# ---- the reference corpus ----
imdb=${PADLAB_SHARED_DATA:-../shared/data}/imdb5k.tsv
if [[ -r $imdb ]]; then
    run "$P" stats --corpus "$imdb" --maxlen 200 --format csv
    expect "imdb5k at maxlen 200" 0 $'maxlen,padding_share,kept_share,rows_truncated\n200,0.1961,0.6749,0.4302'
    run "$P" stats --corpus "$imdb"
    expect_has "imdb5k length summary" "min 13, median 177, mean 238.2, p95 600, max 2474"
    run "$P" buckets --corpus "$imdb" --format csv
    # rows cut to 200 (but under longest); bucket_longest splits at 50, 100, 150 by the uncut
    # length: four buckets, each as wide as its longest kept row; 5000 = 156 x 32 + 8, so longest
    # takes 2 shapes (32 and 8 rows of 2474) and bucket_longest 8 (four widths, full and last batches)
    if [[ $out == *$'\nlongest,157,2,0.9037,'* && $out == *$'\nbucket_longest,159,8,0.0764,'* ]]; then
        pass "imdb5k buckets: longest 0.9037, bucket_longest 0.0764"
    else
        fail "imdb5k buckets: longest 0.9037, bucket_longest 0.0764" "$out"
    fi
    run "$P" probe pooling --corpus "$imdb" --maxlen 200 --padding pre
    expect_has "imdb5k pooling weights: mean 0.8039, minimum 0.065" "over 5000 reviews: mean 0.8039, minimum 0.0650"
    if command -v python3 >/dev/null; then
        run "$P" probe generate --corpus "$imdb" --format json
        gen=$out
        rows=$(python3 -c 'import json,sys; print(",".join(str(p["example"]) for p in json.load(sys.stdin)["prompts"]))' <<<"$gen")
        run "$P" probe batch --corpus "$imdb" --rows "$rows" --batching dynamic --format json
        run python3 -c 'import json,sys; g=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); L=[p["length"] for p in g["prompts"]]; print(len(set(L)) == len(L), L == [r["kept"] for r in b["rows"]])' "$gen" "$out"
        expect "imdb5k probe generate: four prompts of four lengths, each its review cut to maxlen" 0 "True True"
    else
        skip "imdb5k probe generate (no python3)"
    fi
else
    skip "imdb5k checks: $imdb not found" 5
fi

finish
