#!/usr/bin/env bash
# padlab gui and padlab export from the command line: a screenshot with no
# display, the one-line refusal without one, the figure exports, a lesson's
# step as a picture, and the window itself under Xvfb with keys sent through
# SDL's event queue, to the lab and to a lesson.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
C=(--corpus builtin:1:200 --maxlen 60 --seeds 1)
# How many checks this script and tests/check_gui make with the window built (to count them skipped without it).
GUI_CHECKS=35 CHECK_GUI_CASES=33

# Without the window (configure --disable-gui): its two commands refuse in one
# line; the rest of this script and the window's Check suite are skipped.
if without gui "the window's tests, and tests/check_gui's" "$((GUI_CHECKS + CHECK_GUI_CASES))"; then
    run "$P" gui "${C[@]}"
    expect_error "padlab gui says in one line it was built without the window" "padlab gui: this padlab was built without the window (configure --disable-gui)"
    run "$P" export "${C[@]}" --view cost --csv "$TMP/cost.csv"
    expect_error "and so does padlab export" "padlab export: this padlab was built without the window (configure --disable-gui)"
    finish
    exit $?
fi

# png_size FILE: "W H" from the PNG's header.
png_size() { od -An -tu1 -j16 -N8 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }'; }

run env -u DISPLAY -u WAYLAND_DISPLAY "$P" gui "${C[@]}" --view cost --screenshot "$TMP/cost.png" --size 800x500
if [[ $rc -eq 0 && $(png_size "$TMP/cost.png") == "800 500" ]]; then pass "--screenshot needs no display and writes a PNG of --size"
else fail "--screenshot needs no display and writes a PNG of --size" "status $rc" "$err" "$(png_size "$TMP/cost.png" 2>&1)"; fi

# SDL is left to pick its driver as a user's shell would: without a display it
# falls back to one that draws nowhere (offscreen, dummy), which is no window.
# (timeout only ends a hang: 124 is a failure, not a measured time.)
run timeout 20 env -u DISPLAY -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER "$P" gui "${C[@]}"
expect_error "without a display padlab gui says so in one line and exits 2" "no display to open a window on"
if [[ $err == *"padlab opens the lab in the terminal"* ]]; then pass "and it points at the terminal lab"
else fail "and it points at the terminal lab" "$err"; fi
# (SDL's X11 probe loads the X and D-Bus client libraries: the sanitized run's leak check is off
# for it, as for the runs under Xvfb below.)
run timeout 20 env -u WAYLAND_DISPLAY -u SDL_VIDEODRIVER ${PADLAB_XVFB_ASAN_OPTIONS:+"ASAN_OPTIONS=$PADLAB_XVFB_ASAN_OPTIONS"} \
    DISPLAY=:97 "$P" gui "${C[@]}"
expect_error "with a DISPLAY no X server answers padlab gui says so in one line and exits 2" "no display to open a window on"
for drv in dummy offscreen; do
    run timeout 20 env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=$drv "$P" gui "${C[@]}"
    expect_error "with SDL_VIDEODRIVER=$drv padlab gui says there is no display and exits 2" "no display to open a window on"
done

run "$P" gui --size 10x10 --screenshot "$TMP/x.png"
expect_error "a size too small is refused" "--size must be WxH"
run "$P" gui "${C[@]}" --view cost --size 799x600 --screenshot "$TMP/x.png"
expect_error "below 800x480 the small type would be under 9 pixels: refused" "--size must be WxH from 800x480 to 8192x8192, got '799x600'"
run "$P" gui --padding sideways --screenshot "$TMP/x.png"
expect_error "gui takes the registry's settings flags" "padding"
run "$P" export --view cost
expect_error "export with nothing to write says what to give" "--svg FILE"

run "$P" export "${C[@]}" --view cost --svg "$TMP/cost.svg" --csv "$TMP/cost.csv" --json "$TMP/cost.json"
if [[ $rc -eq 0 && -s $TMP/cost.svg && -s $TMP/cost.csv && -s $TMP/cost.json ]]; then pass "export writes the SVG, the CSV and the JSON"
else fail "export writes the SVG, the CSV and the JSON" "status $rc" "$err"; fi
if grep -q 'data-series="padding share"' "$TMP/cost.svg" && grep -q '^cost,kept share,' "$TMP/cost.csv"; then pass "the SVG and the CSV name the sweep's series"
else fail "the SVG and the CSV name the sweep's series" "$(head -c 300 "$TMP/cost.svg")"; fi
want=$("$P" stats --corpus builtin:1:200 --maxlen 60 --format json | awk -F": " '/"padding_share"/ {gsub(",", "", $2); print $2; exit}')
if grep -q "\"padding_share\": $want" "$TMP/cost.json"; then pass "the JSON's padding share is padlab stats' number"
else fail "the JSON's padding share is padlab stats' number" "want $want" "$(grep padding_share "$TMP/cost.json" | head -3)"; fi

