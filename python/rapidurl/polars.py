"""Polars: a ``url`` expression namespace, registered when this module is imported.

>>> import polars as pl
>>> import rapidurl.polars  # registers pl.col(...).url
>>> df = pl.DataFrame({"u": ["https://a.example:8080/x?q=1", "nope"]})
>>> df.select(pl.col("u").url.hostname(), pl.col("u").url.port()).to_dicts()
[{'hostname': 'a.example', 'port': '8080'}, {'hostname': None, 'port': None}]

Each method is a Polars expression plugin (``polars.plugins.register_plugin_function``,
elementwise): the rows are parsed inside Polars' engine, by the extension module itself
(``rapidurl._rapidurl`` is also the plugin library), on Polars' own threads, without the
GIL, in lazy and streaming queries alike. Columns of ``pl.String`` or ``pl.Binary``
(bytes that are not UTF-8 are decoded with U+FFFD) are read in place; each result is a
``pl.String`` column whose values lie in the input's own buffers where they can (a slice
of a canonical URL), copied once otherwise. A null or an invalid URL gives null
(``.url.error()`` names the validation error).

Needs Polars 1.0 or newer: an older one raises ``ImportError`` here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Optional, Union

import polars as pl

from . import DEFAULT_FIELDS, URL_API_FIELDS
from . import _rapidurl

__all__ = ["UrlNamespace", "MIN_POLARS", "HOST_FIELDS", "KEY_FIELDS"]

#: The oldest Polars the plugin runs on (string views, plugin ABI 0.1 with keyword
#: arguments in the field function): tested in its own environment by
#: ``scripts/test-all.sh``.
MIN_POLARS = (1, 0)


def _version(text: str) -> tuple:
    parts = []
    for p in text.split(".")[:2]:
        digits = "".join(c for c in p if c.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


if _version(pl.__version__) < MIN_POLARS:
    raise ImportError(
        f"rapidurl.polars needs Polars {'.'.join(map(str, MIN_POLARS))} or newer; "
        f"this is Polars {pl.__version__} (rapidurl.parse_column takes a Polars Series on any version)"
    )

from polars.plugins import register_plugin_function  # noqa: E402  (after the version check)

#: The plugin library: the extension module itself.
_LIBRARY = Path(_rapidurl.__file__)

#: The host analytics fields, each a method of the namespace.
HOST_FIELDS = ("public_suffix", "registrable_domain", "subdomain")
#: The canonical keys and other derived fields, each a method of the namespace.
KEY_FIELDS = ("display", "valid", "validation_errors", "surt", "canonical")


def _plugin(
    expr: pl.Expr,
    fields: list,
    base: Union[str, pl.Expr, None],
    as_struct: bool,
    routes: Optional[list] = None,
    routes_base: Optional[str] = None,
) -> pl.Expr:
    args = [expr]
    kwargs = {
        "fields": list(fields),
        "base": None,
        "struct": as_struct,
        "routes": routes,
        "routes_base": routes_base,
    }
    if isinstance(base, pl.Expr):
        args.append(base)
    elif isinstance(base, str):
        kwargs["base"] = base
    elif base is not None:
        raise TypeError(f"base must be a str or a Polars expression, not {type(base).__name__}")
    return register_plugin_function(
        plugin_path=_LIBRARY,
        function_name="rapidurl",
        args=args,
        kwargs=kwargs,
        is_elementwise=True,
    )


def _check(names: Iterable[str], routes=None, routes_base=None) -> list:
    """The field names (and the route table), each checked now: an unknown name is a
    ValueError here, a bad pattern a ``rapidurl.PatternError``, not an error of the query."""
    names = list(names)
    if names:
        _rapidurl.parse_column([], names, routes=routes, routes_base=routes_base)
    return names


def _routes(routes: Iterable[Union[str, "tuple[str, str]"]]) -> list:
    """A route table as the plugin takes it: [name or None, pattern] pairs."""
    if isinstance(routes, str):
        raise TypeError("routes must be a list of patterns or of (name, pattern) pairs, not a str")
    out = []
    for r in routes:
        out.append([None, r] if isinstance(r, str) else [r[0], r[1]])
    return out


def _pairs(table: Optional[list]) -> Optional[list]:
    """A table of :func:`_routes` as ``parse_column``'s ``routes`` takes it."""
    if table is None:
        return None
    return [tuple(p) if p[0] is not None else p[1] for p in table]


