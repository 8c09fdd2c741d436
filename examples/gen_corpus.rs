//! A deterministic generator of messy URL corpora, like real crawl or log data.
//!
//! ```text
//! cargo run --release --example gen_corpus -- --count 5000 --seed 20240601 > corpora/sample.txt
//! cargo run --release --example gen_corpus -- --relative --count 2000 --seed 20240601 > corpora/relative.tsv
//! ```
//!
//! Without `--relative`: one URL per line — mostly canonical http(s) URLs, plus mixed case,
//! IDN and punycode hosts, IPv4 in decimal/hex/octal, IPv6, userinfo, ports,
//! percent-encoding (valid and not), whitespace, backslashes, dot segments, `file:` URLs,
//! opaque-path and non-special schemes, and about 5% lines that are not valid URLs.
//!
//! With `--relative`: `base<TAB>link` per line, for resolving links against bases.
//!
//! The same `--count` and `--seed` always give the same bytes (a built-in SplitMix64
//! generator; no dependency).

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, and good enough for test data.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by Lemire's multiply-shift (bias is negligible here).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T: ?Sized>(&mut self, items: &[&'a T]) -> &'a T {
        items[self.below(items.len())]
    }

    fn range(&mut self, lo: usize, hi_inclusive: usize) -> usize {
        lo + self.below(hi_inclusive - lo + 1)
    }
}

const HOSTS: &[&str] = &[
    "example.com",
    "www.example.com",
    "example.org",
    "www.example.org",
    "cdn.example.net",
    "api.example.io",
    "shop.example.co.uk",
    "news.example",
    "blog.sub.example.com",
    "static.example-cdn.com",
    "m.example.de",
    "images.example.fr",
    "login.example.jp",
    "a.b.c.example.com",
    "localhost",
];

const IDN_HOSTS: &[&str] = &[
    "bücher.example",
    "例え.jp",
    "münchen.example.de",
    "straße.example",
    "пример.рф",
    "españa.example.es",
    "日本語.example",
    "ÉCOLE.example.fr",
    "ﬁle.example",
    "café.example.com",
];

const PUNYCODE_HOSTS: &[&str] = &[
    "xn--bcher-kva.example",
    "xn--r8jz45g.jp",
    "xn--mnchen-3ya.example.de",
    "xn--e1afmkfd.xn--p1ai",
    "XN--BCHER-KVA.EXAMPLE",
    "www.xn--espaa-rta.example.es",
];

const WORDS: &[&str] = &[
    "index", "about", "news", "products", "item", "search", "login", "api", "v1", "v2", "users",
    "profile", "images", "static", "css", "js", "blog", "2023", "2024", "archive", "tag",
    "category", "page", "docs", "help", "en", "de", "fr", "download", "cart",
];

const EXTENSIONS: &[&str] = &[
    "", "", "", ".html", ".php", ".png", ".jpg", ".js", ".css", "/",
];

const QUERY_KEYS: &[&str] = &[
    "q",
    "id",
    "page",
    "lang",
    "utm_source",
    "utm_medium",
    "ref",
    "sort",
    "session",
    "s",
];

const QUERY_VALUES: &[&str] = &[
    "1",
    "42",
    "en",
    "newsletter",
    "twitter",
    "desc",
    "abc123",
    "hello+world",
    "a%20b",
    "true",
    "",
];

const FRAGMENTS: &[&str] = &[
    "top",
    "section-2",
    "comments",
    "",
    "main",
    "L10-L20",
    "!/app",
];

fn word(rng: &mut Rng) -> &'static str {
    rng.pick(WORDS)
}

fn path(rng: &mut Rng) -> String {
    let mut p = String::new();
    for _ in 0..rng.range(0, 4) {
        p.push('/');
        p.push_str(word(rng));
    }
    if p.is_empty() {
        if rng.chance(50) {
            p.push('/');
        }
    } else {
        p.push_str(rng.pick(EXTENSIONS));
    }
    p
}

fn query(rng: &mut Rng) -> String {
    if !rng.chance(35) {
        return String::new();
    }
    let mut q = String::from("?");
    for i in 0..rng.range(1, 3) {
        if i > 0 {
            q.push('&');
        }
        q.push_str(rng.pick(QUERY_KEYS));
        q.push('=');
        q.push_str(rng.pick(QUERY_VALUES));
    }
    q
}

fn fragment(rng: &mut Rng) -> String {
    if rng.chance(12) {
        format!("#{}", rng.pick(FRAGMENTS))
    } else {
        String::new()
    }
}

fn http_scheme(rng: &mut Rng) -> &'static str {
    if rng.chance(70) { "https" } else { "http" }
}

