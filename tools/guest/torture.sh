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
#    has passed: fio on tq0 (io_uring QD8 x2), tq1 (psync
#    x2, one job with 20 ms think time so the queue goes idle and busy
#    again), tq2 (io_uring, one polled job) throughout, and the workers
#    (KIND):
#      toggle   one per device: the attribute in a tight loop over off,
#               auto and explicit limits, every other write without the
#               newline; every write is valid, so any failed write is an
#               error (EBUSY included: the attribute must not trylock)
#      hotplug  CPU1 offline and online again (0.2 s pause in between)
#      nrq      submit_queues 1 <-> 2 of tq0 and tq2, poll_queues 1 <-> 0
#               of tq0 (tq2 keeps its poll queue for the polled job);
#               its writes and hotplug's take turns (remap_write: a
#               baseline race between the two reads out of bounds)
#      createdel  a new null_blk device (1 or 2 submit queues, timer
#               completions after 1 ms), attribute on, two dd readers
#               (O_DIRECT) on it; once its requests are raised and reads
#               are in flight, power off and rmdir (createdel.txt: timings)
#      sched    mq-deadline <-> none on tq0 and tq1
#      gov      teo <-> menu
#      driver   rmmod emu_cstates, 0.2 s without a cpuidle driver, insmod
#               with the next table (skx, icx, amd, spr)
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
# Counts (short / long): toggles 1000/8000, hotplug cycles 50/400,
# nrq 20/150, createdel 8/60, sched 20/150, gov 20/150, driver 8/60; the
# run lasts at least 60/900 s and ends when every count is reached (about
# 2 / 16 minutes on the debug kernel under TCG). torture_max_s=S (default
# 1200/2400) is the cap, torture_hang_s=S (default 300) the hang limit of
# a worker or device; both end the run as a hang. torture_skip=KIND,...
# leaves workers out (e.g. one whose known lockdep report would switch
# lockdep off for the rest of the run).
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
	MIN_S=900 MAX_S=2400
	q_toggle=8000 q_hotplug=400 q_nrq=150 q_createdel=60 q_sched=150
	q_gov=150 q_driver=60
	TRACE_KB=65536 FIO_CHUNK=60
	;;
*)
	MODE=short
	MIN_S=60 MAX_S=1200
	q_toggle=1000 q_hotplug=50 q_nrq=20 q_createdel=8 q_sched=20
	q_gov=20 q_driver=8
	TRACE_KB=32768 FIO_CHUNK=30
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
ALL_KINDS="toggle hotplug nrq createdel sched gov driver"
SKIP=$(echo "${torture_skip:-}" | tr ',' ' ')
skipped() {
	case " $SKIP " in *" $1 "*) return 0 ;; esac
	return 1
}
KINDS=""
for k in $ALL_KINDS; do
	skipped "$k" || KINDS="$KINDS $k"
done
# The worker processes; toggle_tqN count together as "toggle".
WORKERS=""
for k in toggle_tq0 toggle_tq1 toggle_tq2 hotplug nrq createdel sched gov driver; do
	skipped "${k%_tq[0-9]}" || WORKERS="$WORKERS $k"
done
TABLES=$EMU_TABLES
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

# ---- workers ---------------------------------------------------------------

# w_toggle DEV - one toggler per device, so that modes change on several
# queues at once; every value differs from the one before it. Every value
# is valid: a write that fails (EBUSY too) is an error.
w_toggle() {
	ok=0 err=0 nl=0
	count "toggle_$1" 0 0 0
	while [ ! -f "$STOP" ]; do
		for v in auto 25 off 1 auto 1000000 7 off 300 auto 50 off; do
			nl=$((1 - nl))
			if attr_write "$1" "$v" $nl "$T/e.toggle_$1"; then
				ok=$((ok + 1))
			else
				err=$((err + 1))
				[ $err -gt 200 ] || logerr toggle "$1 $v: $(errtext "$T/e.toggle_$1")"
			fi
			count "toggle_$1" $ok 0 $err
			[ -f "$STOP" ] && break
		done
	done
}

