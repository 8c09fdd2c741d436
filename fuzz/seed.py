#!/usr/bin/env python3
"""Builds the seed corpora fuzz/corpus/<target>/ (git-ignored) from the
web-platform-tests URL data and the benchmark corpora.

    python3 fuzz/seed.py [TARGET ...]      # default: every target

Where the data is: $RAPIDURL_WPT_DIR (else ../shared/wpt next to the repository) and
$RAPIDURL_CORPORA_DIR (else ../shared/corpora), as for `cargo test`.

Seeds are named by the SHA-1 of their content, as libFuzzer names the inputs it adds,
so running this twice (or after a fuzzing run) adds nothing twice. From each benchmark
corpus a fixed-stride sample is taken (at most PER_CORPUS lines): tens of thousands of
near-identical log lines cost start-up time and add little coverage.
"""

import hashlib
import json
import os
import sys
from pathlib import Path

FUZZ = Path(__file__).resolve().parent
REPO = FUZZ.parent
WPT = Path(os.environ.get("RAPIDURL_WPT_DIR", REPO.parent / "shared" / "wpt"))
CORPORA = Path(os.environ.get("RAPIDURL_CORPORA_DIR", REPO.parent / "shared" / "corpora"))
PER_CORPUS = 1500

TARGETS = [
    "parse",
    "parse_with_base",
    "setters",
    "search_params",
    "differential",
    "fast_vs_slow",
    "batch_vs_single",
    "psl",
    "canon",
    "validation",
    "render",
    "parse_hostname",
    "readers",
    "warc",
    "python",
    "pattern_parse",
    "pattern_exec",
    "pattern_set",
    "regexp_diff",
    "duckdb",
    "polars",
    "url_compat",
]


def pattern_inputs():
    """The pattern strings and component patterns of urlpatterntestdata.json."""
    data = load("urlpatterntestdata.json") or []
    out = []
    for case in data:
        if not isinstance(case, dict):
            continue
        for arg in case.get("pattern", []) + case.get("inputs", []):
            if isinstance(arg, str):
                out.append(arg)
            elif isinstance(arg, dict):
                out.extend(v for v in arg.values() if isinstance(v, str))
    return out


def load(name):
    path = WPT / name
    if not path.is_file():
        print(f"seed.py: {path} not found, skipped", file=sys.stderr)
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def url_inputs():
    """Every URL-ish string of the WPT data: inputs, bases, hrefs, setter values."""
    out, pairs = [], []
    data = load("urltestdata.json") or []
    for case in data:
        if not isinstance(case, dict):
            continue
        for key in ("input", "base", "href"):
            if isinstance(case.get(key), str):
                out.append(case[key])
        if isinstance(case.get("base"), str):
            pairs.append((case["base"], case["input"]))
    setters = load("setters_tests.json") or {}
    for key, cases in setters.items():
        if key == "comment":
            continue
        for case in cases:
            out.append(case["href"])
            out.append(case["new_value"])
    for case in load("toascii.json") or []:
        if isinstance(case, dict) and isinstance(case.get("input"), str):
            out.append("https://" + case["input"] + "/x")
            out.append("sc://" + case["input"] + "/x")
    for case in load("IdnaTestV2.json") or []:
        if isinstance(case, dict) and isinstance(case.get("input"), str):
            out.append("http://" + case["input"] + "/")
    return out, pairs


