//! The bulk engine: rows from a [`Source`], parsed in parallel on the current rayon pool,
//! handed to a [`Sink`] in input order.
//!
//! A source cuts its input into *pieces* of consecutive rows (about eight per thread, each
//! between 64 KiB and 8 MiB of input); each piece is one task, which walks its rows, parses
//! each one and hands the row (its input, its result, its place) to the sink's *part* for
//! that piece. [`run`] returns the parts in input order: the rows of part `k` come before
//! those of part `k + 1`, and within a part in input order. Every row's result is exactly
//! what [`Url::parse`] (or [`Url::parse_with_base`]) gives for its input.
//!
//! Parsing allocates nothing per row: a canonical input (the common case in logs and
//! crawls) is its own serialization and the row's [`UrlRef`] borrows the input; any other
//! is written into a buffer the piece reuses.
//!
//! [`parse_lines`](super::parse_lines), [`parse_column`](super::parse_column) and
//! [`parse_pairs`](super::parse_pairs) are this engine with the built-in sources and the
//! [`UrlColumn`] sink. A source or a sink of one's own is written by
//! implementing the traits:
//!
//! ```
//! use rapidurl::batch::engine::{self, Piece, Row, Sink};
//!
//! /// Counts the valid URLs and sums their hostnames' lengths, per piece.
//! struct Hosts;
//! impl<'a> Sink<'a> for Hosts {
//!     type Part = (usize, usize);
//!     fn part(&self, _piece: &Piece) -> (usize, usize) { (0, 0) }
//!     fn row(&self, part: &mut (usize, usize), row: Row<'a, '_>) {
//!         if let Ok(url) = row.url() {
//!             part.0 += 1;
//!             part.1 += url.hostname().len();
//!         }
//!     }
//! }
//!
//! let parts = engine::run(&engine::Lines::new(b"https://a.example/\nnope\nHTTP://B.EXAMPLE\n"), &Hosts);
//! let (valid, bytes) = parts.iter().fold((0, 0), |(v, b), p| (v + p.0, b + p.1));
//! assert_eq!((valid, bytes), (2, 18));
//! ```

use super::column::{BaseCache, Chunk, ChunkBuilder, ColumnBuffers, UrlColumn};
use super::lines as line_split;
use super::rows::{Bases, Extras, LastBase, emit, emit_bytes};
pub use super::rows::{Input, RowBases, Validity};
use crate::components::UrlParts;
use crate::encoding_override::UTF_8;
use crate::error::ParseError;
use crate::parser;
use crate::url::Url;
use crate::view::UrlRef;
use rayon::prelude::*;
use std::cell::Cell;
use std::ops::Range;

/// The smallest piece worth a task of its own, in input bytes.
const MIN_PIECE_BYTES: usize = 64 * 1024;
/// The largest piece, in input bytes: bounds each part's buffers.
const MAX_PIECE_BYTES: usize = 8 * 1024 * 1024;
/// Pieces per thread: enough for work stealing to even out uneven pieces.
const PIECES_PER_THREAD: usize = 8;

/// The input bytes per piece for `total` bytes of input on `threads` threads.
fn piece_target(total: usize, threads: usize) -> usize {
    let tasks = threads.max(1) * PIECES_PER_THREAD;
    (total / tasks).clamp(MIN_PIECE_BYTES, MAX_PIECE_BYTES)
}

/// The number of threads [`run`] parses on when called from the calling thread: those of
/// the pool it runs in (inside [`rayon::ThreadPool::install`], or on one of a pool's
/// threads), else those of rayon's global pool; 1 when the global pool cannot start its
/// threads (a process or `pids` cgroup limit, a sandbox that refuses new threads), and
/// [`run`] then parses on the calling thread, with the same results.
///
/// The global pool is started here, on the first call from outside any pool, if nothing
/// has started it yet (rayon would start it on the first parallel call). Cheap after
/// that: a thread-local read and an atomic one.
///
/// ```
/// // Every `run` from here uses this many threads (rayon's global pool here).
/// assert!(rapidurl::batch::engine::threads() >= 1);
/// let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
/// assert_eq!(pool.install(rapidurl::batch::engine::threads), 1);
/// ```
pub fn threads() -> usize {
    if rayon::current_thread_index().is_some() || global_pool_runs() {
        rayon::current_num_threads().max(1)
    } else {
        1
    }
}

/// Whether rayon's global pool runs: started here on the first call (rayon starts it at
/// most once per process, so a pool whose threads could not start stays unstarted, and
/// every use of it would panic). A pool that something else started is taken to run.
fn global_pool_runs() -> bool {
    static RUNS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *RUNS.get_or_init(|| match rayon::ThreadPoolBuilder::new().build_global() {
        Ok(()) => true,
        // Only a thread that could not start has a cause (an `io::Error`); the other
        // error says that the pool was already started.
        Err(e) => std::error::Error::source(&e).is_none(),
    })
}

