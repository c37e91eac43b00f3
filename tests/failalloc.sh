#!/usr/bin/env bash
# Allocation-failure injection: each headless command is run once to count
# its allocations, then once per allocation with that one failing
# (tests/failalloc.c). Each run must end within its time limit, without a
# crash, and either exactly as the normal run (status 0, the same stdout) or
# with a non-zero status and "out of memory" said: for a command whose
# output is held until it ends (all but lesson, drill and kata --list), one
# line on stderr and nothing on stdout; lesson and drill print as they go,
# and kata --list lists the katas it could read beside a line for the one it
# could not, so there the words may come on either stream.
#
# Two counts are swept: padlab's own allocations (PADLAB_FAIL_AT), and the C
# library's on padlab's behalf (PADLAB_LIBC_FAIL_AT: getline's line, the
# memory stream that holds the output, opendir). The second is swept only
# over commands that load neither OpenBLAS's threads nor fontconfig (no
# probe, no export): their allocations count there too, and fontconfig
# crashes on some of them inside `export --svg`, which padlab cannot mend.
#
# In make check the sweep fails every allocation of the small commands and an
# even sample of the large ones (COMMANDS' first field: "all" or how many),
# to stay within a few minutes. PADLAB_FAILALLOC_POINTS=all fails every one
# of every command, and adds the ones of LONG (`make sweep`: some 40,000
# runs, hours on one core); PADLAB_FAILALLOC_ONLY=REGEX keeps the commands
# matching and PADLAB_FAILALLOC_SKIP=REGEX leaves them out, so that parts of
# it can run side by side.
# Each command's counts end in one line: runs, crashes, hangs, wrong exits.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
F=${PADLAB_FAILALLOC:?set PADLAB_FAILALLOC to the fault-injecting padlab}
ALL=${PADLAB_FAILALLOC_POINTS:-}
ONLY=${PADLAB_FAILALLOC_ONLY:-}
SKIP=${PADLAB_FAILALLOC_SKIP:-}
LIMIT=${PADLAB_FAILALLOC_TIMEOUT:-20}
lessons="$here/../lessons"
decks="$here/../decks"
# No learner's progress, folders or decks of their own: the source tree's.
export XDG_STATE_HOME="$TMP/state" XDG_DATA_HOME="$TMP/data" XDG_CONFIG_HOME="$TMP/config"
unset PADLAB_LESSONS PADLAB_DECKS PADLAB_KATAS
# The review plan reads today's date: one fixed day, so that each run prints the same.
export PADLAB_NOW=2026-12-02
# A lesson question in review (a miss the day before), so that drill --list
# and --plan gather the lessons deck too.
mkdir -p "$TMP/state/padlab"
cat >"$TMP/state/padlab/drill" <<'BOOK'
format = 2
learner = 00000000000000a1
item = lessons/01-rectangle:count-the-pads state=review step=0 d=6.4133 s=0.212 due_at=1796202000 last_at=1796115600 ivl=1 reviews=1 lapses=0 right=0 wrong=0
BOOK

printf '17 42 9 6 3\n17 81 4\n' >"$TMP/two.txt"
printf '1\tgood film\n0\tbad film\n1\ta good good film\n0\tso bad\n' >"$TMP/small.tsv"
# A spot-the-bug deck of one case that computes in a blink.
cat >"$TMP/onebug.deck" <<'DECK'
# One bug
kind: bugs
setup: maxlen=16 batch=8

## Pads in the sum
id: pads-in-sum
topic: masks
A batch is padded.
bug: convention=hf
inline: 1 5 6 7 | 0 8 9 | 1 5 | 0 6 7 8 9
view: masks
symptom: masks.share_inverted => a real token's attention on pad keys
choose: What went wrong?
* The polarity => Yes.
- The shape => No.
- The moon => No.
fix: convention=torch
fixed: masks.share_right
expect: lower
after: Fixed.
DECK
# A lesson of one question, whose answer reads the batch view.
cat >"$TMP/tiny.lesson" <<'LESSON'
# A tiny lesson
level: beginner
minutes: 1
about: One question on a small batch.
setup: seeds=1 batch=8 maxlen=400 view=batch

