#!/usr/bin/env bash
# Every test suite of the project: the Rust workspace (library and tool, and the tested
# transcripts of README.md and docs/cli.md), then the Python package as users get it: the
# manylinux wheel built by scripts/build-wheel.sh, installed into a fresh virtual
# environment with no `cargo` on PATH, and its pytest suite and doctests run against it.
# The test dependencies (python/requirements-test.txt, pinned) live in .venv/ (created
# if missing). Run from anywhere; WPT data is found as testkit/src/data.rs says
# (RAPIDURL_WPT_DIR, else ../shared/wpt). The Spark tests need Java 17 (`apt-get install
# openjdk-17-jre-headless`; .ci/run installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

# The differential test (tests/validation_reference.rs) installs its pinned reference
# implementation (npm ci --prefix tests/reference) itself: Node.js 20+ and npm are needed.

echo "== Rust: cargo test (library and command-line tool)"
cargo test --locked

# The `url` drop-in (compat/url, docs/url-compat.md): rust-url 2.5.8's own unit tests and
# WPT harness against it, the differential test against rust-url, the [patch] test.
# `-p url` would be ambiguous (the workspace also depends on the real `url`).
echo "== Rust: the url drop-in (compat/url)"
cargo test --locked --manifest-path compat/url/Cargo.toml
echo "== Rust: the url drop-in with its features serde and expose_internals"
cargo test --locked --manifest-path compat/url/Cargo.toml --features serde,expose_internals

echo "== Rust: the input-length limits (4-9 GiB inputs, release build)"
cargo test --locked --release --test limits

# --- Python: the wheel (scripts/build-wheel.sh), installed without Rust -----------------
echo "== Python: .venv with the pinned test dependencies"
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q -r python/requirements-test.txt

echo "== Python: build the manylinux wheel and the sdist (scripts/build-wheel.sh)"
wheel_start=$SECONDS
DIST=target/dist scripts/build-wheel.sh
wheel=$(ls target/dist/rapidurl-*-cp39-abi3-manylinux2014_x86_64*.whl)
echo "built in $((SECONDS - wheel_start)) s"

echo "== Python: install the wheel into a fresh venv, no cargo on PATH"
# target/wheel-venv is made anew each run; it sees .venv's test dependencies through a
# .pth file, which puts them after its own site-packages, so the rapidurl it imports is
# the wheel's even when .venv holds one (checked below).
rm -rf target/wheel-venv
.venv/bin/python -m venv target/wheel-venv
no_rust_path=$(tr ':' '\n' <<<"$PATH" | grep -v -e '\.cargo/bin' -e '\.rustup' | paste -sd: -)
venv_site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
wheel_site=$(target/wheel-venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$venv_site" >"$wheel_site/rapidurl-test-dependencies.pth"
env PATH="$no_rust_path" sh -c '! command -v cargo >/dev/null && ! command -v rustc >/dev/null' \
    || { echo "cargo is still on PATH" >&2; exit 1; }
env PATH="$no_rust_path" target/wheel-venv/bin/python -m pip install -q --no-index --no-deps "$wheel"
env PATH="$no_rust_path" target/wheel-venv/bin/python -c '
import rapidurl, sys
assert "wheel-venv" in rapidurl._rapidurl.__file__, rapidurl._rapidurl.__file__
print("imported", rapidurl.__name__, "from", rapidurl._rapidurl.__file__)'

echo "== Python: pytest python/tests, and the package's doctests (the wheel, no cargo on PATH)"
# python/tests/test_tool_parquet.py runs the command-line tool: the one `cargo test` built above.
export RAPIDURL_CLI="$PWD/target/debug/rapidurl"
env PATH="$no_rust_path" target/wheel-venv/bin/python -m pytest -q -p no:cacheprovider python/tests
env PATH="$no_rust_path" target/wheel-venv/bin/python -m pytest -q -p no:cacheprovider \
    --doctest-modules --pyargs rapidurl

# The package's floor, CPython 3.9 (abi3-py39; python/pyproject.toml's requires-python):
# the same wheel, the URL API and parse_column without pyarrow, in a 3.9 venv when this
# machine has one (pyenv's). The test suite's own floor is 3.11 (its pinned pandas,
# pyarrow, polars, duckdb, pyspark, numpy and hypothesis need it).
floor_python=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.9*/bin/python3 2>/dev/null | tail -1 || true)
if [ -n "$floor_python" ]; then
    echo "== Python: the wheel on the floor, $("$floor_python" --version)"
    rm -rf target/wheel-venv-floor
    "$floor_python" -m venv target/wheel-venv-floor
    env PATH="$no_rust_path" target/wheel-venv-floor/bin/python -m pip install -q --no-index --no-deps "$wheel"
    env PATH="$no_rust_path" target/wheel-venv-floor/bin/python - <<'PY'
import sys
import rapidurl
u = rapidurl.URL("../c?x=1", base="https://user:pw@Bücher.example/a/b")
assert u.href == "https://user:pw@xn--bcher-kva.example/c?x=1", u.href
assert rapidurl.can_parse("/a", base="https://example.com/")
t = rapidurl.parse_column(["https://a.example:8080/x", "nope", None], ["hostname"], threads=0)
assert t.to_pydict() == {"hostname": ["a.example", None, None],
                         "error": [None, "missing-scheme-non-relative-URL", None]}, t.to_pydict()
assert rapidurl.surt("http://www.Example.com/a?b=2&a=1") == "com,example)/a?a=1&b=2"
print("rapidurl on Python %d.%d, without pyarrow" % sys.version_info[:2])
print("floor: 4 passed, 0 failed")
PY
else
    echo "== Python: no CPython 3.9 here (pyenv); the floor check is skipped"
