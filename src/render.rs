//! URL rendering for people making a trust decision (URL Standard §4.8).
//!
//! [`render`] writes a URL the way §4.8 asks an address bar to: no username or password
//! (§4.8.1), the host through domain to Unicode (§4.8.3), percent-encoded UTF-8 in the
//! path, query and fragment shown as the code points it stands for — except the
//! [code points kept encoded](is_kept_encoded) because they would be invisible or could
//! spoof — and, with [`RenderOptions`], the host alone, no scheme, no leading `www.` or
//! `m.`, and a maximum width whose elision keeps the registrable domain (§4.8.2, from the
//! Public Suffix List through [`crate::psl`]).
//! [`spoof_signals`] lists what §4.8.3 suggests warning about.
//!
//! ```
//! use rapidurl::Url;
//! use rapidurl::render::{render, RenderOptions};
//!
//! let url = Url::parse("https://user:pw@xn--bcher-kva.example/%C3%A4?q=%C3%BC#%C3%A9").unwrap();
//! let view = url.as_ref_view();
//! assert_eq!(render(&view, &RenderOptions::default()), "https://bücher.example/ä?q=ü#é");
//! assert_eq!(render(&view, &RenderOptions::default().host_only(true)), "bücher.example");
//!
//! // A right-to-left mark stays encoded; so does an ASCII byte, which would change the
//! // reading of the URL (`%2F` is not a path separator).
//! let url = Url::parse("https://example.com/a%E2%80%8Fb%2Fc").unwrap();
//! assert_eq!(render(&url.as_ref_view(), &RenderOptions::default()),
//!            "https://example.com/a%E2%80%8Fb%2Fc");
//! ```

use crate::UrlRef;
use crate::components::HostKind;
use crate::host::domain_to_unicode;
use icu_properties::props::{BidiClass, DefaultIgnorableCodePoint, GeneralCategory, WhiteSpace};
use icu_properties::{CodePointMapData, CodePointSetData};
use unicode_security::MixedScript;

/// What [`render`] shows. The default is the whole URL (without credentials) at any width.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RenderOptions {
    host_only: bool,
    no_scheme: bool,
    trim_www: bool,
    max_width: Option<usize>,
}

impl RenderOptions {
    /// Show only the host (as Unicode, without port), as §4.8.1 suggests where telling
    /// host from path matters, e.g. when the URL has bidirectional text.
    pub fn host_only(mut self, yes: bool) -> Self {
        self.host_only = yes;
        self
    }

    /// Leave out the scheme and its `//` (for a display surface with a single scheme).
    pub fn no_scheme(mut self, yes: bool) -> Self {
        self.no_scheme = yes;
        self
    }

    /// Drop a leading `www.` or `m.` label, when what remains still holds the registrable
    /// domain (never turning `www.co.uk` into `co.uk`).
    pub fn trim_www(mut self, yes: bool) -> Self {
        self.trim_www = yes;
        self
    }

    /// At most this many characters (Unicode scalar values), `…` included. The path,
    /// query and fragment are cut from their end first, then the scheme and port go, then
    /// host labels from the lowest level (`…com.evil.com`); the registrable domain always
    /// stays whole, even if it alone is wider.
    pub fn max_width(mut self, width: usize) -> Self {
        self.max_width = Some(width);
        self
    }
}

/// Renders `url` for a person (URL Standard §4.8); see the [module docs](self).
pub fn render(url: &UrlRef<'_>, options: &RenderOptions) -> String {
    let host = display_host(url);
    let registrable = url.registrable_domain().map(unicode_domain);
    let host = match (options.trim_www, &registrable) {
        (true, Some(reg)) => trim_www(&host, reg),
        _ => host.as_str(),
    };
    if options.host_only {
        return match options.max_width {
            Some(width) => elide_host(host, registrable.as_deref(), width),
            None => host.to_owned(),
        };
    }
    let scheme = if options.no_scheme {
        String::new()
    } else if url.host_kind() == HostKind::None {
        url.protocol().to_owned()
    } else {
        format!("{}//", url.protocol())
    };
    let port = match url.port() {
        "" => String::new(),
        port => format!(":{port}"),
    };
    let mut rest = decode_for_display(url.pathname());
    rest.push_str(&decode_for_display(url.search()));
    rest.push_str(&decode_for_display(url.hash()));
    let whole = format!("{scheme}{host}{port}{rest}");
    let Some(width) = options.max_width else {
        return whole;
    };
    if chars(&whole) <= width {
        return whole;
    }
    // Cut the path, query and fragment from the end.
    let head = chars(&scheme) + chars(host) + chars(&port);
    if head + 1 < width {
        let keep = width - head - 1;
        let cut: String = rest.chars().take(keep).collect();
        return format!("{scheme}{host}{port}{cut}…");
    }
    // Then the host alone, its labels elided from the lowest level.
    let mut out = elide_host(host, registrable.as_deref(), width.saturating_sub(1));
    if !rest.is_empty() || !port.is_empty() {
        out.push('…');
    }
    out
}

