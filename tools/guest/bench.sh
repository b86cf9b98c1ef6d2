#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - the fio benchmark matrix of the shallow_idle series; runs in
# the test guest (scripts/bench/bench.sh) or, with bench_mode=host, on a real
# machine (scripts/bench/host-bench.sh). POSIX sh: busybox ash in the guest, dash
# or bash on a host.
#
# Usage: started by a wrapper that scripts/bench/bench.sh or scripts/bench/host-bench.sh
# writes; every setting comes from the environment:
#   bench_mode=guest|host      guest (default): loads emu_cstates, may use
#                              null_blk; host: touches nothing but bench_dev
#                              and the cpuidle/PM QoS settings it restores
#   bench_idle=cpuidle|poll    poll: the kernel runs with idle=poll; only
#                              configuration "poll" is measured
#   bench_table=spr            emu_cstates table (guest mode)
#   bench_dev=/dev/vda         the device (host mode: required)
#   bench_emu=""               guest mode: emu_blk parameters (for example
#                              "latency_us=20"); the device is then
#                              /dev/emublk0 of tools/emu-blk, its controller
#                              the last CPU, which emu_cstates leaves without
#                              C-states (skip_cpu) and fio does not run on
#   bench_cpus=""              CPUs fio runs on (taskset list; default: all,
#                              with bench_emu all but the controller)
#   bench_govs="menu teo"      cpuidle governors ("-": leave as is)
#   bench_configs="off auto c6off dmalat"
#   bench_workloads="qd1 qd1-think200us qd1-think20ms qd32"
#                              job files bench_jobs/NAME.fio
#   bench_jobs=DIR             fio job files (tools/bench/)
#   bench_reps=3 bench_runtime=4 bench_steady=1 bench_after=1
#   bench_pairs=5 bench_null_runtime=3   null_blk overhead pairs (guest)
#   bench_readonly=1           fio --readonly (0: the job may write)
#   bench_fs=""                guest mode with bench_emu: make this file
#                              system (ext4) on the device before the
#                              matrix, mount it on /mnt/bench and give fio
#                              FSDIR=/mnt/bench (job files that write files,
#                              e.g. fsync.fio); the journal thread and the
#                              unbound workqueues are kept off the controller
#
# Configurations (each cell starts from "off", C-states enabled, no holder):
#   off     shallow_idle off;  auto: shallow_idle auto on the device;
#   c6off   every idle state whose exit latency is above the auto limit
#           disabled on every CPU (stateN/disable);
#   dmalat  /dev/cpu_dma_latency held open at the auto limit (4-byte binary
#           write) by a background process;
#   poll    nothing (the kernel was booted with idle=poll).
# Order: for each repetition, for each governor, for each workload, every
# configuration once, the order of configurations rotated by one per
# repetition.
#
# Per cell, in $RESULTS_DIR: fio/LABEL.json (fio's JSON), meta/LABEL.json and,
# when there were any, the PM QoS trace lines in meta/LABEL.trace. Meta:
# idle state time (us, summed over CPUs, and per CPU) from the first I/O to
# fio's exit (the run window), summed over bench_after s after it, /proc/stat
# ticks of the run window,
# dev_pm_qos_{add,update,remove}_request events on CPU devices (tracefs
# instance) over the whole run and in steady state (from bench_steady s
# after the first I/O to 0.5 s before the end of the run, with the device's
# I/O count of that window), debugfs raises/relaxes/misses of the device's hctxs,
# local timer, function call and rescheduling interrupts per CPU over the
# run window, RAPL package energy when readable, the device's completions
# during the run and how many of them ran on a CPU woken from a deep state
# (wake_count), with bench_emu the controller's counters (emu_blk/stats),
# and under emu_cstates the share of the run and of the idle window after
# it in which every CPU with emulated states was in the package-deep state
# at once (emu_cstates/package). Plus info.json and bench.log.
# Exit code: 0 when every fio run succeeded, 1 otherwise.
set -u

SHARE=${SHARE:-$(dirname "$0")}
. "$SHARE/lib.sh"

MODE=${bench_mode:-guest}
IDLE=${bench_idle:-cpuidle}
TABLE=${bench_table:-$DEFAULT_TABLE}
DEV=${bench_dev:-}
# The matrix comes from scripts/bench/bench.sh or host-bench.sh (their
# defaults: scripts/lib/common.sh); none is guessed here.
GOVS=$(echo "${bench_govs:?bench_govs= not set (scripts/bench/bench.sh sets it)}" | tr ',' ' ')
CONFIGS=$(echo "${bench_configs:?bench_configs= not set (scripts/bench/bench.sh sets it)}" | tr ',' ' ')
WORKLOADS=$(echo "${bench_workloads:?bench_workloads= not set (scripts/bench/bench.sh sets it)}" | tr ',' ' ')
JOBS=${bench_jobs:-$SHARE/bench-jobs}
REPS=${bench_reps:-3}
RUNTIME=${bench_runtime:-4}
STEADY=${bench_steady:-1}
AFTER=${bench_after:-1}
PAIRS=${bench_pairs:-5}
NULL_RUNTIME=${bench_null_runtime:-3}
READONLY=${bench_readonly:-1}
FS=${bench_fs:-}
EMU=${bench_emu:-}
FIO_CPUS=${bench_cpus:-}
EMU_BLK_KO=${EMU_BLK_KO:-$SHARE/emu_blk.ko}
CTL=""

