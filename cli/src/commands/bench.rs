//! `rapidurl bench FILE`: the bulk engine's parse throughput on a file, on one thread and
//! on several, against the parser alone (a `parse_ref` loop) and one `memchr` pass over
//! the same bytes; and the tool's own paths (`check` on a CSV file, `stats`, Parquet
//! output) on the same URLs, but for reading the file and writing out.
//!
//! The measurements take turns, one run each per round, until the time is up: on a
//! noisy machine each one's median then comes from the same stretch of time, so that
//! their ratios mean something.

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;
use clap::Args;
use parquet::basic::Compression;
use rapidurl::batch::{self, engine};
use rapidurl::field::Field;

use crate::commands::stats::Table as Counts;
use crate::input::rows::{Flow, Plan, Row, RowSink};
use crate::input::source::{Batch, DEFAULT_BLOCK_BYTES, Data, InputFormat};
use crate::input::window::{Work, parse_window};
use crate::outcome::Failure;
use crate::output::parquet::{ArrowRows, Codec, ParquetFile, schema};
use crate::output::{Column, Format, RowFormat, RowText, field_context};

pub const AFTER_HELP: &str = "\
Reads FILE into memory (one URL per line), then measures, taking turns (one run of each
per round: a warm-up round, then rounds until --time seconds have passed, at least 3):
the batch engine into a UrlColumn (batch::parse_lines) on 1 thread, the same into the
buffers of the column before (batch::ColumnBuffers), the column on --threads threads
(default: all cores), the engine with a counting sink and with a sink that keeps 8 bytes
per row (where each row's serialization is, nothing else) on 1 thread, a single-threaded
loop over parse_ref (one arena, emptied every run), one memchr pass over the bytes, the
engine into the tool's TSV rows of the 11 URL API fields (what `parse --threads 1
--fields href,origin,…,hash` does but for reading and writing: rows formatted, then
copied out) and the engine with `lint`'s sink (a line proven clean, else parsed again
reporting its validation errors), both on 1 thread.

Then the tool's own paths, but for reading the file and writing out: the input cut into
1 MiB blocks of whole records as the tool's reader cuts a file, parsed by the tool's
source and sinks a window (2 blocks a thread) at a time while the window before is
collected. `CSV records`: the URLs written once, before measuring, as a CSV of
time,url,status records (a URL holding a comma, a quote or a line break quoted per RFC
4180), decoded by the CSV reader, each record's URL parsed and counted (what `check
log.csv` does; 1 thread). `stats --by registrable_domain`: the lines' URLs, each one's
registrable domain (built-in suffix list) counted in stats' table (1 thread). `Parquet`:
the lines' URLs as Arrow record batches of hostname, registrable_domain, pathname and
error (what `parse --fields hostname,registrable_domain,pathname -o out.parquet` builds),
written as Parquet, row groups encoded with zstd level 3 on the pool, to nowhere; on 1
thread and on --threads threads. Every run's rows are checked against the file's count.

Prints each one's median run as URLs/s, MB/s (FILE's bytes, 10^6, for every row, the CSV
one too) and ns/URL, its speed against the parse_ref loop, its median CPU time per URL
(every thread's, from /proc; Linux) and its speed against the loop's in CPU time (the
figure a shared machine moves least; \"-\" when the CPU time cannot be told: no /proc, or
a median run's under 20 times what reading the clock costs). Then the speed-up on
--threads threads, the column's speed as a fraction of the memchr pass's, the TSV rows'
time against the loop's, lint's against the counting sink's (what `check` does on
lines), the CSV records' against the counting sink's (what the CSV reader costs),
stats' and Parquet's (1 thread) against the loop's, and Parquet's speed-up on --threads
threads. Nothing is written: scripts/bulk_table.py times the whole tool too.

Examples:
  rapidurl bench corpora/sample.txt
  rapidurl bench --threads 2 --time 3 ../shared/corpora/kasztp.txt";

/// Arguments of `rapidurl bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The file to parse, one URL per line.
    #[arg(value_name = "FILE")]
    file: String,

    /// Threads for the multi-threaded measurement (0 or absent: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// Measuring time in seconds: rounds (one run of each measurement) go on until it has
    /// passed, at least 3 after a warm-up round.
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    time: f64,
}

/// Runs `rapidurl bench`.
pub fn run(args: &BenchArgs) -> Result<ExitCode, Failure> {
    let path = &args.file;
    let bytes = std::fs::read(path).map_err(|e| Failure::Message(format!("{path}: {e}")))?;
    let column = batch::parse_lines(&bytes);
    let (urls, invalid) = (column.len(), column.error_count());
    drop(column);
    let many = crate::commands::args::thread_count(args.threads);
    let min_time = if args.time.is_finite() {
        Duration::from_secs_f64(args.time.clamp(0.0, 3600.0))
    } else {
        Duration::from_secs(1)
    };
    let one = Arc::new(pool(1)?);
    let several = if many > 1 {
        Some(Arc::new(pool(many)?))
    } else {
        None
    };
    let lines = inputs(&bytes);
    let fixtures = Fixtures::new(path, &bytes, &lines)?;
    // The tool's reader drops a byte-order mark at the start of the file; the library
    // does not (a first URL after one is invalid to it).
    let tool = batch::parse_lines(without_bom(&bytes));
    let expect = Expect {
        rows: tool.len(),
        valid: tool.len() - tool.error_count(),
    };
    drop(tool);
    let pools = Pools {
        one: &one,
        several: several.as_ref(),
        many,
    };
    let mut measures = contenders(&bytes, &lines, &fixtures, expect, pools);
    let (rounds, cpu_floor) = measure(&mut measures, min_time)?;
    let table = Table {
        path,
        bytes: bytes.len(),
        urls,
        invalid,
        tool_invalid: expect.rows - expect.valid,
        rounds,
        many,
        cpu_floor,
    };
    table.print(&measures)?;
    Ok(ExitCode::SUCCESS)
}

