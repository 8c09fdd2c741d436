//! The own regexp engine (`rapidurl::pattern`'s regexp groups) against `regress`'s
//! backtracking executor: random regexps built from ECMAScript tokens (quantifiers,
//! alternations, groups, named groups, classes with set operations and strings,
//! assertions, backreferences, lookarounds, case folding), matched at the start of
//! random inputs: the same match and the same groups wherever both run. Regexps and
//! inputs are short, so that the backtracking reference stays fast.
#![no_main]

use libfuzzer_sys::fuzz_target;

const TOKENS: &[&str] = &[
    "a",
    "b",
    "k",
    "(?:",
    "(",
    "(?<n>",
    ")",
    "|",
    "*",
    "+",
    "?",
    "*?",
    "+?",
    "??",
    "{0,2}",
    "{2}",
    "{1,}",
    "[ab]",
    "[^a]",
    ".",
    "\\b",
    "\\B",
    "\\w",
    "\\W",
    "\\d",
    "\\s",
    "^",
    "$",
    "[\\w--a]",
    "[[a-c]&&[b-d]]",
    "[\\q{ab|c}]",
    "[\\q{}a]",
    "\\1",
    "(?=",
    "(?!",
    "(?<=",
    "(?<!",
    "\u{212a}",
    "\u{17f}",
    "-",
    "\\p{L}",
    "\\P{Ll}",
    "[a-z]",
    "[^\\s]",
    "()",
    "(?:)",
];
const INPUT: &[char] = &[
    'a', 'b', 'c', 'k', 'K', '\u{17f}', '\u{212a}', ' ', '1', '-', 'é',
];

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let split = rest.iter().position(|&b| b == 0xff).unwrap_or(rest.len());
    let (re, input) = rest.split_at(split);
    if re.len() > 16 || input.len() > 17 {
        return;
    }
    let source: String = re
        .iter()
        .map(|&b| TOKENS[b as usize % TOKENS.len()])
        .collect();
    let input: String = input
        .iter()
        .skip(1)
        .map(|&b| INPUT[b as usize % INPUT.len()])
        .collect();
    let icase = flags & 1 == 1;
    let reg_flags = regress::Flags {
        icase,
        unicode: true,
        unicode_sets: true,
        ..regress::Flags::default()
    };
    let Ok(reference) = regress::Regex::with_flags(&source, reg_flags) else {
        assert!(
            rapidurl::pattern::__regexp_captures(&source, icase, &input).is_err(),
            "regress refuses {source:?}, the own engine must too"
        );
        return;
    };
    let want = reference
        .find(&input)
        .filter(|m| m.range.start == 0)
        .map(|m| {
            std::iter::once(Some((m.range.start, m.range.end)))
                .chain(
                    m.captures
                        .iter()
                        .map(|r| r.as_ref().map(|r| (r.start, r.end))),
                )
                .collect::<Vec<_>>()
        });
    // Under `vi`, ECMAScript case-folds both operands of `--` (`[\w--a]` has no `A`) and
    // complements `\P{…}` after folding (`\P{Ll}` has no cased letter); regress 0.12
    // does neither. The unit tests check the Standard's results there.
    if icase && (source.contains("--") || source.contains("\\P")) {
        return;
    }
    // An empty string in a class (`[\q{}a]`, `\q{a|}`) matches the empty string in
    // ECMAScript (V8: `/[\q{}a]/v.exec("c")` is `[""]`); regress 0.12 never matches it.
    if ["\\q{}", "\\q{|", "||", "|}"].iter().any(|s| source.contains(s)) {
        return;
    }
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
