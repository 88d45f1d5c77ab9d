// SPDX-License-Identifier: GPL-2.0-only
/*
 * sshc_client_key(): the cache's client key is its owner's alone from the
 * moment it exists. Its folder is 0700; the private key is created 0600,
 * so it never depends on a chmod() afterwards (this test's chmod() fails,
 * as one may); it is never written through a link planted at its
 * temporary name; an older key left readable by others is made 0600; and
 * what is written is a key libssh reads back, whose public part is the
 * .pub line.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libssh/libssh.h>

#include "fileio.h"
#include "live/sshc.h"
#include "tap.h"

static bool chmod_fails;

/*
 * Every chmod() of the program comes here: with @chmod_fails set it fails
 * as one on a file system that refuses it would, so a mode that needs it
 * shows.
 */
int chmod(const char *path, mode_t mode)
{
	if (chmod_fails) {
		errno = EPERM;
		return -1;
	}
	return fchmodat(AT_FDCWD, path, mode, 0);
}

static mode_t mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) < 0 ? (mode_t)-1 : st.st_mode & 07777;
}

static char *slurp(const char *path)
{
	char *buf = NULL;

	return fileio_read(path, 1 << 16, &buf, NULL, NULL) < 0 ? NULL : buf;
}

/* The private key @priv reads back, and its public part is @pub's line. */
static bool key_matches(const char *priv, const char *pub)
{
	ssh_key key = NULL;
	char *b64 = NULL, *line = slurp(pub);
	bool same = false;

	if (line &&
	    ssh_pki_import_privkey_file(priv, NULL, NULL, NULL, &key) ==
		    SSH_OK &&
	    ssh_pki_export_pubkey_base64(key, &b64) == SSH_OK)
		same = !strncmp(line, "ssh-ed25519 ", 12) &&
		       !strncmp(line + 12, b64, strlen(b64)) &&
		       line[12 + strlen(b64)] == ' ';
	ssh_string_free_char(b64);
	ssh_key_free(key);
	free(line);
	return same;
}

int main(void)
{
	const char *tmpdir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char cache[256], dir[300], priv[PATH_MAX], pub[PATH_MAX];
	char tmp[PATH_MAX + 32], victim[300], err[PATH_MAX + 128];
	char *text;
	int r;

	snprintf(cache, sizeof(cache), "%s/sshc-test-XXXXXX", tmpdir);
	if (!mkdtemp(cache))
		return 99;
	snprintf(dir, sizeof(dir), "%s/ssh", cache);
	snprintf(victim, sizeof(victim), "%s/victim", cache);

	/* A folder an older hostctl made 0755, and a link planted in it. */
	umask(022);
	if (mkdir(dir, 0755) < 0)
		return 99;
	{
		FILE *f = fopen(victim, "we");

		if (!f || fputs("not a key\n", f) < 0 || fclose(f) != 0)
			return 99;
	}
	snprintf(tmp, sizeof(tmp), "%s/client_ed25519.tmp.%ld", dir,
		 (long)getpid());
	if (symlink(victim, tmp) < 0)
		return 99;

	r = sshc_client_key(cache, priv, sizeof(priv), pub, sizeof(pub), err,
			    sizeof(err));
	is_int(r, 0, "a new client key");
	if (r < 0)
		printf("# %s\n", err);
	ok(mode_of(dir) == 0700, "its folder is made 0700");
	/* Again, where chmod() fails: the key's mode is its creation's. */
	chmod_fails = true;
	unlink(priv);
	unlink(pub);
	r = sshc_client_key(cache, priv, sizeof(priv), pub, sizeof(pub), err,
			    sizeof(err));
	is_int(r, 0, "a new client key where chmod() fails");
	if (r < 0)
		printf("# %s\n", err);
	okf(mode_of(priv) == 0600, "the private key is 0600 (is %04o)",
	    (unsigned int)mode_of(priv));
	ok(mode_of(pub) == 0644, "the public key is 0644");
	text = slurp(victim);
	ok(text && !strcmp(text, "not a key\n"),
	   "the file a link at the temporary name points to is untouched");
	free(text);
	ok(mode_of(tmp) == (mode_t)-1, "no temporary file is left");
	ok(key_matches(priv, pub), "the key reads back, with its public part");
	chmod_fails = false;

	/* An older key, left readable by others. */
	if (chmod(priv, 0644) < 0)
		return 99;
	r = sshc_client_key(cache, priv, sizeof(priv), pub, sizeof(pub), err,
			    sizeof(err));
	is_int(r, 0, "the existing key");
	ok(mode_of(priv) == 0600, "an existing key readable by others is made 0600");
	ok(key_matches(priv, pub), "and is the same key");

	/* Made 0600, and it cannot be: an error, not a key left readable. */
	if (chmod(priv, 0644) < 0)
		return 99;
	chmod_fails = true;
	r = sshc_client_key(cache, priv, sizeof(priv), pub, sizeof(pub), err,
			    sizeof(err));
	chmod_fails = false;
	is_int(r, -EPERM, "a key that cannot be made 0600 is an error");
	okf(strstr(err, "mode 0600") != NULL, "that says so: %s", err);

	unlink(priv);
	unlink(pub);
	unlink(tmp);
	unlink(victim);
	rmdir(dir);
	rmdir(cache);
	return tap_done();
}
