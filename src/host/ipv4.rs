//! IPv4 addresses: URL Standard §3.5 (the ends in a number checker, the IPv4 parser and the
//! IPv4 number parser) and §3.6 (the IPv4 serializer).
//!
//! The parsers work on bytes and never allocate. Numbers of any length are accepted in
//! linear time: values are clamped at `CAP` (2^32), which is already out of range for
//! every part, so no arithmetic can overflow.

use crate::error::{ErrorKind, ParseError};
use crate::output::Output;
use crate::percent::push_decimal;
use crate::validation::{Report, Silent, ValidationErrorKind};

/// Clamp for IPv4 number values. Every limit the IPv4 parser compares against is at most
/// 256^4 = 2^32, so a value clamped to 2^32 fails exactly where the true value would.
const CAP: u64 = 1 << 32;

/// URL Standard §3.5 ends in a number checker.
///
/// Returns true when the last label of `input` (ignoring a single trailing empty label) is
/// non-empty and made only of ASCII digits, or parses as an IPv4 number (e.g. `"0x"`,
/// `"0x1f"`).
pub fn ends_in_a_number(input: &str) -> bool {
    let bytes = input.as_bytes();
    // Step 1: strictly split on "." (done lazily: only the last one or two parts matter).
    // Step 2: if the last part is empty, then if it is the only part return false,
    // otherwise drop it.
    let body = match bytes.split_last() {
        // The only part is the empty string.
        None => return false,
        Some((b'.', rest)) => rest,
        Some(_) => bytes,
    };
    // Step 3: last is the last part of what remains.
    let last = match body.iter().rposition(|&b| b == b'.') {
        Some(dot) => &body[dot + 1..],
        None => body,
    };
    // Step 4: non-empty and only ASCII digits.
    if !last.is_empty() && last.iter().all(u8::is_ascii_digit) {
        return true;
    }
    // Step 5: parses as an IPv4 number. Step 6: otherwise false.
    parse_ipv4_number(last).is_some()
}

/// Whether `host` is an IPv4 address in its own serialization (§3.6): four decimal numbers
/// of 0 to 255 without leading zeros, joined by `.` — what the host parser turns into the
/// same bytes. (The fast path takes such hosts as they are.)
#[inline]
pub(crate) fn is_canonical_ipv4(host: &[u8]) -> bool {
    let mut parts = 0;
    let mut i = 0;
    let n = host.len();
    while i < n {
        let start = i;
        let mut value = 0u32;
        while i < n && host[i].is_ascii_digit() && i - start < 3 {
            value = value * 10 + u32::from(host[i] - b'0');
            i += 1;
        }
        let len = i - start;
        if len == 0 || value > 255 || (len > 1 && host[start] == b'0') {
            return false;
        }
        parts += 1;
        if i == n {
            break;
        }
        if host[i] != b'.' || parts == 4 || i + 1 == n {
            return false;
        }
        i += 1;
    }
    parts == 4
}

/// URL Standard §3.5 IPv4 parser. `input` is an ASCII domain (already through domain to
/// ASCII).
///
/// Failure kinds: `Ipv4TooManyParts`, `Ipv4NonNumericPart`, `Ipv4OutOfRangePart`. Error
/// offsets are byte offsets relative to the start of `input`: the start of the fifth part
/// for too many parts, and the start of the offending part otherwise.
pub fn parse_ipv4(input: &str) -> Result<u32, ParseError> {
    parse_ipv4_reporting(input, &mut Silent)
}

