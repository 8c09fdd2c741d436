//! Percent-encoding in a legacy encoding: URL Standard §1.3 "percent-encode after encoding".
//!
//! The URL parser (for a URL's query, when given an encoding override) and the
//! application/x-www-form-urlencoded serializer (§5.2) first encode a string into the
//! bytes of some encoding — UTF-8 almost always, but a document's legacy encoding such as
//! windows-1252 or Shift_JIS in browsers — and then percent-encode those bytes. A code
//! point the encoding cannot represent becomes the HTML numeric character reference
//! `&#NNNN;`, itself percent-encoded as `%26%23NNNN%3B`.
//!
//! Encodings come from the [`encoding_rs`] crate; [`Encoding`] is re-exported here so that
//! callers can name the type. Look one up by its label with [`Encoding::for_label`].

use crate::output::Output;
use crate::percent::{AsciiSet, push_decimal, push_encoded_bytes};
use encoding_rs::{EncoderResult, UTF_8};

pub use encoding_rs::Encoding;

/// Size of the stack buffer that a legacy encoder writes into before its bytes are
/// percent-encoded into the output string.
const CHUNK: usize = 512;

/// Percent-encode after encoding (URL Standard §1.3): encodes `input` in `encoding`,
/// percent-encodes every resulting byte that is in `set` (every byte ≥ 0x80 is), writes
/// 0x20 as `+` if `space_as_plus`, and appends the result to `out`.
///
/// A code point that `encoding` cannot represent is written as `%26%23`, the code point in
/// decimal, and `%3B` (a percent-encoded `&#NNNN;`). This cannot happen with UTF-8.
///
/// `encoding` is first replaced by its *output encoding* (Encoding Standard "get an output
/// encoding"): UTF-16BE, UTF-16LE and replacement become UTF-8. UTF-8 takes a fast path
/// that does not use an encoder at all. A stateful encoding (ISO-2022-JP) is encoded as one
/// stream, escape sequences included, as the Standard requires. Nothing is allocated apart
/// from growing `out`.
///
/// ```
/// use rapidurl::encoding::{percent_encode_after_encoding, Encoding};
/// use rapidurl::percent::{FORM_URLENCODED, QUERY};
///
/// let mut out = String::new();
/// percent_encode_after_encoding(encoding_rs::UTF_8, "a b‽", &FORM_URLENCODED, true, &mut out);
/// assert_eq!(out, "a+b%E2%80%BD");
///
/// // The §1.3 example: "‽" in Shift_JIS has no mapping.
/// let shift_jis = Encoding::for_label(b"shift_jis").unwrap();
/// out.clear();
/// percent_encode_after_encoding(shift_jis, " ‽", &QUERY, false, &mut out);
/// assert_eq!(out, "%20%26%238253%3B");
/// ```
pub fn percent_encode_after_encoding(
    encoding: &'static Encoding,
    input: &str,
    set: &AsciiSet,
    space_as_plus: bool,
    out: &mut String,
) {
    percent_encode_after_encoding_to(encoding, input, set, space_as_plus, out)
}

/// [`percent_encode_after_encoding`] for any [`Output`].
pub(crate) fn percent_encode_after_encoding_to<O: Output + ?Sized>(
    encoding: &'static Encoding,
    input: &str,
    set: &AsciiSet,
    space_as_plus: bool,
    out: &mut O,
) {
    let encoding = encoding.output_encoding();
    if encoding == UTF_8 {
        push_encoded_bytes(input.as_bytes(), set, space_as_plus, out);
        return;
    }
    // In an ASCII-compatible encoding every ASCII code point is the byte of the same value
    // and cannot fail, so an ASCII prefix needs no encoder. (ISO-2022-JP, the only other
    // output encoding, is not ASCII-compatible: it maps U+001B to an error, for one.)
    let mut rest = input;
    if encoding.is_ascii_compatible() {
        let ascii = input
            .bytes()
            .position(|b| !b.is_ascii())
            .unwrap_or(input.len());
        push_encoded_bytes(&input.as_bytes()[..ascii], set, space_as_plus, out);
        rest = &input[ascii..];
        if rest.is_empty() {
            return;
        }
    }
    let mut encoder = encoding.new_encoder();
    let mut buffer = [0u8; CHUNK];
    loop {
        // `last` is true: this is the whole stream, so a stateful encoder ends it by
        // returning to its initial state (ISO-2022-JP's ESC ( B).
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(rest, &mut buffer, true);
        push_encoded_bytes(&buffer[..written], set, space_as_plus, out);
        rest = &rest[read..];
        match result {
            EncoderResult::InputEmpty => return,
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) => push_unmappable(c, out),
        }
    }
}

