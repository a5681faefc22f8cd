#!/usr/bin/env python3
"""Checks that otpu.core (FuseSoC CAPI2) and the otpu_<model>_<config>.f filelists beside it
agree: each target names exactly its filelist's files, in the same order, with the same
parameters (rtl/filelists.cmake writes both; FuseSoC itself is not installed here).

usage: check_fusesoc_core.py DIR   (DIR holds otpu.core and the .f files)
"""
import os
import re
import sys

import yaml


def filelist(path):
    files, params = [], {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("//") or line.startswith("+incdir+"):
            continue
        m = re.fullmatch(r"-G(\w+)=(.*)", line)
        if m:
            value = m.group(2)
            sized = re.fullmatch(r"\d*'([hd])([0-9a-fA-F_]+)", value)
            if sized:
                value = int(sized.group(2).replace("_", ""), 16 if sized.group(1) == "h" else 10)
            params[m.group(1)] = int(value)
            continue
        if line.startswith(("-", "+")):
            sys.exit(f"{path}: unexpected option {line}")
        files.append(os.path.realpath(line))
    return files, params


def main():
    d = sys.argv[1]
    text = open(os.path.join(d, "otpu.core")).read()
    if not text.startswith("CAPI=2:"):
        sys.exit("otpu.core: does not start with CAPI=2:")
    core = yaml.safe_load(text)
    filesets = core["filesets"]
    declared = set(core.get("parameters", {}))
    lists = sorted(f for f in os.listdir(d) if f.endswith(".f"))
    if not lists:
        sys.exit(f"{d}: no .f filelists")
    errors = []
    for name in lists:
        model, cfg = re.fullmatch(r"otpu_(core|board)_(\w+)\.f", name).groups()
        target = cfg if model == "board" else f"core_{cfg}"
        t = core["targets"].get(target)
        if t is None:
            errors.append(f"{name}: otpu.core has no target {target}")
            continue
        if t.get("toplevel") != f"otpu_{model}":
            errors.append(f"{target}: toplevel {t.get('toplevel')}, expected otpu_{model}")
        files = [os.path.realpath(os.path.join(d, f))
                 for s in t["filesets"] for f in filesets[s]["files"]]
        want, want_params = filelist(os.path.join(d, name))
        if files != want:
            extra = sorted(set(files) - set(want))
            missing = sorted(set(want) - set(files))
            errors.append(f"{target} vs {name}: files differ (extra {extra}, missing {missing}"
                          + (", order" if not extra and not missing else "") + ")")
        got_params = {}
        for p in t.get("parameters", []):
            k, v = p.split("=", 1)
            got_params[k] = int(v)
            if k not in declared:
                errors.append(f"{target}: parameter {k} is not declared in parameters:")
        if got_params != want_params:
            errors.append(f"{target} vs {name}: parameters {got_params} != {want_params}")
        for f in want:
            if not os.path.isfile(f):
                errors.append(f"{name}: {f} does not exist")
    lint = core["targets"].get("lint", {})
    if lint.get("default_tool") != "verilator" or \
            lint.get("tools", {}).get("verilator", {}).get("mode") != "lint-only":
        errors.append("otpu.core: the lint target must run verilator in lint-only mode")
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"otpu.core: {len(lists)} targets match their filelists")


if __name__ == "__main__":
    main()
