#!/usr/bin/env bash
# The `fast_vs_slow` fuzz target (fuzz/fuzz_targets/fast_vs_slow.rs: the fast path, with
# the aarch64 NEON classifier, against the state machine) built for aarch64 and run by
# libFuzzer under qemu-aarch64 for SECONDS (default 120), single-threaded.
#
#   scripts/fuzz-aarch64.sh [SECONDS]
#
# The same cross toolchain as scripts/test-aarch64.sh (scripts/aarch64-setup.sh installs
# it). Debian's Rust ships no sanitizer runtime for aarch64, so the target is built as
# cargo-fuzz builds it with `--sanitizer none`: libFuzzer's coverage instrumentation
# (`-Cpasses=sancov-module`), debug assertions and overflow checks, no AddressSanitizer.
# libFuzzer runs on the main thread when its RSS watcher is off (`-rss_limit_mb=0`); the
# program runs with scripts/nothreads.c preloaded, as the tests do, so a thread
# start fails rather than hangs. `batch_vs_single` cannot run here: the batch engine
# starts rayon's threads. The corpus starts from corpora/sample.txt's lines and is kept
# in $CARGO_TARGET_DIR/fuzz-aarch64/corpus (default target/); a failing input is written
# there as crash-*. Not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-120}"
TARGET=aarch64-unknown-linux-gnu
CROSS_BIN=/usr/lib/rust-web-cross/bin
for tool in "$CROSS_BIN/cargo" "$CROSS_BIN/rustc" aarch64-linux-gnu-gcc aarch64-linux-gnu-g++ qemu-aarch64; do
    command -v "$tool" >/dev/null \
        || { echo "fuzz-aarch64: $tool is missing: run scripts/aarch64-setup.sh as root" >&2; exit 1; }
done

work="${CARGO_TARGET_DIR:-$PWD/target}/fuzz-aarch64"
export PATH="$CROSS_BIN:$PATH" RUSTC="$CROSS_BIN/rustc" CARGO_TARGET_DIR="$work"
export CARGO_TERM_COLOR=never
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export CXX_aarch64_unknown_linux_gnu=aarch64-linux-gnu-g++
# cargo-fuzz's flags for `--sanitizer none`; with --target they reach only the target's
# crates, not the build scripts.
export RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks"
cargo build -q --locked --release --target "$TARGET" --manifest-path fuzz/Cargo.toml --bin fast_vs_slow

mkdir -p "$work/corpus"
shim="$work/nothreads-aarch64.so"
aarch64-linux-gnu-gcc -shared -fPIC -O2 -Wall -Werror -o "$shim" scripts/nothreads.c
if [ -z "$(ls -A "$work/corpus")" ]; then
    n=0
    while IFS= read -r line && [ "$n" -lt 500 ]; do
        printf '%s' "$line" >"$work/corpus/seed-$n"
        n=$((n + 1))
    done <corpora/sample.txt
fi

log="$work/fast_vs_slow.log"
status=0
(cd "$work/corpus" && timeout $((seconds + 300)) qemu-aarch64 -L /usr/aarch64-linux-gnu -E "LD_PRELOAD=$shim" \
    "$work/$TARGET/release/fast_vs_slow" -rss_limit_mb=0 -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="$work/corpus/" "$work/corpus") >"$log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 || true)
corpus=$(find "$work/corpus" -type f ! -name 'crash-*' | wc -l)
if [ "$status" -ne 0 ]; then
    tail -30 "$log" >&2
    echo "aarch64 fuzz fast_vs_slow: FAILED (exit $status) after ${runs:-?} runs; log $log" >&2
    exit 1
fi
echo "aarch64 fuzz fast_vs_slow: ${runs:-?} runs in $seconds s, ${cov:-cov: ?}, corpus $corpus inputs, no failure"
