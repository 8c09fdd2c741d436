"""Every Python example of README.md and python/README.md runs and its asserts hold (the
Spark one runs in test_spark.py, in the tests' Spark session)."""

import pytest

from readme import python_blocks

BLOCKS = [b for b in python_blocks() if "pyspark" not in b]


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0][:40] for b in BLOCKS])
def test_readme_example(block):
    exec(compile(block, "README.md", "exec"), {})
