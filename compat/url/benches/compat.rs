//! The drop-in (`url`, this crate) against rust-url 2.5.8 (`rust_url`), in one run on each
//! corpus: `Url::parse` of every line, `join` of every line against a base parsed once,
//! iterating `query_pairs()` of parsed URLs, and `set_query(Some(..))` on a clone.
//!
//! Corpora: every `*.txt` of `RAPIDURL_CORPORA_DIR`, else `../shared/corpora`, then the
//! project's `corpora/sample.txt`; and `corpora/relative.tsv` (base, TAB, link) for `join`
//! of relative links. Throughput is in elements: lines for `parse` and `join`, URLs (the
//! lines both parse) for `query_pairs` and `set_query`.
//!
//! ```sh
//! cargo bench --manifest-path compat/url/Cargo.toml --bench compat
//! ```
//!
//! After criterion's report it prints a Markdown table per corpus: the median per element
//! of each side and the ratio rust-url ÷ drop-in (above 1: the drop-in is faster), read
//! from criterion's `estimates.json` of this run.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput};
use rapidurl_testkit::data;

/// The base of `join` when no line of a corpus parses on both sides.
const FIXED_BASE: &str = "https://example.com/a/b/c?q#f";
/// The query `set_query` writes: a space to percent-encode, as form data often has.
const NEW_QUERY: &str = "page=2&sort=name desc";

const OURS: &str = "drop-in";
const THEIRS: &str = "rust-url";

/// The operations of a corpus's group, each with its target ratio (rust-url ÷ drop-in).
const OPERATIONS: &[(&str, f64)] = &[
    ("parse", 3.0),
    ("join", 2.0),
    ("query_pairs", 1.0),
    ("set_query", 1.0),
];

struct Corpus {
    name: String,
    lines: Vec<String>,
}

fn corpora() -> Vec<Corpus> {
    data::corpus_paths(true)
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("corpus is UTF-8");
            Corpus {
                name: path.file_stem().unwrap().to_string_lossy().into_owned(),
                lines: text.lines().map(str::to_owned).collect(),
            }
        })
        .collect()
}

fn group_name(corpus: &str) -> String {
    format!("url_compat/{corpus}")
}

fn configure(g: &mut BenchmarkGroup<'_, WallTime>) {
    g.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);
}

/// Every line of `lines` through `Url::parse`; the length of each serialization summed.
macro_rules! parse_all {
    ($krate:ident, $lines:expr) => {{
        let mut n = 0usize;
        for l in $lines {
            if let Ok(u) = $krate::Url::parse(l) {
                n += u.as_str().len();
            }
        }
        n
    }};
}

/// Every line of `lines` joined to `base`.
macro_rules! join_all {
    ($base:expr, $lines:expr) => {{
        let mut n = 0usize;
        for l in $lines {
            if let Ok(u) = $base.join(l) {
                n += u.as_str().len();
            }
        }
        n
    }};
}

/// The pairs of every URL's query: how many, and their decoded lengths summed.
macro_rules! query_pairs_all {
    ($urls:expr) => {{
        let (mut pairs, mut len) = (0usize, 0usize);
        for u in $urls {
            for (k, v) in u.query_pairs() {
                pairs += 1;
                len += k.len() + v.len();
            }
        }
        (pairs, len)
    }};
}

/// A clone of every URL with its query replaced.
macro_rules! set_query_all {
    ($urls:expr) => {{
        let mut n = 0usize;
        for u in $urls {
            let mut u = u.clone();
            u.set_query(Some(NEW_QUERY));
            n += u.as_str().len();
        }
        n
    }};
}

fn bench_corpus(c: &mut Criterion, corpus: &Corpus) {
    let lines = &corpus.lines;
    // The base: the corpus's first line that both parse.
    let base = lines
        .iter()
        .find(|l| url::Url::parse(l).is_ok() && rust_url::Url::parse(l).is_ok())
        .map_or(FIXED_BASE, String::as_str);
    let our_base = url::Url::parse(base).unwrap();
    let their_base = rust_url::Url::parse(base).unwrap();
    // The URLs of `query_pairs` and `set_query`: the lines both parse.
    let (ours, theirs): (Vec<url::Url>, Vec<rust_url::Url>) = lines
        .iter()
        .filter_map(|l| Some((url::Url::parse(l).ok()?, rust_url::Url::parse(l).ok()?)))
        .unzip();
    let differ = ours
        .iter()
        .zip(&theirs)
        .filter(|(a, b)| a.as_str() != b.as_str())
        .count();
    eprintln!(
        "{}: {} lines, {} parse on both sides ({} serialized differently), join base {base}",
        corpus.name,
        lines.len(),
        ours.len(),
        differ
    );
    if query_pairs_all!(&ours) != query_pairs_all!(&theirs) {
        eprintln!(
            "{}: the query pairs differ between the two sides",
            corpus.name
        );
    }

    let mut g = c.benchmark_group(group_name(&corpus.name));
    configure(&mut g);
    g.throughput(Throughput::Elements(lines.len() as u64));
    g.bench_function(BenchmarkId::new("parse", OURS), |b| {
        b.iter(|| black_box(parse_all!(url, lines)))
    });
    g.bench_function(BenchmarkId::new("parse", THEIRS), |b| {
        b.iter(|| black_box(parse_all!(rust_url, lines)))
    });
    g.bench_function(BenchmarkId::new("join", OURS), |b| {
        b.iter(|| black_box(join_all!(our_base, lines)))
    });
    g.bench_function(BenchmarkId::new("join", THEIRS), |b| {
        b.iter(|| black_box(join_all!(their_base, lines)))
    });
    g.throughput(Throughput::Elements(ours.len() as u64));
    g.bench_function(BenchmarkId::new("query_pairs", OURS), |b| {
        b.iter(|| black_box(query_pairs_all!(&ours)))
    });
    g.bench_function(BenchmarkId::new("query_pairs", THEIRS), |b| {
        b.iter(|| black_box(query_pairs_all!(&theirs)))
    });
    g.bench_function(BenchmarkId::new("set_query", OURS), |b| {
        b.iter(|| black_box(set_query_all!(&ours)))
    });
    g.bench_function(BenchmarkId::new("set_query", THEIRS), |b| {
        b.iter(|| black_box(set_query_all!(&theirs)))
    });
    g.finish();
}

