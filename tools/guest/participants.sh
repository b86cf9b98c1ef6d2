#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# participants.sh - runs in the test guest (scripts/participants.sh, booted
# with 8 vCPUs): which CPUs a busy period on a single-queue device raises.
# One null_blk device with one submit queue (one hctx for all 8 CPUs),
# timer completions after 20 us (on the submitting CPU), shallow_idle
# "auto" with the emulated Sapphire Rapids table. Per workload, rounds of
# a 300 ms fio stream and a 0.5 s idle gap that lets every CPU relax:
#   1job   one psync reader pinned to CPU 0
#   2jobs  two psync readers pinned to CPUs 0 and 4
# Per round: the busy periods it started (debugfs "raises") and the CPUs
# whose request was set to a limit (power:dev_pm_qos_add_request and
# _update_request events with a value other than "no constraint").
#
# Results: participants.tsv (workload, round, busy_periods, cpus_raised,
# limit_sets) and trace.txt. Kernel command line: part_rounds=N (default
# 10).

. "$SHARE/lib.sh"

rounds=${part_rounds:-10}
T=/sys/kernel/tracing
CFS=/sys/kernel/config/nullb
out=$RESULTS_DIR/participants.tsv
d=part1q
NO_CONSTRAINT=2147483647

emu_load spr || { echo "participants: cannot load emu_cstates"; exit 1; }
gov_set menu
modprobe null_blk nr_devices=0 || exit 1
mkdir "$CFS/$d" || exit 1
echo 1 > "$CFS/$d/submit_queues"
echo 2 > "$CFS/$d/irqmode"
echo 20000 > "$CFS/$d/completion_nsec"
echo 64 > "$CFS/$d/size"
echo 1 > "$CFS/$d/power" || exit 1
SI=$(si_attr "$d")
echo auto > "/sys/block/$d/queue/$SI" || exit 1
dbg=/sys/kernel/debug/block/$d/hctx0/$SI
[ -r "$dbg" ] || { echo "participants: no $dbg"; exit 1; }
raises() { tr ' ' '\n' < "$dbg" | sed -n 's/^raises=//p'; }

echo 65536 > "$T/buffer_size_kb"
echo > "$T/trace"
for e in dev_pm_qos_add_request dev_pm_qos_update_request; do
	echo 1 > "$T/events/power/$e/enable"
done
echo 1 > "$T/tracing_on"

: > "$out"
for w in 1job 2jobs; do
	case $w in
	1job) jobs="--numjobs=1 --cpus_allowed=0" ;;
	2jobs) jobs="--numjobs=2 --cpus_allowed=0,4 --cpus_allowed_policy=split" ;;
	esac
	i=0
	while [ $i -lt "$rounds" ]; do
		r0=$(raises)
		echo "participants round $w $i" > "$T/trace_marker"
		# shellcheck disable=SC2086
		fio --name=part --filename="/dev/$d" --direct=1 --rw=randread \
			--bs=4k --ioengine=psync --iodepth=1 $jobs --time_based \
			--runtime=300ms --output=/dev/null > /dev/null 2>&1 ||
			{ echo "participants: fio failed"; exit 1; }
		sleep 0.5
		echo "participants end $w $i" > "$T/trace_marker"
		r1=$(raises)
		awk -v w="$w" -v i="$i" -v b=$((r1 - r0)) -v nc=$NO_CONSTRAINT '
			$0 ~ "participants round " w " " i "$" { on = 1; next }
			$0 ~ "participants end " w " " i "$" { on = 0 }
			on && /dev_pm_qos_(add|update)_request: device=cpu/ &&
			    $0 !~ "new_value=" nc "$" {
				match($0, /device=cpu[0-9]+/)
				c[substr($0, RSTART + 10, RLENGTH - 10)] = 1
				n++
			}
			END { k = 0; for (x in c) k++; printf "%s\t%s\t%d\t%d\t%d\n", w, i, b, k, n }
		' "$T/trace" >> "$out"
		i=$((i + 1))
	done
done
echo 0 > "$T/tracing_on"
cp "$T/trace" "$RESULTS_DIR/trace.txt"

echo off > "/sys/block/$d/queue/$SI"
echo 0 > "$CFS/$d/power"
rmdir "$CFS/$d"
emu_unload
n=$(wc -l < "$out")
echo "participants: $n rounds measured"
[ "$n" -gt 0 ]
