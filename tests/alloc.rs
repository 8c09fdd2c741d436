//! Allocation counts, with a counting global allocator (this test binary only):
//! `parse_ref` allocates nothing for canonical input, `can_parse` nothing for canonical
//! input, and `Url::parse` exactly once (a string of the right size).

#[path = "common/counting_alloc.rs"]
mod counting_alloc;

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
    let _ = rapidurl::can_parse(CANONICAL[0], None);
    for input in CANONICAL {
        let (n, ok) = allocations(|| rapidurl::can_parse(input, None));
        assert!(ok);
        assert_eq!(n, 0, "can_parse({input:?}) allocated {n} times");
    }
}

#[test]
fn url_parse_allocates_once_for_canonical_input() {
    let _ = rapidurl::Url::parse(CANONICAL[0]);
    for input in CANONICAL
        .iter()
        .chain(&["http://example.com", "https://a.example?q"])
    {
        let (n, url) = allocations(|| rapidurl::Url::parse(input).expect("parses"));
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
