"""The Python examples of README.md and python/README.md (the package's reference), as
the tests run them."""

import re

from conftest import REPO

DOCS = ("README.md", "python/README.md")


def python_blocks():
    blocks = []
    for doc in DOCS:
        text = (REPO / doc).read_text(encoding="utf-8")
        # The DuckDB extension's build-and-load lines need the extension built first:
        # duckdb/test/test_docs.py runs them after building it (scripts/test-all.sh).
        text = re.sub(
            r"<!-- duckdb:build-and-load.*?<!-- /duckdb:build-and-load -->", "", text, flags=re.S
        )
        found = re.findall(r"```python\n(.*?)```", text, flags=re.S)
        assert found, f"{doc} has no python example"
        blocks += found
    return blocks
