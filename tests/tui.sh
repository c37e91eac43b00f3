#!/usr/bin/env bash
# The terminal lab, driven as a person would: in a private tmux server, keys
# and clicks sent, the screen captured and read.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
IMDB=${PADLAB_SHARED_DATA:-$here/../../shared/data}/imdb5k.tsv
tmux_begin "terminal tests" 269
if without tui "the terminal lab's tests" 267; then
    check_built_without "in a terminal, padlab says in one line it was built without the terminal lab" --corpus builtin:1:400
    check_built_without "and so does padlab lab" lab --corpus builtin:1:400
    finish
    exit $?
fi
# locate TEXT: "X Y" of its first character on the screen (0-based), or nothing.
locate() { screen | awk -v t="$1" '{ i = index($0, t); if (i) { print i - 1, NR - 1; exit } }'; }
# click X Y [BUTTON]: an SGR mouse press and release at column X, row Y (0-based); BUTTON 0 left, 2 right.
click() {
    local b=${3:-0}
    T send-keys -t lab -l $'\e'"[<$b;$(($1 + 1));$(($2 + 1))M"
    T send-keys -t lab -l $'\e'"[<$b;$(($1 + 1));$(($2 + 1))m"
}

start --corpus builtin:1:400
check_screen "the lab opens with the control strip" "padding: pre*"
check_screen "the tutorial defaults are shown as text" "maxlen: 200*"
check_screen "the batch view says which batch it shows" "static batch 1/13: 32 rows x 200"
T send-keys -t lab p
check_screen "p switches padding to post" "padding: post*"
T send-keys -t lab P
check_screen "P switches it back" "padding: pre*"
T send-keys -t lab m
check_screen "m switches the mask on" "mask: on*"
T send-keys -t lab u
check_screen "u undoes the last change" "mask: off*"
T send-keys -t lab b
check_screen "b moves batching forward" "batching: dynamic*"
T send-keys -t lab B B
check_screen "B moves it back, around the end" "batching: packed*"
T send-keys -t lab R
check_screen "R resets every setting" "batching: static*"
T send-keys -t lab Enter
sleep 0.3
check_absent "padding: post*" "Enter with nothing clicked changes nothing"
read -r mx my < <(locate "maxlen: 200*")
click "$((mx + 2))" "$my"
check_screen "a click on maxlen raises it" "maxlen: 250*"
click "$((mx + 2))" "$my" 2
check_screen "a right click lowers it" "maxlen: 200*"
T send-keys -t lab +
T send-keys -t lab 2
want=$($P stats --corpus builtin:1:400 --maxlen 250 --format json | awk -F': ' '/"padding_share"/ {gsub(",", "", $2); printf "padding share   %5.1f%%", 100*$2}')
check_screen "the cost view's padding share matches padlab stats" "$want"
if screen | grep -qE '^ +▲ *$'; then pass "the cost view's maxlen marker is drawn (text is clipped by columns, not bytes)"
else fail "the cost view's maxlen marker is drawn (text is clipped by columns, not bytes)" "$(screen)"; fi
T send-keys -t lab 7
check_screen "a cold change retrains every seed" "trained 3 seeds: median accuracy" 300
check_screen "the train view puts each seed on one axis" "| the median"
T send-keys -t lab g
check_screen "g runs the grid of the selected model and shows its table" "rnn post mask on" 600
check_screen "the grid finishes and says so" "the grid is done: 12 runs" 600
T send-keys -t lab e
check_screen "e on the train view exports its data" "padlab-train-1.txt"
if grep -q '"identity": {' "$TMP/padlab-train-1.json" && grep -q -- '---- identity ----' "$TMP/padlab-train-1.txt"; then
    pass "the train view's export holds the pre+mask = post+mask figure it draws"
else fail "the train view's export holds the pre+mask = post+mask figure it draws" "$(ls "$TMP")"; fi
T resize-window -t lab -x 60 -y 20
check_screen "a small terminal gets a message" "terminal too small (need 80x24, have 60x20)"
T send-keys -t lab p
T resize-window -t lab -x 100 -y 30
check_screen "enlarging restores the lab" "padding: pre*"
check_absent "padding: post*" "keys do nothing unseen behind the small-terminal message"
T send-keys -t lab ?
check_screen "? opens the help overlay, in pages" "page 1 of"
check_screen "the help lists the settings from the registry" "where the pad cells go"
# Every key the lab binds itself (its key table) is named on one of the help's pages.
pages=$(screen)
for page in 2 3 4 5; do
    grep -qF "space for the next" <<<"$(screen)" || break
    T send-keys -t lab Space
    wait_for "page $page of" >/dev/null
    pages+=$'\n'$(screen)
done
missing=""
for key in "1-9 0" Tab Shift-Tab j/k Down Up PgDn PgUp h/l Left Right Enter F5 F1 space "b " "? " "q " mouse; do
    grep -qF -- "$key" <<<"$pages" || missing+=" '$key'"
