//! The drop-in against rust-url 2.5.8 (the real crate, `rust_url`), method by method.
//!
//! Inputs: every line of the corpora (`../shared/corpora`, `corpora/`), every WPT
//! `urltestdata.json` input with its base, and seeded mutations of corpus lines. For each,
//! both crates parse, then every getter is compared; then each setter is run on both with
//! a list of values and the results compared.
//!
//! Where the two differ, the difference must be one of the listed departures
//! ([`Departure`]): rust-url's answer, with that departure undone, must equal the
//! drop-in's. docs/url-compat.md lists each with an example. Inputs from the WPT data may
//! also differ where the data says rust-url is wrong (the drop-in passes every WPT case,
//! tests/upstream.rs). Anything else fails the test.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A place where rust-url 2.5.8 departs from the URL Standard and the drop-in follows the
/// Standard. docs/url-compat.md has an example of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Departure {
    /// `^` in a path is percent-encoded (`%5E`); rust-url leaves it.
    CaretInPath,
    /// A `file:` path's Windows drive letter `C|` is written `C:`.
    PipeDriveLetter,
    /// A `file:` path keeps its leading empty segments (`file:////x` has the path `//x`);
    /// rust-url drops them.
    FileEmptySegments,
    /// A `file:` URL keeps its host when its path starts with a Windows drive letter
    /// (`C|/e` against `file://host/x` is `file://host/C:/e`); rust-url drops the host.
    DriveLetterKeepsHost,
    /// An ASCII label that starts with `xn--` but is not valid Punycode is accepted, as
    /// the current Standard's domain-to-ASCII does for ASCII input; rust-url fails.
    XnLabels,
    /// After a setter, the getters read the URL as a new parse of its serialization
    /// would; rust-url's can keep a stale host (`set_host(None)` on `sc://h/` reads
    /// `Some("")` until parsed again).
    FreshAfterSetter,
    /// `set_path` takes its whole text as the path: `?` and `#` are percent-encoded
    /// (the path state with an override); rust-url stops at them, or, on an opaque path,
    /// writes them raw into a URL that then parses to another.
    SetPathWhole,
    /// `set_path("")` on a URL without a host keeps the path `/` (the path start state
    /// with an override); rust-url empties it and the URL becomes one that cannot be a
    /// base.
    EmptyPathWithoutHost,
    /// `set_host(Some(""))` on a URL with credentials or a port is refused with
    /// `EmptyHost` (the Standard forbids an empty host there); rust-url writes a URL that
    /// does not parse.
    EmptyHostRefused,
}

/// rust-url's serialization `theirs` with each departure undone in turn (each rewrites
/// only what it names), given the drop-in's serialization `ours`; with the departures
/// that changed something.
fn undo_all(theirs: &str, ours: &str) -> (String, Vec<Departure>) {
    let mut s = theirs.to_owned();
    let mut used = Vec::new();
    let (Ok(o), Ok(_)) = (url::Url::parse(ours), rust_url::Url::parse(theirs)) else {
        return (s, used);
    };
    let mut step = |d: Departure, s: &mut String, f: &dyn Fn(&rust_url::Url) -> Option<String>| {
        if let Some(t) = rust_url::Url::parse(s).ok().as_ref().and_then(f) {
            if t != *s {
                *s = t;
                used.push(d);
            }
        }
    };
    // The path of `u`'s serialization, and what comes before and after it.
    fn split(u: &rust_url::Url) -> (&str, &str, &str) {
        let s = u.as_str();
        let end = s.len()
            - u.query().map_or(0, |q| q.len() + 1)
            - u.fragment().map_or(0, |f| f.len() + 1);
        let start = end - u.path().len();
        (&s[..start], &s[start..end], &s[end..])
    }
    step(Departure::CaretInPath, &mut s, &|u| {
        (!u.cannot_be_a_base()).then(|| {
            let (h, p, t) = split(u);
            format!("{h}{}{t}", p.replace('^', "%5E"))
        })
    });
    step(Departure::PipeDriveLetter, &mut s, &|u| {
        let (h, p, t) = split(u);
        let b = p.as_bytes();
        (u.scheme() == "file"
            && b.len() >= 3
            && b[1].is_ascii_alphabetic()
            && b[2] == b'|'
            && matches!(b.get(3), None | Some(b'/')))
        .then(|| format!("{h}/{}:{}{t}", &p[1..2], &p[3..]))
    });
    let ours_path = o.path().to_owned();
    step(Departure::FileEmptySegments, &mut s, &|u| {
        let (h, p, t) = split(u);
        let collapsed = format!("/{}", ours_path.trim_start_matches('/'));
        (u.scheme() == "file" && ours_path.starts_with("//") && p == collapsed)
            .then(|| format!("{h}{ours_path}{t}"))
    });
    let ours_host = o.host_str().map(str::to_owned);
    step(Departure::DriveLetterKeepsHost, &mut s, &|u| {
        let host = ours_host.as_deref()?;
        let rest = u.as_str().strip_prefix("file://")?;
        (u.host_str().is_none() && rest.starts_with('/')).then(|| format!("file://{host}{rest}"))
    });
    (s, used)
}

