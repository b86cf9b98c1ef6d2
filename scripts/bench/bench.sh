#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [--table spr|skx|icx|amd] [--quick] [--reps N] [--runtime S]
#          [--pairs N] [--queues N] [--no-poll] [--quiet-wait S] [--shared]
#          [--govs LIST] [--configs LIST] [--workloads LIST]
#          [--platform tcg|icount] [--latency US] [--tail US:PERMILLE]
#          [--smp N] [--build DIR | --series-commit C] [--out DIR]
# bench.sh --report DIR
#
# The benchmark of the shallow_idle series, in the QEMU guest with
# emulated C-states (tools/emu-cstates, table spr by default): fio job files
# of tools/bench/ on /dev/vda (virtio-blk), run by tools/guest/bench.sh,
# for the cpuidle governors menu and teo and the configurations
#   off     shallow_idle off (today's kernel)
#   auto    shallow_idle auto on /dev/vda
#   c6off   the deep states (exit latency above the auto limit: C6 on spr,
#           C2 on amd) disabled on every CPU (the latency floor)
#   dmalat  /dev/cpu_dma_latency held at the auto limit (global)
#   poll    idle=poll: a second boot of the same kernel
# alternating in one boot (every configuration once per repetition and
# workload, the order rotated per repetition), and the workloads QD1,
# QD1 + 200 us think time, QD1 + 20 ms think time, QD32 x 2 jobs.
# Then the hot-path overhead: null_blk (irqmode=0) QD32 x 2 jobs, off and
# auto alternating in pairs (ABBA order), IOPS ratio auto/off.
#
# Defaults: 3 repetitions of 4 s per cell, 1 s idle after each cell, 5
# null_blk pairs of 3 s; about 15 minutes on a 2-core host under TCG.
# --quick: 1 repetition, 2 s cells, 2 pairs of 1 s (a smoke test).
#
# Output in DIR (default $RESULTS/bench; $RESULTS/bench-TABLE for other
# tables; "-quick" appended for --quick): bench.md (the tables and the
# targets, also printed, then the modeled energy of scripts/report/energy-model.py
# with its own targets; energy.md and energy.json), cells.json (every cell), summary.json (median,
# min, max per governor, workload and configuration), targets.json,
# bench.png (gnuplot), and per boot guest-cstates/ and guest-poll/ with the
# raw fio JSON (fio/), the per-cell counters (meta/), info.json,
# bench.log and console.log.
#
# --report DIR only rebuilds the report from the meta/ folders below DIR
# (scripts/bench/host-bench.sh uses it).
#
# Targets are printed next to the measured values and never asserted: the
# exit status is 0 when every cell ran, whatever the numbers; 1 when a
# guest run or a fio run failed or a cell ran without its configuration
# (e.g. the write to /dev/cpu_dma_latency failed: the cell fails and gives
# no numbers); 2 on usage errors.
#
# The guests run with scripts/qemu/guest.sh --lock (no kernel build meanwhile).
# Other guests (kselftest, torture, ... of other users) still compete for
# the host CPUs: before each boot bench.sh waits up to --quiet-wait seconds
# (default 120) for them to end, then samples them every 5 s; the output
# says how many ran.
#
# The guests run isolated (scripts/qemu/guest.sh --isolate: each vCPU on its
# own host CPU, virtio-blk on an I/O thread that runs at SCHED_FIFO on the
# host CPU of the last vCPU, so that an emulated C-state exit that vCPU
# busy-waits delays neither vCPU 0 nor the I/O thread); --shared lets the
# host schedule QEMU's threads freely, as before 2026-12-02.
#
# The guests boot with tsc=reliable (see below) and, for idle=poll, with
# idle=poll.
#
# --govs, --configs and --workloads (comma lists) run a part of the matrix,
# e.g. --govs menu --configs auto,c6off --workloads qd1,qd1-cpu0; a workload
# is a job file tools/bench/NAME.fio, or qd1-t<N>us: QD1 with N us of think
# time (tools/bench/qd1-think.fio; scripts/bench/think-curve.sh).
#
# --queues N boots with virtio_blk.num_request_queues=N (default: one queue
# per vCPU, each hctx covering one CPU; with 1 queue the hctx covers both
# CPUs, so auto constrains both while busy).
# --platform icount (the deterministic platform): QEMU -icount
# (scripts/qemu/guest.sh --accel icount: the guest clock counts instructions,
# 1 ns each, and skips the time all vCPUs halt), -smp 3 by default, and the
# emulated storage device tools/emu-blk instead of virtio-blk: /dev/emublk0,
# one hardware queue per CPU (--queues 1: one for all), device latency
# --latency US (default 20) and --tail US:PERMILLE (a share of the requests
# takes US instead), completions sent by IPI from a controller CPU (the
# last vCPU, without emulated C-states, fio never runs there) to the
# submitting CPU. No host CPU time enters a figure; --shared and the
# isolation do not apply (one host thread runs every vCPU in turns).
# Defaults there: 1 repetition and 1 null_blk pair (the spread between
# runs is in data/icount-repro). --platform tcg (default): the platform
# above.
#
# Every cell also counts the device's completions that ran on a CPU woken
# from a deep state (trace events cpu_idle and block_rq_complete; column
# "deep wakes/IO").
#
# --series-commit C runs the series as this repository held it at commit C
# (its series file and patches/) instead of branch series, built into
# $BUILD, which is rebuilt from branch series afterwards (as for
# scripts/bench/raise-cost.sh): v2 against v3 on one platform. Default output
# then gets "-C" appended.
#
# Needs BASE_DIR like guest.sh; installs jq and gnuplot-nox when missing.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/series-build.sh"

usage() {
	sed -n '4,8s/^# //p' "$0" >&2
	exit 2
}

# ---- the report -----------------------------------------------------------