# The togglers' counters summed up as "toggle" (a counter file caught
# while being rewritten counts with its previous value).
sum_toggle() {
	_a=0 _b=0 _c=0
	for _d in $DEVS; do
		_x="" _y="" _z=""
		read -r _x _y _z _rest < "$T/c.toggle_$_d" 2>/dev/null
		if [ -n "$_z" ]; then
			eval "st_$_d='$_x $_y $_z'"
		else
			eval "set -- \${st_$_d:-0 0 0}"
			_x=$1 _y=$2 _z=$3
		fi
		_a=$((_a + _x)) _b=$((_b + _y)) _c=$((_c + _z))
	done
	echo "$_a $_b $_c" > "$T/c.toggle"
}

w_hotplug() {
	ok=0 busy=0 err=0
	f=$CPUS/cpu1/online
	count hotplug 0 0 0
	while [ ! -f "$STOP" ]; do
		remap_write "$f" 0 "$T/e.hotplug"
		r=$?
		busy=$((busy + W_BUSY))
		if [ $r = 0 ]; then
			remap_write "$f" 1 "$T/e.hotplug"
			r=$?
			busy=$((busy + W_BUSY))
			if [ $r = 0 ]; then
				ok=$((ok + 1))
			elif [ $r = 1 ]; then
				err=$((err + 1))
				logerr hotplug "online: $(errtext "$T/e.hotplug")"
				sleep 1
			fi
		elif [ $r = 1 ]; then
			err=$((err + 1))
			[ $err -gt 200 ] || logerr hotplug "offline: $(errtext "$T/e.hotplug")"
			sleep 1
		fi
		count hotplug $ok $busy $err
		# Paced: a tight loop of stop_machine() starves everything else.
		sleep 0.2
	done
	remap_write "$f" 1 "$T/e.hotplug"
}

w_nrq() {
	ok=0 busy=0 err=0 n=0
	count nrq 0 0 0
	while [ ! -f "$STOP" ]; do
		n=$((n + 1))
		# tq2 keeps its poll queue: it runs polled I/O.
		case $((n % 3)) in
		0) f=$NULLB_CFS/tq0/poll_queues v=$(( (n / 3) % 2 )) ;;
		1) f=$NULLB_CFS/tq0/submit_queues v=$(( (n / 3) % 2 + 1 )) ;;
		2) f=$NULLB_CFS/tq2/submit_queues v=$(( (n / 3 + 1) % 2 + 1 )) ;;
		esac
		remap_write "$f" "$v" "$T/e.nrq"
		case $? in
		0) ok=$((ok + 1)) ;;
		1)
			err=$((err + 1))
			[ $err -gt 200 ] || logerr nrq "$f=$v: $(errtext "$T/e.nrq")"
			;;
		esac
		busy=$((busy + W_BUSY))
		count nrq $ok $busy $err
		sleep 1
	done
}

# raises_of DEV - the raises counted in debugfs, summed over DEV's hctxs.
raises_of() {
	cat "$DEBUGFS/block/$1"/hctx*/shallow_idle 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^raises=/) n += substr($i, 8) } END { print n + 0 }'
}

# raised_any DEV - some hctx of DEV has its requests raised (builtins only:
# fork and exec are slow on the debug kernel).
raised_any() {
	for _f in "$DEBUGFS/block/$1"/hctx*/shallow_idle; do
		[ -e "$_f" ] || continue
		while IFS= read -r _l; do
			[ "$_l" = "active=1 raised=1" ] && return 0
		done < "$_f"
	done
	return 1
}

