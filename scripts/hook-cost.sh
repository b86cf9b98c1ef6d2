#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# hook-cost.sh [--build DIR] [--reps N] [--out DIR] - the cost of the
# series' issue hook in guest instructions per read: boots the test kernel
# of DIR (default $BUILD) under QEMU -icount (guest.sh --accel icount: the
# guest's clock counts instructions, so the figures do not depend on the
# host or its load) and runs tools/guest/hookcost.sh: fio reads from
# null_blk completing in the submitting context, attribute off and "auto",
# reads back to back (raised) and 20 ms apart (not raised), with one hctx
# shared by both CPUs (1q) and one per CPU (2q), N repetitions (default 5).
# A benchmark: prints a table, asserts nothing but that every cell was
# measured. Output: DIR (default $RESULTS/hook-cost): runs.tsv (one line
# per fio run: layout, case, rep, reads, instructions per read, raises,
# misses), summary.tsv (per layout and case: median, min, max of the runs;
# the median's difference from "off" of the same I/O pattern, in
# instructions and percent), hookcost.tsv, fio-*.json, console.log.
set -euo pipefail
. "$(dirname "$0")/common.sh"

build=$BUILD reps=5 out=$RESULTS/hook-cost
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=${2:?}; shift 2 ;;
	--reps) reps=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[[ $reps =~ ^[1-9][0-9]*$ ]] || die "--reps wants a number, got $reps"
need_pkgs jq

"$TOP/scripts/guest.sh" --kernel "$build" --script hookcost.sh --out "$out" \
	--accel icount --timeout 3600 --lock --append "hook_reps=$reps"

printf 'layout\tcase\trep\treads\tinsns_per_read\traises\tmisses\n' > "$out/runs.tsv"
tail -n +2 "$out/hookcost.tsv" | while IFS=$'\t' read -r l c r ra mi; do
	j=$out/fio-$l-$c-$r.json
	[ -s "$j" ] || die "hook-cost: $j missing"
	m=$(jq '.jobs[0].read.lat_ns.mean' "$j")
	n=$(jq '.jobs[0].read.total_ios' "$j")
	printf '%s\t%s\t%s\t%s\t%.1f\t%s\t%s\n' "$l" "$c" "$r" "$n" "$m" "$ra" "$mi"
done >> "$out/runs.tsv"

# Per layout and case: n, median, min, max; then the median minus that of
# the "off" case with the same I/O pattern (stream or sparse).
awk -F'\t' 'NR > 1 { k = $1 "\t" $2; v[k] = v[k] " " $5; ra[k] += $6; mi[k] += $7; rd[k] += $4 }
	END { for (k in v) print k "\t" v[k] "\t" ra[k] "\t" mi[k] "\t" rd[k] }' "$out/runs.tsv" |
	while IFS=$'\t' read -r l c vals ra mi rd; do
		# shellcheck disable=SC2086
		set -- $vals
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$l" "$c" $# "$(stats %.1f "$@")" "$ra" "$mi" "$rd"
	done | sort > "$out/cells.tsv"
awk -F'\t' '{ p = ($2 ~ /stream/) ? "stream" : "sparse"; key[NR] = $1 "\t" p; line[NR] = $0; med[NR] = $4
		if ($2 ~ /^off-/) off[$1 "\t" p] = $4 }
	END { for (i = 1; i <= NR; i++) { o = off[key[i]]
		printf "%s\t%+.1f\t%+.3f\n", line[i], med[i] - o, (o > 0) ? 100 * (med[i] - o) / o : 0 } }' \
	"$out/cells.tsv" > "$out/summary.tsv"
echo "Guest instructions per 4 KiB read (QEMU -icount), $reps runs per cell: median (min - max), difference of the median from off"
printf '%-6s %-16s %10s %22s %9s %8s %8s %8s\n' layout case median "(min - max)" delta "%" raises misses
while IFS=$'\t' read -r l c n m lo hi ra mi rd d p; do
	printf '%-6s %-16s %10s %22s %9s %8s %8s %8s\n' "$l" "$c" "$m" "($lo - $hi)" "$d" "$p" "$ra" "$mi"
done < "$out/summary.tsv"
for l in 1q 2q; do
	for c in off-stream raised-stream off-sparse unraised-sparse; do
		grep -q "^$l	$c	$reps	" "$out/summary.tsv" || die "hook-cost: cell $l $c not measured $reps times"
	done
done