# jq: one cell from its meta/LABEL.json ($m), the fio JSON ($f, or null) and
# the run's info.json ($info).
JQ_CELL='
def dir: if ((.read.total_ios // 0) > 0) then .read else .write end;
def pct($d; $k; $p): if $d == null then null
	else ($d[0][$k].percentile[$p] // null) | if . == null then null else . / 1000 end end;
def div($a; $b): if $a == null or $b == null then null
	elif $b == 0 then (if $a == 0 then 0 else null end) else $a / $b end;
($info.deep_states // []) as $deep
| (($f.jobs // []) | map(select((."job options".ioengine // "") != "cpuio") | dir)) as $d
| (if ($d | length) > 0 and $m.fio_rc == 0 and ($m.config_ok // true) then $d else null end) as $d
| ($m.idle_us | add) as $it
| ($m.idle_after_us | add) as $at
| ($d | if . == null then null else map(.total_ios) | add end) as $ios
| {
	table: $m.table, idle: $m.idle, mode: $m.mode, governor: $m.governor,
	config: $m.config, workload: $m.workload, rep: $m.rep,
	device: $m.device, ok: ($d != null),
	p50_us: pct($d; "lat_ns"; "50.000000"), p99_us: pct($d; "lat_ns"; "99.000000"),
	p999_us: pct($d; "lat_ns"; "99.900000"),
	max_us: ($d | if . == null then null else map(.lat_ns.max) | max / 1000 end),
	clat_p50_us: pct($d; "clat_ns"; "50.000000"), clat_p99_us: pct($d; "clat_ns"; "99.000000"),
	clat_p999_us: pct($d; "clat_ns"; "99.900000"),
	clat_max_us: ($d | if . == null then null else map(.clat_ns.max) | max / 1000 end),
	iops: ($d | if . == null then null else map(.iops) | add end),
	ios: $ios,
	run_s: $m.run_s, startup_s: $m.startup_s, after_s: $m.after_s,
	idle_us: $m.idle_us, idle_after_us: $m.idle_after_us,
	state_share: ($m.idle_us | with_entries(.value = div(.value; $it))),
	poll_share: div($m.idle_us.POLL; $it),
	deep_share: (if $it == null then null else div([$deep[] | $m.idle_us[.] // 0] | add; $it) end),
	deep_entries: (if ($m.idle_usage // null) == null then null else [$deep[] | $m.idle_usage[.] // 0] | add end),
	deep_after_share: (if $at == null then null else div([$deep[] | $m.idle_after_us[.] // 0] | add; $at) end),
	busy_share: div($m.stat.total - $m.stat.idle - $m.stat.iowait; $m.stat.total),
	qos_events: $m.qos_events, qos_per_io: div($m.qos_events; $ios),
	qos_steady: $m.qos_events_steady, ios_steady: $m.ios_steady,
	qos_steady_per_io: div($m.qos_events_steady; $m.ios_steady),
	raises: $m.debugfs.raises, relaxes: $m.debugfs.relaxes, misses: $m.debugfs.misses,
	misses_per_io: div($m.debugfs.misses; $ios),
	call_ipi_per_cpu_s: (($m.call_ipis // null) | if . == null or length == 0 then null
		else div(add / length; $m.run_s) end),
	resched_ipi_per_cpu_s: (($m.resched_ipis // null) | if . == null or length == 0 then null
		else div(add / length; $m.run_s) end),
	timer_irq_per_cpu_s: (($m.local_timer_irqs // null) | if . == null or length == 0 then null
		else div(add / length; $m.run_s) end),
	power_w: div(($m.energy_uj // null) | if . == null then null else . / 1e6 end; $m.run_s),
	power_after_w: div(($m.energy_after_uj // null) | if . == null then null else . / 1e6 end; $m.after_s),
	energy_per_io_uj: div($m.energy_uj // null; $ios),
	limit_us: $m.limit_us, dmalat_read: $m.dmalat_read, clocksource: $m.clocksource,
	pkg_deep_share: ($m.pkg_deep_share // null), pkg_deep_after_share: ($m.pkg_deep_after_share // null),
	completions: ($m.wake.completions // null), deep_wakes: ($m.wake.deep // null),
	wake_lost: ($m.wake.lost // null),
	deep_wake_per_io: div($m.wake.deep // null; $m.wake.completions // null),
	ctl_ns_per_io: (if ($m.emu_after // null) == null or ($m.emu_before // null) == null then null
		else div($m.emu_after.ctl_ns - $m.emu_before.ctl_ns; $m.emu_after.completed - $m.emu_before.completed) end),
	late_mean_ns: (if ($m.emu_after // null) == null or ($m.emu_before // null) == null then null
		else div($m.emu_after.late_sum_ns - $m.emu_before.late_sum_ns; $m.emu_after.completed - $m.emu_before.completed) end)
}'

# jq: summary.json from cells.json (slurped as $c) and the info.json files
# ($infos).
JQ_SUMMARY='
def stats: map(select(. != null)) | sort
	| if length == 0 then null else {
		median: (if length % 2 == 1 then .[length / 2 | floor]
			 else (.[length / 2 - 1] + .[length / 2]) / 2 end),
		min: .[0], max: .[-1], n: length } end;
def ratio($a; $b): if $a == null or $b == null then null
	elif $b == 0 then (if $a == 0 then 1 else null end) else $a / $b end;
["p50_us", "p99_us", "p999_us", "max_us", "clat_p50_us", "clat_p99_us",
 "clat_p999_us", "clat_max_us", "iops", "poll_share", "deep_share",
 "deep_after_share", "busy_share", "qos_events", "qos_per_io", "qos_steady",
 "qos_steady_per_io", "misses", "misses_per_io", "raises", "relaxes",
 "timer_irq_per_cpu_s", "power_w",
 "power_after_w", "energy_per_io_uj", "deep_wake_per_io", "ctl_ns_per_io",
 "late_mean_ns", "pkg_deep_share", "pkg_deep_after_share", "call_ipi_per_cpu_s",
 "resched_ipi_per_cpu_s"] as $metrics
| ($c | map(select(.workload != "null-qd32"))) as $main
| ($c | map(select(.workload == "null-qd32"))) as $null
| ([$infos[] | .states // [] | .[]] | unique_by(.name) | sort_by(.latency_us) | map(.name)) as $states
| {
	states: $states,
	deep_states: ([$infos[] | .deep_states // [] | .[]] | unique),
	governors: ([$infos[] | .governors[]] | reduce .[] as $g ([]; if index([$g]) then . else . + [$g] end)),
	workloads: ([$infos[] | .workloads[]] | reduce .[] as $g ([]; if index([$g]) then . else . + [$g] end)),
	configs: ([$infos[] | .configs[]] | reduce .[] as $g ([]; if index([$g]) then . else . + [$g] end)),
	cells: ($main | group_by([.governor, .workload, .config]) | map(
		. as $g | {governor: $g[0].governor, workload: $g[0].workload,
		config: $g[0].config, n: length, failed: (map(select(.ok | not)) | length)}
		+ (reduce $metrics[] as $k ({}; .[$k] = ($g | map(.[$k]) | stats)))
		+ {state_share: (reduce $states[] as $s ({}; .[$s] = ($g | map(.state_share[$s]) | stats)))})),
	ratios: ([$main | group_by([.governor, .workload])[]
		| . as $g
		| (["auto", "c6off", "p50_us"], ["auto", "c6off", "p99_us"],
		   ["auto", "c6off", "p999_us"], ["auto", "off", "p50_us"],
		   ["auto", "off", "p99_us"], ["auto", "off", "deep_after_share"],
		   ["auto", "off", "poll_share"], ["auto", "off", "iops"],
		   ["auto", "dmalat", "p99_us"], ["auto", "off", "power_w"],
		   ["auto", "off", "power_after_w"]) as [$a, $b, $k]
		| ([$g[] | select(.config == $a)] | map({key: (.rep | tostring), value: .[$k]}) | from_entries) as $na
		| ([$g[] | select(.config == $b)] | map({key: (.rep | tostring), value: .[$k]}) | from_entries) as $nb
		| [$na | keys[] | select($nb[.] != null) | ratio($na[.]; $nb[.])] as $r
		| select($r | length > 0)
		| {governor: $g[0].governor, workload: $g[0].workload, num: $a, den: $b, metric: $k,
		   pairs: $r, ratio: ($r | stats)}]),
	overhead: (if ($null | length) == 0 then null else
		($null | group_by(.rep) | map({pair: .[0].rep,
			off: (map(select(.config == "off"))[0].iops),
			auto: (map(select(.config == "auto"))[0].iops)})
		| map(. + {ratio: ratio(.auto; .off)})) as $p
		| {governor: $null[0].governor, device: $null[0].device, pairs: $p,
		   ratio: ($p | map(.ratio) | stats),
		   off_iops: ($p | map(.off) | stats), auto_iops: ($p | map(.auto) | stats)} end)
}'

# jq: targets.json from summary.json ($s).
JQ_TARGETS='
def r($g; $w; $a; $b; $k): [$s.ratios[] | select(.governor == $g and .workload == $w
	and .num == $a and .den == $b and .metric == $k)][0].ratio;
def t($name; $g; $w; $v; $op; $goal): {target: $name, governor: $g, workload: $w,
	value: $v, op: $op, goal: $goal,
	met: (if $v == null then null elif $op == "<=" then $v.median <= $goal
	      else $v.median >= $goal end)};
($s.governors | map(select(. != "-"))) as $govs
| [ ($govs[] as $g | $s.workloads[] as $w |
	t("auto/c6off p50"; $g; $w; r($g; $w; "auto"; "c6off"; "p50_us"); "<="; 1.02),
	t("auto/c6off p99"; $g; $w; r($g; $w; "auto"; "c6off"; "p99_us"); "<="; 1.02)),
    ($govs[] as $g | $s.workloads[] as $w |
	([$s.cells[] | select(.governor == $g and .workload == $w and .config == "auto")][0]) as $c
	| select($c.deep_wake_per_io != null) |
	t("deep-state completions per I/O (auto)"; $g; $w; $c.deep_wake_per_io; "<="; 0.01)),
    ($govs[] as $g | $s.workloads[] as $w |
	t("deep-state share after I/O stops auto/off"; $g; $w;
	  r($g; $w; "auto"; "off"; "deep_after_share"); ">="; 0.99)),
    ($govs[] as $g | $s.workloads[] as $w |
	t("POLL residency during I/O auto/off"; $g; $w;
	  r($g; $w; "auto"; "off"; "poll_share"); "<="; 1.0)),
    (if $s.overhead == null then empty else
	t("null_blk IOPS auto/off"; $s.overhead.governor; "null-qd32"; $s.overhead.ratio; ">="; 0.995) end),
    ($govs[] as $g | $s.workloads[] | select(. == "qd1" or . == "qd32" or
	. == "qd1-write" or . == "qd32-write") as $w |
	([$s.cells[] | select(.governor == $g and .workload == $w and .config == "auto")][0]) as $c
	| if $c == null then empty else
	t("steady-state PM QoS updates per I/O (auto)"; $g; $w; $c.qos_steady_per_io; "<="; 0) end)
  ]'

# report DIR - cells.json, summary.json, targets.json, bench.md, bench.png
# from the meta/ folders below DIR; prints bench.md.
report() {
	local dir=$1 m base label fio tmpd
	need_pkgs jq gnuplot-nox
	tmpd=$(mktemp -d)
	: > "$tmpd/cells"
	while IFS= read -r m; do
		base=$(dirname "$(dirname "$m")")
		label=$(basename "$m" .json)
		fio=$base/fio/$label.json
		# fio may print notes before its JSON.
		if [ -f "$fio" ] && sed -n '/^{/,$p' "$fio" > "$tmpd/fio.json" &&
			jq -e . "$tmpd/fio.json" >/dev/null 2>&1; then
			:
		else
			echo null > "$tmpd/fio.json"
		fi
		jq -c -n --slurpfile m "$m" --slurpfile f "$tmpd/fio.json" \
			--slurpfile info "$base/info.json" \
			"\$m[0] as \$m | \$f[0] as \$f | \$info[0] as \$info | $JQ_CELL" >> "$tmpd/cells" ||
			die "cannot read $m"
	done < <(find "$dir" -path '*/meta/*.json' | sort)
	[ -s "$tmpd/cells" ] || die "no cells below $dir"
	jq -s . "$tmpd/cells" > "$dir/cells.json"
	find "$dir" -name info.json -path '*/guest-*/*' -o -name info.json -path '*/host/*' |
		sort | xargs jq -s . > "$tmpd/infos.json"
	jq --slurpfile infos "$tmpd/infos.json" '. as $c | $infos[0] as $infos | '"$JQ_SUMMARY" \
		"$dir/cells.json" > "$dir/summary.json"
	jq '. as $s | '"$JQ_TARGETS" "$dir/summary.json" > "$dir/targets.json"
	markdown "$dir" > "$dir/bench.md"
	# The energy model (scripts/report/energy-model.py): modeled, never measured.
	if python3 "$TOP/scripts/report/energy-model.py" "$dir" > "$tmpd/energy.md"; then
		{ echo; cat "$tmpd/energy.md"; } >> "$dir/bench.md"
	else
		echo "bench: no modeled energy (scripts/report/energy-model.py failed)" >&2
	fi
	plot "$dir" "$tmpd"
	rm -rf "$tmpd"
	cat "$dir/bench.md"
}

# fmt KIND MEDIAN MIN MAX - "median (min-max)"; KIND us|n|pct|r|w|e.
FMT_AWK='
function f(k, v) {
	if (v == "null" || v == "") return "-"
	if (k == "us") return (v < 10 ? sprintf("%.1f", v) : sprintf("%.0f", v))
	if (k == "n") return sprintf("%.0f", v)
	if (k == "pct") return sprintf("%.1f", v * 100)
	if (k == "r") return sprintf("%.3f", v)
	if (k == "w") return sprintf("%.1f", v)
	if (k == "e") return (v == 0 ? "0" : sprintf("%.2g", v))
	return v
}
function pct(v) {
	return (v < 0.1 ? sprintf("%.2g%%", v) : sprintf("%.1f%%", v))
}
function fmt(k, med, lo, hi, n) {
	if (med == "null" || med == "") return "-"
	if (n == 1 || f(k, lo) == f(k, hi)) return f(k, med)
	return f(k, med) " (" f(k, lo) "-" f(k, hi) ")"
}'

# markdown DIR - the tables of DIR/summary.json and DIR/targets.json.
markdown() {
	local dir=$1 s=$1/summary.json states deep energy info_first kernel table limit
	states=$(jq -r '.states | join(" ")' "$s")
	deep=$(jq -r '.deep_states | join("+")' "$s")
	energy=$(jq '[.cells[] | select(.power_w != null)] | length' "$s")
	info_first=$(find "$dir" -name info.json \( -path '*/guest-cstates/*' -o -path '*/host/*' \) | sed -n 1p)
	kernel=$(jq -r .kernel "$info_first")
	table=$(jq -r .table "$info_first")
	limit=$(jq -r '"\(.limit_us) us (\(.limit_source))"' "$info_first")

	echo "# shallow_idle benchmark"
	echo
	if [ "$(jq -r '.platform // "tcg"' "$info_first")" = icount ]; then
		echo "Kernel $kernel in QEMU -icount (deterministic: the guest clock counts" \
			"instructions, 1 ns each), -smp $(jq -r .cpus "$info_first"), emulated C-states table \`$table\`" \
			"($(jq -r '[.states[] | "\(.name) \(.latency_us)/\(.residency_us) us"] | join(", ")' "$info_first")" \
			"exit latency/target residency), device $(jq -r .device "$info_first")" \
			"(tools/emu-blk: $(jq -r .emu "$info_first"), completions sent by IPI from" \
			"controller CPU $(jq -r .controller_cpu "$info_first"), which has no emulated C-states;" \
			"fio on CPUs $(jq -r .fio_cpus "$info_first"))."
		echo
		echo "The figures count guest instructions, not host time: two runs give the" \
			"same figures whatever the host does. The guest is a 1-GIPS CPU on which" \
			"every kernel path costs what it costs under TCG in instructions, so the" \
			"absolute latencies are those of a slow CPU; the emulated exit latencies" \
			"are busy-waits in the same clock. The controller's work per I/O" \
			"(ctl ns/IO below) runs in turn with the other vCPUs and adds to the latency" \
			"of every configuration alike."
		echo
		echo "Hardware queues of $(jq -r .device "$info_first"): $(jq -r '.hctx_cpus | length' "$info_first")" \
			"(CPUs per hctx: $(jq -r '.hctx_cpus | join("; ")' "$info_first")). Kernel build:" \
			"$(jq -r '.kernel_version // "?"' "$info_first")."
	elif [ "$(jq -r .mode "$info_first")" = guest ]; then
		echo "Kernel $kernel in QEMU/TCG, -smp 2, emulated C-states table \`$table\`" \
			"($(jq -r '[.states[] | "\(.name) \(.latency_us)/\(.residency_us) us"] | join(", ")' "$info_first")" \
			"exit latency/target residency), device $(jq -r .device "$info_first") (virtio-blk)."
		echo
		echo "**TCG inflates everything**: every latency, the CPU cost of each I/O and" \
			"of each idle entry and exit are those of an emulated CPU, and the emulated" \
			"C-state exit latencies are busy-waited by it. The absolute numbers do not" \
			"transfer to real hardware; the ratios between configurations (auto vs off," \
			"c6off, dmalat, poll; null_blk auto/off) are what transfers. One more" \
			"artefact: an emulated exit latency is a busy-wait that occupies a host" \
			"core, so the C-state exits of vCPUs that auto leaves unconstrained (those" \
			"outside the busy hctx) take host CPU time from the busy vCPU and QEMU's" \
			"I/O thread; on real hardware another CPU's exit latency costs nothing."
		echo
		echo "Hardware queues of $(jq -r .device "$info_first"): $(jq -r '.hctx_cpus | length' "$info_first")" \
			"(CPUs per hctx: $(jq -r '.hctx_cpus | join("; ")' "$info_first")). Kernel build:" \
			"$(jq -r '.kernel_version // "?"' "$info_first"). Guest clocksource at the end of" \
			"each cell: $(jq -r '[.[].clocksource // "?"] | group_by(.) | map("\(.[0]) (\(length) cells)") | join(", ")' "$dir/cells.json")."
	else
		echo "Kernel $kernel on $(hostname), $(jq -r .cpus "$info_first") CPUs, cpuidle driver" \
			"$(jq -r .cpuidle_driver "$info_first"), device $(jq -r .device "$info_first")" \
			"($(jq -r '[.states[] | "\(.name) \(.latency_us)/\(.residency_us) us"] | join(", ")' "$info_first"))."
	fi
	echo
	echo "Auto limit $limit; deep states (disabled for c6off): $deep." \
		"Per cell: $(jq -r .runtime_s "$info_first") s of fio (time based)," \
		"then $(jq -r .after_s "$info_first") s idle; $(jq -r .reps "$info_first")" \
		"repetition(s), configurations alternating within each repetition."
	local clatnote="fio's completion latency, leaves out the submission system call"
	[ "$(jq -r .mode "$info_first")" != guest ] ||
		clatnote="$clatnote, in which under TCG a large share of the I/Os already completes (clat of 1-2 us), so its percentiles jump between modes"
	echo "Values: median (min-max) over the repetitions. Latency (p50 to max, and the" \
		"targets): time from submission to completion of each I/O (fio lat); clat," \
		"$clatnote. Idle-state columns: share of idle time (all CPUs) from the" \
		"first I/O to the end of the run; \"$deep after\": share of idle time in the" \
		"$(jq -r .after_s "$info_first") s after the I/O stopped. QoS upd: dev_pm_qos" \
		"add/update/remove trace events on CPU devices during the run (busy edges" \
		"included); steady: those from $(jq -r .steady_after_s "$info_first") s after the" \
		"first I/O to 0.5 s before the end of the run, per I/O of that window. misses: debugfs, requests issued" \
		"before the raise took effect. all CPUs $deep: share of the run (and of the idle window after it) in" \
		"which every CPU with emulated states was in $deep at once, the time in which the package could" \
		"sleep (emu_cstates' package count; \"-\" without it). deep wakes/IO: the device's completions that" \
		"ran on a CPU woken from $deep (trace events cpu_idle and block_rq_complete), per I/O." \
		"timer/s, call IPI/s, resched IPI/s: local timer, function call and rescheduling interrupts" \
		"per CPU and second over the run (/proc/interrupts LOC, CAL, RES). busy %: /proc/stat," \
		"tick-sampled (on the deterministic platform a workload period that divides the tick" \
		"period can alias with it)."
	[ "$(jq '[.cells[] | select(.config == "poll")] | length' "$s")" = 0 ] ||
		echo "poll: a separate boot with idle=poll (no cpuidle driver in use, no" \
			"governor; all idle time polls, no state residency exists)."
	echo

	echo "## Latency and throughput"
	echo
	echo "| governor | workload | config | p50 us | p99 us | p99.9 us | max us | clat p50 us | clat p99 us | IOPS | deep wakes/IO |"
	echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	rows "$s" '[.p50_us, .p99_us, .p999_us, .max_us, .clat_p50_us, .clat_p99_us, .iops, .deep_wake_per_io]' 'us us us us us us n e'
	echo

	echo "## Idle states, CPU and PM QoS"
	echo
	local hdr="| governor | workload | config |" sep="|---|---|---|" sel="[" kinds=""
	local st
	for st in $states; do
		hdr="$hdr $st % |"
		sep="$sep---:|"
		sel="$sel.state_share[\"$st\"], "
		kinds="$kinds pct"
	done
	hdr="$hdr $deep % after | all CPUs $deep % | after | busy % | QoS upd | upd/IO | steady upd/IO | misses | timer/s | call IPI/s | resched IPI/s |"
	sep="$sep---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	sel="$sel.deep_after_share, .pkg_deep_share, .pkg_deep_after_share, .busy_share, .qos_events, .qos_per_io, .qos_steady_per_io, .misses, .timer_irq_per_cpu_s, .call_ipi_per_cpu_s, .resched_ipi_per_cpu_s"
	kinds="$kinds pct pct pct pct n e e n n n n"
	if [ "$energy" != 0 ]; then
		hdr="$hdr pkg W | pkg W after | uJ/IO |"
		sep="$sep---:|---:|---:|"
		sel="$sel, .power_w, .power_after_w, .energy_per_io_uj"
		kinds="$kinds w w n"
	fi
	echo "$hdr"
	echo "$sep"
	rows "$s" "$sel]" "$kinds"
	echo

	if [ "$(jq '.overhead != null' "$s")" = true ]; then
		echo "## Overhead: null_blk, irqmode=0, 4k randread QD32 x 2 jobs" \
			"(governor $(jq -r .overhead.governor "$s"))"
		echo
		echo "| pair | off IOPS | auto IOPS | auto/off |"
		echo "|---:|---:|---:|---:|"
		jq -r '.overhead.pairs[] | [.pair, .off, .auto, .ratio] | map(tostring) | @tsv' "$s" |
			awk -F'\t' "$FMT_AWK"'{ printf "| %s | %s | %s | %s |\n", $1, f("n", $2), f("n", $3), f("r", $4) }'
		jq -r '.overhead | [.ratio.median, .ratio.min, .ratio.max, .ratio.n,
			.off_iops.median, .auto_iops.median] | map(tostring) | @tsv' "$s" |
			awk -F'\t' "$FMT_AWK"'{ printf "\nauto/off IOPS ratio: %s over %s pairs" \
				" (median off %s, auto %s IOPS). TCG inflates the cost of every I/O;" \
				" the ratio is what transfers to real hardware.\n", fmt("r", $1, $2, $3, $4), $4, f("n", $5), f("n", $6) }'
		echo
	fi

	echo "## Targets (benchmarks, not asserted)"
	echo
	echo "Ratios are paired per repetition (or null_blk pair): median (min-max)."
	echo
	echo "| target | governor | workload | measured | goal | status |"
	echo "|---|---|---|---:|---:|---|"
	jq -r '.[] | [.target, .governor, .workload,
		(.value | if . == null then "null" elif type == "object" then
			"\(.median)\t\(.min)\t\(.max)\t\(.n)" else "\(.)\t\(.)\t\(.)\t1" end),
		.op, .goal, (.met | tostring)] | map(tostring) | join("\t")' "$dir/targets.json" |
		awk -F'\t' "$FMT_AWK"'
		{
			if ($4 == "null") { v = "-"; st = "no data"; op = $5; goal = $6 }
			else {
				kind = ($1 ~ /per I\/O/) ? "e" : "r"
				v = fmt(kind, $4, $5, $6, $7); op = $8; goal = $9
				if ($10 == "true") st = "met"
				else if (op == "<=" && goal == 0) st = "MISSED (" f("e", $4) " > 0)"
				else if (op == "<=") st = "MISSED by " pct(($4 / goal - 1) * 100)
				else st = "MISSED by " pct((1 - $4 / goal) * 100)
			}
			printf "| %s | %s | %s | %s | %s %s | %s |\n", $1, $2, $3, v, op, goal, st
		}'
	echo
	jq -r '. as $t | ([$t[] | select(.met == true)] | length) as $m
		| ([$t[] | select(.met == null)] | length) as $u
		| "\($m) of \($t | length) targets met, \($t | length - $m - $u) missed" +
		  (if $u > 0 then ", \($u) without data" else "" end) + "."' "$dir/targets.json"
}

# rows SUMMARY JQ_LIST KINDS - one Markdown row per governor, workload and
# configuration (in the order of the run), each value "median (min-max)".
rows() {
	local s=$1 sel=$2 kinds=$3
	jq -r --arg kinds "$kinds" '
		. as $s
		| ($s.governors | map(select(. != "-"))) as $govs
		| ($s.configs) as $cfgs
		| [$govs[] as $g | $s.workloads[] as $w | $cfgs[] as $c
		   | $s.cells[] | select(.governor == $g and .workload == $w and .config == $c)]
		  + [$s.workloads[] as $w | $s.cells[] | select(.governor == "-" and .workload == $w)]
		| .[] | . as $row
		| ([$row | '"$sel"'] | flatten | map(if . == null then "null\tnull\tnull\t0"
			else "\(.median)\t\(.min)\t\(.max)\t\(.n)" end)) as $v
		| ([$row.governor, $row.workload, $row.config] + $v) | join("\t")' "$s" |
		awk -F'\t' -v kinds="$kinds" "$FMT_AWK"'
		{
			nk = split(kinds, k, " ")
			line = "| " ($1 == "-" ? "- (idle=poll)" : $1) " | " $2 " | " $3 " |"
			for (i = 1; i <= nk; i++) {
				j = 4 + (i - 1) * 4
				line = line " " fmt(k[i], $j, $(j + 1), $(j + 2), $(j + 3)) " |"
			}
			print line
		}'
}

# plot DIR TMP - DIR/bench.png: per governor (rows) the QD1 latency
# percentiles per configuration, p99 per workload and configuration, and
# the idle-state residency during QD1 with the deep share after I/O stops.
plot() {
	local dir=$1 tmpd=$2 s=$1/summary.json govs wl0 states nstates g i st ngov
	govs=$(jq -r '.governors | map(select(. != "-")) | join(" ")' "$s")
	[ -n "$govs" ] || govs=-
	wl0=$(jq -r '.workloads[0]' "$s")
	states=$(jq -r '.states | join(" ")' "$s")
	nstates=$(echo "$states" | wc -w)
	ngov=$(echo "$govs" | wc -w)

	for g in $govs; do
		# config p50 lo hi p99 lo hi p999 lo hi (workload 0)
		jq -r --arg g "$g" --arg w "$wl0" '
			def v($x): if $x == null then "NaN NaN NaN" else "\($x.median) \($x.min) \($x.max)" end;
			. as $s | $s.configs[] as $c
			| [$s.cells[] | select(.workload == $w and .config == $c and
				(.governor == $g or .governor == "-"))][0]
			| select(. != null)
			| "\($c) \(v(.p50_us)) \(v(.p99_us)) \(v(.p999_us))"' "$s" > "$tmpd/lat-$g.dat"
		# config state shares... deep_after (workload 0), in percent
		jq -r --arg g "$g" --arg w "$wl0" '
			def p($x): if $x == null then "NaN" else ($x.median * 100 | tostring) end;
			. as $s | $s.configs[] as $c
			| [$s.cells[] | select(.workload == $w and .config == $c and
				(.governor == $g or .governor == "-"))][0]
			| select(. != null)
			| ([$c] + [$s.states[] as $st | p(.state_share[$st])] + [p(.deep_after_share)]) | join(" ")' \
			"$s" > "$tmpd/res-$g.dat"
		# workload, then p99 median per configuration
		jq -r --arg g "$g" '
			. as $s | $s.workloads[] as $w
			| ([$w] + [$s.configs[] as $c
				| ([$s.cells[] | select(.workload == $w and .config == $c and
					(.governor == $g or .governor == "-"))][0].p99_us.median
				   // "NaN") | tostring]) | join(" ")' "$s" > "$tmpd/p99-$g.dat"
	done

	{
		echo "set terminal pngcairo noenhanced size 1800,$((460 * ngov + 60)) font 'Sans,10'"
		echo "set output '$dir/bench.png'"
		echo "set multiplot layout $ngov,3 title '$(jq -r '"shallow_idle benchmark: " + (.configs | join(", ")) + " (median, bars: min-max over repetitions)"' "$s")'"
		echo "set style fill solid 0.8 border -1"
		echo "set grid ytics"
		echo "set key top left"
		for g in $govs; do
			echo "set style data histogram"
			echo "set style histogram errorbars gap 1 lw 1"
			echo "set logscale y"
			echo "set ylabel 'I/O latency, submission to completion (us)'"
			echo "set title 'governor $g: $wl0 latency per configuration'"
			echo "plot '$tmpd/lat-$g.dat' using 2:3:4:xtic(1) title 'p50' lc rgb '#4e79a7', \\"
			echo "     '' using 5:6:7 title 'p99' lc rgb '#f28e2b', \\"
			echo "     '' using 8:9:10 title 'p99.9' lc rgb '#e15759'"
			echo "set style histogram clustered gap 1"
			echo "set xtics rotate by -15"
			echo "set title 'governor $g: p99 per workload'"
			echo "set ylabel 'p99 I/O latency (us)'"
			local cfgs n=2 plotline="plot "
			cfgs=$(jq -r '.configs | join(" ")' "$s")
			for c in $cfgs; do
				plotline="$plotline'$tmpd/p99-$g.dat' using $n:xtic(1) title '$c', "
				n=$((n + 1))
			done
			echo "${plotline%, }"
			echo "set xtics norotate"
			echo "unset logscale y"
			echo "set style histogram rowstacked"
			echo "set yrange [0:105]"
			echo "set ylabel 'share of idle time (%)'"
			echo "set key outside right top vertical"
			echo "set title 'governor $g: idle states during $wl0, and $(jq -r '.deep_states | join("+")' "$s") share in the 1 s after'"
			plotline="plot "
			i=2
			for st in $states; do
				plotline="$plotline'$tmpd/res-$g.dat' using $i:xtic(1) title '$st', "
				i=$((i + 1))
			done
			plotline="$plotline'$tmpd/res-$g.dat' using (\$0):$((nstates + 2)) with points pt 7 ps 2 lc rgb 'black' title '$(jq -r '.deep_states | join("+")' "$s") after (%)'"
			echo "$plotline"
			echo "set yrange [*:*]"
			echo "set key inside top left"
		done
		echo "unset multiplot"
	} > "$tmpd/plot.gp"
	cp "$tmpd/plot.gp" "$dir/bench.gp"
	if ! gnuplot "$tmpd/plot.gp" 2> "$tmpd/gnuplot.err"; then
		cat "$tmpd/gnuplot.err" >&2
		log "bench: warning: gnuplot failed, no $dir/bench.png"
	fi
	# The data files go away with TMP: keep them next to the script.
	mkdir -p "$dir/plot-data"
	cp "$tmpd"/*.dat "$dir/plot-data/"
	sed -i "s|$tmpd/|$dir/plot-data/|g" "$dir/bench.gp"
}

# ---- arguments ------------------------------------------------------------

table=$DEFAULT_TABLE quick=0 reps="" runtime="" pairs="" poll=1 out="" report_only=""
queues="" quiet_wait=120 isolate=1 platform=tcg latency=20 tail="" smp="" scommit=""
govs=${GOVERNORS//,/ } configs=$BENCH_CONFIGS workloads=$BENCH_WORKLOADS
build=$BUILD
while [ $# -gt 0 ]; do
	case $1 in
	--table) table=${2:?}; shift 2 ;;
	--quick) quick=1; shift ;;
	--reps) reps=${2:?}; shift 2 ;;
	--runtime) runtime=${2:?}; shift 2 ;;
	--pairs) pairs=${2:?}; shift 2 ;;
	--no-poll) poll=0; shift ;;
	--shared) isolate=0; shift ;;
	--queues) queues=${2:?}; shift 2 ;;
	--platform) platform=${2:?}; shift 2 ;;
	--latency) latency=${2:?}; shift 2 ;;
	--tail) tail=${2:?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--quiet-wait) quiet_wait=${2:?}; shift 2 ;;
	--govs) govs=$(echo "${2:?}" | tr ',' ' '); shift 2 ;;
	--configs) configs=$(echo "${2:?}" | tr ',' ' '); shift 2 ;;
	--workloads) workloads=$(echo "${2:?}" | tr ',' ' '); shift 2 ;;
	--build) build=${2:?}; shift 2 ;;
	--series-commit) scommit=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--report) report_only=${2:?}; shift 2 ;;
	-h|--help) usage ;;
	*) echo "unknown argument: $1" >&2; usage ;;
	esac
done

if [ -n "$report_only" ]; then
	[ -d "$report_only" ] || die "no folder $report_only"
	report "$(realpath "$report_only")"
	exit 0
fi

case ,$TABLES, in *,"$table",*) ;; *) die "--table wants one of $TABLES, got $table" ;; esac
case $platform in tcg|icount) ;; *) die "--platform wants tcg or icount" ;; esac
[[ $latency =~ ^[0-9]+$ ]] && [ "$latency" -le 1000000 ] || die "--latency wants microseconds (0-1000000), got $latency"
[ -z "$tail" ] || { [[ $tail =~ ^[0-9]+:[0-9]+$ ]] && [ "${tail#*:}" -le 1000 ]; } ||
	die "--tail wants US:PERMILLE (PERMILLE 0-1000), got $tail"
[ -z "$smp" ] || { [[ $smp =~ ^[0-9]+$ ]] && [ "$smp" -ge 2 ] && [ "$smp" -le 16 ]; } ||
	die "--smp wants 2-16 CPUs, got $smp"
emu=""
if [ "$platform" = icount ]; then
	: "${smp:=3}"
	isolate=0
	emu="latency_us=$latency${queues:+ queues=$queues}"
	[ -z "$tail" ] || emu="$emu tail_us=${tail%%:*} tail_permille=${tail#*:}"
else
	[ -z "$tail" ] && [ "$latency" = 20 ] || die "--latency and --tail need --platform icount"
	: "${smp:=2}"
fi
if [ $quick = 1 ]; then
	: "${reps:=1}" "${runtime:=2}" "${pairs:=2}"
	steady=0.5 null_runtime=1
elif [ "$platform" = icount ]; then
	# Deterministic: runs differ far less than on TCG (data/icount-repro),
	# one repetition and one null_blk pair by default.
	: "${reps:=1}" "${runtime:=4}" "${pairs:=1}"
	steady=1 null_runtime=3
else
	: "${reps:=3}" "${runtime:=4}" "${pairs:=5}"
	steady=1 null_runtime=3
fi
after=1
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a number, got $reps"
[[ $runtime =~ ^[1-9][0-9]*$ ]] || die "--runtime wants whole seconds, got $runtime"
[[ $pairs =~ ^[0-9]+$ ]] || die "--pairs wants a number, got $pairs"
[[ $quiet_wait =~ ^[0-9]+$ ]] || die "--quiet-wait wants seconds, got $quiet_wait"
[ -z "$queues" ] || [[ $queues =~ ^[1-9][0-9]*$ ]] || die "--queues wants a number, got $queues"
for g in $govs; do
	case $g in menu|teo|ladder|haltpoll) ;; *) die "--govs: unknown governor '$g'" ;; esac
done
for c in $configs; do
	[[ " $BENCH_CONFIGS " == *" $c "* ]] || die "--configs: unknown configuration '$c' ($BENCH_CONFIGS)"
done
for w in $workloads; do
	[ -f "$TOP/tools/bench/$w.fio" ] || [[ $w =~ ^qd1-t[0-9]+us$ ]] ||
		die "--workloads: no job file tools/bench/$w.fio, and not qd1-t<N>us"
done
[ -n "$govs" ] && [ -n "$configs" ] && [ -n "$workloads" ] || die "--govs, --configs and --workloads want a non-empty list"
[ "$runtime" -ge 2 ] || die "--runtime must be at least 2 s"
if [ -n "$scommit" ]; then
	series_commit_build bench "$scommit" "$build"
fi
[ -d "$build" ] || die "no kernel build folder $build"
if [ -z "$out" ]; then
	out=$RESULTS/bench
	[ "$table" = "$DEFAULT_TABLE" ] || out=$out-$table
	[ "$platform" = tcg ] || out=$out-$platform
	[ -z "$scommit" ] || out=$out-$short
	[ -z "$queues" ] || out=$out-q$queues
	[ $quick = 0 ] || out=$out-quick
fi
out=$(realpath -m "$out")

need_pkgs jq gnuplot-nox

# OUT: replaced, but only when this script made it.
own_out "$out" .bench-run
mkdir -p "$out/.wrap"

# wrapper FILE IDLE - the guest script: settings, the job files, then
# tools/guest/bench.sh (in the share, like every file of tools/guest/).
wrapper() {
	local f
	{
		echo '#!/bin/sh'
		echo "# Generated by scripts/bench/bench.sh: settings and tools/bench/*.fio for"
		echo "# tools/guest/bench.sh."
		echo "export bench_mode=guest bench_idle=$2 bench_table=$table"
		echo "export bench_reps=$reps bench_runtime=$runtime bench_steady=$steady"
		echo "export bench_after=$after bench_pairs=$pairs bench_null_runtime=$null_runtime"
		echo "export bench_govs='$govs' bench_configs='$configs'"
		echo "export bench_workloads='$workloads'"
		echo "export bench_emu='$emu' bench_platform=$platform"
		echo "export bench_jobs=/tmp/bench-jobs bench_readonly=1"
		echo 'mkdir -p "$bench_jobs"'
		for f in "$TOP"/tools/bench/*.fio; do
			echo "cat > \"\$bench_jobs/$(basename "$f")\" <<'EOF_FIO'"
			cat "$f"
			echo "EOF_FIO"
		done
		# qd1-t<N>us: tools/bench/qd1-think.fio with thinktime=N.
		for f in $workloads; do
			[[ $f =~ ^qd1-t([0-9]+)us$ ]] && [ ! -f "$TOP/tools/bench/$f.fio" ] || continue
			echo "cat > \"\$bench_jobs/$f.fio\" <<'EOF_FIO'"
			sed -e "s/^thinktime=.*/thinktime=${BASH_REMATCH[1]}/" \
			    -e "s/^\[qd1-think\]/[$f]/" "$TOP/tools/bench/qd1-think.fio"
			echo "EOF_FIO"
		done
		echo 'exec sh "$SHARE/bench.sh"'
	} > "$1"
}

# other_qemu NAME - QEMU processes on the host other than the guest of
# boot NAME.
other_qemu() {
	ps -eo args= | awk -v me="guest_run=bench-$1.sh" \
		'$1 ~ /(^|\/)qemu-system-/ && index($0, me) == 0 { n++ } END { print n + 0 }'
}

# boot NAME IDLE [APPEND] - one guest run into OUT/guest-NAME.
boot() {
	local name=$1 idle=$2 append=${3:-} cells est rc=0 s waited=0 sampler
	local nwl
	nwl=$(echo $workloads | wc -w)
	wrapper "$out/.wrap/bench-$name.sh" "$idle"
	if [ "$idle" = poll ]; then
		cells=$((reps * nwl))
	else
		cells=$((reps * $(echo $govs | wc -w) * $(echo $configs | wc -w) * nwl + 2 * pairs))
	fi
	est=$((cells * (runtime + after + 3) + 120))
	# Other guests share the host CPUs: wait a while for them to end.
	while [ "$(other_qemu "$name")" != 0 ] && [ $waited -lt "$quiet_wait" ]; do
		[ $waited != 0 ] || log "bench: other QEMU guests are running; waiting up to $quiet_wait s for them to end"
		sleep 5
		waited=$((waited + 5))
	done
	{
		echo "waited_for_quiet_host_s=$waited"
		echo "loadavg_at_start=$(cut -d' ' -f1-3 /proc/loadavg)"
	} > "$out/host-$name.txt"
	# Sample the other QEMU processes every 5 s while the guest runs.
	(while :; do other_qemu "$name"; sleep 5; done) > "$out/host-$name.qemu" 2>/dev/null &
	sampler=$!
	log "bench: boot '$name' ($cells cells, about $((est / 60)) min at most)"
	s=$SECONDS
	"$TOP/scripts/qemu/guest.sh" --kernel "$build" --script "$out/.wrap/bench-$name.sh" \
		--out "$out/guest-$name" --timeout $((2 * est + 300)) --lock \
		--smp "$smp" $([ "$platform" = tcg ] || echo --accel "$platform") \
		${append:+--append "$append"} $([ $isolate = 0 ] || echo --isolate) || rc=$?
	kill "$sampler" 2>/dev/null || true
	wait "$sampler" 2>/dev/null || true
	echo "$((SECONDS - s))" > "$out/guest-$name/wall_s"
	{
		echo "loadavg_at_end=$(cut -d' ' -f1-3 /proc/loadavg)"
		echo "other_qemu_max=$(sort -n "$out/host-$name.qemu" | tail -n 1)"
		echo "other_qemu_samples_busy=$(awk '$1 > 0 { n++ } END { print n + 0 }' "$out/host-$name.qemu")/$(wc -l < "$out/host-$name.qemu")"
		echo "wall_s=$((SECONDS - s))"
	} >> "$out/host-$name.txt"
	log "bench: boot '$name' took $((SECONDS - s)) s (exit $rc)"
	return $rc
}

start=$SECONDS
fail=0
# tsc=reliable: under TCG on a loaded host the clocksource watchdog may
# switch the guest to hpet in the middle of the run, which makes every fio
# time stamp dearer from then on; keep the TSC for the whole run.
# kunit.enable=0: the KUnit suites built into the test kernel run at boot
# otherwise (minutes under -icount); scripts/tests/kunit.sh runs them.
kargs="tsc=reliable kunit.enable=0"
[ -n "$emu" ] || kargs="$kargs${queues:+ virtio_blk.num_request_queues=$queues}"
timed "bench:cstates" boot cstates cpuidle "$kargs" || fail=1
if [ $poll = 1 ]; then
	timed "bench:poll" boot poll poll "idle=poll $kargs" || fail=1
fi
[ -f "$out/guest-cstates/info.json" ] || die "the guest wrote no results (see $out/guest-cstates/console.log)"
report "$out"
wall=$((SECONDS - start))
{
	echo
	echo "Wall time: $wall s in all (boot with C-states $(cat "$out/guest-cstates/wall_s") s$(
		[ $poll = 0 ] || echo ", idle=poll boot $(cat "$out/guest-poll/wall_s") s"));" \
		"$reps repetition(s), ${runtime} s per cell, ${pairs} null_blk pairs of ${null_runtime} s," \
		"host $(nproc) CPUs."
	if [ $isolate = 1 ]; then
		echo "QEMU threads isolated (scripts/qemu/guest.sh --isolate): $(pinning_text "$out/guest-cstates/pinning.txt")."
	else
		echo "QEMU threads shared (--shared): placed by the host scheduler."
	fi
	for f in "$out"/host-*.txt; do
		echo "Host during boot '$(basename "$f" .txt | sed 's/^host-//')': other QEMU" \
			"guests (other users) in $(sed -n 's/^other_qemu_samples_busy=//p' "$f")" \
			"5-s samples (at most $(sed -n 's/^other_qemu_max=//p' "$f") at once;" \
			"waited $(sed -n 's/^waited_for_quiet_host_s=//p' "$f") s for a quiet host first)," \
			"load average $(sed -n 's/^loadavg_at_start=//p' "$f") at start," \
			"$(sed -n 's/^loadavg_at_end=//p' "$f") at end."
	done
} | tee -a "$out/bench.md"
log "bench: results in $out (bench.md, bench.png, cells.json, summary.json, targets.json)"
if [ $fail != 0 ]; then
	log "bench: a guest run failed (see $out/guest-*/console.log and bench.log)"
	exit 1
fi
