#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sparse.sh - build a sparse that understands the 7.3 tree and print its path.
#
# Usage: scripts/setup/sparse.sh
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
. "$(dirname "$0")/../lib/common.sh"

[ $# = 0 ] || { sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

SPARSE_SUITES=${SPARSE_SUITES:-"sid trixie"}
SPARSE_MIN=0.6.5
OUT=$WORK/sparse
APT=$WORK/apt-src

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

temp_apt "$APT"
mkdir -p "$APT/src"

ver=
for suite in $SPARSE_SUITES; do
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $suite main" \
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
