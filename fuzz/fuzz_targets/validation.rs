//! Any bytes (`base \n input`, or an input alone, tried with no base and a fixed base)
//! → `parse_with_validation_errors` and `is_valid_url_string`.
//!
//! Invariants: no panic; the result is the one `Url::parse` / `Url::parse_with_base`
//! gives (same URL, same error); a failure ends the list with the one error marked as
//! the failure, a success marks none; every offset is inside the input, on a character
//! boundary; a valid URL string (§4.3) parses, and parsing it reports no validation error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::{Url, is_valid_url_string, parse_with_validation_errors};
use rapidurl_testkit::invariants::{Snapshot, text_of};

const DEFAULT_BASE: &str = "https://user:pass@example.org:8080/dir/file.html?q=1#frag";

fn check(input: &str, base: Option<&Url>) {
    let context = (input, base.map(Url::href));
    let (result, errors) = match base {
        Some(base) => rapidurl::parse_with_validation_errors_with_base(input, base),
        None => parse_with_validation_errors(input),
    };
    let plain = match base {
        Some(base) => Url::parse_with_base(input, base),
        None => Url::parse(input),
    };
    match (&result, &plain) {
        (Ok(a), Ok(b)) => assert_eq!(Snapshot::of(a), Snapshot::of(b), "{context:?}"),
        (Err(a), Err(b)) => assert_eq!(a, b, "{context:?}"),
        _ => panic!(
            "parse_with_validation_errors and the parse disagree: {context:?} {result:?} {plain:?}"
        ),
    }
    for (i, error) in errors.iter().enumerate() {
        assert!(
            error.offset() <= input.len() && input.is_char_boundary(error.offset()),
            "offset {} of {error:?} outside the input or inside a character: {context:?}",
            error.offset()
        );
        let last = i + 1 == errors.len();
        assert_eq!(
            error.is_failure(),
            result.is_err() && last,
            "failure flag of {error:?} (at {i} of {}): {context:?} {errors:?}",
            errors.len()
        );
    }
    if let Err(e) = &result {
        assert!(
            !errors.is_empty(),
            "the parse failed ({e}) with no validation error: {context:?}"
        );
    }
    let valid = match base {
        Some(base) => rapidurl::is_valid_url_string_with_base(input, base),
        None => is_valid_url_string(input),
    };
    if valid {
        assert!(
            result.is_ok() && errors.is_empty(),
            "a valid URL string with validation errors {errors:?} / {result:?}: {context:?}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let text = text_of(data);
    if let Some((base_text, input)) = text.split_once('\n') {
        if let Ok(base) = Url::parse(base_text) {
            check(input, Some(&base));
        }
    }
    check(&text, None);
    let base = Url::parse(DEFAULT_BASE).expect("the fixed base parses");
    check(&text, Some(&base));
});
