//! `rapidurl`: parse, validate and count URLs in bulk per the WHATWG URL Standard, from
//! lines, CSV, TSV, JSON Lines or Parquet, to TSV, CSV, JSON Lines or Parquet.
//!
//! Every bulk command is an adapter over the library's bulk engine
//! (`rapidurl::batch::engine`, driven by `pipeline`): the inputs are read a window of
//! batches of whole records at a time (`source`; tables decoded by `records`), the engine
//! parses the window on `--threads` threads with the window as its source (`window`), and
//! each command's sink formats the rows (`output`, `parquet_out`) or counts them (`stats`),
//! written in input order. Memory stays bounded by one window whatever the input's size.
//!
//! See `rapidurl --help` and `rapidurl <command> --help`.
#![forbid(unsafe_code)]

mod bench;
mod dedup;
mod lint;
mod output;
mod parquet_out;
mod pipeline;
mod progress;
mod records;
mod routes;
mod rows;
mod source;
mod stats;
mod table;
mod window;

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, Parser, Subcommand, ValueEnum};
use crossbeam_channel::{Receiver, Sender, unbounded};
use rapidurl::Url;
use rapidurl::field::Field;

use crate::output::{Column, Format, RowFormat, RowText};
use crate::pipeline::{Collector, Done, Stop};
use crate::progress::Progress;
use crate::rows::{Flow, Plan, RowError, RowSink};
use crate::source::{DEFAULT_BLOCK_BYTES, Input, InputFormat, Reader};
use crate::window::Work;

