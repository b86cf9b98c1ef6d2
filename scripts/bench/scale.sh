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
# side (scripts/report/report.py scale; report.py figures quotes it).
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

# report DIR... - the markdown table, one column per folder
# (scripts/report/report.py scale).
report() { python3 "$TOP/scripts/report/report.py" scale "$@"; }

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
