# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the shallow_idle cases (sourced by shallow_idle.sh; the case
# files call them). A case's own helpers live in its file.

FIO=${FIO:-fio}
IO_SECONDS=${IO_SECONDS:-4}
CONCURRENT_WRITES=${CONCURRENT_WRITES:-20}
CPUS=/sys/devices/system/cpu
NULLB_CFS=/sys/kernel/config/nullb
DEBUGFS=/sys/kernel/debug
TRACEFS=/sys/kernel/tracing
FAILSLAB=$DEBUGFS/failslab
NAME=shallow_idle_selftest
QOS_EVENTS="dev_pm_qos_add_request dev_pm_qos_update_request dev_pm_qos_remove_request"
SI_EVENTS="block_shallow_idle_raise block_shallow_idle_relax block_shallow_idle_free"
# Trace events a case may turn on; case_teardown turns them off again.
CASE_EVENTS="power/cpu_idle block/block_rq_complete ipi/ipi_send_cpu
sched/sched_wake_idle_without_ipi"
NO_CONSTRAINT=2147483647
dev=""
devs=""
failslab_saved=""
wq_saved=""
# /sys/kernel/rcu_expedited before rcu_expedite, restored by case_teardown
rcu_saved=""

# ---- set-up and teardown of a case ----------------------------------------

# case_setup: the PM QoS and shallow idle trace events on, the trace empty.
case_setup() {
	echo 8192 > "$TRACEFS/buffer_size_kb" || return 1
	for e in $QOS_EVENTS; do
		echo 1 > "$TRACEFS/events/power/$e/enable" || return 1
	done
	for e in $SI_EVENTS; do
		echo 1 > "$TRACEFS/events/block/$e/enable" || return 1
	done
	echo 1 > "$TRACEFS/tracing_on"
	trace_reset
}

# case_teardown: every device the case made is switched off and deleted,
# every trace event and fault injection setting it changed is undone.
case_teardown() {
	for d in $devs; do
		[ -e "/sys/block/$d/queue/shallow_idle" ] &&
			echo off > "/sys/block/$d/queue/shallow_idle" 2>/dev/null
		if [ -d "$NULLB_CFS/$d" ]; then
			echo 0 > "$NULLB_CFS/$d/power" 2>/dev/null
			rmdir "$NULLB_CFS/$d" 2>/dev/null
		fi
	done
	devs=""
	dev=""
	for e in $QOS_EVENTS; do
		echo 0 > "$TRACEFS/events/power/$e/enable" 2>/dev/null
	done
	for e in $SI_EVENTS; do
		echo 0 > "$TRACEFS/events/block/$e/enable" 2>/dev/null
	done
	for e in $CASE_EVENTS; do
		echo 0 > "$TRACEFS/events/$e/enable" 2>/dev/null
	done
	fail_none
	[ -z "$wq_saved" ] ||
		echo "$wq_saved" > /sys/devices/virtual/workqueue/cpumask
	wq_saved=""
	[ -z "$rcu_saved" ] || echo "$rcu_saved" > /sys/kernel/rcu_expedited
	rcu_saved=""
}

# rcu_expedite: expedited RCU grace periods until case_teardown (a mode
# change waits for one before it frees the state it replaced); fails if
# the kernel has no /sys/kernel/rcu_expedited.
rcu_expedite() {
	rcu_saved=$(cat /sys/kernel/rcu_expedited 2>/dev/null) &&
		echo 1 > /sys/kernel/rcu_expedited
}

# make_nullb NAME KEY=VALUE...: a powered-on null_blk device, deleted by
# case_teardown
make_nullb() {
	n=$1
	shift
	mkdir "$NULLB_CFS/$n" || return 1
	devs="$devs $n"
	for kv in "$@"; do
		echo "${kv#*=}" > "$NULLB_CFS/$n/${kv%%=*}" || return 1
	done
	echo 1 > "$NULLB_CFS/$n/power"
}

# make_test_dev: the standard device of the cases, $dev: two hardware
# queues, completions by timer 2 ms after submission.
make_test_dev() {
	make_nullb "$NAME" submit_queues=2 irqmode=2 completion_nsec=2000000 \
		size=1024 || return 1
	# A null_blk device made through configfs is named after its directory.
	dev=$NAME
}

# del_nullb NAME: delete a device before the case ends
del_nullb() {
	echo 0 > "$NULLB_CFS/$1/power" && rmdir "$NULLB_CFS/$1" || return 1
	kept=""
	for d in $devs; do
		[ "$d" = "$1" ] || kept="$kept $d"
	done
	devs=$kept
}

# ---- the attribute --------------------------------------------------------

attr() { echo "/sys/block/${1:-$dev}/queue/shallow_idle"; }

# write_attr VALUE [DEV]: write VALUE without adding a newline; fails like write(2)
write_attr() { printf '%s' "$1" > "$(attr "$2")" 2>/dev/null; }

# last_error FILE: the strerror() text of the last error line a tool wrote
# ("sh: write error: Invalid argument" -> "Invalid argument")
last_error() {
	sed -n '$s/.*: //p' "$1"
}

# ---- the CPUs and their idle states ---------------------------------------

all_cpus() { ls -d "$CPUS"/cpu[0-9]* | sed 's/.*cpu//'; }

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

limit0=$(expected_limit 0)

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

# requires_deep_state: for requires(); the "auto" limit of CPU 0 is known
# and some state is deeper (else "no deep state" proves nothing)
requires_deep_state() {
	if [ -z "$limit0" ]; then
		SKIP_REASON="auto limit unknown: set SHALLOW_IDLE_EXPECTED"
		return 1
	fi
	has_deep_state 0 "$limit0" && return 0
	SKIP_REASON="no state deeper than $limit0 us"
	return 1
}

