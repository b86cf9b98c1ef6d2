#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checks.sh - static checks on the patch series.
#
# Usage: scripts/checks/checks.sh [--no-build] [--kernel test|debug]
#
# Each check prints `PASS name ...' or `FAIL name: why'; the script exits
# non-zero if any failed. Logs go to $RESULTS/checks/. (That `series',
# patches/ and the copies agree is scripts/setup/series.sh check, a step of its
# own in scripts/test.sh.)
#   branch      the kernel branch `series' is baseline + the patches, one
#               commit each (the checks below look at it)
#   checkpatch  checkpatch.pl --strict on every patch: 0 errors, warnings
#               and checks
#   build       every patch builds (vmlinux, bzImage, modules) in $BUILD,
#               incrementally, then branch `series' is built there: this is
#               the test kernel build (with --kernel debug: every patch in
#               $BUILD_DEBUG with test.config + debug.config, which leaves
#               the debug kernel; the test command does that, so that a
#               fresh machine compiles one kernel, not two). Under the
#               build lock.
#   sparse      sparse (scripts/setup/sparse.sh) and W=1 on the .c files the series
#               adds or modifies that this config builds; a warning fails
#               when it is on a line the series added or changed, in any file
#               the series touches (all lines of an added file). Warnings the
#               baseline already had elsewhere in a modified file are logged
#               and ignored. Checking no file at all is a failure. Under the
#               build lock.
#   kernel-doc  kernel-doc -none -Wall on the .c/.h files the series adds or
#               modifies, and on the files named by `.. kernel-doc::' in the
#               .rst files it adds; every warning of an added file fails, and
#               of a modified file every warning its baseline version lacks
# --no-build skips build and sparse (and needs no lock). With an empty
# series every check still runs its tool once on a small sample.
# The build leaves $BASE_DIR with branch `series' checked out.
set -eEuo pipefail
. "$(dirname "$0")/../lib/common.sh"
# Never end silently: a failing command that stops the script says where.
trap '[ "$BASHPID" != "$$" ] || echo "FAIL checks: internal error at $0 line $LINENO" >&2' ERR

nobuild=0 kernel=test
while [ $# -gt 0 ]; do
	case $1 in
	--no-build) nobuild=1; shift ;;
	--kernel) kernel=${2:-}; shift 2 || shift ;;
	*) kernel=bad; break ;;
	esac
done
case $kernel in
test|debug) ;;
*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac

BRANCH=${SERIES_BRANCH:-series}
PATCHES=$TOP/patches
OUT=$RESULTS/checks
FRAG=$TOP/scripts/configs/test.config
if [ "$kernel" = debug ]; then
	# One fragment, as kconfig.sh and config_mismatches read one: the
	# debug kernel's two, later lines winning (as build.sh debug).
	BUILD=$BUILD_DEBUG
	mkdir -p "$WORK"
	FRAG=$WORK/checks-debug.config
	cat "$TOP/scripts/configs/test.config" "$TOP/scripts/configs/debug.config" > "$FRAG"
fi
npass=0 nfail=0

gk() { git -C "$BASE_DIR" "$@"; }
pass() { echo "PASS $*"; npass=$((npass + 1)); }
fail() { echo "FAIL $1: $2"; nfail=$((nfail + 1)); }

# Files the series adds or modifies (no renames: a move is an add).
touched() {
	gk diff --no-renames --name-only --diff-filter=AM baseline "$BRANCH" -- "$@"
}

# "file first last" for the lines each touched file has new in the series
# (an added file: all of them). A warning counts only there: the files the
# series modifies may have warnings of their own in the baseline.
changed_ranges() {
	local f
	gk diff --no-renames --name-only --diff-filter=A baseline "$BRANCH" |
		awk '{print $0, 1, 2147483647}'
	gk diff --no-renames --diff-filter=M -U0 baseline "$BRANCH" |
		awk '/^\+\+\+ b\// {f = substr($0, 7); next}
		     /^@@ / {
			split($3, a, ","); s = substr(a[1], 2) + 0
			n = (a[2] == "") ? 1 : a[2] + 0
			if (n == 0) print f, s, s + 1; else print f, s, s + n - 1
		     }'
}