/// One piece of a source, as its sink's part is told about it.
#[derive(Clone, Debug)]
pub struct Piece {
    /// The piece's number: its part's index in what [`run`] returns.
    pub number: usize,
    /// The index (from 0) of the piece's first row in the whole input, when the source
    /// knows it before parsing (a slice does; a block of lines does not count its lines
    /// first: add up the rows of the earlier parts).
    pub first_row: Option<usize>,
    /// About how many rows the piece holds (for sizing buffers).
    pub rows: usize,
    /// About how many bytes of input the piece holds (for sizing buffers).
    pub bytes: usize,
    /// The raw input of the piece when it is one piece of memory (a block of lines): a
    /// row whose [`Row::borrowed`] is a slice of it can be kept as offsets into it.
    pub input: Option<Range<usize>>,
}

/// One parsed row as a sink gets it: its input, its result, its place.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a, 'r> {
    input: Input<'a, 'r>,
    url: Result<UrlRef<'r>, ParseError>,
    /// Whether the URL's serialization is the input itself.
    is_input: bool,
    index: usize,
}

impl<'a, 'r> Row<'a, 'r> {
    /// The row's input as parsed (decoded with U+FFFD when the raw input was not UTF-8).
    pub fn input(&self) -> &'r str {
        self.input.text
    }

    /// The base URL the row was parsed against, if any.
    pub fn base(&self) -> Option<&'r Url> {
        self.input.base
    }

    /// Whether the row is a null ([`Input::null`]): its input is then empty and its
    /// result the error an empty input gives.
    pub fn is_null(&self) -> bool {
        self.input.null
    }

    /// The raw bytes of a row that was not valid UTF-8 (`None` for any other row).
    pub fn raw(&self) -> Option<&'r [u8]> {
        self.input.raw
    }

    /// The result: the URL, or why the input is not one. Exactly what [`Url::parse`] (with
    /// the row's base, [`Url::parse_with_base`]) gives.
    pub fn url(&self) -> Result<UrlRef<'r>, ParseError> {
        self.url
    }

    /// [`Row::url`] by reference, without copying the URL's parts.
    #[inline(always)]
    pub fn url_ref(&self) -> Result<&UrlRef<'r>, &ParseError> {
        self.url.as_ref()
    }

    /// The URL's serialization as a slice of the source's input, when the input is a
    /// canonical URL (its own serialization) that the source lent for the input's lifetime:
    /// a sink can keep it without copying.
    pub fn borrowed(&self) -> Option<&'a str> {
        if self.is_input && self.url.is_ok() {
            self.input.source_text
        } else {
            None
        }
    }

    /// The row's index in its piece (from 0); with [`Piece::first_row`] (or the rows of
    /// the earlier parts), its index in the input.
    pub fn index(&self) -> usize {
        self.index
    }
}

/// Where the rows come from: cuts its input into pieces and walks the rows of one.
///
/// Implemented by [`Lines`] (newline-separated bytes), [`Strs`] (a slice of `&str`),
/// [`Offsets`] (Arrow-style offsets and data), [`Views`] (Arrow-style string views) and
/// [`WithBases`] (rows with a base each).
pub trait Source<'a>: Sync {
    /// The input's size in bytes (to choose the pieces' size).
    fn size(&self) -> usize;

    /// Consecutive pieces covering the whole input in order, each of about `target`
    /// bytes; a piece is a range in whatever unit the source walks (bytes, rows).
    fn pieces(&self, target: usize) -> Vec<Range<usize>>;

    /// What the sink's part is told about `piece` (number `number`).
    fn describe(&self, number: usize, piece: &Range<usize>) -> Piece;

    /// The raw input the rows of [`Input::borrowed`] are slices of (for a
    /// [`Piece::input`] range); empty when the source has no single piece of memory.
    fn memory(&self) -> &'a [u8] {
        &[]
    }

    /// Hands each row of `piece` to `row`, in order.
    fn rows<F: FnMut(Input<'a, '_>)>(&self, piece: Range<usize>, row: F);
}

/// What happens to each parsed row, a piece at a time: each piece gets a part of its own
/// (one task fills it), and [`run`] returns the parts in input order.
pub trait Sink<'a>: Sync {
    /// What the rows of one piece make.
    type Part: Send;

    /// A new part for `piece`.
    fn part(&self, piece: &Piece) -> Self::Part;

    /// Takes the next row of the part's piece.
    fn row(&self, part: &mut Self::Part, row: Row<'a, '_>);

    /// Offered each row before it is parsed: a sink that can finish a row from its input
    /// alone (e.g. one that reads a hostname off the input with
    /// [`parse_hostname`](crate::parse_hostname)) does so and returns `true`, and the
    /// engine then neither parses the row nor calls [`Sink::row`] for it. By default
    /// every row is parsed.
    #[inline(always)]
    fn take_unparsed(&self, part: &mut Self::Part, input: &Input<'a, '_>) -> bool {
        let _ = (part, input);
        false
    }

    /// Called once the part's piece has no more rows, on the thread that gave them to
    /// [`Sink::row`], before [`run`] returns the part: a sink that keeps state per thread
    /// (a table each thread counts into) hands it back here, so that the next piece the
    /// thread takes finds it. By default, nothing.
    #[inline(always)]
    fn end(&self, part: &mut Self::Part) {
        let _ = part;
    }
}

