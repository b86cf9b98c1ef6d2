# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts; sourced, not run.
# shellcheck shell=bash

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=${WORK:-$TOP/work}
RESULTS=${RESULTS:-$TOP/results}

# Pinned baseline: Debian's linux-source-7.3 from trixie-backports.
BASE_PKG=linux-source-7.3
BASE_VER=7.3.4-1~bpo13+1
BASE_SUITE=trixie-backports
BASE_DIR=${BASE_DIR:-$WORK/linux}          # git tree: branch "baseline" + branch "series"
BUILD=$WORK/build-test          # O= folder of the test kernel (BUILD_OUT: build.sh only)
BUILD_DEBUG=$WORK/build-debug   # O= folder of the debug kernel
# Held by every kernel build (2 cores: never two at once); override to share
# one lock between several clones on a machine.
BUILD_LOCK=${BUILD_LOCK:-$WORK/build.lock}
JOBS=${JOBS:-$(nproc)}
# ---- the harness's defaults, in one place ----------------------------------
# DEFAULT_TABLE: the emulated C-state table of tools/emu-cstates that a run
# uses unless told otherwise (Sapphire Rapids); TABLES: every table
# emu_cstates has; KSELFTEST_TABLES: the tables the kselftest runs on;
# GOVERNORS: the idle governors a run covers (the first where a run takes
# one). scripts/qemu/guest.sh hands these to every guest on the kernel
# command line (harness_table=, harness_tables=, harness_governors=, read
# by tools/guest/lib.sh). BENCH_CONFIGS, BENCH_WORKLOADS: the benchmark
# matrix (scripts/bench/bench.sh, host-bench.sh; fio jobs of tools/bench/);
# THINKS: the think times of the think-time curve, in us.
DEFAULT_TABLE=spr
TABLES=spr,skx,icx,amd
KSELFTEST_TABLES=spr,amd
GOVERNORS=menu,teo
BENCH_CONFIGS="off auto c6off dmalat"
BENCH_WORKLOADS="qd1 qd1-think200us qd1-think20ms qd32"
THINKS=0,100,200,500,1000,2000,4000,7000,8000,9000,16000,32000

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# step_times FILE - "name s, name s, ..." of a timings.tsv that
# scripts/test.sh writes (a header line "step<TAB>seconds", then one line
# per step).
step_times() {
	awk -F'\t' 'NR > 1 { printf "%s%s %s", (n++ ? ", " : ""), $1, $2 }' "$1"
}

# repo_head - the short hash of this repository's HEAD. A script that
# writes a run.txt takes it when it starts (RUN_COMMIT=$(repo_head)) and
# writes that as commit=: a commit made while it runs is not the one it
# ran at.
repo_head() { git -C "$TOP" rev-parse --short HEAD; }

# pinning_text FILE - the QEMU thread pinning of scripts/qemu/qemu-pin.py's
# FILE ("name tid cpu policy" lines) as one line for a record, without the
# host's thread ids: "vcpu0 on host CPU 0 (other); ...".
pinning_text() {
	awk '{ printf "%s%s on host CPU %s (%s)", (NR > 1 ? "; " : ""), $1, $3, $4 }' "$1"
}

# timed NAME CMD... - run CMD and append "NAME<TAB>seconds" to $TIMINGS
# (a plain shell variable, default $WORK/timings.tsv; scripts/main.sh sets
# its own).
timed() {
	local name=$1 s e rc
	shift
	s=$(date +%s)
	"$@"
	rc=$?
	e=$(date +%s)
	mkdir -p "$WORK"
	[ -s "${TIMINGS:-$WORK/timings.tsv}" ] || printf 'step\tseconds\n' > "${TIMINGS:-$WORK/timings.tsv}"
	printf '%s\t%d\n' "$name" "$((e - s))" >> "${TIMINGS:-$WORK/timings.tsv}"
	return $rc
}

# need_pkgs PKG... - apt-get install the bookworm packages that are missing
# (as root; the system's own apt configuration).
need_pkgs() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep ' installed$' > /dev/null ||
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
# an ancestor (`flock build.lock scripts/checks/checks.sh', or checks.sh running
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

# ---- which tree a kernel build is from --------------------------------------
# scripts/setup/build.sh (and checks.sh, which builds the test kernel) leave
# BUILD_DIR/$STAMP naming the commit of $BASE_DIR that was built and whether
# the tree was clean; guest.sh boots a kernel only when its stamp names the
# current head of branch `series' ($SERIES_BRANCH), built from a clean tree.
STAMP=series-stamp

# tree_state - "COMMIT clean|dirty" of the tree checked out in $BASE_DIR
# (tracked files only).
tree_state() {
	local c d=clean
	c=$(git -C "$BASE_DIR" rev-parse -q --verify HEAD) || return 1
	[ -z "$(git -C "$BASE_DIR" status --porcelain --untracked-files=no)" ] || d=dirty
	echo "$c $d"
}

# series_names - the patch names of a quilt-style series file on stdin.
series_names() {
	sed -e 's/#.*//' | awk 'NF { print $1 }'
}

