//! The records of a batch that is not plain lines, decoded once into one buffer: for each
//! row its line number, the text it is parsed from, its base cell and the cells that pass
//! through. The engine's source ([`super::window`]) hands the rows' texts to the parser;
//! the sink finds the rest of each row here by its index.

use std::borrow::Cow;
use std::ops::Range;

use arrow_array::{ArrayRef, RecordBatch};

use super::logs::{self, Fault, Line, LineReader};
use super::rows::{Plan, Strings, arrow_cell, split_fields};
use super::source::{Batch, Data, InputFormat};
use super::table::{self, Cell};

/// Where a piece of a row's text lies: in the batch's block (the text as read, not
/// copied) or in the records' own buffer (decoded cells: a quoted CSV field with doubled
/// quotes, a TSV field with escapes, JSON strings, Parquet values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct At {
    start: usize,
    end: usize,
}

/// The top bit of [`At::start`]: the text is in [`Records::text`], not in the block.
const OWN: usize = 1 << (usize::BITS - 1);

impl At {
    /// No text (a null or absent cell).
    const NONE: At = At {
        start: usize::MAX,
        end: 0,
    };

    fn block(range: Range<usize>) -> At {
        At {
            start: range.start,
            end: range.end,
        }
    }

    fn own(range: Range<usize>) -> At {
        At {
            start: range.start | OWN,
            end: range.end,
        }
    }

    fn some(self) -> Option<At> {
        (self != At::NONE).then_some(self)
    }
}

/// A passed-through cell: its text and its kind.
#[derive(Clone, Copy, Debug)]
enum Span {
    Text(At),
    Raw(At),
    Null,
}

/// One decoded row.
#[derive(Clone, Debug)]
pub struct Record {
    /// Its line number (CSV: where its record starts; Parquet: its row number).
    pub line: u64,
    /// The text shown as the row's input (the URL cell, or the whole line of a
    /// tab-separated line with a base field).
    shown: At,
    /// The text to parse; [`At::NONE`] when the URL cell is null or absent.
    url: At,
    /// The base cell; [`At::NONE`] when there is none.
    base: At,
    /// Its passed-through cells, in [`Records::cells`].
    cells: Range<usize>,
}

/// A row as [`Records::contents`] gives it: line, URL, base, input shown, cells.
pub type RowContents = (u64, Option<String>, Option<String>, String, Vec<String>);

/// The decoded rows of one batch.
#[derive(Debug)]
pub struct Records<'b> {
    /// The batch's text: its block when that is UTF-8, else the block decoded with
    /// U+FFFD for each bad sequence.
    block: Cow<'b, str>,
    /// Text decoded out of the block (or copied in, for JSON Lines and Parquet).
    text: String,
    rows: Vec<Record>,
    cells: Vec<Span>,
    /// Why reading stopped before the end of the batch (the rows before it are kept): a
    /// message naming the file, the line and the column.
    pub error: Option<String>,
    /// The rows that are error rows of their format (a log line that is not a request
    /// …): their index and the fault, in row order.
    faults: Vec<(usize, Fault)>,
}

/// The buffers of a [`Records`], kept for the next batch when it is dropped: a batch's
/// rows take about a megabyte, which a fresh allocation would fault in page by page.
type Buffers = (String, Vec<Record>, Vec<Span>);

/// Buffers of dropped [`Records`], at most [`SPARE_BUFFERS`].
static SPARE: std::sync::Mutex<Vec<Buffers>> = std::sync::Mutex::new(Vec::new());

/// How many sets of buffers [`SPARE`] keeps (a window holds a few batches per thread).
const SPARE_BUFFERS: usize = 64;

/// The largest set of buffers kept (those of a batch with a very long record are not).
const SPARE_BYTES: usize = 8 << 20;

impl Default for Records<'_> {
    fn default() -> Self {
        let (text, rows, cells) = SPARE
            .lock()
            .ok()
            .and_then(|mut spare| spare.pop())
            .unwrap_or_default();
        Records {
            block: Cow::Borrowed(""),
            text,
            rows,
            cells,
            error: None,
            faults: Vec::new(),
        }
    }
}

