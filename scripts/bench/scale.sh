#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scale.sh [--build DIR | --series-commit C] [--rounds N] [--runtime S]
#          [--label L] [--out DIR]
# scale.sh --report DIR...
#
# The series at scale, on the deterministic platform (QEMU -icount, 8
# vCPUs, the emulated device of tools/emu-blk at 20 us with its controller
# on CPU 7, emulated Sapphire Rapids C-states, menu): boots the test kernel
# of DIR (default $BUILD) and runs tools/guest/scale.sh:
#  - one disk with one hctx for all 8 CPUs (AHCI-like): N rounds (default
#    10) of a 300 ms QD1 stream on CPU 0, then on CPUs 0 and 4, each
#    followed by 200 ms of silence: the CPUs given a limit per stream, the
#    limit sets, and how long after the stream's last completion its
#    CPUs are relaxed (the hold as it is, at the kernel's HZ);
#  - 8 disks on one tag set with one hctx per CPU each (namespaces): six
#    QD1 streams on CPUs 0-5 over all 8 disks (48 busy hctxs) for S
#    seconds (default 2), policy off and auto: work runs and PM QoS
#    updates per second, timer, rescheduling and call interrupts per
#    second on the idle CPU 6 and on the busy CPUs.
# It reads only the kernel's own trace events and /proc/interrupts, so v2
# and v3 are measured alike: --series-commit C measures the series as this
# repository held it at commit C (8411acc is v2 as it landed) instead of
# branch series (default output then $RESULTS/scale-C). --label names the
# column of the run in --report (default "v3 (C)" for branch series, with
# C the repository commit of its last change, or C of --series-commit). A
# benchmark: it prints tables and asserts nothing but that every case was
# measured.
#
# --report DIR... prints the table of one or more such folders side by
# side (scripts/report/figures.sh).
#
# Output: DIR (default $RESULTS/scale): rounds.tsv, rates.tsv (see
# tools/guest/scale.sh), scale.md, run.txt (command, platform, date,
# kernel, commit), console.log.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
. "$(dirname "$0")/../lib/series-build.sh"
RUN_COMMIT=$(repo_head)

usage() {
	sed -n '4,6s/^# //p' "$0" >&2
	exit 2
}

# col DIR - the column of one folder: one value per row of report().
col() {
	local d=$1 w
	[ -s "$d/rounds.tsv" ] && [ -s "$d/rates.tsv" ] || die "$d: no rounds.tsv or rates.tsv"
	for w in 1q-1job 1q-2jobs; do
		# CPUs given a limit per stream: median [min-max]
		# shellcheck disable=SC2046
		stats %.0f $(awk -F'\t' -v w=$w '$1 == w { print $4 }' "$d/rounds.tsv") |
			awk -F'\t' '{ print ($2 == $3 ? $1 : $1 " [" $2 "-" $3 "]") " of 8" }'
	done
	# shellcheck disable=SC2046
	stats %.0f $(awk -F'\t' '$1 == "1q-1job" { print $5 }' "$d/rounds.tsv") | cut -f1
	for w in 1q-1job 1q-2jobs; do
		local r
		r=$(awk -F'\t' -v w=$w '$1 == w && $9 != "-" { print $9 / 1000 }' "$d/rounds.tsv")
		if [ -z "$r" ]; then
			echo "nothing raised"
		else
			# shellcheck disable=SC2086
			stats %.1f $r | awk -F'\t' '{ print $1 " [" $2 "-" $3 "]" }'
		fi
	done
	awk -F'\t' '$1 ~ /^1q-/ && $8 > m { m = $8 } END { print m + 0 }' "$d/rounds.tsv"
	awk -F'\t' 'NR == 1 { next }
	function mean6(s,   a, i, t) { split(s, a, ","); for (i = 1; i <= 6; i++) t += a[i]; return t / 6 }
	function cpu(s, n,   a) { split(s, a, ","); return a[n + 1] }
	{ sec[$1] = $2; io[$1] = $3; cpus[$1] = $4; sets[$1] = $5; upd[$1] = $6; runs[$1] = $7
	  loc[$1] = $10; res[$1] = $11; cal[$1] = $12 }
	END {
		o = "8ns-off"; a = "8ns-auto"
		printf "%.0f / %.0f\n", io[o] / sec[o], io[a] / sec[a]
		printf "%d of 8\n", cpus[a]
		printf "%.0f\n", runs[a] / sec[a]
		printf "%.0f\n", upd[a] / sec[a]
		printf "%.0f / %.0f\n", cpu(loc[o], 6) / sec[o], cpu(loc[a], 6) / sec[a]
		printf "%.0f / %.0f\n", mean6(loc[o]) / sec[o], mean6(loc[a]) / sec[a]
		printf "%.0f / %.0f\n", cpu(res[o], 6) / sec[o], cpu(res[a], 6) / sec[a]
		printf "%.0f / %.0f\n", cpu(cal[o], 6) / sec[o], cpu(cal[a], 6) / sec[a]
	}' "$d/rates.tsv"
}

