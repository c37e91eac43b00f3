#!/usr/bin/env bash
# The class projector in a terminal, as a teacher runs it: padlab lesson
# --class in a private tmux, students as curl on loopback. The lab's own
# view beside the narration on a wide terminal, the question and its tally
# at 80x24, how sure a student is in the report, the countdown, a reveal
# with the lesson's explanation, TERM (the report written, the terminal
# given back, status 143), and the same command resuming the class with its
# code and its votes; q q ends it and the students' pages hear of it.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
CHECKS=22
tmux_begin "the class projector in a terminal" "$CHECKS"
if without tui "the class projector in a terminal" "$CHECKS"; then finish; exit $?; fi
if [[ ${PADLAB_CLASS:-yes} != yes ]] || ! command -v curl >/dev/null; then
    skip "the class projector in a terminal: padlab built without libmicrohttpd, or no curl" "$CHECKS"
    finish
    exit $?
fi
# the class is kept under $TMP/state: the tmux server does not pass on
# what this script exports after it started, so teach names it.
PANE=class

# teach W H: the teacher's command in a W x H terminal; its pid in $TMP/pid,
# its status and the terminal's settings after it in $TMP/status, $TMP/stty.
teach() {
    rm -f "$TMP/pid" "$TMP/status" "$TMP/stty"
    T kill-session -t class 2>/dev/null
    T new-session -d -s class -x "$1" -y "$2" \
        "cd $TMP && sh -c 'echo \$\$ >pid; exec env XDG_STATE_HOME=$TMP/state TERM=xterm-256color $P lesson 01-rectangle --class --listen 127.0.0.1 --port 0 --report rep' 2>err.txt; echo \$? >status; stty -a >stty; echo ENDED; sleep 600"
    wait_for "with the code" 150
}
url() { screen | sed -n 's/.*join at \(http:[^ ]*\) with the code \([A-Z0-9]*\).*/\1/p' | head -n 1; }
code() { screen | sed -n 's/.*join at http:[^ ]* with the code \([A-Z0-9]*\).*/\1/p' | head -n 1; }
# a line of the screen holding both texts
beside() { screen | grep -qF -- "$1" && screen | grep -F -- "$1" | grep -qF -- "$2"; }

teach 160 45
u=$(url) c=$(code)
if [[ $u == http://127.0.0.1:* && ${#c} -eq 5 ]]; then pass "the projector shows the address and the code ($c)"
else fail "the projector shows the address and the code" "$(screen)"; fi
if wait_for "A model does not read one review" && beside "A model does not read one review" "static batch 1/157: 32 rows x 200"; then
    pass "at 160x45 the lab's own batch view stands beside the narration"
else fail "at 160x45 the lab's own batch view stands beside the narration" "$(screen)"; fi
T send-keys -t class ' '
check_screen "space opens the first question" "Question 1, round 1"
check_screen "the question's prompt is on the projector" "Of this batch's 6400 cells, how many hold the pad token?"
for i in 1 2 3; do curl -s -c "$TMP/jar$i" -b "$TMP/jar$i" -o /dev/null -d "code=$c" "${u}join"; done
st=$(curl -s -b "$TMP/jar1" -o /dev/null -w '%{http_code}' -d "q=0&a=1330&s=3" "${u}answer")
curl -s -b "$TMP/jar2" -o /dev/null -d "q=0&a=3,000&s=1" "${u}answer"
curl -s -b "$TMP/jar3" -o /dev/null -d "q=0&a=1e3" "${u}answer"
if [[ $st == 303 ]]; then pass "an answer sent with how sure is taken"; else fail "an answer sent with how sure is taken" "status $st"; fi
check_screen "the projector counts the answers as they come" "answered: 3 of 3 students"
T send-keys -t class t
if wait_for "discuss: 1:00 left" 30 || wait_for "discuss: 0:5" 30; then pass "t starts a minute's countdown on the projector"
else fail "t starts a minute's countdown on the projector" "$(screen)"; fi
T send-keys -t class r
check_screen "r reveals the tally, every answer its own row" "round 1:   3 answered,   0 right"
check_screen "the lab's number is marked in the tally" "◀ the lab: 1400"
check_screen "the lesson's explanation comes with the answer" "1400 pad cells: 21.9% of the batch is filler."

T resize-window -t class -x 80 -y 24 2>/dev/null
check_screen "at 80x24 the tally stays, with the lab's mark" "◀ the lab: 1400"
check_screen "at 80x24 the teacher's keys stay on the screen" "space next step"
if [[ $(screen | sed -n 4p) == *"Question 1, round 1"* ]]; then pass "at 80x24 the question comes up under the heading, no rows left blank"
else fail "at 80x24 the question comes up under the heading, no rows left blank" "$(screen)"; fi
rows=$(screen | grep -cE '^ +(1000|1330|3000) +█+ +1$')
if [[ $rows -eq 3 ]]; then pass "at 80x24 every answer's row keeps its bar and its count"
else fail "at 80x24 every answer's row keeps its bar and its count" "$(screen)"; fi

kill -TERM "$(cat "$TMP/pid")"
wait_for ENDED 100
if [[ $(cat "$TMP/status" 2>/dev/null) == 143 ]]; then pass "TERM ends the class with status 143"
else fail "TERM ends the class with status 143" "status: $(cat "$TMP/status" 2>&1)" "$(cat "$TMP/err.txt")"; fi
if grep -q -- ' icanon' "$TMP/stty" && grep -q -- ' echo' "$TMP/stty"; then pass "after TERM the terminal is given back (icanon echo)"
else fail "after TERM the terminal is given back (icanon echo)" "$(cat "$TMP/stty")"; fi
if grep -qF '3 students joined.' "$TMP/rep.md" && grep -qF '| 1 | 1 | 1330 | no | 3 |' "$TMP/rep.md"; then
    pass "TERM writes the report, with how sure each student was"
else fail "TERM writes the report, with how sure each student was" "$(cat "$TMP/rep.md" 2>&1)"; fi

teach 100 30
u=$(url) # another port: the same class
if [[ $(code) == "$c" ]]; then pass "the same command resumes the class with its code ($c)"
else fail "the same command resumes the class with its code" "was $c" "$(screen)"; fi
check_screen "the resumed class is at the step it was on, its students counted" "3 students"
check_screen "the resumed class still holds the votes" "◀ the lab: 1400"
T send-keys -t class q
T send-keys -t class q
state=
for _ in $(seq 1 20); do
    state=$(curl -s -b "$TMP/jar1" -H 'Accept: application/json' "${u}state" | tr -d ' \n')
    [[ $state == *'"phase":"ended"'* ]] && break
    sleep 0.1
done
if [[ $state == *'"phase":"ended"'* && $state == *'"mine":"1330"'* ]]; then pass "q q ends the class and a student's page hears of it, their answers listed"
else fail "q q ends the class and a student's page hears of it, their answers listed" "$state"; fi
wait_for ENDED 100
if [[ $(cat "$TMP/status" 2>/dev/null) == 0 ]]; then pass "q q ends with status 0"
else fail "q q ends with status 0" "status: $(cat "$TMP/status" 2>&1)" "$(cat "$TMP/err.txt")"; fi
finish
