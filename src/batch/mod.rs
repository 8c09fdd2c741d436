//! Parsing URLs in bulk, in parallel: many inputs in, a [`UrlColumn`] (or a `Vec`) out,
//! in input order.
//!
//! The work is done by one engine, [`engine`]: a source (newline-separated bytes, a slice
//! of `&str`, Arrow-style offsets and data or string views, rows with a base each) is cut
//! into pieces of consecutive rows — about eight per thread of the current [rayon] pool,
//! each between 64 KiB and 8 MiB of input — and each piece is parsed by one task into a part of a sink
//! (here a chunk of a [`UrlColumn`]; a sink of one's own implements [`engine::Sink`]). So:
//!
//! * order is kept: pieces are consecutive and their parts returned in order;
//! * canonical inputs (the common case: already-normalized URLs from logs and crawls)
//!   are recognized by the fast path and not copied: a row of the column is then offsets
//!   into the input (for [`parse_lines`]), with no allocation per row; allocations grow
//!   with the number of pieces, not of URLs;
//! * the number of threads is the rayon pool's: run inside
//!   [`rayon::ThreadPool::install`] to choose it (the command-line tool's `--threads`);
//! * where no thread can be started (rayon's global pool could not start its threads: a
//!   process or `pids` cgroup limit, a sandbox), the work is done on the calling thread,
//!   with the same results ([`engine::threads`]).
//!
//! Every row's result is exactly what [`Url::parse`] (or [`Url::parse_with_base`]) gives
//! for the same input.
//!
//! ```
//! use rapidurl::batch;
//! let column = batch::parse_lines(b"https://example.com/\r\nHTTP://[::1]:80/a/../b\nnope\n");
//! let rows: Vec<String> = column
//!     .iter()
//!     .map(|row| match row {
//!         Ok(url) => url.href().to_owned(),
//!         Err(err) => err.name().to_owned(),
//!     })
//!     .collect();
//! assert_eq!(rows, ["https://example.com/", "http://[::1]/b", "missing-scheme-non-relative-URL"]);
//! ```

mod column;
pub mod engine;
mod lines;
mod rows;

pub use self::column::{ColumnBuffers, Iter, UrlColumn};

/// A row's bytes as text, as the engine reads a row given as bytes: an ASCII row (most
/// URLs) is proven a word at a time and needs no other check; any other row is validated
/// as UTF-8 (`simdutf8`). `None` when the bytes are not UTF-8.
///
/// ```
/// assert_eq!(rapidurl::batch::row_text(b"https://example.com/"), Some("https://example.com/"));
/// assert_eq!(rapidurl::batch::row_text("https://\u{e9}.fr/".as_bytes()), Some("https://\u{e9}.fr/"));
/// assert_eq!(rapidurl::batch::row_text(b"https://\xff/"), None);
/// ```
#[inline]
pub fn row_text(bytes: &[u8]) -> Option<&str> {
    crate::scan::ascii(bytes).or_else(|| simdutf8::basic::from_utf8(bytes).ok())
}

/// The bitmasks of three chosen bytes in `bytes`, 64 bytes a word, for readers of
/// delimited text (CSV: `"`, `,` and `\n`); and the block as text when every byte is
/// ASCII (`None`: validate it as UTF-8, e.g. with [`row_text`]).
///
/// `masks` is cleared, then holds `bytes.len().div_ceil(64)` words: bit `j` of
/// `masks[w][k]` is set when byte `64 * w + j` equals `set[k]`; bits past the end are
/// zero. One pass with the CPU's vector unit (AVX2 or SSE2 on x86_64, NEON on aarch64).
///
/// ```
/// let mut masks = Vec::new();
/// let text = rapidurl::batch::byte_masks(b"a,\"b\"\nc", [b'"', b',', b'\n'], &mut masks);
/// assert_eq!(text, Some("a,\"b\"\nc"));
/// assert_eq!(masks, [[0b1_0100, 0b10, 0b10_0000]]);
/// ```
pub fn byte_masks<'a>(bytes: &'a [u8], set: [u8; 3], masks: &mut Vec<[u64; 3]>) -> Option<&'a str> {
    crate::scan::bytes3::byte_masks(bytes, set, masks)
}

