"""``w3lib.url.canonicalize_url`` (w3lib 2.5) computed by rapidurl.

``from rapidurl.compat.w3lib import canonicalize_url`` replaces
``from w3lib.url import canonicalize_url``: same arguments, same result.

>>> from rapidurl.compat.w3lib import canonicalize_url
>>> canonicalize_url("http://www.example.com/do?c=3&b=5&b=2&a=50#frag")
'http://www.example.com/do?a=50&b=2&b=5&c=3'
>>> canonicalize_url("a?b=1&a#frag", keep_blank_values=False, keep_fragments=True)
'a?b=1#frag'
>>> canonicalize_url(b"http://h/r\\xe9sum\\xe9?q=\\xe9", encoding="latin-1")
'http://h/r%C3%A9sum%C3%A9?q=%E9'
"""

from __future__ import annotations

import codecs
import ipaddress
import sys
import unicodedata
from typing import Optional, Union
from urllib.parse import ParseResult

from .._rapidurl import _canonicalize_url

__all__ = ["canonicalize_url"]

_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _percent_encode_undecodable(error: UnicodeError):
    """Decoding error handler: each byte that does not decode as ``%XX`` (w3lib's
    ``percentencode`` handler)."""
    if not isinstance(error, UnicodeDecodeError):
        raise error
    bad = error.object[error.start : error.end]
    text = "".join(chr(b) if b in _UNRESERVED else f"%{b:02X}" for b in bad)
    return text, error.end


codecs.register_error("rapidurl.percentencode", _percent_encode_undecodable)

_HOST_DROPPED = str.maketrans("", "", "@:#?")


def _host(hostname: str) -> bytes:
    """A host that is not ASCII as w3lib writes it: lower-cased but for a zone, then
    NFKC and IDNA 2003 (Python's ``idna`` codec), or UTF-8 where that fails."""
    name, percent, zone = hostname.partition("%")
    hostname = name.lower() + percent + zone
    try:
        return unicodedata.normalize("NFKC", hostname.translate(_HOST_DROPPED)).encode("idna")
    except UnicodeError:
        return hostname.encode()


def _netloc_bad(netloc: str) -> bool:
    """Whether NFKC brings a delimiter into an authority that is not ASCII."""
    kept = netloc.translate(_HOST_DROPPED)
    normalized = unicodedata.normalize("NFKC", kept)
    return normalized != kept and any(c in normalized for c in "/?#@:\\")


def _ip(text: str):
    """``None`` for no IP address, ``False`` for IPv4, ``str(address)`` for IPv6."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return str(address) if isinstance(address, ipaddress.IPv6Address) else False


_this = sys.modules[__name__]

_USES_NETLOC = frozenset(
    ["", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https",
     "shttp", "snews", "prospero", "rtsp", "rtsps", "rtspu", "rsync", "svn", "svn+ssh",
     "sftp", "nfs", "git", "git+ssh", "ws", "wss"]
)


def _unparse(scheme: str, netloc: str, path: str, params: str, query: str, fragment: str) -> str:
    """A ``ParseResult`` joined back as w3lib joins it."""
    if params:
        path = f"{path};{params}"
    if netloc:
        if path and not path.startswith("/"):
            path = "/" + path
        path = f"//{netloc}{path}"
    elif path.startswith("//") or (
        scheme and scheme in _USES_NETLOC and (not path or path.startswith("/"))
    ):
        path = "//" + path
    return (
        (f"{scheme}:" if scheme else "")
        + path
        + (f"?{query}" if query else "")
        + (f"#{fragment}" if fragment else "")
    )


def canonicalize_url(
    url: Union[str, bytes, ParseResult],
    keep_blank_values: bool = True,
    keep_fragments: bool = False,
    encoding: Optional[str] = None,
    *,
    query_separator: str = "&",
) -> str:
    """The canonical form of ``url`` exactly as ``w3lib.url.canonicalize_url`` computes it:
    query arguments sorted (blank ones dropped unless ``keep_blank_values``), spaces as
    ``+``, escapes upper-cased, the path's escapes decoded and encoded again and its dot
    segments resolved, the fragment dropped (unless ``keep_fragments``), the host
    lower-cased (IDNA where it is not ASCII) and an IPv6 host in its RFC 5952 form.

    ``url`` is a ``str``, ``bytes`` (decoded with ``encoding``, UTF-8 by default, each
    byte that does not decode percent-encoded) or a ``urllib.parse.ParseResult``; the
    query and fragment are percent-encoded in ``encoding`` (UTF-8 where it cannot write
    them). Raises ``ValueError`` where w3lib does (an invalid bracketed host or port).
    """
    if url.__class__ is str and encoding is None:
        # The common call, without the conversions below.
        return _canonicalize_url(url, keep_blank_values, keep_fragments, query_separator, None, _this)
    if isinstance(url, ParseResult):
        url = _unparse(*url)
    utf8 = encoding is None or codecs.lookup(encoding).name == "utf-8"
    if isinstance(url, bytes):
        url = url.decode("utf-8" if utf8 else encoding, "rapidurl.percentencode")
    elif not isinstance(url, str):
        raise TypeError(f"to_unicode must receive bytes or str, got {type(url).__name__}")
    return _canonicalize_url(
        url, keep_blank_values, keep_fragments, query_separator, None if utf8 else encoding, _this
    )
