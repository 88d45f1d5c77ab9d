#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What the kernel's debug info costs, and what each cheaper form keeps
(docs/performance.md, "Kernel build").

Each mode takes an object tree a build left behind (OBJDIR, e.g.
<cache>/obj/patched) and re-runs the compile command an object's
.o.cmd recorded, in OBJDIR, with its output in a scratch folder: the
object tree and the source tree are only read.

usage: debuginfo-cost.py cost OBJDIR N SEED
         N kernel C objects drawn with SEED, each compiled once per
         variant below, in turns; the CPU time (user + sys, getrusage of
         the children) of each variant over the N, and their size.
       debuginfo-cost.py lines OBJDIR OBJ...
         each OBJ (e.g. net/dsa/dsa2.o) compiled with each variant; whether
         its .text is the same bytes, and for every 3rd byte of .text what
         binutils' addr2line and elfutils' eu-addr2line (libdw, as
         hostctl/crash/symbolize.c) answer with -a -i -f, against full's;
         struct DIEs and declarations in .debug_info (types crash needs).
       debuginfo-cost.py ccache OBJDIR N SEED
         N objects drawn as cost draws them, each compiled as it is, then
         through ccache with an empty cache (a miss), then again (a hit).
       debuginfo-cost.py objects OBJDIR
         how many kernel C objects OBJDIR holds, and how many of them are
         modules', per top folder (arch/, drivers/ and net/ one deeper).
"""
import glob
import hashlib
import os
import random
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile

COST = {
    "full (dwarf5)": [],
    "no-var-tracking": ["-fno-var-tracking"],
    "reduced": ["-fno-var-tracking", "-femit-struct-debug-baseonly"],
    "split": ["-gsplit-dwarf"],
    "none (-g0)": ["-g0"],
    "full, no UBSAN": [],
}
LINES = {
    "full": [],
    "no-var-tracking": ["-fno-var-tracking"],
    "reduced": ["-fno-var-tracking", "-femit-struct-debug-baseonly"],
    "split": ["-gsplit-dwarf"],
    "dwarf4": ["-gdwarf-4"],
}


def compile_cmd(objdir, rel):
    """The gcc command of OBJDIR/rel's .o.cmd, without the depfile flag."""
    d, b = os.path.split(rel)
    with open(os.path.join(objdir, d, "." + b + ".cmd"), errors="replace") as f:
        line = f.readline()
    cmd = line.split(":=", 1)[1].split(";")[0]
    return [x for x in shlex.split(cmd) if not x.startswith("-Wp,-MMD")]


def variant(args, name, extra, out):
    i = args.index("-o")
    a = list(args)
    a[i + 1] = out
    a = a[:i] + extra + a[i:]
    if name.endswith("no UBSAN"):
        a = [x for x in a if not x.startswith("-fsanitize=")]
    if name == "dwarf4":
        a = [x for x in a if x != "-gdwarf-5"]
    return a


def kernel_objects(objdir):
    """Every kernel C object of OBJDIR (not host tools, not assembly)."""
    res = []
    for path in glob.glob(objdir + "/**/.*.o.cmd", recursive=True):
        with open(path, errors="replace") as f:
            line = f.readline()
        m = re.match(r"cmd_(\S+\.o) := (gcc .*)", line)
        if not m:
            continue
        cmd = m.group(2).split(";")[0]
        if " -c " in cmd and "-D__KERNEL__" in cmd and re.search(r"\.c( |$)", cmd):
            res.append(m.group(1))
    return sorted(res)


