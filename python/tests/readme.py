"""The README's Python examples, as the tests run them."""

import re

from conftest import REPO


def python_blocks():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks, "README.md has no python example"
    return blocks
