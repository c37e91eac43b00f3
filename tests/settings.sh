#!/usr/bin/env bash
# Every value of every setting in the registry, through the command line and
# back out of a session file: `padlab --NAME VALUE --print-settings` names it,
# and a session made of those lines reopens with the same settings.
set -u
here=${PADLAB_TESTS:-$(dirname "$0")}
# shellcheck source=tests/lib.sh
. "$here/lib.sh"
P=${PADLAB:?set PADLAB to the padlab binary}

# The values a row's --help lists (a|b|c), or its range's ends and a middle.
values_of() { # NAME
    case $1 in
        maxlen) echo "1 7 100 150 2000 none" ;;
        batch) echo "1 32 1024" ;;
        seed) echo "0 17 999999" ;;
        seeds) echo "1 3 9" ;;
        example) echo "auto 0 12" ;;
        corpus) echo "builtin builtin:1:400" ;;
        *) "$P" lab --help | awk -v n="--$1" '
               found { if ($1 !~ /^--/) print $1; exit }
               $1 == n { if ($2 ~ /\|/) { print $2; exit } found = 1 }' | tr '|' ' ' ;;
    esac
}

names=$("$P" --print-settings | awk '{ print $1 }')
[[ -n $names ]] && pass "--print-settings lists the settings" || fail "--print-settings lists the settings"
for name in $names; do
    for v in $(values_of "$name"); do
        run "$P" --print-settings "--$name" "$v"
        if [[ $rc -ne 0 ]] || ! grep -qx "$name = $v" <<<"$out"; then
            fail "--$name $v is read and printed back" "status $rc" "$out" "$err"
            continue
        fi
        printf '%s\n' "$out" >"$TMP/s.session"
        run "$P" --session "$TMP/s.session" --print-settings
        if [[ $out == "$(cat "$TMP/s.session")" ]]; then pass "$name = $v round-trips through a session"
        else fail "$name = $v round-trips through a session" "$out" "$err"; fi
        run "$P" --print-state "--$name" "$v"
        state=${out#padlab --state }
        run "$P" --state "$state" --print-settings
        if [[ $rc -eq 0 && $out == "$(cat "$TMP/s.session")" ]]; then pass "$name = $v round-trips through the state line"
        else fail "$name = $v round-trips through the state line" "$state" "$out" "$err"; fi
    done
done
run "$P" --print-settings --padding sideways
expect_error "a bad value is refused with what the setting takes" "--padding: expected one of pre,post, got 'sideways'"
run "$P" --print-settings --colour blue
expect_error "an unknown setting is refused" "unknown option '--colour'"
printf 'maxlen = 300\nmask = on\n' >"$TMP/s.session"
run "$P" --session "$TMP/s.session" --mask off --print-settings
if grep -qx "maxlen = 300" <<<"$out" && grep -qx "mask = off" <<<"$out"; then pass "a flag wins over the session's value"
else fail "a flag wins over the session's value" "$out"; fi

# The state line: a lab opened from it computes the same bits as the lab it
# was made from (the view's full data, compared byte for byte).
state_same_bits() { # NAME VIEW FLAGS...
    local name=$1 view=$2
    shift 2
    run "$P" --print-state "$@"
    local state=${out#padlab --state }
    (cd "$TMP" && "$P" export --view "$view" --json a.json "$@" && "$P" export --view "$view" --json b.json --state "$state" &&
        "$P" export --view "$view" --json c.json --state "$state" --seed 1) >/dev/null 2>&1
    if cmp -s "$TMP/a.json" "$TMP/b.json" && ! cmp -s "$TMP/a.json" "$TMP/c.json"; then pass "$name"
    else fail "$name" "$state" "$(ls -la "$TMP")"; fi
    rm -f "$TMP"/[abc].json
}
imb=$here/../../shared/data/imdb-70-30.tsv
if without gui "the state line's bits, read through padlab export" 2; then :; else
    state_same_bits "the state line reopens the attention view's bits (another seed changes them)" attention \
        --maxlen 30 --padding post --mask on --example 3 --seed 5 --model attention
    if [[ -r $imb ]]; then
        state_same_bits "the state line reopens the rnn view's bits on imdb-70-30.tsv" rnn \
            --corpus "$(cd "$(dirname "$imb")" && pwd)/imdb-70-30.tsv" --maxlen 50 --padding post --seed 2 --example 7
    else skip "the state line on imdb-70-30.tsv (../shared/data/imdb-70-30.tsv is not there)"; fi
fi
run "$P" --print-state --corpus "$TMP/a b,c.tsv" --maxlen none --seeds 9
expect_has "a corpus path with a space and a comma is escaped" ",corpus=${TMP//\//\/}/a%20b%2Cc.tsv,"
run "$P" --state "v1,maxlen=30,mask=on" --mask off --print-settings
if grep -qx "maxlen = 30" <<<"$out" && grep -qx "mask = off" <<<"$out"; then pass "a flag wins over the state line's value"
else fail "a flag wins over the state line's value" "$out"; fi
run "$P" --state "v1,maxlen=0" --print-settings
expect_error "a bad state line is refused in one line" "--state: 'maxlen' must be a whole number from 1 to 2000 or none, got '0'"
run "$P" gui --state "v2,mask=on"
expect_error "the window refuses a bad state line too" "--state: a state line starts with 'v1,'"
run "$P" export --view batch --json x.json --state "v1,corpus=a b"
expect_error "export refuses a state line with a bare space" "'corpus' holds a byte 0x20 that a state line writes as %20"
finish
