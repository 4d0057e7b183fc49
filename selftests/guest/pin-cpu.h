/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pin_cpu(): run the calling thread on the CPU its argument names, as the
 * getppid loads of the benchmarks do; 0, or -1 with a message.
 */
#ifndef LRB_PIN_CPU_H
#define LRB_PIN_CPU_H

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static inline int pin_cpu(const char *cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(atoi(cpu), &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return -1;
	}
	return 0;
}

#endif
