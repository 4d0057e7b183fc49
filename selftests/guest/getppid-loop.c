// SPDX-License-Identifier: GPL-2.0
/*
 * getppid-loop CPU CALLS [perf]: call getppid() CALLS times in a row on
 * CPU, after CALLS / 10 calls to warm up, and print the nanoseconds per call
 * of CLOCK_MONOTONIC (instructions per call in a guest run with -icount
 * shift=0). The loop of scripts/bench-syscall: with syscalls:sys_enter_getppid
 * and sys_exit_getppid enabled, two events a call.
 *
 * With "perf", the loop itself records both events with perf, as perf
 * record does (a sample of every event: identifier, ip, tid, time, cpu,
 * period and the raw tracepoint record), into one perf ring buffer large
 * enough for them all, which nothing reads while the loop runs: perf's
 * write path alone, as an ftrace or CTF instance with no reader. It then
 * prints, on a second line, the samples in the buffer, their bytes and the
 * samples perf counted lost.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pin-cpu.h"

#define EVENTS "/sys/kernel/tracing/events/syscalls/"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int tp_id(const char *name)
{
	char path[128];
	int id = -1;
	FILE *f;

	snprintf(path, sizeof(path), EVENTS "%s/id", name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%d", &id) != 1)
		id = -1;
	if (f)
		fclose(f);
	return id;
}

static int tp_open(const char *name, int group)
{
	struct perf_event_attr attr;
	int id = tp_id(name);

	if (id < 0) {
		fprintf(stderr, "no event %s\n", name);
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			   PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			   PERF_SAMPLE_RAW;
	attr.disabled = 1;
	attr.exclude_guest = 1;
	return syscall(SYS_perf_event_open, &attr, 0, -1, group, 0);
}

int main(int argc, char **argv)
{
	unsigned long long samples = 0, bytes = 0, lost = 0, off, head;
	struct perf_event_mmap_page *meta = NULL;
	int perf = argc == 4 && !strcmp(argv[3], "perf");
	int fd[2] = { -1, -1 };
	long long start, calls, i;
	size_t len = 0, page;
	char *data = NULL;

	if ((argc != 3 && !perf) || (calls = atoll(argv[2])) <= 0) {
		fprintf(stderr, "usage: getppid-loop CPU CALLS [perf]\n");
		return 1;
	}
	if (pin_cpu(argv[1]))
		return 1;
	if (perf) {
		page = sysconf(_SC_PAGESIZE);
		/* Room for every sample of the run, warm-up included. */
		for (len = page; len < (size_t)(calls + calls / 10) * 2 * 128; len *= 2)
			;
		fd[0] = tp_open("sys_enter_getppid", -1);
		fd[1] = fd[0] < 0 ? -1 : tp_open("sys_exit_getppid", -1);
		if (fd[1] < 0) {
			perror("perf_event_open");
			return 1;
		}
		meta = mmap(NULL, page + len, PROT_READ | PROT_WRITE, MAP_SHARED, fd[0], 0);
		if (meta == MAP_FAILED || ioctl(fd[1], PERF_EVENT_IOC_SET_OUTPUT, fd[0])) {
			perror("perf mmap");
			return 1;
		}
		data = (char *)meta + page;
		ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0);
		ioctl(fd[1], PERF_EVENT_IOC_ENABLE, 0);
	}
	for (i = 0; i < calls / 10; i++)
		syscall(SYS_getppid);
	start = now_ns();
	for (i = 0; i < calls; i++)
		syscall(SYS_getppid);
	printf("%.1f\n", (double)(now_ns() - start) / calls);
	if (!perf)
		return 0;
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd[1], PERF_EVENT_IOC_DISABLE, 0);
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	for (off = 0; off < head && off < len;) {
		struct perf_event_header *h = (void *)(data + off);

		if (h->type == PERF_RECORD_SAMPLE) {
			samples++;
			bytes += h->size;
		} else if (h->type == PERF_RECORD_LOST) {
			lost += ((unsigned long long *)(h + 1))[1];
		}
		if (!h->size)
			break;
		off += h->size;
	}
	printf("%llu %llu %llu\n", samples, bytes, lost);
	return 0;
}
