//! A route table over a log: `PatternSet` against the same 1,000 patterns tested one by
//! one with `UrlPattern::test_url`, and each test beside Deno's `urlpattern` crate, in
//! one run over the kasztp corpus (URLs parsed beforehand; only matching is timed).
//!
//! The routes are generated from the corpus itself, so that URLs do hit them: the 40
//! most frequent hosts, each with routes under its most frequent first path segments
//! (parameters, optional segments, wildcards, suffixes, a few regexp groups), plus host
//! patterns (`https://*.<domain>/*`, `http{s}?://<host>/*`) and a few catch-alls. Each
//! figure is the fastest of several passes (the machine is shared).
//!
//! ```sh
//! cargo bench --bench pattern
//! ```

use rapidurl::pattern::{PatternSet, UrlPattern};
use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

use rapidurl_testkit::data as common;

const ROUTES: usize = 1_000;

/// The fastest of `passes` runs of `f`, in nanoseconds per item.
fn fastest(passes: usize, items: usize, mut f: impl FnMut() -> usize) -> f64 {
    (0..passes)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64() * 1e9 / items as f64
        })
        .fold(f64::MAX, f64::min)
}

/// Values sorted by how often they occur, most frequent first.
fn by_frequency<'a>(items: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for i in items {
        *counts.entry(i).or_default() += 1;
    }
    let mut v: Vec<(&str, usize)> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    v.into_iter().map(|(k, _)| k).collect()
}