/// A rayon pool of `n` threads.
fn pool(n: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| Failure::Message(format!("cannot start {n} threads: {e}")))
}

/// The pools the measurements run on: one thread, and `many` (when more than one).
#[derive(Clone, Copy)]
struct Pools<'a> {
    one: &'a Arc<rayon::ThreadPool>,
    several: Option<&'a Arc<rayon::ThreadPool>>,
    many: usize,
}

/// What every run of the tool's paths must find: the file's rows and valid URLs, as the
/// tool reads the file.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Expect {
    rows: usize,
    valid: usize,
}

/// One measurement: its label, what it runs (an error says that a run's outcome was
/// wrong), and its runs' times (wall clock, and the process's CPU time where the system
/// tells it).
struct Measure<'a> {
    label: String,
    run: Box<dyn FnMut() -> Result<(), String> + 'a>,
    times: Vec<Duration>,
    cpu: Vec<Duration>,
}

impl Measure<'_> {
    fn median(&self) -> Duration {
        median(&self.times)
    }

    /// The median CPU time of a run (every thread's), when it was measured.
    fn cpu_median(&self) -> Option<Duration> {
        (self.cpu.len() == self.times.len() && !self.cpu.is_empty()).then(|| median(&self.cpu))
    }
}

fn median(times: &[Duration]) -> Duration {
    let mut times = times.to_vec();
    times.sort();
    times[times.len() / 2]
}

/// The CPU time every thread of the process has used so far (Linux:
/// `/proc/self/task/*/schedstat`, in nanoseconds); `None` elsewhere. On a machine that
/// other work shares, a run's CPU time moves much less than its wall-clock time.
///
/// The kernel adds a running thread's time to that count only at a scheduler tick
/// (`1/CONFIG_HZ`: 4 ms at 250 Hz) or when the thread leaves the CPU, and reading the
/// file does not bring it up to date: this thread, which is running, would read as of its
/// last tick, and a run shorter than a tick would often measure 0. Yielding first makes
/// the scheduler account this thread's time up to now. (The pool's idle workers yield as
/// they go to sleep, so theirs is up to date too.)
fn cpu_time() -> Option<Duration> {
    std::thread::yield_now();
    let mut total = 0u64;
    for entry in std::fs::read_dir("/proc/self/task").ok()? {
        let text = std::fs::read_to_string(entry.ok()?.path().join("schedstat")).ok()?;
        total += text.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

/// How many times what reading the CPU clock costs a run's CPU time must be to be shown:
/// below that, the figure is mostly the clock's own cost.
const CPU_FLOOR: u32 = 20;

/// The shortest CPU time shown: [`CPU_FLOOR`] times the median CPU time between two
/// readings of the clock with nothing between (what a run's reading adds to its time);
/// `None` when the CPU time cannot be read.
fn cpu_floor() -> Option<Duration> {
    let mut costs = Vec::new();
    for _ in 0..21 {
        let before = cpu_time()?;
        costs.push(cpu_time()?.saturating_sub(before));
    }
    Some(median(&costs).max(Duration::from_nanos(1)) * CPU_FLOOR)
}

/// A run's median CPU time in seconds, when it can be told: measured, and at least
/// `floor` (a run that ends within one reading of the clock measures its cost, or 0).
fn cpu_secs(median: Option<Duration>, floor: Option<Duration>) -> Option<f64> {
    let floor = floor?.max(Duration::from_nanos(1));
    median.filter(|&d| d >= floor).map(|d| d.as_secs_f64())
}

/// `a / b` when both are known and positive.
fn ratio(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (Some(a), Some(b)) if a > 0.0 && b > 0.0 => Some(a / b),
        _ => None,
    }
}

/// A ratio as `1.23x`, or `-` when it is not known.
fn times(r: Option<f64>) -> String {
    r.map_or_else(|| "-".to_owned(), |r| format!("{r:.2}x"))
}

/// The file's URLs as the tool's reader would hand them, built once before measuring:
/// the lines, and the same URLs as a CSV file, each cut into blocks of whole records;
/// and the Parquet output of `parse --fields hostname,registrable_domain,pathname`.
struct Fixtures {
    lines: Plan,
    line_batches: Vec<Batch>,
    csv: Plan,
    csv_batches: Vec<Batch>,
    columns: Vec<Column>,
    schema: SchemaRef,
    compression: Compression,
}

impl Fixtures {
    /// The fixtures of the file `name`, of `bytes`, whose rows' inputs are `urls`.
    fn new(name: &str, bytes: &[u8], urls: &[String]) -> Result<Fixtures, Failure> {
        let plan = |format, columns: &[&str], url| Plan {
            format,
            names: vec![name.to_owned()],
            columns: columns.iter().map(|&c| c.to_owned()).collect(),
            url,
            base: None,
            // As `check`, `stats` and `parse --drop-columns`: no column passes through.
            pass: Vec::new(),
            cells: true,
            base_url: None,
            routes: None,
        };
        let text = without_bom(bytes);
        // The URLs as the tool reads them: without the byte-order mark.
        let first = urls
            .first()
            .map(|u| u.strip_prefix('\u{FEFF}').unwrap_or(u));
        let first = first.filter(|_| text.len() < bytes.len());
        let csv = csv_log(
            first,
            urls.get(usize::from(first.is_some())..).unwrap_or(&[]),
        );
        let header = memchr::memchr(b'\n', &csv).map_or(csv.len(), |i| i + 1);
        let columns: Vec<Column> = [Field::Hostname, Field::RegistrableDomain, Field::Pathname]
            .into_iter()
            .map(Column::Field)
            .collect();
        // `parse`'s default --on-error mark adds the error column.
        let schema = schema(Vec::new(), &columns, true);
        Ok(Fixtures {
            lines: plan(InputFormat::Lines, &[], 0),
            line_batches: cut(text, DEFAULT_BLOCK_BYTES as usize, 1),
            csv: plan(InputFormat::Csv, &["time", "url", "status"], 1),
            csv_batches: cut(&csv[header..], DEFAULT_BLOCK_BYTES as usize, 2),
            columns,
            schema,
            compression: Codec::Zstd.compression(None).map_err(Failure::Message)?,
        })
    }
}

/// The file's bytes as the tool's reader reads them: without a UTF-8 byte-order mark at
/// the start.
fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// `first`, then `urls`, as a CSV file of `time,url,status` records: a header row, then a
/// record a URL, one second apart, status 200; a URL holding a comma, a quote or a line
/// break quoted per RFC 4180 (its quotes doubled).
fn csv_log(first: Option<&str>, urls: &[String]) -> Vec<u8> {
    let size = urls.iter().map(|u| u.len() + 28).sum::<usize>();
    let mut out = String::with_capacity(size + first.map_or(0, str::len) + 44);
    out.push_str("time,url,status\n");
    let all = first.into_iter().chain(urls.iter().map(String::as_str));
    for (i, url) in all.enumerate() {
        let s = i % 86_400;
        let _ = write!(
            out,
            "2025-01-01T{:02}:{:02}:{:02}Z,",
            s / 3600,
            s / 60 % 60,
            s % 60
        );
        if url.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&url.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(url);
        }
        out.push_str(",200\n");
    }
    out.into_bytes()
}

