"""parse_column: equal to the per-URL results, every Arrow string type, bases, threads,
bad input."""

import array
import pickle

import pyarrow as pa
import pytest

import rapidurl
from rapidurl import URL, parse_column

from conftest import GETTERS, corpus, wpt_cases


def expected_rows(inputs, bases=None, fields=GETTERS):
    """What URL() gives for each row: a dict of fields plus error, as parse_column's rows."""
    rows = []
    for i, text in enumerate(inputs):
        base = bases[i] if bases is not None else None
        if text is None:
            rows.append({**{f: None for f in fields}, "error": None})
            continue
        try:
            url = URL(text, base)
        except rapidurl.ParseError as err:
            rows.append({**{f: None for f in fields}, "error": err.name})
            continue
        rows.append({**{f: getattr(url, f) for f in fields}, "error": None})
    return rows


def test_urltestdata_equals_the_url_objects():
    cases = wpt_cases("urltestdata.json")
    inputs = [c["input"] for c in cases]
    bases = [c.get("base") for c in cases]
    table = parse_column(inputs, GETTERS, base=bases)
    assert table.column_names == list(GETTERS) + ["error"]
    assert table.to_pylist() == expected_rows(inputs, bases)
    failures = [c["input"] for c in cases if c.get("failure")]
    assert failures and table.filter(pa.compute.is_valid(table["error"])).num_rows == len(failures)


@pytest.mark.parametrize("name", ["kasztp.txt", "userbait.txt"])
def test_corpus_equals_the_url_objects(name):
    lines = corpus(name)
    table = parse_column(pa.array(lines), GETTERS, threads=2)
    assert table.num_rows == len(lines)
    assert table.to_pylist() == expected_rows(lines)


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string(), pa.string_view()])
def test_every_arrow_string_type(typ):
    inputs = ["https://a.example/x", None, "nope", "HTTP://B.example:80/./y", "https://é.example/ä"]
    table = parse_column(pa.array(inputs, type=typ), ["href", "hostname"])
    assert table.to_pylist() == expected_rows(inputs, fields=("href", "hostname"))


def test_sliced_and_chunked_inputs():
    inputs = [f"https://h{i}.example/{i}" for i in range(1000)] + ["bad"]
    chunked = pa.chunked_array([pa.array(inputs[:300]), pa.array(inputs[300:], type=pa.string())])
    sliced = pa.array(inputs).slice(5, 700)
    assert parse_column(chunked, ["hostname"])["hostname"].to_pylist() == [
        r["hostname"] for r in expected_rows(inputs, fields=("hostname",))
    ]
    assert parse_column(sliced, ["hostname"])["hostname"].to_pylist() == [
        f"h{i}.example" for i in range(5, 705)
    ]


def test_default_fields_and_names():
    table = parse_column(["https://example.com/"])
    assert table.column_names == list(rapidurl.DEFAULT_FIELDS) + ["error"]
    assert "origin" not in rapidurl.DEFAULT_FIELDS and "hostname" in rapidurl.DEFAULT_FIELDS
    assert parse_column(["https://example.com/"], "hostname").column_names == ["hostname", "error"]
    with pytest.raises(ValueError, match="unknown field \"colour\""):
        parse_column(["https://example.com/"], ["colour"])


def test_scalar_base_and_base_column():
    table = parse_column(["a", "../b", "//c.example/"], ["href"], base="https://h.example/x/y")
    assert table["href"].to_pylist() == ["https://h.example/x/a", "https://h.example/b", "https://c.example/"]
    bases = pa.array(["https://one.example/", None, "not a base", "https://two.example/d/"])
    table = parse_column(["p", "q:r", "s", "t"], ["href"], base=bases)
    assert table.to_pylist() == [
        {"href": "https://one.example/p", "error": None},
        {"href": "q:r", "error": None},
        {"href": None, "error": "base-URL-invalid"},
        {"href": "https://two.example/d/t", "error": None},
    ]
    with pytest.raises(rapidurl.ParseError, match="base-URL-invalid"):
        parse_column(["a"], base="not a base")
    with pytest.raises(ValueError, match="base has 1 rows, urls has 2"):
        parse_column(["a", "b"], base=["https://h.example/"])


def test_threads():
    lines = corpus("kasztp.txt")[:20000]
    arr = pa.array(lines)
    one = parse_column(arr, ["href"], threads=1)
    two = parse_column(arr, ["href"], threads=2)
    every = parse_column(arr, ["href"])
    # threads=0 means every core, as the tool's --threads 0.
    zero = parse_column(arr, ["href"], threads=0)
    assert one.equals(two) and one.equals(every) and one.equals(zero)
    with pytest.raises(OverflowError):
        parse_column(arr, ["href"], threads=-1)


