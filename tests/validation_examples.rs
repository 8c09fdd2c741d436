//! The URL Standard's own examples of validation errors (the table of §1.1, "Writing"),
//! each with the full list of errors the parser's steps report for it.
//!
//! The lists are those of the reference implementation (whatwg-url 17.3), which follows a
//! newer edition than our text: there `https://exa%23mple.org` reports the newer
//! `domain-percent-encoded` and the strict pass's `domain-to-ASCII` rather than
//! `domain-invalid-code-point`, and `https://test.42` first reports the newer
//! `IPv4-too-few-parts`. docs/architecture.md lists these differences.

use rapidurl::{Url, parse_with_validation_errors};

/// (input, base, parses, the errors in order).
const EXAMPLES: &[(&str, Option<&str>, bool, &[&str])] = &[
    (
        "https://exa%23mple.org",
        None,
        false,
        &["domain-percent-encoded", "domain-to-ASCII"],
    ),
    (
        "foo://exa[mple.org",
        None,
        false,
        &["host-invalid-code-point"],
    ),
    ("https://1.2.3.4.5/", None, false, &["IPv4-too-many-parts"]),
    (
        "https://test.42",
        None,
        false,
        &["IPv4-too-few-parts", "IPv4-non-numeric-part"],
    ),
    (
        "https://127.0.0x0.1",
        None,
        true,
        &["IPv4-non-decimal-part"],
    ),
    (
        "https://255.255.4000.1",
        None,
        false,
        &["IPv4-out-of-range-part"],
    ),
    ("https://[::1", None, false, &["IPv6-unclosed"]),
    ("https://[:1]", None, false, &["IPv6-invalid-compression"]),
    (
        "https://[1:2:3:4:5:6:7:8:9]",
        None,
        false,
        &["IPv6-too-many-pieces"],
    ),
    (
        "https://[1::1::1]",
        None,
        false,
        &["IPv6-multiple-compression"],
    ),
    (
        "https://[1:2:3!:4]",
        None,
        false,
        &["IPv6-invalid-code-point"],
    ),
    (
        "https://[1:2:3:]",
        None,
        false,
        &["IPv6-invalid-code-point"],
    ),
    ("https://[1:2:3]", None, false, &["IPv6-too-few-pieces"]),
    (
        "https://[1:1:1:1:1:1:1:127.0.0.1]",
        None,
        false,
        &["IPv4-in-IPv6-too-many-pieces"],
    ),
    (
        "https://[ffff::.0.0.1]",
        None,
        false,
        &["IPv4-in-IPv6-invalid-code-point"],
    ),
    (
        "https://[ffff::127.0.xyz.1]",
        None,
        false,
        &["IPv4-in-IPv6-invalid-code-point"],
    ),
    (
        "https://[ffff::127.0xyz]",
        None,
        false,
        &["IPv4-in-IPv6-invalid-code-point"],
    ),
    (
        "https://[ffff::127.00.0.1]",
        None,
        false,
        &["IPv4-in-IPv6-invalid-code-point"],
    ),
    (
        "https://[ffff::127.0.0.1.2]",
        None,
        false,
        &["IPv4-in-IPv6-invalid-code-point"],
    ),
    (
        "https://[ffff::127.0.0.4000]",
        None,
        false,
        &["IPv4-in-IPv6-out-of-range-part"],
    ),
    (
        "https://[ffff::127.0.0]",
        None,
        false,
        &["IPv4-in-IPv6-too-few-parts"],
    ),
    ("https://example.org/>", None, true, &["invalid-URL-unit"]),
    ("https://example.org ", None, true, &["invalid-URL-unit"]),
    ("ht\ntps://example.org", None, true, &["invalid-URL-unit"]),
    ("https://example.org/%s", None, true, &["invalid-URL-unit"]),
    (
        "file:c:/my-secret-folder",
        None,
        true,
        &["special-scheme-missing-following-solidus"],
    ),
    (
        "https:example.org",
        None,
        true,
        &["special-scheme-missing-following-solidus"],
    ),
    (
        "https:foo.html",
        Some("https://example.org/"),
        true,
        &["special-scheme-missing-following-solidus"],
    ),
    ("💩", None, false, &["missing-scheme-non-relative-URL"]),
    (
        "💩",
        Some("mailto:user@example.org"),
        false,
        &["missing-scheme-non-relative-URL"],
    ),
    (
        "https://example.org\\path\\to\\file",
        None,
        true,
        &[
            "invalid-reverse-solidus",
            "invalid-reverse-solidus",
            "invalid-reverse-solidus",
        ],
    ),
    (
        "https://user@example.org",
        None,
        true,
        &["invalid-credentials"],
    ),
    (
        "ssh://user@example.org",
        None,
        true,
        &["invalid-credentials"],
    ),
    ("https://#fragment", None, false, &["host-missing"]),
    ("https://:443", None, false, &["host-missing"]),
    (
        "https://user:pass@",
        None,
        false,
        &["invalid-credentials", "host-missing"],
    ),
    (
        "https://example.org:70000",
        None,
        false,
        &["port-out-of-range"],
    ),
    ("https://example.org:7z", None, false, &["port-invalid"]),
    // The table's example for file-invalid-Windows-drive-letter starts with `/`, which
    // goes through the file slash state, where no step reports it (in our text and in
    // the reference); a relative drive letter against a file base does (`c:` would be a
    // scheme, so `C|`, whose `|` is also no URL unit).
    ("/c:/path/to/file", Some("file:///c:/"), true, &[]),
    (
        "C|/path/to/file",
        Some("file:///c:/"),
        true,
        &["file-invalid-Windows-drive-letter", "invalid-URL-unit"],
    ),
    (
        "file://c:",
        None,
        true,
        &["file-invalid-Windows-drive-letter-host"],
    ),
];

