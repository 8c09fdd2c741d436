//! Matching one component without regexp groups: a Pike VM of this module's own for
//! part lists (those with regexp groups run on [`super::regexp`]).
//!
//! The Pike VM runs the same program the Standard's regular expression would be, with
//! the same priorities (greedy `?`, `*`, `+`; lazy segment wildcards), so it finds the
//! match a backtracking ECMAScript engine finds, with the same captures, in
//! O(input length × program length) time and O(program length) memory per thread list.

use super::bitnfa;
use super::parts::{Modifier, Options, Part, PartType};

/// One instruction of the VM.
#[derive(Clone, Debug)]
enum Inst {
    /// One code point equal to this one (ASCII case folded when ignoring case).
    Char(char),
    /// Any code point but the delimiter (none: any code point).
    NotDelim(Option<char>),
    /// Any code point.
    Any,
    /// Try the first target, then the second.
    Split(usize, usize),
    Jmp(usize),
    /// Record the position in a capture slot.
    Save(usize),
    Match,
}

/// A compiled component without regexp groups.
#[derive(Clone, Debug)]
pub(crate) struct Program {
    insts: Vec<Inst>,
    slots: usize,
    ignore_case: bool,
    /// The fixed text the whole component must equal, when it is only fixed text.
    literal: Option<String>,
    /// The component is `*` alone: every input matches, as group 0.
    always: bool,
    /// The fixed text every match starts with (the leading fixed parts), and the number
    /// of `Char` instructions that spell it at the start of the program.
    prefix: String,
    prefix_insts: usize,
    /// The fixed text every match ends with (the trailing fixed parts).
    suffix: String,
    /// Every input that starts with the prefix matches (`/static/*`): the threads after
    /// the prefix include `Match` and every code point leads back to the same threads.
    rest_always: bool,
    /// For programs of at most 64 instructions: per instruction, the instructions that
    /// wait on a code point (or `Match`) reachable from it by empty transitions, as a bit
    /// set. `test` then runs a bit-parallel NFA with no allocation.
    closures: Option<Vec<u64>>,
}

struct Compiler {
    insts: Vec<Inst>,
    delimiter: Option<char>,
}

impl Compiler {
    fn pc(&self) -> usize {
        self.insts.len()
    }

    fn push(&mut self, i: Inst) -> usize {
        self.insts.push(i);
        self.insts.len() - 1
    }

    fn text(&mut self, s: &str) {
        for c in s.chars() {
            self.push(Inst::Char(c));
        }
    }

    /// The body of a group: `[^d]+?` or `.*`; `non_empty` makes `.*` into `.+` (see
    /// [`Program::compile`]).
    fn body_of(&mut self, ty: PartType, non_empty: bool) {
        if non_empty && ty == PartType::FullWildcard {
            self.push(Inst::Any);
        }
        self.body(ty)
    }

    /// The body of a group: `[^d]+?` or `.*`.
    fn body(&mut self, ty: PartType) {
        match ty {
            PartType::SegmentWildcard => {
                // L: NotDelim; Split(exit, L) — lazy.
                let l = self.push(Inst::NotDelim(self.delimiter));
                let exit = self.pc() + 1;
                self.push(Inst::Split(exit, l));
            }
            _ => {
                // L: Split(body, exit); Any; Jmp L — greedy.
                let l = self.push(Inst::Split(0, 0));
                let body = self.pc();
                self.push(Inst::Any);
                self.push(Inst::Jmp(l));
                let exit = self.pc();
                self.insts[l] = Inst::Split(body, exit);
            }
        }
    }

    /// `e?`, greedy: Split(e, exit); e.
    fn optional(&mut self, e: impl FnOnce(&mut Compiler)) {
        let s = self.push(Inst::Split(0, 0));
        let body = self.pc();
        e(self);
        let exit = self.pc();
        self.insts[s] = Inst::Split(body, exit);
    }

    /// `e*`, greedy: L: Split(e, exit); e; Jmp L.
    fn star(&mut self, e: impl Fn(&mut Compiler)) {
        let s = self.push(Inst::Split(0, 0));
        let body = self.pc();
        e(self);
        self.push(Inst::Jmp(s));
        let exit = self.pc();
        self.insts[s] = Inst::Split(body, exit);
    }

