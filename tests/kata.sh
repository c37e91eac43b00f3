#!/usr/bin/env bash
# padlab kata as a candidate uses it: the list, a statement, the cases
# emitted as JSON and .npy, every shipped kata's reference solution (Python
# with NumPy, tests/katas/NAME.py) passing through check --run, and a broken
# solution per classic bug rejected with a message naming the cell. Bad
# input (a kata file, answers that are not JSON) is one line and status 2.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
KATAS="$here/../katas" SOL="$here/katas"
export XDG_DATA_HOME="$TMP/data"
unset PADLAB_KATAS

# ---- the list, a statement, kata files ----
run "$P" kata --list
n=$(ls "$KATAS"/*.kata | wc -l)
if [[ $rc -eq 0 && $(grep -c . <<<"$out") -eq $n ]]; then pass "--list gives every shipped kata ($n)"
else fail "--list gives every shipped kata" "status $rc" "$out" "$err"; fi
run "$P" kata show masked_softmax
expect_has "show gives the statement" "Its expected weights are all"
expect_has "show gives the inputs with their shapes" "key_padding_mask   bool     B,T"
run "$P" kata --check "$KATAS"/*.kata
if [[ $rc -eq 0 && $(grep -c ': ok,' <<<"$out") -eq $n ]]; then pass "every shipped kata passes --check"
else fail "every shipped kata passes --check" "$out" "$err"; fi
printf '# A kata\ncompute: masked_softmax\ninputs: scores attention_mask\noutputs: weights\n\n## Task\nText.\n' >"$TMP/bad.kata"
run "$P" kata --check "$TMP/bad.kata"
expect_error "--check names the file, the line and what is wrong" \
    "bad.kata:3: inputs: masked_softmax takes scores key_padding_mask, in that order, got 'scores attention_mask'"
printf '# A kata\ncompute: softmax\n' >"$TMP/bad2.kata"
run "$P" kata --check "$TMP/bad2.kata"
expect_error "--check names an unknown computation" "bad2.kata:2: compute: is one of pad_sequences"

# ---- emit ----
run "$P" kata emit masked_softmax
expect_has "emit writes the cases as JSON" '"what": "left padding"'
if [[ $out == *'"what": "pad id '*', not 0"'* && $out == *'"what": "an empty row"'* && $out == *'"what": "a batch of one, left padded"'* ]]; then
    pass "emit has the edge cases (pad id not 0, an empty row, a batch of one)"
else fail "emit has the edge cases" "$out"; fi
run "$P" kata emit masked_softmax --format npy --out "$TMP/npy"
expect_has "emit --format npy writes a folder per case" "masked_softmax: 7 cases in $TMP/npy"
head -c 6 "$TMP/npy/case1/scores.npy" | od -c | head -1 >"$TMP/magic"
if grep -q 'N   U   M   P   Y' "$TMP/magic"; then pass "an .npy file starts with NumPy's magic"
else fail "an .npy file starts with NumPy's magic" "$(cat "$TMP/magic")"; fi
run "$P" kata emit masked_softmax --format npy
expect_error "--format npy without --out is refused" "give the folder with --out DIR"

# ---- answers that are no attempt ----
printf 'not json' >"$TMP/answers.json"
run "$P" kata check masked_softmax "$TMP/answers.json"
expect_error "answers that are not JSON: one line, status 2" "answers.json: line 1, column 1: expected a value"
printf '[{}]' >"$TMP/answers.json"
run "$P" kata check masked_softmax "$TMP/answers.json"
expect_error "answers for too few cases: one line, status 2" "a list of 7 objects, one per case"
run "$P" kata check masked_softmax --run 'exit 3'
if [[ $rc -eq 1 && $out == *"case 1 (corpus rows, right padding): the program exited with status 3"* ]]; then
    pass "a program that fails is a wrong attempt at its case"
else fail "a program that fails is a wrong attempt at its case" "status $rc" "$out" "$err"; fi

# A teacher's kata whose file name holds a quote: its name is a JSON string, escaped.
mkdir -p "$XDG_DATA_HOME/padlab/katas" && cp "$here/../katas/masked_mean.kata" "$XDG_DATA_HOME/padlab/katas/my\"mean.kata"
run "$P" kata emit 'my"mean'
if [[ $rc -eq 0 && $out == '{"kata": "my\"mean", "cases": ['* ]]; then pass "a kata's name is escaped in its JSON"
else fail "a kata's name is escaped in its JSON" "status $rc" "${out:0:80}" "$err"; fi
rm -f "$XDG_DATA_HOME/padlab/katas/my\"mean.kata"

# ---- a program's whole tree goes: at the time limit, when padlab is signalled, and when it leaves children ----
# sleepers SECONDS: a program that starts a child in its own session (setsid) that outlives it, and one in
# its group, each writing its pid into $TMP/pids, then prints nothing and sleeps.
rm -f "$TMP/pids"
cat >"$TMP/tree.sh" <<EOT
setsid sh -c 'echo \$\$ >>"$TMP/pids"; exec sleep 300' </dev/null >/dev/null 2>&1 &
sh -c 'echo \$\$ >>"$TMP/pids"; exec sleep 300' </dev/null >/dev/null 2>&1 &
sleep 300
EOT
alive() { local n=0; while read -r p; do kill -0 "$p" 2>/dev/null && n=$((n + 1)); done <"$TMP/pids"; echo $n; }
run "$P" kata check masked_mean --run "sh '$TMP/tree.sh'" --timeout 1
if [[ $rc -eq 1 && $out == *"case 1 (corpus rows, right padding): the program was still running after 1 s"* && $(alive) -eq 0 ]]; then
    pass "at the time limit the program's whole tree is killed, its setsid child too"
else fail "at the time limit the program's whole tree is killed, its setsid child too" "status $rc" "$out" "alive: $(alive) of $(wc -l <"$TMP/pids")"; fi
rm -f "$TMP/pids"
TMPDIR="$TMP/kt" && mkdir -p "$TMPDIR"
TMPDIR="$TMPDIR" "$P" kata check masked_mean --run "sh '$TMP/tree.sh'" --timeout 60 >"$TMP/sig.out" 2>"$TMP/sig.err" &
kpid=$!
for _ in $(seq 1 100); do [[ $(wc -l <"$TMP/pids" 2>/dev/null) -ge 2 ]] && break; sleep 0.1; done
kill -TERM "$kpid"
wait "$kpid" && krc=0 || krc=$?
if [[ $krc -eq 143 && $(alive) -eq 0 && -z $(ls -A "$TMPDIR") && $(cat "$TMP/sig.err") == *"stopped by signal 15"* ]]; then
    pass "TERM to padlab kills the program's tree, removes its folder and ends with status 143"
else fail "TERM to padlab kills the program's tree, removes its folder and ends with status 143" "status $krc" "alive: $(alive)" "left: $(ls -A "$TMPDIR")" "$(cat "$TMP/sig.err")"; fi
# ---- the reference solutions, and the classic bugs ----
# A python3 with NumPy: the one on PATH, or Debian's (python3-numpy is for it).
PY=
for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null && "$py" -c 'import numpy' 2>/dev/null; then PY=$(command -v "$py"); break; fi
done
if [[ -z $PY ]]; then
    why="python3 with numpy is missing: apt-get install python3-numpy"
    command -v python3 >/dev/null || why="python3 is missing"
    skip "the reference solutions and the classic bugs ($why)" $((n + 11))
    finish
    exit
fi
for k in "$KATAS"/*.kata; do
    name=$(basename "$k" .kata)
    run "$P" kata check "$name" --run "$PY '$SOL/$name.py'"
    if [[ $rc -eq 0 && $out == "$name: all "*" cases pass"$'\n'"kept in your drill book: $name due "* ]]; then pass "the reference solution of $name passes"
    else fail "the reference solution of $name passes" "status $rc" "$out" "$err"; fi
done
# NumPy reads what emit wrote: the cases' arrays, their shapes and types.
run "$P" kata emit pad_sequences --format npy --out "$TMP/pad"
run "$PY" -c "import numpy as np, sys; d = sys.argv[1]
v = np.load(d + '/case4/sequences_values.npy'); n = np.load(d + '/case4/sequences_lengths.npy')
f = np.load('$TMP/npy/case2/scores.npy'); m = np.load('$TMP/npy/case2/key_padding_mask.npy')
print(v.dtype, n.tolist(), str(np.load(d + '/case4/padding.npy')), f.dtype, f.shape, m.dtype, m.shape)" "$TMP/pad"
expect "numpy.load reads the .npy files emit wrote" 0 "int32 [9, 0, 6, 2] post float32 (4, 10, 10) bool (4, 10)"
# Answers from a file: the reference's outputs for every case, as one list.
run "$P" kata emit masked_mean --out "$TMP/mean"
{ echo '['; for i in 1 2 3 4 5 6 7; do
    ((i > 1)) && echo ','
    "$PY" "$SOL/masked_mean.py" <"$TMP/mean/case$i.json"
done; echo ']'; } >"$TMP/mean.json"
# A pass is graded easy in the drill book (S 8.2956, 9 days with the card's fuzz), a wrong attempt again.
run env XDG_STATE_HOME="$TMP/kb" PADLAB_NOW=2026-04-01T09:00 "$P" kata check masked_mean "$TMP/mean.json"
expect "a file of right answers passes, kept in the drill book and due again days later" 0 \
    $'masked_mean: all 7 cases pass\nkept in your drill book: masked_mean due 2026-04-10'
run env XDG_STATE_HOME="$TMP/kb" PADLAB_NOW=2026-04-01T09:00 "$P" kata --list
expect_has "kata --list says when a kata tried is due again" "masked_mean          7 cases  due 2026-04-10"
run env XDG_STATE_HOME="$TMP/kb" PADLAB_NOW=2026-04-01T09:00 "$P" kata check masked_mean --run 'exit 3'
if [[ $rc -eq 1 && $out == *$'\nkept in your drill book: masked_mean due today' ]]; then pass "a wrong attempt is due again today"
else fail "a wrong attempt is due again today" "status $rc" "$out"; fi
sed 's/\([0-9]\)\]/\1, 9]/' "$TMP/mean.json" >"$TMP/mean_bad.json"
run "$P" kata check masked_mean "$TMP/mean_bad.json"
if [[ $rc -eq 1 && $out == *"case 1 (corpus rows, right padding), row 0: pooled has 4 entries here, expected 3"* ]]; then
    pass "a file with a row too long names where"
else fail "a file with a row too long names where" "status $rc" "$out" "$err"; fi
# bug KATA SCRIPT WHAT MESSAGE NAMED: the broken solution fails with MESSAGE, the
# bug named as NAMED says, and every case counted.
bug() {
    run "$P" kata check "$1" --run "$PY '$SOL/broken/$2.py'"
    if [[ $rc -eq 1 && $out == *"$4"* && $out == *"your output is what $5 gives"* && $out == *" cases pass"* ]]; then
        pass "$3 is rejected, the bug named and the cell"
    else fail "$3 is rejected, the bug named and the cell" "status $rc" "$out" "want: $4" "and: $5" "$err"; fi
}
bug masked_softmax masked_softmax_polarity "the mask's polarity inverted" \
    "case 1 (corpus rows, right padding), row 0, query 0, key 0: weights is 0, expected 0.02485422: key 0 is a real token (key_padding_mask False) and gets no weight: is the mask's polarity inverted?" \
    "the polarity inverted"
bug masked_mean masked_mean_div_t "the mean divided by T" \
    "case 1 (corpus rows, right padding), row 1, channel 0: pooled is" "the real tokens' sum divided by T"
bug position_ids position_ids_row_start "position ids counted from the row's start" \
    "case 2 (left padding), row 1, token 4: position_ids is 4, expected 0: row 1's first real token is at index 4 (left padding)" \
    "positions that count the pads (arange(T))"
bug buckets buckets_bisect_left "bisect_left at a boundary" \
    "case 5 (lengths equal to each boundary), row" "bisect_left"
bug keras_mask keras_mask_minus_zero "NumPy's mask[i, -n:] with n = 0" \
    "case 7 (an empty row, left padded), row 1, token 0: mask is True, expected False" "row[-n:] with n = 0"
bug block_mask block_mask_inside_t "a tile past T judged on its cells inside T" \
    "case 1 (causal+padding, right padding, block 4), row 0, query block 2, key block 0: tiles is 2, expected 1" \
    "a tile past T judged on its cells inside T"
bug compile_shapes compile_shapes_widths "the shapes counted as distinct widths" \
    "case 3 (all rows of one length): shapes is 1, expected 2" "the distinct widths, the rows left out"
bug compile_shapes compile_shapes_round_past "(w // 8 + 1) * 8 at an exact multiple" \
    "case 4 (padded to a multiple of 8), batch 0: width is 488, expected 480" "(width // 8 + 1) * 8"

finish