/// Parses every row of `source` on the current rayon pool (run inside
/// [`rayon::ThreadPool::install`] to choose the number of threads) and returns the
/// sink's parts in input order. When no pool can run (rayon's global pool could not
/// start its threads: [`threads`]), it parses on the calling thread, as [`run_here`]
/// does, with the same results.
pub fn run<'a, S: Source<'a>, K: Sink<'a>>(source: &S, sink: &K) -> Vec<K::Part> {
    let threads = threads();
    let pieces = source.pieces(piece_target(source.size(), threads));
    if pieces.len() <= 1 || threads <= 1 {
        // No task to hand out, or no thread to hand it to: the calling thread does it all.
        return pieces
            .into_iter()
            .enumerate()
            .map(|(number, piece)| run_piece(source, sink, number, piece))
            .collect();
    }
    pieces
        .into_par_iter()
        .enumerate()
        .map(|(number, piece)| run_piece(source, sink, number, piece))
        .collect()
}

/// [`run`] on the calling thread alone, whatever the current pool: the pieces [`run`]
/// cuts on a pool of one thread, parsed one after the other. For a caller that wants one
/// thread without handing the work to a pool's thread (and waiting for it to wake up).
pub fn run_here<'a, S: Source<'a>, K: Sink<'a>>(source: &S, sink: &K) -> Vec<K::Part> {
    let pieces = source.pieces(piece_target(source.size(), 1));
    pieces
        .into_iter()
        .enumerate()
        .map(|(number, piece)| run_piece(source, sink, number, piece))
        .collect()
}

/// Parses one piece into a new part.
fn run_piece<'a, S: Source<'a>, K: Sink<'a>>(
    source: &S,
    sink: &K,
    number: usize,
    piece: Range<usize>,
) -> K::Part {
    let mut part = sink.part(&source.describe(number, &piece));
    // The thread's buffer, taken for the piece (a nested run finds none and makes one).
    let mut scratch = SCRATCH.with(Cell::take);
    if scratch.capacity() == 0 {
        // Room for any URL of common length, so that it rarely grows.
        scratch.reserve(SCRATCH_BYTES);
    }
    let mut index = 0;
    source.rows(piece, |input| {
        if sink.take_unparsed(&mut part, &input) {
            index += 1;
            return;
        }
        let (url, is_input) = match input.error {
            Some(err) => (Err(err), false),
            None => parse_row(&input, &mut scratch),
        };
        sink.row(
            &mut part,
            Row {
                input,
                url,
                is_input,
                index,
            },
        );
        index += 1;
    });
    if scratch.capacity() <= KEEP_BYTES {
        SCRATCH.with(|cell| cell.set(scratch));
    }
    sink.end(&mut part);
    part
}

/// The first size of a thread's buffer for rewritten rows.
const SCRATCH_BYTES: usize = 4096;

/// The largest buffer a thread keeps between pieces.
const KEEP_BYTES: usize = 1 << 20;

thread_local! {
    /// Per thread, the buffer non-canonical rows are written into, reused from piece to
    /// piece and call to call (so that parsing allocates per thread, not per piece).
    static SCRATCH: Cell<String> = const { Cell::new(String::new()) };
    /// Per thread, the line-feed masks of a block of lines, reused the same way.
    static MASKS: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
}

/// Parses one row: a view of its input when that is canonical, else of `scratch`, where
/// the parser writes the serialization. The flag says which.
#[inline(always)]
fn parse_row<'r>(
    input: &Input<'_, 'r>,
    scratch: &'r mut String,
) -> (Result<UrlRef<'r>, ParseError>, bool) {
    let text = input.text;
    let canonical = parser::parse_canonical(text);
    if let Some(c) = parser::borrowed(text, &canonical) {
        return (Ok(UrlRef::from_parts(text, c)), true);
    }
    scratch.clear();
    let base: Option<UrlParts<'_>> = input.base.map(Url::parts);
    match parser::write_into(text, canonical, base, UTF_8, scratch) {
        Ok(c) => (Ok(UrlRef::from_parts(scratch.as_str(), c)), false),
        Err(e) => (Err(input.raw.map_or(e, |raw| e.in_raw_utf8(raw))), false),
    }
}

/// Newline-separated raw bytes, one row per line: `\n` or `\r\n`; a last line without terminator counts; a line that is
/// not valid UTF-8 is decoded with U+FFFD. A base, when given, applies to every line.
#[derive(Clone, Copy, Debug)]
pub struct Lines<'a> {
    bytes: &'a [u8],
    base: Option<&'a Url>,
    /// Whether `bytes` starts the input (so its first piece's first row is row 0).
    starts_input: bool,
}

