#!/usr/bin/env bash
# Installs the cross toolchain that scripts/test-aarch64.sh uses, from Debian's packages
# (rustup cannot fetch the aarch64 standard library on these machines): Debian's Rust
# (rustc-web, cargo-web, rust-web-clippy) with the aarch64 standard library
# (libstd-rust-web-dev:arm64, through `dpkg --add-architecture arm64`), the aarch64 C and
# C++ cross compilers (for the linker and the C++ of dev-dependencies) and qemu-user.
#
# Debian's cargo, rustc, rustdoc, cargo-clippy and clippy-driver are diverted
# (dpkg-divert) from /usr/bin to /usr/lib/rust-web-cross/bin before they are installed, so
# that the rustup toolchain stays the only Rust on PATH (scripts/test-all.sh checks that
# the wheel installs with no cargo or rustc on PATH). Run as root; idempotent: a second
# run installs nothing and ends with the same versions.
set -euo pipefail

CROSS_BIN=/usr/lib/rust-web-cross/bin
packages=(
    rustc-web cargo-web rust-web-clippy libstd-rust-web-dev:arm64
    gcc-aarch64-linux-gnu g++-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
)

if [ "$(id -u)" -ne 0 ]; then
    echo "aarch64-setup: run as root (it calls dpkg and apt-get)" >&2
    exit 1
fi

mkdir -p "$CROSS_BIN"
for tool in cargo cargo-clippy clippy-driver rustc rustdoc; do
    if ! dpkg-divert --list "/usr/bin/$tool" | grep -q "$CROSS_BIN/$tool"; then
        dpkg-divert --local --rename --divert "$CROSS_BIN/$tool" --add "/usr/bin/$tool"
    fi
done

updated=0
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
    apt-get update -q
    updated=1
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$updated" -eq 1 ] || apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

for tool in cargo rustc cargo-clippy; do
    [ -x "$CROSS_BIN/$tool" ] || { echo "aarch64-setup: $CROSS_BIN/$tool is missing" >&2; exit 1; }
done
if [ -e /usr/bin/cargo ] || [ -e /usr/bin/rustc ]; then
    echo "aarch64-setup: /usr/bin/cargo or /usr/bin/rustc exists; it should be diverted to $CROSS_BIN" >&2
    exit 1
fi
echo "aarch64-setup: $("$CROSS_BIN/rustc" --version); $("$CROSS_BIN/cargo" --version);" \
    "aarch64 std: $(ls /usr/lib/rustlib/aarch64-unknown-linux-gnu/lib/libstd-*.rlib | head -1);" \
    "$(aarch64-linux-gnu-gcc --version | head -1); $(qemu-aarch64 --version | head -1)"
