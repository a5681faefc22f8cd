#!/usr/bin/env python3
"""Checks the help of every program (docs/cli.md "Help and completion"):

- `PROG --help` exits 0, lists each command on one line (`  NAME  summary`) and says how to
  get a command's help; a program without commands lists its options instead;
- `PROG COMMAND --help` and `PROG help COMMAND` exit 0 with the same text: a usage line, and
  each option on one line (`  -o, --out FILE  what it is`), `--help` among them;
- the options `PROG --complete COMMAND --` offers are exactly the ones the help lists (both
  read the option descriptions the parser uses), and an unknown one (`--no-such-option`) is
  exit 2 with one stderr line naming the program;
- the commands `--complete` offers are exactly the ones the help lists.

usage: check_help.py PROGRAM_BINARY...
"""
import os
import re
import subprocess
import sys

errors = []
OPTION_LINE = re.compile(r"^  (-[A-Za-z], )?--[a-z][a-z0-9-]*( \S+)?\s{2,}\S")


def run(*argv):
    p = subprocess.run(list(argv), capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def options_of(where, text):
    """The long options of a help text's options: section, each checked to be one line."""
    lines = text.split("\n")
    if "options:" not in lines:
        errors.append(f"{where}: no options: section")
        return []
    names = []
    for line in lines[lines.index("options:") + 1:]:
        if not line.strip():
            break
        if not OPTION_LINE.match(line):
            errors.append(f"{where}: not one option on one line: {line!r}")
            continue
        names.append(re.search(r"--([a-z][a-z0-9-]*)", line).group(1))
    if "help" not in names:
        errors.append(f"{where}: does not list --help")
    return names


def check_command(binary, prog, cmd):
    where = f"{prog} {cmd}".strip()
    words = [cmd] if cmd else []
    code, out, err = run(binary, *words, "--help")
    if code != 0:
        errors.append(f"{where} --help: exit {code}: {err.strip()}")
        return
    if cmd:
        code2, out2, _ = run(binary, "help", cmd)
        if code2 != 0 or out2 != out:
            errors.append(f"{prog} help {cmd}: exit {code2}, differs from {where} --help")
        if not out.startswith(f"usage: {prog} {cmd}"):
            errors.append(f"{where} --help: does not start with 'usage: {where}'")
    listed = sorted(n for n in options_of(f"{where} --help", out) if n != "version")
    _, offered, _ = run(binary, "--complete", *words, "--")
    if sorted(offered.split()) != ["--" + n for n in listed]:
        errors.append(f"{where}: --complete offers {offered.split()}, --help lists {listed}")
    code, out, err = run(binary, *words, "--no-such-option")
    lines = err.strip().split("\n")
    if code != 2 or len(lines) != 1 or not lines[0].startswith(prog):
        errors.append(f"{where} --no-such-option: exit {code}, stderr {err!r} (want 2, one line)")


def main():
    for binary in sys.argv[1:]:
        prog = os.path.basename(binary)
        code, top, err = run(binary, "--help")
        if code != 0:
            errors.append(f"{prog} --help: exit {code}: {err.strip()}")
            continue
        if "\ncommands:\n" not in top:
            check_command(binary, prog, "")
            continue
        section = top.split("\ncommands:\n", 1)[1].split("\n\n", 1)[0]
        listed = []
        for line in section.split("\n"):
            m = re.match(r"^  ([a-z][a-z-]*)  +\S", line)
            if not m:
                errors.append(f"{prog} --help: not one command on one line: {line!r}")
                continue
            listed.append(m.group(1))
        if f"{prog} COMMAND --help" not in top:
            errors.append(f"{prog} --help: does not say how to get a command's help")
        _, offered, _ = run(binary, "--complete", "")
        offered = [w for w in offered.split() if w != "help"]
        if offered != listed:
            errors.append(f"{prog}: --complete offers {offered}, --help lists {listed}")
        for cmd in listed:
            check_command(binary, prog, cmd)
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"{len(sys.argv) - 1} programs: every command's help lists its options, one line each")


if __name__ == "__main__":
    main()