impl Drop for Records<'_> {
    fn drop(&mut self) {
        let mut buffers = (
            std::mem::take(&mut self.text),
            std::mem::take(&mut self.rows),
            std::mem::take(&mut self.cells),
        );
        buffers.0.clear();
        buffers.1.clear();
        buffers.2.clear();
        let bytes = buffers.0.capacity()
            + buffers.1.capacity() * std::mem::size_of::<Record>()
            + buffers.2.capacity() * std::mem::size_of::<Span>();
        if bytes <= SPARE_BYTES
            && let Ok(mut spare) = SPARE.lock()
            && spare.len() < SPARE_BUFFERS
        {
            spare.push(buffers);
        }
    }
}

impl<'b> Records<'b> {
    /// The rows.
    #[inline]
    pub fn rows(&self) -> &[Record] {
        &self.rows
    }

    /// The text at `at`.
    #[inline]
    fn at(&self, at: At) -> &str {
        if at.start & OWN != 0 {
            &self.text[at.start & !OWN..at.end]
        } else {
            &self.block[at.start..at.end]
        }
    }

    /// Why row `index` is an error row of its format, if it is one.
    #[inline]
    pub fn fault(&self, index: usize) -> Option<&Fault> {
        if self.faults.is_empty() {
            return None;
        }
        self.faults
            .binary_search_by_key(&index, |(i, _)| *i)
            .ok()
            .map(|k| &self.faults[k].1)
    }

    /// The text row `row` is parsed from (`None`: no URL).
    #[inline]
    pub fn url(&self, row: &Record) -> Option<&str> {
        row.url.some().map(|a| self.at(a))
    }

    /// The base cell of `row`, if any.
    #[inline]
    pub fn base(&self, row: &Record) -> Option<&str> {
        row.base.some().map(|a| self.at(a))
    }

    /// The text shown as `row`'s input.
    #[inline]
    pub fn shown(&self, row: &Record) -> &str {
        row.shown.some().map_or("", |a| self.at(a))
    }

    /// The passed-through cells of `row`, into `out` (cleared first).
    pub fn cells<'s>(&'s self, row: &Record, out: &mut Vec<Cell<'s>>) {
        out.clear();
        out.extend(self.cells[row.cells.clone()].iter().map(|s| match *s {
            Span::Text(a) => Cell::Text(Cow::Borrowed(self.at(a))),
            Span::Raw(a) => Cell::Raw(Cow::Borrowed(self.at(a))),
            Span::Null => Cell::Null,
        }));
    }

    /// Every row as owned text (line, URL, base, input shown, cells as text) and the
    /// error: what the tests and the `readers` fuzz target compare between
    /// [`decode`] and [`decode_by_record`].
    #[allow(dead_code)]
    pub fn contents(&self) -> (Vec<RowContents>, Option<String>) {
        let mut cells = Vec::new();
        let rows = self
            .rows
            .iter()
            .map(|r| {
                self.cells(r, &mut cells);
                (
                    r.line,
                    self.url(r).map(str::to_owned),
                    self.base(r).map(str::to_owned),
                    self.shown(r).to_owned(),
                    cells.iter().map(|c| c.text().to_owned()).collect(),
                )
            })
            .collect();
        (rows, self.error.clone())
    }

    /// Copies `text` in; where it is.
    fn push_text(&mut self, text: &str) -> At {
        let start = self.text.len();
        self.text.push_str(text);
        At::own(start..self.text.len())
    }

    /// Adds a row whose texts are copied in.
    fn push(&mut self, line: u64, url: Option<&str>, base: Option<&str>, cells: &[Cell<'_>]) {
        let url = url.map_or(At::NONE, |u| self.push_text(u));
        let base = base.map_or(At::NONE, |b| self.push_text(b));
        let first = self.cells.len();
        for cell in cells {
            let span = match cell {
                Cell::Text(t) => Span::Text(self.push_text(t)),
                Cell::Raw(t) => Span::Raw(self.push_text(t)),
                Cell::Null => Span::Null,
            };
            self.cells.push(span);
        }
        self.rows.push(Record {
            line,
            shown: url,
            url,
            base,
            cells: first..self.cells.len(),
        });
    }

    /// Where a cell of a record read from the block lies: a slice of the block stays
    /// there, a decoded cell is copied into the own buffer.
    fn place(block: &str, text: &mut String, cell: &str) -> At {
        let (b, c) = (block.as_ptr() as usize, cell.as_ptr() as usize);
        if c >= b && c + cell.len() <= b + block.len() {
            At::block(c - b..c - b + cell.len())
        } else {
            let start = text.len();
            text.push_str(cell);
            At::own(start..text.len())
        }
    }
}

