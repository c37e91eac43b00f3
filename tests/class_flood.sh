#!/usr/bin/env bash
# The class server under a flood, on loopback only: padlab lesson --class on
# 127.0.0.1, its clients curl and python from many source addresses of
# 127/8 (Linux routes all of it to lo; curl --interface 127.0.0.N). What a
# classroom must not be able to do: lock the right code out with wrong ones,
# guess the code by rotating addresses, seat a whole class from one
# address, shut every student out with slow connections, hang the server
# with a long query. Each check prints its figures (tries a second, times).
# The limits it holds the server to are limit.h's and server.c's: 5 free
# wrong codes an address, then 4 checks a second; 300 wrong codes a minute
# for the class, then 10 checks a second; 64 seats an address; 512
# connections an address; 10 s of silence.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
PADLAB=${PADLAB:-./padlab}
CHECKS=16

if [[ ${PADLAB_CLASS:-yes} != yes ]]; then
    skip "the class server under a flood: padlab was built without libmicrohttpd" "$CHECKS"
    finish
    exit
fi
if ! command -v curl >/dev/null; then
    skip "the class server under a flood: no curl here (Debian: apt-get install curl)" "$CHECKS"
    finish
    exit
fi

export XDG_STATE_HOME="$TMP/state"
mkfifo "$TMP/keys"
"$PADLAB" lesson 01-rectangle --class --listen 127.0.0.1 --port 0 <"$TMP/keys" >"$TMP/projector" 2>&1 &
pid=$!
exec 7>"$TMP/keys" # the teacher's keyboard: open until the end
for _ in $(seq 1 300); do grep -q '^class: serving' "$TMP/projector" && break; sleep 0.1; done
url=$(sed -n 's/^class: serving \(http:[^ ]*\) code .*/\1/p' "$TMP/projector")
code=$(sed -n 's/^class: serving .* code \([A-Z0-9]*\)$/\1/p' "$TMP/projector")
port=${url##*:} port=${port%/}
if [[ $url == http://127.0.0.1:* && ${#code} -eq 5 ]]; then pass "the session prints the address it serves and its code"
else
    fail "the session prints the address it serves and its code" "$(head -n 3 "$TMP/projector")"
    kill "$pid"
    finish
    exit
fi
wrong=ZZZZZ # never a code: Z is not in the codes' alphabet
[[ $code != "$wrong" ]] || wrong=QQQQQ

ms() { date +%s%3N; }
# join FROM CODE: one join from source address FROM; prints "STATUS SECONDS", the reply in $TMP/reply.FROM.
join() {
    curl -s --interface "$1" -H 'Accept: application/json' -o "$TMP/reply.$1" -w '%{http_code} %{time_total}' \
        -d "code=$2" "${url%/}/join"
}
# joins CODE PARALLEL FROM... : CODE from each FROM, PARALLEL at a time (1: one
# after the other), all from one curl; prints "STATUS SECONDS" for each, one a line.
joins() {
    local c=$1 p=$2 a args=()
    shift 2
    for a in "$@"; do
        ((${#args[@]} == 0)) || args+=(--next)
        args+=(-s --interface "$a" -H 'Accept: application/json' -o /dev/null -w '%{http_code} %{time_total}\n' -d "code=$c" "${url%/}/join")
    done
    if ((p > 1)); then curl -s --no-progress-meter -Z --parallel-immediate --parallel-max "$p" "${args[@]}"; else curl "${args[@]}"; fi
}
repeat() { local i; for ((i = 0; i < $1; i++)); do echo "$2"; done; } # repeat N WORD: WORD N times
count() { awk -v s="$1" '$1 == s { n++ } END { print n + 0 }'; } # lines of status $1 on stdin
rate() { awk -v n="$1" -v ms="$2" 'BEGIN { printf "%.1f", (ms > 0 ? n * 1000 / ms : 0) }'; }

one_address=
if ! curl -s -o /dev/null --interface 127.0.0.2 "$url"; then
    skip "the checks from many addresses: this system does not route 127.0.0.2 to lo" $((CHECKS - 3))
    one_address=yes
fi

# ---- (e) a query with 500 arguments: 400 at once, not a connection held 30 s ----
q=$(seq -s '&' -f 'a%g=1' 1 500)
t0=$(ms)
st=$(curl -s -m 20 -o /dev/null -w '%{http_code}' "${url%/}/vote?t=1&$q")
t=$(($(ms) - t0))
echo "     a GET with 500 arguments (${#q} bytes): HTTP $st in $t ms"
if [[ $st == 400 && $t -lt 1000 ]]; then pass "a GET with 500 arguments is answered 400 at once"
else fail "a GET with 500 arguments is answered 400 at once" "HTTP $st in $t ms"; fi

if [[ -z $one_address ]]; then
    # ---- (c) seats: one address seats 64 students, no more; another still joins ----
    t0=$(ms)
    mapfile -t same < <(repeat 64 127.0.0.10)
    n=$(joins "$code" 1 "${same[@]}" | count 200)
    st=$(join 127.0.0.10 "$code")
    t=$(($(ms) - t0))
    echo "     one address: $n joins of 64 taken, the 65th HTTP ${st%% *}, in $t ms: $(cat "$TMP/reply.127.0.0.10")"
    if [[ $n -eq 64 && $st == 429* ]] && grep -q "64 students have joined from this address already" "$TMP/reply.127.0.0.10"; then
        pass "one address seats 64 students; the 65th is refused, saying why"
    else fail "one address seats 64 students; the 65th is refused, saying why" "$n joined, then $st"; fi
    st=$(join 127.0.0.11 "$code")
    if [[ $st == 200* ]]; then pass "a student from another address still joins"
    else fail "a student from another address still joins" "HTTP $st"; fi

    # ---- (a) 20 wrong codes at once from one address, then the right one ----
    t0=$(ms)
    mapfile -t same < <(repeat 20 127.0.0.3)
    sts=$(joins "$wrong" 20 "${same[@]}")
    t=$(($(ms) - t0))
    n403=$(count 403 <<<"$sts") n429=$(count 429 <<<"$sts")
    echo "     one address, 20 wrong codes at once: $n403 x 403, $n429 x 429 in $t ms ($(rate 14 $t) checks/s after the first 6)"
    # the 6th is checked on its own turn at once, the 14 after it 250 ms apart
    if [[ $n403 -eq 5 && $n429 -eq 15 && $t -ge 3400 ]]; then
        pass "one address's wrong codes past 5 get 429, checked at most 4 a second however many come at once"
    else fail "one address's wrong codes past 5 get 429, checked at most 4 a second" "$sts" "in $t ms"; fi
    st=$(join 127.0.0.3 "$code")
    echo "     then the right code from it: HTTP $st s"
    if [[ $st == 200* ]]; then pass "after 20 wrong codes from an address, the right code from it joins"
    else fail "after 20 wrong codes from an address, the right code from it joins" "HTTP $st"; fi

    # ---- (b) 300 addresses, a wrong code each: the class's limit, and the worst offender kept ----
    addrs=() # 127.0.1.1 ... 127.0.2.50
    for i in $(seq 0 299); do addrs+=("127.0.$((1 + i / 250)).$((1 + i % 250))"); done
    t0=$(ms)
    sts=$(joins "$wrong" 30 "${addrs[@]}")
    t=$(($(ms) - t0))
    n403=$(count 403 <<<"$sts") n429=$(count 429 <<<"$sts")
    echo "     300 addresses, one wrong code each (30 at once): $n403 x 403, $n429 x 429 in $t ms ($(rate 300 $t) tries/s)"
    # 20 wrong codes came before from 127.0.0.3: 280 more reach the class's 300
    if [[ $n403 -eq 280 && $n429 -eq 20 ]]; then
        pass "past 300 wrong codes a minute from all addresses, every wrong code gets 429"
    else fail "past 300 wrong codes a minute from all addresses, every wrong code gets 429" "$n403 x 403, $n429 x 429"; fi
    st=$(join 127.0.0.3 "$wrong")
    if [[ $st == 429* ]] && grep -q "from this address" "$TMP/reply.127.0.0.3"; then
        pass "the worst offender is still known after wrong codes from 300 other addresses (256 rows)"
    else fail "the worst offender is still known after wrong codes from 300 other addresses" "HTTP $st: $(cat "$TMP/reply.127.0.0.3")"; fi
    st=$(join 127.0.3.1 "$wrong")
    if [[ $st == 429* ]] && grep -q "tried in this class" "$TMP/reply.127.0.3.1"; then
        pass "past the class's limit, a wrong code from an address never seen gets 429"
    else fail "past the class's limit, a wrong code from an address never seen gets 429" "HTTP $st: $(cat "$TMP/reply.127.0.3.1")"; fi
    a=$(join 127.0.3.2 "$code") b=$(join 127.0.0.3 "$code")
    echo "     past the limit, the right code: from a new address HTTP $a s, from the worst offender HTTP $b s"
    if [[ $a == 200* && $b == 200* ]]; then pass "past the class's limit, the right code still joins, from anywhere"
    else fail "past the class's limit, the right code still joins, from anywhere" "$a / $b"; fi
    # 30 wrong codes at once from addresses that sent one already, and a student who sent none
    t30=$(ms)
    joins "$wrong" 30 "${addrs[@]:270:30}" >/dev/null &
    many=$!
    sleep 0.3
    t0=$(ms)
    st=$(join 127.0.3.3 "$code")
    t=$(($(ms) - t0))
    wait "$many"
    t30=$(($(ms) - t30))
    echo "     30 wrong codes waiting their turn: checked in $t30 ms ($(rate 30 $t30)/s); the student beside them joined in $t ms"
    if [[ $st == 200* && $t -lt 1000 && $t30 -ge 2500 ]]; then
        pass "past the class's limit, 10 codes a second are checked, a student with no wrong tries first"
    else fail "past the class's limit, 10 codes a second are checked, a student with no wrong tries first" "HTTP $st in $t ms, the 30 in $t30 ms"; fi
    # 120 at once: 10 a second for 8 s, then the rest are told to try again, their codes unchecked
    sts=$(joins "$wrong" 120 "${addrs[@]:0:120}")
    n429=$(count 429 <<<"$sts") n503=$(count 503 <<<"$sts")
    most=$(awk '$2 > m { m = $2 } END { printf "%.1f", m }' <<<"$sts")
    echo "     120 wrong codes at once: $n429 checked (429), $n503 told to try again (503); the longest wait $most s"
    if [[ $((n429 + n503)) -eq 120 && $n503 -gt 0 ]] && awk -v m="$most" 'BEGIN { exit !(m >= 7.5 && m < 9.5) }'; then
        pass "no join waits its turn more than 8 s: past that it is told to try again (padlab join gives up at 10)"
    else fail "no join waits its turn more than 8 s" "$n429 x 429, $n503 x 503, the longest $most s"; fi
fi

# ---- (d) 2000 slow connections from one address ----
if [[ -n $one_address ]]; then :
elif ! command -v python3 >/dev/null; then skip "the slow connections: no python3 here" 3
else
    # Opens N connections to the port from 127.0.0.1, each sending half a
    # request's headers, then says how many the server kept open a second
    # later, and after how long it closed the last.
    cat >"$TMP/slow.py" <<'EOF'
import resource, socket, sys, time
n, port = int(sys.argv[1]), int(sys.argv[2])
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, n + 200)), hard))
socks, t0 = [], time.time()
for _ in range(n):
    try:
        s = socket.socket()
    except OSError:
        break
    try:
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /vote HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/html\r\n")
        socks.append(s)
    except OSError:
        s.close()
took = time.time() - t0
def still_open():
    kept = []
    for s in socks:
        s.setblocking(False)
        try:
            if s.recv(1):
                kept.append(s)
        except BlockingIOError:
            kept.append(s)
        except OSError:
            pass
    return kept
time.sleep(1)
socks = still_open()
print("opened %d %d %.2f" % (n, len(socks), took), flush=True)
while socks and time.time() - t0 < 20:
    time.sleep(0.25)
    socks = still_open()
print("closed %.1f %d" % (time.time() - t0, len(socks)), flush=True)
EOF
    python3 "$TMP/slow.py" 2000 "$port" >"$TMP/slow.out" 2>&1 &
    slow=$!
    for _ in $(seq 1 200); do grep -q '^opened' "$TMP/slow.out" && break; sleep 0.1; done
    read -r _ n kept took < <(grep '^opened' "$TMP/slow.out")
    echo "     $n slow connections from 127.0.0.1 opened in ${took:-?} s: the server kept ${kept:-?} open"
    if [[ ${kept:-9999} -le 512 && ${kept:-0} -gt 0 ]]; then pass "2000 slow connections from one address: the server keeps at most 512"
    else fail "2000 slow connections from one address: the server keeps at most 512" "$(cat "$TMP/slow.out")"; fi
    t0=$(ms)
    st=$(join 127.0.0.20 "$code")
    tok=$(sed -n 's/.*"token": "\([0-9a-f]*\)".*/\1/p' "$TMP/reply.127.0.0.20")
    vote=$(curl -s --interface 127.0.0.20 -o /dev/null -w '%{http_code}' -b "padlab_class=$tok" "${url%/}/vote")
    t=$(($(ms) - t0))
    echo "     meanwhile a student from 127.0.0.20: join HTTP ${st%% *}, /vote HTTP $vote, in $t ms"
    if [[ $st == 200* && $vote == 200 && $t -lt 1000 ]]; then
        pass "meanwhile a student from another address joins and gets /vote in under a second"
    else fail "meanwhile a student from another address joins and gets /vote in under a second" "join $st, /vote $vote, $t ms"; fi
    wait "$slow"
    read -r _ closed left < <(grep '^closed' "$TMP/slow.out")
    echo "     the server closed the silent connections: the last ${closed:-?} s after they opened (${left:-?} left open)"
    if [[ ${left:-1} -eq 0 ]] && awk -v t="${closed:-99}" 'BEGIN { exit !(t < 16) }'; then
        pass "a connection silent for 10 s is closed"
    else fail "a connection silent for 10 s is closed" "$(cat "$TMP/slow.out")"; fi
fi

# ---- the class ends while joins wait their turn ----
many=
if [[ -z $one_address ]]; then
    joins "$wrong" 60 "${addrs[@]:200:60}" >"$TMP/held" &
    many=$!
    sleep 0.3
fi
t0=$(ms)
printf 'qq' >&7 # q asks once more before it ends the class
wait "$pid"
st=$? t=$(($(ms) - t0))
[[ -z $many ]] || wait "$many"
[[ -z $many ]] || echo "     60 joins waiting their turn when it ended: $(count 429 <"$TMP/held") checked, $(count 000 <"$TMP/held") cut off"
echo "     the class ended in $t ms"
if [[ $st -eq 0 && $t -lt 15000 ]]; then pass "the class ends with status 0, nothing hung, while joins wait their turn"
else fail "the class ends with status 0, nothing hung, while joins wait their turn" "status $st in $t ms" "$(tail -n 3 "$TMP/projector")"; fi
exec 7>&-
finish
