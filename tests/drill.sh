#!/usr/bin/env bash
# padlab drill as a person uses it: listing the decks, checking files (a
# broken one named by FILE:LINE), printing the cheat sheet in both formats,
# and playing one card, one question, one bug case and one minute prompt in
# tmux, then quitting and finding the progress kept.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
DECKS="$here/../decks"
export XDG_STATE_HOME="$TMP/state" XDG_DATA_HOME="$TMP/data"
unset PADLAB_DECKS
STATE="$XDG_STATE_HOME/padlab/drill"

# ---- the command line ----
run "$P" drill --list --format json
expect_has "--list --format json gives each deck" '"deck": "bugs"'
for kind in cards questions bugs minute; do
    if grep -qF "\"kind\": \"$kind\"" <<<"$out"; then pass "--list --format json has a $kind deck"
    else fail "--list --format json has a $kind deck" "$out"; fi
done
total() { awk -v k="\"$1\"" '/"kind"/ {kind = $2} /"count"/ {c = $2; gsub(/[^0-9]/, "", c); if (kind ~ k) n += c} END {print n + 0}' <<<"$out"; }
cards=$(total cards) questions=$(total questions) bugs=$(total bugs) minute=$(total minute)
if [[ $cards -ge 60 && $questions -ge 40 && $bugs -ge 8 && $minute -ge 10 ]]; then
    pass "the decks hold $cards cards, $questions questions, $bugs cases, $minute prompts"
else fail "the decks hold enough items" "cards $cards, questions $questions, bugs $bugs, minute $minute"; fi
run "$P" drill --list
expect_has "--list is a table with a header" "deck                   kind       count   due  title"
expect_has "--list names the bug deck" "Spot the bug"

