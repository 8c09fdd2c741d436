//! The application/x-www-form-urlencoded format, URL Standard §5.
//!
//! A list of name-value pairs, written `name=value&name=value`, with `+` for a space and
//! everything but ASCII alphanumerics and `*-._` percent-encoded. [`parse`] is the parser
//! (§5.1, and via [`parse_str`] the string parser of §5.3), [`serialize_utf8`] the
//! serializer (§5.2; `serialize` in a legacy encoding, with the feature `encoding`).
//! [`SearchParams`](crate::SearchParams) (§6.2) is built on them.
//!
//! ```
//! use rapidurl::form;
//!
//! let pairs = form::parse(b"q=caf%C3%A9+au+lait&empty&=x");
//! let expected = [("q", "café au lait"), ("empty", ""), ("", "x")];
//! assert!(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())).eq(expected));
//!
//! let text = form::serialize_utf8(pairs.iter().map(|(n, v)| (n, v)));
//! assert_eq!(text, "q=caf%C3%A9+au+lait&empty=&=x");
//! ```

#[cfg(feature = "encoding")]
use crate::encoding::{Encoding, percent_encode_after_encoding};
use crate::percent::{self, FORM_URLENCODED, hex_value};
use std::borrow::Cow;
use std::fmt;

/// The application/x-www-form-urlencoded parser (URL Standard §5.1).
///
/// Splits `input` on `&`, skipping empty pieces; splits each piece into a name and a value
/// at its first `=` (no `=`: the value is empty); replaces `+` by a space; percent-decodes;
/// and decodes the bytes as UTF-8 without BOM, replacing invalid sequences with U+FFFD. A
/// leading byte order mark is kept as U+FEFF.
///
/// ```
/// use rapidurl::form::parse;
///
/// let pairs = parse(b"a=1&&b=%zz+%41&c=d=e&%FF");
/// let expected = [("a", "1"), ("b", "%zz A"), ("c", "d=e"), ("\u{FFFD}", "")];
/// assert!(pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())).eq(expected));
/// ```
pub fn parse(input: &[u8]) -> Vec<(String, String)> {
    let mut output = Vec::new();
    for bytes in input.split(|&b| b == b'&') {
        if bytes.is_empty() {
            continue;
        }
        let (name, value) = match bytes.iter().position(|&b| b == b'=') {
            Some(eq) => (&bytes[..eq], &bytes[eq + 1..]),
            None => (bytes, &[][..]),
        };
        output.push((decode_component(name), decode_component(value)));
    }
    output
}

/// The application/x-www-form-urlencoded string parser (URL Standard §5.3): [`parse`] on
/// the UTF-8 bytes of `input`.
///
/// ```
/// let pairs = rapidurl::form::parse_str("a+b=%E2%80%BD");
/// assert_eq!(pairs, vec![("a b".to_string(), "‽".to_string())]);
/// ```
pub fn parse_str(input: &str) -> Vec<(String, String)> {
    parse(input.as_bytes())
}

/// The name-value pairs of an application/x-www-form-urlencoded string (§5.1), borrowed:
/// each name and value is an [`Encoded`] slice of the input, decoded only when asked.
/// The same pairs as [`parse`], without allocating.
///
/// ```
/// let mut pairs = rapidurl::form::pairs("q=caf%C3%A9+au+lait&&flag&=x");
/// let (name, value) = pairs.next().unwrap();
/// assert_eq!((name.raw(), value.raw()), ("q", "caf%C3%A9+au+lait"));
/// assert_eq!(value.decode(), "café au lait");
/// assert!(name.decodes_to("q") && value.decodes_to("café au lait"));
/// let rest: Vec<(String, String)> =
///     pairs.map(|(n, v)| (n.decode().into_owned(), v.decode().into_owned())).collect();
/// assert_eq!(rest, [("flag".to_owned(), "".to_owned()), ("".to_owned(), "x".to_owned())]);
/// ```
pub fn pairs(input: &str) -> Pairs<'_> {
    Pairs::new(input)
}

/// The iterator of [`pairs`] (and of `query_pairs` on URLs).
#[derive(Clone, Debug)]
pub struct Pairs<'a> {
    rest: &'a str,
}

