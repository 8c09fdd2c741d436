//! Hosts: parsing (URL Standard §3.5), serializing (§3.6) and IDNA (§3.3).
//!
//! A special URL's host is percent-decoded, run through UTS #46 ToASCII ("domain to
//! ASCII", done by the `idna` crate with the Standard's flags) and then, when it ends in
//! a number, read as an IPv4 address. A non-special URL's host is an opaque host:
//! only checked for forbidden code points and percent-encoded. Either may be an IPv6
//! address in brackets.

mod idna;
mod ipv4;
mod ipv6;
mod punycode;
pub(crate) mod valid;

pub use self::idna::{domain_to_ascii, domain_to_unicode};
pub(crate) use self::ipv4::is_canonical_ipv4;
pub use self::ipv4::{ends_in_a_number, parse_ipv4, serialize_ipv4};
pub use self::ipv6::{parse_ipv6, serialize_ipv6};
pub use self::valid::{
    is_valid_domain_string, is_valid_host_string, is_valid_ipv4_address_string,
    is_valid_ipv6_address_string,
};

use crate::components::HostKind;
use crate::error::{ErrorKind, ParseError};
use crate::output::Output;
use crate::percent;
use crate::validation::{self, Report, Silent, ValidationErrorKind};
use std::fmt;

/// A parsed host (URL Standard §3.1).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    /// A domain, in its ASCII serialization (lower case, Punycode for non-ASCII labels).
    Domain(String),
    /// An IPv4 address.
    Ipv4(u32),
    /// An IPv6 address as eight 16-bit pieces.
    Ipv6([u16; 8]),
    /// An opaque host (non-special URLs), percent-encoded.
    Opaque(String),
    /// The empty host.
    Empty,
}

impl Host {
    /// URL Standard §3.5 host parser. `is_opaque` is true for non-special URLs.
    ///
    /// ```
    /// use rapidurl::host::Host;
    /// assert_eq!(Host::parse("EXAMPLE.com", false).unwrap(), Host::Domain("example.com".into()));
    /// assert_eq!(Host::parse("0x7f.1", false).unwrap(), Host::Ipv4(0x7f000001));
    /// assert_eq!(Host::parse("[::1]", false).unwrap().to_string(), "[::1]");
    /// assert!(Host::parse("exa mple", false).is_err());
    /// ```
    pub fn parse(input: &str, is_opaque: bool) -> Result<Host, ParseError> {
        let mut out = String::new();
        let kind = parse_host_into(input, is_opaque, &mut out)?;
        Ok(match kind {
            HostKind::Ipv4 => Host::Ipv4(parse_ipv4(&out)?),
            HostKind::Ipv6 => Host::Ipv6(parse_ipv6(&out[1..out.len() - 1])?),
            HostKind::Domain => Host::Domain(out),
            HostKind::Opaque => Host::Opaque(out),
            HostKind::Empty | HostKind::None => Host::Empty,
        })
    }
}

impl fmt::Display for Host {
    /// URL Standard §3.6 host serializer.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        match self {
            Host::Domain(s) | Host::Opaque(s) => return f.write_str(s),
            Host::Empty => return Ok(()),
            Host::Ipv4(a) => serialize_ipv4(*a, &mut out),
            Host::Ipv6(a) => {
                out.push('[');
                serialize_ipv6(a, &mut out);
                out.push(']');
            }
        }
        f.write_str(&out)
    }
}

/// A forbidden host code point (§3.2), for ASCII bytes.
#[inline]
pub(crate) const fn is_forbidden_host_byte(b: u8) -> bool {
    matches!(
        b,
        0x00 | b'\t'
            | b'\n'
            | b'\r'
            | b' '
            | b'#'
            | b'/'
            | b':'
            | b'<'
            | b'>'
            | b'?'
            | b'@'
            | b'['
            | b'\\'
            | b']'
            | b'^'
            | b'|'
    )
}

