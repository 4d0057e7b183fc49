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

# What fails a guest boot when its console shows it (scripts/boot): oopses,
# BUGs (KASAN, KFENCE, sleeping in atomic context, soft lockups), warnings
# (lockdep, RCU usage, debug objects, lists), UBSAN reports, hung tasks and
# RCU stalls.
GUEST_REPORTS='Oops|BUG:|Kernel panic|WARNING:|Call Trace:|general protection fault|UBSAN:|ODEBUG:|list_(add|del) (corruption|double)|INFO: task .* blocked for more than|detected stalls? on'
# What the shell and busybox's tools print on an error, in a kselftest's
# output ("# " before each line): a test that goes on past one has not
# checked what it says it has.
SHELL_ERRORS='^# ((awk|sed|grep|sort|uniq|cut|tr|head|tail|wc|sh|xargs|find|dd|expr|printf|date|cat|ls|mount|umount|mkdir|rm|cp|mv|ln|chmod|kill|sleep|timeout|tar|env|test|stat|seq|taskset|readlink): |.*: line [0-9]+: )'

# submissions: the submissions of `submissions`, a line each: NAME FIRST
# LAST NEEDS ON, where FIRST and LAST are the positions of its first and
# last patch in `series` (from 1), NEEDS the submissions it is based on,
# with theirs, in series order and comma-separated, or - for none, and ON
# "series" when that is everything before it in the series, "apart" when
# it is less (it must then apply and build on NEEDS alone).
submissions() {
	python3 - "$TOP/series" "$TOP/submissions" <<'PY'
import sys

def lines(path):
    for line in open(path):
        line = line.split('#', 1)[0].split()
        if line:
            yield line

series = [l[0] for l in lines(sys.argv[1])]
subs, needs = [], {}
for l in lines(sys.argv[2]):
    if len(l) != 3 or l[1] not in series:
        sys.exit('submissions: bad line, or a patch not in series: ' + ' '.join(l))
    name, first, based = l[0], series.index(l[1]) + 1, l[2]
    if not name.replace('_', 'a').isalnum() or not name.isascii():
        sys.exit('submissions: a name is letters, digits and _: ' + name)
    if subs and first <= subs[-1][1] or not subs and first != 1:
        sys.exit('submissions: %s does not start after the one before' % name)
    closure = set()
    for b in ([] if based == '-' else based.split(',')):
        if b not in needs:
            sys.exit('submissions: %s is based on %s, not an earlier one' % (name, b))
        closure |= needs[b] | {b}
    needs[name] = closure
    subs.append([name, first])
for i, (name, first) in enumerate(subs):
    last = subs[i + 1][1] - 1 if i + 1 < len(subs) else len(series)
    n = [s[0] for s in subs if s[0] in needs[name]]
    on = 'series' if n == [s[0] for s in subs[:i]] else 'apart'
    print(name, first, last, ','.join(n) or '-', on)
PY
}

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
	# libtracefs.pc requires libtraceevent.pc, which the -dev package does
	# not pull in without recommends.
	# rst2man (python3-docutils) makes the man page make install installs;
	# libbabeltrace2-dev: ctftrace report reads traces with it.
	apt_install gcc make libtracefs-dev libtraceevent-dev pkg-config python3-docutils \
		libbabeltrace2-dev
	mkdir -p "$OUT/ctftrace-build"
	make -s -C "$src/tools/tracing/ctftrace" O="$OUT/ctftrace-build" \
		DESTDIR="$root" install > "$OUT/ctftrace-build.log" 2>&1 ||
		{ cat "$OUT/ctftrace-build.log" >&2; return 1; }
	echo "$root"
}

