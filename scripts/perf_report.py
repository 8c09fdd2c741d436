#!/usr/bin/env python3
"""Regenerates the tables of docs/performance.md: runs the benches (or reads their saved
results) and rewrites each section between its markers, `<!-- perf:NAME -->` and
`<!-- /perf:NAME -->`. Every figure in those sections comes from this script.

    python3 scripts/perf_report.py                       # every section (long: ~30 min)
    python3 scripts/perf_report.py --only bulk,python    # some sections
    python3 scripts/perf_report.py --only parse --saved  # criterion's saved results only
    python3 scripts/perf_report.py --list                # the sections and their commands
    python3 scripts/perf_report.py --plot parse.png      # criterion's parse results as a chart

Sections and what they run:

    machine       CPU, cores, memory, rustc, load average (no bench)
    parse         cargo bench --bench parse (criterion, rapidurl against ada-url and url):
                  the per-corpus and relative-link tables, from target/criterion/*/new/
    instructions  scripts/instructions.sh (iai-callgrind; needs valgrind), instructions
                  per URL against ada and url
    bulk          scripts/bulk_table.py (`rapidurl bench` and the whole tool, timed)
    python        python/bench/bench.py (needs the package and python/requirements-bench.txt
                  in .venv, or --python)
    canon         cargo bench --bench canon, then python/bench/bench.py --canon
    pattern       cargo bench --bench pattern (its own harness prints the tables)
    psl           cargo bench --bench psl_beside (its own harness)
    adversarial   cargo bench --bench adversarial: time per byte on hostile inputs, 10 KB to
                  10 MB (its table goes to docs/robustness.md)

Benches run under `nice -n 10`. Criterion figures are medians; every ratio compares
figures of the same run. The load average at the start of each section is written next to
its table, since the machine may be shared.
"""
import argparse
import json
import os
import platform
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DOC = os.path.join(ROOT, "docs", "performance.md")
ROBUSTNESS = os.path.join(ROOT, "docs", "robustness.md")
# Where cargo writes: $CARGO_TARGET_DIR when set, as for cargo itself.
CRITERION = os.path.join(os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target"), "criterion")
SHARED = os.path.join(ROOT, "..", "shared", "corpora")
NICE = ["nice", "-n", "10"]
CRITERION_ARGS = ["--", "--warm-up-time", "1", "--measurement-time", "3"]


def run(cmd, **kw):
    """Runs a command from the repository root; returns its stdout (stderr passes through)."""
    print("+ " + " ".join(cmd), file=sys.stderr)
    return subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True, **kw).stdout


def load_note():
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def bench_note(args, bench):
    """The load when a criterion bench starts (kept beside its results, for `--saved`)."""
    path = os.path.join(CRITERION, f"perf_report_{bench}_load.txt")
    if args.saved:
        try:
            with open(path) as f:
                return f.read().strip() + "; read back by `--saved`"
        except OSError:
            return "criterion's saved results, read back by `--saved`"
    note = load_note() + " at the start"
    os.makedirs(CRITERION, exist_ok=True)
    with open(path, "w") as f:
        f.write(note + "\n")
    return note


# ---- machine ------------------------------------------------------------------------------

def section_machine(args):
    cpu = "unknown CPU"
    flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            info = f.read()
        m = re.search(r"^model name\s*:\s*(.+)$", info, re.M)
        cpu = m.group(1).strip() if m else cpu
        flags = "AVX2" if re.search(r"\bavx2\b", info) else ("SSE2" if " sse2" in info else "")
    except OSError:
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            kb = int(re.search(r"MemTotal:\s*(\d+)", f.read()).group(1))
        mem = f", {kb / 2**20:.0f} GiB"
    except (OSError, AttributeError):
        pass
    rustc = run(["rustc", "--version"]).strip()
    return (f"- CPU: {cpu}, {os.cpu_count()} cores{mem}; SIMD kernel used: "
            f"{flags or 'scalar'}; {platform.system()} {platform.machine()}\n"
            f"- {rustc}; release profile (`cargo bench`, `cargo build --release`)\n"
            f"- shared with other work: each section below names the load average at its "
            f"start; absolute times are noisy, and the ratios (two figures of one run) are "
            f"what to read\n")


# ---- parse (criterion) --------------------------------------------------------------------

PARSE_FUNCS = [
    ("rapidurl::parse_ref", "rapidurl `parse_ref`"),
    ("rapidurl::Url::parse", "rapidurl `Url::parse`"),
    ("rapidurl::can_parse", "rapidurl `can_parse`"),
    ("ada_url::Url::parse", "ada `Url::parse`"),
    ("ada_url::Url::can_parse", "ada `can_parse`"),
    ("url::Url::parse", "url `Url::parse`"),
]


