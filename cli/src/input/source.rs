//! Reading the inputs: each file (or standard input) is opened before anything is written,
//! its format chosen by its extension or `--input-format`, and its header (the columns)
//! read; then [`Reader`] cuts it into [`Batch`]es of whole records.
//!
//! Text formats (lines, CSV, TSV, JSON Lines) are read in blocks of whole records: a block
//! is handed on when it is full or when a read returned less than asked for (a pipe with
//! nothing more for now), so rows from a slow pipe are parsed as they arrive. A UTF-8
//! byte-order mark at the start of an input is dropped. Parquet files are read a row group
//! at a time, in record batches.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read};

use arrow_array::RecordBatch;
use arrow_schema::{DataType, SchemaRef};
use clap::ValueEnum;
use crossbeam_channel::Receiver;
use parquet::arrow::ProjectionMask;
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};

use super::compressed::{self, Append, Codec};
use super::logs;
use super::table;
use super::warc;

/// The name under which standard input appears in diagnostics.
pub const STDIN_NAME: &str = "<stdin>";

/// The default size of a block of text input.
pub const DEFAULT_BLOCK_BYTES: u32 = 1024 * 1024;

/// The most one read from a pipe asks for.
const PIPE_READ: usize = 256 * 1024;

/// Rows per record batch read from Parquet.
const PARQUET_BATCH_ROWS: usize = 64 * 1024;

/// The formats the tool reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum InputFormat {
    /// One URL per line (no header); any other extension, and standard input.
    Lines,
    /// Comma-separated values with a header row, quoted per RFC 4180 (`.csv`).
    Csv,
    /// Tab-separated values with a header row; `\t`, `\n`, `\r` and `\\` in a field are
    /// a tab, a line feed, a carriage return and a backslash, as `parse --format tsv`
    /// writes them (`.tsv`, `.tab`).
    Tsv,
    /// One JSON object per line (`.jsonl`, `.ndjson`).
    Jsonl,
    /// Apache Parquet (`.parquet`).
    Parquet,
    /// NCSA common log format (`%h %l %u %t "%r" %>s %b`).
    Common,
    /// NCSA combined log format: common, then the referrer and the user agent (the
    /// default of Apache and nginx).
    Combined,
    /// Apache's `vhost_combined`: `host:port` first, then combined.
    #[value(name = "vhost_combined")]
    VhostCombined,
    /// W3C extended log format, its fields named by `#Fields:` (IIS, Amazon CloudFront).
    W3c,
    /// AWS Application Load Balancer access logs.
    Alb,
    /// A classic CDX crawl index, with or without its ` CDX …` header line (`.cdx`).
    Cdx,
    /// A CDXJ crawl index: `urlkey timestamp {json}` (`.cdxj`).
    Cdxj,
    /// WARC 1.0 and 1.1 web archives: one row per record with a `WARC-Target-URI`
    /// (`.warc`, `.warc.gz`).
    Warc,
}

impl InputFormat {
    /// The format a file's name says, if it says one; a compression suffix (`.gz`,
    /// `.zst` …) is looked through (`requests.csv.gz` is CSV).
    pub fn from_extension(path: &str) -> Option<InputFormat> {
        let mut path = std::path::Path::new(path);
        if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| compressed::SUFFIXES.contains(&e.to_ascii_lowercase().as_str()))
        {
            path = std::path::Path::new(path.file_stem()?);
        }
        let ext = path.extension()?.to_str()?;
        Some(match ext.to_ascii_lowercase().as_str() {
            "csv" => InputFormat::Csv,
            "tsv" | "tab" => InputFormat::Tsv,
            "jsonl" | "ndjson" => InputFormat::Jsonl,
            "parquet" => InputFormat::Parquet,
            "cdx" => InputFormat::Cdx,
            "cdxj" => InputFormat::Cdxj,
            "warc" => InputFormat::Warc,
            _ => return None,
        })
    }

    /// The log or crawl index format this is ([`logs`]), if it is one.
    pub fn log(self) -> Option<logs::LogFormat> {
        Some(match self {
            InputFormat::Common => logs::LogFormat::Common,
            InputFormat::Combined => logs::LogFormat::Combined,
            InputFormat::VhostCombined => logs::LogFormat::VhostCombined,
            InputFormat::W3c => logs::LogFormat::W3c,
            InputFormat::Alb => logs::LogFormat::Alb,
            InputFormat::Cdx => logs::LogFormat::Cdx,
            InputFormat::Cdxj => logs::LogFormat::Cdxj,
            _ => return None,
        })
    }

    /// The format's name as `--input-format` spells it.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Lines => "lines",
            InputFormat::Csv => "csv",
            InputFormat::Tsv => "tsv",
            InputFormat::Jsonl => "jsonl",
            InputFormat::Parquet => "parquet",
            InputFormat::Common => "common",
            InputFormat::Combined => "combined",
            InputFormat::VhostCombined => "vhost_combined",
            InputFormat::W3c => "w3c",
            InputFormat::Alb => "alb",
            InputFormat::Cdx => "cdx",
            InputFormat::Cdxj => "cdxj",
            InputFormat::Warc => "warc",
        }
    }
}

