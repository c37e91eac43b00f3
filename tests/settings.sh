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
finish
