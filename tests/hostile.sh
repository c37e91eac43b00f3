#!/usr/bin/env bash
# Hardening (issue 11): each reproduction of the issue as a check that failed
# before its fix: hostile files, memory limits, stdout errors, control bytes.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}

# expect_fail NAME STATUS FRAGMENT: the last run exited STATUS with one
# stderr line containing FRAGMENT and nothing on stdout.
expect_fail() {
    local lines
    lines=$(printf '%s\n' "$err" | grep -c .)
    if [[ $rc -eq $2 && $lines -eq 1 && $err == *"$3"* && -z $out ]]; then pass "$1"
    else fail "$1" "status $rc (want $2), $lines stderr lines (want 1)" "stderr: $err" "want fragment: $3" "stdout: ${out:0:200}"; fi
}

# ---- memory limits: OpenBLAS must not hang, a command too big fails in one line ----
run bash -c "ulimit -v 160000; exec timeout 20 '$P' --version"
expect "--version runs under a 160 MB address-space limit" 0 "padlab 0.1.0"
run bash -c "ulimit -v 160000; exec timeout 20 '$P' stats --corpus builtin:1:30 --format csv"
expect_has "stats runs under a 160 MB address-space limit" "maxlen,padding_share"
run bash -c "ulimit -v 100000; exec timeout 60 '$P' experiment padding --corpus builtin:3:300 --epochs 1 --format csv"
expect_fail "experiment under a 100 MB limit fails in one line, without a crash or a hang" 1 "out of memory while"
# A training that cannot fit is refused before it starts, in one line, instead of growing until it swaps.
run bash -c "ulimit -v 400000; exec timeout 100 '$P' experiment cells --corpus builtin:1:100 --maxlen 5000 --epochs 1"
# (an LSTM's batch of 32 x 5000 holds 227 MB, counted as the model carves it: two at once do not fit)
expect_fail "a training too large for a 400 MB limit is refused before it starts" 1 "lstm at maxlen 5000, batch 32 needs about 0.5 GB to train (2 at once); 0.4 GB are available"
# Every probe that multiplies reserves OpenBLAS's buffer first: generate, which builds no model, used to spin for ever.
for kind in attention rnn pooling loss layers generate masks identity; do
    run bash -c "ulimit -v 150000; exec timeout 20 '$P' probe $kind --corpus builtin:1:30"
    expect_fail "probe $kind under a 150 MB limit fails in one line" 1 "out of memory while reserving OpenBLAS's 128 MB work buffer"
done

# ---- stdout write errors ----
if [[ -w /dev/full ]]; then
    out=$("$P" stats --corpus builtin:1:30 2>"$TMP/stderr" >/dev/full) && rc=0 || rc=$?
    err=$(cat "$TMP/stderr")
    expect_fail "stats > /dev/full exits 1 and says so" 1 "cannot write to standard output"
    out=$("$P" --version 2>"$TMP/stderr" >/dev/full) && rc=0 || rc=$?
    err=$(cat "$TMP/stderr")
    expect_fail "--version > /dev/full exits 1 too" 1 "cannot write to standard output"
else
    skip "stdout write errors (no /dev/full)" 2
fi

# ---- control bytes in corpus text never reach the terminal raw ----
printf '1\tgood \033c film \033[2J \302\233 31m bell\a here\n0\tbad film\n' >"$TMP/ctl.tsv"
run "$P" probe batch --corpus "$TMP/ctl.tsv" --maxlen 8 --full
if [[ $rc -eq 0 ]] && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$out" && ! LC_ALL=C grep -q $'\xc2[\x80-\x9f]' <<<"$out"; then
    pass "probe batch writes control bytes in corpus words as escapes"
else
    fail "probe batch writes control bytes in corpus words as escapes" "status $rc" "stdout: $(printf '%q' "${out:0:300}")"
fi
run "$P" probe batch --corpus "$TMP/ctl.tsv" --maxlen 8 --full --format json
if [[ $rc -eq 0 ]] && ! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' <<<"$out"; then pass "probe batch JSON stays escaped"
else fail "probe batch JSON stays escaped" "status $rc"; fi

