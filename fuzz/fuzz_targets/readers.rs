//! The tool's readers (`rapidurl_cli`: `source::Input`, `source::Reader`,
//! `rows::RowParser`) over CSV, TSV, JSON Lines and Parquet files, read in blocks as small
//! as one byte.
//!
//! Two kinds of input (`arbitrary`):
//! - raw bytes as a file of the chosen format (Parquet: a file written from generated
//!   rows, then bytes of it overwritten);
//! - a table of generated cells (any strings, nulls), written in the format by code of
//!   this target (RFC 4180 quoting, the tool's TSV escapes, `serde_json`, the Parquet
//!   writer).
//!
//! Logs and crawl indexes (common, combined, vhost_combined, W3C, ALB, CDX, CDXJ): lines
//! made of well-formed lines of the format, their prefixes, lines with arbitrary text in
//! their quoted fields, and arbitrary bytes. Every line that is not blank (nor a W3C
//! directive, nor a CDX header) is one row, an error row when it is not its format's
//! (with one of the formats' error names); the rows are the same in blocks of any size.
//!
//! Compressed raw text (gzip, zstd, bzip2 or xz, perhaps cut short) reads as the same
//! text does uncompressed: the same rows and failure when whole; when cut, a prefix of
//! those rows, then a failure naming the stream; with bits flipped anywhere in it (a
//! lying size or checksum, a bad code), any rows and no panic.
//!
//! Invariants: no panic; CSV and TSV batches decode to the same rows and error by the
//! block reader (`records::decode`) as by the record reader
//! (`records::decode_by_record`); every failure is a message that starts with the file's
//! name and a place (`NAME:LINE:` or `NAME: row group N:`), otherwise every record is a row, in
//! order: a written table gives back each row's URL cell (null: `missing-URL`), its other
//! cells and its line (CSV: where the record starts; Parquet: the row number); raw text
//! gives one row per record as counted here (non-blank lines after the header; CSV records
//! ended by a line feed outside quotes), with increasing line numbers.
#![no_main]

use std::path::PathBuf;
use std::sync::Arc;

use arbitrary::Arbitrary;
use arrow_array::{ArrayRef, RecordBatch, StringArray};
use libfuzzer_sys::fuzz_target;
use rapidurl_cli::rows::{Flow, Plan, Row, RowError, RowSink};
use rapidurl_cli::source::{Batch, Data, Input, InputFormat, Reader};
use rapidurl_cli::table::Cell;
use rapidurl_cli::window::{Work, parse_window};

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
enum Format {
    Csv,
    Tsv,
    Jsonl,
    Parquet,
}

impl Format {
    fn input(self) -> InputFormat {
        match self {
            Format::Csv => InputFormat::Csv,
            Format::Tsv => InputFormat::Tsv,
            Format::Jsonl => InputFormat::Jsonl,
            Format::Parquet => InputFormat::Parquet,
        }
    }
}

#[derive(Arbitrary, Debug, Clone, Copy, PartialEq)]
enum LogFormat {
    Common,
    Combined,
    VhostCombined,
    W3c,
    Alb,
    Cdx,
    Cdxj,
}

impl LogFormat {
    fn input(self) -> InputFormat {
        match self {
            LogFormat::Common => InputFormat::Common,
            LogFormat::Combined => InputFormat::Combined,
            LogFormat::VhostCombined => InputFormat::VhostCombined,
            LogFormat::W3c => InputFormat::W3c,
            LogFormat::Alb => InputFormat::Alb,
            LogFormat::Cdx => InputFormat::Cdx,
            LogFormat::Cdxj => InputFormat::Cdxj,
        }
    }

