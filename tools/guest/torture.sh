#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# torture.sh - runs in the test guest (scripts/qemu/guest.sh, driven by
# scripts/tests/torture.sh): a torture run of the shallow_idle queue attribute
# under I/O, bounded by counts of operations, meant for the debug kernel
# (lockdep, KASAN, kmemleak, DEBUG_ATOMIC_SLEEP, DEBUG_OBJECTS, DEBUG_LIST,
# hung task, soft lockup and workqueue stall detectors).
#
# Usage: guest.sh --kernel BUILD --script torture.sh --append \
#            "torture_mode=short|long [torture_min_s=S] [torture_max_s=S]
#             [torture_skip=KIND,...]
#             [torture_hang_s=S]"
#
# 1. Setup: emu_cstates (table spr), governor menu, the dev_pm_qos trace
#    events (device cpu*) into a large per-CPU ring buffer that does not
#    overwrite, and three null_blk devices made through configfs (each 2
#    submit queues + 1 poll queue): tq0 irqmode=2 (timer, 10 us), tq1
#    irqmode=1 (softirq), tq2 irqmode=2 (20 us). A check that writing
#    submit_queues of a powered-on device really changes the number of
#    hardware queues (blk_mq_update_nr_hw_queues). kmemleak scanned once
#    (kmemleak-boot.txt).
# 2. The run, all at once, until every count is reached and torture_min_s
#    has passed: the storms, one file each in torture.d/ (its header says
#    what it does and what counts as an error). fio on tq0..tq2 throughout
#    (torture.d/fio: tq0 io_uring QD8 x2, tq1 psync x2 with one job that
#    thinks 20 ms so the queue goes idle and busy again, tq2 io_uring with
#    one polled job), and the workers (KIND, torture.d/KIND):
#      toggle     one per device: the attribute in a tight loop over off,
#                 auto and explicit limits; any failed write is an error
#                 (EBUSY included: the attribute must not trylock)
#      hotplug    CPU1 offline and online again
#      nrq        submit_queues 1 <-> 2 of tq0 and tq2, poll_queues 1 <-> 0
#                 of tq0; its writes and hotplug's take turns (remap_write:
#                 a baseline race between the two reads out of bounds)
#      createdel  a new null_blk device under O_DIRECT reads, attribute on,
#                 deleted with requests raised and reads in flight
#                 (createdel.txt: timings)
#      sched      mq-deadline <-> none on tq0 and tq1
#      gov        teo <-> menu
#      driver     rmmod emu_cstates, 0.2 s without a cpuidle driver, insmod
#                 with the next table (skx, icx, amd, spr)
#      values     not a storm, a check of the values during the storms:
#                 twice a second every hctx's debugfs view; a CPU whose
#                 request holds a limit while its hctx does not hold it,
#                 in three decisive samples in a row (samples during a
#                 hotplug or remap write decide nothing), is an error
#    The scheduler and submit_queues/poll_queues writes may see EBUSY from
#    each other (both trylock the tag set's update_nr_hwq_lock: baseline
#    behaviour), CPU hotplug and governor writes may too: retried for as
#    long as it takes and counted.
#    A worker or a device that makes no progress for torture_hang_s is a
#    hang: the kernel stacks of the workers and of every D-state task go to
#    hang.txt and the console, and the run ends. So is a run that has not
#    reached every count after torture_max_s (a cap far above any healthy
#    run). Nothing else is "too slow": the counts are figures, not quotas
#    to meet within a time.
# 3. Afterwards: CPU1 online, table spr, governor menu, every device "auto"
#    and a 4 s burst of I/O (the raise counters in debugfs must go up on
#    at least one of them, else "relaxed" proves nothing and fails), then
#    idle: 1 s later every hctx is relaxed in debugfs, and the deepest
#    state (C6) is used on every CPU within 3 s; then "off": every hctx
#    shows mode=off.
#    Devices deleted and null_blk unloaded; two kmemleak scans 5 s apart
#    report nothing (on a kernel with kmemleak, a scan that fails is a
#    failure); only then the trace is stopped: per CPU, requests added ==
#    removed (the leak count), no overrun or dropped event. The kernel log
#    (dmesg.txt, and the console) is scanned on the host
#    (scripts/tests/torture.sh, scan_reports).
#
# Counts (short / long; TARGETS in torture.d/KIND): toggles 1000/8000,
# hotplug cycles 50/400, nrq 20/150, createdel 8/60, sched 20/150, gov
# 20/150, driver 8/60, values samples 50/400; the run lasts at least
# 60/900 s and ends when every count is reached (about 4 / 16 minutes on
# the debug kernel under TCG).
# torture_max_s=S (default 1200/2400) is the cap, torture_hang_s=S
# (default 300) the hang limit of a worker or device; both end the run as
# a hang. torture_skip=KIND,... leaves workers out (e.g. one whose known
# lockdep report would switch lockdep off for the rest of the run).
#
# A storm file torture.d/KIND is sourced by this script. It sets TARGETS
# ("SHORT LONG", its counts) and, if it runs more than one worker process,
# INSTANCES (toggle: toggle_tq0 ..., each running w_toggle tq0 ...; the
# default is KIND), and defines w_KIND, the worker (until $STOP exists; it
# publishes its counters with count), sum_KIND if INSTANCES' counters add
# up to KIND's, and note_KIND and what_KIND DONE EBUSY ERRORS [EXTRA...],
# which set "note" (the remark on its line of torture-counts.txt) and
# "what" (the text of its TAP line; q holds its target), and, optionally,
# short_KIND with the same arguments, which sets "why" when the storm did
# not do what it is for (its TAP line then fails, as on an error). torture.d/fio
# defines fio_start, fio_interrupt, fio_counts and fio_check instead.
#
# Results in $RESULTS_DIR: torture.tap, torture-counts.txt (also printed),
# torture.json, trace-summary.txt, trace.txt.gz, dmesg.txt, kmemleak.txt,
# kmemleak-boot.txt, createdel.txt, errors.txt (unexpected errors of the
# operations), hang.txt (on a hang), fio-*.txt (output of failed fio runs).
# Exit code: 0 if every check passed.

