#!/usr/bin/env python3
"""Checks the CI recipes in docs/ci/ (docs/ci.md): each parses and has the structure its CI
reads, and the commands it runs name files that exist and options otpu-regress takes.

usage: check_ci_recipes.py SOURCE_DIR OTPU_REGRESS_BINARY

The YAML ones with PyYAML (python3-yaml, from scripts/setup.sh); the Jenkinsfile with a small
tokenizer (no Groovy on these machines): strings, comments and balanced brackets, then the
declarative skeleton pipeline { agent, stages { stage(..) { steps } }, post { .. junit .. } }.
"""
import os
import re
import subprocess
import sys

import yaml

SRC, REGRESS = sys.argv[1], sys.argv[2]
errors = []


def fail(where, what):
    errors.append(f"{where}: {what}")


def read(name):
    with open(os.path.join(SRC, "docs/ci", name), encoding="utf-8") as f:
        return f.read()


# Repository paths a command names (regress/smoke.json, scripts/setup.sh): each must exist, so
# a renamed matrix or script breaks this test rather than every CI.
REPO_PATH = re.compile(r"(?<![\w/.-])((?:regress|scripts|docs|tests)/[\w.-]+(?:/[\w.-]+)*)")


HELP = {}


def check_commands(where, text):
    for path in REPO_PATH.findall(text):
        if not os.path.exists(os.path.join(SRC, path)):
            fail(where, f"names {path}, which does not exist")
    # Every otpu-regress call runs the built binary, with options its command takes.
    for m in re.finditer(r"(\S*otpu-regress) (run|slurm) ([^\n'\"]*(?:\\\n[^\n'\"]*)*)", text):
        binary, command, args = m.group(1), m.group(2), m.group(3)
        if binary != "build/host/programs/otpu-regress":
            fail(where, f"runs {binary}, not the build's build/host/programs/otpu-regress")
        helptext = HELP.get(command)
        if helptext is None:
            # COMMAND --help where the program has it, else the top-level usage (its synopses).
            r = subprocess.run([REGRESS, command, "--help"], capture_output=True, text=True)
            if r.returncode != 0:
                r = subprocess.run([REGRESS, "--help"], capture_output=True, text=True)
            helptext = HELP[command] = r.stdout + r.stderr
        for opt in re.findall(r"(?<![\w=-])(--[a-z][\w-]*|-[a-z])", args):
            if opt not in helptext:
                fail(where, f"otpu-regress {command} {opt}: not an option of `otpu-regress {command} --help`")
    return text


def flatten(node):
    """Every string in a YAML tree, joined: the commands wherever a recipe keeps them."""
    if isinstance(node, dict):
        return "\n".join(flatten(v) for v in node.values())
    if isinstance(node, list):
        return "\n".join(flatten(v) for v in node)
    return str(node) if node is not None else ""


