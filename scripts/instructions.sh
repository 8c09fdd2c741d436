#!/usr/bin/env bash
# Instructions per URL: installs the iai-callgrind runner that matches the dev-dependency
# (valgrind must be on the machine) and runs benches/instructions.rs.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(grep -A1 'name = "iai-callgrind"' Cargo.lock | sed -n 's/^version = "\(.*\)"/\1/p' | head -1)
if ! command -v iai-callgrind-runner >/dev/null || ! iai-callgrind-runner --version 2>/dev/null | grep -q "$version"; then
    cargo install iai-callgrind-runner --version "$version" --locked
fi
command -v valgrind >/dev/null || { echo "valgrind is required (apt-get install valgrind)"; exit 1; }
cargo bench --bench instructions "$@"