/// Appends `%26%23`, `c` as a decimal number, and `%3B` to `out` (a percent-encoded HTML
/// numeric character reference, §1.3 step 5.4).
fn push_unmappable<O: Output + ?Sized>(c: char, out: &mut O) {
    out.push_str("%26%23");
    push_decimal(out, u32::from(c));
    out.push_str("%3B");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::percent::{FORM_URLENCODED, QUERY, SPECIAL_QUERY, USERINFO};

    fn enc(label: &str, input: &str, set: &AsciiSet, space_as_plus: bool) -> String {
        let encoding = Encoding::for_label(label.as_bytes()).expect("known label");
        let mut out = String::new();
        percent_encode_after_encoding(encoding, input, set, space_as_plus, &mut out);
        out
    }

    #[test]
    fn standard_examples() {
        // §1.3 example table: percent-encode after encoding.
        assert_eq!(enc("shift_jis", " ", &USERINFO, false), "%20");
        assert_eq!(enc("shift_jis", "≡", &USERINFO, false), "%81%DF");
        assert_eq!(enc("shift_jis", "‽", &USERINFO, false), "%26%238253%3B");
        // The Standard's table gives "%1B(J\%1B(B" for "¥" in ISO-2022-JP with the userinfo
        // set, but 0x5C (\) is in that set, so the algorithm gives %5C; whatwg/url PR #896
        // fixed the example by switching it to the special-query set, where \ is kept.
        assert_eq!(enc("iso-2022-jp", "¥", &USERINFO, false), "%1B(J%5C%1B(B");
        assert_eq!(
            enc("iso-2022-jp", "¥", &SPECIAL_QUERY, false),
            "%1B(J\\%1B(B"
        );
        assert_eq!(
            enc("shift_jis", "1+1 ≡ 2%20‽", &USERINFO, true),
            "1+1+%81%DF+2%20%26%238253%3B"
        );
        // UTF-8 percent-encode examples.
        assert_eq!(enc("utf-8", "≡", &USERINFO, false), "%E2%89%A1");
        assert_eq!(enc("utf-8", "‽", &USERINFO, false), "%E2%80%BD");
        assert_eq!(
            enc("utf-8", "Say what‽", &USERINFO, false),
            "Say%20what%E2%80%BD"
        );
    }

    #[test]
    fn wpt_percent_encoding_cases() {
        // From WPT url/resources/percent-encoding.json (URL query, special-query set; none of
        // these inputs contains "'", so the query set gives the same result).
        let cases: &[(&str, &str, &str)] = &[
            ("\u{2020}", "big5", "%26%238224%3B"),
            ("\u{2020}", "euc-kr", "%A2%D3"),
            ("\u{2020}", "utf-8", "%E2%80%A0"),
            ("\u{2020}", "windows-1252", "%86"),
            ("\u{000E}A", "big5", "%0EA"),
            ("\u{000E}A", "iso-2022-jp", "%26%2365533%3BA"),
            ("\u{000E}A", "utf-8", "%0EA"),
            ("\u{203E}\u{005C}", "iso-2022-jp", "%1B(J~%1B(B\\"),
            ("\u{203E}\u{005C}", "utf-8", "%E2%80%BE\\"),
            ("\u{E5E5}", "gb18030", "%26%2358853%3B"),
            ("\u{E5E5}", "utf-8", "%EE%97%A5"),
            ("\u{2212}", "shift_jis", "%81|"),
            ("\u{2212}", "utf-8", "%E2%88%92"),
            ("\u{00A2}", "iso-8859-2", "%26%23162%3B"),
            ("\u{00A2}", "utf-8", "%C2%A2"),
            ("á|", "utf-8", "%C3%A1|"),
        ];
        for &(input, label, expected) in cases {
            assert_eq!(
                enc(label, input, &QUERY, false),
                expected,
                "{input:?} in {label}"
            );
        }
    }

    #[test]
    fn output_encoding_replaces_utf16_and_replacement() {
        // UTF-16BE/LE and replacement encode as UTF-8.
        for label in ["utf-16le", "utf-16be", "iso-2022-kr"] {
            assert_eq!(
                enc(label, "é ", &FORM_URLENCODED, true),
                "%C3%A9+",
                "{label}"
            );
        }
    }

    #[test]
    fn windows_1252() {
        assert_eq!(enc("windows-1252", "é", &FORM_URLENCODED, true), "%E9");
        assert_eq!(
            enc("windows-1252", "a b~é", &FORM_URLENCODED, true),
            "a+b%7E%E9"
        );
        // U+0100 is not in windows-1252.
        assert_eq!(
            enc("windows-1252", "xĀy", &FORM_URLENCODED, true),
            "x%26%23256%3By"
        );
        // A code point above U+FFFF: 😀 is U+1F600 = 128512.
        assert_eq!(enc("windows-1252", "😀", &QUERY, false), "%26%23128512%3B");
    }

    #[test]
    fn iso_2022_jp_is_one_stream() {
        // Two Roman-set characters in a row need only one escape into and out of Roman.
        assert_eq!(enc("iso-2022-jp", "¥¥", &QUERY, false), "%1B(J\\\\%1B(B");
        // An unmappable character in the Roman state: the Encoding Standard's ISO-2022-JP
        // encoder returns the error without leaving Roman, so the reference is written in
        // Roman and the stream ends with ESC ( B.
        assert_eq!(
            enc("iso-2022-jp", "¥‽", &QUERY, false),
            "%1B(J\\%26%238253%3B%1B(B"
        );
        // In the JIS X 0208 state it first returns to ASCII (ESC ( B), then the error.
        // ≡ is JIS X 0208 0x2261 (Shift_JIS 0x81DF), and 0x22 is in the query set.
        assert_eq!(
            enc("iso-2022-jp", "≡‽", &QUERY, false),
            "%1B$B%22a%1B(B%26%238253%3B"
        );
        // ESC is an error in ISO-2022-JP: reported as U+FFFD.
        assert_eq!(
            enc("iso-2022-jp", "\u{1B}", &QUERY, false),
            "%26%2365533%3B"
        );
        assert_eq!(enc("iso-2022-jp", "", &QUERY, false), "");
    }

    #[test]
    fn long_inputs_cross_chunk_boundaries() {
        let input = "é".repeat(3 * CHUNK) + "‽";
        let expected = "%E9".repeat(3 * CHUNK) + "%26%238253%3B";
        assert_eq!(
            enc("windows-1252", &input, &FORM_URLENCODED, true),
            expected
        );
        let input = "¥".repeat(2 * CHUNK);
        let expected = format!("%1B(J{}%1B(B", "\\".repeat(2 * CHUNK));
        assert_eq!(enc("iso-2022-jp", &input, &QUERY, false), expected);
    }

    #[test]
    fn utf8_fast_path() {
        assert_eq!(enc("utf-8", "", &FORM_URLENCODED, true), "");
        assert_eq!(enc("utf-8", "abc", &FORM_URLENCODED, true), "abc");
        assert_eq!(enc("utf-8", " ", &FORM_URLENCODED, false), "%20");
        assert_eq!(enc("utf-8", " ", &FORM_URLENCODED, true), "+");
        assert_eq!(enc("utf-8", "a b", &QUERY, true), "a+b");
        assert_eq!(enc("utf-8", "*-._~!", &FORM_URLENCODED, true), "*-._%7E%21");
        assert_eq!(enc("utf-8", "😀", &FORM_URLENCODED, true), "%F0%9F%98%80");
    }
}