# A train view whose training is refused (attention 2000 wide holds 1.1 GB a seed) is no export: one line, status 1, no file.
if [[ -n ${PADLAB_XVFB_ASAN_OPTIONS+x} ]]; then
    skip "a refused training exports nothing: AddressSanitizer cannot map its shadow memory under an address-space limit"
else
    run bash -c "ulimit -v 900000; exec timeout 60 '$P' export --corpus builtin:1:100 --view train --model attention --maxlen 2000 --seeds 1 --json '$TMP/refused.json'"
    if [[ $rc -eq 1 && ! -e $TMP/refused.json && $err == "padlab export: not trained: attention at maxlen 2000, batch 32 needs about 1.1 GB to train (1 at once); 0.9 GB are available" ]]
    then pass "a refused training exports nothing and says why in one line"
    else fail "a refused training exports nothing and says why in one line" "status $rc" "$err"; fi
fi

run "$P" export "${C[@]}" --view rnn --present --theme dark --svg "$TMP/rnn.svg"
if [[ $rc -eq 0 ]] && grep -q 'data-series="distance to h\*"' "$TMP/rnn.svg" && grep -q 'fill="#000000"' "$TMP/rnn.svg"; then pass "a projector-mode dark SVG of the rnn view"
else fail "a projector-mode dark SVG of the rnn view" "status $rc" "$err"; fi

# A lesson's step as a picture; a step the lesson lacks, or --step alone, is one line and status 2.
run env -u DISPLAY -u WAYLAND_DISPLAY "$P" gui "${C[@]}" --lesson rectangle --step 3 --screenshot "$TMP/lesson.png" --size 1280x800
if [[ $rc -eq 0 && $(png_size "$TMP/lesson.png") == "1280 800" ]]; then pass "--lesson NAME --step N --screenshot draws that step"
else fail "--lesson NAME --step N --screenshot draws that step" "status $rc" "$err"; fi
# --view opens another view at the step, as its number key would: lesson 08's step 8 draws the batch view.
for v in "" batch rnn; do
    run env -u DISPLAY -u WAYLAND_DISPLAY "$P" gui "${C[@]}" --lesson 08-batching --step 8 ${v:+--view $v} --screenshot "$TMP/step8$v.png" --size 1024x768
    [[ $rc -eq 0 ]] || break
done
if [[ $rc -eq 0 ]] && cmp -s "$TMP/step8.png" "$TMP/step8batch.png" && ! cmp -s "$TMP/step8.png" "$TMP/step8rnn.png"; then pass "--lesson NAME --step N --view V draws view V at that step"
else fail "--lesson NAME --step N --view V draws view V at that step" "status $rc" "$err"; fi
# FILE.svg: the same frame as SVG, every text the window draws (the step's title, the view's header).
run env -u DISPLAY -u WAYLAND_DISPLAY "$P" gui "${C[@]}" --lesson 08-batching --step 8 --view rnn --screenshot "$TMP/step8rnn.svg" --size 1024x768
if [[ $rc -eq 0 ]] && grep -q '^<svg' "$TMP/step8rnn.svg" && grep -q 'step 8 of 12: Packing with cu_seqlens' "$TMP/step8rnn.svg" && grep -q 'rnn: the hidden state of one review' "$TMP/step8rnn.svg"; then pass "--screenshot FILE.svg writes the frame as SVG"
else fail "--screenshot FILE.svg writes the frame as SVG" "status $rc" "$err $(head -c 200 "$TMP/step8rnn.svg")"; fi
run "$P" gui "${C[@]}" --lesson rectangle --step 9 --screenshot "$TMP/x.png"
expect_error "a step past the lesson's end is refused" "steps 1 to 7"
run "$P" gui --step 2 --screenshot "$TMP/x.png"
expect_error "--step without a lesson is refused" "--step needs --lesson"

# A drill's item as a picture (a bug case with its lab view, in classroom mode too); a deck or an item that is not there is one line and status 2.
run env -u DISPLAY -u WAYLAND_DISPLAY "$P" gui "${C[@]}" --drill bugs --item 2 --screenshot "$TMP/drill.png" --size 1280x800
if [[ $rc -eq 0 && $(png_size "$TMP/drill.png") == "1280 800" ]]; then pass "--screenshot --drill DECK --item N draws that item"
else fail "--screenshot --drill DECK --item N draws that item" "status $rc" "$err"; fi
run env -u DISPLAY -u WAYLAND_DISPLAY "$P" gui "${C[@]}" --drill quickfire --present --screenshot "$TMP/drill-present.png" --size 1920x1080
if [[ $rc -eq 0 && $(png_size "$TMP/drill-present.png") == "1920 1080" ]]; then pass "--screenshot --drill --present draws the first item in classroom mode"
else fail "--screenshot --drill --present draws the first item in classroom mode" "status $rc" "$err"; fi
run "$P" gui "${C[@]}" --drill bugs --item 11 --screenshot "$TMP/x.png"
expect_error "an item past the deck's end is refused" "cases 1 to 10, not 11"
run "$P" gui "${C[@]}" --drill no-such-deck --screenshot "$TMP/x.png"
expect_error "a deck that is not there is refused" "no deck 'no-such-deck'"
run "$P" gui --item 2 --screenshot "$TMP/x.png"
expect_error "--item without a drill is refused" "--item needs --drill"