/// Parse URLs in bulk per the WHATWG URL Standard (what a browser's `new URL()` does).
#[derive(Parser, Debug)]
#[command(name = "rapidurl", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    rapidurl parse urls.txt > urls.tsv\n  \
    rapidurl parse access-log.csv --column request_url --fields hostname,pathname -o out.parquet\n  \
    cat urls.txt | rapidurl parse --format jsonl --fields href,origin\n  \
    rapidurl check urls.txt\n  \
    rapidurl stats crawl.jsonl --by hostname --top 20\n  \
    rapidurl bench urls.txt\n\n\
    Exit status: 0 success; 1 invalid URLs (check) or a bad URL under --on-error fail;\n\
    2 usage error, or an input or output that cannot be opened or used; 3 an input that\n\
    is not well formed (ragged row, unterminated quote, bad JSON), found while reading it.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Parse the URL of each input line or row and write its components (with the row's
    /// other columns), one output row per input row.
    #[command(after_help = PARSE_AFTER_HELP)]
    Parse(ParseArgs),
    /// Validate the URL of each input line or row; print a summary and exit 1 if any is
    /// invalid.
    #[command(after_help = CHECK_AFTER_HELP)]
    Check(CheckArgs),
    /// Count the values of one field over the input: the top values with their counts,
    /// shares and a bar.
    #[command(after_help = STATS_AFTER_HELP)]
    Stats(StatsArgs),
    /// Measure parse throughput on a file: URLs/s, MB/s and ns/URL, on one thread and on
    /// all of them.
    #[command(after_help = BENCH_AFTER_HELP)]
    Bench(BenchArgs),
    /// List every validation error (URL Standard §1.1) of one URL per input line:
    /// FILE:LINE:COLUMN: NAME: explanation, then counts per name on stderr; exit 1 when any.
    Lint(LintArgs),
    /// Write each row whose canonical key (--key) is new, in input order, unchanged.
    #[command(after_help = dedup::DEDUP_AFTER_HELP)]
    Dedup(dedup::DedupArgs),
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
Input formats (by extension, or --input-format; standard input is lines unless told):
  lines    one URL per line, no header (any other extension). A trailing \\r is
           removed; a line that is not valid UTF-8 is decoded with U+FFFD for each
           invalid sequence; an empty line is the input \"\".
  csv      .csv: a header row, then records quoted per RFC 4180 (a quoted field may
           hold commas, doubled quotes and line breaks).
  tsv      .tsv, .tab: a header row, fields separated by tabs; \\t \\n \\r \\\\ in a field
           stand for tab, line feed, carriage return, backslash (as --format tsv writes).
  jsonl    .jsonl, .ndjson: one JSON object per line; the keys of the first object are
           the columns (a missing key is null; a key the first object lacks is an error).
  parquet  .parquet: the URL (and base) column must hold strings.
A UTF-8 byte-order mark at the start of an input is ignored; blank lines of CSV, TSV and
JSON Lines are not rows. Every input must have the columns of the first.

The URL is the column --column names (a name, or a number from 1; default: the column
named `url`, else the first). Output rows are the input's columns, unchanged and in
order (the URL's column too), then the --fields; --drop-columns leaves the input's
columns out. A null or absent URL cell is an error row (missing-URL).

--base resolves every URL against one base; --base-column names a column holding each
row's base (an empty or null base means --base if given, else none; a base that does
not parse fails the row with base-URL-invalid). With lines input, --base-column N makes
the line tab-separated: field N holds the base, field 1 (2 when N is 1) the URL.

Output: --format, else the extension of -o FILE, else tsv. Parquet is written in row
groups of 65,536 rows (string columns; passed-through Parquet columns keep their types).

Errors: a URL that does not parse is reported on stderr as FILE:LINE:COL: ERROR, where
LINE is the line (the line a CSV record starts on; for Parquet, the row number) and COL
is 1 + the error's byte offset in the URL; standard input is named <stdin>. A table that
is not well formed stops the run with FILE:LINE: column N: what is wrong (rows before it
are written).

Inputs are read, parsed (on --threads threads) and written a window of records at a
time, so memory stays bounded whatever the input's size; from a slow pipe, rows are
written as their lines arrive. A progress bar is drawn on stderr when stderr is a terminal and
every input is a regular file.

Exit status: 0 on success (also with bad URLs under --on-error mark or skip), 1 when
--on-error fail stopped at a bad URL, 2 on a usage error or an input or output that
cannot be opened or used (unknown column, non-string column), 3 when an input turns
out not to be well formed (ragged row, unterminated quote, bad JSON) or cannot be read.

Examples:
  rapidurl parse corpora/sample.txt > out.tsv
  rapidurl parse --format jsonl --fields href,origin,hostname urls.txt
  rapidurl parse log.csv --column 3 --fields input,hostname,error -o out.csv
  rapidurl parse events.parquet --column page_url --drop-columns -o hosts.parquet
  printf '../a?b#c\\n' | rapidurl parse --base https://example.com/x/y --fields href
  printf '../a\\thttps://example.com/x/y\\n' | rapidurl parse --base-column 2 --fields href
  rapidurl parse --threads 2 --on-error fail --format csv a.txt b.txt";

const CHECK_AFTER_HELP: &str = "\
Prints the number of rows, valid and invalid URLs, and the first 10 invalid rows as
FILE:LINE:COL: ERROR \u{2014} INPUT. Input is read as `rapidurl parse` reads it (see its
help: formats, --column, --base, --base-column). Exit status: 0 when every row is a
valid URL, 1 when any is not, 2 on a usage error or an input that cannot be opened or
used, 3 on an input that is not well formed.

Examples:
  rapidurl check corpora/sample.txt
  cat links.txt | rapidurl check --base https://example.com/
  rapidurl check --column href pages.csv";

const STATS_AFTER_HELP: &str = "\
Reads the input as `rapidurl parse` does (formats, --column, --base) and prints the
number of rows, the number of invalid URLs, then the --top most frequent values of the
--by field among the valid URLs (for `error`, the error names of the invalid ones; for
`input`, the cells of all rows), most frequent first (ties in value order), each with
its count, its share of the rows counted and a bar. An empty value is shown as \"\" and
an absent one as (none). --format csv or jsonl writes the table alone, one
value,count,share row or object per value. Counting keeps one entry per distinct value.

Exit status: 0 on success, 2 on a usage error or an input that cannot be opened or
used, 3 on an input that is not well formed.

Examples:
  rapidurl stats crawl.txt --by hostname
  rapidurl stats log.csv --column url --by error --top 5
  rapidurl stats a.jsonl b.jsonl --by protocol --format csv";

const BENCH_AFTER_HELP: &str = "\
Reads FILE into memory (one URL per line), then measures, taking turns (one run each per
round, for at least --time seconds and 3 rounds): the batch engine into a UrlColumn
(batch::parse_lines) on 1 thread and on --threads threads (default: all cores), the
engine with a counting sink on 1 thread, a single-threaded loop over parse_ref (one
arena, emptied every run), and one memchr pass over the bytes. Prints each one's median
run as URLs/s, MB/s (input bytes, 10^6) and ns/URL, its speed against the parse_ref loop,
the speed-up on --threads threads, and the column's speed as a fraction of the memchr
pass's. Output is not formatted or written: this is the parser's throughput, not the
whole tool's (scripts/bulk_table.py times the tool too).

Examples:
  rapidurl bench corpora/sample.txt
  rapidurl bench --threads 2 --time 3 ../shared/corpora/kasztp.txt";

/// Where the rows come from (shared by `parse`, `check` and `stats`).
#[derive(Args, Debug)]
struct InputArgs {
    /// Input files; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// The inputs' format [default: by extension: .csv, .tsv/.tab, .jsonl/.ndjson,
    /// .parquet; lines otherwise and for standard input].
    #[arg(long, value_enum, value_name = "FORMAT")]
    input_format: Option<InputFormat>,

