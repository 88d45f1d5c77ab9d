// SPDX-License-Identifier: GPL-2.0-only
/*
 * Running programs (posix_spawn with argv arrays, never a shell) and the
 * progress line: elapsed time plus what make is doing, one updating line
 * on a TTY, a plain line every PLAIN_INTERVAL seconds otherwise.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"
#include "ttyline.h"

#define PLAIN_INTERVAL 15.0
#define TTY_INTERVAL 0.2

extern char **environ;

/* environ with LC_ALL=C (stable, greppable tool output). With a cwd, git
 * must not look for a repository above it: `git apply` in the source tree
 * then patches the tree itself, even if the cache sits inside a checkout. */
static char **child_env(const char *cwd, char **ret_ceiling)
{
	size_t n = 0, k = 0;
	char **env;

	*ret_ceiling = NULL;
	while (environ[n])
		n++;
	env = calloc(n + 3, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7) &&
		    strncmp(environ[i], "GIT_DIR=", 8) &&
		    strncmp(environ[i], "GIT_CEILING_DIRECTORIES=", 24))
			env[k++] = environ[i];
	env[k++] = "LC_ALL=C";
	if (cwd && cwd[0] == '/') {
		const char *slash = strrchr(cwd, '/');

		if (asprintf(ret_ceiling, "GIT_CEILING_DIRECTORIES=%.*s",
			     (int)(slash - cwd), cwd) < 0) {
			free(env);
			return NULL;
		}
		env[k++] = *ret_ceiling;
	}
	env[k] = NULL;
	return env;
}

int kb_spawn(char *const argv[], const char *cwd, int in_fd, int out_fd,
	     int err_fd, pid_t *ret_pid)
{
	posix_spawn_file_actions_t fa;
	char **env, *ceiling;
	pid_t pid;
	int r;

	env = child_env(cwd, &ceiling);
	if (!env)
		return -ENOMEM;
	r = posix_spawn_file_actions_init(&fa);
	if (r) {
		free(env);
		free(ceiling);
		return -r;
	}
	if (in_fd >= 0)
		r = posix_spawn_file_actions_adddup2(&fa, in_fd, 0);
	else
		r = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null",
						     O_RDONLY, 0);
	if (!r && out_fd >= 0)
		r = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	else if (!r)
		r = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null",
						     O_WRONLY, 0);
	if (!r && err_fd >= 0)
		r = posix_spawn_file_actions_adddup2(&fa, err_fd, 2);
	else if (!r)
		r = posix_spawn_file_actions_addopen(&fa, 2, "/dev/null",
						     O_WRONLY, 0);
	if (!r && cwd)
		r = posix_spawn_file_actions_addchdir_np(&fa, cwd);
	if (!r)
		r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, env);
	posix_spawn_file_actions_destroy(&fa);
	free(env);
	free(ceiling);
	if (r)
		return -r;
	*ret_pid = pid;
	return 0;
}

int kb_wait(pid_t pid, int *ret_status)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (ret_status)
		*ret_status = status;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	/* posix_spawnp reports exec failures as exit 127. */
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -ENOENT;
	return -EIO;
}

int kb_rm_rf(const char *path)
{
	char *argv[] = { "rm", "-rf", "--", (char *)path, NULL };
	pid_t pid;
	int r;

	r = kb_spawn(argv, NULL, -1, -1, -1, &pid);
	if (r < 0)
		return r;
	return kb_wait(pid, NULL);
}

/* ---- progress ---- */

void kb_progress_init(struct kb_progress *p, FILE *out, bool enabled)
{
	memset(p, 0, sizeof(*p));
	p->out = out ? out : stderr;
	p->enabled = enabled;
	p->tty = isatty(fileno(p->out));
	p->start = kb_now();
}

static void progress_print(struct kb_progress *p, bool force)
{
	double now = kb_now(), el = now - p->start;
	char line[512];
	int n;

	if (!p->enabled)
		return;
	if (!force && now - p->last < (p->tty ? TTY_INTERVAL : PLAIN_INTERVAL))
		return;
	p->last = now;
	n = snprintf(line, sizeof(line), "vlalab: [%3d:%02d] %s%s%s",
		     (int)el / 60, (int)el % 60, p->stage,
		     p->action[0] ? ": " : "", p->action);
	if (n < 0)
		return;
	if (p->tty) {
		/* Terminals under 20 columns count as 80. */
		ttyline_show(p->out, line, 20);
		p->line_open = true;
	} else {
		fprintf(p->out, "%s\n", line);
	}
	fflush(p->out);
}

