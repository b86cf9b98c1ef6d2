#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh [--selftest] - rules for the harness's own bash scripts (scripts/,
# .ci/run), checked before anything is built:
#
#   syntax     `bash -n' accepts every script;
#   pipefail   a script that sets pipefail pipes into no reader that exits
#              before its input ends (head, grep -q, grep -m): the writer
#              then dies of SIGPIPE and the pipeline fails, at random, on a
#              result that is right. A CI run failed so (kunit.sh piped sed
#              into grep -q). Read a file, or use
#              `sed -n 1,Np' and `grep ... > /dev/null', which read to the end;
#   paths      every harness script that a script, a page or a record names
#              (scripts/GROUP/NAME, .sh or .py, in the tracked text files but
#              the kernel patches and the mutants) exists: scripts/ is
#              grouped by role, and a name left at an old place fails here.
#              Records under data/*/ are history, kept as they were written:
#              they may also name a script of RETIRED, which nothing else
#              may.
#
# Prints "PASS lint ..." or "FAIL lint: why" per rule. --selftest runs the
# rules on scripts with one fault each and fails unless each fault is found.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

# Scripts that are gone (each NAME.py), replaced by the subcommands bench,
# tables, energy, cost, think-curve, scale, v2v3 and states of
# scripts/report/report.py: records under data/*/ may name them.
RETIRED=" scripts/report/bench-report scripts/report/bench-tables scripts/report/energy-model"
RETIRED+=" scripts/report/cost-summary scripts/report/think-curve-report scripts/report/scale-report"
RETIRED+=" scripts/report/v2v3-report scripts/bench/state-tables "

# A pipe into head, or into grep with -q/-m/--quiet/--max-count.
EARLY='\|[[:space:]]*(head([[:space:]]|$)|grep([[:space:]]+[^|[:space:]]+)*[[:space:]]+(-[a-zA-Z]*[qm][a-zA-Z]*|--quiet|--silent|--max-count)([[:space:]=]|$))'

# lint FILE...: check the rules on FILE...; prints the PASS/FAIL lines.
lint() {
	local f bad="" hits n=0 m=0
	for f in "$@"; do
		n=$((n + 1))
		bash -n "$f" 2> "$WORK/lint.err" || bad="${bad:+$bad; }${f#"$TOP"/}: $(sed -n 1p "$WORK/lint.err")"
	done
	if [ -n "$bad" ]; then echo "FAIL lint syntax: $bad"; else echo "PASS lint syntax: bash -n accepts $n scripts"; fi
	bad=""
	for f in "$@"; do
		grep -E '^[^#]*set -[a-z]*o pipefail' "$f" > /dev/null || continue
		m=$((m + 1))
		hits=$(grep -nE "$EARLY" "$f" | grep -vE '^[0-9]+:[[:space:]]*#' | cut -d: -f1 | tr '\n' ',' || true)
		[ -z "$hits" ] || bad="${bad:+$bad; }${f#"$TOP"/} line ${hits%,}"
	done
	if [ -n "$bad" ]; then
		echo "FAIL lint pipefail: a pipe into head or grep -q/-m under pipefail: $bad"
	else
		echo "PASS lint pipefail: no pipe into head or grep -q/-m in the $m of $n scripts that set pipefail"
	fi
}

# paths FILE...: the paths rule on FILE...; prints its PASS/FAIL line.
paths() {
	local bad="" n=0 f ref
	for f in "$@"; do
		while read -r ref; do
			n=$((n + 1))
			[ -f "$TOP/$ref" ] && continue
			# A record in a folder of data/ (not data/README.md) may name
			# a retired script.
			case ${f#"$TOP"/} in
			data/*/*) [[ $ref == *.py && $RETIRED == *" ${ref%.py} "* ]] && continue ;;
			esac
			bad="${bad:+$bad; }${f#"$TOP"/} names $ref"
		done < <(grep -oE '(^|[^[:alnum:]_./-])scripts/[[:alnum:]_/-]+\.(sh|py)' "$f" | sed 's|^[^s]*scripts/|scripts/|' | sort -u)
	done
	if [ -n "$bad" ]; then
		echo "FAIL lint paths: no such harness script: $bad"
	elif [ "$n" = 0 ]; then
		echo "FAIL lint paths: no reference to a harness script found in $# files"
	else
		echo "PASS lint paths: the $n harness script names in $# files all exist"
	fi
}

# texts: the tracked text files the paths rule reads.
texts() {
	git -C "$TOP" ls-files | grep -vE '^(patches/000[1-9]|tools/mutants/|tools/variants/)|\.png$' |
		sed "s|^|$TOP/|"
}

scripts() {
	local f
	for f in "$TOP"/scripts/*.sh "$TOP"/scripts/*/*.sh "$TOP/.ci/run"; do
		head -c 64 "$f" | grep '^#!/bin/bash' > /dev/null || case $f in *.sh) ;; *) continue ;; esac
		printf '%s\n' "$f"
	done
}