def test_one_batch_per_piece_of_the_engine():
    # The engine cuts the rows into pieces of about an eighth of a thread's share (at
    # least 64 KiB of input): each piece makes one record batch, so a call makes at most
    # about eight batches per thread, whatever the number of rows, and the same table.
    arr = pa.array(corpus("kasztp.txt"))
    one = parse_column(arr, ["hostname"], threads=1)
    assert 1 <= one.column("hostname").num_chunks <= 8
    for n in (2, 3, 8):
        table = parse_column(arr, ["hostname"], threads=n)
        assert table.equals(one)
        assert 1 <= table.column("hostname").num_chunks <= 8 * n
    # Not one batch per row, nor per array: 3000 small arrays make 3000 batches at most.
    tiny = pa.chunked_array([pa.array(["https://a.example/"])] * 3000)
    assert parse_column(tiny, ["hostname"], threads=2).column("hostname").num_chunks <= 3000


def test_threads_over_many_arrays_with_errors_and_bases():
    # Chunks span arrays and outputs span chunks: failed rows, null rows and per-row
    # bases must land on their own rows whatever the split.
    lines = corpus("userbait.txt")[:6000]
    inputs = [None if i % 211 == 0 else (line if i % 97 else "no scheme " + line) for i, line in enumerate(lines)]
    bases = [
        None if i % 5 == 0 else ("not a base" if i % 331 == 0 else "https://b.example/p/q")
        for i in range(len(inputs))
    ]
    expected = expected_rows(inputs, bases)
    assert any(r["error"] == "base-URL-invalid" for r in expected)
    assert any(r["error"] not in (None, "base-URL-invalid") for r in expected)
    arrays = pa.chunked_array([pa.array(inputs[i : i + 700]) for i in range(0, len(inputs), 700)])
    for n in (1, 2, 3):
        table = parse_column(arrays, GETTERS, base=pa.array(bases), threads=n)
        assert table.to_pylist() == expected


def test_bad_rows_in_a_sequence():
    inputs = ["https://example.com/\ud800", "http://a\x00b/", None, "https://x.example/" + "a" * 2_000_000]
    table = parse_column(inputs, ["pathname", "hostname"])
    rows = table.to_pylist()
    assert rows[0]["pathname"] == "/%EF%BF%BD"
    assert rows[1] == {"pathname": None, "hostname": None, "error": "domain-invalid-code-point"}
    assert rows[2] == {"pathname": None, "hostname": None, "error": None}
    assert len(rows[3]["pathname"]) == 2_000_001
    with pytest.raises(TypeError, match="row 2 is int, expected str or None"):
        parse_column(["https://a.example/", None, 7])
    with pytest.raises(TypeError, match="not a single str"):
        parse_column("https://a.example/")
    with pytest.raises(TypeError):
        parse_column(42)


def test_non_string_arrow_column_and_invalid_utf8_binary():
    with pytest.raises(TypeError, match="expected a column of strings"):
        parse_column(pa.array([1, 2, 3]))
    # Binary data that is not UTF-8 is decoded as Url::parse_bytes does (U+FFFD).
    table = parse_column(pa.array([b"https://example.com/\xff", None], type=pa.binary()), ["pathname"])
    assert table["pathname"].to_pylist() == ["/%EF%BF%BD", None]
    assert parse_column(pa.nulls(3), ["href"]).to_pylist() == [{"href": None, "error": None}] * 3


def test_offsets_that_do_not_fit_the_values_are_refused():
    # Offsets that run backwards: pyarrow's `from_buffers` checks only the first and the
    # last against the values, and the C-data import checks nothing.
    data = pa.py_buffer(b"https://a.example/https://b.example/")
    cases = [[0, 18, 9], [0, 30, 18], [9, 0, 36]]
    for offsets in cases:
        for typ, width in [(pa.string(), "i4"), (pa.large_string(), "i8")]:
            buf = pa.py_buffer(array.array("i" if width == "i4" else "q", offsets).tobytes())
            bad = pa.Array.from_buffers(typ, 2, [None, buf, data])
            with pytest.raises(TypeError, match="invalid Arrow string array"):
                parse_column(bad, ["hostname"])
            with pytest.raises(TypeError, match="invalid Arrow string array"):
                parse_column(["https://x/", "https://y/"], ["hostname"], base=bad)
    good = pa.Array.from_buffers(
        pa.string(), 2, [None, pa.py_buffer(array.array("i", [0, 18, 36]).tobytes()), data]
    )
    assert parse_column(good, ["hostname"])["hostname"].to_pylist() == ["a.example", "b.example"]


