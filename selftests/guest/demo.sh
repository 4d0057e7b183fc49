#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What the main job shows in the guest: the ring buffer test client at work.
# Runs under busybox sh.

T=/sys/kernel/tracing/lrb_test

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

step "write 10000 records on every CPU, then read CPU 0's stream"
echo 10000 > "$T/write"
cat "$T/stats"
n=$(dd if="$T/per_cpu/cpu0/stream" iflag=nonblock bs=65536 2>/dev/null | wc -c)
echo "read $n bytes of packets from cpu0"

step "first packet of cpu1, as bytes"
dd if="$T/per_cpu/cpu1/stream" iflag=nonblock bs=4096 count=1 2>/dev/null |
	hexdump -C | head -12

step "counters after reading"
cat "$T/stats"
exit 0
