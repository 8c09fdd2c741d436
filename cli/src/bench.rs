//! `rapidurl bench FILE`: the bulk engine's parse throughput on a file, on one thread and
//! on several, against the parser alone (a `parse_ref` loop) and one `memchr` pass over
//! the same bytes.
//!
//! The measurements take turns, one run each per round, until the time is up: on a
//! noisy machine each one's median then comes from the same stretch of time, so that
//! their ratios mean something.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rapidurl::batch::{self, engine};

use crate::Failure;

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

/// One measurement: its label and its runs' times.
struct Measure {
    label: String,
    times: Vec<Duration>,
}

impl Measure {
    fn median(&self) -> Duration {
        let mut times = self.times.clone();
        times.sort();
        times[times.len() / 2]
    }
}

/// Runs the benchmark and prints the table.
pub fn run(path: &str, threads: Option<usize>, min_time: f64) -> Result<ExitCode, Failure> {
    let bytes = std::fs::read(path).map_err(|e| Failure::Message(format!("{path}: {e}")))?;
    let column = batch::parse_lines(&bytes);
    let (urls, invalid) = (column.len(), column.error_count());
    drop(column);
    let many = crate::thread_count(threads);
    let min_time = if min_time.is_finite() {
        Duration::from_secs_f64(min_time.clamp(0.0, 3600.0))
    } else {
        Duration::from_secs(1)
    };
    let pool = |n: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Failure::Message(format!("cannot start {n} threads: {e}")))
    };
    let one = pool(1)?;
    let several = if many > 1 { Some(pool(many)?) } else { None };
    let lines: Vec<String> = engine::run(&engine::Lines::new(&bytes), &Inputs)
        .into_iter()
        .flatten()
        .collect();
    let mut arena = rapidurl::bumpalo::Bump::new();

    let mut measures: Vec<Measure> = Vec::new();
    let mut add = |label: String| {
        measures.push(Measure {
            label,
            times: Vec::new(),
        });
        measures.len() - 1
    };
    let column_1 = add("batch::parse_lines -> UrlColumn, 1 thread".into());
    let column_n = several
        .as_ref()
        .map(|_| add(format!("batch::parse_lines -> UrlColumn, {many} threads")));
    let count_1 = add("engine, counting sink, 1 thread".into());
    let loop_1 = add("parse_ref loop (the parser alone), 1 thread".into());
    let memchr_1 = add("one memchr pass over the bytes, 1 thread".into());
    let spans_1 = add("engine, 8-byte span sink, 1 thread".into());

    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed()
    };
    let start = Instant::now();
    let mut round = 0;
    // One warm-up round, then at least three measured ones.
    while round < 4 || start.elapsed() < min_time {
        let keep = round > 0;
        let t = time(&mut || {
            one.install(|| std::hint::black_box(batch::parse_lines(std::hint::black_box(&bytes))));
        });
        if keep {
            measures[column_1].times.push(t);
        }
        if let (Some(pool), Some(m)) = (&several, column_n) {
            let t = time(&mut || {
                pool.install(|| {
                    std::hint::black_box(batch::parse_lines(std::hint::black_box(&bytes)))
                });
            });
            if keep {
                measures[m].times.push(t);
            }
        }
        let t = time(&mut || {
            let source = engine::Lines::new(std::hint::black_box(&bytes));
            let parts = one.install(|| engine::run(&source, &Count));
            std::hint::black_box(parts.iter().sum::<usize>());
        });
        if keep {
            measures[count_1].times.push(t);
        }
        let t = time(&mut || {
            let source = engine::Lines::new(std::hint::black_box(&bytes));
            let sink = Spans8 {
                input: bytes.as_ptr() as usize,
            };
            let parts = one.install(|| engine::run(&source, &sink));
            std::hint::black_box(parts.iter().map(|p| p.0.len()).sum::<usize>());
        });
        if keep {
            measures[spans_1].times.push(t);
        }
        arena.reset();
        let t = time(&mut || {
            let mut n = 0usize;
            for line in std::hint::black_box(&lines) {
                if let Ok(url) = rapidurl::parse_ref(line, &arena) {
                    n += url.href().len();
                }
            }
            std::hint::black_box(n);
        });
        if keep {
            measures[loop_1].times.push(t);
        }
        let t = time(&mut || {
            std::hint::black_box(memchr::memchr_iter(b'\n', std::hint::black_box(&bytes)).count());
        });
        if keep {
            measures[memchr_1].times.push(t);
        }
        round += 1;
    }

    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{path}: {} bytes, {urls} URLs ({} valid, {invalid} invalid); {} rounds, medians",
        bytes.len(),
        urls - invalid,
        round - 1
    )?;
    writeln!(
        out,
        "{:<46} {:>12} {:>9} {:>8} {:>9}",
        "", "URLs/s", "MB/s", "ns/URL", "vs loop"
    )?;
    let reference = measures[loop_1].median().as_secs_f64().max(1e-9);
    for m in &measures {
        let secs = m.median().as_secs_f64().max(1e-9);
        writeln!(
            out,
            "{:<46} {:>12.0} {:>9.1} {:>8.1} {:>8.2}x",
            m.label,
            urls as f64 / secs,
            bytes.len() as f64 / secs / 1e6,
            secs * 1e9 / urls.max(1) as f64,
            reference / secs
        )?;
    }
    if let Some(m) = column_n {
        writeln!(
            out,
            "speed-up of parse_lines on {many} threads: {:.2}x",
            measures[column_1].median().as_secs_f64()
                / measures[m].median().as_secs_f64().max(1e-9)
        )?;
    }
    writeln!(
        out,
        "parse_lines, 1 thread, as a fraction of the memchr pass's speed: {:.3}",
        measures[memchr_1].median().as_secs_f64()
            / measures[column_1].median().as_secs_f64().max(1e-9)
    )?;
    Ok(ExitCode::SUCCESS)
}