    /// `e+`, greedy: L: e; Split(L, exit).
    fn plus(&mut self, e: impl Fn(&mut Compiler)) {
        let l = self.pc();
        e(self);
        let exit = self.pc() + 1;
        self.push(Inst::Split(l, exit));
    }

    fn modified(&mut self, m: Modifier, e: impl Fn(&mut Compiler)) {
        match m {
            Modifier::None => e(self),
            Modifier::Optional => self.optional(e),
            Modifier::ZeroOrMore => self.star(e),
            Modifier::OneOrMore => self.plus(e),
        }
    }
}

impl Program {
    /// Compiles a part list without `Regexp` parts (the caller checks).
    pub(crate) fn compile(parts: &[Part], options: &Options) -> Program {
        let mut c = Compiler {
            insts: Vec::new(),
            delimiter: options.delimiter,
        };
        let mut group = 0;
        for part in parts {
            if part.ty == PartType::FixedText {
                let v = part.value.clone();
                c.modified(part.modifier, |c| c.text(&v));
                continue;
            }
            let (open, close) = (2 * group, 2 * group + 1);
            group += 1;
            let ty = part.ty;
            let repeat = matches!(part.modifier, Modifier::ZeroOrMore | Modifier::OneOrMore);
            let (prefix, suffix) = (part.prefix.clone(), part.suffix.clone());
            if prefix.is_empty() && suffix.is_empty() {
                if !repeat {
                    // (body)modifier. ECMAScript fails an iteration of `?` that matches
                    // the empty string, so `(.*)?` is `(.+)?`: an empty wildcard is a group
                    // that did not take part.
                    let non_empty = part.modifier == Modifier::Optional;
                    c.modified(part.modifier, |c| {
                        c.push(Inst::Save(open));
                        c.body_of(ty, non_empty);
                        c.push(Inst::Save(close));
                    });
                } else {
                    // ((?:body)modifier)
                    c.push(Inst::Save(open));
                    c.modified(part.modifier, |c| c.body(ty));
                    c.push(Inst::Save(close));
                }
                continue;
            }
            if !repeat {
                // (?:prefix(body)suffix)modifier
                c.modified(part.modifier, |c| {
                    c.text(&prefix);
                    c.push(Inst::Save(open));
                    c.body(ty);
                    c.push(Inst::Save(close));
                    c.text(&suffix);
                });
                continue;
            }
            // (?:prefix((?:body)(?:suffix prefix(?:body))*)suffix)  [? for zero-or-more]
            let whole = |c: &mut Compiler| {
                c.text(&prefix);
                c.push(Inst::Save(open));
                c.body(ty);
                c.star(|c| {
                    c.text(&suffix);
                    c.text(&prefix);
                    c.body(ty);
                });
                c.push(Inst::Save(close));
                c.text(&suffix);
            };
            if part.modifier == Modifier::ZeroOrMore {
                c.optional(whole);
            } else {
                whole(&mut c);
            }
        }
        c.push(Inst::Match);
        let literal = parts
            .iter()
            .all(|p| p.ty == PartType::FixedText && p.modifier == Modifier::None)
            .then(|| parts.iter().map(|p| p.value.as_str()).collect());
        let always = matches!(parts, [p] if p.ty == PartType::FullWildcard
            && p.modifier == Modifier::None && p.prefix.is_empty() && p.suffix.is_empty());
        let closures = (c.insts.len() <= 64)
            .then(|| (0..c.insts.len()).map(|pc| closure(&c.insts, pc)).collect());
        let prefix = fixed_text(parts.iter()).concat();
        let mut suffix = fixed_text(parts.iter().rev());
        suffix.reverse();
        let suffix = suffix.concat();
        let prefix_insts = prefix.chars().count();
        let rest_always = closures
            .as_ref()
            .is_some_and(|cl: &Vec<u64>| accepts_any_rest(&c.insts, cl, prefix_insts));
        Program {
            rest_always,
            insts: c.insts,
            slots: 2 * group,
            ignore_case: options.ignore_case,
            literal,
            always,
            prefix_insts,
            prefix,
            suffix,
            closures,
        }
    }