/// The departures that explain why the drop-in's `ours` differs from rust-url's
/// `theirs`, or `None`.
fn explain(
    ours: &Result<url::Url, String>,
    theirs: &Result<rust_url::Url, String>,
) -> Option<Vec<Departure>> {
    match (ours, theirs) {
        (Ok(o), Ok(t)) if o.as_str() == t.as_str() => {
            let again = rust_url::Url::parse(t.as_str()).map_err(|e| e.to_string());
            (view_theirs(&again) == view_ours(ours)).then(|| vec![Departure::FreshAfterSetter])
        }
        (Ok(o), Ok(t)) => {
            let (undone, used) = undo_all(t.as_str(), o.as_str());
            (undone == o.as_str() && !used.is_empty()).then_some(used)
        }
        (Ok(o), Err(e)) if e == "invalid international domain name" => {
            let host = o.host_str()?;
            (host.is_ascii()
                && host
                    .split('.')
                    .any(|l| l.to_ascii_lowercase().starts_with("xn--")))
            .then(|| vec![Departure::XnLabels])
        }
        _ => None,
    }
}

/// Every getter of a parsed URL, as one string, or the error.
fn view_ours(r: &Result<url::Url, String>) -> Result<String, String> {
    let u = r.as_ref().map_err(Clone::clone)?;
    let mut s = String::new();
    write!(
        s,
        "{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{:?}|{:?}|{}|{}|{}|{:?}|{:?}|{}",
        u.as_str(),
        u.scheme(),
        u.username(),
        u.password(),
        u.host_str(),
        u.host().map(|h| h.to_string()),
        u.domain(),
        u.port(),
        u.path(),
        u.query(),
        u.fragment(),
        u.cannot_be_a_base(),
        u.has_authority(),
        u.authority(),
        u.port_or_known_default(),
        u.path_segments().map(|s| s.collect::<Vec<_>>()),
        u.origin().ascii_serialization(),
    )
    .unwrap();
    Ok(s)
}

fn view_theirs(r: &Result<rust_url::Url, String>) -> Result<String, String> {
    let u = r.as_ref().map_err(Clone::clone)?;
    let mut s = String::new();
    write!(
        s,
        "{}|{}|{}|{:?}|{:?}|{:?}|{:?}|{:?}|{}|{:?}|{:?}|{}|{}|{}|{:?}|{:?}|{}",
        u.as_str(),
        u.scheme(),
        u.username(),
        u.password(),
        u.host_str(),
        u.host().map(|h| h.to_string()),
        u.domain(),
        u.port(),
        u.path(),
        u.query(),
        u.fragment(),
        u.cannot_be_a_base(),
        u.has_authority(),
        u.authority(),
        u.port_or_known_default(),
        u.path_segments().map(|s| s.collect::<Vec<_>>()),
        u.origin().ascii_serialization(),
    )
    .unwrap();
    Ok(s)
}

#[derive(Default)]
struct Tally {
    compared: usize,
    departures: BTreeMap<String, usize>,
    unexplained: Vec<String>,
}

impl Tally {
    fn check(
        &mut self,
        what: &str,
        ours: &Result<url::Url, String>,
        theirs: &Result<rust_url::Url, String>,
        wpt: bool,
    ) {
        self.compared += 1;
        let (ours_view, theirs_view) = (view_ours(ours), view_theirs(theirs));
        if ours_view == theirs_view {
            return;
        }
        if let Some(used) = explain(ours, theirs) {
            for d in used {
                *self.departures.entry(format!("{d:?}")).or_default() += 1;
            }
        } else if wpt {
            *self
                .departures
                .entry("rust-url fails the WPT case".into())
                .or_default() += 1;
        } else {
            self.unexplained.push(format!(
                "{what}\n  drop-in:  {ours_view:?}\n  rust-url: {theirs_view:?}"
            ));
        }
    }
}

fn ours(r: Result<url::Url, url::ParseError>) -> Result<url::Url, String> {
    r.map_err(|e| e.to_string())
}

fn theirs(r: Result<rust_url::Url, rust_url::ParseError>) -> Result<rust_url::Url, String> {
    r.map_err(|e| e.to_string())
}