. "$SHARE/lib.sh"

MODE=${torture_mode:-short}
case $MODE in
long)
	MIN_S=900 MAX_S=2400 TRACE_KB=65536
	;;
*)
	MODE=short
	MIN_S=60 MAX_S=1200 TRACE_KB=32768
	;;
esac
MIN_S=${torture_min_s:-$MIN_S}
MAX_S=${torture_max_s:-$MAX_S}
HANG_S=${torture_hang_s:-300}

NULLB_CFS=/sys/kernel/config/nullb
DEBUGFS=/sys/kernel/debug
TR=/sys/kernel/tracing
NO_CONSTRAINT=2147483647
DEVS="tq0 tq1 tq2"
# The storms of workers (torture.d/KIND), in the order they start.
ALL_KINDS="toggle hotplug nrq createdel sched gov driver values"
SKIP=$(echo "${torture_skip:-}" | tr ',' ' ')
skipped() {
	case " $SKIP " in *" $1 "*) return 0 ;; esac
	return 1
}
TABLES=$EMU_TABLES
# The run's state, in files of $T (no variable is named after a worker or a
# device): c.WORKER its counters (count), e.WORKER its last error message,
# pid.WORKER, hb.WORKER and io.DEV the heartbeats, q.KIND the count target
# of a storm; the workers stop once $STOP exists.
T=/tmp/torture
STOP=$T/stop
ERRLOG=$RESULTS_DIR/errors.txt
COUNTS=$RESULTS_DIR/torture-counts.txt

rm -rf "$T"
mkdir -p "$T"
: > "$ERRLOG"

uptime_s() {
	read -r _u _r < /proc/uptime
	echo "${_u%.*}"
}

