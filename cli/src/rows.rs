//! From a batch to rows: each record's URL cell parsed (against `--base` or its base
//! cell), with the cells that pass through, handed one at a time to the command's sink.

use std::borrow::Cow;
use std::fmt;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType;
use rapidurl::batch::LineBlock;
use rapidurl::bumpalo::Bump;
use rapidurl::{ErrorKind, ParseError, Url, UrlRef};

use crate::source::{Batch, Data, InputFormat};
use crate::split;
use crate::table::{self, Cell};

/// How the records of every input become rows: the table's columns and which of them
/// hold the URL, its base, and what passes through.
pub struct Plan {
    /// The inputs' format (all inputs have the same).
    pub format: InputFormat,
    /// The inputs' names, for diagnostics.
    pub names: Vec<String>,
    /// The columns of a table input (empty for lines).
    pub columns: Vec<String>,
    /// The URL's column (tables).
    pub url: usize,
    /// The base's column: for tables, an index into `columns`; for lines, the 0-based
    /// tab-separated field (`--base-column N`).
    pub base: Option<usize>,
    /// The columns passed through, in order.
    pub pass: Vec<usize>,
    /// Whether the sink wants the passed-through cells as [`Cell`]s (not when Parquet
    /// passes Arrow columns straight through).
    pub cells: bool,
    /// `--base`.
    pub base_url: Option<Url>,
}

/// Why a row has no URL.
#[derive(Clone, Debug)]
pub enum RowError {
    /// The cell did not parse.
    Parse(ParseError),
    /// The cell is null or absent.
    Missing,
}

impl RowError {
    /// A short name: the Standard's validation-error name, or `missing-URL`.
    pub fn name(&self) -> &'static str {
        match self {
            RowError::Parse(e) => e.name(),
            RowError::Missing => "missing-URL",
        }
    }

    /// The 1-based byte position of the problem in the cell (1 when there is none).
    pub fn column(&self) -> usize {
        match self {
            RowError::Parse(e) => e.offset().map_or(1, |o| o + 1),
            RowError::Missing => 1,
        }
    }
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowError::Parse(e) => e.fmt(f),
            RowError::Missing => f.write_str("missing-URL: the URL cell is null or absent"),
        }
    }
}

/// One row.
pub struct Row<'r> {
    /// Its line number (CSV: where its record starts; Parquet: its row number).
    pub line: u64,
    /// Its index in the batch.
    pub index: usize,
    /// The URL cell as read.
    pub input: &'r str,
    /// The URL, or why there is none.
    pub url: Result<UrlRef<'r>, RowError>,
    /// The passed-through cells (when [`Plan::cells`]).
    pub cells: &'r [Cell<'r>],
}

/// Whether to go on after a row.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Next row.
    Go,
    /// Stop the batch here.
    Stop,
}

/// What a command does with rows.
pub trait RowSink {
    /// A row of plain lines whose URL parsed (the hot path, inlined into the line loop:
    /// no [`Row`] is built unless the sink builds one): by default, [`Self::row`].
    #[inline(always)]
    fn line_url(&mut self, line: u64, index: usize, input: &str, url: &UrlRef<'_>) -> Flow {
        self.row(&Row {
            line,
            index,
            input,
            url: Ok(*url),
            cells: &[],
        })
    }