## Count the pads
view: batch
ask: Of this batch's {batch.cells} cells, how many hold the pad token?
answer: batch.pad_cells
solution: {batch.cells} cells minus {batch.real_tokens} real tokens leaves {batch.pad_cells} pads.
reveal: {batch.pad_cells} pad cells.
summary: Pads fill the rectangle.
LESSON
# The answers tests/katas/attention_mask.py gives to the cases of
# `kata emit attention_mask --corpus builtin:0:40`: all seven pass.
cat >"$TMP/am.json" <<'JSON'
[{"attention_mask": [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1, 1, 1, 0]]},
{"attention_mask": [[1, 1, 1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0, 0, 1, 1, 1], [0, 1, 1, 1, 1, 1, 1, 1, 1, 1]]},
{"attention_mask": [[1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0, 0]]},
{"attention_mask": [[1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 0, 0, 0, 0, 0]]},
{"attention_mask": [[1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]]},
{"attention_mask": [[0, 0, 1, 1, 1, 1, 1]]},
{"attention_mask": [[1, 1, 1, 1, 1, 1, 1, 1], [0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 1, 1]]}]
JSON
# The same answers from a program, as kata check --run runs it: the line of
# the case it is given ($PADLAB_KATA_CASE ends in caseN.json).
cat >"$TMP/am.sh" <<'SH'
n=${PADLAB_KATA_CASE##*case}
sed -n "${n%.json}p" "$(dirname "$0")/am.json" | sed 's/^\[//; s/\]$//; s/},$/}/'
SH
chmod +x "$TMP/am.sh"
katas="$here/../katas"
small="--corpus builtin:0:40 --maxlen 32 --batch 8"
COMMANDS=(
    "40 stats --corpus builtin:1:30 --maxlen 8,16"
    "all stats --corpus builtin:0:40"
    "40 stats --corpus $TMP/small.tsv --format json"
    "all pad --padding post --mask hf $TMP/two.txt"
    "all buckets --corpus builtin:1:30 --format csv"
    "60 probe batch --corpus builtin:5:40"
    "40 probe attention --corpus builtin:5:40"
    "30 probe attention --corpus builtin:5:40 --maxlen 800"
    "40 probe rnn --corpus builtin:5:40"
    "all probe pooling $small"
    "40 probe loss $small"
    "40 probe layers --corpus builtin:5:40"
    "40 probe generate --corpus builtin:5:40"
    "40 probe kvcache --corpus builtin:5:40 --steps 3"
    "40 probe blocks --corpus builtin:5:40 --block 16"
    "40 probe packing --corpus builtin:5:40"
    "40 probe masks --corpus builtin:5:40"
    "40 probe identity --corpus builtin:5:40"
    "40 report --corpus builtin:5:40"
    "30 experiment padding --corpus builtin:3:40 --epochs 1 --format json"
    "30 experiment padding --corpus builtin:3:40 --epochs 1 --shard 1/3"
    "60 experiment --merge $here/fuzz/seeds/part/whole --format json"
    "12 bench --corpus builtin:3:40 --epochs 1 --format json"
    "40 lesson --check $lessons/01-rectangle.lesson"
    "40 lesson --list"
    "30 lesson --answers rectangle"
    "40 drill --check $decks/bugs.deck"
    "40 drill --list"
    "30 drill --cheatsheet cards-models"
    "30 drill --answers quickfire"
    "all drill --answers $TMP/onebug.deck"
    "60 drill --plan --until 2027-01-10"
    "60 drill --export anki quickfire $TMP/anki.txt"
    "60 kata --list"
    "all kata show masked_softmax"
    "all kata emit attention_mask --corpus builtin:0:40"
    "40 kata emit block_mask --corpus builtin:0:40"
    "40 kata emit compile_shapes --corpus builtin:0:40"
    "all kata --check $katas/pad_sequences.kata"
    "all kata check attention_mask $TMP/am.json --corpus builtin:0:40 --no-book"
    "all kata emit attention_mask --corpus builtin:0:40 --out $TMP/cases"
    "30 kata check attention_mask --run $TMP/am.sh --corpus builtin:0:40 --no-book"
    "30 experiment pooling --corpus builtin:3:40 --epochs 1 --save-model $TMP/m.model --format json"
    "20 lesson 01-rectangle --class --new --port 0 --corpus builtin:0:40 --report $TMP/class.md"
)
# The exports draw through the window's code: not in a build without it.
if ! without gui "the export and handout sweeps" 3; then
    COMMANDS+=("all export $small --view batch --csv $TMP/x.csv" "20 export $small --view batch --svg $TMP/x.svg")
    COMMANDS+=("all export $small --view batch --json $TMP/x.json")
    COMMANDS+=("20 gui $small --view batch --size 800x480 --screenshot $TMP/shot.png")
    COMMANDS+=("40 lesson 01-rectangle --handout $TMP/handout --corpus builtin:0:40")
fi
# Every allocation of these in `make sweep` only (each takes longer).
LONG=(
    "all buckets $small"
    "all probe batch $small"
    "all probe attention $small"
    "all probe rnn $small"
    "all probe layers $small"
    "all probe generate $small"
    "all probe masks $small"
    "all probe identity $small"
    "all report --corpus builtin:0:40"
    "all drill --cheatsheet"
    "all drill --answers minute"
    "all lesson --answers $TMP/tiny.lesson --corpus builtin:0:40"
    "all drill --plan --until 2027-01-10"
    "all drill --export anki quickfire $TMP/anki.txt"
    "all kata --list"
)
# The C library's allocations: every one, always.
LIBC=(
    "stats --corpus builtin:0:40"
    "buckets --corpus builtin:0:40"
    "pad --padding post --mask hf $TMP/two.txt"
    "lesson --list"
    "lesson --check $lessons/01-rectangle.lesson"
    "drill --list"
    "drill --check $decks/quickfire.deck"
    "kata --list"
    "kata check attention_mask $TMP/am.json --corpus builtin:0:40 --no-book"
    "lab --print-state --maxlen 100"
)
# Timings differ from run to run: they are left out of the comparison (a
# part's epoch_seconds is an array, one element a line: all of it).
normalise() {
    case $1 in
    experiment*) awk '/seconds/ { skip = /\[$/; next } skip { skip = !/^ *\]/; next } { print }' ;;
    # A class has a fresh code, port and QR code each run, and its report a
    # fresh name (class-2.md) when class.md is there.
    *--class*) grep -v $'\e' | sed -E 's/code [A-Z0-9]+/code C/; s/:[0-9]+\//:P\//; s/class(-[0-9]+)?\.md/class.md/' ;;
    bench*) sed -E 's/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/N/g' ;;
    *) cat ;;
    esac
}

