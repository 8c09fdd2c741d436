//! `rapidurl bench FILE`: the bulk engine's parse throughput on a file, on one thread and
//! on several, against the parser alone (a `parse_ref` loop) and one `memchr` pass over
//! the same bytes.
//!
//! The measurements take turns, one run each per round, until the time is up: on a
//! noisy machine each one's median then comes from the same stretch of time, so that
//! their ratios mean something.

use std::hint::black_box;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;
use rapidurl::batch::{self, engine};

use crate::outcome::Failure;
use crate::output::{Column, Format, RowFormat, RowText};

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
reporting its validation errors), both on 1 thread. Prints each one's median run as
URLs/s, MB/s (input bytes, 10^6) and ns/URL, its speed against the parse_ref loop, its
median CPU time per URL (every thread's; Linux) and its speed against the loop's in CPU
time (the figure a shared machine moves least), the speed-up on --threads threads, the
column's speed as a fraction of the memchr pass's, the TSV rows' time against the loop's
and lint's against the counting sink's (what `check` does). Nothing is written:
scripts/bulk_table.py times the whole tool too.

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
    let one = pool(1)?;
    let several = if many > 1 { Some(pool(many)?) } else { None };
    let lines: Vec<String> = engine::run(&engine::Lines::new(&bytes), &Inputs)
        .into_iter()
        .flatten()
        .collect();
    let mut measures = contenders(&bytes, &lines, &one, several.as_ref(), many);
    let rounds = measure(&mut measures, min_time);
    let table = Table {
        path,
        bytes: bytes.len(),
        urls,
        invalid,
        rounds,
        many,
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

/// One measurement: its label, what it runs, and its runs' times (wall clock, and the
/// process's CPU time where the system tells it).
struct Measure<'a> {
    label: String,
    run: Box<dyn FnMut() + 'a>,
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
fn cpu_time() -> Option<Duration> {
    let mut total = 0u64;
    for entry in std::fs::read_dir("/proc/self/task").ok()? {
        let text = std::fs::read_to_string(entry.ok()?.path().join("schedstat")).ok()?;
        total += text.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

/// What is measured, in the order of the table: the column on 1 thread (first) and on
/// `many`, the counting sink, the `parse_ref` loop (the reference), the `memchr` pass
/// and the 8-byte span sink.
fn contenders<'a>(
    bytes: &'a [u8],
    lines: &'a [String],
    one: &'a rayon::ThreadPool,
    several: Option<&'a rayon::ThreadPool>,
    many: usize,
) -> Vec<Measure<'a>> {
    let measure = |label: String, run: Box<dyn FnMut() + 'a>| Measure {
        label,
        run,
        times: Vec::new(),
        cpu: Vec::new(),
    };
    let mut all = vec![measure(
        "batch::parse_lines -> UrlColumn, 1 thread".into(),
        Box::new(move || {
            one.install(|| black_box(batch::parse_lines(black_box(bytes))));
        }),
    )];
    let mut buffers = batch::ColumnBuffers::new();
    all.push(measure(
        "parse_lines into reused ColumnBuffers, 1 thread".into(),
        Box::new(move || {
            let spare = std::mem::take(&mut buffers);
            let column = one.install(|| black_box(spare.parse_lines(black_box(bytes))));
            buffers = column.into_buffers();
        }),
    ));
    if let Some(pool) = several {
        all.push(measure(
            format!("batch::parse_lines -> UrlColumn, {many} threads"),
            Box::new(move || {
                pool.install(|| black_box(batch::parse_lines(black_box(bytes))));
            }),
        ));
    }
    all.push(measure(
        COUNT.into(),
        Box::new(move || {
            let parts = one.install(|| engine::run(&engine::Lines::new(black_box(bytes)), &Count));
            black_box(parts.iter().sum::<usize>());
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
        }),
    ));
    all.push(measure(
        MEMCHR.into(),
        Box::new(move || {
            black_box(memchr::memchr_iter(b'\n', black_box(bytes)).count());
        }),
    ));
    let format = RowFormat::new(
        Format::Tsv,
        Vec::new(),
        rapidurl::field::Field::URL_API
            .into_iter()
            .map(Column::Field)
            .collect(),
        false,
    );
    let mut out = Vec::new();
    let spare = std::sync::Mutex::new(Vec::new());
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
        }),
    ));
    all.push(measure(
        LINT.into(),
        Box::new(move || {
            let parts = one.install(|| engine::run(&engine::Lines::new(black_box(bytes)), &Lint));
            black_box(parts.iter().sum::<usize>());
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
        }),
    ));
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