# checkpatch's "total: N errors, N warnings, N checks" as "E W C".
checkpatch_totals() {
	sed -nE 's/^total: ([0-9]+) errors, ([0-9]+) warnings, ([0-9]+) checks.*/\1 \2 \3/p' "$1" | tail -n 1
}

# checkpatch warns FILE_PATH_CHANGES ("does MAINTAINERS need updating?")
# for every patch that creates a file and does not touch MAINTAINERS, even
# where an existing entry already covers the file (patches 1 and 2 add
# drivers/cpuidle/ files, which "CPU IDLE TIME MANAGEMENT FRAMEWORK"
# covers). True if LOG has no other warning and get_maintainer.pl names a
# subsystem other than THE REST for each file PATCH creates (the files
# must exist in $BASE_DIR, i.e. the series is applied).
maintained_new_files() {
	local patch=$1 log=$2 f subs n=0
	grep -E '^WARNING:' "$log" | grep -qv '^WARNING:FILE_PATH_CHANGES:' && return 1
	while read -r f; do
		n=$((n + 1))
		[ -f "$BASE_DIR/$f" ] || return 1
		subs=$(cd "$BASE_DIR" && perl scripts/get_maintainer.pl --no-git --no-git-fallback \
			--subsystem --no-email --no-l --no-m --no-r --no-rolestats -f "$f" 2>/dev/null) || return 1
		printf '%s\n' "$subs" | grep -vxq 'THE REST' || return 1
		echo "checkpatch: $f: in $(printf '%s\n' "$subs" | grep -vx 'THE REST' | paste -sd, -)" >&2
	done < <(sed -nE 's/^ create mode [0-7]+ (.*)$/\1/p' "$patch")
	[ "$n" -gt 0 ]
}

