#!/usr/bin/env python3
"""Runs the ```console transcripts of a Markdown file with the programs on PATH.

The same blocks cli/tests/transcripts.rs runs with trycmd, for a binary that no cargo
built (scripts/test-dist.sh runs the release archive's README with the archive's
`rapidurl`). In a block, `$ COMMAND` is run (split as a POSIX shell splits words, no
shell), from the directory given by --cwd, with COLUMNS=100 and NO_COLOR=1 as the trycmd
test sets them; an optional `? STATUS` line after it is the exit status it must have (0
when there is none); the lines up to the next `$` line are its standard output and
standard error together, as a terminal shows them. As in trycmd, `[..]` in an expected
line matches any text within the line and a line `...` matches any lines; trailing blank
lines are not compared.

Usage: transcripts.py DOC --cwd DIR
Prints one line per command, then "transcripts: N passed, M failed"; exits 1 when any
failed or the document has none.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys


def blocks(text: str) -> list[list[str]]:
    """The lines of each ```console block."""
    out: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if current is None:
            if line.strip() == "```console":
                current = []
        elif line.startswith("```"):
            out.append(current)
            current = None
        else:
            current.append(line)
    return out


def commands(block: list[str]) -> list[tuple[str, int, list[str]]]:
    """(command, expected status, expected output lines) of each `$` line of a block."""
    out: list[tuple[str, int, list[str]]] = []
    for line in block:
        if line.startswith("$ "):
            out.append((line[2:], 0, []))
        elif not out:
            raise ValueError(f"a console block starts with {line!r}, not a `$` line")
        elif re.fullmatch(r"\? \d+", line) and not out[-1][2]:
            command, _, lines = out[-1]
            out[-1] = (command, int(line[2:]), lines)
        else:
            out[-1][2].append(line)
    return out


def line_matches(pattern: str, line: str) -> bool:
    parts = pattern.split("[..]")
    return re.fullmatch(".*".join(re.escape(p) for p in parts), line, re.DOTALL) is not None


def matches(expected: list[str], actual: list[str]) -> bool:
    """trycmd's `...` (any lines) and `[..]` (any text within a line)."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and line_matches(expected[0], actual[0]) and matches(expected[1:], actual[1:])


def trim(lines: list[str]) -> list[str]:
    while lines and lines[-1] == "":
        lines = lines[:-1]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("doc")
    ap.add_argument("--cwd", required=True)
    args = ap.parse_args()
    with open(args.doc, encoding="utf-8") as f:
        text = f.read()
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1")
    passed = failed = 0
    for block in blocks(text):
        for command, status, expected in commands(block):
            run = subprocess.run(shlex.split(command), cwd=args.cwd, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False)
            actual = trim(run.stdout.decode("utf-8", "replace").splitlines())
            if run.returncode == status and matches(trim(expected), actual):
                passed += 1
                print(f"ok: $ {command}")
            else:
                failed += 1
                print(f"FAILED: $ {command}\n  status {run.returncode}, expected {status}\n"
                      "  expected:\n" + "".join(f"    {l}\n" for l in expected)
                      + "  got:\n" + "".join(f"    {l}\n" for l in actual), file=sys.stderr)
    print(f"transcripts: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