shipped=("$DECKS"/*.deck)
run "$P" drill --check "${shipped[@]}"
if [[ $rc -eq 0 && $(grep -c ': ok, ' <<<"$out") -eq ${#shipped[@]} ]]; then pass "every shipped deck passes --check (${#shipped[@]})"
else fail "every shipped deck passes --check" "status $rc" "$out" "$err"; fi
for f in "${shipped[@]}"; do
    name=$(basename "$f")
    grep -qF "decks/$name" "$here/../Makefile.am" && pass "$name is installed" || fail "$name is installed" "not in dist_deck_DATA"
done
printf '# Broken\nkind: cards\n## One\ntopic: t\nanswer: a\nset: padding=sideways\n' >"$TMP/broken.deck"
run "$P" drill --check "${shipped[0]}" "$TMP/broken.deck"
if [[ $rc -eq 1 && $err == "$TMP/broken.deck:3: this card needs its more:, remember: and dont: lines"$'\n'"$TMP/broken.deck:6: padding must be one of pre,post, got 'sideways'" && $out == *": ok, "* ]]; then
    pass "--check names every problem as FILE:LINE, in line order, and exits 1 when one file is invalid"
else fail "--check names every problem as FILE:LINE, in line order, and exits 1 when one file is invalid" "status $rc" "$out" "$err"; fi
head -c 3000 /dev/urandom >"$TMP/noise.deck"
mkfifo "$TMP/pipe.deck"
run timeout 10 "$P" drill --check "$TMP/pipe.deck"
if [[ $rc -eq 1 && $err == "$TMP/pipe.deck: a FIFO, not a regular file" ]]; then pass "--check of a FIFO refuses it at once"
else fail "--check of a FIFO refuses it at once" "status $rc" "$err"; fi
run "$P" drill --check "$TMP/noise.deck"
if [[ $rc -eq 1 && $(grep -c . <<<"$err") -eq 1 && $err == "$TMP/noise.deck:"* ]]; then pass "--check of random bytes is one line, exit 1"
else fail "--check of random bytes is one line, exit 1" "status $rc" "$err"; fi
# (The drill player opens the deck: without the terminal lab, nothing does.)
if ! without tui "opening a deck to play it" 1; then
    run "$P" drill nosuch
    expect_error "an unknown deck is one line" "no deck 'nosuch'"
fi
run "$P" drill cards-batches </dev/null
expect_error "without a terminal, drill says so and how to rehearse" "padlab drill --answers DECK"

for deck in cards-batches minute quickfire; do
    run "$P" drill --answers "$deck"
    if [[ $rc -eq 0 && $out != *"{"* && $out == *[0-9]"%"* ]]; then pass "--answers $deck fills every figure"
    else fail "--answers $deck fills every figure" "status $rc" "$(grep -n -F -e '{' <<<"$out" | head -3)" "$err"; fi
done

run "$P" drill --cheatsheet
expect_has "--cheatsheet prints the cards as text" "padlab cheat sheet"
expect_has "with each memory aid" "remember: "
expect_has "and what not to say" "don't say: "
if [[ $(awk 'length > 78' <<<"$out" | wc -l) -eq 0 ]]; then pass "the text sheet fits 78 columns"; else fail "the text sheet fits 78 columns" "$(awk 'length > 78' <<<"$out" | head -3)"; fi
if grep -q ' $' <<<"$out"; then fail "no line of the sheet ends in blanks" "$(grep -n ' $' <<<"$out" | head -3)"; else pass "no line of the sheet ends in blanks"; fi
if grep -qF '{' <<<"$out" || grep -qF '...' <<<"$out"; then fail "every figure of the sheet is filled" "$(grep -n -F -e '{' -e '...' <<<"$out" | head -3)"
else pass "every figure of the sheet is filled"; fi
text_cards=$(grep -c '^  Q  ' <<<"$out")
[[ $text_cards -eq $((cards + minute)) ]] && pass "the text sheet holds every card and minute prompt ($cards + $minute)" || fail "the text sheet holds every card and minute prompt" "$text_cards of $cards + $minute"
run "$P" drill --cheatsheet --format markdown
expect_has "--format markdown is Markdown" "# padlab cheat sheet"
expect_has "with the memory aids in italics" "*Remember:*"
md_cards=$(grep -c '^- \*\*' <<<"$out")
[[ $md_cards -eq $((cards + minute)) ]] && pass "the Markdown sheet holds every card and minute prompt ($cards + $minute)" || fail "the Markdown sheet holds every card and minute prompt" "$md_cards of $cards + $minute"
run "$P" drill --cheatsheet minute
expect_has "--cheatsheet minute holds the model answers and the follow-ups" $'\n     follow-up: How would you reduce the padding without changing the model?'
run "$P" drill --cheatsheet --one-page
if [[ $rc -eq 0 && $(wc -l <<<"$out") -le 60 && $(awk 'length > 100' <<<"$out" | wc -l) -eq 0 ]]; then pass "--cheatsheet --one-page is one page (60 lines at most)"
else fail "--cheatsheet --one-page is one page (60 lines at most)" "status $rc, $(wc -l <<<"$out") lines"; fi
expect_has "the one page gives the fill values as each float format holds them" "finfo.min: float32 -3.4028235e+38, float16 -65504, bfloat16 -3.3895e+38"
expect_has "and PyTorch's key_padding_mask polarity" "key_padding_mask (B, T)       False  True"
run "$P" drill --cheatsheet --format json
expect_error "--cheatsheet takes text or markdown" "--format"
run "$P" drill --cheatsheet cards-batches --corpus builtin:1:400
expect_has "--cheatsheet of one deck follows the corpus given" "Batches, pads and what they cost"

# A teacher's deck cannot drive the terminal: every headless print writes out control bytes
# (ESC ] 0 ; sets the window's title, ESC [ 2 J clears the screen).
mkdir -p "$XDG_DATA_HOME/padlab/decks"
printf '# Deck \e]0;owned\a\nkind: cards\n\n## Card \e[2J title\ntopic: t \e[1m\nanswer: An \e[2J answer\nmore: m \e[2J\nremember: r \e[0m\ndont: d\n' \
    >"$XDG_DATA_HOME/padlab/decks/esc.deck"
shown_ok() { [[ $rc -eq 0 && $out == *"$1"* && $out != *$'\e'* ]]; }
run "$P" drill --list
if shown_ok 'Deck \x1b]0;owned\x07'; then pass "--list writes out a title's control bytes"
else fail "--list writes out a title's control bytes" "status $rc" "$(cat -v <<<"$out")"; fi
run "$P" drill --cheatsheet esc
if shown_ok 'Deck \x1b]0;owned\x07 (esc)'$'\n''---------------------------'$'\n\n''  t \x1b[1m'$'\n''  Q  Card \x1b[2J title'$'\n''     An \x1b[2J answer'$'\n''     remember: r \x1b[0m'; then
    pass "--cheatsheet writes out control bytes, its rule as long as the title shown"
else fail "--cheatsheet writes out control bytes, its rule as long as the title shown" "status $rc" "$(cat -v <<<"$out")" "$err"; fi
run "$P" drill --cheatsheet esc --format markdown
if shown_ok '## Deck \x1b]0;owned\x07 (`esc`)'; then pass "--cheatsheet --format markdown writes them out too"
else fail "--cheatsheet --format markdown writes them out too" "status $rc" "$(cat -v <<<"$out")" "$err"; fi
run "$P" drill --answers esc
if shown_ok '1. Card \x1b[2J title'$'\n''  answer: An \x1b[2J answer'$'\n''  more: m \x1b[2J'; then pass "--answers writes them out too"
else fail "--answers writes them out too" "status $rc" "$(cat -v <<<"$out")" "$err"; fi
rm "$XDG_DATA_HOME/padlab/decks/esc.deck"

# ---- playing in tmux ----
tmux_begin "playing drills in the terminal" 90 # the checks from here to the end (the read-only ones counted run)
PANE=drill PANE_W=80 PANE_H=24
ENVS="TERM=xterm-256color XDG_STATE_HOME=$XDG_STATE_HOME XDG_DATA_HOME=$XDG_DATA_HOME"
if without tui "playing drills in the terminal" 89; then # the 90 but the one below
    check_built_without "in a terminal, padlab drill says in one line it was built without the terminal lab" drill cards-batches
    finish
    exit $?
fi
# The letter a choice starting with TEXT is shown at: the order is the learner's, read off the
# screen, scrolling down to it (at 80x24 a case's causes can sit below its story).
letter_of() {
    local l
    for _ in $(seq 1 30); do
        l=$(screen | sed -n "s/^ *[^a-f ]*\([a-f]\)) $1.*/\1/p" | head -1)
        [[ -n $l ]] && break
        T send-keys -t drill Down
        sleep 0.05
    done
    echo "$l"
}
other_than() { [[ $1 == a ]] && echo b || echo a; }
# One learner throughout, so that the orders on screen are the same on every run.
mkdir -p "$(dirname "$STATE")"
echo "learner = 00000000000000a1" >"$STATE"

