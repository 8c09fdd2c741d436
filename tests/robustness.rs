//! Adversarial inputs: each at a megabyte or more (unless the Standard's own example is
//! smaller), each must finish without a panic and, where the URL Standard says what the
//! result is, give exactly that result. The whole file runs in a few seconds in a debug
//! build: anything quadratic in the input length would show up here as a test that
//! takes minutes (`benches/adversarial.rs` measures the time per byte properly).
//!
//! Also here: the documented limit on input length (`ErrorKind::InputTooLong`), and
//! regression cases for what the fuzz targets (`fuzz/`) found. See docs/robustness.md.

use rapidurl::{ErrorKind, HostKind, SearchParams, Url};

/// The size of every adversarial input: 1 MiB.
const MB: usize = 1 << 20;

/// `unit` repeated until the result is at least `len` bytes long.
fn run_of(unit: &str, len: usize) -> String {
    unit.repeat(len.div_ceil(unit.len()))
}

/// Parses `input`, which must fail with `kind`.
fn fails_with(input: &str, kind: ErrorKind) {
    match Url::parse(input) {
        Ok(url) => panic!(
            "expected {}, parsed as {}… ({} bytes)",
            kind.name(),
            &url.href()[..url.href().len().min(80)],
            url.href().len()
        ),
        Err(e) => assert_eq!(e.kind(), kind, "{e}"),
    }
    assert!(!rapidurl::can_parse(input));
}

/// Parses `input`, which must succeed, and checks that the result is a fixed point.
fn parses(input: &str) -> Url {
    let url = Url::parse(input).unwrap_or_else(|e| panic!("{e}"));
    let again = Url::parse(url.href()).expect("href parses again");
    assert_eq!(again.href(), url.href());
    assert_eq!(again.components(), url.components());
    url
}

// ---- Dot segments (§4.4 path state: ".." shortens the path, "." is dropped) ----

#[test]
fn run_of_double_dot_segments_gives_the_root() {
    // "shorten url's path" on an empty path does nothing, so any number of ".." at the
    // root leaves the path as the one empty segment the last ".." pushes: "/".
    let input = format!("http://h/{}", run_of("../", MB));
    let url = parses(&input);
    assert_eq!(url.href(), "http://h/");
    assert_eq!(url.pathname(), "/");

    // Backslash is a path separator in special URLs; non-special URLs and file URLs
    // behave the same at the root.
    assert_eq!(
        parses(&format!("http://h/{}", run_of("..\\", MB))).pathname(),
        "/"
    );
    assert_eq!(
        parses(&format!("sc://h/{}", run_of("../", MB))).pathname(),
        "/"
    );
    assert_eq!(
        parses(&format!("file:///{}", run_of("../", MB))).pathname(),
        "/"
    );
    // A lone normalized Windows drive letter is never popped from a file URL's path
    // (§4.1 shorten a path, step 2).
    assert_eq!(
        parses(&format!("file:///C:/{}", run_of("../", MB))).pathname(),
        "/C:/"
    );
    // Against a base: the base's path is shortened away too.
    let base = parses("https://example.com/a/b/c/d");
    let url = base.join(&run_of("../", MB)).expect("joins");
    assert_eq!(url.href(), "https://example.com/");
}

#[test]
fn deep_path_then_as_many_double_dots() {
    // Half a megabyte of segments, then one ".." per segment: every shortening must
    // cost the length of the segment it removes, not the length of the path.
    let n = MB / 8;
    let input = format!("http://h/{}{}x", "ab/".repeat(n), "../".repeat(n));
    assert_eq!(parses(&input).pathname(), "/x");
    // One segment fewer removed: the first segment stays.
    let input = format!("http://h/{}{}x", "ab/".repeat(n), "../".repeat(n - 1));
    assert_eq!(parses(&input).pathname(), "/ab/x");
}

