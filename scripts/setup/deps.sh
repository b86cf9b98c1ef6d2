#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install what the harness needs on a fresh Debian bookworm
# machine (run as root), from the machine's own apt sources. Quick when
# everything is there already.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

PKGS=(bc bison build-essential busybox-static codespell cpio dwarves e2fsprogs fio flex
      kmod libelf-dev libssl-dev python3-git python3-ply
      qemu-system-x86 rsync xz-utils)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'install ok installed' > /dev/null ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi
log "deps: all installed"