/// One opened input.
pub struct Input {
    /// The name used in diagnostics.
    pub name: String,
    /// Its format.
    pub format: InputFormat,
    body: Body,
    /// Its columns, once its header has been read (empty for lines).
    columns: Option<Vec<String>>,
}

enum Body {
    Text(TextReader),
    Parquet {
        file: File,
        meta: ArrowReaderMetadata,
    },
}

/// The text of an input: its bytes, or, when its first bytes show a compression, what
/// they decompress to (told at the first read: [`compressed::Sniffing`]); a WARC input's
/// records as the TSV rows the reader reads ([`warc::WarcRows`], their offsets in the file
/// as stored: [`compressed::Members`]).
fn text_source(name: &str, format: InputFormat, reader: Box<dyn Read + Send>) -> Box<dyn Append> {
    if format == InputFormat::Warc {
        let members = compressed::Members::default();
        let bytes: Box<dyn Append> = Box::new(compressed::Sniffing::with_members(
            name,
            reader,
            members.clone(),
        ));
        Box::new(warc::WarcRows::new(name, bytes).with_members(members))
    } else {
        Box::new(compressed::Sniffing::new(name, reader))
    }
}

/// The text of a regular file that is not compressed: its bytes, or a WARC input's
/// records as the TSV rows the reader reads.
fn plain_source(name: &str, format: InputFormat, file: File) -> Box<dyn Append> {
    if format == InputFormat::Warc {
        Box::new(warc::WarcRows::new(name, file))
    } else {
        Box::new(file)
    }
}

/// A message for an input that cannot be read.
fn io_message(name: &str, err: &dyn std::fmt::Display) -> String {
    format!("{name}: {err}")
}

