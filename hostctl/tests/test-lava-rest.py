#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl lava submit and fetch --server against a recorded REST exchange:
a small HTTP server on 127.0.0.1 (and the same over TLS, its certificate
made here and trusted through SSL_CERT_FILE) answers as LAVA 2023.01's
api/v0.2/ does: POST jobs/ (201, {"job_ids": [N]}), GET jobs/N/ (the
TestJobSerializer's fields; state "Running", then "Finished"), GET
jobs/N/logs/ (the job's output.yaml: each record lava-run sent the
server, "- " before it; here those of lava-fixtures/lkdtm-lava-run.log,
whole or chunked as gunicorn streams a compressed log), 401 for a bad
token, 404 for another job. It records what hostctl asked: each path and
its token header. The run directory fetched from the server, by the
job's folder or by its id alone (the scenarios its original_definition
names), holds what the local fetch of the same log gives (summary's
verdicts and incidents, events.jsonl, the console log), and names "lava
job N". A job not
finished is refused (exit 2), or waited for with --wait; a log over the
bound, a reply cut short, an untrusted certificate or one for another
name are exit 2 with one line, and the token is never printed. No
lava-server runs here (docs/lava.md). TAP on stdout.

usage: test-lava-rest.py HOSTCTL FIXTURES_DIR"""
import http.server
import json
import os
import re
import ssl
import subprocess
import sys
import tempfile
import threading

from tap import done, ok

hostctl, fixtures = sys.argv[1:3]
TOKEN = "s3cret-Tok3n"
JOB = 4242
seen = []

with open(os.path.join(fixtures, "lkdtm-lava-run.log")) as f:
    RUN_LOG = f.read()
# A server's log of the job: output.yaml holds the records lava-run sent
# it, as lava-run prints them, each after "- " (lava_common/log.py).
SERVER_LOG = "".join("- " + l + "\n" for l in RUN_LOG.splitlines()).encode()


# The job as lava job writes it (the scenarios' comment), as submitted:
# original_definition keeps it whole; definition is re-dumped.
ORIGINAL = ("# hostctl lava job 'lkdtm/array-bounds' 'lkdtm/corrupt-stack'\n"
            '# vlalab-scenarios: ["lkdtm/array-bounds","lkdtm/corrupt-stack"]\n'
            "# docs/lava.md; fetch: hostctl lava fetch /tmp/lj/jk2 LOG\n"
            "device_type: qemu\njob_name: vlalab\n")


def job_json(state, health):
    """GET api/v0.2/jobs/N/ of LAVA 2023.01 (TestJobSerializer)."""
    return {"id": JOB, "submitter": "vlalab", "viewing_groups": [],
            "description": "vlalab", "health_check": False,
            "requested_device_type": "qemu", "tags": [],
            "actual_device": "qemu01" if state != "Submitted" else None,
            "submit_time": "2026-12-07T05:39:58.123456Z",
            "start_time": "2026-12-07T05:40:02.362803Z",
            "end_time": ("2026-12-07T05:40:05.000000Z"
                         if state == "Finished" else None),
            "state": state, "health": health, "priority": 50,
            "definition": "device_type: qemu\njob_name: vlalab\n",
            "original_definition": ORIGINAL, "multinode_definition": "",
            "failure_tags": [], "failure_comment": None, "token": "x"}


class Lava(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def reply(self, code, data, chunked=False, length=None):
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(
                len(data) if length is None else length))
        self.end_headers()
        if not chunked:
            self.wfile.write(data)
            return
        for i in range(0, len(data), 8192):
            part = data[i:i + 8192]
            self.wfile.write(b"%x\r\n%s\r\n" % (len(part), part))
        self.wfile.write(b"0\r\n\r\n")

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        auth = self.headers.get("Authorization")
        seen.append(("POST", self.path, auth, body))
        if auth == "Token " + TOKEN and self.path == "/lava/api/v0.2/jobs/":
            self.reply(201, json.dumps(
                {"message": "job(s) successfully submitted",
                 "job_ids": [JOB]}).encode())
        else:
            # A refusal with a raw terminal control, which must not pass.
            self.reply(401, b'{"detail": "Invalid token.\x1b[2J"}')

    def do_GET(self):
        auth = self.headers.get("Authorization")
        seen.append(("GET", self.path, auth, None))
        mode = self.server.mode
        if auth != "Token " + TOKEN:
            self.reply(401, b'{"detail": "Invalid token.\x1b[2J"}')
        elif self.path == "/lava/api/v0.2/jobs/%d/" % JOB:
            states = self.server.states
            state = states.pop(0) if len(states) > 1 else states[0]
            self.reply(200, json.dumps(job_json(*state)).encode())
        elif self.path == "/lava/api/v0.2/jobs/%d/logs/" % JOB:
            if mode == "huge":
                self.reply(200, SERVER_LOG[:4096], length=300 << 20)
            elif mode == "cut":
                self.reply(200, SERVER_LOG, length=len(SERVER_LOG) + 100)
            else:
                self.reply(200, SERVER_LOG, chunked=mode == "chunked")
        else:
            self.reply(404, b'{"detail": "Not found."}')

    def log_message(self, *args):
        pass


def serve(context=None):
    server = http.server.HTTPServer(("127.0.0.1", 0), Lava)
    if context:
        server.socket = context.wrap_socket(server.socket, server_side=True)
    server.mode, server.states = "length", [("Finished", "Complete")]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run(*args, env=None):
    p = subprocess.run([hostctl, "lava", *args], capture_output=True,
                       text=True, timeout=60, env=env)
    ok(TOKEN not in p.stdout + p.stderr,
       "hostctl lava %s: the token is not printed" % args[0])
    return p


def rundir(res):
    """The run directory's summary (name: verdict, incident titles),
    events.jsonl and console log; None without one."""
    if not os.path.isdir(res) or len(os.listdir(res)) != 1:
        return None
    d = os.path.join(res, os.listdir(res)[0])
    with open(os.path.join(d, "summary.json")) as f:
        s = json.load(f)["scenarios"]
    summary = {sc["name"]: (sc["verdict"], sc.get("host"),
                            [i["title"] for i in sc.get("incidents", [])])
               for sc in s}
    with open(os.path.join(d, "events.jsonl"), "rb") as f, \
            open(os.path.join(d, "console-lava.log"), "rb") as g:
        return summary, f.read(), g.read()


tmp = tempfile.mkdtemp()
job = os.path.join(tmp, "job")
os.mkdir(job)
definition = "device_type: qemu\njob_name: \"vlalab\"\n# é \\ end\n"
with open(os.path.join(job, "job.yaml"), "w") as f:
    f.write(definition)
with open(os.path.join(fixtures, "lkdtm-requests.jsonl")) as f, \
        open(os.path.join(job, "requests.jsonl"), "w") as g:
    g.write(f.read())
tok = os.path.join(tmp, "token")
with open(tok, "w") as f:
    f.write(TOKEN + "\n")
n_res = 0


def fetch(url, *args, env=None, target=None):
    global n_res
    n_res += 1
    res = os.path.join(tmp, "res%d" % n_res)
    p = run("fetch", "--server", url, "--token-file", tok, "--results", res,
            *args, target or job, env=env)
    return p, rundir(res)


# The local fetch of the same log: what the server's must give.
with open(os.path.join(tmp, "lava-run.log"), "w") as f:
    f.write(RUN_LOG)
with open(os.path.join(job, "lava-job-id"), "w") as f:
    f.write("%d\n" % JOB)
local_p = run("fetch", "--results", os.path.join(tmp, "local"), job,
              os.path.join(tmp, "lava-run.log"))
local = rundir(os.path.join(tmp, "local"))
ok(local_p.returncode == 0 and local is not None and
   {v for v, _, _ in local[0].values()} == {"pass"},
   "the local fetch of lkdtm-lava-run.log: exit %d, %r"
   % (local_p.returncode, local and local[0]))
os.unlink(os.path.join(job, "lava-job-id"))

server = serve()
url = "http://127.0.0.1:%d/lava/" % server.server_port

p = run("submit", "--server", url, "--token-file", tok, job)
ok(p.returncode == 0 and p.stdout == "%d\n" % JOB,
   "submitted: exit %d, job id %r (%s)" % (p.returncode, p.stdout,
                                           p.stderr.strip()))
_, path, auth, body = seen[-1] if seen else (None, None, None, b"{}")
ok(path == "/lava/api/v0.2/jobs/" and auth == "Token " + TOKEN,
   "POST /lava/api/v0.2/jobs/ with the token: %r %r" % (path, auth))
ok(json.loads(body) == {"definition": definition},
   "the definition, byte for byte")
idf = os.path.join(job, "lava-job-id")
ok(os.path.exists(idf) and open(idf).read() == "%d\n" % JOB,
   "the job id in lava-job-id")

# The finished job, its id from lava-job-id: the local fetch's run.
del seen[:]
p, got = fetch(url)
ok(p.returncode == 0 and got == local,
   "fetch --server: exit %d, the local fetch's run directory: %r (%s)"
   % (p.returncode, got and got[0], p.stderr.strip()))
ok([(m, pa, a) for m, pa, a, _ in seen] ==
   [("GET", "/lava/api/v0.2/jobs/%d/" % JOB, "Token " + TOKEN),
    ("GET", "/lava/api/v0.2/jobs/%d/logs/" % JOB, "Token " + TOKEN)],
   "GET the job's state, then its log, each with the token: %r"
   % [(m, pa, a) for m, pa, a, _ in seen])
ok(got and {h for _, h, _ in got[0].values()} == {"lava job %d" % JOB},
   "each scenario's host is the job")

# A log streamed in chunks, as gunicorn sends a compressed one.
server.mode = "chunked"
p, got = fetch(url)
ok(p.returncode == 0 and got == local,
   "a chunked log: the same run directory (%s)" % p.stderr.strip())

# Still running: refused at once, nothing written; or waited for.
server.mode, server.states = "length", [("Running", "Unknown")]
del seen[:]
p, got = fetch(url)
ok(p.returncode == 2 and got is None and "not finished" in p.stderr and
   p.stderr.count("\n") == 1 and len(seen) == 1,
   "a job running: exit 2, one line, no log asked, no run: %r" % p.stderr)
server.states = [("Running", "Unknown"), ("Finished", "Incomplete")]
del seen[:]
p, got = fetch(url, "--wait", "60")
ok(p.returncode == 0 and got == local and "waiting" in p.stderr and
   "Incomplete" in p.stderr and len(seen) == 3,
   "--wait: asked again until it finished, then fetched: %r"
   % p.stderr)
server.states = [("Finished", "Complete")]

# The job's id alone, no job folder: its scenarios are the ones its
# definition as submitted names; the same run directory.
del seen[:]
p, got = fetch(url, target=str(JOB))
ok(p.returncode == 0 and got == local and len(seen) == 2,
   "fetch --server %d: the scenarios of its definition, the local fetch's "
   "run directory (%s)" % (JOB, p.stderr.strip()))
p, got = fetch(url, target="77")
ok(p.returncode == 2 and "HTTP 404" in p.stderr and "/jobs/77/" in p.stderr
   and got is None, "job 77: its state asked, 404: %r" % p.stderr)
ORIGINAL = ORIGINAL.replace("lkdtm/corrupt-stack\"]",
                            "lkdtm/corrupt-stack\x1b\"]")
p, got = fetch(url, target=str(JOB))
ok(p.returncode == 2 and "no scenario of this tree" in p.stderr and
   "\x1b" not in p.stderr and got is None,
   "a definition naming a scenario not here: exit 2, escaped: %r"
   % p.stderr)
ORIGINAL = "device_type: qemu\n"
p, got = fetch(url, target=str(JOB))
ok(p.returncode == 2 and "names no scenarios" in p.stderr and got is None,
   "a definition without the scenarios' comment: exit 2: %r" % p.stderr)
p, got = fetch(url, target="4x2")
ok(p.returncode == 2 and "neither a job folder nor a job id" in p.stderr,
   "neither a folder nor a number: exit 2")

# A log over the bound is refused before it is read; one cut short too.
server.mode = "huge"
p, got = fetch(url)
ok(p.returncode == 2 and "larger than 256 MiB" in p.stderr and got is None,
   "a log of 300 MiB: exit 2: %r" % p.stderr)
server.mode = "cut"
p, got = fetch(url)
ok(p.returncode == 2 and "cut" in p.stderr and got is None,
   "a log cut short: exit 2: %r" % p.stderr)
server.mode = "length"

# The wrong token: the server's refusal, its ESC escaped, one line.
with open(tok, "w") as f:
    f.write("wrong\n")
p = run("submit", "--server", url, "--token-file", tok, job)
ok(p.returncode == 2 and "HTTP 401" in p.stderr and "\x1b" not in p.stderr
   and p.stderr.count("\n") == 1,
   "submit refused: exit 2, one escaped line: %r" % p.stderr)
p, got = fetch(url)
ok(p.returncode == 2 and "HTTP 401" in p.stderr and "\x1b" not in p.stderr
   and p.stderr.count("\n") == 1,
   "fetch refused: exit 2, one escaped line: %r" % p.stderr)
with open(tok, "w") as f:
    f.write("\n")
p = run("submit", "--server", url, "--token-file", tok, job)
ok(p.returncode == 2 and "no token" in p.stderr, "no token: exit 2")
with open(tok, "w") as f:
    f.write("to ken\n")
p = run("submit", "--server", url, "--token-file", tok, job)
ok(p.returncode == 2 and "no token" in p.stderr,
   "a token with a space (it would break the header): exit 2")
with open(tok, "w") as f:
    f.write(TOKEN + "\n")
p = run("submit", "--server", "ftp://lava.example/", "--token-file", tok,
        job)
ok(p.returncode == 2 and "not an http:// or https:// URL" in p.stderr,
   "ftp://: exit 2, said why")
server.shutdown()

# The same over TLS: a certificate for 127.0.0.1, trusted through
# SSL_CERT_FILE; not trusted, or for another name, it is refused.
cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
                "-addext", "subjectAltName=IP:127.0.0.1"],
               check=True, capture_output=True)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
server = serve(context)
url = "https://127.0.0.1:%d/lava" % server.server_port
trust = dict(os.environ, SSL_CERT_FILE=cert)
os.unlink(idf)
p = run("submit", "--server", url, "--token-file", tok, job, env=trust)
ok(p.returncode == 0 and p.stdout == "%d\n" % JOB,
   "https: submitted (%s)" % p.stderr.strip())
p, got = fetch(url, env=trust)
ok(p.returncode == 0 and got == local,
   "https: fetched, the local fetch's run directory (%s)"
   % p.stderr.strip())
other = os.path.join(tmp, "other.pem")
subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                os.path.join(tmp, "other.key"), "-out", other, "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext",
                "subjectAltName=IP:127.0.0.1"],
               check=True, capture_output=True)
p, got = fetch(url, env=dict(os.environ, SSL_CERT_FILE=other))
ok(p.returncode == 2 and "certificate" in p.stderr and got is None,
   "https, a certificate not trusted: exit 2: %r" % p.stderr)
p, got = fetch(url.replace("127.0.0.1", "localhost"), env=trust)
ok(p.returncode == 2 and "certificate" in p.stderr and got is None,
   "https, a certificate for another name: exit 2: %r" % p.stderr)
server.shutdown()
subprocess.run(["rm", "-rf", tmp])
done()