impl<'a> Lines<'a> {
    /// The lines of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Lines::with_base(bytes, None)
    }

    /// The lines of `bytes`, each parsed against `base` when given.
    pub fn with_base(bytes: &'a [u8], base: Option<&'a Url>) -> Self {
        Lines {
            bytes,
            base,
            starts_input: true,
        }
    }
}

/// How many bytes of whole lines are cut at a time: small enough that the parser then
/// reads them from cache.
const BLOCK_BYTES: usize = 64 * 1024;

impl<'a> Source<'a> for Lines<'a> {
    fn size(&self) -> usize {
        self.bytes.len()
    }

    fn pieces(&self, target: usize) -> Vec<Range<usize>> {
        line_split::line_ranges(self.bytes, target)
    }

    fn describe(&self, number: usize, piece: &Range<usize>) -> Piece {
        let bytes = piece.len();
        Piece {
            number,
            first_row: (number == 0 && self.starts_input).then_some(0),
            // About 40 bytes a URL; parts grow when there are more.
            rows: bytes / 32 + 1,
            bytes,
            input: Some(piece.clone()),
        }
    }

    fn memory(&self) -> &'a [u8] {
        self.bytes
    }

    fn rows<F: FnMut(Input<'a, '_>)>(&self, piece: Range<usize>, mut row: F) {
        let base = self.base;
        let mut rest = &self.bytes[piece];
        let mut masks = MASKS.with(Cell::take);
        while !rest.is_empty() {
            let cut = line_split::whole_lines(rest, BLOCK_BYTES);
            let (block, after) = rest.split_at(cut);
            rest = after;
            match crate::scan::lines::line_feeds(block, &mut masks) {
                Some(text) => {
                    // ASCII: the line ends are the set bits.
                    let mut start = 0;
                    for (w, &word) in masks.iter().enumerate() {
                        let mut word = word;
                        while word != 0 {
                            let end = w * 64 + word.trailing_zeros() as usize;
                            word &= word - 1;
                            let line = &text[start..end];
                            let line = line.strip_suffix('\r').unwrap_or(line);
                            row(Input::borrowed(line).with_base(base));
                            start = end + 1;
                        }
                    }
                    if start < text.len() {
                        let line = &text[start..];
                        let line = line.strip_suffix('\r').unwrap_or(line);
                        row(Input::borrowed(line).with_base(base));
                    }
                }
                None => {
                    let mut lines = line_split::lines(block);
                    while let Some((line, raw)) = lines.next_with_raw() {
                        match (line, raw) {
                            (std::borrow::Cow::Borrowed(line), _) => {
                                row(Input::borrowed(line).with_base(base))
                            }
                            (std::borrow::Cow::Owned(line), Some(raw)) => {
                                row(Input::decoded(&line, raw).with_base(base))
                            }
                            (std::borrow::Cow::Owned(line), None) => {
                                row(Input::transient(&line).with_base(base))
                            }
                        }
                    }
                }
            }
        }
        MASKS.with(|cell| cell.set(masks));
    }
}

/// The number of rows in each piece of a slice-like source of `n` rows weighing
/// `len(i)` bytes each: consecutive ranges, each closed once it weighs `target`.
fn row_pieces(n: usize, target: usize, len: impl Fn(usize) -> usize) -> Vec<Range<usize>> {
    super::row_ranges_by(n, target, len)
}

/// A slice of strings, one row each.
#[derive(Clone, Copy, Debug)]
pub struct Strs<'a> {
    rows: &'a [&'a str],
    base: Option<&'a Url>,
}

impl<'a> Strs<'a> {
    /// The rows `rows`, each parsed against `base` when given.
    pub fn new(rows: &'a [&'a str], base: Option<&'a Url>) -> Self {
        Strs { rows, base }
    }
}

impl<'a> Source<'a> for Strs<'a> {
    fn size(&self) -> usize {
        self.rows.iter().map(|r| r.len() + 1).sum()
    }

    fn pieces(&self, target: usize) -> Vec<Range<usize>> {
        row_pieces(self.rows.len(), target, |i| self.rows[i].len())
    }

    fn describe(&self, number: usize, piece: &Range<usize>) -> Piece {
        Piece {
            number,
            first_row: Some(piece.start),
            rows: piece.len(),
            bytes: self.rows[piece.clone()].iter().map(|r| r.len() + 1).sum(),
            input: None,
        }
    }

    fn rows<F: FnMut(Input<'a, '_>)>(&self, piece: Range<usize>, mut row: F) {
        for text in &self.rows[piece] {
            row(Input::borrowed(text).with_base(self.base));
        }
    }
}

