#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh --kernel BUILD_DIR --script GUEST_SCRIPT [--out DIR]
#          [--timeout SECONDS] [--append "KERNEL ARGS"] [--smp N]
#          [--maxcpus N]
#          [--accel auto|tcg|kvm|icount] [--isolate] [--lock] [--keep-share]
#
# Boots the kernel of BUILD_DIR (an O= build folder) in QEMU and runs
# GUEST_SCRIPT in it; exits with the script's exit code. Refuses a build
# whose stamp (scripts/setup/build.sh) does not name the current head of branch
# `series' in $BASE_DIR, built from a clean tree.
#
# GUEST_SCRIPT is a file on the host, a name in tools/guest/ (for example
# platform-selftest.sh) or selftests/block/NAME from the kernel tree.
#
# Steps:
#  1. builds the test modules tools/emu-cstates and tools/emu-blk against
#     BUILD_DIR in $WORK/NAME/KEY (W=1, under $BUILD_LOCK; a warning fails;
#     reused while their inputs are unchanged);
#  2. builds the initramfs $WORK/initramfs/KEY.cpio.gz (scripts/setup/initramfs.sh;
#     reused while its inputs are unchanged);
#  3. makes a fresh 9p share under $WORK/shares/ holding tools/guest/*, the
#     modules, and $BASE_DIR/tools/testing/selftests/block/ (as
#     selftests/block/, with kselftest/ktap_helpers.sh beside it) when
#     the checked out kernel tree has it;
#  4. makes a 1 GiB raw disk in /dev/shm ($GUEST_DISK_DIR), the guest's
#     /dev/vda (virtio-blk, cache=none, aio=io_uring if QEMU supports it,
#     else threads), removed afterwards;
#  5. boots qemu-system-x86_64 -smp 2 -m 2G with a hard timeout; the serial
#     console goes to OUT/console.log (kernel command line: an 8 MiB log
#     buffer, soft lockup and workqueue stall thresholds of 60 s).
#     Accelerator: --accel auto (default) uses KVM only if a probe boot
#     under KVM worked on this host (the result is cached in
#     $WORK/accel-probe), else TCG (-cpu max, thread=multi). --accel
#     icount: TCG with -icount shift=0,sleep=off (one vCPU thread; the
#     guest's clock advances 1 ns per executed instruction and skips idle
#     time), so that times measured in the guest are instruction counts,
#     the same on every run and host (scripts/bench/hook-cost.sh).
#     --isolate (latency runs, scripts/bench/bench.sh): virtio-blk on its own
#     I/O thread (-object iothread), and scripts/qemu/qemu-pin.py places the
#     threads through QMP: vCPU i on host CPU i only, the I/O thread and
#     the main loop on the last vCPU's host CPU, the I/O thread at
#     SCHED_FIFO 1, so that a vCPU busy-waiting an emulated C-state exit
#     delays neither vCPU 0 nor the I/O thread (OUT/pinning.txt); the run
#     fails if the pinning fails.
#     --lock holds $BUILD_LOCK shared while the guest runs: no kernel
#     build (they hold it exclusively) competes for the CPUs, which latency
#     numbers under TCG need; it waits for a running build first.
# The guest's init (tools/guest/init) mounts the share at /mnt/share, runs
# the script there, writes its exit code into the share and powers off.
# A boot whose kernel log has a report before SMP bring-up (start_kernel()
# on the boot CPU, before any initcall; it turns lockdep off for the run)
# runs no script: init says so in the share, and the guest boots once more
# (OUT/console-void-boot.log keeps that boot's console; guest-info.txt
# says void_boots=1). A second such boot fails (status 125).
#
# OUT (default $RESULTS/<script name without .sh>) is replaced on each run
# (only if an earlier guest.sh made it): console.log, exit-code,
# guest-info.txt and every file the script wrote into $RESULTS_DIR (the
# share's results/ folder).
#
# Exit status: the guest script's exit code, read from the share; 124 on
# timeout; 125 when the guest wrote no exit code (panic, init failure);
# 1 on host-side errors; 2 on usage errors.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

usage() {
	sed -n '4,7s/^# //p' "$0" >&2
	exit 2
}