fn tail(rng: &mut Rng) -> String {
    let mut t = path(rng);
    if t.is_empty() && rng.chance(50) {
        t.push('/');
    }
    t.push_str(&query(rng));
    t.push_str(&fragment(rng));
    t
}

fn canonical(rng: &mut Rng) -> String {
    let host = rng.pick(HOSTS);
    format!("{}://{}{}", http_scheme(rng), host, tail(rng))
}

/// Upper-cases ASCII letters at random.
fn mixed_case(rng: &mut Rng, s: &str) -> String {
    s.chars()
        .map(|c| {
            if rng.chance(40) {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

fn ipv4(rng: &mut Rng) -> String {
    let octets = [
        rng.range(1, 223) as u32,
        rng.below(256) as u32,
        rng.below(256) as u32,
        rng.range(1, 254) as u32,
    ];
    match rng.below(7) {
        0 | 1 => format!("{}.{}.{}.{}", octets[0], octets[1], octets[2], octets[3]),
        2 => {
            let n = octets.iter().fold(0u32, |acc, &o| (acc << 8) | o);
            format!("{n}")
        }
        3 => {
            let n = octets.iter().fold(0u32, |acc, &o| (acc << 8) | o);
            format!("0x{n:X}")
        }
        4 => format!(
            "0x{:x}.0x{:02x}.{}.{}",
            octets[0], octets[1], octets[2], octets[3]
        ),
        5 => format!(
            "0{:o}.0{:o}.{}.{}",
            octets[0], octets[1], octets[2], octets[3]
        ),
        _ => format!(
            "{}.{}",
            octets[0],
            (octets[1] << 16) | (octets[2] << 8) | octets[3]
        ),
    }
}

fn ipv6(rng: &mut Rng) -> String {
    let choices: &[&str] = &[
        "::1",
        "::",
        "2001:db8::1",
        "2001:DB8:0:0:0:0:0:1",
        "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
        "fe80::1:2:3:4",
        "::ffff:192.0.2.128",
        "::ffff:c000:280",
        "64:ff9b::198.51.100.7",
        "0:0:0:0:0:0:0:0",
        "1:0:0:2:0:0:0:3",
        "2001:db8:0:0:1:0:0:1",
    ];
    rng.pick(choices).to_owned()
}

fn percent(rng: &mut Rng) -> String {
    let host = rng.pick(HOSTS);
    let pieces: &[&str] = &[
        "/caf%C3%A9",
        "/%7Euser/",
        "/a%2Fb",
        "/100%25",
        "/bad%zz",
        "/trunc%",
        "/x%4",
        "/%e2%82%ac",
        "/ümlaut/ä",
        "/emoji/😀",
        "/q?name=J%C3%BCrgen&x=%ZZ",
        "/?q=caf\u{e9}&r=\u{1F600}",
        "/path%20with%20spaces",
        "/%2e%2E/up",
        "/{braces}/[brackets]/`tick`/^caret/|pipe",
        "/\"quoted\"/<angle>",
    ];
    format!(
        "{}://{}{}{}",
        http_scheme(rng),
        host,
        rng.pick(pieces),
        fragment(rng)
    )
}

fn whitespace(rng: &mut Rng) -> String {
    let url = canonical(rng);
    match rng.below(6) {
        0 => format!("  {url}"),
        1 => format!("{url}   "),
        2 => format!("\t{url}\t"),
        3 => {
            // A tab or space inside the URL.
            let cut = url.find("://").map_or(0, |i| i + 3 + rng.below(3));
            let (a, b) = url.split_at(cut.min(url.len()));
            format!("{a}\t{b}")
        }
        4 => format!(
            "{}://{}/search?q=two words&x= y ",
            http_scheme(rng),
            rng.pick(HOSTS)
        ),
        _ => format!(
            " {}://{}/a b/c{}",
            http_scheme(rng),
            rng.pick(HOSTS),
            fragment(rng)
        ),
    }
}

fn dot_segments(rng: &mut Rng) -> String {
    let pieces: &[&str] = &[
        "/a/./b/../c",
        "/../../etc/passwd",
        "/a/b/../../../x",
        "/%2e/a/%2E%2e/b",
        "/a/.%2e/b",
        "/./",
        "/a/b/.",
        "/a/b/..",
        "/docs/../img/./logo.png",
    ];
    format!(
        "{}://{}{}{}",
        http_scheme(rng),
        rng.pick(HOSTS),
        rng.pick(pieces),
        query(rng)
    )
}

fn file_url(rng: &mut Rng) -> String {
    let choices: &[&str] = &[
        "file:///C:/Users/me/Documents/report.pdf",
        "file:///c:/Windows/System32/drivers/etc/hosts",
        "file:///D|/data/file.txt",
        "file:C:/temp/x.txt",
        "file:///home/user/notes.txt",
        "file://localhost/etc/fstab",
        "file://server/share/folder/file.doc",
        "FILE:///tmp/a%20b.txt",
        "file:///C:/a/../../b",
        "file:\\\\server\\share\\x.txt",
        "file:///C:\\dir\\sub\\f.txt",
        "file:/usr/local/bin",
    ];
    rng.pick(choices).to_owned()
}

fn opaque(rng: &mut Rng) -> String {
    let choices: &[&str] = &[
        "mailto:someone@example.com",
        "mailto:Someone@Example.com?subject=Hello%20there&body=hi",
        "MAILTO:a@b.example",
        "data:text/plain;base64,SGVsbG8sIFdvcmxkIQ==",
        "data:text/html,<h1>Hello</h1>",
        "data:,A%20brief%20note",
        "javascript:void(0)",
        "javascript:alert('hi there')",
        "tel:+1-555-0100",
        "urn:isbn:0451450523",
        "about:blank",
        "sms:+15550100?body=hello",
        "news:comp.infosystems.www.servers.unix",
    ];
    rng.pick(choices).to_owned()
}

fn non_special(rng: &mut Rng) -> String {
    let choices: &[&str] = &[
        "git://github.example/user/repo.git",
        "ssh://git@gitlab.example:2222/group/project.git",
        "ssh://User@Host.Example/home",
        "sftp://backup.example/var/backups/",
        "redis://:secret@cache.example:6379/0",
        "postgres://app:pw@db.example:5432/prod?sslmode=require",
        "s3://bucket.example/key/with spaces.txt",
        "foo://host/path\\with\\backslash",
        "spotify:track:4uLU6hMCjMI75M1A2tKUQC",
        "git+ssh://git@example.com/repo",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "irc://irc.example.net:6697/#channel",
        "x-custom://HOST.Example/A/./b/../C",
    ];
    rng.pick(choices).to_owned()
}

fn other_special(rng: &mut Rng) -> String {
    let scheme = rng.pick(&["ws", "wss", "ftp", "ftp"]);
    format!("{}://{}{}", scheme, rng.pick(HOSTS), path(rng))
}

fn invalid(rng: &mut Rng) -> String {
    let host = rng.pick(HOSTS);
    match rng.below(16) {
        0 => "http://exa mple.com".to_owned(),
        1 => format!("http://[::1{}", path(rng)),
        2 => format!("https://{host}:99999{}", path(rng)),
        3 => format!("{host}/{}", word(rng)),
        4 => "http://".to_owned(),
        5 => format!("https://{host}:8o8o/"),
        6 => "http://1.2.3.4.5/".to_owned(),
        7 => "http://256.256.256.256/".to_owned(),
        8 => "http://[1:2:3:4:5:6:7:8:9]/".to_owned(),
        9 => "http://[::1::2]/".to_owned(),
        10 => format!("https://{}<{}/", word(rng), host),
        11 => format!("//{host}/protocol-relative"),
        12 => "http://user:pass@/".to_owned(),
        13 => format!("/{}/{}", word(rng), word(rng)),
        14 => "http://[::ffff:192.168.1.256]/".to_owned(),
        _ => "https://0x100000000/".to_owned(),
    }
}

fn sample_line(rng: &mut Rng) -> String {
    let r = rng.below(1000);
    match r {
        0..=449 => canonical(rng),
        450..=499 => {
            let scheme = http_scheme(rng);
            let scheme = mixed_case(rng, scheme);
            let host = rng.pick(HOSTS);
            let host = mixed_case(rng, host);
            format!("{scheme}://{host}{}", tail(rng))
        }
        500..=539 => format!(
            "{}://{}{}",
            http_scheme(rng),
            rng.pick(IDN_HOSTS),
            tail(rng)
        ),
        540..=559 => format!(
            "{}://{}{}",
            http_scheme(rng),
            rng.pick(PUNYCODE_HOSTS),
            tail(rng)
        ),
        560..=599 => format!("{}://{}{}", http_scheme(rng), ipv4(rng), tail(rng)),
        600..=639 => {
            let port = if rng.chance(40) { ":8080" } else { "" };
            format!("{}://[{}]{port}{}", http_scheme(rng), ipv6(rng), tail(rng))
        }
        640..=669 => {
            let users: &[&str] = &[
                "user",
                "user:pass",
                "a%40b:p%3Aw",
                "admin:",
                ":pw",
                "jöhn:sécret",
            ];
            format!(
                "{}://{}@{}{}",
                http_scheme(rng),
                rng.pick(users),
                rng.pick(HOSTS),
                tail(rng)
            )
        }
        670..=709 => {
            let (scheme, port) = match rng.below(6) {
                0 => ("http", ":80"),
                1 => ("https", ":443"),
                2 => ("http", ":8080"),
                3 => ("https", ":8443"),
                4 => ("http", ":00080"),
                _ => ("https", ":3000"),
            };
            format!("{scheme}://{}{port}{}", rng.pick(HOSTS), tail(rng))
        }
        710..=749 => percent(rng),
        750..=789 => whitespace(rng),
        790..=809 => {
            let host = rng.pick(HOSTS);
            let pieces: &[&str] = &["\\a\\b\\c.html", "\\\\x", "/dir\\sub/file", "\\"];
            if rng.chance(30) {
                format!("{}:\\\\{host}{}", http_scheme(rng), rng.pick(pieces))
            } else {
                format!("{}://{host}{}", http_scheme(rng), rng.pick(pieces))
            }
        }
        810..=839 => dot_segments(rng),
        840..=869 => file_url(rng),
        870..=899 => opaque(rng),
        900..=929 => non_special(rng),
        930..=949 => other_special(rng),
        _ => invalid(rng),
    }
}

const BASES: &[&str] = &[
    "https://example.com/docs/guide/index.html",
    "https://example.com/",
    "https://example.com",
    "http://example.org/a/b/c?x=1#frag",
    "https://user:pw@example.net:8443/path/to/dir/",
    "http://[::1]:8080/app/page",
    "http://192.168.0.1/admin/index.php?tab=2",
    "https://bücher.example/kategorie/roman/",
    "file:///C:/Users/me/site/index.html",
    "file:///home/me/site/",
    "foo://host/dir/file",
    "git://git.example/repo/tree/main/src/lib.rs",
    "https://cdn.example.net/assets/v2/css/main.css",
    "https://example.com/a/b/c/d/e/f",
    "mailto:someone@example.com",
    "data:text/plain,hello",
];

const LINKS: &[&str] = &[
    "../img/a.png",
    "?q=1",
    "#top",
    "//cdn.example/x.js",
    "/abs",
    "b/c",
    "",
    ".",
    "..",
    "./",
    "../../../../../up",
    "https://other.example/",
    "HTTPS://OTHER.EXAMPLE:443/x",
    "http:relative-with-scheme",
    "\\windows\\style\\path",
    "  spaced-link.html  ",
    "img/ä.png",
    "?q=two words",
    "%2e%2e/x",
    "javascript:void(0)",
    "mailto:x@y.example",
    "?",
    "#",
    "//",
    "///triple",
    "/./a/../b",
    "C:/drive/path",
    "file.html?x#y",
    "//[::1]:9000/z",
    "//exa mple.com/",
    "http://:80/",
];

fn relative_link(rng: &mut Rng) -> String {
    if rng.chance(45) {
        return rng.pick(LINKS).to_owned();
    }
    let mut link = String::new();
    match rng.below(4) {
        0 => {
            for _ in 0..rng.range(1, 3) {
                link.push_str("../");
            }
        }
        1 => link.push_str("./"),
        2 => link.push('/'),
        _ => {}
    }
    for i in 0..rng.range(1, 3) {
        if i > 0 {
            link.push('/');
        }
        link.push_str(word(rng));
    }
    link.push_str(rng.pick(EXTENSIONS));
    link.push_str(&query(rng));
    link.push_str(&fragment(rng));
    link
}

struct Options {
    count: usize,
    seed: u64,
    relative: bool,
}

fn parse_args() -> Result<Options, String> {
    let mut options = Options {
        count: 5000,
        seed: 1,
        relative: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--count" => {
                let v = args.next().ok_or("--count needs a value")?;
                options.count = v.parse().map_err(|e| format!("--count {v}: {e}"))?;
            }
            "--seed" => {
                let v = args.next().ok_or("--seed needs a value")?;
                options.seed = v.parse().map_err(|e| format!("--seed {v}: {e}"))?;
            }
            "--relative" => options.relative = true,
            "-h" | "--help" => {
                return Err(
                    "usage: gen_corpus [--relative] [--count N] [--seed S] > FILE".to_owned(),
                );
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(msg) => {
            eprintln!("gen_corpus: {msg}");
            return ExitCode::from(2);
        }
    };
    let mut rng = Rng(options.seed);
    let mut out = BufWriter::new(io::stdout().lock());
    let result = (|| -> io::Result<()> {
        for _ in 0..options.count {
            if options.relative {
                let base = rng.pick(BASES);
                let link = relative_link(&mut rng);
                writeln!(out, "{base}\t{link}")?;
            } else {
                writeln!(out, "{}", sample_line(&mut rng))?;
            }
        }
        out.flush()
    })();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gen_corpus: {e}");
            ExitCode::FAILURE
        }
    }
}
