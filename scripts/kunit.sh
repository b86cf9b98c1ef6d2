#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit.sh - run the KUnit suites of tools/kunit/cpulat.kunitconfig with
# kunit.py on x86_64 under QEMU, using the kernel tree as checked out in
# $BASE_DIR (it must be branch `series': see scripts/series.sh apply).
#
# Usage: scripts/kunit.sh [extra kunit.py run arguments, e.g. a filter glob]
#
# kunit.py builds a small kernel in $WORK/kunit-x86 (under the build lock,
# incrementally when it exists) and boots it. It always passes
# `-accel kvm -accel hvf -accel tcg' to QEMU; this host's /dev/kvm cannot boot
# a stock guest (it hangs), so kunit.py runs in a private mount namespace
# where /dev/kvm is /dev/null: KVM fails to initialise and QEMU falls back to
# TCG. Output: $RESULTS/kunit/kunit.log (kunit.py's output), test.log (the
# kernel's full console output: the KTAP), results.json. The last line is
# "kunit: N passed, N failed, N skipped"; the exit status is kunit.py's.
set -euo pipefail
. "$(dirname "$0")/common.sh"

case ${1:-} in
-h|--help) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac

BRANCH=${SERIES_BRANCH:-series}
KUNITCONFIG=$TOP/tools/kunit/cpulat.kunitconfig
KBUILD=$WORK/kunit-x86
OUT=$RESULTS/kunit

need_pkgs python3 qemu-system-x86 qemu-system-data util-linux mount \
	gcc make flex bison bc libelf-dev libssl-dev
[ -d "$BASE_DIR/.git" ] || die "no kernel tree at $BASE_DIR (run scripts/baseline.sh)"
[ -f "$KUNITCONFIG" ] || die "no $KUNITCONFIG"

hold_lock
# The checked-out tree is what gets built: it must be the series.
git -C "$BASE_DIR" rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null ||
	die "no branch $BRANCH in $BASE_DIR (run scripts/series.sh apply)"
if [ "$(git -C "$BASE_DIR" rev-parse 'HEAD^{tree}')" != "$(git -C "$BASE_DIR" rev-parse "$BRANCH^{tree}")" ] ||
   [ -n "$(git -C "$BASE_DIR" status --porcelain --untracked-files=no)" ]; then
	die "$BASE_DIR does not have $BRANCH checked out cleanly (run scripts/series.sh apply)"
fi

rm -rf "$OUT"
mkdir -p "$OUT" "$KBUILD"
cmd=(python3 "$BASE_DIR/tools/testing/kunit/kunit.py" run --arch=x86_64
     --kunitconfig="$KUNITCONFIG" --build_dir="$KBUILD" --jobs="$JOBS"
     --json="$OUT/results.json" "$@")
if [ -e /dev/kvm ]; then
	# shellcheck disable=SC2016
	cmd=(unshare --mount --propagation private
	     sh -c 'mount --bind /dev/null /dev/kvm && exec "$@"' sh "${cmd[@]}")
fi
log "kunit: ${cmd[*]}"
rc=0
(cd "$BASE_DIR" && timed kunit "${cmd[@]}") 2>&1 | tee "$OUT/kunit.log" || rc=$?
[ ! -f "$KBUILD/test.log" ] || cp "$KBUILD/test.log" "$OUT/test.log"

# "Testing complete. Ran 9 tests: passed: 8, failed: 1, skipped: 0"
sum=$(sed 's/\x1b\[[0-9;]*m//g' "$OUT/kunit.log" | grep -E 'Testing complete\. Ran [0-9]+ tests' |
      tail -n 1 | sed 's/^\[[0-9:]*\] //' || true)
p=$(sed -nE 's/.*passed: ([0-9]+).*/\1/p' <<< "$sum")
f=$(sed -nE 's/.*failed: ([0-9]+).*/\1/p' <<< "$sum")
s=$(sed -nE 's/.*skipped: ([0-9]+).*/\1/p' <<< "$sum")
e=$(sed -nE 's/.*errors: ([0-9]+).*/\1/p' <<< "$sum")
c=$(sed -nE 's/.*crashed: ([0-9]+).*/\1/p' <<< "$sum")
if [ -z "$sum" ]; then
	log "kunit: no summary from kunit.py (see $OUT/kunit.log)"
	[ "$rc" != 0 ] || rc=1
fi
f=$((${f:-0} + ${e:-0} + ${c:-0}))
log "kunit: ${sum:-no result}; logs in $OUT"
echo "kunit: ${p:-0} passed, ${f:-0} failed, ${s:-0} skipped"
exit "$rc"
