// SPDX-License-Identifier: GPL-2.0-only
/*
 * modules.dep and modules.builtin lookups, load order, and the modprobe and
 * rmmod steps, against a fake modules directory and fake syscalls: nothing
 * is ever loaded into the host's kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

static char dir[256];

/* What the fake syscalls saw, and what they answer. */
static char calls[1024];
static const char *fail_on;     /* basename of the .ko that fails */
static int fail_errno;
static const char *last_params;
static int delete_ret;
static char deleted[64];
static unsigned int deleted_flags;

static int fake_finit(int fd, const char *params, int flags)
{
	char link[64], target[512];
	ssize_t n;
	char *base;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -EBADF;
	target[n] = '\0';
	base = basename(target);
	snprintf(calls + strlen(calls), sizeof(calls) - strlen(calls), "%s%s",
		 calls[0] ? " " : "", base);
	free((void *)last_params);
	last_params = strdup(params);
	if (fail_on && strcmp(base, fail_on) == 0)
		return -fail_errno;
	return 0;
}

static int fake_delete(const char *name, unsigned int flags)
{
	snprintf(deleted, sizeof(deleted), "%s", name);
	deleted_flags = flags;
	return delete_ret;
}

static const struct mod_sys fake_sys = {
	.finit_module = fake_finit,
	.delete_module = fake_delete,
};

static void reset(void)
{
	calls[0] = '\0';
	fail_on = NULL;
	fail_errno = 0;
}

static void make_tree(void)
{
	static const char *const kos[] = {
		"kernel/a/foo.ko", "kernel/b/bar-dep.ko", "kernel/c/base.ko",
		"kernel/d/loop1.ko", "kernel/d/loop2.ko", "kernel/f/zz.ko.xz",
	};
	char path[512];

	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	for (size_t i = 0; i < ARRAY_SIZE(kos); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, kos[i]);
		*strrchr(path, '/') = '\0';
		mkdir(dirname(strdupa(path)), 0755);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/%s", dir, kos[i]);
		tu_write(path, "", O_TRUNC);
	}
	snprintf(path, sizeof(path), "%s/modules.dep", dir);
	tu_write(path,
		 "kernel/a/foo.ko: kernel/b/bar-dep.ko kernel/c/base.ko\n"
		 "kernel/b/bar-dep.ko: kernel/c/base.ko\n"
		 "kernel/c/base.ko:\n"
		 "kernel/d/loop1.ko: kernel/d/loop2.ko\n"
		 "kernel/d/loop2.ko: kernel/d/loop1.ko\n"
		 "kernel/f/zz.ko.xz:\n", O_TRUNC);
	snprintf(path, sizeof(path), "%s/modules.builtin", dir);
	tu_write(path, "kernel/e/built_in-mod.ko\nkernel/e/other.ko\n",
		 O_TRUNC);
}

static void test_resolve(void)
{
	char **paths = NULL, want[512];
	size_t n = 0;
	bool builtin = true;

	is_int(mod_resolve(dir, "foo", &paths, &n, &builtin), 0, "resolve foo");
	is_int((long long)n, 3, "foo needs 3 files");
	ok(!builtin, "foo is not built in");
	if (n == 3) {
		snprintf(want, sizeof(want), "%s/kernel/c/base.ko", dir);
		is_str(paths[0], want, "base first (a dependency of bar-dep)");
		snprintf(want, sizeof(want), "%s/kernel/b/bar-dep.ko", dir);
		is_str(paths[1], want, "then bar-dep");
		snprintf(want, sizeof(want), "%s/kernel/a/foo.ko", dir);
		is_str(paths[2], want, "foo last");
	}
	mod_paths_free(paths, n);

	is_int(mod_resolve(dir, "bar_dep", &paths, &n, &builtin), 0,
	       "'bar_dep' finds bar-dep.ko ('-' and '_' are one)");
	is_int((long long)n, 2, "with its dependency");
	mod_paths_free(paths, n);

	is_int(mod_resolve(dir, "built-in_mod", &paths, &n, &builtin), 0,
	       "a built-in module resolves");
	ok(builtin && n == 0, "as built in, with nothing to load");

	is_int(mod_resolve(dir, "nope", &paths, &n, &builtin), -ENOENT,
	       "an unknown module is -ENOENT");
	is_int(mod_resolve(dir, "fo", &paths, &n, &builtin), -ENOENT,
	       "a prefix of a name is not the name");
	is_int(mod_resolve(dir, "loop1", &paths, &n, &builtin), -ELOOP,
	       "a dependency cycle is -ELOOP");
	is_int(mod_resolve("/nonexistent", "foo", &paths, &n, &builtin),
	       -ENOENT, "no modules.dep is -ENOENT");
}

