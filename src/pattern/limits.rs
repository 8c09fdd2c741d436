//! The bounds of the regexp engine, which the compiler, the interpreters and the errors
//! all name.

/// The most instructions a compiled regexp may have (counted repetitions are unrolled:
/// `(?:a{100}){100}` is 10,000). Larger regexps are refused at construction.
pub const MAX_PROGRAM_SIZE: usize = 20_000;

/// The most steps the backtracking interpreter takes for one match (regexps with a
/// backreference or a lookaround); past it, matching returns an error.
pub const MAX_BACKTRACK_STEPS: u64 = 1_000_000;
