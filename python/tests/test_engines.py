"""Each engine's adapter: pandas, Polars, DuckDB, DataFusion (Spark: test_spark.py)."""

import re
import subprocess
import sys
import textwrap

import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import rapidurl
from rapidurl import parse_column

from conftest import REPO, field_of

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


def _run(code: str) -> subprocess.CompletedProcess:
    """``code`` in a new interpreter, this one's, with this process's path."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True)


def test_duckdb_register_names_numpy_when_it_is_missing():
    """DuckDB's create_function needs numpy, even for an Arrow function: without it (an
    interpreter where `import numpy` fails, as in an environment without it),
    rapidurl.duckdb imports, and register raises ImportError naming numpy and the
    `duckdb` extra that installs it, registering nothing."""
    run = _run("""
        import sys
        sys.modules["numpy"] = None  # import numpy raises ImportError
        import duckdb
        from duckdb.sqltypes import VARCHAR
        con = duckdb.connect()
        # DuckDB itself refuses an Arrow function without numpy: what a user would meet.
        try:
            con.create_function("f", lambda a: a, [VARCHAR], VARCHAR, type="arrow")
        except Exception as err:
            assert "numpy" in str(err), err
        else:
            raise AssertionError("DuckDB registered a function without numpy")
        import rapidurl.duckdb
        count = "select count(*) from duckdb_functions()"
        before = con.execute(count).fetchone()[0]
        try:
            rapidurl.duckdb.register(con)
        except ImportError as err:
            print(err)
        assert con.execute(count).fetchone()[0] == before
    """)
    assert run.returncode == 0, run.stderr
    assert "needs numpy" in run.stdout and 'pip install "rapidurl[duckdb]"' in run.stdout, run.stdout


def test_duckdb_extra_declares_what_register_needs():
    """The `duckdb` extra of python/pyproject.toml (what `pip install "rapidurl[duckdb]"`
    installs) holds DuckDB and every module rapidurl.duckdb.NEEDS, and python/README.md's
    install lines name it."""
    import tomllib

    import rapidurl.duckdb

    project = tomllib.loads((REPO / "python/pyproject.toml").read_text(encoding="utf-8"))
    extra = project["project"]["optional-dependencies"]["duckdb"]
    names = {re.split(r"[<>=!~ \[]", req, maxsplit=1)[0] for req in extra}
    assert names == {"duckdb", *rapidurl.duckdb.NEEDS}, extra
    assert set(rapidurl.duckdb.NEEDS) == {"pyarrow", "numpy"}
    readme = (REPO / "python/README.md").read_text(encoding="utf-8")
    install = readme.split("## Install", 1)[1].split("\n## ", 1)[0]
    assert 'pip install "rapidurl[duckdb]"' in install and 'pip install "./python[duckdb]"' in install


def test_without_pyarrow_parse_column_gives_an_arrow_table_and_duckdb_imports():
    """python/README.md: without pyarrow (an interpreter where `import pyarrow` fails),
    parse_column returns a rapidurl.ArrowTable, `import rapidurl.duckdb` works, and its
    register raises ImportError naming pyarrow."""
    run = _run("""
        import sys
        sys.modules["pyarrow"] = None
        import rapidurl, rapidurl.duckdb
        t = rapidurl.parse_column(["https://a.example:8080/x", "nope"], ["hostname"])
        assert type(t) is rapidurl.ArrowTable, type(t)
        assert t.to_pydict() == {"hostname": ["a.example", None],
                                 "error": [None, "missing-scheme-non-relative-URL"]}
        import duckdb
        try:
            rapidurl.duckdb.register(duckdb.connect())
        except ImportError as err:
            print(err)
    """)
    assert run.returncode == 0, run.stderr
    assert "needs pyarrow" in run.stdout, run.stdout


def test_duckdb_register_beside_the_extensions_functions():
    """A connection where `url_href` and the others exist already (as they do once the
    DuckDB extension is loaded; here Python functions of those names): register raises
    ValueError naming them and the way out, prefix=, and registers nothing; with another
    prefix it registers beside them."""
    import duckdb

    import rapidurl.duckdb

    con = duckdb.connect()
    rapidurl.duckdb.register(con, ["href", "hostname"])
    with pytest.raises(ValueError, match=r"url_error, url_hostname.*prefix=") as err:
        rapidurl.duckdb.register(con)
    assert "url_href" in str(err.value)
    n = con.execute("select count(*) from duckdb_functions() where function_name = 'url_port'").fetchone()[0]
    assert n == 0
    rapidurl.duckdb.register(con, prefix="py_url_")
    assert con.execute("select py_url_port('https://a.example:81/'), url_hostname('https://b.example/')").fetchone() == (
        "81",
        "b.example",
    )


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
