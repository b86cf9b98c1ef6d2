#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Test the shallow_idle queue attribute (CONFIG_BLK_SHALLOW_IDLE) on
# null_blk devices. Each case prints one TAP result and proves one thing;
# the cases run in order and share the device "shallow_idle_selftest" (two
# hardware queues, timer completions after 2 ms).
#
# The limit "auto" must give is known for the emulated tables of the test
# harness (tools/emu-cstates: spr 289, skx 132, icx 169, amd 399) and is
# looked up from the CPU's state table; on other machines give it in
# SHALLOW_IDLE_EXPECTED. The idle state cases need a cpuidle driver with a state
# deeper than the limit and are skipped without one.
#
# Needs root, null_blk with configfs, debugfs, tracefs and fio.
# Environment: FIO (fio binary), IO_SECONDS (I/O run time, default 4),
# SHALLOW_IDLE_EXPECTED (the "auto" limit in us, if the table is not known here),
# CONCURRENT_WRITES (rounds of scheduler and nr_requests writes in the
# concurrent writer cases, default 20).

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"

FIO=${FIO:-fio}
IO_SECONDS=${IO_SECONDS:-4}
CONCURRENT_WRITES=${CONCURRENT_WRITES:-20}
CPUS=/sys/devices/system/cpu
NULLB_CFS=/sys/kernel/config/nullb
DEBUGFS=/sys/kernel/debug
TRACEFS=/sys/kernel/tracing
NAME=shallow_idle_selftest
QOS_EVENTS="dev_pm_qos_add_request dev_pm_qos_update_request dev_pm_qos_remove_request"
SI_EVENTS="block_shallow_idle_raise block_shallow_idle_relax block_shallow_idle_free"
NO_CONSTRAINT=2147483647
TMP=$(mktemp -d)
dev=""
extra_devs=""

cleanup() {
	for d in $dev $extra_devs; do
		[ -e "/sys/block/$d/queue/shallow_idle" ] &&
			echo off > "/sys/block/$d/queue/shallow_idle" 2>/dev/null
		if [ -d "$NULLB_CFS/$d" ]; then
			echo 0 > "$NULLB_CFS/$d/power" 2>/dev/null
			rmdir "$NULLB_CFS/$d" 2>/dev/null
		fi
	done
	for e in $QOS_EVENTS cpu_idle; do
		echo 0 > "$TRACEFS/events/power/$e/enable" 2>/dev/null
	done
	for e in $SI_EVENTS; do
		echo 0 > "$TRACEFS/events/block/$e/enable" 2>/dev/null
	done
	echo 0 > "$TRACEFS/events/block/block_rq_complete/enable" 2>/dev/null
	fail_none
	rm -rf "$TMP"
}
trap cleanup EXIT

# ---- helpers -------------------------------------------------------------

skip_all() {
	ktap_skip_all "$@"
	exit "$KSFT_SKIP"
}

# report STATUS DESCRIPTION: one TAP result from a command's exit status
report() {
	if [ "$1" = 0 ]; then
		ktap_test_pass "$2"
	else
		ktap_test_fail "$2"
	fi
}

# run_case DESCRIPTION FUNCTION: the function's exit status is the result;
# it may print diagnostics with ktap_print_msg. Exit status 4: skipped,
# with the reason in $skip_why.
run_case() {
	skip_why=""
	"$2"
	r=$?
	if [ $r = 4 ]; then
		ktap_test_skip "$1 ($skip_why)"
	else
		report $r "$1"
	fi
}

attr() { echo "/sys/block/${1:-$dev}/queue/shallow_idle"; }

# write_attr VALUE [DEV]: write VALUE without adding a newline; fails like write(2)
write_attr() { printf '%s' "$1" > "$(attr "$2")" 2>/dev/null; }

# make_nullb NAME KEY=VALUE...: a powered-on null_blk device
make_nullb() {
	n=$1
	shift
	mkdir "$NULLB_CFS/$n" || return 1
	for kv in "$@"; do
		echo "${kv#*=}" > "$NULLB_CFS/$n/${kv%%=*}" || return 1
	done
	echo 1 > "$NULLB_CFS/$n/power"
}

del_nullb() {
	echo 0 > "$NULLB_CFS/$1/power" && rmdir "$NULLB_CFS/$1"
}

# The state table of CPU $1 as "NAME:LATENCY ..."
table_signature() {
	for s in "$CPUS/cpu$1"/cpuidle/state*; do
		[ -d "$s" ] && printf '%s:%s ' "$(cat "$s/name")" "$(cat "$s/latency")"
	done
}

# The "auto" limit of CPU $1: known tables, else $SHALLOW_IDLE_EXPECTED.
expected_limit() {
	case $(table_signature "$1") in
	"POLL:0 C1:1 C1E:2 C6:290 ") echo 289 ;;
	"POLL:0 C1:2 C1E:10 C6:133 ") echo 132 ;;
	"POLL:0 C1:1 C1E:4 C6:170 ") echo 169 ;;
	"POLL:0 C1:1 C2:400 ") echo 399 ;;
	*) echo "${SHALLOW_IDLE_EXPECTED:-}" ;;
	esac
}

# idle_usage CPU LIMIT: "<usage of states deeper than LIMIT> <usage of
# non-polling states within LIMIT>"
idle_usage() {
	deep=0
	shallow=0
	for s in "$CPUS/cpu$1"/cpuidle/state*; do
		[ -d "$s" ] || continue
		[ "$(cat "$s/name")" = POLL ] && continue
		if [ "$(cat "$s/latency")" -gt "$2" ]; then
			deep=$((deep + $(cat "$s/usage")))
		else
			shallow=$((shallow + $(cat "$s/usage")))
		fi
	done
	echo "$deep $shallow"
}

has_deep_state() {
	for s in "$CPUS/cpu$1"/cpuidle/state*; do
		[ -d "$s" ] && [ "$(cat "$s/latency")" -gt "$2" ] && return 0
	done
	return 1
}

# Hardware queues the policy applies to: all but polled ones. Fails, with
# a message, when there is none: a loop over nothing proves nothing.
hctx_dirs() {
	found=0
	for h in "$DEBUGFS/block/${1:-$dev}"/hctx*; do
		if [ -d "$h" ] && [ "$(cat "$h/type")" != poll ]; then
			echo "$h"
			found=1
		fi
	done
	[ $found = 1 ] && return 0
	ktap_print_msg "no hardware queue of ${1:-$dev} in debugfs" >&2
	return 1
}

# Show every hctx's state as TAP diagnostics.
dump_hctxs() {
	for h in $(hctx_dirs "$1"); do
		ktap_print_msg "$(basename "$h"): $(tr '\n' ' ' < "$h/shallow_idle")"
	done
}

