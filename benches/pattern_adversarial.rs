//! Time per input byte of URL patterns with hostile regexp groups, on pathnames of
//! 1 KiB, 64 KiB and 1 MiB: nested quantifiers, stacked `.*`, alternations of equal
//! branches, large counted repetitions, and a lookahead (the bounded backtracking path,
//! which gives up with an error). A backtracking matcher takes exponential or
//! polynomial time on the first four; the own Pike VM's time per byte stays flat.
//!
//! ```sh
//! cargo bench --bench pattern_adversarial
//! cargo bench --bench pattern_adversarial -- common   # the third table alone
//! ```
//!
//! Prints a Markdown table (ns per input byte, median of the runs of `exec`, which
//! records the groups): the table of docs/robustness.md. `tests/limits.rs` runs the
//! same cases to completion in CI. A second table times the `regex` crate (the engine a
//! translation to `regex-automata` would use) on the same regular expressions with
//! `captures`, for the design comparison of docs/architecture.md. A third times the
//! regexp groups routes have (`\d+`, `[^\/]+`, `.*`, alternations of words) on ordinary
//! pathnames: `UrlPattern::test_url` and `exec_url` (the own engine, the whole pattern)
//! against `regress` (the backtracking engine that ran regexp groups before, on the
//! pathname's regular expression alone, compiled once).

use rapidurl::pattern::{PatternErrorKind, UrlPattern, UrlPatternInit};
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
    // `cargo bench --bench pattern_adversarial -- common`: the common regexps' table alone.
    if std::env::args().any(|a| a == "common") {
        return common_regexps();
    }
    // First inputs that do not match (the bit-parallel NFA refuses most of them), then
    // the same followed by the last character the pattern wants: they match, and the
    // groups are recorded (the Pike VM, past the memoized backtracker's size).
    for matching in [false, true] {
        let what = if matching {
            "matching input"
        } else {
            "pattern (pathname)"
        };
        println!("| {what} | {} |", SIZES.map(|s| s.1).join(" | "));
        println!("|---|{}", "---:|".repeat(SIZES.len()));
        for (name, pattern, unit) in CASES {
            let p = UrlPattern::parse(pattern, None).expect("compiles");
            let last = &p.pathname()[p.pathname().len() - 1..];
            // The rows whose pathnames then match (the counted repetition takes at most
            // 200 `a`; `\b\w*\b` cannot cross the spaces).
            if matching && (last != "b" || name.starts_with("large")) {
                continue;
            }
            let mut row = format!("| {name}: `{}` |", p.pathname());
            for (size, _) in SIZES {
                let mut url = format!("https://h/{}", unit.repeat(size / unit.len()));
                if matching {
                    url.push_str(last);
                }
                let runs = if size >= 1 << 20 { 3 } else { 7 };
                let mut times: Vec<f64> = (0..runs)
                    .map(|_| {
                        let t = Instant::now();
                        match black_box(&p).exec_str(black_box(&url), None) {
                            Ok(m) => assert_eq!(m.is_some(), matching, "{name}"),
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
    }
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
    common_regexps();
}

/// (pattern's pathname, the Standard's regular expression for it, a pathname it matches)
const COMMON: &[(&str, &str, &str)] = &[
    ("/:id(\\d+)", "^(?:\\/(\\d+))$", "/20231127"),
    (
        "/:slug([^\\/]+)",
        "^(?:\\/([^\\/]+))$",
        "/blue-linen-shirt-42",
    ),
    (
        "/files/:rest(.*)",
        "^\\/files(?:\\/(.*))$",
        "/files/2024/05/report-final.pdf",
    ),
    (
        "/:kind(users|posts|comments)/:id(\\d+)",
        "^(?:\\/(users|posts|comments))(?:\\/(\\d+))$",
        "/comments/81723",
    ),
    (
        "/:lang([a-z]{2})/:page([\\w\\-]+)",
        "^(?:\\/([a-z]{2}))(?:\\/([\\w\\-]+))$",
        "/en/getting-started",
    ),
];

/// The common route regexps: ns per match of the own engine against `regress` on the
/// same regular expression (each compiled once), then through the whole pattern.
fn common_regexps() {
    println!();
    println!(
        "| route regexp (pathname) | own is_match | own groups | `regress` find | \
         groups / find | `test_url` | `exec_url` |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let flags = regress::Flags {
        unicode: true,
        unicode_sets: true,
        ..Default::default()
    };
    let arena = rapidurl::bumpalo::Bump::new();
    const REPS: usize = 20_000;
    for (pathname, source, path) in COMMON {
        let init = UrlPatternInit {
            pathname: Some((*pathname).to_owned()),
            ..UrlPatternInit::default()
        };
        let p = UrlPattern::new(
            rapidurl::pattern::UrlPatternInput::Init(&init),
            None,
            Default::default(),
        )
        .expect("compiles");
        let href = format!("https://example.com{path}");
        let url = rapidurl::parse_ref(&href, &arena).expect("a URL");
        let re = regress::Regex::with_flags(source, flags).expect("regress compiles");
        let own = rapidurl::pattern::__Regexp::new(source, false).expect("compiles");
        // The same groups every way.
        let want: Vec<_> = re
            .find(path)
            .expect("regress matches")
            .captures
            .iter()
            .map(|c| c.clone().map(|r| &path[r]))
            .collect();
        let groups = own.groups(path).unwrap().expect("matches");
        let got: Vec<_> = groups[1..]
            .iter()
            .map(|g| g.map(|(a, b)| &path[a..b]))
            .collect();
        assert_eq!(got, want, "{pathname}");
        let m = p.exec_url(&url).unwrap().expect("matches").pathname;
        let got: Vec<_> = m.groups.iter().map(|(_, v)| v.as_deref()).collect();
        assert_eq!(got, want, "{pathname}");
        let time = |f: &mut dyn FnMut() -> bool| {
            let mut runs: Vec<f64> = (0..9)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..REPS {
                        assert!(black_box(f()));
                    }
                    t.elapsed().as_nanos() as f64 / REPS as f64
                })
                .collect();
            runs.sort_by(f64::total_cmp);
            runs[runs.len() / 2]
        };
        let is_match = time(&mut || black_box(&own).is_match(black_box(path)).unwrap());
        let own_groups = time(&mut || black_box(&own).groups(black_box(path)).unwrap().is_some());
        let regress = time(&mut || black_box(&re).find(black_box(path)).is_some());
        let test = time(&mut || black_box(&p).test_url(black_box(&url)).unwrap());
        let exec = time(&mut || black_box(&p).exec_url(black_box(&url)).unwrap().is_some());
        println!(
            "| `{pathname}` on `{path}` | {is_match:.0} | {own_groups:.0} | {regress:.0} | \
             {:.2}x | {test:.0} | {exec:.0} |",
            own_groups / regress
        );
    }
}
