#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Test the cpu_latency_qos queue attribute (CONFIG_BLK_MQ_CPU_LATENCY) on a
# null_blk device with two hardware queues:
#
#  - the attribute exists and is off by default;
#  - every invalid input fails and leaves the mode unchanged, every valid
#    form is accepted, and an unprivileged write is refused;
#  - with "auto" and I/O in flight, the CPUs of each busy hardware queue get
#    the limit that their cpuidle state table implies (debugfs and the
#    dev_pm_qos trace events), and no CPU of a raised queue enters a state
#    deeper than the limit while a shallower one is still used;
#  - once I/O stops the limits are relaxed within a second and the deep
#    states are used again;
#  - disabling the attribute, and deleting a device whose limits are raised,
#    remove every request that was added.
#
# Needs root, null_blk with configfs, debugfs, tracefs and fio. The idle
# state checks need a cpuidle driver with a state deeper than the limit and
# are skipped without one.
#
# Environment: FIO (fio binary), IO_SECONDS (I/O run time, default 4).

DIR=$(dirname "$0")
. "$DIR/../kselftest/ktap_helpers.sh"

FIO=${FIO:-fio}
IO_SECONDS=${IO_SECONDS:-4}
CPUS=/sys/devices/system/cpu
NULLB_CFS=/sys/kernel/config/nullb
DEBUGFS=/sys/kernel/debug
TRACEFS=/sys/kernel/tracing
NAME=cpulat_selftest
EVENTS="dev_pm_qos_add_request dev_pm_qos_update_request dev_pm_qos_remove_request cpu_idle"
NO_CONSTRAINT=2147483647
TMP=$(mktemp -d)
BAD_INPUTS=$TMP/bad
dev=""

