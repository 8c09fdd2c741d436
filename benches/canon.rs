//! The canonical-key fields (`canonical`, `surt`) beside `parse_ref`, per kasztp URL:
//! each variant parses every line into one arena (reset per pass) and, for the fields,
//! computes the field's value through `Field::value` as the tool and `parse_column` do.
//! `parse_ref+surt_into` writes each SURT key into one reused buffer instead
//! (`canon::surt_into`), which allocates nothing per key.
//! The target is at most 2× `parse_ref` (docs/performance.md, "Canonical keys").
//!
//! ```sh
//! cargo bench --bench canon
//! ```

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rapidurl::bumpalo::Bump;
use rapidurl::field::Field;
use std::hint::black_box;

use rapidurl_testkit::data as common;

fn bench(c: &mut Criterion) {
    let path = common::corpora_dir().join("kasztp.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set RAPIDURL_CORPORA_DIR)", path.display()));
    let lines: Vec<&str> = text.lines().collect();
    let mut group = c.benchmark_group("canon_kasztp");
    group.throughput(Throughput::Elements(lines.len() as u64));
    let mut arena = Bump::new();
    let variants: [(&str, Option<Field>); 3] = [
        ("parse_ref", None),
        ("parse_ref+canonical", Some(Field::Canonical)),
        ("parse_ref+surt", Some(Field::Surt)),
    ];
    for (name, field) in variants {
        group.bench_function(name, |b| {
            b.iter(|| {
                arena.reset();
                let mut total = 0usize;
                for line in &lines {
                    if let Ok(url) = rapidurl::parse_ref(line, &arena) {
                        total += match &field {
                            None => url.href().len(),
                            Some(f) => f.value(&url).map_or(0, |v| v.len()),
                        };
                    }
                }
                black_box(total)
            })
        });
    }
    let mut key = String::new();
    let options = rapidurl::canon::SurtOptions::default();
    group.bench_function("parse_ref+surt_into", |b| {
        b.iter(|| {
            arena.reset();
            let mut total = 0usize;
            for line in &lines {
                if let Ok(url) = rapidurl::parse_ref(line, &arena) {
                    key.clear();
                    rapidurl::canon::surt_into(&url, &options, &mut key);
                    total += key.len();
                }
            }
            black_box(total)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
