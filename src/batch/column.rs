//! [`UrlColumn`]: many parsed URLs as a few buffers (struct of arrays).

use crate::components::{Components, HostKind, SchemeKind};
use crate::error::{ErrorKind, ParseError};
use crate::scan::spans::Spans;
use crate::url::Url;
use crate::view::UrlRef;

/// Marks a null query or fragment, and a row too long for 16-bit offsets.
const NONE16: u16 = u16::MAX;

/// The components of one row, as offsets from the row's start.
///
/// 18 bytes a row, written once: a serialization shorter than 65,535 bytes (every real
/// URL) has all its offsets in 16 bits. Longer rows are flagged [`WIDE`] and their
/// [`Components`] kept in [`Chunk::wide`]; a failed row is all zeros (no [`VALID`]).
#[derive(Clone, Copy, Debug, Default)]
struct Meta {
    scheme_end: u16,
    username_end: u16,
    host_start: u16,
    host_end: u16,
    path_start: u16,
    query_start: u16,
    fragment_start: u16,
    port: u16,
    /// Bits 0–2 host kind, 3–5 scheme kind, 6 opaque path, 7 port present, 8 wide,
    /// 9 valid (the row parsed).
    flags: u16,
}

const OPAQUE: u16 = 1 << 6;
const HAS_PORT: u16 = 1 << 7;
const WIDE: u16 = 1 << 8;
const VALID: u16 = 1 << 9;

fn host_kind_code(kind: HostKind) -> u16 {
    match kind {
        HostKind::None => 0,
        HostKind::Empty => 1,
        HostKind::Domain => 2,
        HostKind::Ipv4 => 3,
        HostKind::Ipv6 => 4,
        HostKind::Opaque => 5,
    }
}

fn host_kind_from(code: u16) -> HostKind {
    match code & 7 {
        1 => HostKind::Empty,
        2 => HostKind::Domain,
        3 => HostKind::Ipv4,
        4 => HostKind::Ipv6,
        5 => HostKind::Opaque,
        0 => HostKind::None,
        _ => unreachable!("host kind codes are 0..=5 because host_kind_code wrote them"),
    }
}

fn scheme_kind_code(kind: SchemeKind) -> u16 {
    match kind {
        SchemeKind::Http => 0,
        SchemeKind::Https => 1,
        SchemeKind::Ws => 2,
        SchemeKind::Wss => 3,
        SchemeKind::Ftp => 4,
        SchemeKind::File => 5,
        SchemeKind::NotSpecial => 6,
    }
}

fn scheme_kind_from(code: u16) -> SchemeKind {
    match code & 7 {
        0 => SchemeKind::Http,
        1 => SchemeKind::Https,
        2 => SchemeKind::Ws,
        3 => SchemeKind::Wss,
        4 => SchemeKind::Ftp,
        5 => SchemeKind::File,
        6 => SchemeKind::NotSpecial,
        _ => unreachable!("scheme kind codes are 0..=6 because scheme_kind_code wrote them"),
    }
}

impl Meta {
    /// Packs `c`, the components of a serialization of `len` bytes; `None` when an offset
    /// does not fit in 16 bits.
    #[inline(always)]
    fn pack(c: &Components, len: usize) -> Option<Meta> {
        if len >= usize::from(NONE16) {
            return None;
        }
        // Every offset is at most `len` < 65,535.
        let o = |v: u32| v as u16;
        let flags = host_kind_code(c.host_kind)
            | scheme_kind_code(c.scheme_kind) << 3
            | if c.opaque_path { OPAQUE } else { 0 }
            | if c.port.is_some() { HAS_PORT } else { 0 }
            | VALID;
        Some(Meta {
            scheme_end: o(c.scheme_end),
            username_end: o(c.username_end),
            host_start: o(c.host_start),
            host_end: o(c.host_end),
            path_start: o(c.path_start),
            query_start: c.query_start.map_or(NONE16, o),
            fragment_start: c.fragment_start.map_or(NONE16, o),
            port: c.port.unwrap_or(0),
            flags,
        })
    }

    fn unpack(self) -> Components {
        let some = |v: u16| (v != NONE16).then_some(u32::from(v));
        let mut c = Components::empty();
        c.scheme_end = u32::from(self.scheme_end);
        c.username_end = u32::from(self.username_end);
        c.host_start = u32::from(self.host_start);
        c.host_end = u32::from(self.host_end);
        c.path_start = u32::from(self.path_start);
        c.query_start = some(self.query_start);
        c.fragment_start = some(self.fragment_start);
        c.port = (self.flags & HAS_PORT != 0).then_some(self.port);
        c.host_kind = host_kind_from(self.flags);
        c.scheme_kind = scheme_kind_from(self.flags >> 3);
        c.opaque_path = self.flags & OPAQUE != 0;
        c
    }
}

