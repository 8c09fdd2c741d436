//! The canonical keys of `rapidurl::canon`: Safe Browsing's documented examples, the
//! dedup key's steps one by one, SURT and Scrapy's forms on their references' documented
//! behaviour, and, for every preset whose key is a URL, idempotence and the WHATWG fixed
//! point over the WPT inputs and generated URLs. (Agreement with the `surt` and `w3lib`
//! packages themselves is measured by python/tests/test_canon.py.)

use rapidurl_testkit::data as common;

use rapidurl::bumpalo::Bump;
use rapidurl::canon::{self, DedupOptions, Preset, SurtOptions};

fn key(preset: Preset, input: &str) -> String {
    canon::canonicalize(input, preset).unwrap_or_else(|e| panic!("{input:?}: {e}"))
}

/// The examples of Google's Safe Browsing API documentation ("URLs and Hashing",
/// section "Canonicalization", developers.google.com/safe-browsing/v4/urls-hashing):
/// input and canonical form, as documented, in the document's order. With the seven of
/// [`SAFE_BROWSING_DOCUMENTED_UNPARSED`] they are all 33 of its examples. (The older v2
/// developer's guide kept the port in `http://www.gotaport.com:1234/`; v4 drops it.)
const SAFE_BROWSING_DOCUMENTED: &[(&str, &str)] = &[
    ("http://host/%25%32%35", "http://host/%25"),
    ("http://host/%25%32%35%25%32%35", "http://host/%25%25"),
    ("http://host/%2525252525252525", "http://host/%25"),
    ("http://host/asdf%25%32%35asd", "http://host/asdf%25asd"),
    (
        "http://host/%%%25%32%35asd%%",
        "http://host/%25%25%25asd%25%25",
    ),
    ("http://www.google.com/", "http://www.google.com/"),
    (
        "http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/",
        "http://168.188.99.26/.secure/www.ebay.com/",
    ),
    (
        "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/",
        "http://195.127.0.11/uploads/%20%20%20%20/.verify/.eBaysecure=updateuserdataxplimnbqmn-xplmvalidateinfoswqpcmlx=hgplmcx/",
    ),
    ("http://3279880203/blah", "http://195.127.0.11/blah"),
    ("http://www.google.com/blah/..", "http://www.google.com/"),
    ("http://www.evil.com/blah#frag", "http://www.evil.com/blah"),
    ("http://www.GOOgle.com/", "http://www.google.com/"),
    ("http://www.google.com.../", "http://www.google.com/"),
    (
        "http://www.google.com/foo\tbar\rbaz\n2",
        "http://www.google.com/foobarbaz2",
    ),
    ("http://www.google.com/q?", "http://www.google.com/q?"),
    ("http://www.google.com/q?r?", "http://www.google.com/q?r?"),
    ("http://www.google.com/q?r?s", "http://www.google.com/q?r?s"),
    ("http://evil.com/foo#bar#baz", "http://evil.com/foo"),
    ("http://evil.com/foo;", "http://evil.com/foo;"),
    ("http://evil.com/foo?bar;", "http://evil.com/foo?bar;"),
    ("http://notrailingslash.com", "http://notrailingslash.com/"),
    ("http://www.gotaport.com:1234/", "http://www.gotaport.com/"),
    ("  http://www.google.com/  ", "http://www.google.com/"),
    ("https://www.securesite.com/", "https://www.securesite.com/"),
    ("http://host.com/ab%23cd", "http://host.com/ab%23cd"),
    (
        "http://host.com//twoslashes?more//slashes",
        "http://host.com/twoslashes?more//slashes",
    ),
];

/// The documented examples whose input is not a URL to the WHATWG parser (no scheme, or
/// a forbidden host code point once decoded): Google's rules give them a key all the same.
const SAFE_BROWSING_DOCUMENTED_NOT_WHATWG: &[(&[u8], &str)] = &[
    (
        b"http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B",
        "http://host%23.com/~a!b@c%23d$e%25f^00&11*22(33)44_55+",
    ),
    (b"www.google.com/", "http://www.google.com/"),
    (b"www.google.com", "http://www.google.com/"),
    // The document's host is the raw bytes 0x01 0x80.
    (b"http://\x01\x80.com/", "http://%01%80.com/"),
    (b"http:// leadingspace.com/", "http://%20leadingspace.com/"),
    (b"http://%20leadingspace.com/", "http://%20leadingspace.com/"),
    (b"%20leadingspace.com/", "http://%20leadingspace.com/"),
];