    /// Any other row.
    fn row(&mut self, row: &Row<'_>) -> Flow;
}

impl<F: FnMut(&Row<'_>) -> Flow> RowSink for F {
    #[inline(always)]
    fn row(&mut self, row: &Row<'_>) -> Flow {
        self(row)
    }
}

/// A line whose URL did not parse: its [`Row`], to `sink` (out of the line loop: such
/// lines are rare). Offsets count bytes of the line as read (`raw`, when the line was
/// decoded with U+FFFD; only the URL field is decoded when a base column splits it).
#[cold]
#[inline(never)]
fn bad_line<S: RowSink>(
    sink: &mut S,
    plan: &Plan,
    (line, index): (u64, usize),
    input: &str,
    raw: Option<&[u8]>,
    e: ParseError,
) -> Flow {
    let e = match raw {
        Some(raw) if plan.base.is_none() => e.in_raw_utf8(raw),
        _ => e,
    };
    sink.row(&Row {
        line,
        index,
        input,
        url: Err(RowError::Parse(e)),
        cells: &[],
    })
}

/// A worker's reusable state: the arena of non-canonical URLs and the last base.
#[derive(Default)]
pub struct RowParser {
    arena: Bump,
    last_base: Option<(String, Result<Url, ParseError>)>,
    /// The line-feed masks of the block being read (lines), reused from block to block.
    masks: Vec<u64>,
}

/// Arena bytes after which it is emptied between rows.
const ARENA_LIMIT: usize = 256 * 1024;

/// The base for a row whose base cell is `cell` (an empty or absent cell means `--base`),
/// parsed once for a run of rows that share it.
fn base_for<'s>(
    last: &'s mut Option<(String, Result<Url, ParseError>)>,
    cell: Option<&str>,
    plan: &'s Plan,
) -> Option<Result<&'s Url, ParseError>> {
    match cell.filter(|c| !c.is_empty()) {
        None => plan.base_url.as_ref().map(Ok),
        Some(text) => {
            if last.as_ref().is_none_or(|(s, _)| s != text) {
                let parsed = Url::parse(text).map_err(|_| ParseError::from(ErrorKind::InvalidBase));
                *last = Some((text.to_owned(), parsed));
            }
            last.as_ref().map(|(_, r)| r.as_ref().map_err(Clone::clone))
        }
    }
}

impl RowParser {
    /// Calls `each` on every row of `batch`; `Err` is a message naming the file, line
    /// and column of a record that cannot be read.
    pub fn rows<S: RowSink>(
        &mut self,
        plan: &Plan,
        batch: &Batch,
        sink: &mut S,
    ) -> Result<(), String> {
        let name = &plan.names[batch.input];
        let first = batch.first_line;
        let mut each = |row: &Row<'_>| sink.row(row);
        match &batch.data {
            Data::Fatal(msg) => Err(msg.clone()),
            Data::Arrow {
                batch: rows,
                row_group,
            } => self.arrow_rows(plan, name, first, rows, *row_group, &mut each),
            Data::Lines(block) => {
                if block.is_ascii() && plan.base.is_none() && plan.base_url.is_none() {
                    self.ascii_line_rows(plan, first, block, sink);
                } else {
                    self.line_rows(plan, first, block.bytes(), sink);
                }
                Ok(())
            }
            Data::Text(bytes) => match plan.format {
                InputFormat::Lines => {
                    self.line_rows(plan, first, bytes, sink);
                    Ok(())
                }
                InputFormat::Jsonl => self.json_rows(plan, name, first, bytes, &mut each),
                _ => self.table_rows(plan, name, first, bytes, &mut each),
            },
        }
    }