/// The rows one task built: consecutive rows of the column, in buffers of their own and,
/// for the rows whose input is their serialization, the input itself.
#[derive(Clone, Debug, Default)]
pub(crate) struct Chunk<'a> {
    /// The serializations of the valid rows that are not their input, concatenated (ASCII).
    data: String,
    /// Per row, where its serialization is: a slice of the input the chunk borrows, or
    /// of `data` (a failed row is empty).
    spans: Spans<'a>,
    /// Per row, its components relative to the row's start and whether it parsed (zeros
    /// for a failed row).
    meta: Vec<Meta>,
    /// The failed rows (index in the chunk, error), in row order.
    errors: Vec<(u32, ParseError)>,
    /// The rows flagged [`WIDE`] (index in the chunk, components), in row order.
    wide: Vec<(u32, Components)>,
    /// While the chunk is built, the room `data` gets when the first row is copied into
    /// it (kept here, not in the builder, so that the builders of a column become its
    /// chunks in place).
    reserve: usize,
}

impl<'a> Chunk<'a> {
    /// The chunk emptied, over no input, its buffers kept.
    fn recycle(self) -> Chunk<'static> {
        let Chunk {
            mut data,
            spans,
            mut meta,
            mut errors,
            mut wide,
            reserve,
        } = self;
        data.clear();
        meta.clear();
        errors.clear();
        wide.clear();
        Chunk {
            data,
            spans: spans.recycle(),
            meta,
            errors,
            wide,
            reserve,
        }
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    fn is_valid(&self, r: usize) -> bool {
        self.meta.get(r).is_some_and(|m| m.flags & VALID != 0)
    }

    fn error(&self, r: usize) -> Option<ParseError> {
        let r = r as u32;
        let i = self.errors.binary_search_by_key(&r, |e| e.0).ok()?;
        Some(self.errors[i].1)
    }

    fn components(&self, r: usize) -> Components {
        let meta = self.meta[r];
        if meta.flags & WIDE == 0 {
            return meta.unpack();
        }
        let r = r as u32;
        let i = self
            .wide
            .binary_search_by_key(&r, |w| w.0)
            .expect("a row flagged WIDE is in `wide` because finish_row put it there");
        self.wide[i].1
    }

    /// Row `r`'s serialization.
    fn text(&self, r: usize) -> &str {
        self.spans.get(r, &self.data)
    }

    /// Row `r` (which must be valid) as a view.
    fn view(&self, r: usize) -> UrlRef<'_> {
        UrlRef::from_parts(self.text(r), self.components(r))
    }

    fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.data.capacity()
            + self.spans.heap_bytes()
            + self.meta.capacity() * size_of::<Meta>()
            + self.errors.capacity() * size_of::<(u32, ParseError)>()
            + self.wide.capacity() * size_of::<(u32, Components)>()
    }
}

/// Builds one [`Chunk`], row by row.
pub(crate) struct ChunkBuilder<'a> {
    chunk: Chunk<'a>,
}

impl<'a> ChunkBuilder<'a> {
    /// A builder for about `rows` rows, whose rows given as slices of `input` (see
    /// [`push_url`](Self::push_url)) are kept as offsets into it; `bytes` is the room
    /// reserved for the serializations that are copied, when the first one is.
    pub(crate) fn new(input: &'a [u8], rows: usize, bytes: usize) -> ChunkBuilder<'a> {
        ChunkBuilder::reuse(Chunk::default(), input, rows, bytes)
    }

    /// [`ChunkBuilder::new`] in the buffers of `chunk`, an emptied chunk
    /// ([`Chunk::recycle`]): memory already touched, so that building rows into it takes
    /// no page faults.
    pub(crate) fn reuse(
        chunk: Chunk<'static>,
        input: &'a [u8],
        rows: usize,
        bytes: usize,
    ) -> ChunkBuilder<'a> {
        let Chunk {
            data,
            spans,
            mut meta,
            errors,
            wide,
            ..
        } = chunk;
        meta.reserve(rows);
        ChunkBuilder {
            chunk: Chunk {
                reserve: bytes,
                data,
                spans: spans.reuse(input, rows),
                meta,
                errors,
                wide,
            },
        }
    }

