#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every measured figure in the docs names the command that reproduces it.

A figure is a number with a unit of time, size, rate or a percentage
(FIGURE below: "4.5 s", "2 min", "207.7 ms", "3.2 MiB", "13.4%"). A block
holding one must also hold a command: a `backticked` span that starts with
something one can type (COMMAND below: `build/hostctl/hostctl bench
--runs 5`, `hostctl run all`, `meson test -C build hostctl-probe`,
`./bootstrap test`, `images/cloud/build.sh`). A test's name alone
(`hostctl-probe`) is no command. A value the code sets rather than
measures (a timeout, a bound, a buffer's size) names where it is set
instead (SETTING: a `CONSTANT_NAME`, an `--option`, a `file.c` or
`scenario.json`), and a figure read from a stored log may name the
`file.log`. Where nothing reproduces a figure, the block says so with
the marker "not reproducible: REASON".

A block is a paragraph, one list item (with its continuation lines), or a
table. A table takes the command of its caption: the paragraph, list item
or code block right before it, or the table right before it, which
shares that caption. A list item takes the command of what introduces
its list (the paragraph right before it, if that ends with ':', or a
table the list comments on) or of its parent item. Fenced code blocks
are commands and output, not prose, and headings are titles: neither is
checked, but a code block's lines count as commands for the table after
it (the table of what the command printed).

Before the docs, the rule checks itself on the small cases in SELF (a
figure without a command fails, with one passes, ...).

This is a floor, not a proof: it checks that a command or a setting is
named next to the figure, not that it yields the figure, and it cannot
tell a measured figure from a set one, so a measurement beside a source
file's name passes too. TAP on stdout, one line per file.

usage: check-figures.py SRCDIR [FILE.md...]
       (FILE.md relative to SRCDIR; default README.md and docs/**/*.md)"""
import glob
import os
import re
import sys

UNITS = r"(?:ms|s|min|minutes|seconds|µs|us|ns|KiB|MiB|GiB|KB|MB|GB|Mbit/s|MB/s|%)"
FIGURE = re.compile(r"(?<![\w.#/-])\d+(?:\.\d+)?\s?" + UNITS + r"(?![\w/])")
COMMAND = re.compile(
    r"`(?:[A-Z][A-Z_]*=\S* )*(?:nice -n \d+ )?(?:sudo )?"
    r"(?:build[\w-]*/\S+|\./\S+|\.ci/\S+|[a-z]+/[\w/.-]+\.(?:sh|py)\b"
    r"|hostctl\s[a-z]|meson\s(?:test|setup|compile)\b|ninja\s\S|(?:ba)?sh\s\S"
    r"|python3\s\S|time\s\S|virsh\s\S|qemu-\S+\s\S)[^`]*`")
# Where a set value (a timeout, a bound, a size) is set: a constant, an
# option, a source or data file.
SETTING = re.compile(
    r"`(?:[A-Z][A-Z0-9]*_[A-Z0-9_]+|--[a-z][\w-]*|[\w./-]+\."
    r"(?:c|h|json|config|sh|py|build|log))\b[^`]*`")
MARKER = re.compile(r"not\s+reproducible:")


def blocks(lines):
    """The blocks of LINES, each a dict: line (the first), kind (para,
    item, table, heading, code), text, indent, and lead, the block a table
    or list item takes its command from (or None)."""
    out = []
    cur = None
    fence = False
    for i, line in enumerate(lines, 1):
        s = line.rstrip("\n")
        if s.lstrip().startswith("```"):
            fence = not fence
            cur = None
            if fence:
                # A code block: no figure is checked in it, but its
                # command lines (as if backticked) caption what follows.
                cur = {"line": i, "kind": "code", "text": "",
                       "indent": 0}
                out.append(cur)
            continue
        if fence:
            cur["text"] += "`%s`\n" % re.sub(r"^\s*\$\s*", "", s)
            continue
        if not s.strip():
            cur = None
            continue
        m = re.match(r"^(\s*)(?:[-*+]|\d+\.)\s", s)
        kind = ("table" if s.lstrip().startswith("|") else
                "item" if m else
                "heading" if s.startswith("#") else "para")
        if cur is not None and (
                (cur["kind"] == "table" and kind == "table") or
                (cur["kind"] in ("para", "item") and kind == "para")):
            cur["text"] += "\n" + s
            continue
        cur = {"line": i, "kind": kind, "text": s,
               "indent": len(m.group(1)) if m else 0}
        out.append(cur)
    for k, b in enumerate(out):
        b["lead"] = None
        if (b["kind"] == "table" and k and
                out[k - 1]["kind"] in ("para", "table", "item", "code")):
            b["lead"] = out[k - 1]
        if b["kind"] == "item":
            for j in range(k - 1, -1, -1):
                p = out[j]
                if p["kind"] == "item" and p["indent"] < b["indent"]:
                    b["lead"] = p
                    break
                if p["kind"] == "para":
                    if p["text"].rstrip().endswith(":"):
                        b["lead"] = p
                    break
                if p["kind"] == "table":
                    b["lead"] = p
                    break
                if p["kind"] != "item":
                    break
    return out


def named(b):
    while b is not None:
        t = b["text"]
        if COMMAND.search(t) or SETTING.search(t) or MARKER.search(t):
            return True
        b = b["lead"]
    return False


def check_lines(lines):
    """The blocks of LINES with a figure and no command: (line, figure)."""
    bad = []
    for b in blocks(lines):
        m = FIGURE.search(b["text"])
        if m and b["kind"] not in ("heading", "code") and not named(b):
            bad.append((b["line"], m.group(0)))
    return bad


def check(path):
    with open(path, encoding="utf-8") as f:
        return check_lines(f.readlines())


# (what, markdown, how many blocks fail)
SELF = [
    ("a figure with no command fails", "It took 4.5 s.\n", 1),
    ("a test's name is no command", "`hostctl-probe` took 2.0 s.\n", 1),
    ("a backticked command passes",
     "`hostctl bench --runs 5` gave 207.7 ms.\n", 0),
    ("a constant passes for a set value", "It waits 15 s (`VM_SILENCE_MS`).\n",
     0),
    ("the marker passes", "About 0.9 s (not\nreproducible: a peer's).\n", 0),
    ("a table takes its caption's command",
     "Measured with `meson test -C build hostctl-probe`:\n\n"
     "| a | b |\n| --- | --- |\n| x | 3 s |\n", 0),
    ("a table without a caption's command fails",
     "Measured:\n\n| a | b |\n| --- | --- |\n| x | 3 s |\n", 1),
    ("a table takes the command of the code block before it",
     "```\n$ build/hostctl/hostctl bench\n```\n\n| x | 3 s |\n", 0),
    ("a list item takes the command of its lead-in",
     "With `hostctl run all`:\n\n- one: 3 s\n- two: 4 s\n", 0),
    ("a list item after a plain paragraph does not",
     "With `hostctl run all`.\n\n- one: 3 s\n", 1),
    ("a figure in a code block is not checked", "```\n3 s\n```\n", 0),
]


def main():
    src = sys.argv[1]
    files = sys.argv[2:] or (["README.md"] + sorted(
        os.path.relpath(p, src) for p in
        glob.glob(os.path.join(src, "docs", "**", "*.md"), recursive=True)))
    n = failed = 0
    for what, text, want in SELF:
        n += 1
        got = len(check_lines(text.splitlines(True)))
        print("%s %d - rule: %s" % ("ok" if got == want else "not ok", n,
                                    what))
        failed += got != want
    for rel in files:
        n += 1
        bad = check(os.path.join(src, rel))
        for line, fig in bad:
            print("# %s:%d: '%s' in a block that names no command "
                  "(nor a setting, nor 'not reproducible:')"
                  % (rel, line, " ".join(fig.split())))
        print("%s %d - %s: every figure names its command"
              % ("not ok" if bad else "ok", n, rel))
        failed += bool(bad)
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