# requires_two_cpus: for requires()
requires_two_cpus() {
	[ "$(all_cpus | wc -l)" -gt 1 ] && return 0
	SKIP_REASON="one CPU"
	return 1
}

# ---- the hardware queues (debugfs) ----------------------------------------

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

# devno DEV: MAJ,MIN of DEV, as the block trace events print it.
devno() {
	tr : , < "/sys/block/$1/dev"
}

# ---- the trace ------------------------------------------------------------

trace_reset() {
	echo > "$TRACEFS/trace"
}

# trace_on EVENT...: turn on trace events (SYSTEM/NAME); case_teardown
# turns them off
trace_on() {
	for e in "$@"; do
		echo 1 > "$TRACEFS/events/$e/enable" ||
			{ ktap_print_msg "cannot enable trace event $e"; return 1; }
	done
}

trace_count() { # EVENT CPU [VALUE]
	if [ -n "$3" ]; then
		grep -c "$1: device=cpu$2 .*new_value=$3\$" "$TRACEFS/trace"
	else
		grep -c "$1: device=cpu$2 " "$TRACEFS/trace"
	fi
}

# requests_balanced: the case's trace added some request, and every
# request it added on any CPU was removed again (a balance of nothing
# proves nothing).
requests_balanced() {
	added=0
	for c in $(all_cpus); do
		a=$(trace_count dev_pm_qos_add_request "$c")
		r=$(trace_count dev_pm_qos_remove_request "$c")
		added=$((added + a))
		if [ "$a" != "$r" ]; then
			ktap_print_msg "cpu$c: $a requests added, $r removed"
			return 1
		fi
	done
	ktap_print_msg "$added requests added, as many removed"
	[ $added -gt 0 ]
}

# ---- I/O ------------------------------------------------------------------

# Time since boot in centiseconds (busybox date has no %N).
uptime_cs() {
	read -r u _ < /proc/uptime
	echo "${u%.*}${u#*.}"
}

run_io() { # SECONDS [DEV]
	"$FIO" --name=shallow_idle --filename="/dev/${2:-$dev}" --direct=1 --rw=randread \
		--bs=4k --ioengine=psync --iodepth=1 --numjobs=2 \
		--time_based --runtime="$1" --output=/dev/null
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

# raised_io SECONDS WHAT: start run_io SECONDS in the background ($fio_pid)
# and wait until some hctx of $dev is raised; if none is within 2 s, say
# it was not raised before WHAT, stop fio and fail.
raised_io() {
	run_io "$1" 2>/dev/null &
	fio_pid=$!
	wait_for 2 any_raised && return 0
	ktap_print_msg "not raised before $2"
	kill $fio_pid
	wait $fio_pid 2>/dev/null
	return 1
}

# stream: the standard device in "auto" under a stream of I/O for
# IO_SECONDS that raised it at least once (debugfs's raise count)
stream() {
	make_test_dev && write_attr auto || return 1
	run_io "$IO_SECONDS" || { ktap_print_msg "fio failed"; return 1; }
	[ "$(sum_field raises)" -gt 0 ] && return 0
	ktap_print_msg "the stream raised nothing"
	dump_hctxs
	return 1
}

# raised_cpus: "CPU:LIMIT ..." of every CPU a limit was set on in the
# trace; prints a message and fails when a CPU got another limit than its
# table's, or when no CPU got one.
raised_cpus() {
	ok=0
	out=""
	for c in $(all_cpus); do
		vals=$(grep -E "dev_pm_qos_(add|update)_request: device=cpu$c " "$TRACEFS/trace" |
			sed 's/.*new_value=//' | grep -v "^$NO_CONSTRAINT\$" | sort -u)
		[ -n "$vals" ] || continue
		lim=$(expected_limit "$c")
		if [ "$vals" != "$lim" ]; then
			ktap_print_msg "cpu$c: limits $vals in the trace, expected $lim" >&2
			ok=1
		fi
		out="$out $c:$lim"
	done
	echo "$out"
	[ -n "$out" ] || { ktap_print_msg "no limit in the trace" >&2; ok=1; }
	return $ok
}

# concurrent_writers DEV...: one writer cycles shallow_idle of every
# DEV (auto, off, 50) until the other one is done; that one makes
# CONCURRENT_WRITES rounds of scheduler writes (mq-deadline, none) and
# nr_requests writes (16, 32) under each scheduler to every DEV. No write
# of a valid value may fail.
concurrent_writers() {
	errs=$CASE_TMP/cw.errs
	done_flag=$CASE_TMP/cw.done
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
		echo $n > "$CASE_TMP/cw.qos"
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
	ktap_print_msg "$(cat "$CASE_TMP/cw.qos") shallow_idle writes," \
		"$((i * $# * 6)) scheduler and nr_requests writes, $n failed"
	[ "$n" = 0 ] || ktap_print_msg "first failures: $(head -3 "$errs" | tr '\n' ';')"
	[ "$n" = 0 ]
}

# has_mq_deadline DEV: DEV can switch to mq-deadline
has_mq_deadline() {
	grep -q mq-deadline "/sys/block/$1/queue/scheduler"
}

# ---- allocation failures --------------------------------------------------

# fail_under FUNCTION: the Nth slab allocation that this shell asks to fail
# through /proc/thread-self/fail-nth is counted only among allocations with
# FUNCTION on their stack (failslab's stack trace filter, sleeping
# allocations included), so that the Nth allocation of the series' code
# fails and nothing else does. Undone by fail_none (case_teardown).
fail_under() {
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

# requires_failslab: for requires()
requires_failslab() {
	[ -e /proc/thread-self/fail-nth ] && [ -e "$FAILSLAB/require-start" ] &&
		return 0
	SKIP_REASON="needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_STACKTRACE_FILTER"
	return 1
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