    /// Appends a parsed row: when `borrowed` is a slice of the builder's input and is the
    /// row's serialization, as offsets into the input; else copied.
    ///
    /// Not inlined: the engine's loop, with the parser in it, stays small enough to be
    /// inlined into the source's loop (measured: fewer instructions per row than with
    /// this function inlined into it). The rare cases (a copy, a wide row) are functions
    /// of their own.
    #[inline(never)]
    pub(crate) fn push_url(&mut self, url: &UrlRef<'_>, borrowed: Option<&'a str>) {
        let text = url.as_str();
        let kept = match borrowed {
            Some(borrowed) if self.chunk.spans.push_borrowed(borrowed) => true,
            _ => self.push_copy(text),
        };
        if kept {
            self.finish_row(text.len(), url.components());
        }
    }

    /// Gives the next row a copy of `text` in the chunk's own buffer; `false` (and a
    /// failed row) when the buffer would pass 2 GiB.
    #[inline(never)]
    fn push_copy(&mut self, text: &str) -> bool {
        if self.chunk.data.capacity() == 0 {
            self.chunk.data.reserve(self.chunk.reserve);
        }
        let start = self.chunk.data.len();
        let len = text.len();
        if start + len >= 1 << 31 {
            self.push_error(ParseError::new(ErrorKind::InputTooLong));
            return false;
        }
        self.chunk.data.push_str(text);
        self.chunk
            .spans
            .push_owned(start as u32, (start + len) as u32);
        true
    }

    /// Records the valid row just given a span, `len` bytes long.
    #[inline(always)]
    fn finish_row(&mut self, len: usize, c: &Components) {
        match Meta::pack(c, len) {
            Some(meta) => self.chunk.meta.push(meta),
            None => self.push_wide(
                [
                    c.scheme_end,
                    c.username_end,
                    c.host_start,
                    c.host_end,
                    c.path_start,
                ],
                [c.query_start, c.fragment_start],
                c.port,
                (c.host_kind, c.scheme_kind, c.opaque_path),
            ),
        }
        if cfg!(debug_assertions) {
            // The row as it will be read back: packed offsets and the chunk's slice.
            let row = self.chunk.view(self.chunk.meta.len() - 1);
            crate::parser::debug_check(row.components(), row.as_str());
        }
    }

    /// Records a valid row whose offsets do not fit in 16 bits, given its components:
    /// the scheme's end, the username's, the host's start and end, the path's start; the
    /// query's and fragment's starts; the port; host kind, scheme kind and opaque path.
    #[cold]
    #[inline(never)]
    fn push_wide(
        &mut self,
        [scheme_end, username_end, host_start, host_end, path_start]: [u32; 5],
        [query_start, fragment_start]: [Option<u32>; 2],
        port: Option<u16>,
        (host_kind, scheme_kind, opaque_path): (HostKind, SchemeKind, bool),
    ) {
        let r = self.chunk.meta.len();
        let c = Components {
            scheme_end,
            username_end,
            host_start,
            host_end,
            path_start,
            query_start,
            fragment_start,
            port,
            host_kind,
            scheme_kind,
            opaque_path,
        };
        self.chunk.wide.push((r as u32, c));
        self.chunk.meta.push(Meta {
            flags: WIDE | VALID,
            ..Meta::default()
        });
    }

    /// Appends a failed row.
    #[inline(never)]
    pub(crate) fn push_error(&mut self, err: ParseError) {
        let r = self.chunk.spans.len();
        self.chunk.errors.push((r as u32, err));
        self.chunk.meta.push(Meta::default());
        self.chunk.spans.push_owned(0, 0);
    }

    pub(crate) fn finish(self) -> Chunk<'a> {
        self.chunk
    }
}

