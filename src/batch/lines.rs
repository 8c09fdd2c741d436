//! Splitting newline-separated raw bytes into lines, validating UTF-8 a block at a time.

use memchr::{Memchr, memchr, memrchr};
use std::borrow::Cow;

/// The lines of newline-separated raw bytes, as [`lines`] makes them (the rows of the
/// engine's [`Lines`](super::engine::Lines) source when a block is not ASCII).
///
/// UTF-8 is validated a block of whole lines at a time (64 KiB, so that the parser then
/// reads the lines from cache), not line by line: one call covers every line of the
/// block, and also turns the bytes into `&str` without `unsafe`.
///
/// The validator is `simdutf8` (a pure-Rust port of the simdutf/simdjson UTF-8 algorithm,
/// the design's choice of technique), falling back to `std::str::from_utf8` only to locate
/// an invalid sequence. `benches/batch.rs` (group `utf8`) measured, whole corpus at once,
/// one run on the 2-core machine: kasztp.txt `simdutf8` 54 GiB/s, `std` 30 GiB/s, the C++
/// `simdutf` crate 68 GiB/s; userbait.txt 63 / 45 / 66; node_files.txt 57 / 45 / 65;
/// isaacs_files.txt 65 / 31 / 68. The C++ `simdutf` is a little faster still, but only
/// answers yes or no (getting the `&str` would take a second pass or `unsafe`) and adds a
/// C++ build to the library; at these speeds validation is well under 1% of parsing.
#[derive(Clone, Debug)]
pub(crate) struct Lines<'a> {
    /// Validated lines; those from `pos` on are not yet returned.
    valid: &'a str,
    pos: usize,
    /// The line ends in `valid` after `pos`.
    newlines: Memchr<'a>,
    /// The bytes after `valid`, not yet validated.
    rest: &'a [u8],
}

/// The lines of `bytes`: split at `\n`, with one `\r` before it removed; a last line
/// without `\n` is still a line, and empty input has no lines (so `"a\n"` is one line,
/// `"a\n\n"` two). A line that is not valid UTF-8 is decoded as
/// [`Url::parse_bytes`](crate::Url::parse_bytes) decodes it: every maximal invalid
/// sequence becomes U+FFFD (and only such a line is copied).
pub(crate) fn lines(bytes: &[u8]) -> Lines<'_> {
    Lines {
        valid: "",
        pos: 0,
        newlines: Memchr::new(b'\n', b""),
        rest: bytes,
    }
}

/// How many bytes of whole lines are validated at a time: small enough that the parser
/// then reads them from cache.
const VALIDATE_BYTES: usize = 64 * 1024;

/// Removes one trailing `\r`.
#[inline]
fn strip_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

impl<'a> Lines<'a> {
    fn set_valid(&mut self, valid: &'a str) {
        self.valid = valid;
        self.pos = 0;
        self.newlines = Memchr::new(b'\n', valid.as_bytes());
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Cow<'a, str>;

    fn next(&mut self) -> Option<Cow<'a, str>> {
        self.next_with_raw().map(|(line, _)| line)
    }
}

