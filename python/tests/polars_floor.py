"""The Polars plugin on the oldest Polars it supports (run by scripts/test-all.sh in a
virtual environment of that release, not by pytest): every field method against
`parse_column` over a corpus, a base column, a lazy streaming query.

    python python/tests/polars_floor.py VERSION
"""

import pathlib
import sys

import polars as pl
import pyarrow as pa

import rapidurl
import rapidurl.polars

REPO = pathlib.Path(__file__).resolve().parents[2]


def main() -> int:
    assert pl.__version__ == sys.argv[1], (pl.__version__, sys.argv[1])
    lines = (REPO / "corpora/sample.txt").read_text(encoding="utf-8").splitlines() + ["", None]
    fields = list(rapidurl.URL_API_FIELDS) + list(rapidurl.polars.HOST_FIELDS) + list(rapidurl.polars.KEY_FIELDS)
    df = pl.DataFrame({"u": lines, "b": ["https://base.example/a/"] * len(lines)})
    out = df.select([getattr(pl.col("u").url, f)() for f in fields] + [pl.col("u").url.error()])
    want = rapidurl.parse_column(pa.array(lines, pa.string()), fields)
    checks = 0
    for f in fields + ["error"]:
        assert out[f].to_list() == want[f].to_pylist(), f
        checks += 1
    based = df.select(pl.col("u").url.href(base=pl.col("b")))["href"].to_list()
    assert based == rapidurl.parse_column(pa.array(lines), ["href"], base="https://base.example/a/")["href"].to_pylist()
    streamed = df.lazy().select(pl.col("u").url.hostname()).collect(streaming=True)
    assert streamed["hostname"].to_list() == want["hostname"].to_pylist()
    print(f"Polars {pl.__version__}: {len(lines)} rows, {checks} fields, a base column and a "
          f"streaming query equal to parse_column: {checks + 2} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