impl<'a> Pairs<'a> {
    /// The pairs of `input` (see [`pairs`]).
    pub fn new(input: &'a str) -> Pairs<'a> {
        Pairs { rest: input }
    }
}

impl<'a> Iterator for Pairs<'a> {
    type Item = (Encoded<'a>, Encoded<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.rest.is_empty() {
                return None;
            }
            let (piece, rest) = match memchr::memchr(b'&', self.rest.as_bytes()) {
                Some(i) => (&self.rest[..i], &self.rest[i + 1..]),
                None => (self.rest, ""),
            };
            self.rest = rest;
            if piece.is_empty() {
                continue;
            }
            let (name, value) = piece.split_once('=').unwrap_or((piece, ""));
            return Some((Encoded(name), Encoded(value)));
        }
    }
}

impl std::iter::FusedIterator for Pairs<'_> {}

/// A name or value of an application/x-www-form-urlencoded string as written (`+` for a
/// space, percent-encoded bytes), decoded when asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Encoded<'a>(&'a str);

impl<'a> Encoded<'a> {
    /// The text as written.
    pub fn raw(&self) -> &'a str {
        self.0
    }

    /// The decoded text (§5.1 steps 3.4–3.5): `+` as a space, percent-decoded, UTF-8
    /// decoded with U+FFFD for invalid sequences. Borrowed when there is nothing to
    /// decode.
    pub fn decode(&self) -> Cow<'a, str> {
        if !self.0.bytes().any(|b| b == b'+' || b == b'%') {
            return Cow::Borrowed(self.0);
        }
        Cow::Owned(decode_component(self.0.as_bytes()))
    }

    /// The decoded bytes, one at a time (before UTF-8 decoding).
    pub fn decoded_bytes(&self) -> impl Iterator<Item = u8> + 'a {
        let bytes = self.0.as_bytes();
        let mut i = 0;
        std::iter::from_fn(move || {
            let b = *bytes.get(i)?;
            i += 1;
            Some(match b {
                b'+' => b' ',
                b'%' if i + 1 < bytes.len() => {
                    match (hex_value(bytes[i]), hex_value(bytes[i + 1])) {
                        (Some(hi), Some(lo)) => {
                            i += 2;
                            hi << 4 | lo
                        }
                        _ => b,
                    }
                }
                _ => b,
            })
        })
    }

    /// Whether the decoded text is `text`, without allocating (unless `text` holds
    /// U+FFFD, which an invalid sequence could have become).
    pub fn decodes_to(&self, text: &str) -> bool {
        if self.decoded_bytes().eq(text.bytes()) {
            return true;
        }
        text.contains('\u{FFFD}') && self.decode() == text
    }
}

impl fmt::Display for Encoded<'_> {
    /// The decoded text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.decode())
    }
}

/// A name or value of §5.1 steps 3.4 and 3.5: `+` replaced by 0x20, then percent-decoded,
/// then UTF-8 decoded without BOM (lossy).
fn decode_component(bytes: &[u8]) -> String {
    if !bytes.iter().any(|&b| b == b'+' || b == b'%') {
        return percent::utf8_decode_without_bom(bytes.to_vec());
    }
    let mut out = Vec::with_capacity(bytes.len());
    percent::decode_into(bytes, true, &mut out);
    percent::utf8_decode_without_bom(out)
}

/// Each name and value is percent-encoded after encoding in `encoding` (its output
/// encoding: UTF-16 and replacement become UTF-8) with the application/x-www-form-urlencoded
/// percent-encode set and a space as `+`; the pairs are written `name=value` and joined
/// with `&`. A character `encoding` cannot represent is written `%26%23NNNN%3B`.
///
/// ```
/// use rapidurl::encoding::Encoding;
/// use rapidurl::form::serialize;
///
/// let windows_1252 = Encoding::for_label(b"windows-1252").unwrap();
/// assert_eq!(serialize([("é", "a b"), ("x", "Ā")], windows_1252), "%E9=a+b&x=%26%23256%3B");
/// ```
#[cfg(feature = "encoding")]
#[cfg_attr(docsrs, doc(cfg(feature = "encoding")))]
pub fn serialize<I, K, V>(pairs: I, encoding: &'static Encoding) -> String
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut out = String::new();
    serialize_into(pairs, encoding, &mut out);
    out
}

