#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The flight recorder across a warm reboot then a crash, booted three
# times by scripts/crash-test with reserve_mem=...:ctfrec
# trace_instance=fr^ctf@ctfrec,... and memory that outlives a reset.
#
# First boot: the instance's memory held no trace (ctf_last_boot is
# empty); write 50 "warm" markers into the instance, then reboot.
# Second boot: the previous boot's trace is in ctf_last_boot: save it
# with ctftrace recover, say what it holds on the console, and put the
# file as it is on the disk, 192 MiB in (the host compares it with the
# dump); then write numbered markers into the instance, and panic. The
# host dumps the guest's memory, corrupts one packet in it, and resets it.
# Third boot: save the previous boot's trace with ctftrace recover into
# /trace, with what the kernel and the tool said, for the host to check.

i=/sys/kernel/tracing/instances/fr
if [ ! -r "$i/ctf_last_boot" ]; then
	echo "crash: no $i/ctf_last_boot"
	exit 1
fi
if [ "$(head -c 16 "$i/ctf_last_boot" | wc -c)" -eq 0 ]; then
	echo "crash: first boot, no trace of a previous one, overwrite $(cat "$i/options/overwrite")"
	n=1
	while [ $n -le 50 ]; do
		echo "crash-test warm marker $n" > "$i/trace_marker"
		n=$((n + 1))
	done
	sync
	reboot -f
	echo "crash: still running after reboot -f"
	exit 1
fi
if tr '\000' '\n' < "$i/ctf_last_boot" | grep -q 'crash-test warm marker'; then
	echo "crash: second boot, after a warm reboot"
	dmesg | grep 'trace_ctf: fr:' | sed 's/^/crash: warm: /'
	ctftrace recover -i fr -o /tmp/warm 2>&1 | sed 's/^/crash: warm: /'
	echo "crash: warm markers: $(cat /tmp/warm/kernel/channel0_* 2>/dev/null |
		tr '\000' '\n' | grep -c 'crash-test warm marker')"
	rm -rf /tmp/warm
	dd if="$i/ctf_last_boot" of=/dev/vda bs=1M seek=192 conv=notrunc 2>/dev/null ||
		echo "crash: could not write ctf_last_boot to /dev/vda"
	# No copy of the file left in the page cache: what the memory dump
	# holds besides the instance's memory is the kernel's doing
	# (init_on_free=1 clears the memory of the processes that read it).
	sync
	echo 3 > /proc/sys/vm/drop_caches
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
echo "crash: third boot, after the panic"
dmesg | grep 'trace_ctf: fr:' | tee /trace/kernel.txt
ctftrace recover -i fr -o /trace/lastboot > /trace/recover.txt 2>&1
rc=$?
cat /trace/recover.txt
exit $rc