#[test]
fn run_of_single_dot_segments_gives_the_root() {
    let input = format!("http://h{}", run_of("/.", MB) + "/");
    assert_eq!(parses(&input).pathname(), "/");
    // Ending on "/." (no trailing slash) still leaves "/" (§4.4 path state 1.5).
    let input = format!("http://h{}", run_of("/.", MB));
    assert_eq!(parses(&input).pathname(), "/");
    let input = format!("sc:{}", run_of("/.", MB) + "/x");
    assert_eq!(parses(&input).href(), "sc:/x");
}

#[test]
fn run_of_percent_encoded_double_dots_gives_the_root() {
    // "%2e%2e", ".%2e", "%2e." in any case are double-dot URL path segments (§4.1).
    for unit in ["%2e%2e/", "%2E%2e/", ".%2E/", "%2e./"] {
        let url = parses(&format!("http://h/x/{}", run_of(unit, MB)));
        assert_eq!(url.href(), "http://h/", "{unit}");
    }
    // "%2e" alone is a single dot.
    assert_eq!(
        parses(&format!("http://h/x{}", run_of("/%2e", MB))).pathname(),
        "/x/"
    );
}

// ---- Percent signs that start no percent-encoded byte ----

#[test]
fn run_of_lone_percent_signs() {
    let run = run_of("%", MB);
    // Path, query and fragment keep "%" as it is: it is in none of their encode sets.
    let url = parses(&format!("http://h/{run}?{run}#{run}"));
    assert_eq!(url.pathname().len(), MB + 1);
    assert_eq!(url.search().len(), MB + 1);
    assert_eq!(url.hash().len(), MB + 1);
    assert!(url.pathname()[1..].bytes().all(|b| b == b'%'));
    // A special host is percent-decoded (nothing to decode) and "%" is a forbidden
    // domain code point (§3.2): domain-invalid-code-point.
    fails_with(&format!("http://{run}/"), ErrorKind::DomainInvalidCodePoint);
    // An opaque host allows "%" (it is not a forbidden host code point).
    let url = parses(&format!("sc://{run}/"));
    assert_eq!(url.host_kind(), HostKind::Opaque);
    assert_eq!(url.hostname().len(), MB);
    // Userinfo: "%" is not in the userinfo percent-encode set either.
    assert_eq!(parses(&format!("http://{run}@h/")).username().len(), MB);
    // The application/x-www-form-urlencoded parser leaves lone "%" alone (§5.1).
    let params = SearchParams::parse(&run);
    assert_eq!(params.len(), 1);
    assert_eq!(params.as_slice()[0].0.len(), MB);
}

// ---- Brackets (IPv6) ----

#[test]
fn runs_of_brackets() {
    // A host that starts with "[" must end with "]" (§3.5 host parser step 1).
    fails_with(
        &format!("http://{}", run_of("[", MB)),
        ErrorKind::Ipv6Unclosed,
    );
    fails_with(
        &format!("http://{}/", run_of("[::", MB)),
        ErrorKind::Ipv6Unclosed,
    );
    fails_with(
        &format!("sc://{}", run_of("[", MB)),
        ErrorKind::Ipv6Unclosed,
    );
    // Closed, but what is inside is not an IPv6 address: "::" then "[".
    fails_with(
        &format!("http://{}]", run_of("[::", MB)),
        ErrorKind::Ipv6InvalidCodePoint,
    );
    // Too many pieces: the parser stops at the ninth.
    fails_with(
        &format!("http://[{}1]", run_of("1:", MB)),
        ErrorKind::Ipv6TooManyPieces,
    );
    // Inside the host state "[" ... "]" hides ":" from the port split; a run of "[" in
    // the path is just path.
    let url = parses(&format!("http://h/{}", run_of("[", MB)));
    assert_eq!(url.pathname().len(), MB + 1);
    // A bracket run then a port: the host state looks for ":" outside brackets only.
    fails_with(
        &format!("http://{}:80/", run_of("[", MB)),
        ErrorKind::Ipv6Unclosed,
    );
}

