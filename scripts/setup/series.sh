#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh - keep patches/, the `series' file, the kernel branch `series'
# and the copies of the files the series adds in step.
#
# Usage: scripts/setup/series.sh COMMAND
#   apply           (re)create branch `series' in $BASE_DIR from `baseline' and
#                   `git am' the patches listed in `series'; leaves it checked
#                   out. Takes the build lock (the tree's files change).
#   export          regenerate patches/ (cover letter: subject and blurb kept),
#                   `series' and the copies from the commits baseline..series.
#   check           fail (with a diff) if `series' and patches/*.patch
#                   disagree, or if a copy under the copy folders is not
#                   byte-identical to what the patches create, or if a file
#                   there is not added by the series. Reads only git objects:
#                   needs no lock and leaves $BASE_DIR's files alone.
#   tree            print the git tree of baseline + the patches (for checks.sh)
#   selftest-check  prove that `check' fails on a broken copy, a stray file and
#                   a wrong `series', in a temporary copy of this repo.
#
# The copies: every file the series adds (git diff --no-renames
# --diff-filter=A baseline..series) lives at the same path at the top of this
# repo, under one of $COPY_DIRS. Files the series only modifies are never
# copied. Environment: SERIES_BRANCH (default: series) names another kernel
# branch, e.g. for experiments.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

PATCHES=$TOP/patches
SERIES=$TOP/series
COVER=0000-cover-letter.patch
BRANCH=${SERIES_BRANCH:-series}
# Folders at the top of the repo that hold copies (and nothing else).
COPY_DIRS=(Documentation arch block drivers fs include init kernel lib mm net
	   samples security sound tools/testing virt)

gk() { git -C "$BASE_DIR" "$@"; }

need_tree() {
	[ -d "$BASE_DIR/.git" ] || die "no kernel tree at $BASE_DIR (run scripts/setup/baseline.sh)"
	gk rev-parse -q --verify refs/heads/baseline >/dev/null ||
		die "$BASE_DIR has no branch baseline (run scripts/setup/baseline.sh)"
}

# The patch names in `series', in order (quilt style: comments, blank lines
# and options after the name are ignored).
series_list() {
	series_names < "$SERIES"
}

# Set the array `list' to the patch names in `series'.
read_series() {
	[ -f "$SERIES" ] || die "no $SERIES file (an empty one means: no patches)"
	mapfile -t list < <(series_list)
}

