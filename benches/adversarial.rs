//! Time per input byte on adversarial inputs at 10 KB, 100 KB, 1 MB and 10 MB.
//!
//! A parser with a quadratic path (re-scanning the output on every `..`, re-parsing a
//! host label by label from the start, ...) shows it here as a time per byte that grows
//! ten-fold with each ten-fold size; a linear one stays flat. The inputs are those of
//! `tests/robustness.rs` (which checks their results; this only times them).
//!
//! ```sh
//! cargo bench --bench adversarial -- --warm-up-time 1 --measurement-time 2
//! ```
//!
//! Besides criterion's own report, the run ends with a Markdown table of ns per input
//! byte (mean over all timed iterations, warm-up included), one row per input and one
//! column per size: the table of docs/robustness.md.

use criterion::{BenchmarkId, Criterion, Throughput};
use rapidurl::{SearchParams, Url};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

const SIZES: [(usize, &str); 4] = [
    (10_000, "10 KB"),
    (100_000, "100 KB"),
    (1_000_000, "1 MB"),
    (10_000_000, "10 MB"),
];

/// One adversarial input: a prefix, a unit repeated to the size, a suffix.
struct Case {
    name: &'static str,
    prefix: &'static str,
    unit: &'static str,
    suffix: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "path ../",
        prefix: "http://h/",
        unit: "../",
        suffix: "",
    },
    Case {
        name: "path /./",
        prefix: "http://h",
        unit: "/.",
        suffix: "/",
    },
    Case {
        name: "path %2e%2e/",
        prefix: "http://h/",
        unit: "%2e%2e/",
        suffix: "",
    },
    Case {
        name: "deep path a/",
        prefix: "http://h/",
        unit: "a/",
        suffix: "",
    },
    Case {
        name: "path %",
        prefix: "http://h/",
        unit: "%",
        suffix: "",
    },
    Case {
        name: "host [",
        prefix: "http://",
        unit: "[",
        suffix: "",
    },
    Case {
        name: "host [::",
        prefix: "http://",
        unit: "[::",
        suffix: "]",
    },
    Case {
        name: "userinfo @",
        prefix: "http://",
        unit: "@",
        suffix: "h/",
    },
    Case {
        name: "userinfo :",
        prefix: "http://",
        unit: ":",
        suffix: "@h/",
    },
    Case {
        name: "host :",
        prefix: "sc://",
        unit: ":",
        suffix: "",
    },
    Case {
        name: "labels a.",
        prefix: "http://",
        unit: "a.",
        suffix: "/",
    },
    Case {
        name: "label é (fails)",
        prefix: "http://",
        unit: "é",
        suffix: "/",
    },
    Case {
        name: "labels é.",
        prefix: "http://",
        unit: "é.",
        suffix: "/",
    },
    Case {
        name: "port 0",
        prefix: "http://h:",
        unit: "0",
        suffix: "/",
    },
    Case {
        name: "tabs",
        prefix: "ht\ttp://h/",
        unit: "\t\n",
        suffix: "x",
    },
    Case {
        name: "fragment spaces",
        prefix: "http://h/#",
        unit: " ",
        suffix: "",
    },
];

impl Case {
    fn input(&self, size: usize) -> String {
        let n =
            (size.saturating_sub(self.prefix.len() + self.suffix.len())).div_ceil(self.unit.len());
        format!("{}{}{}", self.prefix, self.unit.repeat(n), self.suffix)
    }
}

/// A query of name-value pairs in reverse order of name, `size` bytes or more.
fn sort_input(size: usize) -> String {
    let mut q = String::with_capacity(size + 32);
    let mut i = size / 8;
    while q.len() < size {
        q.push_str(&format!("k{i:08}=v&"));
        i -= 1;
    }
    q
}

/// (case, size) → (total time, iterations, input bytes).
type Totals = BTreeMap<(usize, usize), (Duration, u64, usize)>;
static TOTALS: Mutex<Totals> = Mutex::new(BTreeMap::new());

fn timed(case: usize, size: usize, bytes: usize, iters: u64, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        f();
    }
    let elapsed = start.elapsed();
    let mut totals = TOTALS.lock().unwrap_or_else(|e| e.into_inner());
    let entry = totals
        .entry((case, size))
        .or_insert((Duration::ZERO, 0, bytes));
    entry.0 += elapsed;
    entry.1 += iters;
    elapsed
}

fn bench(c: &mut Criterion) {
    for (ci, case) in CASES.iter().enumerate() {
        let mut group = c.benchmark_group(case.name);
        group.sample_size(10);
        for (si, &(size, label)) in SIZES.iter().enumerate() {
            let input = case.input(size);
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_function(BenchmarkId::from_parameter(label), |b| {
                b.iter_custom(|iters| {
                    timed(ci, si, input.len(), iters, || {
                        let _ = black_box(Url::parse(black_box(&input)));
                    })
                })
            });
        }
        group.finish();
    }
    // URLSearchParams: parse, sort, serialize.
    let ci = CASES.len();
    let mut group = c.benchmark_group("query pairs: parse+sort+serialize");
    group.sample_size(10);
    for (si, &(size, label)) in SIZES.iter().enumerate() {
        let input = sort_input(size);
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function(BenchmarkId::from_parameter(label), |b| {
            b.iter_custom(|iters| {
                timed(ci, si, input.len(), iters, || {
                    let mut params = SearchParams::parse(black_box(&input));
                    params.sort();
                    black_box(params.to_string());
                })
            })
        });
    }
    group.finish();
}

fn print_table() {
    let totals = TOTALS.lock().unwrap_or_else(|e| e.into_inner());
    if totals.is_empty() {
        return;
    }
    let mut names: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    names.push("query pairs: parse+sort+serialize");
    println!("\nns per input byte (mean of all timed iterations):\n");
    print!("| input |");
    for (_, label) in SIZES {
        print!(" {label} |");
    }
    println!(" 10 MB / 10 KB |");
    println!("| --- |{}", " ---: |".repeat(SIZES.len() + 1));
    for (ci, name) in names.iter().enumerate() {
        print!("| {name} |");
        let mut per_byte = Vec::new();
        for si in 0..SIZES.len() {
            match totals.get(&(ci, si)) {
                Some(&(time, iters, bytes)) if iters > 0 => {
                    let ns = time.as_nanos() as f64 / iters as f64 / bytes as f64;
                    per_byte.push(ns);
                    print!(" {ns:.2} |");
                }
                _ => print!(" – |"),
            }
        }
        match (per_byte.first(), per_byte.last()) {
            (Some(first), Some(last)) if per_byte.len() == SIZES.len() => {
                println!(" {:.2} |", last / first)
            }
            _ => println!(" – |"),
        }
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench(&mut criterion);
    criterion.final_summary();
    print_table();
}
