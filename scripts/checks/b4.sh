#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# b4.sh - hand the series to reviewers the way they take it: with b4.
#
# Usage: scripts/checks/b4.sh COMMAND
#   fetch     fetch b4 $B4_VER from Debian $B4_SUITE with a temporary apt
#             config (its own source list and state under $WORK/b4-apt,
#             removed afterwards), unpack the .deb into $WORK/b4 and run it
#             from there with PYTHONPATH; nothing from $B4_SUITE is installed
#             system-wide. b4's Python dependencies come from bookworm
#             (need_pkgs); one that bookworm has too old is fetched from
#             $B4_SUITE into $WORK/b4 the same way. Reused once there.
#   export    write $RESULTS/b4/series.mbox: the cover letter and the patches
#             listed in `series', in order, each with a Message-Id made from
#             a hash of the series (@example.org), the patches In-Reply-To the
#             cover letter, To/Cc from scripts/get_maintainer.pl (--nogit,
#             rolestats only to tell people from lists: people To, lists Cc;
#             the cover letter gets the union) run on baseline + the patches,
#             so the series' own MAINTAINERS hunk counts.
#   check     export, then `b4 am' of that mbox (offline, local mbox, b4
#             following the thread from the cover letter), and `git am' of
#             b4's am-ready mbox onto baseline: the same number of commits,
#             subjects and authors, and the same tree as `git am' of patches/.
#             Prints `PASS b4 ...' or `FAIL b4 ...: why'; exits non-zero on
#             a failure.
#   selftest  prove that check can fail: on copies of the exported mbox with
#             a patch dropped, a patch cut from the thread, and a line of a
#             patch edited, the comparison must fail, each for its reason
#             (and on the unchanged copy pass).
#
# Kernel trees: a temporary `git clone --shared' of $BASE_DIR under $WORK
# (objects read from $BASE_DIR, which is never written to, nor its checkout
# touched), sparse: the top-level files, scripts/get_maintainer.pl and the
# files the patches touch. Temporary files: $WORK/b4-run.*, removed on exit.
# Environment: B4_FROM_TRIXIE="pkg ..." takes those dependencies from
# $B4_SUITE even when bookworm's are new enough (to test that path).
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

# Pinned: the b4 of Debian trixie (bookworm's 0.12 crashes on folded headers).
B4_PKG=b4
B4_VER=0.14.2-2
B4_SUITE=trixie
B4_ROOT=$WORK/b4
B4_PY=$B4_ROOT/usr/lib/python3/dist-packages
B4_APT=$WORK/b4-apt
# Debian's Python, which has the bookworm packages (not a python3 in PATH).
PY=/usr/bin/python3
PATCHES=$TOP/patches
SERIES=$TOP/series
COVER=0000-cover-letter.patch
OUT=$RESULTS/b4
# Message-Ids: <hash.N@$MSGID_DOMAIN>, N = 0 for the cover letter.
MSGID_DOMAIN=example.org
GM_OPTS=(--no-tree --nogit --nogit-fallback --nogit-chief-penguins --rolestats)

npass=0 nfail=0 quiet_prefix=""
apt_ready=0 run=""
# The temporary apt config and run folder go on any exit.
cleanup() {
	[ -z "$run" ] || rm -rf "$run"
	[ "$apt_ready" = 0 ] || rm -rf "$B4_APT"
}
trap cleanup EXIT
pass() { echo "${quiet_prefix}PASS b4 $*"; npass=$((npass + 1)); }
fail() { echo "${quiet_prefix}FAIL b4 $1: $2"; nfail=$((nfail + 1)); }

# ---------------------------------------------------------------- fetch

# Set up the temporary apt config for $B4_SUITE (once per run).
b4_apt() {
	[ $apt_ready = 0 ] || return 0
	apt_ready=1
	temp_apt "$B4_APT"
	mkdir -p "$B4_APT/deb"
	cat > "$B4_APT/etc/sources.list" <<EOT
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR $B4_SUITE main
EOT
	log "b4: apt-get update ($B4_SUITE, temporary config)"
	apt-get "${aptopts[@]}" -qq update
}

