// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild_image_build(): the guest initramfs. A gen_init_cpio spec (no root needed:
 * device nodes and ownership come from the spec) lists busybox and its
 * applet links, /init, /sbin/guestd, host programs with the shared
 * libraries they load (guestd's libraries too: it is linked dynamically), the staged modules and extra_dir; the kernel's own
 * usr/gen_init_cpio writes the newc archive and gzip packs it. Cached under
 * images/<key>/ by a hash of every input. The folders it takes whole are
 * read in imgtree.c, the host programs and their libraries in hostfiles.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

#define IMAGE_FORMAT "2"
#define DEFAULT_BUSYBOX "/bin/busybox"

#define SSH_KEY_LINE_MAX 4096

/* The guest's root account, for dropbear: a login, no password. */
static const char img_passwd[] = "root:x:0:0:root:/root:/bin/sh\n";
static const char img_group[] = "root:x:0:\n";

/* Directories every image has; /etc/vlalab is reserved for scenario files. */
static const char *const base_dirs[] = {
	"/dev",
	"/proc",
	"/sys",
	"/tmp",
	"/run",
	"/bin",
	"/sbin",
	"/usr",
	"/usr/bin",
	"/usr/sbin",
	"/lib",
	"/lib/modules",
	"/etc",
	"/etc/vlalab",
	"/root",
	"/mnt",
	"/var",
	"/usr/lib",
	"/usr/lib/kselftest",
};

/* Where the kernel's selftests go, and where they come from in its tree. */
#define KSELFTEST_GUEST "/usr/lib/kselftest"
#define KSELFTEST_TREE "tools/testing/selftests"
#define KSELFTESTS_MAX 16

static bool is_base_dir(const char *dir)
{
	for (size_t i = 0; i < sizeof(base_dirs) / sizeof(base_dirs[0]); i++)
		if (!strcmp(base_dirs[i], dir))
			return true;
	return false;
}

/* The host files, each after the folders above it that the base set lacks. */
static int spec_hostfiles(FILE *f, const struct kb_img_hostfiles *h)
{
	char **made = NULL;
	size_t nmade = 0;
	int r = 0;

	for (size_t i = 0; r == 0 && i < h->n; i++) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%s", h->guest[i]);
		for (char *s = strchr(dir + 1, '/'); r == 0 && s;
		     s = strchr(s + 1, '/')) {
			bool seen;

			*s = '\0';
			seen = is_base_dir(dir);
			for (size_t j = 0; !seen && j < nmade; j++)
				seen = !strcmp(made[j], dir);
			if (!seen) {
				fprintf(f, "dir %s 755 0 0\n", dir);
				r = kb_strv_push(&made, nmade, dir);
				if (r == 0)
					nmade++;
			}
			*s = '/';
		}
		fprintf(f, "file %s %s 755 0 0\n", h->guest[i], h->src[i]);
	}
	kb_strv_free(made, nmade);
	return r;
}

static int file_hash(struct kb_hash *h, const char *tag, const char *path)
{
	char sum[65];
	int r = kb_sha256_file_hex(path, sum);

	return r < 0 ? r : kb_hash_add_str(h, tag, sum);
}

/* Writes the gen_init_cpio spec. applets is `busybox --list-full`; a host
 * program at an applet's path replaces the applet. */