in_copy_dirs() {
	local d
	for d in "${COPY_DIRS[@]}"; do
		case $1 in "$d"/*) return 0 ;; esac
	done
	return 1
}

# Files under the copy folders in this repo: tracked or not, but not ignored.
repo_copies() {
	local f
	git -C "$TOP" ls-files -co --exclude-standard -- "${COPY_DIRS[@]}" | sort -u |
		while IFS= read -r f; do [ -e "$TOP/$f" ] && printf '%s\n' "$f"; done
	return 0
}

# Apply the listed patches to baseline in a temporary index (no work tree)
# and print the resulting tree; names the first patch that does not apply.
series_tree() {
	local idx p k=0 n
	read_series
	n=${#list[@]}
	idx=$(mktemp)
	GIT_INDEX_FILE=$idx gk read-tree baseline
	for p in "${list[@]}"; do
		k=$((k + 1))
		[ -f "$PATCHES/$p" ] || { rm -f "$idx"; die "patch $k/$n: patches/$p is listed in series but missing"; }
		if ! GIT_INDEX_FILE=$idx gk apply --cached --whitespace=nowarn "$PATCHES/$p" >&2; then
			rm -f "$idx"
			die "patch $k/$n: patches/$p does not apply (on baseline + the patches before it)"
		fi
	done
	GIT_INDEX_FILE=$idx gk write-tree
	rm -f "$idx"
}

cmd_apply() {
	local old p k=0 n
	need_tree
	read_series
	n=${#list[@]}
	for p in "${list[@]}"; do
		[ -f "$PATCHES/$p" ] || die "apply: patches/$p is listed in series but missing"
	done
	hold_lock
	[ ! -e "$(gk rev-parse --git-path rebase-apply)" ] ||
		die "apply: a git am/rebase is in progress in $BASE_DIR"
	[ -z "$(gk status --porcelain --untracked-files=no)" ] ||
		die "apply: $BASE_DIR has uncommitted changes: $(gk status --short --untracked-files=no | sed -n '1,5p' | tr '\n' ' ')"
	old=$(gk rev-parse -q --verify "refs/heads/$BRANCH" || true)
	[ -z "$old" ] || log "apply: old $BRANCH was ${old:0:12} (git reflog $BRANCH keeps it)"
	gk checkout -q -B "$BRANCH" baseline
	for p in "${list[@]}"; do
		k=$((k + 1))
		if ! gk am -q --committer-date-is-author-date "$PATCHES/$p"; then
			gk am --abort || true
			echo "error: apply: patch $k/$n FAILED: patches/$p" >&2
			die "apply: $BRANCH is left at baseline + $((k - 1)) patches"
		fi
	done
	log "apply: $BRANCH = baseline + $n patches ($(gk rev-parse --short HEAD)), checked out"
}

# Subject text, subject prefix and blurb of an existing cover letter.
# Sets cov_prefix, cov_subject (empty if the template's) and writes the blurb
# (empty if the template's) to file $2.
parse_cover() {
	local f=$1 out=$2 subj
	cov_prefix=PATCH cov_subject=
	: > "$out"
	[ -f "$f" ] || return 0
	# Unfold the Subject header.
	subj=$(awk '/^$/ {exit}
		    /^Subject:/ {s = substr($0, 10); f = 1; next}
		    f && /^[ \t]/ {sub(/^[ \t]+/, " "); s = s $0; next}
		    {f = 0}
		    END {print s}' "$f")
	case $subj in
	*'=?'*'?='*) die "export: cannot parse the encoded Subject of patches/$COVER; write it in plain text" ;;
	esac
	if [[ $subj =~ ^\[(.*)\ 0/[0-9]+\]\ (.*)$ ]]; then
		cov_prefix=${BASH_REMATCH[1]}
		cov_subject=${BASH_REMATCH[2]}
	else
		die "export: patches/$COVER: Subject is not \"[PREFIX 0/N] text\": $subj"
	fi
	[ "$cov_subject" != "*** SUBJECT HERE ***" ] || cov_subject=
	# The blurb: the body up to the generated shortlog ("Name (N):" after a
	# blank line, followed by indented subjects).
	awk 'h {b[++n] = $0; next} /^$/ {h = 1}
	     END {
		end = n
		for (i = 1; i < n; i++)
			if ((i == 1 || b[i - 1] == "") && b[i] ~ /^[^ ].* \([0-9]+\):$/ && b[i + 1] ~ /^  /) {
				end = i - 1
				break
			}
		while (end > 0 && b[end] == "") end--
		s = 1
		while (s <= end && b[s] == "") s++
		for (i = s; i <= end; i++) print b[i]
	     }' "$f" > "$out"
	if [ "$(cat "$out")" = "*** BLURB HERE ***" ]; then
		: > "$out"
	fi
	return 0
}

cmd_export() {
	local n tmp f date mode blurb
	need_tree
	gk rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null || die "export: no branch $BRANCH in $BASE_DIR"
	[ -z "$(gk rev-list --merges "baseline..$BRANCH")" ] || die "export: baseline..$BRANCH has merges"
	n=$(gk rev-list --count "baseline..$BRANCH")
	tmp=$(mktemp -d)
	blurb=$tmp/blurb
	parse_cover "$PATCHES/$COVER" "$blurb"

	# Every added file must have a home among the copy folders.
	mapfile -t added < <(gk diff --no-renames --name-only --diff-filter=A "baseline" "$BRANCH")
	for f in "${added[@]}"; do
		in_copy_dirs "$f" || die "export: the series adds $f, outside the copy folders (${COPY_DIRS[*]}); extend COPY_DIRS in $0"
	done

	if [ "$n" -gt 0 ]; then
		# A fixed --abbrev: git's default grows with the object count,
		# and a fresh tree would rewrite every index line.
		gk format-patch -q --cover-letter --zero-commit --no-renames --abbrev=9 \
			--subject-prefix="$cov_prefix" -o "$tmp/out" "baseline..$BRANCH" >/dev/null
		# Keep the hand-written subject and blurb; date it like the last
		# patch so that an unchanged branch exports byte-identical files.
		date=$(gk log -1 --format=%aD "$BRANCH")
		SUBJ=$cov_subject DATE=$date BLURB=$blurb awk '
			BEGIN { while ((getline l < ENVIRON["BLURB"]) > 0) bl = bl (nb++ ? "\n" : "") l }
			!h && /^$/ { h = 1 }
			!h && /^Date: / { $0 = "Date: " ENVIRON["DATE"] }
			!h && /^Subject: / && ENVIRON["SUBJ"] != "" && (k = index($0, "*** SUBJECT HERE ***")) {
				$0 = substr($0, 1, k - 1) ENVIRON["SUBJ"] substr($0, k + 20)
			}
			h && $0 == "*** BLURB HERE ***" && nb { $0 = bl }
			{ print }' "$tmp/out/$COVER" > "$tmp/cover"
		mv "$tmp/cover" "$tmp/out/$COVER"
		[ -n "$cov_subject" ] || log "export: the cover letter has no subject yet: edit patches/$COVER"
	fi

	mkdir -p "$PATCHES"
	for f in "$PATCHES"/*.patch; do
		[ -e "$f" ] || continue
		# With no patches, a hand-written cover letter stays as it is.
		[ "$n" = 0 ] && [ "${f##*/}" = "$COVER" ] && continue
		rm -f "$f"
	done
	if [ "$n" -gt 0 ]; then
		mv "$tmp"/out/*.patch "$PATCHES"/
		for f in "$PATCHES"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ "${f##*/}" = "$COVER" ] || printf '%s\n' "${f##*/}"
		done > "$SERIES"
	else
		: > "$SERIES"
		rmdir "$PATCHES" 2>/dev/null || true
	fi

	# Refresh the copies: write every added file, drop those no longer added.
	printf '%s\n' "${added[@]}" > "$tmp/added"
	while IFS= read -r f; do
		grep -qxF -- "$f" "$tmp/added" && continue
		log "export: removing copy $f (no longer added by the series)"
		rm -f "$TOP/$f"
	done < <(repo_copies)
	for f in "${added[@]}"; do
		mode=$(gk ls-tree "$BRANCH" -- "$f" | awk '{print $1}')
		case $mode in
		100644|100755) ;;
		*) die "export: $f has git mode $mode; only regular files can be copied" ;;
		esac
		mkdir -p "$(dirname "$TOP/$f")"
		gk cat-file blob "$BRANCH:$f" > "$TOP/$f"
		if [ "$mode" = 100755 ]; then chmod 755 "$TOP/$f"; else chmod 644 "$TOP/$f"; fi
	done
	for f in "${COPY_DIRS[@]}"; do
		[ -d "$TOP/$f" ] && find "$TOP/$f" -depth -type d -empty -delete
	done
	rm -rf "$tmp"
	log "export: $n patches in patches/, ${#added[@]} copies; review with git status"
}