kernel="" script="" out="" tmo=900 append="" smp=2 maxcpus="" accel=auto keep=0 lock=0
isolate=0
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=${2:?}; shift 2 ;;
	--script) script=${2:?}; shift 2 ;;
	--out) out=${2:?}; shift 2 ;;
	--timeout) tmo=${2:?}; shift 2 ;;
	--append) append=${2?}; shift 2 ;;
	--smp) smp=${2:?}; shift 2 ;;
	--maxcpus) maxcpus=${2:?}; shift 2 ;;
	--accel) accel=${2:?}; shift 2 ;;
	--lock) lock=1; shift ;;
	--isolate) isolate=1; shift ;;
	--keep-share) keep=1; shift ;;
	-h|--help) usage ;;
	*) echo "unknown argument: $1" >&2; usage ;;
	esac
done
[ -n "$kernel" ] && [ -n "$script" ] || usage
[[ $tmo =~ ^[1-9][0-9]*$ ]] || die "--timeout wants seconds, got $tmo"
[[ $smp =~ ^[1-9][0-9]*$ ]] || die "--smp wants a number, got $smp"
[ -z "$maxcpus" ] || [[ $maxcpus =~ ^[1-9][0-9]*$ && $maxcpus -ge $smp ]] ||
	die "--maxcpus wants a number of at least --smp, got $maxcpus"
case $accel in auto|tcg|kvm|icount) ;; *) die "--accel wants auto, tcg, kvm or icount" ;; esac

[ -d "$kernel" ] || die "no kernel build folder $kernel"
build=$(realpath "$kernel")
bz=$build/arch/x86/boot/bzImage
[ -f "$bz" ] || die "$bz not found: build the kernel first"
grep -q '^CONFIG_MODULES=y' "$build/.config" || die "$build: CONFIG_MODULES is off"
[ -f "$build/Module.symvers" ] || die "$build/Module.symvers not found: build the kernel first"

# The script: a host file, a name in tools/guest/ or selftests/block/NAME.
selftests=$BASE_DIR/tools/testing/selftests/block
src_script=""
if [ -f "$script" ]; then
	src_script=$(realpath "$script")
	run=$(basename "$script")
elif [ -f "$TOP/tools/guest/$script" ]; then
	run=$script
