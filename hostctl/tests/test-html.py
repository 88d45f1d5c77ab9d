#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""hostctl report --html in headless Chromium (Debian's chromium): the
page of the fixture runs' latest renders, a screenshot is produced, and
its verdict table has one row per scenario, each strip one cell per run.
The page must name no network resource and hold no script. TAP on stdout.

usage: test-html.py HOSTCTL FIXTURES_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

from tap import done, ok

hostctl, fixtures = os.path.abspath(sys.argv[1]), sys.argv[2]
chromium = shutil.which("chromium")
if not chromium:
    print("1..0 # SKIP chromium is not installed")
    sys.exit(0)

tmp = tempfile.mkdtemp(prefix="vlalab-html-")
p = subprocess.run([hostctl, "report", "--html", tmp, "latest"],
                   capture_output=True, text=True, cwd=fixtures,
                   env=dict(os.environ, VLALAB_RESULTS="results"))
page = p.stdout.strip()
ok(p.returncode == 0 and page.endswith("20261204-020000-103.html"),
   "report --html writes the page: %s %s" % (page, p.stderr.strip()))
html = open(page).read()
ok("<script" not in html and "http://" not in html and "https://" not in html,
   "no script, no network")

flags = ["--headless=new", "--no-sandbox", "--disable-gpu",
         "--user-data-dir=" + os.path.join(tmp, "profile")]
shot = os.path.join(tmp, "page.png")
c = subprocess.run([chromium, *flags, "--window-size=1200,900",
                    "--screenshot=" + shot, "file://" + page],
                   capture_output=True, text=True, timeout=120)
data = open(shot, "rb").read() if os.path.exists(shot) else b""
ok(c.returncode == 0 and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10000,
   "a screenshot (%d bytes)" % len(data))
c = subprocess.run([chromium, *flags, "--dump-dom", "file://" + page],
                   capture_output=True, text=True, timeout=120)
dom = c.stdout
body = re.search(r'<table id="verdicts">.*?<tbody>(.*?)</tbody>', dom, re.S)
rows = re.findall(r"<tr class=\"v-", body.group(1)) if body else []
summary = json.load(open(os.path.join(fixtures, "results", "20261204-020000-103",
                                      "summary.json")))
ok(len(rows) == len(summary["scenarios"]),
   "one table row per scenario in the rendered DOM (%d)" % len(rows))
strip = re.search(r"<svg width=\"\d+\" height=\"\d+\" role=\"img\">(.*?)</svg>",
                  body.group(1) if body else "", re.S)
cells = re.findall(r"<rect", strip.group(1)) if strip else []
# 3 readable stored runs before it (the --repeat one is left out) + itself.
ok(len(cells) == 4, "the strip has a cell per run (%d)" % len(cells))
ok('id="s0"' in dom and "step 1 &apos;mdb&apos; failed" in html,
   "the failing scenario's section")
shutil.rmtree(tmp)
done()
