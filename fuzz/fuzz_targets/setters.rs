//! A URL plus a sequence of URL API setter calls (§6.1), chosen by `arbitrary`.
//!
//! Invariants after every call: no panic; the URL is a fixed point of the parser
//! (re-parsing `href` gives the same href, getters and offsets) and its getters
//! reassemble into `href`; a failing `set_href` leaves the URL unchanged; and the
//! setters the Standard makes no-ops in some cases leave those URLs unchanged
//! (anything on an opaque-path URL's host, port, pathname).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rapidurl::Url;
use rapidurl_testkit::invariants::{Snapshot, assert_fixed_point_after_setters};

/// Start URLs when the fuzzer's own does not parse: one of each shape the setters treat
/// differently (special with credentials and port, file, non-special with and without a
/// host, opaque path, IPv6, IPv4).
const STARTS: &[&str] = &[
    "https://user:pass@example.com:8080/a/b?q=1#f",
    "file:///C:/dir/file",
    "file://host/share",
    "sc://opaque.host/p?q#f",
    "sc:/a/b",
    "mailto:someone@example.com?subject=x",
    "http://[::1]:81/",
    "ws://1.2.3.4/x",
    "data:text/plain,hello world",
    "non-spec:/.//p",
];

#[derive(Arbitrary, Debug)]
enum Op {
    Href(String),
    Protocol(String),
    Username(String),
    Password(String),
    Host(String),
    Hostname(String),
    Port(String),
    Pathname(String),
    Search(String),
    Hash(String),
    /// Through `search_params_mut()`: the URLSearchParams "update" steps.
    ParamsAppend(String, String),
    ParamsDelete(String),
    ParamsSort,
}

#[derive(Arbitrary, Debug)]
struct Input {
    start: String,
    start_index: u8,
    ops: Vec<Op>,
}

fuzz_target!(|input: Input| {
    let mut url = Url::parse(&input.start)
        .unwrap_or_else(|_| Url::parse(STARTS[input.start_index as usize % STARTS.len()]).unwrap());
    for (i, op) in input.ops.iter().enumerate() {
        let before = url.clone();
        match op {
            Op::Href(v) => {
                if url.set_href(v).is_err() {
                    assert_eq!(url.href(), before.href(), "failed set_href changed the URL");
                }
            }
            Op::Protocol(v) => url.set_protocol(v),
            Op::Username(v) => url.set_username(v),
            Op::Password(v) => url.set_password(v),
            Op::Host(v) => url.set_host(v),
            Op::Hostname(v) => url.set_hostname(v),
            Op::Port(v) => url.set_port(v),
            Op::Pathname(v) => url.set_pathname(v),
            Op::Search(v) => url.set_search(v),
            Op::Hash(v) => url.set_hash(v),
            Op::ParamsAppend(n, v) => url.search_params_mut().append(n, v),
            Op::ParamsDelete(n) => url.search_params_mut().delete(n, None),
            Op::ParamsSort => url.search_params_mut().sort(),
        }
        let context = (&before, &input.ops[..=i]);
        assert_fixed_point_after_setters(&url, &context);
        // §6.1: the host, hostname, port and pathname setters return early for a URL
        // with an opaque path.
        if before.has_opaque_path()
            && matches!(
                op,
                Op::Host(_) | Op::Hostname(_) | Op::Port(_) | Op::Pathname(_)
            )
        {
            assert_eq!(Snapshot::of(&url), Snapshot::of(&before), "{context:?}");
        }
        // Only href and protocol can change the scheme.
        if !matches!(op, Op::Href(_) | Op::Protocol(_)) {
            assert_eq!(url.protocol(), before.protocol(), "{context:?}");
        }
    }
});