uptime_ms() {
	read -r _u _r < /proc/uptime
	_s=${_u%.*}
	_f=${_u#*.}
	echo $((_s * 1000 + ${_f#0} * 10))
}

msg() {
	echo "torture[$(uptime_s)]: $*"
}

# errtext FILE - the errno text of the last "...: MESSAGE" line of FILE.
errtext() {
	_l=""
	while IFS= read -r _x; do
		_l=$_x
	done < "$1"
	echo "${_l##*: }"
}

# logerr KIND TEXT - note an unexpected error (first 200 per kind).
logerr() {
	echo "$1: $2" >> "$ERRLOG"
}

# attr_write DEV VALUE NEWLINE ERRFILE - write VALUE (valid) to the
# attribute of DEV, followed by a newline if NEWLINE is 1. One write, no
# retry: any failure, EBUSY included, returns 1 (message in ERRFILE).
attr_write() {
	_f=/sys/block/$1/queue/shallow_idle
	if [ "$3" = 1 ]; then
		{ echo "$2" > "$_f"; } 2> "$4"
	else
		{ echo -n "$2" > "$_f"; } 2> "$4"
	fi
}

# sysfs_write FILE VALUE ERRFILE - echo VALUE > FILE, retrying on EBUSY
# (the scheduler, submit_queues/poll_queues and hotplug writes trylock
# each other) for as long as it takes: a streak that stops all progress
# is for the hang detection to find. W_BUSY counts the retries. Returns 1
# on another error (message in ERRFILE), 2 when the run stopped during a
# streak of more than 1000 EBUSY.
sysfs_write() {
	W_BUSY=0
	while :; do
		{ echo "$2" > "$1"; } 2> "$3" && return 0
		[ "$(errtext "$3")" = "Device or resource busy" ] || return 1
		W_BUSY=$((W_BUSY + 1))
		[ -f "$STOP" ] && [ $W_BUSY -gt 1000 ] && return 2
		sleep 0.01
	done
}

# remap_write FILE VALUE ERRFILE - sysfs_write, never at the same time as
# another remap_write: CPU hotplug and the remap of hardware queues
# (submit_queues, poll_queues) take turns. In the baseline kernel a CPU
# that goes offline while blk_mq_update_nr_hw_queues() runs can read the
# hctx array out of bounds: the CPU hotplug callback of an old hctx,
# blk_mq_hctx_notify_offline() -> blk_mq_cpu_mapped_to_hctx(), maps the
# CPU through set->map, which blk_mq_update_queue_map() has already
# changed, into q->queue_hw_ctx, which __blk_mq_realloc_hw_ctxs() has not
# grown yet (KASAN: slab-out-of-bounds in queue_hctx(), once in a CI run
# and once in a local long run). The series changes neither path. Both
# workers still run throughout; only their writes do not overlap.
remap_write() {
	until mkdir "$T/remap.lock" 2>/dev/null; do
		sleep 0.02
	done
	sysfs_write "$@"
	_r=$?
	rmdir "$T/remap.lock"
	return $_r
}

# count KIND OK BUSY ERR [EXTRA...] - publish a worker's counters (also
# its heartbeat).
count() {
	_k=$1
	shift
	echo "$*" > "$T/c.$_k"
}

# sum_counters - the counters of a storm with several workers added up
# ($T/c.KIND), by its sum_KIND.
sum_counters() {
	for _k in $KINDS; do
		command -v "sum_$_k" > /dev/null && "sum_$_k"
	done
}

# ---- helpers for the checks ------------------------------------------------

# raises_of DEV - the raises counted in debugfs, summed over DEV's hctxs.
raises_of() {
	cat "$DEBUGFS/block/$1"/hctx*/shallow_idle 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^raises=/) n += substr($i, 8) } END { print n + 0 }'
}

# hctx_files DEV - the debugfs shallow_idle files of DEV.
hctx_files() {
	ls "$DEBUGFS/block/$1"/hctx*/shallow_idle 2>/dev/null
}

# dstate_stacks - kernel stacks of every task in D state.
dstate_stacks() {
	for p in /proc/[0-9]*; do
		read -r _st < "$p/stat" 2>/dev/null || continue
		# comm may hold blanks; the state follows the ")".
		_s=${_st##*) }
		_s=${_s%% *}
		[ "$_s" = D ] || continue
		echo "--- pid ${p#/proc/} ($(cat "$p/comm" 2>/dev/null)) state D"
		cat "$p/stack" 2>/dev/null
	done
}

# hang_report WHAT - record a hang.
hang_report() {
	HANG="$HANG $1"
	{
		echo "=== hang at uptime $(uptime_s) s: $1"
		for k in $WORKERS; do
			read -r _p < "$T/pid.$k"
			echo "--- worker $k pid $_p: counters $(cat "$T/c.$k" 2>/dev/null)"
			cat "/proc/$_p/stack" 2>/dev/null
			for c in $(cat "/proc/$_p/task/$_p/children" 2>/dev/null); do
				echo "--- child $c ($(cat "/proc/$c/comm" 2>/dev/null))"
				cat "/proc/$c/stack" 2>/dev/null
			done
		done
		echo "--- tasks in D state"
		dstate_stacks
	} >> "$RESULTS_DIR/hang.txt" 2>&1
	msg "HANG: $1 (stacks in hang.txt)"
	tail -n 60 "$RESULTS_DIR/hang.txt"
}

# ios DEV - reads completed on DEV.
ios() {
	read -r _r _rest < "/sys/block/$1/stat" 2>/dev/null
	echo "${_r:-0}"
}

field() { # FILE N - Nth counter of a worker's counter file
	_n=$2 _c="" _i=0
	[ -f "$1" ] || _i=5
	# A file caught while its worker rewrites it reads empty: read again.
	while [ -z "$_c" ] && [ $_i -lt 5 ]; do
		read -r _c < "$1" 2>/dev/null
		_i=$((_i + 1))
	done
	set -- $_c 0 0 0 0 0
	shift $((_n - 1))
	echo "$1"
}

tap_init "$RESULTS_DIR/torture.tap"

fatal() {
	tap_not_ok "$*"
	tap_end
	dmesg > "$RESULTS_DIR/dmesg.txt"
	exit 1
}

# ---- the storms: torture.d/KIND ---------------------------------------------

# Each file of torture.d/ is one storm, sourced here (see the header of
# this file): its count targets go to $T/q.KIND; KINDS are the storms that
# run (torture_skip leaves some out), WORKERS their worker processes.
STORMS=$SHARE/torture.d
KINDS="" WORKERS="" counts_msg=""
for k in $ALL_KINDS; do
	[ -f "$STORMS/$k" ] || fatal "setup: no $STORMS/$k"
	TARGETS="" INSTANCES=$k
	. "$STORMS/$k"
	for _fn in "w_$k" "note_$k" "what_$k"; do
		command -v "$_fn" > /dev/null || fatal "setup: $STORMS/$k defines no $_fn"
	done
	set -- $TARGETS
	[ $# = 2 ] || fatal "setup: $STORMS/$k: TARGETS=\"$TARGETS\" (want SHORT LONG)"
	[ "$MODE" = long ] && shift
	echo "$1" > "$T/q.$k"
	counts_msg="$counts_msg $k=$1"
	if ! skipped "$k"; then
		KINDS="$KINDS $k"
		WORKERS="$WORKERS $INSTANCES"
	fi
done
[ -f "$STORMS/fio" ] || fatal "setup: no $STORMS/fio"
. "$STORMS/fio"

# ---- 1. setup ----------------------------------------------------------------

[ -z "$SKIP" ] || msg "left out: $SKIP"
msg "mode $MODE: until every count is reached, at least $MIN_S s (hang: $HANG_S s" \
	"without progress, or not done after $MAX_S s); counts${counts_msg}"

[ -e "$CPUS/cpu1/online" ] || fatal "setup: CPU1 cannot be hot-plugged (no cpu1/online)"
[ "$(idle_driver)" = emu_cstates ] || emu_load || fatal "setup: cannot load emu_cstates"
gov_set menu || fatal "setup: no menu governor"
[ -d "$NULLB_CFS" ] || modprobe null_blk nr_devices=0 || fatal "setup: no null_blk"
[ -d "$TR/events/power/dev_pm_qos_add_request" ] || fatal "setup: no dev_pm_qos trace events"

echo 0 > "$TR/tracing_on"
echo 0 > "$TR/options/overwrite"
echo "$TRACE_KB" > "$TR/buffer_size_kb" || fatal "setup: trace buffer of $TRACE_KB KiB per CPU"
echo > "$TR/trace"
for e in add update remove; do
	echo 'name ~ "cpu*"' > "$TR/events/power/dev_pm_qos_${e}_request/filter" 2>/dev/null
	echo 1 > "$TR/events/power/dev_pm_qos_${e}_request/enable" ||
		fatal "setup: cannot enable dev_pm_qos_${e}_request"
done
echo 1 > "$TR/tracing_on"

mkdev() { # NAME IRQMODE COMPLETION_NSEC
	mkdir "$NULLB_CFS/$1" || return 1
	echo 2 > "$NULLB_CFS/$1/submit_queues"
	echo 1 > "$NULLB_CFS/$1/poll_queues"
	echo "$2" > "$NULLB_CFS/$1/irqmode"
	echo "$3" > "$NULLB_CFS/$1/completion_nsec"
	echo 1024 > "$NULLB_CFS/$1/size"
	echo 1 > "$NULLB_CFS/$1/power" &&
		[ -e "/sys/block/$1/queue/shallow_idle" ]
}
mkdev tq0 2 10000 || fatal "setup: null_blk tq0"
mkdev tq1 1 0 || fatal "setup: null_blk tq1"
mkdev tq2 2 20000 || fatal "setup: null_blk tq2"

# submit_queues of a powered-on device goes through
# blk_mq_update_nr_hw_queues(): the hardware queues follow it.
nq() { ls -d "/sys/block/$1/mq"/[0-9]* | wc -l; }
n0=$(nq tq0)
echo 1 > "$NULLB_CFS/tq0/submit_queues"
n1=$(nq tq0)
echo 2 > "$NULLB_CFS/tq0/submit_queues"
n2=$(nq tq0)
if [ "$n0" = 3 ] && [ "$n1" = 2 ] && [ "$n2" = 3 ]; then
	tap_ok "setup: submit_queues 2 -> 1 -> 2 under power changes the hardware queues $n0 -> $n1 -> $n2"
else
	tap_not_ok "setup: submit_queues 2 -> 1 -> 2 under power: hardware queues $n0 -> $n1 -> $n2 (want 3 -> 2 -> 3)"
fi

# Boot-time leaks are not the run's: note them (kmemleak-boot.txt). On a
# kernel with kmemleak, a scan that fails is a failure (no leak check).
kmemleak_scan "$RESULTS_DIR/kmemleak-boot.txt" > "$T/kml"
[ $? != 1 ] || tap_not_ok "setup: kmemleak: $(cat "$T/kml")"

# ---- 2. the run --------------------------------------------------------------

start=$(uptime_s)
msg "start: fio and workers"
fio_start
sleep 2
# A worker KIND_ARG (toggle_tq0) runs w_KIND ARG, a worker KIND w_KIND.
for k in $WORKERS; do
	case $k in
	*_*) "w_${k%%_*}" "${k#*_}" & ;;
	*) "w_$k" & ;;
	esac
	echo $! > "$T/pid.$k"
done

# Heartbeats: $T/hb.WORKER holds "TIME COUNTERS", $T/io.DEV "TIME READS":
# the uptime when the worker's counters or the device's completed reads
# last changed, and their value then.
HANG=""
last_t=$start
for k in $WORKERS; do
	echo "$start" > "$T/hb.$k"
done
for d in $DEVS; do
	echo "$start 0" > "$T/io.$d"
done
while :; do
	sleep 5
	now=$(uptime_s)
	el=$((now - start))
	# Heartbeats: every worker's counters and every device's reads move.
	for k in $WORKERS; do
		c=$(cat "$T/c.$k" 2>/dev/null)
		read -r ot o < "$T/hb.$k"
		if [ "$c" != "$o" ]; then
			echo "$now $c" > "$T/hb.$k"
		elif [ $((now - ot)) -ge "$HANG_S" ]; then
			hang_report "worker $k made no progress for $((now - ot)) s"
		fi
	done
	for d in $DEVS; do
		c=$(ios "$d")
		read -r ot o < "$T/io.$d"
		if [ "$c" != "$o" ]; then
			echo "$now $c" > "$T/io.$d"
		elif [ $((now - ot)) -ge "$HANG_S" ]; then
			hang_report "no read completed on $d for $((now - ot)) s"
		fi
	done
	[ -z "$HANG" ] || break
	sum_counters
	met=1 short=""
	for k in $KINDS; do
		read -r q < "$T/q.$k"
		c=$(field "$T/c.$k" 1)
		[ "$c" -ge "$q" ] || { met=0; short="$short $k $c/$q"; }
	done
	if [ $((now - last_t)) -ge 30 ]; then
		last_t=$now
		line="t=${el}s"
		for k in $KINDS; do
			line="$line $k=$(field "$T/c.$k" 1)"
		done
		msg "$line"
	fi
	[ $met = 1 ] && [ $el -ge "$MIN_S" ] && break
	# The cap: far above a healthy run; what is still short is a hang.
	if [ $el -ge "$MAX_S" ]; then
		hang_report "run not done after $el s (cap $MAX_S s), counts still short:$short"
		break
	fi
done
run_s=$(($(uptime_s) - start))
msg "stop after $run_s s"
touch "$STOP"
for k in $FIO_WORKERS; do
	fio_interrupt "$k"
done

# Wait for every worker, HANG_S s for all of them together.
stop_t=$(uptime_s)
for k in $WORKERS $FIO_WORKERS; do
	read -r p < "$T/pid.$k"
	while kill -0 "$p" 2>/dev/null && [ $(($(uptime_s) - stop_t)) -lt "$HANG_S" ]; do
		# A fio run may have started just before the stop.
		case $k in
		fio*) fio_interrupt "$k" ;;
		esac
		sleep 1
	done
	if kill -0 "$p" 2>/dev/null; then
		hang_report "worker $k did not stop within $HANG_S s"
	else
		wait "$p"
	fi
done

# ---- 3. counts ----------------------------------------------------------------

sum_counters

{
	echo "torture $MODE: $(uname -r), $(nproc) CPUs, run $run_s s"
	printf '%-10s %8s %8s %8s %8s\n' operation "done" ebusy errors target
	for k in $KINDS; do
		read -r q < "$T/q.$k"
		set -- $(cat "$T/c.$k") 0 0 0 0
		"note_$k" "$@"
		printf '%-10s %8s %8s %8s %8s%s\n' "$k" "$1" "$2" "$3" "$q" "${note:+  ($note)}"
	done
	fio_counts
} > "$COUNTS"
cat "$COUNTS"

# The counts are figures: how fast the run went is no verdict (a run that
# stopped making progress is a hang, above). Only errors fail.
for k in $KINDS; do
	read -r q < "$T/q.$k"
	set -- $(cat "$T/c.$k") 0 0 0 0
	"what_$k" "$@"
	why=""
	if command -v "short_$k" > /dev/null 2>&1; then
		"short_$k" "$@"
	fi
	if [ "$3" != 0 ]; then
		tap_not_ok "$k: $what (errors.txt)"
	elif [ -n "$why" ]; then
		tap_not_ok "$k: $what, but $why"
	else
		tap_ok "$k: $what"
	fi
done
for k in $SKIP; do
	tap_skip "$k" "left out (torture_skip)"
done
fio_check
if [ -s "$ERRLOG" ]; then
	tap_diag "unexpected errors (errors.txt):"
	head -n 20 "$ERRLOG" | while IFS= read -r l; do tap_diag "  $l"; done
fi
if [ -n "$HANG" ]; then
	tap_not_ok "no hang:$HANG (hang.txt)"
	# The kernel is stuck: save what there is and give up.
	dmesg > "$RESULTS_DIR/dmesg.txt"
	tap_end
	exit 1
fi
tap_ok "no hang (every worker and device made progress, every worker stopped)"

# ---- 4. back to no constraint ---------------------------------------------------

echo 1 > "$CPUS/cpu1/online" 2>/dev/null
if [ "$(cat "$CPUS/cpu1/online")" = 1 ]; then
	tap_ok "cleanup: CPU1 online"
else
	tap_not_ok "cleanup: CPU1 online"
fi
if [ "$(cat /sys/module/emu_cstates/parameters/table 2>/dev/null)" != "$DEFAULT_TABLE" ]; then
	emu_unload 2>/dev/null
	emu_load
fi
gov_set menu
deep=C6

# Raise every device once more, then let it go idle. Nothing else writes
# the attributes now: every write must succeed.
final_bad=""
for d in $DEVS; do
	attr_write "$d" auto 1 "$T/e.final" || final_bad="$final_bad $d=auto ($(errtext "$T/e.final"))"
done
for d in $DEVS; do
	raises_of "$d" > "$T/raises0.$d"
	fio --name=final --filename="/dev/$d" --direct=1 --bs=4k --rw=randread \
		--ioengine=psync --numjobs=2 --time_based --runtime=4 \
		--output=/dev/null > /dev/null 2>&1 &
done
wait
# The devices raised during the burst: their raise counters went up (a
# poll of "raised=1" misses short busy periods on the debug kernel).
n_raised=0
for d in $DEVS; do
	read -r r0 < "$T/raises0.$d"
	[ "$(raises_of "$d")" -gt "$r0" ] && n_raised=$((n_raised + 1))
	for f in $(hctx_files "$d"); do
		tap_diag "burst $d $(basename "$(dirname "$f")"): $(tr '\n' ' ' < "$f")"
	done
done
sleep 1
bad=""
for d in $DEVS; do
	for f in $(hctx_files "$d"); do
		if grep -q '^mode=' "$f" && ! grep -q '^mode=off' "$f"; then
			grep -q '^active=0 raised=0' "$f" || bad="$bad $d/$(basename "$(dirname "$f")")"
			grep -q '^cpu[0-9]*=[0-9]' "$f" && bad="$bad $d/$(basename "$(dirname "$f")")"
		fi
	done
done
if [ "$n_raised" = 0 ]; then
	# Nothing raised: "relaxed" would prove nothing.
	tap_not_ok "relaxed 1 s after I/O stopped: no device was raised during the 4 s burst"
elif [ -z "$bad" ]; then
	tap_ok "relaxed 1 s after I/O stopped: every hctx active=0 raised=0, cpuN=none ($n_raised of 3 devices were raised during the burst)"
else
	tap_not_ok "relaxed 1 s after I/O stopped: still raised:$bad"
	for d in $DEVS; do
		for f in $(hctx_files "$d"); do
			tap_diag "$d $(basename "$(dirname "$f")"): $(tr '\n' ' ' < "$f")"
		done
	done
fi

idle_snap "$T/idle0"
sleep 3
idle_snap "$T/idle1"
bad="" seen=""
for c in $(cpu_ids); do
	u=$(idle_usage_delta "$T/idle0" "$T/idle1" "$c" "$deep") || u=none
	seen="$seen cpu$c:+$u"
	case $u in none|0|-*) bad="$bad cpu$c" ;; esac
