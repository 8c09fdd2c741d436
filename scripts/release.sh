#!/usr/bin/env bash
# Builds everything a release contains into dist/ (or $DIST), with a SHA256SUMS file:
#
#   rapidurl-<v>.crate, rapidurl-cli-<v>.crate       `cargo package` of the publishable crates,
#                                                     after `cargo publish --dry-run`
#   rapidurl-<v>-x86_64-unknown-linux-gnu.tar.gz      the tool: one `rapidurl` binary for glibc
#   rapidurl-<v>-aarch64-unknown-linux-gnu.tar.gz     2.17 or newer, with cli/README.md, the
#                                                     licences and the README's examples/
#   rapidurl-<v>-cp39-abi3-manylinux2014_*.whl        the Python wheels (x86_64, aarch64)
#   rapidurl-<v>.tar.gz                               the Python sdist
#   duckdb/v<release>/linux_{amd64,arm64}/rapidurl.duckdb_extension(.gz)
#                                                     the DuckDB extension repository, for every
#                                                     release of duckdb/releases.txt
#   SHA256SUMS                                        `sha256sum -c SHA256SUMS` in dist/
#
#   scripts/release.sh                        # everything (about 23 minutes from cold on 2 cores)
#   scripts/release.sh --only crates,tool-x86_64,wheel-x86_64,duckdb-x86_64   # what .ci/run builds
#   scripts/release.sh --allow-dirty          # with uncommitted changes (cargo package refuses them)
#
# Parts: crates, tool-x86_64, tool-aarch64, wheel-x86_64 (and the sdist), wheel-aarch64,
# duckdb-x86_64, duckdb-aarch64. dist/ is emptied first. scripts/test-dist.sh checks the
# result as a user would receive it.
#
# The binaries (tool, wheels, extension) are linked by Zig against glibc 2.17's symbol
# versions, as scripts/build-wheel.sh does for the wheels: the tool and the extension
# through cargo-zigbuild (`--target <triple>.2.17`), the wheels through maturin's `--zig`.
# Each binary's highest GLIBC_ symbol version is checked here (readelf), and printed.
# Zig, cargo-zigbuild and maturin are the pins of python/requirements-test.txt, installed
# into $VENV (default .venv/). aarch64 is cross-built with Debian's Rust and its aarch64
# standard library (scripts/aarch64-setup.sh installs them; rustup has none here), in
# $CARGO_TARGET_DIR/aarch64-dist. Each missing piece is named before anything is built.
set -euo pipefail
cd "$(dirname "$0")/.."

all_parts="crates tool-x86_64 tool-aarch64 wheel-x86_64 wheel-aarch64 duckdb-x86_64 duckdb-aarch64"
parts="$all_parts"
dirty=()
while [ $# -gt 0 ]; do
    case "$1" in
        --only) parts="${2:?--only needs a comma-separated list of parts}"; parts="${parts//,/ }"; shift 2 ;;
        --allow-dirty) dirty=(--allow-dirty); shift ;;
        *) echo "release: unknown argument '$1' (usage: scripts/release.sh [--only PART,...] [--allow-dirty]; parts: $all_parts)" >&2; exit 2 ;;
    esac
done
for part in $parts; do
    [[ " $all_parts " == *" $part "* ]] || { echo "release: unknown part '$part' (parts: $all_parts)" >&2; exit 2; }
done
want() { [[ " $parts " == *" $1 "* ]]; }

DIST="${DIST:-dist}"
VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"
CROSS_BIN=/usr/lib/rust-web-cross/bin
target_base="${CARGO_TARGET_DIR:-$PWD/target}"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
# The archives' timestamps: the last commit's, so that an archive depends on the sources
# only. (Not exported: zstd-sys's build script would run again at every commit.)
epoch="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}"

# ---- the toolchain: every missing piece is named at once ------------------------------------
missing=()
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing+=("$1 ($2)"); }
need_cmd cargo "rustup: https://rustup.rs"
need_cmd "$PYTHON" "Python 3 with venv, for Zig, cargo-zigbuild and maturin"
need_cmd sha256sum coreutils
need_cmd tar tar
need_cmd gzip gzip
need_cmd readelf "binutils: apt-get install binutils"
if "$PYTHON" -c 'import venv, ensurepip' >/dev/null 2>&1; then :; else
    [ -x "$VENV/bin/python" ] || missing+=("python3-venv (apt-get install python3-venv)")