/// Whether a batch's rows go to the engine as plain lines (no decoding here).
pub fn plain_lines(plan: &Plan, batch: &Batch) -> bool {
    plan.format == InputFormat::Lines && plan.base.is_none() && matches!(batch.data, Data::Text(_))
}

/// Decodes `batch` (not plain lines: see [`plain_lines`]).
pub fn decode<'b>(plan: &Plan, batch: &'b Batch) -> Records<'b> {
    decode_with(plan, batch, table_rows)
}

/// Decodes `batch` as [`decode`] does, with CSV and TSV records read one at a time by
/// [`table::read_record`] (each cell copied): the reference the block reader
/// (`table_rows`) is tested against, by the tests and the `readers` fuzz target.
#[allow(dead_code)]
pub fn decode_by_record<'b>(plan: &Plan, batch: &'b Batch) -> Records<'b> {
    decode_with(plan, batch, table_rows_by_record)
}

/// How a text batch of CSV or TSV records is read into [`Records`].
type TableReader = for<'b> fn(&mut Records<'b>, &Plan, &str, u64, &'b [u8]) -> Result<(), String>;

/// Decodes `batch` with `tables` for its CSV and TSV records.
fn decode_with<'b>(plan: &Plan, batch: &'b Batch, tables: TableReader) -> Records<'b> {
    let name = &plan.names[batch.input];
    let first = batch.first_line;
    let mut records = Records::default();
    let result = match &batch.data {
        Data::Fatal(msg) => Err(msg.clone()),
        Data::Arrow {
            batch: rows,
            row_group,
        } => arrow_rows(&mut records, plan, (name, *row_group), first, rows),
        Data::Text(bytes) => match plan.format {
            InputFormat::Lines => {
                based_lines(&mut records, plan, first, bytes);
                Ok(())
            }
            InputFormat::Jsonl => json_rows(&mut records, plan, name, first, bytes),
            // A WARC input reaches here as the TSV rows of its records.
            InputFormat::Csv | InputFormat::Tsv | InputFormat::Warc => {
                tables(&mut records, plan, name, first, bytes)
            }
            other => {
                if let Some(log) = other.log() {
                    log_rows(&mut records, plan, log, batch, bytes);
                }
                Ok(())
            }
        },
    };
    records.error = result.err();
    records
}

/// Lines with a base field (`--base-column N`): the URL is a tab-separated field; the
/// input shown is the whole line, as read (decoded with U+FFFD when not UTF-8).
fn based_lines(records: &mut Records<'_>, plan: &Plan, first: u64, bytes: &[u8]) {
    let column = plan.base.unwrap_or(1);
    let mut rest = bytes;
    let mut line_no = first;
    while !rest.is_empty() {
        let (raw, after) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        rest = after;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let line = String::from_utf8_lossy(raw);
        let (url, base) = split_fields(&line, column);
        let shown = records.push_text(&line);
        records.push(line_no, Some(url), base, &[]);
        if let Some(last) = records.rows.last_mut() {
            last.shown = shown;
        }
        line_no += 1;
    }
}