w_createdel() {
	ok=0 busy=0 err=0 n=0 raised=0 inflight=0
	count createdel 0 0 0 0 0
	while [ ! -f "$STOP" ]; do
		n=$((n + 1))
		name=tc$n
		dir=$NULLB_CFS/$name
		t0=$(uptime_ms)
		if ! mkdir "$dir" 2> "$T/e.createdel"; then
			err=$((err + 1))
			logerr createdel "mkdir $name: $(errtext "$T/e.createdel")"
			sleep 1
			continue
		fi
		# Timer completions after 1 ms: reads stay in flight long enough
		# to be deleted under.
		echo $((n % 2 + 1)) > "$dir/submit_queues"
		echo 2 > "$dir/irqmode"
		echo 1000000 > "$dir/completion_nsec"
		echo 1024 > "$dir/size"
		ta=$(uptime_ms)
		if ! { echo 1 > "$dir/power"; } 2> "$T/e.createdel"; then
			err=$((err + 1))
			logerr createdel "power on $name: $(errtext "$T/e.createdel")"
			rmdir "$dir"
			sleep 1
			continue
		fi
		case $((n % 3)) in
		0) v=auto ;;
		1) v=10 ;;
		2) v=300 ;;
		esac
		tb=$(uptime_ms)
		# A valid value: any failure (EBUSY too) is an error.
		if ! attr_write "$name" "$v" 1 "$T/e.createdel"; then
			err=$((err + 1))
			logerr createdel "$name $v: $(errtext "$T/e.createdel")"
		fi
		tc=$(uptime_ms)
		read -r rd0 _rest < "/sys/block/$name/stat"
		# Two O_DIRECT readers (fio takes 5-10 s to start on the debug
		# kernel; dd starts at once).
		dd if="/dev/$name" of=/dev/null bs=4k iflag=direct 2>/dev/null &
		fpid=$!
		dd if="/dev/$name" of=/dev/null bs=4k skip=131072 iflag=direct 2>/dev/null &
		fpid2=$!
		# Delete while I/O is in flight: once the readers' reads complete
		# (up to 30 s), the requests are raised (up to 2 s more) and reads
		# are in flight (up to 10 samples).
		i=0 rd=0
		while [ $i -lt 60 ] && [ "$rd" -lt $((rd0 + 64)) ]; do
			sleep 0.5
			read -r rd _rest < "/sys/block/$name/stat"
			i=$((i + 1))
		done
		j=0
		while [ $j -lt 4 ] && ! raised_any "$name"; do
			sleep 0.5
			j=$((j + 1))
		done
		raised_any "$name" && raised=$((raised + 1))
		inr=0 k=0
		while [ $k -lt 10 ] && [ "$inr" = 0 ]; do
			read -r inr _rest < "/sys/block/$name/inflight"
			k=$((k + 1))
			[ "$inr" = 0 ] && sleep 0.1
		done
		[ "${inr:-0}" -gt 0 ] && inflight=$((inflight + 1))
		t1=$(uptime_ms)
		if ! { echo 0 > "$dir/power"; } 2> "$T/e.createdel"; then
			err=$((err + 1))
			logerr createdel "power off $name: $(errtext "$T/e.createdel")"
		fi
		if ! rmdir "$dir" 2> "$T/e.createdel"; then
			err=$((err + 1))
			logerr createdel "rmdir $name: $(errtext "$T/e.createdel")"
		fi
		t2=$(uptime_ms)
		kill "$fpid" "$fpid2" 2>/dev/null
		wait "$fpid" "$fpid2" 2>/dev/null
		t3=$(uptime_ms)
		echo "$name: mkdir+config $((ta - t0)) power on $((tb - ta)) attr $((tc - tb)) reads up $i x 0.5 s, raised after $j x 0.5 s more, $((t1 - tc)) ms, ${inr:-0} reads in flight, delete $((t2 - t1)) ms, readers exit $((t3 - t2)) ms" >> "$RESULTS_DIR/createdel.txt"
		ok=$((ok + 1))
		count createdel $ok $busy $err $raised $inflight
		sleep 1
	done
}

w_sched() {
	ok=0 busy=0 err=0
	count sched 0 0 0
	while [ ! -f "$STOP" ]; do
		for s in mq-deadline none; do
			for d in tq0 tq1; do
				sysfs_write "/sys/block/$d/queue/scheduler" $s "$T/e.sched"
				case $? in
				0) ok=$((ok + 1)) ;;
				1)
					err=$((err + 1))
					[ $err -gt 200 ] || logerr sched "$d $s: $(errtext "$T/e.sched")"
					;;
				esac
				busy=$((busy + W_BUSY))
				count sched $ok $busy $err
			done
			sleep 1
		done
	done
}

w_gov() {
	ok=0 busy=0 err=0
	count gov 0 0 0
	while [ ! -f "$STOP" ]; do
		for g in teo menu; do
			sysfs_write "$CPUIDLE/current_governor" $g "$T/e.gov"
			r=$?
			if [ $r = 0 ] && [ "$(cat "$CPUIDLE/current_governor")" = $g ]; then
				ok=$((ok + 1))
			elif [ $r != 2 ]; then
				err=$((err + 1))
				[ $err -gt 200 ] || logerr gov "$g: $(errtext "$T/e.gov")"
			fi
			busy=$((busy + W_BUSY))
			count gov $ok $busy $err
			sleep 1
		done
	done
}

