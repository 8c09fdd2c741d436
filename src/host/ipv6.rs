//! IPv6 addresses: URL Standard §3.5 (the IPv6 parser) and §3.6 (the IPv6 serializer and
//! finding the IPv6 address compressed piece index).
//!
//! The parser works on the bytes of its input and never allocates. Non-ASCII bytes are never
//! hex digits, digits, `:` or `.`, so they meet the same failures a non-ASCII code point
//! would; error offsets are byte offsets relative to the start of the input.

use crate::error::{ErrorKind, ParseError};
use crate::output::Output;

/// URL Standard §3.5 IPv6 parser; `input` is the text between `[` and `]`.
///
/// Failure kinds: `Ipv6InvalidCompression`, `Ipv6TooManyPieces`, `Ipv6MultipleCompression`,
/// `Ipv6InvalidCodePoint`, `Ipv6TooFewPieces`, `Ipv4InIpv6TooManyPieces`,
/// `Ipv4InIpv6InvalidCodePoint`, `Ipv4InIpv6OutOfRangePart`, `Ipv4InIpv6TooFewParts`. The error
/// offset is the pointer (a byte offset into `input`) where the failure was found.
pub fn parse_ipv6(input: &str) -> Result<[u16; 8], ParseError> {
    let bytes = input.as_bytes();
    // c: the code point at pointer, or None for the EOF code point.
    let c = |pointer: usize| bytes.get(pointer).copied();
    let fail = |kind: ErrorKind, pointer: usize| Err(ParseError::at(kind, pointer));

    // Step 1: address with all pieces 0.
    let mut address = [0u16; 8];
    // Step 2.
    let mut piece_index = 0usize;
    // Step 3.
    let mut compress: Option<usize> = None;
    // Step 4.
    let mut pointer = 0usize;

    // Step 5: a leading ":" must be followed by another one.
    if c(pointer) == Some(b':') {
        // Step 5.1.
        if c(pointer + 1) != Some(b':') {
            return fail(ErrorKind::Ipv6InvalidCompression, pointer);
        }
        // Step 5.2.
        pointer += 2;
        // Step 5.3.
        piece_index += 1;
        compress = Some(piece_index);
    }

    // Step 6: while c is not EOF.
    while c(pointer).is_some() {
        // Step 6.1.
        if piece_index == 8 {
            return fail(ErrorKind::Ipv6TooManyPieces, pointer);
        }
        // Step 6.2.
        if c(pointer) == Some(b':') {
            // Step 6.2.1.
            if compress.is_some() {
                return fail(ErrorKind::Ipv6MultipleCompression, pointer);
            }
            // Step 6.2.2.
            pointer += 1;
            piece_index += 1;
            compress = Some(piece_index);
            continue;
        }
        // Step 6.3.
        let mut value = 0u16;
        let mut length = 0usize;
        // Step 6.4: at most four hex digits (which fit in a u16).
        while length < 4 {
            let Some(digit) = c(pointer).and_then(hex_digit) else {
                break;
            };
            value = value * 0x10 + digit;
            pointer += 1;
            length += 1;
        }
        match c(pointer) {
            // Step 6.5: an embedded IPv4 address, which ends the input.
            Some(b'.') => {
                // Step 6.5.1.
                if length == 0 {
                    return fail(ErrorKind::Ipv4InIpv6InvalidCodePoint, pointer);
                }
                // Step 6.5.2.
                pointer -= length;
                pointer = embedded_ipv4(bytes, pointer, &mut piece_index, &mut address)?;
                // Step 6.5.7.
                break;
            }
            // Step 6.6.
            Some(b':') => {
                // Step 6.6.1.
                pointer += 1;
                // Step 6.6.2.
                if c(pointer).is_none() {
                    return fail(ErrorKind::Ipv6InvalidCodePoint, pointer);
                }
            }
            // Step 6.7.
            Some(_) => return fail(ErrorKind::Ipv6InvalidCodePoint, pointer),
            None => {}
        }
        // Step 6.8 (`piece_index < 8`: step 6.1).
        address[piece_index] = value;
        // Step 6.9.
        piece_index += 1;
    }

    match compress {
        // Step 7.
        Some(compress) => move_compressed_pieces(&mut address, compress, piece_index),
        // Step 8.
        None if piece_index != 8 => return fail(ErrorKind::Ipv6TooFewPieces, pointer),
        None => {}
    }
    // Step 9.
    Ok(address)
}