fi

# The Polars plugin on the oldest Polars it supports (rapidurl.polars.MIN_POLARS), in a
# venv of its own that sees the wheel and .venv's pyarrow after its own site-packages.
POLARS_FLOOR=1.0.0
echo "== Python: the Polars plugin on Polars $POLARS_FLOOR"
polars_venv=target/polars-$POLARS_FLOOR
if [ ! -x "$polars_venv/bin/python" ] || ! "$polars_venv/bin/python" -c "import polars, sys; sys.exit(polars.__version__ != '$POLARS_FLOOR')" 2>/dev/null; then
    rm -rf "$polars_venv"
    "$PYTHON" -m venv "$polars_venv"
    "$polars_venv/bin/python" -m pip install -q "polars==$POLARS_FLOOR"
fi
polars_site=$("$polars_venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
printf '%s\n%s\n' "$wheel_site" "$venv_site" >"$polars_site/rapidurl-test-dependencies.pth"
env PATH="$no_rust_path" "$polars_venv/bin/python" python/tests/polars_floor.py "$POLARS_FLOOR"
# --- end of the Python wheel block -------------------------------------------------------

# ---- DuckDB extension (duckdb/, docs/duckdb.md) -------------------------------------------
# One file for every release of duckdb/releases.txt. Each release is installed from PyPI
# into a virtual environment of its own (target/duckdb-<release>), which sees the wheel's
# rapidurl (target/wheel-venv, for the equality test) and .venv's pyarrow through a .pth
# file placed after its own site-packages (so its own duckdb is the one imported; each
# test checks the release with --expect-version). The command-line tool is the
# duckdb-cli package (DUCKDB_CLI_RELEASE). In each: the sqllogictest files, the catalog
# test, row-for-row equality with the Rust API, and the same answers where no thread can
# be started (test_no_threads.py: scripts/nothreads.c preloaded, built with cc).
DUCKDB_CLI_RELEASE=1.5.6
echo "== DuckDB extension: build, and a local extension repository (duckdb/scripts/build.sh)"
DUCKDB_EXTENSION="$(duckdb/scripts/build.sh --repository target/duckdb-repository)"

echo "== DuckDB extension: the row loops with random vectors (cargo test -p rapidurl-duckdb)"
cargo test --locked -p rapidurl-duckdb

duckdb_venv() { # duckdb_venv DIR PIP_REQUIREMENT: DIR/bin/python with it installed
    if [ ! -x "$1/bin/python" ] || ! "$1/bin/python" -m pip show -q "${2%%==*}" >/dev/null 2>&1 \
        || [ "$("$1/bin/python" -m pip show "${2%%==*}" | sed -n 's/^Version: //p')" != "${2##*==}" ]; then
        rm -rf "$1"
        "$PYTHON" -m venv "$1"
        "$1/bin/python" -m pip install -q "$2"
    fi
    local site
    site=$("$1/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    printf '%s\n%s\n' "$wheel_site" "$venv_site" >"$site/rapidurl-test-dependencies.pth"
}
duckdb_suite() { # duckdb_suite PYTHON RELEASE [--cli BINARY]
    local py=$1 release=$2
    shift 2
    "$py" duckdb/test/run_sqllogictest.py "$DUCKDB_EXTENSION" duckdb/test/sql --expect-version "$release" "$@"
    "$py" duckdb/test/test_catalog.py "$DUCKDB_EXTENSION" --expect-version "$release" "$@"
    "$py" duckdb/test/test_equality.py "$DUCKDB_EXTENSION" --expect-version "$release" "$@"
    "$py" duckdb/test/test_no_threads.py "$DUCKDB_EXTENSION" --expect-version "$release" "$@"
}
for release in $(grep -v '^#' duckdb/releases.txt); do
    echo "== DuckDB extension on duckdb $release (Python): sqllogictest, catalog, equality, no threads"
    duckdb_venv "target/duckdb-$release" "duckdb==$release"
    duckdb_suite "target/duckdb-$release/bin/python" "$release"
done
echo "== DuckDB extension on the DuckDB CLI $DUCKDB_CLI_RELEASE (duckdb-cli): sqllogictest, catalog, equality, no threads"
duckdb_venv target/duckdb-cli "duckdb-cli==$DUCKDB_CLI_RELEASE"
duckdb_suite target/wheel-venv/bin/python "$DUCKDB_CLI_RELEASE" --cli "$PWD/target/duckdb-cli/bin/duckdb"

echo "== DuckDB extension: the install and query lines of docs/duckdb.md and README.md (CLI and Python)"
docs_pythons=()
for release in $(grep -v '^#' duckdb/releases.txt); do
    docs_pythons+=(--python "target/duckdb-$release/bin/python")
done
target/wheel-venv/bin/python duckdb/test/test_docs.py --cli "$PWD/target/duckdb-cli/bin/duckdb" \
    --extension "$DUCKDB_EXTENSION" "${docs_pythons[@]}"
# ---- end of the DuckDB extension ----------------------------------------------------------

# ---- aarch64 under QEMU (scripts/test-aarch64.sh) -------------------------------------------
# The library for aarch64-unknown-linux-gnu (its NEON kernels): clippy with warnings denied,
# its suites run under qemu-aarch64 where no thread can start, and the tool's transcripts
# run with the aarch64 tool, with Debian's cross toolchain.
# Without the toolchain this block fails: scripts/aarch64-setup.sh installs it (as root;
# .ci/run runs it before this script).
echo "== aarch64 under QEMU: clippy, then the suites (scripts/test-aarch64.sh)"
scripts/test-aarch64.sh
# ---- end of aarch64 under QEMU ------------------------------------------------------------