/// The host as a person should see it: domains through domain to Unicode, label by label
/// (a label whose ToUnicode fails stays in its ASCII form rather than showing U+FFFD);
/// IP addresses and opaque hosts as serialized.
fn display_host(url: &UrlRef<'_>) -> String {
    let host = url.hostname();
    if url.host_kind() != HostKind::Domain {
        return host.to_owned();
    }
    unicode_domain(host)
}

/// An ASCII domain with each `xn--` label through ToUnicode (kept as it is when that
/// fails, or when the label's Unicode form holds a code point [`render`] would keep
/// encoded: a zero-width joiner or non-joiner is valid in a label, and invisible). When
/// the result does not go back to `host` through domain to ASCII (the bidi rule, for
/// one, looks at every label of the domain), `host` as it is.
fn unicode_domain(host: &str) -> String {
    let mut out = String::with_capacity(host.len());
    for (i, label) in host.split('.').enumerate() {
        if i > 0 {
            out.push('.');
        }
        match unicode_label(label) {
            Some(unicode) if !unicode.chars().any(is_kept_encoded) => out.push_str(&unicode),
            _ => out.push_str(label),
        }
    }
    if out != host
        && !crate::host::domain_to_ascii(&out, false).is_ok_and(|a| a.eq_ignore_ascii_case(host))
    {
        return host.to_owned();
    }
    out
}

/// One label of an ASCII domain as Unicode: an `xn--` label through ToUnicode (`None`
/// when that fails, or when the result does not go back to the label through domain to
/// ASCII, as `xn--xn---epa`, whose Unicode form `xn--é` is no valid label), any other
/// label as it is.
fn unicode_label(label: &str) -> Option<String> {
    if label.len() >= 4 && label[..4].eq_ignore_ascii_case("xn--") {
        Some(domain_to_unicode(label)).filter(|unicode| {
            !unicode.contains('\u{FFFD}')
                && crate::host::domain_to_ascii(unicode, false)
                    .is_ok_and(|ascii| ascii.eq_ignore_ascii_case(label))
        })
    } else {
        Some(label.to_owned())
    }
}

/// `host` without a leading `www.` or `m.`, when the rest still ends with (or is) the
/// registrable domain `reg`.
fn trim_www<'h>(host: &'h str, reg: &str) -> &'h str {
    for prefix in ["www.", "m."] {
        if let Some(rest) = host.strip_prefix(prefix)
            && rest.len() >= reg.len()
            && rest.ends_with(reg)
        {
            return rest;
        }
    }
    host
}

/// `host` in at most `width` characters: whole when it fits; otherwise labels removed from
/// the left (the lowest level) behind a `…`, never into the registrable domain `reg`
/// (without one — an IP address, an opaque host, a public suffix — the host stays whole).
fn elide_host(host: &str, reg: Option<&str>, width: usize) -> String {
    if chars(host) <= width {
        return host.to_owned();
    }
    let Some(reg) = reg.filter(|reg| host.ends_with(reg)) else {
        return host.to_owned();
    };
    let keep_from = host.len() - reg.len();
    // Each candidate starts just after a dot, left to right: the first that fits wins.
    let mut start = 0;
    while start < keep_from {
        let Some(dot) = host[start..keep_from].find('.') else {
            break;
        };
        start += dot + 1;
        let tail = &host[start..];
        if chars(tail) < width {
            return format!("…{tail}");
        }
    }
    format!("…{reg}")
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// Replaces each run of percent-encoded bytes in `text` that is UTF-8 for code points
/// outside [`is_kept_encoded`] by those code points; everything else stays as it is (so
/// ASCII bytes and invalid UTF-8 stay percent-encoded).
pub fn decode_for_display(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        if !crate::validation::percent_encoded_byte_at(bytes, i) {
            let next = bytes[i + 1..]
                .iter()
                .position(|&b| b == b'%')
                .map_or(bytes.len(), |p| i + 1 + p);
            out.push_str(&text[i..next]);
            i = next;
            continue;
        }
        // A run of percent-encoded bytes.
        let run_start = i;
        let mut decoded = Vec::new();
        while crate::validation::percent_encoded_byte_at(bytes, i) {
            decoded.push(hex(bytes[i + 1]) << 4 | hex(bytes[i + 2]));
            i += 3;
        }
        push_decoded_run(&text[run_start..i], &decoded, &mut out);
    }
    out
}

