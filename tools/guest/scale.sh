#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scale.sh - runs in the test guest (scripts/bench/scale.sh boots it with 8
# vCPUs under QEMU -icount): which CPUs the series raises and what it costs
# with many queues, on the emulated device of tools/emu-blk (20 us, the
# controller on the last CPU, which gets no emulated C-states), the
# emulated Sapphire Rapids table and governor menu. Series-neutral: every
# figure comes from the kernel's own trace events (power:dev_pm_qos_*,
# workqueue:*, block:block_rq_complete) and /proc/interrupts, so v2 and v3
# kernels are measured alike. Workloads:
#   1q-1job    one disk with one hctx for all CPUs (queues=1): rounds of a
#              300 ms QD1 stream pinned to CPU 0, then 200 ms of silence
#   1q-2jobs   the same with two streams, on CPUs 0 and 4
#   8ns-off    8 disks (namespaces) on one tag set, one hctx per CPU each,
#   8ns-auto   6 QD1 streams on CPUs 0-5, each reading all 8 disks in
#              turn (48 busy hctxs) for scale_runtime seconds; CPU 6 runs
#              no fio thread (fio runs under taskset, its main thread
#              too); the policy off, then auto on all 8 disks
#
# Results, each with a header line: rounds.tsv (workload, round, I/Os, CPUs given a limit, limit
# sets, PM QoS calls (add and update), work runs, longest work run in us, relax delay in
# us: the last update to "no constraint" minus the last completion, "-"
# when nothing was raised) and rates.tsv (workload, seconds, the same
# seven columns for the whole run, then per CPU 0-7 the LOC, RES and CAL
# interrupt counts as comma lists). Kernel command line: scale_rounds=N (default
# 10), scale_runtime=S (default 2).

. "$SHARE/lib.sh"

rounds=${scale_rounds:-10}
runtime=${scale_runtime:-2}
T=/sys/kernel/tracing
NC=2147483647
KO=$SHARE/emu_blk.ko

fail() {
	echo "scale: $*"
	exit 1
}

ncpu=$(cpu_ids | wc -l)
[ "$ncpu" -eq 8 ] || fail "wants 8 CPUs, has $ncpu"
CTL=7
emu_load "$DEFAULT_TABLE" skip_cpu=$CTL || fail "cannot load emu_cstates"
gov_set menu

# trace_on DEVT... - an empty buffer with the PM QoS and workqueue events
# and the completions of the disks DEVT (MAJ:MIN).
trace_on() {
	echo 0 > "$T/tracing_on"
	_f=""
	for _d in "$@"; do
		_f="${_f:+$_f || }dev == $(( (${_d%%:*} << 20) | ${_d#*:} ))"
	done
	echo "$_f" > "$T/events/block/block_rq_complete/filter"
	: > "$T/trace"
	echo 1 > "$T/tracing_on"
}

# summarize - one line from the buffer: I/Os, CPUs given a limit, limit
# sets, PM QoS calls (add and update requests), work runs, longest work run (us), relax delay (us).
# The series' work runs are those of its work function
# (blk_mq_cpu_lat_work_fn in v1 and v2, blk_shallow_idle_work_fn in v3);
# a run lasts from its start to the next end event of the same worker.
summarize() {
	awk -v nc=$NC '
	{
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1) + 0; e = $(i + 1); break }
	}
	e == "block_rq_complete:" { ios++; lastc = t; next }
	e == "dev_pm_qos_add_request:" || e == "dev_pm_qos_update_request:" {
		upd++
		match($0, /device=cpu[0-9]+/)
		cpu = substr($0, RSTART + 10, RLENGTH - 10)
		if ($0 ~ "new_value=" nc "$") { lastr = t; next }
		sets++
		held[cpu] = 1
		next
	}
	e == "workqueue_execute_start:" && / function (blk_mq_cpu_lat|blk_shallow_idle)_work_fn$/ {
		runs++
		st[$1] = t
		next
	}
	e == "workqueue_execute_end:" && ($1 in st) {
		d = (t - st[$1]) * 1e6
		if (d > wmax) wmax = d
		delete st[$1]
	}
	END {
		k = 0
		for (c in held) k++
		relax = (k && lastr > lastc) ? sprintf("%.0f", (lastr - lastc) * 1e6) : "-"
		printf "%d\t%d\t%d\t%d\t%d\t%.0f\t%s\n", ios, k, sets, upd, runs, wmax, relax
	}' "$T/trace"
}

# no_loss - fails when the buffer dropped events since it was emptied.
no_loss() {
	_l=$(trace_overruns "$T")
	[ "$_l" -eq 0 ] || fail "the trace buffer dropped $_l events ($1)"
}

