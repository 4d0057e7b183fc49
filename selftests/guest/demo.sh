#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the main job shows in the guest: the ring buffer test client at work.
# Runs under busybox sh. The test run runs it too, and scripts/check-demo
# checks on the host what it printed: keep the lines it looks for.
#
# A stream read blocks when no packet is ready and returns end of file only
# once writing is disabled, which the test client does not offer, and
# busybox dd has no iflag=nonblock (the old demo's dd failed at once, its
# error hidden, and read 0 bytes). So dd's errors are shown, the packets
# are closed with "flush", and the stream is read for READ_IDLE seconds,
# far more than its few hundred KiB take: timeout ends the read left
# waiting for more, with SIGINT: a shell reports a process killed by
# SIGTERM (timeout's default) with a line "Terminated", not one killed by
# SIGINT.

T=/sys/kernel/tracing/lrb_test
READ_IDLE=${READ_IDLE:-3}

step() { printf '\n### %s\n' "$*"; }

step "KUnit results of the series (run at boot)"
dmesg | grep -E '^\[[ 0-9.]+\]\s+(# lrb|ok [0-9]+ lrb|not ok [0-9]+ lrb)' |
	sed 's/^\[[ 0-9.]*\] *//' | head -40

[ -d "$T" ] || modprobe lrb_test_client 2>/dev/null
if [ ! -d "$T" ]; then
	echo "no $T: this kernel has no lrb test client"
	exit 0
fi

step "tracefs files of the test client"
find "$T" | head -40
echo "sub-buffers of $(cat "$T/subbuf_size") bytes, $(cat "$T/num_subbuf") per CPU"

step "write 10000 records on every CPU, then read CPU 0's stream"
# An empty buffer and zeroed counters first (a test may have used it).
echo 1 > "$T/reset" || echo "reset refused: the counters include earlier writes"
echo 10000 > "$T/write"
echo 1 > "$T/flush"
cat "$T/stats"
# dd, whose read() waits; not cat, whose sendfile() into a pipe fails with
# EBUSY while the pipe still holds the stream's previous pages.
n=$(timeout -s INT "$READ_IDLE" dd if="$T/per_cpu/cpu0/stream" bs=65536 2>/tmp/dd.err | wc -c)
grep -v 'records\|bytes' /tmp/dd.err
echo "read $n bytes of packets from cpu0"

step "first packet of cpu1, as bytes"
echo "magic \"LRBT\", cpu, packet sequence number, begin and end timestamps,"
echo "content size, packet size, records lost, then the records"
timeout -s INT "$READ_IDLE" dd if="$T/per_cpu/cpu1/stream" bs=4096 count=1 2>/tmp/dd.err |
	hexdump -C | head -12
grep -v 'records\|bytes' /tmp/dd.err

step "counters after reading"
cat "$T/stats"
exit 0
