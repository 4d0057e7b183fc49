#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Record a CTF trace in the guest for the host to check (tools/ctf/ctf-check):
# a tracefs instance in the CTF buffer format with scheduler (sched_waking
# filtered), interrupt, system call, kprobe and module events, a small
# workload marked through trace_marker and trace_marker_raw, then
#   /trace/kernel/metadata, /trace/kernel/stream_N   the CTF trace
#   /trace/stats/stats_N        per_cpu/cpuN/ctf_stats at the end
#   /trace/event-stats          ctf_event_stats at the end
#   /trace/boot/, /trace/boot-stats/, /trace/boot-event-stats  the same
#                               for the instance made on the kernel command
#                               line, when there is one (ctfboot)
#   /trace/early/, /trace/early-stats/, /trace/early-event-stats  likewise
#                               for the one recording the initcalls
#                               (ctfearly)
#   /trace/snapshot-1/, /trace/snapshot-2/  two flight recorder snapshots
#                               of an overwrite mode instance with an event
#                               context (pid, tid, comm) taken while it
#                               records (the kselftest ctf_snapshot's tool
#                               mode), when the kselftests are here
#   /trace/hotplug/, /trace/hotplug-stats/  with --hotplug N: a trace of
#                               sched, irq, timer and cpuhp events, read
#                               live while the last CPU goes offline and
#                               online N times, and its ctf_stats
#   /trace/text                 the trace file (text view) of an instance
#                               that recorded a marker and the exec of
#                               /bin/true, with the tid and comm
#   /trace/info                 what was recorded (kprobe target, CPUs)
#   /trace/errors               what went wrong, if anything
#   /trace/SKIP                 why nothing was recorded, if so
# /init writes /trace to the host's disk (scripts/boot --tar-out). A kernel
# without the CTF buffer format is a SKIP, not a failure. Runs under busybox
# sh; exits 1 when something went wrong.

TR=/sys/kernel/tracing
I=$TR/instances/ctf
K=/trace/kernel
S=/trace/stats
READ_LIMIT=${READ_LIMIT:-120}
CYCLES=0
[ "${1:-}" = --hotplug ] && CYCLES=${2:-100}

mkdir -p /trace
rm -rf "$K" "$S" /trace/event-stats /trace/info /trace/errors /trace/SKIP /trace/boot \
	/trace/boot-stats /trace/boot-event-stats /trace/boot-expected /trace/snapshot-* \
	/trace/early /trace/early-stats /trace/early-event-stats /trace/early-expected \
	/trace/hotplug /trace/hotplug-stats /trace/text
say() { echo "ctf-record: $*"; }
err() { say "error: $*"; echo "$*" >> /trace/errors; }

if [ ! -d "$TR/instances" ]; then
	say "SKIP: no tracefs instances" | tee /trace/SKIP
	exit 0
fi
mkdir "$I" 2>/dev/null || { err "mkdir $I failed"; exit 1; }
if [ ! -f "$I/buffer_format" ]; then
	say "SKIP: no buffer_format in an instance (no CTF buffer format in this kernel)" |
		tee /trace/SKIP
	rmdir "$I"
	exit 0
fi
say "buffer formats: $(cat "$I/buffer_format")"
echo ctf > "$I/buffer_format" || err "echo ctf > buffer_format failed"
grep -q '\[ctf\]' "$I/buffer_format" || err "buffer_format reads '$(cat "$I/buffer_format")'"

enable() {
	if [ -f "$I/events/$1/enable" ]; then
		echo 1 > "$I/events/$1/enable" || err "enabling $1 failed"
	else
		err "no event $1 in the instance"
	fi
}
# A filter: the wakeups of tasks bound for CPU 0 only, which ctf-check
# checks (the others are filtered out before they reach the buffer).
echo "target_cpu == 0" > "$I/events/sched/sched_waking/filter" ||
	err "setting a filter on sched_waking failed"