# A class voting in the window's lesson (--class): a picture of step 2 with the class's box.
run "$P" gui "${C[@]}" --lesson rectangle --step 2 --class --port 0 --screenshot "$TMP/class.png"
if [[ ${PADLAB_CLASS:-yes} != yes ]]; then
    expect_error "--class in the window says padlab was built without libmicrohttpd" "built without libmicrohttpd"
elif [[ $rc -eq 0 && $out == "class: serving http://127.0.0.1:"*" code "* && -s $TMP/class.png ]]; then
    pass "--class in the window serves the class and draws its box"
else fail "--class in the window serves the class and draws its box" "status $rc" "$out" "$err"; fi
run "$P" gui "${C[@]}" --class --screenshot "$TMP/x.png"
expect_error "--class without a lesson is refused" "--class votes on a lesson's questions: give --lesson NAME"
run "$P" gui "${C[@]}" --lesson rectangle --exam --screenshot "$TMP/x.png"
expect_error "--exam without --class is refused" "--exam is a class session's: give --class too"

# The window itself, under a private X server: p through SDL's event queue, then q; the session saved on quit has it.
if ! command -v xvfb-run >/dev/null; then
    skip "the window under Xvfb: xvfb-run is not installed (quickstart installs xvfb)" 10
else
    rm -f "$TMP/s.session"
    xenv=()
    [[ -n ${PADLAB_XVFB_ASAN_OPTIONS:-} ]] && xenv=("ASAN_OPTIONS=$PADLAB_XVFB_ASAN_OPTIONS")
    run timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" env "${xenv[@]}" PADLAB_GUI_KEYS=pq PADLAB_GUI_STATS=1 "$P" gui "${C[@]}" --session "$TMP/s.session"
    if [[ $rc -eq 0 ]]; then pass "the window opens under Xvfb and q quits it"
    else fail "the window opens under Xvfb and q quits it" "status $rc" "$err"; fi
    if grep -q '^padding = post$' "$TMP/s.session" 2>/dev/null; then pass "a key sent through the event queue changed the setting"
    else fail "a key sent through the event queue changed the setting" "$(cat "$TMP/s.session" 2>&1 | head -5)"; fi
    if [[ $err == *"frames at 1280x800"* ]]; then pass "the window drew frames (${err##*padlab gui: })"
    else fail "the window drew frames" "$err"; fi
    # Every setting's keys in the window: s forward (twice), S back, w causal on, z the zero pad row, A the model back around.
    rm -f "$TMP/k.session"
    run timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" env "${xenv[@]}" PADLAB_GUI_KEYS=ssSwzAq "$P" gui "${C[@]}" --session "$TMP/k.session"
    want=$'seed = 1\ncausal = on\npad_embedding = zero\nmodel = attention'
    got=$(grep -E '^(seed|causal|pad_embedding|model) = ' "$TMP/k.session" 2>/dev/null | sort)
    if [[ $rc -eq 0 && $got == "$(sort <<<"$want")" ]]; then pass "the window's keys: s forward, S back, w causal, z the pad row, A back"
    else fail "the window's keys: s forward, S back, w causal, z the pad row, A back" "status $rc" "$got" "$err"; fi
    # Projector mode has no controls to click: its keys alone toggle causal and the pad row.
    rm -f "$TMP/p.session"
    run timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" env "${xenv[@]}" PADLAB_GUI_KEYS=wzq "$P" gui "${C[@]}" --present --session "$TMP/p.session"
    got=$(grep -E '^(causal|pad_embedding) = ' "$TMP/p.session" 2>/dev/null | tr '\n' ' ')
    if [[ $rc -eq 0 && $got == "causal = on pad_embedding = zero " ]]; then pass "in projector mode w turns causal on and z zeroes the pad row"
    else fail "in projector mode w turns causal on and z zeroes the pad row" "status $rc" "$got" "$err"; fi
    # A lesson in the window: two spaces go on two steps, q quits; the progress kept says step 3 (from 0: 2).
    rm -rf "$TMP/state"
    run timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" env "${xenv[@]}" XDG_STATE_HOME="$TMP/state" PADLAB_GUI_KEYS="  q" "$P" gui "${C[@]}" --lesson rectangle
    if [[ $rc -eq 0 ]] && grep -q '^lesson = 01-rectangle step=2 ' "$TMP/state/padlab/progress" 2>/dev/null; then pass "keys through the event queue move the window's lesson on, and its progress is kept"
    else fail "keys through the event queue move the window's lesson on, and its progress is kept" "status $rc" "$err" "$(cat "$TMP/state/padlab/progress" 2>&1)"; fi
    # A drill in the window: space shows the first card's back, 3 grades it good, q quits; the progress kept has it
    # in FSRS's learning state, at its second step (a new card graded good), with one review.
    rm -rf "$TMP/state"
    run timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" env "${xenv[@]}" XDG_STATE_HOME="$TMP/state" PADLAB_GUI_KEYS=" 3q" "$P" gui "${C[@]}" --drill cards-attention
    if [[ $rc -eq 0 ]] && grep -q '^item = cards-attention/[a-z0-9-]* state=learning step=1 .*reviews=1 ' "$TMP/state/padlab/drill" 2>/dev/null; then pass "keys through the event queue grade the window's card, and its progress is kept"
    else fail "keys through the event queue grade the window's card, and its progress is kept" "status $rc" "$err" "$(cat "$TMP/state/padlab/drill" 2>&1)"; fi
    # A class in the window: two steps on, q ends it; the class report is written with the lesson's questions.
    if [[ ${PADLAB_CLASS:-yes} == yes ]]; then
        run timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" env "${xenv[@]}" XDG_STATE_HOME="$TMP/state" PADLAB_GUI_KEYS="  qq" \
            "$P" gui "${C[@]}" --lesson rectangle --class --port 0 --report "$TMP/wclass.md"
        if [[ $rc -eq 0 && $out == *"class report: $TMP/wclass.md"* ]] && grep -q '^## Question 1 (step 2, ask)$' "$TMP/wclass.md" &&
            grep -q "Of this batch's 6400 cells" "$TMP/wclass.md"; then
            pass "a class in the window ends with its report"
        else fail "a class in the window ends with its report" "status $rc" "$out" "$err" "$(cat "$TMP/wclass.md" 2>&1)"; fi
        # TERM ends the window's class as qq does, its report written, status 143; the same command resumes it.
        rm -rf "$TMP/state"
        # padlab's own status, kept by a shell between: xvfb-run's is its cleanup's too, and under load
        # it has said 5 ("problem while cleaning up temporary directory") for a window that ended right
        rm -f "$TMP/sig.status"
        xvfb-run -a -s "-screen 0 1280x800x24" sh -c '"$@"; echo $? >"$0"' "$TMP/sig.status" \
            env "${xenv[@]}" XDG_STATE_HOME="$TMP/state" "$P" gui "${C[@]}" \
            --lesson rectangle --class --port 0 --report "$TMP/sig.md" >"$TMP/sig.out" 2>"$TMP/sig.err" &
        xpid=$!
        for _ in $(seq 1 300); do grep -q '^class: serving' "$TMP/sig.out" 2>/dev/null && break; sleep 0.1; done
        code=$(sed -n 's/^class: serving .* code \([A-Z0-9]*\)$/\1/p' "$TMP/sig.out")
        gpid=$(pgrep -f "^$P gui .*$TMP/sig.md" | head -n 1)
        [[ -n $gpid ]] && kill -TERM "$gpid"
        wait "$xpid"
        st=$(cat "$TMP/sig.status" 2>/dev/null)
        if [[ $st == 143 && -f $TMP/sig.md ]] && grep -q 'the class ended on signal 15, its report written' "$TMP/sig.err"; then
            pass "TERM ends the window's class with status 143, its report written"
        else fail "TERM ends the window's class with status 143, its report written" "status $st" "$(cat "$TMP/sig.out" "$TMP/sig.err")"; fi
        run timeout 60 xvfb-run -a -s "-screen 0 1280x800x24" env "${xenv[@]}" XDG_STATE_HOME="$TMP/state" PADLAB_GUI_KEYS="qq" \
            "$P" gui "${C[@]}" --lesson rectangle --class --port 0 --report "$TMP/sig.md"
        if [[ $rc -eq 0 && -n $code && $out == *"class: resumed, 0 students, at step 1"* && $out == *" code $code"* ]]; then
            pass "the same command resumes the window's class with its code ($code)"
        else fail "the same command resumes the window's class with its code" "status $rc" "code $code" "$out" "$err"; fi
    else skip "a class in the window: padlab was built without libmicrohttpd" 3; fi
fi
finish
