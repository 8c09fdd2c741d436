//! `rapidurl::canon`: every preset on any input that parses, as given and behind
//! `http://`. Never panics; the presets whose key is a URL give a key that parses to
//! itself (a WHATWG fixed point) and is its own key (idempotent), the dedup key with
//! every step on too; SURT is a function of the parsed URL (the same for the URL's
//! `href`); Safe Browsing's key is its own key. The raw-input forms (`surt_input`,
//! `scrapy_input`, Safe Browsing's `canonicalize_input` and `expressions`) run on the
//! bytes as given. Slow inputs are libFuzzer's to report (`-timeout`): the keys are written in
//! one pass per component (see docs/canon.md).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::bumpalo::Bump;
use rapidurl::canon::{DedupOptions, Preset, SurtOptions};

fn check(input: &str) {
    let arena = Bump::new();
    let Ok(url) = rapidurl::parse_ref(input, &arena) else {
        return;
    };
    for preset in Preset::ALL {
        let key = preset.key(&url);
        let again = rapidurl::canon::canonicalize(url.href(), preset).unwrap();
        assert_eq!(key, again, "{preset} of {input:?} and of its href");
        if !preset.is_url() {
            continue;
        }
        if preset == Preset::SafeBrowsing {
            // Google's rules win over the WHATWG parser's: idempotent, not a fixed point.
            let again = rapidurl::canon::safe_browsing::canonicalize_input(key.as_bytes());
            assert_eq!(again, key, "safe browsing is not idempotent on {input:?}");
            continue;
        }
        let parsed = rapidurl::parse_ref(&key, &arena)
            .unwrap_or_else(|e| panic!("{preset} key {key:?} of {input:?}: {e}"));
        assert_eq!(
            parsed.href(),
            key,
            "{preset} key of {input:?} is not a fixed point"
        );
        assert_eq!(
            preset.key(&parsed),
            key,
            "{preset} is not idempotent on {input:?}"
        );
    }
    let all = DedupOptions {
        fold_www: true,
        fold_trailing_slash: true,
        ..DedupOptions::default()
    };
    let key = rapidurl::canon::dedup_with(&url, &all);
    let parsed = rapidurl::parse_ref(&key, &arena)
        .unwrap_or_else(|e| panic!("dedup (all) key {key:?} of {input:?}: {e}"));
    assert_eq!(parsed.href(), key, "dedup (all) of {input:?}");
    assert_eq!(
        rapidurl::canon::dedup_with(&parsed, &all),
        key,
        "dedup (all) of {input:?}"
    );
    let options = SurtOptions {
        with_scheme: true,
        trailing_comma: true,
        host_massage: false,
        ..SurtOptions::default()
    };
    let _ = rapidurl::canon::surt_with(&url, &options);
}

fuzz_target!(|data: &[u8]| {
    // The raw-input forms take any input without panicking.
    let _ = rapidurl::canon::safe_browsing::canonicalize_input(data);
    let _ = rapidurl::canon::safe_browsing::expressions(data);
    let _ = rapidurl::canon::surt_input(data, &SurtOptions::default());
    let text = String::from_utf8_lossy(data);
    let _ = rapidurl::canon::scrapy::scrapy_input(&text, &Default::default());
    check(&text);
    check(&format!("http://{text}"));
});
