//! Instructions per URL (iai-callgrind: callgrind counts instructions, which do not depend
//! on what else the machine is doing): each benchmark parses a fixed sample of 1,000 lines
//! (every k-th line) of one corpus; divide the count by 1,000.
//!
//! Needs valgrind and `iai-callgrind-runner` of the same version as the `iai-callgrind`
//! dev-dependency: `scripts/instructions.sh` installs the runner and runs this bench.

use iai_callgrind::{library_benchmark, library_benchmark_group, main};
use std::hint::black_box;
use std::path::PathBuf;

/// Lines in each sample.
const SAMPLE: usize = 1000;

/// Every k-th line of a corpus, `SAMPLE` of them (the whole corpus if it is shorter).
/// `sample_rewritten` is the messy sample's lines that are not their own serialization
/// (ada's `href` differs, or ada rejects them): the lines no fast path can borrow.
///
/// Also warms every parser up (this setup is not counted): each benchmark runs in a fresh
/// process, and one-time initialization (ada builds its IDNA tables on first use, about
/// 25 million instructions) would otherwise be charged to the first URL.
fn load_sample(corpus: &str) -> Vec<String> {
    for warm in [
        "https://bücher.example/ä?q#f",
        "http://[::1]:8/%41",
        "file:///C:/x",
    ] {
        black_box(rapidurl::Url::parse(warm).ok());
        black_box(ada_url::Url::parse(warm, None).ok());
        black_box(ada_url::Url::can_parse(warm, None));
        black_box(url::Url::parse(warm).ok());
    }
    let (corpus, rewritten_only) = match corpus {
        "sample_rewritten" => ("sample", true),
        other => (other, false),
    };
    let shared = rapidurl_testkit::data::corpora_dir_unchecked();
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora");
    let path = [
        shared.join(format!("{corpus}.txt")),
        own.join(format!("{corpus}.txt")),
    ]
    .into_iter()
    .find(|p| p.is_file())
    .unwrap_or_else(|| panic!("corpus {corpus} not found"));
    let text = std::fs::read_to_string(path).expect("UTF-8 corpus");
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            !rewritten_only || ada_url::Url::parse(*l, None).map_or(true, |u| u.href() != *l)
        })
        .collect();
    let step = (lines.len() / SAMPLE).max(1);
    lines
        .iter()
        .step_by(step)
        .take(SAMPLE)
        .map(|l| (*l).to_owned())
        .collect()
}

macro_rules! corpus_benches {
    ($name:ident, |$lines:ident| $body:expr) => {
        #[library_benchmark]
        #[benches::corpus(
                            args = ["kasztp", "userbait", "node_files", "isaacs_files", "sample", "sample_rewritten"],
                            setup = load_sample
                        )]
        fn $name($lines: Vec<String>) -> usize {
            let n = black_box($body);
            // Freeing the 1,000 input strings is not parsing (about 100 instructions per
            // line in glibc's free): leave it out of the count.
            std::mem::forget($lines);
            n
        }
    };
}

corpus_benches!(rapidurl_parse_ref, |lines| {
    let arena = rapidurl::bumpalo::Bump::new();
    lines
        .iter()
        .filter_map(|l| rapidurl::parse_ref(l, &arena).ok())
        .map(|u| u.href().len())
        .sum::<usize>()
});

corpus_benches!(rapidurl_url_parse, |lines| {
    lines
        .iter()
        .filter_map(|l| rapidurl::Url::parse(l).ok())
        .map(|u| u.href().len())
        .sum::<usize>()
});

corpus_benches!(rapidurl_can_parse, |lines| {
    lines.iter().filter(|l| rapidurl::can_parse(l)).count()
});

// The state machine alone (no fast path): the code that validation-error reporting
// instruments, with its reporter compiled away.
corpus_benches!(rapidurl_state_machine, |lines| {
    lines
        .iter()
        .filter_map(|l| rapidurl::__testing::parse_slow(l).ok())
        .map(|(s, _)| s.len())
        .sum::<usize>()
});

corpus_benches!(ada_url_parse, |lines| {
    lines
        .iter()
        .filter_map(|l| ada_url::Url::parse(l.as_str(), None).ok())
        .map(|u| u.href().len())
        .sum::<usize>()
});

corpus_benches!(ada_can_parse, |lines| {
    lines
        .iter()
        .filter(|l| ada_url::Url::can_parse(l, None))
        .count()
});

corpus_benches!(url_url_parse, |lines| {
    lines
        .iter()
        .filter_map(|l| url::Url::parse(l).ok())
        .map(|u| u.as_str().len())
        .sum::<usize>()
});