def check_github():
    where = "docs/ci/github-actions.yml"
    doc = yaml.safe_load(read("github-actions.yml"))
    on = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` as true
    if not isinstance(on, dict) or "pull_request" not in on or "schedule" not in on:
        fail(where, "on: needs pull_request and schedule")
    jobs = doc.get("jobs") or {}
    for name in ("smoke", "nightly"):
        job = jobs.get(name)
        if not isinstance(job, dict) or "runs-on" not in job or not isinstance(job.get("steps"), list):
            fail(where, f"jobs.{name}: needs runs-on and steps")
            continue
        steps = job["steps"]
        for i, step in enumerate(steps):
            if not isinstance(step, dict) or ("run" in step) == ("uses" in step):
                fail(where, f"jobs.{name}.steps[{i}]: needs exactly one of run, uses")
        text = check_commands(where, flatten(steps))
        matrix = "regress/smoke.json" if name == "smoke" else "regress/nightly.json"
        out = f"out/regress/{name}"
        want = [matrix, "$GITHUB_STEP_SUMMARY", f"{out}/summary.md", f"{out}/junit.xml", f"{out}/profiles/",
                f"{out}/**/*.fst"]
        if name == "smoke":
            want.append("scripts/setup.sh")
        else:
            want += ["otpu-regress slurm", "--wait"]
        for w in want:
            if w not in text:
                fail(where, f"jobs.{name}: does not name {w}")
        uses = [s.get("uses", "") for s in steps if isinstance(s, dict)]
        if not any(u.startswith("actions/upload-artifact@") for u in uses):
            fail(where, f"jobs.{name}: keeps no artifact")
        if not any("junit" in u for u in uses):
            fail(where, f"jobs.{name}: publishes no JUnit report")
    if "schedule" not in str(jobs.get("nightly", {}).get("if", "")):
        fail(where, "jobs.nightly: not limited to the schedule")


def check_gitlab():
    where = "docs/ci/gitlab-ci.yml"
    doc = yaml.safe_load(read("gitlab-ci.yml"))
    stages = doc.get("stages") or []
    for name in ("smoke", "nightly"):
        job = doc.get(name)
        if not isinstance(job, dict) or not isinstance(job.get("script"), list):
            fail(where, f"{name}: needs a script list")
            continue
        if job.get("stage") not in stages:
            fail(where, f"{name}: stage {job.get('stage')} is not in stages")
        out = f"out/regress/{name}"
        artifacts = job.get("artifacts") or {}
        if (artifacts.get("reports") or {}).get("junit") != f"{out}/junit.xml":
            fail(where, f"{name}: artifacts:reports:junit is not {out}/junit.xml")
        if artifacts.get("when") != "always":
            fail(where, f"{name}: artifacts are not kept when the job fails (when: always)")
        paths = artifacts.get("paths") or []
        for w in (f"{out}/profiles/", f"{out}/**/*.fst", f"{out}/summary.md"):
            if w not in paths:
                fail(where, f"{name}: artifacts:paths lacks {w}")
        text = check_commands(where, flatten([job.get("before_script"), job["script"], job.get("after_script")]))
        want = ["regress/smoke.json", "scripts/setup.sh", "merge_requests", "summary.md"] if name == "smoke" \
            else ["regress/nightly.json", "otpu-regress slurm", "--wait"]
        for w in want:
            if w not in text:
                fail(where, f"{name}: does not name {w}")
        if not job.get("rules"):
            fail(where, f"{name}: has no rules")
    if "schedule" not in flatten(doc.get("nightly", {}).get("rules")):
        fail(where, "nightly: not limited to a schedule")


def groovy_tokens(text, where):
    """Words, punctuation and string literals of Groovy, without comments. Fails on an
    unterminated string or comment and on unbalanced (), [], {}."""
    tokens, stack, i, line = [], [], 0, 1
    pairs = {")": "(", "]": "[", "}": "{"}
    while i < len(text):
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = len(text) if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            if j < 0:
                fail(where, f"line {line}: unterminated comment")
                return tokens
            line += text.count("\n", i, j)
            i = j + 2
        elif c in "'\"":
            quote = text[i:i + 3] if text[i:i + 3] in ("'''", '"""') else c
            j = i + len(quote)
            while j < len(text) and not text.startswith(quote, j):
                if text[j] == "\\":
                    j += 1
                elif text[j] == "\n" and len(quote) == 1:
                    break
                j += 1
            if not text.startswith(quote, j):
                fail(where, f"line {line}: unterminated string")
                return tokens
            tokens.append(("str", text[i + len(quote):j], line))
            line += text.count("\n", i, j)
            i = j + len(quote)
        elif c in "([{":
            stack.append((c, line))
            tokens.append(("punct", c, line))
            i += 1
        elif c in ")]}":
            if not stack or stack[-1][0] != pairs[c]:
                fail(where, f"line {line}: unbalanced {c}")
                return tokens
            stack.pop()
            tokens.append(("punct", c, line))
            i += 1
        elif c.isalpha() or c == "_":
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                j += 1
            tokens.append(("word", text[i:j], line))
            i = j
        else:
            line += c == "\n"
            i += 1
    for c, l in stack:
        fail(where, f"line {l}: {c} never closed")
    return tokens


def blocks(tokens):
    """The tree of NAME [(...)] { ... } blocks: (name, args tokens, children, tokens inside)."""
    def parse(i, end_brace):
        out = []
        while i < len(tokens):
            kind, text, _ = tokens[i]
            if kind == "punct" and text == "}":
                return out, i + 1
            if kind == "word" and i + 1 < len(tokens) and tokens[i + 1][1] in ("{", "("):
                j, args = i + 1, []
                if tokens[j][1] == "(":
                    depth = 0
                    while True:
                        depth += {"(": 1, ")": -1}.get(tokens[j][1], 0) if tokens[j][0] == "punct" else 0
                        args.append(tokens[j])
                        j += 1
                        if depth == 0:
                            break
                if j < len(tokens) and tokens[j][1] == "{" and tokens[j][0] == "punct":
                    start = j + 1
                    children, j = parse(j + 1, True)
                    out.append((text, args, children, tokens[start:j - 1]))
                    i = j
                    continue
            i += 1
        return out, i
    return parse(0, False)[0]


def child(block, name):
    return [c for c in block[2] if c[0] == name]


def check_jenkins():
    where = "docs/ci/Jenkinsfile"
    text = read("Jenkinsfile")
    tokens = groovy_tokens(text, where)
    if errors:
        return
    top = blocks(tokens)
    pipes = [b for b in top if b[0] == "pipeline"]
    if len(pipes) != 1:
        fail(where, "expected one pipeline { } block")
        return
    pipe = pipes[0]
    if not any(t[1] == "agent" for t in pipe[3]):
        fail(where, "pipeline: no agent")
    stages = child(pipe, "stages")
    if len(stages) != 1 or not child(stages[0], "stage"):
        fail(where, "pipeline: needs stages { stage(...) { ... } }")
        return
    for st in child(stages[0], "stage"):
        names = [t[1] for t in st[1] if t[0] == "str"]
        if len(names) != 1:
            fail(where, f"line {st[1][0][2] if st[1] else '?'}: stage needs one name")
        if len(child(st, "steps")) != 1:
            fail(where, f"stage {names}: needs one steps {{ }}")
    posts = child(pipe, "post")
    if len(posts) != 1 or not child(posts[0], "always"):
        fail(where, "pipeline: needs post { always { ... } }")
    # The JUnit and artifacts steps, somewhere in a post section.
    post_words = [t[1] for b in pipe[2] + [s for st in child(stages[0], "stage") for s in st[2]]
                  if b[0] == "post" for t in b[3]]
    for step in ("junit", "archiveArtifacts"):
        if step not in post_words:
            fail(where, f"no {step} step in a post section")
    strings = "\n".join(t[1] for t in tokens if t[0] == "str")
    check_commands(where, strings)
    for w in ("scripts/setup.sh", "regress/smoke.json", "regress/nightly.json", "otpu-regress slurm", "--wait",
              "out/regress/smoke/junit.xml", "out/regress/smoke/summary.md", "out/regress/smoke/profiles/**",
              "out/regress/smoke/**/*.fst"):
        if w not in strings:
            fail(where, f"does not name {w}")


def check_doc():
    # docs/ci.md shows or names every recipe, so the page and the checked files are one.
    with open(os.path.join(SRC, "docs/ci.md"), encoding="utf-8") as f:
        doc = f.read()
    for name in ("github-actions.yml", "gitlab-ci.yml", "Jenkinsfile"):
        if f"ci/{name}" not in doc:
            fail("docs/ci.md", f"does not name ci/{name}")
        if read(name) not in doc:
            fail("docs/ci.md", f"does not show docs/ci/{name} as it is (copy the file into its block)")


for check in (check_github, check_gitlab, check_jenkins):
    try:
        check()
    except yaml.YAMLError as e:
        fail(check.__name__, f"does not parse as YAML: {e}")
check_doc()
for e in errors:
    print(e, file=sys.stderr)
print(f"check_ci_recipes: {len(errors)} problems" if errors else "check_ci_recipes: 3 recipes ok")
sys.exit(1 if errors else 0)