fi
if want tool-aarch64 || want wheel-aarch64 || want duckdb-aarch64; then
    if [ ! -x "$CROSS_BIN/cargo" ] || [ ! -x "$CROSS_BIN/rustc" ] \
        || ! compgen -G "/usr/lib/rustlib/aarch64-unknown-linux-gnu/lib/libstd-*.rlib" >/dev/null; then
        missing+=("Debian's Rust for aarch64 in $CROSS_BIN with its aarch64 standard library (scripts/aarch64-setup.sh, as root; or leave out the aarch64 parts with --only)")
    fi
fi
if [ ${#missing[@]} -gt 0 ]; then
    echo "release: missing toolchain pieces:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    exit 1
fi

# Zig, cargo-zigbuild and maturin, pinned, in $VENV: its bin/ goes first on PATH, for
# maturin and cargo-zigbuild run `python -m ziglang`.
if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
pins=$(grep -E '^(maturin|ziglang|cargo-zigbuild)==' python/requirements-test.txt)
[ "$(wc -l <<<"$pins")" -eq 3 ] \
    || { echo "release: python/requirements-test.txt must pin maturin, ziglang and cargo-zigbuild" >&2; exit 1; }
# shellcheck disable=SC2086 # one argument per pin
"$VENV/bin/python" -m pip install -q $pins \
    || { echo "release: could not install $(echo $pins) into $VENV" >&2; exit 1; }
export PATH="$PWD/$VENV/bin:$PATH"
"$VENV/bin/python" -m ziglang version >/dev/null \
    || { echo "release: Zig (python -m ziglang from $VENV) does not run" >&2; exit 1; }

rm -rf "$DIST"
mkdir -p "$DIST"
DIST="$(cd "$DIST" && pwd)"
# Each step's wall time, and its CPU time (user and system, of the commands it ran): on a
# shared machine the second tells what the step costs.
timings=()
# `times` runs in this shell (in a command substitution it would see the subshell's
# children, none), into a file the figure is read from.
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
cpu_seconds() { awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] } printf "%d", t }' "$times_file"; }
step_start() { step_name=$1; step_t0=$SECONDS; times >"$times_file"; step_cpu0=$(cpu_seconds); echo "== release: $1" >&2; }
step_end() {
    times >"$times_file"
    timings+=("$(printf '%-16s %5d s wall, %5d s CPU' "$step_name" $((SECONDS - step_t0)) $(($(cpu_seconds) - step_cpu0)))")
}