# trixie_deb PKG[=VER] - download one .deb of $B4_SUITE into $B4_APT/deb,
# print its path.
trixie_deb() {
	rm -f "$B4_APT"/deb/*.deb
	(cd "$B4_APT/deb" && apt-get "${aptopts[@]}" -qq download "$1") >&2
	ls "$B4_APT"/deb/*.deb
}

# resolve_deps ROOT - b4's Python dependencies (Depends: python3-*, saved in
# ROOT/.depends) from bookworm; those bookworm has too old (or named in
# B4_FROM_TRIXIE) unpacked from $B4_SUITE into ROOT. git-filter-repo is left
# out: only `b4 prep' uses it.
resolve_deps() {
	local root=$1 d name op ver have pkgs=() deb
	while IFS= read -r d; do
		d=${d%%|*}
		name=$(awk '{print $1}' <<< "$d")
		if [[ $name == python3-* ]]; then pkgs+=("$name"); fi
	done < <(tr ',' '\n' < "$root/.depends")
	need_pkgs python3 "${pkgs[@]}"
	while IFS= read -r d; do
		d=${d%%|*}
		read -r name op ver <<< "$(sed -E 's/^ *([^ (]+) *(\(([<>=]+) *([^)]+)\))?.*/\1 \3 \4/' <<< "$d")"
		[[ $name == python3-* ]] || continue
		have=$(dpkg-query -W -f='${Version}' "$name")
		case " ${B4_FROM_TRIXIE:-} " in
		*" $name "*) ;;
		*) if [ -z "$op" ] || dpkg --compare-versions "$have" "$op" "$ver"; then
			continue
		   fi
		   log "b4: bookworm's $name $have is not $op $ver" ;;
		esac
		if grep -q "^$name=" "$root/.trixie-deps" 2>/dev/null; then
			continue
		fi
		b4_apt
		deb=$(trixie_deb "$name")
		have=$(dpkg-deb -f "$deb" Version)
		if [ -n "$op" ] && ! dpkg --compare-versions "$have" "$op" "$ver"; then
			die "b4: $B4_SUITE's $name $have is not $op $ver either"
		fi
		dpkg-deb -x "$deb" "$root"
		echo "$name=$have" >> "$root/.trixie-deps"
		log "b4: $name $have from $B4_SUITE unpacked into ${root#"$TOP"/}"
	done < <(tr ',' '\n' < "$root/.depends")
}

# run_b4 ARGS... - b4 from $B4_ROOT, in $run, offline: no user or system
# git/b4 config, its home and cache in $run, and a dead proxy for good
# measure.
run_b4() {
	mkdir -p "$run/home"
	(cd "$run" && env HOME="$run/home" XDG_CONFIG_HOME="$run/home/.config" \
		XDG_CACHE_HOME="$run/home/.cache" XDG_DATA_HOME="$run/home/.local/share" \
		GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9 \
		HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 \
		no_proxy= NO_PROXY= PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$B4_PY" \
		"$PY" "$B4_ROOT/usr/bin/b4" --offline-mode --no-interactive --no-stdin \
		-c attestation-policy=off "$@")
}

b4_version() {
	PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$B4_PY" "$PY" "$B4_ROOT/usr/bin/b4" --version
}

cmd_fetch() {
	local avail deb tmp=$B4_ROOT.tmp
	if [ "$(cat "$B4_ROOT/.pinned" 2>/dev/null)" = "$B4_PKG=$B4_VER $B4_SUITE" ] &&
	   [ -f "$B4_PY/b4/__init__.py" ]; then
		resolve_deps "$B4_ROOT"
		log "b4: reusing ${B4_ROOT#"$TOP"/} (b4 $(b4_version))"
		return 0
	fi
	b4_apt
	avail=$(apt-cache "${aptopts[@]}" madison "$B4_PKG" | awk -F'|' '{gsub(/ /,"",$2); print $2}' | xargs)
	case " $avail " in
	*" $B4_VER "*) ;;
	*) die "b4: $B4_PKG $B4_VER is no longer in Debian $B4_SUITE (available: ${avail:-none}). Update B4_VER in scripts/checks/b4.sh and re-run scripts/checks/b4.sh check." ;;
	esac
	log "b4: apt-get download $B4_PKG=$B4_VER"
	deb=$(trixie_deb "$B4_PKG=$B4_VER")
	rm -rf "$tmp" "$B4_ROOT"
	dpkg-deb -x "$deb" "$tmp"
	dpkg-deb -f "$deb" Depends > "$tmp/.depends"
	resolve_deps "$tmp"
	echo "$B4_PKG=$B4_VER $B4_SUITE" > "$tmp/.pinned"
	mv "$tmp" "$B4_ROOT"
	[ "$(b4_version)" = "${B4_VER%-*}" ] ||
		die "b4: ${B4_ROOT#"$TOP"/} says version $(b4_version), expected ${B4_VER%-*}"
	log "b4: b4 $(b4_version) ($B4_SUITE $B4_VER) in ${B4_ROOT#"$TOP"/}"
}

