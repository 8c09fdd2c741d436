//! Any bytes, as a URL and behind `http://` → the public suffix getters.
//!
//! Invariants: no panic; `Url` and `UrlRef` give the same public suffix, registrable
//! domain and subdomain; they are `None` unless the host is a domain; for a domain, the
//! getters' short cut over the built-in table gives what the `psl` crate gives
//! (`rapidurl_testkit::psl_oracle`), and so does the table's full lookup; for the ICANN
//! section, the table's lookup and the oracle's (the `psl` crate asked again past a
//! private rule) agree; the registrable domain ends with the public suffix and the subdomain starts the
//! hostname.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::Url;
use rapidurl::psl::{Sections, Suffix, SuffixList};
use rapidurl_testkit::invariants::text_of;
use rapidurl_testkit::psl_oracle;

fn parts(s: Option<Suffix<'_>>) -> [Option<&str>; 3] {
    [
        s.map(|s| s.as_str()),
        s.and_then(|s| s.registrable_domain()),
        s.and_then(|s| s.subdomain()),
    ]
}

fn check(input: &str) {
    let Ok(url) = Url::parse(input) else {
        return;
    };
    let arena = rapidurl::bumpalo::Bump::new();
    let view = rapidurl::parse_ref(input, &arena).expect("parse_ref agrees with parse");
    let got = [
        url.public_suffix(),
        url.registrable_domain(),
        url.subdomain(),
    ];
    let by_view = [
        view.public_suffix(),
        view.registrable_domain(),
        view.subdomain(),
    ];
    assert_eq!(got, by_view, "Url and UrlRef on {input:?}");
    let host = url.hostname();
    if url.host_kind() != rapidurl::HostKind::Domain {
        assert_eq!(got, [None; 3], "{input:?}");
        return;
    }
    let oracle = |icann_only| {
        let s = psl_oracle::lookup(host, icann_only);
        [
            s.map(|s| s.as_str()),
            s.and_then(|s| s.registrable_domain()),
            s.and_then(|s| s.subdomain()),
        ]
    };
    let want = oracle(false);
    assert_eq!(got, want, "short cut against the psl crate on {host:?}");
    let table = parts(SuffixList::builtin().lookup(host, Sections::All));
    assert_eq!(
        table, want,
        "table lookup against the psl crate on {host:?}"
    );
    let icann = parts(view.domain_suffix(SuffixList::builtin(), Sections::Icann));
    let matcher = oracle(true);
    assert_eq!(icann, matcher, "ICANN section on {host:?}");
    if let [Some(suffix), Some(domain), Some(sub)] = got {
        assert!(
            domain.ends_with(suffix) && host.ends_with(domain),
            "{host:?}"
        );
        assert!(host.starts_with(sub), "{host:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let text = text_of(data);
    check(&text);
    check(&format!("http://{text}"));
});
