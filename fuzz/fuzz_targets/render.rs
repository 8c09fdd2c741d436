//! Any bytes, as a URL and behind `http://` → `render` (with several option sets) and
//! `spoof_signals`.
//!
//! Invariants: no panic; the owned URL's view and `parse_ref`'s view render the same; the
//! rendering holds no code point §4.8 says to keep encoded (`is_kept_encoded`) except
//! ASCII ones already in the href (an opaque path keeps its spaces); parsing the
//! rendering (the whole of it, and `protocol//host/` from the host alone) gives the URL's
//! hostname back; the labels `spoof_signals` names are non-ASCII labels that domain to
//! ASCII takes back to labels of the hostname, and
//! its IP-address and credentials flags match the URL's.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl::render::{RenderOptions, is_kept_encoded, render, spoof_signals};
use rapidurl::{HostKind, Url};
use rapidurl_testkit::invariants::text_of;

fn check(input: &str) {
    let Ok(url) = Url::parse(input) else {
        return;
    };
    let view = url.as_ref_view();
    let arena = rapidurl::bumpalo::Bump::new();
    let borrowed = rapidurl::parse_ref(input, &arena).expect("parse_ref agrees with parse");
    let href = url.href();
    let options = [
        RenderOptions::default(),
        RenderOptions::default().host_only(true),
        RenderOptions::default().no_scheme(true).trim_www(true),
        RenderOptions::default().max_width(24),
        RenderOptions::default().host_only(true).max_width(12),
        RenderOptions::default().trim_www(true).max_width(1),
    ];
    for option in &options {
        let shown = render(&view, option);
        assert_eq!(
            shown,
            render(&borrowed, option),
            "Url and UrlRef render differently: {href:?} {option:?}"
        );
        for c in shown.chars() {
            assert!(
                !is_kept_encoded(c) || (c.is_ascii() && href.contains(c)),
                "{c:?} (U+{:04X}) shown in {shown:?} for {href:?} {option:?}",
                c as u32
            );
        }
    }
    let hostname = url.hostname();
    if url.host_kind() != HostKind::None {
        let whole = render(&view, &RenderOptions::default());
        let host = render(&view, &RenderOptions::default().host_only(true));
        let rebuilt = format!("{}//{host}/", url.protocol());
        for again in [whole, rebuilt] {
            let reparsed = Url::parse(&again);
            assert_eq!(
                reparsed.as_ref().map(|u| u.hostname()),
                Ok::<&str, &rapidurl::ParseError>(hostname),
                "rendering {again:?} of {href:?} does not give its host back"
            );
        }
    }
    let signals = spoof_signals(&view);
    assert_eq!(signals, spoof_signals(&borrowed), "{href:?}");
    assert_eq!(
        signals.ip_address_host,
        matches!(url.host_kind(), HostKind::Ipv4 | HostKind::Ipv6),
        "{href:?}"
    );
    assert_eq!(
        signals.credentials,
        !url.username().is_empty() || !url.password().is_empty(),
        "{href:?}"
    );
    // The signals judge every label as Unicode, also one the rendering keeps in ASCII:
    // each is a non-ASCII label that domain to ASCII takes back to a label of the host.
    let host_labels: Vec<&str> = hostname.split('.').collect();
    for label in signals
        .mixed_script_labels
        .iter()
        .chain(&signals.confusable_labels)
    {
        let ascii = rapidurl::host::domain_to_ascii(label, false);
        assert!(
            !label.is_ascii() && ascii.as_deref().is_ok_and(|a| host_labels.contains(&a)),
            "signal label {label:?} ({ascii:?}) is no label of {hostname:?} ({href:?})"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let text = text_of(data);
    check(&text);
    check(&format!("http://{text}"));
});
