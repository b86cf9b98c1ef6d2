#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# baseline.sh - fetch the pinned baseline kernel tree and make it a git repo.
#
# Takes the Debian mirror from this machine's apt configuration, downloads
# $BASE_PKG=$BASE_VER from $BASE_SUITE with a temporary apt config (its own
# source list and state folders under $WORK/apt), unpacks it and commits it
# as branch "baseline" in $BASE_DIR. Nothing is installed system-wide.
# A second run reuses the tree in seconds.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

if git -C "$BASE_DIR" rev-parse -q --verify baseline >/dev/null 2>&1; then
	log "baseline: reusing $BASE_DIR ($(git -C "$BASE_DIR" log -1 --format=%s baseline))"
	exit 0
fi

APT=$WORK/apt
temp_apt "$APT"
mkdir -p "$APT/deb"

cat > "$APT/etc/sources.list" <<EOT
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $BASE_SUITE main
EOT
log "baseline: apt-get update ($BASE_SUITE, temporary config)"
apt-get "${aptopts[@]}" -qq update
avail=$(apt-cache "${aptopts[@]}" madison "$BASE_PKG" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | tr '\n' ' ')
case " $avail " in
*" $BASE_VER "*) ;;
*) die "$BASE_PKG $BASE_VER is no longer in $BASE_SUITE; available: ${avail:-none}. Update BASE_VER in scripts/lib/common.sh and re-test the series." ;;
esac

log "baseline: apt-get download $BASE_PKG=$BASE_VER"
(cd "$APT/deb" && apt-get "${aptopts[@]}" -qq download "$BASE_PKG=$BASE_VER")
deb=$(ls "$APT"/deb/*.deb)
dpkg-deb -x "$deb" "$APT/x"
tarball=$(ls "$APT"/x/usr/src/linux-source-*.tar.*)

log "baseline: unpacking $(basename "$tarball")"
rm -rf "$BASE_DIR" "$BASE_DIR.tmp"
mkdir -p "$BASE_DIR.tmp"
tar -xf "$tarball" -C "$BASE_DIR.tmp"
mv "$BASE_DIR.tmp"/linux-source-* "$BASE_DIR"
rmdir "$BASE_DIR.tmp"
rm -rf "$APT/x" "$APT/deb"

log "baseline: git commit"
cd "$BASE_DIR"
git init -q -b baseline
git config user.name "$(git -C "$TOP" config user.name || echo harness)"
git config user.email "$(git -C "$TOP" config user.email || echo harness@localhost)"
git config core.autocrlf false
# Debian's top-level .gitignore ends with "/*": add everything by force.
git add -f -A
git commit -q -m "baseline: $BASE_PKG $BASE_VER ($BASE_SUITE)"
log "baseline: ready at $BASE_DIR"