    /// The column holding the URL (tables): a name, or a number counted from 1
    /// [default: `url`, else the first column].
    #[arg(long, value_name = "NAME|N")]
    column: Option<String>,

    /// Resolve every URL against this base URL.
    #[arg(long, value_name = "URL")]
    base: Option<String>,

    /// The column holding each row's base URL: a name or a number from 1 (lines input:
    /// tab-separated field N; the URL is field 1, or 2 when N is 1).
    #[arg(long, value_name = "NAME|N")]
    base_column: Option<String>,

    /// Worker threads parsing (0 or absent: all cores). Output is the same for any
    /// number.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// Bytes of text input read and parsed at a time (whole records; at most 1 GiB).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_BLOCK_BYTES, hide = true,
          value_parser = clap::value_parser!(u32).range(1..=1 << 30))]
    block_bytes: u32,
}

/// Arguments of `rapidurl parse`.
#[derive(Args, Debug)]
struct ParseArgs {
    #[command(flatten)]
    input: InputArgs,

    /// Output format [default: the extension of -o (.tsv, .csv, .jsonl, .parquet), else
    /// tsv].
    #[arg(long, value_enum)]
    format: Option<Format>,

    /// Write the output to FILE (created only once every input has been opened).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,

    /// Comma-separated columns (JSON keys), named as the URL API's attributes (href,
    /// origin, protocol, username, password, host, hostname, port, pathname, search,
    /// hash), the host analytics public_suffix, registrable_domain, subdomain (Public
    /// Suffix List, empty unless the host is a domain), param:NAME (the decoded value of
    /// the query's first NAME pair), the canonical keys surt and canonical (see
    /// `rapidurl dedup --help`), or `input` (the cell as read) and `error`
    /// [default: href,protocol,username,password,hostname,port,pathname,search,hash].
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(Column))]
    fields: Vec<Column>,

    /// A public_suffix_list.dat to use instead of the built-in snapshot of the list (for
    /// public_suffix, registrable_domain, subdomain).
    #[arg(long, value_name = "FILE")]
    psl: Option<std::path::PathBuf>,

    /// A route table for the fields route and route_params: one URL pattern a line, or
    /// `name<TAB>pattern`.
    #[arg(long, value_name = "FILE")]
    routes: Option<std::path::PathBuf>,

    /// Leave the input's columns out of the output (only the --fields).
    #[arg(long)]
    drop_columns: bool,

    /// Write a header row (tsv and csv; the default).
    #[arg(long, overrides_with = "no_header")]
    header: bool,

    /// Do not write a header row.
    #[arg(long, overrides_with = "header")]
    no_header: bool,

    /// What to do with a row whose URL does not parse: `mark` writes a row whose `error`
    /// column (JSON key) holds the error; `skip` writes no row; `fail` stops with exit
    /// status 1. All three report the error on stderr.
    #[arg(long, value_enum, default_value_t = OnError::Mark)]
    on_error: OnError,
}

/// Arguments of `rapidurl check`.
#[derive(Args, Debug)]
struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
}

/// Arguments of `rapidurl stats`.
#[derive(Args, Debug)]
struct StatsArgs {
    #[command(flatten)]
    input: InputArgs,

    /// The field to count: a URL field (hostname, protocol, port …), `error` (the error
    /// names of invalid URLs) or `input`.
    #[arg(long, value_name = "FIELD", value_parser = clap::value_parser!(Column))]
    by: Column,

    /// How many of the most frequent values to show.
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,

    /// A public_suffix_list.dat to use instead of the built-in snapshot of the list.
    #[arg(long, value_name = "FILE")]
    psl: Option<std::path::PathBuf>,

    /// A route table for `--by route`: one URL pattern a line, or `name<TAB>pattern`.
    #[arg(long, value_name = "FILE")]
    routes: Option<std::path::PathBuf>,

