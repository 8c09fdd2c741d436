//! `rapidurl`: parse or validate URLs in bulk, one per line, per the WHATWG URL Standard.
//!
//! Input is read in blocks of whole lines (4 MiB by default); each block is parsed in
//! parallel by the library's batch engine (`rapidurl::batch`), its rows are formatted in
//! parallel, then written in input order before the next block is read: memory stays
//! bounded by a few blocks whatever the input's size.
//!
//! See `rapidurl --help` and `rapidurl <command> --help`.
#![forbid(unsafe_code)]

mod bench;
mod input;
mod lint;
mod output;
mod progress;

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::ops::Range;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use rapidurl::batch::UrlColumn;
use rapidurl::{ParseError, Url};
use rayon::prelude::*;

use crate::input::{DEFAULT_BLOCK_BYTES, Mode, Source, error_column};
use crate::output::{Format, RowFormat};
use crate::progress::Progress;
use rapidurl::field::Field;
use rapidurl::psl::SuffixList;

/// Parse URLs in bulk per the WHATWG URL Standard (what a browser's `new URL()` does).
#[derive(Parser, Debug)]
#[command(name = "rapidurl", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    rapidurl parse urls.txt > urls.tsv\n  \
    cat urls.txt | rapidurl parse --format jsonl --fields href,origin\n  \
    rapidurl check urls.txt\n  \
    rapidurl bench urls.txt")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Parse one URL per input line and write its components, one row per line.
    #[command(after_help = PARSE_AFTER_HELP)]
    Parse(ParseArgs),
    /// Validate one URL per input line; print a summary and exit 1 if any is invalid.
    #[command(after_help = CHECK_AFTER_HELP)]
    Check(CheckArgs),
    /// Measure parse throughput on a file: URLs/s, MB/s and ns/URL, on one thread and on
    /// all of them.
    #[command(after_help = BENCH_AFTER_HELP)]
    Bench(BenchArgs),
    /// List every validation error (URL Standard §1.1) of one URL per input line:
    /// FILE:LINE:COLUMN: NAME: explanation, then counts per name on stderr; exit 1 when any.
    Lint(LintArgs),
}

/// Arguments of `rapidurl lint`.
#[derive(Args, Debug)]
struct LintArgs {
    /// Input files, one URL per line; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Output format: `text` (FILE:LINE:COLUMN: NAME: explanation) or `jsonl`.
    #[arg(long, value_enum, default_value_t = lint::LintFormat::Text)]
    format: lint::LintFormat,
}

const PARSE_AFTER_HELP: &str = "\
Input: one URL per line; a trailing \\r is removed; a line that is not valid UTF-8 is
decoded with U+FFFD for each invalid sequence. An empty line is the input \"\", which
fails (missing-scheme-non-relative-URL) without a base and is the base itself (without
its fragment) with one. Rows are written in input order, one per input line (less the
skipped ones with --on-error skip). Errors are reported on stderr as FILE:LINE:COL: ERROR,
where COL is 1 + the error's byte offset in the URL (1 when the error has no offset);
standard input is named <stdin>.

With --base-column N the input is tab-separated: column N (counted from 1) holds the
line's base URL and the URL is column 1 (column 2 when N is 1); other columns are
ignored and no TSV unescaping is done. An empty or missing base field means --base if
given, else no base; a base that does not parse makes the line fail (base-URL-invalid).

The input is read, parsed (in parallel, --threads) and written a block of lines at a
time, so memory stays bounded whatever the input's size. A progress bar is drawn on
stderr when stderr is a terminal and every input is a regular file.

Exit status: 0 on success (also with bad lines under --on-error mark or skip), 1 when
--on-error fail stopped at a bad line, 2 on a usage or I/O error.

Examples:
  rapidurl parse corpora/sample.txt > out.tsv
  rapidurl parse --format jsonl --fields href,origin,hostname urls.txt
  printf '../a?b#c\\n' | rapidurl parse --base https://example.com/x/y --fields href
  printf '../a\\thttps://example.com/x/y\\n' | rapidurl parse --base-column 2 --fields href
  rapidurl parse --threads 2 --on-error fail --format csv a.txt b.txt";

const CHECK_AFTER_HELP: &str = "\
Prints the number of lines, valid and invalid URLs, and the first 10 invalid lines as
FILE:LINE:COL: ERROR — INPUT. Input is read as `rapidurl parse` reads it (see its help,
also for --base-column). Exit status: 0 when every line is a valid URL, 1 when any is
not, 2 on a usage or I/O error.

Examples:
  rapidurl check corpora/sample.txt
  cat links.txt | rapidurl check --base https://example.com/
  rapidurl check --threads 1 a.txt b.txt";