# tcg_platform VCPUS - "QEMU VERSION, TCG, VCPUS vCPUs on a N-core MODEL
# host", the start of a benchmark's platform line (run.txt).
tcg_platform() {
	printf 'QEMU %s, TCG, %s vCPUs on a %s-core %s host' \
		"$(qemu-system-x86_64 --version | sed -n '1s/^QEMU emulator version //p')" "$1" \
		"$(nproc)" "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sed -n 1p)"
}

# icount_platform N - the same for QEMU -icount (scripts/qemu/guest.sh --accel
# icount).
icount_platform() {
	tcg_platform "$1" | sed 's/, TCG, /, TCG -icount shift=0,sleep=off, /'
}

# SERIES_PATHS - what the series is in this repository: the patches and
# the series file, not the cover letter's text (git pathspecs).
SERIES_PATHS=(patches series ':!patches/0000-cover-letter.patch')

# series_commit - the last commit of this repository that changed the
# series (SERIES_PATHS), abbreviated.
series_commit() {
	git -C "$TOP" log -1 --format=%h -- "${SERIES_PATHS[@]}"
}

# series_kernel - which kernel a measurement ran: the series as of the last
# commit of this repository that changed it (series_commit), applied to
# the baseline.
series_kernel() {
	printf 'the %s patches of the series as of repository commit %s (kernel branch series %s) on linux-source-7.3 %s (test config)' \
		"$(git -C "$BASE_DIR" rev-list --count baseline..series)" \
		"$(series_commit)" \
		"$(git -C "$BASE_DIR" rev-parse --short series)" "$BASE_VER"
}

# record_tail TABLE START - the last keys of a benchmark's run.txt: the
# kernel measured, TABLE, the date, the repository commit ($RUN_COMMIT) and
# the seconds since START (a value of $SECONDS).
record_tail() {
	echo "kernel=$(series_kernel)"
	echo "table=$1"
	echo "date=$(date -u +%Y-%m-%d)"
	echo "commit=$RUN_COMMIT"
	echo "wall_s=$((SECONDS - $2))"
}

# stamp_clear DIR - the build in DIR is about to change: no valid stamp.
stamp_clear() {
	rm -f "$1/$STAMP"
}

# stamp_write DIR STATE - after a successful build of STATE (tree_state as
# it was when the build started): stamp DIR, unless the tree changed
# meanwhile.
stamp_write() {
	local now
	now=$(tree_state) || return 1
	if [ "$now" != "$2" ]; then
		log "stamp: $BASE_DIR changed during the build ($2 -> $now): $1 not stamped"
		return 1
	fi
	printf 'commit=%s\ntree=%s\nbuilt=%s\n' "${2% *}" "${2#* }" "$(date -u +%FT%TZ)" > "$1/$STAMP"
}

# stamp_check DIR - succeed when DIR holds a clean build of the current head
# of branch `series'; else say why on stderr and fail.
stamp_check() {
	local dir=$1 br=${SERIES_BRANCH:-series} want got tree
	want=$(git -C "$BASE_DIR" rev-parse -q --verify "refs/heads/$br") ||
		{ echo "no branch $br in $BASE_DIR" >&2; return 1; }
	if [ ! -f "$dir/$STAMP" ]; then
		echo "$dir has no $STAMP: its last build failed, was interrupted or did not go through scripts/setup/build.sh; rebuild it (scripts/setup/build.sh)" >&2
		return 1
	fi
	got=$(sed -n 's/^commit=//p' "$dir/$STAMP")
	tree=$(sed -n 's/^tree=//p' "$dir/$STAMP")
	if [ "$got" != "$want" ]; then
		echo "$dir was built from ${got:-an unknown commit}, not from $br ($want) in $BASE_DIR; rebuild it (scripts/setup/build.sh)" >&2
		return 1
	fi
	if [ "$tree" != clean ]; then
		echo "$dir was built from $br with uncommitted changes in $BASE_DIR; rebuild it from a clean tree" >&2
		return 1
	fi
}

# ---- the kernel log of a guest run ------------------------------------------
# Kernel log lines that are a report: lockdep ("WARNING: possible circular
# locking dependency detected", ...), KASAN and KFENCE ("BUG: KASAN: ..."),
# might_sleep ("BUG: sleeping function called from invalid context",
# "BUG: scheduling while atomic"), WARN ("WARNING: file:line at ..."), any
# other BUG:, BUG() ("kernel BUG at"), Oops, panics, UBSAN, debugobjects
# (ODEBUG), list corruption (DEBUG_LIST), RCU stalls, hung tasks, soft and
# hard lockups, workqueue lockups/stalls, kmemleak's leak notice and
# kmemleak switching itself off.
REPORT_PAT='WARNING:|BUG:|kernel BUG at|Oops|general protection fault|Kernel panic|UBSAN:|ODEBUG:'
REPORT_PAT+='|list_(add|del) (corruption|double add)|detected (expedited )?stall|INFO: task .* blocked'
REPORT_PAT+='|soft lockup|hard LOCKUP|workqueue lockup|workqueue stall'
REPORT_PAT+='|INFO: trying to register non-static key|turning off the locking correctness validator'
REPORT_PAT+='|new suspected memory leak|Kernel memory leak detector disabled'

