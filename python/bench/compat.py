"""Time per URL of the drop-in functions of rapidurl.compat against the packages they
replace, one URL at a time, on one corpus, in one run (docs/canon.md quotes it).

    python python/bench/compat.py [CORPUS] [--repeat N]

CORPUS defaults to ../shared/corpora/kasztp.txt beside the repository; its http(s) lines
are the inputs. Each contender is a Python loop calling the function once per URL:
`surt.surt(u)` against `rapidurl.compat.surt.surt(u)` (and with `with_scheme=True`), and
`w3lib.url.canonicalize_url(u)` against `rapidurl.compat.w3lib.canonicalize_url(u)`.
Each is timed `--repeat` times after one warm-up, interleaved round by round (so a burst
of load hits every contender alike); the median is reported, with the ratio of each
package to its drop-in (the target is at least 20x). w3lib caches its URL splitting per
input string (`functools.lru_cache`), so every timed pass of it gets fresh copies of the
inputs.

Needs python/requirements-test.txt (surt, w3lib) and the package installed.
"""

import argparse
import statistics
import time
from pathlib import Path

import surt as surt_package
import w3lib.url

from rapidurl.compat.surt import surt
from rapidurl.compat.w3lib import canonicalize_url

REPO = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = REPO.parent / "shared" / "corpora" / "kasztp.txt"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    lines = Path(args.corpus).read_text(encoding="utf-8").splitlines()
    urls = [u.lstrip("\ufeff") for u in lines if u.lower().startswith(("http://", "https://"))]

    def fresh():
        # New str objects, equal to the inputs: no per-string cache carries over.
        return [(u + " ")[:-1] for u in urls]

    contenders = {
        "surt.surt(u)": lambda us: [surt_package.surt(u) for u in us],
        "rapidurl.compat.surt.surt(u)": lambda us: [surt(u) for u in us],
        "surt.surt(u, with_scheme=True)": lambda us: [
            surt_package.surt(u, with_scheme=True) for u in us
        ],
        "rapidurl.compat.surt.surt(u, with_scheme=True)": lambda us: [
            surt(u, with_scheme=True) for u in us
        ],
        "w3lib.url.canonicalize_url(u)": lambda us: [w3lib.url.canonicalize_url(u) for u in us],
        "rapidurl.compat.w3lib.canonicalize_url(u)": lambda us: [
            canonicalize_url(u) for u in us
        ],
    }
    times = {name: [] for name in contenders}
    for round_ in range(args.repeat + 1):
        for name, f in contenders.items():
            us = fresh()
            t = time.perf_counter()
            f(us)
            if round_:
                times[name].append((time.perf_counter() - t) / len(us))
    print(f"{len(urls)} http(s) URLs of {args.corpus}, median of {args.repeat}")
    print("| function | ns per URL |")
    print("|---|---:|")
    median = {name: statistics.median(ts) * 1e9 for name, ts in times.items()}
    for name, ns in median.items():
        print(f"| `{name}` | {ns:,.0f} |")
    pairs = [
        ("surt.surt(u)", "rapidurl.compat.surt.surt(u)"),
        ("surt.surt(u, with_scheme=True)", "rapidurl.compat.surt.surt(u, with_scheme=True)"),
        ("w3lib.url.canonicalize_url(u)", "rapidurl.compat.w3lib.canonicalize_url(u)"),
    ]
    for theirs, ours in pairs:
        print(f"{theirs} / {ours}: {median[theirs] / median[ours]:.1f}x (target >= 20)")


if __name__ == "__main__":
    main()
