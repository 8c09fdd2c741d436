//! Two inputs, a base and a relative reference, through every entry point that takes a
//! base: `Url::parse_with_base`, `Url::join`, `Url::options().base(..)`,
//! `rapidurl::parse_ref_with_base` and `can_parse(input, Some(base))`.
//!
//! The data is split at its first `\n`: `base \n input` (the parser removes newlines
//! anyway, so only the first one is taken away from the input's own alphabet). Without a
//! `\n` the base is a fixed URL with every component, so that relative inputs still reach
//! the relative states.
//!
//! Invariants: no panic; all entry points agree; a failing base makes `can_parse` false;
//! every result is a fixed point of the parser.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::Url;
use rapidurl_testkit::invariants::{Snapshot, assert_fixed_point, text_of};

const DEFAULT_BASE: &str = "https://user:pass@example.org:8080/dir/file.html?q=1#frag";

fuzz_target!(|data: &[u8]| {
    let text = text_of(data);
    let (base_text, input) = match text.split_once('\n') {
        Some((b, i)) => (b, i),
        None => (DEFAULT_BASE, &*text),
    };
    let base = match Url::parse(base_text) {
        Ok(base) => base,
        Err(_) => return,
    };
    let context = (base_text, input);
    let joined = Url::parse_with_base(input, &base);
    let via_join = base.join(input);
    let via_options = Url::options().base(&base).parse(input);
    let can = rapidurl::can_parse_with_base(input, &base);
    let arena = rapidurl::bumpalo::Bump::new();
    let base_view = rapidurl::parse_ref(base_text, &arena).expect("the base parsed as Url");
    let view = rapidurl::parse_ref_with_base(input, &base_view, &arena);

    assert_eq!(can, joined.is_ok(), "can_parse disagrees: {context:?}");
    for (name, other) in [("join", &via_join), ("options", &via_options)] {
        match (&joined, other) {
            (Ok(a), Ok(b)) => assert_eq!(Snapshot::of(a), Snapshot::of(b), "{name}: {context:?}"),
            (Err(a), Err(b)) => assert_eq!(a, b, "{name}: {context:?}"),
            _ => panic!("{name} disagrees with parse_with_base: {context:?}"),
        }
    }
    match (&joined, &view) {
        (Ok(a), Ok(v)) => assert_eq!(Snapshot::of(a), Snapshot::of_ref(v), "{context:?}"),
        (Err(a), Err(b)) => assert_eq!(a, b, "{context:?}"),
        _ => panic!("parse_ref_with_base disagrees with parse_with_base: {context:?}"),
    }
    if let Ok(url) = &joined {
        assert_fixed_point(url, &context);
        // An input that parses on its own as a URL with an authority or an opaque path
        // means the same with any base whose scheme differs (§4.4 scheme state).
        if let Ok(alone) = Url::parse(input)
            && alone.scheme() != base.scheme()
        {
            assert_eq!(Snapshot::of(&alone), Snapshot::of(url), "{context:?}");
        }
    }
});
