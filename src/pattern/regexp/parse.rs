//! Parsing an ECMAScript regular expression (the syntax of the `v` flag) into a tree.
//!
//! The source has been validated by `regress` first (the Standard's errors come from
//! there), so this parser reads valid syntax only; what it cannot represent it reports as
//! [`Unsupported`].

use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

/// A regexp feature this engine does not run, or (`syntax`) a regexp ECMAScript
/// refuses that `regress` accepts (the caller reports it).
#[derive(Debug)]
pub(crate) struct Unsupported(pub(crate) String, pub(crate) bool);

/// A zero-width assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Assertion {
    /// `^` (no `m` flag: the start of the input).
    Start,
    /// `$` (the end of the input).
    End,
    /// `\b`.
    WordBoundary,
    /// `\B`.
    NotWordBoundary,
}

/// A node of the regexp tree.
#[derive(Clone, Debug)]
pub(crate) enum Node {
    /// Matches the empty string.
    Empty,
    /// One code point of the set (already closed under case folding with `i`).
    Set(ClassUnicode),
    /// A class with strings (`[\q{ab|c}]`): the strings, longest first, then the set.
    Strings(Vec<Vec<char>>, ClassUnicode),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    /// A group; `Some(i)` captures as group `i` (1-based).
    Group(Option<usize>, Box<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
    Assert(Assertion),
    Look {
        ahead: bool,
        negate: bool,
        node: Box<Node>,
    },
    /// `\1` or `\k<name>`: the groups the reference may name (several for duplicate names).
    BackRef(Vec<usize>),
}

impl Node {
    /// Whether the node can match the empty string (assertions and lookarounds count as
    /// empty).
    pub(crate) fn nullable(&self) -> bool {
        match self {
            Node::Empty | Node::Assert(_) | Node::Look { .. } | Node::BackRef(_) => true,
            Node::Set(_) => false,
            Node::Strings(s, _) => s.iter().any(Vec::is_empty),
            Node::Concat(v) => v.iter().all(Node::nullable),
            Node::Alt(v) => v.iter().any(Node::nullable),
            Node::Group(_, n) => n.nullable(),
            Node::Repeat { node, min, .. } => *min == 0 || node.nullable(),
        }
    }

    /// The range of capture groups inside the node (first, last + 1), if any.
    pub(crate) fn groups(&self) -> Option<(usize, usize)> {
        fn walk(n: &Node, out: &mut Option<(usize, usize)>) {
            match n {
                Node::Group(g, inner) => {
                    if let Some(g) = g {
                        let (lo, hi) = out.get_or_insert((*g, *g + 1));
                        *lo = (*lo).min(*g);
                        *hi = (*hi).max(*g + 1);
                    }
                    walk(inner, out);
                }
                Node::Concat(v) | Node::Alt(v) => v.iter().for_each(|n| walk(n, out)),
                Node::Repeat { node, .. } | Node::Look { node, .. } => walk(node, out),
                _ => {}
            }
        }
        let mut out = None;
        walk(self, &mut out);
        out
    }