w_driver() {
	ok=0 busy=0 err=0
	count driver 0 0 0
	while [ ! -f "$STOP" ]; do
		for t in $(echo " $TABLES " | sed "s/ $DEFAULT_TABLE / /") $DEFAULT_TABLE; do
			if ! emu_unload 2> "$T/e.driver"; then
				err=$((err + 1))
				logerr driver "rmmod: $(errtext "$T/e.driver")"
				sleep 1
				continue
			fi
			# A moment without any cpuidle driver ("auto" has no limit).
			sleep 0.2
			if emu_load "$t" 2> "$T/e.driver"; then
				ok=$((ok + 1))
				echo "$t" >> "$T/tables"
			else
				err=$((err + 1))
				logerr driver "insmod table=$t: $(errtext "$T/e.driver")"
			fi
			count driver $ok $busy $err
			sleep 2
			[ -f "$STOP" ] && break
		done
	done
	[ "$(idle_driver)" = emu_cstates ] || emu_load
}

# w_fio DEV FIO ARGS... - fio on DEV in FIO_CHUNK second runs until stopped.
w_fio() {
	_d=$1
	shift
	runs=0 fails=0
	count "fio-$_d" 0 0 0
	while [ ! -f "$STOP" ]; do
		fio --filename="/dev/$_d" --direct=1 --bs=4k --rw=randread \
			--norandommap --time_based --runtime="$FIO_CHUNK" \
			--eta=never "$@" > "$T/fio-$_d.out" 2>&1 &
		echo $! > "$T/fio-$_d.pid"
		wait $!
		r=$?
		[ -f "$STOP" ] && break
		runs=$((runs + 1))
		if [ $r != 0 ]; then
			fails=$((fails + 1))
			cp "$T/fio-$_d.out" "$RESULTS_DIR/fio-$_d-$runs.txt"
			logerr fio "$_d run $runs: exit $r"
			sleep 1
		fi
		count "fio-$_d" $runs 0 $fails
	done
	count "fio-$_d" $runs 0 $fails
}

# ---- helpers for the checks ------------------------------------------------

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
			eval "_p=\$pid_$k"
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

# ---- 1. setup ----------------------------------------------------------------

[ -z "$SKIP" ] || msg "left out: $SKIP"
msg "mode $MODE: until every count is reached, at least $MIN_S s (hang: $HANG_S s" \
	"without progress, or not done after $MAX_S s); counts toggle=$q_toggle" \
	"hotplug=$q_hotplug nrq=$q_nrq createdel=$q_createdel sched=$q_sched gov=$q_gov" \
	"driver=$q_driver"

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
w_fio tq0 --name=tq0 --ioengine=io_uring --iodepth=8 --numjobs=2 &
pid_fio0=$!
w_fio tq1 --name=steady --ioengine=psync --name=bursty --ioengine=psync \
	--thinktime=20000 &
pid_fio1=$!
w_fio tq2 --name=irq --ioengine=io_uring --iodepth=4 \
	--name=polled --ioengine=io_uring --iodepth=2 --hipri=1 &
pid_fio2=$!
sleep 2
for k in $WORKERS; do
	case $k in
	toggle_*) w_toggle "${k#toggle_}" & ;;
	*) "w_$k" & ;;
	esac
	eval "pid_$k=\$!"
done

HANG=""
last_t=$start
for k in $WORKERS; do
	eval "hb_$k=''; hbt_$k=$start"
done
for d in $DEVS; do
	eval "io_$d=0; iot_$d=$start"
