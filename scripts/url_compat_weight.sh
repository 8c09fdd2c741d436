#!/usr/bin/env bash
# The weight of the `url` drop-in (compat/url) against the real `url` 2.5.8: a clean
# release build of a small application, and the packages its Cargo.lock resolves.
#
# Two copies of one application that depends on `url = "2"` are made in a temporary
# folder: `plain`, on the real crate (locked at 2.5.8), and `patched`, with
#   [patch.crates-io] url = { path = "<this checkout>/compat/url" }
# Each resolves its own Cargo.lock and fetches its sources first (not timed). Then, for
# each round, both are built in turn (`cargo build --release`) into a fresh, empty target
# folder of their own; the script prints the median wall and CPU (user + system) time of
# the rounds, their ratio, the number of packages in each Cargo.lock and of those compiled
# (`cargo tree`), and the packages only one lock has.
#
#   scripts/url_compat_weight.sh [--rounds N] [--keep]
#
# --rounds N  clean builds of each application (default 3), alternating
# --keep      leave the temporary folder (its path is printed)
#
# Builds use the machine's cores as cargo does by default; on a shared machine, read the
# CPU times beside the wall times.
set -euo pipefail

rounds=3
keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
compat="$root/compat/url"
[ -f "$compat/Cargo.toml" ] || { echo "no $compat/Cargo.toml" >&2; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/url_compat_weight.XXXXXX")"
if [ "$keep" = 0 ]; then trap 'rm -rf "$work"' EXIT; else echo "folder: $work"; fi
# The applications' own target folders, not the caller's.
unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR

make_app() {
    local dir="$1"
    mkdir -p "$dir/src"
    cat > "$dir/Cargo.toml" <<'EOF'
[package]
name = "url-weight-app"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
url = "2"

# Not a member of any enclosing workspace.
[workspace]
EOF
    cat > "$dir/src/main.rs" <<'EOF'
//! A small user of `url`: parse, join, read the query, change it, print.
use url::Url;

fn main() {
    let base = Url::parse("https://example.com/docs/guide/index.html?lang=en").unwrap();
    for arg in std::env::args().skip(1) {
        match base.join(&arg) {
            Ok(mut url) => {
                let pairs: Vec<(String, String)> = url.query_pairs().into_owned().collect();
                url.set_query(Some("page=2"));
                url.query_pairs_mut().append_pair("q", "a b");
                println!("{url} host={:?} pairs={pairs:?}", url.host_str());
            }
            Err(e) => println!("{arg}: {e}"),
        }
    }
}
EOF
}

make_app "$work/plain"
make_app "$work/patched"
cat >> "$work/patched/Cargo.toml" <<EOF

[patch.crates-io]
url = { path = "$compat" }
EOF

# Resolve and download (not timed).
(cd "$work/plain" && cargo generate-lockfile -q && cargo update -q -p url --precise 2.5.8 && cargo fetch -q)
(cd "$work/patched" && cargo generate-lockfile 2>"$work/patched.resolve" && cargo fetch -q)
if grep -qi "patch.*was not used" "$work/patched.resolve"; then
    cat "$work/patched.resolve" >&2
    echo "the patch was not used" >&2
    exit 1
fi
# The patched lock's `url` is the path package (no `source` line after its version).
if ! awk '/^name = "url"$/ { getline v; getline s; if (v ~ /"2\.5\.8"/ && s !~ /^source/) found=1 } END { exit !found }' "$work/patched/Cargo.lock"; then
    echo "the patched Cargo.lock does not take url from compat/url" >&2
    exit 1
fi

packages() { grep -c '^\[\[package\]\]' "$1/Cargo.lock"; }
# The packages compiled: the lock also lists optional dependencies that no feature turns on.
built() { (cd "$1" && cargo tree -q --offline -e normal,build --prefix none) | sed 's/ (\*)$//; s/ (proc-macro)$//' | sort -u | wc -l; }
names() { awk '/^name = / { n=$3 } /^version = / { print n " " $3 }' "$1/Cargo.lock" | tr -d '"' | sort; }

# One clean build; appends "wall cpu" seconds to $dir/times.
build() {
    local dir="$1"
    rm -rf "$dir/target"
    local t
    t="$( { TIMEFORMAT='%R %U %S'; time (cd "$dir" && cargo build --release --offline -q >/dev/null 2>"$dir/build.log"); } 2>&1 )" \
        || { cat "$dir/build.log" >&2; exit 1; }
    echo "$t" | awk '{ printf "%.2f %.2f\n", $1, $2 + $3 }' >> "$dir/times"
}

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.2f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown); $(nproc) cores; $(rustc --version)"
for round in $(seq 1 "$rounds"); do
    # Alternate which goes first, so that a burst of load does not fall on one side only.
    if [ $((round % 2)) = 1 ]; then order="plain patched"; else order="patched plain"; fi
    for app in $order; do
        build "$work/$app"
        echo "round $round: $app $(tail -n1 "$work/$app/times" | awk '{ print $1 " s wall, " $2 " s CPU" }')"
    done
done

plain_wall="$(cut -d' ' -f1 "$work/plain/times" | median)"
plain_cpu="$(cut -d' ' -f2 "$work/plain/times" | median)"
patched_wall="$(cut -d' ' -f1 "$work/patched/times" | median)"
patched_cpu="$(cut -d' ' -f2 "$work/patched/times" | median)"
plain_n="$(packages "$work/plain")"
patched_n="$(packages "$work/patched")"
plain_built="$(built "$work/plain")"
patched_built="$(built "$work/patched")"

echo
echo "| application | clean \`cargo build --release\`, wall (median of $rounds) | CPU, user + system | packages in Cargo.lock | packages compiled |"
echo "| --- | ---: | ---: | ---: | ---: |"
echo "| \`url\` 2.5.8 (crates.io) | $plain_wall s | $plain_cpu s | $plain_n | $plain_built |"
echo "| \`url\` patched with compat/url | $patched_wall s | $patched_cpu s | $patched_n | $patched_built |"
echo
awk -v a="$patched_wall" -v b="$plain_wall" -v c="$patched_cpu" -v d="$plain_cpu" -v n="$patched_n" -v m="$plain_n" 'BEGIN {
    r = a / b
    printf "patched / plain: %.2fx the wall time (target <= 1.5x: %s), %.2fx the CPU time; %+d packages (target <= +10: %s)\n",
        r, (r <= 1.5 ? "met" : "missed"), c / d, n - m, (n - m <= 10 ? "met" : "missed")
}'
echo "only in the patched lock: $(comm -13 <(names "$work/plain") <(names "$work/patched") | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
echo "only in the plain lock: $(comm -23 <(names "$work/plain") <(names "$work/patched") | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
