//! `exec` against `test`, and the own matcher against the reference: for a pattern and a
//! URL (or a dictionary), `test` is true exactly when `exec` returns a match, and `exec`
//! returns what `regress`'s backtracking executor finds on the Standard's regular
//! expressions (`__exec_reference`), groups included (for components of at most 3 groups
//! and wildcards: the backtracking reference is exponential in them, the own matcher is
//! not).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use rapidurl::pattern::{
    PatternErrorKind, UrlPattern, UrlPatternInit, UrlPatternInput, UrlPatternOptions,
};

#[derive(Arbitrary, Debug)]
struct Case {
    pattern: String,
    input: String,
    pathname: Option<String>,
    hostname: Option<String>,
    ignore_case: bool,
}

fuzz_target!(|case: Case| {
    let options = UrlPatternOptions {
        ignore_case: case.ignore_case,
    };
    let Ok(p) = UrlPattern::new(UrlPatternInput::String(&case.pattern), None, options) else {
        return;
    };
    let init = UrlPatternInit {
        pathname: case.pathname.clone(),
        hostname: case.hostname.clone(),
        protocol: Some("https".into()),
        ..UrlPatternInit::default()
    };
    for input in [
        UrlPatternInput::String(&case.input),
        UrlPatternInput::Init(&init),
    ] {
        // No base URL: the only error is a backreference or a lookaround giving up
        // (`MatchLimit`), and then `test` and `exec` both give up.
        let (tested, executed) = match (p.test(input, None), p.exec(input, None)) {
            (Ok(t), Ok(e)) => (t, e),
            (Err(a), Err(b)) => {
                assert_eq!(a.kind(), &PatternErrorKind::MatchLimit, "{:?}", case.pattern);
                assert_eq!(b.kind(), &PatternErrorKind::MatchLimit, "{:?}", case.pattern);
                continue;
            }
            (t, e) => panic!("{:?} on {input:?}: test {t:?}, exec {e:?}", case.pattern),
        };
        assert_eq!(
            tested,
            executed.is_some(),
            "{:?} on {input:?}",
            case.pattern
        );
        // Regexp groups run on regress in both paths; the comparison is about the rest.
        // The reference backtracks: a pattern with many wildcards (`/*****x***`), or a
        // repeated wildcard (`*+`, `:a*`, `{…}+`: a quantifier inside a quantifier),
        // takes it exponential time, so those are compared only with `test` above.
        let groups = p
            .component_patterns()
            .iter()
            .map(|c| c.matches(['*', ':']).count())
            .max()
            .unwrap_or(0);
        let nested = p.component_patterns().iter().any(|c| repeats_a_group(c));
        if !p.has_regexp_groups() && groups <= 3 && !nested {
            let reference = p.__exec_reference(input, None).expect("compiles");
            assert_eq!(executed, reference, "{:?} on {input:?}", case.pattern);
        }
    }
});

/// Whether a component's pattern string has a `+` or `*` modifier on a group (a named
/// group, a wildcard or a `{…}` group): a quantifier inside the wildcard's own `.*`.
fn repeats_a_group(pattern: &str) -> bool {
    let b = pattern.as_bytes();
    let mut escaped = false;
    for (i, &c) in b.iter().enumerate() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            b'\\' => escaped = true,
            b'+' => return true,
            // `*` right after a name character is a modifier only after `:name`; it is
            // taken as one here (the comparison is skipped, never wrongly made).
            b'*' if i > 0
                && (matches!(b[i - 1], b'*' | b'}' | b')' | b'_')
                    || b[i - 1].is_ascii_alphanumeric()
                    || b[i - 1] >= 0x80) =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}
