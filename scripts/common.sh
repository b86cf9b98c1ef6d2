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
# The benchmark matrix (scripts/bench.sh, scripts/host-bench.sh): the
# configurations and the fio job files of tools/bench/ run by default.
BENCH_CONFIGS="off auto c6off dmalat"
BENCH_WORKLOADS="qd1 qd1-think200us qd1-think20ms qd32"

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

# need_pkgs PKG... - apt-get install the bookworm packages that are missing
# (as root; the system's own apt configuration).
need_pkgs() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q ' installed$' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || die "missing packages: ${missing[*]} (run as root to install them)"
	log "apt-get install ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get -qq update >&2
	DEBIAN_FRONTEND=noninteractive apt-get -qq install -y \
		--no-install-recommends "${missing[@]}" >/dev/null
}

# hold_lock - hold $BUILD_LOCK (fd 9) for the rest of this process, unless
# an ancestor (`flock build.lock scripts/checks.sh', or checks.sh running
# series.sh) already holds it.
hold_lock() {
	local ino pid p
	mkdir -p "$(dirname "$BUILD_LOCK")"
	: >> "$BUILD_LOCK"
	ino=$(stat -c %i "$BUILD_LOCK")
	for pid in $(awk -v i="$ino" '$2 == "FLOCK" { n = split($6, a, ":"); if (a[n] == i) print $5 }' /proc/locks); do
		p=$$
		while [ -n "$p" ] && [ "$p" != 0 ]; do
			[ "$p" = "$pid" ] && return 0
			p=$(awk '$1 == "PPid:" {print $2}' "/proc/$p/status" 2>/dev/null || true)
		done
	done
	exec 9>>"$BUILD_LOCK"
	flock -n 9 || { log "waiting for $BUILD_LOCK"; flock 9; }
}
release_lock() {
	{ exec 9>&-; } 2>/dev/null || true
}

# temp_apt DIR - a temporary apt configuration in DIR that reads only
# DIR/etc/sources.list (written by the caller) and keeps its state there:
# sets MIRROR (the first Debian URI of the system's sources in
# /etc/apt/sources.list.d/) and the array aptopts for apt-get/apt-cache.
temp_apt() {
	local dir=$1
	MIRROR=$(awk 'tolower($1)=="uris:" {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
	if [ -z "$MIRROR" ]; then
		MIRROR=$(grep -hE '^deb[[:space:]]' /etc/apt/sources.list.d/*.list /etc/apt/sources.list 2>/dev/null |
			 awk '$2 ~ /debian\/?$/ {print $2; exit}' || true)
	fi
	[ -n "$MIRROR" ] || die "no Debian mirror found in /etc/apt/sources.list.d/"
	rm -rf "$dir"
	mkdir -p "$dir"/{lists/partial,cache/archives/partial,etc/preferences.d,etc/apt.conf.d}
	: > "$dir/status"
	aptopts=(-o "Dir::Etc::SourceList=$dir/etc/sources.list"
		 -o "Dir::Etc::SourceParts=$dir/etc/none"
		 -o "Dir::Etc::Preferences=$dir/etc/preferences"
		 -o "Dir::Etc::PreferencesParts=$dir/etc/preferences.d"
		 -o "Dir::State=$dir" -o "Dir::State::Lists=$dir/lists"
		 -o "Dir::State::status=$dir/status"
		 -o "Dir::Cache=$dir/cache" -o "APT::Get::List-Cleanup=0"
		 -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")
}

# own_out DIR MARK - make DIR an empty output folder owned by the calling
# script: an existing DIR is replaced only when it is empty or holds MARK
# (left by an earlier run of a script using MARK); otherwise die.
own_out() {
	local dir=$1 mark=$2
	if [ -e "$dir" ]; then
		if [ -f "$dir/$mark" ] || [ -z "$(ls -A "$dir")" ]; then
			rm -rf "$dir"
		else
			die "$dir exists and was not made by $(basename "$0"): choose another --out"
		fi
	fi
	mkdir -p "$dir"
	touch "$dir/$mark"
}