/// The CSV or TSV records of a block: the block is classified once
/// ([`rapidurl::batch::byte_masks`]: its quotes (TSV: backslashes), separators and line
/// feeds as bitmasks) and each record is cut at the set bits. A record with no quote
/// (TSV: no backslash) has its cells as ranges of the block, nothing copied; one with a
/// quote is read by [`table::read_record`], which decodes it and reports bad quoting, so
/// both kinds of record give what the record reader gives ([`table_rows_by_record`],
/// checked by the tests and the `readers` fuzz target).
fn table_rows<'b>(
    records: &mut Records<'b>,
    plan: &Plan,
    name: &str,
    first_line: u64,
    bytes: &'b [u8],
) -> Result<(), String> {
    let (special, delimiter) = if plan.format == InputFormat::Csv {
        (b'"', b',')
    } else {
        (b'\\', b'\t')
    };
    let set = [special, delimiter, b'\n'];
    let mut masks = Vec::new();
    let block: Cow<'b, str> = match rapidurl::batch::byte_masks(bytes, set, &mut masks) {
        Some(text) => Cow::Borrowed(text),
        None => match simdutf8::basic::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => {
                // Positions move with each U+FFFD: the decoded text is classified anew.
                let text = String::from_utf8_lossy(bytes).into_owned();
                rapidurl::batch::byte_masks(text.as_bytes(), set, &mut masks);
                Cow::Owned(text)
            }
        },
    };
    let result = split_records(records, plan, name, first_line, (&block, &masks), delimiter);
    records.block = block;
    result
}

/// Cuts `text` (a block, its masks) into records, as [`table_rows`] says: the set bits
/// (quotes or escapes, separators, line feeds) are visited in order, once each.
fn split_records(
    records: &mut Records<'_>,
    plan: &Plan,
    name: &str,
    first_line: u64,
    (text, masks): (&str, &[[u64; 3]]),
    delimiter: u8,
) -> Result<(), String> {
    let len = text.len();
    let mut cut = Cut {
        records,
        plan,
        name,
        text,
        fields: Vec::with_capacity(plan.columns.len()),
        line: first_line,
    };
    let mut decoded: Vec<Cow<'_, str>> = Vec::new();
    let any = |m: &[u64; 3]| m[0] | m[1] | m[2];
    // The record being cut starts at `s`, its current field at `f`.
    let (mut s, mut f) = (0usize, 0usize);
    let mut w = 0usize;
    let mut bits = masks.first().map_or(0, any);
    loop {
        while bits == 0 {
            w += 1;
            match masks.get(w) {
                Some(m) => bits = any(m),
                None => {
                    if s < len {
                        // The last record has no line feed.
                        cut.plain(s, f, len, false)?;
                    }
                    return Ok(());
                }
            }
        }
        let j = bits.trailing_zeros();
        bits &= bits - 1;
        let at = w * 64 + j as usize;
        let [special, separator, _] = masks[w];
        if special >> j & 1 == 1 {
            // A quote (TSV: an escape): the record reader decodes the record from its
            // start, wherever it ends; the walk goes on from there.
            cut.fields.clear();
            let start = s;
            table::read_record(text, &mut s, delimiter, &mut decoded)
                .map_err(|e| e.message(name, cut.line, text, start))?;
            cut.decoded(start, s, &decoded)?;
            f = s;
            w = s / 64;
            bits = masks.get(w).map_or(0, any) & (!0u64 << (s % 64));
        } else if separator >> j & 1 == 1 {
            cut.fields.push(f..at);
            f = at + 1;
        } else {
            cut.plain(s, f, at, true)?;
            (s, f) = (at + 1, at + 1);
        }
    }
}

/// The state of [`split_records`]: where its records go, and the record being cut.
struct Cut<'r, 'b, 't> {
    records: &'r mut Records<'b>,
    plan: &'r Plan,
    name: &'r str,
    text: &'t str,
    /// The fields of the record being cut, so far.
    fields: Vec<Range<usize>>,
    /// The line of the record being cut.
    line: u64,
}

