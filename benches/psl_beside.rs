//! The cost of the registrable domain beside `parse_ref`, measured so that a busy machine
//! disturbs it little: the variants alternate within each of 15 passes over every kasztp
//! URL, and each figure is the fastest pass (criterion's groups run one after another, so
//! a neighbour's compile can land on one variant only). Also the lookups alone, in a hot
//! loop over the hosts, and the time to read a list.
//!
//! ```sh
//! cargo bench --bench psl_beside
//! ```

use psl::Psl;
use rapidurl::psl::SuffixList;
use std::hint::black_box;
use std::time::Instant;

mod common;
#[path = "../tests/common/mod.rs"]
mod test_common;

const PASSES: usize = 15;

/// The fastest of `PASSES` runs of `f`, in nanoseconds per item.
fn fastest(items: usize, mut f: impl FnMut() -> usize) -> f64 {
    (0..PASSES)
        .map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed().as_secs_f64() * 1e9 / items as f64
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let path = common::shared_corpora_dir().join("kasztp.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set RAPIDURL_CORPORA_DIR)", path.display()));
    let lines: Vec<&str> = text.lines().collect();
    let mut arena = rapidurl::bumpalo::Bump::new();
    let mut best = [f64::MAX; 3];
    for _ in 0..PASSES {
        for (v, best) in best.iter_mut().enumerate() {
            arena.reset();
            let t = Instant::now();
            let mut n = 0usize;
            for l in &lines {
                if let Ok(u) = rapidurl::parse_ref(l, &arena) {
                    n += match v {
                        0 => u.hostname().len(),
                        1 => u.registrable_domain().map_or(0, str::len),
                        _ => psl::List
                            .domain(u.hostname().as_bytes())
                            .map_or(0, |d| d.as_bytes().len()),
                    };
                }
            }
            black_box(n);
            *best = best.min(t.elapsed().as_secs_f64() * 1e9 / lines.len() as f64);
        }
    }
    let pct = |x: f64| (x / best[0] - 1.0) * 100.0;
    println!("kasztp, ns per URL, fastest of {PASSES} alternating passes:");
    println!("  parse_ref                          {:6.1}", best[0]);
    println!(
        "  parse_ref + registrable_domain()   {:6.1}  (+{:.0}%)",
        best[1],
        pct(best[1])
    );
    println!(
        "  parse_ref + psl crate on hostname  {:6.1}  (+{:.0}%)",
        best[2],
        pct(best[2])
    );

    let hosts: Vec<String> = lines
        .iter()
        .filter_map(|l| rapidurl::Url::parse(l).ok())
        .filter(|u| u.host_kind() == rapidurl::HostKind::Domain)
        .map(|u| u.hostname().to_owned())
        .collect();
    let dat = test_common::registry_crate_dir("publicsuffix")
        .expect("the publicsuffix crate in the cargo registry")
        .join("tests/public_suffix_list.dat");
    let dat = std::fs::read_to_string(&dat).expect("the shipped list");
    let t = Instant::now();
    let loaded = SuffixList::parse(&dat).expect("a valid list");
    let parse_ms = t.elapsed().as_secs_f64() * 1e3;
    let lookups = |list: &SuffixList| {
        hosts
            .iter()
            .filter_map(|h| list.registrable_domain(h))
            .map(str::len)
            .sum::<usize>()
    };
    let builtin = fastest(hosts.len(), || lookups(SuffixList::builtin()));
    let matcher = fastest(hosts.len(), || lookups(SuffixList::psl_crate()));
    let direct = fastest(hosts.len(), || {
        hosts
            .iter()
            .filter_map(|h| psl::List.domain(h.as_bytes()))
            .map(|d| d.as_bytes().len())
            .sum()
    });
    let loaded_ns = fastest(hosts.len(), || lookups(&loaded));
    println!(
        "registrable domain alone, ns per host ({} hosts):",
        hosts.len()
    );
    println!(
        "  built-in SuffixList ({})     {builtin:6.1}",
        match SuffixList::builtin_table_version() {
            Some(_) => "table",
            None => "matcher: no table was built",
        }
    );
    println!("  SuffixList::psl_crate (matcher)  {matcher:6.1}");
    println!("  psl crate directly               {direct:6.1}");
    println!("  loaded SuffixList (table)        {loaded_ns:6.1}");
    println!("SuffixList::parse of the publicsuffix crate's copy: {parse_ms:.1} ms (once)");
}