    /// Output: a table for people (text), or the values alone as CSV or JSON Lines.
    #[arg(long, value_enum, default_value_t = stats::StatsFormat::Text)]
    format: stats::StatsFormat,
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

/// What `parse` does with a row whose URL does not parse.
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
pub enum Failure {
    /// Writing to standard output failed.
    Output(io::Error),
    /// A usage error, or an input or output that cannot be opened or used (exit 2).
    Message(String),
    /// A run that stopped (see [`Stop`]).
    Stopped(Stop),
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Self {
        Failure::Output(err)
    }
}

impl From<Stop> for Failure {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Output(e) => Failure::Output(e),
            stop => Failure::Stopped(stop),
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Parse(args) => run_parse(args),
        Command::Check(args) => run_check(args),
        Command::Stats(args) => routes::load(args.routes.as_deref(), &[&args.by])
            .and_then(|()| load_psl(args.psl.as_deref()))
            .and_then(|list| stats::run(args.input, &args.by, args.top, args.format, list)),
        Command::Bench(args) => bench::run(&args.file, args.threads, args.time),
        Command::Lint(args) => lint::run(&input_paths(&args.files), args.format),
        Command::Dedup(args) => dedup::run(args),
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
        Err(Failure::Stopped(Stop::Input(msg))) => {
            report(&format!("rapidurl: {msg}\n"));
            ExitCode::from(3)
        }
        Err(Failure::Stopped(Stop::Code(code))) => ExitCode::from(code),
        Err(Failure::Stopped(Stop::Output(err))) => {
            report(&format!("rapidurl: error writing output: {err}\n"));
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

/// The inputs to read: the files given, or standard input.
fn input_paths(files: &[String]) -> Vec<String> {
    if files.is_empty() {
        vec!["-".to_owned()]
    } else {
        files.to_vec()
    }
}

/// The column `spec` names (a name, or a number from 1) among `columns`.
fn resolve_column(
    spec: &str,
    columns: &[String],
    input: &str,
    option: &str,
) -> Result<usize, Failure> {
    let list = columns.join(", ");
    if !spec.is_empty() && spec.bytes().all(|b| b.is_ascii_digit()) {
        return match spec.parse::<usize>() {
            Ok(n) if (1..=columns.len()).contains(&n) => Ok(n - 1),
            _ => Err(Failure::Message(format!(
                "{option} {spec}: {input} has {} columns ({list})",
                columns.len()
            ))),
        };
    }
    columns.iter().position(|c| c == spec).ok_or_else(|| {
        Failure::Message(format!(
            "{option} {spec}: {input} has no column {spec:?}; its columns are {list}"
        ))
    })
}

/// The inputs, opened, and how their records become rows.
struct Prepared {
    plan: Arc<Plan>,
    reader: Reader,
    /// The total size of the inputs, when every one is a regular file.
    total: Option<u64>,
    /// The Arrow fields of the passed-through columns (their types for Parquet input).
    pass_fields: Vec<arrow_schema::Field>,
}

/// Opens every input (before anything is written), reads the first one's columns, and
/// resolves `--column`, `--base-column` and `--base`. `drop` leaves the passed-through
/// columns out; `arrow_pass` says Parquet columns pass through as Arrow arrays.
fn prepare(args: &InputArgs, drop: bool, arrow_pass: bool) -> Result<Prepared, Failure> {
    let base_url = args
        .base
        .as_deref()
        .map(|b| {
            Url::parse(b).map_err(|e| Failure::Message(format!("invalid --base URL {b:?}: {e}")))
        })
        .transpose()?;
    let paths = input_paths(&args.files);
    let mut inputs = Vec::with_capacity(paths.len());
    for path in &paths {
        inputs.push(
            Input::open(path, args.input_format, args.block_bytes as usize)
                .map_err(Failure::Message)?,
        );
    }
    let format = inputs[0].format;
    if let Some(other) = inputs.iter().find(|i| i.format != format) {
        return Err(Failure::Message(format!(
            "{} is {} but {} is {}: give inputs of one format (or --input-format)",
            inputs[0].name,
            format.name(),
            other.name,
            other.format.name()
        )));
    }
    let first = &mut inputs[0];
    let columns = first.columns().map_err(Failure::Message)?.to_vec();
    let (url, base, pass) = if format == InputFormat::Lines {
        if args.column.is_some() {
            return Err(Failure::Message(
                "--column names a column of a table (csv, tsv, jsonl or parquet input); lines \
                 input is one URL per line (see --input-format)"
                    .into(),
            ));
        }
        let base = match args.base_column.as_deref() {
            None => None,
            Some(n) => match n.parse::<u16>() {
                Ok(n) if n >= 1 => Some(usize::from(n) - 1),
                _ => {
                    return Err(Failure::Message(format!(
                        "--base-column {n}: with lines input, the number of a tab-separated \
                         field, from 1"
                    )));
                }
            },
        };
        (0, base, Vec::new())
    } else {
        if columns.is_empty() {
            return Err(Failure::Message(format!("{}: no columns", first.name)));
        }
        let url = match args.column.as_deref() {
            Some(spec) => resolve_column(spec, &columns, &first.name, "--column")?,
            None => columns.iter().position(|c| c == "url").unwrap_or(0),
        };
        let base = args
            .base_column
            .as_deref()
            .map(|spec| resolve_column(spec, &columns, &first.name, "--base-column"))
            .transpose()?;
        if base == Some(url) {
            return Err(Failure::Message(format!(
                "--base-column names the URL's column ({:?})",
                columns[url]
            )));
        }
        source::check_string_column(first, &columns[url], "the URL").map_err(Failure::Message)?;
        if let Some(b) = base {
            source::check_string_column(first, &columns[b], "the base")
                .map_err(Failure::Message)?;
        }
        let pass = if drop {
            Vec::new()
        } else {
            (0..columns.len()).collect()
        };
        (url, base, pass)
    };
    let schema = first.arrow_schema();
    let pass_fields = pass
        .iter()
        .map(|&i| match &schema {
            Some(s) => s.field(i).clone(),
            None => arrow_schema::Field::new(&columns[i], arrow_schema::DataType::Utf8, true),
        })
        .collect();
    let projection = (format == InputFormat::Parquet && drop).then(|| {
        std::iter::once(url)
            .chain(base)
            .map(|i| columns[i].clone())
            .collect()
    });
    let plan = Plan {
        format,
        names: inputs.iter().map(|i| i.name.clone()).collect(),
        url,
        base,
        cells: !(arrow_pass && format == InputFormat::Parquet),
        pass,
        columns: columns.clone(),
        base_url,
    };
    let total = paths.iter().map(|p| Input::size(p)).sum();
    Ok(Prepared {
        plan: Arc::new(plan),
        reader: Reader {
            inputs,
            columns,
            projection,
        },
        total,
        pass_fields,
    })
}

/// The Public Suffix List of `--psl FILE`, or `None` for the built-in one.
fn load_psl(path: Option<&std::path::Path>) -> Result<Option<rapidurl::psl::SuffixList>, Failure> {
    path.map(|p| {
        rapidurl::psl::SuffixList::from_file(p).map_err(|e| Failure::Message(e.to_string()))
    })
    .transpose()
}

/// The `FILE:LINE:COL: ERROR` diagnostic of a row without a URL, with its newline.
fn diagnostic(out: &mut String, name: &str, line: u64, err: &RowError) {
    let _ = writeln!(out, "{name}:{line}:{}: {err}", err.column());
}

/// Standard output as a file (no line buffering: rows are written in large pieces).
fn stdout_file() -> Result<Box<dyn Write + Send>, Failure> {
    use std::os::fd::AsFd;
    let fd = io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .map_err(|e| Failure::Message(format!("cannot write to standard output: {e}")))?;
    Ok(Box::new(File::from(fd)))
}

/// What a `parse` worker makes of a batch.
struct Formatted {
    /// Rows for the writer to copy out, or as an Arrow record batch.
    rows: RowText,
    arrow: Option<arrow_array::RecordBatch>,
    /// The diagnostics of its bad rows.
    diagnostics: String,
    /// Set when the run must stop after this batch's rows.
    stop: Option<Stop>,
}

/// `rapidurl parse`.
fn run_parse(args: ParseArgs) -> Result<ExitCode, Failure> {
    let format = args
        .format
        .or_else(|| args.output.as_deref().and_then(Format::from_extension))
        .unwrap_or(Format::Tsv);
    let columns: Vec<Column> = if args.fields.is_empty() {
        Field::DEFAULT.into_iter().map(Column::Field).collect()
    } else {
        args.fields.clone()
    };
    let error_auto = args.on_error == OnError::Mark && !columns.contains(&Column::Error);
    let suffix_list = load_psl(args.psl.as_deref())?;
    routes::load(args.routes.as_deref(), &columns.iter().collect::<Vec<_>>())?;
    let prepared = prepare(&args.input, args.drop_columns, format == Format::Parquet)?;
    let plan = prepared.plan.clone();
    let pass_names: Vec<String> = plan.pass.iter().map(|&i| plan.columns[i].clone()).collect();
    let mut out_names: Vec<String> = columns.iter().map(|c| c.name().into_owned()).collect();
    if error_auto {
        out_names.push(output::ERROR_COLUMN.to_owned());
    }
    if let Some(clash) = pass_names.iter().find(|n| out_names.contains(n)) {
        return Err(Failure::Message(format!(
            "the input has a column {clash:?}, which is also the name of an output column; \
             choose other --fields, or leave the input's columns out with --drop-columns"
        )));
    }
    if let Some(dup) = out_names
        .iter()
        .enumerate()
        .find(|(i, n)| out_names[..*i].contains(n))
    {
        return Err(Failure::Message(format!(
            "--fields names {:?} twice",
            dup.1
        )));
    }
    // Every input is open: now the output may be created.
    let out: Box<dyn Write + Send> = match &args.output {
        Some(path) => Box::new(
            File::create(path)
                .map_err(|e| Failure::Message(format!("{path}: cannot create: {e}")))?,
        ),
        None => stdout_file()?,
    };
    let threads = thread_count(args.input.threads);
    let progress = Progress::new(prepared.total);
    let on_error = args.on_error;
    let schema = parquet_out::schema(prepared.pass_fields.clone(), &columns, error_auto);
    let row_format = Arc::new(
        RowFormat::new(format, pass_names.clone(), columns.clone(), error_auto)
            .with_suffix_list(suffix_list.clone()),
    );
    let (pool_tx, pool_rx) = unbounded::<RowText>();
    let work = ParseWork {
        plan: &plan,
        format: &row_format,
        parquet: format == Format::Parquet,
        columns: &columns,
        error_auto,
        schema: &schema,
        pass_names: &pass_names,
        suffix_list: suffix_list.as_ref(),
        on_error,
        pool: pool_rx,
    };
    let result = if format == Format::Parquet {
        let writer = parquet_out::writer(out, schema.clone())
            .map_err(|e| Failure::Message(format!("cannot write Parquet: {e}")))?;
        let mut sink = ParquetSink {
            writer: Some(writer),
            progress: &progress,
        };
        let run = pipeline::run(prepared.reader, threads, &plan, &work, &mut sink);
        let closed = sink.close();
        run.and(closed)
    } else {
        let mut out = BufWriter::with_capacity(64 * 1024, out);
        if !args.no_header {
            let mut header = String::new();
            row_format.header(&mut header);
            out.write_all(header.as_bytes())?;
        }
        let mut sink = TextSink {
            out,
            format: row_format.clone(),
            bytes: Vec::new(),
            progress: &progress,
            pool: pool_tx,
        };
        pipeline::run(prepared.reader, threads, &plan, &work, &mut sink)
    };
    progress.finish();
    result?;
    Ok(ExitCode::SUCCESS)
}

/// What `parse` does with each batch: its rows as text (a parsed line's row left for the
/// writer in the line loop, [`RowFormat::url_line_spans`]; any other row formatted
/// through [`RowFormat::url_row`]) or as an Arrow record batch.
struct ParseWork<'a> {
    plan: &'a Plan,
    format: &'a RowFormat,
    /// Whether the rows go to Parquet.
    parquet: bool,
    columns: &'a [Column],
    error_auto: bool,
    schema: &'a arrow_schema::SchemaRef,
    pass_names: &'a [String],
    suffix_list: Option<&'a rapidurl::psl::SuffixList>,
    on_error: OnError,
    /// Output buffers written by the collector, to reuse.
    pool: Receiver<RowText>,
}

/// A batch being formatted by `parse`.
struct ParsePart<'w> {
    work: &'w ParseWork<'w>,
    batch: &'w source::Batch,
    /// The batch's input block (empty when it is not text).
    block: &'w [u8],
    text: RowText,
    arrow: Option<parquet_out::ArrowRows>,
    diagnostics: String,
    stop: Option<Stop>,
}

impl<'a> Work for ParseWork<'a> {
    type Out = Result<Formatted, Stop>;
    type Part<'w>
        = ParsePart<'w>
    where
        Self: 'w;

