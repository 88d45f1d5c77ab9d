// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/cli/lava-http.c's reply parser,
 * lava_reply_parse(): the status line (fuzz-lava-http's finding: sscanf's
 * "%3d" took "HTTP/1.1 -20" as the status -20, and two digits as one),
 * Content-Length, chunks, and a reply cut without a clean close.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli/lava.h"
#include "tap.h"

/* The reply @text as read (a copy, a NUL after it): 0 or -errno. */
static int parse(const char *text, bool clean, struct lava_reply *r)
{
	size_t len = strlen(text);
	char *buf = malloc(len + 1), err[256] = "";
	int ret;

	memset(r, 0, sizeof(*r));
	if (!buf)
		return -ENOMEM;
	memcpy(buf, text, len + 1);
	ret = lava_reply_parse(buf, len, clean, 1 << 20, r, err, sizeof(err));
	if (ret < 0) {
		ok(err[0], "a refusal says why");
		free(buf);
	}
	return ret;
}

static void test_status(void)
{
	static const char *const bad[] = {
		"HTTP/1.1 -20 X\r\n\r\n", "HTTP/1.1 +20 X\r\n\r\n",
		"HTTP/1.1 20 X\r\n\r\n",  "HTTP/1.1  200 OK\r\n\r\n",
		"HTTP/1.1 2000 X\r\n\r\n", "HTTP/1.2 200 OK\r\n\r\n",
		"HTTP/1.1-200 OK\r\n\r\n",
	};
	struct lava_reply r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		is_int(parse(bad[i], true, &r), -EPROTO,
		       "no status line: refused");
		lava_reply_free(&r);
	}
	is_int(parse("HTTP/1.1 204\r\nServer: x\r\n\r\n", true, &r), 0,
	       "a status line without a reason");
	is_int(r.status, 204, "its status");
	lava_reply_free(&r);
	is_int(parse("HTTP/1.0 404 Not Found\r\n\r\n{}", true, &r), 0,
	       "HTTP/1.0, closed cleanly");
	is_int(r.status, 404, "its status");
	is_str(r.body, "{}", "its body");
	lava_reply_free(&r);
}

static void test_body(void)
{
	struct lava_reply r;

	is_int(parse("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi!", false,
		     &r),
	       0, "Content-Length");
	is_str(r.body, "hi", "the body is Content-Length's bytes");
	lava_reply_free(&r);
	is_int(parse("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhi", true,
		     &r),
	       -EPROTO, "fewer bytes than Content-Length: cut");
	is_int(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		     "2\r\nhi\r\n1\r\n!\r\n0\r\n\r\n",
		     false, &r),
	       0, "chunks");
	is_str(r.body, "hi!", "the chunks joined");
	lava_reply_free(&r);
	is_int(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
		     "2\r\nhi\r\n",
		     true, &r),
	       -EPROTO, "no last chunk: cut");
	is_int(parse("HTTP/1.1 200 OK\r\n\r\nhi", false, &r), -EPROTO,
	       "no length and no clean close: cut");
}

int main(void)
{
	test_status();
	test_body();
	return tap_done();
}
