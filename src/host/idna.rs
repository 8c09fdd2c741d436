//! Domain to ASCII and domain to Unicode (URL Standard §3.3), over UTS #46.
//!
//! The Unicode data and the UTS #46 processing come from the `idna` crate (ICU4X data);
//! this module sets the flags the Standard asks for and names the failures.

use crate::error::{ErrorKind, ParseError};
use crate::output::Output;
use idna::uts46::{AsciiDenyList, DnsLength, ErrorPolicy, Hyphens, ProcessingSuccess, Uts46};

/// Domain to ASCII (non-strict) for an ASCII domain: ASCII lower-casing, then the
/// forbidden-domain-code-point check, appended to `out`.
///
/// The Standard text of August 2025 still runs ToASCII on ASCII domains that have an
/// `xn--` label (so `xn--a` fails); the Standard has since changed so that an ASCII
/// domain never fails ToASCII, and the web-platform-tests (mid-2026) expect that:
/// `http://a.b.c.xn--pokxncvks/` parses. We follow the tests; see docs/architecture.md.
pub(crate) fn ascii_domain_into<O: Output + ?Sized>(
    domain: &str,
    out: &mut O,
) -> Result<(), ParseError> {
    ascii_domain_with_flags_into(domain, super::domain_flags(domain.as_bytes()), out)
}

/// [`ascii_domain_into`], given the [`super::domain_flags`] of `domain`: the common case
/// (no forbidden code point, nothing to lower-case) is one copy.
#[inline]
pub(crate) fn ascii_domain_with_flags_into<O: Output + ?Sized>(
    domain: &str,
    flags: u8,
    out: &mut O,
) -> Result<(), ParseError> {
    use super::flags::{FORBIDDEN, PERCENT, UPPER};
    if flags & (FORBIDDEN | PERCENT) != 0
        && let Some(i) = domain.bytes().position(super::is_forbidden_domain_byte)
    {
        return Err(ParseError::at(ErrorKind::DomainInvalidCodePoint, i));
    }
    let start = out.len();
    out.push_str(domain);
    if flags & UPPER != 0 {
        out.make_ascii_lowercase_from(start);
    }
    Ok(())
}

/// URL Standard §3.3 domain to ASCII.
///
/// With `be_strict` false (what URL parsing uses) this is UTS #46 ToASCII with
/// CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off, CheckBidi and CheckJoiners on,
/// nontransitional; an empty result or one holding a forbidden domain code point fails.
/// With `be_strict` true, CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength are on.
///
/// ```
/// use rapidurl::host::domain_to_ascii;
/// assert_eq!(domain_to_ascii("Bücher.example", false).unwrap(), "xn--bcher-kva.example");
/// assert_eq!(domain_to_ascii("☕.example", false).unwrap(), "xn--53h.example");
/// assert!(domain_to_ascii("a..b", true).is_err());
/// assert_eq!(domain_to_ascii("xn--a", true).unwrap_err().name(), "domain-to-ASCII");
/// assert_eq!(domain_to_ascii("a b", false).unwrap_err().name(), "domain-invalid-code-point");
/// ```
pub fn domain_to_ascii(domain: &str, be_strict: bool) -> Result<String, ParseError> {
    if be_strict {
        return Uts46::new()
            .to_ascii(
                domain.as_bytes(),
                AsciiDenyList::STD3,
                Hyphens::Check,
                DnsLength::VerifyAllowRootDot,
            )
            .map(|c| c.into_owned())
            .map_err(|_| ParseError::new(ErrorKind::DomainToAscii));
    }
    let mut out = String::new();
    domain_to_ascii_into(domain, &mut out).map(|()| out)
}

/// An [`Output`] as the `fmt::Write` sink UTS #46 processing writes to.
struct Sink<'o, O: Output + ?Sized>(&'o mut O);