    /// Whether a backreference or a lookaround occurs (the linear engine runs neither).
    pub(crate) fn needs_backtracking(&self) -> bool {
        match self {
            Node::Look { .. } | Node::BackRef(_) => true,
            Node::Concat(v) | Node::Alt(v) => v.iter().any(Node::needs_backtracking),
            Node::Group(_, n) => n.needs_backtracking(),
            Node::Repeat { node, .. } => node.needs_backtracking(),
            _ => false,
        }
    }
}

/// The parsed regexp: its tree and number of capture groups.
pub(crate) struct Parsed {
    pub(crate) node: Node,
    pub(crate) groups: usize,
}

struct Parser {
    s: Vec<char>,
    i: usize,
    icase: bool,
    groups: usize,
    names: Vec<(String, usize)>,
}

/// A class operand: a set of code points and the strings of other lengths.
#[derive(Clone, Debug)]
struct ClassValue {
    set: ClassUnicode,
    strings: Vec<Vec<char>>,
}

fn one(c: char) -> ClassUnicode {
    ClassUnicode::new([ClassUnicodeRange::new(c, c)])
}

fn ranges(r: &[(char, char)]) -> ClassUnicode {
    ClassUnicode::new(r.iter().map(|&(a, b)| ClassUnicodeRange::new(a, b)))
}

pub(crate) fn digit() -> ClassUnicode {
    ranges(&[('0', '9')])
}

pub(crate) fn word(icase: bool) -> ClassUnicode {
    let mut w = ranges(&[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')]);
    if icase {
        // Under `vi`, WordCharacters adds the code points whose case folding is a basic
        // word character: U+017F (ſ) and U+212A (K).
        w.case_fold_simple();
    }
    w
}

fn space() -> ClassUnicode {
    ranges(&[
        ('\t', '\r'),
        (' ', ' '),
        ('\u{a0}', '\u{a0}'),
        ('\u{1680}', '\u{1680}'),
        ('\u{2000}', '\u{200a}'),
        ('\u{2028}', '\u{2029}'),
        ('\u{202f}', '\u{202f}'),
        ('\u{205f}', '\u{205f}'),
        ('\u{3000}', '\u{3000}'),
        ('\u{feff}', '\u{feff}'),
    ])
}

fn dot() -> ClassUnicode {
    let mut lt = ranges(&[('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')]);
    lt.negate();
    lt
}

fn negated(mut c: ClassUnicode) -> ClassUnicode {
    c.negate();
    c
}

/// Parses `source` (valid under the `v` flag, `i` when `icase`).
pub(crate) fn parse(source: &str, icase: bool) -> Result<Parsed, Unsupported> {
    let mut p = Parser {
        s: source.chars().collect(),
        i: 0,
        icase,
        groups: 0,
        names: Vec::new(),
    };
    // Number the groups first (a backreference may come before its group).
    p.count_groups();
    let node = p.disjunction()?;
    if p.i != p.s.len() {
        return Err(Unsupported(format!("unexpected `{}`", p.s[p.i]), false));
    }
    Ok(Parsed {
        node,
        groups: p.groups,
    })
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.s.get(self.i + k).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn eat_str(&mut self, s: &str) -> bool {
        let n = s.chars().count();
        if self.s.len() >= self.i + n && s.chars().zip(&self.s[self.i..]).all(|(a, b)| a == *b) {
            self.i += n;
            true
        } else {
            false
        }
    }

    fn next(&mut self) -> Result<char, Unsupported> {
        let c = self
            .peek()
            .ok_or_else(|| Unsupported("unexpected end".into(), false))?;
        self.i += 1;
        Ok(c)
    }

    /// Records the names of the capture groups in order.
    fn count_groups(&mut self) {
        let mut n = 0;
        let mut i = 0;
        let mut in_class = 0usize;
        while i < self.s.len() {
            match self.s[i] {
                '\\' => i += 1,
                '[' => in_class += 1,
                ']' if in_class > 0 => in_class -= 1,
                '(' if in_class == 0 => {
                    if self.s.get(i + 1) != Some(&'?') {
                        n += 1;
                    } else if self.s.get(i + 2) == Some(&'<')
                        && !matches!(self.s.get(i + 3), Some('=' | '!'))
                    {
                        n += 1;
                        let name: String =
                            self.s[i + 3..].iter().take_while(|c| **c != '>').collect();
                        self.names.push((name, n));
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }

    fn disjunction(&mut self) -> Result<Node, Unsupported> {
        let mut alts = vec![self.alternative()?];
        while self.eat('|') {
            alts.push(self.alternative()?);
        }
        Ok(if alts.len() == 1 {
            alts.pop().expect("one")
        } else {
            Node::Alt(alts)
        })
    }

    fn alternative(&mut self) -> Result<Node, Unsupported> {
        let mut terms = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            terms.push(self.term()?);
        }
        Ok(match terms.len() {
            0 => Node::Empty,
            1 => terms.pop().expect("one"),
            _ => Node::Concat(terms),
        })
    }

    /// An assertion, which ECMAScript does not let a quantifier follow (`\b{2}` is a
    /// syntax error; regress 0.12 accepts it).
    fn assertion(&mut self, a: Assertion) -> Result<Node, Unsupported> {
        let quantified = match self.peek() {
            Some('*' | '+' | '?') => true,
            Some('{') => self.peek_at(1).is_some_and(|c| c.is_ascii_digit()),
            _ => false,
        };
        if quantified {
            return Err(Unsupported(
                "Nothing to repeat (a quantified assertion)".into(),
                true,
            ));
        }
        Ok(Node::Assert(a))
    }

    fn term(&mut self) -> Result<Node, Unsupported> {
        let atom = match self.next()? {
            '^' => return self.assertion(Assertion::Start),
            '$' => return self.assertion(Assertion::End),
            '\\' if self.eat('b') => return self.assertion(Assertion::WordBoundary),
            '\\' if self.eat('B') => return self.assertion(Assertion::NotWordBoundary),
            '(' => {
                if self.eat_str("?=")
                    || self.eat_str("?!")
                    || self.eat_str("?<=")
                    || self.eat_str("?<!")
                {
                    let ahead = self.s[self.i - 2] == '?';
                    let negate = self.s[self.i - 1] == '!';
                    let node = self.disjunction()?;
                    self.eat(')');
                    // Lookbehinds are matched right to left (see the compiler).
                    return Ok(Node::Look {
                        ahead,
                        negate,
                        node: Box::new(node),
                    });
                }
                let capture = if self.eat_str("?:") {
                    None
                } else if self.eat_str("?<") {
                    while self.next()? != '>' {}
                    Some(self.next_group())
                } else if self.peek() == Some('?') {
                    return Err(Unsupported("regexp modifiers `(?flags:…)`".into(), false));
                } else {
                    Some(self.next_group())
                };
                let node = self.disjunction()?;
                self.eat(')');
                Node::Group(capture, Box::new(node))
            }
            '.' => Node::Set(dot()),
            '[' => {
                let v = self.class()?;
                class_node(v)
            }
            '\\' => self.atom_escape()?,
            c => Node::Set(self.fold(one(c))),
        };
        self.quantifier(atom)
    }

    fn next_group(&mut self) -> usize {
        self.groups += 1;
        self.groups
    }

    fn fold(&self, mut c: ClassUnicode) -> ClassUnicode {
        if self.icase {
            c.case_fold_simple();
        }
        c
    }

    fn number(&mut self) -> Option<u32> {
        let start = self.i;
        let mut v: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            v = v.saturating_mul(10).saturating_add(d);
            self.i += 1;
        }
        (self.i > start).then_some(v)
    }

    fn quantifier(&mut self, atom: Node) -> Result<Node, Unsupported> {
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                let save = self.i;
                self.i += 1;
                let Some(min) = self.number() else {
                    self.i = save;
                    return Ok(atom);
                };
                let max = if self.eat(',') {
                    self.number()
                } else {
                    Some(min)
                };
                self.eat('}');
                self.i -= 1;
                (min, max)
            }
            _ => return Ok(atom),
        };
        self.i += 1;
        let greedy = !self.eat('?');
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
        })
    }

    fn atom_escape(&mut self) -> Result<Node, Unsupported> {
        let c = self
            .peek()
            .ok_or_else(|| Unsupported("trailing `\\`".into(), false))?;
        if let Some(set) = self.class_escape()? {
            return Ok(Node::Set(set));
        }
        if ('1'..='9').contains(&c) {
            let n = self.number().unwrap_or(0) as usize;
            return Ok(Node::BackRef(vec![n]));
        }
        if c == 'k' && self.peek_at(1) == Some('<') {
            self.i += 2;
            let mut name = String::new();
            loop {
                match self.next()? {
                    '>' => break,
                    ch => name.push(ch),
                }
            }
            let groups: Vec<usize> = self
                .names
                .iter()
                .filter(|(n, _)| *n == name)
                .map(|(_, g)| *g)
                .collect();
            return Ok(Node::BackRef(groups));
        }
        let ch = self.character_escape(false)?;
        Ok(Node::Set(self.fold(one(ch))))
    }

    /// `\d \D \s \S \w \W \p{…} \P{…}` after a `\`, as a set (folded under `i`).
    fn class_escape(&mut self) -> Result<Option<ClassUnicode>, Unsupported> {
        let Some(c) = self.peek() else {
            return Ok(None);
        };
        let set = match c {
            'd' => digit(),
            'D' => negated(digit()),
            's' => space(),
            'S' => negated(space()),
            'w' => word(self.icase),
            'W' => negated(word(self.icase)),
            'p' | 'P' => {
                self.i += 2; // p{
                let mut name = String::new();
                loop {
                    match self.next()? {
                        '}' => break,
                        ch => name.push(ch),
                    }
                }
                let set = self.fold(property(&name)?);
                return Ok(Some(if c == 'P' { negated(set) } else { set }));
            }
            _ => return Ok(None),
        };
        self.i += 1;
        Ok(Some(set))
    }

    /// A character escape after `\` (`in_class`: `\b` is U+0008, `\-` and the class set
    /// punctuators escape themselves).
    fn character_escape(&mut self, in_class: bool) -> Result<char, Unsupported> {
        let c = self.next()?;
        Ok(match c {
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            'b' if in_class => '\u{8}',
            '0' => '\0',
            'c' => {
                let l = self.next()?;
                char::from(l as u8 % 32)
            }
            'x' => {
                let h: String = [self.next()?, self.next()?].iter().collect();
                char::from(u8::from_str_radix(&h, 16).unwrap_or(0))
            }
            'u' => {
                let v = self.unicode_escape_value()?;
                if (0xd800..0xdc00).contains(&v) && self.s[self.i..].starts_with(&['\\', 'u']) {
                    let save = self.i;
                    self.i += 2;
                    let lo = self.unicode_escape_value()?;
                    if (0xdc00..0xe000).contains(&lo) {
                        let cp = 0x10000 + ((v - 0xd800) << 10) + (lo - 0xdc00);
                        return char::from_u32(cp)
                            .ok_or_else(|| Unsupported("bad escape".into(), false));
                    }
                    self.i = save;
                }
                match char::from_u32(v) {
                    Some(ch) => ch,
                    None => return Err(Unsupported("a lone surrogate escape".into(), false)),
                }
            }
            other => other,
        })
    }

    fn unicode_escape_value(&mut self) -> Result<u32, Unsupported> {
        let mut h = String::new();
        if self.eat('{') {
            loop {
                match self.next()? {
                    '}' => break,
                    ch => h.push(ch),
                }
            }
        } else {
            for _ in 0..4 {
                h.push(self.next()?);
            }
        }
        u32::from_str_radix(&h, 16).map_err(|_| Unsupported("bad escape".into(), false))
    }

    /// A class after its `[`, up to and including its `]`.
    fn class(&mut self) -> Result<ClassValue, Unsupported> {
        let negate = self.eat('^');
        let mut v = self.class_contents()?;
        self.eat(']');
        if negate {
            v.set.negate();
            v.strings.clear();
        }
        Ok(v)
    }

    fn class_contents(&mut self) -> Result<ClassValue, Unsupported> {
        let mut acc = ClassValue {
            set: ClassUnicode::empty(),
            strings: Vec::new(),
        };
        if self.peek() == Some(']') {
            return Ok(acc);
        }
        let (first, single) = self.class_operand()?;
        if self.peek() == Some('&') && self.peek_at(1) == Some('&') {
            acc = first;
            while self.eat_str("&&") {
                let (b, _) = self.class_operand()?;
                acc.set.intersect(&b.set);
                acc.strings.retain(|s| b.strings.contains(s));
            }
            return Ok(acc);
        }
        if self.peek() == Some('-') && self.peek_at(1) == Some('-') {
            acc = first;
            while self.eat_str("--") {
                let (b, _) = self.class_operand()?;
                acc.set.difference(&b.set);
                acc.strings.retain(|s| !b.strings.contains(s));
            }
            return Ok(acc);
        }
        let mut pending = Some((first, single));
        loop {
            let (op, single) = match pending.take() {
                Some(x) => x,
                None => {
                    if matches!(self.peek(), Some(']') | None) {
                        break;
                    }
                    self.class_operand()?
                }
            };
            if let Some(lo) = single
                && self.peek() == Some('-')
            {
                self.i += 1;
                let (_, hi) = self.class_operand()?;
                let hi = hi.ok_or_else(|| Unsupported("bad range".into(), false))?;
                let r = self.fold(ClassUnicode::new([ClassUnicodeRange::new(lo, hi)]));
                acc.set.union(&r);
                continue;
            }
            acc.set.union(&op.set);
            for s in op.strings {
                if !acc.strings.contains(&s) {
                    acc.strings.push(s);
                }
            }
        }
        Ok(acc)
    }

    /// One operand of a class: a nested class, a class escape, `\q{…}` or a character
    /// (then also returned as `Some(c)`, for a range).
    fn class_operand(&mut self) -> Result<(ClassValue, Option<char>), Unsupported> {
        let value = |set| ClassValue {
            set,
            strings: Vec::new(),
        };
        let c = self.next()?;
        if c == '[' {
            return Ok((self.class()?, None));
        }
        if c == '\\' {
            if let Some(set) = self.class_escape()? {
                return Ok((value(set), None));
            }
            if self.eat_str("q{") {
                let mut v = value(ClassUnicode::empty());
                let mut cur: Vec<char> = Vec::new();
                loop {
                    match self.next()? {
                        '}' | '|' => {
                            let done = self.s[self.i - 1] == '}';
                            let s = std::mem::take(&mut cur);
                            if s.len() == 1 {
                                v.set.union(&self.fold(one(s[0])));
                            } else {
                                let s = self.canon_string(s);
                                if !v.strings.contains(&s) {
                                    v.strings.push(s);
                                }
                            }
                            if done {
                                break;
                            }
                        }
                        '\\' => cur.push(self.character_escape(true)?),
                        ch => cur.push(ch),
                    }
                }
                return Ok((v, None));
            }
            let ch = self.character_escape(true)?;
            return Ok((value(self.fold(one(ch))), Some(ch)));
        }
        Ok((value(self.fold(one(c))), Some(c)))
    }

    /// A string of a class, each code point replaced by the least of its case folding
    /// class under `i` (so equal strings compare equal).
    fn canon_string(&self, s: Vec<char>) -> Vec<char> {
        if !self.icase {
            return s;
        }
        s.into_iter()
            .map(|c| self.fold(one(c)).ranges()[0].start())
            .collect()
    }
}

/// A class value as a node: the set alone, or the strings longest first then the set.
fn class_node(mut v: ClassValue) -> Node {
    if v.strings.is_empty() {
        return Node::Set(v.set);
    }
    v.strings.sort_by_key(|s| std::cmp::Reverse(s.len()));
    Node::Strings(v.strings, v.set)
}

/// The code points of a Unicode property `\p{name}` (or `name=value`), through
/// `regex-syntax`'s tables. Properties of strings are not supported.
fn property(name: &str) -> Result<ClassUnicode, Unsupported> {
    use regex_syntax::hir::{Class, HirKind};
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(&format!("\\p{{{name}}}"))
        .map_err(|_| Unsupported(format!("the property `\\p{{{name}}}`"), false))?;
    match hir.kind() {
        HirKind::Class(Class::Unicode(c)) => Ok(c.clone()),
        _ => Err(Unsupported(format!("the property `\\p{{{name}}}`"), false)),
    }
}