    fn part<'w>(&'w self, batch: &'w source::Batch) -> ParsePart<'w> {
        let mut text = self.pool.try_recv().unwrap_or_default();
        text.clear();
        let block = match &batch.data {
            source::Data::Text(bytes) => bytes.as_slice(),
            _ => &[],
        };
        let plan = self.plan;
        let arrow = self.parquet.then(|| {
            parquet_out::ArrowRows::new(
                self.columns.to_vec(),
                self.error_auto,
                if plan.cells { plan.pass.len() } else { 0 },
            )
        });
        ParsePart {
            work: self,
            batch,
            block,
            text,
            arrow,
            diagnostics: String::new(),
            stop: None,
        }
    }

    fn done(&self, mut part: ParsePart<'_>, error: Option<String>) -> Result<Formatted, Stop> {
        if let (None, Some(msg)) = (&part.stop, error) {
            part.stop = Some(Stop::Input(msg));
        }
        let name = &self.plan.names[part.batch.input];
        let arrow = match &mut part.arrow {
            None => None,
            Some(a) => {
                let input = match &part.batch.data {
                    source::Data::Arrow { batch: rows, .. } if !self.plan.cells => {
                        Some((rows, self.pass_names))
                    }
                    _ => None,
                };
                Some(
                    a.finish(self.schema, input)
                        .map_err(|e| Stop::Input(format!("{name}: {e}")))?,
                )
            }
        };
        Ok(Formatted {
            rows: part.text,
            arrow,
            diagnostics: part.diagnostics,
            stop: part.stop,
        })
    }
}

impl RowSink for ParsePart<'_> {
    #[inline(always)]
    fn line_url(
        &mut self,
        line: u64,
        index: usize,
        input: &str,
        url: &rapidurl::UrlRef<'_>,
    ) -> Flow {
        if self.arrow.is_some() {
            return self.row(&rows::Row {
                line,
                index,
                input,
                url: Ok(*url),
                cells: &[],
            });
        }
        self.work
            .format
            .url_line_spans(&mut self.text, self.block, input, url);
        Flow::Go
    }

