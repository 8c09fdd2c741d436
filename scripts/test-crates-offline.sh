#!/usr/bin/env bash
# The published crates as a user's build gets them: rapidurl-<v>.crate and
# rapidurl-cli-<v>.crate (from DIR, as scripts/release.sh left them, or packaged here with
# `cargo package`) are unpacked into a `cargo vendor` directory beside their registry
# dependencies, which replaces crates.io for builds that run with --offline, an empty
# CARGO_HOME (no registry index or cache) and the vendor directory read-only:
#   1. a fresh project that depends on rapidurl with every feature builds, and runs
#      (build.rs makes the public suffix table from the vendored psl, with no cargo
#      metadata: scripts/test-psl-offline.sh tests how);
#   2. `cargo install --locked rapidurl-cli` builds the tool from the vendored package and
#      its packaged Cargo.lock, and the installed `rapidurl` runs;
#   3. neither build wrote into the vendor directory (checked by its files' hashes, since
#      root ignores the read-only bits).
# Every dependency must be in cargo's download cache (a build of the workspace puts them
# there); nothing is downloaded. Debug builds; takes about 5 minutes on 2 cores.
#
#   scripts/test-crates-offline.sh          # packages the crates itself
#   scripts/test-crates-offline.sh dist     # the .crate files of dist/
set -euo pipefail
crates_dir=""
if [ $# -ge 1 ]; then
    crates_dir="$(cd "$1" && pwd)"
fi
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/rapidurl-crates-offline.XXXXXX")
trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$work/target"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
passed=0

fail() {
    echo "scripts/test-crates-offline.sh: $*" >&2
    [ -f "$work/build.log" ] && tail -30 "$work/build.log" >&2
    exit 1
}

if [ -n "$crates_dir" ]; then
    crates="$crates_dir"
else
    echo "== cargo package -p rapidurl -p rapidurl-cli"
    cargo package -p rapidurl -p rapidurl-cli --no-verify --locked --offline --quiet --allow-dirty
    crates="$CARGO_TARGET_DIR/package"
fi
# The vendor directory: `cargo vendor` of a workspace holding both unpacked packages
# (rapidurl-cli's `rapidurl = "<v>"` patched to the unpacked rapidurl) copies their
# registry dependencies, and rapidurl-cli's dev-dependencies, which `cargo install`
# resolves too; the packages go beside them, as a registry would serve them.
pkg="$work/deps/pkg"
mkdir -p "$pkg" "$work/deps/src"
for crate in rapidurl rapidurl-cli; do
    file="$crates/$crate-$version.crate"
    [ -f "$file" ] || fail "no $file"
    tar -xzf "$file" -C "$pkg"
done
cat >"$work/deps/Cargo.toml" <<EOF
[package]
name = "deps"
version = "0.0.0"
edition = "2021"

[dependencies]
rapidurl = { path = "pkg/rapidurl-$version", features = ["serde"] }
rapidurl-cli = { path = "pkg/rapidurl-cli-$version" }

[patch.crates-io]
rapidurl = { path = "pkg/rapidurl-$version" }

[workspace]
members = ["pkg/rapidurl-cli-$version"]
EOF
touch "$work/deps/src/lib.rs"
# The packaged tool's Cargo.lock: the versions it was published with, all downloaded.
cp "$pkg/rapidurl-cli-$version/Cargo.lock" "$work/deps/Cargo.lock"
vendor="$work/vendor"
echo "== cargo vendor (offline, from cargo's download cache)"
(cd "$work/deps" && cargo vendor --offline --quiet "$vendor" >/dev/null) \
    || fail "cargo vendor failed: a dependency is missing from cargo's cache (build the workspace first)"
for crate in rapidurl rapidurl-cli; do
    cp -r "$pkg/$crate-$version" "$vendor/$crate"
    printf '{"files":{},"package":"%s"}' "$(sha256sum "$crates/$crate-$version.crate" | cut -d' ' -f1)" \
        >"$vendor/$crate/.cargo-checksum.json"
done
chmod -R a-w "$vendor"
vendor_sum() { (cd "$vendor" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum); }
before=$(vendor_sum)

mkdir -p "$work/cargo-home"
# cargo, offline, with an empty CARGO_HOME and the vendor directory replacing crates.io.
offline_cargo() {
    CARGO_HOME="$work/cargo-home" cargo "$1" --offline \
        --config 'source.crates-io.replace-with="vendored"' \
        --config "source.vendored.directory='$vendor'" "${@:2}"
}

echo "== a fresh project on rapidurl $version (every feature), built offline"
app="$work/app"
mkdir -p "$app/src"
cat >"$app/Cargo.toml" <<EOF
[package]
name = "app"
version = "0.0.0"
edition = "2021"

[dependencies]
rapidurl = { version = "=$version", features = ["serde"] }

[workspace]
EOF
cat >"$app/src/main.rs" <<'EOF'
fn main() {
    let url = rapidurl::Url::parse("HTTPS://www.Example.co.uk:443/a/../b?x=1").unwrap();
    assert_eq!(url.href(), "https://www.example.co.uk/b?x=1");
    assert_eq!(url.registrable_domain(), Some("example.co.uk"));
    let column = rapidurl::batch::parse_column(&["https://a.example/x", "nope"], None);
    assert_eq!(column.len(), 2);
    assert!(column.is_valid(0) && !column.is_valid(1));
    println!("app: {} {}", url.href(), rapidurl::psl::BUILTIN_LIST_VERSION);
}
EOF
(cd "$app" && offline_cargo build --quiet 2>"$work/build.log") || fail "the app did not build"
out=$("$CARGO_TARGET_DIR/debug/app") || fail "the app failed"
psl=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$vendor"/psl/Cargo.toml | head -1)
[ "$out" = "app: https://www.example.co.uk/b?x=1 $psl" ] || fail "the app printed '$out'"
echo "ok: $out"
passed=$((passed + 1))

echo "== cargo install --locked rapidurl-cli $version, offline"
(offline_cargo install --locked --debug --quiet --root "$work/install" "rapidurl-cli@$version" 2>"$work/build.log") \
    || fail "cargo install rapidurl-cli failed"
tool="$work/install/bin/rapidurl"
[ "$("$tool" --version)" = "rapidurl $version" ] || fail "rapidurl --version printed '$("$tool" --version)'"
out=$(printf 'https://www.Example.co.uk/a\nnope\n' | "$tool" parse --fields registrable_domain 2>/dev/null) && status=0 || status=$?
want=$(printf 'registrable_domain\terror\nexample.co.uk\t\n\tmissing-scheme-non-relative-URL at byte 0: the input has no scheme and there is no usable base URL')
[ "$status" = 0 ] && [ "$out" = "$want" ] || fail "rapidurl parse exited $status and printed: $out"
echo "ok: $("$tool" --version), and it parses"
passed=$((passed + 1))

[ "$(vendor_sum)" = "$before" ] || fail "a build wrote into the vendor directory"
echo "ok: the vendor directory is as it was"
passed=$((passed + 1))
echo "crates-offline: $passed passed, 0 failed"
