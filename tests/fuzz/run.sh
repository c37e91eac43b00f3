#!/usr/bin/env bash
# The fuzz harnesses, built and run in one of two ways:
#
#   run.sh replay NAME...   each harness built with $CC (gcc) and the plain
#                           driver, replaying tests/fuzz/seeds/NAME/ (make check)
#   run.sh fuzz NAME...     each built with clang and libFuzzer (ASan, UBSan)
#                           and run for $FUZZ_SECONDS seconds from its seeds,
#                           one after the other (make fuzz FUZZ_SECONDS=N),
#                           or until FUZZ_RUNS executions when that is set
#
# A harness is tests/fuzz/fuzz_NAME.c (LLVMFuzzerTestOneInput) with its seeds
# in tests/fuzz/seeds/NAME/; the names come from FUZZ_HARNESSES in Makefile.am.
# The build flags come from make through the environment: FUZZ_CC, FUZZ_CFLAGS
# (the project's includes and warnings), FUZZ_LIBS (the app and core archives
# and their libraries), FUZZ_SOURCES (the app and core sources, compiled
# again with clang's instrumentation), FUZZ_SRCDIR and FUZZ_BUILDDIR.
set -u
mode=$1
shift
SRC=${FUZZ_SRCDIR:-.}
OUT=${FUZZ_BUILDDIR:-.}/tests/fuzz
mkdir -p "$OUT"
# Extra files a harness compiles with it (the CLI code it calls into).
extra_sources() {
    case $1 in
    pad) echo "$SRC/src/cli/args.c" ;;
    esac
}
# Where lessons are looked for (the app's lesson loader wants both).
LESSON_DIRS=(-DPL_LESSONS_DIR="\"$SRC/lessons\"" -DPL_SOURCE_LESSONS_DIR="\"$SRC/lessons\"")
# clang 14 does not export target_clones functions to other files under
# their own names: the fuzz build takes the default version of each.
LESSON_DIRS+=(-D'target_clones(...)=used')
passed=0 failed=0
status=0

replay() {
    local name=$1 bin=$OUT/replay_$1 log=$OUT/replay_$1.log
    # shellcheck disable=SC2086,SC2046
    if ! ${FUZZ_CC:-cc} $FUZZ_CFLAGS -I"$SRC/tests/fuzz" -o "$bin" "$SRC/tests/fuzz/fuzz_$name.c" "$SRC/tests/fuzz/driver.c" \
        $(extra_sources "$name") $FUZZ_LIBS 2>"$log"; then
        echo "FAIL fuzz harness $name does not build:"; sed 's/^/     /' "$log"
        return 1
    fi
    if [[ -s $log ]]; then echo "FAIL fuzz harness $name builds with warnings:"; sed 's/^/     /' "$log"; return 1; fi
    local out
    # The seeds' own error messages (a refused input) go to the log, not the report.
    if out=$(timeout 120 "$bin" "$SRC/tests/fuzz/seeds/$name" 2>"$OUT/replay_$name.err"); then
        echo "ok   fuzz harness $name: $out from tests/fuzz/seeds/$name"
    else
        echo "FAIL fuzz harness $name on its seeds:"; tail -n 20 "$OUT/replay_$name.err" | sed 's/^/     /'
        return 1
    fi
}

# The app and core compiled once with clang's coverage and sanitizers. An
# object is made again when its source or any header is newer (a header's
# struct may have changed under a source that did not).
instrumented_objects() {
    local objdir=$OUT/obj src obj objs=() header
    mkdir -p "$objdir"
    header=$(find "$SRC/src" -name '*.h' -printf '%T@ %p\n' | sort -n | tail -n 1 | cut -d' ' -f2-)
    for src in $FUZZ_SOURCES; do
        [[ $src == *.c ]] || continue
        obj=$objdir/$(echo "$src" | tr '/' '_' | sed 's/\.c$/.o/')
        if [[ ! -f $obj || $SRC/$src -nt $obj || $header -nt $obj ]]; then
            # shellcheck disable=SC2086
            clang $FUZZ_CLANG_FLAGS -fsanitize=fuzzer-no-link $FUZZ_CPPFLAGS "${LESSON_DIRS[@]}" -c "$SRC/$src" -o "$obj" || return 1
        fi
        objs+=("$obj")
    done
    echo "${objs[@]}"
}

fuzz() {
    local name=$1 bin=$OUT/fuzz_$1 corpus=$OUT/corpus_$1 objs=$2
    mkdir -p "$corpus"
    # shellcheck disable=SC2086,SC2046
    clang $FUZZ_CLANG_FLAGS -fsanitize=fuzzer $FUZZ_CPPFLAGS "${LESSON_DIRS[@]}" -I"$SRC/tests/fuzz" -o "$bin" "$SRC/tests/fuzz/fuzz_$name.c" \
        $(extra_sources "$name") $objs $FUZZ_SYSLIBS || return 1
    echo "fuzz: $name for ${FUZZ_SECONDS:-60} s (corpus in $corpus)"
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$bin" -max_total_time="${FUZZ_SECONDS:-60}" ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$OUT/crash_${name}_" "$corpus" "$SRC/tests/fuzz/seeds/$name" 2>&1 |
        grep -E '^#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|ERROR|SUMMARY|crash|leak|timeout' | tail -n 8
    return "${PIPESTATUS[0]}"
}

case $mode in
replay)
    for name in "$@"; do
        if replay "$name"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    done
    echo "tally: $passed passed, $failed failed, 0 skipped"
    [[ $failed -eq 0 ]]
    ;;
fuzz)
    command -v clang >/dev/null || { echo "make fuzz needs clang (with libFuzzer)"; exit 2; }
    objs=$(instrumented_objects) || exit 1
    for name in "$@"; do fuzz "$name" "$objs" || status=1; done
    exit $status
    ;;
*) echo "usage: run.sh replay|fuzz NAME..."; exit 2 ;;
esac