/// Rows each with a base of its own, as `new URL(input, base)` takes them: `(input,
/// None)` has no base, and a base that does not parse makes the row fail with
/// [`ErrorKind::InvalidBase`](crate::ErrorKind::InvalidBase). A base string is parsed once
/// for a run of rows that share it.
#[derive(Clone, Copy, Debug)]
pub struct WithBases<'a> {
    rows: &'a [(&'a str, Option<&'a str>)],
}

impl<'a> WithBases<'a> {
    /// The rows `rows`.
    pub fn new(rows: &'a [(&'a str, Option<&'a str>)]) -> Self {
        WithBases { rows }
    }
}

impl<'a> Source<'a> for WithBases<'a> {
    fn size(&self) -> usize {
        self.rows.iter().map(|r| r.0.len() + 1).sum()
    }

    fn pieces(&self, target: usize) -> Vec<Range<usize>> {
        row_pieces(self.rows.len(), target, |i| self.rows[i].0.len())
    }

    fn describe(&self, number: usize, piece: &Range<usize>) -> Piece {
        Piece {
            number,
            first_row: Some(piece.start),
            rows: piece.len(),
            bytes: self.rows[piece.clone()].iter().map(|r| r.0.len() + 1).sum(),
            input: None,
        }
    }

    fn rows<F: FnMut(Input<'a, '_>)>(&self, piece: Range<usize>, mut row: F) {
        let mut bases = BaseCache::new();
        for &(text, base) in &self.rows[piece] {
            match base.map(|b| bases.get(b)) {
                None => row(Input::borrowed(text)),
                Some(Ok(base)) => row(Input::borrowed(text).with_base(Some(base))),
                Some(Err(err)) => row(Input::failed(text, err)),
            }
        }
    }
}

/// Rows stored as Arrow stores a string column: `data` holds the rows' bytes one after
/// the other, and row `i` is `data[offsets[i]..offsets[i + 1]]` (so `offsets` has one
/// more entry than there are rows). A row that is not UTF-8 is decoded with U+FFFD.
///
/// UTF-8 is checked a piece at a time (one vectorized pass over the piece's bytes), not
/// row by row. [`Offsets::with_validity`] adds nulls, [`Offsets::with_row_bases`] a base
/// per row.
#[derive(Clone, Copy, Debug)]
pub struct Offsets<'a, O> {
    offsets: &'a [O],
    data: &'a [u8],
    extras: Extras<'a>,
}

impl<'a, O: Copy + Into<i64> + Sync> Offsets<'a, O> {
    /// The rows of an Arrow-style string column (`utf8`: `O = i32`, `large_utf8`: `O =
    /// i64`). Offsets that do not increase, or point outside `data`, give an empty row.
    pub fn new(offsets: &'a [O], data: &'a [u8], base: Option<&'a Url>) -> Self {
        Offsets {
            offsets,
            data,
            extras: Extras::new(base),
        }
    }

    /// The same rows, row `i` null where `validity` says so ([`Input::null`]).
    pub fn with_validity(self, validity: Option<Validity<'a>>) -> Self {
        Offsets {
            extras: Extras {
                validity,
                ..self.extras
            },
            ..self
        }
    }

    /// The same rows, row `i` parsed against `bases.base(i)` instead of one base for all.
    pub fn with_row_bases(self, bases: &'a dyn RowBases) -> Self {
        Offsets {
            extras: Extras {
                bases: Bases::PerRow(bases),
                ..self.extras
            },
            ..self
        }
    }

    fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// Row `i`'s bytes (empty when its offsets are out of order or out of range).
    fn bytes(&self, i: usize) -> &'a [u8] {
        let (s, e): (i64, i64) = (self.offsets[i].into(), self.offsets[i + 1].into());
        match (usize::try_from(s), usize::try_from(e)) {
            (Ok(s), Ok(e)) if s <= e && e <= self.data.len() => &self.data[s..e],
            _ => &[],
        }
    }

    fn offset(&self, i: usize) -> usize {
        usize::try_from(self.offsets[i].into()).unwrap_or(0)
    }
}