impl<O: Output + ?Sized> std::fmt::Write for Sink<'_, O> {
    #[inline]
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.push_str(s);
        Ok(())
    }
    #[inline]
    fn write_char(&mut self, c: char) -> std::fmt::Result {
        self.0.push(c);
        Ok(())
    }
}

/// [`domain_to_ascii`] with `be_strict` false, appending the result to `out` as UTS #46
/// processing writes it (no string of its own); on failure `out` is left as it was.
pub(crate) fn domain_to_ascii_into<O: Output + ?Sized>(
    domain: &str,
    out: &mut O,
) -> Result<(), ParseError> {
    if domain.is_ascii() {
        let start = out.len();
        ascii_domain_into(domain, out)?;
        return if out.len() == start {
            Err(ParseError::new(ErrorKind::DomainToAscii))
        } else {
            Ok(())
        };
    }
    if common_domain_to_ascii_into(domain, out) {
        return Ok(());
    }
    uts46_domain_to_ascii_into(domain, out)
}

/// [`domain_to_ascii_into`] of a non-ASCII domain through UTS #46 processing (the `idna`
/// crate), whatever its code points.
fn uts46_domain_to_ascii_into<O: Output + ?Sized>(
    domain: &str,
    out: &mut O,
) -> Result<(), ParseError> {
    let uts46 = Uts46::new();
    let start = out.len();
    let result = uts46.process(
        domain.as_bytes(),
        AsciiDenyList::URL,
        Hyphens::Allow,
        ErrorPolicy::FailFast,
        |_, _, _| false,
        &mut Sink(out),
        None,
    );
    match result {
        Ok(ProcessingSuccess::Passthrough) => {
            // The input is the output (ASCII: not reached, the ASCII case returned above).
            out.push_str(domain);
            Ok(())
        }
        Ok(ProcessingSuccess::WroteToSink) if out.len() > start => Ok(()),
        Ok(ProcessingSuccess::WroteToSink) => Err(ParseError::new(ErrorKind::DomainToAscii)),
        Err(_) => {
            out.truncate(start);
            // Name the failure: if ToASCII succeeds without the deny list, the result
            // held a forbidden domain code point (§3.3 step 3.2).
            let without_deny_list = uts46.to_ascii(
                domain.as_bytes(),
                AsciiDenyList::EMPTY,
                Hyphens::Allow,
                DnsLength::Ignore,
            );
            Err(ParseError::new(match without_deny_list {
                Ok(_) => ErrorKind::DomainInvalidCodePoint,
                Err(_) => ErrorKind::DomainToAscii,
            }))
        }
    }
}

/// URL Standard §3.3 domain to Unicode (with beStrict false): UTS #46 ToUnicode.
///
/// Errors are not fatal here: labels that fail are rendered with U+FFFD, as UTS #46 says.
///
/// ```
/// use rapidurl::host::domain_to_unicode;
/// assert_eq!(domain_to_unicode("xn--bcher-kva.example"), "bücher.example");
/// ```
pub fn domain_to_unicode(domain: &str) -> String {
    let (result, _errors) =
        Uts46::new().to_unicode(domain.as_bytes(), AsciiDenyList::EMPTY, Hyphens::Allow);
    result.into_owned()
}

/// The longest label (in code points) [`common_domain_to_ascii_into`] converts itself.
const COMMON_LABEL_MAX: usize = 63;

/// UTS #46 mapping of a non-ASCII code point of the common scripts whose processing is
/// trivial: Latin-1 letters, basic Cyrillic, Hiragana, Katakana and the CJK Unified
/// Ideographs block. Each is valid or maps to one valid code point (upper case to lower
/// case), is its own NFC and never combines with a neighbour under NFC, is neither a
/// combining mark nor a joiner, and has bidi class L (so no label of such a domain makes
/// it a bidi domain name). `None` for everything else. (`tests::common_scripts_match_uts46`
/// checks every code point here against the `idna` crate.)
#[inline]
fn map_common(c: char) -> Option<char> {
    let u = c as u32;
    let mapped = match u {
        0xDF..=0xF6 | 0xF8..=0xFF => u,
        0xC0..=0xD6 | 0xD8..=0xDE => u + 0x20,
        0x430..=0x45F => u,
        0x410..=0x42F => u + 0x20,
        0x400..=0x40F => u + 0x50,
        0x3041..=0x3096 | 0x30A1..=0x30FA | 0x30FC | 0x4E00..=0x9FFF => u,
        _ => return None,
    };
    char::from_u32(mapped)
}