elif [[ $script == selftests/block/* ]] && [ -f "$selftests/${script#selftests/block/}" ]; then
	run=$script
else
	die "guest script $script not found (a file, a name in tools/guest/ or selftests/block/NAME)"
fi
name=$(basename "$run" .sh)
out=$(realpath -m "${out:-$RESULTS/$name}")

need_pkgs qemu-system-x86 gcc make
mkdir -p "$WORK"
key=$(basename "$build")-$(printf '%s' "$build" | sha256sum | cut -c1-8)

# OUT: replaced, but only when guest.sh made it.
own_out "$out" .guest-run

# Only a kernel built from the current series: a bzImage left by an earlier
# build must not stand in for a build of the series that failed. (After
# own_out: no results of an earlier run stay behind in OUT.)
why=$(stamp_check "$build" 2>&1) || die "refusing to boot $bz: $why"

# ---- 1. the test modules ---------------------------------------------------
# build_module NAME - builds tools/NAME (its MOD.c, MOD = NAME with - as _)
# against $build in $WORK/NAME/$key.
build_module() {
	local src=$TOP/tools/$1 mod=${1//-/_} dir=$WORK/$1/$key want
	want=$(cat "$src/$mod.c" "$src/Kbuild" "$build/.config" \
		"$build/Module.symvers" "$build/include/config/kernel.release" | sha256sum)
	if [ -f "$dir/$mod.ko" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$want" ]; then
		log "guest: reusing $dir/$mod.ko"
		return 0
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$src/$mod.c" "$src/Kbuild" "$dir/"
	log "guest: building $mod.ko for $build (waits for $BUILD_LOCK)"
	mkdir -p "$(dirname "$BUILD_LOCK")"
	if ! flock "$BUILD_LOCK" make -C "$build" M="$dir" W=1 modules >"$dir/build.log" 2>&1; then
		cat "$dir/build.log" >&2
		die "$mod.ko: build failed"
	fi
	if grep -iE 'warning|error' "$dir/build.log" >&2; then
		die "$mod.ko: the build printed warnings (above)"
	fi
	[ -f "$dir/$mod.ko" ] || die "$mod.ko: not built"
	echo "$want" > "$dir/stamp"
}
modules=()
for m in emu-cstates emu-blk; do
	timed "guest:module" build_module "$m" || die "${m//-/_}.ko not available"
	modules+=("$WORK/$m/$key/${m//-/_}.ko")
done

# ---- 2. the initramfs ----------------------------------------------------
initrd=$WORK/initramfs/$key.cpio.gz
timed "guest:initramfs" "$TOP/scripts/setup/initramfs.sh" "$build" "$initrd" ||
	die "initramfs for $build failed"

# ---- 3. the 9p share and 4. the disk -------------------------------------
mkdir -p "$WORK/shares"
share=$(mktemp -d "$WORK/shares/$name.XXXXXX")
chmod 0755 "$share"
disk=""
cleanup() {
	[ -z "$disk" ] || rm -f "$disk"
	if [ "$keep" = 1 ]; then
		log "guest: share kept in $share"
	else
		rm -rf "$share"
	fi
}
trap cleanup EXIT
disk_dir=${GUEST_DISK_DIR:-/dev/shm}
disk=$(mktemp "$disk_dir/guest-$name.XXXXXX")

cp -a "$TOP/tools/guest/." "$share/"
cp "${modules[@]}" "$share/"
if [ -d "$selftests" ]; then
	mkdir -p "$share/selftests/kselftest"
	cp -a "$selftests" "$share/selftests/block"
	cp "$selftests/../kselftest/ktap_helpers.sh" "$share/selftests/kselftest/"
fi
[ -z "$src_script" ] || cp "$src_script" "$share/$run"
mkdir -p "$share/results"

fallocate -l 1G "$disk" || die "cannot allocate a 1 GiB disk in $disk_dir"

# cache=none needs O_DIRECT on $disk_dir (tmpfs has it since Linux 6.6).
drive_ok() {
	echo quit | timeout 30 qemu-system-x86_64 -machine none -nodefaults \
		-display none -monitor stdio \
		-drive "file=$disk,format=raw,if=none,id=d0,cache=$1,aio=$2" >/dev/null 2>&1
}
cache=none aio=io_uring
if ! drive_ok none io_uring; then
	aio=threads
	drive_ok none threads || die "QEMU cannot open $disk with cache=none"
fi

# ---- 5. boot ---------------------------------------------------------------
# A log buffer that holds the whole run (scan_reports reads the console
# and the guest's dmesg); soft lockup (2 x watchdog_thresh) and workqueue
# stall thresholds of 60 s, for debug kernels under TCG.
cmdline="console=ttyS0 panic=-1 printk.time=1 log_buf_len=8M watchdog_thresh=30"
cmdline="$cmdline workqueue.watchdog_thresh=60"
cmdline="$cmdline harness_table=$DEFAULT_TABLE harness_tables=$TABLES harness_governors=$GOVERNORS"
cmdline="$cmdline guest_run=$run${append:+ $append}"

# qemu_run TIMEOUT LOG ACCEL [APPEND] - one boot; returns timeout's status.
qemu_run() {
	local t=$1 logf=$2 acc=$3 extra=${4:-} cpu args
	if [ "$acc" = kvm ]; then
		args=(-accel kvm) cpu=host,-arch-capabilities
	elif [ "$acc" = icount ]; then
		args=(-accel tcg -icount shift=0,sleep=off) cpu=max
	else
		args=(-accel "tcg,thread=multi") cpu=max
	fi
	local iso=() dev=virtio-blk-pci,drive=d0
	if [ "$isolate" = 1 ] && [ -z "$extra" ]; then
		iso=(-object iothread,id=io0 -qmp "unix:$out/qmp.sock,server=on,wait=off")
		dev=$dev,iothread=io0
		rm -f "$out/qmp.sock" "$out/pinning.txt"
		python3 "$TOP/scripts/qemu/qemu-pin.py" "$out/qmp.sock" "$out/pinning.txt" \
			> "$out/pinning.log" 2>&1 &
	fi
	timeout -k 10 "$t" qemu-system-x86_64 "${args[@]}" -cpu "$cpu" \
		-smp "$smp${maxcpus:+,maxcpus=$maxcpus}" -m 2G -nographic -no-reboot -nic none \
		-kernel "$bz" -initrd "$initrd" \
		-append "$cmdline${extra:+ $extra}" \
		-virtfs "local,path=$share,mount_tag=share,security_model=none,id=share" \
		-drive "file=$disk,format=raw,if=none,id=d0,cache=$cache,aio=$aio" \
		"${iso[@]}" -device "$dev" </dev/null >"$logf" 2>&1
}

if [ "$lock" = 1 ]; then
	mkdir -p "$(dirname "$BUILD_LOCK")"
	exec 9>>"$BUILD_LOCK"
	if ! flock -n -s 9; then
		log "guest: waiting for the kernel build holding $BUILD_LOCK"
		flock -s 9
	fi
fi

if [ "$accel" = auto ]; then
	accel=tcg
	if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		host="$(uname -r) $(qemu-system-x86_64 --version | sed -n 1p)"
		probe=$WORK/accel-probe
		if [ "$(head -n 1 "$probe" 2>/dev/null)" = "$host" ]; then
			accel=$(sed -n 2p "$probe")
		else
			log "guest: probing whether KVM boots a guest here (once per host)"
			if qemu_run 30 "$out/accel-probe.log" kvm "guest_probe=1 kunit.enable=0" &&
				grep -q GUEST-PROBE-OK "$out/accel-probe.log"; then
				accel=kvm
			fi
			printf '%s\n%s\n' "$host" "$accel" > "$probe"
		fi
	fi
fi

log "guest: booting $(cat "$build/include/config/kernel.release") ($accel, -smp $smp," \
	"aio=$aio) to run $run; console in $out/console.log"
start=$SECONDS
void_boots=0
while :; do
	rc=0
	timed "guest:$name" qemu_run "$tmo" "$out/console.log" "$accel" || rc=$?
	# tools/guest/init found a kernel report before SMP bring-up: that
	# boot checked nothing (see there). Once; a second one fails below.
	[ -f "$share/early-report" ] && [ "$void_boots" = 0 ] || break
	void_boots=1
	mv "$out/console.log" "$out/console-void-boot.log"
	log "guest: a kernel report before SMP bring-up, before any initcall" \
		"(\"$(cat "$share/early-report")\"): the boot is void (its console:" \
		"$out/console-void-boot.log); booting once more"
	rm -rf "$share/early-report" "$share/results"
	mkdir -p "$share/results"
done
elapsed=$((SECONDS - start))
[ "$lock" = 0 ] || flock -u 9
if [ "$isolate" = 1 ]; then
	wait || true
	rm -f "$out/qmp.sock"
	if [ ! -s "$out/pinning.txt" ]; then
		cat "$out/pinning.log" >&2 2>/dev/null || true
		log "guest: --isolate: the QEMU threads were not pinned (see $out/pinning.log)"
		exit 1
	fi
	log "guest: isolated: $(tr '\n' ';' < "$out/pinning.txt")"
fi

cp -a "$share/results/." "$out/"
[ ! -f "$share/guest-info" ] || cp "$share/guest-info" "$out/guest-info.txt"
printf 'accel=%s\naio=%s\nwall_s=%s\nisolate=%s\nvoid_boots=%s\n' "$accel" "$aio" "$elapsed" "$isolate" "$void_boots" >> "$out/guest-info.txt"

if [ $rc = 124 ] || [ $rc = 137 ]; then
	tail -n 20 "$out/console.log" >&2
	log "guest: TIMEOUT after $tmo s ($run)"
	echo 124 > "$out/exit-code"
	exit 124
fi
if [ -f "$share/early-report" ]; then
	log "guest: a kernel report before SMP bring-up again, on the second boot: $(cat "$share/early-report")"
	exit 125
fi
if [ ! -f "$share/exit-code" ]; then
	tail -n 40 "$out/console.log" >&2
	log "guest: no exit code from $run (qemu status $rc): the guest crashed or init failed; see $out/console.log"
	exit 125
fi
code=$(cat "$share/exit-code")
[[ $code =~ ^[0-9]+$ ]] || { log "guest: bad exit code '$code' from $run"; exit 125; }
cp "$share/exit-code" "$out/exit-code"
[ $rc = 0 ] || log "guest: qemu exited with status $rc after the script ended"
boot=$(sed -n 's/^uptime_at_script_start_s=//p' "$out/guest-info.txt")
log "guest: $run exit code $code; boot to script ${boot:-?} s (guest clock), whole run $elapsed s; results in $out"
exit "$code"
