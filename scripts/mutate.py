#!/usr/bin/env python3
"""The mutation check (docs/regress.md "Mutation check"): does the regression catch one-line
RTL bugs through a functional verdict?

For each mutation of scripts/mutations.tsv it applies the one-line change to a scratch
worktree of HEAD (never to your checkout), rebuilds otpu-regress and the emulator there, runs
the matrix, reads the verdicts of index.json and restores the line. A mutation is *caught*
when some cell fails a functional verdict (every verdict but performance) or cannot run (an
error: a hang, a crash); *performance only* when nothing but performance moved, which counts
as missed; *does not build* when the change breaks the build (not counted). The unmutated tree runs first and must pass, else nothing is measured.

Prints one line per mutation on stderr and one JSON object on stdout:
{"matrix", "mutations", "caught", "performance_only", "missed", "does_not_build",
"results": [...]}.
Exit status: 0 measured (whatever was caught), 1 a build failed or the unmutated matrix
failed, 2 bad arguments or a mutation that no longer applies to exactly one line.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = ["otpu-regress", "otpu-xdma-emu"]


class Usage(Exception):
    pass


def read_mutations(path):
    mutations = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 4:
                raise Usage(f"{path}:{number}: expected 4 tab-separated fields "
                            f"(name, file, text, replacement), got {len(fields)}")
            mutations.append(dict(zip(("name", "file", "text", "replacement"), fields)))
    return mutations


def lines_with_text(tree, m):
    """m's file in tree as lines, and the index of the one line holding m's text."""
    path = os.path.join(tree, m["file"])
    try:
        with open(path, encoding="utf-8") as f:
            original = f.read()
    except OSError as e:
        raise Usage(f"mutation {m['name']}: {m['file']}: {e.strerror}")
    lines = original.split("\n")
    hits = [i for i, line in enumerate(lines) if m["text"] in line]
    if len(hits) != 1:
        raise Usage(f"mutation {m['name']}: its text occurs on {len(hits)} lines of "
                    f"{m['file']}, not on exactly one")
    return original, lines, hits


def apply(tree, m):
    """Replaces m's text on its one line; returns the file's original contents."""
    original, lines, hits = lines_with_text(tree, m)
    path = os.path.join(tree, m["file"])
    lines[hits[0]] = lines[hits[0]].replace(m["text"], m["replacement"], 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    return original, hits[0] + 1


def run(cmd, log, **kw):
    with open(log, "ab") as out:
        out.write(("$ " + " ".join(cmd) + "\n").encode())
        out.flush()
        return subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, **kw).returncode


def build(tree, build_dir, jobs, log):
    env = dict(os.environ, CCACHE_BASEDIR=tree)
    if not os.path.exists(os.path.join(build_dir, "build.ninja")):
        if run(["cmake", "-S", tree, "-B", build_dir, "-G", "Ninja",
                "-DCMAKE_BUILD_TYPE=Release"], log, env=env) != 0:
            return False
    return run(["cmake", "--build", build_dir, f"-j{jobs}", "--target", *TARGETS], log,
               env=env) == 0


def judge(tree, build_dir, matrix, jobs, out, log):
    """Runs the matrix; returns {cell id: [failed verdict names]} for the cells that failed."""
    shutil.rmtree(out, ignore_errors=True)
    regress = os.path.join(build_dir, "host", "programs", "otpu-regress")
    run([regress, "run", matrix, f"-j{jobs}", "--no-reuse", "--out", out], log, cwd=tree)
    try:
        with open(os.path.join(out, "index.json"), encoding="utf-8") as f:
            index = json.load(f)
    except (OSError, ValueError):
        return None
    failed = {}
    for cell in index["cells"]:
        if cell["outcome"] == "pass":
            continue
        names = [v["name"] for v in cell.get("verdicts", []) if v["outcome"] != "pass"]
        failed[cell["id"]] = names or ["error"]
    return failed


def classify(failed):
    functional = sorted({n for names in failed.values() for n in names if n != "performance"})
    if functional:
        return "caught", functional
    if failed:
        return "performance_only", ["performance"]
    return "missed", []


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matrix", default="regress/smoke.json", help="matrix to run (default smoke)")
    p.add_argument("--mutations", default=os.path.join(ROOT, "scripts", "mutations.tsv"))
    p.add_argument("--only", action="append", default=[], help="run only this mutation (repeat)")
    p.add_argument("--work", help="scratch directory (kept; default a temp dir, removed)")
    p.add_argument("--timeout", type=float, default=300,
                   help="seconds a cell may take before it is an error (a hang), default 300")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    p.add_argument("--check", action="store_true",
                   help="only check that every mutation still applies to exactly one line of "
                        "this checkout (a ctest: RTL edits move the lines)")
    args = p.parse_args()
    try:
        mutations = read_mutations(args.mutations)
        unknown = set(args.only) - {m["name"] for m in mutations}
        if unknown:
            raise Usage(f"--only: no mutation named {', '.join(sorted(unknown))} in "
                        f"{args.mutations}")
        if args.only:
            mutations = [m for m in mutations if m["name"] in args.only]
        if args.check:
            for m in mutations:
                lines_with_text(ROOT, m)
            print(f"mutate: all {len(mutations)} mutations apply to one line each")
            return 0
    except (Usage, OSError) as e:
        print(f"mutate: {e}", file=sys.stderr)
        return 2

    work = args.work or tempfile.mkdtemp(prefix="otpu-mutate-")
    os.makedirs(work, exist_ok=True)
    tree = os.path.join(work, "tree")
    build_dir = os.path.join(work, "build")
    log = os.path.join(work, "mutate.log")
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    if not os.path.isdir(tree):
        subprocess.run(["git", "-C", ROOT, "worktree", "add", "--detach", "-q", tree, head],
                       check=True)
    else:  # a kept --work dir: its tree becomes this HEAD again, its build is reused
        subprocess.run(["git", "-C", tree, "checkout", "-q", "--detach", "--force", head],
                       check=True)
    print(f"mutate: scratch tree {tree}, log {log}", file=sys.stderr)
    try:
        # A mutation can hang the core: the scratch tree's matrix gets a cell timeout to match.
        matrix_path = os.path.join(tree, args.matrix)
        try:
            with open(matrix_path, encoding="utf-8") as f:
                matrix = json.load(f)
            matrix["timeout_s"] = args.timeout
            with open(matrix_path, "w", encoding="utf-8") as f:
                json.dump(matrix, f, indent=2)
        except (OSError, ValueError) as e:
            raise Usage(f"{args.matrix}: cannot read it as a matrix: {e}")
        if not build(tree, build_dir, args.jobs, log):
            print(f"mutate: the unmutated tree does not build (see {log})", file=sys.stderr)
            return 1
        base = judge(tree, build_dir, args.matrix, args.jobs, os.path.join(work, "out-base"), log)
        if base is None or base:
            print(f"mutate: {args.matrix} does not pass unmutated (see {log})", file=sys.stderr)
            return 1
        results = []
        for m in mutations:
            original, line = apply(tree, m)
            try:
                built = build(tree, build_dir, args.jobs, log)
                failed = judge(tree, build_dir, args.matrix, args.jobs,
                               os.path.join(work, "out-" + m["name"]), log) if built else None
            finally:
                with open(os.path.join(tree, m["file"]), "w", encoding="utf-8") as f:
                    f.write(original)
            if not built:
                verdict, by = "does_not_build", []  # not a bug the regression could see
            elif failed is None:
                verdict, by = "caught", ["error"]
            else:
                verdict, by = classify(failed)
            results.append({"name": m["name"], "file": f"{m['file']}:{line}", "result": verdict,
                            "by": by, "failed_cells": len(failed or {})})
            print(f"mutate: {m['name']:28} {verdict:17} {' '.join(by)} "
                  f"({len(failed or {})} cells failed)", file=sys.stderr)
        if not build(tree, build_dir, args.jobs, log):
            print(f"mutate: the restored tree does not build (see {log})", file=sys.stderr)
            return 1
    except Usage as e:
        print(f"mutate: {e}", file=sys.stderr)
        return 2
    finally:
        if not args.work:
            subprocess.run(["git", "-C", ROOT, "worktree", "remove", "--force", tree])
            shutil.rmtree(work, ignore_errors=True)
    count = lambda r: sum(x["result"] == r for x in results)
    print(json.dumps({"matrix": args.matrix, "mutations": len(results), "caught": count("caught"),
                      "performance_only": count("performance_only"), "missed": count("missed"),
                      "does_not_build": count("does_not_build"),
                      "results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