impl Input {
    /// Opens `path` (`-` is standard input) in `format`, or the format its extension says
    /// (lines when none does).
    pub fn open(
        path: &str,
        format: Option<InputFormat>,
        block_bytes: usize,
    ) -> Result<Input, String> {
        let format = format
            .or_else(|| {
                (path != "-")
                    .then(|| InputFormat::from_extension(path))
                    .flatten()
            })
            .unwrap_or(InputFormat::Lines);
        let name = if path == "-" { STDIN_NAME } else { path }.to_owned();
        let reader: Box<dyn Read + Send> = if path == "-" {
            if format == InputFormat::Parquet {
                return Err(format!(
                    "{name}: Parquet cannot be read from standard input; give a file"
                ));
            }
            Box::new(io::stdin())
        } else {
            let mut file = File::open(path).map_err(|e| io_message(&name, &e))?;
            let regular = file.metadata().is_ok_and(|m| m.is_file());
            if format == InputFormat::Parquet {
                let mut head = [0u8; compressed::MAGIC_BYTES];
                let n = file.read(&mut head).unwrap_or(0);
                if let Some(codec) = Codec::sniff(&head[..n]) {
                    return Err(format!(
                        "{name}: the file is {}-compressed; a Parquet file compresses its \
                         own pages: decompress it first",
                        codec.name()
                    ));
                }
                io::Seek::rewind(&mut file).map_err(|e| io_message(&name, &e))?;
                let meta = guarded(|| ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()))
                    .and_then(|loaded| loaded.map_err(|e| e.to_string()))
                    .map_err(|e| io_message(&name, &format!("not a readable Parquet file: {e}")))?;
                return Ok(Input {
                    name,
                    format,
                    body: Body::Parquet { file, meta },
                    columns: None,
                });
            }
            if regular {
                // A file whose first bytes are no compression's is read as it is: its
                // reads then fill the buffer without zeroing it first (`File` reads
                // into uninitialized memory; a wrapper would not).
                let mut head = [0u8; compressed::MAGIC_BYTES];
                let mut n = 0;
                while n < head.len() {
                    match file.read(&mut head[n..]) {
                        Ok(0) => break,
                        Ok(k) => n += k,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(io_message(&name, &e)),
                    }
                }
                io::Seek::rewind(&mut file).map_err(|e| io_message(&name, &e))?;
                let plain = Codec::sniff(&head[..n]).is_none()
                    && (n == head.len() || !compressed::may_be_magic(&head[..n]));
                let reader = if plain {
                    plain_source(&name, format, file)
                } else {
                    text_source(&name, format, Box::new(file))
                };
                return Ok(Input {
                    name,
                    format,
                    body: Body::Text(TextReader::new(reader, true, format, block_bytes)),
                    columns: None,
                });
            }
            Box::new(file)
        };
        let reader = text_source(&name, format, reader);
        Ok(Input {
            name,
            format,
            body: Body::Text(TextReader::new(reader, false, format, block_bytes)),
            columns: None,
        })
    }

    /// The input's size, if it is a regular file.
    pub fn size(path: &str) -> Option<u64> {
        if path == "-" {
            return None;
        }
        let meta = std::fs::metadata(path).ok()?;
        meta.is_file().then_some(meta.len())
    }

    /// The Arrow schema of a Parquet input.
    pub fn arrow_schema(&self) -> Option<SchemaRef> {
        match &self.body {
            Body::Parquet { meta, .. } => Some(meta.schema().clone()),
            Body::Text(_) => None,
        }
    }

    /// Reads the input's columns: the header row of CSV and TSV, the keys of the first
    /// object of JSON Lines (which stays to be read as data), the schema's top-level
    /// fields of Parquet, none for lines.
    pub fn columns(&mut self) -> Result<&[String], String> {
        if self.columns.is_none() {
            let columns = match &mut self.body {
                Body::Parquet { meta, .. } => meta
                    .schema()
                    .fields()
                    .iter()
                    .map(|f| f.name().clone())
                    .collect(),
                Body::Text(reader) => reader.header(&self.name)?,
            };
            self.columns = Some(columns);
        }
        Ok(self.columns.as_deref().unwrap_or(&[]))
    }
}

/// The column of a Parquet file's schema named `name`, checked to hold strings.
pub fn check_string_column(input: &Input, name: &str, what: &str) -> Result<(), String> {
    let Some(schema) = input.arrow_schema() else {
        return Ok(());
    };
    let field = schema
        .field_with_name(name)
        .map_err(|_| format!("{}: no column {name:?}", input.name))?;
    match field.data_type() {
        DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => Ok(()),
        other => Err(format!(
            "{}: column {name:?} ({what}) holds {other}, not strings",
            input.name
        )),
    }
}

/// A batch of whole records of one input, numbered in input order.
pub struct Batch {
    /// Which input (index into the inputs given).
    pub input: usize,
    /// The line number (1-based) of its first record; for Parquet, the row number.
    pub first_line: u64,
    /// Input bytes it covers (for the progress bar).
    pub bytes: u64,
    /// The records.
    pub data: Data,
    /// W3C extended logs: the `#Fields:` directive in effect at the batch's first line,
    /// when an earlier batch had one.
    pub directive: Option<std::sync::Arc<str>>,
}

/// What a batch holds.
pub enum Data {
    /// Whole records of a text format (whole lines of lines input).
    Text(Vec<u8>),
    /// Rows of a Parquet file: one record batch of row group `row_group` (0-based).
    Arrow {
        /// The rows.
        batch: RecordBatch,
        /// The row group they come from.
        row_group: usize,
    },
    /// The input cannot be read on: the message (naming file, line and column).
    Fatal(String),
}

/// How [`Reader::run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every input was read.
    Done,
    /// `send` said stop, or an input could not be read on (a [`Data::Fatal`] batch was
    /// sent).
    Stopped,
    /// An input's compressed stream is cut short or damaged (a [`Data::Fatal`] batch was
    /// sent): the run ends with exit status 2.
    Damaged,
}

/// Every input in turn, cut into batches.
pub struct Reader {
    /// The inputs, opened; the first one's columns read.
    pub inputs: Vec<Input>,
    /// The columns every table input must have (those of the first input).
    pub columns: Vec<String>,
    /// For Parquet: only these columns are read (all when `None`).
    pub projection: Option<Vec<String>>,
}