/// Forbidden domain code points (§3.2) among ASCII bytes, as a table.
const FORBIDDEN_DOMAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = is_forbidden_host_byte(b as u8) || b <= 0x1f || b == b'%' as usize || b == 0x7f;
        b += 1;
    }
    t
};

/// What [`domain_flags`] says about a domain's bytes, OR-ed together.
pub(crate) mod flags {
    /// An ASCII upper-case letter (to lower-case).
    pub(crate) const UPPER: u8 = 1;
    /// `%` (the domain is percent-decoded first).
    pub(crate) const PERCENT: u8 = 2;
    /// A byte >= 0x80 (the domain goes through UTS #46).
    pub(crate) const NON_ASCII: u8 = 4;
    /// A forbidden domain code point other than `%`.
    pub(crate) const FORBIDDEN: u8 = 8;
}

/// The [`flags`] of every byte value.
const DOMAIN_FLAGS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = if b >= 0x80 {
            flags::NON_ASCII
        } else if b == b'%' as usize {
            flags::PERCENT
        } else if FORBIDDEN_DOMAIN[b] {
            flags::FORBIDDEN
        } else if (b as u8).is_ascii_uppercase() {
            flags::UPPER
        } else {
            0
        };
        b += 1;
    }
    t
};

/// The [`flags`] of every byte of `b` OR-ed together: one table look-up per byte, eight
/// bytes per step.
#[inline]
pub(crate) fn domain_flags(b: &[u8]) -> u8 {
    let t = &DOMAIN_FLAGS;
    let mut f = 0;
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        f |= crate::percent::or_of_8(t, w);
    }
    for &c in words.remainder() {
        f |= t[c as usize];
    }
    f
}

/// A forbidden domain code point (§3.2), for ASCII bytes (false for bytes >= 0x80).
#[inline]
pub(crate) const fn is_forbidden_domain_byte(b: u8) -> bool {
    FORBIDDEN_DOMAIN[b as usize]
}

/// URL Standard §3.5 host parser, writing the host's serialization (§3.6) to `out`.
///
/// Returns the kind of host written. Error offsets are relative to the start of `input`.
pub(crate) fn parse_host_into<O: Output + ?Sized>(
    input: &str,
    is_opaque: bool,
    out: &mut O,
) -> Result<HostKind, ParseError> {
    parse_host_reporting(input, is_opaque, out, &mut Silent)
}