def test_empty_input():
    table = parse_column(pa.array([], type=pa.string()), ["href"])
    assert table.num_rows == 0 and table.column_names == ["href", "error"]


def test_panic_becomes_runtime_error():
    with pytest.raises(RuntimeError, match="internal error"):
        rapidurl._rapidurl._panic_for_tests()


def test_without_pyarrow_the_result_is_an_arrow_stream():
    table = rapidurl._rapidurl.parse_column(["https://a.example/", "bad"], ["hostname"])
    assert isinstance(table, rapidurl.ArrowTable)
    assert table.column_names == ["hostname", "error"] and table.num_rows == len(table) == 2
    assert table.to_pydict() == {"hostname": ["a.example", None], "error": [None, "missing-scheme-non-relative-URL"]}
    # Consumable more than once, by any Arrow consumer.
    assert pa.table(table).to_pydict() == pa.table(table).to_pydict() == table.to_pydict()


def test_parse_column_when_pyarrow_is_not_installed(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` now fails
    table = rapidurl.parse_column(["https://a.example/"], ["hostname"])
    assert isinstance(table, rapidurl.ArrowTable)
    assert table.to_pydict() == {"hostname": ["a.example"], "error": [None]}


def test_fields_the_library_adds():
    # Every rapidurl::field::Field name is a column name, with no change in the package.
    urls = ["https://www.example.co.uk/x?utm_source=mail+2", "http://[::1]/", "bad"]
    table = parse_column(urls, ["public_suffix", "registrable_domain", "subdomain", "param:utm_source"])
    assert table.column_names == ["public_suffix", "registrable_domain", "subdomain", "param:utm_source", "error"]
    assert table.to_pylist() == [
        {"public_suffix": "co.uk", "registrable_domain": "example.co.uk", "subdomain": "www",
         "param:utm_source": "mail 2", "error": None},
        {"public_suffix": None, "registrable_domain": None, "subdomain": None,
         "param:utm_source": None, "error": None},
        {"public_suffix": None, "registrable_domain": None, "subdomain": None,
         "param:utm_source": None, "error": "missing-scheme-non-relative-URL"},
    ]
    # ... and an attribute of URL where the name is an identifier.
    url = URL(urls[0])
    assert (url.public_suffix, url.registrable_domain, url.subdomain) == ("co.uk", "example.co.uk", "www")
    assert URL("http://[::1]/").public_suffix is None


def test_fields_of_the_input_valid_and_validation_errors():
    # Values of the input text (§4.3 valid URL string, §4.4 validation errors), written by
    # hand from the Standard: credentials are not part of a valid URL string and the
    # parser reports them as invalid-credentials; a backslash in a special URL's path is
    # invalid-reverse-solidus.
    urls = ["https://example.com/a", "https://user@example.com/", "http://example.com\\x"]
    table = rapidurl.parse_column(urls, fields=["valid", "validation_errors"])
    assert table.column("valid").to_pylist() == ["true", "false", "false"]
    assert table.column("validation_errors").to_pylist() == [
        "",
        "invalid-credentials",
        "invalid-reverse-solidus",
    ]


def test_validation_errors_are_those_of_the_parse_against_the_base():
    # Against https://example.com/a/, "b\\c" parses with one error, its backslash
    # (invalid-reverse-solidus); alone it would not parse (missing-scheme-non-relative-URL).
    # `valid` judges the input alone: a relative reference is not a valid URL string.
    urls = ["b\\c", "https://example.com/x", "../y"]
    want = {
        "href": ["https://example.com/a/b/c", "https://example.com/x", "https://example.com/y"],
        "valid": ["false", "true", "false"],
        "validation_errors": ["invalid-reverse-solidus", "", ""],
        "error": [None, None, None],
    }
    fields = ["href", "valid", "validation_errors"]
    base = "https://example.com/a/"
    assert rapidurl.parse_column(urls, fields, base=base).to_pydict() == want
    assert rapidurl.parse_column(urls, fields, base=[base] * 3).to_pydict() == want


def test_url_objects_have_parse_columns_valid_and_validation_errors():
    """URL(input, base).valid and .validation_errors are parse_column's values for the
    same input and base, with and without validation errors; a setter's change makes
    them those of the new href."""
    cases = [
        ("https://example.com/a", None),
        ("HTTPS://Example.com/a/../b", None),
        ("https://user@example.com/", None),
        ("http://example.com\\x", None),
        (" https://example.com/\t", None),
        ("b\\c", "https://example.com/a/"),
        ("../y?q=1#f", "https://example.com/a/b"),
        ("https://example.com/z", "https://example.com/a/"),
    ] + [(c["input"], c.get("base")) for c in wpt_cases("urltestdata.json") if not c.get("failure")]
    fields = ["valid", "validation_errors"]
    bases = [b for _, b in cases]
    table = rapidurl.parse_column([u for u, _ in cases], fields, base=bases).to_pydict()
    for i, (url, base) in enumerate(cases):
        u = URL(url, base=base)
        assert (u.valid, u.validation_errors) == (
            table["valid"][i], table["validation_errors"][i]
        ), (url, base)
        again = pickle.loads(pickle.dumps(u))
        assert (again.valid, again.validation_errors) == (u.valid, u.validation_errors), (url, base)
        assert again == u
    # Written by hand: credentials make a URL string invalid and are reported.
    u = URL("https://user@example.com/")
    assert (u.valid, u.validation_errors) == ("false", "invalid-credentials")
    u.username = ""
    assert (u.valid, u.validation_errors) == ("true", "")
    u = URL("b\\c", base="https://example.com/a/")
    assert (u.valid, u.validation_errors) == ("false", "invalid-reverse-solidus")
    u.href = "https://example.com/a b"
    assert (u.valid, u.validation_errors) == ("false", "invalid-URL-unit")


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string(), pa.string_view()])
def test_view_output_equals_the_url_objects(typ):
    """output="view": string_view columns, row for row the URL objects' values, on WPT
    inputs, a corpus and every Arrow string type; canonical rows' long values point into
    the input's buffer (it is shared, not copied)."""
    cases = wpt_cases("urltestdata.json")
    inputs = [c["input"] for c in cases] + corpus("kasztp.txt")[:5000] + [None]
    arr = pa.array(inputs, type=typ)
    table = parse_column(arr, rapidurl.URL_API_FIELDS, threads=2, output="view")
    for name in rapidurl.URL_API_FIELDS:
        assert table.schema.field(name).type == pa.string_view()
    assert table.schema.field("error").type == pa.string()
    assert table.to_pylist() == expected_rows(inputs, fields=rapidurl.URL_API_FIELDS)
    utf8 = parse_column(arr, rapidurl.URL_API_FIELDS, threads=2)
    assert utf8.schema.field("href").type == pa.string()
    assert utf8.to_pylist() == table.to_pylist()


def test_view_output_shares_the_input_buffer():
    inputs = [f"https://host{i}.example/a/long/path/{i}?q={i}" for i in range(2000)]
    arr = pa.array(inputs)
    data = arr.buffers()[2]
    table = parse_column(arr, ["href", "hostname", "pathname"], threads=1, output="view")
    href = table["href"].chunk(0)
    # The views' variadic buffers begin with the input's own values buffer.
    assert href.buffers()[2].address == data.address
    assert table["href"].to_pylist() == inputs


def test_view_output_default_fields_single_fields_and_bad_output():
    inputs = ["https://u:p@a.example:8080/x?q#f", "blob:https://b.example/y", "nope", None,
              "HTTP://C.EXAMPLE/./z"]
    for fields in (None, ["hostname"], ["href"], ["origin"], ["origin", "surt", "valid"]):
        names = fields or list(rapidurl.DEFAULT_FIELDS)
        t = parse_column(inputs, fields, output="view")
        u = parse_column(inputs, fields)
        assert t.to_pylist() == u.to_pylist()
        assert all(t.schema.field(n).type == pa.string_view() for n in names)
    with pytest.raises(ValueError, match="output"):
        parse_column(inputs, output="large")


def test_view_output_in_polars_and_duckdb():
    import duckdb
    import polars as pl

    lines = corpus("kasztp.txt")[:3000] + ["nope", None]
    table = parse_column(pa.array(lines), rapidurl.URL_API_FIELDS, output="view")
    expected = expected_rows(lines, fields=rapidurl.URL_API_FIELDS)
    assert pl.from_arrow(table).to_dicts() == expected
    con = duckdb.connect()
    con.register("t", table)
    names = list(rapidurl.URL_API_FIELDS) + ["error"]
    got = [dict(zip(names, row)) for row in con.execute("select * from t").fetchall()]
    assert got == expected
