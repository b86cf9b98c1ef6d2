#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# platform-selftest.sh - self-test of the test platform, runs in the guest.
#
# Usage (host): scripts/qemu/guest.sh --kernel BUILD_DIR --script platform-selftest.sh
# or scripts/tests/platform-test.sh, which also checks the results.
#
# With emu_cstates (table spr) loaded, for the menu and the teo governor:
#  (a) current_driver is emu_cstates;
#  (b) an idle CPU enters C6;
#  (c) with pm_qos_resume_latency_us = 3 on that CPU, it enters no new C6
#      (slack 1: an entry already in progress) but still enters C1E; the
#      limit is restored to 0 after;
#  (d) fio QD1 4k randread (io_uring, direct, 10 s) on /dev/vda with C6
#      allowed and with C6 disabled on every CPU: p50/p99 completion latency
#      is printed and recorded, never asserted (TCG timing is noisy).
# Also: an unknown table is refused, the spr table is as expected, as_nobody
# works and a non-root write to pm_qos_resume_latency_us is refused, and
# after unloading the module current_driver is none again.
# The package count of emu_cstates: every CPU in C6 at once while idle,
# never while CPU 0 spins.
# Then the emulated storage device (tools/emu-blk) with emu_cstates
# skip_cpu on its controller CPU (the last): bad parameters are refused,
# a read takes at least the device latency, rings the controller's
# doorbell and completes on the submitting CPU, the
# tail share is the one documented, queues=1 gives one hctx, and the
# module unloads.
#
# Results in $RESULTS_DIR: platform.tap, platform-latency.json,
# platform-latency.txt, fio-GOV-c6-{allowed,disabled}.json and
# idle-GOV-CASE.txt (per CPU, per state usage/time deltas).
set -u
. "$SHARE/lib.sh"

GOVS=$GOVERNORS
TABLE=$DEFAULT_TABLE
DISK=${DISK:-/dev/vda}
QOS_US=3
POKES=10	# wake-ups of the test CPU per observation window
POKE_S=0.15	# seconds between them
PLAN=$((6 + 9 * 2 + 1 + 2 + 13))

tmp=$(mktemp -d)
ncpu=$(nproc)
cpu=$((ncpu - 1))			# the CPU under test; stays idle
qos=$CPUS/cpu$cpu/power/pm_qos_resume_latency_us
all_cpus=0-$((ncpu - 1))
mkdir -p "$RESULTS_DIR"

tap_init "$RESULTS_DIR/platform.tap" "$PLAN"
tap_diag "kernel $(uname -r), $ncpu CPUs, test CPU $cpu, disk $DISK"

# This shell runs on CPU 0 so that the CPU under test is idle.
taskset -p -c 0 $$ >/dev/null

# ---- the driver ---------------------------------------------------------

tap_check "no cpuidle driver before emu_cstates is loaded" \
	[ "$(idle_driver)" = none ]

if emu_load bogus 2>/dev/null; then
	emu_unload
	tap_not_ok "emu_cstates table=bogus is refused"
elif dmesg | grep -q "unknown table 'bogus'"; then
	tap_ok "emu_cstates table=bogus is refused"
else
	tap_not_ok "emu_cstates table=bogus is refused (no message in dmesg)"
fi

tap_check "emu_cstates table=$TABLE loads" emu_load "$TABLE"

want="POLL:0/0 C1:1/1 C1E:2/4 C6:290/800"
got=$(for s in "$CPUS/cpu$cpu"/cpuidle/state*; do
	echo "$(cat "$s/name"):$(cat "$s/latency")/$(cat "$s/residency")"
done | tr '\n' ' ' | sed 's/ $//')
tap_check "$TABLE table (name:exit/residency us) is $want" [ "$got" = "$want" ]
[ "$got" = "$want" ] || tap_diag "got: $got"

tap_check "as_nobody runs as uid 65534" [ "$(as_nobody 'id -u')" = 65534 ]

if as_nobody "echo $QOS_US > $qos" 2>/dev/null; then
	tap_not_ok "non-root write to cpu$cpu pm_qos_resume_latency_us is refused"
	echo 0 > "$qos"
