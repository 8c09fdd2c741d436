#!/usr/bin/env bash
# Builds the DuckDB extension: target/release/rapidurl.duckdb_extension (the crate's
# cdylib with DuckDB's metadata footer appended: ABI C_STRUCT, C API v1.2.0, so one file
# loads into every DuckDB release from 1.2 on). Run from anywhere; prints the path.
#
#   duckdb/scripts/build.sh                                  # the file alone
#   duckdb/scripts/build.sh --repository DIR                 # and a local extension repository
#   duckdb/scripts/build.sh --repository DIR --release 2.0.2 # ... for more releases
#
# With --repository, the file (and the .gz DuckDB fetches first) is laid out as
# DIR/v<release>/<platform>/rapidurl.duckdb_extension for every release of
# duckdb/releases.txt (and each --release), so that a DuckDB started with unsigned
# extensions allowed installs it by name:
#   INSTALL rapidurl FROM 'DIR'; LOAD rapidurl;
# (or SET custom_extension_repository = 'DIR'; INSTALL rapidurl; LOAD rapidurl;).
# Without a repository: LOAD '<path>'; in a CLI started with `duckdb -unsigned`, or from
# Python after duckdb.connect(config={"allow_unsigned_extensions": "true"}). Unsigned
# extensions must be allowed when the database is opened; a SET afterwards is refused.
set -euo pipefail
repository=""
releases=()
while [ $# -gt 0 ]; do
    case "$1" in
        --repository) repository="${2:?--repository needs a directory}"; shift 2 ;;
        --release) releases+=("${2:?--release needs a DuckDB release such as 2.0.2}"); shift 2 ;;
        *) echo "build.sh: unknown argument '$1' (see the comment at the top of $0)" >&2; exit 2 ;;
    esac
done
# A relative repository is relative to where the script was started.
if [ -n "$repository" ]; then
    mkdir -p "$repository"
    repository="$(cd "$repository" && pwd)"
fi
cd "$(dirname "$0")/../.."
cargo build --locked --release -p rapidurl-duckdb >&2
target_dir="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
extension="$target_dir/release/rapidurl.duckdb_extension"
python3 duckdb/scripts/append_metadata.py "$target_dir/release/librapidurl_duckdb.so" "$extension"
if [ -n "$repository" ]; then
    platform="$(python3 -c 'import sys; sys.path.insert(0, "duckdb/scripts"); import append_metadata; print(append_metadata.default_platform())')"
    while read -r release; do
        releases+=("$release")
    done < <(grep -v '^#' duckdb/releases.txt | grep .)
    for release in "${releases[@]}"; do
        dir="$repository/v${release#v}/$platform"
        mkdir -p "$dir"
        cp "$extension" "$dir/rapidurl.duckdb_extension"
        gzip -n -c "$extension" >"$dir/rapidurl.duckdb_extension.gz"
        echo "build.sh: $dir/rapidurl.duckdb_extension(.gz)" >&2
    done
fi
echo "$extension"
