"""Drop-in replacements for other packages' URL keys, computed by rapidurl.

``rapidurl.compat.surt.surt`` replaces ``surt.surt`` (surt 0.3.1) and
``rapidurl.compat.w3lib.canonicalize_url`` replaces ``w3lib.url.canonicalize_url``
(w3lib 2.5): same signature, same options, same keys, the input split as each package
splits it (not the WHATWG parse, which ``rapidurl.surt`` and ``rapidurl.canonicalize``
use). docs/canon.md lists the few differences that remain on purpose.
"""