impl<'a, O: Copy + Into<i64> + Sync> Source<'a> for Offsets<'a, O> {
    fn size(&self) -> usize {
        let n = self.len();
        if n == 0 {
            return 0;
        }
        self.offset(n).saturating_sub(self.offset(0)) + n
    }

    fn pieces(&self, target: usize) -> Vec<Range<usize>> {
        let first = if self.len() == 0 { 0 } else { self.offset(0) };
        super::row_ranges_cumulative_by(self.len(), target, |i| {
            self.offset(i).saturating_sub(first) + i
        })
    }

    fn describe(&self, number: usize, piece: &Range<usize>) -> Piece {
        let (s, e) = (self.offset(piece.start), self.offset(piece.end));
        Piece {
            number,
            first_row: Some(piece.start),
            rows: piece.len(),
            bytes: e.saturating_sub(s) + piece.len(),
            input: (s <= e && e <= self.data.len()).then_some(s..e),
        }
    }

    fn memory(&self) -> &'a [u8] {
        self.data
    }

    fn rows<F: FnMut(Input<'a, '_>)>(&self, piece: Range<usize>, mut row: F) {
        let (s, e) = (self.offset(piece.start), self.offset(piece.end));
        // The piece's bytes checked at once; a row is then a slice of them, which `get`
        // refuses only when its offsets are out of order or split a character.
        let text = self
            .data
            .get(s..e)
            .and_then(|bytes| simdutf8::basic::from_utf8(bytes).ok())
            .unwrap_or("");
        let mut bases = LastBase::new();
        for i in piece {
            let slice = usize::try_from(self.offsets[i].into())
                .ok()
                .zip(usize::try_from(self.offsets[i + 1].into()).ok())
                .and_then(|(rs, re)| text.get(rs.checked_sub(s)?..re.checked_sub(s)?));
            match slice {
                Some(t) => emit(&self.extras, &mut bases, i, Input::borrowed(t), &mut row),
                None => emit_bytes(&self.extras, &mut bases, i, self.bytes(i), &mut row),
            }
        }
    }
}

/// Rows stored as Arrow's `string_view` (and `binary_view`) stores them: per row a
/// 16-byte view (`views` holds them one after the other, as Arrow's views buffer does),
/// whose first 4 bytes are the length (little-endian); a row of at most 12 bytes is
/// inline in the view (bytes 4..16), a longer one is `buffers[index][offset..offset +
/// length]`, with the index in bytes 8..12 and the offset in bytes 12..16. A view that
/// points outside its buffer gives an empty row (trailing bytes of `views` short of a
/// whole view are ignored); a row that is not UTF-8 is decoded with U+FFFD.
#[derive(Clone, Copy, Debug)]
pub struct Views<'a> {
    views: &'a [u8],
    buffers: &'a [&'a [u8]],
    /// Each buffer as text, where the caller checked it whole ([`Views::with_texts`]).
    texts: &'a [Option<&'a str>],
    extras: Extras<'a>,
}

/// The bytes of one view.
const VIEW: usize = 16;

/// A little-endian `u32` at `at` of a view.
#[inline(always)]
fn view_u32(view: &[u8], at: usize) -> usize {
    u32::from_le_bytes([view[at], view[at + 1], view[at + 2], view[at + 3]]) as usize
}

impl<'a> Views<'a> {
    /// The rows of `views` (16 bytes each) over `buffers`, each parsed against `base`
    /// when given.
    pub fn new(views: &'a [u8], buffers: &'a [&'a [u8]], base: Option<&'a Url>) -> Self {
        Views {
            views,
            buffers,
            texts: &[],
            extras: Extras::new(base),
        }
    }

    /// The same rows, read from `texts[k]` (buffer `k` checked as UTF-8 once, as a
    /// whole, by the caller: `None` where it is not UTF-8) instead of checking each row's
    /// bytes: a row is then a slice of its buffer's text, which needs only its two ends
    /// to fall on character boundaries. This is what makes a string_view column as fast
    /// to read as a flat one.
    pub fn with_texts(self, texts: &'a [Option<&'a str>]) -> Self {
        Views { texts, ..self }
    }

    /// Each of `buffers` as text where it is UTF-8, for [`Views::with_texts`].
    pub fn texts_of(buffers: &[&'a [u8]]) -> Vec<Option<&'a str>> {
        buffers
            .iter()
            .map(|b| simdutf8::basic::from_utf8(b).ok())
            .collect()
    }

    /// The same rows, row `i` null where `validity` says so ([`Input::null`]).
    pub fn with_validity(self, validity: Option<Validity<'a>>) -> Self {
        Views {
            extras: Extras {
                validity,
                ..self.extras
            },
            ..self
        }
    }

    /// The same rows, row `i` parsed against `bases.base(i)` instead of one base for all.
    pub fn with_row_bases(self, bases: &'a dyn RowBases) -> Self {
        Views {
            extras: Extras {
                bases: Bases::PerRow(bases),
                ..self.extras
            },
            ..self
        }
    }

    fn len(&self) -> usize {
        self.views.len() / VIEW
    }

    /// Row `i`'s length, as its view says (read on every pass that weighs the rows:
    /// inlined, one fixed-size read).
    #[inline(always)]
    fn length(&self, i: usize) -> usize {
        let at = i * VIEW;
        let len: [u8; 4] = self.views[at..at + 4].try_into().expect("4 bytes");
        u32::from_le_bytes(len) as usize
    }

    /// Row `i`'s bytes.
    fn bytes(&self, i: usize) -> &'a [u8] {
        let view = &self.views[i * VIEW..(i + 1) * VIEW];
        let len = view_u32(view, 0);
        if len <= 12 {
            return &view[4..4 + len];
        }
        let (index, offset) = (view_u32(view, 8), view_u32(view, 12));
        self.buffers
            .get(index)
            .and_then(|b| b.get(offset..offset.checked_add(len)?))
            .unwrap_or_default()
    }
}

impl<'a> Source<'a> for Views<'a> {
    fn size(&self) -> usize {
        self.views
            .chunks_exact(VIEW)
            .map(|v| view_u32(v, 0) + 1)
            .sum()
    }

