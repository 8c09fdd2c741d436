#!/usr/bin/env python3
"""The extension where no thread can be started: `scripts/nothreads.c`, built with `cc`
and preloaded (LD_PRELOAD), makes every `pthread_create` fail with EAGAIN, as a process
or `pids` cgroup limit does (root, CI's user, is not bound by `ulimit -u`).

The script runs itself again under the shim (with the `duckdb` Python package, or the
command-line tool with `--cli`, which inherits the preload); there it checks that no
thread can start, loads the extension and runs the queries below, at DuckDB's default
thread count and at `SET threads = 1` and `4`; the answers must be those of the same
queries with threads allowed, row for row. DuckDB itself goes on where its worker
threads cannot start; the extension starts no thread of its own (each call parses its
vector on the thread DuckDB gives it).

    test_no_threads.py EXTENSION [--cli DUCKDB] [--expect-version X.Y.Z]

Prints `no threads (ENGINE): N passed, N failed` and exits 1 on any difference.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import threading

from engines import add_arguments, open_engine

ROOT = pathlib.Path(__file__).resolve().parents[2]
CHILD = "RAPIDURL_DUCKDB_NO_THREADS"

# Every line of the sample corpus, with its line number.
LINES = (
    "SELECT i, l[i] AS u FROM (SELECT string_split(content, chr(10)) AS l "
    "FROM read_text('{corpus}')), range(1, len(l) + 1) t(i)"
)
QUERIES = [
    "SELECT i, url_href(u), url_hostname(u), url_registrable_domain(u), url_valid(u), "
    "url_error(u), url_surt(u) FROM ({lines}) ORDER BY i",
    "SELECT i, url_href(u, 'https://example.com/a/b'), url_validation_errors(u) "
    "FROM ({lines}) ORDER BY i",
    "SELECT url_registrable_domain(u) AS d, count(*) FROM ({lines}) GROUP BY d ORDER BY d",
    "SELECT url_pattern_test('https://*.example.com/*', u), url_canonical(u) "
    "FROM ({lines}) ORDER BY i",
]
SETTINGS = [None, "SET threads = 1", "SET threads = 4"]


def answers(engine, extension: str) -> list[list[list[str | None]]]:
    """Every query's rows at every setting."""
    corpus = (ROOT / "corpora" / "sample.txt").resolve()
    lines = LINES.format(corpus=corpus)
    out = []
    for setting in SETTINGS:
        if setting:
            engine.execute(setting)
        for q in QUERIES:
            out.append(engine.query(q.format(lines=lines)))
    return out


def thread_starts() -> bool:
    """Whether this process can start a thread."""
    try:
        t = threading.Thread(target=lambda: None)
        t.start()
        t.join()
        return True
    except RuntimeError:
        return False


def shim(directory: str) -> str:
    out = os.path.join(directory, "nothreads.so")
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", out,
         str(ROOT / "scripts" / "nothreads.c")],
        check=True,
    )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("extension")
    add_arguments(ap)
    args = ap.parse_args()

    if os.environ.get(CHILD):
        if thread_starts():
            print("a thread started under the shim (is LD_PRELOAD honoured?)", file=sys.stderr)
            return 1
        engine = open_engine(args, args.extension)
        json.dump(answers(engine, args.extension), sys.stdout)
        engine.close()
        return 0

    engine = open_engine(args, args.extension)
    name = engine.name
    expected = answers(engine, args.extension)
    engine.close()
    with tempfile.TemporaryDirectory(prefix="rapidurl-nothreads-") as tmp:
        env = dict(os.environ, LD_PRELOAD=shim(tmp), **{CHILD: "1"})
        run = subprocess.run(
            [sys.executable, __file__, *sys.argv[1:]], env=env, capture_output=True, text=True
        )
    if run.returncode != 0:
        print(f"no threads ({name}): the run under the shim failed ({run.returncode}):\n"
              f"{run.stderr}", file=sys.stderr)
        print(f"no threads ({name}): 0 passed, 1 failed")
        return 1
    got = json.loads(run.stdout)
    passed = failed = 0
    for k, (want, have) in enumerate(zip(expected, got)):
        setting = SETTINGS[k // len(QUERIES)] or "default threads"
        if want == have and len(want) > 0:
            passed += 1
        else:
            failed += 1
            diff = next((j for j, (a, b) in enumerate(zip(want, have)) if a != b), None)
            print(f"no threads ({name}): query {k % len(QUERIES)} at {setting}: "
                  f"{len(have)} rows against {len(want)}; first difference at row {diff}",
                  file=sys.stderr)
    if len(got) != len(expected):
        failed += 1
    print(f"no threads ({name}): {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
