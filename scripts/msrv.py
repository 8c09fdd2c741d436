#!/usr/bin/env python3
"""Finds the workspace's minimum Rust version and checks that the repository says it.

The minimum is the highest `rust-version` among the packages Cargo.lock builds: every
package of `cargo metadata --locked --format-version 1` but the workspace's own members
(whose `rust-version` is the claim being checked, not evidence). The script prints it,
with the packages that declare it, then checks:

- the `rust-version` of every workspace member (Cargo.toml, or the workspace's
  `[workspace.package]` it inherits) is that version;
- every "Rust X.Y" in README.md and python/README.md ("Rust 1.88 or newer", "Rust
  1.88+") is that version, and each file says it at least once.

Exit status 0 when all agree, 1 when something disagrees (each disagreement on stderr,
with its file), 2 when `cargo metadata` fails.

    python3 scripts/msrv.py
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
READMES = ["README.md", os.path.join("python", "README.md")]
# "Rust 1.88", "Rust 1.88+", "Rust 1.88 or newer".
MENTIONS = [re.compile(r"\bRust (\d+\.\d+(?:\.\d+)?)")]


def version(text):
    """`"1.88"` or `"1.88.0"` as a comparable (1, 88, 0)."""
    parts = [int(p) for p in text.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


def shown(v):
    """(1, 88, 0) as "1.88"; a non-zero patch is kept."""
    return f"{v[0]}.{v[1]}" + (f".{v[2]}" if v[2] else "")


def metadata():
    try:
        out = subprocess.run(
            ["cargo", "metadata", "--locked", "--format-version", "1"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        )
    except (OSError, subprocess.CalledProcessError) as e:
        detail = getattr(e, "stderr", None) or str(e)
        sys.exit(f"scripts/msrv.py: cargo metadata --locked failed: {detail.strip()}")
    return json.loads(out.stdout)


def main():
    meta = metadata()
    members = set(meta["workspace_members"])
    deps = [p for p in meta["packages"] if p["id"] not in members and p.get("rust_version")]
    if not deps:
        print("scripts/msrv.py: no package of the lock file declares a rust-version", file=sys.stderr)
        return 2
    minimum = max(version(p["rust_version"]) for p in deps)
    why = sorted(f"{p['name']} {p['version']}" for p in deps if version(p["rust_version"]) == minimum)
    print(f"minimum Rust: {shown(minimum)} (the highest rust-version of the {len(deps)} "
          f"packages Cargo.lock builds that declare one: {', '.join(why)})")

    problems = []
    for p in sorted(meta["packages"], key=lambda p: p["name"]):
        if p["id"] not in members:
            continue
        manifest = os.path.relpath(p["manifest_path"], ROOT)
        declared = p.get("rust_version")
        if declared is None:
            problems.append(f"{manifest}: {p['name']} declares no rust-version (needs {shown(minimum)})")
        elif version(declared) != minimum:
            problems.append(f"{manifest}: {p['name']} declares rust-version {declared}, "
                            f"the lock file needs {shown(minimum)}")
        else:
            print(f"{manifest}: rust-version {declared}")

    for readme in READMES:
        with open(os.path.join(ROOT, readme), encoding="utf-8") as f:
            lines = f.read().splitlines()
        found = 0
        for number, line in enumerate(lines, 1):
            for pattern in MENTIONS:
                for match in pattern.finditer(line):
                    found += 1
                    if version(match.group(1)) != minimum:
                        problems.append(f"{readme}:{number}: says {match.group(0)!r}, "
                                        f"the lock file needs Rust {shown(minimum)}")
        if found == 0:
            problems.append(f"{readme}: names no minimum Rust version (expected Rust {shown(minimum)})")
        else:
            print(f"{readme}: {found} mention(s) of the minimum Rust version")

    for problem in problems:
        print(f"scripts/msrv.py: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