// ---- "@" and ":" in the authority ----

#[test]
fn run_of_at_signs() {
    // §4.4 authority state: every "@" after the first is prepended to the buffer as
    // "%40"; the last "@" ends the userinfo. N "@" then a host: username is "%40" × (N-1).
    let input = format!("http://{}h/", "@".repeat(MB));
    let url = parses(&input);
    assert_eq!(url.hostname(), "h");
    assert_eq!(url.username(), "%40".repeat(MB - 1));
    assert_eq!(url.password(), "");
    // Nothing after the last "@": host-missing.
    fails_with(
        &format!("http://{}", "@".repeat(MB)),
        ErrorKind::HostMissing,
    );
    fails_with(
        &format!("http://{}/x", "@".repeat(MB)),
        ErrorKind::HostMissing,
    );
    // Non-special: same userinfo rules.
    let url = parses(&format!("sc://{}h", "@".repeat(MB)));
    assert_eq!(url.username().len(), 3 * (MB - 1));
}

#[test]
fn runs_of_colons_in_hosts() {
    let colons = ":".repeat(MB);
    // An empty host before ":" is host-missing (§4.4 host state 2.2), special or not.
    fails_with(&format!("http://{colons}"), ErrorKind::HostMissing);
    fails_with(&format!("sc://{colons}"), ErrorKind::HostMissing);
    // After a host, ":" starts the port and ":" is not a digit: port-invalid.
    fails_with(&format!("http://h{colons}/"), ErrorKind::PortInvalid);
    // In brackets: "::" is the compression, the next ":" a second one.
    fails_with(
        &format!("http://[{colons}]/"),
        ErrorKind::Ipv6MultipleCompression,
    );
    // In the userinfo: the first ":" splits username from password, the rest are
    // password, percent-encoded (":" is in the userinfo set).
    let url = parses(&format!("http://{colons}@h/"));
    assert_eq!(url.username(), "");
    assert_eq!(url.password(), "%3A".repeat(MB - 1));
    // A domain with ":" can only come from percent-decoding: forbidden domain code point.
    fails_with(
        &format!("http://{}/", run_of("%3A", MB)),
        ErrorKind::DomainInvalidCodePoint,
    );
}

// ---- Hosts: many labels, long labels ----

#[test]
fn many_short_labels() {
    // 2^19 labels "a." (1 MiB): an ASCII domain is only lower-cased; the last label is
    // "a", which is not a number, so it is not an IPv4 address.
    let host = "A.".repeat(MB / 2);
    let url = parses(&format!("http://{host}/"));
    assert_eq!(url.host_kind(), HostKind::Domain);
    assert_eq!(url.hostname(), host.to_ascii_lowercase());
    // The issue's size: 10^5 labels.
    assert_eq!(
        parses(&format!("http://{}/", "a.".repeat(100_000)))
            .hostname()
            .len(),
        200_000
    );
    // Ending in a number makes it an IPv4 address with far too many parts (§3.5 IPv4
    // parser step 3).
    fails_with(
        &format!("http://{}/", "1.".repeat(MB / 2)),
        ErrorKind::Ipv4TooManyParts,
    );
    // The ends-in-a-number checker looks at the last label only ("a.b.0x" is IPv4).
    fails_with(
        &format!("http://{}0x/", "b.".repeat(MB / 2)),
        ErrorKind::Ipv4TooManyParts,
    );
    // Empty labels: "." × N, one dot per label.
    assert_eq!(
        parses(&format!("http://{}/", ".".repeat(MB)))
            .hostname()
            .len(),
        MB
    );
}

