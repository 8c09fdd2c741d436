//! A bit-parallel NFA for `is_match` on small programs: the set of threads is one `u64`
//! (programs of at most 64 instructions), the empty transitions are followed once, when
//! the program is compiled (a closure per instruction and per kind of position), and a
//! code point costs one pass over the threads that wait on a code point. No captures, no
//! allocation; O(input × threads) like the Pike VM, without its per-thread bookkeeping.
//!
//! Only for programs whose empty transitions depend on nothing but whether the position
//! is the input's start or end: no iteration registers (a quantifier whose body can
//! match the empty string), no `\b`, no lookaround or backreference. Captures do not
//! change whether there is a match, so `Save` and `Clear` are empty transitions here.

use super::compile::{Inst, Program};
use super::parse::Assertion;
use crate::pattern::bitnfa;

/// The precomputed closures of a program the NFA can run.
#[derive(Clone, Debug)]
pub(crate) struct Bits {
    /// `closure[pc][k]`: the instructions that wait on a code point (or are `Match`)
    /// reachable from `pc` by empty transitions at a position of kind `k` (bit 0: the
    /// input's start, bit 1: its end).
    closure: Vec<[u64; 4]>,
    /// The instructions that consume a code point.
    consuming: u64,
    /// The `Match` instruction.
    matching: u64,
}

impl Bits {
    /// The closures of `p`, when the NFA can run it.
    pub(crate) fn new(p: &Program) -> Option<Bits> {
        let n = p.insts.len();
        if n > 64 {
            return None;
        }
        let (mut consuming, mut matching) = (0u64, 0u64);
        for (pc, inst) in p.insts.iter().enumerate() {
            match inst {
                Inst::Char(_, false) | Inst::Set(_, false) => consuming |= 1 << pc,
                Inst::Match => matching |= 1 << pc,
                Inst::Split(..) | Inst::Jmp(_) | Inst::Save(_) | Inst::Clear(..) => {}
                Inst::Assert(Assertion::Start | Assertion::End) => {}
                _ => return None,
            }
        }
        let mut closure = vec![[0u64; 4]; n + 1];
        for (pc, c) in closure.iter_mut().enumerate().take(n) {
            for (kind, set) in c.iter_mut().enumerate() {
                *set = reach(p, pc, kind);
            }
        }
        Some(Bits {
            closure,
            consuming,
            matching,
        })
    }
}

/// The waiting instructions reachable from `pc` by empty transitions at a position of
/// kind `kind`.
fn reach(p: &Program, pc: usize, kind: usize) -> u64 {
    let (mut seen, mut out) = (0u64, 0u64);
    let mut stack = vec![pc];
    while let Some(pc) = stack.pop() {
        if pc >= p.insts.len() || seen & (1 << pc) != 0 {
            continue;
        }
        seen |= 1 << pc;
        match p.insts[pc] {
            Inst::Split(a, b) => stack.extend([b as usize, a as usize]),
            Inst::Jmp(t) => stack.push(t as usize),
            Inst::Save(_) | Inst::Clear(..) => stack.push(pc + 1),
            Inst::Assert(Assertion::Start) if kind & 1 != 0 => stack.push(pc + 1),
            Inst::Assert(Assertion::End) if kind & 2 != 0 => stack.push(pc + 1),
            Inst::Assert(_) => {}
            _ => out |= 1 << pc,
        }
    }
    out
}

impl Program {
    /// Whether the program matches at the start of `input` (a prefix of it), on the
    /// bit-parallel NFA.
    pub(crate) fn bits_match(&self, bits: &Bits, input: &str) -> bool {
        let kind = |pos: usize| usize::from(pos == 0) | (usize::from(pos == input.len()) << 1);
        let mut state = bits.closure[0][kind(0)];
        let mut pos = 0;
        for c in input.chars() {
            if state & bits.matching != 0 {
                return true;
            }
            pos += c.len_utf8();
            let at = kind(pos);
            state = bitnfa::step(
                state & bits.consuming,
                |pc| self.consumes(&self.insts[pc], c),
                |pc| bits.closure[pc + 1][at],
            );
            if state == 0 {
                return false;
            }
        }
        state & bits.matching != 0
    }
}