/// The value of an ASCII hex digit.
#[inline]
fn hex_digit(b: u8) -> Option<u16> {
    char::from(b).to_digit(16).map(|d| d as u16)
}

/// Steps 6.5.3 to 6.5.6 of the IPv6 parser: the embedded IPv4 address at `pointer`,
/// written into two pieces from `piece_index`. Returns the pointer after it.
fn embedded_ipv4(
    bytes: &[u8],
    mut pointer: usize,
    piece_index: &mut usize,
    address: &mut [u16; 8],
) -> Result<usize, ParseError> {
    let c = |pointer: usize| bytes.get(pointer).copied();
    let fail = |kind: ErrorKind, pointer: usize| Err(ParseError::at(kind, pointer));
    // Step 6.5.3.
    if *piece_index > 6 {
        return fail(ErrorKind::Ipv4InIpv6TooManyPieces, pointer);
    }
    // Step 6.5.4.
    let mut numbers_seen = 0usize;
    // Step 6.5.5.
    while let Some(ch) = c(pointer) {
        // Step 6.5.5.2.
        if numbers_seen > 0 {
            if ch == b'.' && numbers_seen < 4 {
                pointer += 1;
            } else {
                return fail(ErrorKind::Ipv4InIpv6InvalidCodePoint, pointer);
            }
        }
        // Step 6.5.5.3: a digit is required, so ipv4Piece (step 6.5.5.1) is set below.
        if !c(pointer).is_some_and(|b| b.is_ascii_digit()) {
            return fail(ErrorKind::Ipv4InIpv6InvalidCodePoint, pointer);
        }
        let mut ipv4_piece: Option<u16> = None;
        // Step 6.5.5.4.
        while let Some(d) = c(pointer).filter(u8::is_ascii_digit) {
            // Step 6.5.5.4.1.
            let number = u16::from(d - b'0');
            // Step 6.5.5.4.2.
            ipv4_piece = match ipv4_piece {
                None => Some(number),
                Some(0) => return fail(ErrorKind::Ipv4InIpv6InvalidCodePoint, pointer),
                Some(piece) => Some(piece * 10 + number),
            };
            // Step 6.5.5.4.3: the piece stays at most 255 here, so the multiplication
            // above cannot overflow.
            if ipv4_piece.is_some_and(|piece| piece > 255) {
                return fail(ErrorKind::Ipv4InIpv6OutOfRangePart, pointer);
            }
            // Step 6.5.5.4.4.
            pointer += 1;
        }
        let ipv4_piece = ipv4_piece.expect("step 6.5.5.3 saw a digit, so the loop set it");
        // Step 6.5.5.5. `piece_index <= 7`: it starts at most at 6 (step 6.5.3) and grows
        // once per two numbers, at most four of which get here.
        let old = address[*piece_index];
        address[*piece_index] = old.wrapping_mul(0x100).wrapping_add(ipv4_piece);
        // Step 6.5.5.6.
        numbers_seen += 1;
        // Step 6.5.5.7.
        if numbers_seen == 2 || numbers_seen == 4 {
            *piece_index += 1;
        }
    }
    // Step 6.5.6.
    if numbers_seen != 4 {
        return fail(ErrorKind::Ipv4InIpv6TooFewParts, pointer);
    }
    Ok(pointer)
}

/// Step 7 of the IPv6 parser: moves the pieces written after the compression (from
/// `compress` to `piece_index`) to the end of the address.
fn move_compressed_pieces(address: &mut [u16; 8], compress: usize, piece_index: usize) {
    // Step 7.1.
    let mut swaps = piece_index.saturating_sub(compress);
    // Step 7.2.
    let mut piece_index = 7usize;
    // Step 7.3. Here compress + swaps - 1 is the old piece_index - 1, at most 7.
    while piece_index != 0 && swaps > 0 {
        address.swap(piece_index, compress + swaps - 1);
        piece_index -= 1;
        swaps -= 1;
    }
}

