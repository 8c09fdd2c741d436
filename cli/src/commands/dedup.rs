//! `rapidurl dedup`: the rows whose canonical key is new, in input order, unchanged.
//!
//! Workers parse each batch and compute each row's key (`--key`: the `canonical` field,
//! the `surt` field, or `href`), hashed to 128 bits (two SipHash-1-3 hashes with
//! independent random keys); the collector, in input order, keeps a row when its hash is
//! new. Memory grows with the number of distinct keys only: 16 bytes of hash per
//! distinct key, plus the hash set's overhead (about 1.1 to 2.3 times that).

use std::collections::HashSet;
use std::hash::{BuildHasher, Hasher, RandomState};
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use rapidurl::UrlRef;

use crate::commands::args::{InputArgs, prepare, thread_count};
use crate::input::rows::{Flow, Plan, Row, RowSink};
use crate::input::source::InputFormat;
use crate::input::window::Work;
use crate::outcome::{Failure, create_output, diagnostic, report};
use crate::output::{Format, RowFormat};
use crate::pipeline::progress::Progress;
use crate::pipeline::{Collector, Done, Stop};

pub const DEDUP_AFTER_HELP: &str = "\
Reads the input as `rapidurl parse` does (lines, CSV, TSV, JSON Lines, Parquet; --column,
--base, --base-column) and writes each row whose key is new, in input order, with its
columns unchanged: a line as it was read (lines input), a record with the input's
columns and header (csv, tsv, jsonl; Parquet input is written as TSV unless --format).
A URL that does not parse is reported on stderr as FILE:LINE:COL: ERROR (as `parse`
reports it) and its row is not written. At the end, stderr has the number of rows read,
kept, duplicate and invalid.

Keys: canonical (default) is the dedup key: fragment dropped, tracking parameters
(utm_*, gclid, fbclid, ...) removed, query parameters sorted by name, escapes of
unreserved characters decoded and hex upper-cased, empty query dropped. surt is the
Internet Archive's SURT (as the `surt` package computes it). href is the parsed URL.

Memory: each distinct key is kept as a 128-bit hash (16 bytes, plus the hash set's
overhead), never as text. Two different keys get the same hash with probability about
n^2 / 2^129 for n distinct keys: below 10^-20 for a billion keys.

Examples:
  rapidurl dedup frontier.txt > unique.txt
  rapidurl dedup --key surt crawl.csv --column url -o unique.csv";

/// Arguments of `rapidurl dedup`.
#[derive(Args, Debug)]
pub struct DedupArgs {
    #[command(flatten)]
    input: InputArgs,

    /// The key rows are compared by.
    #[arg(long, value_enum, default_value_t = Key::Canonical)]
    key: Key,

    /// Output format for table input [default: the input's format; tsv for Parquet].
    #[arg(long, value_enum)]
    format: Option<TextFormat>,

    /// Write the rows to FILE instead of standard output, replaced only when the run
    /// succeeds (a failed or interrupted run leaves it unchanged).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,
}

/// The formats `dedup` writes (text: the rows are copied as they were read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TextFormat {
    /// Tab-separated values, as `parse` writes them.
    Tsv,
    /// Comma-separated values, quoted per RFC 4180, rows ending in CRLF.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// What two rows must share to be duplicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Key {
    /// The `canonical` field (the dedup key with its defaults).
    Canonical,
    /// The `surt` field.
    Surt,
    /// The parsed URL's `href`.
    Href,
}

/// A batch: its kept-row candidates (hash and where the row's text lies in `text`), in
/// order, and its counts.
#[derive(Default)]
struct Keyed {
    rows: Vec<(u128, usize)>,
    text: String,
    read: u64,
    invalid: u64,
    diagnostics: String,
    stop: Option<Stop>,
}

/// Runs `dedup`.
pub fn run(args: DedupArgs) -> Result<ExitCode, Failure> {
    let prepared = prepare(&args.input, false, false)?;
    let plan = prepared.plan.clone();
    let lines = plan.format == InputFormat::Lines;
    let format = output_format(args.format, plan.format);
    let pass_names: Vec<String> = plan.pass.iter().map(|&i| plan.columns[i].clone()).collect();
    let row_format = Arc::new(RowFormat::new(format, pass_names, Vec::new(), false));
    let (out, out_file) = create_output(args.output.as_deref())?;
    let mut out = BufWriter::with_capacity(64 * 1024, out);
    if !lines {
        let mut header = String::new();
        row_format.header(&mut header);
        out.write_all(header.as_bytes())?;
    }
    let progress = Progress::new(prepared.total);
    let hashers = (RandomState::new(), RandomState::new());
    let key = args.key;
    let work = KeyWork {
        plan: &plan,
        lines,
        row_format: &row_format,
        hashers,
        key,
    };
    let mut sink = Sink {
        out,
        seen: HashSet::default(),
        read: 0,
        kept: 0,
        invalid: 0,
        progress: &progress,
    };
    let result = crate::pipeline::run(
        prepared.reader,
        thread_count(args.input.threads),
        &plan,
        &work,
        &mut sink,
    );
    progress.finish();
    sink.out.flush()?;
    let valid = sink.read - sink.invalid;
    report(&format!(
        "rapidurl dedup: read {} rows, kept {} ({} duplicates, {} invalid; {} distinct keys of 16 bytes)\n",
        sink.read,
        sink.kept,
        valid - sink.kept,
        sink.invalid,
        sink.seen.len()
    ));
    result?;
    out_file.commit().map_err(Failure::Message)?;
    Ok(ExitCode::SUCCESS)
}

