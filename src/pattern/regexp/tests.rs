//! Differential tests: the own engine against `regress` (ECMAScript semantics).

use super::Regexp;

type Caps = Option<Vec<Option<(usize, usize)>>>;

fn reference(source: &str, icase: bool, input: &str) -> Caps {
    let re = regress::Regex::with_flags(source, crate::pattern::matcher::flags(icase)).unwrap();
    let m = re.find(input)?;
    if m.range.start != 0 {
        return None;
    }
    Some(
        m.captures
            .iter()
            .map(|r| r.as_ref().map(|r| (r.start, r.end)))
            .collect(),
    )
}

fn check(source: &str, icase: bool, input: &str) {
    let ours = Regexp::new(source, icase).unwrap();
    let want = reference(source, icase, input);
    let got = ours.captures(input).unwrap();
    assert_eq!(got, want, "{source:?} (i: {icase}) on {input:?}");
    assert_eq!(
        ours.is_match(input).unwrap(),
        want.is_some(),
        "{source:?} on {input:?}"
    );
}

#[test]
fn agrees_with_regress() {
    let cases: &[(&str, &[&str])] = &[
        (r"^(\d+)$", &["123", "12a", ""]),
        (r"^([^\/]+?)$", &["abc", "a/b", ""]),
        (r"^(a*)?$", &["", "a", "aa"]),
        (r"^(|a)?(a?)$", &["", "a", "aa"]),
        (r"^((?:a|a)*)b$", &["aaab", "aaa"]),
        (r"^(.*.*.*)b$", &["aab", "ab", "b"]),
        (r"^((?:a?){2,3})(a*)$", &["", "a", "aaaa"]),
        (r"^((?:a??){0,3})(a*)$", &["", "a", "aaaa"]),
        (r"^((?:|a)+?)(a*)$", &["aa", ""]),
        (r"^((?:a*)*)(b?)$", &["aab", "b"]),
        (r"^((?:(?:)|a){0,5}?)(.*)$", &["aa"]),
        (r"^(\w+)\b(.*)$", &["ab cd", "ſK x"]),
        (r"^([\w--\d]+)$", &["ab", "a1"]),
        (r"^([[a-z]&&[^aeiou]]+)$", &["bcd", "bad"]),
        (r"^([\q{abc|d}x]+)$", &["abcdx", "ab", "dd"]),
        (r"^(\p{L}+)(\P{L}*)$", &["héllo123", "123"]),
        (r"^(?<x>a)|(b)$", &["a", "b"]),
        (r"^(?:(?<x>a)|b)*$", &["ab", "ba"]),
        (r"^(a)\1$", &["aa", "ab"]),
        (r"^(?=a)(\w+)$", &["abc", "bc"]),
        (r"^(\w+)(?<=c)$", &["abc", "ab"]),
        (r"^(?=(a))(.*)$", &["abc", "b"]),
        (r"^(.)(?<!\1)(.)$", &["ab", "aa"]),
        (r"^(?:a|ab)(c|bcd)(d*)$", &["abcd"]),
        (r"^(a{2,3}?)(a*)$", &["aaaa"]),
        (r"^(\u{1F600}|\x41|\cJ)$", &["😀", "A", "\n"]),
        (r"^[^\n]*$", &["a\u{2028}b", "ab"]),
        (r"^.$", &["\r", "é", "😀"]),
        (r"^\s+\S$", &["\u{feff} x", "  "]),
    ];
    for (source, inputs) in cases {
        for input in *inputs {
            check(source, false, input);
        }
    }
}

#[test]
fn case_folding_agrees_with_regress() {
    let cases: &[(&str, &[&str])] = &[
        (r"^(k+)$", &["kK\u{212a}", "x"]),
        (r"^(\w+)$", &["\u{17f}\u{212a}", "ß"]),
        (r"^(\W+)$", &["\u{17f}", "-"]),
        (r"^([^k]+)$", &["\u{212a}", "x"]),
        (r"^(\p{Ll}+)$", &["ABC", "1"]),
        (r"^([[a-z]--[k]]+)$", &["K", "ab"]),
        (r"^([\q{ab}]+)$", &["AbaB", "a"]),
        (r"^(é)\1$", &["éÉ", "éx"]),
        (r"^\b\w\B$", &["\u{17f}", "a"]),
    ];
    for (source, inputs) in cases {
        for input in *inputs {
            check(source, true, input);
        }
    }
}

