#!/usr/bin/env python3
"""Lists the #include edges between the project's layers (docs/architecture.md) and fails on
any edge against the direction SPEC 2 draws: a file may include its own layer and the layers
below it, never one above. Test files count as part of the layer of their folder, except
those under tests/, which may include anything.

  scripts/layer_edges.py            every edge between layers, with counts, then violations
  scripts/layer_edges.py --check    only the violations; exit 1 if there are any
"""
import os
import re
import sys
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Lowest first. A path belongs to the first entry whose prefix it starts with (most specific
# prefixes are listed before their parents).
LAYERS = [
    ("base", ["base/"]),
    ("workloads", ["workloads/"]),
    ("sim/isa", ["sim/isa/"]),
    ("board_iface", ["host/board_iface.h"]),
    ("sim/rtl", ["sim/rtl/"]),
    ("sim/board", ["sim/board/"]),
    ("host/xdma", ["host/xdma/"]),
    ("host/lock", ["host/lock/"]),
    ("host", ["host/card", "host/stop_request", "host/bit_flip_board"]),
    ("lens", ["lens/"]),
    ("programs", ["host/programs/", "host/xdma_emu/", "host/otpu_lock_main.cc",
                  "host/otpu_lock_test.cc", "lens/main.cc", "lens/cli/"]),
    ("tests", ["tests/"]),
]
# Layers side by side: neither may include the other.
SIBLINGS = [{"sim/rtl", "host/xdma", "host/lock"}, {"sim/board", "host/xdma", "host/lock"}]


def layer_of(path):
    best = None
    for rank, (name, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if path.startswith(p) and (best is None or len(p) > best[2]):
                best = (rank, name, len(p))
    return best[:2] if best else None


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    check = "--check" in sys.argv[1:]
    edges, bad = Counter(), []
    for top in ("base", "workloads", "sim", "host", "lens", "tests"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if not f.endswith((".h", ".cc", ".in")):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), ROOT)
                src = layer_of(rel)
                if src is None:
                    bad.append(f"{rel}: in no layer (add it to LAYERS)")
                    continue
                with open(os.path.join(ROOT, rel), encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
                for inc in INCLUDE.findall(text):
                    dst = layer_of(inc)
                    if dst is None or dst[1] == src[1]:
                        continue
                    edges[(src[1], dst[1])] += 1
                    up = dst[0] > src[0] and src[1] != "tests"
                    side = any({src[1], dst[1]} <= s for s in SIBLINGS) and src[1] != "tests"
                    if up or side:
                        bad.append(f"{rel}: includes {inc} ({src[1]} -> {dst[1]})")
    if not check:
        for (a, b), n in sorted(edges.items()):
            print(f"{a:>12} -> {b:<12} {n}")
    for line in bad:
        print("against the layers:", line)
    if not check:
        print(f"{len(bad)} edges against the layers")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
