#!/usr/bin/env bash
# The library built for aarch64-unknown-linux-gnu (its NEON kernels) and tested under
# qemu-aarch64, on an x86_64 machine, with Debian's cross toolchain: rustc-web, cargo-web
# and rust-web-clippy (moved to /usr/lib/rust-web-cross/bin), libstd-rust-web-dev:arm64,
# gcc/g++-aarch64-linux-gnu and qemu-user. scripts/aarch64-setup.sh installs them (as
# root; .ci/run runs it); without them this script fails and says so.
#
# qemu-user hangs at the first thread a program starts on these machines, so each test
# binary runs with scripts/nothreads.c preloaded: every thread start fails with
# EAGAIN, and libtest then runs each test on the main thread, one after another; the
# bulk engine, whose rayon pool then cannot start, parses on the calling thread. The
# suites: the scan kernels against the scalar ones (the library's unit tests `scan::`,
# property tests among them), the other unit tests, WPT, the corpora, the fast path
# against the state machine, the bulk engine's line source on the calling thread
# (`engine::run_here`), every `batch` function where no thread starts
# (tests/threads_refused.rs), the property tests, the canonical keys and the public
# suffixes. The tests that build rayon pools of their own (tests/batch*.rs) run on
# x86_64 only.
#
# Then the tool: `rapidurl` built for aarch64 runs the documentation's transcripts
# (cli/tests/transcripts.rs: README.md and docs/cli.md) under qemu-aarch64 with the shim,
# on one thread. Its note saying so is taken out of stderr, as in the x86_64 run under
# the shim; the transcripts test is built for this machine (rustup's cargo) and runs the
# aarch64 tool through a wrapper (RAPIDURL_TRANSCRIPTS_TOOL).
#
# Release builds (debug code under QEMU is slow). Prints one line per suite:
#   aarch64 <suite>: <n> passed, <n> failed (<s> s)
# Artifacts go to $CARGO_TARGET_DIR/aarch64-debian (default target/aarch64-debian), apart
# from rustup's (two compilers must not share a target directory).
set -euo pipefail
cd "$(dirname "$0")/.."
# This machine's toolchain and target directory, for the transcripts test.
host_path=$PATH
host_target_dir="${CARGO_TARGET_DIR:-$PWD/target}"

TARGET=aarch64-unknown-linux-gnu
CROSS_BIN=/usr/lib/rust-web-cross/bin

missing=()
for tool in cargo rustc cargo-clippy clippy-driver; do
    [ -x "$CROSS_BIN/$tool" ] || missing+=("$CROSS_BIN/$tool")
done
compgen -G "/usr/lib/rustlib/$TARGET/lib/libstd-*.rlib" >/dev/null \
    || missing+=("libstd-rust-web-dev:arm64")
for tool in aarch64-linux-gnu-gcc aarch64-linux-gnu-g++ qemu-aarch64 timeout; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "test-aarch64: the aarch64 cross toolchain is not installed (missing: ${missing[*]})." >&2
    echo "test-aarch64: run scripts/aarch64-setup.sh as root (.ci/run does) and try again." >&2
    exit 1
fi

export PATH="$CROSS_BIN:$PATH"
export RUSTC="$CROSS_BIN/rustc" RUSTDOC="$CROSS_BIN/rustdoc"
unset RUSTC_WRAPPER RUSTFLAGS
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/aarch64-debian"
export CARGO_TERM_COLOR=never
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc
export CXX_aarch64_unknown_linux_gnu=aarch64-linux-gnu-g++
mkdir -p "$CARGO_TARGET_DIR"
shim="$CARGO_TARGET_DIR/nothreads-aarch64.so"
aarch64-linux-gnu-gcc -shared -fPIC -O2 -Wall -Werror -o "$shim" scripts/nothreads.c
# A hung emulator fails its suite after 20 minutes rather than hanging CI.
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="timeout 1200 qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_PRELOAD=$shim"

start=$SECONDS
echo "== aarch64: $("$RUSTC" --version), $(qemu-aarch64 --version | head -1)"

echo "== aarch64: cargo clippy --target $TARGET (the library, its tests and benches), warnings denied"
cargo clippy -q --locked --target "$TARGET" -p rapidurl --all-targets -- -D warnings
cargo clippy -q --locked --target "$TARGET" -p rapidurl --no-default-features --lib -- -D warnings

suites=(--lib --test wpt --test corpora --test fast_path --test lines_here --test threads_refused
    --test proptests --test canon --test psl)
echo "== aarch64: build the test binaries (release)"
build_start=$SECONDS
cargo test --locked --release -p rapidurl --target "$TARGET" "${suites[@]}" --no-run 2>&1 \
    | { grep -vE '^ *(Compiling|Checking|Downloaded|Downloading|Locking|Adding|Updating) ' || true; }
echo "built in $((SECONDS - build_start)) s"