start drill cards-batches --count 1
check_screen "a card shows its front" "Why does a batch need padding at all?"
check_screen "and asks for the answer first" "space shows it"
T send-keys -t drill 3
check_screen "grading before the reveal is refused" "reveal the answer first"
T send-keys -t drill Space
check_screen "space reveals the answer" "Remember: One tensor, one shape"
check_screen "with its figure from the lab" "static batches at maxlen 200 are"
T send-keys -t drill 3
check_screen "3 grades it good and the session ends" "1 graded: 0 again, 0 hard, 1 good, 0 easy"
T send-keys -t drill q
check_screen "q quits" "EXIT=0"

# A drill ended by a signal says so in its status, as the lab and lessons do: 128 + the signal.
for sig in INT:130 TERM:143 HUP:129 QUIT:131; do
    start drill cards-batches --count 1
    wait_for "space shows it" >/dev/null
    pid=$(pgrep -f -n "$P drill cards-batches --count 1")
    [[ -n $pid ]] && kill -"${sig%:*}" "$pid"
    check_screen "SIG${sig%:*} ends the drill with status ${sig#*:}" "EXIT=${sig#*:}"
done

mkdir -p "$XDG_DATA_HOME/padlab/decks"
cat >"$XDG_DATA_HOME/padlab/decks/mine.deck" <<'EOF'
# My questions
kind: questions
seconds: 5

## Which id does Keras's pad_sequences pad with?
id: pad-value
topic: rectangles and the pad token
- 1 => No: 1 is usually the first real word.
* 0 => Right: value=0 by default.
EOF
start drill mine
check_screen "a teacher's deck from the data folder plays" "Which id does Keras's pad_sequences pad with?"
right=$(letter_of 0)
T send-keys -t drill "$(other_than "$right")"
check_screen "a wrong answer says which was right" "Not this one: the answer is $right."
check_screen "and explains every answer" "1 is usually the first real word"
T send-keys -t drill q
check_screen "q quits the questions" "EXIT=0"
start drill mine --timed
check_screen "a timed question counts down" "left"
right=$(letter_of 0)
check_screen "and its time runs out" "Time's up: the answer is $right." 80

