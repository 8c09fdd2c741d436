//! The URL pattern parser: constructing from a constructor string (with or without a base
//! URL) or from a dictionary never panics, and an accepted pattern's normalized components,
//! given back as a dictionary, construct the same pattern again (but for a port that
//! canonicalization made the protocol's default, which construction then empties).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rapidurl::pattern::{
    COMPONENT_NAMES, UrlPattern, UrlPatternInit, UrlPatternInput, UrlPatternOptions,
};

#[derive(Arbitrary, Debug)]
struct Case {
    string: Option<String>,
    components: [Option<String>; 8],
    base: Option<String>,
    ignore_case: bool,
}

fuzz_target!(|case: Case| {
    let options = UrlPatternOptions {
        ignore_case: case.ignore_case,
    };
    let mut init = UrlPatternInit::default();
    for (name, value) in COMPONENT_NAMES.iter().zip(&case.components) {
        *init.field_mut(name).expect("a component name") = value.clone();
    }
    let built = match &case.string {
        Some(s) => UrlPattern::new(UrlPatternInput::String(s), case.base.as_deref(), options),
        None => UrlPattern::new(UrlPatternInput::Init(&init), None, options),
    };
    let Ok(p) = built else { return };
    if let Err(e) = p.__check_round_trip(options) {
        panic!("{e}");
    }
});
