//! Running a compiled regexp: a Pike VM (linear time) for regexps without
//! backreferences and lookarounds, a backtracking interpreter with a step budget for
//! those with them.

use super::compile::{Inst, Program};
use super::parse::Assertion;
use crate::pattern::matcher::{Threads, with_lists};

/// Capture slots: byte offsets, `None` when the group did not take part.
pub(crate) type Slots = Vec<Option<usize>>;

/// The most (instruction, position) pairs [`Program::memo_backtrack`] keeps a bit for
/// (32 KiB); past it, the Pike VM finds the groups.
const MEMO_BITS: usize = 1 << 18;

/// The backtracking interpreter ran out of steps.
#[derive(Debug)]
pub(crate) struct OutOfSteps;

fn char_at(input: &str, pos: usize) -> Option<char> {
    input[pos..].chars().next()
}

fn char_before(input: &str, pos: usize) -> Option<char> {
    input[..pos].chars().next_back()
}

impl Program {
    fn is_word(&self, c: Option<char>) -> bool {
        c.is_some_and(|c| self.word.contains(c))
    }

    fn assert(&self, a: Assertion, input: &str, pos: usize) -> bool {
        match a {
            Assertion::Start => pos == 0,
            Assertion::End => pos == input.len(),
            Assertion::WordBoundary | Assertion::NotWordBoundary => {
                let b = self.is_word(char_before(input, pos)) != self.is_word(char_at(input, pos));
                b == (a == Assertion::WordBoundary)
            }
        }
    }

    #[inline]
    pub(crate) fn consumes(&self, inst: &Inst, c: char) -> bool {
        match *inst {
            Inst::Char(want, _) => want == c,
            Inst::Set(i, _) => self.sets[i as usize].contains(c),
            _ => false,
        }
    }

    /// The Pike VM, anchored at the start of `input`: the slots of the match a
    /// backtracking ECMAScript engine finds, or `None`. With `want_slots` false, only
    /// whether there is a match (the slots returned are empty).
    pub(crate) fn pike(&self, input: &str, want_slots: bool) -> Option<Slots> {
        let nslots = if want_slots { self.slots } else { 0 };
        with_lists(self.insts.len(), nslots, |clist, nlist| {
            self.pike_in(input, want_slots, clist, nlist)
        })
    }

