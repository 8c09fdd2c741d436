#!/usr/bin/env bash
# Every test suite of the project: the Rust workspace (library and tool), then the Python
# package when it is present. Run from anywhere; WPT data is found as tests/common/mod.rs says.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Rust: cargo test (library and command-line tool)"
cargo test --locked

echo "== Rust: the input-length limits (4-9 GiB inputs, release build)"
cargo test --locked --release --test limits