#[test]
fn hostile_regexps_run_in_linear_time() {
    let re = Regexp::new(r"^((?:a|a)*)b$", false).unwrap();
    let input = "a".repeat(100_000);
    assert_eq!(re.captures(&input).unwrap(), None);
    let re = Regexp::new(r"^(.*.*.*.*)b$", false).unwrap();
    assert_eq!(re.captures(&input).unwrap(), None);
}

#[test]
fn program_size_is_bounded() {
    assert_eq!(
        Regexp::new(r"^(?:a{1000}){1000}$", false).unwrap_err(),
        super::CompileError::TooLarge
    );
}

#[test]
fn backtracking_stops_at_its_step_limit() {
    let re = Regexp::new(r"^((?:a|a)*)\1b$", false).unwrap();
    assert!(re.backtracks());
    assert_eq!(re.captures(&"a".repeat(40)), Err(super::StepLimit));
    assert_eq!(re.captures("aab").unwrap(), Some(vec![Some((0, 1))]));
}

#[test]
fn quantified_assertions_are_syntax_errors() {
    for source in [r"\b{2}", r"a\B*", "^?", "$+"] {
        assert!(matches!(
            Regexp::new(source, false),
            Err(super::CompileError::Syntax(_))
        ));
    }
}

#[test]
fn set_difference_under_vi_folds_both_operands() {
    let re = Regexp::new(r"^[\w--a]$", true).unwrap();
    assert!(!re.is_match("a").unwrap());
    assert!(!re.is_match("A").unwrap());
    assert!(re.is_match("B").unwrap());
}

#[test]
fn negated_property_under_vi_follows_the_standard() {
    // ECMAScript: under `vi`, `\P{Ll}` is the complement of the case-folded `\p{Ll}`,
    // so no cased letter matches (regress 0.12 applies the `u` flag's rule here and
    // matches `A`).
    let re = Regexp::new(r"^\P{Ll}$", true).unwrap();
    assert!(!re.is_match("A").unwrap());
    assert!(!re.is_match("a").unwrap());
    assert!(re.is_match("1").unwrap());
    let re = Regexp::new(r"^\P{Ll}$", false).unwrap();
    assert!(re.is_match("A").unwrap());
}

#[test]
fn class_syntax_errors_say_how_to_escape() {
    let err = crate::pattern::UrlPattern::parse("https://h/:id([^/]+)", None).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid regular expression in a regexp group: Invalid class set character: under \
         the `v` flag, `/` in a class must be escaped (write `([^\\/]+)` for `([^/]+)`) (in \
         the pathname pattern)"
    );
    assert_eq!(
        super::class_escape_hint("[a|b]"),
        Some(('|', r"[a\|b]".to_owned()))
    );
    assert_eq!(super::class_escape_hint("[ab]"), None);
}