# hctx_field HCTXDIR KEY: value of KEY=... in the hctx's shallow_idle
hctx_field() {
	tr ' ' '\n' < "$1/shallow_idle" | sed -n "s/^$2=//p"
}

# snap_field SNAPSHOT KEY: the same from a saved copy of that file
snap_field() {
	tr ' ' '\n' < "$1" | sed -n "s/^$2=//p"
}

hctx_cpus() {
	tr ' ' '\n' < "$1/shallow_idle" | sed -n 's/^cpu\([0-9]*\)=.*/\1/p'
}

# any_raised [DEV]: some hctx of DEV is raised now
any_raised() {
	for h in $(hctx_dirs "$1"); do
		[ "$(hctx_field "$h" raised)" = 1 ] && return 0
	done
	return 1
}

# raised_once [DEV]: DEV's hctxs were raised at least once
raised_once() {
	[ "$(sum_field raises "$1")" -gt 0 ]
}

# all_relaxed [DEV]: no hctx raised and every CPU at "none"
all_relaxed() {
	hs=$(hctx_dirs "$1") || return 1
	for h in $hs; do
		[ "$(hctx_field "$h" raised)" = 0 ] || return 1
		for c in $(hctx_cpus "$h"); do
			[ "$(hctx_field "$h" "cpu$c")" = none ] || return 1
		done
	done
	return 0
}

# sum_field KEY [DEV]: KEY summed over the hctxs
sum_field() {
	t=0
	for h in $(hctx_dirs "$2"); do
		t=$((t + $(hctx_field "$h" "$1")))
	done
	echo $t
}

trace_count() { # EVENT CPU [VALUE]
	if [ -n "$3" ]; then
		grep -c "$1: device=cpu$2 .*new_value=$3\$" "$TRACEFS/trace"
	else
		grep -c "$1: device=cpu$2 " "$TRACEFS/trace"
	fi
}

all_cpus() { ls -d "$CPUS"/cpu[0-9]* | sed 's/.*cpu//'; }

# Every request added on any CPU was removed again.
requests_balanced() {
	for c in $(all_cpus); do
		a=$(trace_count dev_pm_qos_add_request "$c")
		r=$(trace_count dev_pm_qos_remove_request "$c")
		if [ "$a" != "$r" ]; then
			ktap_print_msg "cpu$c: $a requests added, $r removed"
			return 1
		fi
	done
	return 0
}

# Time since boot in centiseconds (busybox date has no %N).
uptime_cs() {
	read -r u _ < /proc/uptime
	echo "${u%.*}${u#*.}"
}

trace_reset() {
	echo > "$TRACEFS/trace"
}

run_io() { # SECONDS [DEV]
	"$FIO" --name=shallow_idle --filename="/dev/${2:-$dev}" --direct=1 --rw=randread \
		--bs=4k --ioengine=psync --iodepth=1 --numjobs=2 \
		--time_based --runtime="$1" --output=/dev/null
}

# raised_io SECONDS WHAT: start run_io SECONDS in the background ($fio_pid)
# and wait until some hctx of $dev is raised; if none is within 2 s, say
# it was not raised before WHAT, stop fio and fail.
raised_io() {
	run_io "$1" 2>/dev/null &
	fio_pid=$!
	wait_for 2 any_raised && return 0
	ktap_print_msg "not raised before $2"
	kill $fio_pid
	wait $fio_pid
	return 1
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds
wait_for() {
	w=$(($1 * 10))
	shift
	while [ $w -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		w=$((w - 1))
	done
	"$@"
}

# deep_shallow_entries: cpu_idle trace events while each CPU's request held
# a limit, split into states deeper than the limit and shallower ones ("D S").
# An entry within 2 ms of the raise may have been chosen before it.
deep_shallow_entries() {
	idle_args=""
	for cl in $raised_cpus; do
		c=${cl%%:*}
		for st in "$CPUS/cpu$c"/cpuidle/state*; do
			[ -d "$st" ] || continue
			i=${st##*state}
			if [ "$(cat "$st/latency")" -gt "${cl#*:}" ]; then
				idle_args="$idle_args $c:$i:deep"
			elif [ "$(cat "$st/name")" != POLL ]; then
				idle_args="$idle_args $c:$i:shallow"
			fi
		done
	done
	awk -v states="$idle_args" -v none="$NO_CONSTRAINT" -v all="$1" '
	BEGIN {
		n = split(states, a, " ")
		for (i = 1; i <= n; i++) {
			split(a[i], f, ":")
			kind[f[1] ":" f[2]] = f[3]
		}
	}
	{
		ts = ""
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1); break }
		if (ts == "")
			next
	}
	/dev_pm_qos_(add|update)_request: device=cpu/ {
		match($0, /device=cpu[0-9]+/); c = substr($0, RSTART + 10, RLENGTH - 10)
		match($0, /new_value=[0-9-]+/); v = substr($0, RSTART + 10, RLENGTH - 10)
		raised[c] = (v != none); since[c] = ts
	}
	/dev_pm_qos_remove_request: device=cpu/ {
		match($0, /device=cpu[0-9]+/); c = substr($0, RSTART + 10, RLENGTH - 10)
		raised[c] = 0
	}
	/cpu_idle: state=/ {
		match($0, /state=[0-9]+/); s = substr($0, RSTART + 6, RLENGTH - 6)
		match($0, /cpu_id=[0-9]+/); c = substr($0, RSTART + 7, RLENGTH - 7)
		if (!((c ":" s) in kind))
			next
		if (!all && (!raised[c] || ts - since[c] < 0.002))
			next
		if (kind[c ":" s] == "deep")
			deep++
		else
			shallow++
	}
	END { print deep + 0, shallow + 0 }' "$TRACEFS/trace"
}

# ---- the cases -----------------------------------------------------------

# The attribute exists and is off by default.
t_default_off() {
	mode=$(cat "$(attr)")
	[ "$mode" = off ] || { ktap_print_msg "read \"$mode\""; return 1; }
}

# An invalid input ($bad_file, written with cat: one write(2) per 4 KiB)
# fails with EINVAL and leaves the mode set before it ($bad_before; the
# cases rotate over 25, auto, 1000000 and off).
t_bad_input() {
	write_attr "$bad_before" ||
		{ ktap_print_msg "cannot set $bad_before first"; return 1; }
	if cat "$bad_file" > "$(attr)" 2> "$TMP/err"; then
		ktap_print_msg "accepted"
		return 1
	fi
	# cat's "write error: <strerror>", its last line.
	err=$(sed -n '$s/.*: //p' "$TMP/err")
	[ "$err" = "Invalid argument" ] ||
		{ ktap_print_msg "failed with \"$err\", not EINVAL"; return 1; }
	mode=$(cat "$(attr)")
	[ "$mode" = "$bad_before" ] ||
		{ ktap_print_msg "$bad_before became $mode"; return 1; }
}

# Every valid form is accepted, with and without a newline, and reads back
# in its canonical form (leading zeros are decimal digits).
t_valid_inputs() {
	ok=0
	for v in off auto 1 7 25 1000000 "1000000
" "auto
" "off
" "3
" 0010:10; do
		case $v in
		*:*) want=${v#*:} v=${v%:*} ;;
		*) want=$(printf '%s' "$v" | tr -d '\n') ;;
		esac
		if ! write_attr "$v" || [ "$(cat "$(attr)")" != "$want" ]; then
			ktap_print_msg "valid input '$v' not accepted as $want"
			ok=1
		fi
	done
	return $ok
}

