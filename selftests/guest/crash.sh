#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The flight recorder across a crash, booted twice by scripts/crash-test
# with reserve_mem=...:ctfrec trace_instance=fr^ctf@ctfrec,... and memory
# that outlives a reset.
#
# First boot: the instance's memory held no trace (ctf_last_boot is
# empty); write numbered markers into the instance, then panic. The host
# dumps the guest's memory, corrupts one packet in it, and resets it.
# Second boot: save the previous boot's trace with ctftrace recover into
# /trace, with what the kernel and the tool said, for the host to check.

i=/sys/kernel/tracing/instances/fr
if [ ! -r "$i/ctf_last_boot" ]; then
	echo "crash: no $i/ctf_last_boot"
	exit 1
fi
if [ "$(head -c 16 "$i/ctf_last_boot" | wc -c)" -eq 0 ]; then
	echo "crash: first boot, no trace of a previous one, overwrite $(cat "$i/options/overwrite")"
	n=1
	while [ $n -le 200 ]; do
		echo "crash-test marker $n" > "$i/trace_marker"
		n=$((n + 1))
	done
	/bin/true
	echo "crash-test: the last marker before the panic" > "$i/trace_marker"
	echo c > /proc/sysrq-trigger
	echo "crash: still running after sysrq c"
	exit 1
fi
echo "crash: second boot"
dmesg | grep 'trace_ctf: fr:' | tee /trace/kernel.txt
ctftrace recover -i fr -o /trace/lastboot > /trace/recover.txt 2>&1
rc=$?
cat /trace/recover.txt
exit $rc
