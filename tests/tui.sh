#!/usr/bin/env bash
# The terminal lab, driven as a person would: in a private tmux server, keys
# sent, the screen captured and read.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
if ! command -v tmux >/dev/null; then
    skip "terminal tests: tmux is not installed" 9
    finish
    exit $?
fi
SOCK="$TMP/tmux.sock"
T() { tmux -S "$SOCK" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$TMP"' EXIT

screen() { T capture-pane -t lab -p; }
# wait_for TEXT: up to 10 s for TEXT to appear on the screen.
wait_for() {
    for _ in $(seq 1 100); do
        screen | grep -qF -- "$1" && return 0
        sleep 0.1
    done
    return 1
}
check_screen() { # NAME TEXT
    if wait_for "$2"; then pass "$1"; else fail "$1" "screen lacks: $2" "$(screen)"; fi
}

T new-session -d -s lab -x 100 -y 30 "cd $TMP && TERM=xterm-256color $P --corpus builtin:1:400; echo EXIT=\$?; sleep 60"
check_screen "the lab opens with the control strip" "padding: pre*"
check_screen "the tutorial defaults are shown as text" "maxlen: 200*"
T send-keys -t lab p
check_screen "p switches padding to post" "padding: post*"
T send-keys -t lab m
check_screen "m switches the mask on" "mask: on*"
T send-keys -t lab +
check_screen "+ raises maxlen by a step" "maxlen: 250*"
T send-keys -t lab 2
want=$($P stats --corpus builtin:1:400 --maxlen 250 --format json | awk -F': ' '/"padding_share"/ {gsub(",", "", $2); printf "padding share   %5.1f%%", 100*$2}')
check_screen "the cost view's padding share matches padlab stats" "$want"
T send-keys -t lab 7
check_screen "a cold change retrains for real" "trained: best validation accuracy"
T send-keys -t lab g
check_screen "g runs the padding x mask grid and shows its summary" "padding post mask on"
T resize-window -t lab -x 60 -y 20
check_screen "a small terminal gets a message" "terminal too small (need 80x24, have 60x20)"
T resize-window -t lab -x 100 -y 30
check_screen "enlarging restores the lab" "padding: post*"
T send-keys -t lab ?
check_screen "? opens the help overlay" "press any key to close this help"
T send-keys -t lab x
T send-keys -t lab 1
T send-keys -t lab e
check_screen "e exports the view" "exported the view to padlab-batch.txt"
if grep -q "the three counts agree" "$TMP/padlab-batch.txt" 2>/dev/null; then pass "the export holds the view's text"
else fail "the export holds the view's text" "$(cat "$TMP/padlab-batch.txt" 2>&1)"; fi
T send-keys -t lab q
check_screen "q quits with status 0" "EXIT=0"

T kill-session -t lab
T new-session -d -s lab -x 100 -y 30 "TERM=xterm $P --corpus builtin:1:400 --ascii --mono; echo EXIT=\$?; sleep 60"
check_screen "--ascii --mono draws with ASCII glyphs" ". pad"
pid=$(pgrep -f -n "$P --corpus builtin:1:400 --ascii")
[[ -n $pid ]] && kill -TERM "$pid"
check_screen "SIGTERM ends the lab with status 0" "EXIT=0"
if screen | grep -qF "padding:"; then fail "SIGTERM restores the terminal" "$(screen)"; else pass "SIGTERM restores the terminal"; fi

T kill-session -t lab
printf 'corpus = builtin:1:400\npadding = sideways\n' >"$TMP/bad.session"
T new-session -d -s lab -x 100 -y 30 "TERM=xterm $P --session $TMP/bad.session 2>$TMP/err.txt; echo EXIT=\$?; sleep 60"
check_screen "a damaged session still opens the lab with defaults" "padding: pre*"
T send-keys -t lab p
check_screen "the lab works after a damaged session" "padding: post*"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null
run grep -c "bad.session:2: padding must be pre or post, got 'sideways'" "$TMP/err.txt"
expect "the damaged session is named with its line" 0 "1"
run grep -c "^padding = post$" "$TMP/bad.session"
expect "quitting saves the session" 0 "1"
finish
