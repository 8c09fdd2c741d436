//! Any bytes (`base \n input`, or an input alone, tried with no base and a fixed base)
//! → `parse_hostname` and `parse_hostname_with_base`.
//!
//! Invariants: no panic; `parse_hostname(input)` is `parse_ref(input).map(hostname)`, and
//! `parse_hostname_with_base(input, base)` is
//! `parse_ref_with_base(input, base).map(hostname)`: the same hostname or the same error,
//! whether the host was read off the input or the input was parsed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::bumpalo::Bump;
use rapidurl::{UrlRef, parse_hostname, parse_hostname_with_base, parse_ref, parse_ref_with_base};
use rapidurl_testkit::invariants::text_of;

const DEFAULT_BASE: &str = "https://user:pass@example.org:8080/dir/file.html?q=1#frag";

fn check(input: &str, base: Option<&UrlRef<'_>>) {
    let arena = Bump::new();
    let (fast, parsed) = match base {
        Some(base) => (
            parse_hostname_with_base(input, base, &arena),
            parse_ref_with_base(input, base, &arena).map(|url| url.hostname()),
        ),
        None => (
            parse_hostname(input, &arena),
            parse_ref(input, &arena).map(|url| url.hostname()),
        ),
    };
    assert_eq!(
        fast,
        parsed,
        "{input:?} against {:?}",
        base.map(|b| b.href())
    );
}

fuzz_target!(|data: &[u8]| {
    let text = text_of(data);
    let arena = Bump::new();
    if let Some((base_text, input)) = text.split_once('\n') {
        if let Ok(base) = parse_ref(base_text, &arena) {
            check(input, Some(&base));
        }
    }
    check(&text, None);
    let base = parse_ref(DEFAULT_BASE, &arena).expect("the fixed base parses");
    check(&text, Some(&base));
});