void kb_progress_stage(struct kb_progress *p, const char *stage)
{
	snprintf(p->stage, sizeof(p->stage), "%s", stage);
	p->action[0] = '\0';
	progress_print(p, true);
}

void kb_progress_action(struct kb_progress *p, const char *action)
{
	snprintf(p->action, sizeof(p->action), "%s", action);
	progress_print(p, false);
}

void kb_progress_done(struct kb_progress *p)
{
	if (p->line_open) {
		fputc('\n', p->out);
		fflush(p->out);
		p->line_open = false;
	}
}

void kb_msg(struct kb_progress *p, const char *fmt, ...)
{
	va_list ap;

	kb_progress_done(p);
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
	fputc('\n', p->out);
	fflush(p->out);
}

/* make prints "  CC      kernel/fork.o": an upper-case word, then a path. */
static void make_action(struct kb_progress *p, const char *line)
{
	const char *s = line, *w;
	char buf[256];
	size_t n;

	if (s[0] != ' ' || s[1] != ' ')
		return;
	s += 2;
	for (w = s; isupper((unsigned char)*w) || isdigit((unsigned char)*w) ||
		    *w == '_' || *w == '-';
	     w++)
		;
	if (w == s || *w != ' ')
		return;
	n = w - s;
	while (*w == ' ')
		w++;
	if (!*w)
		return;
	snprintf(buf, sizeof(buf), "%.*s %s", (int)n, s, w);
	kb_progress_action(p, buf);
}

int kb_run_logged(char *const argv[], const char *cwd, int log_fd,
		  struct kb_progress *p, int *ret_status)
{
	char buf[65536], line[512];
	size_t linelen = 0;
	int pipefd[2], r;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	r = kb_spawn(argv, cwd, -1, pipefd[1], pipefd[1], &pid);
	close(pipefd[1]);
	if (r < 0) {
		close(pipefd[0]);
		return r;
	}
	for (;;) {
		struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 1000) == 0) {
			if (p)
				progress_print(p, false);
			continue;
		}
		n = read(pipefd[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (log_fd >= 0) {
			for (ssize_t off = 0; off < n;) {
				ssize_t w = write(log_fd, buf + off, n - off);

				if (w < 0 && errno == EINTR)
					continue;
				if (w < 0)
					break;
				off += w;
			}
		}
		if (!p)
			continue;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (linelen < sizeof(line) - 1)
					line[linelen++] = buf[i];
				continue;
			}
			line[linelen] = '\0';
			make_action(p, line);
			linelen = 0;
		}
	}
	close(pipefd[0]);
	return kb_wait(pid, ret_status);
}

static int run_capture(char *const argv[], const char *cwd, char *buf,
		       size_t len, bool with_stderr)
{
	size_t used = 0;
	int pipefd[2], r;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	r = kb_spawn(argv, cwd, -1, pipefd[1], with_stderr ? pipefd[1] : -1,
		     &pid);
	close(pipefd[1]);
	if (r < 0) {
		close(pipefd[0]);
		return r;
	}
	for (;;) {
		char tmp[4096];
		ssize_t n = read(pipefd[0], tmp, sizeof(tmp));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n && used + 1 < len; i++)
			buf[used++] = tmp[i];
	}
	close(pipefd[0]);
	if (len)
		buf[used] = '\0';
	while (used && (buf[used - 1] == '\n' || buf[used - 1] == '\r'))
		buf[--used] = '\0';
	return kb_wait(pid, NULL);
}

int kb_run_capture(char *const argv[], const char *cwd, char *buf, size_t len)
{
	return run_capture(argv, cwd, buf, len, false);
}

int kb_run_output(char *const argv[], const char *cwd, char *buf, size_t len)
{
	return run_capture(argv, cwd, buf, len, true);
}

void kb_print_tail(FILE *out, const char *path, unsigned n)
{
	const char *start;
	char *text = NULL;
	size_t len = 0;
	unsigned seen = 0;

	if (fileio_read(path, FILEIO_ALL, &text, &len, NULL) < 0)
		return;
	start = text + len;
	if (start > text && start[-1] == '\n')
		start--;
	while (start > text) {
		if (start[-1] == '\n' && ++seen == n)
			break;
		start--;
	}
	for (const char *s = start; *s;) {
		const char *e = strchr(s, '\n');
		int l = e ? (int)(e - s) : (int)strlen(s);

		fprintf(out, "  | %.*s\n", l, s);
		s += l + (e ? 1 : 0);
	}
	free(text);
}
