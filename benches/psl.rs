//! Public suffix lookups on the hosts of the kasztp corpus (`../shared/corpora`, or
//! `RAPIDURL_CORPORA_DIR`), in one run:
//!
//! - `psl/lookup`: the candidate structures on the same hosts: the built-in list (our table,
//!   built from the `psl` crate's data; the `psl` crate's compiled matcher called
//!   directly), and a `public_suffix_list.dat`
//!   loaded at run time (our table, and the `publicsuffix` crate's) from the copy of the
//!   list the `publicsuffix` crate ships;
//! - `psl/load`: reading and building that list (what a table built at first use from
//!   embedded text would cost once);
//! - `psl/kasztp`: `parse_ref` of every URL alone, then with `registrable_domain`, with
//!   the `psl` crate called directly on the hostname, and with `top_level_domain` (finding
//!   one label: the floor of any lookup).
//!
//! ```sh
//! cargo bench --bench psl
//! ```

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use psl::Psl;
use rapidurl::psl::{Sections, SuffixList};
use std::hint::black_box;

mod psl_data;

fn bench(c: &mut Criterion) {
    let kasztp = psl_data::kasztp_text();
    let lines: Vec<&str> = kasztp.lines().collect();
    let hosts = psl_data::domain_hosts(&lines);
    let text = psl_data::publicsuffix_dat();
    let loaded = SuffixList::parse(&text).expect("a valid list");
    let theirs: publicsuffix::List = text.parse().expect("a valid list");

    let mut g = c.benchmark_group("psl/lookup");
    g.throughput(Throughput::Elements(hosts.len() as u64));
    g.sample_size(30);
    g.bench_function("builtin SuffixList (table)", |b| {
        let list = SuffixList::builtin();
        b.iter(|| psl_data::total_len(&hosts, |h| list.registrable_domain(h).map(str::len)))
    });
    g.bench_function("builtin SuffixList, ICANN only", |b| {
        let list = SuffixList::builtin();
        b.iter(|| {
            psl_data::total_len(&hosts, |h| {
                list.lookup(h, Sections::Icann)?
                    .registrable_domain()
                    .map(str::len)
            })
        })
    });
    g.bench_function("psl crate directly", |b| {
        b.iter(|| {
            psl_data::total_len(&hosts, |h| {
                psl::List.domain(h.as_bytes()).map(|d| d.as_bytes().len())
            })
        })
    });
    g.bench_function("loaded SuffixList (table)", |b| {
        b.iter(|| psl_data::total_len(&hosts, |h| loaded.registrable_domain(h).map(str::len)))
    });
    g.bench_function("publicsuffix crate (same file)", |b| {
        b.iter(|| {
            psl_data::total_len(&hosts, |h| {
                theirs.domain(h.as_bytes()).map(|d| d.as_bytes().len())
            })
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
    for what in psl_data::Beside::ALL {
        g.bench_function(what.name(), |b| {
            b.iter(|| black_box(psl_data::parse_pass(&lines, &mut arena, what)))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