#[test]
fn one_long_ascii_label() {
    // The URL Standard does not verify DNS length (VerifyDnsLength is beStrict, false).
    let url = parses(&format!("http://{}/", "x".repeat(MB)));
    assert_eq!(url.hostname().len(), MB);
    // A label of a million digits is an IPv4 number far out of range.
    fails_with(
        &format!("http://{}/", "9".repeat(MB)),
        ErrorKind::Ipv4OutOfRangePart,
    );
    // A hex IPv4 number of a million zeros is 0.
    assert_eq!(
        parses(&format!("http://0x{}/", "0".repeat(MB))).hostname(),
        "0.0.0.0"
    );
}

#[test]
fn label_of_many_non_ascii_code_points() {
    // 10^5 copies of "é". UTS #46 ToASCII would Punycode-encode the label; the `idna`
    // crate refuses to Punycode-encode a label of more than 1000 code points (an
    // ICU-compatible limit against Punycode's quadratic cost, whatwg/url#824), so the
    // result is the domain-to-ASCII failure (§3.3 step 2). Browsers that use ICU fail
    // the same way. What matters here: it fails fast, without a panic.
    let label = "é".repeat(100_000);
    fails_with(&format!("http://{label}/"), ErrorKind::DomainToAscii);
    // 10^5 *different* code points: the worst case for Punycode (the encoder's outer
    // loop runs once per distinct code point). Same limit, same fast failure.
    let distinct: String = (0x4E00u32..0x4E00 + 100_000)
        .filter_map(char::from_u32)
        .collect();
    fails_with(&format!("http://{distinct}/"), ErrorKind::DomainToAscii);
    // Many short non-ASCII labels are fine: the limit is per label.
    let many = "é.".repeat(100_000);
    let url = parses(&format!("http://{many}/"));
    assert_eq!(url.hostname(), "xn--9ca.".repeat(100_000));
    // In an opaque host and in a path, non-ASCII is percent-encoded (UTF-8 bytes).
    let url = parses(&format!("sc://{label}/{label}"));
    assert_eq!(url.hostname(), "%C3%A9".repeat(100_000));
    assert_eq!(url.pathname().len(), 1 + 6 * 100_000);
}

// ---- Ports ----

#[test]
fn port_of_many_digits() {
    // §4.4 port state: the digits are read as one decimal number; leading zeros don't
    // count. A million zeros is port 0.
    let url = parses(&format!("http://h:{}/", "0".repeat(MB)));
    assert_eq!(url.port(), "0");
    assert_eq!(url.href(), "http://h:0/");
    // A million zeros then "80": the default port, so the port is null.
    let url = parses(&format!("http://h:{}80/", "0".repeat(MB)));
    assert_eq!(url.port(), "");
    assert_eq!(url.href(), "http://h/");
    // The issue's size, 10^5 digits, and a million: out of range, never a wrap.
    fails_with(
        &format!("http://h:{}/", "1".repeat(100_000)),
        ErrorKind::PortOutOfRange,
    );
    fails_with(
        &format!("http://h:{}/", "9".repeat(MB)),
        ErrorKind::PortOutOfRange,
    );
    // 2^32 + 80 would wrap to 80 in 32-bit arithmetic.
    fails_with("http://h:4294967376/", ErrorKind::PortOutOfRange);
    // The port setter takes the leading digits; a million of them is out of range and
    // leaves the URL alone.
    let mut url = parses("http://h:8080/");
    url.set_port(&"7".repeat(MB));
    assert_eq!(url.href(), "http://h:8080/");
    url.set_port(&format!("{}443", "0".repeat(MB)));
    assert_eq!(url.port(), "443");
}

// ---- URLSearchParams ----

