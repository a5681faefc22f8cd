#!/usr/bin/env python3
"""Whether two .otpuprof files hold equal profiles: the same recording made two ways (the board
model in-process with `otpu-lens record --sim`, the emulated card with `--dev`) must agree in
everything but provenance. "Equal" is exactly what the card test of host/programs asks
(otpu_lens_card_test.cc, ComparableJson): the files' JSON documents are equal value for value
(every profile, instruction, window, counter, note and hwtrace field; numbers compared as
parsed, key order ignored) after removing

  created           the top level's time of writing,
  config.MEM        each profile's memory name: "card" on a card, the model's on the board model,
  board.UPTIME      each profile's board-clock cycles over the run, which count the host's own
                    register accesses (docs/board.md: 100 cycles each; docs/regress.md leaves
                    it out of baselines for the same reason): on the emulated card the host
                    also reads RUNNING once per --timeout of wall time to see that a slow run
                    still moves (host/card.cc), so how many accesses a run sees depends on
                    the wall clock.

Nothing else is excused: tool and tool_version (one build), cycles, every instruction's times,
the windows, notes and hwtrace fields, and every other board counter (RUNNING, the units'
busy cycles, DRAM traffic) must agree.

  scripts/profiles_equal.py A.otpuprof B.otpuprof

prints {"equal": true|false, "first_difference": null|"profiles[0].instrs[41].end: 1234 vs 1240"}
and exits 0 when equal, 1 when not, 2 when a file does not read.
"""
import gzip
import json
import sys


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    doc = json.loads(data)
    doc.pop("created", None)
    for p in doc.get("profiles", []):
        if isinstance(p.get("config"), dict):
            p["config"].pop("MEM", None)
        if isinstance(p.get("board"), dict):
            p["board"].pop("UPTIME", None)
    return doc


def first_difference(a, b, path="$"):
    """The path of the first place a and b differ, with both values, or None."""
    if type(a) is not type(b):
        return f"{path}: {json.dumps(a)[:80]} vs {json.dumps(b)[:80]}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'the second' if k not in a else 'the first'}"
            d = first_difference(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d:
                return d
        if len(a) != len(b):
            return f"{path}: {len(a)} vs {len(b)} entries"
        return None
    return None if a == b else f"{path}: {json.dumps(a)[:80]} vs {json.dumps(b)[:80]}"


def main(argv):
    if len(argv) != 3:
        print("usage: scripts/profiles_equal.py A.otpuprof B.otpuprof", file=sys.stderr)
        return 2
    try:
        a, b = load(argv[1]), load(argv[2])
    except (OSError, ValueError, EOFError) as e:
        print(f"profiles_equal.py: {e}", file=sys.stderr)
        return 2
    diff = first_difference(a, b)
    print(json.dumps({"equal": diff is None, "first_difference": diff}))
    return 0 if diff is None else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