/// Many parsed URLs, stored column-wise: the rows of a batch, in input order.
///
/// Made by [`parse_column`](super::parse_column), [`parse_lines`](super::parse_lines) and
/// their variants. Each row is either a URL, read as a borrowed [`UrlRef`] (the same
/// getters as [`Url`]), or the [`ParseError`] that made it fail.
///
/// # Layout
///
/// The rows are built in parallel in *chunks* of consecutive rows (a few per worker
/// thread), and each chunk keeps the buffers it was built in:
///
/// * `input`: the input text the chunk's rows came from, borrowed (lines, or Arrow-style
///   data), when they came from one piece of text;
/// * `data`: the serializations of the valid rows that are not their own input (the
///   parser rewrote them), concatenated — one `String`;
/// * `spans`: per row, two `u32` offsets where its serialization starts and ends, in
///   `input` when the row is its input (a canonical URL: nothing copied), else in `data`;
/// * `meta`: per row, its [`Components`] as 16-bit offsets relative to the row's start,
///   plus host kind, scheme kind, opaque-path, port, wide and valid flags (18 bytes,
///   written once; the rare row of 64 KiB or more keeps full components in a side list);
/// * `errors`: `(row, ParseError)` for the failed rows only (error kind and offset).
///
/// The column is the list of chunks plus the index of each chunk's first row. Chunks are
/// not copied into one buffer at the end: that copy would double the peak memory and add
/// a pass over the output, and finding a row's chunk is a binary search over a few dozen
/// entries. Everything a column holds is allocated per chunk, never per row; for
/// canonical input read from one text ([`parse_lines`](super::parse_lines)) the buffers
/// hold 26 bytes per row and no copy of the URLs ([`UrlColumn::heap_bytes`]);
/// the column borrows the input (its lifetime `'a`).
///
/// ```
/// use rapidurl::batch;
/// let column = batch::parse_column(&["https://example.com/a", "no scheme", "HTTP://B/"], None);
/// assert_eq!(column.len(), 3);
/// assert_eq!(column.get(0).unwrap().pathname(), "/a");
/// assert_eq!(column.error(1).unwrap().name(), "missing-scheme-non-relative-URL");
/// assert_eq!(column.get(2).unwrap().href(), "http://b/");
/// let hrefs: Vec<&str> = column.iter().flatten().map(|u| u.href()).collect();
/// assert_eq!(hrefs, ["https://example.com/a", "http://b/"]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct UrlColumn<'a> {
    chunks: Vec<Chunk<'a>>,
    /// The index of each chunk's first row.
    starts: Vec<usize>,
    len: usize,
}

impl<'a> UrlColumn<'a> {
    /// A column of `chunks`, in order.
    pub(crate) fn from_chunks(chunks: Vec<Chunk<'a>>) -> UrlColumn<'a> {
        let mut starts = Vec::with_capacity(chunks.len());
        let mut len = 0;
        for chunk in &chunks {
            starts.push(len);
            len += chunk.len();
        }
        UrlColumn {
            chunks,
            starts,
            len,
        }
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the column has no rows.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The chunk holding row `i`, and the row's index in it.
    fn locate(&self, i: usize) -> Option<(&Chunk<'a>, usize)> {
        if i >= self.len {
            return None;
        }
        let c = self.starts.partition_point(|&s| s <= i).checked_sub(1)?;
        Some((&self.chunks[c], i - self.starts[c]))
    }

    /// Row `i` as a URL view, or `None` when the row failed (or `i >= len()`).
    pub fn get(&self, i: usize) -> Option<UrlRef<'_>> {
        let (chunk, r) = self.locate(i)?;
        chunk.is_valid(r).then(|| chunk.view(r))
    }

    /// Why row `i` failed, or `None` when it parsed (or `i >= len()`).
    pub fn error(&self, i: usize) -> Option<ParseError> {
        let (chunk, r) = self.locate(i)?;
        chunk.error(r)
    }

    /// Whether row `i` parsed (`false` when `i >= len()`).
    pub fn is_valid(&self, i: usize) -> bool {
        self.locate(i).is_some_and(|(chunk, r)| chunk.is_valid(r))
    }

    /// Row `i`: the URL or the error; `None` when `i >= len()`.
    pub fn row(&self, i: usize) -> Option<Result<UrlRef<'_>, ParseError>> {
        let (chunk, r) = self.locate(i)?;
        Some(row_of(chunk, r))
    }

    /// The rows in order: each the URL or the error.
    pub fn iter(&self) -> Iter<'_, 'a> {
        Iter {
            column: self,
            chunk: 0,
            row: 0,
            index: 0,
        }
    }

    /// The number of rows that failed.
    pub fn error_count(&self) -> usize {
        self.chunks.iter().map(|c| c.errors.len()).sum()
    }

    /// The failed rows in order: `(row index, error)`. Costs nothing per valid row.
    pub fn errors(&self) -> impl Iterator<Item = (usize, ParseError)> + '_ {
        self.chunks
            .iter()
            .zip(&self.starts)
            .flat_map(|(chunk, &start)| {
                chunk
                    .errors
                    .iter()
                    .map(move |&(r, e)| (start + r as usize, e))
            })
    }

    /// How many chunks the column was built in (each built by one task, with its own
    /// buffers): what the number of allocations grows with.
    pub fn chunk_count(&self) -> usize {
        self.chunks.len()
    }

    /// The bytes the column's buffers hold (the sum of their capacities): its memory
    /// footprint, less the fixed-size `UrlColumn` itself.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        self.chunks.iter().map(Chunk::heap_bytes).sum::<usize>()
            + self.chunks.capacity() * size_of::<Chunk>()
            + self.starts.capacity() * size_of::<usize>()
    }

    /// Copies the rows into owned results, as [`parse_all`](super::parse_all) returns them.
    pub fn to_vec(&self) -> Vec<Result<Url, ParseError>> {
        self.iter().map(|row| row.map(|u| u.to_url())).collect()
    }

    /// Ends the column and keeps its buffers for the next one ([`ColumnBuffers`]).
    pub fn into_buffers(self) -> ColumnBuffers {
        ColumnBuffers {
            chunks: self.chunks.into_iter().map(Chunk::recycle).collect(),
        }
    }
}

