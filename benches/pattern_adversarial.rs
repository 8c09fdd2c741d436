//! Time per input byte of URL patterns with hostile regexp groups, on pathnames of
//! 1 KiB, 64 KiB and 1 MiB: nested quantifiers, stacked `.*`, alternations of equal
//! branches, large counted repetitions, and a lookahead (the bounded backtracking path,
//! which gives up with an error). A backtracking matcher takes exponential or
//! polynomial time on the first four; the own Pike VM's time per byte stays flat.
//!
//! ```sh
//! cargo bench --bench pattern_adversarial
//! ```
//!
//! Prints a Markdown table (ns per input byte, median of the runs of `exec`, which
//! records the groups): the table of docs/robustness.md. `tests/limits.rs` runs the
//! same cases to completion in CI. A second table times the `regex` crate (the engine a
//! translation to `regex-automata` would use) on the same regular expressions with
//! `captures`, for the design comparison of docs/architecture.md.

use rapidurl::pattern::{PatternErrorKind, UrlPattern};
use std::hint::black_box;
use std::time::Instant;

/// (name, pattern, unit of the pathname)
const CASES: &[(&str, &str, &str)] = &[
    ("nested quantifiers", "https://h/:a((?:a+)+)b", "a"),
    ("stacked .*", "https://h/:a(.*.*.*.*)b", "a"),
    (
        "alternation of equal branches",
        "https://h/:a((?:a|a)*)b",
        "a",
    ),
    (
        "alternation, nested, lazy",
        "https://h/:a((?:a|a|aa)*?(?:a|a)*)b",
        "a",
    ),
    (
        "large counted repetition",
        "https://h/:a((?:a{1,10}){20})b",
        "a",
    ),
    (
        "word boundaries in a loop",
        "https://h/:a((?:\\b\\w*\\b)*)!",
        "ab ",
    ),
    (
        "lookahead (bounded)",
        "https://h/:a((?=(?:a|a)*b)\\w*)",
        "a",
    ),
];

const SIZES: [(usize, &str); 3] = [(1 << 10, "1 KiB"), (64 << 10, "64 KiB"), (1 << 20, "1 MiB")];

fn main() {
    println!(
        "| pattern (pathname) | {} |",
        SIZES.map(|s| s.1).join(" | ")
    );
    println!("|---|{}", "---:|".repeat(SIZES.len()));
    for (name, pattern, unit) in CASES {
        let p = UrlPattern::parse(pattern, None).expect("compiles");
        let mut row = format!("| {name}: `{}` |", p.pathname());
        for (size, _) in SIZES {
            let url = format!("https://h/{}", unit.repeat(size / unit.len()));
            let runs = if size >= 1 << 20 { 3 } else { 7 };
            let mut times: Vec<f64> = (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    match black_box(&p).exec_str(black_box(&url), None) {
                        Ok(m) => assert!(m.is_none(), "{name}: no input of the bench matches"),
                        Err(e) => assert_eq!(e.kind(), &PatternErrorKind::MatchLimit),
                    }
                    t.elapsed().as_nanos() as f64 / size as f64
                })
                .collect();
            times.sort_by(f64::total_cmp);
            row.push_str(&format!(" {:.1} |", times[times.len() / 2]));
        }
        println!("{row}");
    }
    println!();
    println!(
        "| `regex` crate, same regexp | {} |",
        SIZES.map(|s| s.1).join(" | ")
    );
    println!("|---|{}", "---:|".repeat(SIZES.len()));
    for (name, pattern, unit) in &CASES[..CASES.len() - 1] {
        let p = UrlPattern::parse(pattern, None).expect("compiles");
        // The pathname's regexp group, anchored, as `regex` syntax (the same here).
        let group = &p.pathname()[p.pathname().find('(').expect("a group")..];
        let group =
            &group[..group.len() - usize::from(group.ends_with('b') || group.ends_with('!'))];
        let last = &p.pathname()[p.pathname().len() - 1..];
        let re = regex::Regex::new(&format!("^/{group}{last}$")).expect("regex syntax");
        let mut row = format!("| {name}: `{}` |", re.as_str());
        for (size, _) in SIZES {
            let path = format!("/{}", unit.repeat(size / unit.len()));
            let runs = if size >= 1 << 20 { 3 } else { 7 };
            let mut times: Vec<f64> = (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    assert!(black_box(&re).captures(black_box(&path)).is_none());
                    t.elapsed().as_nanos() as f64 / size as f64
                })
                .collect();
            times.sort_by(f64::total_cmp);
            row.push_str(&format!(" {:.1} |", times[times.len() / 2]));
        }
        println!("{row}");
    }
}