# Writing the mode in force again succeeds and changes nothing.
t_same_mode() {
	write_attr auto && write_attr auto && write_attr auto &&
		[ "$(cat "$(attr)")" = auto ] && write_attr off
}

# nobody_write: write "auto" as user nobody, its shell's errors in
# $TMP/err; exit status 2 if no tool here can switch users.
nobody_write() {
	cmd="echo auto > $(attr)"
	if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "$cmd" 2> "$TMP/err"
	elif chpst -u 65534:65534 true 2>/dev/null; then
		chpst -u 65534:65534 sh -c "$cmd" 2> "$TMP/err"
	elif su -s /bin/sh nobody -c true 2>/dev/null; then
		su -s /bin/sh nobody -c "$cmd" 2> "$TMP/err"
	else
		return 2
	fi
}

# An unprivileged write is refused (EACCES, at open) and changes nothing.
t_unprivileged() {
	write_attr off
	nobody_write
	rc=$?
	if [ $rc = 2 ]; then
		skip_why="no setpriv, chpst or su"
		return 4
	fi
	err=$(sed -n '$s/.*: //p' "$TMP/err")
	[ $rc != 0 ] || { ktap_print_msg "accepted"; return 1; }
	[ "$err" = "Permission denied" ] ||
		{ ktap_print_msg "failed with \"$err\", not EACCES"; return 1; }
	[ "$(cat "$(attr)")" = off ]
}

# "auto" enables every hctx, and an idle queue raises nothing.
t_enabled_idle() {
	write_attr auto || return 1
	hs=$(hctx_dirs) || return 1
	for h in $hs; do
		[ "$(hctx_field "$h" mode)" = auto ] || { dump_hctxs; return 1; }
	done
	sleep 0.2
	all_relaxed || { dump_hctxs; return 1; }
}

# Control: with the attribute off, the same I/O makes the CPUs enter
# states deeper than the limit (else "no deep state while raised" would
# prove nothing).
t_control_deep() {
	[ -n "$limit0" ] || { skip_why="auto limit unknown: set SHALLOW_IDLE_EXPECTED"; return 4; }
	has_deep_state 0 "$limit0" || { skip_why="no state deeper than $limit0 us"; return 4; }
	write_attr off || return 1
	d0=0
	for c in $(all_cpus); do
		d0=$((d0 + $(idle_usage "$c" "$limit0" | cut -d' ' -f1)))
	done
	run_io "$IO_SECONDS"
	d1=0
	for c in $(all_cpus); do
		d1=$((d1 + $(idle_usage "$c" "$limit0" | cut -d' ' -f1)))
	done
	ktap_print_msg "attribute off: $((d1 - d0)) deep entries during ${IO_SECONDS} s of I/O"
	[ $((d1 - d0)) -gt 0 ]
}

# With "auto" and a stream of I/O, debugfs shows every raised hctx with
# the table's limit on the CPUs it holds and no other value on any CPU.
# Runs the I/O the next cases read.
t_raised_limit() {
	write_attr auto || return 1
	trace_reset
	echo 1 > "$TRACEFS/events/power/cpu_idle/enable"
	run_io "$IO_SECONDS" &
	fio_pid=$!
	# One read per snapshot: the work item may relax at any time.
	snaps=$TMP/snaps
	rm -rf "$snaps"
	mkdir "$snaps"
	n=0
	while kill -0 $fio_pid 2>/dev/null; do
		for h in $(hctx_dirs); do
			cp "$h/shallow_idle" "$snaps/$(basename "$h").$n" 2>/dev/null
		done
		n=$((n + 1))
		sleep 0.2
	done
	wait $fio_pid
	echo 0 > "$TRACEFS/events/power/cpu_idle/enable"

	ok=0
	seen=0
	held=0
	for f in "$snaps"/*; do
		[ -f "$f" ] && [ "$(snap_field "$f" raised)" = 1 ] || continue
		seen=$((seen + 1))
		for c in $(sed -n 's/^cpu\([0-9]*\)=.*/\1/p' "$f"); do
			lim=$(expected_limit "$c")
			got=$(snap_field "$f" "cpu$c")
			# CPUs that took no part in the I/O hold nothing.
			[ "$got" = none ] && continue
			held=$((held + 1))
			if [ "$got" != "${lim:-none}" ]; then
				ktap_print_msg "$(basename "$f") cpu$c: limit $got," \
					"expected ${lim:-none}"
				ok=1
			fi
		done
	done
	ktap_print_msg "$seen raised of $(ls "$snaps" | wc -l) snapshots, $held CPU limits in them"
	[ $seen -gt 0 ] || { ktap_print_msg "no raised hctx in $n rounds of snapshots"; ok=1; }
	[ -z "$limit0" ] || [ $held -gt 0 ] ||
		{ ktap_print_msg "no CPU held a limit in a raised snapshot"; ok=1; }
	return $ok
}

# The dev_pm_qos trace events: every limit set on a CPU is the table's.
t_trace_limit() {
	ok=0
	raised_cpus=""
	for c in $(all_cpus); do
		vals=$(grep -E "dev_pm_qos_(add|update)_request: device=cpu$c " "$TRACEFS/trace" |
			sed 's/.*new_value=//' | grep -v "^$NO_CONSTRAINT\$" | sort -u)
		[ -n "$vals" ] || continue
		lim=$(expected_limit "$c")
		if [ "$vals" != "$lim" ]; then
			ktap_print_msg "cpu$c: limits $vals in the trace, expected $lim"
			ok=1
		fi
		raised_cpus="$raised_cpus $c:$lim"
	done
	ktap_print_msg "raised:$raised_cpus"
	[ -n "$raised_cpus" ] || { ktap_print_msg "no limit in the trace"; ok=1; }
	return $ok
}

# devno DEV: MAJ,MIN of DEV, as the block trace events print it.
devno() {
	tr : , < "/sys/block/$1/dev"
}

