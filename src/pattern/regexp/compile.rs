//! Compiling a regexp tree into instructions, with ECMAScript's quantifier semantics:
//! iterations past a quantifier's minimum may not match the empty string (`RepStart` /
//! `RepCheck`), and each iteration clears the captures inside it (`Clear`).

use super::parse::{Assertion, Node};
use crate::pattern::limits::MAX_PROGRAM_SIZE;
use regex_syntax::hir::ClassUnicode;

/// A set of code points: a bitmap for ASCII, sorted ranges for the rest.
#[derive(Clone, Debug)]
pub(crate) struct CharSet {
    ascii: u128,
    ranges: Box<[(u32, u32)]>,
}

impl CharSet {
    fn new(c: &ClassUnicode) -> CharSet {
        let mut ascii = 0u128;
        let mut ranges = Vec::new();
        for r in c.ranges() {
            let (a, b) = (u32::from(r.start()), u32::from(r.end()));
            for x in a..=b.min(127) {
                ascii |= 1 << x;
            }
            if b >= 128 {
                ranges.push((a.max(128), b));
            }
        }
        CharSet {
            ascii,
            ranges: ranges.into(),
        }
    }

    #[inline]
    pub(crate) fn contains(&self, c: char) -> bool {
        let c = u32::from(c);
        if c < 128 {
            return self.ascii & (1 << c) != 0;
        }
        self.ranges
            .binary_search_by(|&(a, b)| {
                if b < c {
                    std::cmp::Ordering::Less
                } else if a > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }
}

/// One instruction. `back` instructions (inside a lookbehind) read the code point
/// before the position and move left.
#[derive(Clone, Debug)]
pub(crate) enum Inst {
    /// One code point equal to this one.
    Char(char, bool),
    /// One code point of the set.
    Set(u32, bool),
    /// Try the first target, then the second.
    Split(u32, u32),
    Jmp(u32),
    /// Record the position in a capture slot.
    Save(u32),
    /// Clear the capture slots `[from, to)` (a new iteration of a quantifier).
    Clear(u32, u32),
    /// Forget the start of the current iteration (register).
    RepReset(u32),
    /// Record the start of an iteration in a register.
    RepStart(u32),
    /// Fail when the iteration started in the register matched the empty string.
    RepCheck(u32),
    Assert(Assertion),
    /// A lookaround: its body runs from the next instruction to a `LookEnd`; then
    /// matching goes on at `next`.
    Look {
        negate: bool,
        next: u32,
    },
    LookEnd,
    /// A backreference to one of the groups at `refs[index]`.
    BackRef(u32, bool),
    Match,
}

/// A compiled regexp.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    pub(crate) insts: Vec<Inst>,
    pub(crate) sets: Vec<CharSet>,
    pub(crate) refs: Vec<Vec<usize>>,
    /// Capture slots (two per group, group 0 being the whole match).
    pub(crate) slots: usize,
    /// Registers of `RepStart` / `RepCheck`.
    pub(crate) regs: usize,
    pub(crate) icase: bool,
    /// The word characters of `\b` (with `i`: also U+017F and U+212A).
    pub(crate) word: CharSet,
    pub(crate) backtracking: bool,
}

/// The program is over [`MAX_PROGRAM_SIZE`].
#[derive(Debug)]
pub(crate) struct TooLarge;

struct Compiler {
    p: Program,
}

/// Compiles `node` (with `groups` capture groups) into a program that matches the
/// whole regexp as group 0.
pub(crate) fn compile(node: &Node, groups: usize, icase: bool) -> Result<Program, TooLarge> {
    let mut c = Compiler {
        p: Program {
            insts: Vec::new(),
            sets: Vec::new(),
            refs: Vec::new(),
            slots: 2 * (groups + 1),
            regs: 0,
            icase,
            word: CharSet::new(&super::parse::word(icase)),
            backtracking: node.needs_backtracking(),
        },
    };
    c.push(Inst::Save(0))?;
    c.node(node, false)?;
    c.push(Inst::Save(1))?;
    c.push(Inst::Match)?;
    Ok(c.p)
}

impl Compiler {
    fn pc(&self) -> u32 {
        self.p.insts.len() as u32
    }