const BENCH_AFTER_HELP: &str = "\
Reads FILE into memory (one URL per line), then parses all of it repeatedly with the
batch engine, for at least --time seconds and 3 runs, on 1 thread and on --threads
threads (default: all cores). Prints, per thread count, the median run as URLs/s,
MB/s (input bytes, 10^6) and ns/URL, and the speed-up. Output is not formatted or
written: this is the parser's throughput, not the whole tool's.

Examples:
  rapidurl bench corpora/sample.txt
  rapidurl bench --threads 2 --time 3 ../shared/corpora/kasztp.txt";

/// Arguments of `rapidurl parse`.
#[derive(Args, Debug)]
struct ParseArgs {
    /// Input files, one URL per line; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    format: Format,

    /// Comma-separated columns (JSON keys), named as the URL API's attributes: href,
    /// origin, protocol, username, password, host, hostname, port, pathname, search, hash;
    /// the host analytics public_suffix, registrable_domain, subdomain (Public Suffix
    /// List, empty unless the host is a domain); param:NAME (the decoded value of the
    /// query's first NAME pair, empty when absent)
    /// [default: href,protocol,username,password,hostname,port,pathname,search,hash].
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(Field))]
    fields: Vec<Field>,

    /// A public_suffix_list.dat to use instead of the built-in snapshot of the list.
    #[arg(long, value_name = "FILE")]
    psl: Option<std::path::PathBuf>,

    /// Write a header row (tsv and csv; the default).
    #[arg(long, overrides_with = "no_header")]
    header: bool,

    /// Do not write a header row.
    #[arg(long, overrides_with = "header")]
    no_header: bool,

    #[command(flatten)]
    common: CommonArgs,

    /// What to do with a line that is not a valid URL: `mark` writes a row whose `error`
    /// column (JSON key) holds the error; `skip` writes no row; `fail` stops with exit
    /// status 1. All three report the error on stderr.
    #[arg(long, value_enum, default_value_t = OnError::Mark)]
    on_error: OnError,
}

/// Arguments of `rapidurl check`.
#[derive(Args, Debug)]
struct CheckArgs {
    /// Input files, one URL per line; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    #[command(flatten)]
    common: CommonArgs,
}

/// Arguments of `rapidurl bench`.
#[derive(Args, Debug)]
struct BenchArgs {
    /// The file to parse, one URL per line.
    #[arg(value_name = "FILE")]
    file: String,

    /// Threads for the multi-threaded measurement (0 or absent: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// Minimum measuring time per thread count, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    time: f64,
}

/// Arguments shared by `parse` and `check`.
#[derive(Args, Debug)]
struct CommonArgs {
    /// Resolve every line against this base URL.
    #[arg(long, value_name = "URL")]
    base: Option<String>,

    /// Tab-separated input: column N (from 1) holds each line's base URL; the URL is
    /// column 1, or 2 when N is 1.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    base_column: Option<u16>,

    /// Worker threads (0 or absent: all cores). Output is the same for any number.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// Bytes of input read and parsed at a time (rounded to whole lines; at most 1 GiB).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_BLOCK_BYTES, hide = true,
          value_parser = clap::value_parser!(u32).range(1..=1 << 30))]
    block_bytes: u32,
}

/// What `parse` does with a line that does not parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OnError {
    /// Leave the row out; report the error on stderr.
    Skip,
    /// Write a row with the error in its `error` column; report the error on stderr.
    Mark,
    /// Report the error on stderr and exit with status 1.
    Fail,
}

/// Why the program stops early.
pub(crate) enum Failure {
    /// Writing to standard output failed.
    Output(io::Error),
    /// Anything else: a message for stderr.
    Message(String),
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Self {
        Failure::Output(err)
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Parse(args) => run_parse(args),
        Command::Check(args) => run_check(args),
        Command::Bench(args) => bench::run(&args.file, args.threads, args.time),
        Command::Lint(args) => lint::run(&input_paths(args.files), args.format),
    };
    match result {
        Ok(code) => code,
        // `rapidurl parse … | head`: the reader went away; that is not an error.
        Err(Failure::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(err)) => {
            report(&format!("rapidurl: error writing output: {err}\n"));
            ExitCode::from(2)
        }
        Err(Failure::Message(msg)) => {
            report(&format!("rapidurl: {msg}\n"));
            ExitCode::from(2)
        }
    }
}

/// Writes to stderr, ignoring failure (there is nowhere left to report it).
pub(crate) fn report(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// The number of threads for `--threads N`: N, or all cores for 0 or none.
fn thread_count(threads: Option<usize>) -> usize {
    match threads {
        Some(n) if n > 0 => n,
        _ => std::thread::available_parallelism().map_or(1, usize::from),
    }
}

/// A pool of `threads` worker threads for the batch engine.
fn pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::Message(format!("cannot start {threads} threads: {e}")))
}

