//! `rapidurl parse`: each row's URL parsed, its fields written as TSV, CSV, JSON Lines
//! or Parquet, with the row's other columns.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Args, ValueEnum};
use crossbeam_channel::{Receiver, Sender, unbounded};
use rapidurl::field::Field;

use crate::commands::args::{InputArgs, load_psl, prepare, thread_count};
use crate::input::rows::{self, Flow, Plan, RowError, RowSink};
use crate::input::source;
use crate::input::window::Work;
use crate::outcome::{Failure, create_output, diagnostic, report};
use crate::output::parquet as parquet_out;
use crate::output::{self, Column, Format, RowFormat, RowText};
use crate::pipeline::progress::Progress;
use crate::pipeline::{self, Collector, Done, Stop};
use crate::routes;

pub const AFTER_HELP: &str = "\
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
groups of 262,144 rows (string columns; passed-through Parquet columns keep their
types), each column with a dictionary page and statistics, compressed with zstd level 3
unless --compression and --compression-level say otherwise; the row groups are encoded
on the worker threads, in parallel, and written in input order.

Errors: a URL that does not parse is reported on stderr as FILE:LINE:COL: ERROR, where
LINE is the line (the line a CSV record starts on; for Parquet, the row number) and COL
is 1 + the error's byte offset in the URL; standard input is named <stdin>. A table that
is not well formed stops the run with `rapidurl: FILE:LINE: WHAT` (rows before it are
written to standard output), WHAT being `ragged row: …`, `unterminated quote: …`,
`column N: …` (a field's bad quoting) or `not a JSON object (column N): …`.

-o FILE is written to a temporary file beside it (.FILE.rapidurl-tmp-PID), renamed over
FILE only when the run succeeds: a run that fails, or is stopped by SIGINT or SIGTERM,
removes it and leaves FILE unchanged (stderr says so).

Inputs are read, parsed (on --threads threads) and written a window of records at a
time, so memory stays bounded whatever the input's size; from a slow pipe, rows are
written as their lines arrive. A progress bar is drawn on stderr when stderr is a terminal and
every input is a regular file.

Route tables (--routes FILE, for the fields route and route_params): one URL pattern a
line, or NAME<TAB>PATTERN; a line whose first character is # is a comment (a # after
that belongs to the pattern: it starts the hash), a blank line is skipped. A pattern is
absolute, or a path: a pattern starting with / matches that pathname on any protocol,
host and port. With --routes-base URL, every pattern is read relative to URL (as
new URLPattern(PATTERN, URL)): a path then matches on URL's protocol, host and port
only. route is the first matching line's NAME (else its pattern; empty when none
matches), route_params its groups as a JSON object. A bad pattern stops the run before
any row as ROUTES-FILE:LINE:COL: what is wrong (exit status 2).
  user     https://shop.example/users/:id(\\d+)
  static   /static/*
  search   /search?q=:query

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
  rapidurl parse --threads 2 --on-error fail --format csv a.txt b.txt
  rapidurl parse access.log --routes routes.tsv --fields pathname,route,route_params
  rapidurl parse access.log --routes paths.tsv --routes-base https://shop.example --fields route";

/// Arguments of `rapidurl parse`.
#[derive(Args, Debug)]
pub struct ParseArgs {
    #[command(flatten)]
    input: InputArgs,

    /// Output format [default: the extension of -o (.tsv, .csv, .jsonl, .parquet), else
    /// tsv].
    #[arg(long, value_enum)]
    format: Option<Format>,

    /// Write the output to FILE, replaced only when the run succeeds (a failed or
    /// interrupted run leaves it unchanged).
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<String>,

    /// Comma-separated columns (JSON keys), named as the URL API's attributes (href,
    /// origin, protocol, username, password, host, hostname, port, pathname, search,
    /// hash), the host analytics public_suffix, registrable_domain, subdomain (Public
    /// Suffix List, empty unless the host is a domain), param:NAME (the decoded value of
    /// the query's first NAME pair), display (the URL rendered for people: no
    /// credentials, Unicode host), valid (true when the input is a valid URL string) and
    /// validation_errors (the names of the parse's validation errors), the canonical
    /// keys surt and canonical (see `rapidurl dedup --help`), route and route_params
    /// (the first matching route's name and groups; need --routes), or `input` (the cell
    /// as read) and `error`
    /// [default: href,protocol,username,password,hostname,port,pathname,search,hash].
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(Column))]
    fields: Vec<Column>,

    /// A public_suffix_list.dat to use instead of the built-in snapshot of the list (for
    /// public_suffix, registrable_domain, subdomain).
    #[arg(long, value_name = "FILE")]
    psl: Option<std::path::PathBuf>,

    /// A route table for the fields route and route_params: one URL pattern a line, or
    /// `name<TAB>pattern`; a pattern is absolute (https://example.com/users/:id) or a path
    /// (/users/:id: any protocol, host and port). See "Route tables" below.
    #[arg(long, value_name = "FILE")]
    routes: Option<std::path::PathBuf>,

    /// The base URL of the route table's relative patterns: each is read as
    /// `new URLPattern(pattern, URL)`, so /users/:id takes the base's protocol, host and
    /// port.
    #[arg(long, value_name = "URL")]
    routes_base: Option<String>,

    /// How Parquet output is compressed [default: zstd].
    #[arg(long, value_enum, value_name = "CODEC")]
    compression: Option<parquet_out::Codec>,

    /// The zstd level of Parquet output, 1 (fastest) to 22 (smallest) [default: 3].
    #[arg(long, value_name = "N")]
    compression_level: Option<i32>,

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

/// What a `parse` worker makes of a batch.
struct Formatted {
    /// The rows for the writer to copy out ([`RowFormat::write`]; empty for Parquet), or
    /// as an Arrow record batch.
    rows: RowText,
    arrow: Option<arrow_array::RecordBatch>,
    /// The diagnostics of its bad rows.
    diagnostics: String,
    /// Set when the run must stop after this batch's rows.
    stop: Option<Stop>,
}

/// `rapidurl parse`.
pub fn run(args: ParseArgs) -> Result<ExitCode, Failure> {
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
    routes::load(
        args.routes.as_deref(),
        args.routes_base.as_deref(),
        routes::Wants::all(columns.iter().map(Column::wants_routes)),
    )?;
    let compression = args
        .compression
        .unwrap_or(parquet_out::Codec::Zstd)
        .compression(args.compression_level)
        .map_err(Failure::Message)?;
    if format != Format::Parquet && (args.compression.is_some() || args.compression_level.is_some())
    {
        return Err(Failure::Message(
            "--compression and --compression-level apply to Parquet output only".to_owned(),
        ));
    }
    let prepared = prepare(&args.input, args.drop_columns, format == Format::Parquet)?;
    let plan = prepared.plan.clone();
    let pass_names: Vec<String> = plan.pass.iter().map(|&i| plan.columns[i].clone()).collect();
    check_names(&pass_names, &columns, error_auto)?;
    // Every input is open: now the output may be created.
    let (out, out_file) = create_output(args.output.as_deref())?;
    let threads = thread_count(args.input.threads);
    let progress = Progress::new(prepared.total);
    let on_error = args.on_error;
    let schema = parquet_out::schema(prepared.pass_fields.clone(), &columns, error_auto);
    let row_format = Arc::new(
        RowFormat::new(format, pass_names.clone(), columns.clone(), error_auto)
            .with_suffix_list(suffix_list.clone()),
    );
    let (texts_tx, texts_rx) = unbounded::<RowText>();
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
        texts: texts_rx,
    };
    let result = if format == Format::Parquet {
        let workers = pipeline::workers(threads);
        let file = parquet_out::ParquetFile::new(out, schema.clone(), compression, workers.pool())
            .map_err(|e| Failure::Message(format!("cannot write Parquet: {e}")))?;
        let mut sink = ParquetSink {
            file: Some(file),
            progress: &progress,
        };
        let run = pipeline::run_on(&workers, prepared.reader, &plan, &work, &mut sink);
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
            progress: &progress,
            texts: texts_tx,
        };
        let run = pipeline::run(prepared.reader, threads, &plan, &work, &mut sink);
        run.and_then(|()| Ok(sink.out.flush()?))
    };
    progress.finish();
    result?;
    out_file.commit().map_err(Failure::Message)?;
    Ok(ExitCode::SUCCESS)
}

/// Checks that the output's column names are distinct: the passed-through `pass`, then
/// the `columns` asked for (and `error` when it is added).
fn check_names(pass: &[String], columns: &[Column], error_auto: bool) -> Result<(), Failure> {
    let mut out_names: Vec<String> = columns.iter().map(|c| c.name().into_owned()).collect();
    if error_auto {
        out_names.push(output::ERROR_COLUMN.to_owned());
    }
    if let Some(clash) = pass.iter().find(|n| out_names.contains(n)) {
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
    Ok(())
}

/// What `parse` does with each batch: its rows as text (a parsed line's row left for the
/// writer in the line loop, [`RowFormat::url_line_into`]; any other row formatted
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
    /// Row buffers the collector has written, reused from batch to batch.
    texts: Receiver<RowText>,
}

/// A batch being formatted by `parse`.
struct ParsePart<'w> {
    work: &'w ParseWork<'w>,
    batch: &'w source::Batch,
    /// The batch's input block (empty when it is not text).
    block: &'w [u8],
    text: RowText,
    arrow: Option<parquet_out::ArrowRows>,
    /// Where a hostname read off a line is lower-cased ([`RowFormat::hostname_span`]).
    arena: rapidurl::bumpalo::Bump,
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
        let mut text = self.texts.try_recv().unwrap_or_default();
        text.clear();
        let block = match &batch.data {
            source::Data::Text(bytes) => bytes.as_slice(),
            _ => &[],
        };
        if !self.parquet {
            // Room for the rows of most batches: about half the block per column.
            text.size_for(block.len() / 2 * self.columns.len().max(1));
        }
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
            arena: rapidurl::bumpalo::Bump::new(),
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
        (input, base): (&str, Option<&rapidurl::Url>),
        url: &rapidurl::UrlRef<'_>,
        route: Option<&rapidurl::field::RouteAnswer<'static>>,
    ) -> Flow {
        if self.arrow.is_some() {
            return self.row(&rows::Row {
                line,
                index,
                input,
                text: input,
                base,
                url: Ok(*url),
                cells: &[],
                route,
            });
        }
        self.work
            .format
            .url_line_into(&mut self.text, self.block, (input, base), url, route);
        Flow::Go
    }

    #[inline(always)]
    fn take_line(&mut self, input: &rapidurl::batch::engine::Input<'_, '_>) -> bool {
        self.arrow.is_none()
            && self
                .work
                .format
                .hostname_span(&mut self.text, self.block, input, &self.arena)
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
                        &output::field_context(work.suffix_list)
                            .input(row.text)
                            .base(row.base.map(Into::into))
                            .answered(row.route),
                    );
                    Flow::Go
                }
                Err(err) => bad(row, err, Sink::Arrow(a)),
            },
            None => {
                let from = self.text.side.len();
                let flow = match &row.url {
                    Ok(url) => {
                        work.format.url_row(
                            &mut self.text.side,
                            row.cells,
                            row.input,
                            (row.text, row.base),
                            url,
                            row.route,
                        );
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

/// `parse`'s collector for text formats: writes each batch's rows (the bytes its worker
/// made, [`RowText::bytes`]), while the workers parse the next window.
struct TextSink<'p> {
    out: BufWriter<Box<dyn Write + Send>>,
    progress: &'p Progress,
    /// Written row buffers, back to the workers.
    texts: Sender<RowText>,
}

impl Collector<Formatted> for TextSink<'_> {
    fn collect(&mut self, mut done: Done<Formatted>, _input: &[u8]) -> Result<(), Stop> {
        self.out.write_all(done.value.rows.bytes())?;
        let _ = self.texts.send(std::mem::take(&mut done.value.rows));
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
    file: Option<parquet_out::ParquetFile>,
    progress: &'p Progress,
}

impl ParquetSink<'_> {
    /// Writes every row group and the file's footer (also after a stop, so the rows
    /// before it are readable).
    fn close(&mut self) -> Result<(), Stop> {
        match self.file.take() {
            Some(f) => f.close().map_err(|e| Stop::Output(io::Error::other(e))),
            None => Ok(()),
        }
    }
}

impl Collector<Formatted> for ParquetSink<'_> {
    fn collect(&mut self, mut done: Done<Formatted>, _: &[u8]) -> Result<(), Stop> {
        if let (Some(f), Some(batch)) = (&mut self.file, done.value.arrow.take()) {
            f.write(batch)
                .map_err(|e| Stop::Output(io::Error::other(e)))?;
        }
        finish_batch(self.progress, &mut done)
    }

    fn idle(&mut self) -> Result<(), Stop> {
        Ok(())
    }

    fn waiting(&mut self) -> Result<(), Stop> {
        match &mut self.file {
            Some(f) => f
                .write_pending()
                .map_err(|e| Stop::Output(io::Error::other(e))),
            None => Ok(()),
        }
    }
}
