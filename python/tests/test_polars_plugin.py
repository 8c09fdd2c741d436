"""The Polars expression plugin (`rapidurl.polars`): every method against
`parse_column` on the same rows, bases, bytes that are not UTF-8, nulls, hostile rows,
lazy and streaming queries, and errors that stay errors (never a crash of the process)."""

import gc

import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rapidurl
import rapidurl.polars
from conftest import REPO, corpus, wpt_cases

FIELDS = (
    list(rapidurl.URL_API_FIELDS)
    + list(rapidurl.polars.HOST_FIELDS)
    + list(rapidurl.polars.KEY_FIELDS)
)


def want(urls, field, base=None):
    """`parse_column`'s column `field` (or `error`) for `urls`."""
    fields = [] if field == "error" else [field]
    return rapidurl.parse_column(pa.array(urls, pa.string()), fields, base=base)[field].to_pylist()


@pytest.fixture(scope="module")
def lines():
    sample = (REPO / "corpora/sample.txt").read_text(encoding="utf-8").splitlines()
    return corpus("kasztp.txt")[:15000] + corpus("userbait.txt")[:3000] + sample + [
        "", "   ", "http://[::1", "https://" + "a" * 100_000 + ".example/", None,
    ]


def test_every_field_method_equals_parse_column(lines):
    df = pl.DataFrame({"u": lines})
    out = df.select([getattr(pl.col("u").url, f)() for f in FIELDS] + [pl.col("u").url.error()])
    assert out.columns == FIELDS + ["error"]
    for f in FIELDS:
        assert out[f].dtype == pl.String
        assert out[f].to_list() == want(lines, f), f
    assert out["error"].to_list() == want(lines, "error")


def test_parse_is_a_struct_of_the_fields_and_error(lines):
    df = pl.DataFrame({"u": lines})
    parsed = df.select(pl.col("u").url.parse(rapidurl.URL_API_FIELDS)).unnest("u")
    assert parsed.columns == list(rapidurl.URL_API_FIELDS) + ["error"]
    table = rapidurl.parse_column(pa.array(lines, pa.string()), list(rapidurl.URL_API_FIELDS))
    for name in parsed.columns:
        assert parsed[name].to_list() == table[name].to_pylist(), name
    default = df.select(pl.col("u").url.parse()).unnest("u")
    assert default.columns == list(rapidurl.DEFAULT_FIELDS) + ["error"]


def test_bases_one_and_per_row():
    cases = [c for c in wpt_cases("urltestdata.json") if c.get("base")]
    # Lone surrogates cannot be a Polars string.
    cases = [c for c in cases if all(ch < "\ud800" or ch > "\udfff" for ch in c["input"] + c["base"])]
    urls = [c["input"] for c in cases]
    bases = [c["base"] for c in cases]
    df = pl.DataFrame({"u": urls, "b": bases})
    got = df.select(pl.col("u").url.href(base=pl.col("b")), pl.col("u").url.error(base=pl.col("b")))
    table = rapidurl.parse_column(pa.array(urls), ["href"], base=pa.array(bases))
    assert got["href"].to_list() == table["href"].to_pylist()
    assert got["error"].to_list() == table["error"].to_pylist()
    one = df.select(pl.col("u").url.href(base="https://example.org/dir/page"))
    assert one["href"].to_list() == want(urls, "href", base="https://example.org/dir/page")


def test_a_literal_base_or_url_goes_with_every_row():
    # Found by fuzz/host_fuzz.py polars: Polars hands `pl.lit(…)` to the plugin as one
    # row, which was refused ("1 bases for 3 URLs"); it is broadcast, as Polars' own
    # operators broadcast a literal, and equals a column of that value.
    urls = ["../x", "https://a.example/b", None, "?q"]
    pages = ["https://h.example/a/", "http://k.example/z/q", None, "not a base"]
    df = pl.DataFrame({"u": urls, "b": pages})
    for base in ["https://h.example/a/", "not a base", None]:
        got = df.select(pl.col("u").url.href(base=pl.lit(base, dtype=pl.String)),
                        pl.col("u").url.error(base=pl.lit(base, dtype=pl.String)))
        column = pa.array([base] * len(urls), pa.string())
        assert got["href"].to_list() == want(urls, "href", base=column), base
        assert got["error"].to_list() == want(urls, "error", base=column), base
    got = df.select(pl.lit("../x").url.href(base=pl.col("b")))
    assert got["href"].to_list() == want(["../x"] * 4, "href", base=pa.array(pages))
    assert got["href"].to_list() == ["https://h.example/x", "http://k.example/x", None, None]
    empty = df.head(0).select(pl.col("u").url.href(base=pl.lit("https://h.example/")))
    assert empty["href"].to_list() == []


