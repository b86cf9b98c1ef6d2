# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# lib.sh - helpers for scripts that run in the test guest (busybox sh or
# bash; scripts/qemu/guest.sh copies this file into the 9p share).
#
# Usage, in a guest script started by tools/guest/init:
#   . "$SHARE/lib.sh"
#   tap_init "$RESULTS_DIR/NAME.tap" [PLAN]     TAP to stdout and to the file
#   tap_ok DESC | tap_not_ok DESC | tap_skip DESC REASON | tap_check DESC CMD...
#   tap_diag TEXT; tap_end                      tap_end fails on a failure or
#                                               a plan mismatch
#   emu_load [TABLE [PARAM=VALUE...]]; emu_unload; idle_driver
#   gov_set GOVERNOR
#   state_index CPU NAME                        N of stateN called NAME
#   state_read CPU NAME FIELD; state_write_all NAME FIELD VALUE
#   idle_snap FILE; idle_delta BEFORE AFTER     per CPU, per state usage/time
#   idle_usage_delta BEFORE AFTER CPU NAME      one usage delta
#   poke_cpu CPU COUNT INTERVAL                 wake CPU COUNT times
#   as_nobody CMD                               run CMD (sh -c) as uid 65534
#   fio_qd1 NAME DEV JSON [FIO ARGS...]         QD1 4k randread, io_uring
#   fio_summary JSON                            "p50_us p99_us mean_us iops"
#   kconfig_on CONFIG_X                         the kernel was built with it
#   kmemleak_scan OUT [PAUSE]                   kmemleak report into OUT
#   si_attr DEV                                 the series' attribute name on DEV

CPUS=/sys/devices/system/cpu
CPUIDLE=$CPUS/cpuidle
SHARE=${SHARE:-/mnt/share}
RESULTS_DIR=${RESULTS_DIR:-$SHARE/results}
EMU_KO=${EMU_KO:-$SHARE/emu_cstates.ko}
FIO_RUNTIME=${FIO_RUNTIME:-10}
# The harness's defaults (scripts/lib/common.sh), from the kernel command
# line that scripts/qemu/guest.sh writes; empty on a host. DEFAULT_TABLE:
# the emulated table a run loads unless told otherwise; EMU_TABLES: every
# table emu_cstates has (spaces); GOVERNORS: the governors a run covers
# (spaces), DEFAULT_GOV the first of them.
DEFAULT_TABLE=${harness_table:-}
EMU_TABLES=$(echo "${harness_tables:-}" | tr ',' ' ')
GOVERNORS=$(echo "${harness_governors:-}" | tr ',' ' ')
DEFAULT_GOV=${GOVERNORS%% *}

# ---- TAP ----------------------------------------------------------------

tap_line() {
	echo "$*"
	echo "$*" >> "$TAP_FILE"
}

tap_init() {
	TAP_FILE=$1
	TAP_PLAN=${2:-}
	TAP_N=0
	TAP_FAIL=0
	mkdir -p "$(dirname "$TAP_FILE")"
	: > "$TAP_FILE"
	tap_line "TAP version 13"
	if [ -n "$TAP_PLAN" ]; then
		tap_line "1..$TAP_PLAN"
	fi
}

tap_ok() {
	TAP_N=$((TAP_N + 1))
	tap_line "ok $TAP_N - $*"
}

tap_not_ok() {
	TAP_N=$((TAP_N + 1))
	TAP_FAIL=$((TAP_FAIL + 1))
	tap_line "not ok $TAP_N - $*"
}

tap_skip() {
	TAP_N=$((TAP_N + 1))
	tap_line "ok $TAP_N - $1 # SKIP ${2:-}"
}

tap_diag() {
	tap_line "# $*"
}

# tap_check DESC CMD... - ok when CMD succeeds.
tap_check() {
	_desc=$1
	shift
	if "$@"; then
		tap_ok "$_desc"
	else
		tap_not_ok "$_desc"
	fi
}

tap_end() {
	if [ -z "$TAP_PLAN" ]; then
		tap_line "1..$TAP_N"
	elif [ "$TAP_N" -ne "$TAP_PLAN" ]; then
		tap_diag "planned $TAP_PLAN tests, ran $TAP_N"
		TAP_FAIL=$((TAP_FAIL + 1))
	fi
	tap_diag "failed $TAP_FAIL of $TAP_N"
	[ "$TAP_FAIL" -eq 0 ]
}

