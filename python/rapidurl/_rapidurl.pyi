"""Type stubs of the extension module (its docstrings are the reference)."""

from typing import Any, Iterable, Iterator, Mapping, Optional, Sequence, Tuple, Union, overload

class ParseError(ValueError):
    """A URL that could not be parsed."""

    name: str
    """The URL Standard's validation-error name, e.g. 'port-out-of-range'."""
    offset: Optional[int]
    """The index in the input str where the problem was found, or None."""

class PatternError(ValueError):
    """A URL pattern that could not be constructed."""

    component: Optional[str]
    """The component whose pattern is wrong ('protocol' … 'hash'), or None."""
    position: Optional[int]
    """The code point index in that component's pattern string, or None."""

class URLPattern:
    """A URL pattern (the URL Pattern Standard's ``URLPattern``).

    ``input`` is a constructor string (relative to ``base_url`` when given) or a dict of
    component patterns with the JavaScript key names (``baseURL`` included).
    """

    def __init__(
        self,
        input: Optional[Union[str, dict[str, str]]] = None,
        base_url: Optional[str] = None,
        *,
        ignore_case: bool = False,
    ) -> None: ...
    @property
    def protocol(self) -> str: ...
    @property
    def username(self) -> str: ...
    @property
    def password(self) -> str: ...
    @property
    def hostname(self) -> str: ...
    @property
    def port(self) -> str: ...
    @property
    def pathname(self) -> str: ...
    @property
    def search(self) -> str: ...
    @property
    def hash(self) -> str: ...
    @property
    def has_regexp_groups(self) -> bool: ...
    def test(
        self, input: Optional[Union[str, dict[str, str]]] = None, base_url: Optional[str] = None
    ) -> bool:
        """Whether the pattern matches. Raises ``PatternError`` when a regexp group with a
        backreference or a lookaround gives up after its step limit."""
    def exec(
        self, input: Optional[Union[str, dict[str, str]]] = None, base_url: Optional[str] = None
    ) -> Optional[dict[str, Any]]:
        """The match, or None; raises as ``test`` does."""

class URL:
    """A URL parsed as the WHATWG URL Standard says (``new URL(url, base)``)."""

    def __init__(self, url: str, base: Optional[Union[str, URL]] = None) -> None: ...
    @staticmethod
    def parse(url: str, base: Optional[Union[str, URL]] = None) -> Optional[URL]: ...
    @staticmethod
    def can_parse(url: str, base: Optional[Union[str, URL]] = None) -> bool: ...
    href: str
    @property
    def origin(self) -> str: ...
    protocol: str
    username: str
    password: str
    host: str
    hostname: str
    @property
    def port(self) -> str: ...
    @port.setter
    def port(self, value: Union[str, int]) -> None: ...
    pathname: str
    search: str
    hash: str
    @property
    def search_params(self) -> URLSearchParams: ...
    @property
    def public_suffix(self) -> Optional[str]:
        """The host's public suffix (URL Standard §3.2, built-in Public Suffix List), or None."""
    @property
    def registrable_domain(self) -> Optional[str]:
        """The host's registrable domain, or None."""
    @property
    def subdomain(self) -> Optional[str]:
        """The host's labels before its registrable domain, or None."""
    @property
    def valid(self) -> str:
        """'true' when the input the URL was parsed from is a valid URL string (judged on
        its own, even with a base), else 'false': ``parse_column``'s ``valid``."""
    @property
    def validation_errors(self) -> str:
        """The names of the validation errors that parsing the input (against the base)
        reported, space-separated: ``parse_column``'s ``validation_errors``."""
    def to_json(self) -> str: ...
    def __getattr__(self, name: str) -> Optional[str]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> URL: ...
    def __deepcopy__(self, memo: Any) -> URL: ...

class URLSearchParams:
    """Name-value pairs, as the URL API's ``URLSearchParams``."""

    def __init__(
        self,
        init: Optional[
            Union[str, URLSearchParams, Mapping[str, str], Iterable[Union[Tuple[str, str], Sequence[str]]]]
        ] = None,
    ) -> None: ...
    def append(self, name: str, value: str) -> None: ...
    def delete(self, name: str, value: Optional[str] = None) -> None: ...
    def get(self, name: str) -> Optional[str]: ...
    def get_all(self, name: str) -> list[str]: ...
    def has(self, name: str, value: Optional[str] = None) -> bool: ...
    def set(self, name: str, value: str) -> None: ...
    def sort(self) -> None: ...
    @property
    def size(self) -> int: ...
    def items(self) -> list[Tuple[str, str]]: ...
    def keys(self) -> list[str]: ...
    def values(self) -> list[str]: ...
    def __len__(self) -> int: ...
    def __contains__(self, name: str) -> bool: ...
    def __iter__(self) -> Iterator[Tuple[str, str]]: ...
    def __eq__(self, other: object) -> bool: ...

class ArrowTable:
    """parse_column's result when pyarrow is not installed: an Arrow C stream of batches."""

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any: ...
    @property
    def column_names(self) -> list[str]: ...
    @property
    def num_rows(self) -> int: ...
    def __len__(self) -> int: ...
    def to_pydict(self) -> dict[str, list[Optional[str]]]: ...

def can_parse(url: str, base: Optional[str] = None) -> bool: ...
def parse_column(
    urls: Any,
    fields: Optional[list[str]] = None,
    *,
    base: Any = None,
    threads: Optional[int] = None,
    routes: Optional[list[Union[str, tuple[str, str]]]] = None,
    routes_base: Optional[str] = None,
    output: str = "utf8",
) -> ArrowTable:
    """The engine of ``rapidurl.parse_column``. ``threads``: ``None`` or ``0`` every core,
    ``1`` the calling thread, ``N`` a pool of N threads while the calling thread waits;
    the calling thread where no thread can be started."""
def _field_names() -> tuple[list[str], list[str]]: ...
def surt(url: str) -> str:
    """The Internet Archive's SURT of ``url`` (as ``surt.surt(url)``); ``ParseError`` when it does not parse."""
def canonicalize(url: str, preset: str = "dedup") -> str:
    """The canonical form of ``url`` under ``preset`` ("dedup", "scrapy", "safe_browsing"); ``ParseError`` when it does not parse (but "safe_browsing", which takes any input as Google's rules do)."""
@overload
def _surt(url: bytes, canonicalizer: int = 0, options: Optional[dict[str, Any]] = None) -> bytes: ...
@overload
def _surt(url: Optional[str], canonicalizer: int = 0, options: Optional[dict[str, Any]] = None) -> str:
    """``surt.surt(url, **options)`` on the raw input (``rapidurl.compat.surt.surt`` calls it); ``canonicalizer`` 0 the default, 1 Google's, 2 the IA's, 3 none."""
def _canonicalize_url(
    url: str,
    keep_blank_values: object,
    keep_fragments: object,
    query_separator: str,
    encoding: Optional[str],
    helpers: Any,
) -> str:
    """``w3lib.url.canonicalize_url`` on a ``str`` (``rapidurl.compat.w3lib.canonicalize_url`` calls it); the flags are taken by their truth value."""
def _batch_parse_lines(data: bytes, threads: Optional[int] = None) -> int: ...
class _Lines:
    """The lines of ``data`` held on the Rust side (bench.py's anchor)."""
    def __init__(self, data: bytes) -> None: ...
    def parse_ref_loop(self) -> int:
        """``rapidurl::parse_ref`` over every line; the total length of the valid hrefs."""
def _panic_for_tests() -> None: ...
