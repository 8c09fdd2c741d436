#!/usr/bin/env bash
# Every test suite of the project: the Rust workspace (library and tool), then the Python
# package: a local virtual environment (.venv/, created if missing) with the pinned test
# dependencies (python/requirements-test.txt), the package built and installed from
# python/ (`pip install ./python`), and its pytest suite. Run from anywhere; WPT data is
# found as testkit/src/data.rs says (RAPIDURL_WPT_DIR, else ../shared/wpt). The Spark tests
# need Java 17 (`apt-get install openjdk-17-jre-headless`; .ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

# The differential test (tests/validation_reference.rs) installs its pinned reference
# implementation (npm ci --prefix tests/reference) itself: Node.js 20+ and npm are needed.

echo "== Rust: cargo test (library and command-line tool)"
cargo test --locked

echo "== Rust: the input-length limits (4-9 GiB inputs, release build)"
cargo test --locked --release --test limits

echo "== Python: .venv, pinned test dependencies, pip install ./python"
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q -r python/requirements-test.txt
.venv/bin/python -m pip install -q ./python

echo "== Python: pytest python/tests, and the package's doctests"
.venv/bin/python -m pytest -q -p no:cacheprovider python/tests
.venv/bin/python -m pytest -q -p no:cacheprovider --doctest-modules --pyargs rapidurl

# ---- DuckDB extension (duckdb/, docs/duckdb.md) -------------------------------------------
# Needs the .venv above (the pinned duckdb and pyarrow packages, and rapidurl itself for
# the equality test). The build is the docs' build line (duckdb/scripts/build.sh), run by
# test_docs.py as written; then the row loops' property test, the sqllogictest files and
# row-for-row equality with the Rust API.
echo "== DuckDB extension: the docs' build-and-load lines (docs/duckdb.md)"
.venv/bin/python duckdb/test/test_docs.py
DUCKDB_EXTENSION="$(duckdb/scripts/build.sh)"

echo "== DuckDB extension: the row loops with random vectors (cargo test -p rapidurl-duckdb)"
cargo test --locked -p rapidurl-duckdb

echo "== DuckDB extension: sqllogictest files (duckdb/test/sql/*.test)"
.venv/bin/python duckdb/test/run_sqllogictest.py "$DUCKDB_EXTENSION" duckdb/test/sql

echo "== DuckDB extension: equality with the Rust API (WPT inputs, corpus lines)"
.venv/bin/python duckdb/test/test_equality.py "$DUCKDB_EXTENSION"
# ---- end of the DuckDB extension ----------------------------------------------------------
