#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series-build.sh - sourced (after common.sh) by the benchmarks that build a
# kernel other than the test kernel of branch series: another commit's
# series (--series-commit: bench.sh, raise-cost.sh, scale.sh) or a branch
# made on top of series (hold-sweep.sh, hook-cost.sh --variant). These
# helpers call scripts/setup/build.sh, which itself sources only common.sh: kept
# apart so that common.sh calls no script that sources it.

# need_clean_series - die unless branch series is checked out in $BASE_DIR,
# without changes: the benchmarks that build other branches into $BUILD
# start from it and go back to it (back_to_series).
need_clean_series() {
	[ "$(tree_state)" = "$(git -C "$BASE_DIR" rev-parse series) clean" ] ||
		die "$BASE_DIR: check out branch series, clean (scripts/setup/series.sh apply)"
}

# back_to_series WHO - check branch series out again in $BASE_DIR (ending a
# git am left half done) and rebuild the test kernel from it; the EXIT trap
# of those benchmarks. WHO names the caller in the log.
back_to_series() {
	git -C "$BASE_DIR" am --abort > /dev/null 2>&1 || true
	git -C "$BASE_DIR" checkout -q series
	log "$1: branch series checked out again; rebuilding the test kernel"
	"$TOP/scripts/setup/build.sh" test
}

# series_commit_build WHO C BUILDDIR - for a benchmark's --series-commit C:
# the series this repository held at commit C (its series file and
# patches/), applied with git am to the baseline in a worktree of its own,
# $WORK/series-SHORT/linux (branch series-SHORT), and its test kernel (with
# the test config of commit C: the series' Kconfig symbols changed name in
# v3) built in $WORK/series-SHORT/build. Branch series and $BUILD are not
# touched; a second run reuses both (incremental build). BUILDDIR is the
# benchmark's --build, which must be the default $BUILD. Sets build (to
# the new folder), short (C abbreviated) and kernel (its label for
# run.txt), and exports BASE_DIR and SERIES_BRANCH for the scripts the
# benchmark calls (build stamps and guest.sh).
series_commit_build() {
	local who=$1 c=$2 n=0 p wt pdir from
	git -C "$TOP" cat-file -e "$c:series" 2>/dev/null || die "--series-commit: no series file at $c"
	[ "$3" = "$BUILD" ] || die "--series-commit builds its own kernel: no --build with it"
	c=$(git -C "$TOP" rev-parse "$c^{commit}")
	short=$(git -C "$TOP" rev-parse --short "$c")
	wt=$WORK/series-$short/linux
	from=$WORK/series-$short/from
	if [ "$(cat "$from" 2>/dev/null)" != "$c" ] || [ ! -d "$wt" ]; then
		pdir=$(mktemp -d)
		for p in $(git -C "$TOP" show "$c:series" | series_names); do
			n=$((n + 1))
			git -C "$TOP" show "$c:patches/$p" > "$pdir/$(printf '%04d' $n)-$p"
		done
		rm -f "$from"
		git -C "$BASE_DIR" worktree remove --force "$wt" > /dev/null 2>&1 || rm -rf "$wt"
		git -C "$BASE_DIR" worktree prune
		mkdir -p "$(dirname "$wt")"
		git -C "$BASE_DIR" worktree add -q -B "series-$short" "$wt" baseline ||
			die "--series-commit: cannot make the worktree $wt"
		if ! git -C "$wt" am -q "$pdir"/*.patch; then
			git -C "$wt" am --abort > /dev/null 2>&1 || true
			rm -rf "$pdir"
			die "--series-commit: the series of $c does not apply to baseline"
		fi
		git -C "$TOP" show "$c:scripts/configs/test.config" > "$WORK/series-$short/test.config"
		rm -rf "$pdir"
		echo "$c" > "$from"
	fi
	n=$(git -C "$wt" rev-list --count baseline..HEAD)
	build=$WORK/series-$short/build
	log "$who: the series of commit $short in $wt, kernel in $build"
	BASE_DIR=$wt TEST_CONFIG=$WORK/series-$short/test.config BUILD_OUT=$build \
		"$TOP/scripts/setup/build.sh" test
	export BASE_DIR=$wt SERIES_BRANCH=series-$short
	kernel="the $n patches of commit $short of this repository on linux-source-7.3 $BASE_VER (test config)"
}
