#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kconfig.sh SRC BUILD FRAGMENT... - make a guest .config in BUILD:
# allnoconfig with KCONFIG_ALLCONFIG = kvm_guest.config + the fragments
# (later ones win), then check that every line of the fragments took effect.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
src=$(realpath "$1") b=$(realpath -m "$2")
shift 2
mkdir -p "$b"
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
set -- "${frags[@]}"
cat "$src/kernel/configs/kvm_guest.config" "$@" > "$b/allno.config"
make -s -C "$src" O="$b" KCONFIG_ALLCONFIG="$b/allno.config" allnoconfig 2>&1 |
	grep -v "override: reassigning to symbol" || true
# The last value of each symbol in the fragments is the one that counts.
bad=0
while IFS= read -r l; do
	sym=${l%%=*} val=${l#*=}
	got=$(grep "^$sym=" "$b/.config" || true)
	if [ "$val" = n ]; then
		[ -z "$got" ] || { echo "kconfig: wanted $l, got $got" >&2; bad=1; }
	elif [ "$got" != "$l" ]; then
		echo "kconfig: wanted $l, got ${got:-unset}" >&2
		bad=1
	fi
done < <(cat "$@" | grep -E '^CONFIG_' | tac | awk -F= '!seen[$1]++' | tac)
[ $bad = 0 ] || die "kconfig: fragment not applied in $b (see above)"
log "kconfig: $b/.config from $*"