# ---- model files: every header field and the file's size checked first ----
# le32 N / le64 N: N as little-endian bytes, for printf.
le32() { local v=$(($1 & 0xffffffff)); printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)); }
le64() { le32 $(($1 & 0xffffffff)); le32 $(($1 >> 32)); }
# model_header FILE NPARAMS ARCH VOCAB EMBED HIDDEN MASK POOL READOUT HEADS DHEAD CAUSAL FREEZE CLASSES
model_header() {
    local f=$1 n=$2 bytes="PADLABMD$(le32 1)$(le32 12)" v
    shift 2
    for v in "$@"; do bytes+=$(le32 "$v"); done
    bytes+=$(le64 "$n")
    printf "$bytes" >"$f"
}
# A 72-byte file whose header declares an LSTM of 2306 units (and the right
# count for it): rejected at once for its size, not after building the model.
model_header "$TMP/lstm.model" 21897243 2 10000 32 2306 0 0 0 2 16 0 0 0
start=$SECONDS
run timeout 20 "$P" probe rnn --corpus builtin:5:40 --weights "$TMP/lstm.model"
if ((SECONDS - start <= 2)); then pass "a 72-byte header declaring a huge LSTM is refused at once"
else fail "a 72-byte header declaring a huge LSTM is refused at once" "took $((SECONDS - start)) s"; fi
expect_error "and the refusal names the size that does not match" "lstm.model: 72 bytes, but its header's 21897243 parameters make a file of"
model_header "$TMP/lstm-count.model" 7 2 10000 32 2306 0 0 0 2 16 0 0 0
run timeout 20 "$P" probe rnn --corpus builtin:5:40 --weights "$TMP/lstm-count.model"
expect_error "a header whose parameter count is not its model's is refused" "7 parameters, but the header's model has 21897243"
# An average-pooling model of 10^7 x 13 embeddings: refused before its 520 MB are allocated.
model_header "$TMP/pool.model" 130000014 3 10000000 13 32 0 0 0 2 16 0 0 0
run bash -c "ulimit -v 400000; exec timeout 20 '$P' probe pooling --corpus builtin:5:40 --weights '$TMP/pool.model'"
expect_error "an oversized pooling model is refused before it is allocated" "pool.model: 72 bytes, but its header's 130000014 parameters"
# heads x dhead overflows an int: 65536 x 65537 wraps to 65536.
model_header "$TMP/heads.model" 0 5 10000 32 32 0 0 0 65536 65537 0 0 0
run timeout 20 "$P" probe attention --corpus builtin:5:40 --weights "$TMP/heads.model"
expect_error "heads x dhead cannot overflow past the 4096 limit" "heads x dhead up to 4096"
mkfifo "$TMP/fifo.model"
run timeout 10 "$P" probe rnn --corpus builtin:5:40 --weights "$TMP/fifo.model"
expect_error "a FIFO as a model file is refused without blocking" "fifo.model: a FIFO, not a regular file"

# ---- corpora: regular files only, with a size limit ----
mkdir -p "$TMP/acl/pos" "$TMP/acl/neg"
echo "a good film" >"$TMP/acl/pos/1.txt"
echo "a bad film" >"$TMP/acl/neg/1.txt"
mkfifo "$TMP/acl/neg/2.txt"
run timeout 10 "$P" stats --corpus "$TMP/acl" --format csv
if [[ $rc -eq 0 && $out == *"maxlen,padding_share"* && $err == *"skipped 1 entry that is not a regular file"*"neg/2.txt"* ]]; then
    pass "a FIFO in an aclImdb folder is skipped and named, not read"
else fail "a FIFO in an aclImdb folder is skipped and named, not read" "status $rc" "stderr: $err"; fi
run timeout 10 "$P" stats --corpus /dev/zero
expect_error "/dev/zero as a corpus is refused before it is read" "/dev/zero: a character device, not a regular file"
mkfifo "$TMP/corpus.fifo"
run timeout 10 "$P" stats --corpus "$TMP/corpus.fifo"
expect_error "a FIFO as a corpus is refused without blocking" "corpus.fifo: a FIFO, not a regular file"
run timeout 10 "$P" pad "$TMP/acl"
expect_error "padlab pad DIR says it is a folder" "acl: a folder, not a file of sequences"

# ---- sessions and other writes ----
out=$("$P" stats --maxlen "$(printf '12\nx')" 2>"$TMP/stderr") && rc=0 || rc=$?
err=$(cat "$TMP/stderr")
expect_fail "a flag value holding a newline is shown escaped, on one line" 2 "got '12\\x0ax'"
run "$P" --corpus $'builtin\nmaxlen = 7' --print-settings
if [[ $rc -eq 2 && -z $out && $err == *"without control characters"* ]]; then pass "a value with a newline cannot inject a second session line"
else fail "a value with a newline cannot inject a second session line" "status $rc" "stdout: $out"; fi
printf 'corpus = builtin:1:300\nseeds = 99\n' >"$TMP/range.session"
run "$P" --session "$TMP/range.session" --print-settings
if [[ $err == *"range.session:2: seeds must be"* ]]; then pass "a session's ranges are the flags'"; else fail "a session's ranges are the flags'" "$err"; fi
# A symlink planted where a writer's temporary file might go is never followed.
echo "precious" >"$TMP/victim"
for name in m.model.tmp m.model.tmp.XXXXXX; do ln -sf "$TMP/victim" "$TMP/$name"; done
run "$P" experiment pooling --corpus builtin:3:300 --epochs 1 --save-model "$TMP/m.model" --format csv
if [[ $rc -eq 0 && $(cat "$TMP/victim") == precious && -f $TMP/m.model && ! -L $TMP/m.model ]]; then
    pass "--save-model writes through a fresh temporary file, not a planted symlink"
