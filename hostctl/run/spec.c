// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct run_spec (spec.h): its defaults and whether its options go
 * together, before anything is built or booted.
 */
#include <errno.h>
#include <string.h>

#include "base/boundlog.h"
#include "crash/postmortem.h"
#include "errmsg.h"
#include "kbuild.h"
#include "run/spec.h"
#include "stepspec.h"
#include "vm/cloud.h"

void run_spec_init(struct run_spec *s)
{
	*s = (struct run_spec){
		.accel = ACCEL_AUTO,
		.kernel_dir = VLALAB_SRCDIR "/kernel",
		.dump_max_mb = PM_DUMP_MAX_MB_DEFAULT,
		.events_max_mb = BOUNDLOG_MAX_MB_DEFAULT,
		.console_max_mb = BOUNDLOG_MAX_MB_DEFAULT,
		.jobs = 1,
	};
}

int run_clock_parse(const char *s, enum run_clock *ret)
{
	static const char *const names[] = { "auto", "icount", "wall" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*ret = (enum run_clock)i;
			return 0;
		}
	}
	return -EINVAL;
}

int run_spec_image(struct run_spec *s, const char *spec, char *err,
		   size_t errlen)
{
	const char *path;
	int r;

	if (cloud_spec_path(spec, &path) < 0)
		return errmsg(
			err, errlen, -EINVAL,
			"--image '%s': give cloud:PATH, PATH a qcow2 cloud image",
			spec);
	r = cloud_check_qcow2(path, s->image_buf, sizeof(s->image_buf));
	if (r == -EMEDIUMTYPE)
		return errmsg(
			err, errlen, -EINVAL,
			"--image: '%s' is not a qcow2 image (convert it: qemu-img convert -O qcow2 IN OUT)",
			path);
	if (r < 0)
		return errmsg(err, errlen, -EINVAL, "--image: '%s': %s", path,
			      strerror(-r));
	s->image = s->image_buf;
	return 0;
}

/* --tree and --kernel choose the kernel instead of our series: each goes
 * only with its own options. */
static const char *kernel_choice_check(const struct run_spec *s)
{
	if (s->tree && s->ext_kernel)
		return "--tree and --kernel are two kernels; give one";
	if (s->tree_series && !s->tree)
		return "--series goes with --tree";
	if (s->tree && s->flavour)
		return "--flavour chooses one of our kernels, not a --tree";
	if ((s->tree || s->ext_kernel) && s->line)
		return "--line chooses Debian's source, not a --tree or --kernel";
	if (s->tree && s->n_without && !s->tree_series)
		return "--without-patch with --tree needs --series";
	if (!s->ext_kernel != !s->ext_modules)
		return "--kernel BZIMAGE and --modules DIR go together";
	if (s->ext_config && !s->ext_kernel)
		return "--config goes with --kernel";
	if (s->ext_kernel && (s->flavour || s->n_without))
		return "--flavour and --without-patch build our kernel, not a --kernel";
	if ((s->tree || s->ext_kernel) && s->initrd)
		return "--initrd replaces the image of our kernel only";
	if (s->image && s->initrd)
		return "--image and --initrd both name the guest's image; give one";
	return NULL;
}

/* --exec CMD runs one command, once, instead of scenarios. */
static const char *exec_check(const struct run_spec *s)
{
	if (!s->exec)
		return s->exec_timeout_s ?
			       "--exec-timeout bounds --exec: give --exec CMD" :
			       NULL;
	if (!*s->exec)
		return "--exec: an empty command";
	if (s->exec_timeout_s > EXEC_TIMEOUT_MAX_S)
		return "--exec-timeout: at most 3600 seconds (a scenario's bound)";
	if (strlen(s->exec) >= STEPSPEC_COMMAND_MAX)
		return "--exec: the command is 4096 bytes or longer";
	if (s->n_names)
		return "--exec runs a command instead of scenarios: give no scenario names";
	if (s->repeat)
		return "--exec runs the command once: no --repeat";
	if (s->keep_vm_on_fail)
		return "--exec has no scenario to keep a VM for: no --keep-vm-on-fail";
	return NULL;
}

int run_spec_hosts(struct run_spec *s, char *err, size_t errlen)
{
	const struct run_host *h = &s->hosts.v[0];

	if (!s->hosts.n)
		return 0;
	if (s->hosts.n > 1 && (s->repeat || s->exec || s->repro))
		return errmsg(
			err, errlen, -EINVAL,
			"several hosts take one run of scenarios: no --repeat, no --exec");
	/* The embedded driver, when one of them, is the one set up. */
	for (size_t i = 0; i < s->hosts.n; i++)
		if (!*s->hosts.v[i].uri)
			h = &s->hosts.v[i];
	s->connect = *h->uri ? h->uri : NULL;
	if (s->hosts.n == 1 && h->jobs)
		s->jobs = h->jobs;
	return 0;
}

int run_spec_check(const struct run_spec *s, char *err, size_t errlen)
{
	const char *bad = kernel_choice_check(s);
	char why[1024];
	int r;

	if (!bad)
		bad = exec_check(s);
	if (bad)
		return errmsg(err, errlen, -EINVAL, "%s", bad);
	if (s->line) {
		r = kbuild_line_check(s->line, why, sizeof(why));
		if (r < 0)
			return errmsg(err, errlen, -EINVAL, "--line: %s", why);
	}
	if (s->flavour) {
		r = kbuild_flavour_check(s->kernel_dir, s->flavour, why,
					 sizeof(why));
		if (r < 0)
			return errmsg(err, errlen, -EINVAL, "--flavour: %s",
				      r == -EINVAL ? why : strerror(-r));
		if (s->n_without && !strcmp(s->flavour, "vanilla"))
			return errmsg(
				err, errlen, -EINVAL,
				"--without-patch goes with a flavour that has the series, not 'vanilla'");
	}
	if (s->repeat && (s->junit || s->kcidb))
		return errmsg(
			err, errlen, -EINVAL,
			"--junit and --kcidb take one run, not --repeat's rounds; export a round with hostctl export");
	if (s->n_without) {
		r = kbuild_without_check(s->kernel_dir, s->line, s->without,
					 s->n_without, why, sizeof(why));
		if (r < 0)
			return errmsg(err, errlen, -EINVAL,
				      "--without-patch: %s", why);
	}
	return 0;
}
