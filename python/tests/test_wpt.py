"""The web-platform-tests URL data through the Python objects."""

import pytest

import rapidurl
from rapidurl import URL, URLSearchParams

from conftest import GETTERS, wpt, wpt_cases

URLTESTDATA = wpt_cases("urltestdata.json")
JS_ONLY = wpt_cases("urltestdata-javascript-only.json")


def case_id(case):
    return repr(case["input"])[:60] + (" @ " + repr(case["base"])[:40] if case.get("base") else "")


@pytest.mark.parametrize("case", URLTESTDATA + JS_ONLY, ids=case_id)
def test_urltestdata(case):
    base = case.get("base")
    if case.get("failure"):
        with pytest.raises(rapidurl.ParseError) as info:
            URL(case["input"], base)
        assert isinstance(info.value, ValueError)
        assert info.value.name
        assert URL.parse(case["input"], base) is None
        assert not rapidurl.can_parse(case["input"], base)
        return
    url = URL(case["input"], base)
    for getter in GETTERS:
        if getter in case:
            assert getattr(url, getter) == case[getter], getter
    if "searchParams" in case:
        assert str(url.search_params) == case["searchParams"]
    assert rapidurl.can_parse(case["input"], base)
    assert URL.parse(case["input"], base) == url


def setter_cases():
    data = wpt("setters_tests.json")
    out = []
    for attr, cases in data.items():
        if attr == "comment":
            continue
        for case in cases:
            out.append((attr, case))
    assert out, "setters_tests.json holds no test case"
    return out


@pytest.mark.parametrize(
    "attr,case", setter_cases(), ids=lambda v: v if isinstance(v, str) else repr(v["new_value"])[:40]
)
def test_setters(attr, case):
    url = URL(case["href"])
    setattr(url, attr, case["new_value"])
    for getter, expected in case["expected"].items():
        assert getattr(url, getter) == expected, getter


@pytest.mark.parametrize("case", wpt_cases("urlencoded-parser-data.json"), ids=lambda c: repr(c["input"])[:50])
def test_urlencoded_parser(case):
    expected = [tuple(p) for p in case["output"]]
    assert list(URLSearchParams(case["input"])) == expected
    url = URL("https://example.com/?" + case["input"])
    assert list(url.search_params) == expected