cmd_check() {
	local bad=0 p f k num tree mode want got
	local tmp
	need_tree
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT

	# 1. `series' against patches/*.patch.
	read_series
	printf '%s\n' "${list[@]}" | sed '/^$/d' > "$tmp/listed"
	(cd "$PATCHES" 2>/dev/null && ls -- *.patch 2>/dev/null || true) |
		grep -vxF "$COVER" | LC_ALL=C sort > "$tmp/files" || true
	if ! diff -u --label "patches/*.patch (file-name order)" --label "series" \
			"$tmp/files" "$tmp/listed" > "$tmp/d"; then
		echo "FAIL series: \`series' and patches/ disagree (every patch but the cover letter listed, in file-name order):" >&2
		cat "$tmp/d" >&2
		bad=1
	fi
	k=0
	for p in "${list[@]}"; do
		k=$((k + 1))
		num=$(printf '%04d' "$k")
		case $p in
		"$num"-*.patch) ;;
		*) echo "FAIL series: entry $k is $p, expected $num-*.patch" >&2; bad=1 ;;
		esac
	done
	if [ "${#list[@]}" -gt 0 ] && [ -f "$PATCHES/$COVER" ] &&
	   ! grep -qE "^Subject: \[.* 0/${#list[@]}\]" "$PATCHES/$COVER"; then
		echo "FAIL series: patches/$COVER is not \"[... 0/${#list[@]}]\"; run scripts/setup/series.sh export" >&2
		bad=1
	fi
	if [ $bad != 0 ]; then
		echo "check: FAILED (fix series/patches first)" >&2
		return 1
	fi

	# 2. What the patches create, applied to baseline in a temporary index.
	tree=$(series_tree) || { echo "check: FAILED" >&2; return 1; }
	gk diff --no-renames --name-only --diff-filter=A baseline "$tree" > "$tmp/added"

	# 3. Each added file against its copy.
	while IFS= read -r f; do
		if ! in_copy_dirs "$f"; then
			echo "FAIL copies: the series adds $f, outside the copy folders (${COPY_DIRS[*]})" >&2
			bad=1
			continue
		fi
		if [ ! -f "$TOP/$f" ]; then
			echo "FAIL copies: $f is added by the series but has no copy (run scripts/setup/series.sh export)" >&2
			bad=1
			continue
		fi
		gk cat-file blob "$tree:$f" > "$tmp/blob"
		if ! cmp -s "$tmp/blob" "$TOP/$f"; then
			echo "FAIL copies: $f differs from what the series creates (- series, + copy):" >&2
			diff -u --label "a/$f (series)" --label "b/$f (copy)" "$tmp/blob" "$TOP/$f" >&2 || true
			bad=1
		fi
		mode=$(gk ls-tree "$tree" -- "$f" | awk '{print $1}')
		want=644 got=644
		[ "$mode" = 100755 ] && want=755
		[ -x "$TOP/$f" ] && got=755
		if [ "$want" != "$got" ]; then
			echo "FAIL copies: $f is mode $got, the series creates it $want" >&2
			bad=1
		fi
	done < "$tmp/added"

	# 4. Nothing else under the copy folders.
	while IFS= read -r f; do
		grep -qxF -- "$f" "$tmp/added" && continue
		echo "FAIL copies: $f is not a file the series adds (copies only; remove it or add it to the series)" >&2
		bad=1
	done < <(repo_copies)

	# Not a failure: the kernel branch may hold work not exported yet.
	if gk rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null &&
	   [ "$(gk rev-parse "$BRANCH^{tree}")" != "$tree" ]; then
		log "check: note: branch $BRANCH in $BASE_DIR differs from the patches (run scripts/setup/series.sh export or apply)"
	fi
	if [ $bad != 0 ]; then
		echo "check: FAILED" >&2
		return 1
	fi
	echo "check: OK (${#list[@]} patches, $(wc -l < "$tmp/added") copies)"
}

