"""rapidurl.surt and rapidurl.canonicalize: the API, the fields in parse_column, and
agreement with the reference packages (``surt``, ``w3lib``) on real http(s) URLs.

Each reference and rapidurl are run on every http(s) line of the corpora in
../shared/corpora; the keys must be identical on at least 99.5% of the URLs that parse,
and every difference must fall in a named class (docs/canon.md names them, with an
example each).
"""

import collections
import ipaddress
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import surt as surt_package
from w3lib.url import canonicalize_url

import rapidurl
from rapidurl import parse_column

from conftest import corpus

CORPORA = ["kasztp.txt", "userbait.txt"]


def http_urls():
    urls = []
    for name in CORPORA:
        for line in corpus(name):
            line = line.lstrip("\ufeff")
            if line.lower().startswith(("http://", "https://")):
                urls.append(line)
    assert len(urls) > 50_000
    return urls


def test_api():
    assert rapidurl.surt("http://www.Example.com/B/?b=1&a=2#f") == "com,example)/b?a=2&b=1"
    assert rapidurl.canonicalize("HTTP://Example.com/a?b=1&utm_source=x&a=2#f") == (
        "http://example.com/a?a=2&b=1"
    )
    assert rapidurl.canonicalize("http://h/?b&a=1", preset="scrapy") == "http://h/?a=1&b="
    assert rapidurl.canonicalize("http://3279880203/a/../b", "safe_browsing") == (
        "http://195.127.0.11/b"
    )
    with pytest.raises(rapidurl.ParseError) as err:
        rapidurl.surt("example.com/no-scheme")
    assert err.value.name == "missing-scheme-non-relative-URL"
    with pytest.raises(rapidurl.ParseError):
        rapidurl.canonicalize("http://exa mple.com/")
    with pytest.raises(ValueError, match="unknown preset"):
        rapidurl.canonicalize("http://h/", preset="nope")
    with pytest.raises(TypeError):
        rapidurl.surt(b"http://h/")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_safe_browsing_takes_any_string(text):
    # docs/canon.md: Safe Browsing works on the raw input and never fails, even where the
    # WHATWG parser rejects the string.
    assert isinstance(rapidurl.canonicalize(text, "safe_browsing"), str)


def test_safe_browsing_of_a_string_the_parser_rejects():
    with pytest.raises(rapidurl.ParseError):
        rapidurl.canonicalize("www.google.com")
    assert rapidurl.canonicalize("www.google.com", "safe_browsing") == "http://www.google.com/"


def test_fields_reach_parse_column():
    inputs = ["https://www.Example.com/A/?z=1&a=2&fbclid=q#x", "nope"]
    table = parse_column(inputs, ["surt", "canonical"]).to_pydict()
    assert table == {
        "surt": ["com,example)/a?a=2&fbclid=q&z=1", None],
        "canonical": ["https://www.example.com/A/?a=2&z=1", None],
        "error": [None, "missing-scheme-non-relative-URL"],
    }


def parses(url):
    try:
        return rapidurl.URL(url)
    except rapidurl.ParseError:
        return None


def path_part(url):
    """The input before its query and fragment, without the scheme."""
    return re.split(r"[?#]", url.split("://", 1)[1], maxsplit=1)[0]


def raw_host(url):
    authority = re.split(r"[/\\?#]", url.split("://", 1)[1], maxsplit=1)[0]
    host = authority.rsplit("@", 1)[-1]
    return host if host.startswith("[") else host.rsplit(":", 1)[0] if ":" in host else host


def classify(url, parsed):
    """The class of a difference between a reference and rapidurl on `url`: how the
    reference's own URL splitting (or IDNA 2003) reads `url` where the WHATWG parser reads
    it otherwise."""
    if "\\" in path_part(url):
        return "backslash"
    scheme = url.split(":", 1)[0].lower()
    authority = re.split(r"[/\\?#]", url.split("://", 1)[1], maxsplit=1)[0]
    port = {"http": "80", "https": "443"}[scheme]
    if re.search(rf":0*{port}$", authority):
        return "default-port"
    host = raw_host(url)
    if host.startswith("["):
        return "ipv6"
    if not host.isascii():
        return "idna"
    if parsed.hostname.count(".") == 3 and host.lower() != parsed.hostname:
        try:
            ipaddress.IPv4Address(parsed.hostname)
            return "ipv4-notation"
        except ValueError:
            pass
    return None


def agreement(reference):
    urls = http_urls()
    compared = 0
    classes = collections.Counter()
    unclassified = []
    for url in urls:
        parsed = parses(url)
        if parsed is None:
            continue
        compared += 1
        ours = (rapidurl.surt(url) if reference is surt_package.surt
                else rapidurl.canonicalize(url, "scrapy"))
        theirs = reference(url)
        if ours == theirs:
            continue
        kind = classify(url, parsed)
        if kind is None:
            unclassified.append((url, theirs, ours))
        else:
            classes[kind] += 1
    return compared, classes, unclassified


@pytest.mark.parametrize(
    "reference, expected_classes",
    [
        (surt_package.surt, {"backslash", "ipv4-notation", "idna", "ipv6"}),
        (canonicalize_url, {"default-port", "ipv4-notation", "idna"}),
    ],
    ids=["surt", "w3lib"],
)
def test_agreement_with_the_reference_packages(reference, expected_classes):
    compared, classes, unclassified = agreement(reference)
    differing = sum(classes.values()) + len(unclassified)
    share = 1 - differing / compared
    print(f"{reference.__module__}: {compared} URLs, {share:.4%} identical; {dict(classes)}")
    assert not unclassified, f"differences of no named class: {unclassified[:5]}"
    assert set(classes) <= expected_classes, classes
    assert share >= 0.995, (share, classes)
