//! Parsing query strings as application/x-www-form-urlencoded lists: rapidurl's
//! `SearchParams` against ada-url's `UrlSearchParams` and the `form_urlencoded` crate, in
//! one run.
//!
//! The queries are those of the URLs in the corpora (`RAPIDURL_CORPORA_DIR`, else
//! `../shared/corpora`, plus `corpora/sample.txt`): the text after the first `?` up to `#`.
//! Each parser builds an owned list of pairs and reads its length.
//!
//! ```sh
//! cargo bench --bench search_params
//! ```

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

use rapidurl_testkit::data as common;

fn queries() -> Vec<String> {
    let paths = common::corpus_paths(true);
    let mut out = Vec::new();
    for p in paths {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        for line in text.lines() {
            if let Some((_, rest)) = line.split_once('?') {
                let q = rest.split('#').next().unwrap_or("");
                if !q.is_empty() {
                    out.push(q.to_owned());
                }
            }
        }
    }
    assert!(!out.is_empty(), "no query string found in the corpora");
    out
}

fn bench(c: &mut Criterion) {
    let queries = queries();
    let bytes: usize = queries.iter().map(String::len).sum();
    let mut g = c.benchmark_group(format!("search_params/{}_queries", queries.len()));
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(20);
    g.bench_function("rapidurl::SearchParams::parse", |b| {
        b.iter(|| {
            queries
                .iter()
                .map(|q| rapidurl::SearchParams::parse(q).len())
                .sum::<usize>()
        })
    });
    g.bench_function("ada_url::UrlSearchParams::parse", |b| {
        b.iter(|| {
            queries
                .iter()
                .map(|q| ada_url::UrlSearchParams::parse(q.as_str()).map_or(0, |p| p.len()))
                .sum::<usize>()
        })
    });
    g.bench_function("form_urlencoded::parse (owned)", |b| {
        b.iter(|| {
            queries
                .iter()
                .map(|q| {
                    let list: Vec<(String, String)> = form_urlencoded::parse(q.as_bytes())
                        .map(|(k, v)| (k.into_owned(), v.into_owned()))
                        .collect();
                    black_box(list).len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