/// `text` (after any header) cut as the tool's reader cuts a file
/// ([`crate::input::source`]): blocks of the whole records within `block` bytes, a block
/// growing (doubling) while no record ends in it; the bytes after the last line feed are
/// a block of their own. Each block has the line number of its first record, from
/// `first_line`. A record ends at a line feed: the records here hold no quoted line
/// break.
fn cut(text: &[u8], block: usize, first_line: u64) -> Vec<Batch> {
    let mut out = Vec::new();
    let (mut at, mut line) = (0, first_line);
    while at < text.len() {
        let rest = &text[at..];
        let mut size = block.max(1);
        let len = loop {
            let window = &rest[..rest.len().min(size)];
            match memchr::memrchr(b'\n', window) {
                Some(i) => break i + 1,
                None if window.len() == rest.len() => break rest.len(),
                None => size *= 2,
            }
        };
        let records = &rest[..len];
        out.push(Batch {
            input: 0,
            first_line: line,
            bytes: len as u64,
            data: Data::Text(records.to_vec()),
            directive: None,
        });
        line += memchr::memchr_iter(b'\n', records).count() as u64;
        at += len;
    }
    out
}

/// Batches in a window of the tool's pipeline, per thread.
const WINDOW_BATCHES_PER_THREAD: usize = 2;

/// Runs `work` over `batches` on `pool` as the tool's pipeline does
/// ([`crate::pipeline::run_on`]): a window of batches at a time is parsed by a job on the
/// pool ([`parse_window`]) while the calling thread hands the results of the window
/// before to `collect`, in order.
fn pipelined<W: Work>(
    pool: &rayon::ThreadPool,
    plan: &Plan,
    batches: &[Batch],
    work: &W,
    mut collect: impl FnMut(W::Out),
) {
    let size = WINDOW_BATCHES_PER_THREAD * pool.current_num_threads().max(1);
    pool.in_place_scope(|scope| {
        let mut parsing: Option<crossbeam_channel::Receiver<Vec<W::Out>>> = None;
        for window in batches.chunks(size) {
            // A job that panics drops its sender; the scope carries the panic on.
            let before = parsing.take().and_then(|rx| rx.recv().ok());
            let (tx, rx) = crossbeam_channel::bounded(1);
            scope.spawn(move |_| {
                let _ = tx.send(parse_window(plan, window, work, false));
            });
            parsing = Some(rx);
            before.into_iter().flatten().for_each(&mut collect);
        }
        if let Some(rx) = parsing {
            rx.recv().into_iter().flatten().for_each(&mut collect);
        }
    });
}

/// The rows and valid URLs a run found, against what the file has.
fn check_counts(what: &str, found: Expect, expect: Expect) -> Result<(), String> {
    if found == expect {
        Ok(())
    } else {
        Err(format!(
            "{what} found {} rows, {} valid; the file has {} rows, {} valid",
            found.rows, found.valid, expect.rows, expect.valid
        ))
    }
}