static void test_load(void)
{
	char what[512], want[600];

	reset();
	is_int(mod_load(&fake_sys, dir, "foo", "x=1 y=2", what, sizeof(what)),
	       0, "load foo");
	is_str(calls, "base.ko bar-dep.ko foo.ko",
	       "dependencies first, each once");
	is_str(last_params, "x=1 y=2", "the parameters go to foo");

	reset();
	fail_on = "base.ko";
	fail_errno = EEXIST;
	is_int(mod_load(&fake_sys, dir, "foo", "", what, sizeof(what)), 0,
	       "EEXIST from a dependency is fine");
	is_str(calls, "base.ko bar-dep.ko foo.ko", "and loading goes on");

	reset();
	fail_on = "foo.ko";
	fail_errno = EEXIST;
	is_int(mod_load(&fake_sys, dir, "foo", "", what, sizeof(what)), -EEXIST,
	       "EEXIST from the module itself is reported");

	reset();
	fail_on = "bar-dep.ko";
	fail_errno = EINVAL;
	is_int(mod_load(&fake_sys, dir, "foo", "", what, sizeof(what)), -EINVAL,
	       "a failing dependency stops the load");
	is_str(calls, "base.ko bar-dep.ko", "foo is not tried");
	snprintf(want, sizeof(want), "finit_module('%s/kernel/b/bar-dep.ko')",
		 dir);
	is_str(what, want, "what failed is named");

	reset();
	is_int(mod_load(&fake_sys, dir, "built_in_mod", "", what, sizeof(what)),
	       0, "a built-in module loads trivially");
	is_str(calls, "", "without a syscall");

	reset();
	is_int(mod_unload(&fake_sys, "foo-bar"), 0, "unload");
	is_str(deleted, "foo_bar", "delete_module gets the '_' name");
	is_int(deleted_flags, O_NONBLOCK, "with O_NONBLOCK");
}

/* @json is refused by the request check, before it runs, with @reason. */
static void refused(const char *json, const char *reason, const char *what)
{
	struct json_object *s = json_tokener_parse(json);
	char err[256] = "";

	is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL, what);
	is_str(err, reason, what);
	json_object_put(s);
}

static void run_step(const char *json, struct step_result *res)
{
	struct step_env env = { .modules_dir = dir, .mod_sys = &fake_sys };
	struct step_ctx ctx = { .env = &env };
	struct json_object *step = json_tokener_parse(json);
	char err[256];

	memset(res, 0, sizeof(*res));
	res->verdict = VERDICT_CRASH;
	if (!step || step_check(step_table, step, err, sizeof(err)) < 0) {
		printf("# bad test step %s: %s\n", json, step ? err : "JSON");
		json_object_put(step);
		return;
	}
	step_find(step_table, step_str(step, "kind"))->run(&ctx, step, res);
	json_object_put(step);
}

static void test_steps(void)
{
	struct step_result res;
	char want[600];

	reset();
	run_step("{\"kind\":\"modprobe\",\"module\":\"foo\","
		 "\"params\":[\"a=1\",\"b=x y\"]}", &res);
	is_int(res.verdict, VERDICT_PASS, "modprobe foo passes");
	is_str(last_params, "a=1 b=x y", "params joined by spaces");

	reset();
	run_step("{\"kind\":\"modprobe\",\"module\":\"nope\","
		 "\"expect_errno\":\"ENOENT\"}", &res);
	is_int(res.verdict, VERDICT_PASS, "a missing module gives ENOENT");

	reset();
	fail_on = "foo.ko";
	fail_errno = EINVAL;
	run_step("{\"kind\":\"modprobe\",\"module\":\"foo\"}", &res);
	is_int(res.verdict, VERDICT_FAIL, "a failing finit_module fails");
	is_str(res.expected, "success", "expected success");
	snprintf(want, sizeof(want), "errno EINVAL from finit_module('%s/"
		 "kernel/a/foo.ko') (Invalid argument)", dir);
	is_str(res.got, want, "got the errno and the file");
	is_str(res.reason, "modprobe 'foo'", "the reason says what ran");

	reset();
	run_step("{\"kind\":\"modprobe\",\"module\":\"foo\","
		 "\"expect_errno\":\"EEXIST\"}", &res);
	is_int(res.verdict, VERDICT_FAIL, "success when an errno is expected");
	is_str(res.expected, "errno EEXIST", "expected the errno");
	is_str(res.got, "success (loaded)", "got success");

	refused("{\"kind\":\"modprobe\",\"module\":\"foo\","
		"\"expect_errno\":\"ENOTANERRNO\"}",
		"key 'expect_errno': unknown errno name 'ENOTANERRNO'",
		"an unknown errno name is refused before it runs");

	delete_ret = -EBUSY;
	run_step("{\"kind\":\"rmmod\",\"module\":\"foo-bar\"}", &res);
	is_int(res.verdict, VERDICT_FAIL, "rmmod of a busy module fails");
	is_str(res.got, "errno EBUSY from delete_module('foo-bar') "
	       "(Device or resource busy)", "got EBUSY");
	run_step("{\"kind\":\"rmmod\",\"module\":\"foo-bar\","
		 "\"expect_errno\":\"EBUSY\"}", &res);
	is_int(res.verdict, VERDICT_PASS, "rmmod expecting EBUSY passes");
	delete_ret = 0;
	run_step("{\"kind\":\"rmmod\",\"module\":\"foo\"}", &res);
	is_int(res.verdict, VERDICT_PASS, "rmmod passes");
}

int main(void)
{
	make_tree();
	test_resolve();
	test_load();
	test_steps();
	tu_rmrf(dir);
	free((void *)last_params);
	return tap_done();
}
