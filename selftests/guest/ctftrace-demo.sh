#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The main job's recording: ctftrace (tools/tracing/ctftrace) records a
# workload the way a user would, into /trace/tool/demo, with its summary in
# /trace/tool/demo.summary. The host prints babeltrace2's view of it
# (scripts/demo) and checks it (tools/ctf/ctf-check). Runs under busybox sh;
# without ctftrace in the image, says so and does nothing.
#
# The workload: processes starting and exiting, pipes, file I/O on the
# tmpfs and reads of the disk, timers, a kprobe, and a module loaded and
# unloaded while recording; the trace starts with the state dump.

TR=/sys/kernel/tracing
OUT=/trace/tool
W=/usr/share/lrb/ctftrace-workload.sh
command -v ctftrace > /dev/null || { echo "ctftrace-demo: no ctftrace in this image"; exit 0; }
mkdir -p "$OUT"
rm -rf "$OUT/demo" "$OUT/demo.summary"

probe=
echo 'p:ctfdemo do_sys_openat2' >> "$TR/kprobe_events" 2>/dev/null && probe="-e kprobes:ctfdemo"


echo "ctftrace-demo: ctftrace record -o $OUT/demo -e sched -e syscalls -e irq" \
	"-e timer -e block -e module $probe -C tid,comm -b 2048 -- sh $W"
ctftrace record -o "$OUT/demo" -e sched -e syscalls -e irq -e timer -e block \
	-e module $probe -C tid,comm -b 2048 -- sh "$W" > "$OUT/demo.summary"
rc=$?
echo "ctftrace-demo: ctftrace exited with $rc"
# 2: events were lost in discard mode. The summary counts them, the host
# shows them; under emulation the tool may fall behind, not a failure.
[ $rc = 2 ] && rc=0
[ -n "$probe" ] && echo '-:ctfdemo' >> "$TR/kprobe_events"
exit $rc
