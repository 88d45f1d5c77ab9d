// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host programs an image carries, with the shared libraries they load
 * (guestd's libraries too: it is linked dynamically), each by its guest
 * path: `ldd` asked and parsed (kb_ldd_parse(), kb_program_libs()), the
 * list made (kb_img_hostfiles_read()).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb.h"

#define LDD_OUTPUT_MAX 16384

void kb_img_hostfiles_free(struct kb_img_hostfiles *h)
{
	kb_strv_free(h->guest, h->n);
	kb_strv_free(h->src, h->n);
	memset(h, 0, sizeof(*h));
}

int kb_ldd_parse(const char *text, char ***ret_paths, size_t *ret_n, char *err,
		 size_t errlen)
{
	char **v = NULL, line[PATH_MAX + 256];
	const char *p = text;
	size_t n = 0;
	int r = 0;

	if (strstr(text, "not a dynamic executable") ||
	    strstr(text, "statically linked")) {
		*ret_paths = NULL;
		*ret_n = 0;
		return 0;
	}
	while (*p) {
		const char *e = strchrnul(p, '\n'), *b = p;
		char *path, *arrow, *paren;
		size_t len;

		p = *e ? e + 1 : e;
		while (b < e && (*b == ' ' || *b == '\t'))
			b++;
		len = e - b;
		if (!len)
			continue;
		if (len >= sizeof(line)) {
			snprintf(err, errlen, "an ldd line of %zu bytes", len);
			r = -EINVAL;
			goto out;
		}
		memcpy(line, b, len);
		line[len] = '\0';
		arrow = strstr(line, " => ");
		path = arrow ? arrow + 4 : line;
		if (arrow && !strncmp(path, "not found", 9)) {
			*arrow = '\0';
			snprintf(err, errlen, "library '%s' not found", line);
			r = -EINVAL;
			goto out;
		}
		paren = strstr(path, " (0x");
		if (*path != '/') {
			/* The vDSO: in the kernel, not a file. */
			if (!arrow && paren)
				continue;
			snprintf(err, errlen, "unexpected ldd line '%s'", line);
			r = -EINVAL;
			goto out;
		}
		if (paren)
			*paren = '\0';
		r = kb_strv_push(&v, n, path);
		if (r < 0)
			goto out;
		n++;
	}
	*ret_paths = v;
	*ret_n = n;
	return 0;
out:
	kb_strv_free(v, n);
	return r;
}

int kb_program_libs(const char *program, char ***ret_paths, size_t *ret_n,
		    char *err, size_t errlen)
{
	char *out = calloc(1, LDD_OUTPUT_MAX);
	int r;

	if (!out)
		return -ENOMEM;
	/* ldd has the loader resolve the libraries as it would at run time. */
	r = kb_run_output((char *[]){ "ldd", (char *)program, NULL }, NULL, out,
			  LDD_OUTPUT_MAX);
	if (r < 0 && !strstr(out, "not a dynamic executable"))
		snprintf(err, errlen, "'ldd %s' failed: %s%s%s", program,
			 strerror(-r), out[0] ? ": " : "", out);
	else
		r = kb_ldd_parse(out, ret_paths, ret_n, err, errlen);
	free(out);
	return r;
}

bool kb_img_hostfiles_has(const struct kb_img_hostfiles *h, const char *guest)
{
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->guest[i], guest))
			return true;
	return false;
}

static int hostfiles_add(struct kb_img_hostfiles *h, const char *guest,
			 const char *host)
{
	char real[PATH_MAX];
	int r;

	if (kb_img_hostfiles_has(h, guest))
		return 0;
	if (!realpath(host, real))
		return -errno;
	r = kb_strv_push(&h->guest, h->n, guest);
	if (r < 0)
		return r;
	r = kb_strv_push(&h->src, h->n, real);
	if (r < 0) {
		/* Keep both arrays the same length. */
		free(h->guest[h->n]);
		h->guest[h->n] = NULL;
		return r;
	}
	h->n++;
	return 0;
}

/* The files ldd says @program loads, at the same path in the image as on
 * the host (the loader's own default search path). */
static int hostfiles_add_libs(struct kb_img_hostfiles *h, const char *program,
			      char *err, size_t errlen)
{
	char **libs = NULL;
	size_t nlibs = 0;
	int r;

	r = kb_program_libs(program, &libs, &nlibs, err, errlen);
	for (size_t j = 0; r == 0 && j < nlibs; j++) {
		if (kb_img_bad_name(libs[j])) {
			snprintf(err, errlen,
				 "library '%s' of '%s' has a blank in its name",
				 libs[j], program);
			r = -EINVAL;
		} else {
			r = hostfiles_add(h, libs[j], libs[j]);
			if (r < 0)
				snprintf(err, errlen,
					 "library '%s' of '%s': %s", libs[j],
					 program, strerror(-r));
		}
	}
	kb_strv_free(libs, nlibs);
	return r;
}

/* Each program and its libraries, and guestd's libraries when @guestd is
 * set (guestd itself goes to /sbin/guestd in write_spec()). */
int kb_img_hostfiles_read(const struct kbuild_image_program *v, size_t n,
			  const char *guestd, struct kb_img_hostfiles *ret,
			  char *err, size_t errlen)
{
	struct kb_img_hostfiles h = { 0 };
	int r = 0;

	if (guestd)
		r = hostfiles_add_libs(&h, guestd, err, errlen);
	for (size_t i = 0; r == 0 && i < n; i++) {
		if (!v[i].host || !v[i].guest || v[i].guest[0] != '/' ||
		    kb_img_bad_name(v[i].guest) || strstr(v[i].guest, "..")) {
			snprintf(
				err, errlen,
				"program '%s' wants an absolute guest path without blanks, not '%s'",
				v[i].host ? v[i].host : "(null)",
				v[i].guest ? v[i].guest : "(null)");
			r = -EINVAL;
			break;
		}
		r = hostfiles_add(&h, v[i].guest, v[i].host);
		if (r < 0) {
			snprintf(err, errlen, "program '%s': %s", v[i].host,
				 strerror(-r));
			break;
		}
		r = hostfiles_add_libs(&h, v[i].host, err, errlen);
	}
	if (r < 0) {
		kb_img_hostfiles_free(&h);
		return r;
	}
	*ret = h;
	return 0;
}
