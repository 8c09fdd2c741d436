//! Property tests: the invariants of the fuzz targets (`fuzz/fuzz_targets/`), minus the
//! differential one (which needs ada), with bounded case counts so that `cargo test`
//! stays fast. The fuzzers search far longer; these keep the invariants checked on
//! every test run and shrink a failure to a small input.
//!
//! Inputs are built from a grammar of URL fragments (schemes, delimiters, dot segments,
//! percent-escapes, IPv4/IPv6 pieces, non-ASCII, whitespace) rather than uniform random
//! strings, which would almost never parse.

use proptest::prelude::*;
use proptest::test_runner::Config;
use rapidurl::__testing::{parse_fast, parse_slow};
#[cfg(feature = "rayon")]
use rapidurl::batch;
use rapidurl::{ParseError, SearchParams, Url, UrlRef, form};

/// The fuzz targets' shared checks, for the file URLs that the Standard's setters leave
/// and its parser would not.
use rapidurl_testkit::invariants as fuzz_checks;

/// Cases per property: enough to matter, small enough for CI (all properties together
/// take a few seconds in a debug build).
const CASES: u32 = 256;

fn config() -> Config {
    Config {
        // PROPTEST_CASES=100000 cargo test --release --test proptests: a longer search.
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(CASES),
        // No persistence files in the source tree: a failure prints the minimal input,
        // which goes into tests/robustness.rs as a regression case.
        failure_persistence: None,
        ..Config::default()
    }
}

/// Fragments URLs are made of, chosen to reach the parser's special cases.
const ATOMS: &[&str] = &[
    "http:",
    "https:",
    "file:",
    "ws:",
    "wss:",
    "ftp:",
    "sc:",
    "mailto:",
    "HtTp:",
    "blob:",
    "//",
    "/",
    "\\",
    ":",
    "@",
    "?",
    "#",
    "[",
    "]",
    "::",
    "1",
    "0x",
    "0",
    "255",
    "256",
    "4294967296",
    ".",
    "..",
    "%2e",
    "%2E%2e",
    ".%2e",
    "%",
    "%41",
    "%zz",
    "%00",
    "%ff",
    "%3A",
    "a",
    "Ab",
    "é",
    "ß",
    "xn--",
    "xn--nxa",
    "☃",
    "\u{10000}",
    " ",
    "\t",
    "\n",
    "\r",
    "\u{0}",
    "\u{1f}",
    "\u{7f}",
    "C:",
    "C|",
    "localhost",
    "example.com",
    "EXAMPLE.com",
    "127.0.0.1",
    "[::1]",
    "[1:2::3]",
    "1.2.3.4",
    "80",
    "443",
    "65535",
    "65536",
    "&",
    "=",
    "+",
    "'",
    "\"",
    "<",
    ">",
    "^",
    "|",
    "`",
    "{",
    "}",
    "~",
    ";",
    ",",
    "$",
];

/// A string of 0..`max` fragments.
fn url_ish(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ATOMS), 0..max).prop_map(|v| v.concat())
}

/// Mostly URL-shaped text, sometimes arbitrary text.
fn input() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (prop::sample::select(&ATOMS[..10]), url_ish(16)).prop_map(|(s, r)| format!("{s}{r}")),
        2 => url_ish(16),
        1 => any::<String>(),
    ]
}

/// Every getter, the origin and the components (checked against the offset rules): the
/// shared snapshot of `rapidurl_testkit::invariants`.
fn snap(u: &Url) -> fuzz_checks::Snapshot {
    fuzz_checks::Snapshot::of(u)
}

fn snap_ref(u: &UrlRef<'_>) -> fuzz_checks::Snapshot {
    fuzz_checks::Snapshot::of_ref(u)
}

/// Parsing `href` again gives the same URL (the serializer is a fixed point).
fn assert_fixed_point(url: &Url) -> Result<(), TestCaseError> {
    let again = Url::parse(url.href())
        .map_err(|e| TestCaseError::fail(format!("href {:?} fails to parse: {e}", url.href())))?;
    prop_assert_eq!(snap(&again), snap(url));
    prop_assert!(url.href().is_ascii());
    Ok(())
}