def criterion_dir(group, func):
    def safe(s):  # criterion's make_filename_safe (Unix): these characters become `_`
        return re.sub(r'[?"/\\*<>:|^]', "_", s).encode()[:64].decode("utf-8", "ignore")
    return os.path.join(CRITERION, safe(group), safe(func))


def criterion_median(group, func):
    """(median ns per iteration, throughput bytes or elements) from criterion's files."""
    d = criterion_dir(group, func)
    try:
        with open(os.path.join(d, "new", "estimates.json")) as f:
            est = json.load(f)
        with open(os.path.join(d, "new", "benchmark.json")) as f:
            bench = json.load(f)
    except OSError:
        return None
    tp = bench.get("throughput") or {}
    return est["median"]["point_estimate"], tp.get("Bytes") or tp.get("Elements")


def corpus_lines(name):
    for d in (os.environ.get("RAPIDURL_CORPORA_DIR"), SHARED, os.path.join(ROOT, "corpora")):
        path = os.path.join(d, name + ".txt") if d else None
        if path and os.path.isfile(path):
            with open(path, "rb") as f:
                return len(f.read().decode("utf-8", "replace").splitlines())
    return None


def section_parse(args):
    note = bench_note(args, "parse")
    if not args.saved:
        run(NICE + ["cargo", "bench", "--locked", "--bench", "parse"] + CRITERION_ARGS)
    groups = sorted(g[len("parse_"):] for g in os.listdir(CRITERION) if g.startswith("parse_"))
    out = [f"`cargo bench --bench parse` ({note}). Median ns per URL; "
           "MB/s of input bytes for `parse_ref`.\n",
           "| corpus | lines | " + " | ".join(label for _, label in PARSE_FUNCS) + " | `parse_ref` MB/s |",
           "| --- | ---: |" + " ---: |" * (len(PARSE_FUNCS) + 1)]
    summary = []
    for corpus in groups:
        n = corpus_lines(corpus)
        res = {f: criterion_median("parse/" + corpus, f) for f, _ in PARSE_FUNCS}
        if not n or not all(res.values()):
            continue
        ratio = lambda other, ns: f"{res[other][0] / ns:.2f}×"
        ns_ref, nbytes = res["rapidurl::parse_ref"]
        out.append(f"| {corpus} | {n:,} | " + " | ".join(f"{res[f][0] / n:.0f}" for f, _ in PARSE_FUNCS)
                   + f" | {nbytes / ns_ref * 1e3:.0f} |")
        summary.append((corpus, ratio("ada_url::Url::parse", res["rapidurl::parse_ref"][0]),
                        ratio("ada_url::Url::parse", res["rapidurl::Url::parse"][0]),
                        ratio("ada_url::Url::can_parse", res["rapidurl::can_parse"][0]),
                        ratio("url::Url::parse", res["rapidurl::Url::parse"][0])))
    rel = [("rapidurl::parse_ref_with_base (base parsed once)", "rapidurl `parse_ref_with_base`, base parsed once"),
           ("rapidurl::Url::join (base parsed once)", "rapidurl `Url::join`, base parsed once"),
           ("rapidurl (base string parsed every call)", "rapidurl, base string parsed on every call"),
           ("ada_url::Url::parse(link, Some(base))", "ada `Url::parse(link, Some(base))` (parses the base every call)"),
           ("url::Url::join (base parsed once)", "url `Url::join`, base parsed once")]
    rr = {f: criterion_median("relative", f) for f, _ in rel}
    if all(rr.values()):
        ada = rr["ada_url::Url::parse(link, Some(base))"][0]
        out += ["", "Relative links against their page (`corpora/relative.tsv`; MB/s of link bytes):", "",
                "| function | median per pass | MB/s | ada ÷ this |", "| --- | ---: | ---: | ---: |"]
        for f, label in rel:
            ns, nbytes = rr[f]
            out.append(f"| {label} | {ns / 1e3:.1f} µs | {nbytes / ns * 1e3:.1f} | {ada / ns:.2f}× |")
    head = ["| corpus | ada ÷ `parse_ref` | ada ÷ `Url::parse` | ada's ÷ `can_parse` | url ÷ `Url::parse` |",
            "| --- | ---: | ---: | ---: | ---: |"]
    args.summary = "\n".join(head + [f"| {c} | {a} | {b} | {d} | {e} |" for c, a, b, d, e in summary]) + "\n"
    return "\n".join(out) + "\n"


# ---- instructions (iai-callgrind) ---------------------------------------------------------

IAI_FUNCS = ["rapidurl_parse_ref", "rapidurl_url_parse", "rapidurl_can_parse", "ada_url_parse",
             "ada_can_parse", "url_url_parse"]


