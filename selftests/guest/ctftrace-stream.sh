#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ctftrace stream: the main job's workload recorded and sent to the
# lttng-relayd of the host (scripts/boot --relay gives LRB_RELAY as
# HOST:CONTROL_PORT:DATA_PORT), which stores the trace while a live viewer
# there shows it (scripts/test checks both, scripts/demo --live shows
# them). The summary goes to /trace/tool/stream.summary. Without a relay,
# says so and does nothing.

OUT=/trace/tool
W=/usr/share/lrb/ctftrace-workload.sh
[ -n "${LRB_RELAY:-}" ] || { echo "ctftrace-stream: no relay (scripts/boot --relay)"; exit 0; }
command -v ctftrace > /dev/null || { echo "ctftrace-stream: no ctftrace in this image"; exit 0; }
mkdir -p "$OUT"

# The live viewer attaches once the session exists and shows the packets
# sent after: the workload waits for it a little.
echo "ctftrace-stream: ctftrace stream -U net://$LRB_RELAY -S ctftrace-live" \
	"-e sched -e syscalls -e irq -e timer -e block -e module -C tid,comm -b 2048" \
	"-- sh -c 'sleep 5; sh $W'"
ctftrace stream -U "net://$LRB_RELAY" -S ctftrace-live -e sched -e syscalls \
	-e irq -e timer -e block -e module -C tid,comm -b 2048 \
	-- sh -c "sleep 5; sh $W" > "$OUT/stream.summary"
rc=$?
echo "ctftrace-stream: ctftrace exited with $rc"
# 2: events were lost in discard mode, counted in the summary.
[ $rc = 2 ] && rc=0

# A CPU that records nothing: the programs run on CPU 0 alone, and only
# their execs are recorded. Live viewers wait for every CPU's stream, so
# they show the first /bin/true about 8 s before the second only if CPU 1
# sent something (an empty packet) meanwhile; tools/ctf/ctf-check checks it
# with the times the viewer's lines came on the host. The session goes on
# 4 s after the second, so that it is shown live too, not at the end.
if command -v taskset > /dev/null; then
	echo "ctftrace-stream: taskset -c 0 ctftrace stream -S ctftrace-idle" \
		"-e sched:sched_process_exec --" \
		"sh -c 'sleep 4; /bin/true; sleep 8; /bin/true; sleep 4'"
	taskset -c 0 ctftrace stream -U "net://$LRB_RELAY" -S ctftrace-idle \
		-e sched:sched_process_exec \
		-- sh -c 'sleep 4; /bin/true; sleep 8; /bin/true; sleep 4' > "$OUT/idle.summary"
	r=$?
	echo "ctftrace-stream: ctftrace exited with $r"
	[ $rc = 0 ] && rc=$r
else
	echo "ctftrace-stream: no taskset: the idle CPU is not streamed"
fi
exit $rc