#[test]
fn the_protocol_setter_can_leave_a_file_url_the_parser_would_not() {
    // Found by `setters_keep_urls_fixed_points` (1,000,000 cases); whatwg-url agrees.
    let as_parsed = fuzz_checks::file_url_as_parsed;
    let mut url = Url::parse("ws://1.2.3.4/x").unwrap();
    url.set_pathname("C|//");
    url.set_protocol("file:");
    assert_eq!(url.href(), "file://1.2.3.4/C|//");
    assert_eq!(as_parsed(&url).as_deref(), Some("file://1.2.3.4/C://"));
    assert_eq!(
        Url::parse(url.href()).unwrap().href(),
        "file://1.2.3.4/C://"
    );
    url.set_hash("f");
    assert_eq!(as_parsed(&url).as_deref(), Some("file://1.2.3.4/C://#f"));

    let mut url = Url::parse("ws://localhost/C|?q").unwrap();
    url.set_protocol("file:");
    assert_eq!(url.href(), "file://localhost/C|?q");
    assert_eq!(as_parsed(&url).as_deref(), Some("file:///C:?q"));
    assert_eq!(Url::parse(url.href()).unwrap().href(), "file:///C:?q");

    assert_eq!(as_parsed(&Url::parse("file:///C|/x").unwrap()), None);
    assert_eq!(as_parsed(&Url::parse("file://localhost/x").unwrap()), None);
    assert_eq!(as_parsed(&Url::parse("ws://localhost/C|").unwrap()), None);
}

fn same(a: &Result<Url, ParseError>, b: &Result<Url, ParseError>) -> Result<(), TestCaseError> {
    match (a, b) {
        (Ok(a), Ok(b)) => prop_assert_eq!(snap(a), snap(b)),
        (Err(a), Err(b)) => prop_assert_eq!(a, b),
        _ => prop_assert!(false, "one succeeds, one fails: {:?} vs {:?}", a, b),
    }
    Ok(())
}

const BASE: &str = "https://user:pass@example.org:8080/dir/file.html?q=1#frag";

