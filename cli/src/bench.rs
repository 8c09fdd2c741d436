//! `rapidurl bench FILE`: the batch engine's parse throughput on a file, on one thread and
//! on several.

use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rapidurl::batch;

use crate::Failure;

/// One thread count's measurement.
struct Measure {
    threads: usize,
    runs: usize,
    median: Duration,
}

/// Parses `bytes` on a pool of `threads` threads until `min_time` has passed and at least
/// three runs are done (after one warm-up run), and keeps the median run.
fn measure(bytes: &[u8], threads: usize, min_time: Duration) -> io::Result<Measure> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(io::Error::other)?;
    let mut times = pool.install(|| {
        std::hint::black_box(batch::parse_lines(bytes).len());
        let mut times = Vec::new();
        let start = Instant::now();
        while times.len() < 3 || start.elapsed() < min_time {
            let t = Instant::now();
            let column = batch::parse_lines(std::hint::black_box(bytes));
            std::hint::black_box(column.len());
            times.push(t.elapsed());
            drop(column);
        }
        times
    });
    times.sort();
    Ok(Measure {
        threads,
        runs: times.len(),
        median: times[times.len() / 2],
    })
}

/// The single-threaded `parse_ref` loop over the file's lines (split beforehand, one
/// arena emptied every run), as `benches/parse.rs` measures it: the median run.
fn measure_parse_ref(bytes: &[u8], min_time: Duration) -> Measure {
    let lines: Vec<std::borrow::Cow<'_, str>> = batch::lines(bytes).collect();
    let mut arena = rapidurl::bumpalo::Bump::new();
    let run = |arena: &mut rapidurl::bumpalo::Bump| {
        arena.reset();
        let t = Instant::now();
        let mut n = 0usize;
        for line in std::hint::black_box(&lines) {
            if let Ok(url) = rapidurl::parse_ref(line, arena) {
                n += url.href().len();
            }
        }
        std::hint::black_box(n);
        t.elapsed()
    };
    run(&mut arena);
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 3 || start.elapsed() < min_time {
        times.push(run(&mut arena));
    }
    times.sort();
    Measure {
        threads: 1,
        runs: times.len(),
        median: times[times.len() / 2],
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
    let mut counts = vec![1];
    if many > 1 {
        counts.push(many);
    }
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "{path}: {} bytes, {urls} URLs ({} valid, {invalid} invalid)",
        bytes.len(),
        urls - invalid
    )?;
    writeln!(
        out,
        "{:>7} {:>5} {:>13} {:>9} {:>9}",
        "threads", "runs", "URLs/s", "MB/s", "ns/URL"
    )?;
    let mut results = Vec::new();
    for threads in counts {
        let m = measure(&bytes, threads, min_time)
            .map_err(|e| Failure::Message(format!("cannot start {threads} threads: {e}")))?;
        let secs = m.median.as_secs_f64().max(1e-9);
        writeln!(
            out,
            "{:>7} {:>5} {:>13.0} {:>9.1} {:>9.1}",
            m.threads,
            m.runs,
            urls as f64 / secs,
            bytes.len() as f64 / secs / 1e6,
            secs * 1e9 / urls.max(1) as f64
        )?;
        out.flush()?;
        results.push(m);
    }
    let m = measure_parse_ref(&bytes, min_time);
    let secs = m.median.as_secs_f64().max(1e-9);
    writeln!(
        out,
        "parse_ref loop, 1 thread, {} runs: {:.0} URLs/s, {:.1} MB/s, {:.1} ns/URL",
        m.runs,
        urls as f64 / secs,
        bytes.len() as f64 / secs / 1e6,
        secs * 1e9 / urls.max(1) as f64
    )?;
    if let [one, many] = results.as_slice() {
        writeln!(
            out,
            "speed-up on {} threads: {:.2}x",
            many.threads,
            one.median.as_secs_f64() / many.median.as_secs_f64().max(1e-9)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