# relay_start DIR: an lttng-relayd on free local ports (CI machines may run
# one already), storing what it receives under DIR/traces. Sets RELAY_PID,
# RELAY_PORTS (CONTROL:DATA, for scripts/boot --relay: the guest reaches
# the host at 10.0.2.2) and RELAY_LIVE, the port of live viewers.
relay_start() {
	local dir=$1 base p i
	apt_install lttng-tools babeltrace2 coreutils
	rm -rf "$dir"
	mkdir -p "$dir/home"
	for base in 15342 25342 35342 45342 55342; do
		for p in $base $((base + 1)) $((base + 2)); do
			(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && continue 2
		done
		break
	done
	LTTNG_HOME=$dir/home lttng-relayd -o "$dir/traces" \
		-C "tcp://127.0.0.1:$base" -D "tcp://127.0.0.1:$((base + 1))" \
		-L "tcp://127.0.0.1:$((base + 2))" > "$dir/relayd.log" 2>&1 &
	RELAY_PID=$!
	RELAY_PORTS=$base:$((base + 1))
	RELAY_LIVE=$((base + 2))
	for i in $(seq 50); do
		(exec 3<>"/dev/tcp/127.0.0.1/$RELAY_LIVE") 2>/dev/null && return 0
		kill -0 "$RELAY_PID" 2>/dev/null || break
		sleep 0.2
	done
	cat "$dir/relayd.log" >&2
	RELAY_PID=
	return 1
}

# relay_view SESSION OUT [stamp]: babeltrace2 showing the session SESSION of
# the guest (host name lrb-guest) live, from when it appears, into OUT; one
# line at a time, so that OUT grows as the events come. With "stamp", each
# line starts with the time it came (seconds since the epoch). Adds its
# process to VIEW_PIDS.
relay_view() {
	local params="inputs=[\"net://127.0.0.1:$RELAY_LIVE/host/lrb-guest/$1\"]"

	params="$params,session-not-found-action=\"continue\""
	if [ "${3:-}" = stamp ]; then
		stdbuf -oL babeltrace2 --component=src.ctf.lttng-live \
			--params="$params" 2> "$2.err" > >(relay_stamp > "$2") &
	else
		stdbuf -oL babeltrace2 --component=src.ctf.lttng-live \
			--params="$params" > "$2" 2> "$2.err" &
	fi
	VIEW_PIDS="${VIEW_PIDS:-} $!"
}

relay_stamp() {
	local line

	while IFS= read -r line; do
		printf '%s %s\n' "$EPOCHREALTIME" "$line"
	done
}

# relay_stop: stop the live viewers (they wait for the next session) and
# the relay daemon.
# monitor_cmd SOCKET COMMAND: run a QEMU (HMP) monitor command on the unix
# socket scripts/boot opened (LRB_MONITOR), and wait for it to finish.
monitor_cmd() {
	python3 - "$1" "$2" <<'PY'
import re, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.settimeout(300)
def until(mark):
    buf = b''
    while mark not in buf:
        data = s.recv(4096)
        if not data:
            return buf
        buf += data
    return buf
until(b'(qemu)')
s.sendall(sys.argv[2].encode() + b'\n')
out = until(b'(qemu)').decode(errors='replace')
# What the command printed, without the monitor's echo of it.
out = re.sub(r'\x1b\[[0-9;]*[A-Za-z]', '', out).replace('\r', '').split('\n')[1:-1]
if out:
    sys.stderr.write('\n'.join(out) + '\n')
PY
}

relay_stop() {
	local pid

	for pid in ${VIEW_PIDS:-}; do
		# SIGINT does not stop it while it waits for a session; its
		# output is written line by line, nothing is lost.
		kill "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	if [ -n "${RELAY_PID:-}" ]; then
		kill "$RELAY_PID" 2>/dev/null || true
		wait "$RELAY_PID" 2>/dev/null || true
	fi
	VIEW_PIDS= RELAY_PID=
}

# relay_finish DIR TOOLDIR: once the guest is done, let the viewers read
# what the relay daemon got last, stop them and it, and copy the traces the
# relay daemon of DIR stored for the sessions ctftrace-live and
# ctftrace-idle of lrb-guest to TOOLDIR/stream and TOOLDIR/idle, with what
# the live viewers showed (DIR/live.txt, DIR/idle.txt) in TOOLDIR/stream.live
# and TOOLDIR/idle.live, for tools/ctf/ctf-check. Fails without the first.
relay_finish() {
	local t s name
	sleep 3
	relay_stop
	for s in live:stream idle:idle; do
		name=${s#*:}
		t=$(find "$1/traces/lrb-guest" -maxdepth 1 -name "ctftrace-${s%:*}-*" 2>/dev/null |
			sort | tail -n 1)
		if [ -z "$t" ]; then
			[ "$name" = idle ] && continue
			return 1
		fi
		rm -rf "${2:?}/$name"
		cp -a "$t" "$2/$name"
		[ -f "$1/${s%:*}.txt" ] && cp "$1/${s%:*}.txt" "$2/$name.live"
	done
	return 0
}