#[test]
fn sort_many_query_pairs() {
    // 10^5 pairs, about 1.1 MB, in reverse order of name, two values per name: sort is a
    // stable sort by the names' UTF-16 code units (§6.2), so each name's two values
    // keep their order.
    let n = 100_000;
    let mut query = String::new();
    for i in (0..n / 2).rev() {
        query.push_str(&format!("k{i:06}=second{i}&k{i:06}=first{i}&"));
    }
    // Pairs whose names differ only past the BMP: "\u{FFFF}" sorts *after*
    // "\u{10000}" in UTF-16 (surrogates are 0xD800..) but before it in UTF-8.
    query.push_str("%EF%BF%BF=bmp&%F0%90%80%80=astral");
    let mut url = parses(&format!("https://example.com/?{query}"));
    assert!(url.search().len() >= MB);
    url.search_params_mut().sort();
    let params = url.search_params();
    assert_eq!(params.len(), n + 2);
    assert_eq!(params.as_slice()[0], ("k000000".into(), "second0".into()));
    assert_eq!(params.as_slice()[1], ("k000000".into(), "first0".into()));
    assert_eq!(params.as_slice()[n - 1].0, format!("k{:06}", n / 2 - 1));
    assert_eq!(params.as_slice()[n].1, "astral");
    assert_eq!(params.as_slice()[n + 1].1, "bmp");
    // Sorting again changes nothing (and costs no more).
    let before = url.href().to_owned();
    url.search_params_mut().sort();
    assert_eq!(url.href(), before);
}

#[test]
fn many_pairs_with_the_same_name() {
    // set() and delete() on a list of 10^5 pairs all named "a" (§6.2): one pass each.
    let query = "a=1&".repeat(100_000);
    let mut params = SearchParams::parse(&query);
    assert_eq!(params.len(), 100_000);
    params.set("a", "2");
    assert_eq!(params.to_string(), "a=2");
    let mut params = SearchParams::parse(&query);
    params.delete("a", Some("1"));
    assert!(params.is_empty());
    // A megabyte of "&" and "=" separators.
    assert!(SearchParams::parse(&"&".repeat(MB)).is_empty());
    assert_eq!(
        SearchParams::parse(&"=".repeat(MB)).as_slice()[0].1.len(),
        MB - 1
    );
}

// ---- Whitespace the parser removes or trims (§4.4 steps 1–3) ----

#[test]
fn runs_of_whitespace_and_controls() {
    let ws = " \t\n\r\x0c\x00".repeat(MB / 6);
    // Leading and trailing C0 control or space are trimmed.
    assert_eq!(parses(&format!("{ws}http://h/{ws}")).href(), "http://h/");
    // Tabs and newlines anywhere are removed.
    let input = format!("ht\ttp://h{}/p", "\t\n\r".repeat(MB / 3));
    assert_eq!(parses(&input).href(), "http://h/p");
    // An error offset is counted in the original input, tabs included.
    let input = format!("{}http://h:x/", "\t".repeat(MB));
    let err = Url::parse(&input).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PortInvalid);
    assert_eq!(err.offset(), Some(MB + 9));
    // Only whitespace: no scheme.
    fails_with(&ws, ErrorKind::MissingSchemeNonRelativeUrl);
}

#[test]
fn runs_of_slashes_and_backslashes() {
    // Special authority (ignore) slashes states skip any run of "/" and "\".
    let url = parses(&format!("http:{}h/", run_of("/\\", MB)));
    assert_eq!(url.href(), "http://h/");
    // Non-special: "//" then an empty host, then a path of empty segments.
    let url = parses(&format!("sc:{}", "/".repeat(MB)));
    assert_eq!(url.host_kind(), HostKind::Empty);
    assert_eq!(url.pathname().len(), MB - 2);
    // A host-less URL whose path starts with an empty segment gets "/." (§4.5).
    let url = parses(&format!("sc:/.{}", "/".repeat(MB)));
    assert!(url.href().starts_with("sc:/.//"));
    // file: any number of slashes.
    let url = parses(&format!("file:{}x", "/".repeat(MB)));
    assert_eq!(url.host_kind(), HostKind::Empty);
}

