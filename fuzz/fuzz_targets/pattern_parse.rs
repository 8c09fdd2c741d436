//! The URL pattern parser: constructing from a constructor string (with or without a base
//! URL) or from a dictionary never panics, and an accepted pattern's normalized components,
//! given back as a dictionary, construct the same pattern again (but for a port that
//! canonicalization made the protocol's default, which construction then empties).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rapidurl::pattern::{UrlPattern, UrlPatternInit, UrlPatternInput, UrlPatternOptions};

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
    let [protocol, username, password, hostname, port, pathname, search, hash] =
        case.components.clone();
    let init = UrlPatternInit {
        protocol,
        username,
        password,
        hostname,
        port,
        pathname,
        search,
        hash,
        base_url: None,
    };
    let built = match &case.string {
        Some(s) => UrlPattern::new(UrlPatternInput::String(s), case.base.as_deref(), options),
        None => UrlPattern::new(UrlPatternInput::Init(&init), None, options),
    };
    let Ok(p) = built else { return };
    let [protocol, username, password, hostname, port, pathname, search, hash] =
        p.component_patterns().map(|c| Some(c.to_owned()));
    // A dictionary's protocol loses one trailing `:`, its search one leading `?` and its
    // hash one leading `#`: give them back with one more, which is taken off again.
    let (protocol, search, hash) = (
        protocol.map(|v| format!("{v}:")),
        search.map(|v| format!("?{v}")),
        hash.map(|v| format!("#{v}")),
    );
    let again = UrlPatternInit {
        protocol,
        username,
        password,
        hostname,
        port,
        pathname,
        search,
        hash,
        base_url: None,
    };
    let q = UrlPattern::new(UrlPatternInput::Init(&again), None, options)
        .unwrap_or_else(|e| panic!("{:?} does not construct again: {e}", p.component_patterns()));
    // The same components, but for a port that canonicalization made its special
    // protocol's default (`80 ` with `http`): construction then empties it.
    let mut expected = p.component_patterns();
    let default = match expected[0] {
        "http" | "ws" => "80",
        "https" | "wss" => "443",
        "ftp" => "21",
        _ => "",
    };
    if !default.is_empty() && expected[4] == default {
        expected[4] = "";
    }
    assert_eq!(expected, q.component_patterns());
    assert_eq!(p.has_regexp_groups(), q.has_regexp_groups());
});
