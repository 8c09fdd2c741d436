"""``surt.surt`` (surt 0.3.1) computed by rapidurl.

>>> from rapidurl.compat.surt import surt
>>> surt("http://www.Example.com/B/?b=1&a=2#top")
'com,example)/b?a=2&b=1'
>>> surt("http://www.example.com:81/", with_scheme=True, trailing_comma=True)
'http://(com,example:81,)/'
>>> surt(b"filedesc:foo.arc.gz")
b'filedesc:foo.arc.gz'
>>> surt("")
'-'
"""

from __future__ import annotations

from typing import Any, Optional, Union

from .._rapidurl import _surt

__all__ = ["surt", "GoogleURLCanonicalizer", "IAURLCanonicalizer", "DefaultIAURLCanonicalizer"]


class _Canonicalizer:
    """A stand-in for one of the surt package's canonicalizer modules: pass it (or the
    package's own module, or its ``canonicalize`` function) as ``canonicalizer``."""

    def __init__(self, name: str, code: int) -> None:
        self.__name__ = name
        self._code = code

    def __repr__(self) -> str:
        return f"<rapidurl.compat.surt.{self.__name__}>"


#: Google's canonicalizer alone (``surt.GoogleURLCanonicalizer``).
GoogleURLCanonicalizer = _Canonicalizer("GoogleURLCanonicalizer", 1)
#: The Internet Archive's canonicalizer alone (``surt.IAURLCanonicalizer``).
IAURLCanonicalizer = _Canonicalizer("IAURLCanonicalizer", 2)
#: Google's then the Internet Archive's: the default (``surt.DefaultIAURLCanonicalizer``).
DefaultIAURLCanonicalizer = _Canonicalizer("DefaultIAURLCanonicalizer", 0)

_BY_MODULE = {
    "surt.GoogleURLCanonicalizer": 1,
    "surt.IAURLCanonicalizer": 2,
    "surt.DefaultIAURLCanonicalizer": 0,
}


def _one(canonicalizer: Any) -> list[int]:
    """The stages (1 Google's, 2 the IA's) of one canonicalizer."""
    if isinstance(canonicalizer, _Canonicalizer):
        code = canonicalizer._code
    else:
        # The surt package's module, or its `canonicalize` function.
        name = getattr(canonicalizer, "__name__", None)
        module = getattr(canonicalizer, "__module__", None)
        if name in _BY_MODULE:
            code = _BY_MODULE[name]
        elif name == "canonicalize" and module in _BY_MODULE:
            code = _BY_MODULE[module]
        else:
            raise TypeError(
                "rapidurl.compat.surt.surt runs the surt package's canonicalizers only "
                "(GoogleURLCanonicalizer, IAURLCanonicalizer, DefaultIAURLCanonicalizer, "
                f"or a list of them), not {canonicalizer!r}"
            )
    return [1, 2] if code == 0 else [code]


def _code(canonicalizer: Any) -> int:
    """The canonicalizer argument as ``_surt`` takes it: 0 the default, 1 Google's, 2 the
    IA's, 3 none."""
    if canonicalizer is None:
        return 0
    if isinstance(canonicalizer, (list, tuple)):
        stages = [s for c in canonicalizer for s in _one(c)]
    else:
        stages = _one(canonicalizer)
    known = {(1, 2): 0, (1,): 1, (2,): 2, (): 3}
    if tuple(stages) not in known:
        raise TypeError(
            "rapidurl.compat.surt.surt runs Google's canonicalizer, the IA's, both in that "
            f"order, or none; not the sequence {canonicalizer!r}"
        )
    return known[tuple(stages)]


def surt(
    url: Union[str, bytes, None], canonicalizer: Any = None, **options: Any
) -> Union[str, bytes]:
    """The SURT of ``url`` exactly as ``surt.surt(url, canonicalizer, **options)``
    computes it: ``bytes`` for ``bytes``, ``str`` for ``str``.

    ``canonicalizer`` is ``None`` (Google's then the Internet Archive's), one of
    ``GoogleURLCanonicalizer``, ``IAURLCanonicalizer``, ``DefaultIAURLCanonicalizer``
    (this module's or the surt package's), or a list of them. ``options`` are the
    package's: ``surt``, ``with_scheme``, ``trailing_comma``, ``reverse_ipaddr`` and the
    IA canonicalizer's ``host_lowercase``, ``host_massage``, ``port_strip_default``,
    ``path_strip_empty``, ``path_lowercase``, ``path_strip_session_id``,
    ``path_strip_trailing_slash_unless_empty``, ``query_lowercase``,
    ``query_strip_session_id``, ``query_strip_empty``, ``query_alpha_reorder``; others
    are ignored, as the package ignores them. Raises ``ValueError`` where the package
    raises (a port that is not a number up to 65535, an input of whitespace only).
    """
    if canonicalizer is None:
        return _surt(url, 0, options) if options else _surt(url)
    return _surt(url, _code(canonicalizer), options)