runs=0
start=$SECONDS
# check_one CMD VAR N WANT: runs CMD with allocation N of counter VAR
# failing; prints nothing when it behaved, else a word (crashed, hung,
# wrong) and what went wrong.
check_one() {
    local cmd=$1 var=$2 n=$3 want=$4 rc lines
    # shellcheck disable=SC2086
    env "$var=$n" timeout -k 2 "$LIMIT" "$F" $cmd >"$TMP/out" 2>"$TMP/err" </dev/null && rc=0 || rc=$?
    lines=$(grep -c '' "$TMP/err")
    if ((rc == 124 || rc == 137)); then echo "hung: killed after ${LIMIT}s"
    elif ((rc >= 128)); then echo "crashed: status $rc: $(head -c 300 "$TMP/err")"
    elif ((rc == 0)); then
        normalise "$cmd" <"$TMP/out" >"$TMP/got"
        cmp -s "$TMP/got" "$want" ||
            echo "wrong: status 0 with output that differs from the normal run: $(diff "$want" "$TMP/got" | head -n 4 | cut -c1-120)"
    elif [[ $cmd == lesson* || $cmd == drill* || $cmd == "kata --list"* ]]; then
        grep -qiE 'out of memory|cannot allocate memory' "$TMP/err" "$TMP/out" ||
            echo "wrong: status $rc without 'out of memory': $(head -c 300 "$TMP/err") $(tail -n 2 "$TMP/out" | head -c 300)"
    elif ((lines != 1)) || [[ -s $TMP/out ]] || ! grep -qiE 'out of memory|cannot allocate memory' "$TMP/err"; then
        echo "wrong: status $rc, $lines stderr lines, $(wc -c <"$TMP/out") bytes on stdout: $(head -c 300 "$TMP/err")"
    fi
}