done
if [ -z "$bad" ]; then
	tap_ok "$deep used again on every CPU after I/O stopped ($deep usage$seen in 3 s)"
else
	tap_not_ok "$deep used again on every CPU after I/O stopped: not on$bad ($seen)"
fi

for d in $DEVS; do
	attr_write "$d" off 1 "$T/e.final" || final_bad="$final_bad $d=off ($(errtext "$T/e.final"))"
done
if [ -z "$final_bad" ]; then
	tap_ok "after the run: every write of auto and off to tq0..tq2 succeeded"
else
	tap_not_ok "after the run: failed attribute writes:$final_bad"
fi
bad="" nh=0
for d in $DEVS; do
	for f in $(hctx_files "$d"); do
		nh=$((nh + 1))
		[ "$(cat "$f")" = mode=off ] || bad="$bad $d/$(basename "$(dirname "$f")")"
	done
done
if [ -z "$bad" ] && [ $nh -gt 0 ]; then
	tap_ok "off: debugfs shows mode=off on all $nh hctxs of tq0..tq2"
else
	tap_not_ok "off: debugfs mode=off on $nh hctxs; not on:$bad"
fi

# Delete the devices, unload null_blk.
for d in $DEVS; do
	echo 0 > "$NULLB_CFS/$d/power"
	rmdir "$NULLB_CFS/$d"