/// Every k-th non-empty query string (after the first `?`, up to `#`) of the five corpora
/// together, `SAMPLE` of them; warms both search-params parsers up.
fn load_queries(_: ()) -> Vec<String> {
    black_box(rapidurl::SearchParams::parse("a=%C3%A9+b&c").len());
    black_box(ada_url::UrlSearchParams::parse("a=%C3%A9+b&c").map_or(0, |p| p.len()));
    let mut all = Vec::new();
    for corpus in ["kasztp", "userbait", "node_files", "isaacs_files", "sample"] {
        for line in load_sample(corpus) {
            if let Some((_, rest)) = line.split_once('?') {
                let q = rest.split('#').next().unwrap_or("");
                if !q.is_empty() {
                    all.push(q.to_owned());
                }
            }
        }
    }
    let step = (all.len() / SAMPLE).max(1);
    all.into_iter().step_by(step).take(SAMPLE).collect()
}

#[library_benchmark]
#[bench::queries(args = [()], setup = load_queries)]
fn rapidurl_search_params(queries: Vec<String>) -> usize {
    let n = black_box(
        queries
            .iter()
            .map(|q| rapidurl::SearchParams::parse(q).len())
            .sum::<usize>(),
    );
    std::mem::forget(queries);
    n
}

#[library_benchmark]
#[bench::queries(args = [()], setup = load_queries)]
fn ada_search_params(queries: Vec<String>) -> usize {
    let n = black_box(
        queries
            .iter()
            .map(|q| ada_url::UrlSearchParams::parse(q.as_str()).map_or(0, |p| p.len()))
            .sum::<usize>(),
    );
    std::mem::forget(queries);
    n
}

library_benchmark_group!(
    name = search_params;
    benchmarks = rapidurl_search_params, ada_search_params
);

// `parse_ref` alone (the hostname), then with the registrable domain, ours and the `psl`
// crate's called directly (kasztp only: the question is its cost beside `parse_ref` on
// real web URLs).
#[library_benchmark]
#[bench::kasztp(args = ["kasztp"], setup = load_sample)]
fn rapidurl_parse_ref_hostname(lines: Vec<String>) -> usize {
    let arena = rapidurl::bumpalo::Bump::new();
    black_box(
        lines
            .iter()
            .filter_map(|l| rapidurl::parse_ref(l, &arena).ok())
            .map(|u| u.hostname().len())
            .sum::<usize>(),
    )
}

#[library_benchmark]
#[bench::kasztp(args = ["kasztp"], setup = load_sample)]
fn rapidurl_parse_ref_registrable_domain(lines: Vec<String>) -> usize {
    let arena = rapidurl::bumpalo::Bump::new();
    black_box(
        lines
            .iter()
            .filter_map(|l| rapidurl::parse_ref(l, &arena).ok())
            .filter_map(|u| u.registrable_domain())
            .map(str::len)
            .sum::<usize>(),
    )
}

#[library_benchmark]
#[bench::kasztp(args = ["kasztp"], setup = load_sample)]
fn rapidurl_parse_ref_psl_crate(lines: Vec<String>) -> usize {
    use psl::Psl;
    let arena = rapidurl::bumpalo::Bump::new();
    black_box(
        lines
            .iter()
            .filter_map(|l| rapidurl::parse_ref(l, &arena).ok())
            .filter_map(|u| psl::List.domain(u.hostname().as_bytes()))
            .map(|d| d.as_bytes().len())
            .sum::<usize>(),
    )
}

library_benchmark_group!(
    name = registrable_domain;
    benchmarks = rapidurl_parse_ref_hostname, rapidurl_parse_ref_registrable_domain,
        rapidurl_parse_ref_psl_crate
);

// `parse_ref`, then the SURT key written into one reused buffer (`canon::surt_into`, as
// `Field::value_into` and `parse_column` compute it), on kasztp's sample: the key's own
// cost is the difference from `rapidurl_parse_ref` on the same sample.
#[library_benchmark]
#[bench::kasztp(args = ["kasztp"], setup = load_sample)]
fn rapidurl_parse_ref_surt(lines: Vec<String>) -> usize {
    let arena = rapidurl::bumpalo::Bump::new();
    let options = rapidurl::canon::SurtOptions::default();
    let mut key = String::new();
    let n = black_box(
        lines
            .iter()
            .filter_map(|l| rapidurl::parse_ref(l, &arena).ok())
            .map(|u| {
                key.clear();
                rapidurl::canon::surt_into(&u, &options, &mut key);
                key.len()
            })
            .sum::<usize>(),
    );
    std::mem::forget(lines);
    n
}

library_benchmark_group!(
    name = canon;
    benchmarks = rapidurl_parse_ref_surt
);

library_benchmark_group!(
    name = per_url;
    benchmarks = rapidurl_parse_ref, rapidurl_url_parse, rapidurl_can_parse,
        rapidurl_state_machine, ada_url_parse,
        ada_can_parse, url_url_parse
);

main!(
    library_benchmark_groups = per_url,
    search_params,
    registrable_domain,
    canon
);