#[test]
fn safe_browsing_documented_examples() {
    let mut n = 0;
    for (input, expected) in SAFE_BROWSING_DOCUMENTED {
        assert_eq!(key(Preset::SafeBrowsing, input), *expected, "{input:?}");
        let input = input.as_bytes();
        assert_eq!(canon::safe_browsing::canonicalize_input(input), *expected);
        n += 1;
    }
    for (input, expected) in SAFE_BROWSING_DOCUMENTED_NOT_WHATWG {
        let got = canon::safe_browsing::canonicalize_input(input);
        assert_eq!(got, *expected, "{:?}", String::from_utf8_lossy(input));
        if let Ok(text) = std::str::from_utf8(input) {
            assert!(rapidurl::parse_ref(text, &Bump::new()).is_err(), "{text:?}");
            assert_eq!(key(Preset::SafeBrowsing, text), *expected);
        }
        n += 1;
    }
    assert_eq!(n, 33);
}

#[test]
fn safe_browsing_expressions_as_documented() {
    use canon::safe_browsing::expressions;
    assert_eq!(
        expressions(b"http://a.b.c/1/2.html?param=1"),
        [
            "a.b.c/1/2.html?param=1",
            "a.b.c/1/2.html",
            "a.b.c/",
            "a.b.c/1/",
            "b.c/1/2.html?param=1",
            "b.c/1/2.html",
            "b.c/",
            "b.c/1/",
        ]
    );
    assert_eq!(
        expressions(b"http://a.b.c.d.e.f.g/1.html"),
        [
            "a.b.c.d.e.f.g/1.html",
            "a.b.c.d.e.f.g/",
            "c.d.e.f.g/1.html",
            "c.d.e.f.g/",
            "d.e.f.g/1.html",
            "d.e.f.g/",
            "e.f.g/1.html",
            "e.f.g/",
            "f.g/1.html",
            "f.g/",
        ]
    );
    assert_eq!(
        expressions(b"http://1.2.3.4/1/"),
        ["1.2.3.4/1/", "1.2.3.4/"]
    );
    assert_eq!(
        expressions(b"http://a.b/1/2/3/4/5/6?x"),
        [
            "a.b/1/2/3/4/5/6?x",
            "a.b/1/2/3/4/5/6",
            "a.b/",
            "a.b/1/",
            "a.b/1/2/",
            "a.b/1/2/3/",
        ]
    );
}

#[test]
fn safe_browsing_steps() {
    let sb = |i: &str| key(Preset::SafeBrowsing, i);
    // IPv4 in any notation, as the document asks (octal, hex, fewer components).
    assert_eq!(sb("http://0x7f.1/"), "http://127.0.0.1/");
    assert_eq!(sb("http://0300.0250.0.1/"), "http://192.168.0.1/");
    // Credentials and the port go; runs of dots in the host become one.
    assert_eq!(sb("http://u:p@a..b.example.:81/x"), "http://a.b.example/x");
    // Google's rules win over the WHATWG parser: the whole input is decoded first, so a
    // decoded `?` starts the query; a host keeps any byte, escaped.
    assert_eq!(sb("http://h/a%3Fb%5Cc"), "http://h/a?b\\c");
    assert_eq!(sb("http://h/%2561?%2523%41"), "http://h/a?%23A");
    assert_eq!(sb("http://exa mple.com/"), "http://exa%20mple.com/");
    assert_eq!(sb("HTTP://B\u{fc}cher.DE:80/"), "http://xn--bcher-kva.de/");
    // Other schemes keep their scheme, the rest decoded and escaped.
    assert_eq!(sb("mailto:A@b.c#x"), "mailto:A@b.c");
    assert_eq!(sb("localhost:8080/a"), "http://localhost/a");
}