impl Reader {
    /// Reads every input, handing batches to `send` with whether the input has nothing
    /// more for now (a pipe whose last read came back short, or a file's last block),
    /// reusing the buffers found in
    /// `free`; stops at the first unreadable input with a [`Data::Fatal`] batch, or when
    /// `send` says stop.
    pub fn run(self, send: &mut dyn FnMut(Batch, bool) -> bool, free: &Receiver<Vec<u8>>) -> Ended {
        let idle = std::cell::Cell::new(false);
        let directive = std::cell::RefCell::new(None);
        let mut send = |input: usize, first_line: u64, bytes: u64, data: Data| {
            let fatal = matches!(data, Data::Fatal(_));
            let batch = Batch {
                input,
                first_line,
                bytes,
                data,
                directive: directive.borrow_mut().take(),
            };
            send(batch, idle.get()) && !fatal
        };
        for (k, mut input) in self.inputs.into_iter().enumerate() {
            match input.columns().map(<[String]>::to_vec) {
                Ok(columns) if columns == self.columns => {}
                Ok(columns) => {
                    let msg = format!(
                        "{}: its columns ({}) are not those of the first input ({})",
                        input.name,
                        columns.join(", "),
                        self.columns.join(", ")
                    );
                    send(k, 0, 0, Data::Fatal(msg));
                    return Ended::Stopped;
                }
                Err(msg) => {
                    send(k, 0, 0, Data::Fatal(msg));
                    return Ended::Stopped;
                }
            }
            let name = input.name;
            match input.body {
                Body::Text(mut reader) => loop {
                    let spare = free.try_recv().unwrap_or_default();
                    match reader.next_block(spare) {
                        Ok(Some((first_line, block))) => {
                            let bytes = block.len() as u64;
                            // A file's last block (a short read) counts as "nothing more
                            // for now" too: the next input may be a pipe that waits, and
                            // this input's rows must not wait with it.
                            idle.set(reader.short);
                            *directive.borrow_mut() = reader.block_directive.take();
                            if !send(k, first_line, bytes, Data::Text(block)) {
                                return Ended::Stopped;
                            }
                        }
                        Ok(None) => break,
                        Err(err) => {
                            send(k, 0, 0, Data::Fatal(err.message(&name)));
                            return match err {
                                ReadError::Damaged(_) => Ended::Damaged,
                                ReadError::Io(_) | ReadError::Unterminated { .. } => Ended::Stopped,
                            };
                        }
                    }
                },
                Body::Parquet { file, meta } => {
                    if !read_parquet(
                        k,
                        &name,
                        &file,
                        &meta,
                        self.projection.as_deref(),
                        &mut send,
                    ) {
                        return Ended::Stopped;
                    }
                }
            }
        }
        Ended::Done
    }
}

/// Reads a Parquet file a row group at a time; `false` when the run must stop.
fn read_parquet(
    k: usize,
    name: &str,
    file: &File,
    meta: &ArrowReaderMetadata,
    projection: Option<&[String]>,
    send: &mut dyn FnMut(usize, u64, u64, Data) -> bool,
) -> bool {
    let groups = meta.metadata().num_row_groups();
    let mut row = 1u64;
    for group in 0..groups {
        let group_meta = meta.metadata().row_group(group);
        let bytes = group_meta.compressed_size().max(0) as u64;
        let fail = |e: &dyn std::fmt::Display| format!("{name}: row group {}: {e}", group + 1);
        let built = file.try_clone().map_err(|e| fail(&e)).and_then(|f| {
            guarded(|| build_parquet_reader(f, meta, group, projection))
                .and_then(|built| built.map_err(|e| e.to_string()))
                .map_err(|e| fail(&e))
        });
        let mut reader = match built {
            Ok(r) => r,
            Err(msg) => {
                send(k, 0, 0, Data::Fatal(msg));
                return false;
            }
        };
        let mut first = true;
        loop {
            let failed = match guarded(|| reader.next()) {
                Ok(None) => break,
                Ok(Some(Ok(batch))) => Ok(batch),
                Ok(Some(Err(e))) => Err(fail(&e)),
                Err(panicked) => Err(fail(&panicked)),
            };
            let batch = match failed {
                Ok(batch) => batch,
                Err(msg) => {
                    send(k, 0, 0, Data::Fatal(msg));
                    return false;
                }
            };
            let rows = batch.num_rows() as u64;
            let share = if first { bytes } else { 0 };
            first = false;
            if !send(
                k,
                row,
                share,
                Data::Arrow {
                    batch,
                    row_group: group,
                },
            ) {
                return false;
            }
            row += rows;
        }
    }
    true
}

