#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What scripts/bench-tool runs in the guest: ROUNDS rounds, each at
# increasing rates, one getppid-load writer per CPU for SECONDS, recorded to
# the tmpfs by ctftrace record (a CTF instance, discard mode; --self: without
# the pid filter leaving its own threads out, as trace-cmd has none), by trace-cmd
# record (an ftrace instance) and by perf record (perf's ring buffers, when
# perf is in the image), the same event (syscalls:sys_enter_getppid) and
# buffer size, one after the other in this boot. The writers start once
# the recorder is ready. A line per run:
# LRB-TOOLBENCH RECORDER RATE CALLS RECORDED LOST BYTES CPU_SECONDS ROUND
# (CPU_SECONDS: the recorder's user + system time, its children included).

[ -f /etc/tool-bench.conf ] && . /etc/tool-bench.conf
RATES=${RATES:-1000 2000 5000 10000 20000 40000}
SECONDS_=${SECONDS_:-3}
ROUNDS=${ROUNDS:-1}
BUF_KB=${BUF_KB:-1024}
NCPU=$(grep -c ^processor /proc/cpuinfo)

# load: one writer per CPU; prints the calls made, summed.
load() {
	c=0
	while [ $c -lt "$NCPU" ]; do
		getppid-load $c "$1" "$SECONDS_" > /tmp/load.$c &
		c=$((c + 1))
	done
	wait
	cat /tmp/load.* | awk '{ n += $1 } END { print n }'
	rm -f /tmp/load.*
}

# cputime FILE: user + sys seconds from the output of time -p in FILE.
cputime() {
	awk '$1 == "user" || $1 == "sys" { s += $2 } END { printf "%.2f", s }' "$1"
}

# stop NAME: Ctrl-C to every process NAME, as a terminal would send, once
# the writers are done; then wait for the recorder.
stop() {
	killall -INT "$1"
	wait
}

# ready "FILES" TEXT: wait (10 s at most) until the recorder printed TEXT.
ready() {
	i=0
	while [ $i -lt 100 ] && ! grep -qs "$2" $1; do
		sleep 0.1
		i=$((i + 1))
	done
}

# perf_ready: wait (10 s at most) until perf opened an event per CPU, and
# mapped their buffers a little later.
perf_ready() {
	i=0
	while [ $i -lt 100 ]; do
		n=$(ls -l /proc/$(pidof perf)/fd 2> /dev/null | grep -c perf_event)
		[ "$n" -ge "$NCPU" ] && break
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.5
}

run() {
	rate=$1 round=$2
	rm -rf /tmp/tb
	( time -p ctftrace record -o /tmp/tb -e syscalls:sys_enter_getppid -b "$BUF_KB" \
		--no-statedump --allow-loss --self ) > /tmp/tb.sum 2> /tmp/tb.time &
	ready /tmp/tb.time "recording into"
	calls=$(load "$rate")
	stop ctftrace
	rec=$(awk '$3 == "sys_enter_getppid" { print $4 }' /tmp/tb.sum)
	lost=$(awk '$3 == "sys_enter_getppid" { print $5 }' /tmp/tb.sum)
	bytes=$(cat /tmp/tb/kernel/channel0_* | wc -c)
	echo "LRB-TOOLBENCH ctftrace $rate $calls ${rec:-0} ${lost:-0} $bytes $(cputime /tmp/tb.time) $round"
	rm -rf /tmp/tb /tmp/tc.dat
	( time -p trace-cmd record -B toolbench -e syscalls:sys_enter_getppid -b "$BUF_KB" \
		-o /tmp/tc.dat ) > /tmp/tc.out 2> /tmp/tc.time &
	ready "/tmp/tc.out /tmp/tc.time" "Hit Ctrl^C"
	calls=$(load "$rate")
	stop trace-cmd
	# "overrun: N" per CPU, in the statistics trace-cmd prints at the end.
	lost=$(cat /tmp/tc.out /tmp/tc.time | awk '$1 == "overrun:" { n += $2 } END { print n + 0 }')
	bytes=$(wc -c < /tmp/tc.dat)
	rec=$(trace-cmd report -i /tmp/tc.dat 2> /dev/null | grep -c sys_enter_getppid)
	echo "LRB-TOOLBENCH trace-cmd $rate $calls $rec $lost $bytes $(cputime /tmp/tc.time) $round"
	rm -f /tmp/tc.dat
	trace-cmd reset -B toolbench > /dev/null 2>&1
	rmdir /sys/kernel/tracing/instances/toolbench 2> /dev/null
	command -v perf > /dev/null || return 0
	rm -f /tmp/pf.data
	( time -p perf record -a -e syscalls:sys_enter_getppid -m $((BUF_KB / 4)) \
		-o /tmp/pf.data ) > /tmp/pf.out 2> /tmp/pf.time &
	perf_ready
	calls=$(load "$rate")
	stop perf
	# The statistics of the one event: its samples, and the samples lost
	# (what PERF_RECORD_LOST and PERF_RECORD_LOST_SAMPLES records say), in
	# one pass over the file, without formatting every sample.
	perf report --stats -i /tmp/pf.data > /tmp/pf.stats 2> /dev/null
	rec=$(awk '$1 == "SAMPLE" { n = $3 } END { print n + 0 }' /tmp/pf.stats)
	lost=$(awk '$1 == "LOST_SAMPLES" { n = $3 } END { print n + 0 }' /tmp/pf.stats)
	bytes=$(wc -c < /tmp/pf.data)
	echo "LRB-TOOLBENCH perf $rate $calls $rec $lost $bytes $(cputime /tmp/pf.time) $round"
	rm -f /tmp/pf.data
}

round=1
while [ $round -le "$ROUNDS" ]; do
	for rate in $RATES; do
		run "$rate" "$round"
	done
	round=$((round + 1))
done
echo "LRB-TOOLBENCH-DONE"
