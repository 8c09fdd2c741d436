"""Polars: a ``url`` expression namespace, registered when this module is imported.

>>> import polars as pl
>>> import rapidurl.polars  # registers pl.col(...).url
>>> df = pl.DataFrame({"u": ["https://a.example:8080/x?q=1", "nope"]})
>>> df.select(pl.col("u").url.hostname(), pl.col("u").url.port()).to_dicts()
[{'hostname': 'a.example', 'port': '8080'}, {'hostname': None, 'port': None}]

Each method runs ``rapidurl.parse_column`` on whole batches (``Expr.map_batches``): the
Series goes to Rust through the Arrow PyCapsule interface, read in place, and the result
comes back as Arrow. ``parse(fields)`` gives a struct column (one field per name, plus
``error``) for ``.struct.unnest()``.
"""

from __future__ import annotations

from typing import Iterable, Optional

import polars as pl

from . import DEFAULT_FIELDS, URL_API_FIELDS
from ._rapidurl import parse_column as _parse_column

__all__ = ["UrlNamespace"]


def _frame(series: pl.Series, fields, base, threads) -> pl.DataFrame:
    return pl.DataFrame(_parse_column(series, list(fields), base=base, threads=threads))


@pl.api.register_expr_namespace("url")
class UrlNamespace:
    """``pl.col("u").url.<field>()``: one field of every URL (null where a URL is invalid)."""

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def field(self, name: str, *, base: Optional[str] = None, threads: Optional[int] = None) -> pl.Expr:
        """The field ``name`` (any name ``rapidurl.parse_column`` accepts), named after it."""

        def run(s: pl.Series) -> pl.Series:
            return _frame(s, [name], base, threads).to_series(0)

        return self._expr.map_batches(run, return_dtype=pl.String).alias(name)

    def parse(
        self,
        fields: Optional[Iterable[str]] = None,
        *,
        base: Optional[str] = None,
        threads: Optional[int] = None,
    ) -> pl.Expr:
        """A struct of the ``fields`` (default ``rapidurl.DEFAULT_FIELDS``) and ``error``."""
        fields = list(DEFAULT_FIELDS if fields is None else fields)
        dtype = pl.Struct({name: pl.String for name in fields + ["error"]})

        def run(s: pl.Series) -> pl.Series:
            return _frame(s, fields, base, threads).to_struct(s.name)

        return self._expr.map_batches(run, return_dtype=dtype)

    def error(self) -> pl.Expr:
        """The validation-error name of each invalid URL, null for valid ones."""

        def run(s: pl.Series) -> pl.Series:
            return _frame(s, [], None, None).to_series(0)

        return self._expr.map_batches(run, return_dtype=pl.String).alias("error")


def _getter(name: str):
    def method(self: UrlNamespace, *, base: Optional[str] = None, threads: Optional[int] = None) -> pl.Expr:
        return self.field(name, base=base, threads=threads)

    method.__name__ = name
    method.__doc__ = f"The URL API's ``{name}`` of every URL (null where a URL is invalid)."
    return method


for _name in URL_API_FIELDS:
    setattr(UrlNamespace, _name, _getter(_name))
