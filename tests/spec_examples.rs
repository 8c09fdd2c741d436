//! The examples of the URL Standard (shared/spec/url-standard.txt), transcribed by hand.
//!
//! Every expected value below is read from the Standard's text: its example tables, example
//! boxes and code samples, each cited by section. None was obtained by running this crate.
//! Where an example needed reading (a table row with a missing cell, an algorithm applied to
//! the Standard's own example input), the comment says how it was read.

use rapidurl::host::domain_to_ascii;
use rapidurl::{Origin, Url};

/// `URL.canParse(input, base)`: the base string parsed first (`false` when it fails).
fn can_parse(input: &str, base: Option<&str>) -> bool {
    match base {
        None => rapidurl::can_parse(input),
        Some(base) => {
            Url::parse(base).is_ok_and(|base| rapidurl::can_parse_with_base(input, &base))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// `new URL(input, base)`, panicking with the error if it fails.
fn parse(input: &str, base: Option<&str>) -> Url {
    let result = match base {
        None => Url::parse(input),
        Some(base) => {
            let base = Url::parse(base)
                .unwrap_or_else(|e| panic!("base {base:?} should parse, got error {e}"));
            Url::parse_with_base(input, &base)
        }
    };
    result.unwrap_or_else(|e| panic!("{input:?} against {base:?} should parse, got error {e}"))
}

/// Asserts that `input` (against `base`) fails to parse, and returns the error's name.
fn failure_name(input: &str, base: Option<&str>) -> &'static str {
    let result = match base {
        None => Url::parse(input),
        Some(base) => Url::parse_with_base(input, &parse(base, None)),
    };
    assert!(
        !can_parse(input, base),
        "can_parse({input:?}, {base:?}) should be false"
    );
    match result {
        Ok(url) => panic!(
            "{input:?} against {base:?} should fail, got {:?}",
            url.href()
        ),
        Err(e) => {
            assert!(
                e.to_string().starts_with(e.name()),
                "Display of the error should start with its name {:?}, got {:?}",
                e.name(),
                e.to_string()
            );
            assert_eq!(e.kind().name(), e.name());
            e.name()
        }
    }
}

/// Asserts that `input` fails to parse with the validation error named `name`.
fn assert_failure(input: &str, base: Option<&str>, name: &str) {
    assert_eq!(
        failure_name(input, base),
        name,
        "the error for {input:?} against {base:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// §3 Hosts: the host parse-serialize table (#example-host-parsing)

/// The host parser's result, serialized, through a URL: isOpaque = false is the host of a
/// special URL (`https:`), isOpaque = true the host of a non-special one (`foo:`). `None` is
/// failure.
fn host_roundtrip(input: &str, is_opaque: bool) -> Option<String> {
    let scheme = if is_opaque { "foo" } else { "https" };
    Url::parse(&format!("{scheme}://{input}/"))
        .ok()
        .map(|url| url.hostname().to_owned())
}

#[test]
fn host_parsing_table() {
    // Input, Output (isOpaque = false), Output (isOpaque = true). `None` is "Failure".
    //
    // In the text rendering some rows have one output cell fewer: the HTML table spans that
    // cell over the rows below it (rowspan) or over both columns (colspan). Read that way:
    // "example.com" covers EXAMPLE.COM and example%2Ecom; "0.0.0.0" covers 0, %30 and 0x;
    // "[::1]" covers both columns; "Failure" covers both columns of [0:0::1%5D and
    // [0:0::%31]; the first column's "Failure" of 09 covers example.255; and the last
    // "Failure" covers both columns.
    let table: [(&str, Option<&str>, Option<&str>); 13] = [
        ("EXAMPLE.COM", Some("example.com"), Some("EXAMPLE.COM")),
        ("example%2Ecom", Some("example.com"), Some("example%2Ecom")),
        (
            "faß.example",
            Some("xn--fa-hia.example"),
            Some("fa%C3%9F.example"),
        ),
        ("0", Some("0.0.0.0"), Some("0")),
        ("%30", Some("0.0.0.0"), Some("%30")),
        ("0x", Some("0.0.0.0"), Some("0x")),
        ("0xffffffff", Some("255.255.255.255"), Some("0xffffffff")),
        ("[0:0::1]", Some("[::1]"), Some("[::1]")),
        ("[0:0::1%5D", None, None),
        ("[0:0::%31]", None, None),
        ("09", None, Some("09")),
        ("example.255", None, Some("example.255")),
        ("example^example", None, None),
    ];
    let mut wrong = Vec::new();
    for (input, special, opaque) in table {
        for (is_opaque, expected) in [(false, special), (true, opaque)] {
            let actual = host_roundtrip(input, is_opaque);
            if actual.as_deref() != expected {
                wrong.push(format!(
                    "{input:?} (isOpaque = {is_opaque}): expected {expected:?}, got {actual:?}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn host_psl_table_domains() {
    // §3.2 (#example-host-psl): the hosts of the public-suffix table are domains, and their
    // public suffixes and registrable domains are given in ASCII, so the host serializes as:
    for (input, host) in [
        ("EXAMPLE.COM", "example.com"),
        ("example.com.", "example.com."),
        ("إختبار", "xn--kgbechtv"),
        ("example.إختبار", "example.xn--kgbechtv"),
    ] {
        let url = parse(&format!("https://{input}/"), None);
        assert_eq!(url.hostname(), host, "hostname of https://{input}/");
    }
}

#[test]
fn domain_to_ascii_uses_compatibility_processing() {
    // §3.3: "|☕.example| becomes |xn--53h.example| and not failure."
    assert_eq!(
        domain_to_ascii("☕.example", false).expect("☕.example is not a failure"),
        "xn--53h.example"
    );
    assert_eq!(parse("https://☕.example/", None).host(), "xn--53h.example");
}

// ---------------------------------------------------------------------------------------------
// §3.6 Host serializing: IPv4 and IPv6 serializer examples

#[test]
fn ipv4_serializer_examples() {
    // From the host parsing table: the IPv4 addresses 0 and 0xffffffff.
    assert_eq!(parse("http://0/", None).host(), "0.0.0.0");
    assert_eq!(parse("http://0xffffffff/", None).host(), "255.255.255.255");
}

#[test]
fn ipv6_serializer_examples() {
    // From the host parsing table: [0:0::1] serializes as [::1].
    assert_eq!(parse("http://[0:0::1]/", None).host(), "[::1]");
    // §3.6 (#example-e2b3492e): "In 0:f:0:0:f:f:0:0 it would point to the second 0", i.e.
    // the compressed piece index is 2 and the first 0 is not compressed; the serializer's
    // steps then give 0:f::f:f:0:0.
    assert_eq!(
        parse("http://[0:f:0:0:f:f:0:0]/", None).host(),
        "[0:f::f:f:0:0]"
    );
}

// ---------------------------------------------------------------------------------------------
// §4 URLs: the URL parsing table (#example-url-parsing)

#[test]
fn url_parsing_table() {
    // Input, Base (None when the cell is empty), Output (None is "Failure").
    let table: [(&str, Option<&str>, Option<&str>); 21] = [
        ("https:example.org", None, Some("https://example.org/")),
        (
            "https://////example.com///",
            None,
            Some("https://example.com///"),
        ),
        (
            "https://example.com/././foo",
            None,
            Some("https://example.com/foo"),
        ),
        (
            "hello:world",
            Some("https://example.com/"),
            Some("hello:world"),
        ),
        (
            "https:example.org",
            Some("https://example.com/"),
            Some("https://example.com/example.org"),
        ),
        (
            r"\example\..\demo/.\",
            Some("https://example.com/"),
            Some("https://example.com/demo/"),
        ),
        (
            "example",
            Some("https://example.com/demo"),
            Some("https://example.com/example"),
        ),
        ("file:///C|/demo", None, Some("file:///C:/demo")),
        ("..", Some("file:///C:/demo"), Some("file:///C:/")),
        ("file://loc%61lhost/", None, Some("file:///")),
        (
            "https://user:password@example.org/",
            None,
            Some("https://user:password@example.org/"),
        ),
        (
            "https://example.org/foo bar",
            None,
            Some("https://example.org/foo%20bar"),
        ),
        (
            "https://EXAMPLE.com/../x",
            None,
            Some("https://example.com/x"),
        ),
        ("https://ex ample.org/", None, None),
        ("example", None, None),
        ("https://example.com:demo", None, None),
        ("http://[www.example.com]/", None, None),
        ("https://example.org//", None, Some("https://example.org//")),
        (
            "https://example.com/[]?[]#[]",
            None,
            Some("https://example.com/[]?[]#[]"),
        ),
        ("https://example/%?%#%", None, Some("https://example/%?%#%")),
        (
            "https://example/%25?%25#%25",
            None,
            Some("https://example/%25?%25#%25"),
        ),
    ];
    let mut wrong = Vec::new();
    for (input, base, expected) in table {
        let parsed = match base {
            None => Url::parse(input),
            Some(base) => Url::parse_with_base(input, &parse(base, None)),
        };
        let actual = parsed.as_ref().ok().map(Url::href);
        if actual != expected {
            wrong.push(format!(
                "{input:?} against {base:?}: expected {expected:?}, got {actual:?}"
            ));
        }
        if can_parse(input, base) != expected.is_some() {
            wrong.push(format!(
                "can_parse({input:?}, {base:?}) should be {}",
                expected.is_some()
            ));
        }
        if let Some(base) = base {
            let joined = parse(base, None).join(input);
            let joined = joined.as_ref().ok().map(Url::href);
            if joined != expected {
                wrong.push(format!(
                    "Url::parse({base:?}).join({input:?}): expected {expected:?}, got {joined:?}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// §4.1 URL representation: the components table (#example-url-components)

/// The URL API getters protocol, host, port, pathname, search, hash of `input`.
fn components(input: &str) -> [String; 6] {
    let url = parse(input, None);
    [
        url.protocol(),
        url.host(),
        url.port(),
        url.pathname(),
        url.search(),
        url.hash(),
    ]
    .map(str::to_owned)
}

#[test]
fn url_components_table() {
    // The table gives the URL record (scheme, host, port, path, query, fragment); the getters
    // show a null host, port, query or fragment as the empty string, the scheme with ":", a
    // list path as "/"-prefixed segments, a query with "?" and a fragment with "#".
    let table: [(&str, [&str; 6]); 4] = [
        (
            "https://example.com/",
            ["https:", "example.com", "", "/", "", ""],
        ),
        (
            "https://localhost:8000/search?q=text#hello",
            [
                "https:",
                "localhost:8000",
                "8000",
                "/search",
                "?q=text",
                "#hello",
            ],
        ),
        (
            "urn:isbn:9780307476463",
            ["urn:", "", "", "isbn:9780307476463", "", ""],
        ),
        (
            "file:///ada/Analytical%20Engine/README.md",
            [
                "file:",
                "",
                "",
                "/ada/Analytical%20Engine/README.md",
                "",
                "",
            ],
        ),
    ];
    for (input, expected) in table {
        assert_eq!(components(input), expected.map(str::to_owned), "{input}");
        assert_eq!(parse(input, None).username(), "", "{input}");
        assert_eq!(parse(input, None).password(), "", "{input}");
    }
    assert_eq!(
        parse("https://localhost:8000/search?q=text#hello", None).hostname(),
        "localhost"
    );
}

// ---------------------------------------------------------------------------------------------
// §4.7 Origin

#[test]
fn origin_of_blob_url() {
    // #example-43b5cea5: the origin of this blob: URL is the tuple origin
    // ("https", "whatwg.org", null, null).
    let blob = parse(
        "blob:https://whatwg.org/d0360e2f-caee-469f-9a2f-87d5b0456f6f",
        None,
    );
    let origin = blob.to_origin();
    assert!(matches!(origin, Origin::Tuple { .. }), "a tuple origin");
    assert_eq!(origin.to_string(), "https://whatwg.org");
    assert_eq!(blob.origin(), "https://whatwg.org");
    assert!(origin.same_origin(&parse("https://whatwg.org/", None).to_origin()));
}

#[test]
fn origin_of_blob_url_whose_path_is_not_http_https_or_file() {
    // §4.7, "blob", steps 4 and 5: only an http, https or file path URL lends its origin;
    // otherwise the origin is a new opaque origin.
    let blob = parse("blob:ws://whatwg.org/x", None);
    assert!(matches!(blob.to_origin(), Origin::Opaque { .. }));
    assert_eq!(blob.origin(), "null");
}

#[test]
fn origin_of_special_urls_is_a_tuple() {
    // §4.7, "ftp", "http", "https", "ws", "wss": the tuple (scheme, host, port, null).
    for (input, serialized) in [
        ("ftp://example.org/", "ftp://example.org"),
        ("http://example.org:8080/", "http://example.org:8080"),
        ("https://example.org/", "https://example.org"),
        ("ws://example.org/", "ws://example.org"),
        ("wss://example.org/", "wss://example.org"),
    ] {
        let url = parse(input, None);
        assert!(matches!(url.to_origin(), Origin::Tuple { .. }), "{input}");
        assert_eq!(url.origin(), serialized, "{input}");
        assert_eq!(url.to_origin().to_string(), serialized, "{input}");
    }
}

#[test]
fn other_schemes_have_a_new_opaque_origin() {
    // §4.7, "Otherwise": "a new opaque origin"; "This does indeed mean that these URLs
    // cannot be same origin with themselves."
    let url = parse("urn:isbn:9780307476463", None);
    let origin = url.to_origin();
    assert!(matches!(origin, Origin::Opaque { .. }));
    assert_eq!(origin.to_string(), "null");
    assert_eq!(url.origin(), "null");
    assert!(!origin.same_origin(&url.to_origin()));
}

// ---------------------------------------------------------------------------------------------
// §1.1 Validation errors: the examples of the errors that are failures ("Failure: Yes")

#[test]
fn failure_validation_error_examples() {
    let examples: [(&str, Option<&str>, &str); 27] = [
        ("https://exa%23mple.org", None, "domain-invalid-code-point"),
        ("foo://exa[mple.org", None, "host-invalid-code-point"),
        ("https://1.2.3.4.5/", None, "IPv4-too-many-parts"),
        ("https://test.42", None, "IPv4-non-numeric-part"),
        ("https://255.255.4000.1", None, "IPv4-out-of-range-part"),
        ("https://[::1", None, "IPv6-unclosed"),
        ("https://[:1]", None, "IPv6-invalid-compression"),
        ("https://[1:2:3:4:5:6:7:8:9]", None, "IPv6-too-many-pieces"),
        ("https://[1::1::1]", None, "IPv6-multiple-compression"),
        ("https://[1:2:3!:4]", None, "IPv6-invalid-code-point"),
        ("https://[1:2:3:]", None, "IPv6-invalid-code-point"),
        ("https://[1:2:3]", None, "IPv6-too-few-pieces"),
        (
            "https://[1:1:1:1:1:1:1:127.0.0.1]",
            None,
            "IPv4-in-IPv6-too-many-pieces",
        ),
        (
            "https://[ffff::.0.0.1]",
            None,
            "IPv4-in-IPv6-invalid-code-point",
        ),
        (
            "https://[ffff::127.0.xyz.1]",
            None,
            "IPv4-in-IPv6-invalid-code-point",
        ),
        (
            "https://[ffff::127.0xyz]",
            None,
            "IPv4-in-IPv6-invalid-code-point",
        ),
        (
            "https://[ffff::127.00.0.1]",
            None,
            "IPv4-in-IPv6-invalid-code-point",
        ),
        (
            "https://[ffff::127.0.0.1.2]",
            None,
            "IPv4-in-IPv6-invalid-code-point",
        ),
        (
            "https://[ffff::127.0.0.4000]",
            None,
            "IPv4-in-IPv6-out-of-range-part",
        ),
        (
            "https://[ffff::127.0.0]",
            None,
            "IPv4-in-IPv6-too-few-parts",
        ),
        ("💩", None, "missing-scheme-non-relative-URL"),
        (
            "💩",
            Some("mailto:user@example.org"),
            "missing-scheme-non-relative-URL",
        ),
        ("https://#fragment", None, "host-missing"),
        ("https://:443", None, "host-missing"),
        ("https://user:pass@", None, "host-missing"),
        ("https://example.org:70000", None, "port-out-of-range"),
        ("https://example.org:7z", None, "port-invalid"),
    ];
    let mut wrong = Vec::new();
    for (input, base, name) in examples {
        let outcome = std::panic::catch_unwind(|| failure_name(input, base));
        match outcome {
            Ok(actual) if actual == name => {}
            Ok(actual) => wrong.push(format!(
                "{input:?} against {base:?}: expected {name}, got {actual}"
            )),
            Err(_) => wrong.push(format!(
                "{input:?} against {base:?}: expected failure {name} (see the panic above)"
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn port_out_of_range_error_name() {
    assert_failure("https://example.org:70000", None, "port-out-of-range");
}

#[test]
fn ipv6_unclosed_error_name() {
    assert_failure("https://[::1", None, "IPv6-unclosed");
}

#[test]
fn missing_scheme_non_relative_url_error_name() {
    assert_failure("💩", None, "missing-scheme-non-relative-URL");
}

#[test]
fn non_failure_validation_error_examples_parse() {
    // The examples of the validation errors whose "Failure" cell is "·": they are reported,
    // but parsing goes on.
    let examples: [(&str, Option<&str>); 14] = [
        ("https://127.0.0.1./", None),                    // IPv4-empty-part
        ("https://127.0.0x0.1", None),                    // IPv4-non-decimal-part
        ("https://example.org/>", None),                  // invalid-URL-unit
        ("https://example.org ", None),                   // invalid-URL-unit
        ("ht\ntps://example.org", None),                  // invalid-URL-unit
        ("https://example.org/%s", None),                 // invalid-URL-unit
        ("file:c:/my-secret-folder", None), // special-scheme-missing-following-solidus
        ("https:example.org", None),        // special-scheme-missing-following-solidus
        ("https:foo.html", Some("https://example.org/")), // special-scheme-missing-following-solidus
        (r"https://example.org\path\to\file", None),      // invalid-reverse-solidus
        ("https://user@example.org", None),               // invalid-credentials
        ("ssh://user@example.org", None),                 // invalid-credentials
        ("/c:/path/to/file", Some("file:///c:/")),        // file-invalid-Windows-drive-letter
        ("file://c:", None),                              // file-invalid-Windows-drive-letter-host
    ];
    let wrong: Vec<String> = examples
        .into_iter()
        .filter(|&(input, base)| !can_parse(input, base))
        .map(|(input, base)| format!("{input:?} against {base:?} should parse"))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    for (input, base) in examples {
        parse(input, base);
    }
}

// ---------------------------------------------------------------------------------------------
// §1.3 Percent-encoding: the UTF-8 rows of the operations table, through the username setter
// (which UTF-8 percent-encodes using the userinfo percent-encode set)

#[test]
fn utf8_percent_encode_userinfo_examples() {
    for (input, output) in [
        ("≡", "%E2%89%A1"),
        ("‽", "%E2%80%BD"),
        ("Say what‽", "Say%20what%E2%80%BD"),
    ] {
        let mut url = parse("https://example.org/", None);
        url.set_username(input);
        assert_eq!(url.username(), output, "username set to {input:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// §6.1 The URL class: the code samples

#[test]
fn url_class_examples() {
    // #example-5434421b
    assert_eq!(
        parse("https://example.org/💩", None).pathname(),
        "/%F0%9F%92%A9"
    );
    // "This throws an exception if the input is a relative-URL string": without a base it
    // has no scheme, which is missing-scheme-non-relative-URL (§1.1).
    assert_failure("/🍣🍺", None, "missing-scheme-non-relative-URL");
    // With document.baseURI as the base; the input is path-absolute, so any URL of the
    // Standard's host gives the same result.
    assert_eq!(
        parse("/🍣🍺", Some("https://url.spec.whatwg.org/")).href(),
        "https://url.spec.whatwg.org/%F0%9F%8D%A3%F0%9F%8D%BA"
    );
    // 🏳️‍🌈 is U+1F3F3 U+FE0F U+200D U+1F308.
    assert_eq!(
        parse(
            "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",
            Some("https://pride.example/hello-world")
        )
        .pathname(),
        "/%F0%9F%8F%B3%EF%B8%8F%E2%80%8D%F0%9F%8C%88"
    );
}

#[test]
fn url_search_params_examples_of_url_serialization() {
    // §6.2 (#example-constructing-urlsearchparams): the URL's own serialization, before any
    // URLSearchParams is involved.
    assert_eq!(
        parse("https://example.com/?a=b ~", None).href(),
        "https://example.com/?a=b%20~"
    );
    assert_eq!(
        parse("https://example.com/?a=~&b=%7E", None).search(),
        "?a=~&b=%7E"
    );
}
