#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# think-curve.sh [--thinks LIST] [--runtime S] [--reps N] [--govs LIST]
#                [--table NAME] [--platform tcg|icount] [--latency US]
#                [--tail US:PERMILLE] [--out DIR]
# think-curve.sh --report DIR | --md SUMMARY
#
# The think-time curve: fio QD1 4 KiB random reads with a think time after
# each completion (virtio-blk, or with --platform icount the emulated
# device of tools/emu-blk at --latency US, with --tail US:PERMILLE that
# share of the requests taking US instead, on the deterministic platform:
# scripts/bench/bench.sh --platform), swept over LIST (microseconds, default
# 0,100,200,500,1000,2000,4000,7000,8000,9000,16000,32000: 0 to 32 ms and
# the 8 ms hold period +- 1 ms), for the governors (default menu,teo) and
# the configurations off, auto and c6off, in one boot of the isolated
# platform (scripts/bench/bench.sh --workloads qd1-t<N>us ...; defaults: 1
# repetition of 4 s per cell). Answers where auto helps, where it is
# neutral and where it hurts, and what it costs in the quantities power
# comes from.
#
# Per think time and governor, in DIR/curve.tsv and DIR/curve.md (also
# printed): p50 and p99 ratios auto/off and auto/c6off; PM QoS updates and
# misses per I/O with auto; completions that ran on a CPU woken from a
# deep state, per I/O, off / auto / c6off; the share of idle time in the
# deep state and
# local timer interrupts per CPU and second, off / auto / c6off; the busy
# share of the CPUs, off / auto. DIR/curve.png (gnuplot) plots the same.
# Printed, never asserted.
#
# Output in DIR (default $RESULTS/think-curve): bench/ (scripts/bench/bench.sh's
# output: summary.json, bench.md, cells.json, ...), curve.tsv, curve.md,
# curve.png, run.txt (command, platform, date, commit). --report DIR only
# rebuilds curve.* from DIR/bench/summary.json (or DIR/summary.json);
# --md SUMMARY only prints the table of a summary.json (scripts/report/figures.sh).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
RUN_COMMIT=$(repo_head)

usage() {
	sed -n '4,6s/^# //p' "$0" >&2
	exit 2
}

thinks=$THINKS
runtime=4 reps=1 govs=$GOVERNORS table=$DEFAULT_TABLE out="" report_only="" md_only=""
platform=tcg latency=20 tail=""
while [ $# -gt 0 ]; do
	case $1 in
	--thinks) thinks=${2:?}; shift 2 ;;
	--runtime) runtime=${2:?}; shift 2 ;;
	--reps) reps=${2:?}; shift 2 ;;
	--govs) govs=${2:?}; shift 2 ;;
	--table) table=${2:?}; shift 2 ;;
	--platform) platform=${2:?}; shift 2 ;;
	--latency) latency=${2:?}; shift 2 ;;
	--tail) tail=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--report) report_only=${2:?}; shift 2 ;;
	--md) md_only=${2:?}; shift 2 ;;
	*) usage ;;
	esac