done
if [[ -z $missing ]]; then pass "the help names every key the lab binds, F1 and F5 among them"
else fail "the help names every key the lab binds" "missing:$missing" "$pages"; fi
T send-keys -t lab x
T send-keys -t lab 1
T send-keys -t lab e
check_screen "e exports the view's data" "exported the view's data to ./padlab-batch-1.txt"
T send-keys -t lab e
check_screen "a second export never overwrites the first" "padlab-batch-2.txt"
if [[ -s $TMP/padlab-batch-1.json ]] && grep -q '"rows"' "$TMP/padlab-batch-1.json"; then pass "the export has the full data as JSON"
else fail "the export has the full data as JSON" "$(ls "$TMP")"; fi
T send-keys -t lab q
check_screen "q quits with status 0" "EXIT=0"

# The state line: i shows it and saves it in a new file; the lab opened
# from it saves the same line again.
start --corpus builtin:1:400 --seeds 1 --maxlen 30 --padding post --example 5 --view cost
check_screen "a lab for the state line opens" "trained 1 seed" 300
T send-keys -t lab i
check_screen "i shows the state line and the file it is in" "state line (in ./padlab-state-1.txt): padlab --state"
check_screen "the line goes on over the status line's second row" "v1,corpus=builtin:1:400,padding=post"
want=$($P --print-state --corpus builtin:1:400 --seeds 1 --maxlen 30 --padding post --example 5 --view cost)
if [[ $(cat "$TMP/padlab-state-1.txt" 2>/dev/null) == "$want" ]]; then pass "the saved state line is the lab's: $want"
else fail "the saved state line is the lab's" "want: $want" "got: $(cat "$TMP/padlab-state-1.txt" 2>&1)"; fi
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null
start "${want#padlab }"
wait_for "trained 1 seed" 300 >/dev/null
T send-keys -t lab i
wait_for "padlab-state-2.txt" >/dev/null
if cmp -s "$TMP/padlab-state-1.txt" "$TMP/padlab-state-2.txt"; then pass "the lab opened from the line saves the same line"
else fail "the lab opened from the line saves the same line" "$(cat "$TMP"/padlab-state-*.txt 2>&1)" "$(screen)"; fi
T send-keys -t lab q
check_screen "the lab opened from a state line quits with status 0" "EXIT=0"

# A click acts as its key does: the views recompute and the screen follows
# with no key pressed after it (a click's release once left the loop waiting
# for a key, the views marked updating until then).
# (The "cold: retraining" line lasts only while the retrain runs, which on a
# small corpus can end before the screen is read: the session file, saved
# after every run, is what says the click's retrain ran and finished.)
start --corpus builtin:1:400 --view cost --seeds 1 --session "$TMP/clicks.session"
check_screen "a lab for clicks opens on the cost view" "trained 1 seed" 300
read -r mx my < <(locate "maxlen: 200*")
want=$($P stats --corpus builtin:1:400 --maxlen 250 --format json | awk -F': ' '/"padding_share"/ {gsub(",", "", $2); printf "padding share   %5.1f%%", 100*$2}')
click "$((mx + 2))" "$my"
check_screen "a click's cold change is shown at once" "maxlen: 250*"
check_screen "the cost view recomputes after a click, no key pressed" "$want"
check_absent "updating" "and it is not left marked updating"
for ((i = 0; i < 600; i++)); do
    grep -q '^run = id=2 .*maxlen=250 ' "$TMP/clicks.session" 2>/dev/null && break
    sleep 0.1
done
if grep -q '^run = id=2 .*maxlen=250 ' "$TMP/clicks.session" 2>/dev/null; then
    check_screen "the retrain a click started finishes on screen, no key pressed" "trained 1 seed" 300
else fail "the retrain a click started finishes, no key pressed" "no run 2 at maxlen 250 in the session" "$(cat "$TMP/clicks.session" 2>&1)"; fi
read -r cx cy < <(locate "convention: keras")
click "$((cx + 2))" "$cy"
check_screen "a click on a hot control moves it" "convention: torch"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# Every setting has a key: lower-case moves it forward, its upper-case twin
# back (causal and pad_embedding were mouse-only; s moved the seed back).
start --corpus builtin:1:400 --seeds 1 --example 0
check_screen "a lab for the keys opens" "padding: pre*"
while IFS='|' read -r key fwd back; do
    T send-keys -t lab -l "${key:0:1}"
    check_screen "${key:0:1} moves ${fwd%%:*} forward" "$fwd" 30
    T send-keys -t lab -l "${key:1:1}"
    check_screen "${key:1:1} moves ${fwd%%:*} back" "$back" 30
