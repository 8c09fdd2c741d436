//! Allocation counts, with a counting global allocator (this test binary only):
//! `parse_ref` allocates nothing for canonical input, `can_parse` nothing for canonical
//! input, and `Url::parse` nothing for a short URL (kept inline) and once for a long one.

use rapidurl_testkit::counting_alloc;

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

use counting_alloc::on_this_thread as allocations;

const CANONICAL: &[&str] = &[
    "https://example.com/",
    "https://www.example.org/path/to/page.html?q=rust&lang=en#section-2",
    "http://sub.domain.example:8080/a/b/c",
    "file:///usr/local/lib/node_modules/npm/index.js",
    "wss://chat.example/socket?token=abc",
    "mailto:someone@example.com",
];

#[test]
fn parse_ref_allocates_nothing_for_canonical_input() {
    let arena = rapidurl::bumpalo::Bump::new();
    // Warm up once-per-process state (the scan kernel choice).
    let _ = rapidurl::parse_ref(CANONICAL[0], &arena);
    for input in CANONICAL {
        let (n, url) = allocations(|| rapidurl::parse_ref(input, &arena).expect("parses"));
        assert_eq!(n, 0, "parse_ref({input:?}) allocated {n} times");
        assert!(std::ptr::eq(url.as_str(), *input), "{input:?} was copied");
    }
    assert_eq!(arena.allocated_bytes(), 0, "the arena was used");
}

#[test]
fn can_parse_allocates_nothing_for_canonical_input() {
    let _ = rapidurl::can_parse(CANONICAL[0]);
    for input in CANONICAL {
        let (n, ok) = allocations(|| rapidurl::can_parse(input));
        assert!(ok);
        assert_eq!(n, 0, "can_parse({input:?}) allocated {n} times");
    }
}

#[test]
fn url_parse_allocates_nothing_for_a_short_url_and_once_for_a_long_one() {
    // Warm up: the per-thread buffer grows on its first use.
    let _ = rapidurl::Url::parse(&format!("HTTP://WARM.EXAMPLE/./{}", "a b".repeat(11)));
    // Up to 56 bytes of serialization are kept inside the `Url`, canonical input or not
    // (the state machine writes into a per-thread buffer that is reused).
    let short = [
        "https://example.com/",
        "http://sub.domain.example:8080/a/b/c",
        "wss://chat.example/socket?token=abc",
        "mailto:someone@example.com",
        "http://example.com",
        "https://a.example?q",
        "HTTP://EXAMPLE.com/./a",
        "https://example.com:443/a b",
        &format!("https://example.com/{}", "a".repeat(36)),
    ];
    for input in short {
        let (n, url) = allocations(|| rapidurl::Url::parse(input).expect("parses"));
        assert!(url.href().len() <= 56, "{input:?}");
        assert_eq!(n, 0, "Url::parse({input:?}) allocated {n} times");
        drop(url);
    }
    let long = [
        "https://www.example.org/path/to/page.html?q=rust&lang=en#section-2",
        "file:///usr/local/lib/node_modules/npm/index.js?a-longer-query-string",
        &format!("https://example.com/{}", "a".repeat(37)),
        &format!("HTTPS://EXAMPLE.COM/./{}", "a".repeat(60)),
        &format!("https://example.com/{}", "a b".repeat(12)),
    ];
    for input in long {
        // A long non-canonical input is written straight into its own string; a short
        // input whose serialization grows past 56 bytes (the last one) is copied out of
        // the per-thread buffer: one allocation either way.
        let (n, url) = allocations(|| rapidurl::Url::parse(input).expect("parses"));
        assert!(url.href().len() > 56, "{input:?}");
        assert_eq!(n, 1, "Url::parse({input:?}) allocated {n} times");
        drop(url);
    }
}

#[test]
fn non_canonical_input_goes_to_the_arena() {
    let arena = rapidurl::bumpalo::Bump::new();
    let url = rapidurl::parse_ref("HTTP://EXAMPLE.com/./a", &arena).expect("parses");
    assert_eq!(url.as_str(), "http://example.com/a");
    assert!(arena.allocated_bytes() > 0);
}

#[test]
#[cfg(feature = "psl")]
fn host_analytics_and_one_query_parameter_allocate_nothing() {
    let input = "https://www.shop.example.co.uk/a/b?utm_source=news&q=caf%C3%A9+au+lait&id=42";
    let arena = rapidurl::bumpalo::Bump::new();
    let url = rapidurl::parse_ref(input, &arena).expect("parses");
    let _ = url.registrable_domain();
    let (n, got) = allocations(|| {
        (
            url.public_suffix(),
            url.registrable_domain(),
            url.subdomain(),
            url.top_level_domain(),
            url.path_segments().map(|s| s.count()),
        )
    });
    assert_eq!(n, 0, "the host analytics allocated {n} times");
    assert_eq!(
        got,
        (
            Some("co.uk"),
            Some("example.co.uk"),
            Some("www.shop"),
            Some("uk"),
            Some(2)
        )
    );

    // One parameter, found by its decoded name; a value with nothing to decode is
    // borrowed from the URL.
    let (n, id) = allocations(|| url.query_param("id"));
    assert_eq!(n, 0, "query_param allocated {n} times");
    assert!(matches!(id, Some(std::borrow::Cow::Borrowed("42"))));

    // A value that needs decoding is read lazily, byte by byte, without allocating.
    let (n, matched) = allocations(|| {
        url.query_pairs()
            .find(|(name, _)| name.decodes_to("q"))
            .map(|(_, value)| {
                value.decodes_to("café au lait") && value.decoded_bytes().count() == 13
            })
    });
    assert_eq!(n, 0, "the lazy decoding allocated {n} times");
    assert_eq!(matched, Some(true));
}
