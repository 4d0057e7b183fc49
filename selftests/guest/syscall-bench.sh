#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What scripts/bench-syscall runs in the guest, booted with one CPU: the
# cost of a getppid() call with syscalls:sys_enter_getppid and
# sys_exit_getppid recorded, per tracer, in ROUNDS interleaved rounds of
# CALLS calls each (getppid-loop), then the bytes one record of those
# events and of sched:sched_switch takes in each tracer's format.
#
# The tracers, each with BUF_KB KiB of buffer:
#   none       nothing enabled
#   ftrace     an ftrace instance (overwrite mode, its default), no reader
#   ctf        a CTF instance (overwrite mode), no reader
#   perf       perf events on the two tracepoints, opened by the loop
#              itself with perf record's sample format, into one perf
#              ring buffer that holds the whole run, no reader
#   trace-cmd  trace-cmd record on an ftrace instance, to the tmpfs
#   ctftrace   ctftrace record (a CTF instance, discard mode; --self: without
#              the pid filter leaving its own threads out, as measured before
#              it had one), to the tmpfs
#   perf-record  perf record of the loop's process, to the tmpfs
# The first three compare the write paths. With one CPU the recorders of
# the last three run on the loop's CPU, and the loop's time includes what
# they read while it runs: each reads when its wakeup policy says, and the
# rest once the loop is done, which is not counted. A line per run:
# LRB-SYSBENCH TRACER ROUND NS_PER_CALL RECORDED LOST
# (RECORDED and LOST: what the tracer counted, both events together).
#
# Bytes per record, from each tracer's own accounting: an ftrace
# instance's bytes and entries counters; perf's sample records (perf
# report -D); for CTF the streams are saved to /trace/sysbench for the
# host, which sums the packets' content sizes less their headers
# (scripts/bench-syscall). A line per tracer and event:
# LRB-SYSBYTES TRACER EVENT BYTES RECORDS

[ -f /etc/syscall-bench.conf ] && . /etc/syscall-bench.conf
CALLS=${CALLS:-100000}
ROUNDS=${ROUNDS:-5}
BUF_KB=${BUF_KB:-8192}
TR=/sys/kernel/tracing
OUTD=/trace/sysbench
EVENTS="syscalls/sys_enter_getppid syscalls/sys_exit_getppid"

say() { echo "syscall-bench: $*"; }
fail() { say "error: $*"; echo "LRB-SYSBENCH-FAILED $*"; exit 1; }

