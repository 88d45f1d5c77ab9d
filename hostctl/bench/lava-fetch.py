#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""What hostctl lava fetch --server costs on a large job log: a local
HTTP (or HTTPS) server answers as LAVA's api/v0.2/ does with the log of
hostctl/tests/lava-fixtures/lkdtm-lava-run.log's job, after MB mebibytes
of kernel lines (LAVA's "target" records, made by LAVA's own dump()
where lava-dispatcher is installed), and hostctl fetches it under
/usr/bin/time: its wall, user and system time and its largest resident
set. docs/lava.md, "What a fetch costs".

usage: lava-fetch.py HOSTCTL MB [https]"""
import http.server
import json
import os
import ssl
import subprocess
import sys
import tempfile
import threading

try:
    from lava_common.log import dump
except ImportError:
    import yaml

    def dump(data):
        return yaml.dump(data, default_flow_style=True, default_style='"',
                         width=10**6)[:-1]

hostctl, mb = sys.argv[1], int(sys.argv[2])
tls = sys.argv[3:] == ["https"]
fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                        "tests", "lava-fixtures")
with open(os.path.join(fixtures, "lkdtm-lava-run.log")) as f:
    job = "".join("- " + l + "\n" for l in f.read().splitlines())
line = "- " + dump({"dt": "2026-12-07T05:40:01.000000", "lvl": "target",
                    "msg": '[    0.500000] vlalab: a kernel line \\"quoted\\" '
                           "caf\u00e9 " + "x" * 60}) + "\n"
body = (line * (mb * (1 << 20) // len(line)) + job).encode()


class Lava(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        data = body if self.path.endswith("/logs/") else json.dumps(
            {"id": 1, "state": "Finished", "health": "Complete"}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


tmp = tempfile.mkdtemp()
server = http.server.HTTPServer(("127.0.0.1", 0), Lava)
env = dict(os.environ)
if tls:
    cert, key = os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    env["SSL_CERT_FILE"] = cert
threading.Thread(target=server.serve_forever, daemon=True).start()
jobdir = os.path.join(tmp, "job")
os.mkdir(jobdir)
with open(os.path.join(fixtures, "lkdtm-requests.jsonl")) as f, \
        open(os.path.join(jobdir, "requests.jsonl"), "w") as g:
    g.write(f.read())
with open(os.path.join(jobdir, "lava-job-id"), "w") as f:
    f.write("1\n")
url = "%s://127.0.0.1:%d/" % ("https" if tls else "http", server.server_port)
p = subprocess.run(["/usr/bin/time", "-f",
                    "%e s wall, %U s user, %S s system, %M KiB max RSS",
                    hostctl, "lava", "fetch", "--server", url, "--results",
                    os.path.join(tmp, "res"), jobdir],
                   capture_output=True, text=True, env=env)
print("a log of %.1f MiB over %s: exit %d, %s"
      % (len(body) / 2**20, "https" if tls else "http", p.returncode,
         p.stderr.strip().splitlines()[-1]))
subprocess.run(["rm", "-rf", tmp])
sys.exit(p.returncode)