/// Runs every measurement once per round, in turns: one warm-up round, then at least
/// three measured ones, until `min_time` has passed. Returns the measured rounds.
fn measure(measures: &mut [Measure<'_>], min_time: Duration) -> usize {
    let start = Instant::now();
    let mut round = 0;
    while round < 4 || start.elapsed() < min_time {
        for m in measures.iter_mut() {
            let cpu = cpu_time();
            let t = Instant::now();
            (m.run)();
            let t = t.elapsed();
            let cpu = cpu.zip(cpu_time()).map(|(a, b)| b.saturating_sub(a));
            if round > 0 {
                m.times.push(t);
                m.cpu.extend(cpu);
            }
        }
        round += 1;
    }
    round - 1
}

/// What the table's heading and last lines say about the run.
struct Table<'p> {
    path: &'p str,
    bytes: usize,
    urls: usize,
    invalid: usize,
    rounds: usize,
    many: usize,
}

impl Table<'_> {
    /// Prints each measurement's median as URLs/s, MB/s and ns/URL, its speed against
    /// the `parse_ref` loop, the column's speed-up on `many` threads and its speed as a
    /// fraction of the `memchr` pass's.
    fn print(&self, measures: &[Measure<'_>]) -> io::Result<()> {
        let Table {
            path,
            bytes,
            urls,
            invalid,
            rounds,
            many,
        } = *self;
        let mut out = io::stdout().lock();
        writeln!(
            out,
            "{path}: {bytes} bytes, {urls} URLs ({} valid, {invalid} invalid); {rounds} rounds, medians",
            urls - invalid,
        )?;
        writeln!(
            out,
            "{:<46} {:>12} {:>9} {:>8} {:>9} {:>9} {:>9}",
            "", "URLs/s", "MB/s", "ns/URL", "vs loop", "CPU ns", "CPU vs"
        )?;
        let secs = |label: &str| {
            measures
                .iter()
                .find(|m| m.label == label)
                .map_or(1e-9, |m| m.median().as_secs_f64().max(1e-9))
        };
        // CPU time where measured (else wall clock): the ratios of one-thread runs that
        // the machine's other work moves least.
        let cpu = |label: &str| {
            measures
                .iter()
                .find(|m| m.label == label)
                .map_or(1e-9, |m| {
                    m.cpu_median()
                        .unwrap_or_else(|| m.median())
                        .as_secs_f64()
                        .max(1e-9)
                })
        };
        let reference = secs(LOOP);
        let cpu_reference = cpu(LOOP);
        for m in measures {
            let secs = m.median().as_secs_f64().max(1e-9);
            let cpu = cpu(&m.label);
            writeln!(
                out,
                "{:<46} {:>12.0} {:>9.1} {:>8.1} {:>8.2}x {:>9.1} {:>8.2}x",
                m.label,
                urls as f64 / secs,
                bytes as f64 / secs / 1e6,
                secs * 1e9 / urls.max(1) as f64,
                reference / secs,
                cpu * 1e9 / urls.max(1) as f64,
                cpu_reference / cpu
            )?;
        }
        let column_1 = secs(&measures[0].label);
        if many > 1 {
            let column_n = secs(&format!("batch::parse_lines -> UrlColumn, {many} threads"));
            writeln!(
                out,
                "speed-up of parse_lines on {many} threads: {:.2}x",
                column_1 / column_n
            )?;
        }
        writeln!(
            out,
            "parse_lines, 1 thread, as a fraction of the memchr pass's speed: {:.3}",
            secs(MEMCHR) / column_1
        )?;
        writeln!(
            out,
            "parse_lines -> UrlColumn, 1 thread: {:.2}x the loop's speed (CPU: {:.2}x; target >= 0.85)",
            reference / column_1,
            cpu_reference / cpu(&measures[0].label)
        )?;
        writeln!(
            out,
            "TSV rows of the 11 URL API fields, 1 thread: {:.2}x the loop's time (CPU: {:.2}x)",
            secs(TSV) / reference,
            cpu(TSV) / cpu_reference
        )?;
        writeln!(
            out,
            "lint's sink against the counting sink (check's), 1 thread: {:.2}x the time (CPU: {:.2}x)",
            secs(LINT) / secs(COUNT),
            cpu(LINT) / cpu(COUNT)
        )
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
            Ok(url) => self
                .format
                .url_line_into(rows, self.block, row.input(), url, None),
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