    /// [`Program::pike`] in the thread lists `clist` and `nlist`.
    fn pike_in<'t>(
        &self,
        input: &str,
        want_slots: bool,
        clist: &'t mut Threads,
        nlist: &'t mut Threads,
    ) -> Option<Slots> {
        let nslots = clist.nslots;
        let (mut clist, mut nlist) = (clist, nlist);
        let mut cx = Closure {
            stack: Vec::new(),
            slots: vec![None; nslots],
            regs: vec![None; self.regs],
        };
        self.add(clist, 0, input, 0, &mut cx);
        let mut matched: Option<Slots> = None;
        let mut pos = 0;
        loop {
            let ch = char_at(input, pos);
            let next_pos = ch.map_or(pos, |c| pos + c.len_utf8());
            nlist.clear();
            for i in 0..clist.len {
                let pc = clist.pcs[i];
                let inst = &self.insts[pc];
                if let Inst::Match = inst {
                    if !want_slots {
                        return Some(Vec::new());
                    }
                    // The first thread here wins over every later (lower priority) one.
                    matched = Some(clist.slots(i).to_vec());
                    break;
                }
                if let Some(c) = ch
                    && self.consumes(inst, c)
                {
                    cx.slots.copy_from_slice(clist.slots(i));
                    self.add(nlist, pc + 1, input, next_pos, &mut cx);
                }
            }
            if ch.is_none() || nlist.len == 0 {
                return matched;
            }
            pos = next_pos;
            std::mem::swap(&mut clist, &mut nlist);
        }
    }

    /// Follows the empty transitions from `pc` at `pos` in priority order, adding the
    /// threads that wait on a code point (or `Match`) to `list`. Iteration registers
    /// start unset: after a code point, no register holds the current position.
    /// `RepCheck` is not marked as visited: a path that reaches it later, with the
    /// iteration started before this position, must still pass.
    fn add(&self, list: &mut Threads, pc: usize, input: &str, pos: usize, cx: &mut Closure) {
        cx.regs.iter_mut().for_each(|r| *r = None);
        cx.stack.push(Frame::Explore(pc));
        while let Some(frame) = cx.stack.pop() {
            let pc = match frame {
                Frame::Explore(pc) => pc,
                Frame::RestoreSlot(s, v) => {
                    cx.slots[s] = v;
                    continue;
                }
                Frame::RestoreReg(r, v) => {
                    cx.regs[r] = v;
                    continue;
                }
            };
            let inst = &self.insts[pc];
            if let Inst::RepCheck(r) = *inst {
                if cx.regs[r as usize] != Some(pos) {
                    cx.stack.push(Frame::Explore(pc + 1));
                }
                continue;
            }
            if list.contains(pc) {
                continue;
            }
            list.mark(pc);
            match *inst {
                Inst::Jmp(t) => cx.stack.push(Frame::Explore(t as usize)),
                Inst::Split(a, b) => {
                    cx.stack.push(Frame::Explore(b as usize));
                    cx.stack.push(Frame::Explore(a as usize));
                }
                Inst::Save(s) => {
                    let s = s as usize;
                    if s < cx.slots.len() {
                        cx.stack.push(Frame::RestoreSlot(s, cx.slots[s]));
                        cx.slots[s] = Some(pos);
                    }
                    cx.stack.push(Frame::Explore(pc + 1));
                }
                Inst::Clear(a, b) => {
                    let end = (b as usize).min(cx.slots.len());
                    for s in a as usize..end {
                        cx.stack.push(Frame::RestoreSlot(s, cx.slots[s]));
                        cx.slots[s] = None;
                    }
                    cx.stack.push(Frame::Explore(pc + 1));
                }
                Inst::RepReset(r) | Inst::RepStart(r) => {
                    let r = r as usize;
                    cx.stack.push(Frame::RestoreReg(r, cx.regs[r]));
                    cx.stack.push(Frame::Explore(pc + 1));
                    cx.regs[r] = matches!(inst, Inst::RepStart(_)).then_some(pos);
                }
                Inst::Assert(a) => {
                    if self.assert(a, input, pos) {
                        cx.stack.push(Frame::Explore(pc + 1));
                    }
                }
                _ => list.push(pc, &cx.slots),
            }
        }
    }

    /// The backtracking interpreter, anchored at the start of `input`, with at most
    /// `budget` steps.
    pub(crate) fn backtrack(&self, input: &str, budget: u64) -> Result<Option<Slots>, OutOfSteps> {
        let mut m = Backtracker {
            p: self,
            input,
            slots: vec![None; self.slots],
            regs: vec![None; self.regs],
            steps: budget,
            visited: Vec::new(),
        };
        Ok(m.run(0, 0)?.map(|_| m.slots))
    }

    /// Whether [`Program::memo_backtrack`] runs this program on `input` in its
    /// `MEMO_BITS` bits: no iteration registers, lookaround or backreference.
    pub(crate) fn memo_fits(&self, input: &str) -> bool {
        !self.backtracking
            && self.regs == 0
            && self.insts.len().saturating_mul(input.len() + 1) <= MEMO_BITS
    }

    /// The backtracking interpreter with a visited set of (instruction, position): for a
    /// program without iteration registers, lookaround or backreference, what follows
    /// an instruction at a position depends on nothing else, so a pair seen once (and
    /// failed, or matching would have stopped) fails again. Each pair runs at most once:
    /// O(input × program) steps, the slots of the match a backtracking ECMAScript engine
    /// finds, following the preferred branch straight to it on the common route
    /// regexps. Only where [`Program::memo_fits`].
    pub(crate) fn memo_backtrack(&self, input: &str) -> Option<Slots> {
        let words = (self.insts.len() * (input.len() + 1)).div_ceil(64);
        // The visited set of this thread's previous match, cleared (at most MEMO_BITS).
        let mut visited = VISITED.with(std::cell::Cell::take);
        visited.clear();
        visited.resize(words, 0);
        let mut m = Backtracker {
            p: self,
            input,
            slots: vec![None; self.slots],
            regs: Vec::new(),
            steps: u64::MAX,
            visited,
        };
        let found = m.run(0, 0).ok().flatten().is_some();
        VISITED.with(|c| c.set(std::mem::take(&mut m.visited)));
        found.then_some(m.slots)
    }
}

thread_local! {
    /// [`Program::memo_backtrack`]'s visited set, kept between the matches a thread runs.
    static VISITED: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

struct Closure {
    stack: Vec<Frame>,
    slots: Slots,
    regs: Vec<Option<usize>>,
}

enum Frame {
    Explore(usize),
    RestoreSlot(usize, Option<usize>),
    RestoreReg(usize, Option<usize>),
}

struct Backtracker<'a> {
    p: &'a Program,
    input: &'a str,
    slots: Slots,
    regs: Vec<Option<usize>>,
    steps: u64,
    /// One bit per (instruction, position) already run ([`Program::memo_backtrack`]);
    /// empty: no visited set.
    visited: Vec<u64>,
}

enum Undo {
    Alt(usize, usize),
    Slot(usize, Option<usize>),
    Reg(usize, Option<usize>),
}

