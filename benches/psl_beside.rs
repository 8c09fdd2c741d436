//! The cost of the registrable domain beside `parse_ref`, measured so that a busy machine
//! disturbs it little: the variants alternate within each of 15 passes over every kasztp
//! URL, and each figure is the fastest pass (criterion's groups run one after another, so
//! a neighbour's compile can land on one variant only). Beside the registrable domain and
//! the `psl` crate, `top_level_domain()` (finding the last label, no lookup) shows the
//! floor any lookup starts from. Then the same work over URLs parsed beforehand (what the
//! getter costs by itself, with no parse around it); the lookups alone, in a hot loop
//! over the hosts; and the time to read a list.
//!
//! ```sh
//! cargo bench --bench psl_beside
//! ```

use psl::Psl;
use rapidurl::psl::SuffixList;
use std::hint::black_box;
use std::time::Instant;

mod psl_data;

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
    let text = psl_data::kasztp_text();
    let lines: Vec<&str> = text.lines().collect();
    let mut arena = rapidurl::bumpalo::Bump::new();
    let mut best = [f64::MAX; psl_data::Beside::ALL.len()];
    for _ in 0..PASSES {
        for (what, best) in psl_data::Beside::ALL.into_iter().zip(&mut best) {
            let t = Instant::now();
            black_box(psl_data::parse_pass(&lines, &mut arena, what));
            *best = best.min(t.elapsed().as_secs_f64() * 1e9 / lines.len() as f64);
        }
    }
    let pct = |x: f64| (x / best[0] - 1.0) * 100.0;
    println!("kasztp, ns per URL, fastest of {PASSES} alternating passes:");
    for (what, best) in psl_data::Beside::ALL.into_iter().zip(best) {
        println!("  {:34} {best:6.1}  ({:+.0}%)", what.name(), pct(best));
    }

    // The same work over URLs parsed beforehand: what each adds by itself, with no parse
    // around it to share the core with (its figure less the hostname pass's, against
    // `parse_ref`'s time above).
    arena.reset();
    let urls: Vec<rapidurl::UrlRef<'_>> = lines
        .iter()
        .filter_map(|l| rapidurl::parse_ref(l, &arena).ok())
        .collect();
    let mut alone = [f64::MAX; psl_data::Beside::ALL.len()];
    for _ in 0..PASSES {
        for (what, alone) in psl_data::Beside::ALL.into_iter().zip(&mut alone) {
            let t = Instant::now();
            black_box(psl_data::parsed_pass(&urls, what));
            *alone = alone.min(t.elapsed().as_secs_f64() * 1e9 / lines.len() as f64);
        }
    }
    println!(
        "the same over URLs parsed beforehand, ns per URL (the hostname pass {:.1}; in \
         brackets, the rest, against parse_ref):",
        alone[0]
    );
    for (what, x) in psl_data::Beside::ALL.into_iter().zip(alone).skip(1) {
        let name = what.name().trim_start_matches("parse_ref + ");
        let pct = (x - alone[0]) / best[0] * 100.0;
        println!("  {name:34} {x:6.1}  ({pct:+.0}%)");
    }

    let hosts = psl_data::domain_hosts(&lines);
    let dat = psl_data::publicsuffix_dat();
    let t = Instant::now();
    let loaded = SuffixList::parse(&dat).expect("a valid list");
    let parse_ms = t.elapsed().as_secs_f64() * 1e3;
    let lookups = |list: &SuffixList| {
        psl_data::total_len(&hosts, |h| list.registrable_domain(h).map(str::len))
    };
    let builtin = fastest(hosts.len(), || lookups(SuffixList::builtin()));
    let direct = fastest(hosts.len(), || {
        psl_data::total_len(&hosts, |h| {
            psl::List.domain(h.as_bytes()).map(|d| d.as_bytes().len())
        })
    });
    let loaded_ns = fastest(hosts.len(), || lookups(&loaded));
    println!(
        "registrable domain alone, ns per host ({} hosts):",
        hosts.len()
    );
    println!(
        "  built-in SuffixList (psl {})  {builtin:6.1}",
        rapidurl::psl::BUILTIN_LIST_VERSION
    );
    println!("  psl crate directly               {direct:6.1}");
    println!("  loaded SuffixList (table)        {loaded_ns:6.1}");
    println!("SuffixList::parse of the publicsuffix crate's copy: {parse_ms:.1} ms (once)");
}