def test_a_field_named_twice_is_one_member_of_the_struct():
    # Found by fuzz/host_fuzz.py polars: parse(["href", "param:q", "href"]) failed with
    # Polars' DuplicateError (a struct's members have distinct names), where
    # parse_column computes the columns asked for.
    urls = ["https://a.example/?q=1", "nope", None]
    df = pl.DataFrame({"u": urls})
    got = df.select(pl.col("u").url.parse(["href", "param:q", "href", "param:q"])).unnest("u")
    assert got.columns == ["href", "param:q", "error"]
    table = rapidurl.parse_column(pa.array(urls), ["href", "param:q"])
    for name in got.columns:
        assert got[name].to_list() == table[name].to_pylist(), name


def test_a_field_name_with_a_nul_is_a_value_error():
    # Found by fuzz/host_fuzz.py polars: `param:` names may hold any character, but a
    # column's name crosses the Arrow C interface as a C string; parse_column raised
    # pyarrow's ArrowInvalid from the import, and `.url.parse` a ComputeError.
    with pytest.raises(ValueError, match="NUL"):
        rapidurl.parse_column(["https://a.example/?a%00b=1"], ["param:a\x00b"])
    df = pl.DataFrame({"u": ["https://a.example/?a%00b=1"]})
    with pytest.raises(ValueError, match="NUL"):
        df.select(pl.col("u").url.parse(["href", "param:a\x00b"]))
    assert rapidurl.URL("https://a.example/?a%00b=1").search_params.get("a\x00b") == "1"


def test_binary_that_is_not_utf8_is_decoded_with_replacement():
    raw = [b"https://a.example/\xff\xfe", b"https://b.example/ok", None, b"\x80"]
    s = pl.Series("u", raw, dtype=pl.Binary)
    got = s.to_frame().select(pl.col("u").url.href(), pl.col("u").url.error())
    assert got["href"].to_list() == ["https://a.example/%EF%BF%BD%EF%BF%BD", "https://b.example/ok", None, None]
    assert got["error"].to_list() == [None, None, None, "missing-scheme-non-relative-URL"]


def test_lazy_streaming_and_chunked_frames_agree(lines):
    df = pl.concat([pl.DataFrame({"u": lines})] * 3, rechunk=False)
    lazy = df.lazy().select(
        h=pl.col("u").url.hostname(), d=pl.col("u").url.registrable_domain(), e=pl.col("u").url.error()
    )
    eager = lazy.collect()
    streamed = lazy.collect(engine="streaming")
    assert eager.equals(streamed)
    assert eager["h"].to_list() == want(lines, "hostname") * 3
    # A filter on the plugin's output (a null row has no error: it is kept).
    valid = df.lazy().filter(pl.col("u").url.error().is_null()).collect(engine="streaming")
    assert valid.height == 3 * sum(1 for e in want(lines, "error") if e is None)
    assert valid.height < df.height


def test_outputs_outlive_their_input():
    # A canonical row's value is a view into the input's buffer: it must stay valid after
    # the input frame is gone.
    urls = [f"https://host{i}.example.com/some/long/path/{i}?q={i}" for i in range(5000)]
    df = pl.DataFrame({"u": urls})
    out = df.select(pl.col("u").url.pathname(), pl.col("u").url.href())
    del df
    gc.collect()
    assert out["pathname"].to_list() == [f"/some/long/path/{i}" for i in range(5000)]
    assert out["href"].to_list() == urls


def test_errors_are_errors_not_crashes():
    df = pl.DataFrame({"u": ["https://a.example/"]})
    with pytest.raises(ValueError, match="unknown field"):
        pl.col("u").url.field("no_such_field")
    with pytest.raises(TypeError, match="base must be"):
        pl.col("u").url.href(base=3)
    with pytest.raises(pl.exceptions.ComputeError, match="base-URL-invalid"):
        df.select(pl.col("u").url.href(base="not a base"))
    from polars.plugins import register_plugin_function

    boom = register_plugin_function(
        plugin_path=rapidurl.polars._LIBRARY,
        function_name="rapidurl",
        args=[pl.col("u")],
        kwargs={"fields": ["href"], "base": None, "struct": False, "_panic_for_tests": True},
        is_elementwise=True,
    )
    with pytest.raises(pl.exceptions.ComputeError, match="a panic, caught"):
        df.select(boom)
    # The process is fine afterwards.
    assert df.select(pl.col("u").url.hostname())["hostname"].to_list() == ["a.example"]


def test_an_old_polars_is_refused_with_an_import_error(monkeypatch):
    import importlib
    import sys

    monkeypatch.setattr(pl, "__version__", "0.20.31")
    monkeypatch.delitem(sys.modules, "rapidurl.polars")
    with pytest.raises(ImportError, match="needs Polars 1.0 or newer; this is Polars 0.20.31"):
        importlib.import_module("rapidurl.polars")