@pl.api.register_expr_namespace("url")
class UrlNamespace:
    """``pl.col("u").url.<field>()``: one field of every URL (null where a URL is invalid).

    ``base`` (every method) is one base URL (a ``str``) or a column of them (an
    expression, e.g. ``pl.col("page")``): each row is parsed against it. A literal
    (``pl.lit("https://…")``) goes with every row.
    """

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def field(self, name: str, *, base: Union[str, pl.Expr, None] = None) -> pl.Expr:
        """The field ``name`` (any name ``rapidurl.parse_column`` accepts), named after it."""
        return _plugin(self._expr, _check([name]), base, False).alias(name)

    def parse(
        self,
        fields: Optional[Iterable[str]] = None,
        *,
        base: Union[str, pl.Expr, None] = None,
        routes: Optional[Iterable[Union[str, "tuple[str, str]"]]] = None,
        routes_base: Optional[str] = None,
    ) -> pl.Expr:
        """A struct of the ``fields`` (default ``rapidurl.DEFAULT_FIELDS``) and ``error``;
        a field named twice is one member (a struct's members have distinct names).

        ``routes`` and ``routes_base`` are the route table of the fields ``route`` and
        ``route_params``, as for :meth:`route`: asked for together here, both come from
        one lookup of each row (two expressions look each row up twice)."""
        fields = list(dict.fromkeys(DEFAULT_FIELDS if fields is None else fields))
        table = None if routes is None else _routes(routes)
        _check(fields, _pairs(table), routes_base)
        return _plugin(self._expr, fields, base, True, table, routes_base)

    def error(self, *, base: Union[str, pl.Expr, None] = None) -> pl.Expr:
        """The validation-error name of each invalid URL, null for valid ones."""
        return _plugin(self._expr, [], base, False).alias("error")

    def route(
        self,
        routes: Iterable[Union[str, "tuple[str, str]"]],
        *,
        routes_base: Optional[str] = None,
        base: Union[str, pl.Expr, None] = None,
    ) -> pl.Expr:
        """The name of the first route (a URL pattern, or a ``(name, pattern)`` pair) of
        ``routes`` the URL matches; empty when none does (as ``parse_column``'s ``route``)."""
        return self._routed("route", routes, routes_base, base)

    def route_params(
        self,
        routes: Iterable[Union[str, "tuple[str, str]"]],
        *,
        routes_base: Optional[str] = None,
        base: Union[str, pl.Expr, None] = None,
    ) -> pl.Expr:
        """The groups of the first route the URL matches, as ``parse_column``'s
        ``route_params`` writes them; null when none matches."""
        return self._routed("route_params", routes, routes_base, base)

    def _routed(self, field, routes, routes_base, base) -> pl.Expr:
        table = _routes(routes)
        _check([field], _pairs(table), routes_base)
        return _plugin(self._expr, [field], base, False, table, routes_base).alias(field)


def _getter(name: str):
    def method(self: UrlNamespace, *, base: Union[str, pl.Expr, None] = None) -> pl.Expr:
        return self.field(name, base=base)

    method.__name__ = name
    method.__doc__ = f"The ``{name}`` field of every URL (null where a URL is invalid)."
    return method


for _name in URL_API_FIELDS + HOST_FIELDS + KEY_FIELDS:
    setattr(UrlNamespace, _name, _getter(_name))