/// The application/x-www-form-urlencoded serializer (URL Standard §5.2) with UTF-8, the
/// only conforming encoding: each name and value is UTF-8 percent-encoded with the
/// application/x-www-form-urlencoded percent-encode set and a space as `+`; the pairs are
/// written `name=value` and joined with `&`.
///
/// ```
/// use rapidurl::form::serialize_utf8;
///
/// assert_eq!(serialize_utf8([("a b", "~*-._!"), ("€", "")]), "a+b=%7E*-._%21&%E2%82%AC=");
/// assert_eq!(serialize_utf8(Vec::<(&str, &str)>::new()), "");
/// ```
pub fn serialize_utf8<I, K, V>(pairs: I) -> String
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut out = String::new();
    serialize_utf8_into(pairs, &mut out);
    out
}

/// [`serialize_utf8`], appending to `out` instead of returning a new string.
///
/// The pairs are joined with `&` among themselves; if `out` is not empty, nothing is put
/// between what it holds and the first pair.
///
/// ```
/// let mut out = String::from("?");
/// rapidurl::form::serialize_utf8_into([("a", "1 2")], &mut out);
/// assert_eq!(out, "?a=1+2");
/// ```
pub fn serialize_utf8_into<I, K, V>(pairs: I, out: &mut String)
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    write_pairs(pairs, out, |text, out| {
        percent::push_encoded_bytes(text.as_bytes(), &FORM_URLENCODED, true, out)
    })
}

/// [`serialize`], appending to `out` instead of returning a new string.
///
/// The pairs are joined with `&` among themselves; if `out` is not empty, nothing is put
/// between what it holds and the first pair.
#[cfg(feature = "encoding")]
#[cfg_attr(docsrs, doc(cfg(feature = "encoding")))]
pub fn serialize_into<I, K, V>(pairs: I, encoding: &'static Encoding, out: &mut String)
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    let encoding = encoding.output_encoding();
    write_pairs(pairs, out, |text, out| {
        percent_encode_after_encoding(encoding, text, &FORM_URLENCODED, true, out)
    })
}

