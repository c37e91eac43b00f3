#!/usr/bin/env bash
# make check's replay of every fuzz harness's seed corpus (tests/fuzz/run.sh).
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck disable=SC2086
exec bash "$here/fuzz/run.sh" replay ${FUZZ_HARNESSES:?set FUZZ_HARNESSES (make check does)}
