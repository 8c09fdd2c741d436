//! `PatternSet` against its patterns tested one by one: the same matches, in order, and
//! the first match's groups are the pattern's own `exec`.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rapidurl::pattern::{PatternSet, UrlPattern};

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
            // A backreference or lookaround may stop at its step limit, which a set counts
            // as no match; route tables refuse such patterns (`PatternSet::add`).
            if q.may_hit_match_limit() {
                continue;
            }
            set.add_pattern(None, text, p);
            one_by_one.push(q);
        }
    }
    let arena = rapidurl::bumpalo::Bump::new();
    for input in case.urls.iter().take(16) {
        let Ok(url) = rapidurl::parse_ref(input, &arena) else {
            continue;
        };
        let all: Vec<usize> = (0..one_by_one.len())
            .filter(|&i| one_by_one[i].test_url(&url).unwrap())
            .collect();
        assert_eq!(set.all(&url), all, "{input:?}");
        let first = set.first_match(&url);
        assert_eq!(first.as_ref().map(|m| m.index), all.first().copied());
        if let Some(m) = first {
            assert_eq!(Some(m.result), one_by_one[m.index].exec_url(&url).unwrap());
        }
    }
});
