#!/usr/bin/env bash
# The join address's QR code, read back by a QR reader as a student's phone
# would: the window's class box (padlab gui --lesson NAME --class, in the
# window and in classroom mode, light and dark) drawn offscreen at 1024x768,
# 1280x720, 1920x1080 and 3840x2160, and the terminal projector's half
# blocks (padlab lesson NAME --class) turned into a picture on a dark
# terminal's background; zbarimg must decode from each exactly the address
# padlab prints, and the terminal's code has its four modules of quiet zone.
# Skipped, with the reason, in a padlab built without the window (the
# window's checks), libmicrohttpd or libqrencode (PADLAB_QR=no), or without
# zbarimg (Debian: zbar-tools) or python3 (the terminal's check).
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
export XDG_STATE_HOME="$TMP/state" # the classes kept: this test's own, never the user's
P=${PADLAB:?set PADLAB to the padlab binary}
C=(--corpus builtin:1:200 --maxlen 60 --seeds 1)
SIZES=(1024x768 1280x720 1920x1080 3840x2160)
LOOKS=(window classroom classroom-dark) # the window, --present, --present --theme dark
WINDOW_CHECKS=$((${#SIZES[@]} * ${#LOOKS[@]})) TERMINAL_CHECKS=2

if [[ ${PADLAB_CLASS:-yes} != yes ]]; then
    skip "the join address's QR code: padlab was built without libmicrohttpd (no class)" $((WINDOW_CHECKS + TERMINAL_CHECKS))
    finish
    exit $?
fi
if [[ ${PADLAB_QR:-yes} != yes ]]; then
    skip "the join address's QR code: padlab was built without libqrencode" $((WINDOW_CHECKS + TERMINAL_CHECKS))
    finish
    exit $?
fi
if ! command -v zbarimg >/dev/null; then
    skip "the join address's QR code read back: zbarimg is not installed (Debian: apt-get install zbar-tools)" \
        $((WINDOW_CHECKS + TERMINAL_CHECKS))
    finish
    exit $?
fi

# decoded PNG: what zbarimg reads in it, one line a code ("" for none).
decoded() { zbarimg --raw -q "$1" 2>/dev/null; }

# ---- the window: a lesson step with its question open to the class, one picture a size and look ----
if [[ ${PADLAB_GUI:-yes} == no ]]; then
    skip "the window's QR code: this padlab was built without the window" "$WINDOW_CHECKS"
else
    for size in "${SIZES[@]}"; do
        for look in "${LOOKS[@]}"; do
            case $look in
            window) flags=() where="in the window" ;;
            classroom) flags=(--present) where="in classroom mode" ;;
            classroom-dark) flags=(--present --theme dark) where="in classroom mode, dark" ;;
            esac
            png="$TMP/class-$look-$size.png"
            name="the QR code $where at $size reads as the join address padlab serves"
            # --port 0: the system picks a free port, and padlab prints the address with it
            run "$P" gui "${C[@]}" --lesson rectangle --step 2 --class --listen 127.0.0.1 --port 0 "${flags[@]}" \
                --size "$size" --screenshot "$png"
            url=$(sed -n 's/^class: serving \(http:[^ ]*\) code .*/\1/p' <<<"$out")
            got=$(decoded "$png")
            if [[ $rc -eq 0 && $url == http://127.0.0.1:* && $got == "$url" ]]; then pass "$name"
            else fail "$name" "status $rc" "served: $url" "zbarimg read: ${got:-nothing}" "$err"; fi
        done
    done
fi

# ---- the terminal: the projector's first frame, its code in half blocks ----
if ! command -v python3 >/dev/null; then
    skip "the terminal's QR code: python3 is not installed (it turns the half blocks into a picture)" "$TERMINAL_CHECKS"
    finish
    exit $?
fi
mkfifo "$TMP/keys"
"$P" lesson 01-rectangle --class --listen 127.0.0.1 --port 0 <"$TMP/keys" >"$TMP/projector" 2>&1 &
pid=$!
exec 7>"$TMP/keys" # the teacher's keyboard: open until the end
for _ in $(seq 1 300); do grep -q $'\e\[0m$' "$TMP/projector" 2>/dev/null && break; sleep 0.1; done
sleep 0.5 # the rest of the frame
printf 'qq' >&7 # q asks once more before it ends the class
exec 7>&-
wait "$pid"
url=$(sed -n 's/^class: serving \(http:[^ ]*\) code .*/\1/p' "$TMP/projector")

# The half blocks of the first frame as a PNG (8 pixels a module, grey levels
# a terminal's: black text on a white background, the terminal's own black
# round it), written with the standard library alone; prints the light
# modules round the code: left right top bottom.
quiet=$(python3 - "$TMP/projector" "$TMP/terminal.png" <<'EOF'
import struct, sys, zlib

START, END = "\x1b[30;47m", "\x1b[0m"
HALF = {"\u2588": (1, 1), "\u2580": (1, 0), "\u2584": (0, 1), " ": (0, 0)}
rows = []  # modules: 1 dark, 0 light, None the terminal's background
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if START not in line:
        if rows:
            break  # the first frame's code only
        continue
    indent, _, rest = line.partition(START)
    cells = [(None, None)] * len(indent) + [HALF[ch] for ch in rest.split(END)[0]]
    rows.append([c[0] for c in cells])
    rows.append([c[1] for c in cells])
if not rows:
    sys.exit("no QR code in the projector's output")
margin, scale = 6, 8
w = max(len(r) for r in rows) + 2 * margin
grid = [[None] * w for _ in range(margin)]
grid += [[None] * margin + r + [None] * (w - margin - len(r)) for r in rows]
grid += [[None] * w for _ in range(margin)]
level = {1: 0x00, 0: 0xE5, None: 0x00}
raw = b"".join(b"\x00" + bytes(level[m] for m in r for _ in range(scale)) for r in grid for _ in range(scale))
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w * scale, len(grid) * scale, 8, 0, 0, 0, 0))
open(sys.argv[2], "wb").write(png + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
# the quiet zone: light modules from each edge of the code to its first dark one
code = [[m for m in r if m is not None] for r in rows]
dark_rows = [i for i, r in enumerate(code) if 1 in r]
left = min(r.index(1) for r in code if 1 in r)
right = min(r[::-1].index(1) for r in code if 1 in r)
print(left, right, dark_rows[0], len(code) - 1 - dark_rows[-1])
EOF
)
read -r ql qr qt qb <<<"${quiet:-0 0 0 0}"
if ((ql >= 4 && qr >= 4 && qt >= 4 && qb >= 4)); then pass "the terminal's QR code has a quiet zone of 4 modules ($ql $qr $qt $qb)"
else fail "the terminal's QR code has a quiet zone of 4 modules" "left right top bottom: ${quiet:-none}" "$(head -c 400 "$TMP/projector")"; fi
got=$(decoded "$TMP/terminal.png")
if [[ $url == http://127.0.0.1:* && $got == "$url" ]]; then pass "the terminal's QR code, on a dark terminal, reads as the join address padlab serves"
else fail "the terminal's QR code, on a dark terminal, reads as the join address padlab serves" "served: $url" "zbarimg read: ${got:-nothing}"; fi
finish