/// Writes the decoded bytes of one run: each UTF-8 sequence for a shown code point as
/// that code point, every other byte as its original `%XX`.
fn push_decoded_run(encoded: &str, decoded: &[u8], out: &mut String) {
    let mut at = 0;
    while at < decoded.len() {
        let len = match decoded[at] {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => 1,
        };
        let shown = decoded
            .get(at..at + len)
            .and_then(|seq| std::str::from_utf8(seq).ok())
            .and_then(|s| s.chars().next())
            .filter(|&c| !c.is_ascii() && !is_kept_encoded(c));
        match shown {
            Some(c) => {
                out.push(c);
                at += len;
            }
            None => {
                out.push_str(&encoded[at * 3..at * 3 + 3]);
                at += 1;
            }
        }
    }
}

fn hex(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        _ => b - b'A' + 10,
    }
}

/// The code points [`render`] leaves percent-encoded even when they are valid UTF-8,
/// because shown as themselves they would be invisible, would reorder or hide what is
/// around them, or would imitate a delimiter or a browser's security indicator:
///
/// - controls (general category Cc, so C0, DEL and C1) and every `White_Space` code point;
/// - bidirectional formatting and every `Default_Ignorable_Code_Point` (zero-width
///   spaces and joiners, the left-to-right and right-to-left marks, embeddings,
///   overrides and isolates, variation selectors, tag characters, the Hangul fillers…);
/// - unassigned, private-use, surrogate and format code points (Cn, Co, Cs, Cf) and
///   line or paragraph separators (Zl, Zp);
/// - look-alikes of `/`, `?`, `#`, `@`, `.`, `:` and `%` (e.g. U+2215 DIVISION SLASH,
///   U+FF0F, U+2044, U+FF1F, U+FF03, U+FF20, U+3002, U+FF0E, U+A789, U+FF05) and of a
///   padlock or key (U+1F50F–U+1F513).
pub fn is_kept_encoded(c: char) -> bool {
    let gc = CodePointMapData::<GeneralCategory>::new().get(c);
    matches!(
        gc,
        GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::Unassigned
            | GeneralCategory::PrivateUse
            | GeneralCategory::Surrogate
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator
    ) || CodePointSetData::new::<WhiteSpace>().contains(c)
        || CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || matches!(
            c,
            // Slashes and solidus overlays.
            '\u{2044}' | '\u{2215}' | '\u{2571}' | '\u{27CB}' | '\u{29F8}' | '\u{2F03}'
            | '\u{3033}' | '\u{FF0F}' | '\u{0337}' | '\u{0338}' | '\u{1735}'
            // Question marks, number signs, at signs, percent signs.
            | '\u{FE56}' | '\u{FF1F}' | '\u{FE5F}' | '\u{FF03}' | '\u{FE6B}' | '\u{FF20}'
            | '\u{FE6A}' | '\u{FF05}' | '\u{2052}'
            // Full stops and colons.
            | '\u{2024}' | '\u{3002}' | '\u{FE52}' | '\u{FF0E}' | '\u{FF61}' | '\u{0589}'
            | '\u{A789}' | '\u{FE55}' | '\u{FF1A}' | '\u{2236}'
            // Padlocks and keys.
            | '\u{1F50F}'..='\u{1F513}'
        )
}

/// What §4.8.3 suggests warning about, found in one URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpoofSignals {
    /// The URL has a username or password (`https://examplecorp.com@attacker.example/`).
    pub credentials: bool,
    /// The host is an IPv4 or IPv6 address.
    pub ip_address_host: bool,
    /// The host, as Unicode, holds right-to-left text (bidi class R or AL).
    pub bidi_host: bool,
    /// Host labels (as Unicode) that mix scripts (UTS #39 mixed-script detection).
    pub mixed_script_labels: Vec<String>,
    /// Non-ASCII host labels (as Unicode) whose UTS #39 confusable skeleton is ASCII: they
    /// imitate an ASCII label, e.g. `аpple` with a Cyrillic `а`.
    pub confusable_labels: Vec<String>,
}

impl SpoofSignals {
    /// Whether any signal is raised.
    pub fn any(&self) -> bool {
        !self.names().is_empty()
    }