# sweep_one COUNTER POINTS CMD: COUNTER is padlab's (PADLAB) or the C
# library's (PADLAB_LIBC); POINTS "all" or how many to spread over them.
sweep_one() {
    local counter=$1 points=$2 cmd=$3 total step n what bad=0 crashes=0 hangs=0 wrong=0 count=0
    [[ -n $ONLY && ! $cmd =~ $ONLY ]] && return
    [[ -n $SKIP && $cmd =~ $SKIP ]] && return
    local countvar=PADLAB_ALLOC_COUNT failvar=PADLAB_FAIL_AT
    [[ $counter == PADLAB_LIBC ]] && countvar=PADLAB_LIBC_COUNT failvar=PADLAB_LIBC_FAIL_AT
    rm -f "$TMP/count"
    # shellcheck disable=SC2086
    env "$countvar=$TMP/count" "$F" $cmd 2>"$TMP/err" </dev/null | normalise "$cmd" >"$TMP/want"
    total=$(cat "$TMP/count" 2>/dev/null || echo 0)
    if ((total == 0)); then
        fail "padlab $cmd counted no allocation ($counter)" "$(head -c 300 "$TMP/err")"
        return
    fi
    [[ $points == all || $ALL == all ]] && points=$total
    step=1
    ((total > points)) && step=$(((total + points - 1) / points))
    for ((n = 1; n <= total; n += step)); do
        ((n + step > total)) && n=$total
        count=$((count + 1))
        what=$(check_one "$cmd" "$failvar" "$n" "$TMP/want")
        [[ -z $what ]] && continue
        bad=1
        case $what in crashed*) crashes=$((crashes + 1)) ;; hung*) hangs=$((hangs + 1)) ;; *) wrong=$((wrong + 1)) ;; esac
        fail "padlab $cmd with allocation $n of $total ($counter) failing" "$what"
    done
    runs=$((runs + count))
    echo "counts: $counter: $cmd: $count runs of $total, $crashes crashes, $hangs hangs, $wrong wrong exits"
    ((bad)) || pass "padlab $cmd survives each of $count of its $total allocations ($counter) failing"
}

for entry in "${COMMANDS[@]}"; do sweep_one PADLAB "${entry%% *}" "${entry#* }"; done
if [[ $ALL == all ]]; then
    for entry in "${LONG[@]}"; do sweep_one PADLAB "${entry%% *}" "${entry#* }"; done
fi
for cmd in "${LIBC[@]}"; do sweep_one PADLAB_LIBC all "$cmd"; done
# The same over the corpus cache: a first run writes small.tsv's entry, and
# every run after reads it back, so the sweep fails each allocation of the
# cache's reading (a failure there must fall back to tokenizing the text).
export PADLAB_CACHE=all XDG_CACHE_HOME="$TMP/cache"
"$F" stats --corpus "$TMP/small.tsv" >/dev/null
[[ -n $(ls "$TMP/cache/padlab/corpus/") ]] || fail "stats --corpus small.tsv with PADLAB_CACHE=all wrote no cache entry" ""
sweep_one PADLAB 40 "stats --corpus $TMP/small.tsv --format json"
sweep_one PADLAB 40 "buckets --corpus $TMP/small.tsv"
unset PADLAB_CACHE XDG_CACHE_HOME
# A file of 8 MiB or more is tokenized in one part per core, on threads, and
# its parts merged side by side: the same sweep over that load (no cache, so
# that every run tokenizes). 9 MiB of made-up reviews, the same each time.
awk 'BEGIN { s = 7; for (i = 0; i < 30000; i++) { line = (i % 3 ? 1 : 0) "\t";
    for (w = 0; w < 50; w++) { s = (s * 69069 + 1) % 4294967296; line = line " w" int(s / 65536) % 9000 }
    print line } }' >"$TMP/big.tsv"
if (($(stat -c %s "$TMP/big.tsv") >= 8 << 20 && $(getconf _NPROCESSORS_ONLN) >= 2)); then
    PADLAB_CACHE=off sweep_one PADLAB all "stats --corpus $TMP/big.tsv --format json"
else skip "the parallel load under failing allocations: it needs 2 cores and a 9 MiB file" 1; fi
echo "sweep: $runs runs in $((SECONDS - start)) s"
finish
