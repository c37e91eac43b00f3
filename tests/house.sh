#!/usr/bin/env bash
# The floor plan, read from the objects make built (their symbols, by nm):
# the core calls nothing above it; in the app layer a file calls only files
# of its own folder and the floors below it (src/app/lab over src/app, the
# wings src/app/report and src/app/teach over both, never each other); no
# two files of the app call each other round a circle; and nothing below
# the front ends calls into them.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"

# floor FOLDER: its floor, or nothing for a front end.
floor() {
    case $1 in
        src/core) echo 0 ;;
        src/app) echo 1 ;;
        src/app/lab) echo 2 ;;
        src/app/report | src/app/teach) echo 3 ;;
        src/app/kata) echo 4 ;; # katas read their files with teach's doc.c
        src/app/class) echo 4 ;; # the class wing stands on teach and report
    esac
}

objs=$(find src/core src/app src/tui src/gui src/cli -name 'lib*.o' 2>/dev/null | grep -v '_san' | sort)
if [[ -z $objs ]]; then
    fail "the objects are there" "no src/*/lib*.o under $(pwd): run from the build folder after make"
    finish
    exit
fi
# "FILE T|U SYMBOL" for every object, FILE the source it was built from.
for o in $objs; do
    src="$(dirname "$o")/$(basename "$o" .o | sed 's/^libpadlab_[a-z]*_a-//').c"
    nm "$o" | awk -v f="$src" '$1 == "U" { print f, "U", $2 } NF == 3 && $2 ~ /[TDBR]/ { print f, "T", $3 }'
done >"$TMP/syms"
# "CALLER CALLEE" for every call from one file into another.
awk '$2 == "T" { at[$3] = $1 } $2 == "U" { use[NR] = $1 " " $3 }
     END { for (i in use) { split(use[i], p, " "); if ((p[2] in at) && at[p[2]] != p[1]) print p[1], at[p[2]] } }' \
    "$TMP/syms" | sort -u >"$TMP/edges"

# room FILE: its folder (the core's layers, src/core/nn, are the core's room).
room() { local d; d=$(dirname "$1"); echo "${d%/nn}"; }

bad=()
while read -r from to; do
    a=$(floor "$(room "$from")") b=$(floor "$(room "$to")")
    [[ -z $a ]] && continue                       # a front end may call anything below it
    if [[ -z $b ]]; then bad+=("$from -> $to (a front end)"); continue; fi
    [[ $(room "$from") == "$(room "$to")" ]] && continue
    ((b < a)) || bad+=("$from -> $to")
done <"$TMP/edges"
if ((${#bad[@]} == 0)); then pass "no call runs back up a floor or across the wings ($(wc -l <"$TMP/edges") calls between files)"
else fail "no call runs back up a floor or across the wings" "${bad[@]}"; fi

grep '^src/app' "$TMP/edges" | awk '$2 ~ /^src\/app/' >"$TMP/app"
if tsort "$TMP/app" >/dev/null 2>"$TMP/loop"; then pass "no circle among the app's files ($(wc -l <"$TMP/app") calls)"
else fail "no circle among the app's files" "$(grep -v 'input contains a loop' "$TMP/loop" | head -n 20)"; fi
finish
