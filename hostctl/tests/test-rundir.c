// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run directory's names (results/rundir.h): a VM's label made and
 * parsed back, the labels that do not parse (the guest writes the "vm"
 * member of events.jsonl lines that a summary.json may carry into a path
 * or a URL: export_scenario_vm() takes only what parses), and the file
 * names as docs/protocol.md spells them.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "results/results.h"
#include "results/rundir.h"
#include "tap.h"

/* Made, then parsed back to the same number. */
static void test_round_trip(void)
{
	static const unsigned int nos[] = { 0, 1, 9, 10, 42, 1000, UINT_MAX };
	char label[32];

	for (size_t i = 0; i < sizeof(nos) / sizeof(nos[0]); i++) {
		unsigned int back = 7;
		int r = rundir_vm_label(label, sizeof(label), nos[i]);

		okf(r == 0, "VM %u: labelled '%s'", nos[i], label);
		okf(rundir_vm_parse(label, &back) == 0 && back == nos[i],
		    "'%s' parses back to %u (got %u)", label, nos[i], back);
	}
	rundir_vm_label(label, sizeof(label), 3);
	is_str(label, "vm3", "VM 3 is 'vm3'");
	rundir_vm_label(label, sizeof(label), UINT_MAX);
	is_str(label, "vm4294967295", "the largest VM number's label");
	is_int(rundir_vm_label(label, 4, 1234), -ENAMETOOLONG,
	       "a label that does not fit: -ENAMETOOLONG");
	is_str(label, "vm1", "... and the buffer holds what fits");
}

/* What rundir_vm_label() never makes does not parse. */
static void test_bad_labels(void)
{
	static const char *const bad[] = {
		"",
		"vm",
		"vm0x",
		"vm0x1",
		"vm99999999999",
		"vm4294967296",
		"vm18446744073709551617",
		"vm01",
		"vm00",
		"vm-1",
		"vm+1",
		"vm 1",
		"vm1 ",
		"vm1\n",
		"vm1/../x",
		"vm1.log",
		"VM1",
		"v1",
		"1",
		"xvm1",
		"vm\xd9\xa1", /* an Arabic-Indic one */
	};
	unsigned int vmno;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		vmno = 7;
		okf(rundir_vm_parse(bad[i], &vmno) == -EINVAL && vmno == 7,
		    "bad label #%zu ('%s') refused, the number untouched", i,
		    bad[i]);
	}
	is_int(rundir_vm_parse(NULL, &vmno), -EINVAL, "no label: refused");
}

/*
 * The export takes a scenario's VM label into a console log's path and
 * KCIDB's log_url only when it parses.
 */
static void test_export_label(void)
{
	static const struct {
		const char *label;
		bool ok;
	} cases[] = {
		{ "vm3", true },
		{ "vm4294967295", true },
		{ "vm", false },
		{ "vm0x", false },
		{ "vm99999999999", false },
		{ "vm01", false },
		{ "vm1/../../x", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct res_scenario sc = { 0 };
		const char *got;

		snprintf(sc.vm, sizeof(sc.vm), "%s", cases[i].label);
		got = export_scenario_vm(&sc);
		okf(cases[i].ok ? got && strcmp(got, cases[i].label) == 0 :
				  got == NULL,
		    "export: the label '%s' %s", cases[i].label,
		    cases[i].ok ? "is taken" : "is left out");
	}
}

/* The names, as docs/protocol.md and docs/crashes.md spell them. */
static void test_names(void)
{
	char buf[128];

	is_str(RUNDIR_EVENTS, "events.jsonl", "events");
	is_str(RUNDIR_SUMMARY, "summary.json", "summary");
	is_str(RUNDIR_KTAP, "results.ktap", "KTAP");
	snprintf(buf, sizeof(buf), "%s/" RUNDIR_CONSOLE, "run", "vm2");
	is_str(buf, "run/console-vm2.log", "a VM's console log");
	snprintf(buf, sizeof(buf), RUNDIR_PROTO_ERROR, "vm2");
	is_str(buf, "protocol-error-vm2.txt", "a VM's protocol error");
	snprintf(buf, sizeof(buf), RUNDIR_BUNDLE, "vm2", 3u);
	is_str(buf, "bundle-vm2-3", "a post-mortem bundle");
	snprintf(buf, sizeof(buf), RUNDIR_DISK, "net-a", "-b2", "qcow2");
	is_str(buf, "disk-net-a-b2.qcow2", "a scenario's disk");
	snprintf(buf, sizeof(buf), RUNDIR_ROUND, 2u);
	is_str(buf, "round-2", "a --repeat round");
	is_str(RUNDIR_LATEST, "latest", "the newest run's link");
}

int main(void)
{
	test_round_trip();
	test_bad_labels();
	test_export_label();
	test_names();
	return tap_done();
}