impl Backtracker<'_> {
    /// Runs from `pc` at `pos` to `Match` or `LookEnd`: the end position, or `None`.
    fn run(&mut self, pc: usize, pos: usize) -> Result<Option<usize>, OutOfSteps> {
        let mut stack: Vec<Undo> = Vec::with_capacity(32);
        let (mut pc, mut pos) = (pc, pos);
        loop {
            if self.steps == 0 {
                return Err(OutOfSteps);
            }
            self.steps -= 1;
            if !self.visited.is_empty() {
                let k = pc * (self.input.len() + 1) + pos;
                let (word, bit) = (k / 64, 1u64 << (k % 64));
                if self.visited[word] & bit != 0 {
                    match self.backtrack_to_alternative(&mut stack) {
                        Some((p, at)) => (pc, pos) = (p, at),
                        None => return Ok(None),
                    }
                    continue;
                }
                self.visited[word] |= bit;
            }
            let ok = match self.p.insts[pc] {
                Inst::Match | Inst::LookEnd => return Ok(Some(pos)),
                Inst::Char(_, back) | Inst::Set(_, back) => {
                    let c = if back {
                        char_before(self.input, pos)
                    } else {
                        char_at(self.input, pos)
                    };
                    match c {
                        Some(c) if self.p.consumes(&self.p.insts[pc], c) => {
                            pos = if back {
                                pos - c.len_utf8()
                            } else {
                                pos + c.len_utf8()
                            };
                            pc += 1;
                            true
                        }
                        _ => false,
                    }
                }
                Inst::Split(a, b) => {
                    stack.push(Undo::Alt(b as usize, pos));
                    pc = a as usize;
                    true
                }
                Inst::Jmp(t) => {
                    pc = t as usize;
                    true
                }
                Inst::Save(s) => {
                    stack.push(Undo::Slot(s as usize, self.slots[s as usize]));
                    self.slots[s as usize] = Some(pos);
                    pc += 1;
                    true
                }
                Inst::Clear(a, b) => {
                    for s in a as usize..b as usize {
                        stack.push(Undo::Slot(s, self.slots[s]));
                        self.slots[s] = None;
                    }
                    pc += 1;
                    true
                }
                Inst::RepReset(r) | Inst::RepStart(r) => {
                    let r = r as usize;
                    stack.push(Undo::Reg(r, self.regs[r]));
                    self.regs[r] = matches!(self.p.insts[pc], Inst::RepStart(_)).then_some(pos);
                    pc += 1;
                    true
                }
                Inst::RepCheck(r) => {
                    pc += 1;
                    self.regs[r as usize] != Some(pos)
                }
                Inst::Assert(a) => {
                    pc += 1;
                    self.p.assert(a, self.input, pos)
                }
                Inst::Look { negate, next } => {
                    let before = self.slots.clone();
                    let found = self.run(pc + 1, pos)?.is_some();
                    if found && !negate {
                        for (s, old) in before.into_iter().enumerate() {
                            if self.slots[s] != old {
                                stack.push(Undo::Slot(s, old));
                            }
                        }
                    } else {
                        self.slots = before;
                    }
                    pc = next as usize;
                    found != negate
                }
                Inst::BackRef(i, back) => match self.backref(i as usize, back, pos) {
                    Some(p) => {
                        pos = p;
                        pc += 1;
                        true
                    }
                    None => false,
                },
            };
            if ok {
                continue;
            }
            match self.backtrack_to_alternative(&mut stack) {
                Some((p, at)) => (pc, pos) = (p, at),
                None => return Ok(None),
            }
        }
    }

    /// Undoes to the latest alternative: where it resumes, or `None` when there is none.
    fn backtrack_to_alternative(&mut self, stack: &mut Vec<Undo>) -> Option<(usize, usize)> {
        loop {
            match stack.pop()? {
                Undo::Slot(s, v) => self.slots[s] = v,
                Undo::Reg(r, v) => self.regs[r] = v,
                Undo::Alt(p, at) => return Some((p, at)),
            }
        }
    }

    /// Matches the text of the referenced group at `pos`: the new position.
    fn backref(&mut self, i: usize, back: bool, pos: usize) -> Option<usize> {
        let group = self.p.refs[i]
            .iter()
            .find(|&&g| self.slots[2 * g].is_some() && self.slots[2 * g + 1].is_some());
        let Some(&g) = group else {
            return Some(pos);
        };
        let (a, b) = (self.slots[2 * g]?, self.slots[2 * g + 1]?);
        let text = &self.input[a.min(b)..a.max(b)];
        let n = text.chars().count();
        let (start, end) = if back {
            let start = self.input[..pos]
                .char_indices()
                .rev()
                .nth(n.checked_sub(1)?)
                .map(|(i, _)| i)
                .or((n == 0).then_some(pos))?;
            (start, pos)
        } else {
            let len: usize = self.input[pos..].chars().take(n).map(char::len_utf8).sum();
            if self.input[pos..].chars().take(n).count() < n {
                return None;
            }
            (pos, pos + len)
        };
        self.steps = self.steps.saturating_sub(n as u64);
        let other = &self.input[start..end];
        let same = if self.p.icase {
            text.chars().zip(other.chars()).all(|(x, y)| fold_eq(x, y))
        } else {
            text == other
        };
        same.then_some(if back { start } else { end })
    }
}

/// Whether two code points are equal under simple case folding.
fn fold_eq(x: char, y: char) -> bool {
    if x == y {
        return true;
    }
    let mut c =
        regex_syntax::hir::ClassUnicode::new([regex_syntax::hir::ClassUnicodeRange::new(x, x)]);
    c.case_fold_simple();
    c.ranges().iter().any(|r| r.start() <= y && y <= r.end())
}
