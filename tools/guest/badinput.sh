#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# badinput.sh - runs in the test guest (scripts/guest.sh, or from
# torture.sh): writes a table of bad and valid inputs to the
# shallow_idle attribute of a null_blk device and checks each result.
#
# Usage: guest.sh --kernel BUILD --script badinput.sh
#        (scripts/torture.sh runs it before the torture run, or alone with
#        --badinput-only)
#
# Each input is written the way an administrator would, with the shell's
# builtin echo (echo -ne SPEC > attribute: one write(2) of exactly those
# bytes). For each input the table has the expected result (accepted, or
# rejected with EINVAL), the actual one (exit status of the write and the
# errno text of the shell's "write error: ..." message) and the mode read
# back afterwards. A rejected write must leave the mode that was set
# before it (the "before" column; it rotates over 25, auto, 1000000 and
# off) unchanged; an accepted one must read back as its canonical form.
#
# Kernel facts the expectations rely on:
#  - the value is "off", "auto" or decimal digits 1..1000000 with at most
#    one trailing newline; leading zeros are decimal digits too
#    (kstrtouint base 10);
#  - the shell issues no write(2) at all for an empty string, and sysfs
#    completes a zero-length write without calling the attribute, so the
#    table has no empty row (it would test nothing; KUnit's parser cases
#    have "");
#  - sysfs passes at most PAGE_SIZE (4096) bytes of a longer write to the
#    attribute, so 4096+ digits are rejected by the parser (EINVAL);
#  - the attribute is 0644: an unprivileged open for writing fails with
#    EACCES before anything is written.
#
# Results: badinput.md (Markdown table) and badinput.tap in $RESULTS_DIR;
# both also go to stdout. Exit code 0 when every row matches.

. "$SHARE/lib.sh"

NULLB_CFS=/sys/kernel/config/nullb
NAME=shallow_idle_badin
T=$(mktemp -d)
MD=$RESULTS_DIR/badinput.md
made=0

cleanup() {
	if [ $made = 1 ]; then
		echo off > "/sys/block/$NAME/queue/shallow_idle" 2>/dev/null
		echo 0 > "$NULLB_CFS/$NAME/power" 2>/dev/null
		rmdir "$NULLB_CFS/$NAME" 2>/dev/null
	fi
	rm -rf "$T"
}
trap cleanup EXIT

tap_init "$RESULTS_DIR/badinput.tap"

fatal() {
	tap_not_ok "$*"
	tap_end
	exit 1
}

[ -d "$NULLB_CFS" ] || modprobe null_blk nr_devices=0 2>/dev/null
[ -d "$NULLB_CFS" ] || fatal "null_blk with configfs not available"
mkdir "$NULLB_CFS/$NAME" || fatal "cannot create null_blk device $NAME"
made=1
echo 2 > "$NULLB_CFS/$NAME/submit_queues"
echo 1024 > "$NULLB_CFS/$NAME/size"
echo 1 > "$NULLB_CFS/$NAME/power" || fatal "cannot power on $NAME"
ATTR=/sys/block/$NAME/queue/shallow_idle
[ -e "$ATTR" ] || fatal "no $ATTR (CONFIG_BLK_SHALLOW_IDLE)"

read -r mode < "$ATTR"
if [ "$mode" = off ]; then
	tap_ok "badinput: default mode is off"
else
	tap_not_ok "badinput: default mode is off (read '$mode')"
fi

# Prior states, rotated: every rejected write starts from one of these.
PRIORS="25 auto 1000000 off"
nprior=4
row=0
mismatch=0

# prior_for N - the Nth prior state.
prior_for() {
	_n=$(($1 % nprior))
	set -- $PRIORS
	shift $_n
	echo "$1"
}

# set_mode VALUE - set a known state; retries on EBUSY (nothing else runs).
set_mode() {
	_i=0
	while [ $_i -lt 50 ]; do
		echo "$1" > "$ATTR" 2>/dev/null && return 0
		_i=$((_i + 1))
		sleep 0.1
	done
	return 1
}

# errtext FILE - errno text of the last "...: MESSAGE" line in FILE.
errtext() {
	_l=""
	while IFS= read -r _x; do
		_l=$_x
	done < "$1"
	[ -n "$_l" ] && echo "${_l##*: }"
}

{
	echo "| # | input (echo -ne) | bytes | before | expected | exit | error | after | result |"
	echo "|---|---|---|---|---|---|---|---|---|"
} > "$MD"

# add_row SHOWN LEN BEFORE EXPECTED EXIT ERROR AFTER RESULT
add_row() {
	echo "| $row | $1 | $2 | $3 | $4 | $5 | $6 | $7 | $8 |" >> "$MD"
}

