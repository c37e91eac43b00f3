#!/usr/bin/env bash
# padlab experiment in shards: a plan run whole, then as 3 shards and as 11
# (more shards than its 8 runs, so three are empty), merged, prints the same
# tables in every format; a part merged alone prints its run byte for byte,
# timings included; and every merge that cannot be the whole experiment, and
# every malformed part file, is refused in one line.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
unset COLUMNS
# 4 setups x 2 seeds = 8 runs: shard 0/3 trains runs 0 3 6, 1/3 runs 1 4 7, 2/3 runs 2 5
E=(padding --corpus builtin:3:300 --epochs 1 --seeds 2 --threads 1)

# ---- whole against merged ----
for fmt in table csv json; do
    "$P" experiment "${E[@]}" --format "$fmt" --out "$TMP/whole-$fmt.part" >"$TMP/whole.$fmt" || fail "whole run ($fmt)"
    "$P" experiment --merge "$TMP/whole-$fmt.part" --format "$fmt" >"$TMP/again.$fmt"
    if cmp -s "$TMP/whole.$fmt" "$TMP/again.$fmt"; then pass "a whole run's part merged alone prints its $fmt byte for byte"
    else fail "a whole run's part merged alone prints its $fmt byte for byte" "$(diff "$TMP/whole.$fmt" "$TMP/again.$fmt" | head)"; fi
done
for n in 3 11; do
    parts=()
    for ((i = n - 1; i >= 0; i--)); do
        "$P" experiment "${E[@]}" --shard "$i/$n" >"$TMP/p$i-$n.part" || fail "shard $i/$n"
        parts+=("$TMP/p$i-$n.part")
    done
    for fmt in table csv json; do
        "$P" experiment --merge "${parts[@]}" --format "$fmt" | untime >"$TMP/merged.$fmt"
        if untime <"$TMP/whole.$fmt" | cmp -s - "$TMP/merged.$fmt"; then pass "$n shards merged print the whole run's $fmt (timings aside)"
        else fail "$n shards merged print the whole run's $fmt (timings aside)" "$(untime <"$TMP/whole.$fmt" | diff - "$TMP/merged.$fmt" | head)"; fi
    done
done
runs_of() { grep -o '"run": [0-9]*' "$1" | grep -o '[0-9]*$' | tr '\n' ' '; }
got="$(runs_of "$TMP/p0-3.part")| $(runs_of "$TMP/p1-3.part")| $(runs_of "$TMP/p2-3.part")| $(runs_of "$TMP/p10-11.part")"
if [[ $got == "0 3 6 | 1 4 7 | 2 5 | " ]]; then pass "run k is shard k mod N's; shard 10/11 holds none"
else fail "run k is shard k mod N's; shard 10/11 holds none" "got: $got"; fi
"$P" experiment "${E[@]}" --shard 1/3 --out "$TMP/out.part"
"$P" experiment --merge "$TMP/p0-3.part" "$TMP/out.part" "$TMP/p2-3.part" --format json | untime >"$TMP/out.json"
if cmp -s "$TMP/out.json" "$TMP/merged.json"; then pass "--out writes the part stdout gets"
else fail "--out writes the part stdout gets" "$(diff "$TMP/out.json" "$TMP/merged.json" | head)"; fi

