#!/usr/bin/env bash
# The student page in a real browser, outside make check (installing chromium
# in CI costs more than it is worth on every run): Debian's headless chromium
# driven by node and the npm package playwright-core through join, answer,
# answer again and the reveal, with screenshots.
#
#   apt-get install chromium nodejs npm
#   (cd tests/browser && npm install playwright-core)   # or NODE_PATH to one
#   bash tests/browser/class.sh [SHOTS_DIR]             # default /tmp/class-final
set -u
here=$(cd "$(dirname "$0")" && pwd)
PADLAB=${PADLAB:-$here/../../padlab}
shots=${1:-/tmp/class-final}
for need in /usr/bin/chromium node; do
    command -v "$need" >/dev/null || { echo "skip the browser test: no $need here"; echo "tally: 0 passed, 0 failed, 1 skipped"; exit 77; }
done
tmp=$(mktemp -d /tmp/padlab-browser-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/keys"
"$PADLAB" lesson 01-rectangle --class --listen 127.0.0.1 --port 0 <"$tmp/keys" >"$tmp/projector" 2>&1 &
pid=$!
exec 7>"$tmp/keys"
for _ in $(seq 1 300); do grep -q '^class: serving' "$tmp/projector" && break; sleep 0.1; done
url=$(sed -n 's/^class: serving \(http:[^ ]*\) code .*/\1/p' "$tmp/projector")
code=$(sed -n 's/^class: serving .* code \([A-Z0-9]*\)$/\1/p' "$tmp/projector")
node "$here/class.js" "$url" "$code" "$tmp/keys" "$shots"
rc=$?
printf 'q' >&7
wait "$pid"
exit $rc
