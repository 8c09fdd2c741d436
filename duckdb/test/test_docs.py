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
  to the transcripts after it); its output must be the lines the page shows under it;
- what docs/duckdb.md says of `INSTALL` (with each `--python`, in a new HOME): after the
  repository's file changes, `INSTALL` keeps the old copy and `FORCE INSTALL` replaces
  it; `INSTALL` from another path of the same repository is refused with DuckDB's
  message naming `FORCE INSTALL`, and `FORCE INSTALL` from it works; and that on a
  connection that has loaded the extension, `rapidurl.duckdb.register(con)` raises
  `ValueError` naming `prefix=`, while `prefix="py_url_"` registers beside it.

    test_docs.py --cli DUCKDB --extension FILE [--python PYTHON]...

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
    ap.add_argument("--extension", required=True,
                    help="the extension file duckdb/scripts/build.sh printed")
    ap.add_argument("--python", action="append", help="an interpreter with a duckdb package "
                    "(default: this one); repeat for each release")
    args = ap.parse_args()
    pythons = args.python or [sys.executable]
    failures = 0
    for name in ("docs/duckdb.md", "README.md"):
        doc = (ROOT / name).read_text(encoding="utf-8")
        failures += build_and_load(name, doc, pythons)
        failures += transcripts(name, doc, args.cli)
    for python in pythons:
        failures += install_cases(python, pathlib.Path(args.extension))
    return 1 if failures else 0


# Run by install_cases with one interpreter, in a new HOME: argv[1] is a work directory
# holding the repositories `one` (the extension as built, version v0.1.0) and `two` (the
# same library with extension version v0.1.0-new), laid out as build.sh lays them out.
INSTALL_CASES = r"""
import os, shutil, sys
import duckdb

work = sys.argv[1]
os.chdir(work)

def connect():
    return duckdb.connect(config={"allow_unsigned_extensions": "true"})

def installed(con):
    return con.execute("SELECT extension_version, installed_from FROM duckdb_extensions() "
                       "WHERE extension_name = 'rapidurl'").fetchone()

con = connect()
con.execute("INSTALL rapidurl FROM 'one'")
assert installed(con) == ("v0.1.0", "one"), installed(con)

# The repository's file changes: INSTALL keeps the copy it has, FORCE INSTALL replaces it.
new = [os.path.join(d, f) for d, _, fs in os.walk("two") for f in fs]
for path in new:
    shutil.copyfile(path, "one" + path[len("two"):])
con = connect()
con.execute("INSTALL rapidurl FROM 'one'")
assert installed(con) == ("v0.1.0", "one"), installed(con)
con.execute("FORCE INSTALL rapidurl FROM 'one'")
assert installed(con) == ("v0.1.0-new", "one"), installed(con)

# The same repository by another path: refused, naming FORCE INSTALL; FORCE INSTALL works.
other = os.path.abspath("one")
try:
    con.execute(f"INSTALL rapidurl FROM '{other}'")
except duckdb.Error as err:
    assert "origin is different" in str(err) and "FORCE INSTALL" in str(err), err
else:
    raise AssertionError("INSTALL from another path of the repository was not refused")
con.execute(f"FORCE INSTALL rapidurl FROM '{other}'")
assert installed(con) == ("v0.1.0-new", other), installed(con)
con.execute("LOAD rapidurl")
assert con.execute("SELECT url_hostname('https://a.example/x')").fetchone() == ("a.example",)

# rapidurl.duckdb beside the loaded extension.
import rapidurl.duckdb
try:
    rapidurl.duckdb.register(con)
except ValueError as err:
    assert "url_href" in str(err) and "prefix=" in str(err), err
else:
    raise AssertionError("register(con) did not refuse the extension's names")
rapidurl.duckdb.register(con, prefix="py_url_")
row = con.execute("SELECT url_hostname(u), py_url_hostname(u) FROM (VALUES ('https://B.example/')) t(u)").fetchone()
assert row == ("b.example", "b.example"), row
print("install cases: ok")
"""


def install_cases(python: str, extension: pathlib.Path) -> int:
    """INSTALL, FORCE INSTALL and rapidurl.duckdb as docs/duckdb.md says, with `python`."""
    sys.path.insert(0, str(ROOT / "duckdb" / "scripts"))
    import append_metadata

    version = subprocess.run([python, "-c", "import duckdb; print(duckdb.__version__)"],
                             capture_output=True, text=True).stdout.strip()
    data = extension.read_bytes()
    library = data[: len(data) - append_metadata.FOOTER_LEN]
    with tempfile.TemporaryDirectory(prefix="rapidurl-install-") as work:
        platform = append_metadata.default_platform()
        for repo, ext_version in (("one", "v0.1.0"), ("two", "v0.1.0-new")):
            d = pathlib.Path(work, repo, f"v{version}", platform)
            d.mkdir(parents=True)
            (d / "rapidurl.duckdb_extension").write_bytes(
                library + append_metadata.footer(platform, "v1.2.0", ext_version, "C_STRUCT"))
        home = pathlib.Path(work, "home")
        home.mkdir()
        run = subprocess.run([python, "-c", INSTALL_CASES, work], capture_output=True, text=True,
                             env={**os.environ, "HOME": str(home)})
    if run.returncode != 0 or "install cases: ok" not in run.stdout:
        print(f"docs/duckdb.md INSTALL cases on duckdb {version} failed:\n{run.stdout}\n{run.stderr}")
        return 1
    print(f"docs/duckdb.md INSTALL, FORCE INSTALL, rapidurl.duckdb beside the extension on duckdb {version}: ok")
    return 0


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