now() {
	cut -d' ' -f1 /proc/uptime
}

say() {
	echo "bench: $*"
	echo "bench: $*" >> "$RESULTS_DIR/bench.log"
}
fail() {
	say "error: $*"
	exit 1
}

case $MODE in
guest) DEV=${DEV:-/dev/vda} ;;
host) [ -n "$DEV" ] || fail "bench_mode=host needs bench_dev" ;;
*) fail "bench_mode must be guest or host" ;;
esac
if [ -n "$EMU" ]; then
	[ "$MODE" = guest ] || fail "bench_emu needs bench_mode=guest"
	CTL=$(($(cpu_ids | wc -l) - 1))
	[ "$CTL" -gt 0 ] || fail "bench_emu needs 2 CPUs at least (one is the controller)"
	# shellcheck disable=SC2086
	insmod "$EMU_BLK_KO" controller="$CTL" $EMU || fail "cannot load emu_blk $EMU"
	DEV=/dev/emublk0
	[ -n "$FIO_CPUS" ] || FIO_CPUS=0-$((CTL - 1))
fi
TASKSET=""
[ -z "$FIO_CPUS" ] || TASKSET="taskset -c $FIO_CPUS"

case $IDLE in
cpuidle) ;;
poll) CONFIGS=poll GOVS=- ;;
*) fail "bench_idle must be cpuidle or poll" ;;
esac
[ -b "$DEV" ] || fail "$DEV is not a block device"
for wl in $WORKLOADS; do
	[ -f "$JOBS/$wl.fio" ] || fail "no job file $JOBS/$wl.fio"
done
command -v fio >/dev/null || fail "fio not found"

mkdir -p "$RESULTS_DIR/fio" "$RESULTS_DIR/meta"
: > "$RESULTS_DIR/bench.log"
tmp=$(mktemp -d)
NCPU=$(cpu_ids | wc -l)
FIO_RO=""
[ "$READONLY" = 1 ] && FIO_RO=--readonly

# ---- the device ---------------------------------------------------------

# dev_setup DEV - sets DEV_STAT (stat file), DEV_QUEUE (queue folder of
# the whole disk) and DEV_DBG (debugfs folder of the disk).
dev_setup() {
	_n=$(basename "$(readlink -f "$1")")
	_s=/sys/class/block/$_n
	[ -d "$_s" ] || fail "no $_s"
	DEV_STAT=$_s/stat
	_disk=$_n
	[ -f "$_s/partition" ] && _disk=$(basename "$(readlink -f "$_s/..")")
	DEV_QUEUE=/sys/class/block/$_disk/queue
	DEV_DBG=/sys/kernel/debug/block/$_disk
	DEV_DEVT=$(cat "/sys/class/block/$_disk/dev")
	SI=$(si_attr "$_disk")
}

# dev_ios - I/Os completed on the device (reads + writes).
dev_ios() {
	read -r _r _x _x _x _w _rest < "$DEV_STAT"
	echo $((_r + _w))
}

attr_set() {
	[ -w "$DEV_QUEUE/$SI" ] || return 1
	echo "$1" > "$DEV_QUEUE/$SI"
}

# dbg_counts - "raises relaxes misses" summed over the disk's hctxs.
dbg_counts() {
	cat "$DEV_DBG"/hctx*/"$SI" 2>/dev/null | awk '
	{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] += kv[2] } }
	END { printf "%d %d %d\n", v["raises"], v["relaxes"], v["misses"] }'
}

# ---- idle states --------------------------------------------------------

# state_table - "NAME latency residency" of cpu0's states.
state_table() {
	for _s in "$CPUS/cpu0"/cpuidle/state*; do
		[ -d "$_s" ] || continue
		echo "$(tr ' ' _ < "$_s/name") $(cat "$_s/latency") $(cat "$_s/residency")"
	done
}

# deep_states LIMIT - names of the states with exit latency above LIMIT.
deep_states() {
	state_table | awk -v l="$1" '$2 > l { print $1 }'
}

# deep_save - remember the disable flags of the deep states: "deep_set 0"
# restores them (on a host the administrator may have set some).
deep_save() {
	for _c in $(cpu_ids); do
		for _d in $DEEP; do
			_i=$(state_index "$_c" "$_d") || continue
			echo "$_c $_i $(cat "$CPUS/cpu$_c/cpuidle/state$_i/disable")"
		done
	done > "$tmp/disable0"
	if awk '$3 != 0 { f = 1 } END { exit !f }' "$tmp/disable0"; then
		say "warning: $DEEP already disabled on some CPUs: off, auto and dmalat run so"
	fi
}

