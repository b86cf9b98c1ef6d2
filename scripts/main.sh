#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# main.sh - the project's main job (README.md), from a fresh clone: fetch
# the pinned baseline, apply the series, build the patched test kernel,
# boot it under QEMU with emulated C-states and show the effect: the
# benchmark matrix of scripts/bench.sh (attribute off, auto, C6 disabled,
# /dev/cpu_dma_latency, idle=poll; menu and teo), printed as a Markdown
# table and written with a figure to results/bench/.
#
# Usage: scripts/main.sh [bench.sh options, e.g. --quick or --table amd]
set -euo pipefail
. "$(dirname "$0")/common.sh"

"$TOP/scripts/deps.sh"
"$TOP/scripts/baseline.sh"
"$TOP/scripts/series.sh" apply
"$TOP/scripts/build.sh" test
exec "$TOP/scripts/bench.sh" "$@"