start drill bugs --count 1
check_screen "a bug case tells its story" "The attention that only sees pads"
check_screen "the lab measures the symptom under the bug" "100.0%"
if screen | grep -q -e 'convention=' -e 'masks\.share'; then fail "the case's front names no setting and no quantity" "$(screen)"
else pass "the case's front names no setting and no quantity"; fi
T send-keys -t drill "$(letter_of 'The polarity is inverted')"
check_screen "the right cause is acknowledged" "Right."
T send-keys -t drill f
check_screen "f applies the fix and measures again" "the fix took effect"
check_screen "the fixed value is the lab's" "0.0%"
T send-keys -t drill q
check_screen "q quits the case" "EXIT=0"

start drill minute --count 1
check_screen "a minute prompt shows the countdown" "left: say it out loud"
T send-keys -t drill Space
check_screen "space shows the model answer" "A model answer"
check_screen "the follow-ups" "The follow-ups they ask"
check_screen "and what they listen for" "What they listen for"
T send-keys -t drill 4
check_screen "4 grades it easy" "1 graded: 0 again, 0 hard, 0 good, 1 easy"
T send-keys -t drill q
check_screen "q quits the prompt" "EXIT=0"

W=60 H=20 start drill cards-batches
check_screen "a too small terminal says so" "terminal too small"
T send-keys -t drill q
check_screen "and q still quits" "EXIT=0"

check_state() {
    if grep -q "$2" "$STATE" 2>/dev/null; then pass "$1"; else fail "$1" "want: $2" "$(cat "$STATE" 2>&1)"; fi
}
check_state "the card's progress is kept: FSRS's second learning step (new, graded good)" \
    "^item = cards-batches/why-does-a-batch-need-padding-at-all state=learning step=1 d=2.11810397 s=2.3065 .*reviews=1 "
check_state "and the grade is in the review log" \
    "^item = cards-batches/why-does-a-batch-need-padding-at-all@[0-9]*\.1 log=1 t=[0-9]* grade=3 elapsed=0 from=new "
check_state "the question's wrong answer is kept" "^item = mine/pad-value .*right=0 wrong=2$"
check_state "the case's right answer is kept" "^item = bugs/inverted-polarity .*right=1 wrong=0$"
check_state "the prompt's grade is kept: review, S 8.2956 days (new, graded easy)" "^item = minute/[a-z-]* state=review step=0 d=1 s=8.2956 "
# read at the card's own due minute: on the wall clock, a card graded just before the day's
# start (04:00) falls due on the next day and the count said 25
due=$(sed -n 's/^item = cards-batches\/why-does-a-batch-need-padding-at-all state=learning .*due_at=\([0-9]*\) .*/\1/p' "$STATE")
run env PADLAB_NOW="$(date -u -d "@${due:-0}" +%Y-%m-%dT%H:%M)" "$P" drill --list
expect_has "--list counts the card in its 10-minute learning step as due today" "cards-batches          cards         26    26"

# ---- lesson questions in review (the clock injected with PADLAB_NOW) ----
# A prediction missed in a lesson is a card of the "lessons" deck: graded
# again without learning steps (the lesson was the learning), FSRS-6 gives
# it stability w0 = 0.212 days and the shortest interval, one day.
LESSON_ENVS="TERM=xterm-256color XDG_STATE_HOME=$XDG_STATE_HOME XDG_DATA_HOME=$XDG_DATA_HOME"
ENVS="$LESSON_ENVS PADLAB_NOW=2026-01-05T09:00" start lesson 01-rectangle
check_screen "a lesson opens at its first step" "step 1 of 7"
T send-keys -t drill Space
check_screen "its second step asks for the batch's pad cells" "how many hold the pad token?"
T send-keys -t drill 1300 Enter
check_screen "a wrong prediction is refused" "1300 is not it: the lab's number is higher."
T send-keys -t drill 1400 Enter
check_screen "the right one is then accepted" "Right."
T send-keys -t drill q
check_screen "q quits the lesson" "EXIT=0"
check_state "the miss is a card of the lessons deck, due a day later (again: S = w0 = 0.212 days)" \
    "^item = lessons/01-rectangle:count-the-pads state=review step=0 d=6.4133 s=0.212 due_at=1767690000 .*reviews=1 "