    /// Whether `input` starts with the fixed prefix and ends with the fixed suffix every
    /// match has (ASCII case folded when ignoring case): a quick test before the VM.
    fn fixed_ends_fit(&self, input: &str) -> bool {
        let (i, p, s) = (
            input.as_bytes(),
            self.prefix.as_bytes(),
            self.suffix.as_bytes(),
        );
        if i.len() < p.len() || i.len() < s.len() {
            return false;
        }
        let (head, tail) = (&i[..p.len()], &i[i.len() - s.len()..]);
        if self.ignore_case {
            head.eq_ignore_ascii_case(p) && tail.eq_ignore_ascii_case(s)
        } else {
            head == p && tail == s
        }
    }

    /// Whether every input matches (`*` alone).
    pub(crate) fn matches_everything(&self) -> bool {
        self.always
    }

    /// The number of groups.
    pub(crate) fn groups(&self) -> usize {
        self.slots / 2
    }

    /// Whether `input` matches; no captures.
    pub(crate) fn is_match(&self, input: &str) -> bool {
        if let Some(lit) = &self.literal {
            return if self.ignore_case {
                lit.eq_ignore_ascii_case(input)
            } else {
                lit == input
            };
        }
        if self.always {
            return true;
        }
        match &self.closures {
            Some(closures) => self.run_bits(input, closures),
            None => self.run(input, false).is_some(),
        }
    }

    /// The bit-parallel NFA: the set of threads is a `u64` (programs of at most 64
    /// instructions), no captures, no allocation; O(input × threads).
    /// The leading `Char` instructions that spell the fixed prefix are skipped: the
    /// prefix is compared as bytes first (no instruction before the prefix's end is the
    /// target of a jump, so the threads after it are the closure of the next instruction).
    fn run_bits(&self, input: &str, closures: &[u64]) -> bool {
        if !self.fixed_ends_fit(input) {
            return false;
        }
        if self.rest_always {
            return true;
        }
        let mut state = closures[self.prefix_insts];
        for c in input[self.prefix.len()..].chars() {
            let takes = |pc: usize| match self.insts[pc] {
                Inst::Char(want) => self.char_eq(want, c),
                Inst::NotDelim(d) => Some(c) != d,
                Inst::Any => true,
                _ => false,
            };
            state = bitnfa::step(state, takes, |pc| closures[pc + 1]);
            if state == 0 {
                return false;
            }
        }
        bitnfa::each(state).any(|pc| matches!(self.insts[pc], Inst::Match))
    }

    /// The byte ranges of the groups when `input` matches (`None` for a group that did
    /// not take part).
    pub(crate) fn captures(&self, input: &str) -> Option<Vec<Option<(usize, usize)>>> {
        if self.always {
            return Some(vec![Some((0, input.len()))]);
        }
        let slots = self.run(input, true)?;
        Some(
            (0..self.groups())
                .map(|g| match (slots[2 * g], slots[2 * g + 1]) {
                    (Some(a), Some(b)) => Some((a, b)),
                    _ => None,
                })
                .collect(),
        )
    }

    fn char_eq(&self, want: char, got: char) -> bool {
        want == got || (self.ignore_case && want.eq_ignore_ascii_case(&got))
    }

    /// The Pike VM: threads in priority order, one list per input position, each
    /// program counter at most once per list. Anchored at both ends.
    fn run(&self, input: &str, with_captures: bool) -> Option<Vec<Option<usize>>> {
        let nslots = if with_captures { self.slots } else { 0 };
        with_lists(self.insts.len(), nslots, |clist, nlist| {
            self.run_in(input, clist, nlist)
        })
    }

