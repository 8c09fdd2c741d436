#!/usr/bin/env python3
"""Runs the build-and-load lines of docs/duckdb.md and README.md as written: the code
blocks between `<!-- duckdb:build-and-load` and `<!-- /duckdb:build-and-load -->`, `sh` blocks with bash
and `python` blocks with this interpreter, from the repository's root. The Python block
must print the registrable domain it asks for. Exits 1 on any failure.
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def main() -> int:
    for name in ("docs/duckdb.md", "README.md"):
        if run_doc(name) != 0:
            return 1
    return 0


def run_doc(name: str) -> int:
    doc = (ROOT / name).read_text(encoding="utf-8")
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
    for lang, code in blocks:
        cmd = ["bash", "-euo", "pipefail", "-c", code] if lang == "sh" else [sys.executable, "-c", code]
        run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if run.returncode != 0:
            print(f"{name} {lang} block failed:\n{code}\n{run.stdout}\n{run.stderr}")
            return 1
        if lang == "python" and "example.co.uk" not in run.stdout:
            print(f"{name} python block printed {run.stdout!r}")
            return 1
        print(f"{name} build-and-load, {lang} block: ok ({run.stdout.strip().splitlines()[-1]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
