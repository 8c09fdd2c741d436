#!/usr/bin/env bash
# build.rs finds the `psl` crate's data/rules.txt without running cargo when rapidurl is
# built as a dependency: rapidurl is packaged as for crates.io (`cargo package`), vendored
# with its dependencies into a fresh project (`cargo vendor`'s layout, a directory source
# replacing crates.io), and built with --offline where `cargo metadata` cannot succeed:
# an empty CARGO_HOME (no registry index or cache) and the source replacement given on
# the command line, which the `cargo metadata` a build script runs does not see. (CARGO
# cannot name a refusing wrapper: cargo hands build scripts its own path.) Three builds:
#   1. vendor/psl/ beside vendor/rapidurl/: builds, and the table is that psl's;
#   2. vendor/psl-<version>/ (`cargo vendor --versioned-dirs`): the same;
#   3. vendor/psl/ without data/rules.txt: fails, naming the `cargo metadata` it tried
#      (so in 1 and 2 the table came from the sibling, not from cargo).
# Every dependency must be in cargo's download cache (a build of the workspace puts them
# there); nothing is downloaded. Takes a minute or two (one build of the parser core).
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d "${TMPDIR:-/tmp}/rapidurl-psl-offline.XXXXXX")
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$work/target"

echo "== cargo package -p rapidurl"
cargo package -p rapidurl --no-verify --allow-dirty --offline --quiet
crate=$(ls "$CARGO_TARGET_DIR"/package/rapidurl-*.crate)
version=$(basename "$crate" .crate)
version=${version#rapidurl-}
tar -xzf "$crate" -C "$work"
package="$work/rapidurl-$version"

# A project that depends on the unpacked package by path: `cargo vendor` copies its
# registry dependencies (the build-dependency psl among them), not the path one. The
# workspace's Cargo.lock gives it the versions cargo has downloaded.
mkdir -p "$work/deps/src"
cat >"$work/deps/Cargo.toml" <<EOF
[package]
name = "deps"
version = "0.0.0"
edition = "2021"

[dependencies]
rapidurl = { path = "$package", default-features = false, features = ["psl"] }

[workspace]
EOF
touch "$work/deps/src/lib.rs"
cp Cargo.lock "$work/deps/Cargo.lock"

# The fresh project: rapidurl from crates.io, which the vendor folder replaces.
app="$work/app"
mkdir -p "$app/src" "$work/cargo-home"
cat >"$app/Cargo.toml" <<EOF
[package]
name = "app"
version = "0.0.0"
edition = "2021"

[dependencies]
rapidurl = { version = "=$version", default-features = false, features = ["psl"] }

[workspace]
EOF
cat >"$app/src/main.rs" <<'EOF'
fn main() {
    let url = rapidurl::Url::parse("https://www.example.co.uk/").unwrap();
    assert_eq!(url.registrable_domain(), Some("example.co.uk"));
    println!("{}", rapidurl::psl::BUILTIN_LIST_VERSION);
}
EOF

# Vendors the dependencies into $app/vendor (cargo vendor's own arguments in "$@"), with
# rapidurl's package beside them.
vendor() {
    rm -rf "$app/vendor" "$app/Cargo.lock"
    (cd "$work/deps" && cargo vendor --offline --quiet "$@" "$app/vendor" >/dev/null)
    cp -r "$package" "$app/vendor/rapidurl"
    printf '{"files":{},"package":"%s"}' "$(sha256sum "$crate" | cut -d' ' -f1)" \
        >"$app/vendor/rapidurl/.cargo-checksum.json"
}

# Runs cargo on the app: offline, with an empty CARGO_HOME, vendor/ replacing crates.io.
app_cargo() {
    (cd "$app" && CARGO_HOME="$work/cargo-home" cargo "$1" --offline --quiet \
        --config 'source.crates-io.replace-with="vendored"' \
        --config "source.vendored.directory='$app/vendor'" "${@:2}")
}

# Builds the app, its log in $work/build.log (rapidurl's build script runs anew).
build_app() {
    app_cargo clean -p rapidurl 2>/dev/null || true
    app_cargo build 2>"$work/build.log"
}

fail() {
    echo "scripts/test-psl-offline.sh: $*" >&2
    if [ -f "$work/build.log" ]; then
        tail -20 "$work/build.log" >&2
    fi
    exit 1
}

for layout in plain versioned; do
    if [ "$layout" = plain ]; then
        vendor
        psl_dir="$app/vendor/psl"
    else
        vendor --versioned-dirs
        psl_dir=$(ls -d "$app"/vendor/psl-2.*)
    fi
    echo "== vendor/$(basename "$psl_dir")/: cargo build --offline, cargo metadata cannot succeed"
    [ -f "$psl_dir/data/rules.txt" ] || fail "no $psl_dir/data/rules.txt"
    build_app || fail "the build failed"
    built=$("$CARGO_TARGET_DIR/debug/app")
    want=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$psl_dir/Cargo.toml" | head -1)
    [ "$built" = "$want" ] || fail "the table is psl $built, the vendored psl is $want"
    echo "ok: the table of psl $built"
done

echo "== vendor/psl/ without data/rules.txt: the build fails, naming cargo metadata"
vendor
rm "$app/vendor/psl/data/rules.txt"
# Its checksum goes too, or cargo would refuse the package before build.rs runs.
python3 - "$app/vendor/psl/.cargo-checksum.json" <<'EOF'
import json, sys
path = sys.argv[1]
sums = json.load(open(path))
del sums["files"]["data/rules.txt"]
json.dump(sums, open(path, "w"))
EOF
if build_app; then
    fail "the build succeeded without the rules"
fi
grep -q "vendor/psl/data/rules.txt: No such file" "$work/build.log" \
    || fail "the failure does not name the sibling it read"
grep -q "cargo metadata on .*psl-probe/Cargo.toml: error" "$work/build.log" \
    || fail "the failure does not name a failed cargo metadata"
echo "ok: failed, after cargo metadata failed too"
echo "psl-offline: 3 passed, 0 failed"