def test_routes_equal_parse_column(lines):
    routes = [
        ("page", "http{s}?://*/:page.html"),
        "http{s}?://*.gov/*",
        ("root", "http{s}?://:host/"),
    ]
    df = pl.DataFrame({"u": lines})
    got = df.select(pl.col("u").url.route(routes), pl.col("u").url.route_params(routes))
    table = rapidurl.parse_column(pa.array(lines, pa.string()), ["route", "route_params"], routes=routes)
    assert got["route"].to_list() == table["route"].to_pylist()
    assert got["route_params"].to_list() == table["route_params"].to_pylist()
    assert sum(1 for r in got["route"].to_list() if r) > 100
    with pytest.raises(rapidurl.PatternError, match="a regexp group is not closed"):
        pl.col("u").url.route(["https://example.com/(unclosed"])
    with pytest.raises(TypeError, match="not a str"):
        pl.col("u").url.route("https://example.com/*")
    # Both fields in one struct: one lookup of each row, the same values.
    both = df.select(pl.col("u").url.parse(["route", "hostname", "route_params"], routes=routes))
    both = both.unnest("u")
    assert both.columns == ["route", "hostname", "route_params", "error"]
    assert both["route"].to_list() == table["route"].to_pylist()
    assert both["route_params"].to_list() == table["route_params"].to_pylist()
    with pytest.raises(rapidurl.PatternError, match="a regexp group is not closed"):
        pl.col("u").url.parse(["route"], routes=["https://example.com/(unclosed"])
    with pytest.raises(TypeError, match="need a route table"):
        pl.col("u").url.parse(["route"])


def test_a_struct_with_routes_takes_them_relative_to_routes_base():
    df = pl.DataFrame({"u": ["https://example.com/users/42", "https://other.test/users/7", "nope"]})
    out = df.select(
        pl.col("u").url.parse(["route", "route_params"], routes=[("user", "/users/:id")],
                              routes_base="https://example.com")
    ).unnest("u")
    assert out.to_dict(as_series=False) == {
        "route": ["user", "", None],
        "route_params": ['{"id":"42"}', None, None],
        "error": [None, None, "missing-scheme-non-relative-URL"],
    }


def test_empty_all_null_and_non_string_columns():
    exprs = lambda: [pl.col("u").url.hostname(), pl.col("u").url.parse(["href"]), pl.col("u").url.error()]  # noqa: E731
    empty = pl.DataFrame({"u": pl.Series([], dtype=pl.String)})
    for out in (empty.select(exprs()), empty.lazy().select(exprs()).collect(engine="streaming")):
        assert out.height == 0
        assert out.schema["hostname"] == pl.String
        assert out.schema["u"] == pl.Struct({"href": pl.String, "error": pl.String})
    nulls = pl.DataFrame({"u": [None, None]})
    assert nulls.schema["u"] == pl.Null
    out = nulls.select(exprs())
    assert out["hostname"].to_list() == [None, None]
    assert out["u"].to_list() == [{"href": None, "error": None}] * 2
    with pytest.raises(pl.exceptions.ComputeError, match="expected a column of strings"):
        pl.DataFrame({"u": [1, 2]}).select(pl.col("u").url.hostname())


_PIECES = st.sampled_from(
    ["https://", "http://", "file:///", "a.example", "EXAMPLE.com", ":8080", "/p/../q", "?q=1",
     "#f", "%41", "xn--", "[::1]", "@", "\\", " ", "\t", "\u00e9", "\u4e2d", "\ufffd", ".", ""]
)
_URLS = st.one_of(
    st.none(),
    st.lists(_PIECES, max_size=8).map("".join),
    st.text(max_size=40),
)


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(_URLS, max_size=60), chunks=st.integers(1, 4))
def test_random_frames_equal_parse_column(rows, chunks):
    step = max(1, len(rows) // chunks)
    parts = [pl.DataFrame({"u": pl.Series(rows[i:i + step], dtype=pl.String)}) for i in range(0, len(rows), step)]
    df = pl.concat(parts, rechunk=False) if parts else pl.DataFrame({"u": pl.Series([], dtype=pl.String)})
    got = df.select(pl.col("u").url.href(), pl.col("u").url.registrable_domain(), pl.col("u").url.error())
    table = rapidurl.parse_column(pa.array(rows, pa.string()), ["href", "registrable_domain"])
    assert got["href"].to_list() == table["href"].to_pylist()
    assert got["registrable_domain"].to_list() == table["registrable_domain"].to_pylist()
    assert got["error"].to_list() == table["error"].to_pylist()
