#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The workload ctftrace records in the main job (ctftrace-demo.sh) and
# streams to the host (ctftrace-stream.sh): processes starting and exiting,
# pipes, file I/O on the tmpfs and reads of the disk, timers, and a module
# loaded and unloaded.

i=0
while [ $i -lt 20 ]; do
	ls /usr/share/lrb | wc -l > /dev/null
	echo "run $i" | tr a-z A-Z > /tmp/ctftrace-demo.$i
	i=$((i + 1))
done
dd if=/dev/zero of=/tmp/ctftrace-demo.big bs=64k count=32 2> /dev/null
[ -b /dev/vda ] && dd if=/dev/vda of=/dev/null bs=64k count=64 2> /dev/null
modprobe trace-events-sample && sleep 1 && modprobe -r trace-events-sample
sleep 0.5
rm -f /tmp/ctftrace-demo.*
