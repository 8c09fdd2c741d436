//! Any bytes → `Url::parse_bytes`: no panic, and the serialization is a fixed point
//! (parsing `href` again gives the same `href`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::Url;

fuzz_target!(|data: &[u8]| {
    if let Ok(url) = Url::parse_bytes(data) {
        let again = Url::parse(url.href()).expect("a URL's href parses");
        assert_eq!(again.href(), url.href());
        if let Ok(text) = std::str::from_utf8(data) {
            assert!(rapidurl::can_parse(text, None));
        }
    }
});