mkdir -p "$OUTD"
rm -rf "${OUTD:?}"/*

# instance NAME FORMAT "EVENTS": a fresh instance with BUF_KB KiB a CPU and
# EVENTS enabled, in FORMAT (ftrace or ctf).
instance() {
	I=$TR/instances/$1
	[ -d "$I" ] && rmdir "$I"
	mkdir "$I" || fail "mkdir $I"
	echo "$BUF_KB" > "$I/buffer_size_kb" || fail "$1: buffer_size_kb"
	if [ "$2" = ctf ]; then
		# A CTF instance keeps its clock: fast, as ctftrace records.
		echo fast > "$I/trace_clock" || fail "$1: trace_clock"
		echo ctf > "$I/buffer_format" || fail "$1: buffer_format"
	fi
	for e in $3; do
		echo 1 > "$I/events/$e/enable" || fail "$1: enabling $e"
	done
}

# ftrace_counts I: entries and overruns, CPU 0 (the only one).
ftrace_counts() {
	awk '$1 == "entries:" { e = $2 } $1 == "overrun:" { o = $2 }
	     END { print e + 0, o + 0 }' "$1/per_cpu/cpu0/stats"
}

# ctf_counts I: records and losses, from ctf_event_stats.
ctf_counts() {
	awk '!/^#/ { r += $4; l += $5 } END { print r + 0, l + 0 }' "$1/ctf_event_stats"
}

loop() {
	getppid-loop 0 "$CALLS" > /tmp/sb.ns || fail "getppid-loop"
	cat /tmp/sb.ns
}

run() {
	tracer=$1 round=$2
	case $tracer in
	none)
		echo "LRB-SYSBENCH none $round $(loop) 0 0"
		;;
	ftrace|ctf)
		instance sb "$tracer" "$EVENTS"
		ns=$(loop)
		echo 0 > "$I/tracing_on"
		if [ "$tracer" = ftrace ]; then
			c=$(ftrace_counts "$I")
		else
			c=$(ctf_counts "$I")
		fi
		rmdir "$I"
		echo "LRB-SYSBENCH $tracer $round $ns $c"
		;;
	trace-cmd)
		rm -f /tmp/sb.dat
		trace-cmd record -B sbrec -e syscalls:sys_enter_getppid \
			-e syscalls:sys_exit_getppid -b "$BUF_KB" -o /tmp/sb.dat \
			getppid-loop 0 "$CALLS" > /tmp/sb.out 2>&1 ||
			{ cat /tmp/sb.out; fail "trace-cmd record"; }
		ns=$(grep -E '^[0-9]+\.[0-9]$' /tmp/sb.out | head -1)
		lost=$(awk '$1 == "overrun:" { n += $2 } END { print n + 0 }' /tmp/sb.out)
		rec=$(trace-cmd report -i /tmp/sb.dat 2> /dev/null | grep -c 'sys_e[a-z]*_getppid')
		trace-cmd reset -B sbrec > /dev/null 2>&1
		rmdir "$TR/instances/sbrec" 2> /dev/null
		rm -f /tmp/sb.dat
		echo "LRB-SYSBENCH trace-cmd $round $ns $rec $lost"
		;;
	ctftrace)
		rm -rf /tmp/sb.ctf
		ctftrace record -o /tmp/sb.ctf -e syscalls:sys_enter_getppid \
			-e syscalls:sys_exit_getppid -b "$BUF_KB" --no-statedump --self \
			-- getppid-loop 0 "$CALLS" > /tmp/sb.out 2>&1 ||
			{ cat /tmp/sb.out; fail "ctftrace record"; }
		ns=$(grep -E '^[0-9]+\.[0-9]$' /tmp/sb.out | head -1)
		c=$(awk '$3 ~ /^sys_e[a-z]*_getppid$/ { r += $4; l += $5 }
			 END { print r + 0, l + 0 }' /tmp/sb.out)
		rm -rf /tmp/sb.ctf
		echo "LRB-SYSBENCH ctftrace $round $ns $c"
		;;
	perf)
		getppid-loop 0 "$CALLS" perf > /tmp/sb.out || fail "getppid-loop perf"
		set -- $(cat /tmp/sb.out)
		echo "LRB-SYSBENCH perf $round $1 $2 $4"
		;;
	perf-record)
		rm -f /tmp/sb.perf
		perf record -q -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid \
			-m $((BUF_KB / 4)) -o /tmp/sb.perf \
			-- getppid-loop 0 "$CALLS" > /tmp/sb.out 2> /tmp/sb.err ||
			{ cat /tmp/sb.out /tmp/sb.err; fail "perf record"; }
		ns=$(grep -E '^[0-9]+\.[0-9]$' /tmp/sb.out | head -1)
		perf report --stats -i /tmp/sb.perf > /tmp/sb.stats 2> /dev/null
		# The aggregated statistics come first, then each event's.
		rec=$(awk '$1 == "SAMPLE" && !n { n = $3 } END { print n + 0 }' /tmp/sb.stats)
		lost=$(awk '$1 == "LOST_SAMPLES" && !n { n = $3 } END { print n + 0 }' /tmp/sb.stats)
		rm -f /tmp/sb.perf
		echo "LRB-SYSBENCH perf-record $round $ns $rec $lost"
		;;
	esac
}

TRACERS="none ftrace ctf perf"
command -v trace-cmd > /dev/null && TRACERS="$TRACERS trace-cmd"
command -v ctftrace > /dev/null && TRACERS="$TRACERS ctftrace"
command -v perf > /dev/null && TRACERS="$TRACERS perf-record"
say "$(grep -c ^processor /proc/cpuinfo) CPU, $CALLS calls a run, $ROUNDS rounds, $BUF_KB KiB buffers: $TRACERS"

round=0
while [ $round -le "$ROUNDS" ]; do	# round 0 warms up, and is dropped
	for t in $TRACERS; do
		run "$t" "$round"
	done
	round=$((round + 1))
done

# The bytes of a record, each event alone, recorded while its workload
# runs: for sched_switch, a pipe written a byte at a time.
SWITCHES='dd if=/dev/zero bs=1 count=20000 2> /dev/null | cat > /dev/null'
workload() {
	case $1 in
	*sched_switch) echo "$SWITCHES" ;;
	*) echo "getppid-loop 0 10000 > /dev/null" ;;
	esac
}

BEVENTS="sched/sched_switch $EVENTS"
for fmt in ftrace ctf; do
	for ev in $BEVENTS; do
		instance sbb "$fmt" "$ev"
		sh -c "$(workload "$ev")"
		echo 0 > "$I/tracing_on"
		name=${ev#*/}
		if [ "$fmt" = ftrace ]; then
			awk -v n="$name" '$1 == "bytes:" { b = $2 } $1 == "entries:" { e = $2 }
				END { print "LRB-SYSBYTES ftrace", n, b + 0, e + 0 }' \
				"$I/per_cpu/cpu0/stats"
		else
			dd if="$I/per_cpu/cpu0/ctf_stream" of="$OUTD/$name.stream" bs=65536 \
				2> /dev/null
			echo "LRB-SYSBYTES ctf $name - $(ctf_counts "$I" | cut -d' ' -f1)"
		fi
		rmdir "$I"
	done
done
if command -v perf > /dev/null; then
	for ev in $BEVENTS; do
		name=${ev#*/}
		rm -f /tmp/sb.perf
		perf record -q -a -e "${ev%%/*}:$name" -o /tmp/sb.perf -- \
			sh -c "$(workload "$ev")" > /dev/null 2>&1
		# "0x... [0x68]: PERF_RECORD_SAMPLE(...)": the size of each.
		perf report -D -i /tmp/sb.perf 2> /dev/null |
			sed -n 's/.*\[0x\([0-9a-f]*\)\]: PERF_RECORD_SAMPLE.*/\1/p' |
			awk -v n="$name" '
			function hex(s, i, v) {
				for (i = 1; i <= length(s); i++)
					v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
				return v
			}
			{ b += hex($1); e++ }
			END { print "LRB-SYSBYTES perf", n, b + 0, e + 0 }'
		rm -f /tmp/sb.perf
	done
fi
echo "LRB-SYSBENCH-DONE"