# deep_set 0|1 - restore (0) or disable (1) the deep states on every CPU.
deep_set() {
	if [ "$1" = 0 ] && [ -f "$tmp/disable0" ]; then
		while read -r _c _i _v; do
			echo "$_v" > "$CPUS/cpu$_c/cpuidle/state$_i/disable" || return 1
		done < "$tmp/disable0"
		return 0
	fi
	for _d in $DEEP; do
		state_write_all "$_d" disable "$1" || return 1
	done
}

# snap FILE - "cpuN stateM NAME usage time_us" for every CPU and state (one
# grep: cheaper than lib.sh's idle_snap under TCG). Blanks in NAME become _.
snap() {
	grep -H . "$CPUS"/cpu[0-9]*/cpuidle/state[0-9]*/name \
		"$CPUS"/cpu[0-9]*/cpuidle/state[0-9]*/usage \
		"$CPUS"/cpu[0-9]*/cpuidle/state[0-9]*/time 2>/dev/null | awk '
	{
		p = $0; sub(/:.*/, "", p); v = substr($0, length(p) + 2)
		n = split(p, a, "/"); k = a[n - 3] " " a[n - 1]
		if (!(k in seen)) { seen[k] = 1; o[++m] = k }
		if (a[n] == "name") { gsub(/ /, "_", v); nm[k] = v }
		else if (a[n] == "usage") u[k] = v
		else t[k] = v
	}
	END { for (i = 1; i <= m; i++) print o[i], nm[o[i]], u[o[i]] + 0, t[o[i]] + 0 }' > "$1"
}

# idle_sum SNAP - "NAME time_us usage" summed over CPUs, in table order.
idle_sum() {
	awk '{ if (!($3 in t)) o[++n] = $3; t[$3] += $5; u[$3] += $4 }
	     END { for (i = 1; i <= n; i++) print o[i], t[o[i]], u[o[i]] }' "$1"
}

# idle_json BEFORE AFTER FIELD - {"NAME": delta, ...}; FIELD 2 = time,
# 3 = usage.
idle_json() {
	idle_sum "$1" > "$tmp/sa"
	idle_sum "$2" > "$tmp/sb"
	awk -v f="$3" 'NR == FNR { b[$1] = $f; next }
	     { printf "%s\"%s\": %d", sep, $1, $f - b[$1]; sep = ", " }
	     END { printf "\n" }' "$tmp/sa" "$tmp/sb" | sed 's/^/{/; s/$/}/'
}

# idle_cpu_json BEFORE AFTER FIELD - {"CPU": {"NAME": delta, ...}, ...}:
# per CPU and state between the two snaps, FIELD 5 = time (us), 4 = usage
# (entries).
idle_cpu_json() {
	awk -v f="$3" 'NR == FNR { b[$1 " " $2] = $f; next }
	{
		c = substr($1, 4)
		if (c != last) {
			printf "%s\"%s\": {", (last == "" ? "" : "}, "), c
			last = c; sep = ""
		}
		printf "%s\"%s\": %d", sep, $3, $f - b[$1 " " $2]; sep = ", "
	}
	END { printf "%s\n", (last == "" ? "" : "}") }' "$1" "$2" | sed 's/^/{/; s/$/}/'
}

# stat_snap - "total idle iowait" jiffies of all CPUs from /proc/stat.
stat_snap() {
	awk '$1 == "cpu" { t = 0; for (i = 2; i <= 9; i++) t += $i
	     print t, $5, $6; exit }' /proc/stat
}

# ---- RAPL package energy ------------------------------------------------

RAPL=""
for _z in /sys/class/powercap/intel-rapl:*; do
	case ${_z##*/} in
	intel-rapl:*:*) continue ;;
	esac
	[ -r "$_z/energy_uj" ] && cat "$_z/energy_uj" >/dev/null 2>&1 && RAPL="$RAPL $_z"
done

# energy_snap - "uj uj ..." per package, or "-" without RAPL.
energy_snap() {
	[ -n "$RAPL" ] || { echo -; return; }
	for _z in $RAPL; do
		printf '%s ' "$(cat "$_z/energy_uj")"
	done
	echo
}

# energy_delta BEFORE AFTER - microjoules summed over packages (wraps
# handled), or null.
energy_delta() {
	[ "$1" = - ] && { echo null; return; }
	_i=0 _sum=0
	for _z in $RAPL; do
		_i=$((_i + 1))
		_b=$(echo "$1" | cut -d' ' -f$_i)
		_a=$(echo "$2" | cut -d' ' -f$_i)
		_d=$((_a - _b))
		[ $_d -lt 0 ] && _d=$((_d + $(cat "$_z/max_energy_range_uj")))
		_sum=$((_sum + _d))
	done
	echo $_sum
}