#[test]
fn the_standards_examples_report_their_errors() {
    for &(input, base, parses, expected) in EXAMPLES {
        let base = base.map(|b| Url::parse(b).expect("base parses"));
        let (result, errors) = match &base {
            Some(base) => rapidurl::parse_with_validation_errors_with_base(input, base),
            None => parse_with_validation_errors(input),
        };
        let names: Vec<&str> = errors.iter().map(|e| e.name()).collect();
        assert_eq!(names, expected, "{input:?}");
        assert_eq!(result.is_ok(), parses, "{input:?}");
        // The failure, and only it, is flagged; it is the last error.
        let flagged: Vec<bool> = errors.iter().map(|e| e.is_failure()).collect();
        let mut want = vec![false; errors.len()];
        if !parses {
            *want.last_mut().expect("a failure reports an error") = true;
        }
        assert_eq!(flagged, want, "{input:?}");
    }
}

#[test]
fn offsets_point_into_the_input_as_given() {
    let offsets = |input: &str| -> Vec<(usize, &'static str)> {
        parse_with_validation_errors(input)
            .1
            .iter()
            .map(|e| (e.offset(), e.name()))
            .collect()
    };
    // Leading space, then a tab inside the scheme: both reported before parsing, at the
    // first stripped byte and the first removed one; later offsets skip the tab.
    assert_eq!(
        offsets(" ht\ttps://u@x.example/a>"),
        [
            (0, "invalid-URL-unit"),
            (3, "invalid-URL-unit"),
            (11, "invalid-credentials"),
            (23, "invalid-URL-unit")
        ]
    );
    // The host's errors are at the host's start (or its part), its failure where found.
    assert_eq!(
        offsets("http://[0001::1]/"),
        [(8, "IPv6-piece-leading-zero")]
    );
    assert_eq!(offsets("https://example.org:7z"), [(21, "port-invalid")]);
    let e = parse_with_validation_errors("https://example.org:7z").1[0];
    assert_eq!(
        e.to_string(),
        "port-invalid at byte 21: the port contains a character that is not a digit"
    );
}

#[test]
fn every_step_reports_again() {
    // Each missing-solidus step reports: the slashes state once, the ignore-slashes state
    // for each `\` it skips (looking at the first one again).
    let (_, errors) = parse_with_validation_errors("http:\\\\x.example/");
    assert_eq!(errors.len(), 3);
    assert!(
        errors
            .iter()
            .all(|e| e.name() == "special-scheme-missing-following-solidus")
    );
    // Every `@` of the authority reports invalid-credentials.
    let (url, errors) = parse_with_validation_errors("http://a@b@c.example/");
    assert_eq!(url.unwrap().username(), "a%40b");
    assert_eq!(
        errors.iter().map(|e| e.offset()).collect::<Vec<_>>(),
        [8, 10]
    );
}

