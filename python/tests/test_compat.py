"""rapidurl.compat: the drop-in ``surt.surt`` and ``w3lib.url.canonicalize_url`` beside the
real packages (the pinned surt 0.3.1 and w3lib 2.5.0 of python/requirements-test.txt), run
at test time on the same inputs with the same arguments.

The inputs cover the kinds of URL the packages' own test suites exercise (archive
pseudo-URLs, schemes missing or repeated, IPv4 in every notation, IPv6, IDNA, session ids,
escapes decoded once or many times, dot segments, relative URLs, non-special schemes,
ports, credentials, blank values, bytes in several encodings) with every option, plus
generated inputs (hypothesis) and every line of the corpora. Any difference fails, but the
departures docs/canon.md lists (``DEPARTURES`` here): where the package raises, the
drop-in raises too (its exception may be another ``ValueError``-like type).
"""

import itertools
from urllib.parse import urlparse

import pytest
import surt as surt_package
import w3lib.url
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rapidurl.compat import surt as compat_surt
from rapidurl.compat.surt import surt
from rapidurl.compat.w3lib import canonicalize_url

from conftest import corpus

SESSION = "0123456789abcdef0123456789ABCDEF"
ASPX_ID = "(S(abcdefghijklmnopqrstuvwx))"

URLS = [
    # Defaults and the everyday shapes.
    "http://www.archive.org/",
    "http://archive.org/goo/?a=2&b&a=1",
    "HTTP://WWW.Example.COM:80/A/B/?Z=1&y=2#Frag",
    "https://www2.example.com:443/x/",
    "https://www12.example.com:8443/x/../y/./z//",
    "http://example.com",
    "http://example.com?",
    "http://example.com/?",
    "http://example.com/#",
    "http://example.com/a?#b",
    "http://example.com/a#b?",
    "http://user:pass@example.com:8080/p?q#f",
    "http://example.com:/a",
    "http://example.com:::/a",
    # Archive records and inputs the surt package passes through or special-cases.
    "",
    "filedesc:foo.arc.gz",
    "filedesc://IA-FOO.arc 0.0.0.0 20060101 text/plain 1",
    "dns:alexa.com",
    "dns:www.Example.COM",
    "warcinfo:/foo.warc.gz",
    "whois://whois.isc.org/www.archive.org",
    "urn:uuid:12345678-1234-1234-1234-123456789abc",
    "mailto:Someone@Example.com",
    "ftp://ftp.Example.com/Pub/File.txt",
    # Schemes missing, repeated, or an http host in the path.
    "www.example.com/a",
    "example.com:8080/a",
    "http://https://order.1and1.com/x",
    "http://http://http://example.com/",
    "http:////////////////www.vikings.com",
    "https:/example.com/a",
    "http:example.com/a",
    "  http://example.com/ a \t\n",
    "http://exa\tmple.com/p\na\rth",
    # IPv4 in its notations, IPv6.
    "http://127.0.0.1/",
    "http://127.1/",
    "http://0x7f.1/",
    "http://017.0.0.1/",
    "http://3279880203/",
    "http://999999999999/",
    "http://1.2.3/",
    "http://1.2.3.4.5/",
    "http://01.02.03.04/",
    "http://[::1]/",
    "http://[2001:DB8::1]:8080/a",
    "http://[::FFFF:1.2.3.4]/",
    "http://[::0:1]/a/../b",
    # Hosts: dots, escapes, IDNA, case.
    "http://www.example.com./a",
    "http://.www.example..com../a",
    "http://%77%77%77.example.com/",
    "http://ex%2541mple.com/",
    "http://Bücher.Example/Ä?Ö=ü",
    "http://faß.de/",
    "http://xn--bcher-kva.example/",
    "http://-a-.example/",
    "http://" + "a" * 70 + ".example/",
    # Paths: escapes decoded repeatedly, dot segments, slashes, case, session ids.
    "http://example.com/%2541%2f%3F%3b%25%%",
    "http://example.com/a%20b/c%7Ed/%E9t%C3%A9",
    "http://example.com/a/./b/../../c/",
    "http://example.com/../../a",
    "http://example.com//a///b//",
    "http://example.com/a;p=1;q?x;y",
    "http://example.com/a\\b\\c?d\\e",
    "http://example.com/" + ASPX_ID + "/default.aspx",
    "http://example.com/x/(abcdefghijklmnopqrstuvwx)/page.ASPX?a=1",
    "http://example.com/x/" + ASPX_ID + "/page.html",
    # Queries: order, case, blanks, encodings, session ids.
    "http://example.com/?b=2&a=1&a=0&A=3",
    "http://example.com/?a&a=&b=1&&c",
    "http://example.com/?q=a+b%20c%2Bd&r=%e9",
    "http://example.com/?a=1;b=2;a=0",
    "http://example.com/?jsessionid=" + SESSION,
    "http://example.com/?x=1&jsessionid=" + SESSION + "&y=2",
    "http://example.com/?PHPSESSID=" + SESSION + "&x=1",
    "http://example.com/?sid=" + SESSION,
    "http://example.com/?ASPSESSIONIDabcdefgh=ABCDEFGHIJKLMNOPQRSTUVWX&z",
    "http://example.com/?CFID=12&CFTOKEN=34&z=1",
    "http://example.com/?q=%26%3D%23&%3D=1",
    "http://example.com/?q=é&r=中文",
    "http://example.com/?'quote'=\"x\"",
    # Relative inputs, non-special schemes, odd schemes.
    "a?b=1#frag",
    "/path/../x?b&a",
    "?c=1&a=2",
    "#only",
    "//host.Example/a",
    "foo://Example.COM/A%7e?B=1",
    "foo:bar/../baz",
    "foo:/a/./b",
    "data:text/plain,Hello%20World",
    "javascript:alert(1)",
    "file:///C:/Windows/../x",
    "ws://Example.com:80/chat?x",
    "wss://example.com:443/",
    "ftp://u@ftp.example.com:21/a;type=i",
    # Ports and brackets the packages reject.
    "http://example.com:99999/",
    "http://example.com:8x/",
    "http://example.com:-1/",
    "http://[::1/",
    "http://[notv6]/",
    "http://[1.2.3.4]/",
    "http://[v1.x]/",
    "http://a[b]c/",
    "   ",
]