    /// A well-formed line of the format with `text` in it (in the request target and
    /// a quoted field, or the URL).
    fn line(self, text: &str) -> String {
        let quoted = text.replace('\\', "\\\\").replace('"', "\\\"");
        let path = text.replace([' ', '\n', '\r', '"', '\t'], "_");
        match self {
            LogFormat::Common => {
                format!("1.2.3.4 - - [28/Nov/2026:00:00:00 +0000] \"GET /{path} HTTP/1.1\" 200 5")
            }
            LogFormat::Combined => format!(
                "1.2.3.4 - u [t] \"GET /{path} HTTP/1.1\" 200 5 \"https://r.example/{path}\" \"{quoted}\""
            ),
            LogFormat::VhostCombined => format!(
                "h.example:443 1.2.3.4 - - [t] \"GET /{path} HTTP/1.1\" 404 - \"-\" \"{quoted}\""
            ),
            LogFormat::W3c => format!("2026-11-28 00:00:00 GET /{path} q=1 h.example 443"),
            LogFormat::Alb => format!(
                "https 2026-11-28T00:00:00Z app/lb 1.2.3.4:5 10.0.0.1:80 0.0 0.0 0.0 200 200 \
                 1 2 \"GET https://h.example:443/{path} HTTP/1.1\" \"{quoted}\" - - arn \"x\""
            ),
            LogFormat::Cdx => {
                format!("com,h)/{path} 20261128 https://h.example/{path} - 200 D - - 1 0 f")
            }
            LogFormat::Cdxj => format!(
                "com,h)/{path} 20261128 {}",
                serde_json::json!({"url": format!("https://h.example/{text}"), "status": 200})
            ),
        }
    }

    /// The header the format's files start with (W3C's directive, sometimes CDX's).
    fn header(self, with: bool) -> &'static str {
        match self {
            LogFormat::W3c => {
                "#Version: 1.0\n#Fields: date time cs-method cs-uri-stem cs-uri-query cs-host s-port\n"
            }
            LogFormat::Cdx if with => " CDX N b a m s k r M S V g\n",
            _ => "",
        }
    }
}

/// A line of a generated log: its kind and a text.
#[derive(Arbitrary, Debug)]
enum LogLine {
    /// A well-formed line with the text in it.
    Good(String),
    /// The first `n` bytes of a well-formed line.
    Cut(String, u8),
    /// The text as a line.
    Text(String),
    /// Bytes as a line (line feeds removed).
    Bytes(Vec<u8>),
    /// A later W3C directive naming other fields, or a blank line.
    Directive(bool),
}

#[derive(Arbitrary, Debug)]
enum Case {
    /// A log or crawl index.
    Log {
        format: LogFormat,
        block: u8,
        header: bool,
        lines: Vec<LogLine>,
    },
    Raw {
        format: Format,
        block: u8,
        bytes: Vec<u8>,
    },
    /// Raw bytes of a text format, compressed (and perhaps cut short).
    Compressed {
        format: Format,
        block: u8,
        bytes: Vec<u8>,
        /// gzip, zstd, bzip2, xz: this modulo 4.
        codec: u8,
        /// Bytes cut off the end of the compressed stream.
        cut: u16,
        /// Bits flipped in the compressed stream (none when 0), at this byte (modulo its
        /// length): a lying size or checksum, a bad code.
        flip: (u16, u8),
    },
    Table {
        format: Format,
        block: u8,
        /// 1 to 3 columns; the URL's is `url % columns`.
        columns: u8,
        url: u8,
        rows: Vec<Vec<Option<String>>>,
        crlf: bool,
        /// Parquet: rows per row group (1 + this).
        group: u8,
        /// Parquet: bytes overwritten (offset from the end, value).
        damage: Vec<(u16, u8)>,
    },
}

/// What the readers made of a file: rows (line, URL cell or error, other cells as text)
/// and the failure message, if any.
struct Outcome {
    rows: Vec<(u64, Result<String, String>, Vec<Option<String>>)>,
    failure: Option<String>,
}

fn path_for(format: Format) -> PathBuf {
    let ext = match format {
        Format::Csv => "csv",
        Format::Tsv => "tsv",
        Format::Jsonl => "jsonl",
        Format::Parquet => "parquet",
    };
    temp_path(ext)
}

fn temp_path(ext: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "rapidurl-fuzz-readers-{}.{ext}",
        std::process::id()
    ))
}

/// Opens `bytes` as a file of `format` and reads every row, as the tool does (the URL
/// in column `url` of the header, every other column passed through).
fn read(format: Format, bytes: &[u8], block: usize, url: Option<usize>) -> Outcome {
    read_as(format.input(), path_for(format), bytes, block, url)
}