/// The 128-bit hash of `url`'s key: two SipHash-1-3 hashes with independent keys.
fn hash_key(
    hashers: &(RandomState, RandomState),
    key: Key,
    url: &UrlRef<'_>,
    buf: &mut String,
) -> u128 {
    let text = match key {
        Key::Href => url.href(),
        Key::Canonical => {
            buf.clear();
            rapidurl::canon::Preset::Dedup.key_into(url, buf);
            buf.as_str()
        }
        Key::Surt => {
            buf.clear();
            rapidurl::canon::Preset::Surt.key_into(url, buf);
            buf.as_str()
        }
    };
    let (mut a, mut b) = (hashers.0.build_hasher(), hashers.1.build_hasher());
    a.write(text.as_bytes());
    b.write(text.as_bytes());
    u128::from(a.finish()) << 64 | u128::from(b.finish())
}

/// The set's own hasher: the values are already uniform 128-bit hashes, so their low
/// 64 bits are the hash.
#[derive(Clone, Copy, Default)]
struct PassThrough;

impl BuildHasher for PassThrough {
    type Hasher = PassThroughHasher;
    fn build_hasher(&self) -> PassThroughHasher {
        PassThroughHasher(0)
    }
}

struct PassThroughHasher(u64);

impl Hasher for PassThroughHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u128(&mut self, n: u128) {
        self.0 = n as u64;
    }
}

/// `dedup`'s collector: writes each batch's rows whose key is new.
struct Sink<'p> {
    out: BufWriter<Box<dyn Write + Send>>,
    seen: HashSet<u128, PassThrough>,
    read: u64,
    kept: u64,
    invalid: u64,
    progress: &'p Progress,
}
impl Collector<Keyed> for Sink<'_> {
    fn collect(&mut self, done: Done<Keyed>, _: &[u8]) -> Result<(), Stop> {
        self.progress.inc(done.bytes);
        let k = done.value;
        let mut start = 0;
        for &(hash, end) in &k.rows {
            if self.seen.insert(hash) {
                self.out.write_all(&k.text.as_bytes()[start..end])?;
                self.kept += 1;
            }
            start = end;
        }
        self.read += k.read;
        self.invalid += k.invalid;
        if !k.diagnostics.is_empty() {
            self.progress.suspend(|| report(&k.diagnostics));
        }
        match k.stop {
            Some(stop) => {
                self.out.flush()?;
                Err(stop)
            }
            None => Ok(()),
        }
    }
    fn idle(&mut self) -> Result<(), Stop> {
        Ok(self.out.flush()?)
    }
}

/// The output format: `--format`, else the input's (tsv for lines and Parquet).
fn output_format(format: Option<TextFormat>, input: InputFormat) -> Format {
    match format {
        Some(TextFormat::Tsv) => Format::Tsv,
        Some(TextFormat::Csv) => Format::Csv,
        Some(TextFormat::Jsonl) => Format::Jsonl,
        None => match input {
            InputFormat::Csv => Format::Csv,
            InputFormat::Jsonl => Format::Jsonl,
            _ => Format::Tsv,
        },
    }
}

/// What `dedup` does with each batch: the key of each row, with the row's text.
struct KeyWork<'a> {
    plan: &'a Plan,
    /// Whether the input is lines (written back as read).
    lines: bool,
    row_format: &'a RowFormat,
    hashers: (RandomState, RandomState),
    key: Key,
}

/// A batch being keyed by `dedup`.
struct KeyPart<'w> {
    work: &'w KeyWork<'w>,
    name: &'w str,
    k: Keyed,
    key_text: String,
}

impl Work for KeyWork<'_> {
    type Out = Result<Keyed, Stop>;
    type Part<'w>
        = KeyPart<'w>
    where
        Self: 'w;

    fn part<'w>(&'w self, batch: &'w crate::input::source::Batch) -> KeyPart<'w> {
        KeyPart {
            work: self,
            name: &self.plan.names[batch.input],
            k: Keyed::default(),
            key_text: String::new(),
        }
    }

    fn done(&self, mut part: KeyPart<'_>, error: Option<String>) -> Result<Keyed, Stop> {
        part.k.stop = error.map(Stop::Input);
        Ok(part.k)
    }
}

impl RowSink for KeyPart<'_> {
    fn row(&mut self, row: &Row<'_>) -> Flow {
        let (work, k) = (self.work, &mut self.k);
        k.read += 1;
        match &row.url {
            Ok(url) => {
                let hash = hash_key(&work.hashers, work.key, url, &mut self.key_text);
                if work.lines {
                    k.text.push_str(row.input);
                    k.text.push('\n');
                } else {
                    work.row_format.url_row(
                        &mut k.text,
                        row.cells,
                        row.input,
                        (row.text, row.base),
                        url,
                        row.route,
                    );
                }
                k.rows.push((hash, k.text.len()));
            }
            Err(err) => {
                k.invalid += 1;
                diagnostic(&mut k.diagnostics, self.name, row.line, err);
            }
        }
        Flow::Go
    }
}