done
left=""
for x in "$NULLB_CFS"/*; do
	[ -d "$x" ] && left="$left ${x##*/}"
done
: > "$T/e.final"
if [ -z "$left" ] && rmmod null_blk 2> "$T/e.final"; then
	tap_ok "cleanup: every null_blk device deleted, null_blk unloaded"
else
	tap_not_ok "cleanup: null_blk devices left:${left:- none}; rmmod: $(errtext "$T/e.final")"
fi

# Hold times of the block layer locks the attribute store and the remap
# take (CONFIG_LOCK_STAT kernels): lock_stat.txt, printed by the host.
if [ -r /proc/lock_stat ]; then
	{
		sed -n '1,4p' /proc/lock_stat
		grep -E 'tag_list_lock|update_nr_hwq_lock|blk_shallow_idle_mutex|elevator_lock' /proc/lock_stat
	} > "$RESULTS_DIR/lock_stat.txt"
fi

# ---- 5. kmemleak and the trace -------------------------------------------------

leaks=0
if kconfig_on CONFIG_DEBUG_KMEMLEAK; then
	sleep 5
	if kmemleak_scan "$RESULTS_DIR/kmemleak.txt" 5 > "$T/kml"; then
		leaks=$(grep -c 'unreferenced object' "$RESULTS_DIR/kmemleak.txt")
		boot=$(grep -c 'unreferenced object' "$RESULTS_DIR/kmemleak-boot.txt" 2>/dev/null)
		if [ "$leaks" = 0 ]; then
			tap_ok "kmemleak: two scans 5 s apart report nothing (before the run: ${boot:-no scan})"
		else
			tap_not_ok "kmemleak: $leaks unreferenced objects (kmemleak.txt; before the run: ${boot:-no scan})"
			head -n 40 "$RESULTS_DIR/kmemleak.txt"
		fi
	else
		leaks=unknown
		tap_not_ok "kmemleak: $(cat "$T/kml"); no leak check"
	fi