done
while :; do
	sleep 5
	now=$(uptime_s)
	el=$((now - start))
	# Heartbeats: every worker's counters and every device's reads move.
	for k in $WORKERS; do
		c=$(cat "$T/c.$k" 2>/dev/null)
		eval "o=\$hb_$k; ot=\$hbt_$k"
		if [ "$c" != "$o" ]; then
			eval "hb_$k='$c'; hbt_$k=$now"
		elif [ $((now - ot)) -ge "$HANG_S" ]; then
			hang_report "worker $k made no progress for $((now - ot)) s"
		fi
	done
	for d in $DEVS; do
		c=$(ios "$d")
		eval "o=\$io_$d; ot=\$iot_$d"
		if [ "$c" != "$o" ]; then
			eval "io_$d=$c; iot_$d=$now"
		elif [ $((now - ot)) -ge "$HANG_S" ]; then
			hang_report "no read completed on $d for $((now - ot)) s"
		fi
	done
	[ -z "$HANG" ] || break
	sum_toggle
	met=1 short=""
	for k in $KINDS; do
		eval "q=\$q_$k"
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
for d in $DEVS; do
	kill -INT "$(cat "$T/fio-$d.pid" 2>/dev/null)" 2>/dev/null
done

# Wait for every worker, HANG_S s for all of them together.
stop_t=$(uptime_s)
for k in $WORKERS fio0 fio1 fio2; do
	eval "p=\$pid_$k"
	while kill -0 "$p" 2>/dev/null && [ $(($(uptime_s) - stop_t)) -lt "$HANG_S" ]; do
		# A fio run may have started just before the stop.
		case $k in
		fio*) kill -INT "$(cat "$T/fio-tq${k#fio}.pid" 2>/dev/null)" 2>/dev/null ;;
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

sum_toggle

tables=""
for t in $TABLES; do
	tables="$tables $t:$(grep -cx "$t" "$T/tables" 2>/dev/null || echo 0)"
done
{
	echo "torture $MODE: $(uname -r), $(nproc) CPUs, run $run_s s"
	printf '%-10s %8s %8s %8s %8s\n' operation "done" ebusy errors target
	for k in $KINDS; do
		eval "q=\$q_$k"
		set -- $(cat "$T/c.$k") 0 0 0 0
		extra=""
		case $k in
		createdel) extra="  (deleted with reads in flight: $5, with requests raised: $4)" ;;
		driver) extra="  (tables:$tables)" ;;
		hotplug) extra="  (CPU1 offline+online cycles)" ;;
		toggle) extra="  (no retry: a failed write is an error)" ;;
		esac
		printf '%-10s %8s %8s %8s %8s%s\n' "$k" "$1" "$2" "$3" "$q" "$extra"
	done
	for d in $DEVS; do
		set -- $(cat "$T/c.fio-$d") 0 0 0
		echo "fio $d: $1 runs of $FIO_CHUNK s, $3 failed, $(ios "$d") reads completed"
	done
} > "$COUNTS"
cat "$COUNTS"

# The counts are figures: how fast the run went is no verdict (a run that
# stopped making progress is a hang, above). Only errors fail.
for k in $KINDS; do
	eval "q=\$q_$k"
	set -- $(cat "$T/c.$k") 0 0 0 0
	case $k in
	toggle) what="$1 writes (target $q), $3 failed (EBUSY included)" ;;
	createdel) what="$1 done (target $q), $3 errors (attribute writes: EBUSY included)" ;;
	*) what="$1 done (target $q), $2 EBUSY retries, $3 errors" ;;
	esac
	if [ "$3" = 0 ]; then
		tap_ok "$k: $what"
	else
		tap_not_ok "$k: $what (errors.txt)"
	fi
done
for k in $SKIP; do
	tap_skip "$k" "left out (torture_skip)"
done
ff=0
for d in $DEVS; do
	set -- $(cat "$T/c.fio-$d") 0 0 0
	ff=$((ff + $3))
done
if [ $ff = 0 ]; then
	tap_ok "fio on tq0..tq2: no failed run"
else
	tap_not_ok "fio on tq0..tq2: $ff failed runs (fio-*.txt)"
fi
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
	eval "raises0_$d=$(raises_of "$d")"
	fio --name=final --filename="/dev/$d" --direct=1 --bs=4k --rw=randread \
		--ioengine=psync --numjobs=2 --time_based --runtime=4 \
		--output=/dev/null > /dev/null 2>&1 &
done
wait
# The devices raised during the burst: their raise counters went up (a
# poll of "raised=1" misses short busy periods on the debug kernel).
n_raised=0
for d in $DEVS; do
	eval "r0=\$raises0_$d"
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
	printf '  "fio_failed_runs": %s,\n' "$ff"
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