# ---------------------------------------------------------------- trees

gt() { git -C "$run/tree" -c user.name=b4.sh -c user.email="b4.sh@$MSGID_DOMAIN" "$@"; }

# Paths the patches (files given) touch, as sparse-checkout patterns.
diff_paths() {
	sed -nE 's|^diff --git a/(\S+) b/(\S+)$|/\1\n/\2|p' "$@" | LC_ALL=C sort -u
}

# "author<TAB>subject" of the commits base..HEAD in $run/tree, oldest first.
commit_list() {
	gt log --reverse --format='%an <%ae>%x09%s' "$base..HEAD"
}

# setup_run - $run (removed on exit), $run/tree: a sparse shared clone of
# $BASE_DIR at baseline with the patches of `series' applied by git am;
# sets list (patch names), base, ref_tree and $run/ref.list.
setup_run() {
	local p k=0
	[ -d "$BASE_DIR/.git" ] || die "no kernel tree at $BASE_DIR (run scripts/setup/baseline.sh)"
	git -C "$BASE_DIR" rev-parse -q --verify refs/heads/baseline >/dev/null ||
		die "$BASE_DIR has no branch baseline (run scripts/setup/baseline.sh)"
	[ -f "$SERIES" ] || die "no $SERIES file"
	mapfile -t list < <(series_names < "$SERIES")
	[ ${#list[@]} -gt 0 ] || die "\`series' lists no patches"
	[ -f "$PATCHES/$COVER" ] || die "no patches/$COVER"
	for p in "${list[@]}"; do
		[ -f "$PATCHES/$p" ] || die "patches/$p is listed in series but missing"
	done
	mkdir -p "$WORK"
	run=$(mktemp -d "$WORK/b4-run.XXXXXX")

	git clone -q --shared --no-checkout --single-branch -b baseline "$BASE_DIR" "$run/tree"
	base=$(gt rev-parse --verify 'baseline^{commit}')
	gt update-ref --no-deref HEAD "$base"
	# shellcheck disable=SC2046
	gt sparse-checkout set --no-cone '/*' '!/*/' /scripts/get_maintainer.pl \
		$(diff_paths "${list[@]/#/$PATCHES/}")
	gt read-tree -mu HEAD
	for p in "${list[@]}"; do
		k=$((k + 1))
		gt am -q --committer-date-is-author-date "$PATCHES/$p" >/dev/null 2>&1 ||
			die "patch $k/${#list[@]}: patches/$p does not git am onto baseline + the patches before it"
	done
	ref_tree=$(gt rev-parse 'HEAD^{tree}')
	commit_list > "$run/ref.list"
}

# ---------------------------------------------------------------- export

# maintainers PATCH - "to<TAB>address" (people) and "cc<TAB>address"
# (lists) from get_maintainer.pl in $run/tree.
maintainers() {
	(cd "$run/tree" && HOME="$run/home" perl scripts/get_maintainer.pl "${GM_OPTS[@]}" "$1") |
		awk '{
			if ((e = index($0, ">")) > 0) { a = substr($0, 1, e); r = substr($0, e + 1) }
			else if ((e = index($0, " ")) > 0) { a = substr($0, 1, e - 1); r = substr($0, e) }
			else { a = $0; r = "" }
			sub(/^[ \t]+/, "", r)
			print ((r ~ /^\((open |moderated |subscriber )?list/) ? "cc" : "to") "\t" a
		}'
}

# header NAME FILE - "NAME: a,\n b,\n c" from the addresses in FILE, or
# nothing when FILE is empty.
header() {
	[ -s "$2" ] || return 0
	awk -v n="$1" '{ a[++k] = $0 }
		END { for (i = 1; i <= k; i++) printf "%s%s%s\n", (i == 1 ? n ": " : " "), a[i], (i < k ? "," : "") }' "$2"
}

# add_headers FILE HEADERS - FILE with its own Message-Id, In-Reply-To,
# References, To and Cc headers (if any) replaced by those in HEADERS.
add_headers() {
	awk -v hf="$2" '
		h == 0 && /^$/ { while ((getline l < hf) > 0) print l; h = 1 }
		h == 0 && /^[ \t]/ { if (!skip) print; next }
		h == 0 && NR > 1 { skip = tolower($0) ~ /^(message-id|in-reply-to|references|to|cc):/; if (skip) next }
		{ print }' "$1"
}

# export_mbox DEST - the threaded mbox of the series (setup_run first).
export_mbox() {
	local dest=$1 files=() f k n hash id cover_id pids=() pid
	files=("$PATCHES/$COVER" "${list[@]/#/$PATCHES/}")
	n=${#list[@]}
	for f in "${files[@]}"; do
		[ "$(head -c 5 "$f")" = "From " ] || die "export: ${f#"$TOP"/} does not start with a \"From \" line"
		! tail -n +2 "$f" | grep '^From ' > /dev/null ||
			die "export: ${f#"$TOP"/} has a line starting with \"From \" after the first: it cannot go into an mbox unchanged"
	done
	hash=$(cat "${files[@]}" | sha256sum | cut -c1-20)
	cover_id="$hash.0@$MSGID_DOMAIN"

	# get_maintainer.pl, one per patch, in parallel.
	mkdir -p "$run/gm"
	for k in $(seq 1 "$n"); do
		maintainers "${files[$k]}" > "$run/gm/$k" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || die "export: get_maintainer.pl failed"
	done
	for k in $(seq 1 "$n"); do
		awk -F'\t' '$1 == "to" && !s[$2]++ {print $2}' "$run/gm/$k" > "$run/gm/$k.to"
		awk -F'\t' 'NR == FNR {t[$0]; next} $1 == "cc" && !($2 in t) && !s[$2]++ {print $2}' \
			"$run/gm/$k.to" "$run/gm/$k" > "$run/gm/$k.cc"
	done
	# The cover letter: everyone, in order of first appearance.
	for k in $(seq 1 "$n"); do cat "$run/gm/$k.to"; done | awk '!s[$0]++' > "$run/gm/0.to"
	for k in $(seq 1 "$n"); do cat "$run/gm/$k.cc"; done |
		awk 'NR == FNR {t[$0]; next} !($0 in t) && !s[$0]++' "$run/gm/0.to" - > "$run/gm/0.cc"

	mkdir -p "$(dirname "$dest")"
	: > "$dest.tmp"
	for k in $(seq 0 "$n"); do
		id="$hash.$k@$MSGID_DOMAIN"
		{
			echo "Message-Id: <$id>"
			if [ "$k" -gt 0 ]; then
				echo "In-Reply-To: <$cover_id>"
				echo "References: <$cover_id>"
			fi
			header To "$run/gm/$k.to"
			header Cc "$run/gm/$k.cc"
		} > "$run/hdr"
		add_headers "${files[$k]}" "$run/hdr" >> "$dest.tmp"
		[ -z "$(tail -c 1 "$dest.tmp")" ] || echo >> "$dest.tmp"
		[ "$(tail -n 1 "$dest.tmp")" = "" ] || echo >> "$dest.tmp"
	done
	mv "$dest.tmp" "$dest"
	echo "$cover_id" > "$run/cover_id"
}

# check_mbox MBOX - the export read back with Python's mailbox module.
check_mbox() {
	local why
	if why=$("$PY" - "$1" "${#list[@]}" "$(cat "$run/cover_id")" <<'EOF'
import mailbox, sys
path, n, cover = sys.argv[1], int(sys.argv[2]), "<%s>" % sys.argv[3]
msgs = list(mailbox.mbox(path))
bad = []
if len(msgs) != n + 1:
    bad.append("%d messages, expected %d" % (len(msgs), n + 1))
ids = [m.get("Message-Id") for m in msgs]
if None in ids or len(set(ids)) != len(ids):
    bad.append("Message-Ids missing or not unique")
if ids and ids[0] != cover:
    bad.append("the first message is not the cover letter")
for i, m in enumerate(msgs[1:], 1):
    if m.get("In-Reply-To") != cover or cover not in (m.get("References") or ""):
        bad.append("message %d is not a reply to the cover letter" % i)
for i, m in enumerate(msgs):
    if not m.get("To"):
        bad.append("message %d has no To" % i)
    want = "0/%d]" % n if i == 0 else "%d/%d]" % (i, n)
    if want not in " ".join(str(m.get("Subject", "")).split()):
        bad.append("message %d: Subject lacks %s" % (i, want))
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF
	); then
		pass "export: ${1#"$TOP"/}: cover letter + ${#list[@]} patches, threaded to the cover letter, To/Cc from get_maintainer.pl ($(sort -u "$run"/gm/0.to | wc -l) To, $(sort -u "$run"/gm/0.cc | wc -l) Cc on the cover letter)"
	else
		fail export "${1#"$TOP"/}: ${why:-python3 failed}"
	fi
}

# ---------------------------------------------------------------- check

# verify MBOX NAME - b4 am MBOX (from the cover letter's thread), git am the
# result onto baseline and compare with the patches. Prints PASS/FAIL lines;
# returns non-zero on a failure.
verify() {
	local mbox=$1 name=$2 am=$run/am-$2 rc=0 got nf0=$nfail
	mkdir -p "$am"
	run_b4 am -C -m "$mbox" -o "$am" --mbox-name series "$(cat "$run/cover_id")" \
		> "$am/b4.log" 2>&1 || rc=$?
	if [ $rc != 0 ] || [ ! -s "$am/series.mbx" ]; then
		fail am "b4 am exited $rc, $( [ -s "$am/series.mbx" ] && echo "wrote" || echo "no") am-ready mbox: $(tail -n 3 "$am/b4.log" | tr '\n' ' ')"
		return 1
	fi
	got=$(grep -c '^From git@z ' "$am/series.mbx" || true)
	if [ "$got" = "${#list[@]}" ]; then
		pass "am: b4 $(b4_version) made an am-ready mbox of $got patches from ${mbox#"$TOP"/}"
	else
		fail am "b4's am-ready mbox has $got patches, the series ${#list[@]}: $(grep -iE 'missing|error|warning' "$am/b4.log" | sed -n '1,3p' | tr -s '\n ' '  ')"
	fi

	gt checkout -q --detach "$base"
	if ! gt am -q --committer-date-is-author-date "$am/series.mbx" > "$am/git-am.log" 2>&1; then
		gt am --abort > /dev/null 2>&1 || true
		fail tree "git am of b4's mbox onto baseline failed: $(head -n 3 "$am/git-am.log" | tr '\n' ' ')"
		return 1
	fi
	commit_list > "$am/commits.list"
	if cmp -s "$run/ref.list" "$am/commits.list"; then
		pass "subjects: $(wc -l < "$am/commits.list") commits, the same subjects and authors as git am of patches/"
	else
		fail subjects "git am of b4's mbox gives other commits than patches/ (- patches/, + b4): $(diff "$run/ref.list" "$am/commits.list" | grep '^[<>]' | sed -n '1,4p' | tr '\n' ' ')"
	fi
	got=$(gt rev-parse 'HEAD^{tree}')
	if [ "$got" = "$ref_tree" ]; then
		pass "tree: git am onto baseline gives tree ${got:0:12}, the same as git am of patches/"
	else
		fail tree "git am of b4's mbox gives tree ${got:0:12}, patches/ ${ref_tree:0:12}: $(gt diff --stat "$ref_tree" "$got" | tail -n 1)"
	fi
	[ $nfail = "$nf0" ]
}

cmd_export() {
	cmd_fetch
	setup_run
	own_out "$OUT" .b4-export
	export_mbox "$OUT/series.mbox"
	log "export: ${OUT#"$TOP"/}/series.mbox ($((${#list[@]} + 1)) messages, cover letter <$(cat "$run/cover_id")>)"
}

cmd_check() {
	local s=$SECONDS
	cmd_fetch
	setup_run
	own_out "$OUT" .b4-export
	export_mbox "$OUT/series.mbox"
	check_mbox "$OUT/series.mbox"
	verify "$OUT/series.mbox" check || true
	mkdir -p "$OUT/am"
	cp "$run/am-check/series.mbx" "$run/am-check/b4.log" "$OUT/am/" 2>/dev/null || true
	log "check: $npass passed, $nfail failed in $((SECONDS - s)) s (b4's output: ${OUT#"$TOP"/}/am/)"
	[ $nfail = 0 ]
}

# drop_msg MBOX K - MBOX without its message K (0 = the cover letter).
drop_msg() {
	awk -v k="$2" '/^From / && (NR == 1 || prev == "") { i++ } { prev = $0 } i != k + 1' "$1"
}

# unthread_msg MBOX K - MBOX with message K's In-Reply-To and References cut.
unthread_msg() {
	awk -v k="$2" '
		/^From / && (NR == 1 || prev == "") { i++; h = 1 }
		{ prev = $0 }
		h && /^$/ { h = 0 }
		h && i == k + 1 && /^[ \t]/ { if (skip) next }
		h && i == k + 1 && /^[^ \t]/ { skip = tolower($0) ~ /^(in-reply-to|references):/; if (skip) next }
		{ print }' "$1"
}

# edit_msg MBOX K - MBOX with the first line that message K (the last patch:
# no later patch needs it as context) adds changed: it still applies, to
# another tree.
edit_msg() {
	awk -v k="$2" '
		/^From / && (NR == 1 || prev == "") { i++ }
		{ prev = $0 }
		i == k + 1 && !done && /^@@ / { arm = 1 }
		i == k + 1 && arm && /^\+/ && !/^\+\+\+ / { $0 = $0 " (selftest edit)"; arm = 0; done = 1 }
		{ print }' "$1"
}

cmd_selftest() {
	local s=$SECONDS bad=0 k out
	cmd_fetch
	setup_run
	export_mbox "$run/series.mbox"
	k=$(( (${#list[@]} + 1) / 2 ))

	# expect NAME pass|fail FILE [PATTERN] - verify FILE, its lines shown
	# indented; a failure must print a line matching PATTERN.
	expect() {
		local name=$1 want=$2 file=$3 pat=${4:-} got=pass
		out=$(quiet_prefix="    " verify "$file" "$name") || got=fail
		printf '%s\n' "$out"
		if [ "$got" != "$want" ]; then
			echo "FAIL b4 selftest: $name: the check ${got}ed, expected it to ${want}"
			bad=1
		elif [ -n "$pat" ] && ! grep -qE "$pat" <<< "$out"; then
			echo "FAIL b4 selftest: $name: the check failed, but without \"$pat\""
			bad=1
		else
			echo "PASS b4 selftest: $name: the check ${want}ed as it should${pat:+ (\"$pat\")}"
		fi
	}
	cp "$run/series.mbox" "$run/copy.mbox"
	expect "unchanged copy" pass "$run/copy.mbox"
	drop_msg "$run/series.mbox" "$k" > "$run/dropped.mbox"
	expect "patch $k dropped" fail "$run/dropped.mbox" "FAIL b4 am: .* has $((${#list[@]} - 1)) patches"
	unthread_msg "$run/series.mbox" "$k" > "$run/unthreaded.mbox"
	expect "patch $k cut from the thread" fail "$run/unthreaded.mbox" "FAIL b4 am: .* has $((${#list[@]} - 1)) patches"
	edit_msg "$run/series.mbox" "${#list[@]}" > "$run/edited.mbox"
	expect "a line of patch ${#list[@]} edited" fail "$run/edited.mbox" "FAIL b4 tree: .* gives tree"
	log "selftest: done in $((SECONDS - s)) s"
	[ $bad = 0 ]
}

case ${1:-} in
fetch) cmd_fetch ;;
export) cmd_export ;;
check) cmd_check ;;
selftest) cmd_selftest ;;
*) sed -n '4,/^set -/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
esac
