#!/usr/bin/env bash
# Allocation-failure injection: each headless command on a small corpus is
# run once to count padlab's allocations, then once per allocation with that
# one failing (tests/failalloc.c). Each run must end within its time limit,
# without a crash, and either exactly as the normal run (status 0, the same
# stdout) or with one line on stderr saying "out of memory", a non-zero
# status and nothing on stdout.
# The sweep is bounded (see COMMANDS); its last line gives its size and time.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
F=${PADLAB_FAILALLOC:?set PADLAB_FAILALLOC to the fault-injecting padlab}
ALL=${PADLAB_FAILALLOC_POINTS:-}
LIMIT=${PADLAB_FAILALLOC_TIMEOUT:-20}

printf '17 42 9 6 3\n17 81 4\n' >"$TMP/two.txt"
printf '1\tgood film\n0\tbad film\n1\ta good good film\n0\tso bad\n' >"$TMP/small.tsv"
# How many allocations of each command fail in turn (spread evenly over all
# of them, the first and the last included), then the command. The sweep is
# sized to stay under a minute; PADLAB_FAILALLOC_POINTS=all fails every one.
COMMANDS=(
    "40 stats --corpus builtin:1:30 --maxlen 8,16"
    "40 stats --corpus $TMP/small.tsv --format json"
    "40 pad --padding post --mask hf $TMP/two.txt"
    "40 buckets --corpus builtin:1:30 --format csv"
    "60 probe batch --corpus builtin:5:40"
    "40 probe attention --corpus builtin:5:40"
    "30 probe attention --corpus builtin:5:40 --maxlen 800"
    "40 probe rnn --corpus builtin:5:40"
    "40 probe pooling --corpus builtin:5:40"
    "40 probe loss --corpus builtin:5:40"
    "40 probe layers --corpus builtin:5:40"
    "40 probe generate --corpus builtin:5:40"
    "40 probe masks --corpus builtin:5:40"
    "40 probe identity --corpus builtin:5:40"
    "40 report --corpus builtin:5:40"
    "30 experiment padding --corpus builtin:3:40 --epochs 1 --format json"
    "12 bench --corpus builtin:3:40 --epochs 1 --format json"
    "40 lesson --check $here/../lessons/01-rectangle.lesson"
    "40 drill --check $here/../decks/bugs.deck"
)
# Timings differ from run to run: they are left out of the comparison.
normalise() {
    case $1 in
    experiment*) grep -v 'seconds' ;;
    bench*) sed -E 's/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/N/g' ;;
    *) cat ;;
    esac
}

runs=0
start=$SECONDS
# check_one CMD N WANT: runs CMD with allocation N failing; prints nothing
# when it behaved, else what went wrong.
check_one() {
    local cmd=$1 n=$2 want=$3 rc lines
    # shellcheck disable=SC2086
    PADLAB_FAIL_AT=$n timeout -k 2 "$LIMIT" "$F" $cmd >"$TMP/out" 2>"$TMP/err" </dev/null && rc=0 || rc=$?
    lines=$(grep -c '' "$TMP/err")
    if ((rc == 124 || rc == 137)); then echo "hung (killed after ${LIMIT}s)"
    elif ((rc >= 128)); then echo "crashed (status $rc): $(head -c 300 "$TMP/err")"
    elif ((rc == 0)); then
        normalise "$cmd" <"$TMP/out" >"$TMP/got"
        cmp -s "$TMP/got" "$want" ||
            echo "status 0 with output that differs from the normal run: $(diff "$want" "$TMP/got" | head -n 4 | cut -c1-120)"
    elif ((lines != 1)) || [[ -s $TMP/out ]] || ! grep -q 'out of memory' "$TMP/err"; then
        echo "status $rc, $lines stderr lines, $(wc -c <"$TMP/out") bytes on stdout: $(head -c 300 "$TMP/err")"
    fi
}

# sweep ENTRY...: each entry as COMMANDS holds them.
sweep() {
    local entry
    for entry in "$@"; do
        POINTS=${entry%% *} cmd=${entry#* }
        [[ $ALL == all ]] && POINTS=1000000000
        # shellcheck disable=SC2086
        PADLAB_ALLOC_COUNT="$TMP/count" "$F" $cmd 2>"$TMP/err" </dev/null | normalise "$cmd" >"$TMP/want"
        total=$(cat "$TMP/count" 2>/dev/null || echo 0)
        step=1
        ((total > POINTS)) && step=$(((total + POINTS - 1) / POINTS))
        bad=0
        for ((n = 1; n <= total; n += step)); do
            ((n + step > total)) && n=$total
            runs=$((runs + 1))
            what=$(check_one "$cmd" "$n" "$TMP/want")
            if [[ -n $what ]]; then
                bad=1
                fail "padlab $cmd with allocation $n of $total failing" "$what"
            fi
        done
        ((bad)) || pass "padlab $cmd survives each of its $total allocations failing (step $step)"
    done
}
sweep "${COMMANDS[@]}"
# The same over the corpus cache: a first run writes small.tsv's entry, and
# every run after reads it back, so the sweep fails each allocation of the
# cache's reading (a failure there must fall back to tokenizing the text).
export PADLAB_CACHE=all XDG_CACHE_HOME="$TMP/cache"
"$F" stats --corpus "$TMP/small.tsv" >/dev/null
[[ -n $(ls "$TMP/cache/padlab/corpus/") ]] || fail "stats --corpus small.tsv with PADLAB_CACHE=all wrote no cache entry" ""
sweep "40 stats --corpus $TMP/small.tsv --format json" "40 buckets --corpus $TMP/small.tsv"
unset PADLAB_CACHE XDG_CACHE_HOME
echo "sweep: $runs runs in $((SECONDS - start)) s"
finish
