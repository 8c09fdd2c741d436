"""DataFusion: scalar UDFs ``url_<field>(utf8) -> utf8`` over Arrow arrays.

>>> import datafusion, rapidurl.datafusion
>>> ctx = datafusion.SessionContext()
>>> rapidurl.datafusion.register(ctx)
>>> ctx.sql("select url_hostname('https://a.example/x') as h").to_pydict()
{'h': ['a.example']}
"""

from __future__ import annotations

from typing import Iterable, List, Optional

import pyarrow as pa
from datafusion import udf

from . import URL_API_FIELDS, parse_column

__all__ = ["udfs", "register"]


def _function(field: Optional[str]):
    fields = [] if field is None else [field]
    column = "error" if field is None else field

    def run(urls: pa.Array) -> pa.Array:
        return parse_column(urls, fields)[column].combine_chunks()

    return run


def udfs(fields: Optional[Iterable[str]] = None, *, prefix: str = "url_") -> List:
    """One scalar UDF per field (default: every URL API attribute), plus ``{prefix}error``."""
    out = []
    for field in list(URL_API_FIELDS if fields is None else fields) + [None]:
        name = prefix + ("error" if field is None else field)
        out.append(udf(_function(field), [pa.string()], pa.string(), "immutable", name=name))
    return out


def register(ctx, fields: Optional[Iterable[str]] = None, *, prefix: str = "url_") -> None:
    """Registers ``udfs(fields, prefix=prefix)`` on the SessionContext ``ctx``."""
    for f in udfs(fields, prefix=prefix):
        ctx.register_udf(f)