static int write_spec(FILE *f, const char *busybox, char *applets,
		      const char *init, const char *guestd,
		      const struct kb_img_hostfiles *hf,
		      const struct kb_img_tree *mods,
		      const struct kb_img_tree *extra, const char *const *ks,
		      const struct kb_img_tree *kstrees, size_t nks,
		      const char *ssh_dir)
{
	char guest[PATH_MAX];
	int r;

	for (size_t i = 0; i < sizeof(base_dirs) / sizeof(base_dirs[0]); i++)
		fprintf(f, "dir %s %o 0 0\n", base_dirs[i],
			!strcmp(base_dirs[i], "/tmp") ? 01777 : 0755);
	fprintf(f, "nod /dev/console 600 0 0 c 5 1\n");
	fprintf(f, "nod /dev/null 666 0 0 c 1 3\n");
	fprintf(f, "file /bin/busybox %s 755 0 0\n", busybox);
	for (char *s = strtok(applets, "\n"); s; s = strtok(NULL, "\n")) {
		if (kb_img_bad_name(s) || !strcmp(s, "bin/busybox") ||
		    strstr(s, ".."))
			continue;
		snprintf(guest, sizeof(guest), "/%s", s);
		if (kb_img_hostfiles_has(hf, guest))
			continue;
		/* Applets live in bin, sbin, usr/bin and usr/sbin: all exist. */
		fprintf(f, "slink /%s /bin/busybox 777 0 0\n", s);
	}
	fprintf(f, "file /init %s 755 0 0\n", init);
	if (guestd)
		fprintf(f, "file /sbin/guestd %s 755 0 0\n", guestd);
	r = spec_hostfiles(f, hf);
	if (r < 0)
		return r;
	if (ssh_dir) {
		fprintf(f, "file /etc/passwd %s/passwd 644 0 0\n", ssh_dir);
		fprintf(f, "file /etc/group %s/group 644 0 0\n", ssh_dir);
		fprintf(f, "dir /etc/dropbear 700 0 0\n");
		fprintf(f,
			"file /etc/dropbear/dropbear_ed25519_host_key %s/ssh_host_key 600 0 0\n",
			ssh_dir);
		fprintf(f, "dir /root/.ssh 700 0 0\n");
		fprintf(f,
			"file /root/.ssh/authorized_keys %s/authorized_keys 600 0 0\n",
			ssh_dir);
	}
	kb_img_tree_spec(f, "", mods);
	for (size_t i = 0; i < nks; i++) {
		char prefix[PATH_MAX];

		snprintf(prefix, sizeof(prefix), "%s/%s", KSELFTEST_GUEST,
			 ks[i]);
		fprintf(f, "dir %s 755 0 0\n", prefix);
		kb_img_tree_spec(f, prefix, &kstrees[i]);
	}
	kb_img_tree_spec(f, "", extra);
	return ferror(f) ? -EIO : 0;
}

/* A folder of tools/testing/selftests: one component, no '.' or '..'. */
static bool kselftest_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n < 64 && strcmp(s, ".") && strcmp(s, "..") &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") == n;
}

/*
 * Read the selftest folders opts asks for from the kernel's tree into
 * @trees, and add them to the image's key, files by content.
 */
static int read_kselftests(const struct kbuild_image_opts *opts,
			   struct kb_img_tree *trees, struct kb_hash *h,
			   struct kb_progress *p)
{
	char src[PATH_MAX];
	int r = 0;

	if (opts->n_kselftests > KSELFTESTS_MAX) {
		kb_msg(p, "image: %zu selftest folders, at most %d",
		       opts->n_kselftests, KSELFTESTS_MAX);
		return -E2BIG;
	}
	if (!opts->kernel->tree[0]) {
		kb_msg(p, "image: selftests asked for, but no kernel tree");
		return -EINVAL;
	}
	for (size_t i = 0; r == 0 && i < opts->n_kselftests; i++) {
		const char *d = opts->kselftests[i];

		if (!kselftest_name_ok(d)) {
			kb_msg(p, "image: bad selftest folder name '%s'", d);
			return -EINVAL;
		}
		r = kb_path(src, sizeof(src), "%s/%s/%s", opts->kernel->tree,
			    KSELFTEST_TREE, d);
		if (r == 0)
			r = kb_img_tree_read(src, false, &trees[i]);
		if (r < 0) {
			kb_msg(p,
			       "image: cannot read the selftests in '%s': %s%s",
			       src, strerror(-r),
			       r == -EINVAL ? " (a name with whitespace?)" :
					      "");
			return r;
		}
		r = kb_hash_add_str(h, "kselftest", d);
		if (r == 0)
			r = kb_img_tree_hash(h, "kselftest-files", &trees[i]);
	}
	return r;
}

/* gen_init_cpio spec | gzip -n > out, both children at once. */
static int pack(const char *gen, const char *spec, const char *out)
{
	char *gen_argv[] = { (char *)gen, (char *)spec, NULL };
	char *gz_argv[] = { "gzip", "-n", "-6", NULL };
	pid_t gen_pid = -1, gz_pid = -1;
	int pipefd[2], out_fd, r, r2;

	/* @out is a temporary name: never opened through what is there. */
	out_fd = fileio_create_tmp(out, 0644);
	if (out_fd < 0)
		return out_fd;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		r = -errno;
		close(out_fd);
		return r;
	}
	r = kb_spawn(gen_argv, NULL, -1, pipefd[1], 2, &gen_pid);
	close(pipefd[1]);
	if (r == 0)
		r = kb_spawn(gz_argv, NULL, pipefd[0], out_fd, 2, &gz_pid);
	close(pipefd[0]);
	close(out_fd);
	r2 = gen_pid > 0 ? kb_wait(gen_pid, NULL) : 0;
	if (gz_pid > 0) {
		int r3 = kb_wait(gz_pid, NULL);

		if (r == 0)
			r = r3;
	}
	return r < 0 ? r : r2;
}

