"""The Python objects' own behaviour: errors, repr, equality, hashing, pickling, the bound
search_params, URLSearchParams' methods and constructors."""

import copy
import pickle

import pytest

import rapidurl
from rapidurl import URL, ParseError, URLSearchParams


def test_parse_error_is_a_value_error_with_name_and_offset():
    with pytest.raises(ParseError) as info:
        URL("http://example.com:99999/")
    err = info.value
    assert isinstance(err, ValueError)
    assert err.name == "port-out-of-range"
    assert err.offset == 19
    assert str(err) == "port-out-of-range at index 19: the port is greater than 65535"


def test_parse_error_offset_counts_code_points():
    # "é" is two UTF-8 bytes but one index of the str.
    with pytest.raises(ParseError) as info:
        URL("http://é.example:99999/")
    assert info.value.offset == len("http://é.example:")


def test_parse_error_without_offset_and_bad_base():
    with pytest.raises(ParseError) as info:
        URL("no scheme")
    assert info.value.name == "missing-scheme-non-relative-URL"
    with pytest.raises(ParseError) as info:
        URL("/x", "not a base")
    assert info.value.name == "base-URL-invalid"


def test_parse_error_pickles():
    with pytest.raises(ParseError) as info:
        URL("http://[::1/")
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.name, again.offset, str(again)) == (info.value.name, info.value.offset, str(info.value))


def test_parse_and_can_parse():
    assert URL.parse("nope") is None
    assert URL.parse("/a", "https://h.example/b/c").href == "https://h.example/a"
    assert URL.parse("/a", URL("https://h.example/b/c")).href == "https://h.example/a"
    assert rapidurl.can_parse("/a", "https://h.example/") is True
    assert rapidurl.can_parse("/a") is False
    assert URL.can_parse("https://h.example/") is True
    with pytest.raises(TypeError):
        URL(42)
    with pytest.raises(TypeError):
        URL("/a", 42)


def test_getters_and_origin():
    url = URL("HTTPS://user:pw@Bücher.Example:443/a/../b?x=1#f")
    assert url.href == "https://user:pw@xn--bcher-kva.example/b?x=1#f"
    assert url.origin == "https://xn--bcher-kva.example"
    assert (url.protocol, url.username, url.password) == ("https:", "user", "pw")
    assert (url.host, url.hostname, url.port) == ("xn--bcher-kva.example", "xn--bcher-kva.example", "")
    assert (url.pathname, url.search, url.hash) == ("/b", "?x=1", "#f")
    assert str(url) == url.href == url.to_json()


def test_setters_and_port_int():
    url = URL("https://example.com/")
    url.port = 8443
    url.pathname = "/a b"
    url.search = "q=1"
    url.hash = "top"
    assert url.href == "https://example.com:8443/a%20b?q=1#top"
    url.port = "443"
    assert url.port == ""
    with pytest.raises(TypeError):
        url.port = 1.5
    url.href = "http://other.example/"
    assert url.hostname == "other.example"
    with pytest.raises(ParseError):
        url.href = "not a url"
    assert url.href == "http://other.example/"


def test_repr_hides_the_password():
    url = URL("https://alice:s3cret@example.com/")
    assert "s3cret" not in repr(url)
    assert repr(url) == "URL('https://alice:***@example.com/')"
    assert url.password == "s3cret"
    assert repr(URL("https://example.com/")) == "URL('https://example.com/')"


def test_equality_and_hash():
    a, b = URL("https://EXAMPLE.com/a"), URL("https://example.com/./a")
    assert a == b and hash(a) == hash(b)
    assert a != URL("https://example.com/b")
    assert a != "https://example.com/a"
    assert len({a, b}) == 1


def test_pickle_and_copy():
    url = URL("https://u:p@example.com:8080/p?q#f")
    for other in (pickle.loads(pickle.dumps(url)), copy.copy(url), copy.deepcopy(url)):
        assert other == url and other is not url
    params = URLSearchParams("a=1&b=2&a=3")
    assert pickle.loads(pickle.dumps(params)) == params


def test_unknown_attribute():
    with pytest.raises(AttributeError):
        URL("https://example.com/").colour


def test_lone_surrogates_and_nul():
    # A lone surrogate becomes U+FFFD, as the URL API's USVString conversion does.
    assert URL("https://example.com/\ud800").pathname == "/%EF%BF%BD"
    assert URL("https://example.com/?\udc00x").search == "?%EF%BF%BDx"
    assert URL("https://example.com/a\x00b").pathname == "/a%00b"
    with pytest.raises(ParseError):
        URL("https://exa\x00mple.com/")


def test_megabyte_input():
    url = URL("https://example.com/" + "a" * 1_000_000)
    assert len(url.pathname) == 1_000_001
    with pytest.raises(ParseError):
        URL("http://[" + "1:" * 500_000)


def test_search_params_is_bound_to_the_url():
    url = URL("https://example.com/?b=2&a=1")
    params = url.search_params
    params.append("c", "x y")
    assert url.search == "?b=2&a=1&c=x+y"
    params.sort()
    assert url.href == "https://example.com/?a=1&b=2&c=x+y"
    url.search = "?z=9"
    assert list(params) == [("z", "9")]
    params.delete("z")
    assert url.search == "" and url.href == "https://example.com/"


def test_search_params_methods():
    p = URLSearchParams("?a=1&b=2&a=3")
    assert p.get("a") == "1" and p.get("zz") is None
    assert p.get_all("a") == ["1", "3"]
    assert p.has("b") and p.has("a", "3") and not p.has("a", "2")
    assert "a" in p and "zz" not in p
    assert p.size == len(p) == 3
    p.set("a", "9")
    assert str(p) == "a=9&b=2"
    p.delete("b", "nope")
    assert str(p) == "a=9&b=2"
    p.delete("b", "2")
    assert str(p) == "a=9"
    p.append("é", "&=")
    assert str(p) == "a=9&%C3%A9=%26%3D"
    assert p.keys() == ["a", "é"] and p.values() == ["9", "&="]
    assert p.items() == [("a", "9"), ("é", "&=")]
    assert repr(p) == "URLSearchParams('a=9&%C3%A9=%26%3D')"


def test_search_params_constructors():
    assert str(URLSearchParams()) == ""
    assert str(URLSearchParams({"a": "1", "b": "2"})) == "a=1&b=2"
    assert str(URLSearchParams([("a", "1"), ["a", "2"]])) == "a=1&a=2"
    assert str(URLSearchParams(URLSearchParams("x=1"))) == "x=1"
    with pytest.raises(TypeError, match="item 1"):
        URLSearchParams([("a", "1"), ("b",)])
    with pytest.raises(TypeError):
        URLSearchParams(42)
    p = URLSearchParams("b=1")
    p.sort()
    assert list(iter(p)) == [("b", "1")]
