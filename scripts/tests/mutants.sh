#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mutants.sh [--check | --table] [--only NN[,NN...]] [--control | --no-control]
#            [--debug]
#
# Mutation testing of the series: tools/mutants/NN-name.patch are small,
# realistic bugs (git diff format, paths relative to the kernel tree root,
# one description line before the first `diff --git'), each applied on top
# of the series. The fast tests must kill every one of them.
#
#   --check     only check that every mutant still applies to the current
#               series (baseline + patches/): git apply --check in a
#               temporary folder holding the files the mutants touch, taken
#               from branch `baseline' of $BASE_DIR (read only) with the
#               series' hunks for them applied. No build, no lock. One PASS
#               or FAIL line per mutant.
#   --table     only write the table again from the results of the last
#               run (results/mutants/table.tsv and the logs beside it).
#   --only NN   run only the mutants whose number (or full name) is listed.
#   --debug     run the tests on the debug kernel (scripts/configs/
#               debug.config: lockdep, KASAN, kmemleak, fault injection, ...)
#               instead of the test kernel: scripts/setup/build.sh debug,
#               scripts/tests/kunit.sh on it, scripts/tests/kselftest.sh --debug, then
#               scripts/tests/torture.sh (for a mutant the first two let
#               through, and for the control). Slower
#               (a full build of the debug kernel first, then each mutant's
#               tests take longer). Results in results/mutants-debug/. A
#               mutant whose description line starts with "Mutant (debug
#               kernel):" is a bug that only the debug kernel's checkers can
#               show (fault injection, kmemleak): it runs only with --debug,
#               and a run without it says that it left it out.
#   --control   first run the fast tests on the unmutated series (default
#               for a full run, not with --only): every KUnit case must pass
#               and the kselftest may fail only TAP cases, else no kill
#               means anything and the run stops. Those cases ("known
#               failures", results/mutants/00-control/failures.txt) kill no
#               mutant of the same series commit.
#
# A run works in its own WORK folder ($MUTANTS_WORK, default
# $TOP/work-mutants: kernel tree, build folder, initramfs, shares; nothing
# of work/ is touched) and shares the build lock of work/
# (BUILD_LOCK=${BUILD_LOCK:-$TOP/work/build.lock}): scripts/setup/build.sh takes
# it for every build. There: scripts/setup/baseline.sh, scripts/setup/series.sh apply
# (skipped when branch `series' already holds the series' tree), then for
# each mutant:
#   1. commit it on top of branch `series' (so that scripts/setup/build.sh stamps
#      the build and scripts/qemu/guest.sh boots it);
#   2. scripts/setup/build.sh test (incremental);
#   3. the fast tests in order, stopping at the first that fails:
#      scripts/tests/kunit.sh (the KUnit suites from the test kernel's boot log),
#      then scripts/tests/kselftest.sh --tables spr --governors menu (with
#      --debug: on the debug kernel, then scripts/tests/torture.sh);
#   4. record what killed it (test step and the first failing KUnit case or
#      TAP line) and the time; reset `series' to the unmutated commit (also
#      on exit or interrupt).
# KUnit kills when a case fails or crashes, or no summary comes back; a
# failure of kunit.sh's own checks of the guest with every case passing
# is noted (NN-name/note.txt), not a kill. The kselftest kills with a
# failure the control does not have.
# A mutant that no test kills is SURVIVED. The table (mutant, killed by,
# first failure, time) is printed, and written after every mutant to
# results/mutants/table.md, table.tsv and run.txt (the record of the run:
# command, platform, date, series and repository commit, as every run.txt
# under data/ has them; rows of an earlier run of the
# same series commit are kept unless redone); each mutant's logs and guest
# results are in results/mutants/NN-name/.
#
# Exit status: 0 if every mutant was killed; 1 if one survived; 2 if a
# mutant did not apply or build, the control failed, or on other errors.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
MUTANTS=$TOP/tools/mutants