/// [`parse_ipv4`], reporting the validation errors that are not failures to `r` (offsets
/// relative to `input`); a failure's own error is the caller's to report.
pub(crate) fn parse_ipv4_reporting<R: Report>(input: &str, r: &mut R) -> Result<u32, ParseError> {
    let bytes = input.as_bytes();
    // Step 1: parts is the strict split of input on ".".
    // Step 2: if the last part is empty (IPv4-empty-part validation error, not a failure)
    // and there is more than one part, remove it. With more than one part the last one is
    // empty exactly when input ends in "."; with one part (input is empty) nothing is
    // removed and the empty part fails in step 5.
    let body = match bytes.split_last() {
        Some((b'.', rest)) => {
            r.report(ValidationErrorKind::Ipv4EmptyPart, bytes.len() - 1);
            rest
        }
        _ => bytes,
    };

    // Step 3: more than four parts is IPv4-too-many-parts, failure.
    let mut dots = 0usize;
    for (i, &b) in body.iter().enumerate() {
        if b == b'.' {
            dots += 1;
            if dots == 4 {
                return Err(ParseError::at(ErrorKind::Ipv4TooManyParts, i + 1));
            }
        }
    }
    let count = dots + 1; // 1..=4
    if count < 4 {
        r.report(ValidationErrorKind::Ipv4TooFewParts, 0);
    }

    // Step 4: numbers, with each part's start offset for error reporting.
    let mut numbers = [0u64; 4];
    let mut starts = [0usize; 4];
    // Step 5: parse each part as an IPv4 number; failure is IPv4-non-numeric-part.
    // (A non-decimal part is only a validation error, step 5.3.)
    let mut start = 0usize;
    for (index, part) in body.split(|&b| b == b'.').enumerate() {
        let (value, non_decimal) =
            parse_ipv4_number(part).ok_or(ParseError::at(ErrorKind::Ipv4NonNumericPart, start))?;
        if non_decimal {
            r.report(ValidationErrorKind::Ipv4NonDecimalPart, start);
        }
        // `index < count <= 4`: step 3 returned on a fourth dot.
        numbers[index] = value;
        starts[index] = start;
        start += part.len() + 1;
    }
    let (numbers, starts) = (&numbers[..count], &starts[..count]);
    let (&last, init) = numbers
        .split_last()
        .expect("count >= 1 because splitting yields at least one part");
    let last_start = starts[count - 1];

    // Step 6 is the IPv4-out-of-range-part validation error for any item over 255.
    if R::ENABLED
        && let Some(i) = numbers.iter().position(|&n| n > 255)
    {
        r.report(ValidationErrorKind::Ipv4OutOfRangePart, starts[i]);
    }
    // Step 7: any but the last item greater than 255 is failure.
    for (&n, &s) in init.iter().zip(starts) {
        if n > 255 {
            return Err(ParseError::at(ErrorKind::Ipv4OutOfRangePart, s));
        }
    }
    // Step 8: the last item must be below 256^(5 - count).
    let limit = 1u64 << (8 * (5 - count));
    if last >= limit {
        return Err(ParseError::at(ErrorKind::Ipv4OutOfRangePart, last_start));
    }

    // Steps 9-12: ipv4 is the last item plus each other item n times 256^(3 - counter).
    let mut ipv4 = last;
    for (counter, &n) in init.iter().enumerate() {
        ipv4 += n << (8 * (3 - counter));
    }
    // Step 13.
    Ok(u32::try_from(ipv4).expect("ipv4 < 2^32 because steps 7 and 8 bound every item"))
}

/// URL Standard §3.5 IPv4 number parser, on bytes.
///
/// Returns `None` for failure, or the value (clamped at [`CAP`]) and whether the number was
/// written in a non-decimal radix (the IPv4-non-decimal-part validation error).
fn parse_ipv4_number(input: &[u8]) -> Option<(u64, bool)> {
    // Step 1: the empty string is failure.
    if input.is_empty() {
        return None;
    }
    // Steps 2-5: a "0x"/"0X" prefix means radix 16, otherwise a leading "0" (with at least
    // one more code point) means radix 8.
    let (digits, radix, validation_error) = match input {
        [b'0', b'x' | b'X', rest @ ..] => (rest, 16u32, true),
        [b'0', rest @ ..] if !rest.is_empty() => (rest, 8u32, true),
        _ => (input, 10u32, false),
    };
    // Step 6: nothing left after the prefix is zero.
    if digits.is_empty() {
        return Some((0, true));
    }
    // Steps 7-8: every code point must be a radix-R digit; the value saturates at CAP.
    let mut output = 0u64;
    for &b in digits {
        let digit = char::from(b).to_digit(radix)?;
        output = (output * u64::from(radix) + u64::from(digit)).min(CAP);
    }
    // Step 9.
    Some((output, validation_error))
}