# scan_reports WHAT DIR [KNOWN] - the report scan of every guest run: the
# kernel lines ("[ seconds] ...", printk.time=1) of DIR/console.log, the
# whole serial console from the first boot message on, and of DIR/dmesg.txt
# when the guest saved one (the same line in both counts once), against
# REPORT_PAT. A console without the boot banner ("Linux version") fails:
# the log was not captured. Lines matching the regex KNOWN (a known report
# of the baseline kernel) are shown with their count but not counted.
# Prints one PASS or FAIL line (WHAT names the check) and the evidence,
# writes the report lines to DIR/reports.txt; fails on any report.
scan_reports() {
	local what=$1 dir=$2 known=${3:-} con=$2/console.log dm=$2/dmesg.txt
	local ts='\[ *[0-9]+\.[0-9]+\] ' src=console.log nlines n nk counts first
	if [ ! -s "$con" ]; then
		echo "FAIL $what: no console log ($con)"
		return 1
	fi
	if ! grep -aEq "${ts}Linux version " "$con"; then
		echo "FAIL $what: $con has no boot banner (\"Linux version\"): the kernel log was not captured"
		tail -n 5 "$con" | sed 's/^/    /'
		return 1
	fi
	[ ! -s "$dm" ] || src="$src + dmesg.txt"
	# From the last timestamp of a line on (user space output may precede
	# a kernel line on the console), without carriage returns.
	{ tr -d '\r' < "$con"; [ ! -s "$dm" ] || tr -d '\r' < "$dm"; } |
		grep -aE "$ts" | sed -E 's/.*(\[ *[0-9]+\.[0-9]+\] )/\1/' |
		awk '!seen[$0]++' > "$dir/kernel-lines.txt"
	nlines=$(wc -l < "$dir/kernel-lines.txt")
	grep -aE "$REPORT_PAT" "$dir/kernel-lines.txt" > "$dir/reports.txt" || true
	rm -f "$dir/kernel-lines.txt"
	nk=0
	if [ -n "$known" ]; then
		nk=$(grep -aEc "$known" "$dir/reports.txt" || true)
		grep -aEv "$known" "$dir/reports.txt" > "$dir/reports.tmp" || true
		mv "$dir/reports.tmp" "$dir/reports.txt"
	fi
	n=$(wc -l < "$dir/reports.txt")
	if [ "$n" = 0 ]; then
		echo "PASS $what: no lockdep, KASAN, might_sleep, WARN, BUG, Oops, ODEBUG, list corruption, RCU stall, hung task, lockup, workqueue stall or kmemleak report ($nlines kernel lines of $src)"
	else
		# Disjoint classes; a WARN() is "WARNING: file:line at function"
		# (older kernels: "WARNING: CPU: ..." or "WARNING: at ..."),
		# lockdep's reports are other "WARNING: ..." lines.
		counts=$(awk '
			/BUG: KASAN|BUG: KFENCE/ { c["KASAN"]++; next }
			/BUG: (sleeping function called from invalid context|scheduling while atomic)/ { c["might_sleep"]++; next }
			/WARNING: ([^ ]+:[0-9]+ at |CPU: |at )/ { c["WARN"]++; next }
			/WARNING:|INFO: trying to register non-static key|turning off the locking correctness validator/ { c["lockdep"]++; next }
			/INFO: task .* blocked|detected (expedited )?stall|soft lockup|hard LOCKUP|workqueue (lockup|stall)/ { c["hang/stall"]++; next }
			/memory leak/ { c["kmemleak"]++; next }
			/BUG:|kernel BUG at/ { c["BUG"]++; next }
			{ c["other"]++ }
			END { for (k in c) printf "%s %d, ", k, c[k] }' "$dir/reports.txt")
		# The first report in the FAIL line itself: CI shows the summary,
		# which keeps only the verdict lines.
		first=$(head -n 1 "$dir/reports.txt" | sed -E "s/^$ts//" | cut -c 1-160)
		echo "FAIL $what: $n report lines (${counts%, }) in $src, the first: \"$first\"; all in $dir/reports.txt:"
		head -n 10 "$dir/reports.txt" | sed 's/^/    /'
		echo "  the first report on the console (without '?' frames):"
		tr -d '\r' < "$con" | awk -v pat="$REPORT_PAT" -v known="$known" '
			$0 ~ pat && (known == "" || $0 !~ known) { p = 1 }
			p && !/\]  \? / { print "    " $0; n++ }
			n >= 60 || (p && /<\/TASK>|---\[ end trace/) { exit }'
	fi
	if [ "$nk" -gt 0 ]; then
		echo "  known baseline report, not counted: $nk lines matching '$known'"
	fi
	if grep -aq 'printk messages dropped' "$con"; then
		echo "  note: the console dropped printk messages; scanned: $src"
	fi
	[ "$n" = 0 ]
}
