#!/usr/bin/env bash
# Every test suite of the project: the Rust workspace (library and tool), then the Python
# package when it is present. Run from anywhere; WPT data is found as tests/common/mod.rs says.
set -euo pipefail
cd "$(dirname "$0")/.."

# The differential test (tests/validation_reference.rs) runs the URL Standard's reference
# implementation, the npm package whatwg-url (pinned in tests/reference/package-lock.json),
# with Node.js 20+: install it once into tests/reference/node_modules.
if [ ! -f tests/reference/node_modules/whatwg-url/package.json ]; then
    echo "== npm ci --prefix tests/reference (whatwg-url, the reference implementation)"
    command -v npm >/dev/null || { echo "Node.js 20+ and npm are needed (e.g. apt-get install nodejs npm)" >&2; exit 1; }
    npm ci --prefix tests/reference --no-audit --no-fund
fi

echo "== Rust: cargo test (library and command-line tool)"
cargo test --locked

echo "== Rust: the input-length limits (4-9 GiB inputs, release build)"
cargo test --locked --release --test limits