#[test]
fn surt_documented_behaviour() {
    let s = |i: &str| key(Preset::Surt, i);
    assert_eq!(s("http://www.archive.org/"), "org,archive)/");
    assert_eq!(
        s("http://archive.org/goo/?a=2&b&a=1"),
        "org,archive)/goo?a=1&a=2&b"
    );
    assert_eq!(
        s("http://www34.Example.com:8080/A//B/./c/"),
        "com,example:8080)/a/b/c"
    );
    assert_eq!(s("https://example.com:443/"), "com,example)/");
    assert_eq!(s("http://example.com/?"), "com,example)/");
    assert_eq!(
        s("http://example.com/a%2520b?q=%2541%20"),
        "com,example)/a%20b?q=a%20"
    );
    assert_eq!(s("http://[2001:DB8::1]/"), "2001:db8::1)/");
    assert_eq!(s("http://1.2.3.4/"), "4,3,2,1)/");
    assert_eq!(s("http://user:pw@example.com/#f"), "com,example)/");
    let id = "0123456789ABCDEF0123456789abcdef";
    assert_eq!(
        s(&format!("http://example.com/x?a=1&jsessionid={id}&b=2")),
        "com,example)/x?a=1&b=2"
    );
    assert_eq!(
        s("http://example.com/(S(0123456789abcdefghijklmn))/page.aspx"),
        "com,example)/page.aspx"
    );
    assert_eq!(
        s("mailto:Someone@Example.com"),
        "mailto:someone@example.com"
    );
    let arena = Bump::new();
    let url = rapidurl::parse_ref("http://www.example.com:81/a", &arena).unwrap();
    let opts = |with_scheme, trailing_comma, keep_www: bool| SurtOptions {
        with_scheme,
        trailing_comma,
        host_massage: !keep_www,
        ..SurtOptions::default()
    };
    assert_eq!(
        canon::surt_with(&url, &opts(true, false, false)),
        "http://(com,example:81)/a"
    );
    assert_eq!(
        canon::surt_with(&url, &opts(false, true, false)),
        "com,example:81,)/a"
    );
    assert_eq!(
        canon::surt_with(&url, &opts(false, false, true)),
        "com,example,www:81)/a"
    );
}

#[test]
fn scrapy_documented_behaviour() {
    let s = |i: &str| key(Preset::Scrapy, i);
    // w3lib's docstring examples.
    assert_eq!(
        s("http://www.example.com/do?c=3&b=5&b=2&a=50"),
        "http://www.example.com/do?a=50&b=2&b=5&c=3"
    );
    assert_eq!(
        s("http://www.example.com/r\u{e9}sum\u{e9}"),
        "http://www.example.com/r%C3%A9sum%C3%A9"
    );
    assert_eq!(s("http://[::0:1]/a/../b"), "http://[::1]/b");
    // Blank values kept with `=`, spaces as `+`, escapes upper-cased, fragment dropped.
    assert_eq!(s("http://h/?b&a=1+2%2b#f"), "http://h/?a=1+2%2B&b=");
    assert_eq!(s("http://h/a%7e%2fb%3f;p%41"), "http://h/a~%2Fb%3F;p%41");
    assert_eq!(s("http://h/?&&"), "http://h/");
    assert_eq!(s("http://User%41:P%40ss@h/"), "http://UserA:P%40ss@h/");
    assert_eq!(s("file:///a?b#c"), "file:///a?b");
}

#[test]
fn dedup_steps_one_by_one() {
    let arena = Bump::new();
    let input = "HTTPS://www.Example.com/%7eA/b/?utm_source=x&b=2&a=%2f&&a=1#top";
    let url = rapidurl::parse_ref(input, &arena).unwrap();
    let with = |f: &dyn Fn(&mut DedupOptions)| {
        let mut o = DedupOptions::none();
        f(&mut o);
        canon::dedup_with(&url, &o)
    };
    let href = "https://www.example.com/%7eA/b/?utm_source=x&b=2&a=%2f&&a=1#top";
    assert_eq!(with(&|_| {}), href);
    assert_eq!(
        with(&|o| o.drop_fragment = true),
        "https://www.example.com/%7eA/b/?utm_source=x&b=2&a=%2f&&a=1"
    );
    assert_eq!(
        with(&|o| {
            o.strip_tracking = true;
            o.tracking_params = vec!["UTM_*".into()];
        }),
        "https://www.example.com/%7eA/b/?b=2&a=%2f&a=1#top"
    );
    assert_eq!(
        with(&|o| o.sort_query = true),
        "https://www.example.com/%7eA/b/?a=%2f&a=1&b=2&utm_source=x#top"
    );
    assert_eq!(
        with(&|o| o.normalize_escapes = true),
        "https://www.example.com/~A/b/?utm_source=x&b=2&a=%2F&&a=1#top"
    );
    assert_eq!(with(&|o| o.fold_www = true), href.replace("www.", ""));
    assert_eq!(
        with(&|o| o.fold_trailing_slash = true),
        href.replace("/b/", "/b")
    );
    // The empty query: `?` alone, or nothing left after the removal.
    let empty = rapidurl::parse_ref("http://h/a?#f", &arena).unwrap();
    let mut o = DedupOptions::none();
    assert_eq!(canon::dedup_with(&empty, &o), "http://h/a?#f");
    o.drop_empty_query = true;
    assert_eq!(canon::dedup_with(&empty, &o), "http://h/a#f");
    assert_eq!(
        key(Preset::Dedup, "http://h/?utm_medium=a&fbclid=b"),
        "http://h/"
    );
    // All the defaults together: the `canonical` field.
    assert_eq!(
        canon::dedup(&url),
        "https://www.example.com/~A/b/?a=%2F&a=1&b=2"
    );
    // The tracking list compares decoded names, ignoring case.
    assert_eq!(
        key(Preset::Dedup, "http://h/?GCLID=1&utm%5Fx=2&k"),
        "http://h/?k"
    );
}

