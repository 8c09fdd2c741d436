#!/usr/bin/env bash
# Real dependents of the `url` crate, judged by their own test suites with and without
# the drop-in (compat/url, docs/url-compat.md).
#
#   scripts/url_compat_dependents.sh [NAME ...]
#
# For each crate (all of the list below by default), its published package is fetched
# from crates.io into a scratch folder (the package as cargo downloads it: never kept in
# this repository), made a workspace of its own, resolved fresh with `url` at 2.5.8, and
# tested twice: on the real `url` 2.5.8, then with
#   [patch.crates-io] url = { path = "<this checkout>/compat/url" }
# (`cargo tree -i url` must then start with the drop-in). The script prints each run's
# passed / failed / ignored counts, and every test that passes on the real crate and
# fails on the drop-in; it exits 1 if there is one. It needs the network to crates.io
# and takes about 20 minutes on 2 cores. Not run by CI.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
work="${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/url_compat_dependents.XXXXXX")}"
echo "scratch folder: $work"

# name version | cargo test arguments | lines appended to the manifest (\n escapes)
crates=(
    "urlpattern 0.6.0||"
    "cookie_store 0.22.1|--all-features|"
    "pep508_rs 0.9.2|--all-features|"
    "git-url-parse 0.6.0|--all-features|"
    "texting_robots 0.2.2||"
    "sentry-types 0.49.5|--all-features|[dev-dependencies.rstest]\nversion = \"0.26\"\n"
    "ammonia 4.2.5||"
    "oauth2 5.0.0|--no-default-features --features pkce-plain --lib|"
)
if [ $# -gt 0 ]; then
    wanted=" $* "
    selected=()
    for entry in "${crates[@]}"; do
        name=${entry%% *}
        [[ $wanted == *" $name "* ]] && selected+=("$entry")
    done
    crates=("${selected[@]}")
fi

# `cargo test`'s result lines summed: "passed failed ignored".
counts() {
    grep -E '^test result:' "$1" | awk '{ p += $4; f += $6; i += $8 } END { print p + 0, f + 0, i + 0 }'
}
passed_tests() {
    grep -E '^test .* \.\.\. ok$' "$1" | sed -E 's/^test (.*) \.\.\. ok$/\1/' | sort -u
}
failed_tests() {
    grep -E '^test .* \.\.\. FAILED$' "$1" | sed -E 's/^test (.*) \.\.\. FAILED$/\1/' | sort -u
}

regressions=0
printf '%-24s %-22s %-22s %s\n' crate "url 2.5.8 (p f i)" "drop-in (p f i)" "passes only on url 2.5.8"
for entry in "${crates[@]}"; do
    IFS='|' read -r nv args extra <<<"$entry"
    name=${nv% *}
    version=${nv#* }
    dir="$work/$name"
    rm -rf "$dir"
    mkdir -p "$dir"
    # The package as cargo downloads it: a throw-away project depending on it, fetched.
    fetcher="$work/fetch-$name"
    mkdir -p "$fetcher/src"
    printf '[package]\nname = "fetch"\nversion = "0.0.0"\nedition = "2021"\n[dependencies]\n%s = "=%s"\n[workspace]\n' \
        "$name" "$version" >"$fetcher/Cargo.toml"
    : >"$fetcher/src/lib.rs"
    (cd "$fetcher" && cargo fetch -q)
    source_dir=$(cd "$fetcher" && cargo metadata --format-version 1 \
        | python3 -c "import json,sys; m=json.load(sys.stdin); print(next(p['manifest_path'] for p in m['packages'] if p['name']=='$name' and p['version']=='$version').rsplit('/',1)[0])")
    cp -r "$source_dir/." "$dir"
    chmod -R u+w "$dir"
    rm -f "$dir/Cargo.lock" "$dir/rust-toolchain.toml" "$dir/rust-toolchain"
    [ -n "$extra" ] && printf "$extra" >>"$dir/Cargo.toml"
    printf '\n[workspace]\n' >>"$dir/Cargo.toml"
    export CARGO_TARGET_DIR="$work/target-$name"
    (
        cd "$dir"
        cargo generate-lockfile -q
        cargo update -q -p url --precise 2.5.8
        # shellcheck disable=SC2086
        cargo test --no-fail-fast $args >"$work/$name.url.log" 2>&1 || true
        printf '\n[patch.crates-io]\nurl = { path = "%s" }\n' "$root/compat/url" >>Cargo.toml
        cargo update -q -p url
        first=$(cargo tree -i url -e normal,dev | head -1)
        if [ "$first" != "url v2.5.8 ($root/compat/url)" ]; then
            echo "$name: the patch did not take: $first" >&2
            exit 1
        fi
        # shellcheck disable=SC2086
        cargo test --no-fail-fast $args >"$work/$name.dropin.log" 2>&1 || true
    )
    only=$(comm -12 <(passed_tests "$work/$name.url.log") <(failed_tests "$work/$name.dropin.log") | tr '\n' ' ')
    [ -n "$only" ] && regressions=1
    printf '%-24s %-22s %-22s %s\n' "$name $version" "$(counts "$work/$name.url.log")" \
        "$(counts "$work/$name.dropin.log")" "${only:-none}"
done
exit "$regressions"