else
	tap_check "non-root write to cpu$cpu pm_qos_resume_latency_us is refused" \
		[ "$(cat "$qos")" = 0 ]
fi

# ---- per governor -------------------------------------------------------

# observe NAME - poke the test CPU and keep the per-state deltas in
# $tmp/before, $tmp/after and $RESULTS_DIR/idle-NAME.txt.
observe() {
	idle_snap "$tmp/before"
	poke_cpu "$cpu" "$POKES" "$POKE_S"
	idle_snap "$tmp/after"
	idle_delta "$tmp/before" "$tmp/after" > "$RESULTS_DIR/idle-$1.txt"
}

delta() {
	idle_usage_delta "$tmp/before" "$tmp/after" "$1" "$2" || echo -1
}

in_range() {
	[ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

json_rows=""
text_rows=""

# fio_case GOV allowed|disabled
fio_case() {
	_gov=$1 _c6=$2
	_json=$RESULTS_DIR/fio-$_gov-c6-$_c6.json
	idle_snap "$tmp/before"
	fio_qd1 "$_gov-c6-$_c6" "$DISK" "$_json" 2> "$tmp/fio.err"
	_rc=$?
	idle_snap "$tmp/after"
	idle_delta "$tmp/before" "$tmp/after" > "$RESULTS_DIR/idle-$_gov-fio-c6-$_c6.txt"
	_c6n=$(delta all C6)
	_c1en=$(delta all C1E)
	_sum=""
	[ $_rc = 0 ] && _sum=$(fio_summary "$_json")
	if [ -n "$_sum" ]; then
		# shellcheck disable=SC2086
		set -- $_sum
		tap_ok "$_gov: fio with C6 $_c6: p50 $1 us, p99 $2 us (C6 entries +$_c6n)"
		_row="\"p50_us\": $1, \"p99_us\": $2, \"mean_us\": $3, \"iops\": $4"
		text_rows="$text_rows$(printf '%-8s  %-8s  %8s  %8s  %8s  %6s  %10s  %11s' \
			"$_gov" "$_c6" "$1" "$2" "$3" "$4" "$_c6n" "$_c1en")
"
	else
		tap_not_ok "$_gov: fio with C6 $_c6 (rc $_rc)"
		sed 's/^/# fio: /' "$tmp/fio.err"
		_row="\"p50_us\": null, \"p99_us\": null, \"mean_us\": null, \"iops\": null"
		text_rows="$text_rows$(printf '%-8s  %-8s  %8s  %8s  %8s  %6s  %10s  %11s' \
			"$_gov" "$_c6" - - - - "$_c6n" "$_c1en")
"
	fi
	json_rows="$json_rows${json_rows:+,
}    {\"governor\": \"$_gov\", \"c6\": \"$_c6\", $_row, \"c6_entries\": $_c6n, \"c1e_entries\": $_c1en}"
	FIO_C6N=$_c6n
}

for gov in $GOVS; do
	# (a)
	if gov_set "$gov" && [ "$(idle_driver)" = emu_cstates ]; then
		tap_ok "$gov: governor set, current_driver is emu_cstates"
	else
		tap_not_ok "$gov: governor $(cat "$CPUIDLE/current_governor"), driver $(idle_driver)"
	fi

	# (b)
	observe "$gov-free"
	n=$(delta "$cpu" C6)
	tap_check "$gov: idle cpu$cpu enters C6 (+$n in ${POKES} wake-ups)" [ "$n" -gt 0 ]

	# (c)
	echo "$QOS_US" > "$qos"
	observe "$gov-qos$QOS_US"
	n=$(delta "$cpu" C6)
	m=$(delta "$cpu" C1E)
	echo 0 > "$qos"
	tap_check "$gov: cpu$cpu resume latency ${QOS_US} us: no new C6 (+$n, slack 1)" \
		in_range "$n" 0 1
	tap_check "$gov: cpu$cpu resume latency ${QOS_US} us: C1E still entered (+$m)" \
		[ "$m" -gt 0 ]
	tap_check "$gov: cpu$cpu pm_qos_resume_latency_us restored to 0" \
		[ "$(cat "$qos")" = 0 ]

	# (d) fio runs on all CPUs, like an application would.
	taskset -p -c "$all_cpus" $$ >/dev/null
	fio_case "$gov" allowed
	if state_write_all C6 disable 1; then
		fio_case "$gov" disabled
		tap_check "$gov: C6 disabled on every CPU: not entered (+$FIO_C6N, slack $ncpu)" \
			in_range "$FIO_C6N" 0 "$ncpu"
	else
		tap_not_ok "$gov: fio with C6 disabled (cannot disable C6)"
		tap_not_ok "$gov: C6 disabled on every CPU: not entered"
	fi
	state_write_all C6 disable 0
	dis=$(for c in $(cpu_ids); do state_read "$c" C6 disable; done | sort -u | tr '\n' ' ')
	tap_check "$gov: C6 enabled again on every CPU" [ "$dis" = "0 " ]
	taskset -p -c 0 $$ >/dev/null
done

# ---- the package count (emu_cstates/package) ------------------------------

PKG=/sys/kernel/debug/emu_cstates/package
pkg_ns() {
	awk '$1 == "all_in_ns" { print $2 }' "$PKG"
}
n=$(awk '$1 == "cpus" { print $2 }' "$PKG" 2>/dev/null)
a=$(pkg_ns)
sleep 1
b=$(pkg_ns)
tap_check "package count: $n CPUs; all in C6 at once during 1 s of idle (+$((${b:-0} - ${a:-0})) ns)" \
	sh -c "[ '$n' = $ncpu ] && [ $((${b:-0} - ${a:-0})) -gt 0 ]"
# A busy loop on CPU 0 (this shell's CPU): no CPU 0 C6, no package C6.
taskset -c 0 sh -c 'e=$(($(cut -d. -f1 /proc/uptime) + 3)); while [ "$(cut -d. -f1 /proc/uptime)" -lt $e ]; do :; done' &
spin=$!
sleep 0.5
a=$(pkg_ns)
sleep 1
b=$(pkg_ns)
wait $spin
tap_check "package count: a busy CPU 0 keeps the package out of C6 for 1 s (+$((${b:-0} - ${a:-0})) ns)" \
	[ "$((${b:-1} - ${a:-0}))" = 0 ]

# ---- the latency table --------------------------------------------------

{
	echo "{"
	echo "  \"kernel\": \"$(uname -r)\","
	echo "  \"cpus\": $ncpu,"
	echo "  \"table\": \"$TABLE\","
	echo "  \"device\": \"$DISK\","
	echo "  \"fio\": \"randread bs=4k iodepth=1 ioengine=io_uring direct=1 runtime=${FIO_RUNTIME}s\","
	echo "  \"latency\": \"completion latency (clat), microseconds\","
	echo "  \"results\": ["
	echo "$json_rows"
	echo "  ]"
	echo "}"
} > "$RESULTS_DIR/platform-latency.json"

{
	echo "fio QD1 4k randread (io_uring, direct, ${FIO_RUNTIME} s) on $DISK," \
		"emu_cstates table $TABLE, kernel $(uname -r)"
	echo "completion latency in us; printed, not asserted (TCG timing is noisy)"
	echo
	printf '%-8s  %-8s  %8s  %8s  %8s  %6s  %10s  %11s\n' \
		governor C6 p50 p99 mean IOPS "C6 entries" "C1E entries"
	printf '%s' "$text_rows"
} > "$RESULTS_DIR/platform-latency.txt"
cat "$RESULTS_DIR/platform-latency.txt"

# ---- unload -------------------------------------------------------------

if emu_unload; then
	tap_check "emu_cstates unloads, current_driver is none again" \
		[ "$(idle_driver)" = none ]
else
	tap_not_ok "emu_cstates unloads (rmmod failed)"
fi

# ---- the emulated storage device (tools/emu-blk) -------------------------

EMU_BLK_KO=$SHARE/emu_blk.ko
ctl=$((ncpu - 1))
EMU_STATS=/sys/kernel/debug/emu_blk/stats

emu_stat() {
	awk -v k="$1" '$1 == k { print $2 }' "$EMU_STATS"
}

# emu_reads N [DISK] - N direct 4 KiB reads on CPU 0; prints the
# milliseconds they took.
emu_reads() {
	_t0=$(cut -d' ' -f1 /proc/uptime)
	taskset -c 0 dd if="${2:-/dev/emublk0}" of=/dev/null bs=4k count="$1" \
		iflag=direct 2>/dev/null || return 1
	_t1=$(cut -d' ' -f1 /proc/uptime)
	echo "$_t0 $_t1" | awk '{ printf "%d\n", ($2 - $1) * 1000 }'
}

# emu_refusals - every bad parameter set is refused, with its message.
emu_refusals() {
	for _p in "devices=0|devices=0: want" "latency_us=2000000|latency_us=2000000" \
		"tail_permille=1001|tail_permille=1001" "controller=$ncpu|controller=$ncpu: not" \
		"store=1 size_mb=1024|store=Y size_mb=1024: want"; do
		dmesg -c > /dev/null
		# shellcheck disable=SC2086
		if insmod "$EMU_BLK_KO" ${_p%%|*} 2>/dev/null; then
			rmmod emu_blk
			tap_diag "emu_blk ${_p%%|*} loaded"
			return 1
		fi
		dmesg | grep -q "${_p#*|}" || { tap_diag "no message for ${_p%%|*}"; return 1; }
	done
	[ ! -e /sys/module/emu_blk ]
}

# emu_tail_count N PERMILLE - how many of the sequence numbers 1..N are in
# the tail (the golden-ratio hash of emu_in_tail()).
emu_tail_count() {
	awk -v n="$1" -v p="$2" 'BEGIN {
		for (s = 1; s <= n; s++) {
			h = (s * 2654435761) % 4294967296
			if (h % 1000 < p) k++
		}
		print k + 0 }'
}

tap_check "emu_blk refuses devices=0, latency_us=2000000, tail_permille=1001, controller=$ncpu and store=1 size_mb=1024, each with a message" \
	emu_refusals

tap_check "emu_cstates skip_cpu=$ctl loads" emu_load "$TABLE" skip_cpu="$ctl"
tap_check "emu_cstates skip_cpu=$ctl: cpu$ctl has no idle states, cpu0 has C6" \
	sh -c "[ ! -e $CPUS/cpu$ctl/cpuidle/state1 ] && grep -qx C6 $CPUS/cpu0/cpuidle/state*/name"

if insmod "$EMU_BLK_KO" devices=2 latency_us=5000 controller="$ctl"; then
	tap_ok "emu_blk loads 2 disks with latency_us=5000, controller CPU $ctl"
else
	tap_not_ok "emu_blk loads 2 disks with latency_us=5000, controller CPU $ctl"
fi
n=$(ls -d /sys/block/emublk0/mq/[0-9]* 2>/dev/null | wc -l)
tap_check "emublk0 and emublk1 exist, one hctx per CPU ($n), rq_affinity 2" \
	sh -c "[ -b /dev/emublk0 ] && [ -b /dev/emublk1 ] && [ $n = $ncpu ] &&
		[ \"\$(cat /sys/block/emublk0/queue/rq_affinity)\" = 2 ]"

d0=$(emu_stat doorbells)
ms=$(emu_reads 20)
d1=$(emu_stat doorbells)
tap_check "20 reads at 5 ms device latency take at least 100 ms (${ms:-?} ms)" \
	[ "${ms:-0}" -ge 100 ]
tap_check "each read rang the controller's doorbell (+$((d1 - d0)))" [ $((d1 - d0)) -ge 20 ]

# The completion CPU, from the block_rq_complete events of emublk1.
trc=/sys/kernel/tracing/instances/emublk-$$
mkdir "$trc"
echo 1 > "$trc/events/block/block_rq_complete/enable"
taskset -c 0 dd if=/dev/emublk1 of=/dev/null bs=4k count=10 iflag=direct 2>/dev/null
devt=$(tr : , < /sys/block/emublk1/dev)
cpus=$(grep " block_rq_complete: $devt " "$trc/trace" | sed 's/^[^[]*\[\([0-9]*\)\].*/\1/' |
	sort | uniq -c | awk '{ printf "%s%d x%d", (NR > 1 ? ", " : ""), $2, $1 }')
echo 0 > "$trc/events/block/block_rq_complete/enable"
rmdir "$trc"
tap_check "reads submitted on CPU 0 complete on CPU 0 only (${cpus:-none})" \
	[ "${cpus:-none}" = "0 x10" ]

echo 0 > /sys/module/emu_blk/parameters/latency_us
echo 4000 > /sys/module/emu_blk/parameters/tail_us
echo 250 > /sys/module/emu_blk/parameters/tail_permille
s0=$(awk '{ print $1 + $5 }' /sys/block/emublk0/stat)
k=$(emu_tail_count $((s0 + 40)) 250)
k=$((k - $(emu_tail_count "$s0" 250)))
ms=$(emu_reads 40)
tap_check "the tail: $k of 40 reads take 4 ms each, the rest none (${ms:-?} ms >= $((4 * k)))" \
	sh -c "[ $k -gt 0 ] && [ ${ms:-0} -ge $((4 * k)) ]"

if rmmod emu_blk; then
	tap_check "emu_blk unloads, nothing pending (no warning)" \
		sh -c "! dmesg | grep -q 'emu_blk.*\\(WARNING\\|BUG\\)'"
else
	tap_not_ok "emu_blk unloads, nothing pending (no warning)"
fi

if insmod "$EMU_BLK_KO" queues=1 controller="$ctl"; then
	l=$(cat /sys/block/emublk0/mq/0/cpu_list 2>/dev/null)
	n=$(ls -d /sys/block/emublk0/mq/[0-9]* | wc -l)
	tap_check "queues=1: one hctx ($n) for every CPU ($l)" \
		sh -c "[ $n = 1 ] && [ \"$l\" = \"$(cpu_ids | paste -sd, - | sed 's/,/, /g')\" ]"
	rmmod emu_blk
else
	tap_not_ok "queues=1: one hctx for every CPU (emu_blk does not load)"
fi
# emu_store_roundtrip - with store=1, 8 KiB written at 1 MiB read back
# unchanged (O_DIRECT both ways), and a block never written reads zeroes.
emu_store_roundtrip() {
	head -c 8192 /dev/urandom > "$tmp/pattern" || return 1
	dd if="$tmp/pattern" of=/dev/emublk0 bs=4k seek=256 count=2 oflag=direct 2>/dev/null || return 1
	dd if=/dev/emublk0 of="$tmp/back" bs=4k skip=256 count=2 iflag=direct 2>/dev/null || return 1
	cmp -s "$tmp/pattern" "$tmp/back" || { tap_diag "read back differs"; return 1; }
	dd if=/dev/emublk0 of="$tmp/zero" bs=4k skip=512 count=1 iflag=direct 2>/dev/null || return 1
	head -c 4096 /dev/zero | cmp -s - "$tmp/zero" || { tap_diag "unwritten block not zero"; return 1; }
}

if insmod "$EMU_BLK_KO" store=1 write_cache=1 size_mb=16 controller="$ctl"; then
	tap_check "store=1: 8 KiB written read back unchanged, an unwritten block reads zeroes" \
		emu_store_roundtrip
	wc=$(cat /sys/block/emublk0/queue/write_cache 2>/dev/null)
	tap_check "write_cache=1: the queue reports a volatile write cache (${wc:-none})" \
		[ "$wc" = "write back" ]
	rmmod emu_blk
else
	tap_not_ok "store=1: 8 KiB written read back unchanged (emu_blk does not load)"
	tap_not_ok "write_cache=1: the queue reports a volatile write cache (emu_blk does not load)"
fi
emu_unload

rm -rf "$tmp"
tap_end
