#!/usr/bin/env python3
"""The tool on a web server's access log as it is stored: an NCSA combined log of one
million lines, plain, gzip- and zstd-compressed, against `gzip -dc` alone, against the
tool on the plain file, and against GoAccess; in one run. Writes the table of
docs/performance.md ("Access logs").

    cargo build --release -p rapidurl-cli              # target/release/rapidurl
    apt-get install gzip zstd goaccess                 # the references (Debian's goaccess)
    python3 scripts/logs_table.py                      # writes the section of docs/performance.md
    python3 scripts/logs_table.py --no-write --runs 3 --lines 200000

The log, made in a temporary directory (seeded: the same bytes every run), is Apache's
combined format (`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i"`, Apache's
escapes: `\\"`, `\\\\` and `\\xHH` inside the quoted fields): client addresses (IPv4 and
about 5% IPv6) each with its own user agent from a mix of browsers, bots and tools;
times in order over a week; mostly GET; request targets in origin form, the paths and
queries of ../shared/corpora's http(s) URLs (kasztp.txt and userbait.txt; bytes outside
printable ASCII, and the quote, the backslash and the space, percent-encoded, as a
client sends them; 0.2% sent by a careless client, their 8-bit bytes as they are, so
logged as `\\xHH`), their popularity Zipf-like; statuses and sizes (`-` for no body);
referrers: about 30% `-`, 15% the site's own pages, 12% search engines, half a percent
`android-app://` ones, 1% the corpora's lines as they are (bots send what they like),
the rest the corpora's http(s) URLs as a browser sends them (fragment and userinfo
dropped; half of them origin-only, as the default referrer policy sends cross-site
ones; those with bytes a browser would encode left out). About
0.02% of the lines have a `\\"` or a `\\\\` in their user agent (valid lines), and about
0.1% are lines that are not requests, of the kinds real logs have: a TLS handshake sent
to the plain port (`"\\x16\\x03\\x01..." 400`), a bare `"-"` request (408), a line cut
short (before its last quote), binary junk (random bytes; a run of NUL bytes). Then
`gzip -6` and `zstd -3` of it.

The URL column of the question is the referrer (`--column referrer`): the one of a
combined log with hosts in it; the request targets are paths of the log's own site.
Measured, each the median of --runs runs taken in turns (whole processes, output to
/dev/null): `gzip -dc`, `zstd -dc`, and `rapidurl stats --by registrable_domain --column
referrer --input-format combined --threads 2` on the .gz, the .zst and the plain file;
the same on 1 thread; `rapidurl stats --by pathname --base http://x/` (the request
target) on the plain file. Ratios of figures of the same run: .gz against `gzip -dc`
(target <= 1.15), .zst against the plain file (target <= 1.3); CPU time is the
children's getrusage. GoAccess (Debian's `goaccess` with Debian's configuration,
`--log-format=COMBINED`, JSON report with every item: `--max-items`) once on the plain
file (GoAccess 1.7 does not read gzip), timed; target: the tool at least 20x faster.

The answers are checked, and compared with GoAccess's where both report the same thing:
- the rows (`stats --by error --column referrer`): the file's lines = the tool's rows
  out + its error rows, and its error names are exactly the generator's lines that are
  not requests (not-a-request, not-a-log-line), its null referrers (`-`, missing-URL)
  and its invalid referrers (plain, .gz and .zst alike);
- the tool's counts of referrer registrable domains and hosts (`--column referrer`) and
  of request paths (`--by pathname --base http://x/`) against the counts the generator
  wrote, each distinct referrer and target (Apache's escapes undone) parsed by the
  tool's URL parser as lines (`rapidurl parse`, the targets with `--base http://x/`, a
  target that starts with `//` as `/.//…`, the path it is):
  the log reader against the line reader; and the same registrable domains from the
  three files;
- GoAccess's REFERRING_SITES (hits per referring site) and its requests (the REQUESTS,
  STATIC_REQUESTS and NOT_FOUND panels summed over method and protocol: GoAccess splits
  a path by extension and by status 404 across the three, and keys it with its method
  and protocol) against the counts the generator wrote as GoAccess 1.7 reads them: the
  site is what follows the first `//` of the referrer up to the next `/`; the request is
  the target percent-decoded (query kept; Apache's escapes kept as text); GoAccess
  knows a key by its 32-bit djb2 hash alone, so keys that share a hash are compared by
  their sum; the lines that are not requests are what GoAccess makes of them, measured
  by GoAccess on those lines alone (`--num-tests=0`);
- then the two side by side: a site lowercased, cut at `?`, without userinfo and port,
  against the tool's hostname; GoAccess's request cut at its first `?` (as its `-q`
  does) against the tool's pathname percent-decoded. The values both count alike are
  given, and the differences that remain, each with its cause.
A check that fails exits with status 1 and writes nothing. GoAccess missing is skipped
with a message; the rest still runs. --no-write prints only; otherwise the block between
`<!-- perf:logs -->` and `<!-- /perf:logs -->` in docs/performance.md is replaced.
"""

from __future__ import annotations

import argparse
import collections
import csv
import io
import ipaddress
import json
import os
import pathlib
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

ROOT = pathlib.Path(__file__).resolve().parents[1]
BASE = "http://x/"
SITE = "https://shop.example.net"
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
HOW = {
    "goaccess": "apt-get install goaccess (Debian's GoAccess 1.7)",
    "gzip": "apt-get install gzip",
    "zstd": "apt-get install zstd",
}

