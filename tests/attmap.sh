#!/usr/bin/env bash
# The attention map's numbers in the window's export (the display list the
# window draws, as CSV), in the terminal's attention view and in the probe's
# JSON agree: each row's share of weight on pads (head 0), each cell's weight
# against uniform, the head's pad share; and with the mask on they are what
# exp(-inf) = 0 gives by hand: 0% on pads and every pad key column hidden.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}
CHECKS=9
if ! command -v python3 >/dev/null; then
    skip "the attention map's agreement checks: python3 is not installed (it reads the JSON and CSV)" "$CHECKS"
    finish
    exit $?
fi

# compare JSON CSV: the export's rows and cells against the probe's head 0.
compare() {
    python3 - "$1" "$2" <<'PY'
import csv, json, math, sys
d = json.load(open(sys.argv[1]))
h0, T, vis, bias = d["heads_detail"][0], d["T"], d["visible"], d["bias"]
real = d["example_mask"]
rows, cells, head = {}, {}, None
for r in csv.DictReader(open(sys.argv[2])):
    if r["figure"] != "attention": continue
    if r["series"] == "row pad share": rows[int(float(r["x"]))] = float(r["y"])
    elif r["series"] == "head 0 pad share": head = float(r["y"])
    elif r["series"] == "log2 weight/uniform": cells[(int(r["label"].split()[1]), int(float(r["x"])))] = float(r["y"])
bad = []
if head is None or abs(head - h0["pad_share"]) > 1e-6: bad.append("head 0 pad share %s vs %s" % (head, h0["pad_share"]))
if len(rows) != T or len(cells) != T * T: bad.append("%d rows, %d cells for T = %d" % (len(rows), len(cells), T))
for q, s in rows.items():
    want = h0["leak"][0][q] if real[q] else float("nan")
    if not (math.isnan(s) and math.isnan(want)) and not abs(s - want) < 1e-6: bad.append("row %d: %s vs %s" % (q, s, want))
for (q, k), v in cells.items():
    hidden = bias[q][k] is None or (isinstance(bias[q][k], (int, float)) and math.isinf(bias[q][k]))
    want = float("nan") if hidden or vis[q] == 0 else math.log2(h0["weights"][q][k] * vis[q])
    if not (math.isnan(v) and math.isnan(want)) and not abs(v - want) < 1e-5: bad.append("cell %d,%d: %s vs %s" % (q, k, v, want))
print("\n".join(bad[:5]) if bad else "agree", "(%.4f on pads)" % h0["pad_share"])
PY
}

for mask in off on; do
    S=(--mask "$mask" --causal on)
    [[ $mask == off ]] && S=(--mask off)
    run "$P" probe attention "${S[@]}" --format json
    printf '%s\n' "$out" >"$TMP/p-$mask.json"
    if without gui "the window's attention export, mask $mask" 1; then continue; fi
    run "$P" export --view attention "${S[@]}" --csv "$TMP/a-$mask.csv"
    got=$(compare "$TMP/p-$mask.json" "$TMP/a-$mask.csv" 2>&1)
    if [[ $rc -eq 0 && $got == agree* ]]; then pass "mask $mask: the window's export draws the probe's rows and cells ($got)"
    else fail "mask $mask: the window's export draws the probe's rows and cells" "status $rc" "$got" "$err"; fi
done
# By hand: the mask makes every pad weight exp(-inf) = 0, so head 0 puts 0% on pads and each pad column is hidden.
if ! without gui "the export's hand-worked mask-on figures" 1; then
    got=$(python3 - "$TMP/p-on.json" "$TMP/a-on.csv" <<'PY'
import csv, json, math, sys
d = json.load(open(sys.argv[1]))
pads = [k for k in range(d["T"]) if not d["example_mask"][k]]
share, nan = None, 0
for r in csv.DictReader(open(sys.argv[2])):
    if r["series"] == "head 0 pad share": share = float(r["y"])
    if r["series"] == "log2 weight/uniform" and int(float(r["x"])) in pads and math.isnan(float(r["y"])): nan += 1
print(share, nan, d["T"] * len(pads))
PY
)
    read -r share nan hidden <<<"$got"
    if [[ $share == 0.0 && $nan == "$hidden" && $hidden -gt 0 ]]; then pass "mask on: the export says 0 on pads and hides all $hidden pad cells"
    else fail "mask on: the export says 0 on pads and hides every pad cell" "$got"; fi