/// `join` of relative links against their page, each base parsed once beforehand
/// (`corpora/relative.tsv`; pairs whose base does not parse on both sides are left out).
fn bench_relative(c: &mut Criterion) -> Option<usize> {
    let path = data::workspace_root().join("corpora/relative.tsv");
    let text = std::fs::read_to_string(&path).ok()?;
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    let mut links = Vec::new();
    for (base, link) in text.lines().filter_map(|l| l.split_once('\t')) {
        if let (Ok(a), Ok(b)) = (url::Url::parse(base), rust_url::Url::parse(base)) {
            ours.push(a);
            theirs.push(b);
            links.push(link.to_owned());
        }
    }
    let mut g = c.benchmark_group(group_name("relative"));
    configure(&mut g);
    g.throughput(Throughput::Elements(links.len() as u64));
    g.bench_function(BenchmarkId::new("join", OURS), |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (base, link) in ours.iter().zip(&links) {
                if let Ok(u) = base.join(link) {
                    n += u.as_str().len();
                }
            }
            black_box(n)
        })
    });
    g.bench_function(BenchmarkId::new("join", THEIRS), |b| {
        b.iter(|| {
            let mut n = 0usize;
            for (base, link) in theirs.iter().zip(&links) {
                if let Ok(u) = base.join(link) {
                    n += u.as_str().len();
                }
            }
            black_box(n)
        })
    });
    g.finish();
    Some(links.len())
}

/// Where criterion writes its results: `CRITERION_HOME`, else `criterion` in
/// `CARGO_TARGET_DIR` or the workspace's `target`.
fn criterion_dir() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| data::workspace_root().join("target"), PathBuf::from)
        .join("criterion")
}

/// The median time of one iteration, in ns, of a benchmark that ran in this process.
fn median_ns(dir: &Path, since: SystemTime) -> Option<f64> {
    let file = dir.join("new/estimates.json");
    if std::fs::metadata(&file).ok()?.modified().ok()? < since {
        return None;
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}

/// One row of the summary: the operation, the two medians per element and their ratio.
fn summary_row(
    out: &mut String,
    root: &Path,
    since: SystemTime,
    (group, op, target): (&str, &str, Option<f64>),
    elements: usize,
) {
    let dir = root.join(group.replace('/', "_")).join(op);
    let (Some(ours), Some(theirs)) = (
        median_ns(&dir.join(OURS), since),
        median_ns(&dir.join(THEIRS), since),
    ) else {
        return;
    };
    let per = |ns: f64| ns / elements as f64;
    let ratio = theirs / ours;
    let verdict = match target {
        Some(t) if ratio >= t => format!("≥ {t}×: met"),
        Some(t) => format!("≥ {t}×: **missed**"),
        None => String::from("—"),
    };
    let _ = writeln!(
        out,
        "| `{op}` | {elements} | {:.1} | {:.1} | {ratio:.2}× | {verdict} |",
        per(ours),
        per(theirs),
    );
}

const HEADER: &str = "| operation | elements | drop-in ns/element | rust-url ns/element | rust-url ÷ drop-in | target |\n| --- | ---: | ---: | ---: | ---: | --- |\n";

fn main() {
    let since = SystemTime::now();
    let mut c = Criterion::default().configure_from_args();
    let corpora = corpora();
    for corpus in &corpora {
        bench_corpus(&mut c, corpus);
    }
    let relative = bench_relative(&mut c);
    c.final_summary();

    // The summary: medians of this run only (a filtered run prints the benchmarks it ran).
    let root = criterion_dir();
    let mut out = String::new();
    for corpus in &corpora {
        let group = group_name(&corpus.name);
        let parsed = corpus
            .lines
            .iter()
            .filter(|l| url::Url::parse(l).is_ok() && rust_url::Url::parse(l).is_ok())
            .count();
        let mut rows = String::new();
        for &(op, target) in OPERATIONS {
            let elements = match op {
                "parse" | "join" => corpus.lines.len(),
                _ => parsed,
            };
            summary_row(
                &mut rows,
                &root,
                since,
                (&group, op, Some(target)),
                elements,
            );
        }
        if !rows.is_empty() {
            let _ = write!(
                out,
                "\n{} ({} lines):\n\n{HEADER}{rows}",
                corpus.name,
                corpus.lines.len()
            );
        }
    }
    if let Some(n) = relative {
        let mut rows = String::new();
        summary_row(
            &mut rows,
            &root,
            since,
            (&group_name("relative"), "join", Some(2.0)),
            n,
        );
        if !rows.is_empty() {
            let _ = write!(out, "\nrelative.tsv, links against their page, each base parsed once ({n} pairs):\n\n{HEADER}{rows}");
        }
    }
    if out.is_empty() {
        println!("(no medians of this run found under {})", root.display());
    } else {
        println!(
            "\nMedians of this run (criterion, {}):\n{out}",
            root.display()
        );
    }
}