else
	tap_diag "kmemleak: not in this kernel"
fi

# The trace of the whole run, stopped only now: state detached while a
# queue was frozen is freed later by a work item, and its remove events
# must be in the trace.
echo 0 > "$TR/tracing_on"
sleep 1
over=0 drop=0 entries=0
for s in "$TR"/per_cpu/cpu*/stats; do
	o=$(sed -n 's/^overrun: *//p' "$s")
	co=$(sed -n 's/^commit overrun: *//p' "$s")
	dr=$(sed -n 's/^dropped events: *//p' "$s")
	en=$(sed -n 's/^entries: *//p' "$s")
	over=$((over + ${o:-0} + ${co:-0}))
	drop=$((drop + ${dr:-0}))
	entries=$((entries + ${en:-0}))
done
awk -v none=$NO_CONSTRAINT '
	/dev_pm_qos_(add|update|remove)_request: device=cpu[0-9]+ / {
		match($0, /dev_pm_qos_[a-z]+_request/)
		k = substr($0, RSTART + 11, RLENGTH - 19)
		match($0, /device=cpu[0-9]+/)
		c = substr($0, RSTART + 7, RLENGTH - 7)
		n[c "," k]++
		cpus[c] = 1
		if (k == "update") {
			if ($0 ~ ("new_value=" none "$")) relax[c]++
			else limit[c]++
		}
	}
	END {
		for (c in cpus) {
			l = n[c ",add"] - n[c ",remove"]
			printf "%s add=%d update=%d (to a limit %d, to no constraint %d) remove=%d leaked=%d\n",
				c, n[c ",add"], n[c ",update"], limit[c], relax[c], n[c ",remove"], l
		}
	}' "$TR/trace" | sort > "$RESULTS_DIR/trace-summary.txt"
