//! Public suffix lookups on the hosts of the kasztp corpus (`../shared/corpora`, or
//! `RAPIDURL_CORPORA_DIR`), in one run:
//!
//! - `psl/lookup`: the candidate structures on the same hosts: the built-in list (our table,
//!   built from the `psl` crate's data; the `psl` crate's compiled matcher through
//!   `SuffixList`, its fallback, and called directly), and a `public_suffix_list.dat`
//!   loaded at run time (our table, and the `publicsuffix` crate's) from the copy of the
//!   list the `publicsuffix` crate ships;
//! - `psl/load`: reading and building that list (what a table built at first use from
//!   embedded text would cost once);
//! - `psl/kasztp`: `parse_ref` of every URL alone, then with `registrable_domain`, then with
//!   the `psl` crate called directly on the hostname.
//!
//! ```sh
//! cargo bench --bench psl
//! ```

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use psl::Psl;
use rapidurl::psl::{Sections, SuffixList};
use std::hint::black_box;

mod common;
#[path = "../tests/common/mod.rs"]
mod test_common;

fn kasztp() -> Vec<String> {
    let path = common::shared_corpora_dir().join("kasztp.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set RAPIDURL_CORPORA_DIR)", path.display()));
    text.lines().map(str::to_owned).collect()
}

fn bench(c: &mut Criterion) {
    let lines = kasztp();
    let hosts: Vec<String> = lines
        .iter()
        .filter_map(|l| rapidurl::Url::parse(l).ok())
        .filter(|u| u.host_kind() == rapidurl::HostKind::Domain)
        .map(|u| u.hostname().to_owned())
        .collect();
    let dat = test_common::registry_crate_dir("publicsuffix")
        .expect("the publicsuffix crate in the cargo registry")
        .join("tests/public_suffix_list.dat");
    let text = std::fs::read_to_string(&dat).expect("the shipped list");
    let loaded = SuffixList::parse(&text).expect("a valid list");
    let theirs: publicsuffix::List = text.parse().expect("a valid list");

    let mut g = c.benchmark_group("psl/lookup");
    g.throughput(Throughput::Elements(hosts.len() as u64));
    g.sample_size(30);
    g.bench_function("builtin SuffixList (table)", |b| {
        let list = SuffixList::builtin();
        b.iter(|| {
            hosts
                .iter()
                .filter_map(|h| list.registrable_domain(h))
                .map(str::len)
                .sum::<usize>()
        })
    });
    g.bench_function("builtin SuffixList, ICANN only", |b| {
        let list = SuffixList::builtin();
        b.iter(|| {
            hosts
                .iter()
                .filter_map(|h| list.lookup(h, Sections::Icann)?.registrable_domain())
                .map(str::len)
                .sum::<usize>()
        })
    });
    g.bench_function("SuffixList::psl_crate (the matcher, the fallback)", |b| {
        let list = SuffixList::psl_crate();
        b.iter(|| {
            hosts
                .iter()
                .filter_map(|h| list.registrable_domain(h))
                .map(str::len)
                .sum::<usize>()
        })
    });
    g.bench_function("psl crate directly", |b| {
        b.iter(|| {
            hosts
                .iter()
                .filter_map(|h| psl::List.domain(h.as_bytes()))
                .map(|d| d.as_bytes().len())
                .sum::<usize>()
        })
    });
    g.bench_function("loaded SuffixList (table)", |b| {
        b.iter(|| {
            hosts
                .iter()
                .filter_map(|h| loaded.registrable_domain(h))
                .map(str::len)
                .sum::<usize>()
        })
    });
    g.bench_function("publicsuffix crate (same file)", |b| {
        b.iter(|| {
            hosts
                .iter()
                .filter_map(|h| theirs.domain(h.as_bytes()))
                .map(|d| d.as_bytes().len())
                .sum::<usize>()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("psl/load");
    g.sample_size(10);
    g.bench_function("SuffixList::parse (the publicsuffix crate's copy)", |b| {
        b.iter(|| SuffixList::parse(black_box(&text)).map(|l| l.rule_count()))
    });
    g.finish();

    let mut g = c.benchmark_group("psl/kasztp");
    g.throughput(Throughput::Elements(lines.len() as u64));
    g.sample_size(20);
    let mut arena = rapidurl::bumpalo::Bump::new();
    g.bench_function("parse_ref", |b| {
        b.iter(|| {
            arena.reset();
            let mut n = 0usize;
            for l in &lines {
                if let Ok(u) = rapidurl::parse_ref(l, &arena) {
                    n += u.hostname().len();
                }
            }
            black_box(n)
        })
    });
    g.bench_function("parse_ref + registrable_domain", |b| {
        b.iter(|| {
            arena.reset();
            let mut n = 0usize;
            for l in &lines {
                if let Ok(u) = rapidurl::parse_ref(l, &arena) {
                    n += u.registrable_domain().map_or(0, str::len);
                }
            }
            black_box(n)
        })
    });
    g.bench_function("parse_ref + psl crate on hostname", |b| {
        b.iter(|| {
            arena.reset();
            let mut n = 0usize;
            for l in &lines {
                if let Ok(u) = rapidurl::parse_ref(l, &arena) {
                    n += psl::List
                        .domain(u.hostname().as_bytes())
                        .map_or(0, |d| d.as_bytes().len());
                }
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