# The highest GLIBC_ symbol version a binary needs; fails above 2.17.
glibc_max() {
    local max
    max=$(readelf --dyn-syms --wide "$1" | grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' | sed 's/GLIBC_//' | sort -uV | tail -1)
    [ -n "$max" ] || { echo "release: $1 needs no GLIBC_ symbol: not a dynamically linked glibc binary?" >&2; exit 1; }
    if [ "$(printf '%s\n2.17\n' "$max" | sort -V | tail -1)" != 2.17 ]; then
        echo "release: $1 needs GLIBC_$max, above 2.17" >&2
        exit 1
    fi
    echo "$max"
}

# Runs a command with Debian's cross Rust for aarch64, in its own target directory.
aarch64_env() {
    env -u CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER -u RUSTFLAGS \
        PATH="$CROSS_BIN:$PATH" RUSTC="$CROSS_BIN/rustc" CARGO="$CROSS_BIN/cargo" \
        CARGO_TARGET_DIR="$target_base/aarch64-dist" "$@"
}

# zigbuild ARCH CARGO-ARGS...: a dist-profile build, niced, for <arch>-unknown-linux-gnu, glibc 2.17.
zigbuild() {
    local arch=$1
    shift
    if [ "$arch" = aarch64 ]; then
        aarch64_env nice -n 10 cargo-zigbuild zigbuild --locked --profile dist --target aarch64-unknown-linux-gnu.2.17 "$@"
    else
        nice -n 10 cargo zigbuild --locked --profile dist --target x86_64-unknown-linux-gnu.2.17 "$@"
    fi
}
built_dir() { # the dist-profile output directory for ARCH
    if [ "$1" = aarch64 ]; then echo "$target_base/aarch64-dist/aarch64-unknown-linux-gnu/dist"
    else echo "$target_base/x86_64-unknown-linux-gnu/dist"; fi
}

# ---- the crates -----------------------------------------------------------------------------
if want crates; then
    step_start "crates"
    # Metadata, include lists, versions on path dependencies: `cargo publish --dry-run`
    # packages both (rapidurl-cli against the packaged rapidurl) and checks them against the
    # registry; `cargo package` leaves the .crate files. The build of the packages is
    # scripts/test-crates-offline.sh's, from a vendor directory, offline.
    cargo publish --dry-run --no-verify --locked "${dirty[@]}" -p rapidurl -p rapidurl-cli
    cargo package --no-verify --locked "${dirty[@]}" -p rapidurl -p rapidurl-cli
    for crate in rapidurl rapidurl-cli; do
        file="$target_base/package/$crate-$version.crate"
        [ -f "$file" ] || { echo "release: cargo publish --dry-run left no $file" >&2; exit 1; }
        # crates.io refuses a .crate over 10 MiB.
        size=$(stat -c %s "$file")
        [ "$size" -le $((10 * 1024 * 1024)) ] \
            || { echo "release: $file is $size bytes, over crates.io's 10 MiB" >&2; exit 1; }
        cp "$file" "$DIST/"
    done
    step_end
fi

# ---- the tool, one archive per target -------------------------------------------------------
for arch in x86_64 aarch64; do
    want "tool-$arch" || continue
    step_start "tool-$arch"
    zigbuild "$arch" -p rapidurl-cli --bin rapidurl
    bin="$(built_dir "$arch")/rapidurl"
    glibc=$(glibc_max "$bin")
    name="rapidurl-$version-$arch-unknown-linux-gnu"
    stage="$target_base/release-stage/$name"
    rm -rf "$stage"
    mkdir -p "$stage/examples"
    cp "$bin" "$stage/rapidurl"
    cp cli/README.md LICENSE-MIT LICENSE-APACHE "$stage/"
    # The files cli/README.md's transcripts read (cli/tests/transcripts.rs runs them).
    cp docs/examples/check.txt docs/examples/access.csv "$stage/examples/"
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" \
        -C "$(dirname "$stage")" -cf - "$name" | gzip -n -9 >"$DIST/$name.tar.gz"
    echo "release: $name/rapidurl: $(stat -c %s "$bin") bytes, highest symbol version GLIBC_$glibc" >&2
    step_end
done

# ---- the wheels and the sdist (scripts/build-wheel.sh) --------------------------------------
# Each into a directory of its own (build-wheel.sh empties its output of rapidurl-*.tar.gz,
# which would take the tool's archives), then moved to dist/.
for arch in x86_64 aarch64; do
    want "wheel-$arch" || continue
    step_start "wheel-$arch"
    out="$target_base/release-stage/wheel-$arch"
    rm -rf "$out"
    DIST="$out" VENV="$VENV" nice -n 10 scripts/build-wheel.sh --target "$arch" >&2
    mv "$out"/* "$DIST/"
    step_end
done

# ---- the DuckDB extension repository --------------------------------------------------------
# The layout of duckdb/scripts/build.sh --repository: DIR/v<release>/<platform>/, for every
# release of duckdb/releases.txt, the file and its .gz (which DuckDB fetches first).
for arch in x86_64 aarch64; do
    want "duckdb-$arch" || continue
    step_start "duckdb-$arch"
    platform=$([ "$arch" = aarch64 ] && echo linux_arm64 || echo linux_amd64)
    zigbuild "$arch" -p rapidurl-duckdb --lib
    lib="$(built_dir "$arch")/librapidurl_duckdb.so"
    glibc=$(glibc_max "$lib")
    extension="$(built_dir "$arch")/rapidurl.duckdb_extension"
    "$PYTHON" duckdb/scripts/append_metadata.py "$lib" "$extension" --platform "$platform" \
        --extension-version "v$version"
    for release in $(grep -v '^#' duckdb/releases.txt | grep .); do
        dir="$DIST/duckdb/v${release#v}/$platform"
        mkdir -p "$dir"
        cp "$extension" "$dir/rapidurl.duckdb_extension"
        gzip -n -9 -c "$extension" >"$dir/rapidurl.duckdb_extension.gz"
    done
    echo "release: rapidurl.duckdb_extension ($platform): $(stat -c %s "$extension") bytes, highest symbol version GLIBC_$glibc" >&2
    step_end
done

# ---- checksums, and what was built ----------------------------------------------------------
(cd "$DIST" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum >SHA256SUMS)
echo "release: rapidurl $version, parts: $parts"
echo "release: built into $DIST:"
(cd "$DIST" && find . -type f -printf '%P\t%s bytes\n' | LC_ALL=C sort | sed 's/^/  /')
echo "release: build times:"
printf '  %s\n' "${timings[@]}"