enable sched
enable irq
for e in sys_enter_openat sys_exit_openat sys_enter_close sys_exit_close; do
	enable "syscalls/$e"
done
# A kprobe on the open path: the first of these the kernel did not inline.
probe=
for f in do_sys_openat2 do_sys_open do_filp_open vfs_open; do
	if grep -q " [tT] $f\$" /proc/kallsyms; then
		probe=$f
		break
	fi
done
if [ -n "$probe" ] && echo "p:ctfprobe $probe" >> "$TR/kprobe_events"; then
	enable kprobes/ctfprobe
else
	err "no kprobe on ${probe:-any of do_sys_openat2 do_sys_open do_filp_open vfs_open}"
fi
echo 1 > "$I/tracing_on"

# A flight recorder beside it: overwrite mode, 8 sub-buffers a CPU, the
# pid, tid and comm of the task in every event.
SNAP=/kselftest/trace_ctf/ctf_snapshot
F=$TR/instances/ctfsnap
if [ -x "$SNAP" ]; then
	mkdir "$F" || err "mkdir $F failed"
	echo 32 > "$F/buffer_size_kb"
	echo 1 > "$F/options/overwrite"
	echo "pid tid comm" > "$F/ctf_event_context" ||
		err "choosing the flight recorder's event context failed"
	echo ctf > "$F/buffer_format" || err "selecting ctf for the flight recorder failed"
	echo 1 > "$F/events/sched/enable" || err "enabling sched in the flight recorder failed"
	echo 1 > "$F/events/syscalls/enable" || err "enabling syscalls in the flight recorder failed"
fi
# snapshot N: save what the flight recorder holds, while it records.
snapshot() {
	[ -x "$SNAP" ] || return 0
	"$SNAP" "$F" "/trace/snapshot-$1" > /tmp/ctf-snap.log 2>&1 ||
		err "snapshot $1 failed: $(tail -n 3 /tmp/ctf-snap.log)"
	say "snapshot $1: $(grep -c packets /tmp/ctf-snap.log) streams, $(du -sk "/trace/snapshot-$1" | cut -f1) KiB"
}

# A module loaded while tracing: its events appear in the instance then.
modprobe trace-events-sample || err "modprobe trace-events-sample failed"
enable sample-trace

# The state of the system when the trace starts: tasks, interrupts, CPUs.
if [ -f "$I/statedump" ]; then
	enable statedump
	echo 1 > "$I/statedump" || err "writing statedump failed"
fi

# The workload, between two marks of user space: a line of text and
# raw data (tag id 1, then "ctf").
echo "ctf-record: workload starts" > "$I/trace_marker" || err "writing trace_marker failed"
printf '\001\000\000\000ctf' > "$I/trace_marker_raw" || err "writing trace_marker_raw failed"
ls -lR /usr /lib > /dev/null 2>&1
snapshot 1
for f in /proc/cpuinfo /proc/meminfo /proc/interrupts /etc/* /usr/share/lrb/*; do
	cat "$f" > /dev/null 2>&1
done
sleep 2
echo "ctf-record: workload ends" > "$I/trace_marker" || err "writing trace_marker failed"
snapshot 2
if [ -x "$SNAP" ]; then
	echo 0 > "$F/events/enable"
	rmdir "$F" || err "rmdir $F failed"
fi

echo 0 > "$I/tracing_on"
# Writing is stopped and the packets closed: the reads end (EOF).
mkdir -p "$K" "$S"
# dd: read(), not the sendfile() of busybox cat.
timeout "$READ_LIMIT" dd if="$I/metadata" of="$K/metadata" bs=65536 2>/tmp/ctf-dd.err ||
	err "reading metadata failed or did not end: $(grep -v 'records\|bytes' /tmp/ctf-dd.err)"
ncpu=0
for d in "$I"/per_cpu/cpu*; do
	n=${d##*/cpu}
	timeout "$READ_LIMIT" dd if="$d/ctf_stream" of="$K/stream_$n" bs=65536 2>/tmp/ctf-dd.err ||
		err "reading cpu$n's stream failed or did not end: $(grep -v 'records\|bytes' /tmp/ctf-dd.err)"
	cat "$d/ctf_stats" > "$S/stats_$n" || err "no ctf_stats for cpu$n"
	ncpu=$((ncpu + 1))