/// Idempotence and the WHATWG fixed point for the presets whose key is a URL; SURT keys
/// are not URLs, and are checked to be a function of the dedup-free parse (same key for
/// the URL and its `href`).
fn check_invariants(input: &str) {
    let arena = Bump::new();
    let Ok(url) = rapidurl::parse_ref(input, &arena) else {
        return;
    };
    for preset in Preset::ALL {
        let k = preset.key(&url);
        let again = canon::canonicalize(url.href(), preset).unwrap();
        assert_eq!(
            k, again,
            "{preset} of {input:?} differs from that of its href"
        );
        if !preset.is_url() {
            // The direct computation on the parse is the package's key of the href.
            let direct = canon::surt_input(url.href().as_bytes(), &SurtOptions::default());
            // But where the WHATWG serialization itself is one the package reads
            // otherwise: a non-special path written after `/.` so that it does not start
            // with `//`, and an opaque host holding escapes (which the package decodes
            // and converts by IDNA).
            let opaque_escaped =
                url.host_kind() == rapidurl::HostKind::Opaque && url.hostname().contains('%');
            if !url.href().contains(":/.") && !opaque_escaped {
                assert_eq!(k.as_bytes(), direct.unwrap(), "surt of {input:?}");
            }
            continue;
        }
        if preset == Preset::SafeBrowsing {
            // Google's rules win over the WHATWG parser's: the key is idempotent, not
            // always a WHATWG fixed point.
            let again = canon::safe_browsing::canonicalize_input(k.as_bytes());
            assert_eq!(again, k, "safe browsing is not idempotent on {input:?}");
            continue;
        }
        let reparsed = rapidurl::parse_ref(&k, &arena)
            .unwrap_or_else(|e| panic!("{preset} key {k:?} of {input:?} does not parse: {e}"));
        assert_eq!(
            reparsed.href(),
            k,
            "{preset} key of {input:?} is not a fixed point"
        );
        assert_eq!(
            preset.key(&reparsed),
            k,
            "{preset} is not idempotent on {input:?}"
        );
    }
    // The `canonical` field borrows the href when the default steps leave it unchanged:
    // the same key as the whole computation.
    assert_eq!(
        rapidurl::field::Field::Canonical.value(&url).as_deref(),
        Some(canon::dedup(&url).as_str()),
        "the canonical field of {input:?}"
    );
    let all = DedupOptions {
        fold_www: true,
        fold_trailing_slash: true,
        ..DedupOptions::default()
    };
    let k = canon::dedup_with(&url, &all);
    let reparsed = rapidurl::parse_ref(&k, &arena).unwrap();
    assert_eq!(reparsed.href(), k, "dedup (all steps) of {input:?}");
    assert_eq!(
        canon::dedup_with(&reparsed, &all),
        k,
        "dedup (all steps) of {input:?}"
    );
}

#[test]
fn every_preset_idempotent_and_a_fixed_point() {
    let tricky = [
        "http://h/%%3441?%%3441#%%3441",
        "http://h/a%2E/%2e%2E%2e/b",
        "http://h/%3F%5C%23%25%2F?%26%3D%23%27",
        "foo:/.//a/",
        "foo://h/a//?b&a#c",
        "http://www.www.example.com/a//",
        "http://h/;a%7c[]|;b",
        "http://u%41:p%3A@h:8080/",
        "ws://h/a;b",
        "mailto:x%7e@y?b&a",
        "http://h/%25252541",
        "http://h/a?%2B+%20",
        "http://./",
        "http://1.2.3.4../",
    ];
    for input in tricky {
        check_invariants(input);
    }
    let path = common::wpt_file("urltestdata.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let cases: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let mut n = 0;
    for case in &cases {
        if let Some(input) = case.get("input").and_then(|v| v.as_str()) {
            check_invariants(input);
            n += 1;
        }
    }
    assert!(n > 500, "only {n} WPT inputs in {path:?}");
    // Real URLs: the corpora's http(s) lines.
    for name in ["kasztp.txt", "userbait.txt"] {
        let path = common::corpora_dir().join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() > 10_000, "{path:?}");
        for line in lines {
            check_invariants(line);
        }
    }
}