# ---- merges that are not the whole experiment ----
p0=$TMP/p0-3.part p1=$TMP/p1-3.part p2=$TMP/p2-3.part
run "$P" experiment --merge "$p0" "$p2"
expect_error "a missing part is named" "part 1/3 is missing"
run "$P" experiment --merge "$TMP/p0-11.part" "$TMP/p5-11.part"
expect_error "nine missing parts are counted" "9 parts are missing: 1/11, 2/11, 3/11, 4/11, 6/11, 7/11, 8/11, 9/11, ..."
run "$P" experiment --merge "$p0" "$p1" "$p2" "$TMP/out.part"
expect_error "a part given twice is named" "part 1/3 given twice: $p1 and $TMP/out.part"
run "$P" experiment --merge "$p0" "$p1" "$TMP/p2-11.part"
expect_error "parts of different N are refused" "parts disagree on the number of shards: $p0 (part 0/3), $TMP/p2-11.part (part 2/11)"
"$P" experiment padding --corpus builtin:3:200 --epochs 1 --seeds 2 --shard 2/3 >"$TMP/other-corpus.part"
run "$P" experiment --merge "$p0" "$p1" "$TMP/other-corpus.part"
expect_error "parts of different corpora are refused" "parts disagree on the corpus: $p0 (part 0/3) read builtin:3:300 (digest "
sed 's/"corpus_digest": "[0-9a-f]*"/"corpus_digest": "0123456789abcdef"/' "$p2" >"$TMP/digest.part"
run "$P" experiment --merge "$p0" "$p1" "$TMP/digest.part"
expect_error "a corpus of the same name and another digest is refused" "$TMP/digest.part (part 2/3) read builtin:3:300 (digest 0123456789abcdef)"
"$P" experiment padding --corpus builtin:3:300 --epochs 1 --seeds 2 --maxlen 100 --shard 1/3 >"$TMP/maxlen.part"
run "$P" experiment --merge "$p0" "$TMP/maxlen.part" "$p2"
expect_error "parts of different settings are refused" "parts disagree on the experiment: $p0 (part 0/3) is padding, 1 epoch, maxlen 200, seeds 0 1, $TMP/maxlen.part (part 1/3) is padding, 1 epoch, maxlen 100, seeds 0 1"
sed 's/"arithmetic": "[^"]*"/"arithmetic": "baseline, OpenBLAS Prescott"/' "$p1" >"$TMP/arith.part"
run "$P" experiment --merge "$p0" "$TMP/arith.part" "$p2"
expect_error "parts of different arithmetic are refused" "$TMP/arith.part (part 1/3) on baseline, OpenBLAS Prescott, whose sums differ"
sed 's/"padlab": "[^"]*"/"padlab": "0.0.1"/' "$p2" >"$TMP/old.part"
run "$P" experiment --merge "$p0" "$p1" "$TMP/old.part"
expect_error "a part of another padlab is refused" "$TMP/old.part (part 2/3) was trained by padlab 0.0.1, and this is padlab"
sed 's/"run": 7,/"run": 1,/' "$p1" >"$TMP/twice-run.part" # seed 1, as run 7's
run "$P" experiment --merge "$p0" "$TMP/twice-run.part" "$p2"
expect_error "a run held twice is refused" "$TMP/twice-run.part (part 1/3): runs item 3 is run 1, which is not one of this part's"
sed 's/"run": 4,/"run": 7,/' "$p1" >"$TMP/seed.part" # run 4 has seed 0, run 7 seed 1
run "$P" experiment --merge "$p0" "$TMP/seed.part" "$p2"
expect_error "a run of another seed is refused" "$TMP/seed.part (part 1/3): run 7 has seed 0, where the plan has seed 1"
sed 's/"run": 4,/"run": 5,/' "$p1" >"$TMP/stray.part"
run "$P" experiment --merge "$p0" "$TMP/stray.part" "$p2"
expect_error "another shard's run is refused" "runs item 2 is run 5, which is not one of this part's"

# ---- malformed part files ----
bad() { # NAME FRAGMENT: FILE holds the text on stdin
    cat >"$TMP/bad.part"
    run "$P" experiment --merge "$TMP/bad.part"
    expect_error "$1" "$TMP/bad.part: $2"
}
head -n 3 "$p0" | bad "a part file cut after its third line is refused" "line 4, column 1: expected a key in quotes, got the end of the text"
printf '' | bad "an empty part file is refused" "line 1, column 1: "
printf '[1, 2]\n' | bad "a list is not a part file" "a part file is a JSON object, not a list"
grep -v '"shards"' "$p0" | bad "a part without its N is refused" "'shards' is missing"
sed 's/"shard": 0/"shard": 3/' "$p0" | bad "a shard past N is refused" "'shard' should be a whole number from 0 to 2"
sed '0,/"0x[^"]*"/s//0.5/' "$p0" | bad "a float not in %a form is refused" "chance: 'share' should be a number written as a string in %a form (\"0x1.8p-1\"), not a number"
sed '0,/"epochs_done": 1/s//"epochs_done": 2/' "$p0" | bad "a run of other epochs is refused" "runs item 1: 'epochs_done' should be a whole number from 1 to 1"
sed '0,/"val_acc": \[/s//"val_acc": [ "0x1p-1",/' "$p0" | bad "a run with an epoch too many is refused" "runs item 1: 'val_acc' should hold 1 item, not 2"
sed 's/"steps": [0-9]*/"steps": 1.5/' "$p0" | bad "a fractional count is refused" "runs item 1: 'steps' should be a whole number"
mkdir "$TMP/folder.part"
run "$P" experiment --merge "$TMP/folder.part"
if [[ $rc -eq 2 && $err == *"folder.part"* && $(grep -c . <<<"$err") -eq 1 ]]; then pass "a folder is not a part file"
else fail "a folder is not a part file" "status $rc" "$err"; fi

# ---- flags ----
for s in 3/3 -1/3 1/0 a/b 1/2x 0/1025; do
    run "$P" experiment "${E[@]}" --shard "$s"
    expect_error "--shard $s is refused" "--shard takes I/N, shard I of N counted from 0 (0 <= I < N <= 1024), not '$s'"
done
run "$P" experiment "${E[@]}" --shard 0/3 --format csv
expect_error "a shard prints no tables" "--shard writes a part file, not tables: --format is for --merge"
run "$P" experiment "${E[@]}" --shard 1/3 --save-model "$TMP/m"
expect_error "only shard 0 saves the first run's model" "--save-model keeps the plan's first run, which shard 0/3 trains"
run "$P" experiment --merge "$p0" "$p1" "$p2" --epochs 2
expect_error "a merge takes no training flags" "--merge takes its settings from the parts: --epochs is not for it"
run "$P" experiment --merge
expect_error "a merge needs parts" "--merge expects the part files (PART.json...)"
finish
