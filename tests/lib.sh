# Helpers for the command-line tests: each check prints "ok" or "FAIL" with
# its name, and `finish` prints the tally line quickstart adds up.
passed=0
failed=0
skipped=0
TMP=$(mktemp -d /tmp/padlab-cli-XXXXXX)
trap 'rm -rf "$TMP"' EXIT

pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; shift; printf '     %s\n' "$@"; }
skip() { skipped=$((skipped + ${2:-1})); echo "skip $1"; }

# run CMD...: runs it, keeping stdout in $out, stderr in $err, status in $rc.
run() {
    out=$("$@" 2>"$TMP/stderr") && rc=0 || rc=$?
    err=$(cat "$TMP/stderr")
}

# expect NAME WANT_RC WANT_STDOUT: compares the last run's status and output.
expect() {
    if [[ $rc -eq $2 && $out == "$3" ]]; then pass "$1"
    else fail "$1" "status $rc (want $2)" "stdout: $out" "want:   $3" "stderr: $err"; fi
}

# expect_error NAME FRAGMENT: the last run failed with status 2 and one stderr
# line containing FRAGMENT, and printed nothing on stdout.
expect_error() {
    local lines
    lines=$(printf '%s\n' "$err" | grep -c .)
    if [[ $rc -eq 2 && $lines -eq 1 && $err == *"$2"* && -z $out ]]; then pass "$1"
    else fail "$1" "status $rc (want 2), $lines stderr lines (want 1)" "stderr: $err" "want fragment: $2"; fi
}

# expect_has NAME FRAGMENT: the last run succeeded and stdout contains FRAGMENT.
expect_has() {
    if [[ $rc -eq 0 && $out == *"$2"* ]]; then pass "$1"
    else fail "$1" "status $rc" "stdout: $out" "want fragment: $2" "stderr: $err"; fi
}

finish() {
    echo "tally: $passed passed, $failed failed, $skipped skipped"
    [[ $failed -eq 0 ]]
}