done
[[ $thinks =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--thinks wants a comma list of microseconds, got '$thinks'"

# tables SUMMARY DIR: DIR/curve.tsv and DIR/curve.md from SUMMARY.
tables() {
	python3 - "$1" "$2" <<'EOF_PY'
import json, re, sys
s = json.load(open(sys.argv[1]))
out = sys.argv[2]
cells = {(c["governor"], c["workload"], c["config"]): c for c in s["cells"]}

def med(gov, wl, cfg, key):
    c = cells.get((gov, wl, cfg))
    v = c.get(key) if c else None
    return v.get("median") if isinstance(v, dict) else None

def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None

def f(v, fmt):
    return "-" if v is None else fmt % v

wls = sorted((w for w in s["workloads"] if re.fullmatch(r"qd1-t\d+us", w)),
             key=lambda w: int(w[5:-2]))
if not wls:
    sys.exit("no qd1-t<N>us workload in " + sys.argv[1])
cols = ["think_us", "governor", "p50_auto_off", "p99_auto_off",
        "p50_auto_c6off", "p99_auto_c6off", "qos_per_io", "misses_per_io",
        "deep_off", "deep_auto", "deep_c6off", "timer_off", "timer_auto",
        "timer_c6off", "busy_off", "busy_auto", "p50_off_us", "p50_auto_us",
        "wake_off", "wake_auto", "wake_c6off"]
rows = []
for wl in wls:
    for g in s["governors"]:
        m = lambda cfg, k: med(g, wl, cfg, k)
        rows.append([int(wl[5:-2]), g,
                     ratio(m("auto", "p50_us"), m("off", "p50_us")),
                     ratio(m("auto", "p99_us"), m("off", "p99_us")),
                     ratio(m("auto", "p50_us"), m("c6off", "p50_us")),
                     ratio(m("auto", "p99_us"), m("c6off", "p99_us")),
                     m("auto", "qos_per_io"), m("auto", "misses_per_io"),
                     m("off", "deep_share"), m("auto", "deep_share"),
                     m("c6off", "deep_share"),
                     m("off", "timer_irq_per_cpu_s"), m("auto", "timer_irq_per_cpu_s"),
                     m("c6off", "timer_irq_per_cpu_s"),
                     m("off", "busy_share"), m("auto", "busy_share"),
                     m("off", "p50_us"), m("auto", "p50_us"),
                     m("off", "deep_wake_per_io"), m("auto", "deep_wake_per_io"),
                     m("c6off", "deep_wake_per_io")])
with open(out + "/curve.tsv", "w") as t:
    t.write("\t".join(cols) + "\n")
    for r in rows:
        t.write("\t".join("NaN" if v is None else str(v) for v in r) + "\n")

def think(us):
    return "0" if us == 0 else ("%g ms" % (us / 1000) if us >= 1000 else "%d us" % us)

with open(out + "/curve.md", "w") as o:
    o.write("| think time | governor | p50 auto/off | p99 auto/off | p50 auto/C6 off "
            "| p99 auto/C6 off | QoS updates / I/O | misses / I/O "
            "| deep wakes / I/O off / auto / C6 off | deep share "
            "off / auto / C6 off | timer IRQ/s per CPU off / auto / C6 off "
            "| busy off / auto |\n")
    o.write("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    for r in rows:
        o.write("| %s | %s | %s | %s | %s | %s | %s | %s | %s / %s / %s | %s / %s / %s | %s / %s / %s | %s / %s |\n" % (
            think(r[0]), r[1], f(r[2], "%.2f"), f(r[3], "%.2f"), f(r[4], "%.2f"),
            f(r[5], "%.2f"), f(r[6], "%.3f"), f(r[7], "%.3f"),
            f(r[18], "%.3f"), f(r[19], "%.3f"), f(r[20], "%.3f"), f(r[8], "%.2f"),
            f(r[9], "%.2f"), f(r[10], "%.2f"), f(r[11], "%.0f"), f(r[12], "%.0f"),
            f(r[13], "%.0f"), f(r[14], "%.2f"), f(r[15], "%.2f")))
EOF_PY
}

# report DIR: curve.tsv, curve.md and curve.png from DIR's summary.json.
report() {
	local dir=$1 sum=$1/bench/summary.json
	[ -f "$sum" ] || sum=$1/summary.json
	[ -f "$sum" ] || die "no summary.json in $dir/bench or $dir"
	tables "$sum" "$dir"
	gnuplot <<-EOF_GP
	govs = "$(cut -f2 "$dir/curve.tsv" | tail -n +2 | awk '!s[$0]++' | paste -sd' ' -)"
	set terminal pngcairo size 1400,1000 font ",10" noenhanced
	set output "$dir/curve.png"
	set datafile separator "\t"
	set datafile missing "NaN"
	set key autotitle columnhead
	set multiplot layout 2,2 title "Think-time curve: fio QD1 4 KiB randread, shallow_idle off / auto / C6 disabled"
	set logscale x
	set xlabel "think time (us; 0 plotted at 10)"
	set grid
	x(t) = t > 0 ? t : 10
	set title "latency ratios (1 = no change)"
	set yrange [0:*]
	plot for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):3 with linespoints title "p50 auto/off ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):4 with linespoints title "p99 auto/off ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):5 with linespoints dashtype 2 title "p50 auto/C6 off ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):6 with linespoints dashtype 2 title "p99 auto/C6 off ".g
	set title "per I/O: deep-state wakes (off, auto), PM QoS updates and misses (auto)"
	plot for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):19 with linespoints title "deep wakes/IO off ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):20 with linespoints title "deep wakes/IO auto ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):7 with linespoints title "QoS/IO ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):8 with linespoints title "misses/IO ".g
	set title "share of idle time in the deep state"
	set yrange [0:1]
	plot for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):9 with linespoints title "off ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):10 with linespoints title "auto ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):11 with linespoints title "C6 off ".g
	set title "local timer interrupts per CPU and second"
	set yrange [0:*]
	plot for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):12 with linespoints title "off ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):13 with linespoints title "auto ".g, \
	     for [g in govs] "$dir/curve.tsv" using (strcol(2) eq g ? x(\$1) : NaN):14 with linespoints title "C6 off ".g
	unset multiplot
	EOF_GP
	cat "$dir/curve.md"
	# The modeled energy per think time (a model, never a measurement).
	if [ -f "$dir/bench/cells.json" ] && python3 "$TOP/scripts/report/energy-model.py" "$dir/bench" > "$dir/energy.md"; then
		echo
		cat "$dir/energy.md"
	fi
	log "think-curve: $dir/curve.md, curve.tsv, curve.png, energy.md"
}

