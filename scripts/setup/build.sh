#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh test|debug - configure and build the guest kernel from the tree
# checked out in $BASE_DIR (normally branch `series'): the test kernel in
# $BUILD (scripts/configs/test.config) or the debug kernel in $BUILD_DEBUG
# (test.config + debug.config). Incremental when the build folder exists.
# Holds $BUILD_LOCK: never two kernel builds at once. A successful build
# leaves BUILD_DIR/series-stamp (the commit built, and whether the tree was
# clean; see stamp_check in common.sh): guest.sh boots nothing else.
# TEST_CONFIG, when set, replaces scripts/configs/test.config (the
# --series-commit of a benchmark builds an older series with its own);
# BUILD_OUT, when set, replaces $BUILD as the test kernel's folder (the
# same, in its own folder and worktree: series_commit_build in series-build.sh).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

case ${1:-} in
test)	b=${BUILD_OUT:-$BUILD}; frags=("${TEST_CONFIG:-$TOP/scripts/configs/test.config}") ;;
debug)	b=$BUILD_DEBUG; frags=("${TEST_CONFIG:-$TOP/scripts/configs/test.config}" "$TOP/scripts/configs/debug.config") ;;
*)	die "usage: build.sh test|debug" ;;
esac

[ -d "$BASE_DIR" ] || die "no kernel tree in $BASE_DIR (run scripts/setup/baseline.sh)"
mkdir -p "$WORK" "$(dirname "$BUILD_LOCK")"
exec 9> "$BUILD_LOCK"
flock 9
mkdir -p "$b"
stamp_clear "$b"
state=$(tree_state) || die "$BASE_DIR: no commit checked out"
"$TOP/scripts/setup/kconfig.sh" "$BASE_DIR" "$b" "${frags[@]}"
log "build: $1 kernel in $b (-j$JOBS) from ${state% *} (${state#* } tree)"
make -s -C "$BASE_DIR" O="$b" -j"$JOBS" > "$b/build.log" 2>&1 || {
	tail -40 "$b/build.log" >&2
	die "build: $1 kernel failed (log: $b/build.log)"
}
stamp_write "$b" "$state" || die "build: $BASE_DIR changed during the build; build again"
log "build: $(make -s -C "$BASE_DIR" O="$b" kernelrelease) in $b/arch/x86/boot/bzImage"
