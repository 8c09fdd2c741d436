"""web-platform-tests urlpatterntestdata.json through ``rapidurl.URLPattern``, as the WPT
harness runs it in a browser; then ``parse_column(..., routes=...)``."""

import pytest

import rapidurl
from rapidurl import PatternError, URLPattern

from conftest import wpt_cases

CASES = wpt_cases("urlpatterntestdata.json")
COMPONENTS = ["protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"]
KEYS = set(COMPONENTS) | {"baseURL"}
EARLIER = {
    "protocol": [],
    "hostname": ["protocol"],
    "port": ["protocol", "hostname"],
    "username": [],
    "password": [],
    "pathname": ["protocol", "hostname", "port"],
    "search": ["protocol", "hostname", "port", "pathname"],
    "hash": ["protocol", "hostname", "port", "pathname", "search"],
}


def known(d):
    """A WebIDL dictionary keeps only the members it has."""
    return {k: v for k, v in d.items() if k in KEYS}


def construct(args):
    """``new URLPattern(...args)``: (input, baseURL, options) or (input, options)."""
    input_ = args[0] if args else None
    if isinstance(input_, dict):
        input_ = known(input_)
    base, ignore_case = None, False
    if len(args) > 1:
        if isinstance(args[1], str):
            base = args[1]
            if len(args) > 2:
                ignore_case = bool(args[2].get("ignoreCase", False))
        elif len(args) > 2:
            base = "[object Object]"  # WebIDL: the dictionary as a string
        else:
            ignore_case = bool(args[1].get("ignoreCase", False))
    return URLPattern(input_, base, ignore_case=ignore_case)


def expected_component(case, component):
    pattern = case["pattern"]
    if component in case.get("exactly_empty_components", []):
        return ""
    first = pattern[0] if pattern else None
    if isinstance(first, dict):
        if first.get(component):
            return first[component]
        if any(c in first for c in EARLIER[component]):
            return "*"
    base = None
    if isinstance(first, dict) and first.get("baseURL"):
        base = rapidurl.URL(first["baseURL"])
    elif len(pattern) > 1 and isinstance(pattern[1], str):
        base = rapidurl.URL(pattern[1])
    if base is not None and component not in ("username", "password"):
        value = getattr(base, component)
        if component == "protocol":
            value = value[:-1]
        elif component in ("search", "hash"):
            value = value[1:]
        return value
    return "*"


def call(method, inputs):
    args = list(inputs)
    if args and isinstance(args[0], dict):
        args[0] = known(args[0])
    return method(*args)


def case_id(case):
    return repr(case["pattern"])[:70] + " " + repr(case.get("inputs"))[:50]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_urlpatterntestdata(case):
    if case.get("expected_obj") == "error":
        with pytest.raises((PatternError, TypeError)):
            construct(case["pattern"])
        return
    pattern = construct(case["pattern"])
    expected_obj = case.get("expected_obj") or {}
    for component in COMPONENTS:
        expected = expected_obj.get(component)
        if expected is None:
            expected = expected_component(case, component)
        assert getattr(pattern, component) == expected, component
    if "inputs" not in case:
        return
    inputs = case["inputs"]
    expected = case.get("expected_match")
    if expected == "error":
        with pytest.raises(TypeError):
            call(pattern.test, inputs)
        with pytest.raises(TypeError):
            call(pattern.exec, inputs)
        return
    assert call(pattern.test, inputs) == isinstance(expected, dict)  # JavaScript's !!
    result = call(pattern.exec, inputs)
    if not isinstance(expected, dict):
        assert result is None
        return
    assert result is not None
    assert len(result["inputs"]) == len(expected.get("inputs", inputs))
    empty = case.get("exactly_empty_components", [])
    for component in COMPONENTS:
        want = expected.get(component)
        if want is None:
            want = {"input": "", "groups": {} if component in empty else {"0": ""}}
        assert result[component] == want, component


def test_pattern_error_is_a_value_error_that_says_where():
    with pytest.raises(PatternError) as info:
        URLPattern("https://example.com/:id/:id")
    assert isinstance(info.value, ValueError)
    assert info.value.component == "pathname"
    assert info.value.position == 5
    assert "duplicate group name `id`" in str(info.value)
    with pytest.raises(PatternError) as info:
        URLPattern({"pathname": "/(\\m)"})
    assert info.value.component == "pathname"
    with pytest.raises(TypeError):
        URLPattern({"pathname": "/x"}, "https://example.com")
    with pytest.raises(TypeError):
        URLPattern({"path": "/x"})


