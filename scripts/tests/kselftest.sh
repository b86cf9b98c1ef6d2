#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest.sh [--build DIR] [--debug] [--tables spr,amd] [--governors menu,teo]
#
# Boots the kernel of DIR (default $BUILD; $BUILD_DEBUG with --debug) under
# QEMU and runs the series' kselftest (tools/testing/selftests/block/) in it
# with the emulated cpuidle driver, for each table and governor
# (tools/guest/kselftest.sh). Also checks the KUnit suites that ran at boot,
# the kernel log of the whole run (scan_reports in common.sh: lockdep,
# KASAN, might_sleep, WARN, BUG, hangs, stalls, ...) and, on a kernel built
# with kmemleak, that kmemleak scanned and found nothing.
#
# Prints one "PASS name" or "FAIL name: why" line per check and one
# "SKIP name: why" line per skipped test (TAP "ok ... # SKIP"); exits
# non-zero if any check failed or any test was skipped. Results:
# $RESULTS/kselftest[-debug]/.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

build="" debug=0 tables=$KSELFTEST_TABLES governors=$GOVERNORS
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--debug) debug=1; shift ;;
	--tables) tables=$2; shift 2 ;;
	--governors) governors=$2; shift 2 ;;
	*) die "usage: kselftest.sh [--build DIR] [--debug] [--tables T,..] [--governors G,..]" ;;
	esac
done
if [ $debug = 1 ]; then
	build=${build:-$BUILD_DEBUG}
	out=$RESULTS/kselftest-debug
	tmo=2400
else
	build=${build:-$BUILD}
	out=$RESULTS/kselftest
	tmo=1200
fi

fails=0 skips=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
skip() { echo "SKIP $*"; skips=$((skips + 1)); }

rc=0
"$TOP/scripts/qemu/guest.sh" --kernel "$build" --script kselftest.sh --out "$out" \
	--timeout $tmo --append "kst_tables=$tables kst_governors=$governors" || rc=$?
[ -f "$out/console.log" ] || die "kselftest: no guest output in $out"

# Every TAP file: a plan, as many results, every one ok. A skipped test
# ("ok N ... # SKIP") is no pass: one SKIP line each.
for t in ${tables//,/ }; do
	for g in ${governors//,/ }; do
		f=$out/kselftest-$t-$g.tap
		name="kselftest $(basename "$build") table=$t governor=$g"
		if [ ! -f "$f" ]; then
			fail "$name: no TAP output"
			continue
		fi
		plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$f" | sed -n 1p)
		nskip=$(grep -Ec '^ok .*# *SKIP' "$f" || true)
		nok=$(grep '^ok ' "$f" | grep -Evc '# *SKIP' || true)
		nnot=$(grep -c '^not ok ' "$f" || true)
		if [ -z "$plan" ] || [ "$plan" = 0 ]; then
			if grep -q '^1\.\.0 *# *SKIP' "$f"; then
				skip "$name: the whole test ($(grep -m1 SKIP "$f"))"
			else
				fail "$name: no TAP plan"
			fi
			continue
		fi
		while IFS= read -r l; do
			skip "$name: ${l#ok }"
		done < <(grep -E '^ok .*# *SKIP' "$f")
		# A file with a failure is one FAIL; with skips only, its SKIP
		# lines; all ok, one PASS.
		if [ "$nnot" != 0 ] || [ $((nok + nskip)) != "$plan" ]; then
			fail "$name: $nok ok, $nnot not ok, $nskip skipped of $plan:" \
				"$(grep '^not ok ' "$f" | sed 's/^not ok //' | tr '\n' ';' | cut -c 1-400)"
			grep -E '^(not ok|#)' "$f" | sed 's/^/    /' | sed -n '1,20p'
		elif [ "$nskip" = 0 ]; then
			pass "$name: $nok/$plan ok"
		fi
	done
done

# KUnit suites built into the guest kernel ran at boot (a skipped suite
# or test case is a SKIP line, not a pass).
k=$out/kunit-boot.ktap
kname="kunit at boot ($(basename "$build"))"
if [ ! -s "$k" ]; then
	fail "$kname: no results"
elif grep -Eq '^[[:space:]]*not ok' "$k"; then
	fail "$kname: $(grep -c '^not ok' "$k") suites failed"
	grep -E -B5 '^[[:space:]]*not ok' "$k" | sed 's/^/    /' | sed -n '1,40p'
else
	while IFS= read -r l; do
		skip "$kname: $(sed -E 's/^[[:space:]]*ok [0-9]+ //' <<< "$l")"
	done < <(grep -E '^[[:space:]]*ok .*# *SKIP' "$k")
	nk=$(grep '^ok' "$k" | grep -Evc '# *SKIP' || true)
	[ "$nk" = 0 ] || pass "$kname: $nk suites ok"
fi

# The kernel log of the whole run, test and debug kernels alike.
scan_reports "kernel log ($(basename "$out"))" "$out" || fails=$((fails + 1))

# A kernel built with kmemleak must have scanned (tools/guest/kselftest.sh):
# a missing or refused scan is a failure, not "no leak".
if grep -q '^CONFIG_DEBUG_KMEMLEAK=y' "$build/.config"; then
	if [ -s "$out/kmemleak-error.txt" ]; then
		fail "kmemleak: the scan failed: $(head -n 1 "$out/kmemleak-error.txt")"
	elif [ ! -f "$out/kmemleak.txt" ]; then
		fail "kmemleak: no scan result (the guest script did not get that far?)"
	elif [ -s "$out/kmemleak.txt" ]; then
		fail "kmemleak: $(grep -c 'unreferenced object' "$out/kmemleak.txt") leaks"
		head -30 "$out/kmemleak.txt" | sed 's/^/    /'
	else
		pass "kmemleak: two scans after the tests, no leak"
	fi
fi

[ $rc = 0 ] || fail "guest run exited $rc (see $out/console.log)"
[ $fails = 0 ] && [ $skips = 0 ]
