#!/usr/bin/env bash
# make check's share of the goldens: the outputs that hold no number a model
# computes (help texts, the corpus commands, the batches, the refusals), the
# same bytes on any machine. make golden compares the rest.
exec bash "${PADLAB_TESTS:-$(dirname "$0")}/golden.sh" --deterministic