def test_parse_column_with_routes():
    urls = [
        "https://example.com/users/42",
        "https://cdn.example.com/a.js",
        "https://other.test/",
        "nope",
        None,
    ]
    routes = [("user", "https://example.com/users/:id(\\d+)"), "https://*.example.com/*"]
    t = rapidurl.parse_column(urls, ["route", "route_params"], routes=routes)
    d = t.to_pydict() if hasattr(t, "to_pydict") else None
    assert d == {
        "route": ["user", "https://*.example.com/*", "", None, None],
        "route_params": [
            '{"id":"42"}',
            '{"hostname.0":"cdn","pathname.0":"a.js"}',
            None,
            None,
            None,
        ],
        "error": [None, None, None, "missing-scheme-non-relative-URL", None],
    }
    with pytest.raises(PatternError) as info:
        rapidurl.parse_column(urls, ["route"], routes=["https://x.test/:a/:a"])
    assert "routes[0]" in str(info.value)
    with pytest.raises(TypeError):
        rapidurl.parse_column(urls, ["route"])


def test_a_route_lookup_that_runs_out_of_steps_is_an_error_row():
    # A route with a lookahead runs on the bounded backtracking interpreter: the row on
    # which it runs out of steps gets NULL fields and the error route-match-limit, as a
    # row that does not parse; the other rows keep their routes.
    stall = "https://h.test/w/" + "a" * 40
    urls = ["https://h.test/w/aab", stall, "nope", "https://h.test/x"]
    routes = [("word", "/w/:a((?=(?:a|a)*b)\\w*)"), ("any", "/*")]
    d = rapidurl.parse_column(urls, ["route", "route_params"], routes=routes).to_pydict()
    assert d == {
        "route": ["word", None, None, "any"],
        "route_params": ['{"a":"aab"}', None, None, '{"pathname.0":"x"}'],
        "error": [None, "route-match-limit", "missing-scheme-non-relative-URL", None],
    }
    # Without the route fields, the table is not looked up: the row is valid.
    d = rapidurl.parse_column(urls, ["href", "valid"], routes=routes).to_pydict()
    assert d["error"] == [None, None, "missing-scheme-non-relative-URL", None]
    assert d["href"][1] == stall
    # The pattern alone raises on that URL instead of answering.
    with pytest.raises(PatternError) as info:
        URLPattern("https://h.test/w/:a((?=(?:a|a)*b)\\w*)").test(stall)
    assert "gave up" in str(info.value)


def test_parse_column_with_path_routes():
    urls = [
        "https://example.com/users/42",
        "http://other.test:8080/users/7?x=1",
        "https://example.com/find?q=lamp",
        "https://example.com/static/a.css",
    ]
    routes = [("user", "/users/:id(\\d+)"), "/find?q=:q", ("static", "https://*/static/*")]
    d = rapidurl.parse_column(urls, ["route", "route_params"], routes=routes).to_pydict()
    assert d["route"] == ["user", "user", "/find?q=:q", "static"]
    assert d["route_params"] == [
        '{"id":"42"}',
        '{"id":"7"}',
        '{"q":"lamp"}',
        '{"pathname.0":"a.css"}',
    ]
    # With a base, a path matches on the base's protocol, host and port only.
    d = rapidurl.parse_column(
        urls, ["route"], routes=routes, routes_base="https://example.com"
    ).to_pydict()
    assert d["route"] == ["user", "", "/find?q=:q", "static"]
    # A relative pattern that is not a path needs a base.
    with pytest.raises(PatternError) as info:
        rapidurl.parse_column(urls, ["route"], routes=["/ok", "users/:id"])
    assert "routes[1]" in str(info.value)
    assert rapidurl.parse_column(
        urls, ["route"], routes=["users/:id"], routes_base="https://example.com/"
    ).to_pydict()["route"] == ["users/:id", "", "", ""]
    with pytest.raises(TypeError):
        rapidurl.parse_column(urls, ["href"], routes_base="https://example.com")
