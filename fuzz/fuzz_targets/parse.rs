//! Any bytes → `Url::parse_bytes`, `Url::parse`, `rapidurl::parse_ref` and `can_parse`.
//!
//! Invariants: no panic; the four entry points agree on success, and the three that
//! build a URL build the same one; the serialization is a fixed point (parsing `href`
//! again gives the same href, getters and offsets) and the getters reassemble into it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::Url;
use rapidurl_testkit::invariants::{
    Snapshot, assert_fixed_point, assert_same_error_in_raw, text_of,
};

fuzz_target!(|data: &[u8]| {
    let text = text_of(data);
    let from_bytes = Url::parse_bytes(data);
    let from_str = Url::parse(&text);
    let arena = rapidurl::bumpalo::Bump::new();
    let view = rapidurl::parse_ref(&text, &arena);
    let can = rapidurl::can_parse(&text);

    // `parse_bytes` is documented as `parse` of the lossy decoding: same result, the same
    // error at the same place (counted in bytes of the input).
    match (&from_bytes, &from_str) {
        (Ok(a), Ok(b)) => assert_eq!(Snapshot::of(a), Snapshot::of(b), "{text:?}"),
        (Err(a), Err(b)) => assert_same_error_in_raw(data, a, b, &text),
        _ => panic!("parse_bytes and parse disagree on {text:?}: {from_bytes:?} vs {from_str:?}"),
    }
    assert_eq!(
        can,
        from_str.is_ok(),
        "can_parse disagrees with parse on {text:?}"
    );
    match (&view, &from_str) {
        (Ok(v), Ok(u)) => assert_eq!(Snapshot::of_ref(v), Snapshot::of(u), "{text:?}"),
        (Err(a), Err(b)) => assert_eq!(a, b, "{text:?}"),
        _ => panic!("parse_ref and parse disagree on {text:?}: {view:?} vs {from_str:?}"),
    }
    if let Ok(url) = &from_str {
        assert_fixed_point(url, &text);
        // The view's own conversion back to an owned URL is the same URL.
        if let Ok(v) = &view {
            assert_eq!(Snapshot::of(&v.to_url()), Snapshot::of(url));
        }
    }
});