else fail "--save-model writes through a fresh temporary file, not a planted symlink" "status $rc" "$err"; fi
mkfifo "$TMP/part.fifo"
run timeout 20 "$P" experiment pooling --corpus builtin:3:300 --epochs 1 --shard 1/2 --out "$TMP/part.fifo"
if [[ $rc -eq 2 && -p $TMP/part.fifo && $err == *"--out: $TMP/part.fifo: is a FIFO"* ]]; then pass "experiment --out FIFO is refused before training"
else fail "experiment --out FIFO is refused before training" "status $rc" "$err"; fi
run timeout 20 "$P" experiment pooling --corpus builtin:3:300 --epochs 1 --save-model /dev/null --format csv
if [[ $rc -eq 2 && -z $out && $err == *"--save-model: /dev/null: is a device"* ]]; then pass "--save-model /dev/null is refused as a device, before training"
else fail "--save-model /dev/null is refused as a device, before training" "status $rc" "$err"; fi

# ---- every file through the one writer (issues 20 and 22) ----
if ! without gui "every file through the one writer: exports and screenshots" 10; then
    X=(export --view batch --corpus builtin:3:300)
    # A FIFO, a device or a socket is no file to write: refused in one line
    # naming it, before anything is written (a FIFO with no reader would
    # block for ever), and left as it was.
    mkfifo "$TMP/plot.fifo"
    python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMP/plot.sock" 2>/dev/null || true
    run timeout 20 "$P" "${X[@]}" --svg "$TMP/fine.svg" --csv "$TMP/plot.fifo"
    if [[ $rc -eq 2 && -p $TMP/plot.fifo && ! -e $TMP/fine.svg && $err == *"--csv: $TMP/plot.fifo: is a FIFO"* && $(grep -c '' <<<"$err") == 1 ]]; then
        pass "--csv into a FIFO is refused at once, naming it, and --svg beside it writes nothing"
    else fail "--csv into a FIFO is refused at once, naming it, and --svg beside it writes nothing" "status $rc" "$err"; fi
    for dev in /dev/null "$TMP/plot.sock"; do
        [[ -e $dev ]] || continue
        run timeout 20 "$P" "${X[@]}" --json "$dev"
        if [[ $rc -eq 2 && $err == *"$dev: is a "* && $(grep -c '' <<<"$err") == 1 ]]; then pass "--json into $(basename "$dev") is refused in one line naming it"
        else fail "--json into $(basename "$dev") is refused in one line naming it" "status $rc" "$err"; fi
    done
    run timeout 20 "$P" gui --corpus builtin:3:300 --view batch --size 800x480 --screenshot /dev/null
    if [[ $rc -eq 2 && $err == *"/dev/null: is a device"* ]]; then pass "--screenshot /dev/null is refused as a device"
    else fail "--screenshot /dev/null is refused as a device" "status $rc" "$err"; fi
    # A symlink is written through: its target holds the file, the link stays a link.
    mkdir "$TMP/plots"
    echo "old" >"$TMP/plots/real.svg"
    ln -s plots/real.svg "$TMP/link.svg"
    run "$P" "${X[@]}" --svg "$TMP/link.svg"
    if [[ $rc -eq 0 && -L $TMP/link.svg && $(readlink "$TMP/link.svg") == plots/real.svg && $(tail -n 1 "$TMP/plots/real.svg") == "</svg>" ]]; then
        pass "--svg through a symlink writes its target and leaves the link a link"
    else fail "--svg through a symlink writes its target and leaves the link a link" "status $rc" "$err" "$(ls -l "$TMP/link.svg")"; fi
    ln -s plots/real.png "$TMP/link.png"
    run "$P" gui --corpus builtin:3:300 --view batch --size 800x480 --screenshot "$TMP/link.png"
    if [[ $rc -eq 0 && -L $TMP/link.png && $(head -c 4 "$TMP/plots/real.png" | tail -c 3) == PNG ]]; then
        pass "--screenshot through a dangling symlink makes its target and leaves the link a link"
    else fail "--screenshot through a dangling symlink makes its target and leaves the link a link" "status $rc" "$err"; fi
    # A symlink planted at the old fixed temporary names is never followed.
    for name in out.svg.tmp out.csv.tmp shot.png.tmp; do ln -sf "$TMP/victim" "$TMP/$name"; done
    run "$P" "${X[@]}" --svg "$TMP/out.svg" --csv "$TMP/out.csv"
    run2=$rc
    run "$P" gui --corpus builtin:3:300 --view batch --size 800x480 --screenshot "$TMP/shot.png"
    if [[ $run2 -eq 0 && $rc -eq 0 && $(cat "$TMP/victim") == precious && -f $TMP/out.svg && ! -L $TMP/out.svg && -f $TMP/shot.png && ! -L $TMP/shot.png ]]; then
        pass "--svg, --csv and --screenshot never write through a planted temporary-name symlink"
    else fail "--svg, --csv and --screenshot never write through a planted temporary-name symlink" "status $run2 $rc" "$err"; fi
    # A rewritten file keeps its mode (a new one gets 0666 less the umask).
    chmod 600 "$TMP/out.svg"
    run bash -c "umask 027; exec '$P' ${X[*]} --svg '$TMP/out.svg' --csv '$TMP/new.csv'"
    if [[ $rc -eq 0 && $(stat -c %a "$TMP/out.svg") == 600 && $(stat -c %a "$TMP/new.csv") == 640 ]]; then
        pass "a 600 SVG rewritten by an export stays 600"
    else fail "a 600 SVG rewritten by an export stays 600" "status $rc, mode $(stat -c %a "$TMP/out.svg")" "$err"; fi
    # A killed writer's day-old temporary file is swept when the target is next written; a fresh one is not.
    echo "half" >"$TMP/out.svg.tmp.Ab3xYz"
    echo "half" >"$TMP/out.svg.tmp.Zz9fre"
    touch -d "2 days ago" "$TMP/out.svg.tmp.Ab3xYz"
    run "$P" "${X[@]}" --svg "$TMP/out.svg"
    if [[ $rc -eq 0 && ! -e $TMP/out.svg.tmp.Ab3xYz && -e $TMP/out.svg.tmp.Zz9fre ]]; then
        pass "a day-old out.svg.tmp.XXXXXX is swept by the next --svg out.svg, a fresh one is kept"
    else fail "a day-old out.svg.tmp.XXXXXX is swept by the next --svg out.svg, a fresh one is kept" "status $rc" "$(ls "$TMP")"; fi
    # A device is refused, a full one too, and stays a device.
    if [[ $(id -u) -eq 0 ]] && mknod "$TMP/full" c 1 7 2>/dev/null && : 2>/dev/null >"$TMP/full"; then
        run "$P" gui --corpus builtin:3:300 --view batch --size 800x480 --screenshot "$TMP/full"
        if [[ -c $TMP/full ]]; then pass "--screenshot to a device leaves the device node in place"
        else fail "--screenshot to a device leaves the device node in place" "$(ls -l "$TMP/full")"; fi
        expect_fail "--screenshot to a full device is refused as a device" 2 "full: is a device: give the name of a file to write"
        rm -f "$TMP/full"
    else
        skip "a private /dev/full (needs root and a folder that allows devices)" 2
    fi
    run "$P" "${X[@]}" --svg "$TMP/plots"
    expect_fail "--svg to a folder is refused in one line" 2 "--svg: $TMP/plots: is a folder: give the name of a file to write"
    # A read-only folder: one line naming the folder and the reason.
    if read_only_folder "$TMP/ro"; then
        # shellcheck disable=SC2086
        run $as_other "$P_other" "${X[@]}" --svg "$TMP/ro/padlab/out.svg"
        expect_fail "--svg into a read-only folder names the folder and the reason" 1 "out.svg: cannot write in its folder $TMP/ro/padlab: Permission denied"
    else
        skip "a read-only folder (cannot run padlab as another user)"
    fi
    chmod 700 "$TMP"
fi

# A handout that cannot be written whole (a 40 KB file-size limit: the fourth figure fails) leaves nothing behind.
if ! without gui "a handout that fails part way writes no file at all (its figures are what outgrow the limit)" 1; then
    mkdir -p "$TMP/partial"
    run bash -c "trap '' XFSZ; ulimit -f 40; exec '$P' lesson 01-rectangle --handout '$TMP/partial'"
    if [[ $rc -eq 1 && $err == *"File too large; the worksheet and its key are not written"* && -z $(ls -A "$TMP/partial") ]]; then
        pass "a handout that fails part way writes no file at all"
    else fail "a handout that fails part way writes no file at all" "status $rc" "$err" "$(ls -A "$TMP/partial")"; fi
fi
finish