# ---- PM QoS trace events ------------------------------------------------

TR=""
for _t in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	if [ -d "$_t/instances" ]; then
		TR=$_t/instances/bench-$$
		break
	fi
done
if [ -n "$TR" ] && mkdir "$TR" 2>/dev/null; then
	for _e in dev_pm_qos_add_request dev_pm_qos_update_request dev_pm_qos_remove_request; do
		echo 1 > "$TR/events/power/$_e/enable" || TR=""
		[ -n "$TR" ] || break
	done
else
	TR=""
fi

# qos_count - dev_pm_qos events on CPU devices since the last clear.
qos_count() {
	[ -n "$TR" ] || { echo null; return; }
	grep -c 'dev_pm_qos_[a-z_]*: device=cpu' "$TR/trace"
}

qos_clear() {
	[ -z "$TR" ] || : > "$TR/trace"
}

# ---- completions on a CPU woken from a deep state ------------------------

# A second instance, read only after fio ended (it is large): idle entries
# (cpu_idle without its exit events) and the device's completions
# (block_rq_complete, filtered per cell by wake_clear). A completion ran on
# a CPU woken from a deep state when it ran in that CPU's idle task (pid 0)
# and the CPU's last idle entry was a deep state: under emu_cstates the
# interrupt is taken inside the state, on real hardware right after its
# exit, in both cases before the idle task schedules.
TRW=""
if [ -n "$TR" ] && mkdir "$TR-wake" 2>/dev/null; then
	TRW=$TR-wake
	echo 16384 > "$TRW/buffer_size_kb" 2>/dev/null
	if ! echo 'state != 4294967295' > "$TRW/events/power/cpu_idle/filter" ||
		! echo 1 > "$TRW/events/power/cpu_idle/enable" ||
		! echo 1 > "$TRW/events/block/block_rq_complete/enable"; then
		rmdir "$TRW"
		TRW=""
	fi
fi

# wake_clear MAJ:MIN - empty the buffer, completions of that device only.
wake_clear() {
	[ -n "$TRW" ] || return 0
	echo "dev == $(( (${1%%:*} << 20) | ${1#*:} ))" > "$TRW/events/block/block_rq_complete/filter"
	: > "$TRW/trace"
}

# wake_count - '{"completions": N, "deep": N, "per_cpu": {"CPU": [N, N],
# ...}, "lost": N}' since wake_clear: completions and those on a CPU woken
# from a deep state, in all and per completion CPU (lost: events the
# buffer dropped; null without tracefs). The deep states are $DEEP_IDX
# (indices on cpu0). Fields of a line: task-pid, [cpu], flags, time,
# event, then "state=N" for cpu_idle.
wake_count() {
	[ -n "$TRW" ] || { echo null; return; }
	awk -v deep=" $DEEP_IDX " '
	$5 == "cpu_idle:" { last[$2] = substr($6, 7); next }
	$5 == "block_rq_complete:" {
		n++
		# The CPU as a string: busybox awk reads "010" as octal.
		c = substr($2, 2, length($2) - 2)
		sub(/^0+/, "", c)
		if (c == "")
			c = "0"
		cn[c]++
		if ($1 == "<idle>-0" && index(deep, " " last[$2] " ")) { k++; ck[c]++ }
	}
	END {
		printf "{\"completions\": %d, \"deep\": %d, \"per_cpu\": {", n, k
		sep = ""
		for (c in cn) { printf "%s\"%s\": [%d, %d]", sep, c, cn[c], ck[c]; sep = ", " }
		printf "}"
	}' "$TRW/trace"
	printf ', "lost": %d}' "$(trace_overruns "$TRW")"
}

# pkg_snap - "all_in_ns now_ns" of emu_cstates' package file, or "-".
pkg_snap() {
	_f=/sys/kernel/debug/emu_cstates/package
	[ -r "$_f" ] || { echo -; return; }
	awk '$1 == "all_in_ns" { a = $2 } $1 == "now_ns" { n = $2 } END { print a, n }' "$_f"
}

# pkg_share BEFORE AFTER - the share of the window in which every CPU with
# emulated states was in the package-deep state at once, or null.
pkg_share() {
	[ "$1" = - ] || [ "$2" = - ] && { echo null; return; }
	echo "$1 $2" | awk '{ d = $4 - $2; if (d > 0) printf "%.6f\n", ($3 - $1) / d; else print "null" }'
}

# emu_stats - the emu_blk controller's counters as JSON, or null.
emu_stats() {
	[ -n "$EMU" ] && [ -r /sys/kernel/debug/emu_blk/stats ] || { echo null; return; }
	awk '{ printf "%s\"%s\": %s", (NR > 1 ? ", " : "{"), $1, $2 } END { print "}" }' \
		/sys/kernel/debug/emu_blk/stats
}

# ---- /dev/cpu_dma_latency holder ----------------------------------------