/// The reader of one row group of a Parquet file, with only the columns of `projection`
/// (all when `None`).
fn build_parquet_reader(
    f: File,
    meta: &ArrowReaderMetadata,
    group: usize,
    projection: Option<&[String]>,
) -> parquet::errors::Result<parquet::arrow::arrow_reader::ParquetRecordBatchReader> {
    let mut builder = ParquetRecordBatchReaderBuilder::new_with_metadata(f, meta.clone())
        .with_row_groups(vec![group])
        .with_batch_size(PARQUET_BATCH_ROWS);
    if let Some(keep) = projection {
        let roots: Vec<usize> = meta
            .schema()
            .fields()
            .iter()
            .enumerate()
            .filter(|(_, f)| keep.iter().any(|k| k == f.name()))
            .map(|(i, _)| i)
            .collect();
        let mask = ProjectionMask::roots(meta.metadata().file_metadata().schema_descr(), roots);
        builder = builder.with_projection(mask);
    }
    builder.build()
}

/// Runs a step of the Parquet reader, turning a panic inside it into an error message:
/// the `parquet` and `arrow` crates panic on some damaged files (an assertion on a bit
/// width, a division by zero, a negative offset) instead of returning an error, and an
/// input must never bring the tool down. Such panics are kept off standard error; the
/// tool reports the file and the row group instead.
fn guarded<T>(step: impl FnOnce() -> T) -> Result<T, String> {
    thread_local! {
        static GUARDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !GUARDED.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    GUARDED.with(|g| g.set(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(step));
    GUARDED.with(|g| g.set(false));
    result.map_err(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "no message".to_owned());
        format!("the Parquet reader failed on damaged data: {what}")
    })
}

/// The line feeds in `bytes` (a loop the compiler vectorizes: dense line feeds make a
/// search for each one slower).
fn count_lines(bytes: &[u8]) -> u64 {
    bytes
        .chunks(255)
        .map(|chunk| chunk.iter().fold(0u8, |n, &b| n + u8::from(b == b'\n')) as u64)
        .sum()
}

/// Bit `j` of the result is the XOR of bits `0..=j` of `x`: for a mask of quotes, the
/// bytes inside quotes (an opening quote counts as inside, its closing one as outside).
fn prefix_xor(mut x: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        x ^= x << shift;
    }
    x
}

/// Why a text input cannot be read on.
pub enum ReadError {
    /// Reading failed.
    Io(io::Error),
    /// The input's compressed stream is cut short or damaged: the message, naming the
    /// file and the byte.
    Damaged(String),
    /// A quoted CSV field is still open at the end of the input.
    Unterminated {
        /// Where its quote opened.
        line: u64,
    },
}

impl ReadError {
    /// The message for stderr, naming the input.
    pub fn message(&self, name: &str) -> String {
        match self {
            ReadError::Io(e) => format!("{name}: read error: {e}"),
            ReadError::Damaged(msg) => msg.clone(),
            ReadError::Unterminated { line } => format!(
                "{name}:{line}: unterminated quote: a quoted field opened on line {line} is \
                 not closed before the end of the input"
            ),
        }
    }
}

impl From<io::Error> for ReadError {
    fn from(e: io::Error) -> Self {
        match compressed::damaged(&e) {
            Some(damaged) => ReadError::Damaged(damaged.0.clone()),
            None => ReadError::Io(e),
        }
    }
}