log="$CARGO_TARGET_DIR/test-aarch64.log"
: >"$log"
failed=0
suite() { # suite NAME CARGO-TARGET-ARGS... [-- TEST-ARGS...]
    local name=$1 out rc=0 t=$SECONDS
    shift
    out=$(cargo test --locked --release -p rapidurl --target "$TARGET" "$@" 2>&1) || rc=$?
    printf '%s\n' "== $name" "$out" >>"$log"
    # libtest's totals: "test result: ok. 12 passed; 0 failed; ..."
    local totals passed failedn
    totals=$(grep -oE 'test result: [A-Za-z]+\. [0-9]+ passed; [0-9]+ failed' <<<"$out" || true)
    passed=$(grep -oE '[0-9]+ passed' <<<"$totals" | awk '{s += $1} END {print s + 0}')
    failedn=$(grep -oE '[0-9]+ failed' <<<"$totals" | awk '{s += $1} END {print s + 0}')
    if [ "$rc" -ne 0 ] || [ "$passed" -eq 0 ]; then
        failed=1
        grep -E '^(test .* FAILED|---- |thread .main. panicked|error)' <<<"$out" | head -20 >&2 || true
        [ "$rc" -eq 124 ] && echo "aarch64 $name: timed out under qemu-aarch64" >&2
    fi
    echo "aarch64 $name: $passed passed, $failedn failed ($((SECONDS - t)) s)"
    # WPT's cases, one line per data file (its tests print them with --nocapture).
    grep -oE '[A-Za-z0-9_.-]+\.json: [0-9]+ passed, [0-9]+ failed' <<<"$out" | sed 's/^/    /' || true
}
suite "scan kernels (lib scan::)" --lib -- --test-threads=1 scan::
suite "library unit tests (lib, but scan::)" --lib -- --test-threads=1 --skip scan::
suite "WPT (tests/wpt.rs)" --test wpt -- --test-threads=1 --nocapture
suite "corpora (tests/corpora.rs)" --test corpora -- --test-threads=1
suite "fast path vs state machine (tests/fast_path.rs)" --test fast_path -- --test-threads=1
suite "line source on the calling thread (tests/lines_here.rs)" --test lines_here -- --test-threads=1
suite "batch functions where no thread starts (tests/threads_refused.rs)" --test threads_refused -- \
    --test-threads=1
suite "property tests (tests/proptests.rs)" --test proptests -- --test-threads=1
suite "canonical keys (tests/canon.rs)" --test canon -- --test-threads=1
suite "public suffixes (tests/psl.rs)" --test psl -- --test-threads=1

# The tool for aarch64, and the transcripts run with it under qemu-aarch64.
echo "== aarch64: build the tool (release)"
build_start=$SECONDS
cargo build --locked --release -p rapidurl-cli --target "$TARGET" 2>&1 \
    | { grep -vE '^ *(Compiling|Checking|Downloaded|Downloading|Locking|Adding|Updating) ' || true; }
echo "built in $((SECONDS - build_start)) s"
tool="$CARGO_TARGET_DIR/$TARGET/release/rapidurl"
qemu=(timeout 600 qemu-aarch64 -L /usr/aarch64-linux-gnu -E "LD_PRELOAD=$shim")
wrapper="$CARGO_TARGET_DIR/rapidurl-qemu"
scripts/aarch64-tool-wrapper.sh "$shim" "$tool" "$wrapper"
# One run outside the test: the tool answers, and says once that it runs on one thread.
version=$("${qemu[@]}" "$tool" --version)
notes=$("${qemu[@]}" "$tool" check corpora/sample.txt 2>&1 >/dev/null \
    | grep -c '^rapidurl: cannot start a thread (.*); running on one thread$' || true)
if [ "$notes" != 1 ]; then
    echo "aarch64: \`rapidurl check\` said $notes times that it runs on one thread (expected once)" >&2
    failed=1
fi
echo "aarch64: $version under qemu-aarch64"
t=$SECONDS
rc=0
out=$(env -u RUSTC -u RUSTDOC PATH="$host_path" CARGO_TARGET_DIR="$host_target_dir" \
    RAPIDURL_TRANSCRIPTS_TOOL="$wrapper" \
    cargo test --locked --test transcripts documented_transcripts -- --exact 2>&1) || rc=$?
printf '%s\n' "== tool transcripts" "$out" >>"$log"
passed=$(grep -oE 'test result: [A-Za-z]+\. [0-9]+ passed' <<<"$out" | grep -oE '[0-9]+ passed' || true)
if [ "$rc" -ne 0 ] || [ "$passed" != "1 passed" ]; then
    failed=1
    tail -40 <<<"$out" >&2
    echo "aarch64 tool transcripts (cli/tests/transcripts.rs): 0 passed, 1 failed ($((SECONDS - t)) s)"
else
    echo "aarch64 tool transcripts (cli/tests/transcripts.rs): 1 passed, 0 failed ($((SECONDS - t)) s)"
fi
echo "aarch64: all suites in $((SECONDS - start)) s; full output in $log"
if [ "$failed" -ne 0 ]; then
    echo "aarch64: a suite failed (see above and $log)" >&2
    exit 1
fi
