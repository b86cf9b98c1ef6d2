# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts; sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
WORK=${WORK:-$TOP/work}
RESULTS=${RESULTS:-$TOP/results}

# Pinned baseline: Debian's linux-source-7.3 from trixie-backports.
BASE_PKG=linux-source-7.3
BASE_VER=7.3.4-1~bpo13+1
BASE_SUITE=trixie-backports
BASE_DIR=${BASE_DIR:-$WORK/linux}          # git tree: branch "baseline" + branch "series"
BUILD=$WORK/build-test          # O= folder of the test kernel
BUILD_DEBUG=$WORK/build-debug   # O= folder of the debug kernel
# Held by every kernel build (2 cores: never two at once); override to share
# one lock between several clones on a machine.
BUILD_LOCK=${BUILD_LOCK:-$WORK/build.lock}
JOBS=${JOBS:-$(nproc)}

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a command and append "name<TAB>seconds" to $WORK/timings.tsv.
timed() {
	local name=$1 s e rc
	shift
	s=$(date +%s)
	"$@"
	rc=$?
	e=$(date +%s)
	mkdir -p "$WORK"
	printf '%s\t%d\n' "$name" "$((e - s))" >> "$WORK/timings.tsv"
	return $rc
}
