#!/usr/bin/env python3
"""Checks the manual pages in docs/man: each renders with groff without a warning, has the
sections of a manual page, and names every long option its program accepts, so a page cannot
drift from its program.

The options a program accepts are read two ways, both must be in the page: its help output
(`PROG --help` and `PROG COMMAND --help` for each command `PROG --complete ''` offers) and
its Boost.Program_options definitions in the sources below (every "name" or "name,x" given to
add_options, less the positional ones and the command names), deprecated spellings included.

usage: check_man.py SOURCE_DIR BIN_DIR...   (BIN_DIRs: where the built programs are)
"""
import os
import re
import subprocess
import sys

# Program -> its sources with option definitions.
PROGRAMS = {
    "lens": ["lens/main.cc", "lens/cli/commands.cc"],
    "otpu-lens": ["host/programs/otpu_lens_main.cc", "lens/cli/commands.cc"],
    "otpu-lock": ["host/otpu_lock_main.cc"],
    "otpu-regress": ["host/programs/regress/otpu_regress_main.cc",
                     "host/programs/regress/slurm_command.cc"],
    "otpu-xdma-emu": ["host/xdma_emu/main.cc"],
    "otpu-prebuild": ["workloads/models/prebuild_main.cc"],
    "otpu-mkcheckpoint": ["workloads/models/otpu_mkcheckpoint_main.cc"],
}
FULL_PAGES = {"lens", "otpu-lens", "otpu-lock", "otpu-regress", "otpu-xdma-emu"}
SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES",
            "EXAMPLES", "SEE ALSO"]
LONG = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*[a-z0-9])")


def code_options(src, files):
    names, positional = set(), set()
    for f in files:
        text = open(os.path.join(src, f)).read()
        names |= set(re.findall(r'"([a-z][a-z0-9-]+)(?:,[A-Za-z])?",\s*(?:po::|")', text))
        positional |= set(re.findall(r'\.add\("([a-z-]+)"', text))
    return names - positional - set(PROGRAMS)


def help_options(binary, prog):
    def run(*args):
        try:
            p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            return None
        return p.stdout + p.stderr if p.returncode == 0 else None

    top = run("--help") or ""
    names = set(LONG.findall(top))
    # The commands, as `--help` lists them and `--complete` offers them (base/cli.h).
    commands = set()
    if "\ncommands:\n" in top:
        commands = set((run("--complete", "") or "").split()) - {"help"}
    for cmd in sorted(commands):
        names |= set(LONG.findall(run(cmd, "--help") or ""))
    return names, top, commands


def main():
    src, bins = sys.argv[1], sys.argv[2:]
    errors = []
    for prog, files in PROGRAMS.items():
        page = os.path.join(src, "docs", "man", prog + ".1")
        if not os.path.exists(page):
            errors.append(f"{prog}: no page {page}")
            continue
        r = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", page], capture_output=True,
                           text=True)
        if r.returncode or r.stderr.strip():
            errors.append(f"{page}: groff: {r.stderr.strip() or r.returncode}")
        roff = open(page).read()
        text = roff.replace("\\-", "-").replace("\\fB", "").replace("\\fR", "").replace("\\fI", "")
        headings = re.findall(r"^\.SH (.+)$", roff, re.M)
        headings = [h.strip('"') for h in headings]
        want = SECTIONS if prog in FULL_PAGES else ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS"]
        for s in want:
            if s not in headings:
                errors.append(f"{page}: no section {s}")
        binary = next((os.path.join(d, prog) for d in bins if os.path.exists(os.path.join(d, prog))), None)
        if binary is None:
            errors.append(f"{prog}: not built in {bins}")
            continue
        from_help, top, commands = help_options(binary, prog)
        if not top:
            errors.append(f"{prog} --help failed")
        options = (code_options(src, files) - commands) | from_help | {"help", "version"}
        page_options = set(LONG.findall(text))
        for o in sorted(options - page_options):
            errors.append(f"{page}: does not mention --{o}, which {prog} accepts")
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"{len(PROGRAMS)} manual pages render cleanly and name every option")


if __name__ == "__main__":
    main()