/// What is measured, in the order of the table: the column on 1 thread (first) and on
/// `many`, the counting sink, the `parse_ref` loop (the reference), the `memchr` pass,
/// the TSV rows, lint's sink, the 8-byte span sink, then the tool's paths: the CSV
/// records, stats, Parquet on 1 thread and on `many`.
fn contenders<'a>(
    bytes: &'a [u8],
    lines: &'a [String],
    fixtures: &'a Fixtures,
    expect: Expect,
    pools: Pools<'a>,
) -> Vec<Measure<'a>> {
    let Pools { one, several, many } = pools;
    let measure = |label: String, run: Box<dyn FnMut() -> Result<(), String> + 'a>| Measure {
        label,
        run,
        times: Vec::new(),
        cpu: Vec::new(),
    };
    let mut all = vec![measure(
        "batch::parse_lines -> UrlColumn, 1 thread".into(),
        Box::new(move || {
            one.install(|| black_box(batch::parse_lines(black_box(bytes))));
            Ok(())
        }),
    )];
    let mut buffers = batch::ColumnBuffers::new();
    all.push(measure(
        "parse_lines into reused ColumnBuffers, 1 thread".into(),
        Box::new(move || {
            let spare = std::mem::take(&mut buffers);
            let column = one.install(|| black_box(spare.parse_lines(black_box(bytes))));
            buffers = column.into_buffers();
            Ok(())
        }),
    ));
    if let Some(pool) = several {
        all.push(measure(
            format!("batch::parse_lines -> UrlColumn, {many} threads"),
            Box::new(move || {
                pool.install(|| black_box(batch::parse_lines(black_box(bytes))));
                Ok(())
            }),
        ));
    }
    all.push(measure(
        COUNT.into(),
        Box::new(move || {
            let parts = one.install(|| engine::run(&engine::Lines::new(black_box(bytes)), &Count));
            black_box(parts.iter().sum::<usize>());
            Ok(())
        }),
    ));
    let mut arena = rapidurl::bumpalo::Bump::new();
    all.push(measure(
        LOOP.into(),
        Box::new(move || {
            arena.reset();
            let mut n = 0usize;
            for line in black_box(lines) {
                if let Ok(url) = rapidurl::parse_ref(line, &arena) {
                    n += url.href().len();
                }
            }
            black_box(n);
            Ok(())
        }),
    ));
    all.push(measure(
        MEMCHR.into(),
        Box::new(move || {
            black_box(memchr::memchr_iter(b'\n', black_box(bytes)).count());
            Ok(())
        }),
    ));
    let format = RowFormat::new(
        Format::Tsv,
        Vec::new(),
        Field::URL_API.into_iter().map(Column::Field).collect(),
        false,
    );
    let mut out = Vec::new();
    let spare = Mutex::new(Vec::new());
    all.push(measure(
        TSV.into(),
        Box::new(move || {
            let sink = Tsv {
                format: &format,
                block: bytes,
                spare: &spare,
            };
            let parts = one.install(|| engine::run(&engine::Lines::new(black_box(bytes)), &sink));
            let mut n = 0;
            for rows in &parts {
                n += format.write(&mut out, rows);
            }
            black_box(n);
            // Back for the next run, as the tool's writer hands them back to its workers.
            spare
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(parts);
            Ok(())
        }),
    ));
    all.push(measure(
        LINT.into(),
        Box::new(move || {
            let parts = one.install(|| engine::run(&engine::Lines::new(black_box(bytes)), &Lint));
            black_box(parts.iter().sum::<usize>());
            Ok(())
        }),
    ));
    all.push(measure(
        "engine, 8-byte span sink, 1 thread".into(),
        Box::new(move || {
            let sink = Spans8 {
                input: bytes.as_ptr() as usize,
            };
            let parts = one.install(|| engine::run(&engine::Lines::new(black_box(bytes)), &sink));
            black_box(parts.iter().map(|p| p.0.len()).sum::<usize>());
            Ok(())
        }),
    ));
    all.push(measure(
        CSV.into(),
        Box::new(move || check_csv(one, fixtures, expect)),
    ));
    all.push(measure(
        STATS.into(),
        Box::new(move || count_domains(one, fixtures, expect)),
    ));
    all.push(measure(
        parquet_label(1),
        Box::new(move || write_parquet(Box::new(io::sink()), one, fixtures, expect)),
    ));
    if let Some(pool) = several {
        all.push(measure(
            parquet_label(many),
            Box::new(move || write_parquet(Box::new(io::sink()), pool, fixtures, expect)),
        ));
    }
    all
}

/// The label of the reference measurement, the parser alone.
const LOOP: &str = "parse_ref loop (the parser alone), 1 thread";
/// The label of the memchr pass.
const MEMCHR: &str = "one memchr pass over the bytes, 1 thread";
/// The label of the tool's TSV rows.
const TSV: &str = "TSV rows, 11 URL API fields, 1 thread";
/// The label of `lint`'s sink.
const LINT: &str = "engine, lint's sink, 1 thread";
/// The label of the counting sink (`check`).
const COUNT: &str = "engine, counting sink, 1 thread";
/// The label of `check` on the CSV records.
const CSV: &str = "CSV records, 1 thread";
/// The label of `stats --by registrable_domain`.
const STATS: &str = "stats --by registrable_domain, 1 thread";

/// The label of the Parquet output on `threads` threads.
fn parquet_label(threads: usize) -> String {
    let s = if threads == 1 { "" } else { "s" };
    format!("Parquet, 3 fields, zstd, {threads} thread{s}")
}

/// `check` on the CSV records: each block decoded by the CSV reader, each record's URL
/// parsed and counted.
fn check_csv(pool: &rayon::ThreadPool, fx: &Fixtures, expect: Expect) -> Result<(), String> {
    let mut found = Expect { rows: 0, valid: 0 };
    let mut error = None;
    pipelined(pool, &fx.csv, &fx.csv_batches, &Check, |(part, e)| {
        found.rows += part.rows;
        found.valid += part.valid;
        error = error.take().or(e);
    });
    match error {
        Some(e) => Err(e),
        None => check_counts("the CSV records", found, expect),
    }
}

/// `stats --by registrable_domain` on the lines: the tables merged, then their values
/// listed, as `stats` does before it picks the most frequent.
fn count_domains(pool: &rayon::ThreadPool, fx: &Fixtures, expect: Expect) -> Result<(), String> {
    let work = Stats {
        field: Field::RegistrableDomain,
        tables: Mutex::new(Vec::new()),
    };
    let mut rows = 0;
    pipelined(pool, &fx.lines, &fx.line_batches, &work, |n| rows += n);
    let tables = work.tables.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut all = Counts::default();
    for table in tables {
        all.merge(table);
    }
    let values = all.into_values();
    // Each valid URL counts once (an absent value too).
    let valid = values.iter().map(|v| v.1 as usize).sum();
    black_box(values);
    check_counts("stats", Expect { rows, valid }, expect)
}

/// `parse --fields hostname,registrable_domain,pathname --drop-columns -o out.parquet`
/// on the lines, written to `out` (the measurement's: nowhere), on `pool`.
fn write_parquet(
    out: Box<dyn Write + Send>,
    pool: &Arc<rayon::ThreadPool>,
    fx: &Fixtures,
    expect: Expect,
) -> Result<(), String> {
    let mut file = ParquetFile::new(out, fx.schema.clone(), fx.compression, Some(pool.clone()))?;
    let work = Arrow {
        columns: &fx.columns,
        schema: &fx.schema,
        name: &fx.lines.names[0],
    };
    let (mut rows, mut error) = (0, None);
    pipelined(pool, &fx.lines, &fx.line_batches, &work, |out| {
        let written = out.and_then(|batch| {
            rows += batch.num_rows();
            file.write(batch).map_err(|e| e.to_string())
        });
        if let Err(e) = written {
            error.get_or_insert(e);
        }
    });
    file.close().map_err(|e| e.to_string())?;
    match error {
        Some(e) => Err(e),
        // Every row is written, an invalid URL's with its error.
        None if rows != expect.rows => Err(format!(
            "the Parquet file has {rows} rows; the file has {}",
            expect.rows
        )),
        None => Ok(()),
    }
}

