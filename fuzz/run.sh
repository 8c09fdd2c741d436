#!/usr/bin/env bash
# Seeds, builds and runs one fuzz target for a fixed time, then prints a summary:
# executions, coverage (cov/ft from libFuzzer's last status line), corpus size, crashes.
#
#   fuzz/run.sh TARGET SECONDS [extra libFuzzer flags...]
#   fuzz/run.sh parse 600
#   JOBS=2 fuzz/run.sh differential 600     # libFuzzer's -fork=2 (two cores)
#   fuzz/run.sh python 600                  # the atheris harness (fuzz/python_fuzz.py)
#   fuzz/run.sh duckdb 600                  # the DuckDB extension in a child process (fuzz/host_fuzz.py)
#   fuzz/run.sh polars 600                  # the Polars plugin in a child process (fuzz/host_fuzz.py)
#   fuzz/run.sh --all MINUTES               # every target in turn, MINUTES each
#   TARGETS="render readers" fuzz/run.sh --all 10   # those targets only
#
# Works on a stable toolchain: cargo-fuzz needs nightly-only flags (-Zsanitizer), which
# RUSTC_BOOTSTRAP=1 unlocks. The log is kept in fuzz/artifacts/TARGET/run.log; inputs
# that fail land in fuzz/artifacts/TARGET/ (crash-*, timeout-*, oom-*), and
# `cargo fuzz run TARGET fuzz/artifacts/TARGET/crash-...` replays one.
#
# `--all` writes the summary table (target, executions, coverage, findings) to
# $SUMMARY (default docs/fuzz-summary.md), which docs/robustness.md refers to. The
# `python` target needs an interpreter ($PYTHON, default .venv/bin/python of the
# repository) with the package and atheris installed; `readers` and `warc` build with
# `--features readers` (the tool's readers, Arrow and Parquet). `duckdb` and `polars`
# (fuzz/host_fuzz.py: the host in a child process; a crash, a hang or a difference from
# the Rust API is saved as fuzz/artifacts/TARGET/{crash,timeout,diff}-*.json) need the
# package and pyarrow in $PYTHON, with duckdb or polars; `duckdb` builds the extension
# (duckdb/scripts/build.sh) unless $RAPIDURL_DUCKDB_EXTENSION names one. Their extra
# arguments are host_fuzz.py's (--seed N, --timeout S), not libFuzzer's.
set -euo pipefail