HOLDER=""

# holder_start US - hold a global CPU latency request of US microseconds:
# one 4-byte write (little endian), the file kept open by a sleeping shell.
# Fails when the open or the write failed (the holder is gone then).
holder_start() {
	_v=$1 _fmt=""
	for _k in 1 2 3 4; do
		_fmt="$_fmt\\$(printf %03o $((_v & 255)))"
		_v=$((_v >> 8))
	done
	# shellcheck disable=SC2059
	(printf "$_fmt" || exit 1; exec sleep 1000000) > /dev/cpu_dma_latency &
	HOLDER=$!
	sleep 0.1
	kill -0 "$HOLDER" 2>/dev/null
}

holder_stop() {
	[ -n "$HOLDER" ] || return 0
	kill "$HOLDER" 2>/dev/null
	wait "$HOLDER" 2>/dev/null
	HOLDER=""
}

# dma_read - the global CPU latency limit in force (us).
dma_read() {
	od -An -tu4 < /dev/cpu_dma_latency | tr -d ' '
}

# ---- configurations -----------------------------------------------------

cfg_reset() {
	holder_stop
	[ "$IDLE" = poll ] || deep_set 0 || say "cannot enable the deep states"
	attr_set off || true
}

# cfg_apply CONFIG - sets DMA_READ (dmalat only) and CFG_ERR (why the
# configuration is not in force; empty when it is: a cell run without it
# is a failed cell).
cfg_apply() {
	cfg_reset
	DMA_READ=null CFG_ERR=""
	case $1 in
	off|poll) ;;
	auto) attr_set auto || fail "cannot set $DEV_QUEUE/$SI to auto" ;;
	c6off) deep_set 1 || fail "cannot disable $DEEP" ;;
	dmalat)
		holder_start "$LIMIT" ||
			CFG_ERR="the write of $LIMIT us to /dev/cpu_dma_latency failed"
		DMA_READ=$(dma_read)
		[ -n "$DMA_READ" ] || DMA_READ=null
		[ "$DMA_READ" = "$LIMIT" ] ||
			CFG_ERR="${CFG_ERR:+$CFG_ERR; }/dev/cpu_dma_latency reads $DMA_READ, not $LIMIT"
		;;
	*) fail "unknown configuration $1" ;;
	esac
}

# ---- restore on exit ----------------------------------------------------

GOV0=$(cat "$CPUIDLE/current_governor" 2>/dev/null || true)
ATTR0=""
cleanup() {
	holder_stop
	[ "$IDLE" = poll ] || [ -z "${DEEP:-}" ] || deep_set 0
	[ -z "$ATTR0" ] || attr_set "$ATTR0" 2>/dev/null
	[ -z "$GOV0" ] || [ "$(cat "$CPUIDLE/current_governor")" = "$GOV0" ] ||
		gov_set "$GOV0" 2>/dev/null
	[ -z "$TR" ] || rmdir "$TR" 2>/dev/null
	[ -z "$TRW" ] || rmdir "$TRW" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# loc_delta BEFORE AFTER - JSON list of the per-CPU differences.
loc_delta() {
	echo "$1|$2" | awk -F'|' '{ n = split($1, a, " "); split($2, b, " ")
		printf "["; for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? ", " : ""), b[i] - a[i]; printf "]" }'
}

# ---- one cell -----------------------------------------------------------

CELL=0
NCELLS=0
FIO_FAIL=0
CFG_FAIL=0