    /// Parses `input` and calls `each`; empties the arena when it has grown.
    fn row(
        &mut self,
        plan: &Plan,
        row: (u64, usize),
        input: Option<&str>,
        base: Option<&str>,
        cells: &[Cell<'_>],
        each: &mut dyn FnMut(&Row<'_>) -> Flow,
    ) -> Flow {
        let RowParser {
            arena, last_base, ..
        } = self;
        let base = base_for(last_base, base, plan);
        let arena = &*arena;
        let url = match (input, base) {
            (None, _) => Err(RowError::Missing),
            (Some(_), Some(Err(e))) => Err(RowError::Parse(e)),
            (Some(text), None) => rapidurl::parse_ref(text, arena).map_err(RowError::Parse),
            (Some(text), Some(Ok(base))) => {
                rapidurl::parse_ref_with_base(text, &base.as_ref_view(), arena)
                    .map_err(RowError::Parse)
            }
        };
        let flow = each(&Row {
            line: row.0,
            index: row.1,
            input: input.unwrap_or(""),
            url,
            cells,
        });
        if self.arena.allocated_bytes() > ARENA_LIMIT {
            self.arena.reset();
        }
        flow
    }

    /// One URL per line (the hot path: no cells, no copies of canonical lines, no [`Row`]
    /// for a line whose URL parses; generic over `sink`, so that the command's row
    /// handling is compiled into the loop). Lines end at `\n`, less one `\r`; a last line
    /// without `\n` counts. The line feeds are found in one vectorized pass over the block
    /// ([`split::lines`]), which also says whether the block is ASCII; a block that is not
    /// is checked for UTF-8 once (`simdutf8`), and only when that fails is each line
    /// checked, and a line that is not UTF-8 decoded with U+FFFD, its errors' offsets
    /// moved back to its raw bytes.
    fn line_rows<S: RowSink>(&mut self, plan: &Plan, first_line: u64, bytes: &[u8], sink: &mut S) {
        let RowParser {
            arena,
            last_base,
            masks,
        } = self;
        let (ends, ascii) = split::lines(bytes, masks);
        let whole = ascii.or_else(|| simdutf8::basic::from_utf8(bytes).ok());
        let lines = Lines {
            plan,
            first_line,
            bytes,
            whole,
        };
        // The common case, compiled on its own: UTF-8 text, one URL per line, no base.
        if whole.is_some() && plan.base.is_none() && plan.base_url.is_none() {
            lines.each::<S, true>(ends, arena, last_base, sink);
        } else {
            lines.each::<S, false>(ends, arena, last_base, sink);
        }
        if arena.allocated_bytes() > ARENA_LIMIT {
            arena.reset();
        }
    }

    /// One URL per line, the lines of an ASCII block already cut by the reader thread,
    /// no base (the hot path of [`RowParser::line_rows`], without the line search).
    fn ascii_line_rows<S: RowSink>(
        &mut self,
        plan: &Plan,
        first_line: u64,
        block: &LineBlock,
        sink: &mut S,
    ) {
        let arena = &mut self.arena;
        for (index, line) in block.lines().enumerate() {
            let line_no = first_line + index as u64;
            let flow = match rapidurl::parse_ref(line, arena) {
                Ok(url) => sink.line_url(line_no, index, line, &url),
                Err(e) => bad_line(sink, plan, (line_no, index), line, None, e),
            };
            // Every 64 lines, as in `Lines::each`.
            if index % 64 == 63 && arena.allocated_bytes() > ARENA_LIMIT {
                arena.reset();
            }
            if flow == Flow::Stop {
                break;
            }
        }
        if arena.allocated_bytes() > ARENA_LIMIT {
            arena.reset();
        }
    }

    /// CSV and TSV records.
    fn table_rows(
        &mut self,
        plan: &Plan,
        name: &str,
        first_line: u64,
        bytes: &[u8],
        each: &mut dyn FnMut(&Row<'_>) -> Flow,
    ) -> Result<(), String> {
        let text = String::from_utf8_lossy(bytes);
        let delimiter = if plan.format == InputFormat::Csv {
            b','
        } else {
            b'\t'
        };
        let mut record: Vec<Cow<'_, str>> = Vec::with_capacity(plan.columns.len());
        let mut cells: Vec<Cell<'_>> = Vec::with_capacity(plan.pass.len());
        let (mut pos, mut line, mut index) = (0usize, first_line, 0usize);
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
            if self.row(
                plan,
                (line, index),
                Some(&record[plan.url]),
                base,
                &cells,
                each,
            ) == Flow::Stop
            {
                return Ok(());
            }
            line += lines;
            index += 1;
        }
        Ok(())
    }

    /// JSON Lines objects: cells by key, in the columns' order.
    fn json_rows(
        &mut self,
        plan: &Plan,
        name: &str,
        first_line: u64,
        bytes: &[u8],
        each: &mut dyn FnMut(&Row<'_>) -> Flow,
    ) -> Result<(), String> {
        let text = String::from_utf8_lossy(bytes);
        let mut values: Vec<Option<&serde_json::value::RawValue>> = Vec::new();
        let mut cells: Vec<Cell<'_>> = Vec::new();
        let mut index = 0;
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
            if self.row(
                plan,
                (line_no, index),
                url.as_deref(),
                base.as_deref(),
                &cells,
                each,
            ) == Flow::Stop
            {
                return Ok(());
            }
            index += 1;
        }
        Ok(())
    }

    /// Rows of a Parquet record batch.
    fn arrow_rows(
        &mut self,
        plan: &Plan,
        name: &str,
        first_row: u64,
        rows: &RecordBatch,
        row_group: usize,
        each: &mut dyn FnMut(&Row<'_>) -> Flow,
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
        let pass: Vec<(&ArrayRef, Option<arrow_cast::display::ArrayFormatter<'_>>)> = if plan.cells
        {
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
            let line = first_row + index as u64;
            if self.row(plan, (line, index), url.get(index), base, &cells, each) == Flow::Stop {
                break;
            }
        }
        Ok(())
    }
}

/// A block of plain lines being parsed ([`RowParser::line_rows`]).
struct Lines<'p> {
    plan: &'p Plan,
    first_line: u64,
    bytes: &'p [u8],
    /// The block as text, when it is UTF-8.
    whole: Option<&'p str>,
}

impl Lines<'_> {
    /// Parses every line and hands it to `sink`. `PLAIN`: the block is UTF-8 and there is
    /// no base (the hot path, compiled without the branches of the other cases).
    #[inline(always)]
    fn each<S: RowSink, const PLAIN: bool>(
        &self,
        ends: split::LineEnds<'_>,
        arena: &mut Bump,
        last_base: &mut Option<(String, Result<Url, ParseError>)>,
        sink: &mut S,
    ) {
        let Lines {
            plan,
            first_line,
            bytes,
            whole,
        } = *self;
        let base = plan.base_url.as_ref().map(Url::as_ref_view);
        // The text not yet cut into lines (when the block is UTF-8), and where it starts.
        let (mut rest, mut start) = (whole.unwrap_or(""), 0usize);
        for (index, end) in ends.enumerate() {
            let lossy_line;
            let (line, raw) = if PLAIN || whole.is_some() {
                // The line with its `\n` (which is ASCII: cutting after it stays on a char
                // boundary), then without it and one `\r` (no boundary check for these).
                let (line, after) = rest.split_at((end + 1 - start).min(rest.len()));
                rest = after;
                let line = line.strip_suffix('\n').unwrap_or(line);
                (line.strip_suffix('\r').unwrap_or(line), None)
            } else {
                let raw = &bytes[start..end];
                let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
                lossy_line = String::from_utf8_lossy(raw);
                (&*lossy_line, Some(raw))
            };
            start = end + 1;
            let line_no = first_line + index as u64;
            let url = if PLAIN {
                rapidurl::parse_ref(line, arena)
            } else {
                let (url_text, row_base) = match plan.base {
                    // `--base-column N`: the line is tab-separated; the input shown is the
                    // whole line, as read.
                    Some(column) => {
                        let (url, cell) = split_fields(line, column);
                        (
                            url,
                            base_for(last_base, cell, plan).map(|b| b.map(Url::as_ref_view)),
                        )
                    }
                    None => (line, base.map(Ok)),
                };
                match row_base {
                    None => rapidurl::parse_ref(url_text, arena),
                    Some(Ok(b)) => rapidurl::parse_ref_with_base(url_text, &b, arena),
                    Some(Err(e)) => Err(e),
                }
            };
            let flow = match &url {
                Ok(url) => sink.line_url(line_no, index, line, url),
                Err(e) => bad_line(sink, plan, (line_no, index), line, raw, *e),
            };
            // Every 64 lines (canonical lines, most of them, take nothing from the arena;
            // 64 lines of a block hold at most the block's bytes).
            if index % 64 == 63 && arena.allocated_bytes() > ARENA_LIMIT {
                arena.reset();
            }
            if flow == Flow::Stop {
                break;
            }
        }
    }
}

/// One value of an Arrow column as a cell: strings as text, numbers and booleans as
/// bare JSON, anything else as its display text.
fn arrow_cell<'a>(
    array: &'a ArrayRef,
    formatter: Option<&arrow_cast::display::ArrayFormatter<'_>>,
    i: usize,
) -> Cell<'a> {
    if array.is_null(i) {
        return Cell::Null;
    }
    if let Some(s) = Strings::of(array) {
        return s
            .get(i)
            .map_or(Cell::Null, |s| Cell::Text(Cow::Borrowed(s)));
    }
    let text = formatter.map_or_else(String::new, |f| f.value(i).to_string());
    let dt = array.data_type();
    if dt.is_numeric() || *dt == DataType::Boolean {
        // NaN and infinities are not JSON numbers.
        if text.parse::<f64>().is_ok_and(f64::is_finite) || *dt == DataType::Boolean {
            return Cell::Raw(Cow::Owned(text));
        }
    }
    Cell::Text(Cow::Owned(text))
}