/// Line cutting for the command-line tool's own reader (not part of the API: the tool
/// moves onto [`engine`]).
use crate::error::ParseError;
use crate::url::Url;
use rayon::prelude::*;
use std::ops::Range;

/// Consecutive ranges of rows `0..n`, each closed as soon as it weighs at least
/// `target` (row `i` weighing `weight(i)` plus one: an empty row still costs something),
/// the last one possibly lighter: the pieces of a slice-like source.
pub(crate) fn row_ranges_by(
    n: usize,
    target: usize,
    weight: impl Fn(usize) -> usize,
) -> Vec<Range<usize>> {
    let target = target.max(1);
    let mut ranges = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for i in 0..n {
        bytes += weight(i) + 1;
        if bytes >= target {
            ranges.push(start..i + 1);
            start = i + 1;
            bytes = 0;
        }
    }
    if start < n {
        ranges.push(start..n);
    }
    ranges
}

/// [`row_ranges_by`] when the rows' weights are known as running sums: `cumulative(i)`
/// is the weight of rows `0..i` (each row's length plus one), for `i` in `0..=n`, and
/// never decreases. The same ranges, found by binary search (a few steps per range
/// instead of a pass over the rows): for an Arrow column, `cumulative(i)` is
/// `offsets[i] - offsets[0] + i`.
pub(crate) fn row_ranges_cumulative_by(
    n: usize,
    target: usize,
    cumulative: impl Fn(usize) -> usize,
) -> Vec<Range<usize>> {
    let total = cumulative(n);
    let target = target.max(1);
    // Every range holds a row: at most `n` of them, whatever the weights say.
    let mut ranges = Vec::with_capacity((total / target + 1).min(n));
    let mut start = 0;
    while start < n {
        // The first row end `e` whose range `start..e` weighs at least `target`.
        let goal = cumulative(start) + target;
        let (mut lo, mut hi) = (start + 1, n);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if cumulative(mid) < goal {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        ranges.push(start..lo);
        start = lo;
    }
    ranges
}

/// Parses every input, in parallel, keeping the order: the same results as calling
/// [`Url::parse`] on each (URL Standard §4.4, no base).
///
/// Each result is an owned [`Url`] (one allocation per URL); [`parse_column`] stores the
/// same results in a few shared buffers instead.
///
/// ```
/// let urls = rapidurl::batch::parse_all(&["https://a.example/x", "bad"]);
/// assert_eq!(urls[0].as_ref().unwrap().hostname(), "a.example");
/// assert!(urls[1].is_err());
/// ```
pub fn parse_all(inputs: &[&str]) -> Vec<Result<Url, ParseError>> {
    if engine::threads() <= 1 {
        // One thread, or none can start: the calling thread parses.
        return inputs.iter().map(|s| Url::parse(s)).collect();
    }
    inputs
        .par_iter()
        .with_min_len(256)
        .map(|s| Url::parse(s))
        .collect()
}

/// Parses every input against `base` (when given), in parallel, into a [`UrlColumn`]
/// whose row `i` is `inputs[i]`'s result: the same as [`Url::parse`] /
/// [`Url::parse_with_base`] gives.
///
/// ```
/// use rapidurl::{Url, batch};
/// let base = Url::parse("https://example.com/docs/").unwrap();
/// let column = batch::parse_column(&["a", "../b?q", "//cdn.example/c"], Some(&base));
/// let hrefs: Vec<&str> = column.iter().map(|r| r.unwrap().href()).collect();
/// assert_eq!(hrefs, ["https://example.com/docs/a", "https://example.com/b?q", "https://cdn.example/c"]);
/// ```
pub fn parse_column(inputs: &[&str], base: Option<&Url>) -> UrlColumn<'static> {
    engine::owned_column(&engine::Strs::new(inputs, base))
}