/// [`parse_host_into`], reporting to `r` the validation errors that are no failures
/// (offsets relative to `input`); a failure's own error is the caller's to report.
pub(crate) fn parse_host_reporting<O: Output + ?Sized, R: Report>(
    input: &str,
    is_opaque: bool,
    out: &mut O,
    r: &mut R,
) -> Result<HostKind, ParseError> {
    let bytes = input.as_bytes();
    // Step 1: IPv6 in brackets.
    if bytes.first() == Some(&b'[') {
        if bytes.last() != Some(&b']') || bytes.len() < 2 {
            return Err(ParseError::at(ErrorKind::Ipv6Unclosed, 0));
        }
        let addr = ipv6::parse_ipv6_reporting(&input[1..input.len() - 1], &mut Shifted(r, 1))
            .map_err(|e| e.shifted(1))?;
        out.push('[');
        ipv6::serialize_ipv6_to(&addr, out);
        out.push(']');
        return Ok(HostKind::Ipv6);
    }
    // Step 2: opaque host.
    if is_opaque {
        let kind = parse_opaque_host_into(input, out)?;
        if R::ENABLED {
            validation::report_url_units_once(r, input, 0);
        }
        return Ok(kind);
    }
    // Steps 4-8: domain, or IPv4.
    let start = out.len();
    let decoded;
    let input_flags = domain_flags(bytes);
    let domain = if input_flags & flags::PERCENT != 0 {
        if R::ENABLED && (0..bytes.len()).any(|i| validation::percent_encoded_byte_at(bytes, i)) {
            r.report(ValidationErrorKind::DomainPercentEncoded, 0);
        }
        decoded = percent::decode_utf8_lossy(input);
        &*decoded
    } else {
        input
    };
    // Domain to ASCII runs strictly first, for its validation error only.
    if R::ENABLED && domain_to_ascii(domain, true).is_err() {
        r.report(ValidationErrorKind::DomainToAscii, 0);
    }
    // Positions in a percent-decoded domain are not the input's: its errors are placed
    // at the host's start.
    let in_input = |e: ParseError| if domain == input { e } else { e.moved_to(0) };
    if input_flags & (flags::PERCENT | flags::NON_ASCII) == 0 {
        // The flags of the input are those of the domain.
        idna::ascii_domain_with_flags_into(domain, input_flags, out)?;
    } else if domain.is_ascii() {
        idna::ascii_domain_into(domain, out).map_err(in_input)?;
    } else {
        idna::domain_to_ascii_into(domain, out).map_err(in_input)?;
    }
    let written = &out.as_str()[start..];
    if !crate::syntax::last_label_is_not_numeric(written.as_bytes()) && ends_in_a_number(written) {
        if !domain.is_ascii() {
            r.report(ValidationErrorKind::Ipv4NonAsciiInput, 0);
        }
        // Part offsets hold in the input only when the domain is the input, lower-cased;
        // else (percent-decoded, or mapped to Punycode, which can make it longer than the
        // input) errors and reports are placed at the host's start.
        let addr = if domain.len() == input.len() && domain.is_ascii() {
            ipv4::parse_ipv4_reporting(&out.as_str()[start..], r)?
        } else {
            ipv4::parse_ipv4_reporting(&out.as_str()[start..], &mut Pinned(r, 0))
                .map_err(|e| e.moved_to(0))?
        };
        out.truncate(start);
        ipv4::serialize_ipv4_to(addr, out);
        return Ok(HostKind::Ipv4);
    }
    Ok(HostKind::Domain)
}

/// A reporter that reports everything at one offset.
pub(crate) struct Pinned<'r, R: Report>(pub(crate) &'r mut R, pub(crate) usize);

impl<R: Report> Report for Pinned<'_, R> {
    const ENABLED: bool = R::ENABLED;
    #[inline(always)]
    fn report(&mut self, kind: ValidationErrorKind, _at: usize) {
        self.0.report(kind, self.1);
    }
}

/// A reporter that adds a fixed offset to every report, for a parser that runs on a slice.
pub(crate) struct Shifted<'r, R: Report>(pub(crate) &'r mut R, pub(crate) usize);

impl<R: Report> Report for Shifted<'_, R> {
    const ENABLED: bool = R::ENABLED;
    #[inline(always)]
    fn report(&mut self, kind: ValidationErrorKind, at: usize) {
        self.0.report(kind, at + self.1);
    }
}

/// The C0 control percent-encode set, stopping at forbidden host code points.
static OPAQUE_HOST: percent::EncodeTable = {
    let mut stops = [0u8; 17];
    let mut n = 0;
    let mut b = 0;
    while b < 128 {
        if is_forbidden_host_byte(b) {
            stops[n] = b;
            n += 1;
        }
        b += 1;
    }
    assert!(n == stops.len(), "17 forbidden host code points");
    percent::EncodeTable::new(&percent::C0_CONTROL, &stops)
};

/// URL Standard §3.5 opaque-host parser, writing the result to `out`.
pub(crate) fn parse_opaque_host_into<O: Output + ?Sized>(
    input: &str,
    out: &mut O,
) -> Result<HostKind, ParseError> {
    if input.is_empty() {
        return Ok(HostKind::Empty);
    }
    // One pass: encoded up to the first forbidden host code point, which fails.
    let start = out.len();
    let end = percent::encode_until(input, 0, &OPAQUE_HOST, out);
    if end < input.len() {
        out.truncate(start);
        return Err(ParseError::at(ErrorKind::HostInvalidCodePoint, end));
    }
    Ok(HostKind::Opaque)
}
