#!/usr/bin/env bash
# doc/screenshots from the current build, and the check that they are current.
#
#   screenshots.sh make SRCDIR   renders every picture with $PADLAB (padlab gui
#                                --screenshot, padlab export; no display needed)
#                                and writes SRCDIR/doc/screenshots/INPUTS
#   screenshots.sh check SRCDIR  compares INPUTS with the sources now: status 1,
#                                naming the first file that changed, when the
#                                pictures are older than what draws them
#
#   screenshots.sh inputs SRCDIR what INPUTS lists for the sources now
#
# INPUTS lists the sha256 of every file the pictures depend on (this script,
# the sources under src/ but the terminal's, the command line's, the katas'
# and the class's, and the lessons): comparing it costs
# no rendering. The corpus is $PADLAB_SCREENSHOT_CORPUS (default imdb5k.tsv
# beside the source tree, ../shared/data/imdb5k.tsv).
set -euo pipefail
mode=${1:?usage: screenshots.sh make|check|inputs SRCDIR}
src=${2:?usage: screenshots.sh make|check|inputs SRCDIR}
out=$src/doc/screenshots

# inputs: "SHA256  PATH" for every file the pictures depend on, in a fixed order.
inputs() {
    (cd "$src" && find doc/screenshots.sh lessons src -type f \( -name '*.c' -o -name '*.h' -o -name '*.lesson' -o -name '*.sh' \) \
        -not -path 'src/tui/*' -not -path 'src/cli/*' -not -path 'src/app/kata/*' -not -path 'src/app/class/*' |
        LC_ALL=C sort | xargs sha256sum)
}
if [[ $mode == inputs ]]; then
    inputs
    exit 0
fi

if [[ $mode == check ]]; then
    if [[ ! -f $out/INPUTS ]]; then
        echo "doc/screenshots/INPUTS is missing: run make screenshots"
        exit 1
    fi
    changed=$(diff <(grep -v '^#' "$out/INPUTS") <(inputs) | awk '/^[<>]/ { print $3 }' | LC_ALL=C sort -u | head -3 | tr '\n' ' ' || true)
    if [[ -n $changed ]]; then
        echo "doc/screenshots are older than the sources that draw them (changed: ${changed% }): run make screenshots"
        exit 1
    fi
    exit 0
fi

P=${PADLAB:?set PADLAB to the padlab binary}
corpus=${PADLAB_SCREENSHOT_CORPUS:-$src/../shared/data/imdb5k.tsv}
[[ $corpus == builtin* || -f $corpus ]] || { echo "screenshots.sh: no corpus at $corpus (set PADLAB_SCREENSHOT_CORPUS)" >&2; exit 2; }
export XDG_STATE_HOME XDG_DATA_HOME
XDG_STATE_HOME=$(mktemp -d) XDG_DATA_HOME=$XDG_STATE_HOME # no learner's progress or session is read
trap 'rm -rf "$XDG_STATE_HOME"' EXIT
for v in batch cost attention rnn pooling loss train layers generate masks; do
    echo "  SHOT     doc/screenshots/$v.png"
    env -u DISPLAY -u WAYLAND_DISPLAY "$P" gui --corpus "$corpus" --view "$v" --size 1280x800 --timeout 1800 \
        --screenshot "$out/$v.png"
done
echo "  SHOT     doc/screenshots/lesson-present.png"
env -u DISPLAY -u WAYLAND_DISPLAY "$P" gui --corpus "$corpus" --lesson 12-experiment --step 2 --present \
    --size 1920x1080 --timeout 3600 --screenshot "$out/lesson-present.png"
echo "  SVG      doc/screenshots/cost.svg"
"$P" export --corpus "$corpus" --view cost --svg "$out/cost.svg"
{
    echo "# what doc/screenshots were made from (make screenshots; tests/screenshots.sh compares it)"
    inputs
} >"$out/INPUTS"
echo "  INPUTS   doc/screenshots/INPUTS"
