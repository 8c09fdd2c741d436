//! The own regexp engine (`rapidurl::pattern`'s regexp groups) against `regress`'s
//! backtracking executor: random regexps built from ECMAScript tokens
//! (`rapidurl_testkit::regexps`: quantifiers, alternations, groups, named groups, classes
//! with set operations and strings, assertions, backreferences, lookarounds, case
//! folding), matched at the start of random inputs: the same match and the same groups
//! wherever both run. Regexps and inputs are short, so that the backtracking reference
//! stays fast.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rapidurl_testkit::regexps;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let split = rest.iter().position(|&b| b == 0xff).unwrap_or(rest.len());
    let (re, input) = rest.split_at(split);
    if re.len() > 16 || input.len() > 17 {
        return;
    }
    let source = regexps::regexp(re.iter().map(|&b| b as usize));
    let input = regexps::input(input.iter().skip(1).map(|&b| b as usize));
    let icase = flags & 1 == 1;
    let Ok(reference) = regress::Regex::with_flags(&source, regexps::regress_flags(icase)) else {
        assert!(
            rapidurl::pattern::__regexp_captures(&source, icase, &input).is_err(),
            "regress refuses {source:?}, the own engine must too"
        );
        return;
    };
    if regexps::regress_differs(&source, icase) {
        return;
    }
    let want = regexps::groups_at_start(&reference, &input);
    match rapidurl::pattern::__regexp_captures(&source, icase, &input) {
        Ok(got) => assert_eq!(got, want, "{source:?} (i: {icase}) on {input:?}"),
        // ECMAScript refuses a quantified assertion (`\b{2}`), which regress accepts; a
        // backreference or lookaround may run out of steps.
        Err(e) => assert!(
            e.contains("StepLimit") || e.contains("quantified assertion"),
            "{source:?}: {e}"
        ),
    }
});