/// URL Standard §3.6 find the IPv6 address compressed piece index: the start of the first
/// longest run of at least two zero pieces, if any.
fn compressed_piece_index(address: &[u16; 8]) -> Option<usize> {
    // Steps 1-4.
    let mut longest_index = None;
    let mut longest_size = 1usize;
    let mut found_index = None;
    let mut found_size = 0usize;
    // Step 5.
    for (piece_index, &piece) in address.iter().enumerate() {
        if piece != 0 {
            // Step 5.1.
            if found_size > longest_size {
                longest_index = found_index;
                longest_size = found_size;
            }
            found_index = None;
            found_size = 0;
        } else {
            // Step 5.2.
            if found_index.is_none() {
                found_index = Some(piece_index);
            }
            found_size += 1;
        }
    }
    // Step 6.
    if found_size > longest_size {
        return found_index;
    }
    // Step 7.
    longest_index
}

/// URL Standard §3.6 IPv6 serializer, without brackets, appended to `out`.
///
/// The first longest run of two or more zero pieces is compressed to `::`; pieces are
/// written as the shortest lowercase hexadecimal number.
pub fn serialize_ipv6(addr: &[u16; 8], out: &mut String) {
    serialize_ipv6_to(addr, out)
}

/// [`serialize_ipv6`] for any [`Output`].
pub(crate) fn serialize_ipv6_to<O: Output + ?Sized>(addr: &[u16; 8], out: &mut O) {
    // Steps 1-2.
    let compress = compressed_piece_index(addr);
    // Step 3.
    let mut ignore0 = false;
    // Step 4.
    for (piece_index, &piece) in addr.iter().enumerate() {
        // Step 4.1.
        if ignore0 && piece == 0 {
            continue;
        }
        // Step 4.2.
        ignore0 = false;
        // Step 4.3.
        if compress == Some(piece_index) {
            out.push_str(if piece_index == 0 { "::" } else { ":" });
            ignore0 = true;
            continue;
        }
        // Step 4.4.
        push_hex_u16(piece, out);
        // Step 4.5.
        if piece_index != 7 {
            out.push(':');
        }
    }
}