impl CommonArgs {
    /// How lines become URLs; fails on an invalid `--base`.
    fn mode(&self) -> Result<Mode, Failure> {
        let base = self
            .base
            .as_deref()
            .map(|b| {
                Url::parse(b)
                    .map_err(|e| Failure::Message(format!("invalid --base URL {b:?}: {e}")))
            })
            .transpose()?;
        Ok(Mode {
            base,
            base_text: self.base.clone(),
            base_column: self.base_column.map(|n| usize::from(n) - 1),
        })
    }
}

/// The inputs to read: the files given, or standard input.
fn input_paths(files: Vec<String>) -> Vec<String> {
    if files.is_empty() {
        vec!["-".to_owned()]
    } else {
        files
    }
}

/// The total size of the inputs, when every one is a regular file.
fn total_size(paths: &[String]) -> Option<u64> {
    paths.iter().map(|p| Source::size(p)).sum()
}

/// Opens one input, or explains why it cannot be opened.
fn open(path: &str, block_bytes: usize) -> Result<Source, Failure> {
    Source::open(path, block_bytes).map_err(|e| Failure::Message(format!("{path}: {e}")))
}

/// The `file:line:col: error` diagnostic of a line that did not parse, with its newline.
fn diagnostic(out: &mut String, name: &str, line_no: u64, err: &ParseError) {
    let _ = writeln!(out, "{name}:{line_no}:{}: {err}", error_column(err));
}

/// Formats rows `rows` of `column` (parsed from the lines of `block`) in parallel into
/// `pieces` (cleared first, reused from block to block), to be written in order; failed
/// rows get an error row unless `skip_errors`.
fn format_rows(
    format: &RowFormat,
    column: &UrlColumn,
    block: &[u8],
    rows: Range<usize>,
    skip_errors: bool,
    pieces: &mut Vec<String>,
) {
    let count = rayon::current_num_threads() * 4;
    let step = rows.len().div_ceil(count).max(1024);
    let with_input = format.needs_input();
    pieces.resize_with(rows.len().div_ceil(step), String::new);
    pieces.par_iter_mut().enumerate().for_each(|(k, out)| {
        out.clear();
        let start = rows.start + k * step;
        let end = (start + step).min(rows.end);
        // The input lines only when a field is a value of the input (`valid`, …).
        let mut lines = with_input.then(|| rapidurl::batch::lines(block).skip(start));
        for row in column.iter().skip(start).take(end - start) {
            let line = lines.as_mut().and_then(Iterator::next);
            match row {
                Ok(url) => format.url_row(out, &url, line.as_deref().unwrap_or("")),
                Err(err) if !skip_errors => format.error_row(out, &err),
                Err(_) => {}
            }
        }
    });
}

/// `rapidurl parse`.
fn run_parse(args: ParseArgs) -> Result<ExitCode, Failure> {
    let mode = args.common.mode()?;
    let pool = pool(thread_count(args.common.threads))?;
    pool.install(|| parse_inputs(args, &mode))
}

fn parse_inputs(args: ParseArgs, mode: &Mode) -> Result<ExitCode, Failure> {
    let fields = if args.fields.is_empty() {
        Field::DEFAULT.to_vec()
    } else {
        args.fields
    };
    let mut format = RowFormat::new(args.format, fields, args.on_error == OnError::Mark);
    if let Some(path) = &args.psl {
        let list = SuffixList::from_file(path).map_err(|e| Failure::Message(e.to_string()))?;
        format = format.with_suffix_list(list);
    }
    let mut out = BufWriter::with_capacity(256 * 1024, io::stdout().lock());
    if !args.no_header {
        let mut header = String::new();
        format.header(&mut header);
        out.write_all(header.as_bytes())?;
    }
    let paths = input_paths(args.files);
    let progress = Progress::new(total_size(&paths));
    let mut writer = BlockWriter {
        format: &format,
        on_error: args.on_error,
        out: &mut out,
        pieces: Vec::new(),
    };
    let result = for_each_block(
        &paths,
        args.common.block_bytes as usize,
        mode,
        &progress,
        |p| writer.write(p, &progress),
    );
    out.flush()?;
    progress.finish();
    Ok(result?.unwrap_or(ExitCode::SUCCESS))
}

/// Writes the rows of each parsed block of `rapidurl parse`, and reports its bad lines.
struct BlockWriter<'a, W: Write> {
    format: &'a RowFormat,
    on_error: OnError,
    out: &'a mut W,
    /// Per-task output buffers, reused from block to block.
    pieces: Vec<String>,
}

