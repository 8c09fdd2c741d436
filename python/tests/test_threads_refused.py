"""The package where no thread can be started: `scripts/nothreads.c`, built with `cc` and
preloaded (LD_PRELOAD) into a child interpreter, makes every `pthread_create` fail with
EAGAIN, as a process or `pids` cgroup limit does (root, CI's user, is not bound by
`ulimit -u`). There the bulk calls parse on the calling thread and answer exactly as
they do with threads: `parse_column` at every `threads` value (rayon's global pool
cannot start; a pool of N cannot start), with a base and with a column of bases, with
pyarrow and without; the Rust batch API's `_batch_parse_lines`; and the functions of
`rapidurl.duckdb` in DuckDB (which runs where its worker threads cannot start).

Polars cannot be imported where no thread starts (it panics starting a thread of its
own), so the Polars plugin is not run there; its calls fall back to the calling thread
as `parse_column`'s do (the same `Workers`, python/src/lib.rs).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import rapidurl

REPO = Path(__file__).resolve().parents[2]
FIELDS = ["href", "hostname", "registrable_domain", "pathname", "valid", "validation_errors"]
THREADS = [None, 0, 1, 4]
BASE = "https://example.com/a/b"

# Run in the child: every answer as JSON, after checking that no thread can start there.
# argv[1] "no-pyarrow": pyarrow cannot be imported, so `parse_column` returns the
# package's own table.
CHILD = textwrap.dedent(
    """
    import json, sys, threading
    if sys.argv[1] == "no-pyarrow":
        sys.modules["pyarrow"] = None
    try:
        threading.Thread(target=lambda: None).start()
        sys.exit("a thread started under the shim (is LD_PRELOAD honoured?)")
    except RuntimeError:
        pass
    import rapidurl
    from test_threads_refused import answers
    json.dump(answers(sys.stdin.read(), sys.argv[1] == "pyarrow"), sys.stdout)
    """
)


def table(t) -> dict:
    """A `parse_column` result as plain lists (a pyarrow Table or the package's own)."""
    return {k: [None if v is None else str(v) for v in col] for k, col in t.to_pydict().items()}


def answers(text: str, with_duckdb: bool) -> dict:
    """Every bulk call's answer over the lines of `text` (and the `rapidurl.duckdb`
    functions', on DuckDB, when `with_duckdb`)."""
    urls = text.split("\n")
    bases = [BASE if i % 3 else None for i in range(len(urls))]
    out = {}
    for threads in THREADS:
        out[f"plain {threads}"] = table(rapidurl.parse_column(urls, FIELDS, threads=threads))
        out[f"base {threads}"] = table(
            rapidurl.parse_column(urls, ["href"], base=BASE, threads=threads)
        )
        out[f"bases {threads}"] = table(
            rapidurl.parse_column(urls, ["href"], base=bases, threads=threads)
        )
        out[f"lines {threads}"] = rapidurl._rapidurl._batch_parse_lines(
            text.encode(), threads=threads
        )
    if with_duckdb:
        import duckdb
        import pyarrow as pa

        from rapidurl import duckdb as url_functions

        con = duckdb.connect()
        url_functions.register(con, ["href", "hostname", "registrable_domain"])
        rows = pa.table({"i": list(range(len(urls))), "u": urls})
        con.register("t", rows)
        out["duckdb"] = [
            list(r)
            for r in con.execute(
                "SELECT i, url_href(u), url_hostname(u), url_registrable_domain(u), "
                "url_error(u) FROM t ORDER BY i"
            ).fetchall()
        ]
    return out


@pytest.fixture(scope="module")
def shim(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("shim") / "nothreads.so"
    subprocess.run(
        ["cc", "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", str(out),
         str(REPO / "scripts" / "nothreads.c")],
        check=True,
    )
    return out


@pytest.mark.parametrize("pyarrow", ["no-pyarrow", "pyarrow"])
def test_bulk_calls_answer_the_same_where_no_thread_starts(shim: Path, pyarrow: str) -> None:
    text = (REPO / "corpora" / "sample.txt").read_text(encoding="utf-8") * 4
    expected = answers(text, pyarrow == "pyarrow")
    # Each row as the URL API parses it alone.
    urls = text.split("\n")
    assert expected["plain None"]["href"] == [
        rapidurl.URL(u).href if rapidurl.can_parse(u) else None for u in urls
    ]
    # pyarrow imports numpy, whose OpenBLAS starts its threads as it loads and ends the
    # process (SIGINT) when it cannot: told to use one, it starts none.
    env = dict(os.environ, LD_PRELOAD=str(shim), OPENBLAS_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parent), env.get("PYTHONPATH", "")])
    run = subprocess.run(
        [sys.executable, "-c", CHILD, pyarrow], input=text, env=env, capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got.keys() == expected.keys()
    for key in expected:
        assert got[key] == expected[key], key
