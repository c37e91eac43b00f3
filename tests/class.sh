#!/usr/bin/env bash
# A class session on loopback: padlab lesson --class on 127.0.0.1 with a port
# the system picks, the teacher's keys through a FIFO, students as curl and
# padlab join. Join, answer, answer again, come back with a token, reveal
# (the value the lab computes, as padlab lesson --answers prints it), the
# class report; malformed requests get a 4xx and the session goes on; wrong
# codes are limited. Skipped, with the reason, in a padlab built without
# libmicrohttpd (and the join checks without libcurl) or without curl.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
PADLAB=${PADLAB:-./padlab}
CHECKS=40

if [[ ${PADLAB_CLASS:-yes} != yes ]]; then
    run "$PADLAB" lesson 01-rectangle --class
    if [[ $rc -eq 2 && $err == *"built without libmicrohttpd"* ]]; then pass "--class says padlab was built without libmicrohttpd"
    else fail "--class says padlab was built without libmicrohttpd" "status $rc" "stderr: $err"; fi
    skip "the class session on loopback: padlab was built without libmicrohttpd" $((CHECKS - 1))
    finish
    exit
fi
if ! command -v curl >/dev/null; then
    skip "the class session on loopback: no curl here (Debian: apt-get install curl)" "$CHECKS"
    finish
    exit
fi