/// The buffers of columns that are no longer needed, to parse the next column into:
/// a program that parses block after block (of a file, of a stream) then builds each
/// column in memory it has already touched, and saves the page faults and the zeroing of
/// fresh memory (about a third of [`parse_lines`](super::parse_lines)' time on canonical
/// URLs; see docs/performance.md).
///
/// ```
/// use rapidurl::batch::ColumnBuffers;
/// let blocks: [&[u8]; 2] = [b"https://a.example/\nnot a url\n", b"HTTP://B.example/x\n"];
/// let mut buffers = ColumnBuffers::new();
/// let mut hosts = Vec::new();
/// for block in blocks {
///     let column = buffers.parse_lines(block);
///     hosts.extend(column.iter().flatten().map(|url| url.hostname().to_owned()));
///     buffers = column.into_buffers();
/// }
/// assert_eq!(hosts, ["a.example", "b.example"]);
/// ```
#[derive(Debug, Default)]
pub struct ColumnBuffers {
    pub(super) chunks: Vec<Chunk<'static>>,
}

impl ColumnBuffers {
    /// No buffers yet (the first column allocates its own).
    pub fn new() -> Self {
        ColumnBuffers::default()
    }

    /// The bytes the buffers hold (the sum of their capacities).
    pub fn heap_bytes(&self) -> usize {
        self.chunks.iter().map(Chunk::heap_bytes).sum()
    }
}

fn row_of<'c>(chunk: &'c Chunk<'_>, r: usize) -> Result<UrlRef<'c>, ParseError> {
    if chunk.is_valid(r) {
        Ok(chunk.view(r))
    } else {
        Err(chunk
            .error(r)
            .expect("a failed row has an error because push_error recorded it"))
    }
}

/// The rows of a [`UrlColumn`] in order, each the URL or the error (see [`UrlColumn::iter`]).
#[derive(Clone, Debug)]
pub struct Iter<'c, 'a> {
    column: &'c UrlColumn<'a>,
    chunk: usize,
    row: usize,
    index: usize,
}

impl<'c> Iterator for Iter<'c, '_> {
    type Item = Result<UrlRef<'c>, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let chunk = self.column.chunks.get(self.chunk)?;
            if self.row < chunk.len() {
                let r = self.row;
                self.row += 1;
                self.index += 1;
                return Some(row_of(chunk, r));
            }
            self.chunk += 1;
            self.row = 0;
        }
    }

    /// Skips whole chunks at a time: `iter().skip(n)` costs O(chunks), not O(n).
    fn nth(&mut self, mut n: usize) -> Option<Self::Item> {
        while let Some(chunk) = self.column.chunks.get(self.chunk) {
            let left = chunk.len() - self.row;
            if n < left {
                self.row += n;
                self.index += n;
                return self.next();
            }
            n -= left;
            self.index += left;
            self.chunk += 1;
            self.row = 0;
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.column.len - self.index;
        (left, Some(left))
    }
}

impl ExactSizeIterator for Iter<'_, '_> {}

impl std::iter::FusedIterator for Iter<'_, '_> {}

impl<'c, 'a> IntoIterator for &'c UrlColumn<'a> {
    type Item = Result<UrlRef<'c>, ParseError>;
    type IntoIter = Iter<'c, 'a>;
    fn into_iter(self) -> Iter<'c, 'a> {
        self.iter()
    }
}

/// A base URL as a row needs it: parsed once per chunk from its string.
pub(crate) struct BaseCache<'s> {
    last: Option<(&'s str, Result<Url, ParseError>)>,
}

impl<'s> BaseCache<'s> {
    pub(crate) fn new() -> Self {
        BaseCache { last: None }
    }

    /// The parsed `base`, reusing the previous row's when the string is the same.
    pub(crate) fn get(&mut self, base: &'s str) -> Result<&Url, ParseError> {
        let stale = self.last.as_ref().is_none_or(|(s, _)| *s != base);
        if stale {
            self.last = Some((base, Url::parse(base)));
        }
        match &self.last {
            Some((_, Ok(url))) => Ok(url),
            _ => Err(ParseError::new(ErrorKind::InvalidBase)),
        }
    }
}
