#!/usr/bin/env bash
# Hardening (issue 11): each reproduction of the issue as a check that failed
# before its fix: hostile files, memory limits, stdout errors, control bytes.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}

# expect_fail NAME STATUS FRAGMENT: the last run exited STATUS with one
# stderr line containing FRAGMENT and nothing on stdout.
expect_fail() {
    local lines
    lines=$(printf '%s\n' "$err" | grep -c .)
    if [[ $rc -eq $2 && $lines -eq 1 && $err == *"$3"* && -z $out ]]; then pass "$1"
    else fail "$1" "status $rc (want $2), $lines stderr lines (want 1)" "stderr: $err" "want fragment: $3" "stdout: ${out:0:200}"; fi
}

# ---- memory limits: OpenBLAS must not hang, a command too big fails in one line ----
run bash -c "ulimit -v 160000; exec timeout 20 '$P' --version"
expect "--version runs under a 160 MB address-space limit" 0 "padlab 0.1.0"
run bash -c "ulimit -v 160000; exec timeout 20 '$P' stats --corpus builtin:1:30 --format csv"
expect_has "stats runs under a 160 MB address-space limit" "maxlen,padding_share"
run bash -c "ulimit -v 70000; exec timeout 60 '$P' experiment padding --corpus builtin:3:300 --epochs 1 --format csv"
expect_fail "experiment under a 70 MB limit fails in one line, without a crash or a hang" 1 "out of memory while"

# ---- stdout write errors ----
if [[ -w /dev/full ]]; then
    out=$("$P" stats --corpus builtin:1:30 2>"$TMP/stderr" >/dev/full) && rc=0 || rc=$?
    err=$(cat "$TMP/stderr")
    expect_fail "stats > /dev/full exits 1 and says so" 1 "cannot write to standard output"
    out=$("$P" --version 2>"$TMP/stderr" >/dev/full) && rc=0 || rc=$?
    err=$(cat "$TMP/stderr")
    expect_fail "--version > /dev/full exits 1 too" 1 "cannot write to standard output"
else
    skip "stdout write errors (no /dev/full)" 2
fi

# ---- control bytes in corpus text never reach the terminal raw ----
printf '1\tgood \033c film \033[2J \302\233 31m bell\a here\n0\tbad film\n' >"$TMP/ctl.tsv"
run "$P" probe batch --corpus "$TMP/ctl.tsv" --maxlen 8 --full
if [[ $rc -eq 0 ]] && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$out" && ! LC_ALL=C grep -q $'\xc2[\x80-\x9f]' <<<"$out"; then
    pass "probe batch writes control bytes in corpus words as escapes"
else
    fail "probe batch writes control bytes in corpus words as escapes" "status $rc" "stdout: $(printf '%q' "${out:0:300}")"
fi
run "$P" probe batch --corpus "$TMP/ctl.tsv" --maxlen 8 --full --format json
if [[ $rc -eq 0 ]] && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$out"; then pass "probe batch JSON stays escaped"
else fail "probe batch JSON stays escaped" "status $rc"; fi

finish
