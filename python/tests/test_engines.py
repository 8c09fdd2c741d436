"""Each engine's adapter: pandas, Polars, DuckDB, DataFusion (Spark: test_spark.py)."""

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import rapidurl
from rapidurl import parse_column

from conftest import field_of

INPUTS = ["https://a.example:8080/x?q=1#f", None, "nope", "HTTP://B.example/./y", "http://[::1]/"]


def per_url(field):
    return field_of(INPUTS, field)


def test_pandas_arrow_dtypes():
    df = pd.DataFrame({"u": pd.Series(INPUTS, dtype=pd.ArrowDtype(pa.string()))})
    parsed = parse_column(df["u"], ["hostname", "port"]).to_pandas(types_mapper=pd.ArrowDtype)
    out = df.join(parsed)
    assert out["hostname"].dtype == pd.ArrowDtype(pa.string())
    assert out["hostname"].tolist() == [h if h is not None else pd.NA for h in per_url("hostname")]
    assert out["error"].tolist()[2] == "missing-scheme-non-relative-URL"
    # pandas' own string dtype (Arrow-backed) works too.
    assert parse_column(pd.Series(INPUTS, dtype="string[pyarrow]"), ["port"])["port"].to_pylist() == per_url("port")


def test_polars_namespace():
    import rapidurl.polars  # noqa: F401  (registers .url)

    df = pl.DataFrame({"u": INPUTS})
    out = df.select(pl.col("u").url.hostname(), pl.col("u").url.pathname(), pl.col("u").url.error())
    assert out["hostname"].to_list() == per_url("hostname")
    assert out["pathname"].to_list() == per_url("pathname")
    assert out["error"].to_list() == [None, None, "missing-scheme-non-relative-URL", None, None]
    parsed = df.select(pl.col("u").url.parse(["host", "search"])).unnest("u")
    assert parsed.columns == ["host", "search", "error"]
    assert parsed["host"].to_list() == per_url("host")
    # Lazy frames, several chunks, and the Series itself as a column.
    lazy = pl.concat([df, df], rechunk=False).lazy().with_columns(h=pl.col("u").url.field("hostname"))
    assert lazy.collect()["h"].to_list() == per_url("hostname") * 2
    assert parse_column(df["u"], ["hash"])["hash"].to_pylist() == per_url("hash")


def test_duckdb_arrow_udf():
    import duckdb

    import rapidurl.duckdb

    con = duckdb.connect()
    rapidurl.duckdb.register(con)
    con.execute("create table t(i int, u varchar)")
    con.executemany("insert into t values (?, ?)", list(enumerate(INPUTS)))
    rows = con.sql("select url_hostname(u), url_port(u), url_error(u) from t order by i").fetchall()
    assert [r[0] for r in rows] == per_url("hostname")
    assert [r[1] for r in rows] == per_url("port")
    assert rows[2][2] == "missing-scheme-non-relative-URL"
    # More rows than one DuckDB vector (2048).
    n = con.execute(
        "select count(*) from (select url_hostname('https://h' || i || '.example/') h, i from range(5000) r(i)) "
        "where h = 'h' || i || '.example'"
    ).fetchone()[0]
    assert n == 5000


def test_datafusion_udf():
    import datafusion

    import rapidurl.datafusion

    ctx = datafusion.SessionContext()
    rapidurl.datafusion.register(ctx, ["hostname", "pathname"])
    ctx.register_record_batches("t", [[pa.record_batch({"i": list(range(len(INPUTS))), "u": INPUTS})]])
    out = ctx.sql("select url_hostname(u) h, url_pathname(u) p, url_error(u) e from t order by i").to_pydict()
    assert out["h"] == per_url("hostname")
    assert out["p"] == per_url("pathname")
    assert out["e"][2] == "missing-scheme-non-relative-URL"
    # A string_view column (what DataFusion reads Parquet into).
    ctx.register_record_batches("v", [[pa.record_batch({"u": pa.array(INPUTS, pa.string_view())})]])
    assert ctx.sql("select url_hostname(u) h from v").to_pydict()["h"] == per_url("hostname")