def corpus_lines():
    out = []
    if not CORPORA.is_dir():
        print(f"seed.py: {CORPORA} not found, skipped", file=sys.stderr)
        return out
    for path in sorted(CORPORA.glob("*.txt")):
        lines = path.read_bytes().splitlines()
        stride = max(1, len(lines) // PER_CORPUS)
        out.extend(lines[::stride][:PER_CORPUS])
    return out


def warc_inputs():
    """The records of docs/examples/crawl.warc, alone and together, with CRLF and LF
    lines, each followed by the target's three parameter bytes."""
    path = REPO / "docs" / "examples" / "crawl.warc"
    if not path.is_file():
        print(f"seed.py: {path} not found, skipped", file=sys.stderr)
        return []
    whole = path.read_bytes()
    starts = [i for i in range(len(whole)) if whole.startswith(b"WARC/1.1\r\n", i)]
    records = [whole[a:b] for a, b in zip(starts, starts[1:] + [len(whole)])]
    files = records + [whole] + [records[i] + records[i + 1] for i in range(len(records) - 1)]
    params = [b"\x00\xff\xff", b"\x03\x00\x80", b"\xff\x40\xc0"]
    return [f + p for f in files for p in params]


def form_inputs():
    out = []
    for case in load("urlencoded-parser-data.json") or []:
        if isinstance(case, dict) and isinstance(case.get("input"), str):
            out.append(case["input"])
    return out


def write(target, seeds):
    directory = FUZZ / "corpus" / target
    directory.mkdir(parents=True, exist_ok=True)
    added = 0
    for seed in seeds:
        data = seed if isinstance(seed, bytes) else seed.encode("utf-8", "surrogatepass")
        path = directory / hashlib.sha1(data).hexdigest()
        if not path.exists():
            path.write_bytes(data)
            added += 1
    total = sum(1 for _ in directory.iterdir())
    print(f"{target}: {added} seeds added, {total} in {directory.relative_to(REPO)}")


def main():
    targets = sys.argv[1:] or TARGETS
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        sys.exit(f"seed.py: unknown target(s) {unknown}; known: {TARGETS}")
    urls, pairs = url_inputs()
    lines = corpus_lines()
    forms = form_inputs()
    queries = [u.split("?", 1)[1] for u in urls if "?" in u]
    for target in targets:
        if target in ("parse_with_base", "validation", "parse_hostname"):
            # `base \n input`, and the bare inputs (against the target's fixed base).
            seeds = [f"{b}\n{i}" for b, i in pairs] + urls
        elif target == "search_params":
            seeds = forms + queries
        elif target == "batch_vs_single":
            # Whole files of lines, as the batch API sees them, plus single lines.
            seeds = urls + lines
            chunk = 64
            seeds += [b"\n".join(lines[i : i + chunk]) for i in range(0, len(lines), chunk)]
            seeds += ["\r\n".join(urls[i : i + chunk]) for i in range(0, len(urls), chunk)]
        elif target == "readers":
            # Structured input (`arbitrary`): whole files of lines give the raw cases
            # text to start from.
            seeds = [b"\n".join(lines[i : i + 16]) for i in range(0, len(lines), 16)]
        elif target == "warc":
            seeds = warc_inputs()
        elif target == "python":
            # The harness' first byte picks the check; URLs follow.
            seeds = [bytes([k]) + u.encode("utf-8", "surrogatepass") for k in range(6) for u in urls[::7]]
        elif target == "regexp_diff":
            # A flags byte, token indices, 0xff, then input code point indices.
            seeds = [bytes([k % 2]) + bytes((k * 7 + j) % 64 for j in range(1 + k % 12)) + b"\xff" + bytes(range(k % 9)) for k in range(64)]
        elif target.startswith("pattern_"):
            # Structured input (`arbitrary`): pattern syntax and URLs to splice in.
            seeds = pattern_inputs() + urls[:2000]
        elif target in ("duckdb", "polars"):
            # fuzz/host_fuzz.py: URLs (WPT, a sample of the corpora) and URL patterns,
            # which it mutates into rows, bases and route tables.
            seeds = urls + lines + pattern_inputs()
        elif target == "url_compat":
            # Structured input (`arbitrary`): URL text steers the first field; bases and
            # setter values are spliced in by the mutator.
            seeds = urls + lines
        elif target == "setters":
            # Structured input (`arbitrary`): raw URL text still steers the first field
            # and gives the mutator setter values to splice in.
            seeds = urls
        else:
            seeds = urls + lines
        write(target, seeds)


if __name__ == "__main__":
    main()
