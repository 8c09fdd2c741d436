//! Valid host strings (URL Standard §3.4): which host strings a writer of URLs should
//! produce. The host parser accepts far more; these answer the stricter question.

use super::{domain_to_ascii, ends_in_a_number};

/// A valid host string (§3.4): a valid domain string, a valid IPv4-address string, or
/// `[`, a valid IPv6-address string, `]`.
pub fn is_valid_host_string(input: &str) -> bool {
    is_valid_domain_string(input) || is_valid_ipv4_address_string(input) || bracketed_ipv6(input)
}

/// A valid domain string (§3.4): domain to ASCII with beStrict true succeeds (UTS #46
/// with CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength), and the result does not end
/// in a number (so that it cannot be read as an IPv4 address).
pub fn is_valid_domain_string(input: &str) -> bool {
    domain_to_ascii(input, true).is_ok_and(|ascii| !ends_in_a_number(&ascii))
}

/// A valid IPv4-address string (§3.4): four decimal numbers 0–255 in their shortest form
/// (no leading zero), separated by `.`.
pub fn is_valid_ipv4_address_string(input: &str) -> bool {
    let mut parts = 0;
    input.split('.').all(|part| {
        parts += 1;
        !part.is_empty()
            && part.len() <= 3
            && part.bytes().all(|b| b.is_ascii_digit())
            && !(part.len() > 1 && part.starts_with('0'))
            && part.parse::<u16>().is_ok_and(|n| n <= 255)
    }) && parts == 4
}

/// A valid IPv6-address string (RFC 4291 §2.2, as §3.4 refers to it): eight pieces of one
/// to four hex digits without a leading zero, or fewer with one `::`, the last two pieces
/// optionally written as a valid IPv4-address string.
pub fn is_valid_ipv6_address_string(input: &str) -> bool {
    if full_width(input) == Some(8) {
        return true;
    }
    // Compressed: one `::`, at most seven pieces around it.
    let Some(at) = input.find("::") else {
        return false;
    };
    if input[at + 1..].contains("::") {
        return false;
    }
    let (before, after) = (&input[..at], &input[at + 2..]);
    let before = if before.is_empty() {
        Some(0)
    } else {
        ipv6_pieces_width(before)
    };
    let after = if after.is_empty() {
        Some(0)
    } else {
        full_width(after)
    };
    matches!((before, after), (Some(b), Some(a)) if a + b <= 7)
}

/// How many 16-bit pieces `s` stands for when it is IPv6 pieces, optionally followed by
/// (or made of) an IPv4 address; `None` when it is neither.
fn full_width(s: &str) -> Option<usize> {
    if let Some(w) = ipv6_pieces_width(s) {
        return Some(w);
    }
    if is_valid_ipv4_address_string(s) {
        return Some(2);
    }
    let (pieces, ipv4) = s.rsplit_once(':')?;
    if is_valid_ipv4_address_string(ipv4) {
        return ipv6_pieces_width(pieces).map(|w| w + 2);
    }
    None
}

/// The number of pieces in `s` when it is one or more valid IPv6 pieces separated by `:`.
fn ipv6_pieces_width(s: &str) -> Option<usize> {
    let mut width = 0;
    s.split(':')
        .all(|piece| {
            width += 1;
            (1..=4).contains(&piece.len())
                && piece.bytes().all(|b| b.is_ascii_hexdigit())
                && (piece.len() == 1 || !piece.starts_with('0'))
        })
        .then_some(width)
}

/// `[`, a valid IPv6-address string, `]`.
pub(crate) fn bracketed_ipv6(input: &str) -> bool {
    input
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .is_some_and(is_valid_ipv6_address_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_strings() {
        assert!(is_valid_ipv4_address_string("255.255.255.255"));
        assert!(!is_valid_ipv4_address_string("256.1.1.1"));
        assert!(!is_valid_ipv4_address_string("1.2.3"));
        assert!(!is_valid_ipv4_address_string("1.2.3.4.5"));
        assert!(is_valid_ipv6_address_string("1:2:3:4:5:6:7:8"));
        assert!(is_valid_ipv6_address_string("::"));
        assert!(is_valid_ipv6_address_string("::ffff:127.0.0.1"));
        assert!(is_valid_ipv6_address_string("1:2:3:4:5:6:1.2.3.4"));
        assert!(!is_valid_ipv6_address_string("1:2:3:4:5:6:7:8:9"));
        assert!(!is_valid_ipv6_address_string("1::2::3"));
        assert!(!is_valid_ipv6_address_string("1:2:3:4:5:6:7::8"));
        assert!(is_valid_domain_string("bücher.example"));
        assert!(!is_valid_domain_string("xn--a"));
    }
}
