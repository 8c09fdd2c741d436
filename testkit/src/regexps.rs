//! Random ECMAScript regexps for comparing the own regexp engine (the regexp groups of
//! `rapidurl::pattern`) with `regress`'s backtracking executor: the `regexp_diff` fuzz
//! target and the library's unit test `random_regexps_agree_with_regress` draw from the
//! same alphabet, skip the same known differences of regress and read its answer the
//! same way.

/// The tokens a regexp is built from: quantifiers, alternations, groups, named groups,
/// classes with set operations and strings, assertions, backreferences, lookarounds and
/// the code points case folding maps together.
pub const TOKENS: &[&str] = &[
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

/// The code points an input is built from.
pub const INPUT: &[char] = &[
    'a', 'b', 'c', 'k', 'K', '\u{17f}', '\u{212a}', ' ', '1', '-', 'é',
];

/// The regexp of the tokens `picks` names (each taken modulo the number of tokens).
pub fn regexp(picks: impl IntoIterator<Item = usize>) -> String {
    picks
        .into_iter()
        .map(|k| TOKENS[k % TOKENS.len()])
        .collect()
}

/// The input of the code points `picks` names (each taken modulo their number).
pub fn input(picks: impl IntoIterator<Item = usize>) -> String {
    picks.into_iter().map(|k| INPUT[k % INPUT.len()]).collect()
}

/// The flags the URL Pattern Standard compiles with, as regress takes them: `v` (`vi`
/// when ignoring case), with `u`, whose syntax rules regress reads from it.
pub fn regress_flags(ignore_case: bool) -> regress::Flags {
    regress::Flags {
        icase: ignore_case,
        unicode: true,
        unicode_sets: true,
        ..regress::Flags::default()
    }
}

/// Whether regress 0.12 answers otherwise than ECMAScript for `source`, so that a
/// comparison proves nothing: under `vi`, ECMAScript case-folds both operands of `--`
/// (`[\w--a]` has no `A`) and complements `\P{…}` after folding (`\P{Ll}` has no cased
/// letter), which regress does not; and an empty string in a class (`[\q{}a]`, `\q{a|}`)
/// matches the empty string in ECMAScript (V8: `/[\q{}a]/v.exec("c")` is `[""]`), which
/// regress never matches. The library's unit tests check the Standard's results there.
pub fn regress_differs(source: &str, ignore_case: bool) -> bool {
    (ignore_case && (source.contains("--") || source.contains("\\P")))
        || ["\\q{}", "\\q{|", "||", "|}"]
            .iter()
            .any(|s| source.contains(s))
}

/// The byte ranges of the whole match and of groups 1… when `reference` matches at the
/// start of `input` (`None`: a group that did not take part), as the own engine gives
/// them.
pub fn groups_at_start(
    reference: &regress::Regex,
    input: &str,
) -> Option<Vec<Option<(usize, usize)>>> {
    reference
        .find(input)
        .filter(|m| m.range.start == 0)
        .map(|m| {
            std::iter::once(Some((m.range.start, m.range.end)))
                .chain(
                    m.captures
                        .iter()
                        .map(|r| r.as_ref().map(|r| (r.start, r.end))),
                )
                .collect()
        })
}
