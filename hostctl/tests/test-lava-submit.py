#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl lava submit against a recorded REST exchange: a tiny HTTP
server on 127.0.0.1 answers as LAVA 2023.01's api/v0.2/jobs/ does (201
and {"message": "job(s) successfully submitted", "job_ids": [N]}; 400 with
a message for a bad token), and records what it was sent: the POST path,
the token header, and the job definition byte for byte. An https:// URL,
a token file without a token and a refused job are exit 2 with one line
on stderr. No lava-server runs here (docs/lava.md). TAP on stdout.

usage: test-lava-submit.py HOSTCTL"""
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading

from tap import done, ok

hostctl = sys.argv[1]
seen = []


class Lava(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        seen.append((self.path, self.headers.get("Authorization"), body))
        if self.headers.get("Authorization") == "Token s3cret":
            code, reply = 201, {"message": "job(s) successfully submitted",
                                "job_ids": [4242]}
        else:
            code, reply = 400, None
        # A refusal with a raw terminal control, which must not pass.
        data = (json.dumps(reply).encode() if reply else
                b'{"detail": "Invalid token.\x1b[2J"}')
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = http.server.HTTPServer(("127.0.0.1", 0), Lava)
threading.Thread(target=server.serve_forever, daemon=True).start()
url = "http://127.0.0.1:%d/lava/" % server.server_port

with tempfile.TemporaryDirectory() as tmp:
    job = os.path.join(tmp, "job")
    os.mkdir(job)
    definition = "device_type: qemu\njob_name: \"vlalab\"\n# é \\ end\n"
    with open(os.path.join(job, "job.yaml"), "w") as f:
        f.write(definition)
    tok = os.path.join(tmp, "token")
    with open(tok, "w") as f:
        f.write("s3cret\n")

    def submit(*args):
        return subprocess.run([hostctl, "lava", "submit", *args],
                              capture_output=True, text=True, timeout=30)

    p = submit("--server", url, "--token-file", tok, job)
    ok(p.returncode == 0 and p.stdout == "4242\n",
       "submitted: exit %d, job id %r (%s)" % (p.returncode, p.stdout,
                                               p.stderr.strip()))
    path, auth, body = seen[-1] if seen else (None, None, b"{}")
    ok(path == "/lava/api/v0.2/jobs/" and auth == "Token s3cret",
       "POST /lava/api/v0.2/jobs/ with the token: %r %r" % (path, auth))
    ok(json.loads(body) == {"definition": definition},
       "the definition, byte for byte")
    idf = os.path.join(job, "lava-job-id")
    ok(os.path.exists(idf) and open(idf).read() == "4242\n",
       "the job id in lava-job-id")

    with open(tok, "w") as f:
        f.write("wrong\n")
    p = submit("--server", url, "--token-file", tok, job)
    ok(p.returncode == 2 and "HTTP 400" in p.stderr and "\x1b" not in p.stderr
       and p.stderr.count("\n") == 1,
       "a refused job: exit 2, one escaped line: %r" % p.stderr)
    p = submit("--server", "https://lava.example/", "--token-file", tok, job)
    ok(p.returncode == 2 and "only an http://" in p.stderr,
       "https: exit 2, said why")
    with open(tok, "w") as f:
        f.write("\n")
    p = submit("--server", url, "--token-file", tok, job)
    ok(p.returncode == 2 and "no token" in p.stderr, "no token: exit 2")
server.shutdown()
done()