/// [`read`] for any format, from a file at `path`.
fn read_as(
    format: InputFormat,
    path: PathBuf,
    bytes: &[u8],
    block: usize,
    url: Option<usize>,
) -> Outcome {
    std::fs::write(&path, bytes).expect("temporary file");
    let name = path.to_str().expect("UTF-8 path").to_owned();
    let failed = |msg: String| Outcome {
        rows: Vec::new(),
        failure: Some(msg),
    };
    let mut input = match Input::open(&name, Some(format), block) {
        Ok(input) => input,
        Err(msg) => return failed(msg),
    };
    let columns = match input.columns() {
        Ok(columns) => columns.to_vec(),
        Err(msg) => return failed(msg),
    };
    if columns.is_empty() {
        return failed(format!("{name}: no columns"));
    }
    let url = url
        .or_else(|| columns.iter().position(|c| c == "url"))
        .unwrap_or(0)
        .min(columns.len() - 1);
    if let Err(msg) = rapidurl_cli::source::check_string_column(&input, &columns[url], "the URL") {
        return failed(msg);
    }
    let plan = Plan {
        format,
        names: vec![name.clone()],
        columns: columns.clone(),
        url,
        base: None,
        pass: (0..columns.len()).filter(|&i| i != url).collect(),
        cells: true,
        base_url: None,
        routes: None,
    };
    let (_free_tx, free_rx) = crossbeam_channel::unbounded();
    let mut batches = Vec::new();
    Reader {
        inputs: vec![input],
        columns,
        projection: None,
    }
    .run(
        &mut |batch, _| {
            batches.push(batch);
            true
        },
        &free_rx,
    );
    let mut out = Outcome {
        rows: Vec::new(),
        failure: None,
    };
    for batch in &batches {
        if let Data::Fatal(msg) = &batch.data {
            out.failure = Some(msg.clone());
            break;
        }
        if matches!(format, InputFormat::Csv | InputFormat::Tsv) {
            // The block reader (records cut at the bits of the block's byte masks) gives
            // what the record reader gives, rows and error alike.
            assert_eq!(
                rapidurl_cli::records::decode(&plan, batch).contents(),
                rapidurl_cli::records::decode_by_record(&plan, batch).contents(),
                "block reader against record reader"
            );
        }
        let (rows, failure) = parse_window(&plan, std::slice::from_ref(batch), &Collect, false)
            .pop()
            .expect("one result per batch");
        out.rows.extend(rows);
        if failure.is_some() {
            out.failure = failure;
            break;
        }
    }
    let _ = std::fs::remove_file(&path);
    if let Some(msg) = &out.failure {
        let placed = msg.strip_prefix(name.as_str()).is_some_and(|rest| {
            rest.starts_with(": row group ")
                || rest.starts_with(": ")
                || rest
                    .strip_prefix(':')
                    .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        });
        assert!(placed, "a failure without its place: {msg:?}");
    }
    out
}

/// The rows of a batch, as [`Outcome::rows`] holds them.
type Rows = Vec<(u64, Result<String, String>, Vec<Option<String>>)>;

/// A command that keeps every row it is given, owned.
struct Collect;

/// One batch's rows.
struct Kept(Rows);

impl RowSink for Kept {
    fn row(&mut self, row: &Row<'_>) -> Flow {
        let url = match &row.url {
            Ok(_) => Ok(row.input.to_owned()),
            Err(RowError::Missing) => Err("missing-URL".to_owned()),
            Err(RowError::Parse(_)) => Ok(row.input.to_owned()),
            // No route table here: no lookup runs out of steps.
            Err(RowError::Route(e)) => Err(e.to_string()),
            Err(RowError::Unreadable(f)) => {
                assert!(
                    [
                        rapidurl_cli::logs::NOT_A_LOG_LINE,
                        rapidurl_cli::logs::NOT_A_REQUEST,
                        rapidurl_cli::logs::NOT_A_URL_TARGET,
                        rapidurl_cli::logs::NO_HOST,
                    ]
                    .contains(&f.name),
                    "{f:?}"
                );
                assert!(
                    f.column >= 1 && f.column <= row.input.len() + 1,
                    "{f:?} {:?}",
                    row.input
                );
                Err(f.name.to_owned())
            }
        };
        let cells = row
            .cells
            .iter()
            .map(|c| match c {
                Cell::Null => None,
                other => Some(other.text().to_owned()),
            })
            .collect();
        self.0.push((row.line, url, cells));
        Flow::Go
    }
}

