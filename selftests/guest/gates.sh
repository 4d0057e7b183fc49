#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The debug kernel's checkers, each made to report once (lrb.run=gates):
# tools/gates/gate_defects.ko commits one deliberate defect per load. The
# host (scripts/gates-selftest) checks that each report is in the log and
# is one scripts/boot fails on.
m=/gates/gate_defects.ko
[ -f $m ] || { echo "gates.sh: no $m"; exit 1; }
for k in kasan ubsan_bounds ubsan_shift rcu atomic_sleep objects_timer \
	objects_work objects_rcu list kfence lockdep; do
	echo "GATE-BEGIN $k"
	insmod $m kind=$k 2>/dev/null
	sleep 2
	echo "GATE-END $k"
done
exit 0