/// Runs every measurement once per round, in turns: one warm-up round, then at least
/// three measured ones, until `min_time` has passed. Returns the measured rounds and the
/// shortest CPU time that can be told ([`cpu_floor`]); fails when a run's outcome is
/// wrong.
fn measure(
    measures: &mut [Measure<'_>],
    min_time: Duration,
) -> Result<(usize, Option<Duration>), Failure> {
    let floor = cpu_floor();
    let start = Instant::now();
    let mut round = 0;
    while round < 4 || start.elapsed() < min_time {
        for m in measures.iter_mut() {
            let cpu = cpu_time();
            let t = Instant::now();
            let outcome = (m.run)();
            let t = t.elapsed();
            let cpu = cpu.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
            outcome.map_err(|e| Failure::Message(format!("bench: {}: {e}", m.label)))?;
            if round > 0 {
                m.times.push(t);
                m.cpu.extend(cpu);
            }
        }
        round += 1;
    }
    Ok((round - 1, floor))
}

/// What the table's heading and last lines say about the run.
struct Table<'p> {
    path: &'p str,
    bytes: usize,
    urls: usize,
    invalid: usize,
    /// Invalid URLs as the tool reads the file (without a byte-order mark at its start).
    tool_invalid: usize,
    rounds: usize,
    many: usize,
    /// The shortest CPU time shown (`None`: the CPU time cannot be read).
    cpu_floor: Option<Duration>,
}

/// A measurement's median run: wall-clock seconds, and CPU seconds when they can be told.
#[derive(Clone, Copy)]
struct Figures {
    secs: f64,
    cpu: Option<f64>,
}

impl Table<'_> {
    /// A measurement's figures ([`cpu_secs`]); those of a measurement not made are 1 ns.
    fn figures(&self, measures: &[Measure<'_>], label: &str) -> Figures {
        measures.iter().find(|m| m.label == label).map_or(
            Figures {
                secs: 1e-9,
                cpu: None,
            },
            |m| Figures {
                secs: m.median().as_secs_f64().max(1e-9),
                cpu: cpu_secs(m.cpu_median(), self.cpu_floor),
            },
        )
    }

    /// A row of the table: `label` padded to `width`, then URLs/s, MB/s, ns/URL, the
    /// speed against `reference`'s, CPU ns/URL and the speed against `reference`'s in CPU
    /// time (`-` where a CPU time cannot be told).
    fn row(&self, label: &str, width: usize, it: Figures, reference: Figures) -> String {
        let per_url = |secs: f64| secs * 1e9 / self.urls.max(1) as f64;
        format!(
            "{label:<width$} {:>12.0} {:>9.1} {:>8.1} {:>8.2}x {:>9} {:>9}",
            self.urls as f64 / it.secs,
            self.bytes as f64 / it.secs / 1e6,
            per_url(it.secs),
            reference.secs / it.secs,
            it.cpu
                .map_or_else(|| "-".to_owned(), |c| format!("{:.1}", per_url(c))),
            times(ratio(reference.cpu, it.cpu)),
        )
    }

    /// Prints each measurement's median as URLs/s, MB/s and ns/URL, its speed against
    /// the `parse_ref` loop, the column's speed-up on `many` threads and its speed as a
    /// fraction of the `memchr` pass's, and the other ratios of the help.
    fn print(&self, measures: &[Measure<'_>]) -> io::Result<()> {
        let Table {
            path,
            bytes,
            urls,
            invalid,
            tool_invalid,
            rounds,
            many,
            ..
        } = *self;
        let mut out = io::stdout().lock();
        let tool = if tool_invalid == invalid {
            String::new()
        } else {
            format!(
                "; the tool, which drops the byte-order mark at the start: {tool_invalid} invalid"
            )
        };
        writeln!(
            out,
            "{path}: {bytes} bytes, {urls} URLs ({} valid, {invalid} invalid{tool}); {rounds} rounds, medians",
            urls - invalid,
        )?;
        let width = measures.iter().map(|m| m.label.len()).max().unwrap_or(0);
        writeln!(
            out,
            "{:<width$} {:>12} {:>9} {:>8} {:>9} {:>9} {:>9}",
            "", "URLs/s", "MB/s", "ns/URL", "vs loop", "CPU ns", "CPU vs"
        )?;
        let get = |label: &str| self.figures(measures, label);
        let reference = get(LOOP);
        for m in measures {
            writeln!(
                out,
                "{}",
                self.row(&m.label, width, get(&m.label), reference)
            )?;
        }
        // Time against time: `a`'s against `b`'s, wall clock and CPU.
        let against = |a: &str, b: &str| {
            let (a, b) = (get(a), get(b));
            format!(
                "{:.2}x the time (CPU: {})",
                a.secs / b.secs,
                times(ratio(a.cpu, b.cpu))
            )
        };
        let column_1 = get(&measures[0].label);
        if many > 1 {
            let column_n = get(&format!("batch::parse_lines -> UrlColumn, {many} threads"));
            writeln!(
                out,
                "speed-up of parse_lines on {many} threads: {:.2}x",
                column_1.secs / column_n.secs
            )?;
        }
        writeln!(
            out,
            "parse_lines, 1 thread, as a fraction of the memchr pass's speed: {:.3}",
            get(MEMCHR).secs / column_1.secs
        )?;
        writeln!(
            out,
            "parse_lines -> UrlColumn, 1 thread: {:.2}x the loop's speed (CPU: {}; target >= 0.85)",
            reference.secs / column_1.secs,
            times(ratio(reference.cpu, column_1.cpu))
        )?;
        writeln!(
            out,
            "TSV rows of the 11 URL API fields, 1 thread: {} against the loop",
            against(TSV, LOOP)
        )?;
        writeln!(
            out,
            "lint's sink against the counting sink (check's), 1 thread: {}",
            against(LINT, COUNT)
        )?;
        writeln!(
            out,
            "CSV records against the counting sink on lines (the CSV reader's cost), 1 thread: {}",
            against(CSV, COUNT)
        )?;
        writeln!(
            out,
            "stats --by registrable_domain, 1 thread: {} against the loop",
            against(STATS, LOOP)
        )?;
        let parquet_1 = parquet_label(1);
        writeln!(
            out,
            "Parquet, 3 fields, zstd, 1 thread: {} against the loop",
            against(&parquet_1, LOOP)
        )?;
        if many > 1 {
            writeln!(
                out,
                "speed-up of Parquet on {many} threads: {:.2}x",
                get(&parquet_1).secs / get(&parquet_label(many)).secs
            )?;
        }
        if measures
            .iter()
            .any(|m| cpu_secs(m.cpu_median(), self.cpu_floor).is_none())
        {
            match self.cpu_floor {
                Some(floor) => writeln!(
                    out,
                    "-: a CPU time under {:.0} us ({CPU_FLOOR} times what reading the clock costs)",
                    floor.as_secs_f64() * 1e6
                )?,
                None => writeln!(out, "-: no CPU time (/proc/self/task cannot be read)")?,
            }
        }
        Ok(())
    }
}

/// `check`'s work on a batch: counts its rows and their valid URLs (`check` also lists
/// the first 10 invalid rows).
struct Check;

/// A batch's counts.
#[derive(Default)]
struct Checked {
    rows: usize,
    valid: usize,
}

impl RowSink for Checked {
    #[inline(always)]
    fn line_url(
        &mut self,
        _: u64,
        _: usize,
        _: (&str, Option<&rapidurl::Url>),
        _: &rapidurl::UrlRef<'_>,
        _: Option<&rapidurl::field::RouteAnswer<'static>>,
    ) -> Flow {
        self.rows += 1;
        self.valid += 1;
        Flow::Go
    }

    fn row(&mut self, row: &Row<'_>) -> Flow {
        self.rows += 1;
        self.valid += usize::from(row.url.is_ok());
        Flow::Go
    }
}

impl Work for Check {
    type Out = (Checked, Option<String>);
    type Part<'w> = Checked;

    fn part<'w>(&'w self, _: &'w Batch) -> Checked {
        Checked::default()
    }

    fn done(&self, part: Checked, error: Option<String>) -> Self::Out {
        (part, error)
    }
}