gzip -c "$TR/trace" > "$RESULTS_DIR/trace.txt.gz"
adds=$(awk '{ sub("add=", "", $2); s += $2 } END { print s + 0 }' "$RESULTS_DIR/trace-summary.txt")
removes=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^remove=/) { sub("remove=", "", $i); s += $i } } END { print s + 0 }' "$RESULTS_DIR/trace-summary.txt")
updates=$(awk '{ sub("update=", "", $3); s += $3 } END { print s + 0 }' "$RESULTS_DIR/trace-summary.txt")
leaked=0
for l in $(sed -n 's/.*leaked=\(-*[0-9]*\)$/\1/p' "$RESULTS_DIR/trace-summary.txt"); do
	[ "$l" = 0 ] || leaked=$((leaked + (l < 0 ? -l : l)))
done
if [ $over = 0 ] && [ $drop = 0 ]; then
	tap_ok "trace: $entries events kept, no overrun, no dropped event ($TRACE_KB KiB per CPU)"
else
	tap_not_ok "trace: $over overruns, $drop dropped events of $entries ($TRACE_KB KiB per CPU is too small)"
fi
if [ $leaked = 0 ] && [ "$adds" -gt 0 ]; then
	tap_ok "trace: every request added was removed ($adds added, $updates updated, $removes removed, leaked 0)"