# run_cell GOV CONFIG WORKLOAD REP DEVICE RUNTIME AFTER_S
run_cell() {
	_gov=$1 _cfg=$2 _wl=$3 _rep=$4 _dev=$5 _rt=$6 _aft=$7
	CELL=$((CELL + 1))
	_label=$_gov-$_cfg-$_wl-r$_rep
	_json=$RESULTS_DIR/fio/$_label.json
	_job=$JOBS/$_wl.fio
	[ "$_wl" = null-qd32 ] && _job=$JOBS/qd32.fio
	dev_setup "$_dev"

	cfg_apply "$_cfg"
	_cfg_ok=true
	if [ -n "$CFG_ERR" ]; then
		_cfg_ok=false
		CFG_FAIL=$((CFG_FAIL + 1))
		say "error: $_label: $CFG_ERR: the cell fails"
	fi
	sleep 0.2
	# shellcheck disable=SC2046
	set -- $(dbg_counts)
	_d0r=$1 _d0x=$2 _d0m=$3
	_ios0=$(dev_ios)
	qos_clear
	wake_clear "$DEV_DEVT"
	_c0=$(emu_stats)
	_t0=$(now)
	DEV=$_dev RUNTIME=$_rt $TASKSET fio $FIO_RO --output-format=json --output="$_json" \
		"$_job" > "$tmp/fio.out" 2>&1 &
	_fpid=$!
	# The run starts at the device's first I/O.
	_n=0
	while [ "$(dev_ios)" = "$_ios0" ] && [ $_n -lt 1000 ] && kill -0 $_fpid 2>/dev/null; do
		sleep 0.01
		_n=$((_n + 1))
	done
	snap "$tmp/i0"
	_p0=$(pkg_snap)
	_s0=$(stat_snap)
	_e0=$(energy_snap)
	_l0=$(loc_snap)
	_cal0=$(loc_snap CAL)
	_res0=$(loc_snap RES)
	_t1=$(now)
	# Steady state: from STEADY s after the first I/O to 0.5 s before the
	# end of the run (the relax after the last I/O is no steady state).
	sleep "$STEADY"
	_q1=$(qos_count)
	_m1=$(dev_ios)
	_ts1=$(now)
	sleep "$(echo "$_rt $STEADY" | awk '{ d = $1 - $2 - 0.5; print (d > 0 ? d : 0) }')"
	_qs=$(qos_count)
	_ms=$(dev_ios)
	_ts2=$(now)
	wait $_fpid
	_rc=$?
	_q2=$(qos_count)
	if [ "$_q2" != null ] && [ "$_q2" != 0 ]; then
		grep 'dev_pm_qos_[a-z_]*: device=cpu' "$TR/trace" > "$RESULTS_DIR/meta/$_label.trace"
	fi
	_c1=$(emu_stats)
	snap "$tmp/i1"
	_p1=$(pkg_snap)
	_s1=$(stat_snap)
	_e1=$(energy_snap)
	_l1=$(loc_snap)
	_cal1=$(loc_snap CAL)
	_res1=$(loc_snap RES)
	_t2=$(now)
	# shellcheck disable=SC2046
	set -- $(dbg_counts)
	_d1r=$1 _d1x=$2 _d1m=$3
	if [ "$_aft" != 0 ]; then
		sleep "$_aft"
	fi
	snap "$tmp/i2"
	_p2=$(pkg_snap)
	_e2=$(energy_snap)
	_t3=$(now)
	# After the idle window: the trace is large, reading it is busy time.
	_wake=$(wake_count)
	cfg_reset

	if [ $_rc != 0 ]; then
		FIO_FAIL=$((FIO_FAIL + 1))
		sed 's/^/bench: fio: /' "$tmp/fio.out" | tail -n 5
	fi
	_steady=null
	[ "$_q1" = null ] || _steady=$((_qs - _q1))
	_sum=$(fio_summary "$_json" 2>/dev/null || echo "- - - -")
	# shellcheck disable=SC2086
	set -- $_s0 $_s1
	cat > "$RESULTS_DIR/meta/$_label.json" <<EOF
{"mode": "$MODE", "idle": "$IDLE", "table": "$TABLE", "governor": "$_gov",
 "config": "$_cfg", "workload": "$_wl", "rep": $_rep, "device": "$_dev",
 "fio": "fio/$_label.json", "fio_rc": $_rc, "config_ok": $_cfg_ok, "runtime_s": $_rt,
 "startup_s": $(echo "$_t0 $_t1" | awk '{print $2 - $1}'),
 "run_s": $(echo "$_t1 $_t2" | awk '{print $2 - $1}'),
 "after_s": $(echo "$_t2 $_t3" | awk '{print $2 - $1}'),
 "cpus": $NCPU,
 "idle_us": $(idle_json "$tmp/i0" "$tmp/i1" 2),
 "idle_usage": $(idle_json "$tmp/i0" "$tmp/i1" 3),
 "idle_after_us": $(idle_json "$tmp/i1" "$tmp/i2" 2),
 "idle_us_cpu": $(idle_cpu_json "$tmp/i0" "$tmp/i1" 5),
 "idle_usage_cpu": $(idle_cpu_json "$tmp/i0" "$tmp/i1" 4),
 "stat": {"total": $(($4 - $1)), "idle": $(($5 - $2)), "iowait": $(($6 - $3))},
 "qos_events": $_q2, "qos_events_steady": $_steady,
 "ios_steady": $((_ms - _m1)), "steady_s": $(echo "$_ts1 $_ts2" | awk '{print $2 - $1}'),
 "debugfs": {"raises": $((_d1r - _d0r)), "relaxes": $((_d1x - _d0x)), "misses": $((_d1m - _d0m))},
 "local_timer_irqs": $(loc_delta "$_l0" "$_l1"),
 "call_ipis": $(loc_delta "$_cal0" "$_cal1"), "resched_ipis": $(loc_delta "$_res0" "$_res1"),
 "energy_uj": $(energy_delta "$_e0" "$_e1"),
 "energy_after_uj": $(energy_delta "$_e1" "$_e2"),
 "wake": $_wake, "emu_before": $_c0, "emu_after": $_c1,
 "pkg_deep_share": $(pkg_share "$_p0" "$_p1"), "pkg_deep_after_share": $(pkg_share "$_p1" "$_p2"),
 "limit_us": ${LIMIT:-null}, "dmalat_read": $DMA_READ,
 "clocksource": "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"}
EOF
	# shellcheck disable=SC2086
	set -- $_sum
	say "$CELL/$NCELLS $_label: clat p50 $1 us p99 $2 us, iops $4, qos events $_q2 (steady $_steady)"
}