/// `stats`' work: each valid URL's `field` counted in a table, one per thread (a batch
/// takes one when it starts and puts it back when its last row is counted, as `stats`
/// does).
struct Stats {
    field: Field,
    tables: Mutex<Vec<Counts>>,
}

impl Stats {
    fn put(&self, table: Counts) {
        self.tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(table);
    }
}

/// A batch being counted.
struct StatsPart<'w> {
    work: &'w Stats,
    table: Option<Counts>,
    rows: usize,
}

impl RowSink for StatsPart<'_> {
    fn end(&mut self) {
        if let Some(table) = self.table.take() {
            self.work.put(table);
        }
    }

    fn row(&mut self, row: &Row<'_>) -> Flow {
        self.rows += 1;
        if let Ok(url) = &row.url {
            let cx = field_context(None).input(row.input).answered(row.route);
            self.table
                .get_or_insert_with(Counts::default)
                .add(self.work.field.value_with(url, &cx).as_deref());
        }
        Flow::Go
    }
}

impl Work for Stats {
    /// The batch's rows.
    type Out = usize;
    type Part<'w> = StatsPart<'w>;

    fn part<'w>(&'w self, _: &'w Batch) -> StatsPart<'w> {
        let table = self
            .tables
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default();
        StatsPart {
            work: self,
            table: Some(table),
            rows: 0,
        }
    }

    fn done(&self, mut part: StatsPart<'_>, _: Option<String>) -> usize {
        if let Some(table) = part.table.take() {
            self.put(table);
        }
        part.rows
    }
}

/// `parse`'s work for Parquet output: each batch's rows as an Arrow record batch of the
/// fields, with the error column; a bad row's diagnostic as `parse` makes it.
struct Arrow<'a> {
    columns: &'a [Column],
    schema: &'a SchemaRef,
    name: &'a str,
}

/// A batch being built.
struct ArrowPart<'w> {
    name: &'w str,
    rows: ArrowRows,
    diagnostics: String,
}

impl RowSink for ArrowPart<'_> {
    fn row(&mut self, row: &Row<'_>) -> Flow {
        match &row.url {
            Ok(url) => self.rows.url_row(
                row.index,
                row.cells,
                row.input,
                url,
                &field_context(None).input(row.input).answered(row.route),
            ),
            Err(err) => {
                crate::outcome::diagnostic(&mut self.diagnostics, self.name, row.line, err);
                self.rows.error_row(row.index, row.cells, row.input, err);
            }
        }
        Flow::Go
    }
}

impl Work for Arrow<'_> {
    type Out = Result<RecordBatch, String>;
    type Part<'w>
        = ArrowPart<'w>
    where
        Self: 'w;

    fn part<'w>(&'w self, _: &'w Batch) -> ArrowPart<'w> {
        ArrowPart {
            name: self.name,
            rows: ArrowRows::new(self.columns.to_vec(), true, 0),
            diagnostics: String::new(),
        }
    }

    fn done(&self, mut part: ArrowPart<'_>, error: Option<String>) -> Self::Out {
        if let Some(e) = error {
            return Err(e);
        }
        black_box(part.diagnostics);
        part.rows.finish(self.schema, None)
    }
}

/// A sink that formats each row as the tool's TSV rows (`parse`'s line loop): a parsed
/// line's values copied out of the input when it can be, any other row as text; each
/// part in the buffer of an earlier run's, as the tool reuses them.
struct Tsv<'f> {
    format: &'f RowFormat,
    block: &'f [u8],
    spare: &'f std::sync::Mutex<Vec<RowText>>,
}