# The block trace events name the device (MAJ,MIN) and the hctx.
t_block_events() {
	d=$(devno "$dev")
	r=$(grep -c "block_shallow_idle_raise: $d hctx[0-9]* cpus=[0-9]* limit=" "$TRACEFS/trace")
	x=$(grep -c "block_shallow_idle_relax: $d hctx[0-9]* cpus=[0-9]*" "$TRACEFS/trace")
	ktap_print_msg "$r raise and $x relax events for $dev ($d)"
	[ "$r" -gt 0 ] && [ "$x" -gt 0 ]
}

# While a CPU's request holds its limit, it enters no deeper state, and
# some shallower one.
t_no_deep_raised() {
	[ -n "$raised_cpus" ] || return 1
	grep -q 'cpu_idle: state=' "$TRACEFS/trace" || { skip_why="no cpu_idle events"; return 4; }
	if [ -z "$limit0" ] || ! has_deep_state 0 "$limit0"; then
		skip_why="no state deeper than the limit"
		return 4
	fi
	set -- $(deep_shallow_entries 0)
	ktap_print_msg "$1 deep, $2 shallow entries while raised"
	[ "$1" = 0 ] && [ "$2" -gt 0 ]
}

# Once I/O stops, the limits are relaxed within a second.
t_relaxed() {
	wait_for 1 all_relaxed || { dump_hctxs; return 1; }
}

# Once relaxed, every CPU uses deep states again (each CPU on its own: one
# CPU left constrained must fail). Each CPU is woken every 0.1 s, since one
# that sleeps in a single deep state for the whole wait adds no entry.
t_deep_again() {
	if [ -z "$limit0" ] || ! has_deep_state 0 "$limit0"; then
		skip_why="no state deeper than the limit"
		return 4
	fi
	command -v taskset > /dev/null || { skip_why="no taskset"; return 4; }
	before=""
	for c in $(all_cpus); do
		[ -d "$CPUS/cpu$c/cpuidle" ] || continue
		before="$before $c:$(idle_usage "$c" "$limit0" | cut -d' ' -f1)"
	done
	[ -n "$before" ] || { ktap_print_msg "no CPU with cpuidle"; return 1; }
	n=0
	while [ $n -lt 20 ]; do
		for cd in $before; do
			taskset -c "${cd%%:*}" true
		done
		sleep 0.1
		n=$((n + 1))
	done
	stuck=""
	for cd in $before; do
		c=${cd%%:*}
		d1=$(idle_usage "$c" "$limit0" | cut -d' ' -f1)
		[ "$d1" -gt "${cd#*:}" ] || stuck="$stuck $c"
	done
	[ -z "$stuck" ] && return 0
	ktap_print_msg "no deep entry after the relax on CPU$stuck"
	return 1
}

# I/O sparser than the hold period (one read every 50 ms) raises nothing.
t_sparse() {
	write_attr auto || return 1
	sleep 0.1
	r0=$(sum_field raises)
	t0=$(grep -c 'block_shallow_idle_raise: ' "$TRACEFS/trace")
	i=0
	while [ $i -lt 20 ]; do
		dd if="/dev/$dev" of=/dev/null bs=4k count=1 skip=$i \
			iflag=direct 2>/dev/null || return 1
		sleep 0.05
		i=$((i + 1))
	done
	r1=$(sum_field raises)
	m=$(sum_field misses)
	ktap_print_msg "raises $r0 -> $r1 over 20 reads 50 ms apart ($m misses)"
	t1=$(grep -c 'block_shallow_idle_raise: ' "$TRACEFS/trace")
	[ "$r1" = "$r0" ] && [ "$t1" = "$t0" ]
}

# first_times MAJ,MIN: "RAISE COMPLETE", the trace times in us of the first
# block_shallow_idle_raise and of the first block_rq_complete of MAJ,MIN
# (0 when missing)
first_times() {
	awk -v n="$1" '
	function us(i) { return int(substr($i, 1, length($i) - 1) * 1000000) }
	{
		for (i = 1; i < NF - 1; i++) {
			if ($i ~ /^[0-9]+\.[0-9]+:$/)
				break
		}
		if (!r && $(i + 1) == "block_shallow_idle_raise:" && $(i + 2) == n)
			r = us(i)
		if (!c && $(i + 1) == "block_rq_complete:" && $(i + 2) == n)
			c = us(i)
	}
	END { print r + 0, c + 0 }
	' "$TRACEFS/trace"
}

# Requests stuck in flight (completions after 3 s) raise nothing: only
# completions count, so four reads that go in one io_submit and stay in
# the device start no busy period before the first of them completes. The
# verdict comes from the trace (raise and completion times), not from
# polling, which a slow debug guest does only every second or so.
t_stall() {
	ev=$TRACEFS/events/block/block_rq_complete/enable
	make_nullb shallow_idle_stall submit_queues=1 irqmode=2 \
		completion_nsec=3000000000 size=64 || return 1
	extra_devs="$extra_devs shallow_idle_stall"
	write_attr auto shallow_idle_stall || return 1
	devno=$(tr : , < /sys/block/shallow_idle_stall/dev)
	ok=1
	if ! echo 1 > "$ev"; then
		ktap_print_msg "cannot enable block:block_rq_complete"
	elif ! "$FIO" --name=stall --filename=/dev/shallow_idle_stall --direct=1 \
		--rw=randread --bs=4k --ioengine=libaio --iodepth=4 \
		--iodepth_batch_submit=4 --io_size=16k --output=/dev/null; then
		ktap_print_msg "fio failed"
	else
		read -r r c <<-EOF
		$(first_times "$devno")
		EOF
		if [ "$c" = 0 ]; then
			ktap_print_msg "no completion of $devno traced"
		elif [ "$r" != 0 ] && [ "$r" -lt "$c" ]; then
			ktap_print_msg "raised $(((c - r) / 1000)) ms before the" \
				"first completion"
		else
			ok=0
			ktap_print_msg "first raise at ${r} us, first completion at ${c} us"
		fi
	fi
	echo 0 > "$ev"
	[ $ok = 0 ] || dump_hctxs shallow_idle_stall
	write_attr off shallow_idle_stall
	del_nullb shallow_idle_stall
	extra_devs=$(echo "$extra_devs" | sed 's/ shallow_idle_stall//')
	return $ok
}