fn corpus_lines() -> Vec<String> {
    let mut lines = Vec::new();
    for path in rapidurl_testkit::data::corpus_paths(true) {
        let text = std::fs::read_to_string(&path).unwrap();
        lines.extend(text.lines().map(str::to_owned));
    }
    assert!(
        lines.len() > 100_000,
        "the corpora hold {} lines",
        lines.len()
    );
    lines
}

/// Seeded mutations: characters the two parsers treat differently inserted or replaced.
fn mutations(lines: &[String], n: usize) -> Vec<String> {
    const PIECES: &[&str] = &[
        "^", "|", "\\", " ", "%", "%2e", "#", "?", "@", ":", "[", "]", "{", "}", "\t", "\0", "é",
        "\u{ff0e}", "xn--", "..", "/./", "/../", "C|", ":8080", "//", "'", "\"", "<", "`",
        "\u{200d}",
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..n)
        .map(|_| {
            let line = &lines[(next() as usize) % lines.len()];
            let mut s = line.clone();
            for _ in 0..1 + next() % 3 {
                let piece = PIECES[(next() as usize) % PIECES.len()];
                let mut at = (next() as usize) % (s.len() + 1);
                while !s.is_char_boundary(at) {
                    at -= 1;
                }
                if next() % 2 == 0 && at < s.len() {
                    let end = s[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                    s.replace_range(at..end, piece);
                } else {
                    s.insert_str(at, piece);
                }
            }
            s
        })
        .collect()
}

fn report(name: &str, tally: &Tally) {
    println!(
        "{name}: {} compared, departures {:?}, {} unexplained",
        tally.compared,
        tally.departures,
        tally.unexplained.len()
    );
    if let Some(dump) = std::env::var_os("DIFFERENTIAL_DUMP") {
        std::fs::write(
            std::path::Path::new(&dump).join(name),
            tally.unexplained.join("\n"),
        )
        .unwrap();
    }
    assert!(
        tally.unexplained.is_empty(),
        "{name}: differences from rust-url that no listed departure explains (first 20):\n{}",
        tally.unexplained[..tally.unexplained.len().min(20)].join("\n")
    );
}

#[test]
fn parse_and_every_getter_agree_but_for_departures() {
    let mut tally = Tally::default();
    let lines = corpus_lines();
    for line in lines.iter().chain(&mutations(&lines, 50_000)) {
        tally.check(
            line,
            &ours(url::Url::parse(line)),
            &theirs(rust_url::Url::parse(line)),
            false,
        );
    }
    report("parse", &tally);
}

#[test]
fn wpt_inputs_agree_but_where_rust_url_fails_the_data() {
    let path = rapidurl_testkit::data::wpt_file("urltestdata.json");
    let data: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut tally = Tally::default();
    for case in data.as_array().unwrap().iter().filter(|c| c.is_object()) {
        let input = case["input"].as_str().unwrap();
        let (ours, theirs) = match case["base"].as_str() {
            None => (
                self::ours(url::Url::parse(input)),
                self::theirs(rust_url::Url::parse(input)),
            ),
            Some(b) => {
                let (Ok(ob), Ok(tb)) = (url::Url::parse(b), rust_url::Url::parse(b)) else {
                    continue;
                };
                (self::ours(ob.join(input)), self::theirs(tb.join(input)))
            }
        };
        tally.check(
            &format!("{input:?} against {:?}", case["base"]),
            &ours,
            &theirs,
            true,
        );
    }
    report("wpt", &tally);
    assert!(tally.compared > 800);
}

#[test]
fn join_agrees_but_for_departures() {
    let lines = corpus_lines();
    let mut tally = Tally::default();
    const RELATIVE: &[&str] = &[
        "",
        "a",
        "../b/./c",
        "/x?y#z",
        "?q",
        "#f",
        "//other.example/p",
        "..\\d",
        "C|/e",
        "%2e%2e/f",
        "g^h",
        "mailto:x",
        "https:rel",
    ];
    for base in lines.iter().step_by(37) {
        let (Ok(ob), Ok(tb)) = (url::Url::parse(base), rust_url::Url::parse(base)) else {
            continue;
        };
        for rel in RELATIVE {
            tally.check(
                &format!("{rel:?} against {base:?}"),
                &ours(ob.join(rel)),
                &theirs(tb.join(rel)),
                false,
            );
        }
    }
    report("join", &tally);
}

/// One setter call, on both crates, with its result.
fn setters(u: &mut url::Url, t: &mut rust_url::Url, op: usize, v: &str) -> (String, String) {
    let (a, b) = match op {
        0 => (
            format!("{:?}", u.set_scheme(v)),
            format!("{:?}", t.set_scheme(v)),
        ),
        1 => (
            format!("{:?}", u.set_username(v)),
            format!("{:?}", t.set_username(v)),
        ),
        2 => (
            format!("{:?}", u.set_password(Some(v))),
            format!("{:?}", t.set_password(Some(v))),
        ),
        3 => (
            format!("{:?}", u.set_password(None)),
            format!("{:?}", t.set_password(None)),
        ),
        4 => (
            format!("{:?}", u.set_host(Some(v))),
            format!("{:?}", t.set_host(Some(v))),
        ),
        5 => (
            format!("{:?}", u.set_host(None)),
            format!("{:?}", t.set_host(None)),
        ),
        6 => {
            let p = v.parse::<u16>().ok();
            (
                format!("{:?}", u.set_port(p)),
                format!("{:?}", t.set_port(p)),
            )
        }
        7 => {
            u.set_path(v);
            t.set_path(v);
            (String::new(), String::new())
        }
        8 => {
            u.set_query(Some(v));
            t.set_query(Some(v));
            (String::new(), String::new())
        }
        9 => {
            u.set_query(None);
            t.set_query(None);
            (String::new(), String::new())
        }
        10 => {
            u.set_fragment(Some(v));
            t.set_fragment(Some(v));
            (String::new(), String::new())
        }
        11 => {
            u.set_fragment(None);
            t.set_fragment(None);
            (String::new(), String::new())
        }
        12 => {
            let a = u.path_segments_mut().map(|mut s| {
                s.pop_if_empty().push(v);
            });
            let b = t.path_segments_mut().map(|mut s| {
                s.pop_if_empty().push(v);
            });
            (format!("{a:?}"), format!("{b:?}"))
        }
        13 => {
            let a = u.path_segments_mut().map(|mut s| {
                s.pop();
            });
            let b = t.path_segments_mut().map(|mut s| {
                s.pop();
            });
            (format!("{a:?}"), format!("{b:?}"))
        }
        14 => {
            u.query_pairs_mut().append_pair(v, "1 2");
            t.query_pairs_mut().append_pair(v, "1 2");
            (String::new(), String::new())
        }
        _ => {
            let ip: std::net::IpAddr = if v.len().is_multiple_of(2) {
                "10.0.0.1".parse().unwrap()
            } else {
                "::1".parse().unwrap()
            };
            (
                format!("{:?}", u.set_ip_host(ip)),
                format!("{:?}", t.set_ip_host(ip)),
            )
        }
    };
    (a, b)
}

/// The setter departures, recognised by the call and the URL it was made on.
fn setter_departure(
    op: usize,
    v: &str,
    base: &url::Url,
    ours: &Result<url::Url, String>,
    theirs: &Result<rust_url::Url, String>,
) -> Option<Departure> {
    if view_ours(ours) == view_theirs(theirs) {
        return None;
    }
    match op {
        7 if v.contains(['?', '#']) => Some(Departure::SetPathWhole),
        7 if v.is_empty() && base.host().is_none() && !base.has_authority() => {
            Some(Departure::EmptyPathWithoutHost)
        }
        4 if v.is_empty()
            && (!base.username().is_empty()
                || base.password().is_some()
                || base.port().is_some()) =>
        {
            Some(Departure::EmptyHostRefused)
        }
        _ => None,
    }
}

#[test]
fn setters_agree_but_for_departures() {
    const VALUES: &[&str] = &[
        "",
        "x",
        "https",
        "ftp",
        "file",
        "foo",
        "a b",
        "exa mple",
        "[::1]",
        "127.0.0.1",
        "h:1",
        "8080",
        "443",
        "é",
        "^",
        "/p/q",
        "C|",
        "?#",
        "u@v",
        "%41",
    ];
    let lines = corpus_lines();
    let mut bases: Vec<&str> = lines.iter().step_by(211).map(String::as_str).collect();
    bases.extend([
        "mailto:a@b",
        "file:///C:/x",
        "sc://h/p",
        "sc:/p",
        "data:text,x",
        "http://[::1]:81/",
        "ws://u:p@h/",
    ]);
    let mut tally = Tally::default();
    for base in bases {
        let (Ok(u0), Ok(t0)) = (url::Url::parse(base), rust_url::Url::parse(base)) else {
            continue;
        };
        for op in 0..16 {
            for v in VALUES {
                let (mut u, mut t) = (u0.clone(), t0.clone());
                let (ra, rb) = setters(&mut u, &mut t, op, v);
                let what = format!("op {op} with {v:?} on {base:?}");
                let (o, t) = if ra == rb {
                    (Ok(u), Ok(t))
                } else {
                    (Err(ra), Err(rb))
                };
                if let Some(d) = setter_departure(op, v, &u0, &o, &t) {
                    tally.compared += 1;
                    *tally.departures.entry(format!("{d:?}")).or_default() += 1;
                    continue;
                }
                tally.check(&what, &o, &t, false);
            }
        }
    }
    report("setters", &tally);
}