impl Work for Collect {
    type Out = (Rows, Option<String>);
    type Part<'w> = Kept;
    fn part<'w>(&'w self, _: &'w Batch) -> Kept {
        Kept(Vec::new())
    }
    fn done(&self, part: Kept, error: Option<String>) -> (Rows, Option<String>) {
        (part.0, error)
    }
}

/// CSV records of `bytes` (after a byte-order mark), as RFC 4180 ends them: at a line
/// feed outside quotes. Each is (its first line, whether it is blank).
fn csv_records(bytes: &[u8]) -> Vec<(u64, bool)> {
    let mut out = Vec::new();
    let (mut line, mut start_line, mut quoted, mut start) = (1u64, 1u64, false, 0usize);
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'"' {
            quoted = !quoted;
        } else if b == b'\n' {
            line += 1;
            if !quoted {
                let record = &bytes[start..i];
                out.push((start_line, record.is_empty() || record == b"\r"));
                start = i + 1;
                start_line = line;
            }
        }
    }
    if start < bytes.len() {
        let record = &bytes[start..];
        out.push((start_line, record == b"\r"));
    }
    out
}

/// Lines of `bytes` (a last one without a line feed counts): (line number, blank).
fn lines(bytes: &[u8], blank: impl Fn(&[u8]) -> bool) -> Vec<(u64, bool)> {
    let mut out: Vec<(u64, bool)> = bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, l)| (i as u64 + 1, blank(l)))
        .collect();
    if bytes.ends_with(b"\n") || bytes.is_empty() {
        out.pop();
    }
    out
}

fn raw(format: Format, block: usize, bytes: &[u8]) {
    let out = read(format, bytes, block, None);
    if out.failure.is_some() || format == Format::Parquet {
        let lines: Vec<u64> = out.rows.iter().map(|r| r.0).collect();
        assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
        return;
    }
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let records = match format {
        Format::Csv => csv_records(body).into_iter().skip(1).collect(),
        Format::Tsv => lines(body, |l| l.is_empty() || l == b"\r")
            .into_iter()
            .skip(1)
            .collect(),
        _ => lines(body, |l| String::from_utf8_lossy(l).trim().is_empty()),
    };
    let want: Vec<u64> = records
        .into_iter()
        .filter(|&(_, blank)| !blank)
        .map(|(line, _)| line)
        .collect();
    let got: Vec<u64> = out.rows.iter().map(|r| r.0).collect();
    assert_eq!(got, want, "rows (by line) of {format:?} {bytes:?}");
}