/// Writes each pair as `name=value`, the pairs joined with `&`, each name and value
/// percent-encoded by `encode`.
#[inline]
fn write_pairs<I, K, V>(pairs: I, out: &mut String, mut encode: impl FnMut(&str, &mut String))
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<str>,
    V: AsRef<str>,
{
    for (i, (name, value)) in pairs.into_iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        encode(name.as_ref(), out);
        out.push('=');
        encode(value.as_ref(), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|&(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn parse_splits_and_skips_empty_sequences() {
        assert_eq!(parse(b""), pairs(&[]));
        assert_eq!(parse(b"&&&"), pairs(&[]));
        assert_eq!(parse(b"a"), pairs(&[("a", "")]));
        assert_eq!(parse(b"a="), pairs(&[("a", "")]));
        assert_eq!(parse(b"=b"), pairs(&[("", "b")]));
        assert_eq!(parse(b"="), pairs(&[("", "")]));
        assert_eq!(parse(b"a==b=c"), pairs(&[("a", "=b=c")]));
        assert_eq!(parse(b"&a=1&&b=2&"), pairs(&[("a", "1"), ("b", "2")]));
        assert_eq!(parse(b"a&a"), pairs(&[("a", ""), ("a", "")]));
    }

    #[test]
    fn parse_plus_and_percent() {
        assert_eq!(parse(b"a+b=c+d"), pairs(&[("a b", "c d")]));
        // %2B decodes to "+", which is not turned into a space (the replacement comes first).
        assert_eq!(parse(b"a%2Bb=%2B"), pairs(&[("a+b", "+")]));
        // "%+1": the "+" becomes a space; "% 1" is not a percent-encoded byte.
        assert_eq!(parse(b"x=%+1"), pairs(&[("x", "% 1")]));
        assert_eq!(parse(b"x=%2"), pairs(&[("x", "%2")]));
        assert_eq!(parse(b"x=%"), pairs(&[("x", "%")]));
        assert_eq!(parse(b"x=%zz%41%4a"), pairs(&[("x", "%zzAJ")]));
        assert_eq!(parse(b"%26=%3D"), pairs(&[("&", "=")]));
    }

    #[test]
    fn parse_decodes_utf8_without_bom() {
        // A leading BOM, raw or percent-encoded, is kept as U+FEFF.
        assert_eq!(
            parse("\u{FEFF}a=b".as_bytes()),
            pairs(&[("\u{FEFF}a", "b")])
        );
        assert_eq!(
            parse(b"%EF%BB%BFa=%EF%BB%BF"),
            pairs(&[("\u{FEFF}a", "\u{FEFF}")])
        );
        // Invalid UTF-8: one U+FFFD per maximal subpart.
        assert_eq!(parse(b"%C2"), pairs(&[("\u{FFFD}", "")]));
        assert_eq!(parse(b"%C2x"), pairs(&[("\u{FFFD}x", "")]));
        assert_eq!(parse(b"%FE%FF"), pairs(&[("\u{FFFD}\u{FFFD}", "")]));
        // E2 80 is a truncated 3-byte sequence: a single U+FFFD.
        assert_eq!(parse(b"%E2%80=%E2%80%BD"), pairs(&[("\u{FFFD}", "‽")]));
        // Raw invalid bytes in the input, too.
        assert_eq!(parse(b"\xFF=\xC3\xA9"), pairs(&[("\u{FFFD}", "é")]));
        assert_eq!(parse_str("†&†=x"), pairs(&[("†", ""), ("†", "x")]));
    }

    #[test]
    fn serialize_form_set() {
        // Space as "+", *-._ and alphanumerics kept, everything else (~ too) encoded.
        assert_eq!(serialize_utf8([("a b", "c d")]), "a+b=c+d");
        assert_eq!(serialize_utf8([("*-._", "AZaz09")]), "*-._=AZaz09");
        assert_eq!(serialize_utf8([("~", "!'()")]), "%7E=%21%27%28%29");
        assert_eq!(serialize_utf8([("+&=%", "#?/")]), "%2B%26%3D%25=%23%3F%2F");
        assert_eq!(serialize_utf8([("\n", "\u{7F}")]), "%0A=%7F");
        assert_eq!(serialize_utf8([("", "")]), "=");
        assert_eq!(serialize_utf8([("a", ""), ("", "b")]), "a=&=b");
        assert_eq!(serialize_utf8([("😀", "é")]), "%F0%9F%98%80=%C3%A9");
    }

    #[test]
    fn serialize_accepts_owned_and_borrowed_pairs() {
        let owned = pairs(&[("k", "v"), ("x", "y z")]);
        assert_eq!(
            serialize_utf8(owned.iter().map(|(n, v)| (n, v))),
            "k=v&x=y+z"
        );
        assert_eq!(serialize_utf8(owned.clone()), "k=v&x=y+z");
        let mut out = String::from("?");
        serialize_utf8_into([("a", "1")], &mut out);
        assert_eq!(out, "?a=1");
    }

    #[test]
    #[cfg(feature = "encoding")]
    fn serialize_with_encodings() {
        let mut out = String::from("?");
        serialize_into([("a", "é")], encoding_rs::UTF_8, &mut out);
        assert_eq!(out, "?a=%C3%A9");
        let windows_1252 = Encoding::for_label(b"windows-1252").unwrap();
        // é is 0xE9 in windows-1252; † (U+2020) is 0x86; Ā (U+0100) has no mapping.
        assert_eq!(serialize([("é", "†")], windows_1252), "%E9=%86");
        assert_eq!(serialize([("x", "Ā b")], windows_1252), "x=%26%23256%3B+b");
        let big5 = Encoding::for_label(b"big5").unwrap();
        assert_eq!(serialize([("\u{2020}", "")], big5), "%26%238224%3B=");
        // UTF-16 and replacement serialize as UTF-8 (get an output encoding).
        assert_eq!(serialize([("é", "")], encoding_rs::UTF_16LE), "%C3%A9=");
        assert_eq!(serialize([("é", "")], encoding_rs::REPLACEMENT), "%C3%A9=");
    }

    #[test]
    fn round_trip() {
        let list = pairs(&[("a b", "c&d=e"), ("", "+%"), ("ü~", "😀"), ("x", "")]);
        assert_eq!(parse_str(&serialize_utf8(list.clone())), list);
    }
}