    fn row(&mut self, row: &rows::Row<'_>) -> Flow {
        let work = self.work;
        let name = &work.plan.names[self.batch.input];
        let mut bad = |row: &rows::Row<'_>, err: &RowError, sink: Sink<'_>| {
            bad_row(
                name,
                work.on_error,
                row,
                err,
                sink,
                &mut self.diagnostics,
                &mut self.stop,
            )
        };
        match &mut self.arrow {
            Some(a) => match &row.url {
                Ok(url) => {
                    a.url_row(
                        row.index,
                        row.cells,
                        row.input,
                        url,
                        &output::field_context(work.suffix_list),
                    );
                    Flow::Go
                }
                Err(err) => bad(row, err, Sink::Arrow(a)),
            },
            None => {
                let from = self.text.side.len();
                let flow = match &row.url {
                    Ok(url) => {
                        work.format
                            .url_row(&mut self.text.side, row.cells, row.input, url);
                        Flow::Go
                    }
                    Err(err) => bad(row, err, Sink::Text(work.format, &mut self.text.side)),
                };
                self.text.rows_from(from);
                flow
            }
        }
    }
}

/// Where a `parse` worker writes a batch's rows.
enum Sink<'s> {
    /// Rows of text in this format.
    Text(&'s RowFormat, &'s mut String),
    /// An Arrow record batch being built.
    Arrow(&'s mut parquet_out::ArrowRows),
}