/// Parses each input against its own base, as `new URL(input, base)` does: `(input,
/// None)` has no base, and a base that does not parse makes the row fail with
/// [`ErrorKind::InvalidBase`](crate::ErrorKind::InvalidBase). A base string is parsed
/// once for a run of rows that share it.
///
/// ```
/// use rapidurl::batch;
/// let column = batch::parse_pairs(&[
///     ("../x", Some("http://h/a/b")),
///     ("../x", Some("http://h/a/b")),
///     ("y", Some("no base")),
///     ("sc:z", None),
/// ]);
/// assert_eq!(column.get(1).unwrap().href(), "http://h/x");
/// assert_eq!(column.error(2).unwrap().name(), "base-URL-invalid");
/// assert_eq!(column.get(3).unwrap().pathname(), "z");
/// ```
pub fn parse_pairs(rows: &[(&str, Option<&str>)]) -> UrlColumn<'static> {
    engine::owned_column(&engine::WithBases::new(rows))
}

/// Parses newline-separated raw bytes, one URL per line, in parallel: row `i` is line `i`
/// as [`engine::Lines`] splits and decodes it (`\n` or `\r\n`, a last line without
/// terminator counts, invalid UTF-8 becomes U+FFFD as with [`Url::parse_bytes`]).
///
/// Line ends and UTF-8 are found a block of lines at a time (one vectorized pass for
/// ASCII blocks), and only a line that is not valid UTF-8 is copied before parsing. The
/// column borrows `bytes`: a row whose line is a canonical URL is kept as offsets into it.
///
/// ```
/// let column = rapidurl::batch::parse_lines(b"http://a.example/\xFF\nfile:///tmp/x");
/// assert_eq!(column.get(0).unwrap().pathname(), "/%EF%BF%BD");
/// assert_eq!(column.get(1).unwrap().pathname(), "/tmp/x");
/// ```
pub fn parse_lines(bytes: &[u8]) -> UrlColumn<'_> {
    engine::column(&engine::Lines::new(bytes))
}

/// [`parse_lines`], resolving every line against `base` when given.
///
/// ```
/// use rapidurl::{Url, batch};
/// let base = Url::parse("https://example.com/a/b").unwrap();
/// let column = batch::parse_lines_with_base(b"c\n\n?q\n", Some(&base));
/// let hrefs: Vec<&str> = column.iter().map(|r| r.unwrap().href()).collect();
/// assert_eq!(hrefs, ["https://example.com/a/c", "https://example.com/a/b", "https://example.com/a/b?q"]);
/// ```
pub fn parse_lines_with_base<'a>(bytes: &'a [u8], base: Option<&'a Url>) -> UrlColumn<'a> {
    engine::column(&engine::Lines::with_base(bytes, base))
}

#[cfg(test)]
mod tests {
    use super::{row_ranges_by, row_ranges_cumulative_by};

    /// `row_ranges_cumulative_by` (binary search over running sums) splits exactly as
    /// `row_ranges_by` (one pass over the weights), on row lengths from short to
    /// megabytes; the ranges tile `0..n`, and every range but the last weighs at least
    /// the target and would weigh less without its last row.
    #[test]
    fn cumulative_ranges_match_ranges() {
        assert_eq!(row_ranges_by(5, 22, |_| 10), [0..2, 2..4, 4..5]);
        assert!(row_ranges_by(0, 10, |_| 10).is_empty());
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for n in [0, 1, 2, 100, 5_000, 60_000] {
            for spread in [0, 40, 3_000, 2_000_000] {
                let lens: Vec<usize> = (0..n)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        if spread == 0 {
                            0
                        } else {
                            (state % spread) as usize
                        }
                    })
                    .collect();
                let mut sums = vec![0];
                for l in &lens {
                    sums.push(sums.last().unwrap() + l + 1);
                }
                for target in [0, 1, 9, 16 * 1024, 1 << 20] {
                    let by = row_ranges_by(n, target, |i| lens[i]);
                    assert_eq!(
                        row_ranges_cumulative_by(n, target, |i| sums[i]),
                        by,
                        "n {n}, spread {spread}, target {target}"
                    );
                    let mut next = 0;
                    for (k, r) in by.iter().enumerate() {
                        assert_eq!(r.start, next);
                        assert!(r.end > r.start);
                        let weight = sums[r.end] - sums[r.start];
                        if k + 1 < by.len() {
                            assert!(weight >= target.max(1), "n {n}, target {target}, {r:?}");
                            assert!(weight - (lens[r.end - 1] + 1) < target.max(1));
                        }
                        next = r.end;
                    }
                    assert_eq!(next, n);
                }
            }
        }
    }
}