else
	tap_not_ok "trace: $adds added, $removes removed: $leaked leaked"
fi
while IFS= read -r l; do tap_diag "trace $l"; done < "$RESULTS_DIR/trace-summary.txt"

# The kernel log is scanned on the host (scripts/tests/torture.sh: scan_reports
# over the console and this file), with every other guest run's scan.
dmesg > "$RESULTS_DIR/dmesg.txt"

{
	echo "trace events: $adds add, $updates update, $removes remove; overrun $over, dropped $drop"
	sed 's/^/  /' "$RESULTS_DIR/trace-summary.txt"
	echo "leaked requests: $leaked"
	echo "kmemleak: $leaks unreferenced objects"
} > "$T/counts2"
cat "$T/counts2"
cat "$T/counts2" >> "$COUNTS"

# JSON summary.
{
	echo "{"
	echo "  \"mode\": \"$MODE\", \"kernel\": \"$(uname -r)\", \"run_s\": $run_s,"
	echo "  \"operations\": {"
	sep=""
	for k in $KINDS; do
		set -- $(cat "$T/c.$k") 0 0 0 0
		printf '%s    "%s": {"done": %s, "ebusy": %s, "errors": %s}' "$sep" "$k" "$1" "$2" "$3"
		sep=",
"
	done
	echo
	echo "  },"
	printf '  "fio_failed_runs": %s,\n' "$FIO_FAILED"
	printf '  "trace": {"add": %s, "update": %s, "remove": %s, "overrun": %s, "dropped": %s},\n' \
		"$adds" "$updates" "$removes" "$over" "$drop"
	printf '  "leaked_requests": %s,\n' "$leaked"
	[ "$leaks" = unknown ] && leaks=null
	printf '  "kmemleak_leaks": %s,\n' "$leaks"
	printf '  "failed_checks": %s\n' "$TAP_FAIL"
	echo "}"
} > "$RESULTS_DIR/torture.json"

tap_diag "torture $MODE: $TAP_FAIL failed checks"
tap_end
