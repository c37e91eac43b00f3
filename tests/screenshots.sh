#!/usr/bin/env bash
# doc/screenshots are current: the sources that draw them (and the lessons)
# are the ones doc/screenshots/INPUTS lists, as make screenshots wrote it.
# Cheap: it hashes files, it renders nothing.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
src=${PADLAB_SRCDIR:-$here/..}
# Until make screenshots first writes doc/screenshots/INPUTS there is nothing to compare with: skipped, saying so.
if [[ ! -f $src/doc/screenshots/INPUTS ]]; then
    skip "doc/screenshots are current: doc/screenshots/INPUTS is missing (run make screenshots)"
else
    run bash "$src/doc/screenshots.sh" check "$src"
    if [[ $rc -eq 0 ]]; then pass "doc/screenshots are current"
    else fail "doc/screenshots are current" "$out" "$err"; fi
fi
# The check itself: one source changed in a copy of the list is named, with what to run.
mkdir -p "$TMP/tree/doc/screenshots" && cp -r "$src/lessons" "$src/src" "$TMP/tree/" 2>/dev/null
cp "$src/doc/screenshots.sh" "$TMP/tree/doc/"
run bash "$TMP/tree/doc/screenshots.sh" check "$TMP/tree"
if [[ $rc -eq 1 && $out == *"INPUTS is missing: run make screenshots"* ]]; then pass "without INPUTS the check fails, naming make screenshots"
else fail "without INPUTS the check fails, naming make screenshots" "status $rc" "$out"; fi
{ echo "# made"; bash "$TMP/tree/doc/screenshots.sh" inputs "$TMP/tree"; } >"$TMP/tree/doc/screenshots/INPUTS"
run bash "$TMP/tree/doc/screenshots.sh" check "$TMP/tree"
if [[ $rc -eq 0 ]]; then pass "a list made from the sources as they are passes"; else fail "a list made from the sources as they are passes" "$out"; fi
echo "/* changed */" >>"$TMP/tree/src/gui/render.c"
run bash "$TMP/tree/doc/screenshots.sh" check "$TMP/tree"
if [[ $rc -eq 1 && $out == *"src/gui/render.c"* && $out == *"run make screenshots"* ]]; then pass "a changed source is named, with make screenshots"
else fail "a changed source is named, with make screenshots" "status $rc" "$out"; fi
finish