/* Write @len bytes of @data to @path, all or nothing, for root alone. */
static int write_file_atomic(const char *path, const char *data, size_t len)
{
	return fileio_write_atomic_mode(path, data, len, 0600);
}

/*
 * The SSH files of the image in @dir: the root account, the authorised
 * client key (@pub, one line), and the dropbear host key, made once per
 * image (two builds of one image may race: the first key linked in place
 * wins, and both derive the public part from it).
 */
static int ssh_files(const char *dir, const char *pub, char *ret_pub,
		     size_t pub_len, char *err, size_t errlen)
{
	char key[PATH_MAX], tmp[PATH_MAX], path[PATH_MAX];
	char out[SSH_KEY_LINE_MAX] = "", *line;
	char *text = NULL;
	size_t len = 0;
	int r;

	r = fileio_read(pub, SSH_KEY_LINE_MAX, &text, &len, NULL);
	if (r == 0 && (len == 0 || strncmp(text, "ssh-", 4) != 0 ||
		       memchr(text, '\n', len) != text + len - 1))
		r = -EINVAL;
	if (r < 0) {
		snprintf(err, errlen,
			 "the client key '%s' is not one public key line: %s",
			 pub, strerror(-r));
		free(text);
		return r;
	}
	r = kb_path(path, sizeof(path), "%s/authorized_keys", dir);
	if (r == 0)
		r = write_file_atomic(path, text, len);
	free(text);
	if (r == 0)
		r = kb_path(path, sizeof(path), "%s/passwd", dir);
	if (r == 0)
		r = write_file_atomic(path, img_passwd, strlen(img_passwd));
	if (r == 0)
		r = kb_path(path, sizeof(path), "%s/group", dir);
	if (r == 0)
		r = write_file_atomic(path, img_group, strlen(img_group));
	if (r == 0)
		r = kb_path(key, sizeof(key), "%s/ssh_host_key", dir);
	if (r == 0)
		r = kb_path(tmp, sizeof(tmp), "%s.tmp.%ld", key,
			    (long)getpid());
	if (r < 0) {
		snprintf(err, errlen, "writing the SSH files in '%s': %s", dir,
			 strerror(-r));
		return r;
	}
	if (access(key, R_OK) < 0) {
		unlink(tmp);
		r = kb_run_output((char *[]){ "dropbearkey", "-t", "ed25519",
					      "-f", tmp, NULL },
				  NULL, out, sizeof(out));
		if (r == 0 && link(tmp, key) < 0 && errno != EEXIST)
			r = -errno;
		unlink(tmp);
		if (r < 0) {
			snprintf(
				err, errlen,
				"'dropbearkey -t ed25519' failed: %s%s%s (install dropbear-bin)",
				strerror(-r), out[0] ? ": " : "", out);
			return r;
		}
	}
	r = kb_run_capture((char *[]){ "dropbearkey", "-y", "-f", key, NULL },
			   NULL, out, sizeof(out));
	line = r == 0 ? strstr(out, "\nssh-ed25519 ") : NULL;
	if (line) {
		line++;
		line[strcspn(line, "\n")] = '\0';
	}
	if (!line) {
		snprintf(err, errlen, "'dropbearkey -y -f %s' gave no key: %s",
			 key, r < 0 ? strerror(-r) : "no ssh-ed25519 line");
		return r < 0 ? r : -EINVAL;
	}
	r = kb_path(path, sizeof(path), "%s/ssh_host_key.pub", dir);
	if (r == 0) {
		size_t n = strlen(line);

		line[n] = '\n';
		r = write_file_atomic(path, line, n + 1);
	}
	if (r < 0) {
		snprintf(err, errlen, "writing '%s': %s", path, strerror(-r));
		return r;
	}
	snprintf(ret_pub, pub_len, "%s", path);
	return 0;
}

