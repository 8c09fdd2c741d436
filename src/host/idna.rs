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
    if flags & (FORBIDDEN | PERCENT) != 0 {
        if let Some(i) = domain.bytes().position(super::is_forbidden_domain_byte) {
            return Err(ParseError::at(ErrorKind::DomainInvalidCodePoint, i));
        }
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