impl<'a> engine::Sink<'a> for Tsv<'_> {
    type Part = RowText;
    fn part(&self, _piece: &engine::Piece) -> RowText {
        let mut rows = self
            .spare
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_default();
        rows.clear();
        rows
    }
    #[inline]
    fn row(&self, rows: &mut RowText, row: engine::Row<'a, '_>) {
        match row.url_ref() {
            Ok(url) => {
                self.format
                    .url_line_into(rows, self.block, (row.input(), row.base()), url, None)
            }
            Err(_) => {
                let from = rows.side.len();
                rows.side.push('\n');
                rows.rows_from(from);
            }
        }
    }
}

/// `lint`'s sink: the lines with validation errors.
struct Lint;

impl<'a> engine::Sink<'a> for Lint {
    type Part = usize;
    fn part(&self, _piece: &engine::Piece) -> usize {
        0
    }
    #[inline]
    fn row(&self, part: &mut usize, row: engine::Row<'a, '_>) {
        let clean = match row.url_ref() {
            Ok(url) => super::lint::clean(row.input(), url),
            Err(_) => false,
        };
        if !clean {
            *part += usize::from(
                !rapidurl::parse_with_validation_errors(row.input())
                    .1
                    .is_empty(),
            );
        }
    }
}

/// A sink that counts the valid rows (what `check` needs): the engine without a column.
struct Count;

impl<'a> engine::Sink<'a> for Count {
    type Part = usize;
    fn part(&self, _piece: &engine::Piece) -> usize {
        0
    }
    fn row(&self, part: &mut usize, row: engine::Row<'a, '_>) {
        *part += usize::from(row.url().is_ok());
    }
}

/// A sink that keeps 8 bytes per row and no components: where the row's serialization
/// is (its offset in the input and its length, for a canonical row the engine lent; else
/// its place in the part's own text). The floor of a column of at most 8 bytes per
/// canonical row, as a measure of what such a design could reach.
struct Spans8 {
    input: usize,
}

impl<'a> engine::Sink<'a> for Spans8 {
    type Part = (Vec<u64>, String);
    fn part(&self, piece: &engine::Piece) -> Self::Part {
        (Vec::with_capacity(piece.rows), String::new())
    }
    #[inline]
    fn row(&self, part: &mut Self::Part, row: engine::Row<'a, '_>) {
        let span = match (row.borrowed(), row.url()) {
            (Some(text), _) => {
                (((text.as_ptr() as usize - self.input) as u64) << 32) | text.len() as u64
            }
            (None, Ok(url)) => {
                let start = part.1.len();
                part.1.push_str(url.href());
                (1 << 63) | ((start as u64) << 32) | url.href().len() as u64
            }
            (None, Err(_)) => u64::MAX,
        };
        part.0.push(span);
    }
}

/// Each row's input: the lines of `bytes` as the engine splits and decodes them.
fn inputs(bytes: &[u8]) -> Vec<String> {
    engine::run(&engine::Lines::new(bytes), &Inputs)
        .into_iter()
        .flatten()
        .collect()
}

/// A sink that keeps each row's input (the lines as the engine splits and decodes them),
/// for the `parse_ref` loop.
struct Inputs;

impl<'a> engine::Sink<'a> for Inputs {
    type Part = Vec<String>;
    fn part(&self, piece: &engine::Piece) -> Vec<String> {
        Vec::with_capacity(piece.rows)
    }
    fn row(&self, part: &mut Vec<String>, row: engine::Row<'a, '_>) {
        part.push(row.input().to_owned());
    }
    fn take_unparsed(&self, part: &mut Vec<String>, input: &engine::Input<'a, '_>) -> bool {
        part.push(input.text().to_owned());
        true
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    use super::{
        Expect, Figures, Fixtures, Table, check_csv, count_domains, cpu_secs, csv_log, cut, inputs,
        ratio, times, write_parquet,
    };
    use crate::input::source::Data;

    fn table(urls: usize) -> Table<'static> {
        Table {
            path: "f",
            bytes: urls * 10,
            urls,
            invalid: 0,
            tool_invalid: 0,
            rounds: 3,
            many: 1,
            cpu_floor: Some(Duration::from_micros(100)),
        }
    }

    /// The last two cells of a row: CPU ns/URL and the CPU speed against the loop.
    fn cpu_cells(row: &str) -> Vec<&str> {
        let cells: Vec<&str> = row.split_whitespace().collect();
        cells[cells.len() - 2..].to_vec()
    }

    #[test]
    fn a_cpu_time_too_short_to_tell_is_not_a_figure() {
        let floor = Some(Duration::from_micros(100));
        assert_eq!(cpu_secs(Some(Duration::ZERO), floor), None);
        assert_eq!(cpu_secs(Some(Duration::from_micros(99)), floor), None);
        assert_eq!(cpu_secs(None, floor), None);
        assert_eq!(cpu_secs(Some(Duration::from_millis(2)), None), None);
        assert_eq!(cpu_secs(Some(Duration::ZERO), Some(Duration::ZERO)), None);
        assert_eq!(cpu_secs(Some(Duration::from_millis(2)), floor), Some(0.002));
        assert_eq!(times(ratio(Some(0.004), Some(0.002))), "2.00x");
        assert_eq!(times(ratio(Some(0.004), None)), "-");
        assert_eq!(times(ratio(Some(0.004), Some(0.0))), "-");
        assert_eq!(times(ratio(None, Some(0.002))), "-");
    }

