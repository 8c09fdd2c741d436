//! `rapidurl`: parse or validate URLs in bulk, one per line, per the WHATWG URL Standard.
//!
//! See `rapidurl --help` and `rapidurl <command> --help`.
#![forbid(unsafe_code)]

mod input;
mod output;

use std::fmt;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use rapidurl::{ParseError, Url};

use crate::input::{Source, error_column, parse_line};
use crate::output::{DEFAULT_FIELDS, Field, Format, RowWriter};

/// Parse URLs in bulk per the WHATWG URL Standard (what a browser's `new URL()` does).
#[derive(Parser, Debug)]
#[command(name = "rapidurl", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    rapidurl parse urls.txt > urls.tsv\n  \
    cat urls.txt | rapidurl parse --format jsonl --fields href,origin\n  \
    rapidurl check urls.txt")]
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
}

const PARSE_AFTER_HELP: &str = "\
Input: one URL per line; a trailing \\r is removed; a line that is not valid UTF-8 is
decoded with U+FFFD for each invalid sequence. An empty line is the input \"\", which
fails (missing-scheme-non-relative-URL) without --base and is the base itself (without
its fragment) with one. Rows are written in input order, one per input line (less the
skipped ones with --on-error skip). Errors are reported on stderr as FILE:LINE:COL: ERROR,
where COL is 1 + the error's byte offset in the line (1 when the error has no offset);
standard input is named <stdin>.

Exit status: 0 on success (also with bad lines under --on-error mark or skip), 1 when
--on-error fail stopped at a bad line, 2 on a usage or I/O error.

Examples:
  rapidurl parse corpora/sample.txt > out.tsv
  rapidurl parse --format jsonl --fields href,origin,hostname urls.txt
  printf '../a?b#c\\n' | rapidurl parse --base https://example.com/x/y --fields href
  rapidurl parse --on-error fail --format csv a.txt b.txt";

const CHECK_AFTER_HELP: &str = "\
Prints the number of lines, valid and invalid URLs, and the first 10 invalid lines as
FILE:LINE:COL: ERROR — INPUT. Exit status: 0 when every line is a valid URL, 1 when any
is not, 2 on a usage or I/O error.

Examples:
  rapidurl check corpora/sample.txt
  cat links.txt | rapidurl check --base https://example.com/";

/// Arguments of `rapidurl parse`.
#[derive(Args, Debug)]
struct ParseArgs {
    /// Input files, one URL per line; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Tsv)]
    format: Format,

    /// Comma-separated columns (JSON keys), named as the URL API's attributes.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = DEFAULT_FIELDS)]
    fields: Vec<Field>,

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

/// Arguments shared by the subcommands.
#[derive(Args, Debug)]
struct CommonArgs {
    /// Resolve every line against this base URL.
    #[arg(long, value_name = "URL")]
    base: Option<String>,
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
enum Failure {
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
    };
    match result {
        Ok(code) => code,
        // `rapidurl parse … | head`: the reader went away; that is not an error.
        Err(Failure::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(err)) => {
            report(format_args!("rapidurl: error writing output: {err}"));
            ExitCode::from(2)
        }
        Err(Failure::Message(msg)) => {
            report(format_args!("rapidurl: {msg}"));
            ExitCode::from(2)
        }
    }
}

/// Writes one line to stderr, ignoring failure (there is nowhere left to report it).
fn report(message: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{message}");
}

/// Parses the `--base` argument.
fn parse_base(base: Option<&str>) -> Result<Option<Url>, Failure> {
    base.map(|b| {
        Url::parse(b).map_err(|e| Failure::Message(format!("invalid --base URL {b:?}: {e}")))
    })
    .transpose()
}

/// The inputs to read: the files given, or standard input.
fn input_paths(files: Vec<String>) -> Vec<String> {
    if files.is_empty() {
        vec!["-".to_owned()]
    } else {
        files
    }
}

/// Opens one input, or explains why it cannot be opened.
fn open(path: &str) -> Result<Source, Failure> {
    Source::open(path).map_err(|e| Failure::Message(format!("{path}: {e}")))
}

/// An error reading from `source`.
fn read_failure(source: &Source, err: io::Error) -> Failure {
    Failure::Message(format!("{}: read error: {err}", source.name))
}

/// The `file:line:col: error` diagnostic of a line that did not parse.
fn diagnostic(source: &Source, line_no: u64, err: &ParseError) -> String {
    format!("{}:{}:{}: {}", source.name, line_no, error_column(err), err)
}

/// `rapidurl parse`.
fn run_parse(args: ParseArgs) -> Result<ExitCode, Failure> {
    let base = parse_base(args.common.base.as_deref())?;
    let stdout = io::stdout().lock();
    let out = BufWriter::with_capacity(64 * 1024, stdout);
    let mut rows = RowWriter::new(
        out,
        args.format,
        args.fields,
        args.on_error == OnError::Mark,
    );
    if !args.no_header {
        rows.header()?;
    }
    for path in input_paths(args.files) {
        let mut source = open(&path)?;
        let mut line_no = 0u64;
        loop {
            let line = match source.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => {
                    rows.flush()?;
                    return Err(read_failure(&source, e));
                }
            };
            line_no += 1;
            match parse_line(line, base.as_ref()) {
                Ok(url) => rows.url_row(&url)?,
                Err(err) => {
                    match args.on_error {
                        OnError::Mark => rows.error_row(&err)?,
                        OnError::Skip => {}
                        OnError::Fail => {
                            // Rows before the bad line are written before the report.
                            rows.flush()?;
                            report(format_args!("{}", diagnostic(&source, line_no, &err)));
                            return Ok(ExitCode::FAILURE);
                        }
                    }
                    report(format_args!("{}", diagnostic(&source, line_no, &err)));
                }
            }
        }
    }
    rows.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// How many invalid lines `check` lists.
const CHECK_LISTED: usize = 10;

/// `rapidurl check`.
fn run_check(args: CheckArgs) -> Result<ExitCode, Failure> {
    let base = parse_base(args.common.base.as_deref())?;
    let (mut lines, mut invalid) = (0u64, 0u64);
    let mut listed = Vec::with_capacity(CHECK_LISTED);
    for path in input_paths(args.files) {
        let mut source = open(&path)?;
        let name = source.name.clone();
        let mut line_no = 0u64;
        loop {
            let line = match source.next_line() {
                Ok(Some(line)) => line,
                Ok(None) => break,
                Err(e) => return Err(Failure::Message(format!("{name}: read error: {e}"))),
            };
            line_no += 1;
            if let Err(err) = parse_line(line, base.as_ref()) {
                invalid += 1;
                if listed.len() < CHECK_LISTED {
                    let input = String::from_utf8_lossy(line);
                    listed.push(format!(
                        "{}:{}:{}: {} \u{2014} {input}",
                        name,
                        line_no,
                        error_column(&err),
                        err
                    ));
                }
            }
        }
        lines += line_no;
    }
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