impl Cut<'_, '_, '_> {
    /// The message for a record of `fields` cells where the header has another number.
    fn ragged(&self, fields: usize) -> String {
        format!(
            "{}:{}: ragged row: {fields} fields where the header has {} ({})",
            self.name,
            self.line,
            self.plan.columns.len(),
            self.plan.columns.join(", ")
        )
    }

    /// Adds the record of `fields` cells (a ragged one is an error), where cell `i` is
    /// `at(own text, i)`.
    #[inline]
    fn push(
        &mut self,
        fields: usize,
        mut at: impl FnMut(&mut String, usize) -> At,
    ) -> Result<(), String> {
        if fields != self.plan.columns.len() {
            return Err(self.ragged(fields));
        }
        let records = &mut *self.records;
        let first_cell = records.cells.len();
        if self.plan.cells {
            for &i in &self.plan.pass {
                let cell = at(&mut records.text, i);
                records.cells.push(Span::Text(cell));
            }
        }
        let url = at(&mut records.text, self.plan.url);
        let base = self
            .plan
            .base
            .map_or(At::NONE, |i| at(&mut records.text, i));
        records.rows.push(Record {
            line: self.line,
            shown: url,
            url,
            base,
            cells: first_cell..records.cells.len(),
        });
        Ok(())
    }

    /// The record from `s` to `end` (a line feed when `feed`, else the end of the text)
    /// whose last field starts at `f`: its cells are ranges of the block.
    #[inline]
    fn plain(&mut self, s: usize, f: usize, end: usize, feed: bool) -> Result<(), String> {
        let b = self.text.as_bytes();
        let last = if end > f && b[end - 1] == b'\r' {
            end - 1
        } else {
            end
        };
        self.fields.push(f..last);
        let blank = self.fields.len() == 1 && last == s;
        if !blank {
            let fields = std::mem::take(&mut self.fields);
            let pushed = self.push(fields.len(), |_, i| At::block(fields[i].clone()));
            self.fields = fields;
            pushed?;
        }
        self.fields.clear();
        self.line += u64::from(feed);
        Ok(())
    }

    /// The record `text[start..end]`, read by the record reader into `decoded`: a cell
    /// that is a slice of the block stays there, a decoded one is copied.
    fn decoded(
        &mut self,
        start: usize,
        end: usize,
        decoded: &[Cow<'_, str>],
    ) -> Result<(), String> {
        let text = self.text;
        let lines = memchr::memchr_iter(b'\n', &text.as_bytes()[start..end]).count() as u64;
        let blank = decoded.len() == 1
            && decoded[0].is_empty()
            && matches!(&text[start..end], "" | "\n" | "\r\n" | "\r");
        if !blank {
            self.push(decoded.len(), |own, i| {
                Records::place(text, own, &decoded[i])
            })?;
        }
        self.line += lines;
        Ok(())
    }
}

/// CSV and TSV records, one [`table::read_record`] at a time, each cell copied (the
/// reference of [`table_rows`]).
fn table_rows_by_record(
    records: &mut Records<'_>,
    plan: &Plan,
    name: &str,
    first_line: u64,
    bytes: &[u8],
) -> Result<(), String> {
    let text = String::from_utf8_lossy(bytes);
    let delimiter = if plan.format == InputFormat::Csv {
        b','
    } else {
        b'\t'
    };
    let mut record: Vec<Cow<'_, str>> = Vec::with_capacity(plan.columns.len());
    let mut cells: Vec<Cell<'_>> = Vec::with_capacity(plan.pass.len());
    let (mut pos, mut line) = (0usize, first_line);
    while pos < text.len() {
        let start = pos;
        table::read_record(&text, &mut pos, delimiter, &mut record)
            .map_err(|e| e.message(name, line, &text, start))?;
        let lines = memchr::memchr_iter(b'\n', &text.as_bytes()[start..pos]).count() as u64;
        // A blank line is no record (`""`, a quoted empty field, is one, also at the
        // end of the input without a line feed).
        if record.len() == 1
            && record[0].is_empty()
            && matches!(&text[start..pos], "" | "\n" | "\r\n" | "\r")
        {
            line += lines;
            continue;
        }
        if record.len() != plan.columns.len() {
            return Err(format!(
                "{name}:{line}: ragged row: {} fields where the header has {} ({})",
                record.len(),
                plan.columns.len(),
                plan.columns.join(", ")
            ));
        }
        cells.clear();
        if plan.cells {
            cells.extend(plan.pass.iter().map(|&i| Cell::Text(record[i].clone())));
        }
        let base = plan.base.map(|i| &*record[i]);
        records.push(line, Some(&record[plan.url]), base, &cells);
        line += lines;
    }
    Ok(())
}

