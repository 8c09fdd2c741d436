#!/usr/bin/env bash
# A release as a user receives it: takes dist/ (or DIR) alone, as scripts/release.sh left
# it, and nothing that cargo built elsewhere.
#   - every file's checksum (`sha256sum -c SHA256SUMS`), and no file SHA256SUMS leaves out;
#   - the crates: each .crate unpacks to its package, with its licences
#     (scripts/test-crates-offline.sh DIR builds them offline);
#   - the x86_64 tool: the archive unpacked into an empty directory and run with no cargo
#     or rustc on PATH: `ldd` shows only glibc's libraries, `objdump -T` no symbol version
#     above GLIBC_2.17, `--version` from an empty directory, then the archive README's
#     transcripts from the unpacked archive (scripts/transcripts.py);
#   - the aarch64 tool: an AArch64 binary needing no symbol above GLIBC_2.17,
#     `--version` under qemu-aarch64 (Debian's aarch64 C library as its root), then the
#     archive README's transcripts under it (scripts/aarch64-tool-wrapper.sh);
#   - the x86_64 wheel installed into a fresh virtual environment (no cargo on PATH,
#     nothing from an index) and imported; the aarch64 wheel's extension an AArch64 file
#     needing no symbol above GLIBC_2.17 (scripts/test-aarch64-wheel.sh installs it under
#     QEMU); the sdist holds the package's sources;
#   - the DuckDB extension: for every release of duckdb/releases.txt, a fresh DuckDB (the
#     duckdb package of that release, from PyPI, in a fresh virtual environment) with a
#     fresh extension directory installs `rapidurl` by name from DIR/duckdb and calls it;
#     the linux_arm64 files are AArch64 and say linux_arm64 in their footer.
#
#   scripts/test-dist.sh                          # every part
#   scripts/test-dist.sh dist --only crates,tool-x86_64,wheel-x86_64,duckdb-x86_64   # what .ci/run checks
#
# --only names the parts of scripts/release.sh that must be there (default: all); each
# named part missing from DIR is a failure, not a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

dist=dist
all_parts="crates tool-x86_64 tool-aarch64 wheel-x86_64 wheel-aarch64 duckdb-x86_64 duckdb-aarch64"
parts="$all_parts"
while [ $# -gt 0 ]; do
    case "$1" in
        --only) parts="${2:?--only needs a comma-separated list of parts}"; parts="${parts//,/ }"; shift 2 ;;
        -*) echo "test-dist: unknown option '$1'" >&2; exit 2 ;;
        *) dist="$1"; shift ;;
    esac
done
want() { [[ " $parts " == *" $1 "* ]]; }
[ -f "$dist/SHA256SUMS" ] || { echo "test-dist: no $dist/SHA256SUMS (scripts/release.sh makes it)" >&2; exit 1; }
dist="$(cd "$dist" && pwd)"
PYTHON="${PYTHON:-python3}"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)