check_state "graded once, by the first answer" "^item = lessons/01-rectangle:count-the-pads@1767603600.1 log=1 t=1767603600 grade=1 "
run env PADLAB_NOW=2026-01-05T09:00 "$P" lesson --review
expect_has "lesson --review the same day: nothing is due yet" "1 lesson question in review, none due today"
run env PADLAB_NOW=2026-01-06 "$P" drill --list
expect_has "drill --list counts the lesson questions as one more deck, due the next day" \
    "lessons                cards          1     1  Your lesson questions"
run env PADLAB_NOW=2026-01-06 "$P" drill --plan
expect_has "drill --plan counts the lesson question among the day's reviews" "lessons                         1          0          0"
expect_has "and the same one review today in the days ahead (the others, graded on the machine's clock, fall due long after)" \
    $'  2026-01-06 (today)      1 █\n  2026-01-07              0\n'
# R = (1 + F t / S)^-w20, F = 0.9^(-1/w20) - 1, w20 = 0.1542: 27 hours after the miss (PADLAB_NOW's
# date alone is its noon), S 0.212: 75%
expect_has "and its lesson as a topic, with its recall a day after the miss" "Why a batch needs one rectangle        1     1    1           75%"
ENVS="$LESSON_ENVS PADLAB_NOW=2026-01-06T09:00" start lesson --review
check_screen "lesson --review asks the due question again, at its step" \
    "review 1 of 1: Why a batch needs one rectangle  |  step 2 of 7: Count the pads"
check_absent "1400" "the figure asked for is hidden until answered"
T send-keys -t drill 1400 Enter
check_screen "the right answer is accepted" "Right."
T send-keys -t drill Space
check_screen "going on past the last due question says so" "that was the last question due today"
T send-keys -t drill q
check_screen "q quits the review" "EXIT=0"
check_state "the card, graded good a day later, waits days now" \
    "^item = lessons/01-rectangle:count-the-pads state=review step=0 .* last_at=1767690000 ivl=[2-9] reviews=2 "
run env PADLAB_NOW=2026-01-06T10:00 "$P" drill lessons
expect_has "padlab drill lessons plays the same review: nothing is due now" "1 lesson question in review, none due today"
ENVS="$LESSON_ENVS PADLAB_NOW=2026-01-06T10:00" start drill
check_screen "the drill's picker lists the lesson questions after the decks" \
    "lessons                cards          1     0  Your lesson questions"
for _ in $(seq 1 12); do T send-keys -t drill Down; done
T send-keys -t drill Enter
check_screen "picked with none due, it says so and stays" "none of your lesson questions is due today"
T send-keys -t drill q
check_screen "q quits the picker" "EXIT=0"
ENVS="$LESSON_ENVS PADLAB_NOW=2026-01-20T09:00" start drill # the card's interval (at most 9 days) has passed
check_screen "two weeks on, the picker counts it due" "lessons                cards          1     1  Your lesson questions"
for _ in $(seq 1 12); do T send-keys -t drill Down; done
T send-keys -t drill Enter
check_screen "picked, the lab opens on the question at its step" \
    "review 1 of 1: Why a batch needs one rectangle  |  step 2 of 7: Count the pads"
T send-keys -t drill q
check_screen "and q quits" "EXIT=0"
ENVS="TERM=xterm-256color XDG_STATE_HOME=$XDG_STATE_HOME XDG_DATA_HOME=$XDG_DATA_HOME"

# ---- the interview date (the clock injected with PADLAB_NOW) ----
run env PADLAB_NOW=2026-01-05 "$P" drill --until 2026-02-30 --plan
expect_error "--until refuses a date that does not exist" "--until: expected the interview's date as YYYY-MM-DD, or none, got '2026-02-30'"
run env PADLAB_NOW=2026-01-05 "$P" drill --until 2026-01-04 --plan
expect_error "--until refuses a date before today" "--until: 2026-01-04 is before today"
run env PADLAB_NOW=2026-01-5 "$P" drill --plan
expect_error "a bad PADLAB_NOW is named" "PADLAB_NOW: expected YYYY-MM-DD"
run env PADLAB_NOW=2026-01-05T25:00 "$P" drill --plan
expect_error "a PADLAB_NOW of the right length with no such hour is named, not read as the machine's clock" \
    "PADLAB_NOW: expected YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC), got '2026-01-05T25:00'"