if [[ $# -lt 2 ]]; then
    echo "usage: $0 TARGET SECONDS [libFuzzer flags...] | $0 --all MINUTES" >&2
    exit 2
fi
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Every cargo-fuzz target (the [[bin]] names of fuzz/Cargo.toml, in order), then the
# Python harness and the two host processes.
read -r -a ALL_TARGETS <<<"$(sed -n '/^\[\[bin\]\]/{n;s/^name = "\(.*\)"/\1/p}' "$here/Cargo.toml" | tr '\n' ' ') python duckdb polars"

# TARGETS="validation render" fuzz/run.sh --all 10: a subset, in that order.
if [[ -n ${TARGETS:-} ]]; then read -r -a ALL_TARGETS <<<"$TARGETS"; fi

if [[ $1 == --all ]]; then
    minutes=$2
    summary=${SUMMARY:-$here/../docs/fuzz-summary.md}
    rows=()
    failed=0
    for t in "${ALL_TARGETS[@]}"; do
        line=$("$here/run.sh" "$t" $((minutes * 60)) | tail -1) || failed=1
        echo "$line"
        get() { tr ' ' '\n' <<<"$line" | sed -n "s#^$1=##p"; }
        rows+=("| \`$t\` | $(get seconds) | $(get execs) | $(get exec/s) | $(get cov) | $(get ft) | $(get corpus) | $(get crashes) |")
    done
    {
        command="fuzz/run.sh --all $minutes"
        scope="every target: ${#ALL_TARGETS[@]}"
        if [[ -n ${TARGETS:-} ]]; then
            command="TARGETS=\"$TARGETS\" $command"
            scope="${#ALL_TARGETS[@]} of the targets; docs/robustness.md has every one's last campaign"
        fi
        echo "<!-- Written by $command; docs/robustness.md explains it. -->"
        echo
        echo "\`$command\`"
        echo "($scope; $(nproc) cores; each target alone, one process)."
        echo
        echo "| target | seconds | executions | exec/s | cov | ft | corpus | findings |"
        echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        printf '%s\n' "${rows[@]}"
    } >"$summary"
    echo "summary written to $summary"
    exit "$failed"
fi

target=$1
seconds=$2
shift 2
cd "$here"
export RUSTC_BOOTSTRAP=1
# Share the main build's target directory? No: the fuzz build uses different RUSTFLAGS
# (sanitizer, coverage), so it would only evict the main build's artifacts. It has its
# own, fuzz/target/.

python3 "$here/seed.py" "$target"

artifacts="$here/artifacts/$target"
mkdir -p "$artifacts"
log="$artifacts/run.log"
features=()
if [[ $target == readers || $target == warc ]]; then features=(--features readers); fi

# -rss_limit_mb: a URL parser has no business near 2 GB; -max_len: room for long URLs
# (the robustness tests cover megabyte inputs; the fuzzer looks for structure).
# -timeout: one input taking seconds means a quadratic path: report it.
jobs=${JOBS:-1}
fork=()
if [[ $jobs -gt 1 ]]; then fork=(-fork="$jobs" -ignore_crashes=1); fi
flags=(-max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048
    -print_final_stats=1 "${fork[@]}" "$@")
set +e
if [[ $target == python ]]; then
    # atheris: libFuzzer inside the interpreter, the same flags and output.
    python=${PYTHON:-$here/../.venv/bin/python}
    "$python" "$here/python_fuzz.py" -artifact_prefix="$artifacts/" "${flags[@]}" \
        "$here/corpus/python" 2>&1 | tee "$log" |
        grep -E "^#[0-9]+.*(INITED|DONE|pulse)|ERROR|Uncaught" >&2
    status=${PIPESTATUS[0]}
elif [[ $target == duckdb || $target == polars ]]; then
    # A seeded random generator feeding a child process (fuzz/host_fuzz.py); it prints
    # libFuzzer's status words, read below like libFuzzer's.
    python=${PYTHON:-$here/../.venv/bin/python}
    if [[ $target == duckdb && -z ${RAPIDURL_DUCKDB_EXTENSION:-} ]]; then
        RAPIDURL_DUCKDB_EXTENSION=$("$here/../duckdb/scripts/build.sh") || exit 1
        export RAPIDURL_DUCKDB_EXTENSION
    fi
    "$python" "$here/host_fuzz.py" "$target" "$seconds" --artifacts "$artifacts" \
        --corpus "$here/corpus/$target" "$@" 2>&1 | tee "$log" |
        grep -E "^#[0-9]+.*(INITED|DONE|pulse)|FINDING" >&2
    status=${PIPESTATUS[0]}
else
    if ! command -v cargo-fuzz >/dev/null 2>&1; then
        echo "cargo-fuzz not found: cargo install cargo-fuzz --locked" >&2
        exit 2
    fi
    cargo fuzz build --release --debug-assertions "${features[@]}" "$target" >&2 || exit 1
    cargo fuzz run --release --debug-assertions "${features[@]}" "$target" -- "${flags[@]}" 2>&1 |
        tee "$log" | grep -E "^#[0-9]+.*(INITED|DONE|pulse)|ERROR|panicked" >&2
    status=${PIPESTATUS[0]}
fi
set -e

# libFuzzer prints status lines like
#   #123456  DONE   cov: 2345 ft: 6789 corp: 1234/56Kb lim: 4096 exec/s: 2057 rss: 80Mb
# and, with -print_final_stats=1, "stat::number_of_executed_units: N".
last=$(grep -E "^#[0-9]+" "$log" | tail -1 || true)
execs=$(grep -oE "stat::number_of_executed_units: [0-9]+" "$log" | tail -1 | awk '{print $2}')
[[ -z $execs ]] && execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
# (duckdb and polars have no coverage figures.)
cov=$(grep -oE "cov: [0-9]+" <<<"$last" | awk '{print $2}' || true)
ft=$(grep -oE "ft: [0-9]+" <<<"$last" | awk '{print $2}' || true)
corp=$(grep -oE "corp: [0-9]+/[0-9]+[a-zA-Z]+" <<<"$last" | awk '{print $2}')
rate=$(grep -oE "exec/s: [0-9]+" <<<"$last" | awk '{print $2}')
rss=$(grep -oE "rss: [0-9]+Mb" <<<"$last" | awk '{print $2}')
found=(-name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' -o -name 'diff-*')
crashes=$(find "$artifacts" -maxdepth 1 -type f \( "${found[@]}" \) | wc -l)

echo "target=$target seconds=$seconds execs=${execs:-?} exec/s=${rate:-?} cov=${cov:-?} ft=${ft:-?} corpus=${corp:-?} rss=${rss:-?} crashes=$crashes exit=$status"
if [[ $crashes -gt 0 ]]; then
    find "$artifacts" -maxdepth 1 -type f \( "${found[@]}" \) -print
    grep -m1 -A4 -E "panicked|Uncaught|ERROR: libFuzzer|FINDING" "$log" || true
fi
exit "$status"