impl<W: Write> BlockWriter<'_, W> {
    /// Writes block `p`'s rows; with `--on-error fail`, only those before its first bad
    /// line, then reports that line and ends the run with exit status 1.
    fn write(&mut self, p: &Parsed<'_>, progress: &Progress) -> Result<Option<ExitCode>, Failure> {
        let first_error = match self.on_error {
            OnError::Fail => p.column.errors().next(),
            _ => None,
        };
        let end = first_error.map_or(p.column.len(), |(i, _)| i);
        let skip = self.on_error == OnError::Skip;
        format_rows(
            self.format,
            &p.column,
            p.block,
            0..end,
            skip,
            &mut self.pieces,
        );
        for piece in &self.pieces {
            self.out.write_all(piece.as_bytes())?;
        }
        let mut diagnostics = String::new();
        if let Some((i, err)) = first_error {
            // Rows before the bad line are written before the report.
            self.out.flush()?;
            progress.finish();
            diagnostic(
                &mut diagnostics,
                p.name,
                p.lines_before + i as u64 + 1,
                &err,
            );
            report(&diagnostics);
            return Ok(Some(ExitCode::FAILURE));
        }
        for (i, err) in p.column.errors() {
            diagnostic(
                &mut diagnostics,
                p.name,
                p.lines_before + i as u64 + 1,
                &err,
            );
        }
        if !diagnostics.is_empty() {
            progress.suspend(|| report(&diagnostics));
        }
        Ok(None)
    }
}

/// One parsed block of an input.
struct Parsed<'a> {
    /// The input's name for diagnostics (`<stdin>` for standard input).
    name: &'a str,
    /// Lines of this input before the block.
    lines_before: u64,
    /// The block: whole lines.
    block: &'a [u8],
    /// The block's lines, parsed.
    column: UrlColumn,
}

/// Reads each input in blocks of whole lines, parses each block with the batch engine and
/// hands it to `each`, which may end the run early with an exit code. Advances the
/// progress bar; a read error ends the run with a message naming the input.
fn for_each_block(
    paths: &[String],
    block_bytes: usize,
    mode: &Mode,
    progress: &Progress,
    mut each: impl FnMut(&Parsed<'_>) -> Result<Option<ExitCode>, Failure>,
) -> Result<Option<ExitCode>, Failure> {
    for path in paths {
        let mut source = open(path, block_bytes)?;
        let name = source.name.clone();
        let mut lines_before = 0u64;
        loop {
            let block = match source.next_block() {
                Ok(Some(block)) => block,
                Ok(None) => break,
                Err(e) => return Err(Failure::Message(format!("{name}: read error: {e}"))),
            };
            let parsed = Parsed {
                name: &name,
                lines_before,
                block,
                column: mode.parse_block(block),
            };
            if let Some(code) = each(&parsed)? {
                return Ok(Some(code));
            }
            lines_before += parsed.column.len() as u64;
            progress.inc(block.len() as u64);
        }
    }
    Ok(None)
}

/// How many invalid lines `check` lists.
const CHECK_LISTED: usize = 10;

/// `rapidurl check`.
fn run_check(args: CheckArgs) -> Result<ExitCode, Failure> {
    let mode = args.common.mode()?;
    let pool = pool(thread_count(args.common.threads))?;
    pool.install(|| check_inputs(args, &mode))
}

fn check_inputs(args: CheckArgs, mode: &Mode) -> Result<ExitCode, Failure> {
    let (mut lines, mut invalid) = (0u64, 0u64);
    let mut listed = Vec::with_capacity(CHECK_LISTED);
    let paths = input_paths(args.files);
    let progress = Progress::new(total_size(&paths));
    let result = for_each_block(
        &paths,
        args.common.block_bytes as usize,
        mode,
        &progress,
        |p| {
            lines += p.column.len() as u64;
            invalid += p.column.error_count() as u64;
            let mut wanted = p
                .column
                .errors()
                .take(CHECK_LISTED - listed.len())
                .peekable();
            if wanted.peek().is_some() {
                for (i, line) in rapidurl::batch::lines(p.block).enumerate() {
                    let Some(&(row, err)) = wanted.peek() else {
                        break;
                    };
                    if i == row {
                        wanted.next();
                        listed.push(format!(
                            "{}:{}:{}: {err} \u{2014} {line}",
                            p.name,
                            p.lines_before + i as u64 + 1,
                            error_column(&err),
                        ));
                    }
                }
            }
            Ok(None)
        },
    );
    progress.finish();
    result?;
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "lines: {lines}")?;
    writeln!(out, "valid: {}", lines - invalid)?;
    writeln!(out, "invalid: {invalid}")?;
    if !listed.is_empty() {
        let more = if invalid > listed.len() as u64 {
            format!(" (first {})", listed.len())
        } else {
            String::new()
        };
        writeln!(out, "invalid lines{more}:")?;
        for entry in &listed {
            writeln!(out, "  {entry}")?;
        }
    }
    out.flush()?;
    Ok(if invalid == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