/// Appends the shortest lowercase hexadecimal form of `n` to `out`.
fn push_hex_u16<O: Output + ?Sized>(n: u16, out: &mut O) {
    const HEX_LOWER: &[u8; 16] = b"0123456789abcdef";
    let mut started = false;
    for shift in [12u32, 8, 4, 0] {
        let nibble = usize::from((n >> shift) & 0xF);
        if nibble != 0 || started || shift == 0 {
            started = true;
            out.push(char::from(HEX_LOWER[nibble]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ser(addr: [u16; 8]) -> String {
        let mut s = String::new();
        serialize_ipv6(&addr, &mut s);
        s
    }

    fn kind(input: &str) -> ErrorKind {
        parse_ipv6(input).expect_err(input).kind()
    }

    /// Parse then serialize, as the host parser and serializer do (without brackets).
    fn round(input: &str) -> String {
        ser(parse_ipv6(input).expect(input))
    }

    #[test]
    fn spec_host_parsing_table() {
        // "[0:0::1]" -> "[::1]"
        assert_eq!(round("0:0::1"), "::1");
        // "[0:0::%31]" -> failure
        assert_eq!(kind("0:0::%31"), ErrorKind::Ipv6InvalidCodePoint);
        // "[0:0::1%5D" is IPv6-unclosed in the host parser; the inner text "0:0::1%5"
        // fails here too.
        assert_eq!(kind("0:0::1%5"), ErrorKind::Ipv6InvalidCodePoint);
    }

    #[test]
    fn spec_validation_error_examples() {
        assert_eq!(
            parse_ipv6(":1"),
            Err(ParseError::at(ErrorKind::Ipv6InvalidCompression, 0))
        );
        assert_eq!(
            parse_ipv6("1:2:3:4:5:6:7:8:9"),
            Err(ParseError::at(ErrorKind::Ipv6TooManyPieces, 16))
        );
        assert_eq!(
            parse_ipv6("1::1::1"),
            Err(ParseError::at(ErrorKind::Ipv6MultipleCompression, 5))
        );
        assert_eq!(
            parse_ipv6("1:2:3!:4"),
            Err(ParseError::at(ErrorKind::Ipv6InvalidCodePoint, 5))
        );
        assert_eq!(
            parse_ipv6("1:2:3:"),
            Err(ParseError::at(ErrorKind::Ipv6InvalidCodePoint, 6))
        );
        assert_eq!(kind("1:2:3"), ErrorKind::Ipv6TooFewPieces);
        assert_eq!(
            kind("1:1:1:1:1:1:1:127.0.0.1"),
            ErrorKind::Ipv4InIpv6TooManyPieces
        );
        assert_eq!(kind("ffff::.0.0.1"), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(
            kind("ffff::127.0.xyz.1"),
            ErrorKind::Ipv4InIpv6InvalidCodePoint
        );
        assert_eq!(
            kind("ffff::127.0xyz"),
            ErrorKind::Ipv4InIpv6InvalidCodePoint
        );
        assert_eq!(
            kind("ffff::127.00.0.1"),
            ErrorKind::Ipv4InIpv6InvalidCodePoint
        );
        assert_eq!(
            kind("ffff::127.0.0.1.2"),
            ErrorKind::Ipv4InIpv6InvalidCodePoint
        );
        assert_eq!(
            kind("ffff::127.0.0.4000"),
            ErrorKind::Ipv4InIpv6OutOfRangePart
        );
        assert_eq!(kind("ffff::127.0.0"), ErrorKind::Ipv4InIpv6TooFewParts);
    }

    #[test]
    fn spec_compressed_piece_index_example() {
        // "In 0:f:0:0:f:f:0:0 it would point to the second 0."
        let addr = [0, 0xf, 0, 0, 0xf, 0xf, 0, 0];
        assert_eq!(compressed_piece_index(&addr), Some(2));
        assert_eq!(ser(addr), "0:f::f:f:0:0");
    }

    #[test]
    fn parse_valid() {
        assert_eq!(parse_ipv6("::"), Ok([0; 8]));
        assert_eq!(parse_ipv6("::1"), Ok([0, 0, 0, 0, 0, 0, 0, 1]));
        assert_eq!(parse_ipv6("1::"), Ok([1, 0, 0, 0, 0, 0, 0, 0]));
        assert_eq!(parse_ipv6("1::2"), Ok([1, 0, 0, 0, 0, 0, 0, 2]));
        assert_eq!(parse_ipv6("1:2:3:4:5:6:7:8"), Ok([1, 2, 3, 4, 5, 6, 7, 8]));
        assert_eq!(parse_ipv6("1:2:3:4:5:6:7::"), Ok([1, 2, 3, 4, 5, 6, 7, 0]));
        assert_eq!(parse_ipv6("::2:3:4:5:6:7:8"), Ok([0, 2, 3, 4, 5, 6, 7, 8]));
        assert_eq!(parse_ipv6("1:2:3:4::5:6:7"), Ok([1, 2, 3, 4, 0, 5, 6, 7]));
        assert_eq!(
            parse_ipv6("ABCD:ef01:0:00:000:0000:FfFf:a"),
            Ok([0xabcd, 0xef01, 0, 0, 0, 0, 0xffff, 0xa])
        );
        assert_eq!(
            parse_ipv6("::ffff:192.168.0.1"),
            Ok([0, 0, 0, 0, 0, 0xffff, 0xc0a8, 0x0001])
        );
        assert_eq!(
            parse_ipv6("::1.2.3.4"),
            Ok([0, 0, 0, 0, 0, 0, 0x0102, 0x0304])
        );
        assert_eq!(parse_ipv6("::0.0.0.0"), Ok([0; 8]));
        assert_eq!(
            parse_ipv6("1:2:3:4:5:6:255.255.255.255"),
            Ok([1, 2, 3, 4, 5, 6, 0xffff, 0xffff])
        );
        assert_eq!(
            parse_ipv6("1::5:6:7.8.9.10"),
            Ok([1, 0, 0, 0, 5, 6, 0x0708, 0x090a])
        );
        // The hex digits before "." are reread as decimal.
        assert_eq!(
            parse_ipv6("::10.0.0.1"),
            Ok([0, 0, 0, 0, 0, 0, 0x0a00, 0x0001])
        );
    }

    #[test]
    fn parse_failures() {
        assert_eq!(
            parse_ipv6(""),
            Err(ParseError::at(ErrorKind::Ipv6TooFewPieces, 0))
        );
        assert_eq!(kind(":"), ErrorKind::Ipv6InvalidCompression);
        assert_eq!(kind(":::"), ErrorKind::Ipv6MultipleCompression);
        assert_eq!(kind("1:::2"), ErrorKind::Ipv6MultipleCompression);
        assert_eq!(kind("1::2::3"), ErrorKind::Ipv6MultipleCompression);
        assert_eq!(kind("::1::"), ErrorKind::Ipv6MultipleCompression);
        assert_eq!(kind("1:2:3:4:5:6:7"), ErrorKind::Ipv6TooFewPieces);
        assert_eq!(kind("1"), ErrorKind::Ipv6TooFewPieces);
        assert_eq!(kind("1:2:3:4:5:6:7:8:"), ErrorKind::Ipv6InvalidCodePoint);
        assert_eq!(kind("1:2:3:4:5:6:7:8::"), ErrorKind::Ipv6TooManyPieces);
        assert_eq!(kind("1:2:3:4:5:6:7:8::1"), ErrorKind::Ipv6TooManyPieces);
        assert_eq!(kind("::1:2:3:4:5:6:7:8"), ErrorKind::Ipv6TooManyPieces);
        assert_eq!(kind("12345::"), ErrorKind::Ipv6InvalidCodePoint);
        assert_eq!(kind("g::"), ErrorKind::Ipv6InvalidCodePoint);
        assert_eq!(kind("::g"), ErrorKind::Ipv6InvalidCodePoint);
        assert_eq!(kind("::1 "), ErrorKind::Ipv6InvalidCodePoint);
        assert_eq!(kind("[::1]"), ErrorKind::Ipv6InvalidCodePoint);
        assert_eq!(kind("::é"), ErrorKind::Ipv6InvalidCodePoint);
        assert_eq!(kind("é"), ErrorKind::Ipv6InvalidCodePoint);
    }

    #[test]
    fn parse_ipv4_in_ipv6_failures() {
        assert_eq!(kind("::1.2.3"), ErrorKind::Ipv4InIpv6TooFewParts);
        assert_eq!(kind("::1.2.3.256"), ErrorKind::Ipv4InIpv6OutOfRangePart);
        assert_eq!(kind("::1.2.3.4.5"), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(kind("::01.2.3.4"), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(kind("::1.2.3.04"), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(kind("::1.2.3."), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(kind("::1..2.3"), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(kind("::1.2.3.4:"), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(kind("::1.2.3.4x"), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(kind("::a.2.3.4"), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(kind("::1.2.3.1000"), ErrorKind::Ipv4InIpv6OutOfRangePart);
        assert_eq!(kind("::.1.2.3"), ErrorKind::Ipv4InIpv6InvalidCodePoint);
        assert_eq!(
            kind("1:2:3:4:5:6:7:1.2.3.4"),
            ErrorKind::Ipv4InIpv6TooManyPieces
        );
        // Six pieces plus an IPv4 address is full; a compression can no longer fit it.
        assert_eq!(kind("1:2:3:4:5:6:7::1.2.3.4"), ErrorKind::Ipv6TooManyPieces);
        assert_eq!(kind("1.2.3.4"), ErrorKind::Ipv6TooFewPieces);
        assert_eq!(
            parse_ipv6("::1.2.3.256"),
            Err(ParseError::at(ErrorKind::Ipv4InIpv6OutOfRangePart, 10))
        );
    }

    #[test]
    fn huge_inputs() {
        let digits = "1".repeat(100_000);
        assert_eq!(kind(&digits), ErrorKind::Ipv6InvalidCodePoint);
        assert_eq!(
            kind(&format!("::{digits}")),
            ErrorKind::Ipv6InvalidCodePoint
        );
        let colons = ":".repeat(100_000);
        assert_eq!(kind(&colons), ErrorKind::Ipv6MultipleCompression);
        assert_eq!(
            kind(&format!("::1.2.3.{digits}")),
            ErrorKind::Ipv4InIpv6OutOfRangePart
        );
        let zeros = "0".repeat(100_000);
        assert_eq!(
            kind(&format!("::1.2.3.{zeros}")),
            ErrorKind::Ipv4InIpv6InvalidCodePoint
        );
        let many = "1:".repeat(50_000);
        assert_eq!(kind(&many), ErrorKind::Ipv6TooManyPieces);
    }

    #[test]
    fn serialize() {
        assert_eq!(ser([0; 8]), "::");
        assert_eq!(ser([0, 0, 0, 0, 0, 0, 0, 1]), "::1");
        assert_eq!(ser([1, 0, 0, 0, 0, 0, 0, 0]), "1::");
        assert_eq!(ser([1, 2, 3, 4, 5, 6, 7, 8]), "1:2:3:4:5:6:7:8");
        // A single zero piece is not compressed.
        assert_eq!(ser([1, 0, 3, 4, 5, 6, 7, 8]), "1:0:3:4:5:6:7:8");
        assert_eq!(ser([1, 2, 3, 4, 5, 6, 7, 0]), "1:2:3:4:5:6:7:0");
        assert_eq!(ser([0, 2, 3, 4, 5, 6, 7, 8]), "0:2:3:4:5:6:7:8");
        // The longer run wins; on a tie the first one does.
        assert_eq!(ser([1, 0, 0, 2, 0, 0, 0, 3]), "1:0:0:2::3");
        assert_eq!(ser([1, 0, 0, 2, 0, 0, 3, 4]), "1::2:0:0:3:4");
        assert_eq!(ser([0, 0, 1, 0, 0, 2, 0, 0]), "::1:0:0:2:0:0");
        assert_eq!(ser([1, 0, 0, 0, 0, 0, 0, 2]), "1::2");
        assert_eq!(ser([0, 0, 0, 0, 0, 0xffff, 0xc0a8, 1]), "::ffff:c0a8:1");
        assert_eq!(
            ser([0xabcd, 0x0ef0, 0x00f0, 0x000f, 0x1000, 0x0100, 0x0010, 0]),
            "abcd:ef0:f0:f:1000:100:10:0"
        );
        let mut s = String::from("[");
        serialize_ipv6(&[0, 0, 0, 0, 0, 0, 0, 1], &mut s);
        s.push(']');
        assert_eq!(s, "[::1]");
    }

    #[test]
    fn round_trips() {
        assert_eq!(round("::"), "::");
        assert_eq!(round("::1"), "::1");
        assert_eq!(round("1::"), "1::");
        assert_eq!(round("1:0:0:2:0:0:0:3"), "1:0:0:2::3");
        assert_eq!(round("1:0:0:2:0:0:3:4"), "1::2:0:0:3:4");
        assert_eq!(round("::ffff:192.168.0.1"), "::ffff:c0a8:1");
        assert_eq!(round("0000:0000:0000:0000:0000:0000:0000:0001"), "::1");
        assert_eq!(
            round("FEDC:BA98:7654:3210:FEDC:BA98:7654:3210"),
            "fedc:ba98:7654:3210:fedc:ba98:7654:3210"
        );
        assert_eq!(round("1:2:3:4:5:6:0.0.0.0"), "1:2:3:4:5:6::");
    }
}
