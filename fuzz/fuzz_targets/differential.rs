//! The same input through rapidurl and ada (`ada_url`, a C++ WHATWG URL parser): both
//! fail, or both succeed with the same href and the same getters. Each input is parsed
//! on its own and against a fixed base with every component (relative references).
//!
//! A difference is either a rapidurl bug or an ada departure from the Standard. The
//! departures that have been looked at and found to be ada's (each with a regression
//! test citing the Standard in `tests/robustness.rs`) are recognized by
//! `known_ada_departure` and skipped, so that the fuzzer can look for new ones.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::Url;
use rapidurl_testkit::invariants::text_of;

const BASE: &str = "https://user:pass@example.org:8080/dir/file.html?q=1#frag";

/// The getters both libraries have, in the URL API's names.
fn ours(url: &Url) -> [String; 11] {
    [
        url.href(),
        &url.origin(),
        url.protocol(),
        url.username(),
        url.password(),
        url.host(),
        url.hostname(),
        url.port(),
        url.pathname(),
        url.search(),
        url.hash(),
    ]
    .map(str::to_owned)
}

fn theirs(url: &ada_url::Url) -> [String; 11] {
    [
        url.href(),
        &url.origin(),
        url.protocol(),
        url.username(),
        url.password(),
        url.host(),
        url.hostname(),
        url.port(),
        url.pathname(),
        url.search(),
        url.hash(),
    ]
    .map(str::to_owned)
}

/// Whether a host label is Punycode (`xn--`, any case): the host went through UTS #46.
fn has_idna_label(host: &str) -> bool {
    host.split('.').any(|label| {
        label
            .get(..4)
            .is_some_and(|p| p.eq_ignore_ascii_case("xn--"))
    })
}

/// Differences already analysed and found to be ada's departures from the Standard
/// (see docs/robustness.md, "Differential findings"), recognized from the two results.
///
/// IDNA: ada has an IDNA (UTS #46) implementation of its own, which departs from UTS #46
/// in places (e.g. it does not apply the CheckJoiners rule of RFC 5892 Appendix A.1 to
/// U+200C, `tests/robustness.rs::ada_departure_zwnj_after_non_joining`). rapidurl's
/// IDNA is checked against all 8,011 cases of the web-platform-tests' IdnaTestV2.json
/// instead (`tests/wpt.rs`). So a difference that comes down to a domain with a
/// Punycode label on one side (or a domain-to-ASCII failure against one) is skipped
/// here, provided every getter outside the host agrees.
fn known_ada_departure(
    mine: &Result<Url, rapidurl::ParseError>,
    ada: &Result<ada_url::Url, impl Sized>,
) -> bool {
    use rapidurl::ErrorKind::{DomainInvalidCodePoint, DomainToAscii};
    match (mine, ada) {
        (Err(e), Ok(a)) => {
            matches!(e.kind(), DomainToAscii | DomainInvalidCodePoint)
                && has_idna_label(a.hostname())
        }
        (Ok(m), Err(_)) => has_idna_label(m.hostname()),
        (Ok(m), Ok(a)) => {
            (has_idna_label(m.hostname()) || has_idna_label(a.hostname()))
                && (
                    m.protocol(),
                    m.username(),
                    m.password(),
                    m.port(),
                    m.pathname(),
                    m.search(),
                    m.hash(),
                ) == (
                    a.protocol(),
                    a.username(),
                    a.password(),
                    a.port(),
                    a.pathname(),
                    a.search(),
                    a.hash(),
                )
        }
        (Err(_), Err(_)) => true,
    }
}

fn compare(input: &str, base: Option<&str>) {
    let mine = match base {
        None => Url::parse(input),
        Some(b) => Url::parse(b).and_then(|b| b.join(input)),
    };
    let ada = ada_url::Url::parse(input, base);
    match (&mine, &ada) {
        (Err(_), Err(_)) => {}
        _ if known_ada_departure(&mine, &ada) => {}
        (Ok(m), Ok(a)) => {
            let (m, a) = (ours(m), theirs(a));
            if m != a {
                panic!(
                    "getters differ for {input:?} (base {base:?}):\n rapidurl {m:?}\n ada      {a:?}"
                );
            }
        }
        (Ok(m), Err(_)) => panic!(
            "{input:?} (base {base:?}): rapidurl parses it as {:?}, ada fails",
            m.href()
        ),
        (Err(e), Ok(a)) => panic!(
            "{input:?} (base {base:?}): rapidurl fails ({e}), ada parses it as {:?}",
            a.href()
        ),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = text_of(data);
    compare(&text, None);
    compare(&text, Some(BASE));
});
