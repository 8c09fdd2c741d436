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
queries of ../shared/corpora's URLs (kasztp.txt and userbait.txt; bytes outside
printable ASCII, and the quote, the backslash and the space, percent-encoded, as a
client sends them), their popularity Zipf-like; statuses and sizes (`-` for no body);
referrers: about 30% `-`, 15% the site's own pages, 12% search engines, half a percent
`android-app://` ones, the rest the corpora's http(s) URLs as a browser sends them
(fragment and userinfo dropped; half of them origin-only, as the default referrer
policy sends cross-site ones; those with bytes a browser would encode left out). About
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
(target <= 1.15), .zst against the plain file (target <= 1.3). GoAccess (Debian's
`goaccess`, `--log-format=COMBINED`, JSON report with every item: `--max-items`) once on
the plain file (GoAccess 1.7 does not read gzip), timed; target: the tool at least 20x
faster.

The answers are checked, and compared with GoAccess's where both report the same thing:
- the rows: the file's lines = the tool's rows + its error rows, and the error rows are
  exactly the lines that are not requests (plain, .gz and .zst alike);
- the tool's counts of referrer hosts (`--by hostname --column referrer`) and of request
  paths (`--by pathname --base http://x/`) against the counts the generator wrote,
  each distinct referrer and target parsed by the tool's URL parser as lines
  (`rapidurl parse`; a target as `http://x` + target, its origin form): the log reader
  against the line reader;
- GoAccess's REFERRING_SITES (hits per referring site) and its requests (the REQUESTS,
  STATIC_REQUESTS and NOT_FOUND panels summed over method and protocol: GoAccess splits
  a path by extension and by status 404 across the three, and keys it with its method
  and protocol) against the counts the generator wrote as GoAccess 1.7 reads them: the
  site is what follows the first `//` of the referrer up to the next `/`; the request is
  the target percent-decoded (query kept); the lines that are not requests are what
  GoAccess makes of them, measured by GoAccess on those lines alone;
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
GARBAGE = [("tls", 40), ("dash", 25), ("truncated", 20), ("binary", 15)]


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
    # binary junk: random bytes, or a run of NUL bytes (a block a crash left zeroed)
    if rng.random() < 0.5:
        return b"\0" * rng.randrange(16, 400)
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
    site, and hits per request summed over the three panels of requests. Each also by
    the hash GoAccess keys it with."""

    def __init__(self, path: str):
        with open(path, "rb") as f:
            report = json.loads(f.read().decode("utf-8", "surrogateescape"))
        self.general = report["general"]
        self.sites: collections.Counter = collections.Counter()
        self.site_hashes: collections.Counter = collections.Counter()
        for item in report.get("referring_sites", {}).get("data", []):
            self.sites[item["data"]] += item["hits"]["count"]
            self.site_hashes[djb2(item["data"].encode("utf-8", "surrogateescape"))] += item["hits"]["count"]
        self.requests: collections.Counter = collections.Counter()
        self.request_hashes: collections.Counter = collections.Counter()
        for panel in ("requests", "static_requests", "not_found"):
            for item in report.get(panel, {}).get("data", []):
                n = item["hits"]["count"]
                self.requests[item["data"]] += n
                key = item["data"]
                if item.get("method", "---") != "---" or item.get("protocol", "---") != "---":
                    key = f"{key}|{item['method']}|{item['protocol']}"
                self.request_hashes[djb2(key.encode("utf-8", "surrogateescape"))] += n


def goaccess_version(binary: str) -> str | None:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout
    except OSError:
        return None
    m = re.search(r"GoAccess - ([\d.]+)", out)
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


def parse_lines(binary: str, urls: list[str], field: str, d: str) -> list[tuple[str | None, str | None]]:
    """(value of `field`, error name) of each URL, by `rapidurl parse` on them as lines."""
    path = os.path.join(d, f"distinct-{field}.txt")
    with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="\n") as f:
        for u in urls:
            f.write(u + "\n")
    out = subprocess.run([binary, "parse", "--threads", "2", "--fields", field, "--format", "jsonl",
                          path], capture_output=True).stdout.decode("utf-8", "surrogateescape")
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