    fn pieces(&self, target: usize) -> Vec<Range<usize>> {
        row_pieces(self.len(), target, |i| self.length(i))
    }

    fn describe(&self, number: usize, piece: &Range<usize>) -> Piece {
        Piece {
            number,
            first_row: Some(piece.start),
            rows: piece.len(),
            bytes: piece.clone().map(|i| self.length(i) + 1).sum(),
            input: None,
        }
    }

    fn rows<F: FnMut(Input<'a, '_>)>(&self, piece: Range<usize>, mut row: F) {
        let mut bases = LastBase::new();
        for i in piece {
            match self.text(i) {
                Some(t) => emit(&self.extras, &mut bases, i, Input::borrowed(t), &mut row),
                None => emit_bytes(&self.extras, &mut bases, i, self.bytes(i), &mut row),
            }
        }
    }
}

impl<'a> Views<'a> {
    /// Row `i` as a slice of its buffer's checked text, when it is longer than 12 bytes,
    /// its buffer was checked whole and the slice falls on character boundaries.
    #[inline(always)]
    fn text(&self, i: usize) -> Option<&'a str> {
        let view = self.views.get(i * VIEW..(i + 1) * VIEW)?;
        let len = view_u32(view, 0);
        if len <= 12 {
            return None;
        }
        let (index, offset) = (view_u32(view, 8), view_u32(view, 12));
        self.texts
            .get(index)
            .copied()
            .flatten()?
            .get(offset..offset.checked_add(len)?)
    }
}

/// The sink of [`UrlColumn`]: each part is a chunk of the column; a row whose URL is a
/// slice of the source's memory is kept as offsets into it.
pub(crate) struct ColumnSink<'a> {
    memory: &'a [u8],
    /// Emptied chunks whose buffers the parts are built in, while there are some.
    spare: std::sync::Mutex<Vec<Chunk<'static>>>,
}

impl<'a> ColumnSink<'a> {
    /// The sink of `source`'s column, building its parts in the buffers of `spare`
    /// (emptied chunks) while there are some.
    pub(crate) fn new<S: Source<'a>>(source: &S, spare: Vec<Chunk<'static>>) -> Self {
        ColumnSink {
            memory: source.memory(),
            spare: std::sync::Mutex::new(spare),
        }
    }
}

impl<'a> Sink<'a> for ColumnSink<'a> {
    type Part = ChunkBuilder<'a>;

    fn part(&self, piece: &Piece) -> ChunkBuilder<'a> {
        let (input, bytes) = match piece.input.clone().and_then(|r| self.memory.get(r)) {
            // Most rows of such a piece are borrowed: room for a quarter of it rewritten.
            Some(input) => (input, piece.bytes / 4),
            None => (&[][..], piece.bytes),
        };
        // A poisoned lock only means that another part panicked; the list is whole.
        let spare = self.spare.lock().unwrap_or_else(|e| e.into_inner()).pop();
        match spare {
            Some(chunk) => ChunkBuilder::reuse(chunk, input, piece.rows, bytes),
            None => ChunkBuilder::new(input, piece.rows, bytes),
        }
    }

    #[inline(always)]
    fn row(&self, part: &mut ChunkBuilder<'a>, row: Row<'a, '_>) {
        match &row.url {
            Ok(url) => part.push_url(url, row.borrowed()),
            Err(err) => part.push_error(*err),
        }
    }
}

/// The column of `source`'s rows.
pub(crate) fn column<'a, S: Source<'a>>(source: &S) -> UrlColumn<'a> {
    column_in(source, Vec::new())
}

/// The bulk engine's doors into a [`ColumnBuffers`]: its buffers are a column's chunks,
/// filled again with the rows of a source.
impl ColumnBuffers {
    /// [`parse_lines`](super::parse_lines), building the column in these buffers.
    pub fn parse_lines(self, bytes: &[u8]) -> UrlColumn<'_> {
        self.parse_lines_with_base(bytes, None)
    }

    /// [`parse_lines_with_base`](super::parse_lines_with_base), building the column in
    /// these buffers.
    pub fn parse_lines_with_base<'a>(
        self,
        bytes: &'a [u8],
        base: Option<&'a Url>,
    ) -> UrlColumn<'a> {
        column_in(&Lines::with_base(bytes, base), self.chunks)
    }
}

/// The column of `source`'s rows, built in the buffers of `spare` (emptied chunks) while
/// there are some.
pub(crate) fn column_in<'a, S: Source<'a>>(
    source: &S,
    spare: Vec<Chunk<'static>>,
) -> UrlColumn<'a> {
    let parts = run(source, &ColumnSink::new(source, spare));
    UrlColumn::from_chunks(parts.into_iter().map(ChunkBuilder::finish).collect())
}