work=$(mktemp -d "${TMPDIR:-/tmp}/rapidurl-test-dist.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "test-dist: $*" >&2; exit 1; }
one() { # the one file of DIST matching a glob, by name
    local matches
    matches=$(cd "$dist" && compgen -G "$1" || true)
    [ -n "$matches" ] && [ "$(wc -l <<<"$matches")" -eq 1 ] || fail "expected one $1 in $dist, found: ${matches:-none}"
    echo "$dist/$matches"
}
# The highest GLIBC_ version in a list of symbol versions on stdin; fails above 2.17.
glibc_at_most_2_17() {
    local max
    max=$(grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' | sed 's/GLIBC_//' | sort -uV | tail -1)
    [ -n "$max" ] || fail "$1: no GLIBC_ symbol version"
    [ "$(printf '%s\n2.17\n' "$max" | sort -V | tail -1)" = 2.17 ] || fail "$1 needs GLIBC_$max, above 2.17"
    echo "$max"
}

# PATH without Rust: what a server that never saw a Rust toolchain has.
no_rust_path=$(tr ':' '\n' <<<"$PATH" | grep -v -e '\.cargo/bin' -e '\.rustup' -e 'rust-web-cross' | paste -sd: -)
env PATH="$no_rust_path" sh -c '! command -v cargo >/dev/null && ! command -v rustc >/dev/null' \
    || fail "cargo or rustc is still on PATH without ~/.cargo/bin: $no_rust_path"

echo "== every checksum of SHA256SUMS"
(cd "$dist" && sha256sum --check --strict --quiet SHA256SUMS) || fail "a checksum does not match"
unlisted=$(cd "$dist" && comm -23 <(find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort) \
    <(sed 's/^[0-9a-f]*  //' SHA256SUMS | LC_ALL=C sort))
[ -z "$unlisted" ] || fail "files SHA256SUMS does not list: $unlisted"
ok "$(wc -l <"$dist/SHA256SUMS") files, every checksum matches, none unlisted"

if want crates; then
    echo "== the crates"
    for crate in rapidurl rapidurl-cli; do
        file=$(one "$crate-$version.crate")
        listing=$(tar -tzf "$file")
        for f in Cargo.toml Cargo.toml.orig README.md LICENSE-MIT LICENSE-APACHE src/main.rs src/lib.rs; do
            case "$crate/$f" in rapidurl/src/main.rs | rapidurl-cli/src/lib.rs) continue ;; esac
            grep -qx "$crate-$version/$f" <<<"$listing" || fail "$(basename "$file") has no $f"
        done
        size=$(stat -c %s "$file")
        [ "$size" -le $((10 * 1024 * 1024)) ] || fail "$(basename "$file") is $size bytes, over crates.io's 10 MiB"
        ok "$(basename "$file"): $(wc -l <<<"$listing") files, $size bytes"
    done
fi

if want tool-x86_64; then
    echo "== the x86_64 tool, from its archive, with no Rust on PATH"
    archive=$(one "rapidurl-$version-x86_64-unknown-linux-gnu.tar.gz")
    mkdir "$work/tool"
    tar -xzf "$archive" -C "$work/tool"
    unpacked="$work/tool/rapidurl-$version-x86_64-unknown-linux-gnu"
    for f in rapidurl README.md LICENSE-MIT LICENSE-APACHE examples/check.txt examples/access.csv; do
        [ -f "$unpacked/$f" ] || fail "$(basename "$archive") has no $f"
    done
    # Its README's install lines name the archives as they are.
    for a in x86_64 aarch64; do
        grep -qF "rapidurl-$version-$a-unknown-linux-gnu.tar.gz" "$unpacked/README.md" \
            || fail "the archive's README does not name rapidurl-$version-$a-unknown-linux-gnu.tar.gz"
    done
    bin="$unpacked/rapidurl"
    # ldd: the loader, the vDSO and glibc's own libraries, nothing else.
    libs=$(ldd "$bin" | awk '{ print $1 }')
    others=$(grep -vxE 'linux-vdso\.so\.1|/lib64/ld-linux-x86-64\.so\.2|(lib(c|m|dl|rt|pthread|util))\.so\.[0-9]+' <<<"$libs" || true)
    [ -z "$others" ] || fail "rapidurl needs libraries beside glibc's: $others"
    ok "ldd: $(echo $libs)"
    glibc=$(objdump -T "$bin" | glibc_at_most_2_17 "rapidurl (x86_64)")
    ok "objdump -T: the highest symbol version is GLIBC_$glibc"
    mkdir "$work/empty"
    got=$(cd "$work/empty" && env -i PATH="$unpacked:$no_rust_path" HOME="$work/empty" rapidurl --version)
    [ "$got" = "rapidurl $version" ] || fail "rapidurl --version printed '$got'"
    got=$(cd "$work/empty" && printf 'HTTP://Example.COM/a/../b\n' | env -i PATH="$unpacked:$no_rust_path" rapidurl parse --fields href)
    [ "$got" = "$(printf 'href\terror\nhttp://example.com/b\t')" ] || fail "rapidurl parse printed '$got'"
    [ -z "$(ls -A "$work/empty")" ] || fail "rapidurl left files in the directory it ran in"
    ok "from an empty directory: $(cd "$work/empty" && env -i PATH="$unpacked:$no_rust_path" rapidurl --version), and it parses standard input"
    env -i PATH="$unpacked:$no_rust_path" HOME="$work/empty" "$PYTHON" scripts/transcripts.py "$unpacked/README.md" --cwd "$unpacked" \
        || fail "the archive README's transcripts failed"
    ok "the archive README's transcripts"
    echo "x86_64 tool: $(stat -c %s "$bin") bytes"
fi

if want tool-aarch64; then
    echo "== the aarch64 tool"
    archive=$(one "rapidurl-$version-aarch64-unknown-linux-gnu.tar.gz")
    mkdir "$work/tool-aarch64"
    tar -xzf "$archive" -C "$work/tool-aarch64"
    unpacked_arm="$work/tool-aarch64/rapidurl-$version-aarch64-unknown-linux-gnu"
    bin="$unpacked_arm/rapidurl"
    [ -f "$bin" ] || fail "$(basename "$archive") has no rapidurl"
    readelf -h "$bin" | grep -q 'Machine: *AArch64' || fail "the aarch64 rapidurl is not an AArch64 binary"
    glibc=$(readelf --dyn-syms --wide "$bin" | glibc_at_most_2_17 "rapidurl (aarch64)")
    ok "AArch64, the highest symbol version is GLIBC_$glibc"
    command -v qemu-aarch64 >/dev/null || fail "qemu-aarch64 is missing (scripts/aarch64-setup.sh installs it)"
    [ -d /usr/aarch64-linux-gnu/lib ] || fail "/usr/aarch64-linux-gnu (libc6-arm64-cross) is missing (scripts/aarch64-setup.sh)"
    got=$(cd "$work/empty" 2>/dev/null || cd "$work"; timeout 120 qemu-aarch64 -L /usr/aarch64-linux-gnu "$bin" --version)
    [ "$got" = "rapidurl $version" ] || fail "rapidurl --version under qemu-aarch64 printed '$got'"
    ok "under qemu-aarch64: $got"
    # The archive README's transcripts, with the aarch64 binary under qemu-aarch64 as
    # `rapidurl` on PATH (scripts/aarch64-tool-wrapper.sh: no thread can start, and the
    # tool's note that it runs on one thread is taken out), after one run that checks
    # the tool says that note once.
    command -v aarch64-linux-gnu-gcc >/dev/null || fail "aarch64-linux-gnu-gcc is missing (scripts/aarch64-setup.sh installs it)"
    mkdir "$work/aarch64-bin"
    shim="$work/aarch64-bin/nothreads.so"
    aarch64-linux-gnu-gcc -shared -fPIC -O2 -Wall -Werror -o "$shim" scripts/nothreads.c
    notes=$(cd "$unpacked_arm" && timeout 600 qemu-aarch64 -L /usr/aarch64-linux-gnu -E "LD_PRELOAD=$shim" "$bin" check examples/check.txt 2>&1 >/dev/null \
        | grep -c '^rapidurl: cannot start a thread (.*); running on one thread$' || true)
    [ "$notes" = 1 ] || fail "the aarch64 rapidurl check said $notes times that it runs on one thread (expected once)"
    scripts/aarch64-tool-wrapper.sh "$shim" "$bin" "$work/aarch64-bin/rapidurl"
    env -i PATH="$work/aarch64-bin:$no_rust_path" HOME="$work" "$PYTHON" scripts/transcripts.py "$unpacked_arm/README.md" --cwd "$unpacked_arm" \
        || fail "the aarch64 archive README's transcripts failed under qemu-aarch64"
    ok "the aarch64 archive README's transcripts, under qemu-aarch64"
    echo "aarch64 tool: $(stat -c %s "$bin") bytes"
fi

if want wheel-x86_64; then
    echo "== the x86_64 wheel, into a fresh virtual environment, with no Rust on PATH"
    wheel=$(one "rapidurl-$version-cp39-abi3-manylinux2014_x86_64*.whl")
    "$PYTHON" -m venv "$work/venv"
    env PATH="$no_rust_path" "$work/venv/bin/python" -m pip install -q --no-index --no-deps "$wheel" \
        || fail "pip could not install $(basename "$wheel")"
    (cd "$work" && env PATH="$no_rust_path" "$work/venv/bin/python" - "$work/venv" <<'PY') || fail "the wheel's rapidurl does not work"
import sys
import rapidurl
assert rapidurl._rapidurl.__file__.startswith(sys.argv[1]), rapidurl._rapidurl.__file__
u = rapidurl.URL("../c?x=1", base="https://user:pw@Bücher.example/a/b")
assert u.href == "https://user:pw@xn--bcher-kva.example/c?x=1", u.href
assert rapidurl.surt("http://www.Example.com/a?b=2&a=1") == "com,example)/a?a=1&b=2"
print("imported", rapidurl._rapidurl.__file__)
PY
    ok "$(basename "$wheel") installs and imports"
    sdist=$(one "rapidurl-$version.tar.gz")
    listing=$(tar -tzf "$sdist")
    for f in PKG-INFO pyproject.toml python/Cargo.toml Cargo.toml src/lib.rs build.rs; do
        grep -qx "rapidurl-$version/$f" <<<"$listing" || fail "$(basename "$sdist") has no $f"
    done
    ok "$(basename "$sdist") holds the package's sources ($(wc -l <<<"$listing") files)"
fi

if want wheel-aarch64; then
    echo "== the aarch64 wheel"
    wheel=$(one "rapidurl-$version-cp39-abi3-manylinux2014_aarch64*.whl")
    mkdir "$work/wheel-aarch64"
    "$PYTHON" -m zipfile -e "$wheel" "$work/wheel-aarch64"
    so=$(ls "$work"/wheel-aarch64/rapidurl/_rapidurl*.so)
    readelf -h "$so" | grep -q 'Machine: *AArch64' || fail "$(basename "$so") is not an AArch64 file"
    glibc=$(readelf --dyn-syms --wide "$so" | glibc_at_most_2_17 "$(basename "$wheel")")
    ok "$(basename "$wheel"): AArch64, the highest symbol version is GLIBC_$glibc"
fi

if want tool-x86_64 && want wheel-x86_64; then
    # README.md's install lines for a release, as written, in a copy of the release's files,
    # with /usr/bin's python3 and pip alone on PATH (Debian's refuses to install outside a
    # virtual environment) and pyarrow downloaded from PyPI (pip's cache may serve it).
    echo "== README.md's release:install block, in a copy of $dist"
    block=$(sed -n '/^<!-- release:install/,/^<!-- \/release:install -->/p' README.md | sed '1,2d;$d' | sed '$d')
    [ -n "$block" ] || fail "README.md has no release:install block"
    cp -r "$dist" "$work/user"
    out=$(cd "$work/user" && env PATH=/usr/bin:/bin bash -euo pipefail -c "$block" 2>&1) \
        || fail "README.md's release:install block failed:
$out"
    grep -qx "rapidurl $version" <<<"$out" || fail "the block's tool did not print 'rapidurl $version':
$out"
    grep -q '^Successfully installed .*rapidurl-'"$version" <<<"$out" || fail "pip did not install rapidurl $version:
$out"
    [ "$(tail -1 <<<"$out")" = "http://example.com/b" ] || fail "the block's last line is not http://example.com/b:
$out"
    ok "README.md's release:install block: $(grep -c ': OK$' <<<"$out") checksums OK, rapidurl $version, the wheel imported"
fi

duckdb_releases=$(grep -v '^#' duckdb/releases.txt | grep .)
if want duckdb-x86_64; then
    for release in $duckdb_releases; do
        echo "== the DuckDB extension, installed by name from $dist/duckdb into DuckDB $release"
        [ -f "$dist/duckdb/v$release/linux_amd64/rapidurl.duckdb_extension.gz" ] \
            || fail "no duckdb/v$release/linux_amd64/rapidurl.duckdb_extension.gz"
        venv="$work/duckdb-$release"
        "$PYTHON" -m venv "$venv"
        "$venv/bin/python" -m pip install -q "duckdb==$release" || fail "pip could not install duckdb==$release"
        mkdir "$venv/extensions"
        (cd "$work" && "$venv/bin/python" - "$dist/duckdb" "$venv/extensions" "$release" <<'PY') || fail "DuckDB $release: the extension does not install or work"
import os
import sys
import duckdb
repository, extensions, release = sys.argv[1:]
assert duckdb.__version__ == release, duckdb.__version__
con = duckdb.connect(config={"allow_unsigned_extensions": "true",
                             "extension_directory": extensions})
con.execute(f"SET custom_extension_repository = '{repository}'")
con.execute("INSTALL rapidurl")
con.execute("LOAD rapidurl")
got = con.execute("SELECT url_registrable_domain('https://www.example.co.uk/a'), "
                  "url_hostname('HTTP://Example.COM/')").fetchone()
assert got == ("example.co.uk", "example.com"), got
installed = [os.path.join(d, f) for d, _, fs in os.walk(extensions) for f in fs if f.startswith("rapidurl")]
assert installed, "nothing installed under the fresh extension directory"
source = con.execute("SELECT install_path, installed_from FROM duckdb_extensions() "
                     "WHERE extension_name = 'rapidurl'").fetchone()
assert source[1] == repository, source
print("duckdb", release, "installed", source[0], "from", source[1])
PY
        ok "DuckDB $release: INSTALL rapidurl from the repository, LOAD, url_registrable_domain"
    done
fi
if want duckdb-aarch64; then
    echo "== the DuckDB extension for linux_arm64"
    for release in $duckdb_releases; do
        file="$dist/duckdb/v$release/linux_arm64/rapidurl.duckdb_extension"
        [ -f "$file" ] && [ -f "$file.gz" ] || fail "no duckdb/v$release/linux_arm64/rapidurl.duckdb_extension(.gz)"
        cmp -s <(gzip -dc "$file.gz") "$file" || fail "$file.gz is not $file"
        readelf -h "$file" | grep -q 'Machine: *AArch64' || fail "$file is not an AArch64 file"
        tail -c 534 "$file" | tr -d '\0' | grep -q 'linux_arm64' || fail "$file's footer does not say linux_arm64"
    done
    glibc=$(readelf --dyn-syms --wide "$file" | glibc_at_most_2_17 "rapidurl.duckdb_extension (linux_arm64)")
    ok "linux_arm64 for $(echo $duckdb_releases): AArch64, its footer's platform, GLIBC_$glibc at most"
fi

echo "test-dist: $passed passed, 0 failed"