    fn push(&mut self, i: Inst) -> Result<u32, TooLarge> {
        if self.p.insts.len() >= MAX_PROGRAM_SIZE {
            return Err(TooLarge);
        }
        self.p.insts.push(i);
        Ok(self.pc() - 1)
    }

    fn set(&mut self, c: &ClassUnicode, back: bool) -> Result<(), TooLarge> {
        let r = c.ranges();
        if r.len() == 1 && r[0].start() == r[0].end() {
            self.push(Inst::Char(r[0].start(), back))?;
            return Ok(());
        }
        let idx = self.p.sets.len() as u32;
        self.p.sets.push(CharSet::new(c));
        self.push(Inst::Set(idx, back))?;
        Ok(())
    }

    /// Emits a sequence of items, right to left when `back`.
    fn seq<T>(
        &mut self,
        items: &[T],
        back: bool,
        mut f: impl FnMut(&mut Self, &T) -> Result<(), TooLarge>,
    ) -> Result<(), TooLarge> {
        if back {
            items.iter().rev().try_for_each(|x| f(self, x))
        } else {
            items.iter().try_for_each(|x| f(self, x))
        }
    }

    /// Alternatives in order: Split(a, next); a; Jmp end; next: Split(b, …) …
    fn alts<T>(
        &mut self,
        items: &[T],
        mut f: impl FnMut(&mut Self, &T) -> Result<(), TooLarge>,
    ) -> Result<(), TooLarge> {
        let mut jumps = Vec::new();
        for (k, item) in items.iter().enumerate() {
            if k + 1 == items.len() {
                f(self, item)?;
                break;
            }
            let split = self.push(Inst::Split(0, 0))?;
            f(self, item)?;
            jumps.push(self.push(Inst::Jmp(0))?);
            let next = self.pc();
            self.p.insts[split as usize] = Inst::Split(split + 1, next);
        }
        let end = self.pc();
        for j in jumps {
            self.p.insts[j as usize] = Inst::Jmp(end);
        }
        Ok(())
    }

    fn node(&mut self, n: &Node, back: bool) -> Result<(), TooLarge> {
        match n {
            Node::Empty => Ok(()),
            Node::Set(c) => self.set(c, back),
            Node::Strings(strings, set) => {
                let mut items: Vec<Option<&Vec<char>>> = Vec::new();
                let single_at = strings
                    .iter()
                    .position(|s| s.len() < 2)
                    .unwrap_or(strings.len());
                items.extend(strings[..single_at].iter().map(Some));
                if !set.ranges().is_empty() {
                    items.push(None);
                }
                items.extend(strings[single_at..].iter().map(Some));
                let icase = self.p.icase;
                self.alts(&items, |c, item| match item {
                    None => c.set(set, back),
                    Some(s) => c.seq(s, back, |c, ch| {
                        let mut one =
                            ClassUnicode::new([regex_syntax::hir::ClassUnicodeRange::new(
                                *ch, *ch,
                            )]);
                        if icase {
                            one.case_fold_simple();
                        }
                        c.set(&one, back)
                    }),
                })
            }
            Node::Concat(v) => self.seq(v, back, |c, n| c.node(n, back)),
            Node::Alt(v) => self.alts(v, |c, n| c.node(n, back)),
            Node::Group(None, inner) => self.node(inner, back),
            Node::Group(Some(g), inner) => {
                let (open, close) = (2 * *g as u32, 2 * *g as u32 + 1);
                let (first, last) = if back { (close, open) } else { (open, close) };
                self.push(Inst::Save(first))?;
                self.node(inner, back)?;
                self.push(Inst::Save(last))?;
                Ok(())
            }
            Node::Assert(a) => self.push(Inst::Assert(*a)).map(drop),
            Node::Look {
                ahead,
                negate,
                node,
            } => {
                let at = self.push(Inst::Look {
                    negate: *negate,
                    next: 0,
                })?;
                self.node(node, !*ahead)?;
                self.push(Inst::LookEnd)?;
                let next = self.pc();
                self.p.insts[at as usize] = Inst::Look {
                    negate: *negate,
                    next,
                };
                Ok(())
            }
            Node::BackRef(groups) => {
                let idx = self.p.refs.len() as u32;
                self.p.refs.push(groups.clone());
                self.push(Inst::BackRef(idx, back)).map(drop)
            }
            Node::Repeat {
                node,
                min,
                max,
                greedy,
            } => self.repeat(node, *min, *max, *greedy, back),
        }
    }