/// The lines of a log or crawl index ([`logs`]): each line's cells by column, a line that
/// is not one of its format's an error row with its fault; cells not decoded stay in the
/// block.
fn log_rows<'b>(
    records: &mut Records<'b>,
    plan: &Plan,
    log: logs::LogFormat,
    batch: &Batch,
    bytes: &'b [u8],
) {
    let block: Cow<'b, str> = match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(String::from_utf8_lossy(bytes).into_owned()),
    };
    let mut reader = LineReader::new(log, &plan.columns, batch.directive.as_deref());
    let mut cells: Vec<Cell<'_>> = Vec::new();
    let target = log.url_is_target() && plan.columns[plan.url] == "url";
    let text = &mut records.text;
    let mut from = 0;
    let ends = memchr::memchr_iter(b'\n', block.as_bytes())
        .chain((!block.ends_with('\n') && !block.is_empty()).then_some(block.len()));
    for (k, end) in ends.enumerate() {
        let line = &block[from..end];
        from = end + 1;
        let line_no = batch.first_line + k as u64;
        let read = reader.read(line, &mut cells);
        if read == Ok(Line::Skip) {
            continue;
        }
        let at = |cell: &Cell<'_>, text: &mut String| match cell {
            Cell::Null => At::NONE,
            Cell::Text(t) | Cell::Raw(t) => Records::place(&block, text, t),
        };
        let mut url = at(&cells[plan.url], text);
        let base = plan.base.map_or(At::NONE, |b| at(&cells[b], text));
        let mut fault = read.err();
        if fault.is_none()
            && target
            && base == At::NONE
            && plan.base_url.is_none()
            && let Cell::Text(t) = &cells[plan.url]
            && t.starts_with('/')
        {
            fault = Some(Fault {
                name: logs::NO_HOST,
                detail: format!(
                    "the request target {t:?} is a path, and the line names no host to \
                     resolve it against: give --base URL (the site's origin)"
                ),
                column: 1,
            });
        }
        let shown = if fault.is_some() {
            url = At::NONE;
            Records::place(&block, text, line.strip_suffix('\r').unwrap_or(line))
        } else {
            let shown = url;
            // A request path that starts with `//` is a path (an empty first segment),
            // not a scheme-relative URL: parsed as `/.//…`, whose `.` segment goes.
            if target
                && let Cell::Text(t) = &cells[plan.url]
                && t.starts_with("//")
            {
                let start = text.len();
                text.push_str("/.");
                text.push_str(t);
                url = At::own(start..text.len());
            }
            shown
        };
        let first = records.cells.len();
        if plan.cells {
            for &i in &plan.pass {
                let span = match &cells[i] {
                    Cell::Text(t) => Span::Text(Records::place(&block, text, t)),
                    Cell::Raw(t) => Span::Raw(Records::place(&block, text, t)),
                    Cell::Null => Span::Null,
                };
                records.cells.push(span);
            }
        }
        if let Some(fault) = fault {
            records.faults.push((records.rows.len(), fault));
        }
        records.rows.push(Record {
            line: line_no,
            shown,
            url,
            base,
            cells: first..records.cells.len(),
        });
    }
    drop(cells);
    records.block = block;
}