fn csv_field(text: &str, alone: bool) -> String {
    if (alone && text.is_empty()) || text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

fn tsv_field(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn table(
    format: Format,
    block: usize,
    width: usize,
    url: usize,
    rows: &[Vec<Option<String>>],
    crlf: bool,
    group: usize,
    damage: &[(u16, u8)],
) {
    let names: Vec<String> = (0..width).map(|i| format!("c{i}")).collect();
    // Each row as `width` cells (missing ones null); CSV and TSV have no null: "".
    let mut rows: Vec<Vec<Option<String>>> = rows
        .iter()
        .take(64)
        .map(|r| (0..width).map(|i| r.get(i).cloned().flatten()).collect())
        .collect();
    if matches!(format, Format::Csv | Format::Tsv) {
        for row in &mut rows {
            for cell in row.iter_mut() {
                cell.get_or_insert_with(String::new);
            }
            // A one-column TSV cannot hold an empty cell (it is a blank line).
            if format == Format::Tsv && width == 1 && row[0].as_deref() == Some("") {
                row[0] = Some("-".to_owned());
            }
        }
    }
    let eol = if crlf { "\r\n" } else { "\n" };
    let mut text = String::new();
    let mut starts = Vec::new();
    let mut bytes = Vec::new();
    match format {
        Format::Csv | Format::Tsv => {
            let field = |s: &str| {
                if format == Format::Csv {
                    csv_field(s, width == 1)
                } else {
                    tsv_field(s)
                }
            };
            let sep = if format == Format::Csv { "," } else { "\t" };
            text.push_str(&names.join(sep));
            text.push_str(eol);
            for row in &rows {
                starts.push(1 + text.matches('\n').count() as u64);
                let cells: Vec<String> = row
                    .iter()
                    .map(|c| field(c.as_deref().unwrap_or("")))
                    .collect();
                text.push_str(&cells.join(sep));
                text.push_str(eol);
            }
        }
        Format::Jsonl => {
            for (i, row) in rows.iter().enumerate() {
                starts.push(i as u64 + 1);
                let object: serde_json::Map<String, serde_json::Value> = names
                    .iter()
                    .zip(row)
                    .map(|(n, c)| {
                        (
                            n.clone(),
                            c.clone()
                                .map_or(serde_json::Value::Null, serde_json::Value::String),
                        )
                    })
                    .collect();
                text.push_str(&serde_json::Value::Object(object).to_string());
                text.push_str(eol);
            }
            if rows.is_empty() {
                // The header is the first object's keys: no object, no columns.
                return;
            }
        }
        Format::Parquet => {
            let columns: Vec<ArrayRef> = (0..width)
                .map(|i| {
                    Arc::new(StringArray::from(
                        rows.iter().map(|r| r[i].clone()).collect::<Vec<_>>(),
                    )) as ArrayRef
                })
                .collect();
            let batch = RecordBatch::try_from_iter(names.iter().cloned().zip(columns))
                .expect("a record batch");
            let props = parquet::file::properties::WriterProperties::builder()
                .set_max_row_group_row_count(Some(group.max(1)))
                .build();
            let mut writer =
                parquet::arrow::ArrowWriter::try_new(&mut bytes, batch.schema(), Some(props))
                    .expect("a Parquet writer");
            writer.write(&batch).expect("written");
            writer.close().expect("closed");
            starts = (1..=rows.len() as u64).collect();
        }
    }
    if format != Format::Parquet {
        bytes = text.into_bytes();
    }
    let damaged = !damage.is_empty() && format == Format::Parquet;
    for &(from_end, value) in damage.iter().take(8) {
        if !bytes.is_empty() && format == Format::Parquet {
            let at = bytes.len() - 1 - (from_end as usize % bytes.len());
            bytes[at] = value;
        }
    }
    let out = read(format, &bytes, block, Some(url));
    if damaged {
        // Anything may be read from a damaged file; never a panic, and a failure has its
        // place (checked in `read`), rows stay in order.
        let lines: Vec<u64> = out.rows.iter().map(|r| r.0).collect();
        assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
        return;
    }
    assert_eq!(out.failure, None, "{format:?} {bytes:?}");
    let want: Vec<(u64, Result<String, String>, Vec<Option<String>>)> = rows
        .iter()
        .zip(&starts)
        .map(|(row, &line)| {
            let cell = row[url].clone().ok_or_else(|| "missing-URL".to_owned());
            let pass = (0..width)
                .filter(|&i| i != url)
                .map(|i| row[i].clone())
                .collect();
            (line, cell, pass)
        })
        .collect();
    if format == Format::Parquet {
        // Passed-through Parquet cells are shown through Arrow's formatter: compare
        // the rows and their URL cells.
        let strip = |v: &[(u64, Result<String, String>, Vec<Option<String>>)]| -> Vec<(u64, Result<String, String>)> {
            v.iter().map(|(l, u, _)| (*l, u.clone())).collect()
        };
        assert_eq!(strip(&out.rows), strip(&want), "{format:?}");
    } else {
        assert_eq!(
            out.rows,
            want,
            "{format:?} {:?}",
            String::from_utf8_lossy(&bytes)
        );
    }
}

/// `bytes` compressed and cut, read against `bytes` read as they are.
fn compressed(format: Format, block: usize, bytes: &[u8], codec: u8, cut: usize, flip: (u16, u8)) {
    use std::io::Write;
    if format == Format::Parquet {
        return;
    }
    let packed = match codec % 4 {
        0 => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(bytes).expect("gzip");
            e.finish().expect("gzip")
        }
        1 => zstd::encode_all(bytes, 1).expect("zstd"),
        2 => {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
            e.write_all(bytes).expect("bzip2");
            e.finish().expect("bzip2")
        }
        _ => {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 0);
            e.write_all(bytes).expect("xz");
            e.finish().expect("xz")
        }
    };
    if flip.1 != 0 {
        // Damaged: anything may be read until the decoder finds the damage (a checksum
        // at the end of a member or block), never a panic, and a failure has its place
        // (`read` checks it).
        let mut damaged = packed;
        let at = flip.0 as usize % damaged.len();
        damaged[at] ^= flip.1;
        read(format, &damaged, block, None);
        return;
    }
    let cut = cut.min(packed.len());
    let plain = read(format, bytes, block, None);
    let got = read(format, &packed[..packed.len() - cut], block, None);
    if cut == 0 {
        assert_eq!(got.rows, plain.rows, "compressed rows differ");
        assert_eq!(got.failure, plain.failure, "compressed failure differs");
        return;
    }
    assert!(
        got.rows.len() <= plain.rows.len() && plain.rows[..got.rows.len()] == got.rows[..],
        "a cut stream's rows are not a prefix of the whole one's"
    );
    // The stream's end is gone: the run fails (on the stream, or on a table cut in the
    // middle of a record or header), unless what was cut off decodes to nothing.
    if got.failure.is_none() {
        assert_eq!(
            got.rows, plain.rows,
            "a cut stream read as a whole one, with fewer rows"
        );
    }
}