def cost(objdir, n, seed, scratch):
    objs = kernel_objects(objdir)
    random.Random(seed).shuffle(objs)
    sample = objs[:n]
    cpu = {v: 0.0 for v in COST}
    size = {v: 0 for v in COST}
    out = os.path.join(scratch, "x.o")
    for k, rel in enumerate(sample, 1):
        args = compile_cmd(objdir, rel)
        for v, extra in COST.items():
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            p = subprocess.run(variant(args, v, extra, out), cwd=objdir,
                               stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            if p.returncode:
                sys.exit("debuginfo-cost: %s failed to compile as %s" % (rel, v))
            cpu[v] += (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            for f in glob.glob(scratch + "/*"):
                size[v] += os.path.getsize(f)
                os.unlink(f)
        print("after %d: " % k + " ".join("%s=%.1f" % (v, cpu[v]) for v in COST),
              flush=True)
    print("objects sampled: %d of %d C objects" % (len(sample), len(objs)))
    base = cpu["full (dwarf5)"]
    for v in COST:
        print("%-18s cpu %7.1f s  %5.1f%% of full  objects %6.1f MB"
              % (v, cpu[v], 100 * cpu[v] / base, size[v] / 1e6))


def cpu_of(args, cwd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(args, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        sys.exit("debuginfo-cost: '%s' failed" % " ".join(args[-3:]))
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def ccache(objdir, n, seed, scratch):
    os.environ["CCACHE_DIR"] = os.path.join(scratch, "ccache")
    objs = kernel_objects(objdir)
    random.Random(seed).shuffle(objs)
    cpu = {"plain": 0.0, "ccache, miss": 0.0, "ccache, hit": 0.0}
    out = os.path.join(scratch, "x.o")
    for rel in objs[:n]:
        args = variant(compile_cmd(objdir, rel), "as is", [], out)
        cpu["plain"] += cpu_of(args, objdir)
        cpu["ccache, miss"] += cpu_of(["ccache"] + args, objdir)
        cpu["ccache, hit"] += cpu_of(["ccache"] + args, objdir)
    print("objects: %d of %d" % (min(n, len(objs)), len(objs)))
    for k, v in cpu.items():
        print("%-12s cpu %6.1f s  %5.1f%% of plain" % (k, v, 100 * v / cpu["plain"]))


def text_size(o):
    r = subprocess.run(["readelf", "-SW", o], capture_output=True, text=True)
    for l in r.stdout.splitlines():
        m = re.search(r"\]\s+\.text\s+\S+\s+\S+\s+\S+\s+([0-9a-f]+)", l)
        if m:
            return int(m.group(1), 16)
    return 0


def text_hash(o):
    subprocess.run(["objcopy", "-O", "binary", "-j", ".text", o, o + ".bin"],
                   check=True)
    with open(o + ".bin", "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def resolve(tool, o, addrs):
    """One answer per address: the -a line and what follows it."""
    r = subprocess.run([tool, "-a", "-i", "-f", "-j", ".text", "-e", o],
                       input="".join("0x%x\n" % a for a in addrs),
                       capture_output=True, text=True)
    blocks = []
    for l in r.stdout.splitlines():
        if re.match(r"^0x[0-9a-f]+$", l):
            blocks.append([l])
        elif blocks:
            blocks[-1].append(l)
    return ["\n".join(b) for b in blocks]


def structs(o):
    r = subprocess.run(["readelf", "--debug-dump=info", o],
                       capture_output=True, text=True)
    return r.stdout.count("DW_TAG_structure_type"), r.stdout.count("DW_AT_declaration")


def lines(objdir, rels, scratch):
    tools = ("addr2line", "eu-addr2line")
    for rel in rels:
        args = compile_cmd(objdir, rel)
        base = os.path.basename(rel)[:-2]
        objs = {}
        for v, extra in LINES.items():
            o = os.path.join(scratch, "%s.%s.o" % (base, v))
            subprocess.run(variant(args, v, extra, o), cwd=objdir, check=True)
            objs[v] = o
        addrs = list(range(0, text_size(objs["full"]), 3))
        h0 = text_hash(objs["full"])
        ref = {t: resolve(t, objs["full"], addrs) for t in tools}
        print("%s: .text %d addresses; full: %d struct DIEs, %d declarations"
              % (rel, len(addrs), *structs(objs["full"])))
        for v, o in objs.items():
            if v == "full":
                continue
            said = []
            for t in tools:
                got = resolve(t, o, addrs)
                nd = sum(1 for x, y in zip(got, ref[t]) if x != y)
                nd += abs(len(got) - len(ref[t]))
                said.append("%s: %d of %d differ" % (t, nd, len(ref[t])))
                for x, y in [(x, y) for x, y in zip(got, ref[t]) if x != y][:1]:
                    said.append("e.g. full '%s', %s '%s'"
                                % (y.replace("\n", " | "), v, x.replace("\n", " | ")))
            print("  %-16s text %s; %s; %d struct DIEs, %d declarations"
                  % (v, "same" if text_hash(o) == h0 else "DIFFERENT",
                     "; ".join(said), *structs(o)))


def objects(objdir):
    count, mods = {}, {}
    for rel in kernel_objects(objdir):
        parts = rel.split("/")
        key = "/".join(parts[:2] if parts[0] in ("arch", "drivers", "net") else parts[:1])
        count[key] = count.get(key, 0) + 1
        if "-DMODULE" in compile_cmd(objdir, rel):
            mods[key] = mods.get(key, 0) + 1
    print("%d kernel C objects, %d of them in modules"
          % (sum(count.values()), sum(mods.values())))
    for key in sorted(count, key=lambda k: (-count[k], k))[:16]:
        print("%-16s %4d %4d" % (key, count[key], mods.get(key, 0)))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "objects":
        objects(sys.argv[2])
        return
    if len(sys.argv) < 4 or sys.argv[1] not in ("cost", "lines", "ccache"):
        sys.exit(__doc__)
    scratch = tempfile.mkdtemp(prefix="debuginfo-cost.")
    try:
        if sys.argv[1] == "cost":
            cost(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), scratch)
        elif sys.argv[1] == "ccache":
            ccache(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), scratch)
        else:
            lines(sys.argv[2], sys.argv[3:], scratch)
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    main()