    /// One iteration: clear the captures inside, then the body.
    fn iteration(&mut self, node: &Node, back: bool) -> Result<(), TooLarge> {
        if let Some((lo, hi)) = node.groups() {
            self.push(Inst::Clear(2 * lo as u32, 2 * hi as u32))?;
        }
        self.node(node, back)
    }

    fn split(&mut self, at: u32, body: u32, exit: u32, greedy: bool) {
        self.p.insts[at as usize] = if greedy {
            Inst::Split(body, exit)
        } else {
            Inst::Split(exit, body)
        };
    }

    fn repeat(
        &mut self,
        node: &Node,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        back: bool,
    ) -> Result<(), TooLarge> {
        if max == Some(0) {
            return Ok(());
        }
        // Without an empty match, no iteration can be empty: no check needed.
        let reg = node.nullable().then(|| {
            self.p.regs += 1;
            self.p.regs as u32 - 1
        });
        let plain = match max {
            None if min > 0 => min - 1,
            _ => min,
        };
        for _ in 0..plain {
            self.iteration(node, back)?;
        }
        match max {
            None if min > 0 => {
                // RepReset; L: iteration; RepCheck; Split(A, exit); A: RepStart; Jmp L
                if let Some(r) = reg {
                    self.push(Inst::RepReset(r))?;
                }
                let l = self.pc();
                self.iteration(node, back)?;
                if let Some(r) = reg {
                    self.push(Inst::RepCheck(r))?;
                }
                let s = self.push(Inst::Split(0, 0))?;
                let a = self.pc();
                if let Some(r) = reg {
                    self.push(Inst::RepStart(r))?;
                }
                self.push(Inst::Jmp(l))?;
                let exit = self.pc();
                self.split(s, a, exit, greedy);
            }
            None => {
                // L: Split(B, exit); B: RepStart; iteration; RepCheck; Jmp L
                let l = self.push(Inst::Split(0, 0))?;
                let b = self.pc();
                if let Some(r) = reg {
                    self.push(Inst::RepStart(r))?;
                }
                self.iteration(node, back)?;
                if let Some(r) = reg {
                    self.push(Inst::RepCheck(r))?;
                }
                self.push(Inst::Jmp(l))?;
                let exit = self.pc();
                self.split(l, b, exit, greedy);
            }
            Some(max) => {
                // (max - min) optional iterations: Split(B, exit); B: RepStart; iteration;
                // RepCheck; Split(B', exit); …
                let mut splits = Vec::new();
                for _ in min..max {
                    splits.push(self.push(Inst::Split(0, 0))?);
                    if let Some(r) = reg {
                        self.push(Inst::RepStart(r))?;
                    }
                    self.iteration(node, back)?;
                    if let Some(r) = reg {
                        self.push(Inst::RepCheck(r))?;
                    }
                }
                let exit = self.pc();
                for s in splits {
                    self.split(s, s + 1, exit, greedy);
                }
            }
        }
        Ok(())
    }
}