/// A text input read in blocks of whole records.
pub struct TextReader {
    reader: Box<dyn Append>,
    /// A regular file: a read returns all that is asked for until the end.
    regular: bool,
    /// For pipes and terminals: what one read returns, before it joins `buf`.
    scratch: Vec<u8>,
    format: InputFormat,
    block: usize,
    /// Read bytes not yet handed on; `buf[..end]` are whole records.
    buf: Vec<u8>,
    end: usize,
    /// Bytes of `buf` already searched for record ends.
    scanned: usize,
    /// CSV: line feeds in `buf[..scanned]` and `buf[..end]`; whether `scanned` is inside
    /// quotes.
    lines_scanned: u64,
    lines_end: u64,
    in_quote: bool,
    /// CSV: the quote and line-feed masks of the bytes being scanned (reused).
    masks: Vec<[u64; 3]>,
    /// The line number of `buf[0]`.
    line: u64,
    /// Whether the start of the input was checked for a byte-order mark.
    started: bool,
    eof: bool,
    /// The last read returned less than asked: nothing more is there for now.
    short: bool,
    /// A read failed after whole records: they are handed on first, then this.
    failed: Option<ReadError>,
    /// W3C: the last `#Fields:` line of the blocks handed on, and the one in effect at
    /// the start of the block just handed on.
    directive: Option<std::sync::Arc<str>>,
    block_directive: Option<std::sync::Arc<str>>,
}

impl TextReader {
    fn new(
        reader: Box<dyn Append>,
        regular: bool,
        format: InputFormat,
        block: usize,
    ) -> TextReader {
        TextReader {
            reader,
            regular,
            scratch: Vec::new(),
            format,
            block: block.max(1),
            buf: Vec::new(),
            end: 0,
            scanned: 0,
            lines_scanned: 0,
            lines_end: 0,
            in_quote: false,
            masks: Vec::new(),
            line: 1,
            started: false,
            eof: false,
            short: false,
            failed: None,
            directive: None,
            block_directive: None,
        }
    }

    /// One read into the buffer: at least enough to fill a block, twice the buffer when
    /// one record is longer than a block, appended by the reader ([`Append`]: a file
    /// reads into the buffer's spare capacity, decoded chunks are copied in once, other
    /// readers go through a scratch buffer). A regular file (also a compressed one) is
    /// read until `want` bytes or the end; anything else once (which returns what a pipe
    /// has now).
    fn fill(&mut self) -> io::Result<()> {
        let len = self.buf.len();
        let want = if len >= self.block {
            len
        } else {
            self.block - len
        };
        let size = if self.regular {
            want
        } else {
            want.min(PIPE_READ)
        };
        self.buf.try_reserve_exact(size).map_err(io::Error::other)?;
        // On an error, what was read before it is in `buf` all the same.
        let before = self.buf.len();
        let mut error = None;
        loop {
            let got = self.buf.len() - before;
            match self
                .reader
                .append(&mut self.buf, size - got, &mut self.scratch)
            {
                // A regular file's reads go on to `size` or the end; anything else's
                // first read is what it has now.
                Ok(n) if n > 0 && self.regular && got + n < size => {}
                Ok(_) => break,
                Err(e) => {
                    error = Some(e);
                    break;
                }
            }
        }
        let n = self.buf.len() - before;
        self.eof = n == 0 && error.is_none();
        // Less than asked: for anything but a regular file, nothing more is there now.
        self.short = n < size;
        if !self.started && (self.buf.len() >= 3 || self.eof) {
            self.started = true;
            if self.buf.starts_with(b"\xEF\xBB\xBF") {
                self.buf.drain(..3);
            }
        }
        if self.started {
            self.scan();
        }
        error.map_or(Ok(()), Err)
    }

    /// Finds the end of the last whole record read.
    fn scan(&mut self) {
        let from = self.scanned;
        self.scanned = self.buf.len();
        if self.format != InputFormat::Csv {
            if let Some(i) = memchr::memrchr(b'\n', &self.buf[from..]) {
                self.end = from + i + 1;
            }
            return;
        }
        // The quotes and line feeds as bitmasks; a line feed ends a record when an even
        // number of quotes comes before it (a prefix XOR of the quote bits says which).
        let mut masks = std::mem::take(&mut self.masks);
        rapidurl::batch::byte_masks(&self.buf[from..], [b'"', b'\n', b'\n'], &mut masks);
        for (w, &[quotes, feeds, _]) in masks.iter().enumerate() {
            let inside = prefix_xor(quotes) ^ if self.in_quote { !0 } else { 0 };
            let ends = feeds & !inside;
            if ends != 0 {
                let j = 63 - ends.leading_zeros();
                self.end = from + w * 64 + j as usize + 1;
                let upto = feeds & (u64::MAX >> (63 - j));
                self.lines_end = self.lines_scanned + u64::from(upto.count_ones());
            }
            self.lines_scanned += u64::from(feeds.count_ones());
            self.in_quote = inside >> 63 == 1;
        }
        self.masks = masks;
    }