run env PADLAB_NOW=2026-01-05 "$P" drill --retention 0.99x --plan
expect_error "--retention refuses what is not a number" "--retention: expected a desired retention from 0.7 to 0.99, got '0.99x'"
run env PADLAB_NOW=2026-01-05 "$P" drill --until 2026-01-12 --retention 0.85 --plan cards-batches
expect_has "--plan names the date and the days left" $'today 2026-01-05 (days start at 4:00); desired retention 0.85; at most 100 reviews and 20 new cards a day\ninterview 2026-01-12, in 7 days'
expect_has "--plan spreads the 25 unseen cards over 7 days: 4 today" "cards-batches                   0          4         25"
expect_has "--plan gives the recall by topic, today and on the date" "recall today on 2026-01-12"
check_state "the date and the retention are kept in the book" "^item = @settings retention=0.85 until=20465$"

# ---- a date set late pulls the cards in; the date cleared; the date passed ----
# Three cards graded easy on 2026-04-01 at 09:00 (S 8.2956 each), due 04-07, 04-11, 04-11; on
# 04-02 an interview on 04-05 moves each onto one of the last days before it, one a day.
mkdir -p "$TMP/late/padlab"
{
    echo "format = 2"
    echo "learner = 00000000000000a1"
    for c in what-is-an-additive-attention-mask why-not-zero-the-pad-weights-after-the-softmax \
        why-is-a-padding-mask-often-shaped-b-1-1-t; do
        [[ $c == why-not* ]] && due=$((1775034000 + 86400 * 6)) || due=$((1775034000 + 86400 * 10))
        echo "item = cards-attention/$c state=review step=0 d=1 s=8.2956 due_at=$due last_at=1775034000 ivl=$(((due - 1775034000) / 86400)) reviews=1 lapses=0 right=0 wrong=0"
    done
} >"$TMP/late/padlab/drill"
run env XDG_STATE_HOME="$TMP/late" PADLAB_NOW=2026-04-02 "$P" drill --until 2026-04-05 --plan cards-attention
expect_has "a date set late says how many cards it pulls in" "3 cards due after the interview now come before it"
expect_has "and spreads them over the last days, one a day" \
    $'  2026-04-02 (today)      0\n  2026-04-03              1 █\n  2026-04-04              1 █\n  2026-04-05 (the day)    1 █'
run env XDG_STATE_HOME="$TMP/late" PADLAB_NOW=2026-04-02 "$P" drill --reviews-per-day 2 --plan cards-attention
expect_has "a daily limit is kept and shown" "at most 2 reviews and 20 new cards a day"
# A day starts at 4 am local time: 07:00 UTC is 03:00 in New York (EDT): still 04-01 there.
if [[ -e /usr/share/zoneinfo/America/New_York ]]; then
    run env XDG_STATE_HOME="$TMP/late" TZ=America/New_York PADLAB_NOW=2026-04-02T07:00 "$P" drill --plan cards-attention
    expect_has "at 3 am local time (TZ) it is still the day before" "today 2026-04-01 (days start at 4:00)"
    run env XDG_STATE_HOME="$TMP/late" TZ=America/New_York PADLAB_NOW=2026-04-02T09:00 "$P" drill --plan cards-attention
    expect_has "at 5 am local time the new day has begun" "today 2026-04-02 (days start at 4:00)"
else skip "a day starts at 4 am local time: no tzdata (/usr/share/zoneinfo/America/New_York)" 2; fi
run env XDG_STATE_HOME="$TMP/late" PADLAB_NOW=2026-04-09 "$P" drill --plan cards-attention
expect_has "after the date, --plan says it has passed and how to clear it" \
    "interview 2026-04-05: the date has passed (4 days ago); --until none clears it, --until DATE sets another"
run env XDG_STATE_HOME="$TMP/late" PADLAB_NOW=2026-04-09 "$P" drill --until none --day-starts 0 --plan cards-attention
expect_has "--until none clears the date" "no interview date (--until DATE sets one)"
if grep -qx 'item = @settings reviews_per_day=2 day_starts=24' "$TMP/late/padlab/drill"; then
    pass "the book keeps only the settings given (midnight as day_starts=24), no until once cleared"
else fail "the book keeps only the settings given (midnight as day_starts=24), no until once cleared" "$(grep settings "$TMP/late/padlab/drill")"; fi
run env XDG_STATE_HOME="$TMP/late" "$P" drill --new-per-day 0
expect_error "--new-per-day refuses 0" "--new-per-day: expected an integer from 1 to 100000, got '0'"
run env XDG_STATE_HOME="$TMP/late" "$P" drill --day-starts 24
expect_error "--day-starts refuses an hour past 23" "--day-starts: expected an integer from 0 to 23, got '24'"