# On a single-queue device (one hctx for every CPU), a stream submitted and
# completed on one CPU raises that CPU only: the PM QoS trace shows no
# limit on any other CPU while it runs.
t_single_queue() {
	[ -n "$limit0" ] || { skip_why="auto limit unknown: set SHALLOW_IDLE_EXPECTED"; return 4; }
	last=$(all_cpus | sort -n | tail -n 1)
	[ "$last" != 0 ] || { skip_why="one CPU"; return 4; }
	make_nullb shallow_idle_sq submit_queues=1 irqmode=2 completion_nsec=20000 \
		size=64 || return 1
	extra_devs="$extra_devs shallow_idle_sq"
	ok=1
	n0=$(wc -l < "$TRACEFS/trace")
	if ! write_attr auto shallow_idle_sq; then
		ktap_print_msg "cannot enable shallow_idle_sq"
	elif ! "$FIO" --name=sq --filename=/dev/shallow_idle_sq --direct=1 \
		--rw=randread --bs=4k --ioengine=psync --numjobs=1 \
		--cpus_allowed="$last" --time_based --runtime=2 \
		--output=/dev/null; then
		ktap_print_msg "fio failed"
	else
		ok=0
		tail -n +"$((n0 + 1))" "$TRACEFS/trace" > "$TMP/sq.trace"
		for c in $(all_cpus); do
			v=$(grep -E "dev_pm_qos_(add|update)_request: device=cpu$c " \
				"$TMP/sq.trace" | grep -vc "new_value=$NO_CONSTRAINT\$")
			ktap_print_msg "cpu$c: $v limits set"
			if [ "$c" = "$last" ]; then
				[ "$v" -gt 0 ] || ok=1
			else
				[ "$v" = 0 ] || ok=1
			fi
		done
	fi
	[ $ok = 0 ] || dump_hctxs shallow_idle_sq
	write_attr off shallow_idle_sq
	del_nullb shallow_idle_sq
	extra_devs=$(echo "$extra_devs" | sed 's/ shallow_idle_sq//')
	return $ok
}

# A relaxed CPU that is idle is woken, so that it can pick a deep state
# now rather than at its next event (a CPU in C1E with its tick stopped
# may sleep for seconds). A stream on the last CPU of a single-queue device
# raises that CPU alone; the work item runs elsewhere (the last CPU is
# taken out of the unbound workqueue cpumask, and this shell with it), so
# that the CPU is idle when it is relaxed. The work item that relaxes it
# must send it a wake-up (a reschedule IPI, or none if it polls) between
# its PM QoS update and the relax event. A CPU that happens to be busy
# needs no wake-up: up to 5 tries, each with a fresh stream.
t_relax_wakes() {
	last=$(all_cpus | sort -n | tail -n 1)
	[ "$last" != 0 ] || { skip_why="one CPU"; return 4; }
	wq=/sys/devices/virtual/workqueue/cpumask
	[ -w "$wq" ] || { ktap_print_msg "no $wq"; return 1; }
	for e in ipi/ipi_send_cpu sched/sched_wake_idle_without_ipi; do
		[ -d "$TRACEFS/events/$e" ] ||
			{ ktap_print_msg "no trace event $e"; return 1; }
	done
	make_nullb shallow_idle_wk submit_queues=1 irqmode=2 completion_nsec=20000 \
		size=64 || return 1
	extra_devs="$extra_devs shallow_idle_wk"
	d=$(devno shallow_idle_wk)
	wq0=$(cat "$wq")
	aff0=$(taskset -p $$ | sed 's/.*: //')
	others=$(all_cpus | grep -vx "$last" | tr '\n' , | sed 's/,$//')
	ok=1
	if ! taskset -p -c "$others" $$ > /dev/null ||
	   ! mask_without "$wq0" "$last" > "$wq"; then
		ktap_print_msg "cannot keep the unbound workqueues off cpu$last"
	elif ! write_attr auto shallow_idle_wk; then
		ktap_print_msg "cannot enable shallow_idle_wk"
	else
		for e in ipi/ipi_send_cpu sched/sched_wake_idle_without_ipi power/cpu_idle; do
			cat "$TRACEFS/events/$e/enable" > "$TMP/wk.$(basename $e)"
			echo 1 > "$TRACEFS/events/$e/enable"
		done
		# The job sleeps 300 ms after every 64 reads, so that its busy
		# periods end while cpu$last is idle: an exiting fio keeps it
		# busy for 100 ms and more on a debug kernel, and a relax that
		# finds the CPU busy rightly wakes nothing.
		for try in 1 2 3 4 5; do
			n0=$(wc -l < "$TRACEFS/trace")
			r0=$(sum_field relaxes shallow_idle_wk)
			"$FIO" --name=wk --filename=/dev/shallow_idle_wk --direct=1 \
				--rw=randread --bs=4k --ioengine=psync --numjobs=1 \
				--cpus_allowed="$last" --thinktime=300000 \
				--thinktime_blocks=64 --time_based --runtime=2 \
				--output=/dev/null || { ktap_print_msg "fio failed"; break; }
			wait_for 2 relaxed_since "$r0" shallow_idle_wk ||
				{ ktap_print_msg "not relaxed within 2 s"; break; }
			tail -n +"$((n0 + 1))" "$TRACEFS/trace" > "$TMP/wk.trace"
			res=$(relax_wakes "$TMP/wk.trace" "$d" "$last")
			ktap_print_msg "try $try: relaxes of cpu$last: $res"
			case " $res" in *" woken"*) ok=0; break ;; esac
		done
		for e in ipi/ipi_send_cpu sched/sched_wake_idle_without_ipi power/cpu_idle; do
			cat "$TMP/wk.$(basename $e)" > "$TRACEFS/events/$e/enable"
		done
	fi
	echo "$wq0" > "$wq"
	taskset -p "$aff0" $$ > /dev/null
	write_attr off shallow_idle_wk
	del_nullb shallow_idle_wk
	extra_devs=$(echo "$extra_devs" | sed 's/ shallow_idle_wk//')
	return $ok
}

# relaxed_since N [DEV]: DEV's busy periods ended more than N times
relaxed_since() {
	[ "$(sum_field relaxes "$2")" -gt "$1" ]
}

# mask_without HEXMASK CPU: the cpumask HEXMASK (32-bit words separated by
# commas, as sysfs shows them) without CPU
mask_without() {
	n=$(echo "$1" | tr , ' ' | wc -w)
	k=$((n - 1 - $2 / 32))
	out=""
	for w in $(echo "$1" | tr , ' '); do
		[ "$k" = 0 ] && w=$(printf '%08x' $((0x$w & ~(1 << ($2 % 32)))))
		out="$out${out:+,}$w"
		k=$((k - 1))
	done
	echo "$out"
}

