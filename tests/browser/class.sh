#!/usr/bin/env bash
# The student page in a real browser, outside make check (installing chromium
# in CI costs more than it is worth on every run): Debian's headless chromium
# driven by node and the npm package playwright-core through join, answer,
# a second round, the reveal, the end of the class and a page without script,
# with screenshots (light and dark). class.js says what each check is.
#
#   apt-get install chromium nodejs npm
#   (cd tests/browser && npm install playwright-core)   # or NODE_PATH to one
#   bash tests/browser/class.sh [SHOTS_DIR]             # default /tmp/class-final
set -u
here=$(cd "$(dirname "$0")" && pwd)
PADLAB=${PADLAB:-$here/../../padlab}
shots=${1:-/tmp/class-final}
skip() {
    echo "skip the browser test: $1"
    echo "tally: 0 passed, 0 failed, 1 skipped"
    exit 77
}
for need in /usr/bin/chromium node; do
    command -v "$need" >/dev/null || skip "no $need here"
done
(cd "$here" && node -e "require('playwright-core')") 2>/dev/null ||
    skip "no playwright-core (cd tests/browser && npm install playwright-core, or NODE_PATH to one)"
tmp=$(mktemp -d /tmp/padlab-browser-XXXXXX)
pid=
# The session is ours alone: killed by its id if it outlives the test.
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
trap '' PIPE # a key written after the session has gone is no error of the test's
export XDG_STATE_HOME="$tmp/state" # a class kept elsewhere is not resumed here
mkfifo "$tmp/keys"
"$PADLAB" lesson 01-rectangle --class --listen 127.0.0.1 --port 0 <"$tmp/keys" >"$tmp/projector" 2>&1 &
pid=$!
exec 7>"$tmp/keys"
for _ in $(seq 1 300); do grep -q '^class: serving' "$tmp/projector" && break; sleep 0.1; done
url=$(sed -n 's/^class: serving \(http:[^ ]*\) code .*/\1/p' "$tmp/projector")
code=$(sed -n 's/^class: serving .* code \([A-Z0-9]*\)$/\1/p' "$tmp/projector")
(cd "$here" && node "$here/class.js" "$url" "$code" "$tmp/keys" "$shots")
rc=$?
# class.js ends the class itself (q twice); a run that failed before may not have.
kill -0 "$pid" 2>/dev/null && printf 'qq' >&7 2>/dev/null
for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
    echo "FAIL the session did not end on q q"
    kill "$pid"
    rc=1
fi
wait "$pid" 2>/dev/null
pid=
exec 7>&-
exit $rc
