#!/usr/bin/env python3
"""Reads criterion's results (target/criterion) for the `parse` benches and prints a
Markdown table of median ns/URL, MB/s and ratios against ada-url and url; with --plot PATH,
also writes a PNG bar chart (needs matplotlib: `pip install matplotlib`).

    cargo bench --bench parse
    python3 scripts/bench_table.py --plot docs/performance.png
"""
import argparse
import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CRITERION = os.path.join(ROOT, "target", "criterion")

FUNCS = [
    ("rapidurl::parse_ref", "rapidurl parse_ref"),
    ("rapidurl::Url::parse", "rapidurl Url::parse"),
    ("rapidurl::can_parse", "rapidurl can_parse"),
    ("ada_url::Url::parse", "ada Url::parse"),
    ("ada_url::Url::can_parse", "ada can_parse"),
    ("url::Url::parse", "url Url::parse"),
]


def load(group, func):
    d = os.path.join(CRITERION, group.replace("/", "_"), func.replace("::", "__").replace(" ", "_"))
    try:
        with open(os.path.join(d, "new", "estimates.json")) as f:
            est = json.load(f)
        with open(os.path.join(d, "new", "benchmark.json")) as f:
            bench = json.load(f)
    except OSError:
        return None
    ns = est["median"]["point_estimate"]  # per iteration (one whole corpus)
    nbytes = bench["throughput"]["Bytes"]
    return ns, nbytes


def count_lines(corpus):
    for d in (os.environ.get("RAPIDURL_CORPORA_DIR"), os.path.join(ROOT, "..", "shared", "corpora"),
              os.path.join(ROOT, "corpora")):
        if d and os.path.isfile(os.path.join(d, corpus + ".txt")):
            with open(os.path.join(d, corpus + ".txt"), "rb") as f:
                return sum(1 for _ in f.read().decode("utf-8", "replace").splitlines())
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plot")
    args = ap.parse_args()
    groups = sorted(g[len("parse_"):] for g in os.listdir(CRITERION) if g.startswith("parse_"))
    rows = {}
    print("| corpus | function | ns/URL | MB/s | vs ada parse | vs ada can_parse | vs url |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for corpus in groups:
        n = count_lines(corpus)
        res = {f: load("parse/" + corpus, f) for f, _ in FUNCS}
        if not n or not res["ada_url::Url::parse"]:
            continue
        rows[corpus] = {}
        for f, label in FUNCS:
            if not res[f]:
                continue
            ns, nbytes = res[f]
            mbs = nbytes / ns * 1e3  # bytes/ns = GB/s; *1e3 = MB/s
            rows[corpus][label] = mbs
            def ratio(other):
                o = res[other]
                return "%.2f" % (o[0] / ns) if o else "—"
            vs_ada = ratio("ada_url::Url::parse") if "can_parse" not in f else "—"
            vs_can = ratio("ada_url::Url::can_parse") if "can_parse" in f else "—"
            vs_url = ratio("url::Url::parse") if "can_parse" not in f else "—"
            print(f"| {corpus} | {label} | {ns / n:.0f} | {mbs:.0f} | {vs_ada} | {vs_can} | {vs_url} |")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        corpora = list(rows)
        labels = [l for _, l in FUNCS]
        width = 0.8 / len(labels)
        fig, ax = plt.subplots(figsize=(11, 5))
        for i, label in enumerate(labels):
            ys = [rows[c].get(label, 0) for c in corpora]
            ax.bar([x + i * width for x in range(len(corpora))], ys, width, label=label)
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(corpora))])
        ax.set_xticklabels(corpora)
        ax.set_ylabel("MB/s (median, single thread)")
        ax.set_title("URL parsing throughput, one criterion run")
        ax.legend(fontsize=8, ncol=3)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
        print(f"wrote {args.plot}", file=sys.stderr)


if __name__ == "__main__":
    main()
