"""Invariants of the Python package over arbitrary input, shared by the Hypothesis tests
(test_fuzz.py, bounded, on every pytest run) and the atheris harness (fuzz/python_fuzz.py,
run for a fixed time by fuzz/run.sh).

Each check takes plain values (``str`` that may hold lone surrogates, ``bytes``, lists)
and raises AssertionError when the package disagrees with another path through the
Rust library: a ``URL`` object against the bulk engine (``parse_column``, which parses
a whole Arrow column with the batch code), the ``URLSearchParams`` of a URL against one
built from the same query, both against a model of the Standard's list operations
(§6.2). Any exception other than the ones the API documents is a finding too; a crash of
the interpreter is one the harness cannot miss.
"""

from __future__ import annotations

import pyarrow as pa

import rapidurl
from rapidurl import URL, ParseError, URLSearchParams, can_parse, parse_column

GETTERS = list(rapidurl.URL_API_FIELDS)
SETTERS = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"]
# The string types parse_column reads (every one must give the same rows).
STRING_TYPES = [pa.string(), pa.large_string(), pa.string_view()]
FALLBACK = "https://user:pw@example.org:8080/dir/file?q=1&r=2#frag"


def usv(text: str) -> str:
    """``text`` as the URL API sees it (USVString, through UTF-16): a surrogate pair is
    its code point, a lone surrogate U+FFFD."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def row_of(text, base=None):
    """What ``URL(text, base)`` gives, as a ``parse_column`` row (fields plus ``error``)."""
    if text is None:
        return {**{f: None for f in GETTERS}, "error": None}
    try:
        url = URL(text, base)
    except ParseError as err:
        return {**{f: None for f in GETTERS}, "error": err.name}
    return {**{f: getattr(url, f) for f in GETTERS}, "error": None}


def check_url(text: str, base: str | None = None) -> None:
    """``URL``, ``URL.parse``, both ``can_parse`` and ``parse_column`` agree on one input;
    a parsed URL's href parses to an equal URL; an error's offset is inside the input."""
    try:
        url = URL(text, base)
        error = None
    except ParseError as err:
        url, error = None, err
        assert isinstance(err.name, str) and err.name, repr(text)
        assert err.offset is None or 0 <= err.offset <= len(text), (text, err.offset)
    parsed = URL.parse(text, base)
    assert (parsed is None) == (url is None), (text, base)
    assert can_parse(text, base) == (url is not None), (text, base)
    assert URL.can_parse(text, base) == (url is not None), (text, base)
    if url is not None:
        assert parsed == url and parsed.href == url.href
        again = URL(url.href)
        assert again.href == url.href and again == url, (text, base, url.href)
        assert hash(again) == hash(url)
    # The bulk engine: the same row. One `str` base for every row that does not parse
    # fails the whole call, as `URL(text, base)` fails.
    if base is not None and URL.parse(base) is None:
        assert error is not None and error.name == "base-URL-invalid", (text, base, error)
        try:
            parse_column([text], GETTERS, base=base, threads=1)
        except ParseError as err:
            assert err.name == "base-URL-invalid", (text, base, err.name)
        else:
            raise AssertionError(f"parse_column took the base {base!r}")
        return
    table = parse_column([text], GETTERS, base=base, threads=1)
    [got] = table.to_pylist()
    want = row_of(text, base)
    assert got == want, (text, base, got, want)


def check_setters(text: str, ops: list[tuple[str, str]]) -> None:
    """Setter calls on a URL: only ``href`` raises (ParseError, the URL unchanged); after
    every call the href parses to an equal URL and the bulk engine reads the same fields;
    its ``search_params`` list what ``URLSearchParams`` makes of its query."""
    url = URL.parse(text) or URL(FALLBACK)
    for name, value in ops:
        before = url.href
        try:
            setattr(url, name, value)
        except ParseError:
            assert name == "href", (before, name, value)
            assert url.href == before, (before, name, value, url.href)
        href = url.href
        again = URL(href)
        assert again.href == href and again == url, (before, name, value, href)
        [got] = parse_column([href], GETTERS, threads=1).to_pylist()
        assert got == {**{f: getattr(url, f) for f in GETTERS}, "error": None}, (before, name, value)
        assert url.search_params.items() == URLSearchParams(url.search).items(), href


def utf16_key(name: str) -> list[int]:
    """The sort key of §6.2's sort: code units of the name's UTF-16 encoding."""
    data = name.encode("utf-16-be", "surrogatepass")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]


def check_search_params(query: str, ops: list[tuple[str, str, str]]) -> None:
    """``URLSearchParams(query)`` against the same query inside a URL; then operations
    against a model list written from §6.2; the serialization parses back to the list."""
    params = URLSearchParams(query)
    model = params.items()
    stripped = query[1:] if query.startswith("?") else query
    # A query inside a URL is the same list unless the URL parser changes it first:
    # `#` ends it, tabs and newlines go, C0 controls and spaces at the ends are trimmed.
    if not any(c in stripped for c in "#\t\n\r") and stripped == stripped.strip("".join(map(chr, range(0x21)))):
        url = URL("http://h/?" + stripped)
        assert url.search_params.items() == model, (query, url.href)
    for op, name, value in ops:
        name, value = usv(name), usv(value)
        if op == "append":
            params.append(name, value)
            model.append((name, value))
        elif op == "delete":
            params.delete(name)
            model = [p for p in model if p[0] != name]
        elif op == "delete_value":
            params.delete(name, value)
            model = [p for p in model if p != (name, value)]
        elif op == "set":
            params.set(name, value)
            at = next((i for i, p in enumerate(model) if p[0] == name), None)
            if at is None:
                model.append((name, value))
            else:
                model = model[:at] + [(name, value)] + [p for p in model[at + 1 :] if p[0] != name]
        elif op == "sort":
            params.sort()
            model.sort(key=lambda p: utf16_key(p[0]))
        assert params.items() == model, (query, ops)
        assert len(params) == len(model) and params.size == len(model)
        assert params.get(name) == next((v for n, v in model if n == name), None)
        assert params.get_all(name) == [v for n, v in model if n == name]
        assert params.has(name) == any(n == name for n, _ in model)
        assert params.has(name, value) == ((name, value) in model)
    assert URLSearchParams(str(params)).items() == model, (query, ops, str(params))


def check_column(values: list, bases: list | None = None) -> None:
    """``parse_column`` over a list of ``str``/``None`` and over each Arrow string type:
    row for row what ``URL(value, base)`` gives."""
    want = []
    for i, value in enumerate(values):
        base = bases[i] if bases is not None else None
        row = row_of(value, base)
        if row["error"] is not None and base is not None and URL.parse(base) is None:
            row["error"] = "base-URL-invalid"
        want.append(row)
    got = parse_column(values, GETTERS, base=bases, threads=1).to_pylist()
    assert got == want, (values, bases)
    clean = [usv(v) if v is not None else None for v in values]
    clean_bases = [usv(b) if b is not None else None for b in bases] if bases is not None else None
    for kind in STRING_TYPES:
        column = pa.array(clean, type=kind)
        base_column = pa.array(clean_bases, type=kind) if clean_bases is not None else None
        got = parse_column(column, GETTERS, base=base_column, threads=2).to_pylist()
        assert got == want, (kind, values, bases)


def check_raw_arrow(values: list) -> None:
    """A utf8 (and a binary) Arrow array built from raw bytes, not checked for UTF-8:
    ``parse_column`` reads a value that is not UTF-8 as its lossy decoding, and returns a
    row per value."""
    offsets, data, valid = [0], bytearray(), []
    for value in values:
        if value is not None:
            data += value
        offsets.append(len(data))
        valid.append(value is not None)
    validity = pa.array(valid, type=pa.bool_()).buffers()[1]
    buffers = [validity, pa.py_buffer(pa.array(offsets, type=pa.int32()).buffers()[1]), pa.py_buffer(bytes(data))]
    want = [row_of(v.decode("utf-8", "replace") if v is not None else None) for v in values]
    for kind in (pa.string(), pa.binary()):
        array = pa.Array.from_buffers(kind, len(values), buffers, null_count=valid.count(False))
        got = parse_column(array, GETTERS, threads=1).to_pylist()
        assert got == want, (kind, values)
