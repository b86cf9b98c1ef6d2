#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit-hz.sh HZ - the series' KUnit suites on the test kernel built with
# another tick rate (100, 250, 300 or 1000; the test config has 250). The
# hold period and the sparse rule are whole jiffies, so their edge cases
# (blk_shallow_idle_sparse_edge_test, the relax bounds) are worth running
# at more than one HZ. Builds in its own folder (work/build-hzHZ, a full
# build the first time, 7-12 min here), boots it with scripts/tests/kunit.sh and
# records the result in data/kunit-hzHZ/: run.txt (command, platform,
# date, series commit, the summary line) and kunit.txt (kunit.py's
# parse). Not part of the test command (a second kernel build would not
# fit its time budget). Exits as kunit.sh does.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
RUN_COMMIT=$(repo_head)

hz=${1:-}
case $hz in
100|250|300|1000) ;;
*) die "usage: kunit-hz.sh 100|250|300|1000" ;;
esac
conf=$WORK/test-hz$hz.config
mkdir -p "$WORK"
sed "s/^CONFIG_HZ_250=y\$/CONFIG_HZ_$hz=y/" "$TOP/scripts/configs/test.config" > "$conf"
grep -q "^CONFIG_HZ_$hz=y\$" "$conf" || die "kunit-hz: no CONFIG_HZ_250=y in test.config to replace"
build=$WORK/build-hz$hz
TEST_CONFIG=$conf BUILD_OUT=$build "$TOP/scripts/setup/build.sh" test
grep -q "^CONFIG_HZ=$hz\$" "$build/.config" || die "kunit-hz: $build/.config has no CONFIG_HZ=$hz"

out=$RESULTS/kunit-hz$hz
mkdir -p "$RESULTS"
rc=0
RESULTS=$out "$TOP/scripts/tests/kunit.sh" --build "$build" | tee "$out.txt" || rc=$?

data=$TOP/data/kunit-hz$hz
mkdir -p "$data"
cp "$out/kunit/kunit.txt" "$data/kunit.txt"
{
	echo "command=bash scripts/tests/kunit-hz.sh $hz"
	echo "platform=$(qemu-system-x86_64 --version | sed -n 1p), TCG, 2 vCPUs"
	echo "date=$(date -u +%F)"
	echo "commit=$RUN_COMMIT"
	echo "kernel=the patches of \`series' at repository commit $RUN_COMMIT (kernel branch series $(git -C "$BASE_DIR" rev-parse --short=9 series)) on 7.3.4, test config with CONFIG_HZ_$hz"
	echo "result=$(tail -n 1 "$out.txt")"
} > "$data/run.txt"
exit $rc
