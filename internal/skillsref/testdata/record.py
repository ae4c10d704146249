"""Record the reference validator's verdicts for skillet's parity test.

Run by record.sh, which installs the reference and passes its command line.
For every skill folder of the corpus (each folder holding a SKILL.md or
skill.md) and every case folder of generated.txtar it runs, from the
folder's root and with the root-relative path as the argument:

    validate DIR, read-properties DIR, to-prompt DIR

and writes one JSON object per line and command to OUT:

    {"dir": "a/b", "cmd": "validate", "exit": 1, "stdout": "...", "stderr": "..."}

The absolute path of the root (as the reference resolves it) is replaced
with $ROOT so the recording does not depend on where the corpus lives. When
the reference crashes (a Python traceback), "crash" holds the exception's
last line and stderr holds only that line, without the traceback's paths.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

COMMANDS = ("validate", "read-properties", "to-prompt")


def unquote_go(s):
    """Decode the body of a Go-quoted string (\\n, \\\\, \\", \\xNN)."""
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        n = s[i + 1]
        if n == "x":
            out.append(int(s[i + 2 : i + 4], 16))
            i += 4
            continue
        out += {"n": b"\n", "r": b"\r", "t": b"\t", "\\": b"\\", '"': b'"'}[n]
        i += 2
    return bytes(out)


def extract_txtar(path, dest):
    """Write the files of a txtar archive under dest; NAME.q files are Go-quoted."""
    data = open(path, "rb").read().decode("utf-8")
    parts = re.split(r"^-- (.+) --\n", data, flags=re.M)
    dirs = set()
    for name, body in zip(parts[1::2], parts[2::2]):
        raw = body.encode("utf-8")
        if name.endswith(".q"):
            name = name[:-2]
            raw = unquote_go(body.strip("\n")[1:-1])
        target = os.path.join(dest, name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(raw)
        dirs.add(name.split("/")[0])
    return sorted(dirs)


def corpus_dirs(root):
    dirs = []
    for d, subdirs, files in os.walk(root):
        subdirs.sort()
        if "SKILL.md" in files or "skill.md" in files:
            dirs.append(os.path.relpath(d, root))
    return sorted(dirs)


def run(ref, root, rel, cmd):
    env = dict(os.environ, LC_ALL="C.UTF-8", PYTHONIOENCODING="utf-8")
    p = subprocess.run(ref + [cmd, rel], cwd=root, capture_output=True, env=env, timeout=120)
    real = os.path.realpath(root)
    out = p.stdout.decode("utf-8", "backslashreplace").replace(real, "$ROOT")
    err = p.stderr.decode("utf-8", "backslashreplace").replace(real, "$ROOT")
    rec = {"dir": rel, "cmd": cmd, "exit": p.returncode, "stdout": out, "stderr": err}
    if "Traceback (most recent call last):" in err:
        last = err.rstrip("\n").split("\n")[-1]
        rec["crash"] = last
        rec["stderr"] = last + "\n"
    return rec


def record(ref, root, dirs, out, jobs):
    tasks = [(d, c) for d in dirs for c in COMMANDS]
    with ThreadPoolExecutor(jobs) as ex:
        recs = list(ex.map(lambda t: run(ref, root, t[0], t[1]), tasks))
    with open(out, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n")
    crashes = sum(1 for r in recs if "crash" in r)
    print(f"{out}: {len(dirs)} folders, {len(recs)} runs, {crashes} crashes", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus")
    ap.add_argument("--cases", required=True)
    ap.add_argument("--out", required=True, help="folder for corpus.jsonl and generated.jsonl")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("ref", nargs="+", help="the reference command line")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "cases")
        os.mkdir(root)
        dirs = extract_txtar(a.cases, root)
        record(a.ref, root, dirs, os.path.join(a.out, "generated.jsonl"), a.jobs)
    if a.corpus:
        record(a.ref, a.corpus, corpus_dirs(a.corpus), os.path.join(a.out, "corpus.jsonl"), a.jobs)


if __name__ == "__main__":
    main()