# relax_wakes TRACE MAJ,MIN CPU: for each relax event of device MAJ,MIN in
# TRACE whose task set CPU's request to "no constraint" before it, "woken"
# if that task sent CPU a wake-up in between, else "not-woken"; with the
# first idle state CPU entered after it ("woken(C6)").
relax_wakes() {
	awk -v dev="$2" -v cpu="$3" -v none="$NO_CONSTRAINT" '
	/dev_pm_qos_(update|remove)_request: device=cpu/ && $0 ~ ("device=cpu" cpu " ") &&
	    $0 ~ ("new_value=" none "$") { pend[$1] = 1; woke[$1] = 0; next }
	(/ipi_send_cpu: cpu=/ || /sched_wake_idle_without_ipi: cpu=/) &&
	    $0 ~ (": cpu=" cpu "( |$)") { if (pend[$1]) woke[$1] = 1; next }
	/block_shallow_idle_relax: / && $0 ~ ("relax: " dev " ") {
		if (!pend[$1]) next
		if (woke[$1]) { out = out " woken"; want = 1 } else out = out " not-woken"
		pend[$1] = 0; next
	}
	want && /cpu_idle: state=/ && $0 ~ ("cpu_id=" cpu "$") && $0 !~ /state=4294967295/ {
		match($0, /state=[0-9]+/)
		out = out "(state" substr($0, RSTART + 6, RLENGTH - 6) ")"
		want = 0
	}
	END { print (out == "" ? "none seen" : substr(out, 2)) }' "$1"
}

# concurrent_writers DEV...: one writer cycles shallow_idle of every
# DEV (auto, off, 50) until the other one is done; that one makes
# CONCURRENT_WRITES rounds of scheduler writes (mq-deadline, none) and
# nr_requests writes (16, 32) under each scheduler to every DEV. No write
# of a valid value may fail.
concurrent_writers() {
	errs=$TMP/cw.errs
	done_flag=$TMP/cw.done
	: > "$errs"
	rm -f "$done_flag"
	(
		n=0
		while [ ! -e "$done_flag" ] && [ $n -lt 100000 ]; do
			for d in "$@"; do
				for v in auto off 50; do
					write_attr $v "$d" ||
						echo "shallow_idle=$v $d" >> "$errs"
					n=$((n + 1))
				done
			done
		done
		echo $n > "$TMP/cw.qos"
	) &
	qos_pid=$!
	i=0
	while [ $i -lt "$CONCURRENT_WRITES" ]; do
		for d in "$@"; do
			for s in mq-deadline none; do
				echo $s > "/sys/block/$d/queue/scheduler" 2>/dev/null ||
					echo "scheduler=$s $d" >> "$errs"
				for nr in 16 32; do
					echo $nr > "/sys/block/$d/queue/nr_requests" 2>/dev/null ||
						echo "nr_requests=$nr ($s) $d" >> "$errs"
				done
			done
		done
		i=$((i + 1))
	done
	touch "$done_flag"
	wait $qos_pid
	n=$(wc -l < "$errs")
	ktap_print_msg "$(cat "$TMP/cw.qos") shallow_idle writes," \
		"$((i * $# * 6)) scheduler and nr_requests writes, $n failed"
	[ "$n" = 0 ] || ktap_print_msg "first failures: $(head -3 "$errs" | tr '\n' ';')"
	for d in "$@"; do
		write_attr off "$d"
	done
	[ "$n" = 0 ]
}

# Devices sharing one tag set (null_blk shared_tags, as NVMe namespaces
# share their controller's): writes of shallow_idle to one never make
# scheduler or nr_requests writes to another fail, nor the other way.
t_concurrent_shared() {
	if ! grep -q mq-deadline "/sys/block/$dev/queue/scheduler"; then
		skip_why="no mq-deadline"
		return 4
	fi
	for d in shallow_idle_sh0 shallow_idle_sh1; do
		make_nullb $d shared_tags=1 size=64 || return 1
		extra_devs="$extra_devs $d"
	done
	concurrent_writers shallow_idle_sh0 shallow_idle_sh1
	r=$?
	del_nullb shallow_idle_sh0
	del_nullb shallow_idle_sh1
	extra_devs=$(echo "$extra_devs" | sed 's/ shallow_idle_sh0 shallow_idle_sh1//')
	return $r
}

# The same on one device with its own tag set, under I/O.
t_concurrent_own() {
	if ! grep -q mq-deadline "/sys/block/$dev/queue/scheduler"; then
		skip_why="no mq-deadline"
		return 4
	fi
	run_io 30 &
	fio_pid=$!
	concurrent_writers "$dev"
	r=$?
	kill $fio_pid 2>/dev/null
	wait $fio_pid 2>/dev/null
	echo none > "/sys/block/$dev/queue/scheduler"
	return $r
}

# Writing "off" removes every request that was added.
t_off_removes() {
	write_attr auto && run_io 1 && write_attr off || return 1
	for h in $(hctx_dirs); do
		[ "$(hctx_field "$h" mode)" = off ] || { dump_hctxs; return 1; }
	done
	requests_balanced
}

# Deleting the device while its hctxs are raised and I/O runs removes
# every request.
t_delete_raised() {
	write_attr 5 || return 1
	raised_io 5 "the deletion" || return 1
	del_nullb "$dev" || return 1
	dev=""
	wait $fio_pid 2>/dev/null
	sleep 0.5
	requests_balanced
}

# Turning the attribute off while the hctxs are raised under I/O frees
# their state, and each free is a block_shallow_idle_free event of the
# device with the CPUs it still held (counted in the trace lines after the
# write: other cases freed state of this device too).
t_free_traced() {
	d=$(devno "$dev")
	# A gap in the I/O longer than the hold may relax the CPUs between the
	# raise and the write: up to 10 tries, each with a fresh stream.
	for try in 1 2 3 4 5 6 7 8 9 10; do
		write_attr auto || return 1
		raised_io 20 "the write" || return 1
		n0=$(wc -l < "$TRACEFS/trace")
		write_attr off
		rc=$?
		kill $fio_pid
		wait $fio_pid
		[ $rc = 0 ] || { ktap_print_msg "writing off failed"; return 1; }
		n=$(tail -n +"$((n0 + 1))" "$TRACEFS/trace" |
			grep -c "block_shallow_idle_free: $d hctx[0-9]* cpus=[1-9]")
		[ "$n" -gt 0 ] && break
	done
	ktap_print_msg "$n free events with CPUs held for $d after \"off\" (try $try of 10)"
	[ "$n" -gt 0 ]
}

# The trace saw requests added at all (else "balanced" proves nothing).
t_added() {
	added=0
	for c in $(all_cpus); do
		added=$((added + $(trace_count dev_pm_qos_add_request "$c")))
	done
	ktap_print_msg "$added requests added"
	[ "$added" -gt 0 ]
}