proptest! {
    #![proptest_config(config())]

    /// fuzz target `parse`: the entry points agree; the result is a fixed point.
    #[test]
    fn parse_entry_points_agree(text in input()) {
        let url = Url::parse(&text);
        same(&Url::parse_bytes(text.as_bytes()), &url)?;
        prop_assert_eq!(rapidurl::can_parse(&text), url.is_ok());
        let arena = rapidurl::bumpalo::Bump::new();
        match (rapidurl::parse_ref(&text, &arena), &url) {
            (Ok(v), Ok(u)) => prop_assert_eq!(snap_ref(&v), snap(u)),
            (Err(a), Err(b)) => prop_assert_eq!(a, *b),
            (v, u) => prop_assert!(false, "parse_ref {:?} vs parse {:?}", v, u),
        }
        if let Ok(url) = &url {
            assert_fixed_point(url)?;
        }
    }

    /// `parse_hostname` is `parse_ref`'s hostname or error, with or without a base.
    #[test]
    fn parse_hostname_is_parse_ref_hostname(text in input(), base in input()) {
        let arena = rapidurl::bumpalo::Bump::new();
        let expected = rapidurl::parse_ref(&text, &arena).map(|u| u.hostname());
        prop_assert_eq!(rapidurl::parse_hostname(&text, &arena), expected);
        if let Ok(base) = rapidurl::parse_ref(&base, &arena) {
            let expected = rapidurl::parse_ref_with_base(&text, &base, &arena).map(|u| u.hostname());
            prop_assert_eq!(rapidurl::parse_hostname_with_base(&text, &base, &arena), expected);
        }
    }

    /// `parse_bytes` on bytes that are not UTF-8 is `parse` of the lossy decoding, except
    /// that an error's offset counts bytes of the input: decoding the bytes before it gives
    /// the decoded string up to the offset `parse` reports.
    #[test]
    fn parse_bytes_is_parse_of_lossy(prefix in input(), junk in prop::collection::vec(128u8..=255, 0..4), rest in url_ish(6)) {
        let mut bytes = prefix.into_bytes();
        bytes.extend(&junk);
        bytes.extend(rest.as_bytes());
        let decoded = String::from_utf8_lossy(&bytes);
        match (Url::parse_bytes(&bytes), Url::parse(&decoded)) {
            (Err(raw), Err(dec)) => {
                prop_assert_eq!(raw.kind(), dec.kind());
                match (raw.offset(), dec.offset()) {
                    (Some(r), Some(d)) => {
                        prop_assert!(r <= bytes.len());
                        prop_assert_eq!(String::from_utf8_lossy(&bytes[..r]).len(), d);
                    }
                    (r, d) => prop_assert_eq!(r, d),
                }
            }
            (a, b) => same(&a, &b)?,
        }
    }

    /// fuzz target `parse_with_base`.
    #[test]
    fn parse_with_base_entry_points_agree(base_text in input(), text in input()) {
        let Ok(base) = Url::parse(&base_text) else {
            // `URL.canParse(text, base_text)` is false when the base does not parse.
            return Ok(());
        };
        let joined = Url::parse_with_base(&text, &base);
        same(&base.join(&text), &joined)?;
        same(&Url::options().base(&base).parse(&text), &joined)?;
        prop_assert_eq!(rapidurl::can_parse_with_base(&text, &base), joined.is_ok());
        let arena = rapidurl::bumpalo::Bump::new();
        let base_view = rapidurl::parse_ref(&base_text, &arena).expect("base parses");
        match (rapidurl::parse_ref_with_base(&text, &base_view, &arena), &joined) {
            (Ok(v), Ok(u)) => prop_assert_eq!(snap_ref(&v), snap(u)),
            (Err(a), Err(b)) => prop_assert_eq!(a, *b),
            (v, u) => prop_assert!(false, "parse_ref_with_base {:?} vs {:?}", v, u),
        }
        if let Ok(url) = &joined {
            assert_fixed_point(url)?;
            if let Ok(alone) = Url::parse(&text) && alone.scheme() != base.scheme() {
                // A different scheme never looks at the base (§4.4 scheme state).
                prop_assert_eq!(snap(&alone), snap(url));
            }
        }
    }

    /// Relative references against a fixed base with every component.
    #[test]
    fn relative_references_are_fixed_points(text in url_ish(12)) {
        let base = Url::parse(BASE).unwrap();
        if let Ok(url) = base.join(&text) {
            assert_fixed_point(&url)?;
        }
    }

    /// fuzz target `setters`: after every setter the URL is a fixed point; a failing
    /// `set_href` and the no-op cases leave the URL unchanged.
    #[test]
    fn setters_keep_urls_fixed_points(
        start in prop::sample::select(&[
            "https://user:pass@example.com:8080/a/b?q=1#f", "file:///C:/dir/file",
            "file://host/share", "sc://opaque.host/p?q#f", "sc:/a/b", "mailto:x@y?s",
            "http://[::1]:81/", "ws://1.2.3.4/x", "data:text/plain,hi", "non-spec:/.//p",
            "sc:", "sc://", "sc:a b ?q#f",
        ][..]),
        ops in prop::collection::vec((0u8..13, url_ish(6)), 1..8),
    ) {
        let mut url = Url::parse(start).unwrap();
        for (op, value) in &ops {
            let before = url.clone();
            match op {
                0 => { if url.set_href(value).is_err() { prop_assert_eq!(url.href(), before.href()); } }
                1 => url.set_protocol(value),
                2 => url.set_username(value),
                3 => url.set_password(value),
                4 => url.set_host(value),
                5 => url.set_hostname(value),
                6 => url.set_port(value),
                7 => url.set_pathname(value),
                8 => url.set_search(value),
                9 => url.set_hash(value),
                10 => url.search_params_mut().append(value, "v"),
                11 => url.search_params_mut().delete(value, None),
                _ => url.search_params_mut().sort(),
            }
            match fuzz_checks::file_url_as_parsed(&url) {
                Some(expected) => {
                    let again = Url::parse(url.href()).expect("a file URL's href parses");
                    prop_assert_eq!(again.href(), expected);
                    assert_fixed_point(&again)?;
                }
                None => assert_fixed_point(&url)?,
            }
            if before.has_opaque_path() && matches!(op, 4..=7) {
                prop_assert_eq!(snap(&url), snap(&before));
            }
            if *op > 1 {
                prop_assert_eq!(url.protocol(), before.protocol());
            }
        }
    }

    /// fuzz target `search_params`: the list follows a model written from §6.2, and
    /// serialize → parse gives it back.
    #[test]
    fn search_params_follow_the_model(
        query in url_ish(12),
        ops in prop::collection::vec((0u8..5, url_ish(3), url_ish(3)), 0..10),
    ) {
        let mut params = SearchParams::parse(&query);
        let expected = form::parse_str(query.strip_prefix('?').unwrap_or(&query));
        prop_assert_eq!(params.as_slice(), expected.as_slice());
        let mut model: Vec<(String, String)> = params.as_slice().to_vec();
        let mut url = Url::parse("https://example.com/p").unwrap();
        url.set_search(&params.to_string());
        for (op, n, v) in &ops {
            for list in [&mut params, &mut *url.search_params_mut()] {
                match op {
                    0 => list.append(n, v),
                    1 => list.delete(n, None),
                    2 => list.delete(n, Some(v)),
                    3 => list.set(n, v),
                    _ => list.sort(),
                }
            }
            match op {
                0 => model.push((n.clone(), v.clone())),
                1 => model.retain(|(m, _)| m != n),
                2 => model.retain(|(m, w)| !(m == n && w == v)),
                3 => match model.iter().position(|(m, _)| m == n) {
                    Some(first) => {
                        model[first].1 = v.clone();
                        let mut i = 0;
                        model.retain(|(m, _)| { let keep = m != n || i == first; i += 1; keep });
                    }
                    None => model.push((n.clone(), v.clone())),
                },
                _ => model.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16())),
            }
            prop_assert_eq!(params.as_slice(), model.as_slice());
            let text = params.to_string();
            let reparsed = SearchParams::parse(&text);
            prop_assert_eq!(reparsed.as_slice(), model.as_slice());
            let bound = url.search_params();
            prop_assert_eq!(bound.as_slice(), model.as_slice());
            prop_assert_eq!(url.query().is_none(), model.is_empty());
            assert_fixed_point(&url)?;
        }
    }

    /// form::parse on arbitrary bytes never panics and round-trips through serialize.
    #[test]
    fn form_round_trips(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let pairs = form::parse(&bytes);
        let text = form::serialize_utf8(pairs.iter().map(|(n, v)| (n, v)));
        prop_assert_eq!(form::parse(text.as_bytes()), pairs);
    }

    /// fuzz target `fast_vs_slow`: when the fast path answers, the state machine agrees.
    #[test]
    fn fast_path_agrees_with_state_machine(
        scheme in prop::sample::select(&["http://", "https://", "ws://", "ftp://", "file://", "file:///", "sc:", "mailto:", "HTTP://"][..]),
        rest in prop::collection::vec(prop::sample::select(&[
            "a", "example", ".", "..", "com", ":", "8080", "80", "0", "/", "?", "#", "%2e", "%41",
            "-", "_", "~", "A", " ", "é", "1", "0x", "[", "]", "::", "@", "\\", "|", "localhost",
        ][..]), 0..14),
    ) {
        let input = format!("{scheme}{}", rest.concat());
        if let Some(fast) = parse_fast(&input) {
            prop_assert_eq!(fast.1.check(&fast.0), Ok(()));
            match parse_slow(&input) {
                Ok(slow) => prop_assert_eq!(fast, slow),
                Err(e) => prop_assert!(false, "fast path accepted {:?}, state machine: {}", input, e),
            }
        }
    }

    /// fuzz target `batch_vs_single`: batch results equal single results, row for row.
    #[cfg(feature = "rayon")]
    #[test]
    fn batch_equals_single(
        lines in prop::collection::vec(input(), 0..12),
        terminators in prop::collection::vec(prop::sample::select(&["\n", "\r\n"][..]), 12),
        trailing in any::<bool>(),
    ) {
        // Lines must not hold a newline of their own to be one line each.
        let lines: Vec<String> = lines.iter().map(|l| l.replace(['\n', '\r'], "")).collect();
        let mut data = String::new();
        for (i, line) in lines.iter().enumerate() {
            data.push_str(line);
            if i + 1 < lines.len() || trailing {
                data.push_str(terminators[i]);
            }
        }
        // The lines as the command-line tool documents them: split at "\n", one "\r"
        // before it removed; a last line without "\n" counts, unless it is empty (so
        // "a\n" is one line and the empty input none).
        let expected: Vec<&str> = match data.strip_suffix('\n').unwrap_or(&data) {
            _ if data.is_empty() => vec![],
            body => body.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect(),
        };
        let singles: Vec<Result<Url, ParseError>> = expected.iter().map(|l| Url::parse(l)).collect();
        let column = batch::parse_lines(data.as_bytes());
        prop_assert_eq!(column.len(), singles.len());
        for (row, single) in column.iter().zip(&singles) {
            match (row, single) {
                (Ok(r), Ok(s)) => prop_assert_eq!(snap_ref(&r), snap(s)),
                (Err(a), Err(b)) => prop_assert_eq!(a, *b),
                (r, s) => prop_assert!(false, "batch {:?} vs single {:?}", r, s),
            }
        }
        for (row, single) in batch::parse_all(&expected).iter().zip(&singles) {
            same(row, single)?;
        }
        let base = Url::parse(BASE).unwrap();
        let column = batch::parse_column(&expected, Some(&base));
        for (row, line) in column.iter().zip(&expected) {
            match (row, Url::parse_with_base(line, &base)) {
                (Ok(r), Ok(s)) => prop_assert_eq!(snap_ref(&r), snap(&s)),
                (Err(a), Err(b)) => prop_assert_eq!(a, b),
                (r, s) => prop_assert!(false, "batch {:?} vs single {:?}", r, s),
            }
        }
    }
}
