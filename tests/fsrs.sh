#!/usr/bin/env bash
# padlab's FSRS against the reference implementation: tests/fsrs/compare.mjs
# replays review histories through ts-fsrs (npm, the version pinned in
# tests/fsrs/package-lock.json) and through tests/fsrs/replay, and compares
# every review. Skipped, with the reason, without node or when `npm ci`
# cannot fetch the package (no network).
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
REPLAY=${PADLAB_FSRS_REPLAY:-$PWD/tests/fsrs/replay}

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    skip "fsrs: padlab against ts-fsrs (node and npm are not installed)"
    finish
    exit
fi
mkdir -p "$TMP/fsrs"
cp "$here/fsrs/package.json" "$here/fsrs/package-lock.json" "$here/fsrs/compare.mjs" "$TMP/fsrs/"
if ! (cd "$TMP/fsrs" && npm ci --no-audit --no-fund --loglevel=error >"$TMP/npm.log" 2>&1); then
    skip "fsrs: padlab against ts-fsrs (npm ci could not install ts-fsrs: $(grep -v "complete log" "$TMP/npm.log" | grep . | tail -n 1))"
    finish
    exit
fi
node "$TMP/fsrs/compare.mjs" "$REPLAY" >"$TMP/compare.out" 2>&1 && status=0 || status=$?
before=$failed
while IFS= read -r line; do
    case $line in
        "ok   "*) pass "${line#ok   }" ;;
        "FAIL "*) fail "${line#FAIL }" ;;
        *) echo "$line" ;;
    esac
done <"$TMP/compare.out"
((status == 0 || failed > before)) || fail "fsrs: compare.mjs exited with status $status" "$(tail -n 3 "$TMP/compare.out")"
grep -q '^summary: ' "$TMP/compare.out" || fail "fsrs: compare.mjs printed no summary"
finish
