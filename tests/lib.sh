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

# untime: wall-clock figures out of experiment output (JSON keys, and the
# s/epoch column of tables and CSV, counted from the row's end).
untime() {
    sed -E 's/("seconds(_per_epoch)?": )[^,}]*/\1"<time>"/' | awk '
        /s\/epoch/ { csv = index($0, ",") > 0 && index($0, "  ") == 0
                     if (csv) { n = split($0, h, ","); for (i = 1; i <= n; i++) if (h[i] == "s/epoch") k = n - i }
                     else { for (i = 1; i <= NF; i++) if ($i == "s/epoch") k = NF - i }
                     intable = 1; print; next }
        intable && NF == 0 { intable = 0 }
        intable && csv { n = split($0, f, ","); f[n - k] = "<time>"; line = f[1]
                         for (i = 2; i <= n; i++) line = line "," f[i]; print line; next }
        intable { $(NF - k) = "<time>"; print; next }
        { print }'
}

# read_only_folder DIR: makes DIR/padlab a folder padlab cannot write in,
# and sets $as_other and $P_other to what runs padlab as another user. As
# root that user is nobody, who may not be able to read the tree padlab was
# built in (a clone inside a private folder): padlab, its lessons, decks and
# katas are copied into $TMP/other, which nobody can read, and $as_other
# points padlab at them. Otherwise both run padlab as it is. Status 0 when
# padlab then runs and cannot write there: otherwise the caller skips its
# checks.
read_only_folder() {
    mkdir -p "$1/padlab" && chmod 555 "$1/padlab"
    as_other= P_other=$P
    if [[ $(id -u) -eq 0 ]]; then
        local other="$TMP/other" src="${PADLAB_TESTS:-$(dirname "${BASH_SOURCE[0]}")}/.."
        chmod 755 "$TMP"
        mkdir -p "$other" && cp "$P" "$other/padlab" || return 1
        cp -R "$src/lessons" "$src/decks" "$src/katas" "$other/" || return 1
        chmod -R a+rX "$other"
        P_other="$other/padlab"
        as_other="setpriv --reuid=65534 --regid=65534 --clear-groups env PADLAB_LESSONS=$other/lessons PADLAB_DECKS=$other/decks PADLAB_KATAS=$other/katas"
    fi
    # shellcheck disable=SC2086
    $as_other "$P_other" --version >/dev/null 2>&1 && ! $as_other touch "$1/padlab/probe" 2>/dev/null
}

# finish: the tally line; the status is 1 when a check failed, 77 (what
# automake counts as skipped) when every check was skipped, 0 otherwise.
# python_with MODULE: the first of $PYTHON, python3 and Debian's own python3
# that imports MODULE (a python3 earlier on PATH, a pyenv or a venv, may not
# see Debian's package); prints nothing and fails when none does.
python_with() {
    local cand
    for cand in ${PYTHON:-} python3 /usr/bin/python3; do
        if command -v "$cand" >/dev/null && "$cand" -c "import $1" >/dev/null 2>&1; then
            echo "$cand"
            return 0
        fi
    done
    return 1
}

# reference_checks NAME FILE CHECKS [STATUS]: a reference script's report
# in FILE ("ok   ..." and "FAIL ..." lines) counted as this test's checks
# under NAME; fails when the script exited with a STATUS other than 0 or
# made another number of checks that held than CHECKS.
reference_checks() {
    local name=$1 file=$2 checks=$3 status=${4:-0} before=$passed line
    while IFS= read -r line; do
        case $line in
            "ok   "*) pass "$name: ${line#ok   }" ;;
            "FAIL "*) fail "$name: ${line#FAIL }" ;;
            *) echo "$line" ;;
        esac
    done <"$file"
    ((status == 0)) || fail "$name: the reference exited with status $status" "$(tail -n 4 "$file")"
    ((passed - before == checks)) || fail "$name: the reference made $((passed - before)) checks that held (want $checks)"
}

finish() {
    echo "tally: $passed passed, $failed failed, $skipped skipped"
    ((failed == 0)) || return 1
    ((passed > 0 || skipped == 0)) || return 77
}

# ---- padlab in a private tmux: the terminal tests (tui.sh, lessons.sh, drill.sh) ----
# PANE is the session the checks read and start opens (default lab), PANE_W x
# PANE_H its size (default 100x30; W=... H=... before start for one run), and
# ENVS the environment padlab starts with (default TERM=xterm-256color).
PANE=lab PANE_W=100 PANE_H=30

# tmux_begin WHAT COUNT: a private tmux server for the checks that follow;
# without tmux, the COUNT checks of WHAT are skipped and the script ends.
tmux_begin() {
    if ! command -v tmux >/dev/null; then
        skip "$1: tmux is not installed" "$2"
        finish
        exit $?
    fi
    SOCK="$TMP/tmux.sock"
    trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
    T new-session -d -s keep "sleep 100000" # keeps the server up between the sessions
}
T() { tmux -S "$SOCK" "$@"; }
screen() { T capture-pane -t "$PANE" -p; }
# wait_for TEXT [TENTHS]: up to 10 s (or TENTHS/10 s) for TEXT to appear on the screen.
wait_for() {
    for _ in $(seq 1 "${2:-100}"); do
        screen | grep -qF -- "$1" && return 0
        sleep 0.1
    done
    return 1
}
check_screen() { # NAME TEXT [TENTHS]
    if wait_for "$2" "${3:-100}"; then pass "$1"; else fail "$1" "screen lacks: $2" "$(screen)"; fi
}
check_absent() { # TEXT NAME: TEXT is not on the screen now
    if screen | grep -qF -- "$1"; then fail "$2" "screen has: $1" "$(screen)"; else pass "$2"; fi
}
# start ARGS...: padlab ARGS in a new session PANE, in $TMP; its stderr goes
# to $TMP/err.txt and "EXIT=N" is printed when it ends.
start() {
    T kill-session -t "$PANE" 2>/dev/null
    T new-session -d -s "$PANE" -x "${W:-$PANE_W}" -y "${H:-$PANE_H}" \
        "cd $TMP && ${ENVS:-TERM=xterm-256color} $P $* 2>$TMP/err.txt; echo EXIT=\$?; sleep 60"
}

# ---- what this padlab was built with (configure --disable-tui / --disable-gui) ----
# without FRONT WHAT COUNT: when this padlab was built without FRONT (tui or
# gui), skips the COUNT checks of WHAT that need it and returns 0.
without() {
    local built
    if [[ $1 == tui ]]; then built=${PADLAB_TUI:-yes}; else built=${PADLAB_GUI:-yes}; fi
    [[ $built == no ]] || return 1
    skip "$2: this padlab was built without the $([[ $1 == tui ]] && echo terminal lab || echo window)" "$3"
}

# check_built_without NAME ARGS...: padlab ARGS, in a terminal (start), ends
# with status 2 and one line on stderr: built without the terminal lab.
check_built_without() {
    local name=$1 want
    shift
    want="this padlab was built without the terminal lab (configure --disable-tui)"
    start "$@"
    if wait_for "EXIT=2" && [[ $(wc -l <"$TMP/err.txt") -eq 1 && $(cat "$TMP/err.txt") == *": $want" ]]; then pass "$name"
    else fail "$name" "screen: $(screen)" "stderr: $(cat "$TMP/err.txt" 2>&1)" "want: ...: $want"; fi
}