/// A generated log read in blocks of `block` bytes and in one block: one row per line
/// that is not blank, a directive or a header; the same rows both ways.
fn log(format: LogFormat, block: usize, header: bool, lines: &[LogLine]) {
    let mut text = format.header(header).as_bytes().to_vec();
    let mut rows = Vec::new();
    let mut line_no = text.iter().filter(|&&b| b == b'\n').count() as u64;
    for line in lines.iter().take(64) {
        let bytes: Vec<u8> = match line {
            LogLine::Good(t) => format.line(t).into_bytes(),
            LogLine::Cut(t, n) => {
                let mut l = format.line(t).into_bytes();
                l.truncate(*n as usize);
                l
            }
            LogLine::Text(t) => t.as_bytes().to_vec(),
            LogLine::Bytes(b) => b.clone(),
            LogLine::Directive(true) if format == LogFormat::W3c => {
                b"#Fields: date time cs-method cs-uri s-port".to_vec()
            }
            LogLine::Directive(_) => Vec::new(),
        };
        let bytes: Vec<u8> = bytes.into_iter().filter(|&b| b != b'\n').collect();
        line_no += 1;
        let shown = String::from_utf8_lossy(&bytes);
        let shown = shown.strip_suffix('\r').unwrap_or(&shown);
        let skipped =
            shown.trim().is_empty() || (format == LogFormat::W3c && shown.starts_with('#'));
        // A first line that looks like a CDX header is one.
        let header_line = format == LogFormat::Cdx
            && line_no == 1
            && shown.trim_start_matches(' ').starts_with("CDX ");
        if !skipped && !header_line {
            rows.push(line_no);
        }
        text.extend_from_slice(&bytes);
        text.push(b'\n');
    }
    let ext = if format == LogFormat::Cdxj {
        "cdxj"
    } else {
        "log"
    };
    let small = read_as(format.input(), temp_path(ext), &text, block, None);
    let whole = read_as(format.input(), temp_path(ext), &text, 1 << 20, None);
    assert_eq!(small.rows, whole.rows, "rows by block size");
    assert_eq!(small.failure, whole.failure, "failure by block size");
    if whole.failure.is_some() {
        return;
    }
    let got: Vec<u64> = whole.rows.iter().map(|r| r.0).collect();
    assert_eq!(
        got,
        rows,
        "one row per line of {:?}",
        String::from_utf8_lossy(&text)
    );
}

fuzz_target!(|case: Case| {
    match case {
        Case::Log {
            format,
            block,
            header,
            lines,
        } => log(format, block as usize + 1, header, &lines),
        Case::Compressed {
            format,
            block,
            bytes,
            codec,
            cut,
            flip,
        } => compressed(
            format,
            block as usize + 1,
            &bytes,
            codec,
            cut as usize,
            flip,
        ),
        Case::Raw {
            format,
            block,
            bytes,
        } => raw(format, block as usize + 1, &bytes),
        Case::Table {
            format,
            block,
            columns,
            url,
            rows,
            crlf,
            group,
            damage,
        } => {
            let width = columns as usize % 3 + 1;
            table(
                format,
                block as usize * 4 + 1,
                width,
                url as usize % width,
                &rows,
                crlf,
                group as usize + 1,
                &damage,
            )
        }
    }
});