#[test]
fn long_lines_with_many_errors_stay_linear() {
    // 200,000 errors on one line, with tabs removed throughout: offsets are mapped by
    // binary search, not by rescanning the line per error.
    let input = format!("https://x.example/{}", "\t<".repeat(100_000));
    let (url, errors) = parse_with_validation_errors(&input);
    assert!(url.is_ok());
    assert_eq!(errors.len(), 100_001);
    assert_eq!(errors[0].offset(), 18); // the first removed tab
    assert_eq!(errors[1].offset(), 19); // the first `<`
    assert_eq!(errors.last().unwrap().offset(), input.len() - 1);
}

#[test]
fn the_failure_entry_follows_the_reference_the_error_our_text() {
    let (result, errors) = parse_with_validation_errors("http://a b/");
    assert_eq!(result.unwrap_err().name(), "domain-invalid-code-point");
    let names: Vec<&str> = errors.iter().map(|e| e.name()).collect();
    assert_eq!(names, ["domain-to-ASCII"]);
    assert!(errors[0].is_failure());
    // A failure in the first state: its error is the only entry, and flagged.
    let (result, errors) = parse_with_validation_errors("no scheme");
    assert_eq!(
        result.unwrap_err().name(),
        "missing-scheme-non-relative-URL"
    );
    assert_eq!(errors.len(), 1);
    assert!(errors[0].is_failure() && errors[0].name() == "missing-scheme-non-relative-URL");
}

/// Every failure the parser can end with, by its kind.
const FAILURES: [rapidurl::ErrorKind; 22] = {
    use rapidurl::ErrorKind as E;
    [
        E::DomainToAscii,
        E::DomainInvalidCodePoint,
        E::HostInvalidCodePoint,
        E::Ipv4TooManyParts,
        E::Ipv4NonNumericPart,
        E::Ipv4OutOfRangePart,
        E::Ipv6Unclosed,
        E::Ipv6InvalidCompression,
        E::Ipv6TooManyPieces,
        E::Ipv6MultipleCompression,
        E::Ipv6InvalidCodePoint,
        E::Ipv6TooFewPieces,
        E::Ipv4InIpv6TooManyPieces,
        E::Ipv4InIpv6InvalidCodePoint,
        E::Ipv4InIpv6OutOfRangePart,
        E::Ipv4InIpv6TooFewParts,
        E::MissingSchemeNonRelativeUrl,
        E::HostMissing,
        E::PortOutOfRange,
        E::PortInvalid,
        E::InvalidBase,
        E::InputTooLong,
    ]
};

/// A failure ([`rapidurl::ParseError`], what `rapidurl check` and `parse` print) and the
/// validation error of the same name (what `rapidurl lint` prints) are explained in the
/// same words: one text, not two.
#[test]
fn a_failure_and_its_validation_error_share_one_explanation() {
    for kind in FAILURES {
        assert!(
            !kind.description().is_empty(),
            "{kind:?} has no explanation"
        );
        match kind.validation_error() {
            Some(v) => {
                assert_eq!(v.name(), kind.name(), "{kind:?}");
                assert_eq!(v.failure_kind(), Some(kind), "{kind:?}");
                assert_eq!(v.description(), kind.description(), "{kind:?}");
            }
            None => assert!(
                matches!(
                    kind,
                    rapidurl::ErrorKind::InvalidBase | rapidurl::ErrorKind::InputTooLong
                ),
                "{kind:?} has a validation error of its name"
            ),
        }
    }
    // And as printed: the failing entry of the list, and the error.
    for input in [
        "http://[::1",
        "https://example.org:7z",
        "http://h:99999/",
        "nope",
        "http:",
    ] {
        let (url, errors) = parse_with_validation_errors(input);
        let err = url.unwrap_err();
        let last = errors.last().unwrap();
        assert_eq!(last.name(), err.name(), "{input}");
        assert_eq!(last.to_string(), err.to_string(), "{input}");
    }
}