    /// [`Program::run`] in the thread lists `clist` and `nlist`.
    fn run_in<'t>(
        &self,
        input: &str,
        clist: &'t mut Threads,
        nlist: &'t mut Threads,
    ) -> Option<Vec<Option<usize>>> {
        let nslots = clist.nslots;
        let mut stack: Vec<Frame> = Vec::new();
        let (mut clist, mut nlist) = (clist, nlist);
        let mut scratch: Vec<Option<usize>> = vec![None; nslots];
        self.add(clist, 0, 0, &mut scratch, &mut stack);
        let mut matched: Option<Vec<Option<usize>>> = None;
        let mut chars = input.char_indices();
        loop {
            let next = chars.next();
            let (pos, ch) = match next {
                Some((p, c)) => (p, Some(c)),
                None => (input.len(), None),
            };
            let next_pos = ch.map_or(pos, |c| pos + c.len_utf8());
            nlist.clear();
            for i in 0..clist.len {
                let pc = clist.pcs[i];
                let consumes = match (&self.insts[pc], ch) {
                    (Inst::Match, None) => {
                        // Anchored at the end: the first thread that is here wins, and
                        // no thread after it (lower priority) may.
                        matched = Some(clist.slots(i).to_vec());
                        break;
                    }
                    (Inst::Char(want), Some(c)) => self.char_eq(*want, c),
                    (Inst::NotDelim(d), Some(c)) => Some(c) != *d,
                    (Inst::Any, Some(_)) => true,
                    _ => false,
                };
                if consumes {
                    scratch.copy_from_slice(clist.slots(i));
                    self.add(nlist, pc + 1, next_pos, &mut scratch, &mut stack);
                }
            }
            if matched.is_some() || ch.is_none() {
                return matched;
            }
            if nlist.len == 0 {
                return None;
            }
            std::mem::swap(&mut clist, &mut nlist);
        }
    }

    /// Follows the empty transitions from `pc` (in priority order), adding the threads
    /// that wait on a code point (or on the end) to `list`.
    fn add(
        &self,
        list: &mut Threads,
        pc: usize,
        pos: usize,
        slots: &mut [Option<usize>],
        stack: &mut Vec<Frame>,
    ) {
        stack.push(Frame::Explore(pc));
        while let Some(frame) = stack.pop() {
            let pc = match frame {
                Frame::Restore(slot, old) => {
                    slots[slot] = old;
                    continue;
                }
                Frame::Explore(pc) => pc,
            };
            if list.contains(pc) {
                continue;
            }
            list.mark(pc);
            match self.insts[pc] {
                Inst::Jmp(t) => stack.push(Frame::Explore(t)),
                Inst::Split(a, b) => {
                    stack.push(Frame::Explore(b));
                    stack.push(Frame::Explore(a));
                }
                Inst::Save(s) => {
                    if s < slots.len() {
                        stack.push(Frame::Restore(s, slots[s]));
                        slots[s] = Some(pos);
                    }
                    stack.push(Frame::Explore(pc + 1));
                }
                _ => list.push(pc, slots),
            }
        }
    }
}

/// Whether the threads at `pc` (the closure of the instruction after the prefix) accept
/// any rest: they include `Match`, every one that consumes is `Any`, and after any code
/// point the threads are the same again.
fn accepts_any_rest(insts: &[Inst], closures: &[u64], pc: usize) -> bool {
    let state = closures[pc];
    let (mut has_match, mut next) = (false, 0u64);
    for at in bitnfa::each(state) {
        match insts[at] {
            Inst::Match => has_match = true,
            Inst::Any => next |= closures[at + 1],
            _ => return false,
        }
    }
    has_match && next == state
}

/// The values of the fixed parts (no modifier) at the front of `parts`.
fn fixed_text<'p>(parts: impl Iterator<Item = &'p Part>) -> Vec<&'p str> {
    parts
        .take_while(|p| p.ty == PartType::FixedText && p.modifier == Modifier::None)
        .map(|p| p.value.as_str())
        .collect()
}

/// The instructions that wait on a code point or are `Match`, reachable from `pc` by
/// empty transitions (`Jmp`, `Split`, `Save`), as a bit set.
fn closure(insts: &[Inst], pc: usize) -> u64 {
    let mut seen = 0u64;
    let mut out = 0u64;
    let mut stack = vec![pc];
    while let Some(pc) = stack.pop() {
        if seen & (1 << pc) != 0 {
            continue;
        }
        seen |= 1 << pc;
        match insts[pc] {
            Inst::Jmp(t) => stack.push(t),
            Inst::Split(a, b) => {
                stack.push(a);
                stack.push(b);
            }
            Inst::Save(_) => stack.push(pc + 1),
            _ => out |= 1 << pc,
        }
    }
    out
}