# report DIR... - the markdown table, one column per folder.
report() {
	local d rows=(
		"one hctx for 8 CPUs, 1 stream (CPU 0): CPUs given a limit per stream"
		"one hctx for 8 CPUs, 2 streams (CPUs 0, 4): CPUs given a limit per stream"
		"one hctx, 1 stream: limit sets (PM QoS requests set to a limit) per stream"
		"one hctx, 1 stream: relaxed after the last completion, ms"
		"one hctx, 2 streams: relaxed after the last completion, ms"
		"longest run of the work item, us"
		"8 namespaces, 6 streams: IOPS, off / auto"
		"8 namespaces, auto: CPUs given a limit"
		"8 namespaces, auto: work runs per second"
		"8 namespaces, auto: PM QoS calls (add, update) per second"
		"timer interrupts per second on the idle CPU 6, off / auto"
		"timer interrupts per second per busy CPU 0-5, off / auto"
		"rescheduling IPIs per second on the idle CPU 6, off / auto"
		"function call IPIs per second on the idle CPU 6, off / auto")
	local cols=() head="| |" sep="|---|" i
	for d in "$@"; do
		cols+=("$(col "$d")")
		head="$head $(sed -n 's/^label=//p' "$d/run.txt") |"
		sep="$sep---|"
	done
	echo "$head"
	echo "$sep"
	for i in "${!rows[@]}"; do
		printf '| %s |' "${rows[$i]}"
		for d in "${cols[@]}"; do
			printf ' %s |' "$(sed -n "$((i + 1))p" <<< "$d")"
		done
		echo
	done
}

build=$BUILD rounds=10 runtime=2 out="" scommit="" label="" report_dirs=()
args=("$@")
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=${2:?}; shift 2 ;;
	--series-commit) scommit=${2:?}; shift 2 ;;
	--rounds) rounds=${2:?}; shift 2 ;;
	--runtime) runtime=${2:?}; shift 2 ;;
	--label) label=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--report) shift; report_dirs=("$@"); break ;;
	*) usage ;;
	esac
done
if [ ${#report_dirs[@]} -gt 0 ]; then
	report "${report_dirs[@]}"
	exit 0
fi
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "--rounds wants a number, got $rounds"
[[ $runtime =~ ^[1-9][0-9]*$ ]] || die "--runtime wants whole seconds, got $runtime"
kernel=$(series_kernel) default_label="v3 ($(series_commit))"
if [ -n "$scommit" ]; then
	series_commit_build scale "$scommit" "$build"
	default_label=$scommit
	: "${out:=$RESULTS/scale-$short}"
fi
label=${label:-$default_label}
: "${out:=$RESULTS/scale}"
[ "$(realpath -m "$build")" != "$(realpath -m "$BUILD_DEBUG")" ] || kernel=${kernel/(test config)/(debug config)}
out=$(realpath -m "$out")

s=$(date +%s)
"$TOP/scripts/qemu/guest.sh" --kernel "$build" --script scale.sh --out "$out" \
	--smp 8 --accel icount --timeout 3000 --lock \
	--append "scale_rounds=$rounds scale_runtime=$runtime kunit.enable=0"
[ "$(wc -l < "$out/rounds.tsv")" -eq $((2 * rounds + 1)) ] && [ "$(wc -l < "$out/rates.tsv")" -eq 3 ] ||
	die "scale: not every case was measured (rounds.tsv, rates.tsv in $out)"
{
	echo "command=bash scripts/bench/scale.sh ${args[*]}"
	echo "platform=$(icount_platform 8), tools/emu-blk at 20 us, controller CPU 7, emulated Sapphire Rapids C-states (tools/emu-cstates), menu"
	echo "date=$(date +%F)"
	echo "kernel=$kernel"
	echo "label=$label"
	echo "commit=$RUN_COMMIT"
	echo "wall_s=$(($(date +%s) - s))"
} > "$out/run.txt"
report "$out" | tee "$out/scale.md"
