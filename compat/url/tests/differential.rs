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

mod departures;

use departures::*;
use std::collections::BTreeMap;

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
        if let Some(used) = explain_input(what, ours, theirs) {
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

#[test]
fn every_departure_is_in_the_docs() {
    let doc = rapidurl_testkit::data::workspace_root().join("docs/url-compat.md");
    let text = std::fs::read_to_string(&doc).expect("docs/url-compat.md exists");
    for d in ALL {
        let name = format!("`{d:?}`");
        assert!(
            text.contains(&name),
            "{} does not describe the departure {name}",
            doc.display()
        );
    }
}

/// The syntax violations each crate reports for `input`, in order.
fn violations(input: &str) -> (Vec<String>, Vec<String>) {
    let ours = std::cell::RefCell::new(Vec::new());
    let theirs = std::cell::RefCell::new(Vec::new());
    let report_ours = |v: url::SyntaxViolation| ours.borrow_mut().push(format!("{v:?}"));
    let report_theirs = |v: rust_url::SyntaxViolation| theirs.borrow_mut().push(format!("{v:?}"));
    let _ = url::Url::options()
        .syntax_violation_callback(Some(&report_ours))
        .parse(input);
    let _ = rust_url::Url::options()
        .syntax_violation_callback(Some(&report_theirs))
        .parse(input);
    (ours.into_inner(), theirs.into_inner())
}

#[test]
fn syntax_violations_agree() {
    let lines = corpus_lines();
    let mut differ = Vec::new();
    let inputs: Vec<String> = lines
        .iter()
        .cloned()
        .chain(mutations(&lines, 50_000))
        .collect();
    let mut skipped = 0;
    for input in &inputs {
        // Where the parses differ by a departure, so may what each reports after it.
        let same_outcome = match (url::Url::parse(input), rust_url::Url::parse(input)) {
            (Ok(o), Ok(t)) => o.as_str() == t.as_str(),
            (Err(_), Err(_)) => true,
            _ => false,
        };
        if !same_outcome {
            skipped += 1;
            continue;
        }
        let (ours, theirs) = violations(input);
        if ours != theirs {
            differ.push(format!(
                "{input:?}\n  drop-in:  {ours:?}\n  rust-url: {theirs:?}"
            ));
        }
    }
    if let Some(dump) = std::env::var_os("DIFFERENTIAL_DUMP") {
        std::fs::write(
            std::path::Path::new(&dump).join("violations"),
            differ.join("\n"),
        )
        .unwrap();
    }
    println!(
        "violations: {} inputs ({skipped} parsed differently, by a departure), {} differ",
        inputs.len(),
        differ.len()
    );
    assert!(
        differ.is_empty(),
        "{}",
        differ[..differ.len().min(20)].join("\n")
    );
}

/// What the `url_compat` fuzz target found, each a departure from rust-url: the drop-in's
/// answers here are the URL Standard's (the parses as whatwg-url gives them).
#[test]
fn fuzz_findings() {
    // EmptyAfterIdna: a soft hyphen maps to nothing; domain-to-ASCII fails.
    assert_eq!(
        url::Url::parse("https://%C2%AD/"),
        Err(url::ParseError::IdnaError)
    );
    // BackslashInNonSpecial: a code point of the path (a WPT case).
    let base = url::Url::parse("foo://foo/a").unwrap();
    assert_eq!(base.join("\\a").unwrap().as_str(), "foo://foo/\\a");
    // BlobOrigin: a blob: of a blob: has an opaque origin (a WPT case).
    let blob = url::Url::parse("blob:blob:https:/.").unwrap();
    assert!(!blob.origin().is_tuple());
    assert_eq!(blob.origin().ascii_serialization(), "null");
    // EmptyHostAfterAt: an `@` and no host.
    assert_eq!(
        url::Url::parse("hhttp://@"),
        Err(url::ParseError::EmptyHost)
    );
    // OpaquePathSpaces: the space before `?` is written %20.
    assert_eq!(
        url::Url::parse("sc:space  ?q").unwrap().as_str(),
        "sc:space %20?q"
    );
    // XnLabels: the label is not checked as Punycode; the host ends in a number.
    assert_eq!(
        url::Url::parse("http://xn--zz.1"),
        Err(url::ParseError::InvalidIpv4Address)
    );
    let mut url = url::Url::parse("http://xn-/").unwrap();
    assert_eq!(url.set_host(Some("p45c.xn--")), Ok(()));
    assert_eq!(url.as_str(), "http://p45c.xn--/");
    // DotPrefixDropped: the `/.` goes with the null host.
    let mut url = url::Url::parse("non-spec:/..//path").unwrap();
    assert_eq!(url.as_str(), "non-spec:/.//path");
    assert_eq!(url.set_host(Some("h")), Ok(()));
    assert_eq!(url.as_str(), "non-spec://h//path");
    let mut url = url::Url::parse("hnon-spec:/.//").unwrap();
    url.path_segments_mut().unwrap().pop();
    assert_eq!(url.as_str(), "hnon-spec:/");
    // HostRemovedBeforeDoubleSlash: the path stays a path.
    let mut url = url::Url::parse("sc://h//p").unwrap();
    assert_eq!(url.set_host(None), Ok(()));
    assert_eq!(url.as_str(), "sc:/.//p");
    assert_eq!(url.host(), None);
    assert_eq!(url.path(), "//p");
}

#[test]
fn set_path_keeps_a_last_space_of_an_opaque_path() {
    let mut url = url::Url::parse("mailto:x").unwrap();
    url.set_path("a ");
    assert_eq!(url.as_str(), "mailto:a%20");
    assert_eq!(url.path(), "a%20");
    url.check_invariants().unwrap();
}