export XDG_STATE_HOME="$TMP/state" # the classes kept: this test's own
mkfifo "$TMP/keys"
"$PADLAB" lesson 01-rectangle --class --listen 127.0.0.1 --port 0 --report "$TMP/report" <"$TMP/keys" >"$TMP/projector" 2>&1 &
pid=$!
exec 7>"$TMP/keys" # the teacher's keyboard: open until the end
key() { printf '%s' "$1" >&7; }
for _ in $(seq 1 300); do grep -q '^class: serving' "$TMP/projector" && break; sleep 0.1; done
url=$(sed -n 's/^class: serving \(http:[^ ]*\) code .*/\1/p' "$TMP/projector")
code=$(sed -n 's/^class: serving .* code \([A-Z0-9]*\)$/\1/p' "$TMP/projector")
if [[ $url == http://127.0.0.1:* && ${#code} -eq 5 ]]; then pass "the session prints the address it serves and its code"
else
    fail "the session prints the address it serves and its code" "$(head -n 3 "$TMP/projector")"
    kill "$pid"
    finish
    exit
fi

# status METHOD PATH [CURL ARGS...]: the HTTP status alone.
status() {
    local m=$1 p=$2
    shift 2
    curl -s -o /dev/null -w '%{http_code}' -X "$m" "$@" "${url%/}$p"
}
state() { curl -s -H 'Accept: application/json' -b "padlab_class=$1" "${url%/}/state"; }
# wait_state TOKEN TEXT: until the state holds TEXT (the projector took the key).
wait_state() {
    for _ in $(seq 1 300); do state "$1" | grep -qF -- "$2" && return 0; sleep 0.1; done
    return 1
}
token() { curl -s -H 'Accept: application/json' -d "code=$code" "${url%/}/join" | sed -n 's/.*"token": "\([0-9a-f]*\)".*/\1/p'; }
answer() { status POST /answer -H 'Accept: application/json' -b "padlab_class=$1" -d "q=$2&a=$3"; }
expect_status() { # NAME GOT WANT
    if [[ $2 == "$3" ]]; then pass "$1"; else fail "$1" "HTTP $2 (want $3)"; fi
}

a=$(token) b=$(token) c=$(token)
if [[ ${#a} -eq 32 && ${#b} -eq 32 && ${#c} -eq 32 && $a != "$b" ]]; then pass "three students join, each with a token of their own"
else fail "three students join, each with a token of their own" "$a / $b / $c"; fi
expect_status "the join page is served" "$(status GET /)" 200
expect_status "a browser that joins is sent to its page with a cookie" "$(status POST /join -d "code=$code")" 303
expect_status "the student page needs a token" "$(status GET /state)" 401

key ' ' # step 2: how many pad cells (the lab: 1400)
if wait_state "$a" '"phase": "open"'; then pass "the teacher's key opens the question"
else fail "the teacher's key opens the question" "$(state "$a")"; fi
expect_status "an answer is taken" "$(answer "$a" 0 1000)" 200
expect_status "another student's answer is taken" "$(answer "$b" 0 1400)" 200
expect_status "a second answer replaces the first" "$(answer "$a" 0 1399)" 200
if [[ ${PADLAB_JOIN:-yes} == yes ]]; then
    run "$PADLAB" join "${url#http://}" --token "$c" --answer 1400
    expect "padlab join sends an answer and echoes it" 0 "your answer: 1400"
else skip "padlab join: padlab was built without libcurl"; fi
if state "$a" | grep -q '"mine": "1399"'; then pass "a student who comes back with their token finds their answer"
else fail "a student who comes back with their token finds their answer" "$(state "$a")"; fi

expect_status "a body that is not q=N&a=TEXT gets 400" "$(answer "$a" zz 1)" 400
expect_status "a body over 512 bytes gets 413" "$(status POST /answer -b "padlab_class=$a" -d "q=0&a=$(printf '%0600d' 1)")" 413
expect_status "an answer without a token gets 401" "$(status POST /answer -d 'q=0&a=1')" 401
expect_status "an answer to a question not open gets 409" "$(answer "$a" 3 1)" 409
expect_status "a word for a number gets 409" "$(answer "$a" 0 '%3Cscript%3E')" 409
expect_status "an unknown page gets 404" "$(status GET /etc/passwd)" 404
expect_status "another method gets 405" "$(status DELETE /state)" 405
if curl -s -b "padlab_class=$a" "${url%/}/vote" | grep -q "batch&#39;s 6400 cells"; then
    pass "the student page escapes the question's text"
else fail "the student page escapes the question's text"; fi

key 'r'
wait_state "$a" '"phase": "shown"'
want=$("$PADLAB" lesson 01-rectangle --answers | sed -n 's/.*answer: batch.pad_cells = //p')
if state "$a" | grep -qF "\"value\": \"$want\""; then pass "the reveal is the value the lab computes ($want)"
else fail "the reveal is the value the lab computes ($want)" "$(state "$a")"; fi
page=$(curl -s -b "padlab_class=$a" "${url%/}/vote")
if [[ $page == *"<p>Counted right: $want to $want.</p>"* && $page == *"(counted right)</th>"* ]]; then
    pass "the student page says which answers counted right, not just the bin that holds them"
else fail "the student page says which answers counted right" "$(grep -i 'right' <<<"$page" | head -n 5)"; fi

for _ in 1 2 3 4 5; do status POST /join -d code=WRONG >/dev/null; done
expect_status "after five wrong codes from an address, the right one still joins" "$(status POST /join -d "code=$code")" 303

if [[ ${PADLAB_JOIN:-yes} == yes ]]; then # a student's terminal, open when the class ends
    mkfifo "$TMP/jin"
    "$PADLAB" join "${url#http://}" --token "$c" <"$TMP/jin" >"$TMP/join.out" 2>"$TMP/join.err" &
    jpid=$!
    exec 9>"$TMP/jin" # its keyboard: open until the end
fi
key 'qq' # q asks once more before it ends the class
wait "$pid"
if [[ ${PADLAB_JOIN:-yes} == yes ]]; then
    wait "$jpid"
    jst=$?
    exec 9>&-
    if [[ $jst -eq 0 ]] && grep -q '^the class has ended$' "$TMP/join.out" &&
        grep -qF "  question 1: Of this batch's 6400 cells, how many hold the pad token?" "$TMP/join.out" &&
        grep -q '^    your answer 1400: counted right$' "$TMP/join.out"; then
        pass "padlab join says the class has ended, with the student's answers against the lab's"
    else fail "padlab join says the class has ended, with the student's answers" "status $jst" "$(cat "$TMP/join.out" "$TMP/join.err")"; fi
    run "$PADLAB" join "${url#http://}" --token "$c" --answer 1
    if [[ $rc -eq 1 && -z $out && $err == "padlab join: the class at ${url%/} is not answering: it may have ended" ]]; then
        pass "padlab join to a class that is gone says so in one line, status 1"
    else fail "padlab join to a class that is gone says so in one line, status 1" "status $rc" "stdout: $out" "stderr: $err"; fi
else skip "padlab join at the class's end: padlab was built without libcurl" 2; fi
if [[ -f $TMP/report.md && -f $TMP/report.csv && -f $TMP/report.json ]]; then pass "the class report is written as Markdown, CSV and JSON"
else fail "the class report is written as Markdown, CSV and JSON" "$(ls "$TMP")"; fi
prompt='"Of this batch'"'"'s 6400 cells, how many hold the pad token?"'
right=$(grep -c "^1,2,ask,$prompt,1,1400,yes,[1-3]\?,[0-9.]*,[0-9a-f]\{8\}\$" "$TMP/report.csv")
wrong=$(grep -c "^1,2,ask,$prompt,1,1399,no,[1-3]\?,[0-9.]*,[0-9a-f]\{8\}\$" "$TMP/report.csv")
if [[ $right -eq 2 && $wrong -eq 1 ]] && ! grep -qE "$a|$b|$c" "$TMP/report.csv"; then
    pass "the report has a row per response: 1400 twice counted right, 1399 not, each student a hash, never the token"
else fail "the report has a row per response" "$(cat "$TMP/report.csv")"; fi
if grep -q '^| 1399 | 1 |$' "$TMP/report.md" && grep -q '^| 1400 (counted right) | 2 |$' "$TMP/report.md"; then
    pass "its tally has a row for the wrong answer given, apart from the band counted right"
else fail "its tally has a row for the wrong answer given, apart from the band counted right" "$(cat "$TMP/report.md")"; fi
# A question never reached is not in the report, and no raw {placeholder} is either.
if ! grep -q '{' "$TMP/report.csv" && ! grep -q 'The four reviews hold' "$TMP/report.csv" "$TMP/report.md"; then
    pass "a question never asked is not in the report"
else fail "a question never asked is not in the report" "$(cat "$TMP/report.md")"; fi

# ---- a class killed by a signal resumes: its code, its students, their votes ----
exec 7>&-
rm -f "$TMP/keys" && mkfifo "$TMP/keys"
# serve ARGS...: padlab lesson 01-rectangle --class ARGS in the background, its
# keys from $TMP/keys (fd 7), its screen in $TMP/resume.out; sets pid, url, code.
serve() {
    "$PADLAB" lesson 01-rectangle --class --listen 127.0.0.1 --port 0 "$@" <"$TMP/keys" >"$TMP/resume.out" 2>&1 &
    pid=$!
    exec 7>"$TMP/keys"
    for _ in $(seq 1 300); do grep -q '^class: serving' "$TMP/resume.out" && break; sleep 0.1; done
    url=$(sed -n 's/^class: serving \(http:[^ ]*\) code .*/\1/p' "$TMP/resume.out")
    code=$(sed -n 's/^class: serving .* code \([A-Z0-9]*\)$/\1/p' "$TMP/resume.out")
}
serve --report "$TMP/kept" --new
first=$code a=$(token) b=$(token)
key ' '
wait_state "$a" '"phase": "open"'
answer "$a" 0 1300 >/dev/null
answer "$b" 0 1400 >/dev/null
kill -TERM "$pid"
wait "$pid"
st=$?
if [[ $st -eq 143 && -f $TMP/kept.md ]] && grep -q 'the class ended on signal 15, its report written' "$TMP/resume.out"; then
    pass "TERM ends the class with status 143, its report written"
else fail "TERM ends the class with status 143, its report written" "status $st" "$(tail -n 3 "$TMP/resume.out")"; fi
exec 7>&-
serve --report "$TMP/kept"
if [[ $code == "$first" ]] && grep -q '^class: resumed, 2 students, at step 2$' "$TMP/resume.out"; then
    pass "the same command resumes the class: its code, its 2 students, its step"
else fail "the same command resumes the class" "code $code (was $first)" "$(head -n 3 "$TMP/resume.out")"; fi
if wait_state "$a" '"mine": "1300"' && wait_state "$a" '"phase": "open"'; then
    pass "a student's token and vote come back with it, the question still open"
else fail "a student's token and vote come back with it" "$(state "$a")"; fi
key 'r'
wait_state "$a" '"phase": "shown"'
key 'qq'
wait "$pid"
if [[ -f $TMP/kept.md && ! -e $TMP/kept-2.md ]] && grep -q '^| 1300 | 1 |$' "$TMP/kept.md"; then
    pass "the resumed class writes its whole report where it began, not beside it"
else fail "the resumed class writes its whole report where it began" "$(ls "$TMP")"; fi
if [[ $(state "$a") == *"join the class first"* || -z $(state "$a") ]]; then pass "the class's end stops its server"
else fail "the class's end stops its server" "$(state "$a")"; fi
exec 7>&-
mkdir "$TMP/reports"
serve --new --report "$TMP/reports"
if [[ -n $code && $code != "$first" ]]; then pass "--new starts a new class with a new code"
else fail "--new starts a new class with a new code" "code $code"; fi
key 'qq'
wait "$pid"
n=$(find "$TMP/reports" -name '01-rectangle*' -type f | wc -l)
if [[ $n -eq 3 && $(ls "$TMP" | grep -c '^reports\.') -eq 0 ]]; then pass "--report FOLDER writes the report's three files into it"
else fail "--report FOLDER writes the report's three files into it" "$n files: $(ls "$TMP/reports")" "$(tail -n 3 "$TMP/resume.out")"; fi

# ---- a class kept under a lesson's old name (before the renumbering) resumes under the new one ----
exec 7>&-
classes="$TMP/state/padlab/classes"
serve_attention() {
    "$PADLAB" lesson "$@" --class --listen 127.0.0.1 --port 0 <"$TMP/keys" >"$TMP/resume.out" 2>&1 &
    pid=$!
    exec 7>"$TMP/keys"
    for _ in $(seq 1 300); do grep -q '^class: serving' "$TMP/resume.out" && break; sleep 0.1; done
    url=$(sed -n 's/^class: serving \(http:[^ ]*\) code .*/\1/p' "$TMP/resume.out")
    code=$(sed -n 's/^class: serving .* code \([A-Z0-9]*\)$/\1/p' "$TMP/resume.out")
}
serve_attention 06-attention --new
first=$code a=$(token) b=$(token)
key ' '
wait_state "$a" '"phase": "open"'
key 'qq'
wait "$pid"
exec 7>&-
# as padlab kept it before the renumbering: 03-attention.class, lesson = 03-attention
sed 's/^lesson = 06-attention$/lesson = 03-attention/' "$classes/06-attention.class" >"$classes/03-attention.class"
rm "$classes/06-attention.class"
serve_attention 06-attention
if [[ $code == "$first" ]] && grep -q '^class: resumed, 2 students, at step 2$' "$TMP/resume.out"; then
    pass "a class kept as 03-attention resumes as 06-attention: its code, its 2 students, its step"
else fail "a class kept as 03-attention resumes as 06-attention" "code $code (was $first)" "$(head -n 3 "$TMP/resume.out")"; fi
key 'qq'
wait "$pid"
if grep -q '^lesson = 06-attention$' "$classes/06-attention.class" 2>/dev/null; then
    pass "and is kept under the new name from then on"
else fail "and is kept under the new name from then on" "$(ls "$classes")"; fi

# ---- a class kept under 09-batching, a lesson that split, is not resumed: said, and a new one begins ----
serve_attention 08-batching --new
key 'qq'
wait "$pid"
exec 7>&-
sed 's/^lesson = 08-batching$/lesson = 09-batching/' "$classes/08-batching.class" >"$classes/09-batching.class"
rm "$classes/08-batching.class"
serve_attention 08-batching
want="a class of 09-batching, kept from before the lessons were renumbered, cannot be resumed: its steps are now in 08-batching and 11-packing; a new class begins (the old one stays in $classes/09-batching.class)"
if grep -qxF "padlab lesson: $want" "$TMP/resume.out" && ! grep -q '^class: resumed' "$TMP/resume.out" &&
    [[ -f $classes/09-batching.class ]]; then
    pass "a class kept as 09-batching (split since) is not resumed as 08-batching: said, the old file kept"
else fail "a class kept as 09-batching is not resumed as 08-batching, saying so" "$(head -n 3 "$TMP/resume.out")"; fi
a=$(token) # one student joins the new class
key 'qq'
wait "$pid"
exec 7>&-
serve_attention 08-batching
if ! grep -q 'kept from before the lessons were renumbered' "$TMP/resume.out" &&
    grep -q '^class: resumed, 1 student, at step 1$' "$TMP/resume.out"; then
    pass "and once its own class is kept, 08-batching resumes that one (1 student) without a word on the old"
else fail "08-batching resumes its own class after that" "$(head -n 3 "$TMP/resume.out")"; fi
key 'qq'
wait "$pid"

# ---- an exam, with the presenter view on a FIFO: nothing revealed until the end ----
exec 7>&- 2>/dev/null
rm -f "$TMP/keys" && mkfifo "$TMP/keys" "$TMP/pres"
exec 8<>"$TMP/pres" # a reader from the start: the teacher's other terminal
cat <&8 >"$TMP/pres.out" &
catpid=$!
# presenter TEXT: until the presenter view has shown TEXT.
presenter() {
    for _ in $(seq 1 300); do grep -qF -- "$1" "$TMP/pres.out" && return 0; sleep 0.1; done
    return 1
}
run "$PADLAB" lesson 01-rectangle --class --presenter "$TMP/projector"
expect_error "--presenter refuses a regular file, saying what it wants" "not a terminal (run tty in the terminal the presenter view goes to)"
"$PADLAB" lesson 01-rectangle --class --exam --listen 127.0.0.1 --port 0 --report "$TMP/exam" --presenter "$TMP/pres" \
    <"$TMP/keys" >"$TMP/exam.out" 2>&1 &
pid=$!
exec 7>"$TMP/keys"
for _ in $(seq 1 300); do grep -q '^class: serving' "$TMP/exam.out" && break; sleep 0.1; done
url=$(sed -n 's/^class: serving \(http:[^ ]*\) code .*/\1/p' "$TMP/exam.out")
code=$(sed -n 's/^class: serving .* code \([A-Z0-9]*\)$/\1/p' "$TMP/exam.out")
a=$(token) b=$(token)
key ' '
wait_state "$a" '"phase": "open"'
answer "$a" 0 1400 >/dev/null
answer "$b" 0 1000 >/dev/null
key 'r'
for _ in $(seq 1 300); do grep -q 'an exam reveals nothing until the end' "$TMP/exam.out" && break; sleep 0.1; done
if grep -q 'an exam reveals nothing until the end' "$TMP/exam.out" && state "$a" | grep -qF '"phase": "open"'; then
    pass "in an exam r is refused, saying so, and the question stays open"
else fail "in an exam r is refused, saying so, and the question stays open" "$(tail -n 5 "$TMP/exam.out")" "$(state "$a")"; fi
if presenter "answered: 2 of 2, round 1   (an exam: revealed at the end)" && presenter "next: Four reviews, one width" &&
    presenter "step 2 of 7: Count the pads"; then
    pass "the presenter view shows the step, the next one and how many have answered"
else fail "the presenter view shows the step, the next one and how many have answered" "$(tail -n 12 "$TMP/pres.out")"; fi
if grep -qE '^on this step [0-9]+:[0-5][0-9], in all [0-9]+:[0-5][0-9]$' "$TMP/pres.out" &&
    grep -q "^notes: A model takes its input one batch at a time" "$TMP/pres.out" &&
    grep -q "^notes: Point at the counts line: cells and real tokens." "$TMP/pres.out"; then
    pass "with its clocks and the teacher's notes"
else fail "with its clocks and the teacher's notes" "$(head -n 12 "$TMP/pres.out")"; fi
key ' ' # step 3: the share of pads (a number)
key 'qq' # q asks once more before it ends the class
wait "$pid"
if grep -q "the exam's answers" "$TMP/exam.out" && grep -q "the lab: 1400" "$TMP/exam.out" &&
    grep -q "round 1:   2 answered,   1 right" "$TMP/exam.out"; then
    pass "at the end every question reached is revealed against the lab's number (1400: 2 answered, 1 right)"
else fail "at the end every question reached is revealed against the lab's number" "$(sed -n '/the exam.s answers/,$p' "$TMP/exam.out")"; fi
if grep -q "^1,2,ask,$prompt,1,1400,yes," "$TMP/exam.csv" && grep -q "^1,2,ask,$prompt,1,1000,no," "$TMP/exam.csv"; then
    pass "and the exam's report counts them"
else fail "and the exam's report counts them" "$(cat "$TMP/exam.csv")"; fi
kill "$catpid" 2>/dev/null
exec 8>&-

# ---- a class that cannot be kept (its folder is a file) says so at its end, status 1 ----
exec 7>&- 2>/dev/null
rm -f "$TMP/keys" && mkfifo "$TMP/keys"
mkdir -p "$TMP/unkept/padlab" && : >"$TMP/unkept/padlab/classes"
kept_state=${XDG_STATE_HOME-}
export XDG_STATE_HOME="$TMP/unkept"
serve --new
export XDG_STATE_HOME="$kept_state"
key 'qq'
wait "$pid"
st=$?
if [[ $st -eq 1 ]] && grep -q 'the class will not be kept' "$TMP/resume.out" &&
    grep -q 'padlab lesson: the class was not kept, so the same command cannot resume it' "$TMP/resume.out"; then
    pass "a class that could not be kept ends with status 1, saying so"
else fail "a class that could not be kept ends with status 1, saying so" "status $st" "$(grep -v '^\s*$' "$TMP/resume.out" | tail -n 4)"; fi
finish
