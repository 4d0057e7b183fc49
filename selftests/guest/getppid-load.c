// SPDX-License-Identifier: GPL-2.0
/*
 * getppid-load CPU RATE SECONDS: call getppid() RATE times a second on CPU
 * for SECONDS, spread over each millisecond, and print how many calls were
 * made (fewer than asked when the CPU cannot keep up). The load of
 * scripts/bench-tool: with syscalls:sys_enter_getppid enabled, one event a
 * call.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pin-cpu.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned long long done = 0, want;
	double start, end, t;
	long rate;

	if (argc != 4) {
		fprintf(stderr, "usage: getppid-load CPU RATE SECONDS\n");
		return 1;
	}
	if (pin_cpu(argv[1]))
		return 1;
	rate = atol(argv[2]);
	start = now();
	end = start + atof(argv[3]);
	while ((t = now()) < end) {
		/* The calls due by the end of the current millisecond. */
		want = (unsigned long long)(((long long)((t - start) * 1000) + 1) * rate / 1000);
		while (done < want) {
			syscall(SYS_getppid);
			done++;
		}
	}
	printf("%llu\n", done);
	return 0;
}