run_checkpatch() {
	local p k=0 n=${#list[@]} t e w c bad=() acc=0 d=$OUT/checkpatch
	mkdir -p "$d"
	# spdxcheck.py (called by checkpatch) needs Debian's python3 with ply
	# and git, not pyenv's.
	local cp=(env PATH="/usr/bin:$PATH" perl "$BASE_DIR/scripts/checkpatch.pl" --strict --show-types --root="$BASE_DIR")
	# The tool and our parsing of its verdict work: a sample with trailing
	# whitespace must count at least one error.
	cat > "$d/sample.patch" <<-'EOT'
	From: Sample <sample@example.org>
	Subject: [PATCH] sample: checks.sh self-check

	A sample to prove checkpatch runs.

	Signed-off-by: Sample <sample@example.org>
	---
	diff --git a/init/main.c b/init/main.c
	--- a/init/main.c
	+++ b/init/main.c
	@@ -1,3 +1,4 @@
	 // SPDX-License-Identifier: GPL-2.0-only
	 /*
	+ * trailing whitespace 
	  *  linux/init/main.c
	EOT
	"${cp[@]}" "$d/sample.patch" > "$d/sample.log" 2>&1 || true
	read -r e w c <<< "$(checkpatch_totals "$d/sample.log")"
	if [ -z "${e:-}" ] || [ "$e" = 0 ]; then
		fail checkpatch "checkpatch.pl did not report the sample's error (see $d/sample.log)"
		return
	fi
	for p in "${list[@]}"; do
		k=$((k + 1))
		"${cp[@]}" "$PATCHES/$p" > "$d/$p.log" 2>&1 || true
		t=$(checkpatch_totals "$d/$p.log")
		read -r e w c <<< "${t:-x x x}"
		if [ "$e $c" = "0 0" ] && [ "$w" != 0 ] && maintained_new_files "$PATCHES/$p" "$d/$p.log"; then
			echo "checkpatch: $p: FILE_PATH_CHANGES only, and every file it creates is in a MAINTAINERS entry: accepted" >&2
			acc=$((acc + 1))
			continue
		fi
		if [ "$e $w $c" != "0 0 0" ]; then
			bad+=("$p: ${e} errors, ${w} warnings, ${c} checks")
			{ echo "--- checkpatch $k/$n: $p"; grep -vE '^$' "$d/$p.log" | sed -n '1,60p' || true; } >&2
		fi
	done
	if [ ${#bad[@]} = 0 ]; then
		pass "checkpatch ($n patches, --strict: 0 errors, 0 checks, 0 warnings but FILE_PATH_CHANGES on $acc that create files an existing MAINTAINERS entry covers)"
	else
		fail checkpatch "$(IFS=';'; echo "${bad[*]}") (logs: $d)"
	fi
}

# The symbols of the test config fragment that do not have their wanted
# value in $BUILD/.config (symbols this tree's Kconfig does not define yet,
# i.e. added by a later patch, are skipped). Prints them; empty = fine.
config_mismatches() {
	local l sym val got
	while IFS= read -r l; do
		sym=${l%%=*} val=${l#*=}
		got=$(grep "^$sym=" "$BUILD/.config" || true)
		if [ "$val" = n ]; then
			[ -z "$got" ] && continue
		else
			[ "$got" = "$l" ] && continue
		fi
		gk grep -qE "^[[:space:]]*(menu)?config[[:space:]]+${sym#CONFIG_}[[:space:]]*$" -- '*Kconfig*' ||
			continue
		echo "$l (got ${got:-unset})"
	done < <(grep -E '^CONFIG_' "$FRAG" | tac | awk -F= '!seen[$1]++' | tac)
}

# Make $BUILD/.config right for the checked-out commit.
prepare_config() {
	local log=$1 bad
	if [ ! -f "$BUILD/.config" ]; then
		"$TOP/scripts/setup/kconfig.sh" "$BASE_DIR" "$BUILD" "$FRAG" >> "$log" 2>&1 || true
	fi
	make -s -C "$BASE_DIR" O="$BUILD" olddefconfig >> "$log" 2>&1 || return 1
	bad=$(config_mismatches)
	if [ -n "$bad" ]; then
		# A symbol that appeared with a patch got its default: redo the
		# config from the fragment (kconfig.sh may complain about symbols
		# still to come; config_mismatches decides).
		echo "checks: regenerating .config: $bad" >> "$log"
		"$TOP/scripts/setup/kconfig.sh" "$BASE_DIR" "$BUILD" "$FRAG" >> "$log" 2>&1 || true
		bad=$(config_mismatches)
	fi
	if [ -n "$bad" ]; then
		echo "checks: .config does not have: $bad" | tee -a "$log" >&2
		return 1
	fi
}

# Check out $1 (a commit or the branch) and build it in $BUILD; $2 names it.
# Only a successful build of the branch leaves the stamp guest.sh wants
# (stamp_check in common.sh); any other build removes it.
build_one() {
	local rev=$1 name=$2 log=$OUT/build/$2.log state
	: > "$log"
	stamp_clear "$BUILD"
	if [ "$rev" = "$BRANCH" ]; then
		gk checkout -q "$BRANCH"
	else
		gk checkout -q --detach "$rev"
	fi
	state=$(tree_state)
	if ! prepare_config "$log"; then
		build_err="$name: .config lacks symbols of $FRAG (see $log)"
		return 1
	fi
	log "build: $name ($(gk rev-parse --short HEAD))"
	if ! timed "build:$name" make -C "$BASE_DIR" O="$BUILD" -j"$JOBS" all >> "$log" 2>&1; then
		grep -E 'error|Error' "$log" | sed -n '1,30p' >&2 || true
		build_err="$name does not build (see $log)"
		return 1
	fi
	if [ "$rev" = "$BRANCH" ]; then
		stamp_write "$BUILD" "$state" || log "build: $BUILD not stamped: guest runs will refuse it"
	fi
}

run_build() {
	local k=0 c name
	mkdir -p "$OUT/build"
	for c in $(gk rev-list --reverse "baseline..$BRANCH"); do
		k=$((k + 1))
		name=${list[k - 1]:-commit-$k}
		name=${name%.patch}
		build_one "$c" "$name" || break
	done
	gk checkout -q "$BRANCH"
	# No patches: this is the build of the branch (= baseline).
	[ $k -gt 0 ] || [ -n "$build_err" ] || build_one "$BRANCH" "$BRANCH" || true
}

# sparse_one BUILD FILE: sparse and W=1 on FILE's object in the O= folder
# BUILD; appends to checked and, on a warning on a line the series changed
# or a compile error, to bad (run_sparse's arrays).
sparse_one() {
	local b=$1 f=$2 o log rc all_w
	o=${f%.c}.o
	log=$d/${f//\//_}.log
	rc=0
	make -C "$BASE_DIR" O="$b" C=2 CHECK="$sp" W=1 "$o" > "$log" 2>&1 || rc=$?
	checked+=("$f")
	if [ $rc != 0 ]; then
		bad+=("$f does not compile with W=1")
		grep -E ': error:' "$log" | sed -n '1,20p' >&2 || true
		return
	fi
	# Warnings (sparse's and the compiler's) on the lines the series
	# changed, in any file it touches (.c or included .h).
	if awk 'NR == FNR { n++; rf[n] = $1; rs[n] = $2; re[n] = $3; next }
		/:[0-9]+(:[0-9]+)?: (warning|error): / {
			split($0, a, ":"); p = a[1]; l = a[2] + 0
			for (i = 1; i <= n; i++) {
				f = rf[i]
				if ((p == f || substr(p, length(p) - length(f)) == "/" f) &&
				    l >= rs[i] && l <= re[i]) { print; found = 1; break }
			}
		}
		END { exit !found }' "$d/ranges" "$log" | sort -u > "$log.hits"; [ -s "$log.hits" ]; then
		bad+=("$f: $(wc -l < "$log.hits") warnings")
		head -n 40 "$log.hits" >&2
	fi
	all_w=$(grep -E ': (warning|error): ' "$log" | sort -u | wc -l || true)
	[ "$all_w" -le "$(wc -l < "$log.hits")" ] ||
		log "sparse: $f: $((all_w - $(wc -l < "$log.hits"))) more warnings on lines the series did not change or in other files, ignored ($log)"
}

# After the per-patch builds: the series' own files, sparse and W=1.
run_sparse() {
	local d=$OUT/sparse f rc skipped=() checked=() bad=() log smoke
	mkdir -p "$d"
	if [ -z "$sp" ]; then
		fail sparse "scripts/setup/sparse.sh failed (see $OUT/sparse.sh.log)"
		return
	fi
	if [ -n "$build_err" ]; then
		fail sparse "not run: the series does not build"
		return
	fi
	# sparse accepts this tree's headers: a baseline object, checked
	# without W=1 so that it is not rebuilt.
	smoke=init/version.o
	make -C "$BASE_DIR" O="$BUILD" C=2 CHECK="$sp" "$smoke" > "$d/smoke.log" 2>&1 || true
	if grep -q ': error:' "$d/smoke.log" || ! grep -q "CHECK .*${smoke%.o}.c" "$d/smoke.log"; then
		grep ': error:' "$d/smoke.log" | sed -n '1,20p' >&2 || true
		fail sparse "sparse does not check $smoke cleanly in this tree (see $d/smoke.log)"
		return
	fi
	changed_ranges > "$d/ranges"
	mapfile -t all < <(touched)
	while IFS= read -r f; do
		if [ -f "$BUILD/${f%.c}.o" ]; then
			sparse_one "$BUILD" "$f"
		else
			skipped+=("$f")
		fi
	done < <(printf '%s\n' "${all[@]}" | grep -E '\.c$' || true)
	# Touched files the test config does not build (drivers of hardware
	# the guest lacks): compile them, with sparse and W=1, in a config
	# that has them (scripts/configs/extra.config).
	if [ ${#skipped[@]} -gt 0 ]; then
		local extra=$WORK/build-extra
		if "$TOP/scripts/setup/kconfig.sh" "$BASE_DIR" "$extra" "$FRAG" "$TOP/scripts/configs/extra.config" \
				> "$d/extra-kconfig.log" 2>&1 &&
			make -s -C "$BASE_DIR" O="$extra" -j"$JOBS" prepare > "$d/extra-prepare.log" 2>&1; then
			for f in "${skipped[@]}"; do
				sparse_one "$extra" "$f"
			done
			skipped=()
		else
			bad+=("the extra config (scripts/configs/extra.config) does not prepare (logs: $d/extra-*.log)")
		fi
	fi
	[ ${#skipped[@]} = 0 ] || log "sparse: skipped (not built in this config): ${skipped[*]}"
	if [ ${#checked[@]} = 0 ]; then
		fail sparse "no file checked (the series touches no .c file built in this config${skipped:+; not built: ${skipped[*]}})"
	elif [ ${#bad[@]} = 0 ]; then
		pass "sparse (${#checked[@]} files with sparse and W=1, ${#skipped[@]} skipped as not built${skipped:+: ${skipped[*]}})"
	else
		fail sparse "$(IFS=';'; echo "${bad[*]}") (logs: $d)"
	fi
}

# kernel-doc warnings of FILES (relative to directory $1), one per line,
# without line numbers, sorted: comparable between two versions of a file.
# The raw output goes to file $2.
kdoc_norm() {
	sed -E 's/([^ :]*[^ :0-9][^ :]*):[0-9]+(:[0-9]+)?:? /\1: /'
}
kerneldoc_norm() {
	local dir=$1 raw=$2
	shift 2
	: > "$raw"
	[ $# -gt 0 ] || return 0
	(cd "$dir" && "${kd[@]}" "$@") > "$raw" 2>&1 || true
	kdoc_norm < "$raw" | LC_ALL=C sort
}

run_kerneldoc() {
	local d=$OUT/kernel-doc tmp f r files=() missing=() others=() n_old note=
	mkdir -p "$d"
	kd=(env PATH="/usr/bin:$PATH" python3 "$BASE_DIR/scripts/kernel-doc" -none -Wall)
	tmp=$(mktemp -d)
	mkdir -p "$tmp/series" "$tmp/baseline"
	# The tool and our detection work: an undocumented parameter warns.
	printf '/**\n * sample() - a sample\n * @a: documented\n *\n * Return: 0.\n */\nint sample(int a, int b);\n' > "$tmp/sample.c"
	(cd "$tmp" && "${kd[@]}" sample.c) > "$d/sample.log" 2>&1 || true
	if ! grep -q "'b'" "$d/sample.log"; then
		fail kernel-doc "kernel-doc did not warn about the sample's undocumented parameter (see $d/sample.log)"
		rm -rf "$tmp"
		return
	fi
	mapfile -t files < <(touched '*.c' '*.h')
	# Files named by the kernel-doc directives of the .rst files it adds.
	while IFS= read -r r; do
		while IFS= read -r f; do
			[ -n "$f" ] || continue
			if gk cat-file -e "$BRANCH:$f" 2>/dev/null; then
				files+=("$f")
			else
				missing+=("$r names $f")
			fi
		done < <(gk show "$BRANCH:$r" | sed -nE 's/^[[:space:]]*\.\. kernel-doc::[[:space:]]*([^[:space:]]+).*/\1/p')
	done < <(gk diff --no-renames --name-only --diff-filter=A baseline "$BRANCH" -- 'Documentation/*.rst')
	mapfile -t files < <(printf '%s\n' "${files[@]}" | sed '/^$/d' | sort -u)
	# Files that exist in the baseline: only warnings the series adds count.
	mapfile -t others < <(printf '%s\n' "${files[@]}" | sed '/^$/d' | while IFS= read -r f; do
		gk cat-file -e "baseline:$f" 2>/dev/null && echo "$f"; done)
	: > "$d/kernel-doc.log"
	: > "$d/baseline.log"
	if [ ${#files[@]} -gt 0 ]; then
		gk archive "$BRANCH" -- "${files[@]}" | tar -xf - -C "$tmp/series"
		kerneldoc_norm "$tmp/series" "$d/series.raw" "${files[@]}" > "$d/kernel-doc.log"
	fi
	if [ ${#others[@]} -gt 0 ]; then
		gk archive baseline -- "${others[@]}" | tar -xf - -C "$tmp/baseline"
		kerneldoc_norm "$tmp/baseline" "$d/baseline.raw" "${others[@]}" > "$d/baseline.log"
	fi
	LC_ALL=C comm -13 "$d/baseline.log" "$d/kernel-doc.log" | sort -u > "$d/new.log"
	n_old=$(LC_ALL=C comm -12 "$d/baseline.log" "$d/kernel-doc.log" | sort -u | wc -l)
	rm -rf "$tmp"
	if [ ${#missing[@]} -gt 0 ]; then
		fail kernel-doc "$(IFS=';'; echo "${missing[*]}"), which does not exist"
	elif [ -s "$d/new.log" ]; then
		# Show them with their line numbers.
		while IFS= read -r r; do
			if grep -qxF -- "$(kdoc_norm <<< "$r")" "$d/new.log"; then echo "$r"; fi
		done < "$d/series.raw" | sort -u > "$d/new-with-lines.log"
		head -n 40 "$d/new-with-lines.log" >&2
		fail kernel-doc "$(wc -l < "$d/new.log") new warnings (see $d/new-with-lines.log)"
	else
		[ "$n_old" = 0 ] || note="; $n_old warnings already in the baseline ignored"
		pass "kernel-doc (${#files[@]} files, no new warnings$note)"
	fi
}

need_pkgs git perl python3 python3-ply python3-git
[ $nobuild = 1 ] || need_pkgs gcc make flex bison bc libelf-dev libssl-dev
[ -d "$BASE_DIR/.git" ] || die "no kernel tree at $BASE_DIR (run scripts/setup/baseline.sh)"
rm -rf "$OUT"
mkdir -p "$OUT"

# The kernel branch is what the patches make (the other checks look at the
# branch).
mapfile -t list < <(series_names 2>/dev/null < "$TOP/series")
if ! gk rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null; then
	fail branch "no branch $BRANCH in $BASE_DIR (run scripts/setup/series.sh apply)"
	echo "checks: $npass passed, $nfail failed"
	exit 1
elif [ "$(gk rev-parse "$BRANCH^{tree}")" != "$("$TOP/scripts/setup/series.sh" tree 2>/dev/null)" ] ||
     [ "$(gk rev-list --count "baseline..$BRANCH")" != "${#list[@]}" ]; then
	fail branch "$BRANCH in $BASE_DIR is not baseline + the ${#list[@]} patches, one commit each (run scripts/setup/series.sh apply, or export)"
else
	pass "branch ($BRANCH = baseline + ${#list[@]} patches)"
fi

run_checkpatch

if [ $nobuild = 0 ]; then
	# Build sparse (first time: ~10 s) before taking the lock.
	sp=$("$TOP/scripts/setup/sparse.sh" 2> "$OUT/sparse.sh.log") || { cat "$OUT/sparse.sh.log" >&2; sp=; }
	hold_lock
	build_err=
	if [ -n "$(gk status --porcelain --untracked-files=no)" ]; then
		fail build "$BASE_DIR has uncommitted changes: not touching it"
		fail sparse "not run: $BASE_DIR has uncommitted changes"
		release_lock
		run_kerneldoc
		echo "checks: $npass passed, $nfail failed"
		exit 1
	fi
	orig=$(gk symbolic-ref -q --short HEAD || gk rev-parse HEAD)
	[ "$orig" = "$BRANCH" ] || log "checks: $BASE_DIR had $orig checked out; leaving $BRANCH"
	trap 'gk checkout -q "$BRANCH" 2>/dev/null || true' EXIT
	s_build=$(date +%s)
	run_build
	# sparse/W=1 rebuilds the touched objects with other flags: run it
	# before the final build of the branch, which puts them back. (The
	# last patch is the branch; with no patches run_build built it.)
	run_sparse
	if [ ${#list[@]} -gt 0 ]; then
		[ -n "$build_err" ] && log "build: building $BRANCH anyway, so that $BUILD has it"
		build_one "$BRANCH" "$BRANCH" || true
	fi
	if [ -n "$build_err" ]; then
		fail build "$build_err"
	else
		pass "build (${#list[@]} patches one by one, then $BRANCH, in $BUILD: $(($(date +%s) - s_build)) s)"
	fi
	release_lock
else
	log "checks: --no-build: build and sparse skipped"
fi

run_kerneldoc

echo "checks: $npass passed, $nfail failed"
[ $nfail = 0 ] || exit 1