    /// The raised signals' names: `credentials`, `ip-address-host`, `bidi-host`,
    /// `mixed-script`, `confusable`.
    pub fn names(&self) -> Vec<&'static str> {
        [
            (self.credentials, "credentials"),
            (self.ip_address_host, "ip-address-host"),
            (self.bidi_host, "bidi-host"),
            (!self.mixed_script_labels.is_empty(), "mixed-script"),
            (!self.confusable_labels.is_empty(), "confusable"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
    }
}

/// The spoofing signals of `url` (§4.8.3, UTS #39 through the `unicode-security` crate).
///
/// ```
/// use rapidurl::Url;
/// use rapidurl::render::spoof_signals;
///
/// let url = Url::parse("https://examplecorp.com@xn--pple-43d.com/").unwrap(); // аpple.com
/// let signals = spoof_signals(&url.as_ref_view());
/// assert_eq!(signals.names(), ["credentials", "mixed-script", "confusable"]);
/// assert_eq!(signals.confusable_labels, ["аpple"]);
/// ```
pub fn spoof_signals(url: &UrlRef<'_>) -> SpoofSignals {
    let mut signals = SpoofSignals {
        credentials: !url.username().is_empty() || !url.password().is_empty(),
        ip_address_host: matches!(url.host_kind(), HostKind::Ipv4 | HostKind::Ipv6),
        ..SpoofSignals::default()
    };
    if url.host_kind() != HostKind::Domain {
        return signals;
    }
    let bidi = CodePointMapData::<BidiClass>::new();
    // Every label as Unicode, even one the rendering keeps in its ASCII form.
    for ascii in url.hostname().split('.') {
        let label = unicode_label(ascii).unwrap_or_else(|| ascii.to_owned());
        let label = label.as_str();
        if label.is_ascii() {
            continue;
        }
        if label.chars().any(|c| {
            matches!(
                bidi.get(c),
                BidiClass::RightToLeft | BidiClass::ArabicLetter
            )
        }) {
            signals.bidi_host = true;
        }
        if !label.is_single_script() {
            signals.mixed_script_labels.push(label.to_owned());
        }
        if unicode_security::skeleton(label).all(|c| c.is_ascii()) {
            signals.confusable_labels.push(label.to_owned());
        }
    }
    signals
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Url;

    fn show(input: &str, options: &RenderOptions) -> String {
        render(&Url::parse(input).unwrap().as_ref_view(), options)
    }

    #[test]
    fn idn_and_credentials() {
        let all = RenderOptions::default();
        assert_eq!(
            show(
                "https://user:pw@xn--bcher-kva.example/%C3%A4?q=%C3%BC#%C3%A9",
                &all
            ),
            "https://bücher.example/ä?q=ü#é"
        );
        assert_eq!(
            show("http://日本.example:8080/", &all),
            "http://日本.example:8080/"
        );
        // A label that ToUnicode rejects stays ASCII rather than showing U+FFFD.
        assert_eq!(show("http://xn--a.example/", &all), "http://xn--a.example/");
        assert_eq!(show("mailto:a@b", &all), "mailto:a@b");
        assert_eq!(
            show("https://[::1]:8/x", &all.clone().no_scheme(true)),
            "[::1]:8/x"
        );
    }

    #[test]
    fn percent_decoding_spares_the_unsafe_set() {
        let all = RenderOptions::default();
        for (input, shown) in [
            (
                "https://a.example/%E2%80%AEtxt",
                "https://a.example/%E2%80%AEtxt",
            ), // RLO
            ("https://a.example/%E2%80%8B", "https://a.example/%E2%80%8B"), // ZWSP
            ("https://a.example/%C2%A0", "https://a.example/%C2%A0"),       // NBSP
            ("https://a.example/%C2%85", "https://a.example/%C2%85"),       // C1 NEL
            (
                "https://a.example/%F0%9F%94%92",
                "https://a.example/%F0%9F%94%92",
            ), // 🔒
            (
                "https://a.example/a%E2%88%95b",
                "https://a.example/a%E2%88%95b",
            ), // ∕
            ("https://a.example/%EF%BC%9F", "https://a.example/%EF%BC%9F"), // ？
            ("https://a.example/%20%25%2F", "https://a.example/%20%25%2F"), // ASCII
            ("https://a.example/%C3", "https://a.example/%C3"),             // cut UTF-8
            (
                "https://a.example/%C3%A4%FF%C3%B6",
                "https://a.example/ä%FFö",
            ),
            ("https://a.example/%F0%9F%98%80", "https://a.example/😀"),
            ("https://a.example/%e2%82%ac", "https://a.example/€"),
        ] {
            assert_eq!(show(input, &all), shown, "{input}");
        }
    }

    #[test]
    fn elision_keeps_the_registrable_domain() {
        let host = "examplecorp.com.evil.com";
        assert_eq!(elide_host(host, Some("evil.com"), 100), host);
        assert_eq!(elide_host(host, Some("evil.com"), 15), "…com.evil.com");
        assert_eq!(elide_host(host, Some("evil.com"), 12), "…evil.com");
        assert_eq!(elide_host(host, Some("evil.com"), 3), "…evil.com");
        // Unknown registrable domain: nothing is elided on a guess.
        assert_eq!(elide_host(host, None, 5), host);
        assert_eq!(
            trim_www("www.example.co.uk", "example.co.uk"),
            "example.co.uk"
        );
        assert_eq!(trim_www("m.example.com", "example.com"), "example.com");
        assert_eq!(trim_www("www.co.uk", "www.co.uk"), "www.co.uk");
    }

    #[test]
    fn public_rendering_keeps_the_registrable_domain() {
        let url = "https://examplecorp.com.evil.com/login?next=%2F";
        let width = |w: usize| show(url, &RenderOptions::default().host_only(true).max_width(w));
        assert_eq!(width(100), "examplecorp.com.evil.com");
        assert_eq!(width(15), "…com.evil.com");
        assert_eq!(width(4), "…evil.com");
        // The whole URL: path cut first, then scheme and port, then host labels.
        let whole = |w: usize| show(url, &RenderOptions::default().max_width(w));
        assert_eq!(whole(36), "https://examplecorp.com.evil.com/lo…");
        assert_eq!(whole(20), "…com.evil.com…");
        // A public suffix's own labels are never taken for the site.
        let uk = "https://www.shop.example.co.uk/";
        assert_eq!(
            show(uk, &RenderOptions::default().host_only(true).max_width(10)),
            "…example.co.uk"
        );
        assert_eq!(
            show(uk, &RenderOptions::default().trim_www(true).no_scheme(true)),
            "shop.example.co.uk/"
        );
        assert_eq!(
            show(
                "https://www.example.co.uk/",
                &RenderOptions::default().trim_www(true)
            ),
            "https://example.co.uk/"
        );
        assert_eq!(
            show(
                "https://m.example.com/",
                &RenderOptions::default().trim_www(true)
            ),
            "https://example.com/"
        );
        // `www` is the registrable domain's own label here: it stays.
        assert_eq!(
            show(
                "https://www.co.uk/",
                &RenderOptions::default().trim_www(true)
            ),
            "https://www.co.uk/"
        );
        // IDN: elided in Unicode, the registrable domain whole.
        assert_eq!(
            show(
                "https://a.b.xn--bcher-kva.example/",
                &RenderOptions::default().host_only(true).max_width(5)
            ),
            "…bücher.example"
        );
        // An IP address has no registrable domain: nothing is elided.
        assert_eq!(
            show(
                "http://192.168.100.200/",
                &RenderOptions::default().host_only(true).max_width(5)
            ),
            "192.168.100.200"
        );
    }

    #[test]
    fn width_cuts_the_path_first() {
        let url = "https://example.com/a/very/long/path?q=1";
        let opts = RenderOptions::default().max_width(26);
        let shown = show(url, &opts);
        assert_eq!(shown, "https://example.com/a/ver…");
        assert_eq!(shown.chars().count(), 26);
        assert_eq!(show(url, &RenderOptions::default().max_width(100)), url);
    }

    #[test]
    fn signals() {
        let s = spoof_signals(&Url::parse("http://192.168.0.1/").unwrap().as_ref_view());
        assert_eq!(s.names(), ["ip-address-host"]);
        let s = spoof_signals(&Url::parse("http://[::1]/").unwrap().as_ref_view());
        assert!(s.ip_address_host);
        // Hebrew host: right-to-left, single script, not confusable.
        let s = spoof_signals(&Url::parse("http://שלום.example/").unwrap().as_ref_view());
        assert_eq!(s.names(), ["bidi-host"]);
        let s = spoof_signals(&Url::parse("http://bücher.example/").unwrap().as_ref_view());
        assert!(!s.any());
        let s = spoof_signals(&Url::parse("https://example.com/").unwrap().as_ref_view());
        assert!(!s.any());
    }
}
