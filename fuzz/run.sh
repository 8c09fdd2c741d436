#!/usr/bin/env bash
# Seeds, builds and runs one fuzz target for a fixed time, then prints a summary:
# executions, coverage (cov/ft from libFuzzer's last status line), corpus size, crashes.
#
#   fuzz/run.sh TARGET SECONDS [extra libFuzzer flags...]
#   fuzz/run.sh parse 600
#   JOBS=2 fuzz/run.sh differential 600     # libFuzzer's -fork=2 (two cores)
#
# Works on a stable toolchain: cargo-fuzz needs nightly-only flags (-Zsanitizer), which
# RUSTC_BOOTSTRAP=1 unlocks. The log is kept in fuzz/artifacts/TARGET/run.log; inputs
# that fail land in fuzz/artifacts/TARGET/ (crash-*, timeout-*, oom-*), and
# `cargo fuzz run TARGET fuzz/artifacts/TARGET/crash-...` replays one.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 TARGET SECONDS [libFuzzer flags...]" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
export RUSTC_BOOTSTRAP=1
# Share the main build's target directory? No: the fuzz build uses different RUSTFLAGS
# (sanitizer, coverage), so it would only evict the main build's artifacts. It has its
# own, fuzz/target/.

if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "cargo-fuzz not found: cargo install cargo-fuzz --locked" >&2
    exit 2
fi

python3 "$here/seed.py" "$target"

artifacts="$here/artifacts/$target"
mkdir -p "$artifacts"
log="$artifacts/run.log"

# -rss_limit_mb: a URL parser has no business near 2 GB; -max_len: room for long URLs
# (the robustness tests cover megabyte inputs; the fuzzer looks for structure).
# -timeout: one input taking seconds means a quadratic path: report it.
jobs=${JOBS:-1}
fork=()
if [[ $jobs -gt 1 ]]; then fork=(-fork="$jobs" -ignore_crashes=1); fi
set +e
cargo fuzz build --release --debug-assertions "$target" >&2 || exit 1
cargo fuzz run --release --debug-assertions "$target" -- \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "${fork[@]}" "$@" 2>&1 | tee "$log" | grep -E "^#[0-9]+.*(INITED|DONE|pulse)|ERROR|panicked" >&2
status=${PIPESTATUS[0]}
set -e

# libFuzzer prints status lines like
#   #123456  DONE   cov: 2345 ft: 6789 corp: 1234/56Kb lim: 4096 exec/s: 2057 rss: 80Mb
# and, with -print_final_stats=1, "stat::number_of_executed_units: N".
last=$(grep -E "^#[0-9]+" "$log" | tail -1 || true)
execs=$(grep -oE "stat::number_of_executed_units: [0-9]+" "$log" | tail -1 | awk '{print $2}')
[[ -z $execs ]] && execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
cov=$(grep -oE "cov: [0-9]+" <<<"$last" | awk '{print $2}')
ft=$(grep -oE "ft: [0-9]+" <<<"$last" | awk '{print $2}')
corp=$(grep -oE "corp: [0-9]+/[0-9]+[a-zA-Z]+" <<<"$last" | awk '{print $2}')
rate=$(grep -oE "exec/s: [0-9]+" <<<"$last" | awk '{print $2}')
rss=$(grep -oE "rss: [0-9]+Mb" <<<"$last" | awk '{print $2}')
crashes=$(find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)

echo "target=$target seconds=$seconds execs=${execs:-?} exec/s=${rate:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} rss=${rss:-?} crashes=$crashes exit=$status"
if [[ $crashes -gt 0 ]]; then
    find "$artifacts" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) -print
    grep -m1 -A4 -E "panicked|ERROR: libFuzzer" "$log" || true
fi
exit "$status"
