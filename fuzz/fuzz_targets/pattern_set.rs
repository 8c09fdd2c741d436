//! `PatternSet` against its patterns tested one by one: the same matches, in order, and
//! the first match's groups are the pattern's own `exec`.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rapidurl::pattern::{PatternErrorKind, PatternSet, UrlPattern};

#[derive(Arbitrary, Debug)]
struct Case {
    patterns: Vec<String>,
    urls: Vec<String>,
}

fuzz_target!(|case: Case| {
    let mut set = PatternSet::new();
    let mut one_by_one = Vec::new();
    for text in case.patterns.iter().take(64) {
        if let (Ok(p), Ok(q)) = (UrlPattern::parse(text, None), UrlPattern::parse(text, None)) {
            set.add_pattern(None, text, p);
            one_by_one.push(q);
        }
    }
    let arena = rapidurl::bumpalo::Bump::new();
    for input in case.urls.iter().take(16) {
        let Ok(url) = rapidurl::parse_ref(input, &arena) else {
            continue;
        };
        let tests: Vec<_> = one_by_one.iter().map(|p| p.test_url(&url)).collect();
        let all: Vec<usize> = (0..tests.len())
            .filter(|&i| tests[i] == Ok(true))
            .collect();
        if tests.iter().any(Result::is_err) {
            // A pattern with a backreference or a lookaround ran out of steps: the set
            // says so when it tried that pattern, else (its index ruled the pattern out
            // without running it) gives the other patterns' matches.
            match set.all(&url) {
                Ok(got) => assert_eq!(got, all, "{input:?}"),
                Err(e) => assert_eq!(e.kind(), &PatternErrorKind::MatchLimit, "{input:?}"),
            }
            continue;
        }
        assert_eq!(set.all(&url).unwrap(), all, "{input:?}");
        let first = set.first_match(&url).unwrap();
        assert_eq!(first.as_ref().map(|m| m.index), all.first().copied());
        if let Some(m) = first {
            assert_eq!(Some(m.result), one_by_one[m.index].exec_url(&url).unwrap());
        }
    }
});