/// The sink of a [`UrlColumn`] that borrows nothing: every row is copied (for sources
/// whose rows are not one piece of memory).
pub(crate) struct OwnedColumnSink;

impl<'a> Sink<'a> for OwnedColumnSink {
    type Part = ChunkBuilder<'static>;

    fn part(&self, piece: &Piece) -> ChunkBuilder<'static> {
        ChunkBuilder::new(&[], piece.rows, piece.bytes)
    }

    #[inline]
    fn row(&self, part: &mut ChunkBuilder<'static>, row: Row<'a, '_>) {
        match row.url() {
            Ok(url) => part.push_url(&url, None),
            Err(err) => part.push_error(err),
        }
    }
}

/// The column of `source`'s rows, each copied: it borrows nothing.
pub(crate) fn owned_column<'a, S: Source<'a>>(source: &S) -> UrlColumn<'static> {
    let parts = run(source, &OwnedColumnSink);
    UrlColumn::from_chunks(parts.into_iter().map(ChunkBuilder::finish).collect())
}

/// The byte-order mark a UTF-8 text may start with.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Parses the lines read from `reader` (as [`Lines`] splits and decodes them; a UTF-8
/// byte-order mark at the very start is skipped) with bounded memory, whatever the
/// stream's length: it reads a window of about `block_bytes` of whole lines per thread of
/// the current rayon pool (one longer line is read whole), parses the window with [`run`]
/// and hands `each` the window's parts in input order, then reads the next window, so
/// that at most one window and one partial line are held. A part's rows are numbered
/// from 0 in their piece, and [`Piece::first_row`] is `None`: `each` counts the rows of
/// the parts it is given to number them in the stream.
///
/// Stops at the first read error (returned as `E::from`) or the first error of `each`.
///
/// ```
/// use rapidurl::batch::engine::{self, Piece, Row, Sink};
/// struct Valid;
/// impl<'a> Sink<'a> for Valid {
///     type Part = (usize, usize);
///     fn part(&self, _: &Piece) -> (usize, usize) { (0, 0) }
///     fn row(&self, part: &mut (usize, usize), row: Row<'a, '_>) {
///         part.0 += 1;
///         part.1 += usize::from(row.url().is_ok());
///     }
/// }
/// let input = "\u{FEFF}https://a.example/\nnope\r\nHTTP://B\n".repeat(1000);
/// let (mut rows, mut valid) = (0, 0);
/// engine::run_lines_stream(input.as_bytes(), 4096, &Valid, |(r, v)| {
///     rows += r;
///     valid += v;
///     Ok::<(), std::io::Error>(())
/// })
/// .unwrap();
/// // Only the first line's mark is skipped: the others are part of their line, which
/// // then has no scheme.
/// assert_eq!((rows, valid), (3000, 1001));
/// ```
pub fn run_lines_stream<R, K, P, E>(
    mut reader: R,
    block_bytes: usize,
    sink: &K,
    mut each: impl FnMut(P) -> Result<(), E>,
) -> Result<(), E>
where
    R: std::io::Read,
    K: for<'a> Sink<'a, Part = P>,
    P: Send,
    E: From<std::io::Error>,
{
    let window = block_bytes.max(1) * threads();
    let mut buf: Vec<u8> = Vec::new();
    let mut first = true;
    let mut eof = false;
    while !eof {
        // Fill the window: whole lines, unless the stream ends.
        let mut filled = buf.len();
        // The carried-over partial line has no line feed.
        let mut seen_newline = false;
        loop {
            if filled == buf.len() {
                let grow = window.max(buf.len() / 2).max(4096);
                buf.resize(filled + grow, 0);
            }
            let n = match reader.read(&mut buf[filled..]) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(E::from(e)),
            };
            // Only the new bytes are searched: a line longer than the window costs its
            // length, not its length times the number of reads.
            seen_newline |= memchr::memchr(b'\n', &buf[filled..filled + n]).is_some();
            filled += n;
            if n == 0 {
                eof = true;
                break;
            }
            if filled >= window && seen_newline {
                break;
            }
        }
        buf.truncate(filled);
        // A window holds a line feed or the whole stream: the mark, if any, is whole.
        let start = if first && buf.starts_with(BOM) { 3 } else { 0 };
        first = false;
        let end = if eof {
            buf.len()
        } else {
            memchr::memrchr(b'\n', &buf).map_or(buf.len(), |i| i + 1)
        };
        if start < end {
            let lines = Lines {
                bytes: &buf[start..end],
                base: None,
                starts_input: false,
            };
            for part in run(&lines, sink) {
                each(part)?;
            }
        }
        // Carry the partial last line over to the next window.
        buf.drain(..end);
    }
    Ok(())
}
