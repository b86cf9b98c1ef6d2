#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# raisecost.sh - runs in the test guest (scripts/bench/raise-cost.sh, booted with
# 8 vCPUs): the time the hctx work item takes to raise and to relax the
# requests of an hctx with 1, 2, 4 and 8 CPUs. Four null_blk devices with
# 8, 4, 2 and 1 submit queues (so each hctx covers 1, 2, 4 or 8 CPUs),
# shallow_idle "auto" with the emulated Sapphire Rapids table; per
# device, raise_rounds busy periods of a short fio stream pinned to CPU 0
# and an idle gap that lets the hctx relax. The workqueue and blk_cpu_lat
# trace events give the duration of each run of the work item that raised
# (block_shallow_idle_raise inside it) or relaxed (block_shallow_idle_relax inside it;
# that run includes the RCU grace period of the relax).
#
# Results: raisecost.tsv (header line, then cpus, kind, duration_us per work run) and
# trace.txt. Kernel command line: raise_rounds=N (default 10).

. "$SHARE/lib.sh"

rounds=${raise_rounds:-10}
T=/sys/kernel/tracing
CFS=/sys/kernel/config/nullb
out=$RESULTS_DIR/raisecost.tsv

# The series' raise and relax events: block:block_shallow_idle_* since v3,
# blk_cpu_lat:blk_cpu_lat_* in v2 (--series-commit). v1 has none: its runs
# are classified by
# the PM QoS requests they change (power:dev_pm_qos_*_request events: a
# run that sets a limit raised, one that sets "no constraint" relaxed; the
# CPUs are the requests it changed).
v1=0 ev=
if [ -d "$T/events/block/block_shallow_idle_raise" ]; then
	ev="$T/events/block/block_shallow_idle_raise $T/events/block/block_shallow_idle_relax"
elif [ -d "$T/events/blk_cpu_lat" ]; then
	ev=$T/events/blk_cpu_lat
else
	v1=1
fi
[ $v1 = 0 ] || [ -d "$T/events/power" ] || { echo "raisecost: neither the series' nor power trace events"; exit 1; }
emu_load || { echo "raisecost: cannot load emu_cstates"; exit 1; }
gov_set menu
modprobe null_blk nr_devices=0 || exit 1

devs=""
for q in 8 4 2 1; do
	d=rc$q
	mkdir "$CFS/$d" || exit 1
	echo "$q" > "$CFS/$d/submit_queues"
	echo 2 > "$CFS/$d/irqmode"
	echo 20000 > "$CFS/$d/completion_nsec"
	echo 64 > "$CFS/$d/size"
	echo 1 > "$CFS/$d/power" || exit 1
	echo auto > "/sys/block/$d/queue/$(si_attr "$d")" || exit 1
	devs="$devs $d"
done

echo 65536 > "$T/buffer_size_kb"
echo > "$T/trace"
echo 1 > "$T/events/workqueue/workqueue_execute_start/enable"
echo 1 > "$T/events/workqueue/workqueue_execute_end/enable"
if [ $v1 = 0 ]; then
	for e in $ev; do
		echo 1 > "$e/enable"
	done
else
	for e in dev_pm_qos_add_request dev_pm_qos_update_request dev_pm_qos_remove_request; do
		echo 1 > "$T/events/power/$e/enable"
	done
fi
echo 1 > "$T/tracing_on"

for d in $devs; do
	i=0
	while [ $i -lt "$rounds" ]; do
		taskset -c 0 fio --name=rc --filename="/dev/$d" --direct=1 --rw=randread \
			--bs=4k --ioengine=psync --iodepth=1 --time_based --runtime=300ms \
			--output=/dev/null > /dev/null 2>&1
		sleep 0.3
		i=$((i + 1))
	done
done
echo 0 > "$T/tracing_on"
cp "$T/trace" "$RESULTS_DIR/trace.txt"

# Per kworker pid: a work run is execute_start (function
# blk_shallow_idle_work_fn) to the next execute_end of that pid; the raise
# or relax event seen in between names the kind and the disk (v1: the
# PM QoS request events in between, counted as the CPUs).
awk -v v1=$v1 '
	function ts() { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) return substr($i, 1, length($i) - 1) }
	function pid() { split($1, a, "-"); return a[length(a)] }
	/dev_pm_qos_(add|update|remove)_request: / && v1 { p = pid(); if (p in start) {
		kind[p] = ($0 ~ /new_value=2147483647/) ? "relax" : "raise"; cpus[p]++ } next }
	/workqueue_execute_start:/ && /(blk_shallow_idle|blk_mq_cpu_lat)_work_fn/ { start[pid()] = ts(); kind[pid()] = ""; cpus[pid()] = 0; next }
	BEGIN { print "cpus\tkind\tduration_us" }
	/(block_shallow_idle|blk_cpu_lat)_raise: / { p = pid(); if (p in start) { kind[p] = "raise"; match($0, /cpus=[0-9]+/); cpus[p] = substr($0, RSTART + 5, RLENGTH - 5) } next }
	/(block_shallow_idle|blk_cpu_lat)_relax: / { p = pid(); if (p in start) { kind[p] = "relax"; match($0, /cpus=[0-9]+/); cpus[p] = substr($0, RSTART + 5, RLENGTH - 5) } next }
	/workqueue_execute_end:/ { p = pid(); if ((p in start) && kind[p] != "")
		printf "%s\t%s\t%.1f\n", cpus[p], kind[p], (ts() - start[p]) * 1e6
		delete start[p] }
' "$RESULTS_DIR/trace.txt" > "$out"

for d in $devs; do
	echo off > "/sys/block/$d/queue/$(si_attr "$d")"
	echo 0 > "$CFS/$d/power"
	rmdir "$CFS/$d"
done
emu_unload
n=$(($(wc -l < "$out") - 1))
echo "raisecost: $n work runs measured"
[ "$n" -gt 0 ]
