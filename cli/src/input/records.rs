//! The records of a batch that is not plain lines, decoded once into one buffer: for each
//! row its line number, the text it is parsed from, its base cell and the cells that pass
//! through. The engine's source ([`super::window`]) hands the rows' texts to the parser;
//! the sink finds the rest of each row here by its index.

use std::borrow::Cow;
use std::ops::Range;

use arrow_array::{ArrayRef, RecordBatch};

use super::rows::{Plan, Strings, arrow_cell, split_fields};
use super::source::{Batch, Data, InputFormat};
use super::table::{self, Cell};

/// Where a cell's text lies in [`Records::text`], and what kind of cell it is.
#[derive(Clone, Debug)]
enum Span {
    Text(Range<usize>),
    Raw(Range<usize>),
    Null,
}

/// One decoded row.
#[derive(Clone, Debug)]
pub struct Record {
    /// Its line number (CSV: where its record starts; Parquet: its row number).
    pub line: u64,
    /// The text shown as the row's input (the URL cell, or the whole line of a
    /// tab-separated line with a base field).
    shown: Range<usize>,
    /// The text to parse; `None` when the URL cell is null or absent.
    url: Option<Range<usize>>,
    /// The base cell, when there is one.
    base: Option<Range<usize>>,
    /// Its passed-through cells, in [`Records::cells`].
    cells: Range<usize>,
}

/// The decoded rows of one batch.
#[derive(Default, Debug)]
pub struct Records {
    text: String,
    rows: Vec<Record>,
    cells: Vec<Span>,
    /// Why reading stopped before the end of the batch (the rows before it are kept): a
    /// message naming the file, the line and the column.
    pub error: Option<String>,
}

impl Records {
    /// The rows.
    pub fn rows(&self) -> &[Record] {
        &self.rows
    }

    /// The text of `range`.
    fn at(&self, range: &Range<usize>) -> &str {
        &self.text[range.clone()]
    }

    /// The text row `row` is parsed from (`None`: no URL).
    pub fn url(&self, row: &Record) -> Option<&str> {
        row.url.as_ref().map(|r| self.at(r))
    }

    /// The base cell of `row`, if any.
    pub fn base(&self, row: &Record) -> Option<&str> {
        row.base.as_ref().map(|r| self.at(r))
    }

    /// The text shown as `row`'s input.
    pub fn shown(&self, row: &Record) -> &str {
        self.at(&row.shown)
    }

    /// The passed-through cells of `row`, into `out` (cleared first).
    pub fn cells<'s>(&'s self, row: &Record, out: &mut Vec<Cell<'s>>) {
        out.clear();
        out.extend(self.cells[row.cells.clone()].iter().map(|s| match s {
            Span::Text(r) => Cell::Text(Cow::Borrowed(self.at(r))),
            Span::Raw(r) => Cell::Raw(Cow::Borrowed(self.at(r))),
            Span::Null => Cell::Null,
        }));
    }

    /// Copies `text` in; its range.
    fn push_text(&mut self, text: &str) -> Range<usize> {
        let start = self.text.len();
        self.text.push_str(text);
        start..self.text.len()
    }

    /// Adds a row.
    fn push(&mut self, line: u64, url: Option<&str>, base: Option<&str>, cells: &[Cell<'_>]) {
        let url = url.map(|u| self.push_text(u));
        let base = base.map(|b| self.push_text(b));
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
            shown: url.clone().unwrap_or(0..0),
            url,
            base,
            cells: first..self.cells.len(),
        });
    }
}

/// Whether a batch's rows go to the engine as plain lines (no decoding here).
pub fn plain_lines(plan: &Plan, batch: &Batch) -> bool {
    plan.format == InputFormat::Lines && plan.base.is_none() && matches!(batch.data, Data::Text(_))
}

/// Decodes `batch` (not plain lines: see [`plain_lines`]).
pub fn decode(plan: &Plan, batch: &Batch) -> Records {
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
            _ => table_rows(&mut records, plan, name, first, bytes),
        },
    };
    records.error = result.err();
    records
}

/// Lines with a base field (`--base-column N`): the URL is a tab-separated field; the
/// input shown is the whole line, as read (decoded with U+FFFD when not UTF-8).
fn based_lines(records: &mut Records, plan: &Plan, first: u64, bytes: &[u8]) {
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

/// CSV and TSV records.
fn table_rows(
    records: &mut Records,
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

/// JSON Lines objects: cells by key, in the columns' order.
fn json_rows(
    records: &mut Records,
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
    records: &mut Records,
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