# ---- setup --------------------------------------------------------------

dev_setup "$DEV"
ATTR0=$(cat "$DEV_QUEUE/$SI" 2>/dev/null || true)
[ -n "$ATTR0" ] || fail "$DEV_QUEUE/$SI missing: kernel without the series?"

if [ "$IDLE" = cpuidle ] && [ "$MODE" = guest ]; then
	emu_load "$TABLE" ${CTL:+skip_cpu=$CTL} ||
		fail "cannot load emu_cstates table=$TABLE${CTL:+ skip_cpu=$CTL}"
fi

LIMIT=""
DEEP=""
DEEP_IDX=""
LIMIT_SRC=none
if [ "$IDLE" = cpuidle ]; then
	[ "$(idle_driver)" != none ] || fail "no cpuidle driver"
	# The auto limit: the one the kernel chose, from debugfs while a
	# stream holds the queue (no copy of the kernel's rule here).
	attr_set auto
	DEV=$DEV RUNTIME=3 $TASKSET fio $FIO_RO --output-format=json --output="$tmp/cal.json" \
		"$JOBS/qd1.fio" > /dev/null 2>&1 &
	_cal=$!
	_n=0
	while [ $_n -lt 300 ] && [ -z "$LIMIT" ]; do
		sleep 0.01
		LIMIT=$(cat "$DEV_DBG"/hctx*/"$SI" 2>/dev/null |
			sed -n 's/^cpu[0-9]*=\([0-9][0-9]*\)$/\1/p' | sort -n | head -n 1)
		_n=$((_n + 1))
	done
	kill $_cal 2>/dev/null
	wait $_cal 2>/dev/null
	attr_set off
	[ -n "$LIMIT" ] || fail "the kernel showed no auto limit in debugfs ($DEV_DBG/hctx*/$SI) within 3 s of QD1 reads with $SI=auto"
	LIMIT_SRC=debugfs
	DEEP=$(deep_states "$LIMIT" | tr '\n' ' ' | sed 's/ $//')
	[ -n "$DEEP" ] || fail "no idle state deeper than $LIMIT us"
	DEEP_IDX=$(for _d in $DEEP; do state_index 0 "$_d"; done | tr '\n' ' ')
	deep_save
	say "auto limit $LIMIT us (the kernel's, from debugfs), deep states: $DEEP"
fi

for gov in $GOVS; do
	[ "$gov" = - ] || grep -qw "$gov" "$CPUIDLE/available_governors" ||
		fail "governor $gov not available"
done

n_cfg=$(echo "$CONFIGS" | wc -w)
n_wl=$(echo "$WORKLOADS" | wc -w)
n_gov=$(echo "$GOVS" | wc -w)
NCELLS=$((REPS * n_gov * n_wl * n_cfg))
[ "$MODE" = guest ] && [ "$IDLE" = cpuidle ] && NCELLS=$((NCELLS + 2 * PAIRS))

json_list() {
	echo "$*" | awk '{ for (i = 1; i <= NF; i++) printf "%s\"%s\"", (i > 1 ? ", " : ""), $i }'
}

{
	echo "{"
	echo "  \"mode\": \"$MODE\", \"idle\": \"$IDLE\", \"table\": \"$TABLE\","
	echo "  \"kernel\": \"$(uname -r)\", \"kernel_version\": \"$(uname -v)\","
	echo "  \"cpus\": $NCPU, \"device\": \"$DEV\","
	echo "  \"platform\": \"${bench_platform:-}\","
	echo "  \"emu\": \"$EMU\", \"controller_cpu\": ${CTL:-null}, \"fio_cpus\": \"$FIO_CPUS\","
	echo "  \"wake_source\": \"$([ -n "$TRW" ] && echo tracefs || echo none)\","
	echo "  \"hctx_cpus\": [$(for _h in "$DEV_QUEUE"/../mq/*/cpu_list; do [ -f "$_h" ] && cat "$_h"; done | sed 's/.*/"&"/' | paste -sd, - | sed 's/,/, /g')],"
	echo "  \"cpuidle_driver\": \"$(idle_driver 2>/dev/null || echo none)\","
	echo "  \"cmdline\": \"$(cat /proc/cmdline)\","
	echo "  \"states\": [$(state_table | awk '{ printf "%s{\"name\": \"%s\", \"latency_us\": %d, \"residency_us\": %d}", (NR > 1 ? ", " : ""), $1, $2, $3 }')],"
	echo "  \"limit_us\": ${LIMIT:-null}, \"limit_source\": \"$LIMIT_SRC\","
	echo "  \"deep_states\": [$(json_list "$DEEP")],"
	echo "  \"governors\": [$(json_list "$GOVS")], \"configs\": [$(json_list "$CONFIGS")],"
	echo "  \"workloads\": [$(json_list "$WORKLOADS")],"
	echo "  \"reps\": $REPS, \"runtime_s\": $RUNTIME, \"steady_after_s\": $STEADY,"
	echo "  \"after_s\": $AFTER, \"pairs\": $PAIRS, \"null_runtime_s\": $NULL_RUNTIME,"
	echo "  \"qos_events_source\": \"$([ -n "$TR" ] && echo tracefs || echo none)\","
	echo "  \"rapl_packages\": $(echo "$RAPL" | wc -w)"
	echo "}"
} > "$RESULTS_DIR/info.json"

