#!/usr/bin/env bash
# Builds the Python package for users who have no Rust toolchain: the abi3 wheel for
# Linux x86_64 as a manylinux2014 wheel (glibc 2.17 or newer; one file for every
# CPython >= 3.9), and the sdist, into dist/ (or $DIST).
#
#   scripts/build-wheel.sh          # dist/rapidurl-0.1.0-cp39-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
#                                   # dist/rapidurl-0.1.0.tar.gz
#
# How: `maturin build --compatibility manylinux2014 --zig`. Zig links the extension
# against glibc 2.17's symbol versions, so the wheel is manylinux2014 on any build
# machine (`auditwheel show` on it: "manylinux_2_17_x86_64"). The other way, `maturin
# build` then `auditwheel repair`, was measured too: the same cargo build, whose
# extension, linked by the host's gcc against Debian 12's glibc, needs GLIBC_2.34
# symbols, so `auditwheel repair --plat manylinux2014_x86_64` refuses it ("too-recent
# versioned symbols") and the best it can tag is manylinux_2_34, which RHEL 8 or
# Ubuntu 20.04 cannot install. Zig costs no more build time (the linking is all it
# does) and needs no Docker image. The build uses the workspace's [profile.wheel]
# (python/pyproject.toml: release code, no debug info, stripped); the wheel is 3.1 MiB.
#
# `scripts/build-wheel.sh --target aarch64` builds the Linux aarch64 wheel instead
# (rapidurl-0.1.0-cp39-abi3-manylinux2014_aarch64.manylinux_2_17_aarch64.whl; no sdist),
# cross-compiled the same way, with Debian's Rust and its aarch64 standard library
# (rustup has none for aarch64 here; scripts/aarch64-setup.sh installs them) and Zig as
# the linker; its artifacts go to $CARGO_TARGET_DIR/aarch64-wheel, apart from rustup's.
# scripts/test-aarch64-wheel.sh installs and imports it under qemu-aarch64.
#
# The tools (maturin, and ziglang, Zig as a PyPI package) are pinned in
# python/requirements-test.txt and installed from there into $VENV (default .venv/,
# created if missing). Other platforms: cibuildwheel with the [tool.cibuildwheel]
# configuration of python/pyproject.toml (README.md says how).
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64
case "${1:-}" in
    "") ;;
    --target)
        target="${2:-}"
        [ "$target" = x86_64 ] || [ "$target" = aarch64 ] \
            || { echo "build-wheel: --target x86_64 or --target aarch64" >&2; exit 2; }
        ;;
    *) echo "usage: scripts/build-wheel.sh [--target x86_64|aarch64]" >&2; exit 2 ;;
esac

DIST="${DIST:-dist}"
VENV="${VENV:-.venv}"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
# maturin runs `python -m ziglang` with the first python on PATH: the venv's.
export PATH="$PWD/$VENV/bin:$PATH"
pins=$(grep -E '^(maturin|ziglang)==' python/requirements-test.txt)
# shellcheck disable=SC2086 # one argument per pin
python -m pip install -q $pins

if [ "$target" = aarch64 ]; then
    cross_bin=/usr/lib/rust-web-cross/bin
    if [ ! -x "$cross_bin/cargo" ] || [ ! -x "$cross_bin/rustc" ] \
        || ! compgen -G "/usr/lib/rustlib/aarch64-unknown-linux-gnu/lib/libstd-*.rlib" >/dev/null; then
        echo "build-wheel: Debian's Rust for aarch64 is not installed: run scripts/aarch64-setup.sh as root" >&2
        exit 1
    fi
    export PATH="$cross_bin:$PATH" RUSTC="$cross_bin/rustc"
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/aarch64-wheel"
    # maturin sets Zig as the linker unless one is set already.
    unset CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER RUSTFLAGS
    mkdir -p "$DIST"
    rm -f "$DIST"/rapidurl-*manylinux2014_aarch64*.whl
    maturin build --manifest-path python/Cargo.toml --locked --compatibility manylinux2014 --zig \
        --target aarch64-unknown-linux-gnu --out "$DIST"
    for f in "$DIST"/rapidurl-*manylinux2014_aarch64*.whl; do
        printf '%s\t%s bytes\n' "$f" "$(stat -c %s "$f")"
    done
    exit 0
fi

mkdir -p "$DIST"
rm -f "$DIST"/rapidurl-*.whl "$DIST"/rapidurl-*.tar.gz
maturin build --manifest-path python/Cargo.toml --locked --compatibility manylinux2014 --zig \
    --out "$DIST"
maturin sdist --manifest-path python/Cargo.toml --out "$DIST"

for f in "$DIST"/rapidurl-*; do
    printf '%s\t%s bytes\n' "$f" "$(stat -c %s "$f")"
done