mkdir -p "$WORK"
case ${1:-} in
"")
	mapfile -t files < <(scripts)
	[ "${#files[@]}" -gt 10 ] || { echo "FAIL lint: only ${#files[@]} scripts found"; exit 1; }
	mapfile -t texts < <(texts)
	out=$(lint "${files[@]}"; paths "${texts[@]}")
	echo "$out"
	! grep '^FAIL ' <<< "$out" > /dev/null
	;;
--selftest)
	tmp=$(mktemp -d "$WORK/lint-selftest.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	rc=0
	# expect WHAT PATTERN LINE: a script with LINE fails with PATTERN, or
	# passes when PATTERN is "pass".
	expect() {
		local what=$1 want=$2 out
		printf '#!/bin/bash\nset -euo pipefail\n%s\n' "$3" > "$tmp/t.sh"
		out=$(lint "$tmp/t.sh")
		if [ "$want" = pass ]; then
			if grep '^FAIL ' <<< "$out" > /dev/null; then
				echo "FAIL lint selftest: $what: the rules failed a good script: $(grep '^FAIL ' <<< "$out")"; rc=1
			else
				echo "PASS lint selftest: $what: passed as it should"
			fi
		elif grep -E "^FAIL lint $want" <<< "$out" > /dev/null; then
			echo "PASS lint selftest: $what: failed as it should"
		else
			echo "FAIL lint selftest: $what: not found"; rc=1
		fi
	}
	# P: a pipe, so that this file does not break its own rule.
	P='|'
	expect "sed into grep -q" pipefail "sed p \"\$f\" $P grep -qE x || echo no"
	expect "grep -Eq after options" pipefail "cat f $P grep -i -Eq x"
	expect "grep --quiet" pipefail "cat f $P grep --quiet x"
	expect "grep -m 1" pipefail "x=\$(cat f $P grep -m 1 x)"
	expect "head -n 1" pipefail "x=\$(ls $P head -n 1)"
	expect "head at the end of a line" pipefail "ls $P head"
	expect "a syntax error" syntax 'if true; then'
	expect "grep -q on a file, sed -n 1p, grep > /dev/null" pass \
		"grep -q x f; ls $P sed -n 1p; cat f $P grep x > /dev/null; ls $P grep -v -e q"
	expect "a comment line" pass "# ls $P head"
	printf 'run bash scripts/test.sh and scripts/bench/bench.sh\n' > "$tmp/t.md"
	if paths "$tmp/t.md" | grep '^PASS ' > /dev/null; then
		echo "PASS lint selftest: names of existing scripts: passed as they should"
	else
		echo "FAIL lint selftest: names of existing scripts were failed"; rc=1
	fi
	printf 'run bash scripts/%s (moved to scripts/bench/)\n' bench.sh > "$tmp/t.md"
	if paths "$tmp/t.md" | grep '^FAIL lint paths: no such harness script' > /dev/null; then
		echo "PASS lint selftest: a script named at its old place: failed as it should"
	else
		echo "FAIL lint selftest: a script named at its old place: not found"; rc=1
	fi
	mkdir -p "$tmp/data/x"
	printf 'made by scripts/report/%s.py\n' bench-report > "$tmp/data/x/run.txt"
	if TOP=$tmp paths "$tmp/data/x/run.txt" | grep '^PASS ' > /dev/null; then
		echo "PASS lint selftest: a retired script named by a record: passed as it should"
	else
		echo "FAIL lint selftest: a retired script named by a record was failed"; rc=1
	fi
	cp "$tmp/data/x/run.txt" "$tmp/t.md"
	cp "$tmp/data/x/run.txt" "$tmp/data/README.md"
	for t in t.md data/README.md; do
		if TOP=$tmp paths "$tmp/$t" | grep '^FAIL lint paths: no such harness script' > /dev/null; then
			echo "PASS lint selftest: a retired script named outside a record ($t): failed as it should"
		else
			echo "FAIL lint selftest: a retired script named outside a record ($t): not found"; rc=1
		fi
	done
	printf '#!/bin/bash\nls %s head -n 1\n' "$P" > "$tmp/t.sh"
	if lint "$tmp/t.sh" | grep '^FAIL ' > /dev/null; then
		echo "FAIL lint selftest: a script without pipefail was failed"; rc=1
	else
		echo "PASS lint selftest: head without pipefail: passed as it should"
	fi
	exit $rc
	;;
*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