/// Domain to ASCII (as [`domain_to_ascii_into`]) of a domain whose non-ASCII code points
/// all come from [`map_common`]'s scripts, without UTS #46 processing: each label is
/// mapped code point by code point (ASCII lower-cased) and a label with non-ASCII is
/// written as `xn--` and its Punycode. Returns false, with `out` as it was, for anything
/// else: another code point, a forbidden domain code point, a label that starts with
/// `xn--` (UTS #46 decodes and checks it) or is longer than [`COMMON_LABEL_MAX`]. The
/// checks UTS #46 makes cannot fail on what is left (valid code points in NFC, no
/// combining mark, no joiner, no right-to-left code point).
fn common_domain_to_ascii_into<O: Output + ?Sized>(domain: &str, out: &mut O) -> bool {
    let start = out.len();
    let mut label = ['\0'; COMMON_LABEL_MAX];
    // The labels, split at each `.` with a byte loop (labels are short: `str::split`'s
    // searcher costs more in its set-up than this).
    let b = domain.as_bytes();
    let mut from = 0;
    while from <= b.len() {
        let to = b[from..]
            .iter()
            .position(|&c| c == b'.')
            .map_or(b.len(), |i| from + i);
        // `.` is ASCII: both ends are char boundaries.
        let text = &domain[from..to];
        if from > 0 {
            out.push('.');
        }
        from = to + 1;
        if text.is_ascii() {
            let b = text.as_bytes();
            if b.iter().any(|&c| super::is_forbidden_domain_byte(c))
                || (b.len() >= 4 && b[..4].eq_ignore_ascii_case(b"xn--"))
            {
                out.truncate(start);
                return false;
            }
            let at = out.len();
            out.push_str(text);
            out.make_ascii_lowercase_from(at);
            continue;
        }
        let mut n = 0;
        for c in text.chars() {
            let mapped = if c.is_ascii() {
                if super::is_forbidden_domain_byte(c as u8) {
                    None
                } else {
                    Some(c.to_ascii_lowercase())
                }
            } else {
                map_common(c)
            };
            match mapped {
                Some(m) if n < COMMON_LABEL_MAX => {
                    label[n] = m;
                    n += 1;
                }
                _ => {
                    out.truncate(start);
                    return false;
                }
            }
        }
        if label[..n.min(4)] == ['x', 'n', '-', '-'] {
            out.truncate(start);
            return false;
        }
        out.push_str("xn--");
        if !punycode_encode_into(&label[..n], out) {
            out.truncate(start);
            return false;
        }
    }
    true
}

