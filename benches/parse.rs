//! Parse throughput on the benchmark corpora, rapidurl against ada-url and url in one run.
//!
//! Corpora: `RAPIDURL_CORPORA_DIR`, else `../shared/corpora` (one URL per line), plus the
//! project's own `corpora/sample.txt` when present. Throughput is in input bytes.
//!
//! ```sh
//! cargo bench --bench parse
//! ```

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

use rapidurl_testkit::data as common;

fn corpora() -> Vec<(String, Vec<String>)> {
    let paths = common::corpus_paths(true);
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("corpus is UTF-8");
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, text.lines().map(str::to_owned).collect())
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    for (name, lines) in corpora() {
        let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
        let mut g = c.benchmark_group(format!("parse/{name}"));
        g.throughput(Throughput::Bytes(bytes as u64));
        g.sample_size(20);
        let mut arena = rapidurl::bumpalo::Bump::new();
        g.bench_function("rapidurl::parse_ref", |b| {
            b.iter(|| {
                arena.reset();
                let mut n = 0usize;
                for l in &lines {
                    if let Ok(u) = rapidurl::parse_ref(l, &arena) {
                        n += u.href().len();
                    }
                }
                black_box(n)
            })
        });
        g.bench_function("rapidurl::Url::parse", |b| {
            b.iter(|| {
                let mut n = 0usize;
                for l in &lines {
                    if let Ok(u) = rapidurl::Url::parse(l) {
                        n += u.href().len();
                    }
                }
                black_box(n)
            })
        });
        g.bench_function("rapidurl::can_parse", |b| {
            b.iter(|| lines.iter().filter(|l| rapidurl::can_parse(l)).count())
        });
        g.bench_function("ada_url::Url::parse", |b| {
            b.iter(|| {
                let mut n = 0usize;
                for l in &lines {
                    if let Ok(u) = ada_url::Url::parse(l.as_str(), None) {
                        n += u.href().len();
                    }
                }
                black_box(n)
            })
        });
        g.bench_function("ada_url::Url::can_parse", |b| {
            b.iter(|| {
                lines
                    .iter()
                    .filter(|l| ada_url::Url::can_parse(l, None))
                    .count()
            })
        });
        g.bench_function("url::Url::parse", |b| {
            b.iter(|| {
                let mut n = 0usize;
                for l in &lines {
                    if let Ok(u) = url::Url::parse(l) {
                        n += u.as_str().len();
                    }
                }
                black_box(n)
            })
        });
        g.finish();
    }
}

/// Relative links resolved against their page's URL (`corpora/relative.tsv`: base, TAB,
/// link), as a crawler does. ada's Rust API takes the base as a string and parses it on
/// every call, so rapidurl is measured both ways: with the base parsed once (what a crawler
/// does with a page URL), and with the base as a string parsed on every call.
fn bench_relative(c: &mut Criterion) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/relative.tsv");
    let text = std::fs::read_to_string(&path).expect("corpora/relative.tsv");
    // Pairs whose base is itself a URL (a few generated bases are deliberately invalid).
    let pairs: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .filter(|(b, _)| rapidurl::Url::parse(b).is_ok() && url::Url::parse(b).is_ok())
        .map(|(b, l)| (b.to_owned(), l.to_owned()))
        .collect();
    let bytes: usize = pairs.iter().map(|(_, l)| l.len() + 1).sum();
    let ours: Vec<rapidurl::Url> = pairs
        .iter()
        .map(|(b, _)| rapidurl::Url::parse(b).unwrap())
        .collect();
    let theirs: Vec<url::Url> = pairs
        .iter()
        .map(|(b, _)| url::Url::parse(b).unwrap())
        .collect();
    let mut g = c.benchmark_group("relative");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(20);
    let mut arena = rapidurl::bumpalo::Bump::new();
    g.bench_function("rapidurl::parse_ref_with_base (base parsed once)", |b| {
        b.iter(|| {
            arena.reset();
            let mut n = 0;
            for ((_, link), base) in pairs.iter().zip(&ours) {
                let base = base.as_ref_view();
                if let Ok(u) = rapidurl::parse_ref_with_base(link, &base, &arena) {
                    n += u.href().len();
                }
            }
            black_box(n)
        })
    });
    g.bench_function("rapidurl::Url::join (base parsed once)", |b| {
        b.iter(|| {
            let mut n = 0;
            for ((_, link), base) in pairs.iter().zip(&ours) {
                if let Ok(u) = base.join(link) {
                    n += u.href().len();
                }
            }
            black_box(n)
        })
    });
    g.bench_function("rapidurl (base string parsed every call)", |b| {
        b.iter(|| {
            let mut n = 0;
            for (base, link) in &pairs {
                if let Ok(u) = rapidurl::Url::parse(base).and_then(|b| b.join(link)) {
                    n += u.href().len();
                }
            }
            black_box(n)
        })
    });
    g.bench_function("ada_url::Url::parse(link, Some(base))", |b| {
        b.iter(|| {
            let mut n = 0;
            for (base, link) in &pairs {
                if let Ok(u) = ada_url::Url::parse(link.as_str(), Some(base.as_str())) {
                    n += u.href().len();
                }
            }
            black_box(n)
        })
    });
    g.bench_function("url::Url::join (base parsed once)", |b| {
        b.iter(|| {
            let mut n = 0;
            for ((_, link), base) in pairs.iter().zip(&theirs) {
                if let Ok(u) = base.join(link) {
                    n += u.as_str().len();
                }
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench, bench_relative);
criterion_main!(benches);