fn is_plain(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// 1,000 route patterns over the corpus's hosts and paths.
fn generate_routes(urls: &[rapidurl::UrlRef<'_>]) -> Vec<String> {
    let hosts = by_frequency(urls.iter().map(|u| u.hostname()));
    let mut routes = Vec::new();
    let shapes = [
        "/{s}/:id",
        "/{s}/:id/:action?",
        "/{s}/*",
        "/{s}{/:page}?",
        "/{s}/:slug.html",
        "/{s}/:year(\\d+)/:rest*",
        "/{s}/:a/:b",
        "/{s}/:name.:ext",
        "/{s}",
        "/{s}/",
    ];
    'outer: for (hi, host) in hosts.iter().take(40).enumerate() {
        if !is_plain(host) {
            continue;
        }
        let segments = by_frequency(
            urls.iter()
                .filter(|u| u.hostname() == *host)
                .filter_map(|u| u.pathname().strip_prefix('/')?.split('/').next()),
        );
        for (si, seg) in segments.iter().filter(|s| is_plain(s)).take(4).enumerate() {
            for (k, shape) in shapes.iter().enumerate() {
                // Regexp groups on a few routes only.
                if shape.contains("\\d") && (hi + si) % 4 != 0 {
                    continue;
                }
                let scheme = if (hi + k) % 5 == 0 {
                    "http{s}?"
                } else {
                    "https"
                };
                routes.push(format!("{scheme}://{host}{}", shape.replace("{s}", seg)));
                if routes.len() >= ROUTES - 60 {
                    break 'outer;
                }
            }
        }
        let domain = host.split_once('.').map_or(*host, |(_, d)| d);
        if domain.contains('.') {
            routes.push(format!("https://*.{domain}/*"));
        }
        routes.push(format!("http{{s}}?://{host}/*"));
    }
    // Generic routes for the rest: paths on any host of a made-up domain family.
    let mut n = 0;
    while routes.len() < ROUTES - 4 {
        routes.push(format!("https://app{n}.example.net/v:version/items/:id"));
        n += 1;
    }
    routes.push("*://*/:file.pdf".to_owned());
    routes.push("https://*/wp-content/*".to_owned());
    routes.push("*://*/robots.txt".to_owned());
    routes.push("https://*/*.php".to_owned());
    routes.truncate(ROUTES);
    routes
}

fn main() {
    let text = std::fs::read_to_string(common::corpora_dir().join("kasztp.txt"))
        .expect("kasztp.txt (set RAPIDURL_CORPORA_DIR)");
    let arena = rapidurl::bumpalo::Bump::new();
    let urls: Vec<rapidurl::UrlRef<'_>> = text
        .lines()
        .filter_map(|l| rapidurl::parse_ref(l.trim_start_matches('\u{feff}'), &arena).ok())
        .collect();
    let routes = generate_routes(&urls);
    let patterns: Vec<UrlPattern> = routes
        .iter()
        .map(|r| UrlPattern::parse(r, None).unwrap_or_else(|e| panic!("{r}: {e}")))
        .collect();
    let mut set = PatternSet::new();
    for r in &routes {
        set.add(None, r).expect("route compiles");
    }
    let regexp_routes = patterns.iter().filter(|p| p.has_regexp_groups()).count();

    // `RAPIDURL_PATTERN_PROFILE=N`: one pass of a set of the first N routes over the
    // corpus and nothing else, to run under `valgrind --tool=callgrind`.
    if let Some(n) = std::env::var("RAPIDURL_PATTERN_PROFILE")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
    {
        let mut small = PatternSet::new();
        for r in &routes[..n.min(routes.len())] {
            small.add(None, r).expect("route compiles");
        }
        let hits = urls.iter().filter_map(|u| small.first(u).unwrap()).count();
        println!("{n} routes: {hits} URLs hit a route");
        return;
    }

    // The same answers both ways.
    let mut hits = 0;
    for u in &urls {
        let one_by_one = patterns.iter().position(|p| p.test_url(u).unwrap());
        assert_eq!(set.first(u).unwrap(), one_by_one);
        hits += usize::from(one_by_one.is_some());
    }

    let set_ns = fastest(9, urls.len(), || {
        urls.iter().filter_map(|u| set.first(u).unwrap()).count()
    });
    // Smaller tables, the first 10 and 100 routes of the same list (the set's cost as the
    // table grows).
    let smaller: Vec<(usize, f64)> = [10, 100]
        .iter()
        .map(|&n| {
            let mut small = PatternSet::new();
            for r in &routes[..n] {
                small.add(None, r).expect("route compiles");
            }
            let ns = fastest(9, urls.len(), || {
                urls.iter().filter_map(|u| small.first(u).unwrap()).count()
            });
            (n, ns)
        })
        .collect();
    // One by one: the first match, as a router would (most URLs test all 1,000).
    let mut tests = 0usize;
    for u in &urls {
        tests += patterns
            .iter()
            .position(|p| p.test_url(u).unwrap())
            .map_or(patterns.len(), |i| i + 1);
    }
    let one_ns = fastest(3, urls.len(), || {
        urls.iter()
            .filter_map(|u| patterns.iter().position(|p| p.test_url(u).unwrap()))
            .count()
    });

    // Per test, beside the urlpattern crate: a sample of URLs against every pattern.
    let sample: Vec<&rapidurl::UrlRef<'_>> = urls.iter().step_by(urls.len() / 300).collect();
    let deno: Vec<urlpattern::UrlPattern> = routes
        .iter()
        .filter_map(|r| {
            let init =
                urlpattern::UrlPatternInit::parse_constructor_string::<regex::Regex>(r, None)
                    .ok()?;
            <urlpattern::UrlPattern>::parse(init, Default::default()).ok()
        })
        .collect();
    let deno_urls: Vec<url::Url> = sample
        .iter()
        .map(|u| url::Url::parse(u.href()).expect("url parses what rapidurl parsed"))
        .collect();
    let pairs = sample.len() * patterns.len();
    let own_test_ns = fastest(5, pairs, || {
        sample
            .iter()
            .map(|u| patterns.iter().filter(|p| p.test_url(u).unwrap()).count())
            .sum()
    });
    let deno_pairs = deno_urls.len() * deno.len();
    let deno_test_ns = fastest(3, deno_pairs, || {
        deno_urls
            .iter()
            .map(|u| {
                deno.iter()
                    .filter(|p| {
                        p.test(urlpattern::UrlPatternMatchInput::Url(u.clone()))
                            .unwrap_or(false)
                    })
                    .count()
            })
            .sum()
    });
    let clone_ns = fastest(5, deno_pairs, || {
        deno_urls
            .iter()
            .map(|u| {
                (0..deno.len())
                    .map(|_| black_box(u.clone()).as_str().len())
                    .sum::<usize>()
            })
            .sum()
    });

    println!(
        "{} URLs (the kasztp lines that parse), {} routes ({} with regexp groups), {} URLs hit a route; \
         one by one tests {:.0} patterns per URL on average",
        urls.len(),
        routes.len(),
        regexp_routes,
        hits,
        tests as f64 / urls.len() as f64
    );
    println!("| what | ns per URL | ratio |");
    println!("| --- | ---: | ---: |");
    println!("| PatternSet::first, 1,000 routes | {set_ns:.0} | 1 |");
    for (n, ns) in &smaller {
        println!(
            "| PatternSet::first, the first {n} routes | {ns:.0} | {:.2}x |",
            ns / set_ns
        );
    }
    println!(
        "| UrlPattern::test_url one by one, 1,000 routes (first match) | {one_ns:.0} | {:.0}x |",
        one_ns / set_ns
    );
    println!();
    println!(
        "per test ({} URLs x {} patterns; urlpattern: {} patterns it accepts):",
        sample.len(),
        patterns.len(),
        deno.len()
    );
    println!("| what | ns per test | ratio |");
    println!("| --- | ---: | ---: |");
    println!("| rapidurl UrlPattern::test_url | {own_test_ns:.1} | 1 |");
    println!(
        "| urlpattern 0.6 UrlPattern::test (url::Url input, cloned) | {deno_test_ns:.1} | {:.1}x |",
        deno_test_ns / own_test_ns
    );
    println!(
        "| of which cloning the url::Url | {clone_ns:.1} | {:.1}x |",
        clone_ns / own_test_ns
    );
}
