#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ftrace's own selftests (tools/testing/selftests/ftrace, installed in
# /kselftest/ftrace) in the guest, one test file at a time so that each has
# its own result and its own time limit (lrb.run=ftracetest).
#
# Kernel command line:
#   lrb.ftracetest=plain|ctf|both   plain: every test as ftracetest runs it
#                                   (the top-level buffer, then the
#                                   instance tests in fresh instances);
#                                   ctf: only the instance tests, in fresh
#                                   instances whose buffer_format is ctf
#                                   (ftracetest --buffer-format ctf);
#                                   both: plain, then ctf (default)
#   lrb.ftracetest_tests=A,B        only these tests (paths under test.d,
#                                   shell patterns: kprobe/multiple_kprobes.tc)
#   lrb.ftracetest_repeat=N         run the selection N times (default 1)
#   lrb.ftracetest_timeout=S        time limit of one test file (default 900);
#                                   past it, the blocked tasks (sysrq w),
#                                   the CPUs' stacks (sysrq l) and the
#                                   processes are printed, the test is
#                                   killed and reported as TIMEOUT
#
# Prints one line per result, for scripts/ftracetest-check:
#   FTRACETEST <mode> <PASS|FAIL|UNRESOLVED|UNSUPPORTED|UNTESTED|XFAIL|TIMEOUT> <test>[ (instance)]
# and the failing tests' logs. Exits 0: the host judges the results against
# the base kernel's.

FT=/kselftest/ftrace
mode=both tests= repeat=1 limit=900
for arg in $(cat /proc/cmdline); do
	case "$arg" in
	lrb.ftracetest=*) mode=${arg#*=} ;;
	lrb.ftracetest_tests=*) tests=$(echo "${arg#*=}" | tr , ' ') ;;
	lrb.ftracetest_repeat=*) repeat=${arg#*=} ;;
	lrb.ftracetest_timeout=*) limit=${arg#*=} ;;
	esac
done
if [ ! -x "$FT/ftracetest" ]; then
	echo "ftracetest.sh: no $FT/ftracetest installed"
	exit 1
fi

# What the suite's tests expect of a machine: the loopback interface up
# (ping makes network events), a group and a user other than root's
# (eventfs ownership), /etc/mtab for the mount options test.
ip link set lo up 2>/dev/null
grep -q '^root:' /etc/group 2>/dev/null || echo 'root:x:0:' >> /etc/group
grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >> /etc/group
[ -e /etc/mtab ] || ln -s /proc/mounts /etc/mtab

# result TAPLINE: the result of a KTAP line of ftracetest -K.
result() {
	case "$1" in
	"not ok "*"# UNRESOLVED"*) echo UNRESOLVED ;;
	"not ok "*) echo FAIL ;;
	"ok "*"# XFAIL"*) echo XFAIL ;;
	"ok "*"# SKIP"*) echo UNSUPPORTED ;;
	"ok "*) echo PASS ;;
	esac
}

# alive PID: PID runs (exists and is not a zombie).
alive() {
	[ -r "/proc/$1/stat" ] && ! grep -q '^[0-9]* (.*) Z ' "/proc/$1/stat" 2>/dev/null
}

# run MODE TEST: one test file, its result lines.
run() {
	local m=$1 t=$2 out rc opt= n=0 line name pid
	[ "$m" = ctf ] && opt="--buffer-format ctf"
	out=/tmp/ftracetest.out
	start=$(date +%s)
	# shellcheck disable=SC2086 # opt is two words or none
	"$FT/ftracetest" -K -v $opt "$FT/test.d/$t" > "$out" 2>&1 &
	pid=$!
	while alive $pid && [ $(($(date +%s) - start)) -lt "$limit" ]; do
		sleep 1
	done
	if alive $pid; then
		# Who is blocked, and on what, and what the CPUs run, before
		# the test is killed: a task in D state does not die of
		# SIGKILL, and then the test is left behind, not waited for.
		echo "ftracetest.sh: $t still running after ${limit}s: blocked tasks and CPUs follow"
		echo w > /proc/sysrq-trigger
		echo l > /proc/sysrq-trigger
		ps -o pid,stat,args 2>/dev/null || ps
		kill -KILL $pid 2>/dev/null
		sleep 5
		alive $pid && echo "ftracetest.sh: $t does not die: left behind"
		rc=137
	else
		wait $pid
		rc=$?
	fi
	end=$(date +%s)
	grep -E '^(not )?ok [0-9]' "$out" > /tmp/ftracetest.res
	while IFS= read -r line; do
		n=$((n + 1))
		name=$t
		case "$line" in *"(instance)"*) name="$t (instance)" ;; esac
		echo "FTRACETEST $m $(result "$line") $name $((end - start))s"
	done < /tmp/ftracetest.res
	case "$(cat /tmp/ftracetest.res)" in
	*"not ok"*) sed -n '/^# /p' "$out" | tail -n 60 ;;
	esac
	if [ $rc = 137 ]; then
		echo "FTRACETEST $m TIMEOUT $t $((end - start))s"
		tail -n 30 "$out"
		# What a timed-out test left behind must not fail the next one.
		for d in /sys/kernel/tracing/instances/ftracetest.*; do
			[ -d "$d" ] && rmdir "$d" 2>/dev/null
		done
	fi
}

all=$(cd "$FT/test.d" && find . -name '*.tc' | sed 's|^\./||' | sort)
sel=
for t in $all; do
	if [ -n "$tests" ]; then
		keep=0
		for p in $tests; do
			# shellcheck disable=SC2254 # p is a pattern
			case "$t" in $p) keep=1 ;; esac
		done
		[ $keep = 1 ] || continue
	fi
	sel="$sel $t"
done

i=0
while [ $i -lt "$repeat" ]; do
	i=$((i + 1))
	echo "ftracetest.sh: round $i of $repeat, mode $mode, $(echo $sel | wc -w) test files"
	if [ "$mode" = plain ] || [ "$mode" = both ]; then
		for t in $sel; do
			run plain "$t"
		done
	fi
	if [ "$mode" = ctf ] || [ "$mode" = both ]; then
		for t in $sel; do
			grep -q '^#[ 	]*flags:.*instance' "$FT/test.d/$t" || continue
			run ctf "$t"
		done
	fi
done
echo "ftracetest.sh: done"
exit 0
