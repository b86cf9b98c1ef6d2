#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# hookcost.sh - runs in the test guest under QEMU -icount (scripts/bench/hook-cost.sh,
# guest.sh --accel icount): the guest's clock counts executed instructions
# (1 ns each), so fio's mean latency of a read from a null_blk device that
# completes in the submitting context (irqmode=0) is the number of guest
# instructions of one read: the system call, the block layer with the
# series' issue hook, null_blk. Per layout, "1q" (one hctx shared by both
# CPUs) and "2q" (one hctx per CPU), and case:
#   off-stream       attribute off, reads back to back (hook: one branch)
#   raised-stream    "auto", reads back to back: the hctx stays raised
#   off-sparse       attribute off, one read every 20 ms
#   unraised-sparse  "auto", one read every 20 ms: every read is issued while
#                    not raised (the slow path, no busy period starts)
# hook_reps repetitions of each (default 5), fio pinned to CPU 0, the
# emulated Sapphire Rapids table and menu.
#
# Results: hookcost.tsv (layout, case, rep, raises and misses of the
# device's hctxs during the run; the host reads the reads and the
# instructions per read from the JSON) and
# fio-LAYOUT-CASE-REP.json. Kernel command line: hook_reps=N.

. "$SHARE/lib.sh"

reps=${hook_reps:-5}
CFS=/sys/kernel/config/nullb
DBG=/sys/kernel/debug/block
out=$RESULTS_DIR/hookcost.tsv

emu_load || { echo "hookcost: cannot load emu_cstates"; exit 1; }
gov_set menu
modprobe null_blk nr_devices=0 || exit 1
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug

# counter DEV KEY: KEY=... summed over DEV's hctxs (0 while off)
counter() {
	t=0
	for h in "$DBG/$1"/hctx*; do
		v=$(tr ' ' '\n' < "$h/$(si_attr "$d")" | sed -n "s/^$2=//p")
		t=$((t + ${v:-0}))
	done
	echo $t
}

printf 'layout\tcase\trep\traises\tmisses\n' > "$out"
for q in 1 2; do
	d=hc$q
	mkdir "$CFS/$d" || exit 1
	echo $q > "$CFS/$d/submit_queues"
	echo 0 > "$CFS/$d/irqmode"
	echo 64 > "$CFS/$d/size"
	echo "hookcost: $d, $q submit queue(s)"
	echo 1 > "$CFS/$d/power" || exit 1
	for c in off-stream raised-stream off-sparse unraised-sparse; do
		case $c in
		off-*) mode=off ;;
		*) mode=auto ;;
		esac
		case $c in
		*-stream) fargs="--io_size=80000k" ;;	# 20000 reads
		*) fargs="--io_size=400k --thinktime=20ms" ;;	# 100 reads
		esac
		echo $mode > "/sys/block/$d/queue/$(si_attr "$d")" || exit 1
		r=1
		while [ $r -le "$reps" ]; do
			j=$RESULTS_DIR/fio-${q}q-$c-$r.json
			echo "hookcost: $d $c run $r"
			r0=$(counter $d raises) m0=$(counter $d misses)
			# shellcheck disable=SC2086
			taskset -c 0 fio --name=hc --filename="/dev/$d" --direct=1 \
				--rw=randread --bs=4k --ioengine=psync --iodepth=1 \
				--size=64M $fargs \
				--clocksource=clock_gettime --output-format=json \
				--output="$j" || exit 1
			r1=$(counter $d raises) m1=$(counter $d misses)
			printf '%sq\t%s\t%s\t%s\t%s\n' $q $c $r \
				$((r1 - r0)) $((m1 - m0)) >> "$out"
			r=$((r + 1))
		done
		# Relax before the next case (the hold period is 8 ms).
		sleep 0.1
	done
	echo off > "/sys/block/$d/queue/$(si_attr "$d")"
	echo 0 > "$CFS/$d/power"
	rmdir "$CFS/$d"
done
echo "hookcost: $(($(wc -l < "$out") - 1)) runs"
