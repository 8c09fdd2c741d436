#!/usr/bin/env python3
"""Appends DuckDB's extension metadata footer to a shared library.

DuckDB reads the last 534 bytes of a `.duckdb_extension` file before it opens it: a
WebAssembly custom section named `duckdb_signature` (so that Wasm builds stay valid) whose
payload is eight 32-byte NUL-padded ASCII fields, written last field first, then a
256-byte signature (zeros here: the file is unsigned, loaded with
`allow_unsigned_extensions`):

    field 1  metadata format version: "4"
    field 2  platform, e.g. "linux_amd64" (`PRAGMA platform`)
    field 3  for ABI "C_STRUCT": the C API version the extension was built against, which
             DuckDB must have (it refuses an older DuckDB with its own message); for
             "C_STRUCT_UNSTABLE" or "CPP": the exact DuckDB version
    field 4  the extension's version
    field 5  the ABI type: "C_STRUCT", "C_STRUCT_UNSTABLE" or "CPP"
    fields 6-8  empty

Usage: append_metadata.py LIBRARY OUTPUT [--platform P] [--abi-type T]
       [--duckdb-version V] [--extension-version V]
The library is copied to OUTPUT with the footer appended; LIBRARY is left alone.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import sys

FOOTER_LEN = 534


def field(value: str) -> bytes:
    data = value.encode("ascii")
    if len(data) > 32:
        sys.exit(f"append_metadata.py: field {value!r} is longer than 32 bytes")
    return data.ljust(32, b"\0")


def footer(platform_name: str, duckdb_version: str, extension_version: str, abi_type: str) -> bytes:
    # Custom section (id 0); its size, 531 = 1 + 16 + 2 + 8 * 32 + 256, in LEB128; the
    # name's length (16) and the name; then the payload's size, 512, in LEB128.
    out = b"\x00" + b"\x93\x04" + bytes([16]) + b"duckdb_signature" + b"\x80\x04"
    for value in ["", "", "", abi_type, extension_version, duckdb_version, platform_name, "4"]:
        out += field(value)
    out += b"\0" * 256
    assert len(out) == FOOTER_LEN, len(out)
    return out


def default_platform() -> str:
    machine = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(
        platform.machine().lower(), platform.machine().lower()
    )
    system = {"Linux": "linux", "Darwin": "osx", "Windows": "windows"}.get(platform.system(), "")
    return f"{system}_{machine}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("library")
    ap.add_argument("output")
    ap.add_argument("--platform", default=default_platform())
    # rapidurl's extension is built on DuckDB's stable C API (duckdb/src/lib.rs's
    # C_API_VERSION): ABI C_STRUCT, and the C API version it needs, which every DuckDB
    # release with that API or a later one loads.
    ap.add_argument("--abi-type", default="C_STRUCT", choices=["C_STRUCT", "C_STRUCT_UNSTABLE"])
    ap.add_argument("--duckdb-version", default="v1.2.0",
                    help="C_STRUCT: the C API version (default v1.2.0); else the exact DuckDB version")
    ap.add_argument("--extension-version", default="v0.1.0")
    args = ap.parse_args()
    shutil.copyfile(args.library, args.output)
    with open(args.output, "ab") as f:
        f.write(footer(args.platform, args.duckdb_version, args.extension_version, args.abi_type))


if __name__ == "__main__":
    main()