/// A string column of any of Arrow's string layouts.
pub enum Strings<'a> {
    /// `Utf8`.
    Small(&'a arrow_array::StringArray),
    /// `LargeUtf8`.
    Large(&'a arrow_array::LargeStringArray),
    /// `Utf8View`.
    View(&'a arrow_array::StringViewArray),
}

impl<'a> Strings<'a> {
    /// The column, if it holds strings.
    pub fn of(array: &'a ArrayRef) -> Option<Strings<'a>> {
        Some(match array.data_type() {
            DataType::Utf8 => Strings::Small(array.as_string::<i32>()),
            DataType::LargeUtf8 => Strings::Large(array.as_string::<i64>()),
            DataType::Utf8View => Strings::View(array.as_string_view()),
            _ => return None,
        })
    }

    /// Row `i`, `None` when null.
    pub fn get(&self, i: usize) -> Option<&'a str> {
        match self {
            Strings::Small(a) => (!a.is_null(i)).then(|| a.value(i)),
            Strings::Large(a) => (!a.is_null(i)).then(|| a.value(i)),
            Strings::View(a) => (!a.is_null(i)).then(|| a.value(i)),
        }
    }
}

/// The URL field and the base field of a tab-separated line whose base is in field
/// `base_column` (0-based): the URL is the first field, or the second when the base is
/// the first. A missing URL field is the empty string; a missing base field is `None`.
pub fn split_fields(line: &str, base_column: usize) -> (&str, Option<&str>) {
    let url_column = usize::from(base_column == 0);
    let (mut url, mut base) = ("", None);
    for (i, field) in line.split('\t').enumerate() {
        if i == url_column {
            url = field;
        }
        if i == base_column {
            base = Some(field);
        }
        if i >= url_column.max(base_column) {
            break;
        }
    }
    (url, base)
}

#[cfg(test)]
mod tests {
    use super::split_fields;

    #[test]
    fn fields() {
        assert_eq!(split_fields("u\tb", 1), ("u", Some("b")));
        assert_eq!(split_fields("b\tu\tx", 0), ("u", Some("b")));
        assert_eq!(split_fields("u", 1), ("u", None));
        assert_eq!(split_fields("b", 0), ("", Some("b")));
        assert_eq!(split_fields("u\tx\tb", 2), ("u", Some("b")));
        assert_eq!(split_fields("u\t", 1), ("u", Some("")));
    }
}