# While raised, the work item runs at most twice per hold period and hctx
# (8 ms plus one jiffy; a busy period that ends at once costs a raise and a
# relax run), however many requests are issued: not once per request. The
# runs are debugfs's count. (The KUnit suite checks the same with a known
# number of requests; here it is the real I/O path, at queue depth 8.)
t_work_rate() {
	write_attr auto || return 1
	w0=$(sum_field runs) || return 1
	read -r r0 _ < "/sys/block/$dev/stat"
	t0=$(uptime_cs)
	"$FIO" --name=shallow_idle --filename="/dev/$dev" --direct=1 --rw=randread \
		--bs=4k --ioengine=libaio --iodepth=8 --numjobs=2 \
		--time_based --runtime=2 --output=/dev/null || return 1
	t1=$(uptime_cs)
	read -r r1 _ < "/sys/block/$dev/stat"
	w=$(($(sum_field runs) - w0))
	ms=$(((t1 - t0) * 10))
	nh=$(hctx_dirs | wc -l)
	max=$((nh * (ms / 4 + 4)))
	ktap_print_msg "$w work item runs for $((r1 - r0)) reads on $nh hctxs" \
		"in $ms ms (at most $max)"
	[ "$nh" -gt 0 ] && [ $((r1 - r0)) -gt 0 ] && [ "$w" -le "$max" ]
}

# ---- allocation failures --------------------------------------------------

FAILSLAB=$DEBUGFS/failslab
failslab_saved=""

# fail_under FUNCTION: the Nth slab allocation that this shell asks to fail
# through /proc/thread-self/fail-nth is counted only among allocations with
# FUNCTION on their stack (failslab's stack trace filter, sleeping
# allocations included), so that the Nth allocation of the series' code
# fails and nothing else does. Exit status 4 ($skip_why) without fault
# injection.
fail_under() {
	if [ ! -e /proc/thread-self/fail-nth ] || [ ! -e "$FAILSLAB/require-start" ]; then
		skip_why="needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_STACKTRACE_FILTER"
		return 4
	fi
	# FUNCTION's address and the next symbol's: its text.
	set -- $(sort /proc/kallsyms | awk -v f="$1" '
		s != "" && $1 != s { print s, $1; exit }
		s == "" && $3 == f { s = $1 }')
	case ${1:-0} in
	*[1-9a-f]*) ;;
	*) ktap_print_msg "no address in /proc/kallsyms"; return 1 ;;
	esac
	failslab_saved=""
	for f in require-start require-end ignore-gfp-wait verbose; do
		failslab_saved="$failslab_saved $(cat "$FAILSLAB/$f")"
	done
	echo "0x$1" > "$FAILSLAB/require-start" &&
		echo "0x$2" > "$FAILSLAB/require-end" &&
		echo N > "$FAILSLAB/ignore-gfp-wait" &&
		echo 0 > "$FAILSLAB/verbose"
}

# fail_none: failslab as fail_under found it.
fail_none() {
	echo 0 > /proc/thread-self/fail-nth 2>/dev/null
	[ -n "$failslab_saved" ] || return 0
	set -- $failslab_saved
	echo "$1" > "$FAILSLAB/require-start"
	echo "$2" > "$FAILSLAB/require-end"
	echo "$3" > "$FAILSLAB/ignore-gfp-wait"
	echo "$4" > "$FAILSLAB/verbose"
	failslab_saved=""
}

# nomem_loop CHECK CMD...: run CMD (a shell function or builtin: the fault
# is this shell's) with its 1st, 2nd, ... allocation under fail_under's
# function failing, until it runs with none left to fail (at most 40
# runs). After each run, CHECK STATUS INJECTED judges it (INJECTED: 1 if
# the allocation did fail). Counts the runs in nomem_runs and the failed
# ones in nomem_failed.
nomem_loop() {
	check=$1
	shift
	nomem_runs=0
	nomem_failed=0
	while [ $nomem_runs -lt 40 ]; do
		nomem_runs=$((nomem_runs + 1))
		echo $nomem_runs > /proc/thread-self/fail-nth
		"$@"
		rc=$?
		read -r left < /proc/thread-self/fail-nth
		echo 0 > /proc/thread-self/fail-nth
		[ $rc = 0 ] || nomem_failed=$((nomem_failed + 1))
		injected=0
		[ "$left" = 0 ] && injected=1
		"$check" $rc $injected || return 1
		[ $injected = 1 ] || return 0
	done
	ktap_print_msg "an allocation still failed at run $nomem_runs"
	return 1
}

# nomem_check_write STATUS INJECTED: the write of $nomem_to over
# $nomem_from failed only for an allocation failure and left $nomem_from
# everywhere, or succeeded and gave every hctx its state for $nomem_to
# (an allocation failure the allocator absorbed, such as kmemleak's own).
# Writes $nomem_from back after a success.
nomem_check_write() {
	want=$nomem_to
	if [ "$1" != 0 ]; then
		[ "$2" = 1 ] ||
			{ ktap_print_msg "write failed, no allocation failed"; return 1; }
		want=$nomem_from
	fi
	got=$(cat "$(attr)")
	[ "$got" = "$want" ] || {
		ktap_print_msg "run $nomem_runs: the attribute reads $got, expected $want"
		return 1
	}
	for h in $(hctx_dirs); do
		if [ "$(hctx_field "$h" mode)" != "$want" ] ||
		   [ -n "$(hctx_field "$h" state)" ]; then
			ktap_print_msg "run $nomem_runs: an hctx is not at $want"
			dump_hctxs
			return 1
		fi
	done
	[ "$1" != 0 ] || write_attr "$nomem_from"
}