/// Random regexps from ECMAScript tokens (`rapidurl_testkit::regexps`, the `regexp_diff`
/// fuzz target's generator) against regress on random short inputs, from a fixed seed.
#[test]
fn random_regexps_agree_with_regress() {
    use rapidurl_testkit::regexps;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut compared = 0;
    for _ in 0..10_000 {
        let len = 1 + next(10);
        let source = regexps::regexp((0..len).map(|_| next(regexps::TOKENS.len())));
        let icase = next(2) == 1;
        let Ok(reference) =
            regress::Regex::with_flags(&source, super::super::matcher::flags(icase))
        else {
            continue;
        };
        let ours = match Regexp::new(&source, icase) {
            Ok(r) => r,
            // ECMAScript refuses a quantified assertion; regress accepts it.
            Err(super::CompileError::Syntax(_)) => continue,
            Err(e) => panic!("{source:?}: {e:?}"),
        };
        if regexps::regress_differs(&source, icase) {
            continue;
        }
        for _ in 0..4 {
            let len = next(8);
            let input = regexps::input((0..len).map(|_| next(regexps::INPUT.len())));
            let want = regexps::groups_at_start(&reference, &input);
            let got = ours.groups(&input).unwrap();
            assert_eq!(got, want, "{source:?} (i: {icase}) on {input:?}");
            // `is_match` runs on the bit-parallel NFA where it can, else the Pike VM.
            assert_eq!(
                ours.is_match(&input).unwrap(),
                want.is_some(),
                "is_match of {source:?} (i: {icase}) on {input:?}"
            );
            compared += 1;
        }
    }
    assert!(compared > 5_000, "only {compared} comparisons");
}

#[test]
fn match_limit_is_an_error_in_patterns_and_sets() {
    use crate::pattern::{PatternError, PatternErrorKind, PatternSet, UrlPattern};
    let p = UrlPattern::parse(r"https://h/:a((?=(?:a|a)*b)\w*)", None).unwrap();
    assert!(p.may_hit_match_limit());
    let long = format!("https://h/{}", "a".repeat(40));
    let err = p.test_str(&long, None).unwrap_err();
    assert_eq!(err.kind(), &PatternErrorKind::MatchLimit);
    assert_eq!(
        p.exec_str(&long, None).unwrap_err().kind(),
        &PatternErrorKind::MatchLimit
    );
    assert!(p.test_str("https://h/aab", None).unwrap());
    // In a set: the URL on which the pattern runs out of steps is an error of every
    // lookup that tries that pattern, never a silent "no match"; other URLs match.
    let mut set = PatternSet::new();
    set.add(Some("plain"), r"https://h/x/:a(\w+)").unwrap();
    assert!(!set.may_hit_match_limit());
    set.add(Some("look"), r"https://h/:a((?=(?:a|a)*b)\w*)")
        .unwrap();
    assert!(set.may_hit_match_limit());
    set.add(Some("any"), "https://h/*").unwrap();
    let arena = crate::bumpalo::Bump::new();
    let url = crate::parse_ref(&long, &arena).unwrap();
    let limit = |e: PatternError| assert_eq!(e.kind(), &PatternErrorKind::MatchLimit);
    limit(set.first(&url).unwrap_err());
    limit(set.first_match(&url).unwrap_err());
    limit(set.all(&url).unwrap_err());
    limit(set.all_matches(&url).unwrap_err());
    let url = crate::parse_ref("https://h/aab", &arena).unwrap();
    assert_eq!(set.first(&url).unwrap(), Some(1));
    assert_eq!(set.all(&url).unwrap(), vec![1, 2]);
    let m = set.first_match(&url).unwrap().unwrap();
    assert_eq!((m.name, m.result.pathname.get("a")), ("look", Some("aab")));
    // A URL the plain pattern takes first never reaches the stalling one.
    let text = format!("https://h/x/{}", "a".repeat(40));
    let url = crate::parse_ref(&text, &arena).unwrap();
    assert_eq!(set.first(&url).unwrap(), Some(0));
}

#[test]
fn an_empty_class_string_matches_the_empty_string() {
    // V8: /[\q{}a]/v.exec("ccc") is [""] at 0, /[\q{a|}]+/v.exec("aab") is ["aa"];
    // regress 0.12 finds no match for the first (the fuzz target skips such sources).
    let re = Regexp::new(r"[\q{}a]", false).unwrap();
    assert_eq!(re.groups("ccc").unwrap(), Some(vec![Some((0, 0))]));
    assert!(re.is_match("ccc").unwrap());
    let re = Regexp::new(r"[\q{a|}]+", false).unwrap();
    assert_eq!(re.groups("aab").unwrap(), Some(vec![Some((0, 2))]));
}