# ---- --export anki ----
run "$P" drill --export anki cards-batches "$TMP/anki.txt"
expect_has "--export anki writes the deck's notes" "anki.txt: 26 notes for Anki"
if [[ $(head -n 7 "$TMP/anki.txt") == $'#separator:tab\n#html:true\n#notetype:padlab\n#deck:padlab::cards-batches\n#columns:GUID\tFront\tBack\tRemember\tDon\'t say\tFollow-ups\tListen for\tChoices\tTags\n#guid column:1\n#tags column:9' ]]; then
    pass "the file opens with Anki's header lines: HTML, the padlab note type, the deck, a guid column"
else fail "the file opens with Anki's header lines: HTML, the padlab note type, the deck, a guid column" "$(head -n 7 "$TMP/anki.txt")"; fi
if [[ $(grep -vc '^#' "$TMP/anki.txt") == 26 && $(grep -v '^#' "$TMP/anki.txt" | awk -F'\t' 'NF != 9' | wc -l) == 0 ]] && ! grep -q '{' "$TMP/anki.txt"; then
    pass "a note per card, nine fields each, every figure filled"
else fail "a note per card, nine fields each, every figure filled" "$(cat "$TMP/anki.txt")"; fi
if grep -q $'\tpadlab::cards-batches::rectangles_and_the_pad_token$' "$TMP/anki.txt"; then pass "each note is tagged with its deck and topic"
else fail "each note is tagged with its deck and topic" "$(tail -n 2 "$TMP/anki.txt")"; fi
if [[ $(grep -v '^#' "$TMP/anki.txt" | cut -f 1 | sort -u | wc -l) == 26 ]] && grep -v '^#' "$TMP/anki.txt" | cut -f 1 | grep -qvx 'padlab-[0-9A-Za-z]\{11\}'; then
    fail "each note has its own stable id" "$(grep -v '^#' "$TMP/anki.txt" | cut -f 1)"
else pass "each note has its own stable id"; fi
cp "$TMP/anki.txt" "$TMP/anki1.txt"
run "$P" drill --export anki cards-batches "$TMP/anki.txt"
if cmp -s "$TMP/anki.txt" "$TMP/anki1.txt"; then pass "a second export gives the same ids (a re-import updates the notes)"
else fail "a second export gives the same ids (a re-import updates the notes)" "$(diff "$TMP/anki1.txt" "$TMP/anki.txt" | head -n 4)"; fi
if grep -v '^#' "$TMP/anki.txt" | cut -f 4,5 | grep -q '<p>.*<p>'; then pass "remember and what not to say travel in their own fields, as HTML"
else fail "remember and what not to say travel in their own fields, as HTML" "$(grep -v '^#' "$TMP/anki.txt" | head -n 1 | cut -f 4,5)"; fi
run "$P" drill --export anki minute "$TMP/minute.txt"
if grep -v '^#' "$TMP/minute.txt" | cut -f 6 | grep -q '^<ul><li>.*</li><li>'; then pass "a minute prompt's follow-ups are a list in their field"
else fail "a minute prompt's follow-ups are a list in their field" "$(grep -v '^#' "$TMP/minute.txt" | head -n 1 | cut -f 6)"; fi
run "$P" drill --export anki quickfire "$TMP/quick.txt"
if grep -v '^#' "$TMP/quick.txt" | cut -f 8 | grep -q ' (right)</li>'; then pass "a quick-fire question's choices are kept, the right one marked"
else fail "a quick-fire question's choices are kept, the right one marked" "$(grep -v '^#' "$TMP/quick.txt" | head -n 1 | cut -f 8)"; fi
run "$P" drill --export anki polarity "$TMP/polarity.txt"
expect_has "--export anki polarity writes the polarity facts as cloze notes" "polarity.txt: 9 cloze notes for Anki"
if [[ $(sed -n 3p "$TMP/polarity.txt") == '#notetype:Cloze' && $(grep -vc '^#' "$TMP/polarity.txt") == 9 &&
    $(grep -v '^#' "$TMP/polarity.txt" | grep -c '{{c1::') == 9 ]] && grep -q '{{c1::-65504}}' "$TMP/polarity.txt"; then
    pass "each a cloze note of the Cloze type, float16's minimum computed"