# check DESC SPEC EXPECT [SHOWN] - write SPEC (an echo -e string) and
# check the result. EXPECT: "ok:CANONICAL" (accepted, reads back as
# CANONICAL) or "EINVAL" (rejected, state unchanged).
check() {
	_desc=$1 _spec=$2 _exp=$3 _shown=${4:-}
	row=$((row + 1))
	[ -n "$_shown" ] || _shown="\`\"$_spec\"\`"
	_len=$(echo -ne "$_spec" | wc -c)
	_before=$(prior_for $row)
	case $_exp in
	ok:*)
		# Start from a state other than the target, so a change is visible.
		[ "$_before" = "${_exp#ok:}" ] && _before=$(prior_for $((row + 1)))
		_expshow="accepted (${_exp#ok:})"
		;;
	*)
		_expshow="rejected ($_exp)"
		;;
	esac
	if ! set_mode "$_before"; then
		add_row "$_shown" "$_len" "$_before" "$_expshow" "-" "cannot set $_before" "-" "**FAIL**"
		tap_not_ok "badinput $row $_desc: cannot set the prior state $_before"
		mismatch=$((mismatch + 1))
		return
	fi
	: > "$T/err"
	{ echo -ne "$_spec" > "$ATTR"; } 2> "$T/err"
	_rc=$?
	_err=$(errtext "$T/err")
	read -r _after < "$ATTR"
	_ok=0
	case $_exp in
	ok:*)
		[ $_rc = 0 ] && [ "$_after" = "${_exp#ok:}" ] && _ok=1
		;;
	EINVAL)
		[ $_rc != 0 ] && [ "$_err" = "Invalid argument" ] &&
			[ "$_after" = "$_before" ] && _ok=1
		;;
	esac
	if [ $_ok = 1 ]; then
		_res=ok
		tap_ok "badinput $row $_desc: $_expshow; exit $_rc${_err:+ ($_err)}; $_before -> $_after"
	else
		_res="**FAIL**"
		mismatch=$((mismatch + 1))
		tap_not_ok "badinput $row $_desc: expected $_expshow; got exit $_rc${_err:+ ($_err)}; $_before -> $_after"
	fi
	add_row "$_shown" "$_len" "$_before" "$_expshow" "$_rc" "${_err:--}" "$_after" "$_res"
}

sevens() {
	head -c "$1" /dev/zero | tr '\0' 7
}

# ---- rejected ---------------------------------------------------------------

check "space" " " EINVAL
check "newline only" "\n" EINVAL
check "tab and spaces" "\t  \n" EINVAL
check "minus one" "-1" EINVAL
check "zero" "0" EINVAL
check "zero with newline" "0\n" EINVAL
check "double zero" "00" EINVAL
check "plus sign" "+5" EINVAL
check "leading space" " 5" EINVAL
check "one above the maximum" "1000001" EINVAL
check "INT_MAX" "2147483647" EINVAL
check "INT_MAX + 1" "2147483648" EINVAL
check "UINT_MAX" "4294967295" EINVAL
check "2^32" "4294967296" EINVAL
check "2^64" "18446744073709551616" EINVAL
check "20 digits" "99999999999999999999" EINVAL
check "exponent" "1e3" EINVAL
check "hex" "0x10" EINVAL
check "unit suffix" "10us" EINVAL
check "trailing garbage" "5x" EINVAL
check "trailing space" "5 " EINVAL
check "two newlines" "5\n\n" EINVAL
check "auto and garbage" "auto x" EINVAL
check "auto with trailing space" "auto " EINVAL
check "off and auto" "off auto" EINVAL
check "autox" "autox" EINVAL
check "on" "on" EINVAL
check "mixed case Auto" "Auto" EINVAL
check "upper case OFF" "OFF" EINVAL
check "upper case AUTO with newline" "AUTO\n" EINVAL
check "binary bytes" "\001\377" EINVAL
# echo -e reads "\0" and up to three more octal digits as one byte:
# "\00005" is NUL then "5", "5\00005" is 5 NUL 5 (the bytes column counts
# what was written).
check "NUL then digit" "\00005" EINVAL
check "digit, NUL, digit" "5\00005" EINVAL
check "auto, NUL, garbage" "auto\000x" EINVAL
check "4095 digits" "$(sevens 4095)" EINVAL "\`7\` x 4095"
check "4096 digits" "$(sevens 4096)" EINVAL "\`7\` x 4096"
check "4097 digits" "$(sevens 4097)" EINVAL "\`7\` x 4097"
check "8192 digits" "$(sevens 8192)" EINVAL "\`7\` x 8192"

# ---- accepted ---------------------------------------------------------------

for v in off auto 1 25 1000000; do
	check "valid $v" "$v" "ok:$v"
	check "valid $v with newline" "$v\n" "ok:$v"
done
check "leading zeros" "0010" ok:10

# ---- unprivileged -----------------------------------------------------------

row=$((row + 1))
before=$(prior_for $row)
if set_mode "$before"; then
	as_nobody "echo auto > $ATTR" 2> "$T/err"
	rc=$?
	err=$(errtext "$T/err")
	read -r after < "$ATTR"
	if [ $rc != 0 ] && [ "$err" = "Permission denied" ] && [ "$after" = "$before" ]; then
		res=ok
		tap_ok "badinput $row unprivileged write refused ($err), $before unchanged"
	else
		res="**FAIL**"
		mismatch=$((mismatch + 1))
		tap_not_ok "badinput $row unprivileged write: exit $rc ($err), $before -> $after"
	fi
	add_row "\`\"auto\\n\"\` as nobody" 5 "$before" "rejected (EACCES)" "$rc" "${err:--}" "$after" "$res"
else
	mismatch=$((mismatch + 1))
	tap_not_ok "badinput $row unprivileged write: cannot set $before"
fi

set_mode off
echo
cat "$MD"
echo
tap_diag "badinput: $row inputs, $mismatch mismatches"
tap_end