# User agents: (weight, string). A client keeps one.
AGENTS = [
    (24, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/131.0.0.0 Safari/537.36"),
    (9, "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/131.0.0.0 Safari/537.36"),
    (14, "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/131.0.0.0 Mobile Safari/537.36"),
    (12, "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
         "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"),
    (5, "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like "
        "Gecko) Version/18.1 Safari/605.1.15"),
    (6, "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"),
    (2, "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"),
    (5, "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0"),
    (2, "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like "
        "Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36"),
    (1, "Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like "
        "Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1"),
    (4, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"),
    (1, "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, "
        "like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; "
        "+http://www.google.com/bot.html)"),
    (2, "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"),
    (1, "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"),
    (2, "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)"),
    (1, "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)"),
    (1, "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"),
    (2, "curl/8.5.0"),
    (2, "python-requests/2.32.3"),
    (1, "Go-http-client/1.1"),
    (1, "Wget/1.21.4"),
    (1, "-"),
]
# User agents with a quote or a backslash, as Apache writes them (\" and \\): valid lines.
ODD_AGENTS = [
    'Mozilla/5.0 (compatible; \\"Scanner\\"; +https://scan.example/)',
    'Mozilla/5.0 \\"Windows NT 10.0\\" Gecko',
    'Mozilla/5.0 (Windows NT 10.0) \\\\ AppleWebKit/537.36 \\"\\"',
    '\\"Mozilla/5.0\\"',
]
SEARCH = ["https://www.google.com/", "https://www.google.de/", "https://www.bing.com/",
          "https://duckduckgo.com/", "https://search.yahoo.com/", "https://yandex.ru/",
          "https://www.ecosia.org/", "https://www.google.com/search?q=example"]
APPS = ["android-app://com.google.android.gm/", "android-app://com.google.android.googlequicksearchbox/",
        "android-app://org.telegram.messenger/"]
METHODS = [("GET", 935), ("POST", 35), ("HEAD", 20), ("OPTIONS", 5), ("PUT", 3), ("DELETE", 2)]
PROTOCOLS = [("HTTP/1.1", 70), ("HTTP/2.0", 27), ("HTTP/1.0", 3)]
STATUSES = [(200, 760), (304, 80), (302, 30), (301, 20), (404, 60), (206, 10), (403, 10),
            (401, 5), (400, 5), (500, 5), (503, 3)]
GARBAGE = [("tls", 40), ("dash", 25), ("truncated", 20), ("binary", 8), ("zeros", 7)]


# ---- the log --------------------------------------------------------------------------

def corpus_urls() -> list[str]:
    """kasztp.txt's and userbait.txt's lines, as the tool reads lines."""
    for d in [ROOT.parent / "shared" / "corpora", pathlib.Path("/work/shared/corpora")]:
        if (d / "kasztp.txt").exists():
            break
    else:
        sys.exit("logs_table.py: no ../shared/corpora/kasztp.txt")
    urls = []
    for name in ("kasztp.txt", "userbait.txt"):
        text = (d / name).read_bytes().decode("utf-8-sig", errors="replace")
        urls += [u[:-1] if u.endswith("\r") else u for u in text.split("\n")]
    return [u for u in urls if u]


def encode_target(s: str, keep_8bit: bool = False) -> str:
    """A path and query as a client sends them: every byte outside printable ASCII, and
    the quote, the backslash and the space, percent-encoded; with `keep_8bit`, as a
    careless client sends them: only the space and control bytes encoded."""
    out = []
    for b in s.encode("utf-8"):
        if keep_8bit:
            out.append(chr(b) if b > 0x20 and b != 0x7F else f"%{b:02X}")
        else:
            out.append(chr(b) if 0x21 <= b <= 0x7E and b not in b'"\\' else f"%{b:02X}")
    return "".join(out)


ESCAPES = {0x22: '\\"', 0x5C: "\\\\", 0x08: "\\b", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x0B: "\\v"}


def apache_escape(s: str) -> str:
    """A header or request line as Apache logs it (ap_escape_logitem): the quote and the
    backslash, and \\b \\n \\r \\t \\v, after a backslash; every other byte outside printable
    ASCII as \\xhh."""
    out = []
    for b in s.encode("utf-8", "surrogateescape"):
        if b in ESCAPES:
            out.append(ESCAPES[b])
        elif b < 0x20 or b >= 0x7F:
            out.append(f"\\x{b:02x}")
        else:
            out.append(chr(b))
    return "".join(out)


def apache_unescape(s: str) -> str:
    """The bytes Apache escaped, back (str with surrogateescape for bytes that are not
    UTF-8)."""
    back = {v[1]: k for k, v in ESCAPES.items()}
    out = bytearray()
    raw = s.encode("utf-8", "surrogateescape")
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == 0x5C and i + 1 < len(raw):
            n = chr(raw[i + 1])
            if n == "x" and i + 3 < len(raw) and re.fullmatch(rb"[0-9a-fA-F]{2}", raw[i + 2:i + 4]):
                out.append(int(raw[i + 2:i + 4], 16))
                i += 4
                continue
            if n in back:
                out.append(back[n])
                i += 2
                continue
        out.append(c)
        i += 1
    return bytes(out).decode("utf-8", "surrogateescape")


def pools(urls: list[str], rng: random.Random) -> tuple[list, list[str], list[str]]:
    """What the log draws from, each in the order of its popularity (shuffled, so that
    rank has nothing to do with the corpus order): the request targets, each as a
    client encodes it and as a careless one sends it; the referrers as browsers send
    them; and the corpora's URLs as they are (for referrers from bots)."""
    targets, referrers = set(), set()
    for u in urls:
        try:
            s = urllib.parse.urlsplit(u)
        except ValueError:
            continue
        if s.scheme.lower() not in ("http", "https") or not s.hostname:
            continue
        target = (s.path or "/") + ("?" + s.query if s.query else "")
        targets.add((encode_target(target), encode_target(target, keep_8bit=True)))
        if any(not (0x21 <= ord(c) <= 0x7E) or c in '"\\' for c in u):
            continue  # a browser would have encoded it
        netloc = s.netloc.rsplit("@", 1)[-1]
        referrers.add(urllib.parse.urlunsplit((s.scheme, netloc, s.path, s.query, "")))
        referrers.add(f"{s.scheme}://{netloc}/")
    targets, referrers, raw = sorted(targets), sorted(referrers), sorted(set(urls))
    for x in (targets, referrers, raw):
        rng.shuffle(x)
    return targets, referrers, raw


def zipf(n: int, s: float) -> list[float]:
    """Cumulative Zipf weights of ranks 1..n."""
    acc, out = 0.0, []
    for i in range(n):
        acc += 1.0 / (i + 1) ** s
        out.append(acc)
    return out


def cum(pairs) -> tuple[list, list[float]]:
    values, acc, out = [], 0.0, []
    for v, w in pairs:
        values.append(v)
        acc += w
        out.append(acc)
    return values, out


def client_address(rng: random.Random) -> str:
    """A public address: IPv4 outside the private, loopback, shared, link-local and
    multicast ranges, or (1 in 20) a global unicast IPv6 address (2000::/3), as a server
    logs it: half with a random interface identifier, half with a small one."""
    if rng.random() < 0.05:
        prefix = (0b001 << 61) | rng.getrandbits(61)
        iid = rng.getrandbits(64) if rng.random() < 0.5 else rng.randrange(1, 256)
        return str(ipaddress.IPv6Address((prefix << 64) | iid))
    while True:
        a = ipaddress.IPv4Address(rng.getrandbits(32))
        if a.is_global and not a.is_multicast:
            return str(a)


def stamp(t: int) -> str:
    g = time.gmtime(t)
    return f"[{g.tm_mday:02}/{MONTHS[g.tm_mon - 1]}/{g.tm_year}:{g.tm_hour:02}:{g.tm_min:02}:{g.tm_sec:02} +0000]"


def garbage_line(kind: str, host: str, when: str, good: str, rng: random.Random) -> bytes:
    """A line that is not a request, of the given kind."""
    if kind == "tls":  # a TLS ClientHello sent to the plain-HTTP port, as Apache logs it
        hello = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03]
        hello += [rng.getrandbits(8) for _ in range(rng.randrange(0, 12))]
        req = "".join(f"\\x{b:02x}" for b in hello)
        return f'{host} - - {when} "{req}" 400 226 "-" "-"'.encode()
    if kind == "dash":  # a connection closed before any request (Apache's 408)
        return f'{host} - - {when} "-" 408 - "-" "-"'.encode()
    if kind == "truncated":  # cut before its last quote
        return good.encode()[: rng.randrange(12, len(good) - 1)]
    if kind == "zeros":  # a block a crash left zeroed
        return b"\0" * rng.randrange(16, 400)
    # binary junk: random bytes
    return bytes(rng.choice([b for b in range(256) if b != 0x0A]) for _ in range(rng.randrange(8, 200)))


class Log:
    """What the generator wrote: the files, and the tallies of the valid lines."""

    def __init__(self, d: str):
        self.dir = d
        self.plain = os.path.join(d, "access.log")
        self.gz = self.plain + ".gz"
        self.zst = self.plain + ".zst"
        self.garbage = os.path.join(d, "garbage.log")  # the lines that are not requests
        self.lines = 0
        self.referrers: collections.Counter = collections.Counter()  # valid lines' referrers
        self.requests: collections.Counter = collections.Counter()   # valid lines' request lines
        self.kinds: collections.Counter = collections.Counter()      # lines that are not requests
        self.odd_agents = 0

    def manifest(self) -> str:
        return os.path.join(self.dir, "manifest.json")

    def save(self):
        with open(self.manifest(), "w", encoding="utf-8") as f:
            json.dump({"lines": self.lines, "referrers": self.referrers, "requests": self.requests,
                       "kinds": self.kinds, "odd_agents": self.odd_agents}, f)

    def load(self) -> bool:
        try:
            with open(self.manifest(), encoding="utf-8") as f:
                m = json.load(f)
        except (OSError, ValueError):
            return False
        self.lines, self.odd_agents = m["lines"], m["odd_agents"]
        self.referrers = collections.Counter(m["referrers"])
        self.requests = collections.Counter(m["requests"])
        self.kinds = collections.Counter(m["kinds"])
        return True

    @property
    def errors(self) -> int:
        return sum(self.kinds.values())


def generate(d: str, lines: int, seed: int) -> Log:
    """The log in `d` (access.log, and garbage.log: its lines that are not requests), and
    what was written."""
    log = Log(d)
    rng = random.Random(seed)
    targets, referrers, raw = pools(corpus_urls(), rng)
    a_weights, a_values = zip(*AGENTS)
    clients = [(client_address(rng), rng.choices(a_values, weights=a_weights)[0])
               for _ in range(max(100, lines // 20))]

    def draw(values, cum_weights):
        return rng.choices(values, cum_weights=cum_weights, k=lines)

    who = draw(clients, zipf(len(clients), 0.8))
    what = draw(targets, zipf(len(targets), 1.0))
    own = draw(targets, zipf(len(targets), 1.0))
    other = draw(referrers, zipf(len(referrers), 0.9))
    bots = draw(raw, zipf(len(raw), 0.5))
    method = draw(*cum(METHODS))
    proto = draw(*cum(PROTOCOLS))
    status = draw(*cum(STATUSES))
    users = ["alice", "bob", "admin", "deploy"]
    t = 1772409600.0  # 2026-03-02 00:00:00 UTC; a week of traffic whatever --lines is
    step = 7 * 86400 / lines
    garbage_at = set(rng.sample(range(100, lines), max(4, lines // 1000)))
    odd_at = set(rng.sample(range(100, lines), max(1, lines // 5000))) - garbage_at
    g_values, g_cum = cum(GARBAGE)
    last, text_when = None, ""
    out = io.BytesIO()
    with open(log.plain, "wb") as f, open(log.garbage, "wb") as g:
        for i in range(lines):
            t += rng.expovariate(1 / step)
            if int(t) != last:
                last = int(t)
                text_when = stamp(last)
            host, agent = who[i]
            r = rng.random()
            if r < 0.30:
                ref = "-"
            elif r < 0.45:
                ref = SITE + own[i][0]
            elif r < 0.57:
                ref = rng.choice(SEARCH)
            elif r < 0.575:
                ref = rng.choice(APPS)
            elif r < 0.99:
                ref = other[i]
            else:
                ref = apache_escape(bots[i])
            target = apache_escape(what[i][1 if rng.random() < 0.002 else 0])
            if status[i] == 304 and method[i] not in ("GET", "HEAD"):
                status[i] = 200
            size = "-" if method[i] == "HEAD" or status[i] == 304 else \
                str(int(rng.lognormvariate(8.5, 1.6)))
            user = "-" if rng.random() > 0.005 else rng.choice(users)
            if i in odd_at:
                agent = rng.choice(ODD_AGENTS)
            line = (f'{host} - {user} {text_when} "{method[i]} {target} {proto[i]}" '
                    f'{status[i]} {size} "{ref}" "{agent}"')
            if i in garbage_at:
                kind = rng.choices(g_values, cum_weights=g_cum)[0]
                data = garbage_line(kind, host, text_when, line, rng)
                log.kinds[kind] += 1
                out.write(data + b"\n")
                g.write(data + b"\n")
            else:
                log.referrers[ref] += 1
                log.requests[f"{method[i]} {target} {proto[i]}"] += 1
                log.odd_agents += i in odd_at
                out.write(line.encode() + b"\n")
            if out.tell() > 1 << 22:
                f.write(out.getvalue())
                out = io.BytesIO()
        f.write(out.getvalue())
    log.lines = lines
    return log



def prepare(d: str, lines: int, seed: int) -> Log:
    """The log and its compressed copies in `d`: made anew unless `d` holds those of the
    same --lines, seed and script (a kept --dir)."""
    log = Log(d)
    stamp_ = {"lines": lines, "seed": seed,
              "script": __import__("hashlib").sha256(pathlib.Path(__file__).read_bytes()).hexdigest()}
    stamp_path = os.path.join(d, "stamp.json")
    try:
        with open(stamp_path, encoding="utf-8") as f:
            if json.load(f) == stamp_ and log.load() and os.path.exists(log.zst):
                return log
    except (OSError, ValueError):
        pass
    t = time.perf_counter()
    log = generate(d, lines, seed)
    log.save()
    with open(log.plain, "rb") as src, open(log.gz, "wb") as out:
        subprocess.run(["gzip", "-6", "-n", "-c"], stdin=src, stdout=out, check=True)
    subprocess.run(["zstd", "-3", "-q", "-f", "-o", log.zst, log.plain], check=True)
    with open(stamp_path, "w", encoding="utf-8") as f:
        json.dump(stamp_, f)
    print(f"made the log in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    return log


# ---- GoAccess 1.7, as its source reads a combined line ---------------------------------

def djb2(data: bytes) -> int:
    """GoAccess's key hash (util.c): its tables know a key by this alone."""
    h = 5381
    for c in data:
        h = (h * 33 + c) & 0xFFFFFFFF
    return h


def ga_site(referrer: str) -> str | None:
    """GoAccess's referring site (parser.c, extract_referer_site): what follows the first
    `//` up to the next `/`, at most 511 bytes; None for `-` and for no `//`."""
    if referrer in ("", "-"):
        return None
    at = referrer.find("//")
    if at < 0:
        return None
    rest = referrer[at + 2:]
    end = rest.find("/")
    site = rest if end < 0 else rest[:end]
    return site[:511] or None


def ga_decode(target: str) -> str:
    """GoAccess's request (parser.c, parse_req and decode_url): %XX decoded once, CR and
    LF dropped, white space trimmed, cut at a decoded NUL; the target as it is when that
    leaves nothing. Bytes as str (surrogateescape)."""
    raw = target.encode("utf-8", "surrogateescape")
    hexdigits = b"0123456789abcdefABCDEF"
    out = bytearray()
    i = 0
    while i < len(raw):
        if raw[i] == 0x25 and i + 2 < len(raw) and raw[i + 1] in hexdigits and raw[i + 2] in hexdigits:
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    out = bytes(out).split(b"\0", 1)[0].replace(b"\r", b"").replace(b"\n", b"")
    out = out.strip(b" \t\n\v\f\r")
    return (out or raw).decode("utf-8", "surrogateescape")


def ga_request_key(method: str, target: str, proto: str) -> tuple[str, bytes]:
    """The request GoAccess shows, and the key it stores it under (gstorage.c,
    gen_unique_req_key): request|METHOD|PROTOCOL, the protocol as its table names it."""
    req = ga_decode(target)
    proto = "HTTP/2" if proto.upper().startswith("HTTP/2") else proto.upper()
    return req, f"{req}|{method.upper()}|{proto}".encode("utf-8", "surrogateescape")


class GoAccessReport:
    """The panels of a GoAccess JSON report that both tools answer: hits per referring
    site, and hits per request over the three panels of requests (a request's path and
    query, decoded), each with the key GoAccess stores it under."""

    def __init__(self, path: str):
        with open(path, "rb") as f:
            report = json.loads(f.read().decode("utf-8", "surrogateescape"))
        self.general = report["general"]
        self.sites: collections.Counter = collections.Counter()
        self.site_keys: collections.Counter = collections.Counter()
        for item in report.get("referring_sites", {}).get("data", []):
            self.sites[item["data"]] += item["hits"]["count"]
            self.site_keys[(item["data"], item["data"].encode("utf-8", "surrogateescape"))] += \
                item["hits"]["count"]
        self.requests: collections.Counter = collections.Counter()
        self.request_keys: collections.Counter = collections.Counter()
        for panel in ("requests", "static_requests", "not_found"):
            for item in report.get(panel, {}).get("data", []):
                n, data = item["hits"]["count"], item["data"]
                self.requests[data] += n
                key = data
                if item.get("method", "---") != "---" or item.get("protocol", "---") != "---":
                    key = f"{data}|{item['method']}|{item['protocol']}"
                self.request_keys[(data, key.encode("utf-8", "surrogateescape"))] += n


def ga_agree(what: str, predicted: collections.Counter, actual: collections.Counter) -> set:
    """Checks GoAccess's counts (`actual`, by the value it shows) against `predicted`
    ((value, key) -> hits). GoAccess knows a key by its 32-bit djb2 hash alone: keys
    that share a hash are one entry, shown as one of their values (and, for a request,
    with the method and protocol of any of them); such values are compared by their sum.
    Returns the values of keys that share a hash."""
    by_hash = collections.defaultdict(set)
    for value, key in predicted:
        by_hash[djb2(key)].add((value, key))
    # Values joined by a shared hash, as components (union-find).
    parent: dict = {}

    def find(v):
        while parent.get(v, v) != v:
            v = parent[v]
        return v
    shared = set()
    for keys in by_hash.values():
        if len(keys) > 1:
            values = sorted({v for v, _ in keys})
            shared.update(values)
            for v in values[1:]:
                parent[find(v)] = find(values[0])
    want: collections.Counter = collections.Counter()
    for (value, _), n in predicted.items():
        want[find(value)] += n
    got: collections.Counter = collections.Counter()
    for value, n in actual.items():
        got[find(value)] += n
    differ = sorted((k for k in want.keys() | got.keys() if want[k] != got[k]), key=lambda k: -abs(want[k] - got[k]))
    pairs = sum(len(k) - 1 for k in by_hash.values() if len(k) > 1)
    shown = ", ".join(f"{k!r}: GoAccess {got[k]}, expected {want[k]}" for k in differ[:5])
    check(not differ, f"GoAccess's {what} against the generator's lines as GoAccess 1.7 reads them",
          f"{len(actual):,} values, {sum(actual.values()):,} hits"
          + (f"; {pairs} key{'s' if pairs != 1 else ''} sharing a djb2 hash with another, "
             "counted as one by GoAccess, compared by their sum" if pairs else "")
          if not differ else f"{len(differ)} values differ ({shown})")
    return shared


def goaccess_version(binary: str) -> str | None:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return None
    m = re.search(r"GoAccess - (\d+(?:\.\d+)*)", out)
    return m.group(1) if m else "?"


def run_goaccess(binary: str, log: str, report: str, extra=()) -> tuple[float, float]:
    """One GoAccess run over `log` (a JSON report with every item); wall and CPU seconds."""
    return run([binary, log, "--log-format=COMBINED", "--max-items=100000000", *extra,
                "-o", report], ok=(0,))


# ---- the tool ------------------------------------------------------------------------

def run(cmd: list[str], ok=(0, 1)) -> tuple[float, float]:
    """Wall and CPU seconds of one whole process, its output to /dev/null."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:  # `check` exits with 1 when some row is invalid
        raise subprocess.CalledProcessError(done.returncode, cmd)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def parse_lines(binary: str, urls: list[str], field: str, d: str, *extra: str) -> list[tuple[str | None, str | None]]:
    """(value of `field`, error name) of each URL, by `rapidurl parse` on them as lines."""
    path = os.path.join(d, f"distinct-{field}.txt")
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="\n") as f:
        for u in urls:
            f.write(u + "\n")
    out = subprocess.run([binary, "parse", "--threads", "2", "--fields", field, "--format", "jsonl",
                          *extra, path], capture_output=True).stdout.decode("utf-8", "surrogateescape")
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len(urls), (len(rows), len(urls))
    return [(r.get(field), r["error"].split(" ", 1)[0] if "error" in r else None) for r in rows]


def tool_counts(binary: str, path: str, by: str, *extra: str) -> collections.Counter:
    """The tool's `stats --format csv` counts of every value (an absent one as None)."""
    out = subprocess.run([binary, "stats", "--threads", "2", "--input-format", "combined",
                          "--by", by, "--top", "1000000000", "--format", "csv", *extra, path],
                         check=True, capture_output=True).stdout.decode("utf-8", "surrogateescape")
    records = list(csv.reader(io.StringIO(out, newline="")))
    assert records[0] == ["value", "count", "share"], records[0]
    return collections.Counter({(v if v else None): int(n) for v, n, _ in records[1:]})


def tool_totals(binary: str, path: str, *extra: str) -> tuple[int, int, collections.Counter]:
    """The tool's `stats --by error` over `path`: its rows, its invalid rows, and the
    error names of those (error rows and invalid URLs alike)."""
    out = subprocess.run([binary, "stats", "--threads", "2", "--input-format", "combined",
                          "--by", "error", "--top", "1000000", *extra, path],
                         check=True, capture_output=True).stdout.decode("utf-8", "surrogateescape")
    rows = int(re.search(r"^lines: (\d+)$", out, re.M).group(1))
    invalid = int(re.search(r"^invalid: (\d+)$", out, re.M).group(1))
    names = collections.Counter()
    for m in re.finditer(r"^\s+(\d+)\s+[\d.]+%\s+\S*\s+(\S+)$", out, re.M):
        names[m.group(2)] += int(m.group(1))
    return rows, invalid, names


# ---- checks ----------------------------------------------------------------------------

CHECKS: list[tuple[bool, str]] = []


def check(ok: bool, what: str, detail: str):
    CHECKS.append((ok, f"- {what}: {'agree' if ok else 'MISMATCH'}, {detail}"))


def compare(what: str, tool: collections.Counter, want: collections.Counter, unit: str):
    differ = sorted((k for k in tool.keys() | want.keys() if tool[k] != want[k]), key=str)
    shown = ", ".join(f"{k!r}: tool {tool[k]}, expected {want[k]}" for k in differ[:5])
    check(not differ, what, f"{len(tool):,} distinct {unit}, {sum(tool.values()):,} rows counted"
          if not differ else f"{len(differ)} values differ ({shown})")


def pct_decode(s: str) -> str:
    return urllib.parse.unquote(s, errors="surrogateescape")


def norm_site(site: str) -> str:
    """A GoAccess referring site as a host name: cut at `?` and `#`, without userinfo
    and port, lowercased."""
    site = re.split(r"[?#]", site, maxsplit=1)[0].rsplit("@", 1)[-1]
    if not site.endswith("]"):
        site = re.sub(r":[0-9]*$", "", site)
    return site.lower()


def side_by_side(what: str, goaccess: collections.Counter, tool: collections.Counter,
                 causes: collections.Counter, examples: dict, unit: str, shared: set) -> list[str]:
    """Lines for the report: the values both count alike, and the differences left with
    their causes (hits each, and an example)."""
    same = [k for k in goaccess.keys() & tool.keys() if goaccess[k] == tool[k]]
    differ = (goaccess.keys() | tool.keys()) - set(same)
    out = [f"- {what}: {len(same):,} of {len(goaccess.keys() | tool.keys()):,} {unit} have the same "
           f"count in both; GoAccess counts {sum(goaccess.values()):,} hits, the tool "
           f"{sum(tool.values()):,}."]
    if differ:
        out[-1] += f" The other {len(differ):,} differ; the causes, with the hits each concerns:"
        for cause, n in causes.most_common():
            out.append(f"  - {cause}: {n:,}" + (f" (e.g. {examples[cause]})" if cause in examples else ""))
        if shared:
            out.append(f"  - GoAccess counting two keys as one (equal djb2 hashes), shown as one of "
                       f"them: {', '.join(f'`{v}`' for v in sorted(shared))}")
    return out


# ---- the run --------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=20260357)
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/performance.md")
    ap.add_argument("--bin", default=str(pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
                                         / "release" / "rapidurl"))
    ap.add_argument("--goaccess", default="goaccess")
    ap.add_argument("--dir", help="make (or reuse) the log in this directory, and keep it")
    args = ap.parse_args()
    if not os.access(args.bin, os.X_OK):
        sys.exit(f"logs_table.py: no tool at {args.bin} (cargo build --release -p rapidurl-cli)")
    for name in ("gzip", "zstd"):
        if not shutil.which(name):
            sys.exit(f"logs_table.py: no {name} ({HOW[name]})")
    ga_version = goaccess_version(args.goaccess)
    if ga_version is None:
        print(f"GoAccess skipped (no `{args.goaccess}`): {HOW['goaccess']}", file=sys.stderr)

    with tempfile.TemporaryDirectory() as tmp:
        d = args.dir or tmp
        os.makedirs(d, exist_ok=True)
        log = prepare(d, args.lines, args.seed)
        load = os.getloadavg()
        b = args.bin
        question = ["stats", "--by", "registrable_domain", "--column", "referrer", "--input-format",
                    "combined"]
        contenders = [  # key, label, command
            ("gzip", "`gzip -dc access.log.gz > /dev/null`", ["gzip", "-dc", log.gz]),
            ("zstd", "`zstd -dc access.log.zst > /dev/null`", ["zstd", "-dc", log.zst]),
            ("gz", "tool on access.log.gz", [b, *question, "--threads", "2", log.gz]),
            ("zst", "tool on access.log.zst", [b, *question, "--threads", "2", log.zst]),
            ("plain", "tool on access.log", [b, *question, "--threads", "2", log.plain]),
            ("plain1", "tool on access.log, `--threads 1`", [b, *question, "--threads", "1", log.plain]),
            ("gz1", "tool on access.log.gz, `--threads 1`", [b, *question, "--threads", "1", log.gz]),
            ("paths", "tool `stats --by pathname --base http://x/ --input-format combined "
                      "--threads 2` (the request targets) on access.log",
             [b, "stats", "--by", "pathname", "--base", BASE, "--input-format", "combined",
              "--threads", "2", log.plain]),
        ]
        walls = {k: [] for k, _, _ in contenders}
        cpus = {k: [] for k, _, _ in contenders}
        for r in range(args.runs):
            for key, _, cmd in contenders:
                w, c = run(cmd, ok=(0,))
                walls[key].append(w)
                cpus[key].append(c)
            print(f"run {r + 1}/{args.runs}: " + ", ".join(
                f"{k} {walls[k][-1] * 1e3:.0f} ms" for k, _, _ in contenders), file=sys.stderr)
        wall = {k: statistics.median(v) for k, v in walls.items()}
        cpu = {k: statistics.median(v) for k, v in cpus.items()}
        if ga_version:
            report, garbage_report = os.path.join(d, "goaccess.json"), os.path.join(d, "garbage.json")
            wall["goaccess"], cpu["goaccess"] = run_goaccess(args.goaccess, log.plain, report)
            print(f"goaccess: {wall['goaccess']:.1f} s", file=sys.stderr)
            # What GoAccess makes of the lines that are not requests, alone (--num-tests=0:
            # do not give up on a file whose first lines are not requests).
            run_goaccess(args.goaccess, log.garbage, garbage_report, ["--num-tests=0"])

        # ---- checks: the rows
        with open(log.plain, "rb") as f:
            newlines = sum(chunk.count(b"\n") for chunk in iter(lambda: f.read(1 << 20), b""))
        referrers = sorted(log.referrers)
        ref_urls = [apache_unescape(r) for r in referrers]
        null = {r for r in referrers if r == "-"}
        parsed = {}
        for field in ("hostname", "registrable_domain"):
            got = parse_lines(b, [u for r, u in zip(referrers, ref_urls) if r not in null], field, d)
            parsed[field] = dict(zip([r for r in referrers if r not in null], got))
        want_errors = collections.Counter({"not-a-request": log.kinds["tls"] + log.kinds["dash"],
                                           "not-a-log-line": log.kinds["truncated"] + log.kinds["binary"]
                                           + log.kinds["zeros"]})
        want_errors["missing-URL"] = sum(log.referrers[r] for r in null)
        for r, (_, e) in parsed["hostname"].items():
            if e:
                want_errors[e] += log.referrers[r]
        want_errors = +want_errors
        totals = {}
        for name, path in (("access.log", log.plain), ("access.log.gz", log.gz), ("access.log.zst", log.zst)):
            rows, invalid, names = tool_totals(b, path, "--column", "referrer")
            totals[name] = (rows, invalid, names)
            error_rows = names["not-a-request"] + names["not-a-log-line"]
            ok = rows == newlines and invalid == sum(names.values()) and names == want_errors \
                and error_rows == log.errors
            check(ok, f"rows of {name}: lines = rows out + error rows, and the error rows are the "
                      "lines that are not requests",
                  f"{newlines:,} lines = {rows - error_rows:,} rows out + {error_rows:,} error rows "
                  f"({names['not-a-request']:,} not-a-request: {log.kinds['tls']} TLS handshakes, "
                  f"{log.kinds['dash']} `-`; {names['not-a-log-line']:,} not-a-log-line: "
                  f"{log.kinds['truncated']} cut short, {log.kinds['binary']} random bytes, "
                  f"{log.kinds['zeros']} NUL bytes); "
                  f"referrers: {names['missing-URL']:,} `-` (null), "
                  f"{invalid - error_rows - names['missing-URL']:,} invalid URLs"
                  if ok else f"the tool: {rows:,} rows, {invalid:,} invalid, {dict(names)}; "
                             f"expected {newlines:,} rows, {dict(want_errors)}")

        # ---- checks: the tool's counts against the line reader's
        want = {f: collections.Counter() for f in parsed}
        for f, table in parsed.items():
            for r, (v, e) in table.items():
                if not e:
                    want[f][v] += log.referrers[r]
        reg = {}
        for name, path in (("access.log", log.plain), ("access.log.gz", log.gz), ("access.log.zst", log.zst)):
            reg[name] = tool_counts(b, path, "registrable_domain", "--column", "referrer")
        compare("registrable domains of the referrers (`--by registrable_domain --column referrer`), "
                "access.log, against `rapidurl parse` of each distinct referrer as a line",
                reg["access.log"], want["registrable_domain"], "values")
        same = reg["access.log"] == reg["access.log.gz"] == reg["access.log.zst"]
        check(same, "the same counts from access.log, access.log.gz and access.log.zst",
              f"{len(reg['access.log']):,} values" if same else "they differ")
        tool_hosts = tool_counts(b, log.plain, "hostname", "--column", "referrer")
        compare("referrer hosts (`--by hostname --column referrer`) against `rapidurl parse` of each "
                "distinct referrer as a line", tool_hosts, want["hostname"], "values")
        lines_of = collections.Counter()
        for line, n in log.requests.items():
            lines_of[line.split(" ")[1]] += n
        targets = sorted(lines_of)
        # A target that starts with `//` is a path (docs/cli.md): as a line, `/.//…`.
        target_urls = [("/." if t.startswith("//") else "") + apache_unescape(t) for t in targets]
        paths = dict(zip(targets, parse_lines(b, target_urls, "pathname", d, "--base", BASE)))
        want_paths = collections.Counter()
        for t, (v, e) in paths.items():
            if not e:
                want_paths[v] += lines_of[t]
        tool_paths = tool_counts(b, log.plain, "pathname", "--base", BASE)
        compare("request paths (`--by pathname --base http://x/`) against `rapidurl parse --base "
                "http://x/` of each distinct target as a line", tool_paths, want_paths, "values")

        # ---- GoAccess
        ga_lines = []
        if ga_version:
            ga, junk = GoAccessReport(report), GoAccessReport(garbage_report)
            want_sites, want_requests = collections.Counter(), collections.Counter()
            for r, n in log.referrers.items():
                s = ga_site(r)
                if s:
                    want_sites[(s, s.encode("utf-8", "surrogateescape"))] += n
            for line, n in log.requests.items():
                want_requests[ga_request_key(*line.split(" "))] += n
            shared_sites = ga_agree("referring sites (REFERRING_SITES)", want_sites + junk.site_keys, ga.sites)
            shared_requests = ga_agree("requests (REQUESTS, STATIC_REQUESTS and NOT_FOUND)",
                                       want_requests + junk.request_keys, ga.requests)
            g = ga.general

            # Side by side: sites as host names against the tool's hostnames.
            causes, examples = collections.Counter(), {}

            def blame(cause, n, example):
                if n:
                    causes[cause] += n
                    examples.setdefault(cause, example)
            for r, (h, e) in parsed["hostname"].items():
                s = ga_site(r)
                g_host = norm_site(s) if s else None
                if g_host != h:
                    n = log.referrers[r]
                    if e and g_host:
                        blame(f"an invalid URL to the tool ({e}), a site to GoAccess", n, f"`{r}`")
                    elif not g_host:
                        blame("a host to the tool, no site to GoAccess", n, f"`{r}`")
                    elif r != apache_unescape(r):
                        blame("Apache's escapes (`\\xHH`, `\\\"`), which the tool decodes and GoAccess "
                              "keeps", n, f"`{r}`: GoAccess `{s}`, the tool `{h}`")
                    else:
                        blame("a host the URL parser rewrites", n, f"`{r}`: GoAccess `{s}`, the tool `{h}`")
            if junk.sites:
                blame("lines that are not requests, to the tool (error rows), and are to GoAccess "
                      "(lines cut short in their user agent)", sum(junk.sites.values()),
                      f"{len(junk.sites)} sites")
            ga_norm = collections.Counter()
            for s, n in ga.sites.items():
                ga_norm[norm_site(s)] += n
            ga_lines += side_by_side("Referring sites (GoAccess's sites lowercased, without "
                                     "port, userinfo and what follows `?`) against the tool's "
                                     "referrer hostnames", ga_norm, tool_hosts, causes, examples,
                                     "hosts", shared_sites)
            # Requests, without the query, against the tool's paths, decoded.
            causes, examples = collections.Counter(), {}
            for t, (p, e) in paths.items():
                g_path = ga_decode(t).split("?", 1)[0]
                mine = pct_decode(p) if p is not None else None
                if g_path != mine:
                    n = lines_of[t]
                    if e:
                        blame(f"an invalid URL to the tool ({e})", n, f"`{t}`")
                    elif "%3F" in t.upper() and g_path != ga_decode(t):
                        blame("`%3F` in the path: GoAccess decodes it to `?`, then cuts the query "
                              "there", n, f"`{t}`")
                    elif t != apache_unescape(t):
                        blame("Apache's escapes (`\\xHH`), which the tool decodes and GoAccess keeps",
                              n, f"`{t}`")
                    elif re.search(r"/\.\.?(/|$|\?)", t):
                        blame("dot segments, which the URL parser removes", n, f"`{t}`")
                    else:
                        blame("a path the URL parser rewrites", n, f"`{t}`: GoAccess `{g_path}`, "
                              f"the tool `{p}`")
            if junk.requests:
                blame("lines that are not requests, to the tool (error rows), and are to GoAccess: "
                      "the TLS handshakes and `-` requests as requests named so, lines cut short "
                      "after their request", sum(junk.requests.values()), "`-`")
            ga_paths, tool_dec = collections.Counter(), collections.Counter()
            for req, n in ga.requests.items():
                ga_paths[req.split("?", 1)[0]] += n
            for p, n in tool_paths.items():
                tool_dec[pct_decode(p)] += n
            ga_lines += side_by_side("Requested paths (GoAccess's requests cut at `?`, as its `-q` "
                                     "does) against the tool's pathnames, percent-decoded",
                                     ga_paths, tool_dec, causes, examples, "paths", shared_requests)
            ga_lines.append(
                f"- GoAccess's totals: {g['total_requests']:,} requests, {g['valid_requests']:,} "
                f"valid, {g['failed_requests']:,} failed, of {newlines:,} lines (it skips lines "
                "that start with a NUL byte without counting them).")
    return report_table(args, log, load, contenders, wall, cpu, ga_version, ga_lines)


def report_table(args, log: Log, load, contenders, wall: dict, cpu: dict, ga_version, ga_lines) -> int:
    size = {k: os.path.getsize(p) for k, p in (("plain", log.plain), ("gz", log.gz), ("zst", log.zst))}
    shown, skip = [], False
    for a in sys.argv[1:]:
        if not skip and a != "--no-write" and not a.startswith("--dir"):
            shown.append(a)
        skip = a == "--dir"
    command = " ".join(["python3 scripts/logs_table.py"] + shown)
    text = [
        f"`{command}` (load average {load[0]:.1f} (1 min), {load[1]:.1f} (5 min) on "
        f"{os.cpu_count()} cores at the start):",
        "",
        f"access.log: {log.lines:,} lines of Apache's combined format ({size['plain'] / 1e6:.0f} MB; "
        f"{log.errors:,} of them not requests); access.log.gz (`gzip -6`, {size['gz'] / 1e6:.0f} MB), "
        f"access.log.zst (`zstd -3`, {size['zst'] / 1e6:.0f} MB). The tool: `rapidurl stats --by "
        "registrable_domain --column referrer --input-format combined --threads 2` unless said. "
        f"Median of {args.runs} runs taken in turns, whole processes"
        + (f"; GoAccess {ga_version} once (`goaccess access.log --log-format=COMBINED "
           "--max-items=100000000 -o report.json`, Debian's configuration)." if ga_version else
           "; GoAccess not installed: its rows are left out."),
        "",
        "| contender | wall ms | CPU ms | MB/s (the log's bytes) |",
        "| --- | ---: | ---: | ---: |",
    ]
    for key, label, _ in contenders:
        text.append(f"| {label} | {wall[key] * 1e3:.0f} | {cpu[key] * 1e3:.0f} | "
                    f"{size['plain'] / wall[key] / 1e6:.0f} |")
    if ga_version:
        text.append(f"| GoAccess {ga_version} on access.log, once | {wall['goaccess'] * 1e3:.0f} | "
                    f"{cpu['goaccess'] * 1e3:.0f} | {size['plain'] / wall['goaccess'] / 1e6:.0f} |")
    def verdict(value, target, at_most=True):
        value = round(value, 2)
        met = value <= target if at_most else value >= target
        return f"target {'<=' if at_most else '>='} {target}: {'met' if met else 'not met'}"

    gz, zst = wall["gz"] / wall["gzip"], wall["zst"] / wall["plain"]
    ratios = [
        f"the tool on the .gz against `gzip -dc` alone: {gz:.2f}x the time ({verdict(gz, 1.15)}), "
        f"{cpu['gz'] / cpu['gzip']:.2f}x the CPU time",
        f"on the .zst against the plain file: {zst:.2f}x the time ({verdict(zst, 1.3)}), "
        f"{cpu['zst'] / cpu['plain']:.2f}x the CPU time",
        f"on the .zst against `zstd -dc` alone: {wall['zst'] / wall['zstd']:.2f}x the time",
        f"2 threads against 1: {wall['plain1'] / wall['plain']:.2f}x the speed (plain), "
        f"{wall['gz1'] / wall['gz']:.2f}x (.gz)",
    ]
    if ga_version:
        ga = wall["goaccess"] / wall["plain"]
        ratios.append(f"GoAccess against the tool on the same file: {ga:.1f}x the time "
                      f"({verdict(ga, 20, at_most=False)}), {cpu['goaccess'] / cpu['plain']:.1f}x "
                      f"the CPU time; against the tool on the .gz: {wall['goaccess'] / wall['gz']:.1f}x "
                      "the time")
    text += ["", "Ratios of the same run: " + "; ".join(ratios) + "."]
    if load[0] > (os.cpu_count() or 1):
        text[-1] += (" The machine was busy with other work (a load average above its cores): "
                     "the wall times and their ratios measure contention as much as the tool; the "
                     "CPU times less so.")
    text += ["", "Checks:", ""]
    text += [line for _, line in CHECKS]
    if ga_lines:
        text += ["", "GoAccess and the tool side by side:", ""] + ga_lines
    result = "\n".join(text)
    print(result)
    if not all(ok for ok, _ in CHECKS):
        print("logs_table.py: a check failed; docs/performance.md is left as it is", file=sys.stderr)
        return 1
    if not args.no_write:
        perf = ROOT / "docs" / "performance.md"
        doc = perf.read_text(encoding="utf-8")
        start, end = "<!-- perf:logs -->\n", "<!-- /perf:logs -->"
        a, b = doc.index(start) + len(start), doc.index(end)
        perf.write_text(doc[:a] + result + "\n" + doc[b:], encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
