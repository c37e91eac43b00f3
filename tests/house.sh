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

objs=$(find src/core src/app src/tui src/gui src/cli -name 'lib*.o' 2>/dev/null | grep -v '_san' | sort)
if [[ -z $objs ]]; then
    fail "the objects are there" "no src/*/lib*.o under $(pwd): run from the build folder after make"
    finish
    exit
fi
# "FILE T|U SYMBOL" for every object, FILE the source it was built from.
# One nm over every object ("OBJ:ADDR T SYM" or "OBJ: U SYM"), each object
# named by its source (src/app/lab/libpadlab_app_a-ledger.o: src/app/lab/ledger.c).
# shellcheck disable=SC2086
nm -A $objs | awk '{
    split($0, p, ":"); f = p[1]; sub(/libpadlab_[a-z]*_a-/, "", f); sub(/\.o$/, ".c", f)
    rest = substr($0, length(p[1]) + 2); n = split(rest, w, " ")
    if (n == 2 && w[1] == "U") print f, "U", w[2]
    else if (n == 3 && w[2] ~ /[TDBR]/) print f, "T", w[3]
}' >"$TMP/syms"
# "CALLER CALLEE" for every call from one file into another.
awk '$2 == "T" { at[$3] = $1 } $2 == "U" { use[NR] = $1 " " $3 }
     END { for (i in use) { split(use[i], p, " "); if ((p[2] in at) && at[p[2]] != p[1]) print p[1], at[p[2]] } }' \
    "$TMP/syms" | sort -u >"$TMP/edges"

# Each edge judged in one awk pass (a shell loop forks four times an edge):
# a file's room is its folder (the core's layers, src/core/nn, are the
# core's); a front end may call anything below it.
awk '
function room(f,   d) { d = f; sub(/\/[^\/]*$/, "", d); sub(/\/nn$/, "", d); return d }
function floor(d) {
    if (d == "src/core") return 0; if (d == "src/app") return 1; if (d == "src/app/lab") return 2
    if (d == "src/app/report" || d == "src/app/teach") return 3
    if (d == "src/app/kata" || d == "src/app/class") return 4 # katas read with teach, the class stands on teach and report
    return -1
}
{
    a = floor(room($1)); b = floor(room($2))
    if (a < 0) next
    if (b < 0) { print $1 " -> " $2 " (a front end)"; next }
    if (room($1) == room($2)) next
    if (!(b < a)) print $1 " -> " $2
}' "$TMP/edges" >"$TMP/bad"
if [[ ! -s $TMP/bad ]]; then pass "no call runs back up a floor or across the wings ($(wc -l <"$TMP/edges") calls between files)"
else mapfile -t bad <"$TMP/bad"; fail "no call runs back up a floor or across the wings" "${bad[@]}"; fi

grep '^src/app' "$TMP/edges" | awk '$2 ~ /^src\/app/' >"$TMP/app"
if tsort "$TMP/app" >/dev/null 2>"$TMP/loop"; then pass "no circle among the app's files ($(wc -l <"$TMP/app") calls)"
else fail "no circle among the app's files" "$(grep -v 'input contains a loop' "$TMP/loop" | head -n 20)"; fi
finish