def section_instructions(args):
    text = run(NICE + [os.path.join(ROOT, "scripts", "instructions.sh")], stderr=subprocess.STDOUT)
    sample = 1000
    results, current = {}, None
    for line in text.splitlines():
        m = re.match(r"instructions::per_url::(\w+) corpus_\d+:load_sample\(\"(\w+)\"\)", line)
        m = m or re.match(r"instructions::search_params::(\w+) (queries)", line)
        if m:
            current = (m.group(1), m.group(2))
            continue
        m = re.match(r"\s+Instructions:\s+(\d+)", line)
        if m and current:
            results[current] = int(m.group(1))
            current = None
    corpora = []
    for _, c in results:
        if c not in corpora and c != "queries":
            corpora.append(c)
    out = ["`scripts/instructions.sh` (iai-callgrind; 1,000 lines of each corpus per benchmark; "
           "counts do not depend on the machine's load).\n",
           "| corpus | rapidurl `parse_ref` | rapidurl `Url::parse` | rapidurl `can_parse` | ada `Url::parse` "
           "| ada `can_parse` | url `Url::parse` | ada ÷ `parse_ref` | ada ÷ `Url::parse` | ada ÷ `can_parse` |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for c in corpora:
        v = {f: results.get((f, c)) for f in IAI_FUNCS}
        if None in v.values():
            continue
        out.append(f"| {c} | " + " | ".join(f"{v[f] / sample:.0f}" for f in IAI_FUNCS)
                   + f" | {v['ada_url_parse'] / v['rapidurl_parse_ref']:.2f}×"
                   f" | {v['ada_url_parse'] / v['rapidurl_url_parse']:.2f}×"
                   f" | {v['ada_can_parse'] / v['rapidurl_can_parse']:.2f}× |")
    q = {f: results.get((f, "queries")) for f in ["rapidurl_search_params", "ada_search_params"]}
    if None not in q.values():
        out += ["", "| 1,000 query strings | rapidurl `SearchParams::parse` | ada `UrlSearchParams::parse` | ada ÷ rapidurl |",
                "| --- | ---: | ---: | ---: |",
                f"| instructions per query | {q['rapidurl_search_params'] / sample:.0f} | "
                f"{q['ada_search_params'] / sample:.0f} | "
                f"{q['ada_search_params'] / q['rapidurl_search_params']:.2f}× |"]
    return "\n".join(out) + "\n"


# ---- bulk (scripts/bulk_table.py) ---------------------------------------------------------

def section_bulk(args):
    note = load_note()
    run(NICE + ["cargo", "build", "--locked", "--release", "-p", "rapidurl-cli"])
    table = run(NICE + [sys.executable, os.path.join(ROOT, "scripts", "bulk_table.py")],
                stderr=subprocess.DEVNULL)
    return f"`python3 scripts/bulk_table.py` ({note} at the start):\n\n{table}"


# ---- python (python/bench/bench.py) -------------------------------------------------------

def python_bench(args, extra):
    note = load_note()
    text = run(NICE + [args.python, os.path.join(ROOT, "python", "bench", "bench.py"),
                       "--repeat", str(args.repeat)] + extra)
    cmd = " ".join(["python", "python/bench/bench.py", "--repeat", str(args.repeat)] + extra)
    return f"`{cmd}` ({note} at the start):\n\n```\n{text.rstrip()}\n```\n"


def section_python(args):
    return python_bench(args, [])


# ---- canon, pattern, psl ------------------------------------------------------------------

def section_canon(args):
    note = bench_note(args, "canon")
    if not args.saved:
        run(NICE + ["cargo", "bench", "--locked", "--bench", "canon"] + CRITERION_ARGS)
    rows = [(v, criterion_median("canon_kasztp", v))
            for v in ("parse_ref", "parse_ref+canonical", "parse_ref+surt", "parse_ref+surt_into")]
    out = []
    if all(r for _, r in rows):
        base = rows[0][1][0]
        n = rows[0][1][1]
        out = [f"`cargo bench --bench canon` ({note}), kasztp ({n:,} lines), each "
               "field through `Field::value` (a new `String` a key), and the SURT key through "
               "`canon::surt_into` into one reused buffer, as `Field::value_into` writes it "
               "for `parse_column`:\n",
               "| variant | median per pass | ns/URL | ÷ `parse_ref` |", "| --- | ---: | ---: | ---: |"]
        for v, (ns, n) in rows:
            out.append(f"| `{v}` | {ns / 1e6:.2f} ms | {ns / n:.0f} | {ns / base:.2f}× |")
        out.append("")
    if not args.no_python:
        out.append(python_bench(args, ["--canon"]))
    return "\n".join(out) + "\n"


def own_harness(bench, note):
    text = run(NICE + ["cargo", "bench", "--locked", "--bench", bench])
    return f"`cargo bench --bench {bench}` ({note} at the start):\n\n", text


def section_pattern(args):
    head, text = own_harness("pattern", load_note())
    lines = []
    for line in text.splitlines():
        if line.startswith("|"):
            lines.append(line)
        elif line.strip():
            lines += ["", line, ""]
    body = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    return head + body + "\n"


def section_psl(args):
    head, text = own_harness("psl_beside", load_note())
    keep = [l for l in text.splitlines() if l.strip() and not l.startswith(("Running", "   Compiling"))]
    return head + "```\n" + "\n".join(keep) + "\n```\n"


def plot(path):
    """A bar chart of criterion's saved parse results (MB/s per corpus and function)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    groups = sorted(g[len("parse_"):] for g in os.listdir(CRITERION) if g.startswith("parse_"))
    rows = {c: {label: r[1] / r[0] * 1e3 for f, label in PARSE_FUNCS
                if (r := criterion_median("parse/" + c, f))} for c in groups}
    labels = [label.replace("`", "") for _, label in PARSE_FUNCS]
    width = 0.8 / len(labels)
    fig, ax = plt.subplots(figsize=(11, 5))
    for i, (_, label) in enumerate(PARSE_FUNCS):
        ys = [rows[c].get(label, 0) for c in groups]
        ax.bar([x + i * width for x in range(len(groups))], ys, width, label=labels[i])
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(groups))])
    ax.set_xticklabels(groups)
    ax.set_ylabel("MB/s (median, single thread)")
    ax.set_title("URL parsing throughput, one criterion run")
    ax.legend(fontsize=8, ncol=3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}", file=sys.stderr)


def section_adversarial(args):
    note = load_note()
    text = run(NICE + ["cargo", "bench", "--locked", "--bench", "adversarial", "--",
                       "--warm-up-time", "1", "--measurement-time", "2"])
    table = [line for line in text.split("ns per input byte", 1)[-1].splitlines()
             if line.startswith("|")]
    return (f"`cargo bench --bench adversarial -- --warm-up-time 1 --measurement-time 2` "
            f"({note} at the start), ns per input byte:\n\n" + "\n".join(table) + "\n")


SECTIONS = {
    "machine": section_machine,
    "parse": section_parse,
    "instructions": section_instructions,
    "bulk": section_bulk,
    "python": section_python,
    "canon": section_canon,
    "pattern": section_pattern,
    "psl": section_psl,
    "adversarial": section_adversarial,
}
# The document each section is written into (docs/performance.md unless named here).
SECTION_DOCS = {"adversarial": ROBUSTNESS}


def replace(doc, name, body):
    pat = re.compile(r"(<!-- perf:%s -->\n).*?(<!-- /perf:%s -->)" % (name, name), re.S)
    if not pat.search(doc):
        sys.exit(f"no markers for section {name!r} (<!-- perf:{name} --> … <!-- /perf:{name} -->)")
    return pat.sub(lambda m: m.group(1) + body + m.group(2), doc)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--only", help="comma-separated sections (default: all)")
    p.add_argument("--saved", action="store_true",
                   help="criterion sections: read target/criterion without running the bench")
    p.add_argument("--python", default=os.path.join(ROOT, ".venv", "bin", "python"),
                   help="the interpreter with rapidurl and the bench dependencies")
    p.add_argument("--repeat", type=int, default=5, help="python/bench/bench.py --repeat")
    p.add_argument("--no-python", action="store_true", help="canon: the Rust bench only")
    p.add_argument("--list", action="store_true", help="name the sections and what they run")
    p.add_argument("--stdout", action="store_true", help="print the sections, leave the file")
    p.add_argument("--plot", metavar="PNG",
                   help="only draw criterion's saved parse results as a bar chart (needs matplotlib)")
    args = p.parse_args()
    if args.list:
        print(__doc__.split("Sections and what they run:")[1].split("Benches run")[0].strip("\n").rstrip())
        return
    if args.plot:
        plot(args.plot)
        return
    names = args.only.split(",") if args.only else list(SECTIONS)
    for n in names:
        if n not in SECTIONS:
            sys.exit(f"unknown section {n!r}; sections: {', '.join(SECTIONS)}")
    args.summary = None
    for name in names:
        body = SECTIONS[name](args)
        path = SECTION_DOCS.get(name, DOC)
        with open(path, encoding="utf-8") as f:
            doc = f.read()
        doc = replace(doc, name, body)
        if name == "parse" and args.summary:
            doc = replace(doc, "summary", args.summary)
        if args.stdout:
            print(body)
            continue
        with open(path, "w", encoding="utf-8") as f:
            f.write(doc)
        print(f"{os.path.relpath(path, ROOT)}: section {name} rewritten", file=sys.stderr)


if __name__ == "__main__":
    main()