/// JSON Lines objects: cells by key, in the columns' order.
fn json_rows(
    records: &mut Records<'_>,
    plan: &Plan,
    name: &str,
    first_line: u64,
    bytes: &[u8],
) -> Result<(), String> {
    let text = String::from_utf8_lossy(bytes);
    let mut values: Vec<Option<&serde_json::value::RawValue>> = Vec::new();
    let mut cells: Vec<Cell<'_>> = Vec::new();
    for (k, line) in text.split_terminator('\n').enumerate() {
        let line_no = first_line + k as u64;
        if line.trim().is_empty() {
            continue;
        }
        let object = table::json_object(line).map_err(|e| format!("{name}:{line_no}: {e}"))?;
        values.clear();
        values.resize(plan.columns.len(), None);
        for (key, value) in &object.0 {
            let Some(i) = plan.columns.iter().position(|c| c == key) else {
                return Err(format!(
                    "{name}:{line_no}: key {key:?} is not a column of this input (the keys \
                     of its first object: {})",
                    plan.columns.join(", ")
                ));
            };
            values[i] = Some(value);
        }
        let string_of = |i: usize, what: &str| -> Result<Option<Cow<'_, str>>, String> {
            match values[i].map(table::json_cell) {
                None | Some(Cell::Null) => Ok(None),
                Some(Cell::Text(s)) => Ok(Some(s)),
                Some(Cell::Raw(raw)) => Err(format!(
                    "{name}:{line_no}: column {:?} ({what}) holds {}, not a string",
                    plan.columns[i],
                    table::json_kind(&raw)
                )),
            }
        };
        let url = string_of(plan.url, "the URL")?;
        let base = match plan.base {
            Some(i) => string_of(i, "the base")?,
            None => None,
        };
        cells.clear();
        if plan.cells {
            cells.extend(
                plan.pass
                    .iter()
                    .map(|&i| values[i].map_or(Cell::Null, table::json_cell)),
            );
        }
        records.push(line_no, url.as_deref(), base.as_deref(), &cells);
    }
    Ok(())
}

/// The formatters of the passed-through columns of a Parquet record batch.
type Passed<'a> = Vec<(
    &'a ArrayRef,
    Option<arrow_cast::display::ArrayFormatter<'a>>,
)>;