fi

# The terminal: each row's percentage is the mean of its block's real queries' shares, the headline head 0's.
tmux_begin "the terminal's attention map" 6
if without tui "the terminal's attention map" 6; then
    finish
    exit $?
fi
term() { # NAME W H MASK: the view at W x H, against the probe's JSON for MASK
    local name=$1 mask=$4 S=(--mask "$4")
    [[ $mask == on ]] && S+=(--causal on)
    W=$2 H=$3 start lab --view attention "${S[@]}"
    if ! wait_for "% on pads" 600; then
        fail "$name: the terminal's rows and headline are the probe's" "the view did not open" "$(screen)"
        fail "$name: the key axis starts at the map's first column" "the view did not open"
        return
    fi
    screen >"$TMP/screen-$name.txt"
    got=$(python3 - "$TMP/p-$mask.json" "$TMP/screen-$name.txt" <<'PY'
import json, math, re, sys
d = json.load(open(sys.argv[1]))
h0, T, real = d["heads_detail"][0], d["T"], d["example_mask"]
lines = open(sys.argv[2], encoding="utf-8").read().split("\n")
bad = []
head = [re.search(r"head 0: ([\d.]+)% on pads", l) for l in lines]
head = [m.group(1) for m in head if m]
if head != ["%.1f" % (100 * h0["pad_share"])]: bad.append("headline %s vs %.1f" % (head, 100 * h0["pad_share"]))
per = [re.search(r"a cell: (\d+) keys? x (\d+) quer", l) for l in lines]
per = [m for m in per if m]
if not per: bad.append("no 'a cell:' line")
else:
    kper, qper = int(per[0].group(1)), int(per[0].group(2))
    rows = 0
    for l in lines:
        m = re.match(r"^\s*(\d+)[^\d\s]?\s", l)
        if not m or "%" not in l and "pad rows" not in l: continue
        q0 = int(m.group(1))
        if q0 % qper: continue
        qs = [q for q in range(q0, min(T, q0 + qper)) if real[q]]
        if not qs:
            if "pad rows" not in l: bad.append("query %d: no real query, yet %r" % (q0, l))
            continue
        want = "%.0f%%" % (100 * sum(h0["leak"][0][q] for q in qs) / len(qs))
        pct = re.search(r"\s(\d+%)", l[6:])
        if not pct or pct.group(1) != want: bad.append("query %d: %s vs %s" % (q0, pct and pct.group(1), want))
        rows += 1
    if rows != -(-T // qper) - sum(1 for i in range(0, T, qper) if not any(real[i:i + qper])): bad.append("%d rows read" % rows)
    if kper != -(-T // (-(-T // kper))): bad.append("kper %d" % kper)
print("\n".join(bad[:5]) if bad else "agree")
PY
)
    if [[ $got == agree ]]; then pass "$name: the terminal's rows and headline are the probe's"
    else fail "$name: the terminal's rows and headline are the probe's" "$got" "$(cat "$TMP/screen-$name.txt")"; fi
    # every column of the map under the key axis: its labels start at the columns they name
    if grep -q "^ key   0 " "$TMP/screen-$name.txt"; then pass "$name: the key axis starts at the map's first column"
    else fail "$name: the key axis starts at the map's first column" "$(cat "$TMP/screen-$name.txt")"; fi
}
term "80x24, mask off" 80 24 off
term "200x50, mask off" 200 50 off
term "100x30, mask and causal on" 100 30 on
finish
