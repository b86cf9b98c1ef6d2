#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sparse.sh - build a sparse that understands the 7.3 tree and print its path.
#
# Usage: scripts/sparse.sh
#
# Bookworm's sparse 0.6.4 rejects the 7.3 headers (no __typeof_unqual__).
# This fetches the sparse SOURCE package from $SPARSE_SUITES (sid, else
# trixie) with a temporary apt config (own source list and state folders
# under $WORK/apt-src, mirror taken from this machine's apt configuration),
# unpacks it with dpkg-source and builds only the `sparse' binary with
# bookworm's compiler into $WORK/sparse. Nothing is installed system-wide
# except bookworm build tools. A second run reuses the binary in
# milliseconds. The binary's path is the only line printed on stdout.
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# = 0 ] || { sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

SPARSE_SUITES=${SPARSE_SUITES:-"sid trixie"}
SPARSE_MIN=0.6.5
OUT=$WORK/sparse
APT=$WORK/apt-src

# Install bookworm packages that are missing (apt-get update once first).
need_pkgs() {
	local p missing=()
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
			missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] && return 0
	log "apt-get install ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get -qq update >&2
	DEBIAN_FRONTEND=noninteractive apt-get -qq install -y \
		--no-install-recommends "${missing[@]}" >&2
}

# Does this sparse binary accept what the 7.3 headers use?
usable() {
	local bin=$1 t
	[ -x "$bin" ] || return 1
	t=$(mktemp -d)
	printf 'static const int a;\nstatic __typeof_unqual__(a) b;\nint f(void);\nint f(void) { b = 1; return b; }\n' > "$t/t.c"
	"$bin" "$t/t.c" > "$t/out" 2>&1 || true
	local rc=0
	grep -q 'error:' "$t/out" && rc=1
	rm -rf "$t"
	return $rc
}

if usable "$OUT/sparse"; then
	log "sparse: reusing $OUT/sparse ($(cat "$OUT/debian-version" 2>/dev/null))"
	echo "$OUT/sparse"
	exit 0
fi

need_pkgs ca-certificates dpkg-dev xz-utils gcc make libc6-dev

# The mirror: first Debian URI in the system's deb822 or one-line sources.
uri=$(awk 'tolower($1)=="uris:" {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
if [ -z "$uri" ]; then
	uri=$(grep -hE '^deb[[:space:]]' /etc/apt/sources.list.d/*.list /etc/apt/sources.list 2>/dev/null |
	      awk '$2 ~ /debian\/?$/ {print $2; exit}' || true)
fi
[ -n "$uri" ] || die "no Debian mirror found in /etc/apt/sources.list.d/"

rm -rf "$APT"
mkdir -p "$APT"/{lists/partial,cache/archives/partial,etc/preferences.d,src}
: > "$APT/status"
aptopts=(-o "Dir::Etc::SourceList=$APT/etc/sources.list"
	 -o "Dir::Etc::SourceParts=$APT/etc/none"
	 -o "Dir::Etc::Preferences=$APT/etc/preferences"
	 -o "Dir::Etc::PreferencesParts=$APT/etc/preferences.d"
	 -o "Dir::State=$APT" -o "Dir::State::Lists=$APT/lists"
	 -o "Dir::State::status=$APT/status"
	 -o "Dir::Cache=$APT/cache" -o "APT::Get::List-Cleanup=0"
	 -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root")

ver=
for suite in $SPARSE_SUITES; do
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" \
		> "$APT/etc/sources.list"
	log "sparse: apt-get update ($suite sources, temporary config)"
	apt-get "${aptopts[@]}" -qq update >&2 || { log "sparse: $suite: update failed"; continue; }
	ver=$(apt-cache "${aptopts[@]}" showsrc sparse 2>/dev/null | awk '$1=="Version:" {print $2}' |
	      sort -V | tail -n 1)
	if [ -n "$ver" ] && dpkg --compare-versions "$ver" ge "${SPARSE_MIN}~"; then
		break
	fi
	log "sparse: $suite has ${ver:-no} sparse, need >= $SPARSE_MIN"
	ver=
done
[ -n "$ver" ] || die "no sparse >= $SPARSE_MIN source package in: $SPARSE_SUITES"

log "sparse: apt-get source --download-only sparse=$ver ($suite)"
(cd "$APT/src" && apt-get "${aptopts[@]}" -qq source --download-only "sparse=$ver" >&2)
dsc=$(ls "$APT"/src/sparse_*.dsc)
rm -rf "$OUT" "$OUT.tmp"
dpkg-source --no-check -q -x "$dsc" "$OUT.tmp" >&2
# Only the checker itself: no gtk/llvm/sqlite/xml tools, so no extra deps.
log "sparse: make sparse ($ver) with $(gcc -dumpfullversion)"
# Debian's patch pins CC=gcc-16 (sid's default): use bookworm's gcc instead.
make -s -C "$OUT.tmp" -j"$JOBS" CC=gcc sparse > "$OUT.tmp.log" 2>&1 ||
	{ cat "$OUT.tmp.log" >&2; die "sparse: build failed"; }
rm -f "$OUT.tmp.log"
echo "$ver ($suite)" > "$OUT.tmp/debian-version"
mv "$OUT.tmp" "$OUT"
rm -rf "$APT/src"
usable "$OUT/sparse" || die "$OUT/sparse ($ver) does not accept __typeof_unqual__"
log "sparse: built $OUT/sparse ($ver from $suite; it calls itself $("$OUT/sparse" --version 2>&1))"
echo "$OUT/sparse"