/// A row without a URL: its diagnostic, then as `--on-error` says (kept out of the
/// per-row loop: such rows are rare).
#[cold]
#[inline(never)]
fn bad_row(
    name: &str,
    on_error: OnError,
    row: &rows::Row<'_>,
    err: &RowError,
    sink: Sink<'_>,
    diagnostics: &mut String,
    stop: &mut Option<Stop>,
) -> Flow {
    diagnostic(diagnostics, name, row.line, err);
    match on_error {
        OnError::Mark => match sink {
            Sink::Arrow(a) => a.error_row(row.index, row.cells, row.input, err),
            Sink::Text(format, text) => format.error_row(text, row.cells, row.input, err),
        },
        OnError::Skip => {}
        OnError::Fail => {
            *stop = Some(Stop::Code(1));
            return Flow::Stop;
        }
    }
    Flow::Go
}

/// Writes a formatted batch's diagnostics (with the bar hidden) and says whether to stop.
fn finish_batch(progress: &Progress, done: &mut Done<Formatted>) -> Result<(), Stop> {
    progress.inc(done.bytes);
    if !done.value.diagnostics.is_empty() {
        progress.suspend(|| report(&done.value.diagnostics));
    }
    match done.value.stop.take() {
        Some(stop) => Err(stop),
        None => Ok(()),
    }
}

/// `parse`'s collector for text formats: copies each batch's rows out of its input
/// block and the worker's text ([`RowFormat::write`]) and writes them.
struct TextSink<'p> {
    out: BufWriter<Box<dyn Write + Send>>,
    format: Arc<RowFormat>,
    /// The rows of a batch, reused from batch to batch.
    bytes: Vec<u8>,
    progress: &'p Progress,
    pool: Sender<RowText>,
}

impl Collector<Formatted> for TextSink<'_> {
    fn collect(&mut self, mut done: Done<Formatted>, input: &[u8]) -> Result<(), Stop> {
        self.bytes.clear();
        self.format.write(&mut self.bytes, &done.value.rows, input);
        self.out.write_all(&self.bytes)?;
        let rows = std::mem::take(&mut done.value.rows);
        let _ = self.pool.send(rows);
        if done.value.stop.is_some() {
            // Rows before the stop are written before it is reported.
            self.out.flush()?;
        }
        finish_batch(self.progress, &mut done)
    }

    fn idle(&mut self) -> Result<(), Stop> {
        Ok(self.out.flush()?)
    }
}

/// `parse`'s collector for Parquet.
struct ParquetSink<'p> {
    writer: Option<parquet::arrow::ArrowWriter<Box<dyn Write + Send>>>,
    progress: &'p Progress,
}