done
cat "$I/ctf_event_stats" > /trace/event-stats || err "no ctf_event_stats"
{
	echo "kprobe ctfprobe $probe"
	echo "cpus $ncpu"
	[ -x "$SNAP" ] && echo "snapshots 2"
	echo "kernel $(uname -r)"
} > /trace/info
say "recorded $(du -sk "$K" | cut -f1) KiB from $ncpu CPUs"

# The instances made on the kernel command line (trace_instance=NAME^ctf,...)
# record from early_initcall on: ctfboot the exec of /init and the
# scheduler since, ctfearly the initcalls. Their traces go out too:
# save_boot NAME OUT saves one as /trace/OUT, OUT-stats, OUT-event-stats.
save_boot() {
	local B=$TR/instances/$1 o=$2 d n
	grep -q "trace_instance=$1^ctf" /proc/cmdline || return 0
	touch "/trace/$o-expected"
	if [ ! -d "$B" ]; then
		err "no instance $1 although the command line makes it"
		return 0
	fi
	grep -q '\[ctf\]' "$B/buffer_format" ||
		err "the boot instance $1 is not a CTF one: $(cat "$B/buffer_format")"
	echo 0 > "$B/tracing_on"
	mkdir -p "/trace/$o" "/trace/$o-stats"
	timeout "$READ_LIMIT" dd if="$B/metadata" of="/trace/$o/metadata" bs=65536 2>/dev/null ||
		err "reading the metadata of the boot instance $1 failed"
	for d in "$B"/per_cpu/cpu*; do
		n=${d##*/cpu}
		timeout "$READ_LIMIT" dd if="$d/ctf_stream" of="/trace/$o/stream_$n" \
			bs=65536 2>/dev/null || err "reading cpu$n of the boot instance $1 failed"
		cat "$d/ctf_stats" > "/trace/$o-stats/stats_$n"
	done
	cat "$B/ctf_event_stats" > "/trace/$o-event-stats" ||
		err "no ctf_event_stats in the boot instance $1"
	say "boot instance $1: $(du -sk "/trace/$o" | cut -f1) KiB"
}
save_boot ctfboot boot
save_boot ctfearly early

# A boot instance given an unknown flag and an unknown event: the kernel
# says so for each, and the instance is a CTF one recording what it could
# enable (trace_instance=ctfbad^ctf^nosuchflag,nosuch:event,
# initcall:initcall_level: the eight initcall levels).
if grep -q 'trace_instance=ctfbad^ctf' /proc/cmdline; then
	B=$TR/instances/ctfbad
	dmesg | grep -q "Invalid instance flag 'nosuchflag' for ctfbad" ||
		err "no message for the unknown flag of the boot instance ctfbad"
	dmesg | grep -q 'Failed to enable trace event: nosuch:event' ||
		err "no message for the unknown event of the boot instance ctfbad"
	if [ ! -d "$B" ]; then
		err "no instance ctfbad although the command line makes it"
	else
		grep -q '\[ctf\]' "$B/buffer_format" ||
			err "the boot instance ctfbad is not a CTF one: $(cat "$B/buffer_format")"
		n=0
		for d in "$B"/per_cpu/cpu*; do
			r=$(sed -n 's/^records: //p' "$d/ctf_stats")
			n=$((n + ${r:-0}))
		done
		[ "$n" -eq 8 ] ||
			err "the boot instance ctfbad recorded $n records, not the 8 initcall levels"
		say "boot instance ctfbad: $n records, the unknown flag and event reported"
	fi
fi

# The text view: an instance's trace file prints its records with the
# events' print formats, the task column from the event context.
X=$TR/instances/ctftext
if mkdir "$X"; then
	echo "tid comm" > "$X/ctf_event_context" || err "setting the text instance's context failed"
	echo ctf > "$X/buffer_format" || err "selecting ctf for the text instance failed"
	echo 1 > "$X/events/sched/sched_process_exec/enable" ||
		err "enabling sched_process_exec in the text instance failed"
	echo "ctf-record: text view" > "$X/trace_marker" || err "writing the text instance's marker failed"
	/bin/true
	echo 0 > "$X/events/enable"
	timeout "$READ_LIMIT" cat "$X/trace" > /trace/text || err "reading the text instance's trace failed"
	rmdir "$X" || err "rmdir $X failed"
	say "text view: $(grep -vc '^#' /trace/text) lines"
else
	err "mkdir $X failed"
fi

# CPU hotplug while recording, with a reader on every stream.
hotplug() {
	H=$TR/instances/ctfhp
	cpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]* | sed 's/.*cpu//' | sort -n | tail -n 1)
	on=/sys/devices/system/cpu/cpu$cpu/online
	if [ "$cpu" = 0 ] || [ ! -w "$on" ]; then
		err "no CPU to take offline (cpu$cpu)"
		return
	fi
	mkdir "$H" || { err "mkdir $H failed"; return; }
	echo 4096 > "$H/buffer_size_kb"
	echo ctf > "$H/buffer_format" || err "selecting ctf for the hotplug trace failed"
	for e in sched irq timer cpuhp; do
		echo 1 > "$H/events/$e/enable" || err "enabling $e for the hotplug trace failed"
	done
	mkdir -p /trace/hotplug /trace/hotplug-stats
	pids=
	for d in "$H"/per_cpu/cpu*; do
		n=${d##*/cpu}
		dd if="$d/ctf_stream" of="/trace/hotplug/stream_$n" bs=65536 2>/dev/null &
		pids="$pids $!"
	done
	i=0 fails=0
	while [ $i -lt "$CYCLES" ]; do
		echo 0 > "$on" || fails=$((fails + 1))
		ls /proc > /dev/null
		echo 1 > "$on" || fails=$((fails + 1))
		ls /sys/kernel/tracing > /dev/null
		i=$((i + 1))
	done
	[ $fails = 0 ] || err "$fails of $((2 * CYCLES)) writes to cpu$cpu/online failed"
	# The CPU back: its stream must go on.
	sleep 1
	echo 0 > "$H/tracing_on"
	# The readers get end of file once the packets are read.
	for p in $pids; do
		wait "$p" || err "a reader of the hotplug trace failed"
	done
	timeout "$READ_LIMIT" dd if="$H/metadata" of=/trace/hotplug/metadata bs=65536 2>/dev/null ||
		err "reading the hotplug trace's metadata failed"
	for d in "$H"/per_cpu/cpu*; do
		cat "$d/ctf_stats" > "/trace/hotplug-stats/stats_${d##*/cpu}"
	done
	echo "hotplug cpu$cpu $CYCLES" >> /trace/info
	say "hotplug: cpu$cpu offline and online $CYCLES times, $(du -sk /trace/hotplug | cut -f1) KiB read live"
	echo 0 > "$H/events/enable"
	rmdir "$H" || err "rmdir $H failed"
}
[ "$CYCLES" -gt 0 ] && hotplug

# Tear down: events off, the module and the kprobe gone, the instance too.
echo 0 > "$I/events/enable"
rmmod trace_events_sample || err "rmmod trace_events_sample failed"
[ -n "$probe" ] && { echo "-:ctfprobe" >> "$TR/kprobe_events" || err "removing the kprobe failed"; }
rmdir "$I" || err "rmdir $I failed"
[ -s /trace/errors ] && exit 1
exit 0