    /// The line where the quoted field still open at the end of the input starts.
    fn open_quote_line(&self) -> u64 {
        // It opened after the last record end: walk the quotes from there.
        let mut open = self.end;
        let mut inside = false;
        for i in memchr::memchr_iter(b'"', &self.buf[self.end..]) {
            if !inside {
                open = self.end + i;
            }
            inside = !inside;
        }
        self.line + memchr::memchr_iter(b'\n', &self.buf[..open]).count() as u64
    }

    /// At the end of the input: the bytes after the last line feed are a last record.
    fn finish(&mut self) -> Result<(), ReadError> {
        if self.in_quote {
            return Err(ReadError::Unterminated {
                line: self.open_quote_line(),
            });
        }
        if self.end < self.buf.len() {
            self.end = self.buf.len();
            self.lines_end = self.lines_scanned;
        }
        Ok(())
    }

    /// Reads until at least one whole record is there (or the input ends).
    fn wait_for_record(&mut self) -> Result<(), ReadError> {
        while self.end == 0 && !self.eof && self.failed.is_none() {
            self.fill_or_keep()?;
        }
        if self.end == 0
            && let Some(failed) = self.failed.take()
        {
            return Err(failed);
        }
        if self.eof {
            self.finish()?;
        }
        Ok(())
    }

    /// [`Self::fill`]; a failure after whole records is kept in [`Self::failed`] for
    /// when they have been handed on.
    fn fill_or_keep(&mut self) -> Result<(), ReadError> {
        match self.fill() {
            Ok(()) => Ok(()),
            Err(e) => {
                let failed = ReadError::from(e);
                if self.end > 0 {
                    self.failed = Some(failed);
                    Ok(())
                } else {
                    Err(failed)
                }
            }
        }
    }

    /// The next block of whole records and the line number of its first, in `spare` (a
    /// buffer to reuse) or a new buffer; `None` at the end of the input.
    pub fn next_block(&mut self, spare: Vec<u8>) -> Result<Option<(u64, Vec<u8>)>, ReadError> {
        loop {
            if self.eof {
                self.finish()?;
                if self.end == 0 {
                    return Ok(None);
                }
            }
            // After a failure, the whole records read before it go first, then it.
            let failed = self.failed.is_some();
            if self.end > 0 && (self.eof || self.short || failed || self.buf.len() >= self.block) {
                return Ok(Some(self.take(spare)));
            }
            if let Some(failed) = self.failed.take() {
                return Err(failed);
            }
            self.fill_or_keep()?;
        }
    }

    /// Hands on `buf[..end]`, keeping the rest.
    fn take(&mut self, mut spare: Vec<u8>) -> (u64, Vec<u8>) {
        spare.clear();
        spare.extend_from_slice(&self.buf[self.end..]);
        let mut block = std::mem::replace(&mut self.buf, spare);
        block.truncate(self.end);
        let lines = if self.format == InputFormat::Csv {
            self.lines_scanned -= self.lines_end;
            self.lines_end
        } else {
            count_lines(&block)
        };
        if self.format == InputFormat::W3c {
            self.block_directive = self.directive.clone();
            if let Some(last) = last_directive(&block) {
                self.directive = Some(last.into());
            }
        }
        let first = self.line;
        self.line += lines;
        self.scanned -= self.end;
        self.end = 0;
        self.lines_end = 0;
        (first, block)
    }