# ---- the matrix ---------------------------------------------------------

# rotate N WORDS... - WORDS rotated left by N.
rotate() {
	_k=$1
	shift
	_k=$((_k % $#))
	while [ "$_k" -gt 0 ]; do
		_w=$1
		shift
		set -- "$@" "$_w"
		_k=$((_k - 1))
	done
	echo "$@"
}

# ---- the file system (bench_fs) ------------------------------------------

FSDIR=""
if [ -n "$FS" ]; then
	case " $EMU " in
	*" store=1 "*) ;;
	*) fail "bench_fs needs bench_emu with store=1 (a device that keeps its data), got '$EMU'" ;;
	esac
	# No lazy initialization: no ext4lazyinit writes during the cells.
	"mkfs.$FS" -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$DEV" > "$tmp/mkfs.out" 2>&1 ||
		fail "mkfs.$FS $DEV failed: $(cat "$tmp/mkfs.out")"
	FSDIR=/mnt/bench
	mkdir -p "$FSDIR"
	mount -t "$FS" "$DEV" "$FSDIR" || fail "cannot mount $DEV ($FS) on $FSDIR"
	# The journal thread submits the commit: keep it, and the unbound
	# workers (writeback), on the CPUs fio may use, off the controller.
	_jbd=""
	for _p in /proc/[0-9]*; do
		case $(cat "$_p/comm" 2>/dev/null) in
		jbd2/*) _jbd="$_jbd ${_p#/proc/}" ;;
		esac
	done
	[ -n "$_jbd" ] || fail "no jbd2 thread after mounting $DEV ($FS)"
	for _p in $_jbd; do
		taskset -p -c "$FIO_CPUS" "$_p" > /dev/null || fail "cannot pin jbd2 thread $_p to CPUs $FIO_CPUS"
	done
	printf '%x\n' $(((1 << CTL) - 1)) > /sys/devices/virtual/workqueue/cpumask ||
		fail "cannot keep the unbound workqueues off CPU $CTL"
	say "file system: $FS on $DEV at $FSDIR, jbd2 thread(s)$_jbd on CPUs $FIO_CPUS"
fi
export FSDIR

say "start: $NCELLS cells, $REPS reps x governors '$GOVS' x workloads '$WORKLOADS' x configs '$CONFIGS', ${RUNTIME}s each"
rep=1
while [ $rep -le "$REPS" ]; do
	for gov in $GOVS; do
		if [ "$gov" != - ]; then
			gov_set "$gov" || fail "cannot set governor $gov"
		fi
		for wl in $WORKLOADS; do
			# shellcheck disable=SC2086
			for cfg in $(rotate $((rep - 1)) $CONFIGS); do
				run_cell "$gov" "$cfg" "$wl" "$rep" "$DEV" "$RUNTIME" "$AFTER"
			done
		done
	done
	rep=$((rep + 1))
done

# ---- null_blk overhead (guest only) -------------------------------------

if [ "$MODE" = guest ] && [ "$IDLE" = cpuidle ] && [ "$PAIRS" -gt 0 ]; then
	gov=${GOVS%% *}
	gov_set "$gov" || fail "cannot set governor $gov"
	modprobe null_blk nr_devices=1 irqmode=0 queue_mode=2 submit_queues="$NCPU" ||
		fail "cannot load null_blk"
	_n=0
	while [ ! -b /dev/nullb0 ] && [ $_n -lt 50 ]; do
		sleep 0.1
		_n=$((_n + 1))
	done
	[ -b /dev/nullb0 ] || fail "no /dev/nullb0"
	p=1
	while [ $p -le "$PAIRS" ]; do
		order="off auto"
		[ $((p % 2)) = 0 ] && order="auto off"
		for cfg in $order; do
			run_cell "$gov" "$cfg" null-qd32 "$p" /dev/nullb0 "$NULL_RUNTIME" 0
		done
		p=$((p + 1))
	done
	dev_setup "$DEV"
	rmmod null_blk || say "cannot unload null_blk"
fi

say "done: $CELL cells, $FIO_FAIL fio failures, $CFG_FAIL cells without their configuration"
[ "$FIO_FAIL" = 0 ] && [ "$CFG_FAIL" = 0 ]
