//! Regression tests for what the fuzz targets of fuzz/ found (docs/robustness.md): each
//! input is the fuzzer's, reduced, and the assertion its target's invariant.

use rapidurl::Url;
use rapidurl::render::{RenderOptions, is_kept_encoded, render, spoof_signals};

/// `render`: a label whose Unicode form holds a zero-width non-joiner (valid in an IDN
/// label after an Arabic letter, and invisible) stays in its ASCII form; the spoofing
/// signals still see the label as Unicode (right-to-left text).
#[test]
fn render_keeps_a_label_with_a_zero_width_non_joiner_in_ascii() {
    let url = Url::parse("http://xn--ghb65a953d/").unwrap();
    let view = url.as_ref_view();
    for options in [
        RenderOptions::default(),
        RenderOptions::default().host_only(true),
    ] {
        let shown = render(&view, &options);
        assert!(
            !shown.chars().any(is_kept_encoded),
            "{shown:?} shows a code point kept encoded"
        );
        assert!(shown.contains("xn--ghb65a953d"), "{shown:?}");
    }
    let signals = spoof_signals(&view);
    assert!(signals.bidi_host, "{signals:?}");
    // A label of the same host without the joiner is shown as Unicode.
    let plain = Url::parse("http://\u{644}\u{6af}.example/").unwrap();
    let shown = render(
        &plain.as_ref_view(),
        &RenderOptions::default().host_only(true),
    );
    assert_eq!(shown, "\u{644}\u{6af}.example");
}

/// `render`: a Punycode label whose Unicode form is no valid label (`xn--xn---epa` is
/// `xn--é`, which domain to ASCII refuses) stays in its ASCII form, so that the rendering
/// parses back to the same host.
#[test]
fn render_keeps_a_label_that_does_not_round_trip_in_ascii() {
    let url = Url::parse("http://xn--xn---epa/").unwrap();
    let shown = render(&url.as_ref_view(), &RenderOptions::default());
    assert_eq!(shown, "http://xn--xn---epa/");
    assert_eq!(Url::parse(&shown).unwrap().hostname(), url.hostname());
}

/// `render`: labels that each go back to themselves, but not together (`xn--ynd.ς` fails
/// domain to ASCII as a whole) stay in their ASCII form.
#[test]
fn render_keeps_a_domain_that_does_not_round_trip_in_ascii() {
    let url = Url::parse("http://xn--ynd.xn--3xa/").unwrap();
    let shown = render(&url.as_ref_view(), &RenderOptions::default());
    assert_eq!(
        Url::parse(&shown).unwrap().hostname(),
        url.hostname(),
        "{shown:?}"
    );
    assert_eq!(shown, "http://xn--ynd.xn--3xa/");
}

/// `canon`: Safe Browsing's key is its own key. With the port cut at the last colon, the
/// host of `example.com:44ample.com:43` kept `:44ample.com`, which the next pass cut.
#[test]
fn safe_browsing_cuts_the_port_at_the_first_colon() {
    use rapidurl::canon::safe_browsing::canonicalize_input;
    for input in [
        &b"example.com:44ample.com:43"[..],
        b"http://user@a.example:1b:2/x",
        b"a:1b:2",
    ] {
        let key = canonicalize_input(input);
        assert_eq!(canonicalize_input(key.as_bytes()), key, "{input:?}");
    }
    assert_eq!(
        canonicalize_input(b"example.com:44ample.com:43"),
        "http://example.com/"
    );
    assert_eq!(
        canonicalize_input(b"http://user@a.example:1b:2/x"),
        "http://a.example/x"
    );
}

/// `canon`: Safe Browsing's key is its own key when IDNA maps a label to nothing (a soft
/// hyphen: `Ä.\u{ad}.C` gave `xn--4ca..c`) or a host to an IPv4 form (full-width digits).
#[test]
fn safe_browsing_treats_the_idna_result_as_an_ascii_host() {
    use rapidurl::canon::safe_browsing::canonicalize_input;
    for input in [
        "htpt://\u{c4}.\u{ad}.C/\u{fffd}",
        "http://a.\u{ad}/",
        "http://\u{ff10}x7f.\u{ff11}/",
        "http://\u{ff11}.\u{ff12}.\u{ff13}.\u{ff14}/",
    ] {
        let key = canonicalize_input(input.as_bytes());
        assert_eq!(canonicalize_input(key.as_bytes()), key, "{input:?}");
    }
    assert_eq!(
        canonicalize_input("htpt://\u{c4}.\u{ad}.C/".as_bytes()),
        "htpt://xn--4ca.c/"
    );
    assert_eq!(
        canonicalize_input("http://\u{ff10}x7f.\u{ff11}/".as_bytes()),
        "http://127.0.0.1/"
    );
}