/// Rows of a Parquet record batch (of row group `place.1`).
fn arrow_rows(
    records: &mut Records<'_>,
    plan: &Plan,
    (name, row_group): (&str, usize),
    first_row: u64,
    rows: &RecordBatch,
) -> Result<(), String> {
    let column = |i: usize| -> Result<&ArrayRef, String> {
        rows.column_by_name(&plan.columns[i]).ok_or_else(|| {
            format!(
                "{name}: row group {}: no column {:?}",
                row_group + 1,
                plan.columns[i]
            )
        })
    };
    let url = Strings::of(column(plan.url)?);
    let base = plan.base.map(|i| column(i).map(Strings::of)).transpose()?;
    let (Some(url), Some(base)) = (url, base.map_or(Some(None), |b| b.map(Some))) else {
        return Err(format!(
            "{name}: row group {}: the URL or base column does not hold strings",
            row_group + 1
        ));
    };
    let pass: Passed<'_> = if plan.cells {
        plan.pass
            .iter()
            .map(|&i| {
                let array = column(i)?;
                let formatter = arrow_cast::display::ArrayFormatter::try_new(
                    array.as_ref(),
                    &arrow_cast::display::FormatOptions::default(),
                )
                .ok();
                Ok((array, formatter))
            })
            .collect::<Result<_, String>>()?
    } else {
        Vec::new()
    };
    let mut cells: Vec<Cell<'_>> = Vec::with_capacity(pass.len());
    for index in 0..rows.num_rows() {
        cells.clear();
        for (array, formatter) in &pass {
            cells.push(arrow_cell(array, formatter.as_ref(), index));
        }
        let base = base.as_ref().and_then(|b| b.get(index));
        records.push(first_row + index as u64, url.get(index), base, &cells);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(format: InputFormat, columns: usize, url: usize, base: Option<usize>) -> Plan {
        Plan {
            format,
            names: vec!["t.csv".to_owned()],
            columns: (0..columns).map(|i| format!("c{i}")).collect(),
            url,
            base,
            pass: (0..columns).filter(|&i| i != url).collect(),
            cells: true,
            base_url: None,
            routes: None,
        }
    }

    /// A small random number generator (xorshift), so the cases are the same each run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Compares the block reader with the record reader on `bytes`.
    fn same(format: InputFormat, bytes: &[u8], columns: usize, url: usize, base: Option<usize>) {
        let plan = plan(format, columns, url, base);
        let batch = Batch {
            input: 0,
            first_line: 2,
            bytes: bytes.len() as u64,
            data: Data::Text(bytes.to_vec()),
            directive: None,
        };
        let fast = decode(&plan, &batch);
        let reference = decode_by_record(&plan, &batch);
        assert_eq!(
            fast.contents(),
            reference.contents(),
            "{format:?} {columns} columns: {:?}",
            String::from_utf8_lossy(bytes)
        );
    }

    #[test]
    fn block_reader_equals_record_reader_on_random_bytes() {
        // Bytes that matter to either format, among plain ones and non-UTF-8; blocks
        // long enough to cross several 64-byte words.
        let alphabet: &[&[u8]] = &[
            b"a",
            b"bc",
            b",",
            b"\"",
            b"\n",
            b"\r",
            b"\t",
            b"\\",
            b"\"\"",
            b"\r\n",
            "\u{e9}".as_bytes(),
            b"\xff",
            b"https://x.example/p?q=1",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for case in 0..30_000 {
            let mut bytes = Vec::new();
            let pieces = rng.below(if case % 10 == 0 { 200 } else { 40 });
            for _ in 0..pieces {
                bytes.extend_from_slice(alphabet[rng.below(alphabet.len())]);
            }
            let columns = 1 + rng.below(3);
            let url = rng.below(columns);
            let base = (rng.below(3) == 0).then(|| rng.below(columns));
            for format in [InputFormat::Csv, InputFormat::Tsv] {
                same(format, &bytes, columns, url, base);
            }
        }
    }

    #[test]
    fn block_reader_equals_record_reader_on_well_formed_tables() {
        let mut rng = Rng(42);
        let values = [
            "",
            "a",
            "https://a.example/?q=1,2",
            "x\"y",
            "l1\nl2",
            "t\tb",
            "s\\",
            " ",
        ];
        for _ in 0..5_000 {
            let columns = 1 + rng.below(3);
            let (mut csv, mut tsv) = (Vec::new(), Vec::new());
            for _ in 0..rng.below(30) {
                for c in 0..columns {
                    let v = values[rng.below(values.len())];
                    if c > 0 {
                        csv.push(b',');
                        tsv.push(b'\t');
                    }
                    if v.contains([',', '"', '\n']) || rng.below(4) == 0 {
                        csv.push(b'"');
                        csv.extend_from_slice(v.replace('"', "\"\"").as_bytes());
                        csv.push(b'"');
                    } else {
                        csv.extend_from_slice(v.as_bytes());
                    }
                    let escaped = v
                        .replace('\\', "\\\\")
                        .replace('\t', "\\t")
                        .replace('\n', "\\n");
                    tsv.extend_from_slice(escaped.as_bytes());
                }
                let end: &[u8] = if rng.below(2) == 0 { b"\n" } else { b"\r\n" };
                csv.extend_from_slice(end);
                tsv.extend_from_slice(end);
                if rng.below(8) == 0 {
                    csv.push(b'\n');
                    tsv.push(b'\n');
                }
            }
            if rng.below(3) == 0 {
                csv.truncate(csv.len().saturating_sub(1));
                tsv.truncate(tsv.len().saturating_sub(1));
            }
            let url = rng.below(columns);
            same(InputFormat::Csv, &csv, columns, url, None);
            same(InputFormat::Tsv, &tsv, columns, url, None);
            let plan = plan(InputFormat::Csv, columns, url, None);
            let batch = Batch {
                input: 0,
                first_line: 1,
                bytes: csv.len() as u64,
                data: Data::Text(csv),
                directive: None,
            };
            assert_eq!(decode(&plan, &batch).error, None);
        }
    }
}