cleanup() {
	if [ -n "$dev" ] && [ -e "/sys/block/$dev/queue/cpu_latency_qos" ]; then
		echo off > "/sys/block/$dev/queue/cpu_latency_qos" 2>/dev/null
	fi
	if [ -d "$NULLB_CFS/$NAME" ]; then
		echo 0 > "$NULLB_CFS/$NAME/power" 2>/dev/null
		rmdir "$NULLB_CFS/$NAME" 2>/dev/null
	fi
	for e in $EVENTS; do
		echo 0 > "$TRACEFS/events/power/$e/enable" 2>/dev/null
	done
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

attr() { echo "/sys/block/$dev/queue/cpu_latency_qos"; }

# write_attr VALUE: write VALUE without adding a newline; fails like write(2)
write_attr() { printf '%s' "$1" > "$(attr)" 2>/dev/null; }

# Limit the kernel should choose for CPU $1 in auto mode, from the sysfs
# state table: the exit latency of "C1E", else of the deepest leading
# non-polling state of at most 15 us, plus 1 us, but below the next state.
# (Flags are not in sysfs; the tables under test have no flagged state of
# 15 us or less.) Prints nothing if the CPU gets no limit.
expected_limit() {
	awk -v dir="$CPUS/cpu$1/cpuidle" '
	BEGIN {
		n = 0
		while (1) {
			f = dir "/state" n "/name"
			if ((getline name < f) <= 0)
				break
			close(f)
			f = dir "/state" n "/latency"
			getline lat[n] < f
			close(f)
			nm[n] = name
			n++
		}
		if (n < 2)
			exit
		a = -1
		for (i = 1; i < n; i++)
			if (nm[i] == "C1E") { a = i; break }
		if (a < 0) {
			for (i = 0; i < n; i++) {
				if (nm[i] == "POLL")
					continue
				if (lat[i] > 15)
					break
				a = i
			}
		}
		if (a < 0)
			exit
		lim = lat[a] + 1
		for (i = a + 1; i < n; i++)
			if (lat[i] - 1 < lim)
				lim = lat[i] - 1
		if (lim < lat[a])
			lim = lat[a]
		print lim
	}'
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

# Hardware queues the policy applies to: all but polled ones.
hctx_dirs() {
	for h in "$DEBUGFS/block/$dev"/hctx*; do
		[ -d "$h" ] && [ "$(cat "$h/type")" != poll ] && echo "$h"
	done
}

# Show every hctx's state as TAP diagnostics.
dump_hctxs() {
	for h in $(hctx_dirs); do
		ktap_print_msg "$(basename "$h"): $(tr '\n' ' ' < "$h/cpu_latency_qos")"
	done
}

# hctx_field HCTXDIR KEY: value of KEY=... in the hctx's cpu_latency_qos
hctx_field() {
	tr ' ' '\n' < "$1/cpu_latency_qos" | sed -n "s/^$2=//p"
}

# snap_field SNAPSHOT KEY: the same from a saved copy of that file
snap_field() {
	tr ' ' '\n' < "$1" | sed -n "s/^$2=//p"
}

hctx_cpus() {
	tr ' ' '\n' < "$1/cpu_latency_qos" | sed -n 's/^cpu\([0-9]*\)=.*/\1/p'
}

trace_count() { # EVENT CPU [VALUE]
	if [ -n "$3" ]; then
		grep -c "$1: device=cpu$2 .*new_value=$3\$" "$TRACEFS/trace"
	else
		grep -c "$1: device=cpu$2 " "$TRACEFS/trace"
	fi
}

# Every request added on any CPU was removed again.
requests_balanced() {
	for c in $(ls -d "$CPUS"/cpu[0-9]* | sed 's/.*cpu//'); do
		a=$(trace_count dev_pm_qos_add_request "$c")
		r=$(trace_count dev_pm_qos_remove_request "$c")
		if [ "$a" != "$r" ]; then
			ktap_print_msg "cpu$c: $a requests added, $r removed"
			return 1
		fi
	done
	return 0
}

run_io() { # SECONDS
	"$FIO" --name=cpulat --filename="/dev/$dev" --direct=1 --rw=randread \
		--bs=4k --ioengine=psync --iodepth=1 --numjobs=2 \
		--time_based --runtime="$1" --output=/dev/null
}

# ---- setup ---------------------------------------------------------------

[ "$(id -u)" = 0 ] || skip_all "must be run as root"
command -v "$FIO" > /dev/null || skip_all "fio not found"
[ -d "$NULLB_CFS" ] || modprobe null_blk nr_devices=0 2>/dev/null
[ -d "$NULLB_CFS" ] || skip_all "null_blk with configfs not available"
[ -d "$TRACEFS/events/power" ] || mount -t tracefs none "$TRACEFS" 2>/dev/null
[ -d "$TRACEFS/events/power/dev_pm_qos_add_request" ] ||
	skip_all "dev_pm_qos trace events not available"

mkdir "$NULLB_CFS/$NAME" || skip_all "cannot create a null_blk device"
cfg="$NULLB_CFS/$NAME"
echo 2 > "$cfg/submit_queues"
echo 2 > "$cfg/irqmode"
echo 2000000 > "$cfg/completion_nsec"
echo 1024 > "$cfg/size"
echo 1 > "$cfg/power" || skip_all "cannot power on the null_blk device"
# A null_blk device made through configfs is named after its directory.
dev=$NAME
[ -e "/sys/block/$dev/queue/cpu_latency_qos" ] ||
	skip_all "no cpu_latency_qos attribute (CONFIG_BLK_MQ_CPU_LATENCY)"

# Invalid inputs, one per file so that any byte can be written.
mkdir "$BAD_INPUTS"
i=0
for v in "" " " "\n" "0" "00" "-1" "+5" " 5" "5 " "5x" "5\n\n" "1e3" "0x10" \
	 "10us" "1000001" "4294967296" "99999999999999999999" "Auto" \
	 "OFF" "AUTO\n" "on" "autox" "off auto" "\001\377" "\0005"; do
	printf "$v" > "$BAD_INPUTS/$i"
	i=$((i + 1))
done
head -c 4096 /dev/zero | tr '\0' 7 > "$BAD_INPUTS/$i"
nr_bad=$((i + 1))

ktap_print_header
ktap_set_plan $((nr_bad + 12))

# ---- attribute -----------------------------------------------------------

mode=$(cat "$(attr)")
[ "$mode" = off ]; report $? "default is off (read \"$mode\")"

write_attr 25
for f in $(ls "$BAD_INPUTS" | sort -n); do
	desc=$(od -An -c "$BAD_INPUTS/$f" | head -c 40 | tr -s ' ')
	if [ ! -s "$BAD_INPUTS/$f" ]; then
		# sysfs completes a zero-length write without calling the
		# attribute: nothing may change.
		cat "$BAD_INPUTS/$f" > "$(attr)"
		[ "$(cat "$(attr)")" = 25 ]
		report $? "empty write changes nothing"
	elif cat "$BAD_INPUTS/$f" > "$(attr)" 2>/dev/null; then
		ktap_test_fail "invalid input '$desc' rejected"
	else
		[ "$(cat "$(attr)")" = 25 ]
		report $? "invalid input '$desc' rejected, mode unchanged"
	fi
done

ok=1
for v in off auto 1 7 1000000 "1000000
" "auto
" "off
" "3
"; do
	want=$(printf '%s' "$v" | tr -d '\n')
	if ! write_attr "$v" || [ "$(cat "$(attr)")" != "$want" ]; then
		ktap_print_msg "valid input '$want' not accepted"
		ok=0
	fi
done
[ $ok = 1 ]; report $? "valid inputs accepted with and without newline"

write_attr off
nobody_write() {
	cmd="echo auto > $(attr)"
	if setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "$cmd" 2>/dev/null
	elif chpst -u 65534:65534 true 2>/dev/null; then
		chpst -u 65534:65534 sh -c "$cmd" 2>/dev/null
	elif su -s /bin/sh nobody -c true 2>/dev/null; then
		su -s /bin/sh nobody -c "$cmd" 2>/dev/null
	else
		return 2
	fi
}
nobody_write
rc=$?
if [ $rc = 2 ]; then
	ktap_test_skip "unprivileged write refused (no setpriv, chpst or su)"
else
	[ $rc != 0 ] && [ "$(cat "$(attr)")" = off ]
	report $? "unprivileged write refused, mode unchanged"
fi

# ---- behaviour under I/O -------------------------------------------------

echo 8192 > "$TRACEFS/buffer_size_kb"
echo > "$TRACEFS/trace"
for e in dev_pm_qos_add_request dev_pm_qos_update_request dev_pm_qos_remove_request; do
	echo 1 > "$TRACEFS/events/power/$e/enable"
done
echo 1 > "$TRACEFS/tracing_on"

write_attr auto
ok=1
for h in $(hctx_dirs); do
	[ "$(hctx_field "$h" mode)" = auto ] || ok=0
	[ "$(hctx_field "$h" raised)" = 0 ] || ok=0
done
[ $ok = 1 ] || dump_hctxs
[ $ok = 1 ]; report $? "auto: every hctx enabled and idle in debugfs"

echo 1 > "$TRACEFS/events/power/cpu_idle/enable"
run_io "$IO_SECONDS" &
fio_pid=$!

# Sample debugfs during the I/O; every snapshot of a raised hctx must show
# the expected limit on each of its CPUs. One read per snapshot: the work
# item may relax the hctx at any time under slow emulation.
snaps=$TMP/snaps
mkdir "$snaps"
n=0
while kill -0 $fio_pid 2>/dev/null; do
	for h in $(hctx_dirs); do
		cp "$h/cpu_latency_qos" "$snaps/$(basename "$h").$n" 2>/dev/null
	done
	n=$((n + 1))
	sleep 0.2
done
wait $fio_pid
echo 0 > "$TRACEFS/events/power/cpu_idle/enable"

ok=1
seen=0
for f in "$snaps"/*; do
	[ "$(snap_field "$f" raised)" = 1 ] || continue
	seen=$((seen + 1))
	for c in $(sed -n 's/^cpu\([0-9]*\)=.*/\1/p' "$f"); do
		lim=$(expected_limit "$c")
		got=$(snap_field "$f" "cpu$c")
		if [ "$got" != "${lim:-none}" ]; then
			ktap_print_msg "$(basename "$f") cpu$c: limit $got, expected ${lim:-none}"
			ok=0
		fi
	done
done
[ $seen -gt 0 ] || { ktap_print_msg "no raised hctx in $n debugfs snapshots"; ok=0; }
[ $ok = 1 ] || dump_hctxs
total=$(ls "$snaps" | wc -l)
[ $ok = 1 ]
report $? "debugfs shows the expected limit on raised hctxs ($seen of $total snapshots)"

# The trace: every limit set on a CPU is the one its state table implies.
ok=1
raised_cpus=""
for c in $(ls -d "$CPUS"/cpu[0-9]* | sed 's/.*cpu//'); do
	vals=$(grep -E "dev_pm_qos_(add|update)_request: device=cpu$c " "$TRACEFS/trace" |
		sed 's/.*new_value=//' | grep -v "^$NO_CONSTRAINT\$" | sort -u)
	[ -n "$vals" ] || continue
	lim=$(expected_limit "$c")
	if [ "$vals" != "$lim" ]; then
		ktap_print_msg "cpu$c: limits $vals in the trace, expected $lim"
		ok=0
	fi
	raised_cpus="$raised_cpus $c:$lim"
done
[ -n "$raised_cpus" ] || { ktap_print_msg "no limit in the trace"; ok=0; }
[ $ok = 1 ]; report $? "trace events show the limit on the CPUs of busy hctxs ($raised_cpus )"

# cpu_idle trace events: while a CPU's request holds its limit, it enters
# no state deeper than the limit, and some shallower one. An idle entry
# within 2 ms of the raise may have been chosen before it.
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
set -- $(awk -v states="$idle_args" -v none="$NO_CONSTRAINT" '
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
		if (!raised[c] || ts - since[c] < 0.002 || !((c ":" s) in kind))
			next
		if (kind[c ":" s] == "deep")
			deep++
		else
			shallow++
	}
	END { print deep + 0, shallow + 0 }' "$TRACEFS/trace")
if ! grep -q 'cpu_idle: state=' "$TRACEFS/trace"; then
	ktap_test_skip "no deep state entered while raised (no cpu_idle events)"
elif ! echo "$idle_args" | grep -q deep; then
	ktap_test_skip "no deep state entered while raised (no state deeper than the limit)"
else
	[ "$1" = 0 ] && [ "$2" -gt 0 ]
	report $? "no deep state entered while raised ($1 deep, $2 shallow entries)"
fi

# Relaxed within a second of the last I/O.
ok=0
for t in 1 2 3 4 5 6 7 8 9 10; do
	sleep 0.1
	ok=1
	for h in $(hctx_dirs); do
		[ "$(hctx_field "$h" raised)" = 0 ] || ok=0
		for c in $(hctx_cpus "$h"); do
			[ "$(hctx_field "$h" "cpu$c")" = none ] || ok=0
		done
	done
	[ $ok = 1 ] && break
done
[ $ok = 1 ] || dump_hctxs
[ $ok = 1 ]; report $? "relaxed within $((t * 100)) ms after I/O stopped"

# Deep states are used again once relaxed.
deep_checked=0
for cl in $raised_cpus; do
	c=${cl%%:*}
	has_deep_state "$c" "${cl#*:}" || continue
	eval "d0_$c=$(idle_usage "$c" "${cl#*:}" | cut -d' ' -f1)"
	deep_checked=1
done
if [ $deep_checked = 0 ]; then
	ktap_test_skip "deep states used again after I/O (no deep state)"
else
	sleep 2
	ok=1
	for cl in $raised_cpus; do
		c=${cl%%:*}
		has_deep_state "$c" "${cl#*:}" || continue
		eval "d0=\$d0_$c"
		d1=$(idle_usage "$c" "${cl#*:}" | cut -d' ' -f1)
		[ "$d1" -gt "$d0" ] || { ktap_print_msg "cpu$c: no deep entry after relax"; ok=0; }
	done
	[ $ok = 1 ]; report $? "deep states used again after I/O"
fi

# ---- teardown ------------------------------------------------------------

write_attr off
ok=1
for h in $(hctx_dirs); do
	[ "$(hctx_field "$h" mode)" = off ] || ok=0
done
[ $ok = 1 ] && requests_balanced
report $? "off: every request removed (debugfs and trace balanced)"

# Delete the device while its limits are raised.
write_attr 5
run_io 2 &
fio_pid=$!
sleep 1
raised=0
for h in $(hctx_dirs); do
	[ "$(hctx_field "$h" raised)" = 1 ] && raised=1
done
wait $fio_pid
echo 0 > "$cfg/power"
rmdir "$cfg"
dev=""
sleep 0.5
requests_balanced
report $? "deleting the device removes every request (raised before: $raised)"

added=0
for c in $(ls -d "$CPUS"/cpu[0-9]* | sed 's/.*cpu//'); do
	added=$((added + $(trace_count dev_pm_qos_add_request "$c")))
done
[ "$added" -gt 0 ]; report $? "requests were added at all ($added)"

ktap_finished