SURT_OPTIONS = [
    "surt",
    "with_scheme",
    "trailing_comma",
    "reverse_ipaddr",
    "host_lowercase",
    "host_massage",
    "port_strip_default",
    "path_strip_empty",
    "path_lowercase",
    "path_strip_session_id",
    "path_strip_trailing_slash_unless_empty",
    "query_lowercase",
    "query_strip_session_id",
    "query_strip_empty",
    "query_alpha_reorder",
    "auth_strip_user",
    "auth_strip_pass",
    "hash_strip",
]


def outcome(f, *args, **kwargs):
    """The result, or that it raised (the drop-ins raise where the packages raise)."""
    try:
        return ("ok", f(*args, **kwargs))
    except Exception as e:  # noqa: BLE001 - the package's own exceptions vary
        return ("raised", None)


def agree_surt(url, canonicalizer=None, theirs_canonicalizer=None, **options):
    theirs = outcome(surt_package.surt, url, theirs_canonicalizer, **options)
    ours = outcome(surt, url, canonicalizer, **options)
    assert ours == theirs, (url, canonicalizer, options)


@pytest.mark.parametrize("url", URLS)
def test_surt_defaults(url):
    agree_surt(url)
    agree_surt(url.encode("utf-8"))


@pytest.mark.parametrize("option", SURT_OPTIONS)
@pytest.mark.parametrize("value", [False, True])
def test_surt_each_option(option, value):
    for url in URLS:
        agree_surt(url, **{option: value})


def test_surt_options_together():
    # Every combination of the key's shape, and a spread of the canonicalizer's steps.
    shape = ["surt", "with_scheme", "trailing_comma", "reverse_ipaddr"]
    steps = SURT_OPTIONS[4:15]
    for values in itertools.product([False, True], repeat=len(shape)):
        options = dict(zip(shape, values))
        for i, url in enumerate(URLS):
            flipped = {steps[i % len(steps)]: False, steps[(i * 7) % len(steps)]: False}
            agree_surt(url, **options, **flipped)


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (compat_surt.GoogleURLCanonicalizer, surt_package.GoogleURLCanonicalizer),
        (compat_surt.IAURLCanonicalizer, surt_package.IAURLCanonicalizer),
        (compat_surt.DefaultIAURLCanonicalizer, surt_package.DefaultIAURLCanonicalizer),
        (surt_package.GoogleURLCanonicalizer, surt_package.GoogleURLCanonicalizer),
        (surt_package.IAURLCanonicalizer.canonicalize, surt_package.IAURLCanonicalizer),
        (
            [compat_surt.GoogleURLCanonicalizer, compat_surt.IAURLCanonicalizer],
            [surt_package.GoogleURLCanonicalizer, surt_package.IAURLCanonicalizer],
        ),
        ([], []),
    ],
    ids=["google", "ia", "default", "package-module", "package-function", "list", "none"],
)
def test_surt_canonicalizers(ours, theirs):
    for url in URLS:
        for options in [{}, {"with_scheme": True}, {"surt": False, "query_strip_empty": False}]:
            agree_surt(url, ours, theirs, **options)