else fail "each a cloze note of the Cloze type, float16's minimum computed" "$(cat "$TMP/polarity.txt")"; fi
mkfifo "$TMP/fifo"
run timeout 20 "$P" drill --export anki cards-batches "$TMP/fifo"
expect_error "an export to a FIFO is refused before anything is written" "fifo: is a FIFO (a pipe with a name): give the name of a file to write"
run "$P" drill --export anki cards-batches /dev/null
expect_error "an export to a device is refused" "/dev/null: is a device"
run "$P" drill --export anki bugs "$TMP/bugs.txt"
expect_error "--export anki refuses a deck of cases" "bugs is a deck of cases"

run "$P" drill --reset minute </dev/null
expect_error "--reset without a terminal to ask needs --yes" "needs --yes"
run "$P" drill --reset minute --yes
expect_has "--reset --yes forgets one deck" "forgot"
if grep -q "^item = minute/" "$STATE"; then fail "the deck's progress is gone" "$(cat "$STATE")"; else pass "the deck's progress is gone"; fi
check_state "and the others' stays" "^item = bugs/inverted-polarity "
check_state "the learner's salt is kept" "^learner = 00000000000000a1$"

# A state folder the drill cannot write: the learner is told on screen, in
# the key bar and on exit, with status 1. (As root, padlab runs as nobody.)
RO="$TMP/ro-state"
if read_only_folder "$RO"; then
    ENVS="TERM=xterm-256color XDG_STATE_HOME=$RO XDG_DATA_HOME=$XDG_DATA_HOME $as_other" P=$P_other start drill cards-batches --count 2
    check_screen "a drill in a read-only state folder opens" "space shows it"
    T send-keys -t drill Space
    check_screen "and reveals the answer" "Remember: "
    T send-keys -t drill 3
    check_screen "the grade that cannot be written says so on screen" "progress not saved"
    check_screen "the next card's key bar says the progress is not saved" "(progress NOT saved)"
    check_absent "(progress is kept)" "and no longer says it is kept"
    T send-keys -t drill Space
    T send-keys -t drill 3
    check_screen "the end says the progress could not be saved" "Your progress could NOT be saved"
    check_screen "the note stays after the next grade" "progress not saved"
    T send-keys -t drill q
    check_screen "q quits with status 1" "EXIT=1"
    if grep -q "^padlab drill: progress not saved: .*Permission denied" "$TMP/err.txt"; then pass "and says why on exit"
    else fail "and says why on exit" "$(cat "$TMP/err.txt")"; fi
else
    skip "a read-only state folder (cannot run padlab as another user, or the folder is writable)" 9
fi
chmod 700 "$TMP"

# ---- a damaged record: a read leaves the book as it is, a write sets it aside first ----
dstate=$TMP/damaged-state
mkdir -p "$dstate/padlab"
printf '# padlab drill\nformat = 2\nitem = quickfire/x state=new step=0\nitem = quickfire/y box=zz\n' >"$dstate/padlab/drill"
before=$(md5sum <"$dstate/padlab/drill")
run env XDG_STATE_HOME="$dstate" "$P" drill --list
if [[ $rc -eq 0 && $err == *"drill:4: expected 'item = DECK/ID state=S"*"(1 damaged record left out); the file is left as it is until a save sets it aside" &&
    $(md5sum <"$dstate/padlab/drill") == "$before" && ! -e $dstate/padlab/drill.damaged-1 ]]; then
    pass "drill --list names a damaged record and changes nothing"
else fail "drill --list names a damaged record and changes nothing" "status $rc" "$err" "$(ls "$dstate/padlab")"; fi
run bash -c "printf 'a\nq\n' | XDG_STATE_HOME='$dstate' '$P' drill quickfire --lines"
if [[ -e $dstate/padlab/drill.damaged-1 && $(md5sum <"$dstate/padlab/drill.damaged-1") == "$before" ]] &&
    grep -q '^item = quickfire/x ' "$dstate/padlab/drill" && ! grep -q 'quickfire/y' "$dstate/padlab/drill"; then
    pass "a drill that writes sets the damaged file aside whole first and keeps the good record"
else fail "a drill that writes sets the damaged file aside whole first" "$(ls "$dstate/padlab")" "$out" "$err"; fi
finish
