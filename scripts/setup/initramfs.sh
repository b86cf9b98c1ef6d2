#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# initramfs.sh BUILD_DIR OUT.cpio.gz - the test guest's initramfs.
#
# Contents: busybox-static (every applet as a link), bash, fio, e2fsprogs'
# mke2fs as /sbin/mkfs.ext4 (busybox's mke2fs makes no journal, and its
# shell prefers its own applets to a file of the same name;
# scripts/bench/fsync.sh formats ext4) with /etc/mke2fs.conf, and the
# shared libraries ldd lists for them, the kernel modules of BUILD_DIR (an
# O= kernel build; modules_install with INSTALL_MOD_STRIP=1, under $BUILD_LOCK),
# /init from tools/guest/init, /etc/passwd and /etc/group with root and the
# unprivileged user nobody (uid/gid 65534).
#
# Running a command as nobody in the guest: bookworm's busybox-static has no
# chpst and its setpriv cannot change uids, but its su works for root
# without a password: su -s /bin/sh nobody -c 'CMD' (tools/guest/lib.sh:
# as_nobody).
#
# OUT is rebuilt only when an input changed: OUT.stamp holds a hash of the
# inputs (this script, the init, the binaries and libraries, the kernel
# release, .config and the module files of BUILD_DIR).
#
# Installs busybox-static, fio, e2fsprogs, cpio, kmod and make when missing
# (as root).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

usage() {
	sed -n '4,4s/^# //p' "$0" >&2
	exit 2
}

[ $# -eq 2 ] || usage
[ -d "$1" ] || die "no kernel build folder $1"
build=$(realpath "$1")
out=$(realpath -m "$2")
[ -f "$build/.config" ] || die "$build has no .config"
[ -f "$build/include/config/kernel.release" ] || die "$build is not built (no kernel.release)"
init=$TOP/tools/guest/init
[ -f "$init" ] || die "no $init"

need_pkgs busybox-static fio e2fsprogs cpio kmod make gzip
busybox=$(command -v busybox) || die "busybox not found"
[ "$(realpath "$busybox")" = "$(realpath /bin/busybox)" ] || busybox=/bin/busybox
mke2fs=$(PATH=/usr/sbin:/sbin:$PATH command -v mke2fs) || die "mke2fs not found"
bins=("$busybox" "$(command -v fio)" "$(command -v bash)" "$mke2fs")

# libs BIN... - the shared libraries (and loader) ldd lists for BIN.
libs() {
	ldd "$@" 2>/dev/null |
		awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// && $1 !~ /:$/ {print $1}' |
		sort -u
}
mapfile -t libfiles < <(libs "${bins[1]}" "${bins[2]}" "${bins[3]}")

release=$(cat "$build/include/config/kernel.release")
modules=no
grep -q '^CONFIG_MODULES=y' "$build/.config" && modules=yes

# The stamp: a hash over every input.
stamp() {
	{
		sha256sum "$0" "$init" "${bins[@]}" "${libfiles[@]}" "$build/.config" \
			$([ ! -f /etc/mke2fs.conf ] || echo /etc/mke2fs.conf) |
			cut -d' ' -f1
		echo "release $release"
		if [ $modules = yes ] && [ -f "$build/modules.order" ]; then
			sed 's/\.o$/.ko/' "$build/modules.order" | (cd "$build" && xargs -r sha256sum)
		fi
	} | sha256sum | cut -d' ' -f1
}
want=$(stamp)
if [ -f "$out" ] && [ -f "$out.stamp" ] && [ "$(cat "$out.stamp")" = "$want" ]; then
	log "initramfs: $out is up to date"
	exit 0
fi

mkdir -p "$(dirname "$out")"
root=$(mktemp -d "$(dirname "$out")/.initramfs-root.XXXXXX")
chmod 0755 "$root"
# A temporary file of its own: two runs for the same OUT (guests of
# several scripts starting at once) must not write into one file.
tmp=$(mktemp "$out.tmp.XXXXXX")
trap 'rm -rf "$root" "$tmp"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,mnt,etc,root,lib,lib64}
cp "$busybox" "$root/bin/busybox"
for a in $("$root/bin/busybox" --list); do
	[ -e "$root/bin/$a" ] || ln -s busybox "$root/bin/$a"
done
cp "${bins[1]}" "$root/usr/bin/fio"
rm -f "$root/bin/bash"
cp "${bins[2]}" "$root/bin/bash"
cp "${bins[3]}" "$root/sbin/mkfs.ext4"
[ ! -f /etc/mke2fs.conf ] || cp /etc/mke2fs.conf "$root/etc/mke2fs.conf"
for lib in "${libfiles[@]}"; do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
install -m 0755 "$init" "$root/init"

cat > "$root/etc/passwd" <<EOT
root:x:0:0:root:/root:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/sh
EOT
cat > "$root/etc/group" <<EOT
root:x:0:
nogroup:x:65534:
EOT
printf '/bin/sh\n/bin/bash\n' > "$root/etc/shells"

if [ $modules = yes ]; then
	log "initramfs: modules_install from $build (waits for $BUILD_LOCK)"
	mkdir -p "$WORK"
	flock "$BUILD_LOCK" make -s -C "$build" INSTALL_MOD_PATH="$root" \
		INSTALL_MOD_STRIP=1 modules_install >/dev/null ||
		die "modules_install from $build failed"
	[ -d "$root/lib/modules/$release" ] || die "modules_install left no lib/modules/$release"
	# Links back into the build folder are of no use in the guest.
	rm -f "$root/lib/modules/$release/build" "$root/lib/modules/$release/source"
fi

(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet -R 0:0 | gzip -1) > "$tmp"
chmod 0644 "$tmp"
mv "$tmp" "$out"
echo "$want" > "$out.stamp"
log "initramfs: $out ($(du -h "$out" | cut -f1), kernel $release)"