int kbuild_image_build(const struct kbuild_image_opts *opts,
		       struct kbuild_image_result *ret)
{
	const char *busybox = opts->busybox ? opts->busybox : DEFAULT_BUSYBOX;
	const struct kbuild_result *k = opts->kernel;
	char cache[PATH_MAX], dir[PATH_MAX], out[PATH_MAX], tmp[PATH_MAX],
		spec[PATH_MAX];
	char mods[PATH_MAX], gen[PATH_MAX], init_default[PATH_MAX],
		spec_tmp[PATH_MAX];
	struct kb_img_tree mtree = { 0 }, etree = { 0 };
	struct kb_img_tree kstrees[KSELFTESTS_MAX] = { 0 };
	struct kb_img_hostfiles hf = { 0 };
	struct kbuild_image_result res = { 0 };
	char err[PATH_MAX + 256];
	struct kb_hash *h = NULL;
	struct kb_progress p;
	char *applets = NULL;
	const char *init = opts->init;
	struct stat st;
	FILE *f = NULL;
	int r;

	kb_progress_init(&p, opts->msg, opts->progress);
	if (!k || !k->dir[0] || !k->key[0] || !k->release[0])
		return -EINVAL;
#ifdef VLALAB_SRCDIR
	if (!init) {
		r = kb_path(init_default, sizeof(init_default),
			    "%s/images/init", VLALAB_SRCDIR);
		if (r < 0)
			return r;
		init = init_default;
	}
#else
	(void)init_default;
	if (!init)
		return -EINVAL;
#endif
	r = opts->cache_dir ?
		    kb_path(cache, sizeof(cache), "%s", opts->cache_dir) :
		    kbuild_cache_dir(cache, sizeof(cache));
	if (r == 0)
		r = kb_path(mods, sizeof(mods), "%s/modules", k->dir);
	if (r == 0)
		r = kb_path(gen, sizeof(gen), "%s/gen_init_cpio", k->dir);
	if (r < 0)
		return r;

	/* The key: every input, files by content. */
	r = kb_hash_new(&h);
	if (r < 0)
		return r;
	r = kb_hash_add_str(h, "vlalab-image", IMAGE_FORMAT);
	if (r == 0)
		r = kb_hash_add_str(h, "kernel", k->key);
	if (r == 0)
		r = kb_hash_add_str(h, "release", k->release);
	if (r == 0) {
		r = file_hash(h, "busybox", busybox);
		if (r < 0)
			kb_msg(&p,
			       "image: cannot read busybox '%s': %s (install busybox-static)",
			       busybox, strerror(-r));
	}
	if (r == 0) {
		r = file_hash(h, "init", init);
		if (r < 0)
			kb_msg(&p,
			       "image: cannot read the init script '%s': %s",
			       init, strerror(-r));
	}
	if (r == 0 && opts->guestd) {
		r = file_hash(h, "guestd", opts->guestd);
		if (r < 0)
			kb_msg(&p, "image: cannot read guestd '%s': %s",
			       opts->guestd, strerror(-r));
	} else if (r == 0) {
		r = kb_hash_add_str(h, "guestd", "none");
	}
	if (r == 0 && (opts->n_programs || opts->guestd)) {
		r = kb_img_hostfiles_read(opts->programs, opts->n_programs,
					  opts->guestd, &hf, err, sizeof(err));
		if (r < 0)
			kb_msg(&p, "image: %s", err);
		if (r == 0)
			r = kb_hash_add_str(h, "hostfiles", "");
		for (size_t i = 0; r == 0 && i < hf.n; i++) {
			r = kb_hash_add_str(h, "hostfile", hf.guest[i]);
			if (r == 0)
				r = file_hash(h, "sha256", hf.src[i]);
			if (r < 0)
				kb_msg(&p, "image: cannot read '%s': %s",
				       hf.src[i], strerror(-r));
		}
	}
	if (r == 0 && opts->n_kselftests)
		r = read_kselftests(opts, kstrees, h, &p);
	if (r == 0 && opts->ssh_authorized_key) {
		r = file_hash(h, "ssh-authorized-key",
			      opts->ssh_authorized_key);
		if (r < 0)
			kb_msg(&p, "image: cannot read the client key '%s': %s",
			       opts->ssh_authorized_key, strerror(-r));
	}
	if (r == 0 && opts->extra_dir) {
		r = kb_img_tree_read(opts->extra_dir, false, &etree);
		if (r < 0)
			kb_msg(&p,
			       "image: cannot read extra files in '%s': %s%s",
			       opts->extra_dir, strerror(-r),
			       r == -EINVAL ? " (a name with whitespace?)" :
					      "");
		if (r == 0)
			r = kb_img_tree_hash(h, "extra", &etree);
	}
	if (r == 0)
		r = kb_hash_final(h, res.key);
	if (r < 0)
		goto out;
	r = kb_path(dir, sizeof(dir), "%s/images/%s", cache, res.key);
	if (r == 0)
		r = kb_path(out, sizeof(out), "%s/initramfs.cpio.gz", dir);
	if (r < 0)
		goto out;
	snprintf(res.path, sizeof(res.path), "%s", out);
	r = kb_cache_use(&p, cache, "image", res.key);
	if (r < 0)
		goto out;
	if (opts->ssh_authorized_key) {
		r = kb_path(res.ssh_host_key_pub, sizeof(res.ssh_host_key_pub),
			    "%s/ssh_host_key.pub", dir);
		if (r < 0)
			goto out;
	}
	if (stat(out, &st) == 0 && (!opts->ssh_authorized_key ||
				    access(res.ssh_host_key_pub, R_OK) == 0)) {
		res.cache_hit = true;
		res.size = st.st_size;
		goto done;
	}