enum Frame {
    Explore(usize),
    Restore(usize, Option<usize>),
}

/// A sparse set of program counters, in insertion (priority) order, with their slots.
pub(crate) struct Threads {
    pub(crate) dense: Vec<usize>,
    pub(crate) sparse: Vec<usize>,
    pub(crate) marked: usize,
    pub(crate) pcs: Vec<usize>,
    pub(crate) slot_data: Vec<Option<usize>>,
    pub(crate) nslots: usize,
    pub(crate) len: usize,
}

/// A thread's list pair is kept for the next match when it holds at most this many
/// slots (a program of thousands of groups leaves nothing behind).
const KEEP_SLOTS: usize = 1 << 16;

thread_local! {
    /// Each Pike VM's two thread lists, kept between the matches a thread runs so that a
    /// match allocates nothing once the thread has run a program at least as large.
    static LISTS: std::cell::Cell<Option<Box<(Threads, Threads)>>> =
        const { std::cell::Cell::new(None) };
}

/// Runs `f` with two empty thread lists for a program of `n` instructions and `nslots`
/// capture slots: this thread's kept pair (grown as needed), else a new one.
pub(crate) fn with_lists<R>(
    n: usize,
    nslots: usize,
    f: impl FnOnce(&mut Threads, &mut Threads) -> R,
) -> R {
    let mut lists = LISTS
        .with(std::cell::Cell::take)
        .unwrap_or_else(|| Box::new((Threads::new(0, 0), Threads::new(0, 0))));
    lists.0.reset(n, nslots);
    lists.1.reset(n, nslots);
    let out = f(&mut lists.0, &mut lists.1);
    if lists.0.slot_data.len() <= KEEP_SLOTS {
        LISTS.with(|c| c.set(Some(lists)));
    }
    out
}

impl Threads {
    /// Empties the list and makes room for `n` program counters of `nslots` slots each.
    pub(crate) fn reset(&mut self, n: usize, nslots: usize) {
        if self.dense.len() < n {
            self.dense.resize(n, 0);
            self.sparse.resize(n, 0);
            self.pcs.resize(n, 0);
        }
        if self.slot_data.len() < n * nslots {
            self.slot_data.resize(n * nslots, None);
        }
        self.nslots = nslots;
        self.clear();
    }

    pub(crate) fn new(n: usize, nslots: usize) -> Threads {
        Threads {
            dense: vec![0; n],
            sparse: vec![0; n],
            marked: 0,
            pcs: vec![0; n],
            slot_data: vec![None; n * nslots],
            nslots,
            len: 0,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.marked = 0;
        self.len = 0;
    }

    pub(crate) fn contains(&self, pc: usize) -> bool {
        let i = self.sparse[pc];
        i < self.marked && self.dense[i] == pc
    }

    pub(crate) fn mark(&mut self, pc: usize) {
        self.sparse[pc] = self.marked;
        self.dense[self.marked] = pc;
        self.marked += 1;
    }

    pub(crate) fn push(&mut self, pc: usize, slots: &[Option<usize>]) {
        self.pcs[self.len] = pc;
        let at = self.len * self.nslots;
        self.slot_data[at..at + self.nslots].copy_from_slice(&slots[..self.nslots]);
        self.len += 1;
    }

    pub(crate) fn slots(&self, i: usize) -> &[Option<usize>] {
        &self.slot_data[i * self.nslots..(i + 1) * self.nslots]
    }
}

/// The flags the Standard compiles with: `v` (`vi` when ignoring case). `regress` takes
/// the Unicode mode's syntax rules (no identity escape of a letter, for one) from its `u`
/// flag, which `v` implies in ECMAScript, so both are set.
pub(crate) fn flags(ignore_case: bool) -> regress::Flags {
    regress::Flags {
        icase: ignore_case,
        unicode: true,
        unicode_sets: true,
        ..regress::Flags::default()
    }
}