/// URL Standard §3.6 IPv4 serializer: appends dotted decimal to `out`.
pub fn serialize_ipv4(addr: u32, out: &mut String) {
    serialize_ipv4_to(addr, out)
}

/// [`serialize_ipv4`] for any [`Output`].
pub(crate) fn serialize_ipv4_to<O: Output + ?Sized>(addr: u32, out: &mut O) {
    // The Standard prepends n % 256 four times while dividing n by 256; appending the
    // bytes from most to least significant gives the same string.
    for (i, byte) in addr.to_be_bytes().into_iter().enumerate() {
        if i != 0 {
            out.push('.');
        }
        push_decimal(out, u32::from(byte));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ser(addr: u32) -> String {
        let mut s = String::new();
        serialize_ipv4(addr, &mut s);
        s
    }

    fn kind(input: &str) -> ErrorKind {
        parse_ipv4(input).expect_err(input).kind()
    }

    /// Runs the host parser's steps 7-8 as far as IPv4 is concerned: `Some` if the input
    /// ends in a number (and then the IPv4 parser's result), `None` if it is a domain.
    fn host(input: &str) -> Option<Result<String, ErrorKind>> {
        ends_in_a_number(input).then(|| parse_ipv4(input).map(ser).map_err(|e| e.kind()))
    }

    #[test]
    fn ends_in_a_number_basic() {
        assert!(ends_in_a_number("0"));
        assert!(ends_in_a_number("1.2.3.4"));
        assert!(ends_in_a_number("1.2.3.4."));
        assert!(ends_in_a_number("example.255"));
        assert!(ends_in_a_number("09"));
        assert!(ends_in_a_number("test.09"));
        assert!(ends_in_a_number("0x"));
        assert!(ends_in_a_number("0X"));
        assert!(ends_in_a_number("0x1f"));
        assert!(ends_in_a_number("foo.0x1F."));
        assert!(ends_in_a_number("1.2.3.4.5"));
        assert!(ends_in_a_number("test.42"));
        assert!(ends_in_a_number("0xffffffff"));
    }

    #[test]
    fn ends_in_a_number_false() {
        assert!(!ends_in_a_number(""));
        assert!(!ends_in_a_number("."));
        assert!(!ends_in_a_number(".."));
        assert!(!ends_in_a_number("1.."));
        assert!(!ends_in_a_number("example.com"));
        assert!(!ends_in_a_number("example.com."));
        assert!(!ends_in_a_number("1.2.3.4a"));
        assert!(!ends_in_a_number("0x1g"));
        assert!(!ends_in_a_number("x"));
        assert!(!ends_in_a_number("1.x"));
        assert!(!ends_in_a_number("1.0y"));
        assert!(!ends_in_a_number("1.-1"));
        assert!(!ends_in_a_number("1.+1"));
    }

    #[test]
    fn spec_host_parsing_table() {
        // "0" -> 0.0.0.0
        assert_eq!(host("0"), Some(Ok("0.0.0.0".into())));
        // "0xffffffff" -> 255.255.255.255
        assert_eq!(host("0xffffffff"), Some(Ok("255.255.255.255".into())));
        // "09" -> failure
        assert_eq!(host("09"), Some(Err(ErrorKind::Ipv4NonNumericPart)));
        // "example.255" ends in a number, so it fails to parse as IPv4 (non-numeric part).
        assert_eq!(
            host("example.255"),
            Some(Err(ErrorKind::Ipv4NonNumericPart))
        );
        // "0x" ends in a number and is the IPv4 number 0.
        assert_eq!(host("0x"), Some(Ok("0.0.0.0".into())));
    }

    #[test]
    fn spec_validation_error_examples() {
        // IPv4-empty-part: not a failure.
        assert_eq!(host("127.0.0.1."), Some(Ok("127.0.0.1".into())));
        // IPv4-too-many-parts.
        assert_eq!(host("1.2.3.4.5"), Some(Err(ErrorKind::Ipv4TooManyParts)));
        // IPv4-non-numeric-part.
        assert_eq!(host("test.42"), Some(Err(ErrorKind::Ipv4NonNumericPart)));
        // IPv4-non-decimal-part: not a failure.
        assert_eq!(host("127.0.0x0.1"), Some(Ok("127.0.0.1".into())));
        // IPv4-out-of-range-part.
        assert_eq!(
            host("255.255.4000.1"),
            Some(Err(ErrorKind::Ipv4OutOfRangePart))
        );
    }

    #[test]
    fn parse_forms() {
        assert_eq!(parse_ipv4("0x7F.1"), Ok(0x7F00_0001));
        assert_eq!(parse_ipv4("127.0.0.1"), Ok(0x7F00_0001));
        assert_eq!(parse_ipv4("127.1"), Ok(0x7F00_0001));
        assert_eq!(parse_ipv4("127.0.1"), Ok(0x7F00_0001));
        assert_eq!(parse_ipv4("2130706433"), Ok(0x7F00_0001));
        assert_eq!(parse_ipv4("017700000001"), Ok(0x7F00_0001));
        assert_eq!(parse_ipv4("0177.0.0.01"), Ok(0x7F00_0001));
        assert_eq!(parse_ipv4("0X7f.0x0.0.0x1"), Ok(0x7F00_0001));
        assert_eq!(parse_ipv4("0x.0x.0x.0x"), Ok(0));
        assert_eq!(parse_ipv4("0.0.0.0"), Ok(0));
        assert_eq!(parse_ipv4("00"), Ok(0));
        assert_eq!(
            parse_ipv4("0x100.0"),
            Err(ParseError::at(ErrorKind::Ipv4OutOfRangePart, 0))
        );
        assert_eq!(parse_ipv4("1.0x"), Ok(0x0100_0000));
        assert_eq!(parse_ipv4("255.255.255.255"), Ok(u32::MAX));
        assert_eq!(parse_ipv4("4294967295"), Ok(u32::MAX));
        assert_eq!(parse_ipv4("037777777777"), Ok(u32::MAX));
        assert_eq!(parse_ipv4("1.16777215"), Ok(0x01FF_FFFF));
        assert_eq!(parse_ipv4("1.2.65535"), Ok(0x0102_FFFF));
        assert_eq!(parse_ipv4("1.2.3.255"), Ok(0x0102_03FF));
        assert_eq!(parse_ipv4("1.2.3.4."), Ok(0x0102_0304));
    }

    #[test]
    fn last_part_ranges() {
        assert_eq!(kind("4294967296"), ErrorKind::Ipv4OutOfRangePart);
        assert_eq!(kind("0x100000000"), ErrorKind::Ipv4OutOfRangePart);
        assert_eq!(kind("1.16777216"), ErrorKind::Ipv4OutOfRangePart);
        assert_eq!(kind("1.2.65536"), ErrorKind::Ipv4OutOfRangePart);
        assert_eq!(kind("1.2.3.256"), ErrorKind::Ipv4OutOfRangePart);
        assert_eq!(kind("256.1"), ErrorKind::Ipv4OutOfRangePart);
        assert_eq!(kind("1.256.1.1"), ErrorKind::Ipv4OutOfRangePart);
        assert_eq!(
            kind("99999999999999999999999"),
            ErrorKind::Ipv4OutOfRangePart
        );
        assert_eq!(
            parse_ipv4("1.2.99999999999999999999999"),
            Err(ParseError::at(ErrorKind::Ipv4OutOfRangePart, 4))
        );
    }

    #[test]
    fn failures_and_step_order() {
        assert_eq!(
            parse_ipv4(""),
            Err(ParseError::at(ErrorKind::Ipv4NonNumericPart, 0))
        );
        assert_eq!(kind("."), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(kind("1..2"), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(kind(".1"), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(kind("08"), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(kind("0x1g"), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(kind("1.0xx"), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(kind("-1"), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(kind("+1"), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(kind("1.2.3.4 "), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(
            parse_ipv4("1.2.x.4"),
            Err(ParseError::at(ErrorKind::Ipv4NonNumericPart, 4))
        );
        // Too many parts is checked before any part is parsed (step 3).
        assert_eq!(
            parse_ipv4("x.y.z.w.v"),
            Err(ParseError::at(ErrorKind::Ipv4TooManyParts, 8))
        );
        assert_eq!(kind("1.2.3.4.5."), ErrorKind::Ipv4TooManyParts);
        // A trailing empty part does not count, but a second one does.
        assert_eq!(kind("1.2.3.4.."), ErrorKind::Ipv4TooManyParts);
        assert_eq!(kind("1.2.3.."), ErrorKind::Ipv4NonNumericPart);
        // Every part is parsed (step 5) before ranges are checked (step 7).
        assert_eq!(kind("256.x.1"), ErrorKind::Ipv4NonNumericPart);
    }

    #[test]
    fn huge_digit_runs() {
        let zeros = "0".repeat(100_000);
        assert_eq!(parse_ipv4(&format!("0x{zeros}")), Ok(0));
        assert_eq!(parse_ipv4(&format!("0X{zeros}1")), Ok(1));
        assert_eq!(parse_ipv4(&zeros), Ok(0));
        assert_eq!(parse_ipv4(&format!("1.2.3.{zeros}")), Ok(0x0102_0300));
        assert!(ends_in_a_number(&format!("0x{zeros}")));
        let nines = "9".repeat(100_000);
        assert_eq!(kind(&nines), ErrorKind::Ipv4OutOfRangePart);
        assert_eq!(
            kind(&format!("0x{}", "f".repeat(100_000))),
            ErrorKind::Ipv4OutOfRangePart
        );
        assert_eq!(
            kind(&format!("0{}", "7".repeat(100_000))),
            ErrorKind::Ipv4OutOfRangePart
        );
        let dots = ".".repeat(100_000);
        assert_eq!(kind(&dots), ErrorKind::Ipv4TooManyParts);
        assert!(!ends_in_a_number(&dots));
    }

    #[test]
    fn non_ascii_does_not_panic() {
        assert_eq!(kind("é"), ErrorKind::Ipv4NonNumericPart);
        assert_eq!(kind("1.é"), ErrorKind::Ipv4NonNumericPart);
        assert!(!ends_in_a_number("1.é"));
        assert!(ends_in_a_number("é.1"));
    }

    #[test]
    fn canonical_ipv4_is_its_own_serialization() {
        // Against the host parser: canonical exactly when the host parses as IPv4 and
        // serializes to the same bytes, over every short string of digits and dots and a
        // few other shapes.
        let mut inputs: Vec<String> = vec![
            "1.2.3.4".into(),
            "255.255.255.255".into(),
            "0.0.0.0".into(),
            "256.1.1.1".into(),
            "1.2.3.4.".into(),
            "01.2.3.4".into(),
            "1.2.3.04".into(),
            "0x1.2.3.4".into(),
            "1.2.3".into(),
            "1.2.3.4.5".into(),
            "1..3.4".into(),
            "1.2.3.1000".into(),
            "1234.2.3.4".into(),
            "".into(),
        ];
        let alphabet = ['1', '0', '.', '2', '5'];
        for len in 1..=8 {
            let mut idx = vec![0usize; len];
            loop {
                inputs.push(idx.iter().map(|&i| alphabet[i]).collect());
                let mut k = 0;
                while k < len && idx[k] == alphabet.len() - 1 {
                    idx[k] = 0;
                    k += 1;
                }
                if k == len {
                    break;
                }
                idx[k] += 1;
            }
        }
        let mut canonical = 0;
        for input in &inputs {
            let parsed = if ends_in_a_number(input) {
                parse_ipv4(input).ok().map(ser)
            } else {
                None
            };
            let want = parsed.as_deref() == Some(input.as_str());
            assert_eq!(is_canonical_ipv4(input.as_bytes()), want, "{input:?}");
            canonical += want as usize;
        }
        assert!(canonical > 100, "{canonical}");
    }

    #[test]
    fn serialize() {
        assert_eq!(ser(0), "0.0.0.0");
        assert_eq!(ser(u32::MAX), "255.255.255.255");
        assert_eq!(ser(0x7F00_0001), "127.0.0.1");
        assert_eq!(ser(0xC0A8_000A), "192.168.0.10");
        assert_eq!(ser(0x0A64_0963), "10.100.9.99");
        let mut s = String::from("x=");
        serialize_ipv4(0x0102_0304, &mut s);
        assert_eq!(s, "x=1.2.3.4");
    }
}
