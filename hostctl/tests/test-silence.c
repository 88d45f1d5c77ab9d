// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/silence.c, the silence rule: which threads are
 * QEMU's vCPUs, their run_delay summed from a fake /proc/PID/task, and a
 * guest whose vCPUs waited for the host, against one that hangs. The
 * samples are those of a TCG guest starved for 12 s of a 20 s silence
 * (the ftrace scenarios' "no heartbeat for 15 s" under load 20).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/silence.h"
#include "tap.h"

#define S 1000000ull /* µs in a second */
#define NS 1000000000ull /* ns in a second */

static char dir[64];

/* A thread @tid of the fake QEMU: its comm and schedstat. */
static void thread(int tid, const char *comm, unsigned long long run_ns,
		   unsigned long long delay_ns)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", dir, tid);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%d/comm", dir, tid);
	f = fopen(path, "w");
	fprintf(f, "%s\n", comm);
	fclose(f);
	snprintf(path, sizeof(path), "%s/%d/schedstat", dir, tid);
	f = fopen(path, "w");
	fprintf(f, "%llu %llu 42\n", run_ns, delay_ns);
	fclose(f);
}

static void test_names(void)
{
	static const struct {
		const char *comm;
		bool vcpu;
	} t[] = {
		{ "CPU 0/TCG\n", true },	{ "CPU 0/TCG", true },
		{ "CPU 12/KVM\n", true },	{ "qemu-system-x86\n", false },
		{ "CPU 0/TCGX\n", false },	{ "CPU /TCG\n", false },
		{ "IO mon_iothread\n", false }, { "CPU 0/HVF\n", false },
		{ "", false },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		okf(silence_is_vcpu(t[i].comm) == t[i].vcpu,
		    "'%.*s'%s is %sa vCPU", (int)strcspn(t[i].comm, "\n"),
		    t[i].comm, strchr(t[i].comm, '\n') ? " and a newline" : "",
		    t[i].vcpu ? "" : "not ");
}

int main(void)
{
	struct silence_sample before, after, none;
	uint64_t starved;

	test_names();
	snprintf(dir, sizeof(dir), "/tmp/test-silence-XXXXXX");
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}

	/* QEMU's threads at the guest's last heartbeat. */
	thread(100, "qemu-system-x86", 5 * NS, 9 * NS);
	thread(101, "CPU 0/TCG", 60 * NS, 1 * NS);
	thread(102, "IO mon_iothread", NS, 2 * NS);
	is_int(silence_sample_read(dir, &before), 0, "a sample");
	is_int(before.nvcpus, 1, "one vCPU thread");
	okf(before.delay_ns == 1 * NS, "its run_delay, no other's: %llu ns",
	    (unsigned long long)before.delay_ns);

	/*
	 * 20 s later: the vCPU ran 0.1 s and waited 12 s for a host CPU
	 * (the main thread's 30 s do not count: it sends no heartbeat).
	 */
	thread(100, "qemu-system-x86", 6 * NS, 39 * NS);
	thread(101, "CPU 0/TCG", 60 * NS + NS / 10, 13 * NS);
	is_int(silence_sample_read(dir, &after), 0, "a sample 20 s later");
	starved = silence_starved_us(&before, &after);
	okf(starved == 12 * S, "the vCPU waited 12 s: %llu µs",
	    (unsigned long long)starved);

	/* The rule, with a 15 s bound. */
	ok(!silence_over(20 * S, starved, 15 * S),
	   "silent 20 s, 12 s of it starved: not a hang");
	ok(silence_over(28 * S, starved, 15 * S),
	   "silent 28 s, 12 s of it starved: 16 s is a hang");
	ok(!silence_over(27 * S, starved, 15 * S),
	   "silent 27 s, 12 s of it starved: 15 s is not yet");
	ok(silence_over(16 * S, 200000, 15 * S),
	   "silent 16 s, its vCPU ran (0.2 s waited): a hang at the bound");
	ok(!silence_over(15 * S, 0, 15 * S), "silent 15 s: not yet");
	/* A spinning hung vCPU on a loaded host waits too: at most 15 s. */
	ok(!silence_over(30 * S, 25 * S, 15 * S),
	   "silent 30 s, 25 s of it starved: not yet");
	ok(silence_over(31 * S, 28 * S, 15 * S),
	   "silent 31 s, 28 s of it starved: the bound at most doubles");
	ok(!silence_over(10 * S, 0, 15 * S), "silent 10 s: not a hang");

	/* No QEMU pid (a remote connection): wall time, as before. */
	none = (struct silence_sample){ 0 };
	ok(silence_sample_read("/nonexistent/task", &none) == -ENOENT &&
		   none.nvcpus == 0,
	   "no such QEMU: no sample");
	is_int(silence_starved_us(&none, &after), 0,
	       "no sample of the last line: nothing discounted");
	is_int(silence_starved_us(&before, &none), 0,
	       "no sample now: nothing discounted");
	ok(silence_over(16 * S, silence_starved_us(&none, &none), 15 * S),
	   "without samples, silent 16 s is a hang");

	/* Two vCPUs: their mean, so one starved alone counts half. */
	thread(103, "CPU 1/TCG", 60 * NS, 1 * NS);
	silence_sample_read(dir, &before);
	is_int(before.nvcpus, 2, "two vCPU threads");
	thread(101, "CPU 0/TCG", 61 * NS, 25 * NS);
	thread(103, "CPU 1/TCG", 70 * NS, 5 * NS);
	silence_sample_read(dir, &after);
	starved = silence_starved_us(&before, &after);
	okf(starved == 8 * S, "12 s and 4 s waited: 8 s: %llu µs",
	    (unsigned long long)starved);
	/* A vCPU more or less (hotplug): no discount. */
	thread(104, "CPU 2/TCG", 0, 0);
	silence_sample_read(dir, &after);
	is_int(silence_starved_us(&before, &after), 0,
	       "another vCPU count: nothing discounted");
	/* A counter that went back (a new thread, same count): none. */
	before.delay_ns = 99 * NS;
	before.nvcpus = 3;
	is_int(silence_starved_us(&before, &after), 0,
	       "a run_delay that went back: nothing discounted");

	for (int tid = 100; tid <= 104; tid++) {
		char path[128];

		snprintf(path, sizeof(path), "%s/%d/comm", dir, tid);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%d/schedstat", dir, tid);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%d", dir, tid);
		rmdir(path);
	}
	rmdir(dir);
	return tap_done();
}
