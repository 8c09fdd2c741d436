#!/usr/bin/env python3
"""Runs the DuckDB lines of docs/duckdb.md and README.md as written, from the
repository's root:

- the build-and-install section (between `<!-- duckdb:build-and-load` and
  `<!-- /duckdb:build-and-load -->`): its `sh` block with bash, then its `python` block
  with each `--python` interpreter (each a DuckDB release), in a new HOME each (INSTALL
  writes to ~/.duckdb); the Python block must print the registrable domain it asks for;
- every CLI transcript (the `console` blocks between `<!-- duckdb:transcript` and
  `<!-- /duckdb:transcript -->`): each `$ ` line run with bash, the DuckDB CLI given by
  `--cli` first on PATH and one new HOME for the whole page (so an INSTALL carries over
  to the transcripts after it); its output must be the lines the page shows under it.

    test_docs.py --cli DUCKDB [--python PYTHON]...

Exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cli", required=True, help="the DuckDB command-line tool")
    ap.add_argument("--python", action="append", help="an interpreter with a duckdb package "
                    "(default: this one); repeat for each release")
    args = ap.parse_args()
    pythons = args.python or [sys.executable]
    failures = 0
    for name in ("docs/duckdb.md", "README.md"):
        doc = (ROOT / name).read_text(encoding="utf-8")
        failures += build_and_load(name, doc, pythons)
        failures += transcripts(name, doc, args.cli)
    return 1 if failures else 0


def build_and_load(name: str, doc: str, pythons: list[str]) -> int:
    section = re.search(
        r"<!-- duckdb:build-and-load.*?-->(.*?)<!-- /duckdb:build-and-load -->", doc, re.S
    )
    if not section:
        print(f"{name}: no build-and-load section")
        return 1
    blocks = re.findall(r"```(\w+)\n(.*?)```", section.group(1), re.S)
    if [lang for lang, _ in blocks] != ["sh", "python"]:
        print(f"{name}: expected an sh block and a python block, got {blocks}")
        return 1
    (_, sh), (_, py) = blocks
    run = subprocess.run(["bash", "-euo", "pipefail", "-c", sh], cwd=ROOT,
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"{name} sh block failed:\n{sh}\n{run.stdout}\n{run.stderr}")
        return 1
    print(f"{name} build-and-load, sh block: ok ({run.stdout.strip().splitlines()[-1]})")
    failures = 0
    for python in pythons:
        with tempfile.TemporaryDirectory(prefix="rapidurl-docs-home-") as home:
            run = subprocess.run([python, "-c", py], cwd=ROOT, capture_output=True, text=True,
                                 env={**os.environ, "HOME": home})
            version = subprocess.run([python, "-c", "import duckdb; print(duckdb.__version__)"],
                                     capture_output=True, text=True).stdout.strip()
        if run.returncode != 0 or "example.co.uk" not in run.stdout:
            print(f"{name} python block on duckdb {version} failed:\n{py}\n{run.stdout}\n{run.stderr}")
            failures += 1
        else:
            print(f"{name} build-and-load, python block on duckdb {version}: ok "
                  f"({run.stdout.strip().splitlines()[-1]})")
    return failures


def transcripts(name: str, doc: str, cli: str) -> int:
    sections = re.findall(r"<!-- duckdb:transcript.*?-->(.*?)<!-- /duckdb:transcript -->", doc, re.S)
    failures = commands = 0
    path = f"{pathlib.Path(cli).resolve().parent}{os.pathsep}{os.environ['PATH']}"
    with tempfile.TemporaryDirectory(prefix="rapidurl-docs-home-") as home:
        env = {**os.environ, "HOME": home, "PATH": path}
        for section in sections:
            for block in re.findall(r"```console\n(.*?)```", section, re.S):
                for command, want in steps(block):
                    commands += 1
                    run = subprocess.run(["bash", "-c", command], cwd=ROOT, env=env,
                                         capture_output=True, text=True)
                    got = [line.rstrip() for line in run.stdout.rstrip("\n").split("\n")]
                    if run.returncode != 0 or got != want:
                        failures += 1
                        print(f"{name}: $ {command}\nexit {run.returncode}; want:\n"
                              + "\n".join(want) + "\ngot:\n" + "\n".join(got) + "\n" + run.stderr)
    if sections:
        print(f"{name}: {commands} CLI transcript commands, {failures} failed")
    return failures


def steps(block: str) -> list[tuple[str, list[str]]]:
    """(command, output lines) for each `$ ` line of a console block."""
    out: list[tuple[str, list[str]]] = []
    for line in block.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            out.append((line[2:], []))
        elif out:
            out[-1][1].append(line.rstrip())
    return out


if __name__ == "__main__":
    sys.exit(main())