def test_surt_arguments_it_does_not_take():
    with pytest.raises(TypeError, match="canonicalizers only"):
        surt("http://a/", canonicalizer=lambda h, **o: h)
    with pytest.raises(TypeError, match="public_suffix"):
        surt("http://a.example.com/", public_suffix=True)
    with pytest.raises(TypeError):
        surt_package.surt("http://a.example.com/", public_suffix=True)
    with pytest.raises(TypeError, match="str or bytes"):
        surt(12)
    assert surt(None) == surt_package.surt(None) == "-"


def agree_w3lib(url, **kwargs):
    theirs = outcome(w3lib.url.canonicalize_url, url, **kwargs)
    ours = outcome(canonicalize_url, url, **kwargs)
    assert ours == theirs, (url, kwargs)


@pytest.mark.parametrize("url", URLS)
def test_w3lib_defaults(url):
    agree_w3lib(url)
    agree_w3lib(url.encode("utf-8"))


W3LIB_ARGUMENTS = [
    dict(zip(["keep_blank_values", "keep_fragments", "encoding", "query_separator"], values))
    for values in itertools.product(
        [True, False], [False, True], [None, "utf-8", "latin-1", "cp1251", "ascii"], ["&", ";"]
    )
]


@pytest.mark.parametrize("kwargs", W3LIB_ARGUMENTS, ids=str)
def test_w3lib_arguments(kwargs):
    for url in URLS:
        agree_w3lib(url, **kwargs)
        # Bytes in the given encoding, where it can write the URL; else UTF-8.
        try:
            raw = url.encode(kwargs["encoding"] or "utf-8")
        except UnicodeEncodeError:
            raw = url.encode("utf-8")
        agree_w3lib(raw, **kwargs)


def test_w3lib_other_inputs():
    parsed = [outcome(urlparse, url) for url in URLS]
    results = [p for kind, p in parsed if kind == "ok"]
    assert len(results) > 80
    for result in results:
        agree_w3lib(result)
    agree_w3lib(b"http://h/\xff\xfe?q=\xff#\xff", keep_fragments=True)
    agree_w3lib("http://h/?a=1|b=2", query_separator="|")
    agree_w3lib("http://h/?a=1", query_separator="")
    with pytest.raises(LookupError):
        canonicalize_url("http://h/", encoding="no-such-codec")
    with pytest.raises(TypeError):
        canonicalize_url(12)


# Generated inputs: URL-shaped strings from the characters that change how the packages
# split and rewrite a URL.
PIECES = st.sampled_from(
    ["http://", "https://", "HTTP://", "ftp://", "foo:", "//", "www.", "www1.", "a", "B", "é",
     "0", "1", "9", ".", "..", "/", "./", "../", "?", "#", "&", "=", ";", ":", "@", "%",
     "%2", "%25", "%41", "%2e", "%2F", "%3f", "%e9", "+", " ", "\t", "\\", "[", "]", "::1",
     "jsessionid=" + SESSION, "(abcdefghijklmnopqrstuvwx)/", ".aspx", "127.0.0.1", "0x7f",
     "017", "~", "|", "'", "ñ", "中"]
)
GENERATED = st.lists(PIECES, max_size=14).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GENERATED, st.sampled_from(SURT_OPTIONS[:15]), st.booleans())
def test_surt_generated(url, option, value):
    agree_surt(url)
    agree_surt(url, **{option: value})


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(GENERATED, st.booleans(), st.booleans(), st.sampled_from([None, "latin-1"]))
def test_w3lib_generated(url, keep_blank_values, keep_fragments, encoding):
    agree_w3lib(
        url,
        keep_blank_values=keep_blank_values,
        keep_fragments=keep_fragments,
        encoding=encoding,
    )


@pytest.mark.parametrize("name", ["kasztp.txt", "userbait.txt"])
def test_corpora_identical(name):
    lines = [line.lstrip("\ufeff") for line in corpus(name)]
    assert len(lines) > 10_000
    for line in lines:
        assert surt(line) == surt_package.surt(line), line
        assert outcome(canonicalize_url, line) == outcome(w3lib.url.canonicalize_url, line), line
