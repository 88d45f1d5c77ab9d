// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build cache: where it is, a hit (builds/<key>/manifest.json),
 * the lock of a flavour's trees, and a finished build's commit: its
 * manifest from the inputs, the artefacts copied and synced, and
 * manifest.json written last.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

int kbuild_cache_dir(char *buf, size_t len)
{
	const char *s = getenv("VLALAB_CACHE");

	if (s && *s)
		return kb_path(buf, len, "%s", s);
	s = getenv("XDG_CACHE_HOME");
	if (s && *s)
		return kb_path(buf, len, "%s/vlalab", s);
	s = getenv("HOME");
	if (!s || !*s)
		return -ENOENT;
	return kb_path(buf, len, "%s/.cache/vlalab", s);
}

bool kb_cache_hit(const char *dir, struct kbuild_result *ret)
{
	struct kb_manifest m;
	char path[PATH_MAX], *text = NULL;
	bool hit = false;

	if (kb_path(path, sizeof(path), "%s/manifest.json", dir) < 0 ||
	    fileio_read(path, FILEIO_ALL, &text, NULL, NULL) < 0)
		return false;
	if (kb_manifest_parse(text, &m) == 0) {
		snprintf(ret->release, sizeof(ret->release), "%s", m.release);
		hit = true;
		kb_manifest_free(&m);
	}
	free(text);
	return hit;
}

int kb_cache_commit(const char *obj, const char *dir, const char *manifest,
		    char *ret_path, size_t pathlen)
{
	static const char *const files[][2] = {
		{ "arch/x86/boot/bzImage", "bzImage" },
		{ "vmlinux", "vmlinux" },
		{ "System.map", "System.map" },
		{ ".config", "config" },
		{ "usr/gen_init_cpio", "gen_init_cpio" },
	};
	char src[PATH_MAX], dst[PATH_MAX], *text;
	size_t len;
	int fd, r = 0;

	snprintf(ret_path, pathlen, "%s", dir);
	for (size_t i = 0; r == 0 && i < sizeof(files) / sizeof(files[0]);
	     i++) {
		r = kb_path(src, sizeof(src), "%s/%s", obj, files[i][0]);
		if (r == 0)
			r = kb_path(dst, sizeof(dst), "%s/%s", dir,
				    files[i][1]);
		if (r == 0) {
			snprintf(ret_path, pathlen, "%s", dst);
			r = kb_copy_file(src, dst);
		}
	}
	if (r < 0)
		return r;
	/* The artefacts and the installed modules reach the disk before
	 * the manifest that names them. */
	snprintf(ret_path, pathlen, "%s", dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = syncfs(fd) < 0 ? -errno : 0;
	close(fd);
	if (r < 0)
		return r;
	r = kb_path(dst, sizeof(dst), "%s/manifest.json", dir);
	if (r < 0)
		return r;
	snprintf(ret_path, pathlen, "%s", dst);
	len = strlen(manifest);
	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, manifest, len);
	text[len] = '\n';
	r = fileio_write_atomic(dst, text, len + 1);
	free(text);
	return r;
}

/* The manifest of this build, as JSON in *@ret (malloc'd). */
int kb_cache_manifest(const char *flavour, const char *key, const char *release,
		      const struct kb_inputs *in, double secs, bool incremental,
		      const struct kb_warnings *w, const char *seeded_from,
		      double seed_secs, struct kb_evidence *ev, size_t nev,
		      const struct kb_manifest *ut, char **ret)
{
	struct kb_manifest m = { 0 };
	int r = 0;

	m.tree_path = ut->tree_path;
	m.tree_id = ut->tree_id;
	m.tree_series = ut->tree_series;
	m.absent = ut->absent;
	m.nabsent = ut->nabsent;

	/* A user's tree is no Debian line. */
	m.line = ut->tree_path ? NULL : (char *)in->line->name;
	m.source_version = (char *)in->source_version;
	m.compiler = (char *)in->compiler;
	m.flavour = (char *)flavour;
	snprintf(m.key, sizeof(m.key), "%s", key);
	snprintf(m.release, sizeof(m.release), "%s", release);
	m.patches = calloc(in->series.n + 1, sizeof(*m.patches));
	m.fragments = calloc(in->nfrags + 1, sizeof(*m.fragments));
	if (!m.patches || !m.fragments) {
		r = -ENOMEM;
		goto out;
	}
	m.npatches = in->series.n;
	for (size_t i = 0; r == 0 && i < in->series.n; i++) {
		m.patches[i].name = in->series.v[i].name;
		r = kb_sha256_hex(in->patch_data[i], in->patch_len[i],
				  m.patches[i].sha256);
	}
	m.nfragments = in->nfrags;
	m.without = in->without;
	m.nwithout = in->nwithout;
	for (size_t i = 0; r == 0 && i < in->nfrags; i++) {
		m.fragments[i].name = in->frag_names[i];
		r = kb_sha256_hex(in->frag_data[i], in->frag_len[i],
				  m.fragments[i].sha256);
	}
	if (r < 0)
		goto out;
	m.build_seconds = secs;
	m.timestamp = time(NULL);
	m.incremental = incremental;
	m.seeded_from = (char *)seeded_from;
	m.cold = !incremental && !seeded_from;
	m.seed_seconds = seed_secs;
	m.evidence = ev;
	m.nevidence = nev;
	m.warn_vla = w->vla;
	m.warn_frame = w->frame;
	m.warn_complete = w->complete;
	m.log_vla = w->log_vla;
	m.log_frame = w->log_frame;
	r = kb_manifest_to_json(&m, ret);
out:
	free(m.patches);
	free(m.fragments);
	return r;
}

int kb_cache_lock(const char *cache, const char *flavour, struct kb_progress *p,
		  int *ret_fd)
{
	char path[PATH_MAX];
	int fd, r;

	r = kb_path(path, sizeof(path), "%s/locks", cache);
	if (r == 0)
		r = kb_mkdir_p(path, 0755);
	if (r == 0)
		r = kb_path(path, sizeof(path), "%s/locks/%s.lock", cache,
			    flavour);
	if (r < 0)
		return r;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		kb_progress_stage(p,
				  "waiting for another build of this flavour");
		while (flock(fd, LOCK_EX) < 0) {
			if (errno != EINTR) {
				r = -errno;
				close(fd);
				return r;
			}
		}
	}
	*ret_fd = fd;
	return 0;
}
