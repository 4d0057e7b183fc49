# SPDX-License-Identifier: GPL-2.0
# Common settings for the scripts; sourced, not run.

set -euo pipefail

export PATH="/usr/bin:/bin:$PATH"	# Debian's python3 with its modules (python3-ply)
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${LRB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lrb-series}
OUT=${LRB_OUT:-$CACHE/out}
BASE_PKG=linux-source-7.2
JOBS=${JOBS:-$(nproc)}

mkdir -p "$CACHE" "$OUT"

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# apt_install PKG...: install what is missing, quietly.
apt_install() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	local sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	if [ ! -f "$CACHE/.apt-updated" ] ||
	   [ -n "$(find "$CACHE/.apt-updated" -mmin +720 2>/dev/null)" ]; then
		$sudo apt-get update -qq >"$CACHE/apt.log" 2>&1 ||
			{ cat "$CACHE/apt.log" >&2; die "apt-get update failed"; }
		touch "$CACHE/.apt-updated"
	fi
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >"$CACHE/apt.log" 2>&1 ||
		{ tail -n 20 "$CACHE/apt.log" >&2; die "apt-get install failed"; }
}

# build_ctftrace SRC ROOT: build tools/tracing/ctftrace of the tree SRC and
# install it into ROOT (usr/bin/ctftrace), an extra tree for scripts/boot.
# Prints ROOT; nothing when the tree has no ctftrace; fails when it does
# not build.
build_ctftrace() {
	local src=$1 root=$2
	rm -rf "$root"
	[ -f "$src/tools/tracing/ctftrace/Makefile" ] || return 0
	apt_install libtracefs-dev pkg-config
	mkdir -p "$OUT/ctftrace-build"
	make -s -C "$src/tools/tracing/ctftrace" O="$OUT/ctftrace-build" \
		DESTDIR="$root" install > "$OUT/ctftrace-build.log" 2>&1 ||
		{ cat "$OUT/ctftrace-build.log" >&2; return 1; }
	echo "$root"
}