# ---- cpuidle ------------------------------------------------------------

idle_driver() {
	cat "$CPUIDLE/current_driver"
}

emu_load() {
	_table=${1:-$DEFAULT_TABLE}
	[ $# -gt 0 ] && shift
	[ -n "$_table" ] || { echo "emu_load: no table (no harness_table= on the kernel command line)" >&2; return 1; }
	insmod "$EMU_KO" table="$_table" "$@"
}

emu_unload() {
	rmmod emu_cstates
}

gov_set() {
	echo "$1" > "$CPUIDLE/current_governor" &&
		[ "$(cat "$CPUIDLE/current_governor")" = "$1" ]
}

cpu_ids() {
	for _c in "$CPUS"/cpu[0-9]*; do
		echo "${_c##*/cpu}"
	done
}

state_index() {
	for _s in "$CPUS/cpu$1"/cpuidle/state*; do
		# A CPU without cpuidle states (the glob stays as it is).
		[ -e "$_s/name" ] || return 1
		if [ "$(cat "$_s/name")" = "$2" ]; then
			echo "${_s##*/state}"
			return 0
		fi
	done
	return 1
}

state_read() {
	_i=$(state_index "$1" "$2") || return 1
	cat "$CPUS/cpu$1/cpuidle/state$_i/$3"
}

# state_write_all NAME FIELD VALUE - on every CPU that has state NAME.
state_write_all() {
	_rc=0
	for _c in $(cpu_ids); do
		_i=$(state_index "$_c" "$1") || continue
		echo "$3" > "$CPUS/cpu$_c/cpuidle/state$_i/$2" || _rc=1
	done
	return $_rc
}

# idle_snap FILE - lines "cpuN stateM NAME usage time_us above below"
# (blanks in NAME become "_").
idle_snap() {
	for _c in $(cpu_ids); do
		for _s in "$CPUS/cpu$_c"/cpuidle/state*; do
			[ -d "$_s" ] || continue
			echo "cpu$_c ${_s##*/} $(tr ' ' _ < "$_s/name") $(cat "$_s/usage")" \
				"$(cat "$_s/time") $(cat "$_s/above") $(cat "$_s/below")"
		done
	done > "$1"
}

# idle_delta BEFORE AFTER - "cpuN NAME usage+U time+Tus above+A below+B".
idle_delta() {
	awk 'NR == FNR { u[$1 $2] = $4; t[$1 $2] = $5; a[$1 $2] = $6; b[$1 $2] = $7; next }
	     { k = $1 $2
	       printf "%s %-5s usage+%-6d time+%-9dus above+%-5d below+%d\n",
		      $1, $3, $4 - u[k], $5 - t[k], $6 - a[k], $7 - b[k] }' "$1" "$2"
}

# idle_usage_delta BEFORE AFTER CPU NAME - usage growth of state NAME on
# CPU, or summed over all CPUs when CPU is "all".
idle_usage_delta() {
	awk -v cpu="cpu$3" -v name="$4" '
	     (cpu == "cpuall" || $1 == cpu) && $3 == name {
		if (NR == FNR) u[$1] = $4; else { d += $4 - u[$1]; found = 1 }
	     }
	     END { if (!found) exit 1; print d }' "$1" "$2"
}

# poke_cpu CPU COUNT INTERVAL - wake CPU COUNT times by running a task on
# it, sleeping INTERVAL seconds in between so that it goes idle again.
poke_cpu() {
	_n=0
	while [ $_n -lt "$2" ]; do
		taskset -c "$1" true
		sleep "$3"
		_n=$((_n + 1))
	done
}

# ---- users --------------------------------------------------------------

# as_nobody CMD - run "sh -c CMD" as nobody (uid/gid 65534). busybox su
# needs no password when root calls it.
as_nobody() {
	su -s /bin/sh nobody -c "$1"
}

# ---- fio ----------------------------------------------------------------

# fio_qd1 NAME DEV JSON [FIO ARGS...] - QD1 4k random reads with io_uring,
# O_DIRECT, FIO_RUNTIME seconds, JSON output in JSON.
fio_qd1() {
	_name=$1 _dev=$2 _json=$3
	shift 3
	fio --name="$_name" --filename="$_dev" --rw=randread --bs=4k \
		--ioengine=io_uring --iodepth=1 --direct=1 --time_based \
		--runtime="$FIO_RUNTIME" --norandommap --randrepeat=0 \
		--eta=never --output-format=json --output="$_json" "$@"
}

# fio_summary JSON - "p50_us p99_us mean_us iops" of the reads (completion
# latency), from fio's JSON output.
fio_summary() {
	awk '
	/"read" *: *\{/ { r = 1 }
	r && !iops && /"iops" *:/ { v = $3; gsub(/,/, "", v); iops = v }
	r && /"clat_ns" *: *\{/ { c = 1 }
	r && c && !mean && /"mean" *:/ { v = $3; gsub(/,/, "", v); mean = v }
	r && c && /"percentile" *: *\{/ { p = 1; next }
	p {
		line = $0; gsub(/[",]/, "", line); split(line, f, " ")
		if (f[1] == "50.000000") p50 = f[3]
		if (f[1] == "99.000000") p99 = f[3]
		if (line ~ /\}/) { p = 0; r = 0; c = 0 }
	}
	END {
		if (p50 == "" || p99 == "") exit 1
		printf "%.1f %.1f %.1f %.0f\n", p50 / 1000, p99 / 1000, mean / 1000, iops
	}' "$1"
}

# ---- kernel features ----------------------------------------------------

# kconfig_on CONFIG_X - the running kernel was built with CONFIG_X=y
# (/proc/config.gz, CONFIG_IKCONFIG_PROC).
kconfig_on() {
	zcat /proc/config.gz 2>/dev/null | grep -q "^$1=y\$"
}

# kmemleak_scan OUT [PAUSE] - on a kernel built with kmemleak: scan, and
# with PAUSE scan again PAUSE seconds later, then save the report (the
# unreferenced objects; empty: no leak) in OUT. Returns 2 on a kernel
# without kmemleak; 1, with the reason on stdout, when the debugfs file is
# missing or a scan is refused (kmemleak switched itself off): then no
# leak was looked for, which is not "no leak".
kmemleak_scan() {
	_kml=/sys/kernel/debug/kmemleak
	kconfig_on CONFIG_DEBUG_KMEMLEAK || return 2
	if [ ! -e "$_kml" ]; then
		echo "kmemleak: $_kml is missing (kmemleak off since boot?)"
		return 1
	fi
	if ! echo scan 2>/dev/null > "$_kml"; then
		echo "kmemleak: scan refused: kmemleak switched itself off (see the kernel log)"
		return 1
	fi
	if [ -n "${2:-}" ]; then
		sleep "$2"
		if ! echo scan 2>/dev/null > "$_kml"; then
			echo "kmemleak: second scan refused: kmemleak switched itself off (see the kernel log)"
			return 1
		fi
	fi
	if ! cat "$_kml" > "$1"; then
		echo "kmemleak: cannot read $_kml"
		return 1
	fi
}

# ---- the series' names --------------------------------------------------

# si_attr DEV - the name of the series' queue attribute (and of its debugfs
# file) on DEV: shallow_idle since v3; cpu_latency_qos in v1 and v2, whose
# kernels the benchmarks' --series-commit builds.
si_attr() {
	if [ -e "/sys/block/$1/queue/cpu_latency_qos" ]; then
		echo cpu_latency_qos
	else
		echo shallow_idle
	fi
}

# loc_snap [NAME] - the count of interrupt NAME (default LOC, the local
# timer; CAL: function call IPIs, the emulated device's doorbells and
# completions; RES: rescheduling IPIs) of every CPU from /proc/interrupts,
# space-separated in CPU order.
loc_snap() {
	awk -v n="${1:-LOC}:" '$1 == n { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) printf "%s ", $i }' /proc/interrupts
}

# trace_overruns DIR - the events the tracefs buffer (or instance) DIR
# dropped since it was last emptied, over all CPUs.
trace_overruns() {
	awk '/^overrun:/ { s += $2 } END { print s + 0 }' "$1"/per_cpu/cpu*/stats 2>/dev/null
}