#[test]
fn megabyte_opaque_paths_queries_and_fragments() {
    let url = parses(&format!("mailto:{}", "a".repeat(MB)));
    assert!(url.has_opaque_path());
    // Spaces in an opaque path are kept, except the last one before "?" or "#".
    let url = parses(&format!("sc:{}?q", " x".repeat(MB / 2) + " "));
    assert!(url.pathname().ends_with("x%20"));
    // Everything in a fragment that needs encoding: the output is three times the input.
    // (A final "x": trailing spaces would be trimmed as C0 control or space, §4.4 step 1.)
    let url = parses(&format!("http://h/#{}x", " ".repeat(MB)));
    assert_eq!(url.hash().len(), 1 + 3 * MB + 1);
    // Invalid UTF-8 in bulk through parse_bytes: each invalid byte becomes U+FFFD,
    // percent-encoded as 9 bytes.
    let mut bytes = b"http://h/".to_vec();
    bytes.extend(std::iter::repeat_n(0xFFu8, MB));
    let url = Url::parse_bytes(&bytes).expect("parses");
    assert_eq!(url.pathname().len(), 1 + 9 * MB);
}

// ---- Setters on large URLs ----

#[test]
fn setters_on_megabyte_values() {
    let big = "x".repeat(MB);
    let mut url = parses("https://example.com/");
    url.set_pathname(&run_of("../", MB));
    assert_eq!(url.pathname(), "/");
    url.set_search(&big);
    url.set_hash(&big);
    url.set_username(&"@".repeat(MB));
    assert_eq!(url.username().len(), 3 * MB);
    url.set_host(&"[".repeat(MB));
    assert_eq!(url.hostname(), "example.com", "an invalid host is ignored");
    url.set_hostname(&"a.".repeat(MB / 2));
    assert_eq!(url.hostname().len(), MB);
    let again = parses(url.href());
    assert_eq!(again.href(), url.href());
}

// ---- The u32 offset limit ----

#[test]
fn offsets_saturate_instead_of_wrapping() {
    // The documented error for inputs the u32 offsets cannot address.
    assert_eq!(ErrorKind::InputTooLong.name(), "input-too-long");
    let err = rapidurl::ParseError::new(ErrorKind::InputTooLong);
    assert_eq!(
        err.to_string(),
        "input-too-long: the input is longer than 4 GiB - 1 bytes"
    );
    // An error offset past u32::MAX is clamped, not wrapped to a small number.
    let err = rapidurl::ParseError::at(ErrorKind::PortInvalid, u32::MAX as usize + 10);
    assert_eq!(err.offset(), Some(u32::MAX as usize));
}

// ---- Regression cases from the differential fuzz target (rapidurl vs ada) ----
//
// Each is a difference the `differential` target found where ada departs from the URL
// Standard; rapidurl's answer is the Standard's, and is pinned here.

#[test]
fn ada_departure_zwnj_after_non_joining() {
    // §3.3 domain to ASCII runs UTS #46 ToASCII with CheckJoiners = true. UTS #46 §4.1
    // (Validity Criteria, CheckJoiners) applies the ContextJ rule of RFC 5892 Appendix
    // A.1 to U+200C ZERO WIDTH NON-JOINER: it must follow a virama, or sit between a
    // left- or dual-joining character and a right- or dual-joining one (transparent
    // characters aside). Here it follows U+06F0 EXTENDED ARABIC-INDIC DIGIT ZERO
    // (Joining_Type U, non-joining), so ToASCII fails and so does the URL
    // (domain-to-ASCII). ada parses it as "http://xn--ghb65ac628w/".
    let input = "http://\u{644}\u{6f0}\u{200c}\u{6ef}/";
    fails_with(input, ErrorKind::DomainToAscii);
    // Without the joiner the label is fine (and Punycode-encoded).
    let url = parses("http://\u{644}\u{6f0}\u{6ef}/");
    assert!(url.hostname().starts_with("xn--"));
}
