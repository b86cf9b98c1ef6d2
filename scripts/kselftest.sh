#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest.sh [--build DIR] [--debug] [--tables spr,amd] [--governors menu,teo]
#
# Boots the kernel of DIR (default $BUILD; $BUILD_DEBUG with --debug) under
# QEMU and runs the series' kselftest (tools/testing/selftests/block/) in it
# with the emulated cpuidle driver, for each table and governor
# (tools/guest/kselftest.sh). Also checks the KUnit suites that ran at boot
# and, with --debug, the kernel log for lockdep, KASAN, might_sleep,
# kmemleak, WARN and BUG reports.
#
# Prints one "PASS name" or "FAIL name: why" line per check; exits non-zero
# if any failed. Results: $RESULTS/kselftest[-debug]/.
set -euo pipefail
. "$(dirname "$0")/common.sh"

build="" debug=0 tables=spr,amd governors=menu,teo
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

fails=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

rc=0
"$TOP/scripts/guest.sh" --kernel "$build" --script kselftest.sh --out "$out" \
	--timeout $tmo --append "kst_tables=$tables kst_governors=$governors" || rc=$?
[ -f "$out/console.log" ] || die "kselftest: no guest output in $out"

# Every TAP file: a plan, every line ok, nothing skipped.
for t in ${tables//,/ }; do
	for g in ${governors//,/ }; do
		f=$out/kselftest-$t-$g.tap
		name="kselftest $(basename "$build") table=$t governor=$g"
		if [ ! -f "$f" ]; then
			fail "$name: no TAP output"
			continue
		fi
		plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$f" | head -1)
		nok=$(grep -c '^ok ' "$f" || true)
		nnot=$(grep -c '^not ok ' "$f" || true)
		nskip=$(grep -c '^ok .*# SKIP' "$f" || true)
		if [ -z "$plan" ] || [ "$plan" = 0 ]; then
			fail "$name: skipped ($(grep -m1 SKIP "$f" || echo no plan))"
		elif [ "$nnot" != 0 ] || [ "$nok" != "$plan" ] || [ "$nskip" != 0 ]; then
			fail "$name: $nok ok, $nnot not ok, $nskip skipped of $plan"
			grep -E '^(not ok|ok .*SKIP|#)' "$f" | sed 's/^/    /' | head -20
		else
			pass "$name: $nok/$plan ok"
		fi
	done
done

# KUnit suites built into the guest kernel ran at boot.
k=$out/kunit-boot.ktap
if [ ! -s "$k" ]; then
	fail "kunit at boot ($(basename "$build")): no results"
elif grep -q '^not ok' "$k"; then
	fail "kunit at boot ($(basename "$build")): $(grep -c '^not ok' "$k") suites failed"
	grep -B5 'not ok' "$k" | sed 's/^/    /' | head -40
else
	pass "kunit at boot ($(basename "$build")): $(grep -c '^ok' "$k") suites ok"
fi

if [ $debug = 1 ]; then
	d=$out/dmesg.txt
	pat='BUG:|WARNING:|KASAN|possible circular locking|possible recursive locking|inconsistent lock state|sleeping function called from invalid context|suspicious RCU usage|unreferenced object|INFO: task .* blocked'
	if [ ! -s "$d" ]; then
		fail "debug kernel log: missing"
	elif grep -Eq "$pat" "$d"; then
		fail "debug kernel log: $(grep -Ec "$pat" "$d") reports"
		grep -E -A12 "$pat" "$d" | sed 's/^/    /' | head -60
	else
		pass "debug kernel log: no lockdep, KASAN, might_sleep, kmemleak, WARN or BUG report"
	fi
	if [ -f "$out/kmemleak.txt" ]; then
		if [ -s "$out/kmemleak.txt" ]; then
			fail "kmemleak: $(grep -c 'unreferenced object' "$out/kmemleak.txt") leaks"
			head -30 "$out/kmemleak.txt" | sed 's/^/    /'
		else
			pass "kmemleak: no leak after the tests"
		fi
	fi
fi

[ $rc = 0 ] || fail "guest run exited $rc (see $out/console.log)"
[ $fails = 0 ]