# An allocation failure while the mode is written fails the write and
# changes nothing: each allocation the write makes fails in turn
# (failslab, fail-nth), from off to auto and from auto to 50.
t_nomem_write() {
	fail_under blk_shallow_idle_set_mode || return $?
	bad=0
	for pair in off:auto auto:50; do
		nomem_from=${pair%:*}
		nomem_to=${pair#*:}
		write_attr "$nomem_from" || { bad=1; break; }
		nomem_loop nomem_check_write write_attr "$nomem_to" || { bad=1; break; }
		ktap_print_msg "$pair: $nomem_failed of $nomem_runs writes failed"
		# No failed write would mean that no allocation was made to fail.
		[ "$nomem_failed" -gt 0 ] || bad=1
	done
	fail_none
	write_attr off
	return $bad
}

# remap_queues: switch $dev between one and two hardware queues, as a
# controller reset that changes the queue count does
# (blk_mq_update_nr_hw_queues()).
remap_queues() {
	nr_queues=$((3 - nr_queues))
	echo $nr_queues > "$NULLB_CFS/$dev/submit_queues"
}

# nomem_check_remap STATUS INJECTED: the remap succeeded; every hctx has
# its state in "auto" or, only after an allocation failure, shows it
# missing.
nomem_check_remap() {
	[ "$1" = 0 ] || { ktap_print_msg "run $nomem_runs: remap failed"; return 1; }
	n=0
	for h in $(hctx_dirs); do
		if [ "$(hctx_field "$h" state)" = missing ]; then
			n=$((n + 1))
		elif [ "$(hctx_field "$h" mode)" != auto ]; then
			ktap_print_msg "run $nomem_runs: an hctx is neither in auto nor missing"
			dump_hctxs
			return 1
		fi
	done
	if [ $n -gt 0 ]; then
		[ "$2" = 1 ] || { ktap_print_msg "state missing, no allocation failed"; return 1; }
		remaps_missing=$((remaps_missing + 1))
	fi
	return 0
}

# An allocation failure while the hardware queues are remapped under I/O
# leaves that hctx without state ("state=missing" in debugfs) and changes
# nothing else; each allocation of the remap fails in turn. Writing the
# mode again gives every hctx its state back, and every request added
# while raised was removed.
t_nomem_remap() {
	fail_under blk_shallow_idle_remap || return $?
	write_attr auto || return 1
	run_io 60 2>/dev/null &
	fio_pid=$!
	nr_queues=2
	remaps_missing=0
	nomem_loop nomem_check_remap remap_queues
	bad=$?
	fail_none
	kill $fio_pid
	wait $fio_pid
	[ $nr_queues = 2 ] || remap_queues
	ktap_print_msg "$remaps_missing of $nomem_runs remaps left an hctx without state"
	[ $remaps_missing -gt 0 ] || bad=1
	write_attr off && write_attr auto || bad=1
	for h in $(hctx_dirs); do
		[ "$(hctx_field "$h" mode)" = auto ] || { dump_hctxs; bad=1; }
	done
	# requests_balanced sets variables of its own: look at $bad first.
	[ $bad = 0 ] && write_attr off && requests_balanced
}

# ---- setup ---------------------------------------------------------------

[ "$(id -u)" = 0 ] || skip_all "must be run as root"
command -v "$FIO" > /dev/null || skip_all "fio not found"
[ -d "$NULLB_CFS" ] || modprobe null_blk nr_devices=0 2>/dev/null
[ -d "$NULLB_CFS" ] || skip_all "null_blk with configfs not available"
[ -d "$TRACEFS/events/power" ] || mount -t tracefs none "$TRACEFS" 2>/dev/null
[ -d "$TRACEFS/events/power/dev_pm_qos_add_request" ] ||
	skip_all "dev_pm_qos trace events not available"

make_nullb "$NAME" submit_queues=2 irqmode=2 completion_nsec=2000000 \
	size=1024 || skip_all "cannot create a null_blk device"
# A null_blk device made through configfs is named after its directory.
dev=$NAME
[ -e "$(attr)" ] || skip_all "no shallow_idle attribute (CONFIG_BLK_SHALLOW_IDLE)"
limit0=$(expected_limit 0)

# The table of invalid inputs, one per file so that any byte can be
# written (printf formats: \NNN is one byte, so "\0005" is NUL then 5).
# No empty one: the shell issues no write(2) for it and sysfs calls no
# attribute for a zero-length write, so nothing would be tested; the KUnit
# parser case for "" covers the parser. Beyond PAGE_SIZE, sysfs passes the
# attribute 4 KiB at a time: 4096 and more digits fail in the parser.
BAD_INPUTS=$TMP/bad
mkdir "$BAD_INPUTS"
i=0
for v in " " "\n" "\t  \n" "-1" "0" "0\n" "00" "+5" " 5" "1000001" \
	 "2147483647" "2147483648" "4294967295" "4294967296" \
	 "18446744073709551616" "99999999999999999999" "1e3" "0x10" "10us" \
	 "5x" "5 " "5\n\n" "auto x" "auto " "off auto" "autox" "on" "Auto" \
	 "OFF" "AUTO\n" "\001\377" "\0005" "5\0005" "auto\000x"; do
	printf "$v" > "$BAD_INPUTS/$i"
	i=$((i + 1))
done
for n in 4095 4096 4097 8192; do
	head -c $n /dev/zero | tr '\0' 7 > "$BAD_INPUTS/$i"
	i=$((i + 1))
done
nr_bad=$i

echo 8192 > "$TRACEFS/buffer_size_kb"
trace_reset
for e in $QOS_EVENTS; do
	echo 1 > "$TRACEFS/events/power/$e/enable"
done
for e in $SI_EVENTS; do
	echo 1 > "$TRACEFS/events/block/$e/enable" 2>/dev/null
done
echo 1 > "$TRACEFS/tracing_on"

ktap_print_header
ktap_set_plan $((nr_bad + 25))
ktap_print_msg "table of cpu0: $(table_signature 0)-> auto limit ${limit0:-unknown}"

run_case "attribute exists and is off by default" t_default_off
set -- 25 auto 1000000 off
for f in $(ls "$BAD_INPUTS" | sort -n); do
	bad_file=$BAD_INPUTS/$f
	bad_before=$1
	set -- "$@" "$1"
	shift
	desc=$(od -An -c "$bad_file" | head -c 40 | tr -s ' ')
	len=$(wc -c < "$bad_file")
	[ "$len" -le 40 ] ||
		desc="$len bytes:$(head -c 12 "$bad_file" | od -An -c | tr -s ' ')..."
	run_case "invalid input '$desc' rejected (EINVAL) over $bad_before, unchanged" \
		t_bad_input
done
run_case "valid inputs accepted with and without newline" t_valid_inputs
run_case "the mode in force written again succeeds" t_same_mode
run_case "unprivileged write refused, mode unchanged" t_unprivileged
run_case "auto: every hctx enabled, nothing raised while idle" t_enabled_idle
run_case "control: attribute off, the same I/O enters deep states" t_control_deep
run_case "a stream of I/O raises its hctxs to the table's limit (debugfs)" t_raised_limit
run_case "PM QoS trace events show the table's limit on the busy CPUs" t_trace_limit
run_case "no deep state entered while raised" t_no_deep_raised
run_case "relaxed within 1 s after I/O stopped" t_relaxed
run_case "block_shallow_idle trace events name the device and hctx" t_block_events
run_case "every CPU uses deep states again after I/O" t_deep_again
run_case "I/O sparser than the hold period raises nothing" t_sparse
run_case "requests stuck in flight raise nothing before they complete" t_stall
run_case "a single-queue device raises only the CPU that does its I/O" t_single_queue
run_case "an idle CPU is woken when it is relaxed" t_relax_wakes
run_case "the work item runs at most twice per hold period, not per request" t_work_rate
run_case "concurrent qos/scheduler/nr_requests writes never fail (shared tags)" t_concurrent_shared
run_case "concurrent qos/scheduler/nr_requests writes never fail (own tags, I/O)" t_concurrent_own
run_case "freeing raised state is traced with the CPUs it held" t_free_traced
run_case "an allocation failure in a mode write changes nothing" t_nomem_write
run_case "an allocation failure in a remap leaves only that hctx without state" t_nomem_remap
run_case "off: every request removed (debugfs and trace balanced)" t_off_removes
run_case "deleting a device while raised removes every request" t_delete_raised
run_case "requests were added at all" t_added

ktap_finished
