#!/usr/bin/env bash
# A full disk: every kind of file padlab writes, written into a folder with
# no space left (a small tmpfs filled up, in a private mount namespace). Each
# write fails in one line that says "No space left on device", exits 1,
# leaves the file it would have replaced as it was and no temporary file
# behind; the corpus cache, which is only a cache, never fails a command.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
CHECKS=19

# The checks run again inside a mount namespace of their own, where a tmpfs
# can be mounted without touching the machine's folders.
if [[ -z ${PL_FULL_INSIDE:-} ]]; then
    if command -v unshare >/dev/null && unshare -m true 2>/dev/null; then
        rm -rf "$TMP" # the run inside makes its own
        PL_FULL_INSIDE=1 exec unshare -m --propagation private bash "$0" "$@"
    fi
    skip "a full disk (needs unshare -m: root or user namespaces)" "$CHECKS"
    finish
    exit $?
fi
FULL="$TMP/full"
mkdir -p "$FULL"
if ! mount -t tmpfs -o size=256k,mode=0755 tmpfs "$FULL" 2>/dev/null; then
    skip "a full disk (cannot mount a tmpfs here)" "$CHECKS"
    finish
    exit $?
fi

# What was there before the disk filled up, to be left as it was.
printf 'the svg before\n' >"$FULL/fig.svg"
printf 'the csv before\n' >"$FULL/fig.csv"
printf 'the model before\n' >"$FULL/model.bin"
mkdir -p "$FULL/state/padlab" "$FULL/cache"
BOOK="$FULL/state/padlab/drill"
printf '# padlab drill progress\nformat = 2\nlearner = 00000000000000a1\n' >"$BOOK"
book_before=$(cat "$BOOK")
dd if=/dev/zero of="$FULL/fill" bs=4k 2>/dev/null
if touch "$FULL/probe" 2>/dev/null && printf x >>"$FULL/probe" 2>/dev/null; then
    skip "a full disk (the tmpfs still takes writes)" "$CHECKS"
    finish
    exit $?
fi

# expect_full NAME FILE BEFORE: the last run exited 1 with one stderr line
# naming FILE and the full disk; FILE still holds BEFORE; no FILE.tmp.* left.
expect_full() {
    local lines leftover
    lines=$(printf '%s\n' "$err" | grep -c .)
    leftover=$(find "$FULL" -name "$(basename "$2").tmp.*" | head -n 1)
    if [[ $rc -eq 1 && $lines -eq 1 && $err == *"$(basename "$2")"*"No space left on device"* ]]; then
        pass "$1: one line, status 1"
    else fail "$1: one line, status 1" "status $rc, $lines lines" "stderr: $err"; fi
    if [[ $(cat "$2") == "$3" ]]; then pass "$1: the file before is kept"
    else fail "$1: the file before is kept" "now: $(head -c 200 "$2")"; fi
    if [[ -z $leftover ]]; then pass "$1: no temporary file left"
    else fail "$1: no temporary file left" "$leftover"; fi
}

if without gui "export --svg and --csv on a full disk" 6; then :; else
    run "$P" export --view batch --corpus builtin:3:60 --maxlen 40 --svg "$FULL/fig.svg"
    expect_full "export --svg on a full disk" "$FULL/fig.svg" "the svg before"
    run "$P" export --view cost --corpus builtin:3:60 --maxlen 40 --csv "$FULL/fig.csv"
    expect_full "export --csv on a full disk" "$FULL/fig.csv" "the csv before"
fi
run "$P" experiment padding --corpus builtin:1:60 --epochs 1 --seeds 1 --format csv --save-model "$FULL/model.bin"
expect_full "experiment --save-model on a full disk" "$FULL/model.bin" "the model before"

# The corpus cache on a full disk: the command runs as without a cache.
printf 'label\ttext\n' >"$TMP/small.tsv"
for i in $(seq 1 40); do printf '%d\treview %d says this film was %s and long\n' $((i % 2)) "$i" \
    "$([[ $((i % 3)) -eq 0 ]] && echo good || echo bad)" >>"$TMP/small.tsv"; done
want=$("$P" stats --corpus "$TMP/small.tsv" --format csv 2>/dev/null)
run env PADLAB_CACHE="$FULL/cache" "$P" stats --corpus "$TMP/small.tsv" --format csv
if [[ $rc -eq 0 && -n $want && $out == "$want" ]]; then pass "a corpus cache on a full disk: the command runs, its output as without one"
else fail "a corpus cache on a full disk: the command runs, its output as without one" "status $rc" "stderr: $err"; fi
if [[ -z $(find "$FULL/cache" -name '*.tmp.*' | head -n 1) ]]; then pass "and leaves no temporary file in the cache"
else fail "and leaves no temporary file in the cache" "$(find "$FULL/cache" -name '*.tmp.*')"; fi

# A drill whose book cannot be written: told on screen and on exit, status 1,
# the book before kept.
if without tui "a drill on a full disk" 8; then :; else
    tmux_begin "a drill on a full disk" 8
    PANE=drill ENVS="TERM=xterm-256color XDG_STATE_HOME=$FULL/state XDG_DATA_HOME=$TMP/data" start drill cards-batches --count 2
    PANE=drill check_screen "a drill on a full disk opens" "space shows it"
    T send-keys -t drill Space
    PANE=drill check_screen "and reveals the answer" "Remember: "
    T send-keys -t drill 3
    PANE=drill check_screen "the grade that cannot be written says so on screen" "progress not saved"
    PANE=drill check_screen "the key bar says the progress is not saved" "(progress NOT saved)"
    T send-keys -t drill q
    PANE=drill check_screen "q quits with status 1" "EXIT=1"
    if grep -q "^padlab drill: progress not saved: .*No space left on device" "$TMP/err.txt"; then
        pass "and says why on exit"
    else fail "and says why on exit" "$(cat "$TMP/err.txt")"; fi
    if [[ $(cat "$BOOK") == "$book_before" ]]; then pass "the book before is kept"
    else fail "the book before is kept" "$(head -c 200 "$BOOK")"; fi
    if [[ -z $(find "$FULL/state" -name '*.tmp.*' | head -n 1) ]]; then pass "and no temporary book is left"
    else fail "and no temporary book is left" "$(find "$FULL/state" -name '*.tmp.*')"; fi
fi
umount "$FULL"
finish