# irq_delta A B - B minus A (two loc_snap lists), comma-separated.
irq_delta() {
	echo "$1|$2" | awk -F'|' '{ n = split($1, a, " "); split($2, b, " ")
		for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? "," : ""), b[i] - a[i]; print "" }'
}

echo 32768 > "$T/buffer_size_kb"
for e in power/dev_pm_qos_add_request power/dev_pm_qos_update_request \
	block/block_rq_complete \
	workqueue/workqueue_execute_start workqueue/workqueue_execute_end; do
	echo 1 > "$T/events/$e/enable" || fail "no trace event $e"
done

# ---- one disk, one hctx ----------------------------------------------------
rt=$RESULTS_DIR/rounds.tsv
printf 'workload\tround\tios\tcpus_limited\tlimit_sets\tqos_calls\twork_runs\tlongest_run_us\trelax_delay_us\n' > "$rt"
insmod "$KO" queues=1 controller=$CTL latency_us=20 || fail "cannot load emu_blk queues=1"
SI=$(si_attr emublk0)
echo auto > "/sys/block/emublk0/queue/$SI" || fail "cannot enable $SI"
devt=$(cat /sys/block/emublk0/dev)
for w in 1q-1job 1q-2jobs; do
	case $w in
	1q-1job) cpus=0 jobs="--numjobs=1" ;;
	1q-2jobs) cpus=0,4 jobs="--numjobs=2 --cpus_allowed_policy=split" ;;
	esac
	i=0
	while [ "$i" -lt "$rounds" ]; do
		trace_on "$devt"
		# shellcheck disable=SC2086
		taskset -c $cpus fio --name=scale --filename=/dev/emublk0 --direct=1 \
			--rw=randread --bs=4k --ioengine=psync --iodepth=1 \
			--cpus_allowed=$cpus $jobs --time_based \
			--runtime=300ms --output=/dev/null > /dev/null 2>&1 ||
			fail "fio failed ($w)"
		sleep 0.2
		echo 0 > "$T/tracing_on"
		no_loss "$w $i"
		printf '%s\t%s\t%s\n' "$w" "$i" "$(summarize)" >> "$rt"
		i=$((i + 1))
	done
done
echo off > "/sys/block/emublk0/queue/$SI"
rmmod emu_blk || fail "cannot unload emu_blk"

# ---- eight namespaces, one hctx per CPU ------------------------------------
rr=$RESULTS_DIR/rates.tsv
printf 'workload\tseconds\tios\tcpus_limited\tlimit_sets\tqos_calls\twork_runs\tlongest_run_us\trelax_delay_us\tloc_per_cpu\tres_per_cpu\tcal_per_cpu\n' > "$rr"
insmod "$KO" devices=8 controller=$CTL latency_us=20 || fail "cannot load emu_blk devices=8"
files="" devts=""
for n in 0 1 2 3 4 5 6 7; do
	files="${files:+$files:}/dev/emublk$n"
	devts="$devts $(cat /sys/block/emublk$n/dev)"
done
for w in 8ns-off 8ns-auto; do
	for n in 0 1 2 3 4 5 6 7; do
		echo "${w#8ns-}" > "/sys/block/emublk$n/queue/$SI" || fail "cannot set $SI on emublk$n"
	done
	sleep 0.2
	# shellcheck disable=SC2086
	trace_on $devts
	l0=$(loc_snap) r0=$(loc_snap RES) c0=$(loc_snap CAL)
	taskset -c 0-5 fio --name=scale --filename="$files" --file_service_type=roundrobin \
		--direct=1 --rw=randread --bs=4k --ioengine=psync --iodepth=1 \
		--numjobs=6 --cpus_allowed=0-5 --cpus_allowed_policy=split \
		--time_based --runtime="$runtime" --output=/dev/null > /dev/null 2>&1 ||
		fail "fio failed ($w)"
	l1=$(loc_snap) r1=$(loc_snap RES) c1=$(loc_snap CAL)
	echo 0 > "$T/tracing_on"
	no_loss "$w"
	s=$(summarize)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$w" "$runtime" "$s" \
		"$(irq_delta "$l0" "$l1")" "$(irq_delta "$r0" "$r1")" "$(irq_delta "$c0" "$c1")" >> "$rr"
done
for n in 0 1 2 3 4 5 6 7; do
	echo off > "/sys/block/emublk$n/queue/$SI"
done
rmmod emu_blk || fail "cannot unload emu_blk"
emu_unload
echo "scale: $(($(wc -l < "$rt") - 1)) rounds and $(($(wc -l < "$rr") - 1)) rate runs measured"
[ "$(wc -l < "$rt")" -eq $((2 * rounds + 1)) ] && [ "$(wc -l < "$rr")" -eq 3 ]