impl ParquetSink<'_> {
    /// Writes the file's footer (also after a stop, so the rows before it are readable).
    fn close(&mut self) -> Result<(), Stop> {
        match self.writer.take() {
            Some(w) => w
                .close()
                .map(|_| ())
                .map_err(|e| Stop::Output(io::Error::other(e))),
            None => Ok(()),
        }
    }
}

impl Collector<Formatted> for ParquetSink<'_> {
    fn collect(&mut self, mut done: Done<Formatted>, _: &[u8]) -> Result<(), Stop> {
        if let (Some(w), Some(batch)) = (&mut self.writer, &done.value.arrow) {
            if batch.num_rows() > 0 {
                w.write(batch)
                    .map_err(|e| Stop::Output(io::Error::other(e)))?;
            }
        }
        finish_batch(self.progress, &mut done)
    }

    fn idle(&mut self) -> Result<(), Stop> {
        Ok(())
    }
}

/// How many invalid rows `check` lists.
const CHECK_LISTED: usize = 10;

/// What a `check` worker counts in a batch.
struct Checked {
    rows: u64,
    invalid: u64,
    listed: Vec<String>,
    stop: Option<Stop>,
}

impl Checked {
    /// Counts a row without a URL and lists the first few (out of line: such rows are
    /// rare, and the per-row callback stays small enough to be inlined).
    #[cold]
    #[inline(never)]
    fn bad_row(&mut self, name: &str, row: &rows::Row<'_>, err: &RowError) {
        self.invalid += 1;
        if self.listed.len() < CHECK_LISTED {
            self.listed.push(format!(
                "{name}:{}:{}: {err} \u{2014} {}",
                row.line,
                err.column(),
                row.input
            ));
        }
    }
}

/// What `check` does with each batch: counts its rows and lists the first invalid ones.
struct CheckWork<'a> {
    plan: &'a Plan,
}

/// A batch being counted by `check`.
struct CheckPart<'w> {
    name: &'w str,
    c: Checked,
}

impl Work for CheckWork<'_> {
    type Out = Result<Checked, Stop>;
    type Part<'w>
        = CheckPart<'w>
    where
        Self: 'w;

    fn part<'w>(&'w self, batch: &'w source::Batch) -> CheckPart<'w> {
        CheckPart {
            name: &self.plan.names[batch.input],
            c: Checked {
                rows: 0,
                invalid: 0,
                listed: Vec::new(),
                stop: None,
            },
        }
    }

    fn done(&self, mut part: CheckPart<'_>, error: Option<String>) -> Result<Checked, Stop> {
        part.c.stop = error.map(Stop::Input);
        Ok(part.c)
    }
}

impl RowSink for CheckPart<'_> {
    #[inline(always)]
    fn line_url(&mut self, _: u64, _: usize, _: &str, _: &rapidurl::UrlRef<'_>) -> Flow {
        self.c.rows += 1;
        Flow::Go
    }

    fn row(&mut self, row: &rows::Row<'_>) -> Flow {
        self.c.rows += 1;
        if let Err(err) = &row.url {
            self.c.bad_row(self.name, row, err);
        }
        Flow::Go
    }
}

/// `rapidurl check`.
fn run_check(args: CheckArgs) -> Result<ExitCode, Failure> {
    let prepared = prepare(&args.input, true, false)?;
    let plan = prepared.plan.clone();
    let progress = Progress::new(prepared.total);
    let work = CheckWork { plan: &plan };
    struct Sink<'p> {
        total: Checked,
        progress: &'p Progress,
    }
    impl Collector<Checked> for Sink<'_> {
        fn collect(&mut self, done: Done<Checked>, _: &[u8]) -> Result<(), Stop> {
            self.progress.inc(done.bytes);
            let c = done.value;
            self.total.rows += c.rows;
            self.total.invalid += c.invalid;
            let room = CHECK_LISTED - self.total.listed.len();
            self.total.listed.extend(c.listed.into_iter().take(room));
            match c.stop {
                Some(stop) => Err(stop),
                None => Ok(()),
            }
        }
        fn idle(&mut self) -> Result<(), Stop> {
            Ok(())
        }
    }
    let mut sink = Sink {
        total: Checked {
            rows: 0,
            invalid: 0,
            listed: Vec::new(),
            stop: None,
        },
        progress: &progress,
    };
    let threads = thread_count(args.input.threads);
    let result = pipeline::run(prepared.reader, threads, &plan, &work, &mut sink);
    progress.finish();
    result?;
    let Checked {
        rows,
        invalid,
        listed,
        ..
    } = sink.total;
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "lines: {rows}")?;
    writeln!(out, "valid: {}", rows - invalid)?;
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