    #[test]
    fn rows_show_a_dash_where_the_cpu_time_cannot_be_told() {
        let t = table(1000);
        let loop_ = Figures {
            secs: 0.001,
            cpu: Some(0.001),
        };
        // 2 ms wall and CPU for 1000 URLs: 2000 ns a URL, half the loop's speed.
        let measured = Figures {
            secs: 0.002,
            cpu: Some(0.002),
        };
        let row = t.row("x", 10, measured, loop_);
        assert_eq!(cpu_cells(&row), ["2000.0", "0.50x"], "{row}");
        assert!(row.contains(" 0.50x "), "{row}");
        // A run whose CPU time was 0 (or under the floor) has none, and no ratio.
        let unmeasured = Figures {
            secs: 0.000_002,
            cpu: None,
        };
        let row = t.row("memchr", 10, unmeasured, loop_);
        assert_eq!(cpu_cells(&row), ["-", "-"], "{row}");
        assert!(row.contains(" 500.00x "), "{row}");
        // Without the loop's CPU time, a measured row keeps its own but no ratio.
        let no_reference = Figures {
            secs: 0.001,
            cpu: None,
        };
        let row = t.row("x", 10, measured, no_reference);
        assert_eq!(cpu_cells(&row), ["2000.0", "-"], "{row}");
    }

    #[test]
    fn the_csv_log_quotes_urls_per_rfc_4180() {
        let urls = ["https://a.example/x,y".to_owned(), "b\"c".to_owned()];
        let csv = String::from_utf8(csv_log(Some("https://z.example/"), &urls)).unwrap();
        assert_eq!(
            csv,
            "time,url,status\n\
             2025-01-01T00:00:00Z,https://z.example/,200\n\
             2025-01-01T00:00:01Z,\"https://a.example/x,y\",200\n\
             2025-01-01T00:00:02Z,\"b\"\"c\",200\n"
        );
    }

    #[test]
    fn blocks_are_whole_records_numbered_by_their_first_line() {
        let text = b"aaaa\nbb\ncccccccccc\nd\ne";
        let blocks: Vec<(u64, String)> = cut(text, 8, 2)
            .into_iter()
            .map(|b| match b.data {
                Data::Text(t) => (b.first_line, String::from_utf8(t).unwrap()),
                _ => unreachable!(),
            })
            .collect();
        // A record longer than a block makes the block grow until one ends in it; the
        // bytes after the last line feed are a block of their own.
        assert_eq!(
            blocks,
            [
                (2, "aaaa\nbb\n".to_owned()),
                (4, "cccccccccc\nd\n".to_owned()),
                (6, "e".to_owned()),
            ]
        );
    }

    /// A file of lines, with a byte-order mark, an invalid URL, URLs that CSV quotes.
    const FILE: &[u8] = b"\xEF\xBB\xBFhttps://www.example.com/a\n\
        https://x.example.co.uk/p,q?r\n\
        https://\n\
        http://b.example.org/\"quoted\"\n\
        https://www.example.com/b\n";

    fn pool(threads: usize) -> Arc<rayon::ThreadPool> {
        Arc::new(
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap(),
        )
    }

    fn fixtures() -> (Fixtures, Expect) {
        let Ok(fx) = Fixtures::new("f.txt", FILE, &inputs(FILE)) else {
            panic!("fixtures")
        };
        // As the tool reads it: 5 rows, `https://` invalid (the first is valid once the
        // byte-order mark is dropped).
        (fx, Expect { rows: 5, valid: 4 })
    }

    #[test]
    fn the_tool_paths_find_the_files_rows_and_say_when_they_do_not() {
        let (fx, expect) = fixtures();
        let pool = pool(1);
        assert_eq!(check_csv(&pool, &fx, expect), Ok(()));
        assert_eq!(count_domains(&pool, &fx, expect), Ok(()));
        let wrong = Expect { rows: 5, valid: 5 };
        let err = check_csv(&pool, &fx, wrong).unwrap_err();
        assert!(err.contains("found 5 rows, 4 valid"), "{err}");
        let err = count_domains(&pool, &fx, wrong).unwrap_err();
        assert!(err.contains("found 5 rows, 4 valid"), "{err}");
    }

    #[test]
    fn the_parquet_path_writes_the_fields_of_every_row() {
        let (fx, expect) = fixtures();
        let path = std::env::temp_dir().join(format!(
            "rapidurl-bench-test-{}.parquet",
            std::process::id()
        ));
        for threads in [1, 2] {
            let pool = pool(threads);
            let file = std::fs::File::create(&path).unwrap();
            write_parquet(Box::new(file), &pool, &fx, expect).unwrap();
            let reader =
                ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&path).unwrap())
                    .unwrap()
                    .build()
                    .unwrap();
            let mut rows: Vec<Vec<Option<String>>> = Vec::new();
            for batch in reader {
                let batch = batch.unwrap();
                let names: Vec<&str> = batch
                    .schema_ref()
                    .fields()
                    .iter()
                    .map(|f| f.name().as_str())
                    .collect();
                assert_eq!(
                    names,
                    ["hostname", "registrable_domain", "pathname", "error"]
                );
                for i in 0..batch.num_rows() {
                    rows.push(
                        batch
                            .columns()
                            .iter()
                            .map(|c| {
                                let c = c.as_string::<i32>();
                                c.is_valid(i).then(|| c.value(i).to_owned())
                            })
                            .collect(),
                    );
                }
            }
            let row = |h: &str, d: &str, p: &str| {
                vec![
                    Some(h.to_owned()),
                    Some(d.to_owned()),
                    Some(p.to_owned()),
                    None,
                ]
            };
            assert_eq!(rows.len(), 5);
            assert_eq!(rows[0], row("www.example.com", "example.com", "/a"));
            assert_eq!(rows[1], row("x.example.co.uk", "example.co.uk", "/p,q"));
            assert_eq!(rows[2][..3], [None, None, None]);
            assert!(
                rows[2][3]
                    .as_deref()
                    .is_some_and(|e| e.contains("host-missing"))
            );
            assert_eq!(
                rows[3],
                row("b.example.org", "example.org", "/%22quoted%22")
            );
            let wrong = Expect { rows: 6, valid: 4 };
            let err = write_parquet(Box::new(std::io::sink()), &pool, &fx, wrong).unwrap_err();
            assert!(err.contains("has 5 rows; the file has 6"), "{err}");
        }
        let _ = std::fs::remove_file(&path);
    }
}