	kb_progress_stage(&p, "packing the initramfs");
	if (stat(mods, &st) == 0) {
		r = kb_img_tree_read(mods, true, &mtree);
		if (r < 0) {
			kb_msg(&p,
			       "image: cannot read the staged modules in '%s': %s",
			       mods, strerror(-r));
			goto out;
		}
	}
	applets = calloc(1, 65536);
	if (!applets) {
		r = -ENOMEM;
		goto out;
	}
	r = kb_run_capture((char *[]){ (char *)busybox, "--list-full", NULL },
			   NULL, applets, 65536);
	if (r < 0) {
		kb_msg(&p, "image: '%s --list-full' failed: %s", busybox,
		       strerror(-r));
		goto out;
	}
	r = kb_mkdir_p(dir, 0755);
	if (r == 0 && opts->ssh_authorized_key) {
		r = ssh_files(dir, opts->ssh_authorized_key,
			      res.ssh_host_key_pub,
			      sizeof(res.ssh_host_key_pub), err, sizeof(err));
		if (r < 0)
			kb_msg(&p, "image: %s", err);
	}
	if (r == 0)
		r = kb_path(spec, sizeof(spec), "%s/initramfs.list", dir);
	if (r == 0)
		r = kb_path(spec_tmp, sizeof(spec_tmp), "%s.tmp.%ld", spec,
			    (long)getpid());
	if (r == 0)
		r = kb_path(tmp, sizeof(tmp), "%s.tmp.%ld", out,
			    (long)getpid());
	if (r < 0)
		goto out;
	/* Private names until done: two builds of one image may race. */
	r = fileio_create_tmp(spec_tmp, 0644);
	f = r >= 0 ? fdopen(r, "we") : NULL;
	if (!f) {
		if (r >= 0) {
			close(r);
			r = -ENOMEM;
		}
		goto out;
	}
	r = write_spec(f, busybox, applets, init, opts->guestd, &hf, &mtree,
		       &etree, opts->kselftests, kstrees, opts->n_kselftests,
		       opts->ssh_authorized_key ? dir : NULL);
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	if (r < 0)
		goto out;
	r = pack(gen, spec_tmp, tmp);
	if (r == 0 && stat(tmp, &st) < 0)
		r = -errno;
	if (r == 0 && rename(spec_tmp, spec) < 0)
		r = -errno;
	if (r == 0 && rename(tmp, out) < 0)
		r = -errno;
	if (r < 0) {
		kb_msg(&p, "image: '%s %s | gzip' failed: %s", gen, spec_tmp,
		       strerror(-r));
		unlink(tmp);
		unlink(spec_tmp);
		goto out;
	}
	res.size = st.st_size;
	kb_progress_done(&p);
done:
	*ret = res;
	r = 0;
out:
	kb_progress_done(&p);
	free(applets);
	kb_img_tree_free(&mtree);
	kb_img_tree_free(&etree);
	for (size_t i = 0; i < KSELFTESTS_MAX; i++)
		kb_img_tree_free(&kstrees[i]);
	kb_img_hostfiles_free(&hf);
	kb_hash_free(h);
	return r;
}
