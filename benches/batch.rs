//! The batch engine (`rapidurl::batch`); the command-line tool's bench is `cli/benches/tool.rs`.
//!
//! * `utf8/<corpus>`: validating a whole corpus as UTF-8 at once, `std::str::from_utf8`
//!   against `simdutf::validate_utf8` (the choice documented in src/batch/lines.rs).
//! * `batch_1m`: `parse_lines` and `parse_column` on the corpora's lines repeated to at
//!   least 1,000,000 URLs, in rayon pools of 1 and 2 threads (the speed-up on 2 cores).
//! * `parse_lines_1_core/kasztp`: `parse_lines` on one thread against the engine with a
//!   counting sink, the `parse_ref` loop and one `memchr` pass over the same bytes.
//!
//! Corpora: `RAPIDURL_CORPORA_DIR`, else `../shared/corpora`.
//!
//! ```sh
//! cargo bench --bench batch -- --warm-up-time 1 --measurement-time 3
//! ```

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

use rapidurl_testkit::data as common;

/// The corpora: (name, path, bytes), sorted by name.
fn corpora() -> Vec<(String, PathBuf, Vec<u8>)> {
    let paths = common::corpus_paths(false);
    paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("read corpus");
            let name = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, p, bytes)
        })
        .collect()
}

fn utf8(c: &mut Criterion) {
    for (name, _, bytes) in corpora() {
        let mut g = c.benchmark_group(format!("utf8/{name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("std::str::from_utf8", |b| {
            b.iter(|| std::str::from_utf8(black_box(&bytes)).is_ok())
        });
        g.bench_function("simdutf::validate_utf8", |b| {
            b.iter(|| simdutf::validate_utf8(black_box(&bytes)))
        });
        g.bench_function("simdutf8::basic::from_utf8", |b| {
            b.iter(|| simdutf8::basic::from_utf8(black_box(&bytes)).is_ok())
        });
        g.finish();
    }
}

/// The corpora's lines, repeated until there are at least `min` of them, newline-joined.
fn repeated_lines(min: usize) -> Vec<u8> {
    let mut one = Vec::new();
    for (_, _, bytes) in corpora() {
        one.extend_from_slice(&bytes);
        if one.last().is_some_and(|&b| b != b'\n') {
            one.push(b'\n');
        }
    }
    let per_copy = memchr::memchr_iter(b'\n', &one).count().max(1);
    one.repeat(min.div_ceil(per_copy))
}

fn batch_1m(c: &mut Criterion) {
    let bytes = repeated_lines(1_000_000);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let mut g = c.benchmark_group("batch_1m");
    g.throughput(Throughput::Elements(lines.len() as u64));
    g.sample_size(10);
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        g.bench_with_input(
            BenchmarkId::new("parse_lines", threads),
            &threads,
            |b, _| b.iter(|| pool.install(|| rapidurl::batch::parse_lines(black_box(&bytes)))),
        );
        g.bench_with_input(
            BenchmarkId::new("parse_column", threads),
            &threads,
            |b, _| {
                b.iter(|| pool.install(|| rapidurl::batch::parse_column(black_box(&lines), None)))
            },
        );
    }
    g.finish();
}

/// A sink that counts the valid rows: the engine without a column.
struct CountValid;

impl<'a> rapidurl::batch::engine::Sink<'a> for CountValid {
    type Part = usize;
    fn part(&self, _piece: &rapidurl::batch::engine::Piece) -> usize {
        0
    }
    fn row(&self, part: &mut usize, row: rapidurl::batch::engine::Row<'a, '_>) {
        *part += usize::from(row.url().is_ok());
    }
}

/// `batch::parse_lines` on one core against the engine with a counting sink, the
/// `parse_ref` loop, and the ceiling of one pass over the same bytes
/// (memchr counting the line ends), in bytes per second: kasztp.txt, the largest corpus
/// of real URLs.
fn lines_vs_memchr(c: &mut Criterion) {
    let Some((_, _, bytes)) = corpora().into_iter().find(|(name, _, _)| name == "kasztp") else {
        panic!("kasztp.txt not found among the corpora");
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("thread pool");
    let mut g = c.benchmark_group("parse_lines_1_core/kasztp");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(20);
    g.bench_function("batch::parse_lines", |b| {
        b.iter(|| pool.install(|| rapidurl::batch::parse_lines(black_box(&bytes)).len()))
    });
    g.bench_function("engine::run, counting sink", |b| {
        b.iter(|| {
            let source = rapidurl::batch::engine::Lines::new(black_box(&bytes));
            pool.install(|| rapidurl::batch::engine::run(&source, &CountValid))
                .into_iter()
                .sum::<usize>()
        })
    });
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut arena = rapidurl::bumpalo::Bump::new();
    g.bench_function("parse_ref loop", |b| {
        b.iter(|| {
            arena.reset();
            let mut n = 0usize;
            for line in black_box(&lines) {
                n += usize::from(rapidurl::parse_ref(line, &arena).is_ok());
            }
            n
        })
    });
    g.bench_function("memchr line-end count (one pass)", |b| {
        b.iter(|| memchr::memchr_iter(b'\n', black_box(&bytes)).count())
    });
    g.finish();
}

criterion_group!(benches, utf8, batch_1m, lines_vs_memchr);
criterion_main!(benches);