impl<'a> Lines<'a> {
    /// The next line, and for a line that is not valid UTF-8 (decoded with U+FFFD) its raw
    /// bytes, so that error offsets can be given in bytes of the input.
    pub(crate) fn next_with_raw(&mut self) -> Option<(Cow<'a, str>, Option<&'a [u8]>)> {
        loop {
            if self.pos < self.valid.len() {
                // `\n` and `\r` are ASCII: cutting there stays on char boundaries.
                let end = self.newlines.next().unwrap_or(self.valid.len());
                let line = &self.valid[self.pos..end];
                self.pos = end + 1;
                return Some((Cow::Borrowed(line.strip_suffix('\r').unwrap_or(line)), None));
            }
            if self.rest.is_empty() {
                return None;
            }
            // The next block of whole lines, validated while it is in cache.
            let window = if self.rest.len() <= VALIDATE_BYTES {
                self.rest.len()
            } else {
                match memrchr(b'\n', &self.rest[..VALIDATE_BYTES]) {
                    Some(i) => i + 1,
                    None => memchr(b'\n', &self.rest[VALIDATE_BYTES..])
                        .map_or(self.rest.len(), |i| VALIDATE_BYTES + i + 1),
                }
            };
            let block = &self.rest[..window];
            let checked = match simdutf8::basic::from_utf8(block) {
                Ok(valid) => Ok(valid),
                // Only to find where the invalid sequence is.
                Err(_) => std::str::from_utf8(block),
            };
            match checked {
                Ok(valid) => {
                    self.set_valid(valid);
                    self.rest = &self.rest[window..];
                }
                Err(err) => {
                    let good = err.valid_up_to();
                    // The whole lines before the one holding the invalid sequence.
                    let line_start = memrchr(b'\n', &block[..good]).map_or(0, |i| i + 1);
                    if line_start > 0 {
                        let before = std::str::from_utf8(&block[..line_start]).expect(
                            "the bytes before valid_up_to are UTF-8, and a line ends at a `\\n`",
                        );
                        self.set_valid(before);
                        self.rest = &self.rest[line_start..];
                        continue;
                    }
                    // The line holding it is first: decode it with U+FFFD.
                    let end = memchr(b'\n', self.rest).unwrap_or(self.rest.len());
                    let line = strip_cr(&self.rest[..end]);
                    self.rest = &self.rest[(end + 1).min(self.rest.len())..];
                    let decoded = String::from_utf8_lossy(line).into_owned();
                    return Some((Cow::Owned(decoded), Some(line)));
                }
            }
        }
    }
}

impl std::iter::FusedIterator for Lines<'_> {}

/// Splits `bytes` into ranges of whole lines of about `target` bytes each (the last
/// range may be shorter, a range holding one long line longer).
pub(crate) fn line_ranges(bytes: &[u8], target: usize) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::with_capacity(bytes.len() / target.max(1) + 1);
    let mut start = 0;
    while start < bytes.len() {
        let probe = (start + target.max(1)).min(bytes.len());
        let end = match memchr(b'\n', &bytes[probe - 1..]) {
            Some(i) => probe + i,
            None => bytes.len(),
        };
        ranges.push(start..end);
        start = end;
    }
    ranges
}

/// The length of the first whole lines of `bytes` that fit in `target` bytes (all of
/// `bytes` when it is that short; when its first line is longer, that line).
pub(crate) fn whole_lines(bytes: &[u8], target: usize) -> usize {
    if bytes.len() <= target {
        return bytes.len();
    }
    match memrchr(b'\n', &bytes[..target]) {
        Some(i) => i + 1,
        None => memchr(b'\n', &bytes[target..]).map_or(bytes.len(), |i| target + i + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::lines;
    use std::borrow::Cow;

    #[test]
    fn lines_split_and_decode_like_parse_bytes() {
        let all: Vec<Cow<'_, str>> = lines(b"a\r\nb\xFFc\r\n\n\xC3\nd\re\r\r\nlast").collect();
        assert_eq!(all, ["a", "b\u{FFFD}c", "", "\u{FFFD}", "d\re\r", "last"]);
        assert!(matches!(all[0], Cow::Borrowed(_)));
        assert!(matches!(all[1], Cow::Owned(_)));
        assert!(matches!(all[4], Cow::Borrowed(_)));
        assert_eq!(lines(b"").count(), 0);
        assert_eq!(lines(b"\n").collect::<Vec<_>>(), [""]);
        assert_eq!(lines(b"x\n").collect::<Vec<_>>(), ["x"]);
        assert_eq!(lines(b"\xFF").collect::<Vec<_>>(), ["\u{FFFD}"]);
        assert_eq!(
            lines(b"\xFF\n\xFE\n").collect::<Vec<_>>(),
            ["\u{FFFD}", "\u{FFFD}"]
        );
    }
}