cmd_tree() {
	need_tree
	series_tree
}

# In a temporary copy of this repo (same kernel tree), add two synthetic
# patches that create files, then break things one at a time and expect
# `check' to fail, and to pass again once repaired.
cmd_selftest_check() {
	local tmp r t n base tree0 tree1 tree2 c0 c1 c2 idx blob f real pass=0
	need_tree
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	r=$tmp/repo
	mkdir -p "$r"
	git -C "$r" init -q
	(cd "$TOP" && git ls-files -co --exclude-standard -z | tar --null -T - -cf -) | tar -xf - -C "$r"
	t=$r/scripts/setup/series.sh
	export WORK

	ok() {
		pass=$((pass + 1))
		log "selftest-check: ok: $*"
	}
	# expect pass WHAT | expect fail PATTERN WHAT: PATTERN must be in the
	# output, so that check fails for the right reason.
	expect() {
		local want=$1 pat='' rc=0
		shift
		[ "$want" = fail ] && { pat=$1; shift; }
		"$t" check > "$tmp/log" 2>&1 || rc=$?
		if [ "$want" = pass ] && [ $rc != 0 ]; then
			cat "$tmp/log" >&2
			die "selftest-check: check failed on: $* (expected it to pass)"
		fi
		if [ "$want" = fail ] && [ $rc = 0 ]; then
			cat "$tmp/log" >&2
			die "selftest-check: check passed on: $* (expected it to fail)"
		fi
		if [ "$want" = fail ] && ! grep -qF -- "$pat" "$tmp/log"; then
			cat "$tmp/log" >&2
			die "selftest-check: check failed on: $*, but without \"$pat\""
		fi
		if [ "$want" = pass ]; then ok "check passes on: $*"; else ok "check fails on: $*"; fi
	}

	expect pass "an unchanged copy of the repo"

	# A copy of the real series, if it has one.
	real=$(TOP=$r; repo_copies | sed -n 1p)
	if [ -n "$real" ]; then
		cp -p "$r/$real" "$tmp/saved"
		echo "/* selftest edit */" >> "$r/$real"
		expect fail "FAIL copies: $real differs" "an edited copy of $real"
		cp -p "$tmp/saved" "$r/$real"
		expect pass "$real restored"
	fi

	# Two synthetic patches on top of the real series, made from git
	# objects only (no checkout in $BASE_DIR).
	n=$(SERIES=$r/series; series_list | wc -l)
	base=$(gk rev-parse baseline)
	tree0=$("$t" tree)
	export GIT_AUTHOR_NAME=selftest GIT_AUTHOR_EMAIL=selftest@localhost
	export GIT_COMMITTER_NAME=selftest GIT_COMMITTER_EMAIL=selftest@localhost
	export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
	c0=$(echo "the real series, squashed" | gk commit-tree "$tree0" -p "$base")
	idx=$tmp/index
	GIT_INDEX_FILE=$idx gk read-tree "$tree0"
	blob=$(printf 'series selftest\nline 2\n' | gk hash-object -w --stdin)
	GIT_INDEX_FILE=$idx gk update-index --add --cacheinfo "100644,$blob,tools/testing/series-selftest/a.txt"
	tree1=$(GIT_INDEX_FILE=$idx gk write-tree)
	c1=$(echo "selftest: add a.txt" | gk commit-tree "$tree1" -p "$c0")
	blob=$(printf '#!/bin/sh\necho selftest\n' | gk hash-object -w --stdin)
	GIT_INDEX_FILE=$idx gk update-index --add --cacheinfo "100755,$blob,drivers/series-selftest/b.sh"
	tree2=$(GIT_INDEX_FILE=$idx gk write-tree)
	c2=$(echo "selftest: add b.sh" | gk commit-tree "$tree2" -p "$c1")
	unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
	unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
	mkdir -p "$r/patches"
	gk format-patch --zero-commit --start-number=$((n + 1)) -o "$r/patches" "$c0..$c2" |
		sed 's|.*/||' >> "$r/series"
	# A cover letter, if any, must count them.
	[ -f "$r/patches/$COVER" ] &&
		sed -i -E "s|^(Subject: \[.*) 0/[0-9]+\]|\1 0/$((n + 2))]|" "$r/patches/$COVER"
	mkdir -p "$r/tools/testing/series-selftest" "$r/drivers/series-selftest"
	gk cat-file blob "$c2:tools/testing/series-selftest/a.txt" > "$r/tools/testing/series-selftest/a.txt"
	gk cat-file blob "$c2:drivers/series-selftest/b.sh" > "$r/drivers/series-selftest/b.sh"
	chmod 755 "$r/drivers/series-selftest/b.sh"
	expect pass "two synthetic patches adding tools/testing/series-selftest/a.txt and drivers/series-selftest/b.sh"

	f=$r/tools/testing/series-selftest/a.txt
	cp -p "$f" "$tmp/saved"
	sed -i 's/line 2/line two/' "$f"
	expect fail "+line two" "an edited copy (a.txt)"
	cp -p "$tmp/saved" "$f"
	expect pass "a.txt restored"
	rm "$f"
	expect fail "a.txt is added by the series but has no copy" "a missing copy (a.txt)"
	cp -p "$tmp/saved" "$f"
	chmod 644 "$r/drivers/series-selftest/b.sh"
	expect fail "b.sh is mode 644" "a copy with the wrong mode (b.sh)"
	chmod 755 "$r/drivers/series-selftest/b.sh"
	mkdir -p "$r/include"
	echo "stray" > "$r/include/series-selftest-stray.h"
	expect fail "include/series-selftest-stray.h is not a file the series adds" "a stray file include/series-selftest-stray.h"
	rm "$r/include/series-selftest-stray.h"
	cp "$r/series" "$tmp/series"
	sed -i '$d' "$r/series"
	expect fail "-$(printf %04d $((n + 2)))-" "a patch missing from series"
	{ head -n "$n" "$tmp/series"; tail -n 1 "$tmp/series"; tail -n 2 "$tmp/series" | sed -n 1p; } > "$r/series"
	expect fail "expected $(printf %04d $((n + 1)))-*.patch" "series in the wrong order"
	{ cat "$tmp/series"; echo "9999-missing.patch"; } > "$r/series"
	expect fail "+9999-missing.patch" "a listed patch that does not exist"
	cp "$tmp/series" "$r/series"
	sed -i 's/^+line 2$/+line 2 changed/' "$r/patches/$(tail -n 2 "$tmp/series" | sed -n 1p)"
	expect fail "-line 2 changed" "a patch edited so that it no longer matches its copy"
	sed -i 's/^+line 2 changed$/+line 2/' "$r/patches/$(tail -n 2 "$tmp/series" | sed -n 1p)"
	sed -i 's/^@@ -0,0 +1,2 @@/@@ -0,0 +1,3 @@/' "$r/patches/$(tail -n 2 "$tmp/series" | sed -n 1p)"
	expect fail "$(printf %04d $((n + 1)))-selftest-add-a.txt.patch does not apply" "a patch that does not apply"
	sed -i 's/^@@ -0,0 +1,3 @@/@@ -0,0 +1,2 @@/' "$r/patches/$(tail -n 2 "$tmp/series" | sed -n 1p)"
	expect pass "everything restored"
	echo "selftest-check: $pass passed, 0 failed"
}

case ${1:-} in
apply) cmd_apply ;;
export) cmd_export ;;
check) cmd_check ;;
tree) cmd_tree ;;
selftest-check) cmd_selftest_check ;;
*) sed -n '4,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