check=0 table=0 only="" control="" debug=0
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1; shift ;;
	--table) table=1; shift ;;
	--only) only=",${2:?--only wants NN[,NN...]},"; shift 2 ;;
	--control) control=1; shift ;;
	--no-control) control=0; shift ;;
	--debug) debug=1; shift ;;
	*) sed -n '4,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
	esac
done
[ -n "$control" ] || { [ -z "$only" ] && control=1 || control=0; }

if [ $check = 0 ]; then
	# Our own WORK: common.sh derives BASE_DIR, BUILD, ... from it.
	export WORK=${MUTANTS_WORK:-$TOP/work-mutants}
	export BASE_DIR=$WORK/linux
	export BUILD_LOCK=${BUILD_LOCK:-$TOP/work/build.lock}
fi
# shellcheck source=scripts/lib/common.sh
. "$TOP/scripts/lib/common.sh"

# The mutants, in file-name order (optionally those of --only); with
# --run, without --debug, not those that need the debug kernel.
list_mutants() {
	local f n
	for f in "$MUTANTS"/[0-9][0-9]-*.patch; do
		[ -f "$f" ] || continue
		n=$(basename "$f" .patch)
		if [ -n "$only" ] && [[ $only != *",${n%%-*},"* ]] && [[ $only != *",$n,"* ]]; then
			continue
		fi
		if [ "${1:-}" = --run ] && [ $debug = 0 ] && needs_debug "$f"; then
			continue
		fi
		echo "$n"
	done
}

# needs_debug PATCH: the mutant is one only the debug kernel can show.
needs_debug() {
	[[ $(sed -n 1p "$1") == "Mutant (debug kernel):"* ]]
}

# The kernel the tests run on, where the kselftest leaves its TAP, and
# the tests in the words of the table and run.txt. The kselftest runs one
# table and one governor: the defaults of common.sh.
KST_TABLE=$DEFAULT_TABLE KST_GOV=${GOVERNORS%%,*}
if [ $debug = 1 ]; then
	KERNEL=debug KST_ARGS=(--debug) KST_DIR=kselftest-debug
	TESTS="scripts/tests/kunit.sh, then scripts/tests/kselftest.sh --debug --tables $KST_TABLE --governors $KST_GOV, then scripts/tests/torture.sh"
else
	KERNEL=test KST_ARGS=() KST_DIR=kselftest
	TESTS="scripts/tests/kunit.sh, then scripts/tests/kselftest.sh --tables $KST_TABLE --governors $KST_GOV"
fi

series_patches() {
	series_names < "$TOP/series"
}

