#!/usr/bin/env bash
# The Linux aarch64 wheel (scripts/build-wheel.sh --target aarch64), installed into a
# virtual environment of Debian's aarch64 CPython 3.11 and imported under qemu-aarch64,
# with single-threaded calls of the URL API. Needs what scripts/aarch64-setup.sh installs
# (Debian's Rust for aarch64, qemu-user, the arm64 architecture for apt).
#
# Debian's python3:arm64 cannot be installed beside the machine's python3: its
# python3.11-minimal is "Multi-Arch: allowed", so apt would remove the amd64 one. Its
# packages are downloaded instead (`apt-get download`) and unpacked into
# $CARGO_TARGET_DIR/aarch64-python/root (default target/), which `qemu-aarch64 -L` makes
# the aarch64 program's root for its libraries and standard library. pip runs from Debian's
# pip wheel (python3-pip-whl) inside the venv: `ensurepip` would start a second process,
# which qemu-user cannot run here (no binfmt_misc). As in scripts/test-aarch64.sh, every
# program runs with scripts/nothreads.c preloaded (qemu-user hangs at the first
# thread a program starts here), so a thread start fails instead of hanging.
#
# `parse_column` is called with `threads=1`, which parses on the calling thread and
# starts no pool (other thread counts try to start one, and fall back to the calling
# thread when they cannot). Takes
# about 8 minutes, the cross build of the wheel almost all of it; not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."

base="${CARGO_TARGET_DIR:-$PWD/target}"
dist="$base/dist-aarch64"
DIST="$dist" scripts/build-wheel.sh --target aarch64
wheel=$(ls "$dist"/rapidurl-*-cp39-abi3-manylinux2014_aarch64*.whl)

for tool in qemu-aarch64 aarch64-linux-gnu-gcc apt-get dpkg-deb; do
    command -v "$tool" >/dev/null \
        || { echo "test-aarch64-wheel: $tool is missing: run scripts/aarch64-setup.sh as root" >&2; exit 1; }
done
dpkg --print-foreign-architectures | grep -qx arm64 \
    || { echo "test-aarch64-wheel: apt has no arm64 architecture: run scripts/aarch64-setup.sh as root" >&2; exit 1; }

work="$base/aarch64-python"
root="$work/root"
mkdir -p "$work"
shim="$work/nothreads-aarch64.so"
aarch64-linux-gnu-gcc -shared -fPIC -O2 -Wall -Werror -o "$shim" scripts/nothreads.c

# Debian's aarch64 CPython 3.11 and the libraries it and the extension load.
packages=(
    python3.11-minimal:arm64 libpython3.11-minimal:arm64 libpython3.11-stdlib:arm64
    python3-pip-whl media-types libc6:arm64 libgcc-s1:arm64 libexpat1:arm64 zlib1g:arm64
    libffi8:arm64 libssl3:arm64 libbz2-1.0:arm64 liblzma5:arm64 libcrypt1:arm64
    libuuid1:arm64
)
if [ ! -x "$root/usr/bin/python3.11" ]; then
    rm -rf "$work/debs" "$root"
    mkdir -p "$work/debs" "$root"
    (cd "$work/debs" && apt-get download -q -o APT::Sandbox::User=root "${packages[@]}")
    for deb in "$work"/debs/*.deb; do
        dpkg-deb -x "$deb" "$root"
    done
fi

qemu=(timeout 600 qemu-aarch64 -L "$root" -E "LD_PRELOAD=$shim")
venv="$work/venv"
rm -rf "$venv"
"${qemu[@]}" "$root/usr/bin/python3.11" -m venv --without-pip --copies "$venv"
pip_wheel=$(ls "$root"/usr/share/python-wheels/pip-*.whl)
PIP_CONFIG_FILE=/dev/null "${qemu[@]}" "$venv/bin/python3.11" "$pip_wheel/pip" install -q \
    --no-index --no-deps --no-cache-dir --disable-pip-version-check "$wheel"
"${qemu[@]}" "$venv/bin/python3.11" - <<'PY'
import platform
import sys

import rapidurl

assert platform.machine() == "aarch64", platform.machine()
assert "/aarch64-python/venv/" in rapidurl._rapidurl.__file__, rapidurl._rapidurl.__file__
u = rapidurl.URL("../c?x=1", base="https://user:pw@Bücher.example/a/b")
assert u.href == "https://user:pw@xn--bcher-kva.example/c?x=1", u.href
assert u.hostname == "xn--bcher-kva.example", u.hostname
assert rapidurl.URL("HTTP://Example.COM/a/../b").href == "http://example.com/b"
assert rapidurl.can_parse("/a", base="https://example.com/")
assert not rapidurl.can_parse("nope")
assert rapidurl.surt("http://www.Example.com/a?b=2&a=1") == "com,example)/a?a=1&b=2"
t = rapidurl.parse_column(["https://a.example:8080/x", "nope", None], ["hostname"], threads=1)
assert t.to_pydict() == {"hostname": ["a.example", None, None],
                         "error": [None, "missing-scheme-non-relative-URL", None]}, t.to_pydict()
print("imported", rapidurl._rapidurl.__file__)
print("on CPython %s, %s: every check passed" % (platform.python_version(), platform.machine()))
PY
echo "aarch64 wheel: $(basename "$wheel") ($(stat -c %s "$wheel") bytes), installed and imported under qemu-aarch64"
