//! ECMAScript regular expressions (the `v` flag, `vi` with `ignore_case`) for regexp
//! groups, matched without exponential backtracking.
//!
//! `regress` checks the syntax (the Standard's errors); this module parses the
//! regexp into a tree, compiles it into instructions that follow ECMAScript's
//! semantics (leftmost-first priority, greedy and lazy quantifiers, an iteration past a
//! quantifier's minimum may not match the empty string, each iteration clears the
//! captures inside it, simple case folding under `i`, class set operations), and runs
//! them:
//!
//! - without backreferences and lookarounds, in time O(n × m) for an input of n code
//!   points and a program of m instructions: `is_match` on a bit-parallel NFA (`bits`,
//!   programs of at most 64 instructions) or the Pike VM; the groups on the backtracking
//!   interpreter with a visited bit per (instruction, position) (no quantifier over a
//!   body that can match empty, n × m ≤ 2¹⁸) or the Pike VM (memory O(m × g) for g
//!   groups);
//! - with them, by a backtracking interpreter that stops after [`MAX_BACKTRACK_STEPS`]
//!   steps per match with an error, never a silent "no match".
//!
//! Programs have at most [`MAX_PROGRAM_SIZE`](super::limits::MAX_PROGRAM_SIZE) instructions (counted repetitions are
//! unrolled); a larger regexp is refused at construction.

mod bits;
mod compile;
mod exec;
mod parse;

use super::limits::MAX_BACKTRACK_STEPS;

/// A compiled regexp.
#[derive(Clone, Debug)]
pub(crate) struct Regexp {
    program: compile::Program,
    /// The bit-parallel NFA's closures, when it can run the program (`is_match`).
    bits: Option<Box<bits::Bits>>,
}

/// Why a regexp cannot be compiled.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum CompileError {
    /// Not valid ECMAScript (regress's message).
    Syntax(String),
    /// Valid, but uses a feature this engine does not run.
    Unsupported(String),
    /// Over [`MAX_PROGRAM_SIZE`](super::limits::MAX_PROGRAM_SIZE) instructions.
    TooLarge,
}

/// Byte ranges of groups (`None`: the group did not take part).
pub(crate) type Groups = Vec<Option<(usize, usize)>>;

/// The backtracking interpreter went over [`MAX_BACKTRACK_STEPS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StepLimit;

/// Inputs longer than this are checked by the bit-parallel NFA before their groups are
/// looked for (on a short one, the check costs more than it saves).
const PRECHECK_FROM: usize = 64;

impl Regexp {
    /// Compiles `source` with the flags `v` (`vi` when `ignore_case`).
    pub(crate) fn new(source: &str, ignore_case: bool) -> Result<Regexp, CompileError> {
        regress::Regex::with_flags(source, super::matcher::flags(ignore_case))
            .map_err(|e| CompileError::Syntax(e.to_string()))?;
        Regexp::new_unchecked(source, ignore_case)
    }

    /// Compiles a regexp `regress` accepted.
    pub(crate) fn new_unchecked(source: &str, ignore_case: bool) -> Result<Regexp, CompileError> {
        let parsed = parse::parse(source, ignore_case).map_err(|u| match u.1 {
            true => CompileError::Syntax(u.0),
            false => CompileError::Unsupported(u.0),
        })?;
        let program = compile::compile(&parsed.node, parsed.groups, ignore_case)
            .map_err(|_| CompileError::TooLarge)?;
        let bits = bits::Bits::new(&program).map(Box::new);
        Ok(Regexp { program, bits })
    }

    /// Whether the regexp runs on the backtracking interpreter (it has a backreference
    /// or a lookaround).
    pub(crate) fn backtracks(&self) -> bool {
        self.program.backtracking
    }

    /// The byte ranges of groups 1… when the regexp matches at the start of `input`.
    pub(crate) fn captures(&self, input: &str) -> Result<Option<Groups>, StepLimit> {
        Ok(self.groups(input)?.map(|mut g| {
            g.remove(0);
            g
        }))
    }

    /// The byte ranges of the whole match (group 0) and of groups 1…, when the regexp
    /// matches at the start of `input`.
    pub(crate) fn groups(&self, input: &str) -> Result<Option<Groups>, StepLimit> {
        let slots = if self.program.backtracking {
            self.program
                .backtrack(input, MAX_BACKTRACK_STEPS)
                .map_err(|_| StepLimit)?
        } else if input.len() > PRECHECK_FROM
            && let Some(bits) = &self.bits
            && !self.program.bits_match(bits, input)
        {
            // The NFA refuses an input that does not match at a few instructions a code
            // point; the groups' engines may visit every (instruction, position) first.
            None
        } else if self.program.memo_fits(input) {
            self.program.memo_backtrack(input)
        } else {
            self.program.pike(input, true)
        };
        Ok(slots.map(|s| {
            s.chunks(2)
                .map(|c| match (c[0], c[1]) {
                    (Some(a), Some(b)) => Some((a, b)),
                    _ => None,
                })
                .collect()
        }))
    }

    /// Whether the regexp matches at the start of `input`.
    pub(crate) fn is_match(&self, input: &str) -> Result<bool, StepLimit> {
        if self.program.backtracking {
            return Ok(self.captures(input)?.is_some());
        }
        if let Some(bits) = &self.bits {
            return Ok(self.program.bits_match(bits, input));
        }
        Ok(self.program.pike(input, false).is_some())
    }
}

/// For a regexp that `v` refuses because a class holds a character that must be
/// escaped there (`/ ( ) { } |`, as in `[^/]`, valid without `v`): that character and the
/// regexp with every such character escaped.
pub(crate) fn class_escape_hint(source: &str) -> Option<(char, String)> {
    let mut out = String::with_capacity(source.len() + 4);
    let mut depth = 0usize;
    let mut first = None;
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some(n) = chars.next() {
                    out.push(n);
                }
                continue;
            }
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            '/' | '(' | ')' | '{' | '}' | '|' if depth > 0 => {
                first.get_or_insert(c);
                out.push('\\');
            }
            _ => {}
        }
        out.push(c);
    }
    let c = first?;
    Regexp::new(&out, false).ok()?;
    Some((c, out))
}

#[cfg(test)]
mod tests;