# ---- --check ----------------------------------------------------------------
cmd_check() {
	local base tmp f n p bad=0 inc=() files desc k=0 variants
	mapfile -t names < <(list_mutants)
	[ ${#names[@]} -gt 0 ] || { echo "FAIL mutants-apply: no mutant in $MUTANTS${only:+ matching --only}"; return 1; }
	# A tree with branch baseline: this WORK's, else the mutants' one.
	for base in "$BASE_DIR" "$TOP/work-mutants/linux"; do
		git -C "$base" rev-parse -q --verify refs/heads/baseline >/dev/null 2>&1 && break
		base=""
	done
	[ -n "$base" ] || { echo "FAIL mutants-apply: no kernel tree with branch baseline (run scripts/setup/baseline.sh)"; return 1; }
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	mkdir "$tmp/t"
	# Every file a mutant touches, at baseline (absent if the series adds it).
	variants=()
	[ -n "$only" ] || for p in "$TOP"/tools/variants/*.patch; do [ -f "$p" ] && variants+=("$p"); done
	files=$(for p in "${names[@]/#/$MUTANTS/}" "${variants[@]}"; do
			sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "${p%.patch}.patch"
		done | sort -u)
	for f in $files; do
		inc+=(--include="$f")
		if git -C "$base" cat-file -e "baseline:$f" 2>/dev/null; then
			mkdir -p "$tmp/t/$(dirname "$f")"
			git -C "$base" show "baseline:$f" > "$tmp/t/$f"
		fi
	done
	# The series' hunks for those files; outside any git repository, so
	# that git apply works like patch(1) in that folder.
	while IFS= read -r p; do
		if ! (cd "$tmp/t" && GIT_CEILING_DIRECTORIES=$tmp git apply --whitespace=nowarn \
			"${inc[@]}" "$TOP/patches/$p") > "$tmp/log" 2>&1; then
			echo "FAIL mutants-apply: the series itself does not apply (patches/$p):"
			sed 's/^/    /' "$tmp/log"
			return 1
		fi
	done < <(series_patches)
	for n in "${names[@]}"; do
		k=$((k + 1))
		p=$MUTANTS/$n.patch
		desc=$(sed -n '1{/^diff --git/q;p}' "$p")
		if [ -z "$desc" ] || [[ $desc == diff\ * ]]; then
			echo "FAIL mutant $n: no description line before the first 'diff --git'"
			bad=1
		elif ! grep -q '^diff --git ' "$p"; then
			echo "FAIL mutant $n: no 'diff --git' in $p"
			bad=1
		elif (cd "$tmp/t" && GIT_CEILING_DIRECTORIES=$tmp git apply --check "$p") > "$tmp/log" 2>&1; then
			echo "PASS mutant $n applies to the series"
		else
			echo "FAIL mutant $n does not apply to the series:"
			sed 's/^/    /' "$tmp/log"
			bad=1
		fi
	done
	# The variants that benchmarks measure (tools/variants/, git format-patch
	# files) must apply too, or they rot unseen.
	for p in "${variants[@]}"; do
		if (cd "$tmp/t" && GIT_CEILING_DIRECTORIES=$tmp git apply --check "$p") > "$tmp/log" 2>&1; then
			echo "PASS variant $(basename "$p" .patch) (tools/variants/) applies to the series"
		else
			echo "FAIL variant $(basename "$p" .patch) (tools/variants/) does not apply to the series:"
			sed 's/^/    /' "$tmp/log"
			bad=1
		fi
	done
	echo "mutants-apply: $k mutants checked against baseline + $(series_patches | wc -l) patches ($base)"
	return $bad
}

if [ $check = 1 ]; then
	cmd_check
	exit $?
fi

# ---- a run --------------------------------------------------------------------
RES=$RESULTS/mutants
[ $debug = 0 ] || RES=$RESULTS/mutants-debug
mkdir -p "$WORK" "$RES"
# One run at a time in this WORK. The kernel tree is this run's alone:
# series.sh apply takes a lock of this WORK ($WORK/tree.lock), not the
# build lock, which scripts/setup/build.sh takes for every build.
gk() { git -C "$BASE_DIR" "$@"; }
CTRL=$RES/00-control

if [ $table = 0 ]; then
exec 8>>"$WORK/mutants.lock"
flock -n 8 || die "another mutants.sh runs in $WORK"

mapfile -t names < <(list_mutants --run)
[ ${#names[@]} -gt 0 ] || die "no mutant in $MUTANTS${only:+ matching --only $only}${only:+ (without --debug)}"
left=$(comm -23 <(list_mutants) <(printf '%s\n' "${names[@]}") | tr '\n' ' ')
[ -z "$left" ] || log "mutants: left out, they need the debug kernel (--debug): $left"

log "mutants: WORK=$WORK, build lock $BUILD_LOCK, ${#names[@]} mutants"
"$TOP/scripts/setup/baseline.sh" || die "baseline failed"
want_tree=$(BUILD_LOCK=$WORK/tree.lock "$TOP/scripts/setup/series.sh" tree) || die "the series does not apply"
if [ "$(gk rev-parse -q --verify 'refs/heads/series^{tree}' 2>/dev/null)" = "$want_tree" ] &&
   [ "$(gk symbolic-ref -q HEAD)" = refs/heads/series ] &&
   [ -z "$(gk status --porcelain --untracked-files=no)" ] &&
   [ "$(gk rev-list --count baseline..series)" = "$(series_patches | wc -l)" ]; then
	log "mutants: branch series already holds the series ($(gk rev-parse --short series))"
else
	BUILD_LOCK=$WORK/tree.lock "$TOP/scripts/setup/series.sh" apply || die "series.sh apply failed"
fi
ORIG=$(gk rev-parse series)
# The repository commit whose series and mutants this run tests: named in
# run.txt only when series, patches/ and tools/mutants/ are as committed.
REPO_COMMIT=$(git -C "$TOP" rev-parse --short HEAD)
[ -z "$(git -C "$TOP" status --porcelain -- series patches tools/mutants)" ] || REPO_COMMIT=""
echo "$REPO_COMMIT" > "$RES/repo-commit"

# Whatever happens: branch series back at the unmutated commit.
restore() {
	if [ "$(gk rev-parse -q --verify series)" != "$ORIG" ] ||
	   [ -n "$(gk status --porcelain --untracked-files=no)" ]; then
		gk checkout -q -f series 2>/dev/null
		gk reset -q --hard "$ORIG" && log "mutants: series reset to ${ORIG:0:12}"
	fi
}
trap restore EXIT
trap 'exit 130' INT TERM
else
	[ -f "$RES/table.tsv" ] || die "no $RES/table.tsv: no run to make a table of"
	ORIG=$(cat "$CTRL/commit" 2>/dev/null || gk rev-parse series)
	REPO_COMMIT=$(cat "$RES/repo-commit" 2>/dev/null)
fi

# first_kunit_failure CONSOLE: "suite.case[param]: message" of the first
# failing KUnit case in a boot log.
first_kunit_failure() {
	sed -E 's/\r$//; s/^\[ *[0-9]+\.[0-9]+\] //' "$1" | awk '
	function ind(s) { match(s, /^ */); return RLENGTH }
	/^ *# Subtest: / { d = ind($0); n = $0; sub(/^ *# Subtest: /, "", n); subt[d] = n; next }
	# The lines after the first failed expectation, up to the next one.
	/(EXPECTATION|ASSERTION) FAILED at/ { grab = (first == "" && msg == ""); next }
	grab && (/^ *(not )?ok [0-9]+ / || /^ *# / || /^ *KTAP/) { grab = 0 }
	grab { l = $0; gsub(/^ +| +$/, "", l); if (l != "") msg = msg (msg == "" ? "" : " / ") l; next }
	/^ *not ok [0-9]+ / && first == "" {
		fd = ind($0); first = $0
		sub(/^ *not ok [0-9]+ /, "", first); sub(/ *#.*$/, "", first)
		if (fd >= 8) out = subt[fd - 4] "." subt[fd] "[" first "]"
		else if (fd == 4) out = subt[4] "." first
		else out = first
	}
	END { if (first != "") print out (msg != "" ? ": " msg : "") }' | cut -c1-400
}

now() { date +%s; }
# The build folder of the kernel the tests run on.
kernel_dir() { if [ $debug = 1 ]; then echo "$BUILD_DEBUG"; else echo "$BUILD"; fi; }
rows=()	# name<TAB>status<TAB>killed_by<TAB>detail<TAB>build_s<TAB>kunit_s<TAB>kselftest_s<TAB>total_s

write_table() {
	local r
	{
		printf 'mutant\tstatus\tkilled_by\tfirst_failure\tbuild_s\tkunit_s\tkselftest_s\ttorture_s\ttotal_s\n'
		printf '%s\n' "${rows[@]}" | sort -t$'\t' -k1,1
	} > "$RES/table.tsv"
	{
		echo "Mutants of the series at $(gk log -1 --format='%h %s' "$ORIG") ($(date -u +%FT%TZ));"
		echo "tests on the $KERNEL kernel: $TESTS;"
		echo "time: build (including waits for the build lock) and tests; per step in table.tsv."
		if [ -s "$KNOWN" ]; then
			echo "The unmutated series fails these kselftest cases; they count as no kill:"
			sed 's/^/- /' "$KNOWN"
		fi
		echo
		python3 "$TOP/scripts/report/report.py" mutants "$RES/table.tsv"
	} > "$RES/table.md"
	# The record of the run, in the keys of every run.txt under data/.
	{
		echo "command=bash scripts/tests/mutants.sh$([ $debug = 1 ] && echo " --debug")${only:+ --only ${only:1:-1}}"
		echo "platform=$(tcg_platform 2), emulated Sapphire Rapids C-states (tools/emu-cstates), menu"
		echo "date=$(date -u +%F)"
		if [ -n "$REPO_COMMIT" ]; then
			echo "kernel=the $(series_patches | wc -l) patches of the series as of repository commit $REPO_COMMIT (kernel branch series $(gk rev-parse --short "$ORIG")) on linux-source-7.3, $KERNEL config"
			echo "commit=$REPO_COMMIT"
		else
			echo "kernel=kernel branch series $(gk rev-parse --short "$ORIG") on linux-source-7.3, $KERNEL config (the repository's series had uncommitted changes)"
		fi
		echo "tests=$TESTS, stopping at the first failure"
	} > "$RES/run.txt"
}

# kst_failures DIR: the failures of the kselftest run in DIR, one per
# line: the description of each "not ok" TAP result, and each FAIL line of
# kselftest.sh but those that only follow from the "not ok" lines (the
# TAP file's summary when every planned result came, and the guest's exit
# status 1).
kst_failures() {
	local tap=$1/$KST_DIR/kselftest-$KST_TABLE-$KST_GOV.tap l
	[ ! -f "$tap" ] || sed -n 's/^not ok [0-9]* //p' "$tap"
	grep '^FAIL ' "$1/kselftest.txt" 2>/dev/null | while IFS= read -r l; do
		if [[ $l =~ table=$KST_TABLE\ governor=$KST_GOV:\ ([0-9]+)\ ok,\ ([0-9]+)\ not\ ok,\ ([0-9]+)\ skipped\ of\ ([0-9]+)$ ]] &&
		   [ $((BASH_REMATCH[1] + BASH_REMATCH[2] + BASH_REMATCH[3])) = "${BASH_REMATCH[4]}" ]; then
			continue
		fi
		[[ $l == "FAIL guest run exited 1 "* ]] && continue
		echo "$l"
	done
}

# run_tests NAME: build and the fast tests of the commit checked out; sets
# status, killed_by, detail and the times.
run_tests() {
	local name=$1 out=$RES/$1 t rc m
	status=survived killed_by="" detail="" bs="" kus="" kss="" tos="" note=""
	own_out "$out" .mutant-run
	t=$(now)
	if ! "$TOP/scripts/setup/build.sh" $KERNEL > "$out/build.log" 2>&1; then
		bs=$(($(now) - t))
		status=error killed_by="build" detail=$(grep -m1 -E 'error:' "$out/build.log" || tail -n 1 "$out/build.log")
		return
	fi
	bs=$(($(now) - t))
	t=$(now)
	RESULTS=$out "$TOP/scripts/tests/kunit.sh" --build "$(kernel_dir)" > "$out/kunit.txt" 2>&1
	rc=$?
	kus=$(($(now) - t))
	# Killed when a KUnit case failed or crashed, or no summary came back
	# (the kernel crashed or hung). A failure of kunit.sh's own checks of
	# the guest (suites seen, possible CPUs) with every case passing is a
	# harness problem, not a kill: kept as a note.
	if [ $rc != 0 ] && grep -qE '^kunit: [0-9]+ passed, 0 failed' "$out/kunit.txt" &&
	   grep -q 'Testing complete\. Ran [1-9]' "$out/kunit/kunit.log" 2>/dev/null; then
		note="kunit.sh exit $rc with every case passing: $(grep -m1 '^FAIL ' "$out/kunit.txt")"
		echo "$note" > "$out/note.txt"
		log "mutants: $name: $note"
		rc=0
	fi
	if [ $rc != 0 ]; then
		status=killed killed_by=kunit
		detail=$(first_kunit_failure "$out/kunit/console.log" 2>/dev/null)
		[ -n "$detail" ] || detail=$(grep -m1 '^FAIL ' "$out/kunit.txt" || tail -n 1 "$out/kunit.txt")
		return
	fi
	t=$(now)
	RESULTS=$out "$TOP/scripts/tests/kselftest.sh" "${KST_ARGS[@]}" --tables "$KST_TABLE" --governors "$KST_GOV" > "$out/kselftest.txt" 2>&1
	rc=$?
	kss=$(($(now) - t))
	kst_failures "$out" > "$out/failures.txt"
	# Killed by a failure the unmutated series does not have.
	grep -vxF -f "$KNOWN" "$out/failures.txt" > "$out/new-failures.txt"
	if [ -s "$out/new-failures.txt" ]; then
		status=killed killed_by=kselftest
		detail=$(head -n 1 "$out/new-failures.txt")
		# A TAP case: with the diagnostic line printed just before its
		# result (ktap_print_msg comes first).
		m=$(awk -v d="$detail" '/^# / {m = substr($0, 3); next}
			/^not ok / {t = $0; sub(/^not ok [0-9]+ /, "", t); if (t == d) {print m; exit}}
			{m = ""}' "$out/$KST_DIR/kselftest-$KST_TABLE-$KST_GOV.tap" 2>/dev/null)
		detail="$detail${m:+ ($m)}"
		return
	elif [ $rc != 0 ]; then
		note="kselftest.sh exit $rc, only failures the unmutated series has too: $(paste -sd';' "$out/failures.txt")"
		echo "$note" >> "$out/note.txt"
	fi
	# On the debug kernel, the torture last: lockdep, KASAN and the
	# storms' own checks catch what no single case drives.
	[ $debug = 1 ] || return
	t=$(now)
	RESULTS=$out "$TOP/scripts/tests/torture.sh" --build "$(kernel_dir)" > "$out/torture.txt" 2>&1
	rc=$?
	tos=$(($(now) - t))
	if [ $rc != 0 ]; then
		status=killed killed_by=torture
		detail=$(grep -m1 '^FAIL ' "$out/torture.txt" || tail -n 1 "$out/torture.txt")
	fi
}

record() {
	local name=$1 tot=$2
	rows+=("$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$name" "$status" "$killed_by" \
		"$(tr '\t\n' '  ' <<< "$detail" | sed 's/ *$//')" "$bs" "$kus" "$kss" "$tos" "$tot")")
	write_table
}

# --table: the rows of the last run, KUnit details derived again.
if [ $table = 1 ]; then
	KNOWN=/dev/null
	[ "$(cat "$CTRL/commit" 2>/dev/null)" != "$ORIG" ] || [ ! -f "$CTRL/failures.txt" ] ||
		KNOWN=$CTRL/failures.txt
	rows=()
	while IFS= read -r r; do
		name=$(cut -f1 <<< "$r")
		if [ "$(cut -f3 <<< "$r")" = kunit ] && [ -f "$RES/$name/kunit/console.log" ]; then
			d=$(first_kunit_failure "$RES/$name/kunit/console.log")
			[ -z "$d" ] || r=$(awk -F'\t' -v OFS='\t' -v d="$d" '{$4 = d; print}' <<< "$r")
		fi
		rows+=("$r")
	done < <(tail -n +2 "$RES/table.tsv")
	write_table
	cat "$RES/table.md"
	exit 0
fi

worst=0
# Rows of an earlier run of the same series (e.g. a full run before this
# --only run) stay in the table, unless this run redoes them.
if [ -f "$RES/table.tsv" ] && [ "$(cat "$CTRL/commit" 2>/dev/null)" = "$ORIG" ]; then
	while IFS= read -r r; do
		n=$(cut -f1 <<< "$r")
		[ "$n" = 00-control ] && [ "$control" = 1 ] && continue
		printf '%s\n' "${names[@]}" | grep -xF -- "$n" > /dev/null || rows+=("$r")
	done < <(tail -n +2 "$RES/table.tsv")
fi
# The control: the unmutated series. Its KUnit cases must all pass, and
# its kselftest may fail only TAP cases (known failures, not taken for
# kills: $KNOWN); anything else (a crash, a kernel report) stops the run.
KNOWN=/dev/null
if [ "$control" = 1 ]; then
	log "mutants: control: the fast tests on the unmutated series"
	t0=$(now)
	run_tests 00-control
	tot=$(($(now) - t0))
	if [ "$status" = killed ] && [ "$killed_by" = kselftest ] &&
	   ! grep -q '^FAIL ' "$CTRL/failures.txt"; then
		status=passed killed_by="" detail="known kselftest failures: $(paste -sd';' "$CTRL/failures.txt")"
		log "mutants: control: the UNMUTATED series fails these kselftest cases; they kill no mutant: $(paste -sd';' "$CTRL/failures.txt")"
	elif [ "$status" != survived ]; then
		status=error
		record 00-control "$tot"
		log "mutants: the UNMUTATED series fails ($killed_by: $detail): kills would mean nothing; stopping (logs: $CTRL)"
		exit 2
	else
		status=passed
	fi
	echo "$ORIG" > "$CTRL/commit"
	record 00-control "$tot"
	log "mutants: control passed in $tot s"
fi
if [ "$(cat "$CTRL/commit" 2>/dev/null)" = "$ORIG" ] && [ -f "$CTRL/failures.txt" ]; then
	KNOWN=$CTRL/failures.txt
	[ "$control" = 1 ] || log "mutants: known failures from the control run of ${ORIG:0:12} in $CTRL: $(paste -sd';' "$KNOWN")"
else
	log "mutants: no control run of ${ORIG:0:12}: every kselftest failure counts as a kill"
fi

for name in "${names[@]}"; do
	patch=$MUTANTS/$name.patch
	log "mutants: $name: $(sed -n 1p "$patch")"
	t0=$(now)
	if ! gk apply --index "$patch" 2> "$WORK/apply.err"; then
		status=error killed_by=apply detail=$(head -n 1 "$WORK/apply.err") bs="" kus="" kss="" tos=""
		restore
		record "$name" 0
		worst=2
		continue
	fi
	gk commit -q --no-verify -m "mutant: $name" -m "$(sed -n 1p "$patch")" ||
		die "cannot commit $name in $BASE_DIR"
	run_tests "$name"
	tot=$(($(now) - t0))
	restore
	record "$name" "$tot"
	case $status in
	killed) log "mutants: $name killed by $killed_by in $tot s: $detail" ;;
	survived) log "mutants: $name SURVIVED ($tot s)"; [ $worst = 2 ] || worst=1 ;;
	*) log "mutants: $name ERROR ($killed_by: $detail)"; worst=2 ;;
	esac
done

echo
cat "$RES/table.md"
echo
k=$(printf '%s\n' "${rows[@]}" | awk -F'\t' '$1 != "00-control" && $2 == "killed"' | wc -l)
s=$(printf '%s\n' "${rows[@]}" | awk -F'\t' '$2 == "survived"' | wc -l)
e=$(printf '%s\n' "${rows[@]}" | awk -F'\t' '$2 == "error"' | wc -l)
echo "mutants: $k killed, $s survived, $e errors (table: $RES/table.md, $RES/table.tsv)"
exit $worst