/// RFC 3492 Punycode encoding of `label`, appended to `out`; false on overflow (which a
/// label of at most [`COMMON_LABEL_MAX`] code points cannot reach).
fn punycode_encode_into<O: Output + ?Sized>(label: &[char], out: &mut O) -> bool {
    super::punycode::encode(label, |c| out.push(c)).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The UTS #46 path's answer (Ok(serialization) or the error's name).
    fn uts46(domain: &str) -> Result<String, &'static str> {
        let mut out = String::new();
        uts46_domain_to_ascii_into(domain, &mut out)
            .map(|()| out)
            .map_err(|e| e.name())
    }

    /// The shortcut's answer, `None` when it declines; it must leave `out` as it was then.
    fn common(domain: &str) -> Option<String> {
        let mut out = String::from("prefix");
        if common_domain_to_ascii_into(domain, &mut out) {
            Some(out["prefix".len()..].to_owned())
        } else {
            assert_eq!(out, "prefix", "{domain:?}: declined but wrote");
            None
        }
    }

    fn common_ranges() -> impl Iterator<Item = char> {
        [
            0xC0..=0xFF,
            0x400..=0x45F,
            0x3041..=0x3096,
            0x30A1..=0x30FC,
            0x4E00..=0x9FFF,
        ]
        .into_iter()
        .flatten()
        .filter_map(char::from_u32)
    }

    #[test]
    fn common_scripts_match_uts46() {
        let mut accepted = 0;
        for c in common_ranges() {
            for d in [
                format!("{c}"),
                format!("a{c}b.example"),
                format!("{c}{c}-x.{c}"),
                format!("EX.{c}Z9."),
                format!("{c}..a"),
            ] {
                if let Some(got) = common(&d) {
                    assert_eq!(Ok(got), uts46(&d), "{d:?} (U+{:04X})", c as u32);
                    accepted += 1;
                }
            }
        }
        // Every code point map_common takes is accepted in each of the five shapes.
        let taken = common_ranges().filter(|&c| map_common(c).is_some()).count();
        assert_eq!(accepted, 5 * taken);
        assert!(taken > 21_000, "{taken}");
    }

    #[test]
    fn common_pairs_match_uts46() {
        // Every ordered pair of the small scripts (and a stride through the ideographs):
        // NFC never joins two of them, and Punycode's deltas grow with the label.
        let small: Vec<char> = common_ranges()
            .filter(|&c| (c as u32) < 0x4E00 && map_common(c).is_some())
            .chain((0x4E00..=0x9FFF).step_by(997).filter_map(char::from_u32))
            .collect();
        for &a in &small {
            for &b in &small {
                let d = format!("{a}{b}.{b}x{a}");
                assert_eq!(common(&d).ok_or("declined"), uts46(&d), "{d:?}");
            }
        }
    }

    #[test]
    fn common_declines_what_uts46_must_decide() {
        for d in [
            "ﬁle.example",      // mapped to two code points
            "e\u{301}.example", // a combining mark (NFC composes it)
            "xn--nxasmq6b.ü",   // an ASCII xn-- label is decoded and checked
            "XN--ü.example",    // a label starting with xn-- after mapping
            "ü.a b",            // a forbidden domain code point
            "ü%.example",
            "\u{5d0}.ü",  // right to left
            "a\u{200d}ü", // a joiner
        ] {
            assert_eq!(common(d), None, "{d:?}");
        }
        let long = "ü".repeat(COMMON_LABEL_MAX + 1);
        assert_eq!(common(&long), None);
        let longest = "ü".repeat(COMMON_LABEL_MAX);
        assert_eq!(common(&longest).ok_or("declined"), uts46(&longest));
    }

    #[test]
    fn common_examples() {
        for (d, want) in [
            ("bücher.example", "xn--bcher-kva.example"),
            ("Café.Example.COM", "xn--caf-dma.example.com"),
            ("españa.example.es", "xn--espaa-rta.example.es"),
            ("straße.example", "xn--strae-oqa.example"),
            ("MÜNCHEN.example.de", "xn--mnchen-3ya.example.de"),
            ("пример.рф", "xn--e1afmkfd.xn--p1ai"),
            ("日本語.example", "xn--wgv71a119e.example"),
        ] {
            assert_eq!(common(d).as_deref(), Some(want), "{d:?}");
        }
    }

    #[test]
    fn punycode_matches_rfc_3492_encoder() {
        for label in ["ü", "bücher", "ñandú", "日本語", "abcー", "ÿà-é", "ßßßßß"] {
            let chars: Vec<char> = label.chars().collect();
            let mut out = String::new();
            assert!(punycode_encode_into(&chars, &mut out));
            assert_eq!(Some(out), idna::punycode::encode_str(label), "{label:?}");
        }
    }
}