if [ -n "$md_only" ]; then
	t=$(mktemp -d)
	tables "$md_only" "$t"
	cat "$t/curve.md"
	rm -rf "$t"
	exit 0
fi
if [ -n "$report_only" ]; then
	report "$report_only"
	exit 0
fi

[ -n "$out" ] || out=$RESULTS/think-curve
[ "$table" = "$DEFAULT_TABLE" ] || [ "$out" != "$RESULTS/think-curve" ] || out=$out-$table
[ "$platform" = tcg ] || [ "$out" != "$RESULTS/think-curve" ] || out=$out-$platform
case $platform in tcg|icount) ;; *) die "--platform wants tcg or icount" ;; esac
plat=()
[ "$platform" = tcg ] || plat=(--platform "$platform" --latency "$latency" ${tail:+--tail "$tail"})
[ -z "$tail" ] || [ "$platform" = icount ] || die "--tail needs --platform icount"
out=$(realpath -m "$out")
own_out "$out" .think-curve-run
wls=$(echo "$thinks" | tr ',' '\n' | sed 's/.*/qd1-t&us/' | paste -sd, -)
cmd=(bash scripts/bench/bench.sh --table "$table" "${plat[@]}" --govs "$govs" --configs off,auto,c6off
     --workloads "$wls" --reps "$reps" --runtime "$runtime" --pairs 0 --no-poll
     --out "$out/bench")
start=$SECONDS
rc=0
"$TOP/${cmd[1]}" "${cmd[@]:2}" || rc=$?
{
	echo "command=bash scripts/bench/think-curve.sh --thinks $thinks --runtime $runtime --reps $reps --govs $govs --table $table${plat[*]:+ ${plat[*]}}"
	echo "bench_command=${cmd[*]//"$TOP"\//}"
	if [ "$platform" = icount ]; then
		echo "platform=$(icount_platform 3), tools/emu-blk at $latency us${tail:+ (${tail#*:} per mille at ${tail%%:*} us)}, one queue per vCPU, controller CPU 2, fio on CPUs 0-1"
	else
		echo "platform=$(tcg_platform 2) (isolated: scripts/qemu/guest.sh --isolate)"
	fi
	echo "kernel=$(series_kernel)"
	echo "table=$table"
	echo "date=$(date -u +%Y-%m-%d)"
	echo "commit=$RUN_COMMIT"
	echo "wall_s=$((SECONDS - start))"
} > "$out/run.txt"
[ $rc = 0 ] || die "bench.sh failed (exit $rc); see $out/bench"
report "$out"
log "think-curve: $((SECONDS - start)) s"