done <<'KEYS'
pP|padding: post*|padding: pre*
tT|truncating: post*|truncating: pre*
mM|mask: on*|mask: off*
+-|maxlen: 250*|maxlen: 200*
bB|batching: dynamic*|batching: static*
][|batch: 64*|batch: 32*
aA|model: gru*|model: rnn*
sS|seed: 1*|seed: 0*
xX|seeds: 2*|seeds: 1*
cC|convention: torch|convention: keras
wW|causal: on|causal: off
zZ|pad_embedding: zero|pad_embedding: learned
nN|example: 1|example: 0
KEYS
check_screen "the key bar shows every setting's keys" "zZ pad_embedding"
check_screen "down to the last" "nN example"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null
W=80 H=24 start --corpus builtin:1:400 --seeds 1
check_screen "at 80x24 the key bar takes two rows" "xX seeds cC convention wW causal zZ pad_embedding nN example"
check_screen "and its first row starts with padding" "pP padding tT truncating mM mask"
# The batch view at 80 columns squeezes 200 cells into 63 characters (78 - 13 - 2) and says so;
# f draws one character per cell, and > scrolls sideways to the rest of the row.
check_screen "a squeezed batch row says by how much" "1 char = 3.17 cells (200 in 63)"
check_screen "and what a character holding real and pad means" "$(printf '\u2592') real and pad in one char"
check_screen "a line running past the pane says it scrolls sideways" "< > sideways: 0/"
T send-keys -t lab f
# example 0 keeps 78 tokens of 200, pre padded: its first 122 cells are pads, the first 64 all on screen
check_screen "f draws one character per cell: the example's first 64 mask entries are all 0" \
    "    mask keras $(printf '0%.0s' {1..64})"
for _ in $(seq 16); do T send-keys -t lab '>'; done
# 16 x 8 columns: the view starts at its column 128, the mask at column 14, so at cell 114: 8 pads, then real
if wait_for "sideways: 128/" && screen | grep -qE '^ 0{8}1{20}'; then pass "> scrolls sideways to the cells past the edge: cell 122 is the first real one"
else fail "> scrolls sideways to the cells past the edge: cell 122 is the first real one" "$(screen)"; fi
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null
# At 80x24 a status line that does not fit goes on over a second row: the chance's reading is kept whole.
W=80 H=24 start --corpus builtin:1:400 --seeds 3
check_screen "at 80 columns the status line keeps its last figure (on a second row)" "negative: 0.525)" 600
# The views' sentences wrap at the pane's edge: none of their figures needs a sideways scroll to be read.
# The train view's legend ends "chance 0.525 (always negative)", the rnn view's state line "at the last real
# step N"; each ran past 80 columns and was cut there, "< > sideways" on the view's title row.
for v in 7 4; do
    T send-keys -t lab "$v"
    wait_for "$([[ $v == 7 ]] && echo "| the median" || echo "|h| at the last position")" >/dev/null
    sleep 0.3
    check_absent "sideways:" "at 80 columns view $v's sentences wrap: nothing runs past the pane"
done
T send-keys -t lab '?'
# help_has TEXT: TEXT on one of the help's pages (space turns them)
help_has() {
    for _ in 1 2 3 4 5; do
        wait_for "$1" 5 && return 0
        T send-keys -t lab ' '
    done
    return 1
}
if help_has "scroll the view sideways"; then pass "the help lists < > (scroll sideways)"; else fail "the help lists < > (scroll sideways)" "$(screen)"; fi
if help_has "the batch view at one character per cell"; then pass "and f (one character per cell)"; else fail "and f (one character per cell)" "$(screen)"; fi
T send-keys -t lab q q
wait_for "EXIT=0" >/dev/null
# The example's row brought into view starts the body at a row's own line, never at an orphan mask line.
W=80 H=24 start --corpus builtin:1:400 --seeds 1 --example 300
wait_for "example 300:" >/dev/null
if screen | grep -A1 "real tokens" | tail -1 | grep -q "mask keras"; then fail "the batch view opens at a row's line, not its mask line" "$(screen)"
else pass "the batch view opens at a row's line, not its mask line"; fi
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# maxlen none: + past 2000 keeps every review whole; the strip and the cost view name the
# longest review it stands for, and the headline is padlab buckets' row at --maxlen none.
longest=$($P stats --corpus builtin:1:400 --format json | awk -F': ' '/"max"/ {gsub(",", "", $2); print $2; exit}')
share=$($P buckets --corpus builtin:1:400 --maxlen none --format json | tr -d ' \n' | awk '{
    i = index($0, "\"name\":\"static\""); rest = substr($0, i)
    match(rest, /"padding_share":[0-9.e-]+/); printf "padding share   %5.1f%%", 100 * substr(rest, RSTART + 16, RLENGTH - 16) }')
start --corpus builtin:1:400 --maxlen 2000 --seeds 1 --view cost
check_screen "a lab at maxlen 2000 opens" "maxlen: 2000*"
T send-keys -t lab +
check_screen "+ past 2000 is maxlen none, naming the longest review" "maxlen: none (longest: $longest)*"
check_screen "the cost view says the rows are kept whole" "rows kept whole (maxlen none: longest $longest)"
check_screen "its headline is padlab buckets --maxlen none's static row" "$share"
check_screen "and nothing is cut" "tokens cut      0 of"
T send-keys -t lab -
check_screen "- comes back to 2000" "maxlen: 2000*"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# The crash of maxlen 100 with multiple_of_8 batches: buffers were sized by maxlen, not by the plan.
corpus=builtin:1:400
[[ -f $IMDB ]] && corpus=$IMDB
start --corpus "$corpus"
check_screen "the lab opens on the corpus" "padding: pre*"
T send-keys -t lab - - b b
check_screen "maxlen 100 with multiple_of_8 batches trains without a crash" "trained 3 seeds: median accuracy" 600
check_screen "the batch view shows the width rounded up to a multiple of 8" "multiple_of_8 batch 1/"
T send-keys -t lab q
check_screen "and quits cleanly" "EXIT=0"

# One batch, one truth: the batch view's rows, width and pads are the ones
# `padlab probe batch` reports for the same settings, and the cost view's
# headline is the `padlab buckets` row, over every strategy and five maxlens
# (padding and mask cycling through their four pairs).
i=0
for batching in static dynamic multiple_of_8 length_grouped bucket_longest tf_bucket packed; do
    for maxlen in 7 100 150 200 250; do
        pads=(pre post pre post); masks=(off off on on)
        set_args="--corpus builtin:1:400 --batching $batching --maxlen $maxlen --padding ${pads[i % 4]}"
        i=$((i + 1))
        # shellcheck disable=SC2086
        json=$($P probe batch $set_args --format json)
        read -r B T real packed < <(tr -d ' \n' <<<"$json" | awk '{
            match($0, /"B":[0-9]+/); b = substr($0, RSTART + 4, RLENGTH - 4)
            match($0, /"T":[0-9]+/); t = substr($0, RSTART + 4, RLENGTH - 4)
            match($0, /"real_tokens":[0-9]+/); r = substr($0, RSTART + 14, RLENGTH - 14)
            print b, t, r, index($0, "\"packed\":true") ? 1 : 0 }')
        # shellcheck disable=SC2086
        start $set_args --mask "${masks[(i - 1) % 4]}" --seeds 1 --view batch
        if [[ $packed == 1 ]]; then want="reviews in one row of $T tokens"; else want="$batching batch"; fi
        rows="rows"; [[ $B == 1 ]] && rows="row" # "1 row x 17"
        if wait_for "real tokens $real," 100 && wait_for "$want" 10 && { [[ $packed == 1 ]] || wait_for ": $B $rows x $T" 10; }; then
            pass "$batching at maxlen $maxlen: the batch view shows probe batch's $B x $T batch, $((packed ? 0 : B * T - real)) pads"
        else
            fail "$batching at maxlen $maxlen: the batch view shows probe batch's $B x $T batch" "want $want, $B $rows x $T, real tokens $real" "$(screen)"
        fi
        share=$($P buckets --corpus builtin:1:400 --maxlen "$maxlen" --format json | tr -d ' \n' | awk -v s="$batching" '{
            i = index($0, "\"name\":\"" s "\""); rest = substr($0, i)
            match(rest, /"padding_share":[0-9.e-]+/); printf "padding share   %5.1f%%", 100 * substr(rest, RSTART + 16, RLENGTH - 16) }')
        T send-keys -t lab 2
        check_screen "$batching at maxlen $maxlen: the cost view's headline is the buckets row" "$share" 50
        T send-keys -t lab q
        wait_for "EXIT=0" 50 >/dev/null
    done
done

# The rnn view draws a distance from h* only when the same screen says the
# pads have a fixed point (seed 1's fresh cell has none here), and marks the readout.
start --corpus builtin:1:200 --maxlen 60 --padding post --seed 1 --seeds 1 --view rnn
check_screen "the rnn view marks the readout at the last step" "readout at 59" 300
rnn_screen=$(screen)
if [[ $rnn_screen == *"no fixed point"* && $rnn_screen == *"distance from h*"* ]] ||
    [[ $rnn_screen == *"the pads' fixed point"* && $rnn_screen != *"distance from h*"* ]]; then
    fail "the rnn chart draws h* exactly when the screen says there is one" "$rnn_screen"
else pass "the rnn chart draws h* exactly when the screen says there is one"; fi
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# The ledger: a lesson's open question hides its figure, and the figures
# declared to give it away (pl_quantity_determiners), as ?s of their width;
# every other number stays in sight, the same digits or not.
# check_re NAME REGEX: a line of the screen matches REGEX (extended) within 10 s.
check_re() {
    for _ in $(seq 1 100); do
        screen | grep -qE -- "$2" && { pass "$1"; return; }
        sleep 0.1
    done
    fail "$1" "no line matches: $2" "$(screen)"
}
LESSON_ENVS="TERM=xterm-256color XDG_STATE_HOME=$TMP/ledger-state XDG_DATA_HOME=$TMP/ledger-data"
ENVS=$LESSON_ENVS start lesson 01-rectangle --corpus builtin:1:400
check_screen "the ledger: lesson 1 opens" "step 1 of 7"
T send-keys -t lab Space Space Space Space
check_screen "its step 5 asks for the RNN steps run on pads" "step 5 of 7: What padding costs"
T send-keys -t lab Escape 2
check_re "the cost view hides that count, and the real tokens that give it away" \
    '^ RNN steps +\?+ real of [0-9]+ run \(\?+ on pads\)'
check_re "and the padding share: its figure and its bar" '^ padding share +\?{5} +░{30}$'
# the tokens kept and cut give the real tokens by one subtraction from the total on their line
check_re "and the tokens kept, the real tokens as a share" '^ tokens kept +\?{5} +░{30}$'
check_re "and the tokens cut, whose total is on their line" '^ tokens cut +\?+ of [0-9]+ \([0-9.]+% of the rows'
check_re "nor the attention cells" '^ attention cells [0-9]+ real of [0-9]+; [0-9]+ MB'
check_re "nor the sweep's maxlen" 'static batches at maxlen 25 \.\. 800 \(▲ marks 200\)'
for _ in $(seq 9); do T send-keys -t lab j; done
# (the shapes are another fact and stay: 12 batches of 32 rows and one of 16, all 200 wide, are 2)
check_re "the selected strategy's row is the same padding share: hidden" '^ static +\?{5} +same +same +\?+ +2$'
check_re "so is a row with the same cells (dynamic batches as wide as static ones)" '^ dynamic +\?{5} +same +same +\?+ +2$'
# every strategy keeps the same tokens: any row's cells and padding share give them
check_re "and every other row's padding share, which gives the real tokens from its cells" '^ length_grouped +\?{4,5} +[0-9.]+% fewer'
check_re "while what a strategy saves, a figure of its own, stays" '^ bucket_longest +\?{4,5} +[0-9.]+% fewer +[0-9.]+% fewer'
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

ENVS=$LESSON_ENVS start lesson 06-attention --corpus builtin:1:400
check_screen "the ledger: lesson 3 opens" "step 1 of 9"
# step 1 asks the real queries' share on pads: the map's pad key columns are that share in a picture
T send-keys -t lab Escape 3
check_re "the map leaves the pad key columns blank while the share is hidden" '^ +150 {20,}[^ ]'
check_re "and the largest weight on one pad key, which times the pads gives it, is hidden too" \
    'largest one weight \?{5} *$'
T send-keys -t lab Escape
check_screen "and the lesson takes the keys again" "With no mask, what share of a real query"
# step 2 asks the largest weight on a pad key, a figure step 3's view shows too: answered (0 with the mask
# on), it is in sight there; left open, it would be hidden (example=auto is the row it resolves to)
T send-keys -t lab Space
check_screen "its step 2 asks the largest weight on a pad" "step 2 of 9"
T send-keys -t lab 0 Enter
check_screen "and 0 is its answer" "Right."
T send-keys -t lab Space
check_screen "its step 3 asks what a row sums to after zeroing the pads" "step 3 of 9: The fix that does not work"
T send-keys -t lab Escape 3
check_screen "the attention view hides that sum" "softmax: a row sums ?????"
check_re "and shows its other figures" 'largest one weight [0-9.]+ *$'
check_re "the invariance among them" 'outputs differ [0-9.e+-]+ *$'
check_re "and packed against padded" 'packed vs padded\+mask [0-9.e+-]+ *$'
# a try and the solution close step 3, whose sum the unmasked share on the masks view would give away
T send-keys -t lab Escape 9 Enter
check_screen "a wrong sum is a try" "Try again"
T send-keys -t lab s Space Space Space
check_screen "step 6 asks the share on pads of the inverted mask" "step 6 of 9: Three libraries, two polarities"
T send-keys -t lab Escape 0
for _ in $(seq 8); do T send-keys -t lab j; done
check_re "the masks view hides that share and the sentence that follows from it" \
    'key_padding_mask = the hf mask +\?{5}$'
check_absent "only the pads are seen" "the sentence's words are not on the screen"
check_re "the right mask's share is in sight" 'key_padding_mask = the torch mask +[0-9.]+%$'
check_re "and no mask's" 'no mask at all +[0-9.]+%$'
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# At 80x24 the lesson's pane leaves the batch view a few lines: it opens scrolled to the example's row,
# and no line is drawn twice, at the old scroll and the new (10-generation's first step read
# "mask kerast111000000ne cut": its mask row over the legend's leftover).
W=80 H=24 ENVS=$LESSON_ENVS start lesson 10-generation
check_screen "10-generation opens on its batch of four prompts" "step 1 of 12"
check_re "the example's row and its mask are drawn whole, under the counts" '^    mask keras [01]+$'
check_absent "cut (truncating" "no line of the legend is left under the scrolled rows"
# its corpus is its four prompts written out: the strip names it by them, where the text ran past 80 columns mid-word
check_screen "an inline corpus is named by its reviews on the strip" " corpus: inline: 4 reviews "
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# A question's feedback leaves the view 5 rows at 80x24: its header keeps a row each for the source and the
# look (the rest read sideways) so that two of the view's own rows stay in sight (lesson 06 step 4, a wrong 0.5).
W=80 H=24 ENVS="TERM=xterm-256color XDG_STATE_HOME=$TMP/short-state XDG_DATA_HOME=$TMP/short-data" start lesson 06-attention
wait_for "step 1 of 9" >/dev/null
T send-keys -t lab ' ' ' ' ' '
wait_for "step 4 of 9" >/dev/null
T send-keys -t lab 0.5 Enter
check_screen "a wrong number gets its diagnosis under the question" "0.5 is not it"
check_screen "and the attention view keeps its own first two rows under its header" "query keys ->"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

W=100 H=40 ENVS=$LESSON_ENVS start lesson 04-rnn --corpus builtin:1:400
check_screen "the ledger: lesson 5 opens" "step 1 of 12"
T send-keys -t lab Space Space Space Space
check_screen "its step 5 asks how far the masked readout is from the last real state" "step 5 of 12: The mask carries the state"
T send-keys -t lab Escape
check_re "the rnn view hides that distance, which is 0, and the words that tell it" 'mask on: the [0-9]+ pads \?{5}; it ends \?{5} from the last real state'
check_re "but not the steps of the review" 'real tokens at steps 0\.\.[0-9]+ of [0-9]+, post padding, mask on'
check_re "nor the chart's axis labels" '^ +0\.00 '
check_re "nor the step axis" 'last real [0-9]+ .*readout at [0-9]+'
check_screen "nor the seed" "seed 0)"
check_re "nor the unmasked norm; the carried and last real ones hide (equal, they say the state was carried)" \
    '\|h\| at the last position: no mask [0-9.]+, masked carry \?{5}; at the last real step \?{5}'
check_absent "stays flat" "what to look at, which says the distance stays flat, is hidden too"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# Lesson 7's chat step at 80x24: the view keeps 6 rows under the lesson; its
# page asks about the chat batch, so the chat lines take them, all four, the
# asked share hidden, its loss lines in sight.
W=80 H=24 ENVS=$LESSON_ENVS start lesson 07-loss --corpus builtin:1:400
check_screen "lesson 7 opens" "step 1 of 13"
for _ in $(seq 11); do T send-keys -t lab Space; done
check_screen "its step 12 asks the share a completion-only loss trains on" "step 12 of 13: Only the answer is graded"
check_re "the chat batch's heading under the loss view's title" '^ → as chats, <start> system\([0-9]+\) <start> user <start> answer: [0-9]+ real tokens'
check_re "the example's labels, the prompt's hidden" '^ row 0 labels +\?'
check_re "the answer tokens and their shares, hidden" '^ trained on \?+ answer tokens: \?+ of the real'
check_re "both losses, in sight" '^ loss: answer only [0-9.]+; prompt counted too [0-9.]+ \([-+][0-9.]+\)$'
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# Lesson 9's step 11 asks of the tiles the causal rule skips: at 80x24 the
# masks view keeps two rows under the lesson, and opens at the rules' table.
W=80 H=24 ENVS=$LESSON_ENVS start lesson 09-causal --corpus builtin:1:400
check_screen "lesson 9 opens" "step 1 of 13"
for _ in $(seq 10); do T send-keys -t lab Space; done
check_screen "its step 11 asks of the rules' tiles" "step 11 of 13: A rule, tile by tile"
check_screen "the masks view opens at the rules' table" "masks as rules: 8192 tiles of 128 x 128" 600
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# Lesson 5's step 10 trains on its made-up corpus beside a run on the
# learner's (an imbalanced one, at its own chance 0.70): that run's C is read
# against its own corpus's chance, not the made-up one's 0.500.
W=160 H=48 ENVS=$LESSON_ENVS start lesson 05-pooling --corpus builtin:0:400:70
check_screen "lesson 5 opens" "step 1 of 12"
check_screen "its first run, on the learner's corpus, ends before the lesson moves on" "trained 1 seed" 600
for _ in $(seq 9); do T send-keys -t lab Space; done
check_screen "its step 10 trains with the mask" "step 10 of 12: Trained with the mask"
check_screen "the learner's corpus's run is at its own chance" "C on another corpus: within noise of that corpus's own chance" 600
check_absent "C at chance: the median is within noise (0.168) of 0.500," "the made-up corpus's chance is not said of it"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# Lesson 8's step 1 asks what dynamic padding saves: the cost view's table
# hides dynamic's row, each cell in its own column (a hidden figure's ?s are
# narrower than "22.8% fewer"; they once pulled the row's last cells left).
W=160 H=48 ENVS=$LESSON_ENVS start lesson 08-batching --corpus builtin:1:400
check_screen "lesson 8 opens" "step 1 of 12"
T send-keys -t lab Escape 2
check_re "dynamic's row is hidden in the cost view" '^ dynamic +\?+ +\?+ +\?+ +[0-9]+ +\?+$'
col() { screen | awk -v r="$1" '/^ strategy +padding/ { t = 1 } t && $1 == r { print index($0, $(NF - 1)) + length($(NF - 1)); exit }'; }
if [[ -n $(col static) && $(col dynamic) == "$(col static)" ]]; then pass "its tokens cut end in static's column"
else fail "its tokens cut end in static's column" "dynamic $(col dynamic), static $(col static)" "$(screen)"; fi
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

# Probes never block the screen: at maxlen 2000, with three seeds training,
# keys are answered at once and the views follow.
start --corpus builtin:1:400 --maxlen 2000 --view attention --example 0
check_screen "the attention view opens at maxlen 2000" "real queries put" 600
T send-keys -t lab n c
check_screen "keys are answered while the probes recompute and the seeds train" "convention: torch" 10
check_screen "the heatmap follows the example" "ex 1 + 3 mates, width 2000" 600
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

ENVS="TERM=xterm LC_ALL=C" start --corpus builtin:1:400
check_screen "without a UTF-8 locale the lab still opens" "padding: pre*"
if screen | grep -q $'\xe2'; then fail "without a UTF-8 locale it draws ASCII" "$(screen)"; else pass "without a UTF-8 locale it draws ASCII"; fi
check_screen "the batch legend uses the ASCII glyphs" ". pad (pre)"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null

ENVS="TERM=xterm" start --corpus builtin:1:400 --ascii --mono
check_screen "--ascii --mono draws with ASCII glyphs" ". pad"
pid=$(pgrep -f -n "$P --corpus builtin:1:400 --ascii")
[[ -n $pid ]] && kill -TERM "$pid"
check_screen "SIGTERM ends the lab with status 128 + 15" "EXIT=143"
check_absent "padding:" "SIGTERM restores the terminal"

# Ctrl-\ (SIGQUIT) and a crash (SIGABRT) restore the terminal too; the shell
# after the lab then shows the terminal's modes.
start_modes() {
    T kill-session -t lab 2>/dev/null
    T new-session -d -s lab -x 100 -y 30 "cd $TMP && TERM=xterm $P $* 2>$TMP/err.txt; echo EXIT=\$?; stty -a | tr ' ;' '\n\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\n' ' '; echo MODES; sleep 60"
}
rm -f "$TMP/quit.session"
start_modes --corpus builtin:1:400 --session "$TMP/quit.session"
check_screen "a lab for SIGQUIT opens and trains" "trained 3 seeds" 300
T send-keys -t lab m
check_screen "mask goes on before the quit" "mask: on*"
T send-keys -t lab 'C-\'
check_screen "Ctrl-\\ ends the lab with status 128 + 3" "EXIT=131"
check_screen "and leaves the terminal cooked (icanon, echo)" "icanon echo MODES"
check_absent "padding:" "and leaves the alternate screen"
run grep -c "^mask = on$" "$TMP/quit.session"
expect "SIGQUIT saves the session" 0 "1"
start_modes --corpus builtin:1:400 --ascii --mono
check_screen "a lab for SIGABRT opens" "padding: pre*"
pid=$(pgrep -f -n "$P --corpus builtin:1:400 --ascii --mono")
[[ -n $pid ]] && kill -ABRT "$pid"
check_screen "SIGABRT ends the lab with status 128 + 6" "EXIT=134"
check_screen "and leaves the terminal cooked" "icanon echo MODES"
run grep -c "padlab: crashed (signal 6); the terminal was restored" "$TMP/err.txt"
expect "a crash is named in one line after the screen closes" 0 "1"
# A session that cannot be written is named in the status line when the run ends, not only at quit.
start --corpus builtin:1:400 --session "$TMP/no-such-folder/s.session"
check_screen "a failed autosave shows at once in the status line" "the session was not saved" 300
T send-keys -t lab q
wait_for "EXIT=" >/dev/null
# A power cut (SIGKILL) loses at most the run in progress: each finished run is saved.
rm -f "$TMP/cut.session"
start --corpus builtin:1:400 --session "$TMP/cut.session"
check_screen "a lab for SIGKILL trains" "trained 3 seeds" 300
pid=$(pgrep -f -n "$P --corpus builtin:1:400 --session $TMP/cut.session")
[[ -n $pid ]] && kill -KILL "$pid"
sleep 0.5
run grep -c "^run = " "$TMP/cut.session"
if [[ ${out:-0} -ge 3 ]]; then pass "the finished runs were saved before the kill"; else fail "the finished runs were saved before the kill" "$out" "$err"; fi

printf 'corpus = builtin:1:400\npadding = sideways\n' >"$TMP/bad.session"
W=160 ENVS="TERM=xterm" start --session "$TMP/bad.session"
check_screen "a damaged session still opens the lab with defaults" "padding: pre*"
check_screen "the damage is named on the screen" "bad.session:2: padding must be one of pre,post, got 'sideways'"
check_screen "with where the session is saved instead" "saving to bad.session.1 beside it"
T send-keys -t lab p
check_screen "the lab works after a damaged session" "padding: post*"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null
run grep -c "bad.session:2: padding must be one of pre,post, got 'sideways'" "$TMP/err.txt"
expect "the damaged session is named with its line" 0 "1"
run cat "$TMP/bad.session"
expect "a session the lab could not read is never written over" 0 "$(printf 'corpus = builtin:1:400\npadding = sideways')"
run grep -c "^padding = post$" "$TMP/bad.session.1"
expect "and the session goes to bad.session.1 beside it instead" 0 "1"
printf 'corpus = builtin:1:400\npadding = post\n' >"$TMP/good.session"
ENVS="TERM=xterm" start --session "$TMP/good.session"
check_screen "a session reopens with its settings" "padding: post*"
T send-keys -t lab m
check_screen "and retrains once" "trained 3 seeds" 300
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null
run grep -c "^mask = on$" "$TMP/good.session"
expect "quitting saves the session" 0 "1"
run grep -c "^run = " "$TMP/good.session"
if [[ $out -ge 3 ]]; then pass "the session keeps the runs"; else fail "the session keeps the runs" "$out"; fi
ENVS="TERM=xterm" start --session "$TMP/good.session" --maxlen 300
check_screen "a session reopens with its runs, not retraining" "runs from the session, as they were"
check_screen "and a flag given wins over the session's" "maxlen: 300*"
T send-keys -t lab q
wait_for "EXIT=0" >/dev/null
# The grid in the lab, trained twice while views are switched and the example
# moves, gives the numbers of `padlab experiment --threads 1`, run by run.
ENVS="TERM=xterm" start --corpus builtin:1:600 --maxlen 60 --seeds 2 --session "$TMP/grid.session"
check_screen "a lab for the grid opens" "maxlen: 60*"
for round in 1 2; do
    T send-keys -t lab g
    for k in 1 2 3 4 5 6 8 9 0 n 3 4 n 7; do T send-keys -t lab "$k"; sleep 0.2; done
    check_screen "the grid is done (round $round)" "the grid is done" 600
    T send-keys -t lab q
    wait_for "EXIT=0" >/dev/null
    if [[ $round == 1 ]]; then ENVS="TERM=xterm" start --session "$TMP/grid.session"; check_screen "the lab reopens" "maxlen: 60*"; fi
done
if command -v python3 >/dev/null; then
    "$P" experiment padding --corpus builtin:1:600 --maxlen 60 --seeds 2 --threads 1 --format json >"$TMP/exp.json"
    run python3 - "$TMP/exp.json" "$TMP/grid.session" <<'PY'
import json, sys
exp = json.load(open(sys.argv[1]))
want = {(r["setup"]["padding"], "on" if r["setup"]["mask"] else "off", r["seed"]):
        ",".join("%.4f" % a for a in r["val_acc"]) for r in exp["runs"]}
got = {}
for line in open(sys.argv[2]):
    if not line.startswith("run = "):
        continue
    f = dict(kv.split("=", 1) for kv in line[6:].split())
    if f["grid"] == "1" and f["model"] == "rnn":
        got[(f["padding"], f["mask"], int(f["seed"]))] = f["acc"]
print(len(want), len(got), sum(want[k] == got.get(k) for k in want))
PY
    expect "the lab's grid, trained twice beside its views, equals experiment --threads 1 run by run" 0 "8 8 8"
else
    skip "the lab's grid equals experiment --threads 1 (no python3)"
fi

# A lab whose terminal is gone ends, even when no SIGHUP comes (here the pty is
# not its controlling terminal): it used to spin on end of input for ever.
if command -v python3 >/dev/null; then
    run python3 - "$P" "$TMP" <<'PY'
import os, select, subprocess, sys, time
master, slave = os.openpty()
env = dict(os.environ, TERM="xterm")
p = subprocess.Popen([sys.argv[1], "--corpus", "builtin:1:400"], stdin=slave, stdout=slave,
                     stderr=open(sys.argv[2] + "/gone.err", "w"), env=env, start_new_session=True)
os.close(slave)
seen, until = b"", time.monotonic() + 600
while b"padding:" not in seen and time.monotonic() < until:
    if select.select([master], [], [], 1.0)[0]:
        try:
            seen += os.read(master, 65536)
        except OSError:
            break
os.close(master)
try:
    print("drawn" if b"padding:" in seen else "not drawn", p.wait(timeout=600))
except subprocess.TimeoutExpired:
    p.kill()
    print("still running")
PY
    expect "a lab whose terminal is closed without SIGHUP ends as on SIGHUP (129)" 0 "drawn 129"
else
    skip "a lab whose terminal is gone ends (no python3)"
fi
finish