    /// The columns: a CSV or TSV header row (consumed), or the keys of the first JSON
    /// object (left to be read as data); none for lines.
    fn header(&mut self, name: &str) -> Result<Vec<String>, String> {
        if self.format == InputFormat::Lines {
            return Ok(Vec::new());
        }
        if let Some(log) = self.format.log() {
            return self.log_header(name, log);
        }
        self.wait_for_record().map_err(|e| e.message(name))?;
        if self.end == 0 {
            return Err(format!(
                "{name}: the input is empty: a {} input needs a header",
                self.format.name()
            ));
        }
        let text = String::from_utf8_lossy(&self.buf[..self.end]);
        let (columns, consumed) = match self.format {
            InputFormat::Jsonl => {
                let line = text.split('\n').next().unwrap_or("");
                let keys = table::json_keys(line).map_err(|e| format!("{name}:1: {e}"))?;
                (keys, 0)
            }
            _ => {
                let mut cells = Vec::new();
                let delimiter = if self.format == InputFormat::Csv {
                    b','
                } else {
                    b'\t'
                };
                let mut pos = 0;
                table::read_record(&text, &mut pos, delimiter, &mut cells)
                    .map_err(|e| e.message(name, self.line, &text, 0))?;
                let names = cells.iter().map(|c: &Cow<'_, str>| c.to_string()).collect();
                (names, pos)
            }
        };
        if consumed > 0 {
            // `pos` is a byte offset into the decoded text: the raw bytes' too when
            // nothing before it was replaced, i.e. when those bytes are UTF-8 (a
            // replacement can also take `pos` past the raw bytes).
            if (self.buf.get(..consumed)).is_none_or(|b| std::str::from_utf8(b).is_err()) {
                return Err(format!(
                    "{name}:{}: the header is not valid UTF-8",
                    self.line
                ));
            }
            let lines = memchr::memchr_iter(b'\n', &self.buf[..consumed]).count() as u64;
            self.buf.drain(..consumed);
            self.line += lines;
            self.end -= consumed;
            self.scanned -= consumed;
            if self.format == InputFormat::Csv {
                self.lines_scanned -= lines;
                self.lines_end -= lines;
            }
        }
        no_duplicate(name, &columns)?;
        Ok(columns)
    }

    /// The columns of a log or crawl index ([`logs::header`]): fixed, or named by a CDX
    /// header line (consumed) or the W3C `#Fields:` directive (left, as a line to skip).
    fn log_header(&mut self, name: &str, log: logs::LogFormat) -> Result<Vec<String>, String> {
        let needs_head = matches!(self.format, InputFormat::Cdx | InputFormat::W3c);
        if needs_head {
            self.wait_for_record().map_err(|e| e.message(name))?;
            // W3C: the directives may come in more than one read (a pipe).
            while self.format == InputFormat::W3c
                && !self.eof
                && self.failed.is_none()
                && self.buf[..self.end]
                    .split(|&b| b == b'\n')
                    .filter(|l| !l.is_empty())
                    .all(|l| l.starts_with(b"#") && !l.starts_with(b"#Fields:"))
            {
                self.fill_or_keep().map_err(|e| e.message(name))?;
                if self.eof {
                    self.finish().map_err(|e| e.message(name))?;
                }
            }
        }
        let text = String::from_utf8_lossy(&self.buf[..self.end]);
        let (columns, consumed) =
            logs::header(log, &text).map_err(|e| format!("{name}:{}: {e}", self.line))?;
        if consumed > 0 {
            let consumed = consumed.min(self.end);
            let lines = memchr::memchr_iter(b'\n', &self.buf[..consumed]).count() as u64;
            self.buf.drain(..consumed);
            self.line += lines;
            self.end -= consumed;
            self.scanned -= consumed;
        }
        no_duplicate(name, &columns)?;
        Ok(columns)
    }
}

/// The last `#Fields:` directive line of a W3C block, if it has one.
fn last_directive(block: &[u8]) -> Option<String> {
    let at = if block.starts_with(b"#Fields:") {
        Some(0)
    } else {
        None
    };
    let last = memchr::memmem::rfind(block, b"\n#Fields:")
        .map(|i| i + 1)
        .or(at)?;
    let end = memchr::memchr(b'\n', &block[last..]).map_or(block.len(), |k| last + k);
    Some(String::from_utf8_lossy(&block[last..end]).into_owned())
}

/// Fails when a column name appears twice.
fn no_duplicate(name: &str, columns: &[String]) -> Result<(), String> {
    let mut seen = std::collections::HashSet::new();
    if let Some(dup) = columns.iter().find(|c| !seen.insert(c.as_str())) {
        return Err(format!(
            "{name}:1: column {dup:?} appears twice in the header"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::count_lines;

    #[test]
    fn counts_every_line_feed_across_chunks() {
        for len in [0, 1, 254, 255, 256, 600, 5000] {
            for every in [1, 2, 7, 300] {
                let bytes: Vec<u8> = (0..len)
                    .map(|i| if i % every == 0 { b'\n' } else { b'a' })
                    .collect();
                let want = bytes.iter().filter(|&&b| b == b'\n').count() as u64;
                assert_eq!(count_lines(&bytes), want, "{len} bytes, every {every}");
            }
        }
    }
}
