"""The DuckDB the extension's tests run SQL on: the `duckdb` Python package of the running
interpreter, or a DuckDB command-line tool (`--cli PATH`), so that each test script runs
unchanged on every supported release and on the CLI.

Both engines load the extension the same way (`LOAD '<path>'`, unsigned extensions
allowed) and answer `query()` with each value cast to VARCHAR by DuckDB itself (None for
NULL), so results compare alike whichever engine gave them. A failed statement raises
`EngineError` with DuckDB's message.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import tempfile


class EngineError(Exception):
    """A statement DuckDB refused or that failed; the message is DuckDB's."""


def as_varchar(sql: str) -> str:
    """`sql` (a query) with every column cast to VARCHAR by DuckDB."""
    inner = sql.strip().rstrip(";")
    return f"SELECT COLUMNS(*)::VARCHAR FROM ({inner})"


class PythonEngine:
    """An in-memory database of the `duckdb` package this interpreter imports."""

    def __init__(self) -> None:
        import duckdb

        self._duckdb = duckdb
        self.version = duckdb.__version__
        self.name = f"duckdb {self.version} (Python)"
        self._con = duckdb.connect(config={"allow_unsigned_extensions": "true"})

    def execute(self, sql: str) -> None:
        try:
            self._con.execute(sql)
        except self._duckdb.Error as e:
            raise EngineError(str(e)) from None

    def query(self, sql: str) -> list[list[str | None]]:
        """The rows of `sql`, each value cast to VARCHAR (a statement that cannot be
        wrapped, such as PRAGMA, as DuckDB returns it, through str())."""
        try:
            try:
                rows = self._con.execute(as_varchar(sql)).fetchall()
            except self._duckdb.ParserException:
                rows = self._con.execute(sql).fetchall()
        except self._duckdb.Error as e:
            raise EngineError(str(e)) from None
        return [[None if v is None else str(v) for v in row] for row in rows]

    def close(self) -> None:
        self._con.close()


class CliEngine:
    """A DuckDB command-line tool, one process a statement on a database file of its
    own; the statements that set state outside the file (LOAD, SET) are replayed before
    each statement."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True)
        # "v1.5.6 (Variegata) 069cc9f9b5"
        self.version = out.stdout.split()[0].lstrip("v")
        self.name = f"duckdb {self.version} (CLI {binary})"
        self._dir = tempfile.TemporaryDirectory(prefix="rapidurl-duckdb-cli-")
        self._db = str(pathlib.Path(self._dir.name) / "test.duckdb")
        self._preamble: list[str] = []

    def _run(self, sql: str) -> str:
        script = ";\n".join(self._preamble + [sql.strip().rstrip(";")]) + ";"
        run = subprocess.run(
            [self.binary, "-unsigned", "-json", self._db, "-c", script],
            capture_output=True,
            text=True,
        )
        if run.returncode != 0:
            raise EngineError(run.stderr.strip() or f"exit status {run.returncode}")
        return run.stdout

    def execute(self, sql: str) -> None:
        self._run(sql)
        head = sql.strip().split(None, 1)[0].upper() if sql.strip() else ""
        if head in ("LOAD", "SET", "INSTALL"):
            self._preamble.append(sql.strip().rstrip(";"))

    def query(self, sql: str) -> list[list[str | None]]:
        """As PythonEngine.query; a row's values in column order (duplicate column names
        kept apart)."""
        try:
            out = self._run(as_varchar(sql))
        except EngineError as e:
            if not str(e).startswith("Parser Error"):
                raise
            out = self._run(sql)
        if not out.strip():
            return []
        rows = json.loads(out, object_pairs_hook=lambda pairs: [v for _, v in pairs])
        return [[None if v is None else str(v) for v in row] for row in rows]

    def close(self) -> None:
        self._dir.cleanup()


def add_arguments(ap: argparse.ArgumentParser) -> None:
    """The engine options every test script takes."""
    ap.add_argument("--cli", metavar="DUCKDB", help="run on this DuckDB command-line tool "
                    "instead of the duckdb Python package")
    ap.add_argument("--expect-version", metavar="X.Y.Z",
                    help="fail unless the engine is this DuckDB release")


def open_engine(args: argparse.Namespace, extension: str | None) -> PythonEngine | CliEngine:
    """The engine the options name, with `extension` loaded (when given); exits when the
    release is not the one expected."""
    engine: PythonEngine | CliEngine = CliEngine(args.cli) if args.cli else PythonEngine()
    if args.expect_version and engine.version != args.expect_version:
        raise SystemExit(f"{engine.name}: expected DuckDB {args.expect_version}")
    if extension is not None:
        engine.execute(load_statement(extension))
    return engine


def load_statement(extension: str) -> str:
    """The LOAD of the extension file `extension`."""
    return f"LOAD '{pathlib.Path(extension).resolve()}'"
