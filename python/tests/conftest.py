"""Shared helpers: where the web-platform-tests data and the benchmark corpora are.

WPT data is found as the Rust suites find it (testkit/src/data.rs): the folder named by
RAPIDURL_WPT_DIR, else ../shared/wpt beside the repository. A missing file fails the test
and says where to put it: a missing suite never passes.
"""

import json
import os
from pathlib import Path

import pytest

import rapidurl

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"


def wpt_path(name: str) -> Path:
    env = os.environ.get("RAPIDURL_WPT_DIR")
    if env:
        path = Path(env) / name
        if not path.is_file():
            pytest.fail(f"RAPIDURL_WPT_DIR is set, but {path} is not a file")
        return path
    path = SHARED / "wpt" / name
    if not path.is_file():
        pytest.fail(
            f"WPT data file {name} not found. Put it (from web-platform-tests url/resources/) "
            f"in {SHARED / 'wpt'} or in a folder named by the environment variable RAPIDURL_WPT_DIR."
        )
    return path


def wpt(name: str):
    """The parsed JSON of a WPT data file (lone surrogates kept, as a Python str can hold them)."""
    with open(wpt_path(name), encoding="utf-8") as f:
        return json.load(f)


def wpt_cases(name: str):
    """The objects of a WPT data file that is an array (its strings are comments)."""
    cases = [c for c in wpt(name) if isinstance(c, dict)]
    assert cases, f"{name} holds no test case"
    return cases


def corpus(name: str) -> list:
    """The lines of a benchmark corpus in ../shared/corpora."""
    path = SHARED / "corpora" / name
    if not path.is_file():
        pytest.fail(f"corpus {path} not found (the project's shared data beside the repository)")
    with open(path, "rb") as f:
        return [line.decode("utf-8", "replace") for line in f.read().split(b"\n") if line]


# The URL API's getters, as WPT checks them.
GETTERS = rapidurl.URL_API_FIELDS


def field_of(inputs, field):
    """``field`` of ``URL(u)`` for each input; None for a null or invalid one."""
    out = []
    for text in inputs:
        url = rapidurl.URL.parse(text) if text is not None else None
        out.append(getattr(url, field) if url is not None else None)
    return out
