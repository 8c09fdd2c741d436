#!/usr/bin/env bash
# Builds the DuckDB extension: target/release/rapidurl.duckdb_extension (the crate's
# cdylib with DuckDB's metadata footer appended). Run from anywhere; prints the path.
# Load it with:  SET allow_unsigned_extensions = true; LOAD '<path>';
# (or start the CLI with `duckdb -unsigned`, or connect from Python with
# duckdb.connect(config={"allow_unsigned_extensions": "true"})).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --locked --release -p rapidurl-duckdb >&2
target_dir="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
python3 duckdb/scripts/append_metadata.py \
    "$target_dir/release/librapidurl_duckdb.so" "$target_dir/release/rapidurl.duckdb_extension"
echo "$target_dir/release/rapidurl.duckdb_extension"
