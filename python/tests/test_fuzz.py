"""Bounded fuzzing of the Python package with Hypothesis (the same checks as the atheris
harness fuzz/python_fuzz.py, fuzz_checks.py): arbitrary ``str`` (lone surrogates
included) and Arrow input never crash the interpreter and agree with the other paths
through the Rust library."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzz_checks as checks

# Text that reaches the parser's states: URL-ish pieces mixed with any code points
# (surrogates included: a Python str can hold them).
PIECES = st.sampled_from(
    ["http://", "https://", "file:", "a:", "//", "/", "\\", "?", "#", "@", ":", "[", "]", "%", "%41",
     "%zz", ".", "..", "xn--", "example.com", "1.2.3.4", "[::1]", " ", "\t", "\u00e9", "\u0661", "\uff0e",
     "\u200f", "\ud800", "&", "=", "+", "0x7f", "65536"]
)
TEXT = st.one_of(
    st.text(max_size=40),
    st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=12).map("".join),
)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(TEXT, st.one_of(st.none(), TEXT, st.just("https://example.org/dir/x?y#z")))
def test_url_agrees_with_the_bulk_engine(text, base):
    checks.check_url(text, base)


@SETTINGS
@given(TEXT, st.lists(st.tuples(st.sampled_from(checks.SETTERS), TEXT), max_size=6))
def test_setters_keep_a_url_that_parses_to_itself(text, ops):
    checks.check_setters(text, ops)


@SETTINGS
@given(
    TEXT,
    st.lists(
        st.tuples(st.sampled_from(["append", "delete", "delete_value", "set", "sort"]), TEXT, TEXT),
        max_size=8,
    ),
)
def test_search_params_follow_the_model(query, ops):
    checks.check_search_params(query, ops)


@SETTINGS
@given(st.lists(st.one_of(st.none(), TEXT), max_size=8), st.booleans(), st.data())
def test_parse_column_row_for_row(values, with_bases, data):
    bases = None
    if with_bases:
        bases = data.draw(st.lists(st.one_of(st.none(), TEXT), min_size=len(values), max_size=len(values)))
    checks.check_column(values, bases)


@SETTINGS
@given(st.lists(st.one_of(st.none(), st.binary(max_size=30)), max_size=8))
def test_raw_arrow_bytes(values):
    checks.check_raw_arrow(values)
