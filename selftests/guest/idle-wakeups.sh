#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Local timer interrupts of each CPU over 10 s of an idle guest, with data
# in every stream of the lrb test client: its buffers have a switch timer
# when booted with lrb_test_client.switch_timer_us=N. Run by /init for
# lrb.run=idle-wakeups (scripts/idle-wakeups); runs under busybox sh.

T=/sys/kernel/tracing/lrb_test
P=/sys/module/lrb_test_client/parameters/switch_timer_us

loc() {
	awk '/^ *LOC:/ {
		s = ""
		for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++)
			s = s " " $i
		print s
	}' /proc/interrupts
}

[ -d "$T" ] && echo 100 > "$T/write" && echo 100 > "$T/flight/write"
sleep 2
a=$(loc)
sleep 10
b=$(loc)
echo "LRB-IDLE switch_timer_us=$(cat "$P" 2>/dev/null || echo none) seconds=10 before:$a after:$b"
