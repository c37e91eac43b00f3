#!/usr/bin/env bash
# The long suite's play of every shipped lesson and deck on imdb5k, the
# real corpus beside the tree; make check plays them on builtin and the
# generated 70/30 corpus, so that all three are played before a push. Each
# lesson is played twice, as padlab lesson --answers plays it for the key
# and as a learner plays it, and every question's figure must agree to the
# bit.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
core="$(dirname "${PADLAB:?set PADLAB to the padlab binary}")/tests/check_core"
if [[ ! -x $core ]]; then
    fail "the core suite is built" "no $core"
elif [[ ! -r ${PADLAB_SHARED_DATA:-../shared/data}/imdb5k.tsv ]]; then
    skip "the shipped lessons and decks on imdb5k: ${PADLAB_SHARED_DATA:-../shared/data}/imdb5k.tsv is not there" 2
else
    for run in lessons:shipped:lesson drill:figures:deck; do
        IFS=: read -r suite case what <<<"$run"
        out=$(PADLAB_TEST_PLAY=imdb5k CK_RUN_CASE=$case "$core" "$suite" 2>&1)
        line=$(grep -E '^tally: ' <<<"$out" | tail -n 1)
        if [[ $line =~ ^tally:\ ([1-9][0-9]*)\ passed,\ 0\ failed ]]; then
            if [[ $what == lesson ]]; then pass "every shipped lesson on imdb5k: its key equals the learner's lab to the bit ($line)"
            else pass "every shipped deck's figures fill on imdb5k ($line)"; fi
        else fail "every shipped ${what} on imdb5k" "$(grep -E ':F:|:E:|tally' <<<"$out" | head -n 20)"; fi
    done
fi
finish
