//! A list loaded at run time: the rules as a tree of labels, right to left, with one
//! open-addressing hash table for every (parent, label) edge.
//!
//! A lookup walks the domain's labels from the right, following at each node the child of
//! that label and the wildcard child, and notes the longest matching rule and the longest
//! matching exception of the sections asked for: the list's formal algorithm. Each node
//! is reached by one path, so a lookup visits each node at most once.

use super::{ListError, ListErrorKind, Section, Sections};
use std::collections::HashMap;

const NONE: u32 = u32::MAX;

/// Rule flags of a node: a rule, an exception, per section.
const ICANN_RULE: u8 = 1;
const ICANN_EXCEPTION: u8 = 2;
const PRIVATE_RULE: u8 = 4;
const PRIVATE_EXCEPTION: u8 = 8;

#[derive(Clone, Debug)]
struct Node {
    parent: u32,
    /// The label, in `Rules::labels`.
    label: (u32, u32),
    /// The `*` child, or `NONE`.
    wildcard: u32,
    flags: u8,
}

/// The rules of a loaded list.
#[derive(Clone, Debug)]
pub(crate) struct Rules {
    /// Node 0 is the root.
    nodes: Vec<Node>,
    labels: String,
    /// (tag, node id) by hash of (parent, label): the tag is the hash's high half, so
    /// that most mismatches are decided without reading the node; id `NONE` is an empty
    /// slot.
    table: Vec<(u32, u32)>,
    rule_count: usize,
}

fn edge_hash(parent: u32, label: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = (parent as u64 ^ label.len() as u64).wrapping_mul(K);
    let mut chunks = label.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    let mut tail = 0u64;
    for (i, &b) in chunks.remainder().iter().enumerate() {
        tail |= (b as u64) << (8 * i);
    }
    h = (h.rotate_left(5) ^ tail).wrapping_mul(K);
    h ^ (h >> 29)
}

/// A matching rule: how many labels deep, where the suffix it gives starts, its section.
#[derive(Clone, Copy)]
struct Found {
    depth: usize,
    start: usize,
    section: Section,
}

/// The longest matching rule and the longest matching exception met so far.
#[derive(Default)]
struct Best {
    rule: Option<Found>,
    exception: Option<Found>,
}

const RULES: u8 = ICANN_RULE | PRIVATE_RULE;
const EXCEPTIONS: u8 = ICANN_EXCEPTION | PRIVATE_EXCEPTION;

/// The start of the label of `name` that ends at `end`.
#[inline]
fn label_start(name: &[u8], end: usize) -> usize {
    name[..end]
        .iter()
        .rposition(|&b| b == b'.')
        .map_or(0, |dot| dot + 1)
}

impl Rules {
    pub(crate) fn rule_count(&self) -> usize {
        self.rule_count
    }

    fn label(&self, node: u32) -> &str {
        let (start, end) = self.nodes[node as usize].label;
        &self.labels[start as usize..end as usize]
    }

    #[inline]
    fn child(&self, parent: u32, label: &[u8]) -> Option<u32> {
        let mask = self.table.len() - 1;
        let hash = edge_hash(parent, label);
        let tag = (hash >> 32) as u32;
        let mut slot = hash as usize & mask;
        loop {
            let (t, id) = self.table[slot];
            if id == NONE {
                return None;
            }
            if t == tag
                && self.nodes[id as usize].parent == parent
                && self.label(id).as_bytes() == label
            {
                return Some(id);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// The length in bytes of the public suffix of `name` (ASCII, no trailing dot, not
    /// starting with a dot) and the section of the prevailing rule (`None`: the implicit
    /// `*`).
    pub(crate) fn find(&self, name: &str, sections: Sections) -> (usize, Option<Section>) {
        let name = name.as_bytes();
        let mask = match sections {
            Sections::All => RULES | EXCEPTIONS,
            Sections::Icann => ICANN_RULE | ICANN_EXCEPTION,
        };
        let mut best = Best::default();
        let last = label_start(name, name.len());
        self.step(name, 0, last, name.len(), 1, mask, &mut best);
        let (start, section) = match (best.exception, best.rule) {
            // An exception rule prevails; the suffix is the rule less its first label.
            (Some(found), _) | (None, Some(found)) => (found.start, Some(found.section)),
            (None, None) => (last, None),
        };
        (name.len() - start, section)
    }

    /// Matches the label of `name` at `start..end` (the `depth`-th from the right) under
    /// `node`, following the label's child and the wildcard child, and on to the left.
    #[allow(clippy::too_many_arguments)] // the walk's state, kept in registers
    fn step(
        &self,
        name: &[u8],
        mut node: u32,
        mut start: usize,
        mut end: usize,
        mut depth: usize,
        mask: u8,
        best: &mut Best,
    ) {
        loop {
            let wildcard = self.nodes[node as usize].wildcard;
            let next = match self.child(node, &name[start..end]) {
                Some(exact) => {
                    if wildcard != NONE {
                        self.step_into(name, wildcard, start, end, depth, mask, best);
                    }
                    exact
                }
                None if wildcard != NONE => wildcard,
                None => return,
            };
            if !self.note(next, start, end, depth, mask, best) {
                return;
            }
            node = next;
            end = start - 1;
            start = label_start(name, end);
            depth += 1;
        }
    }

    /// `node` matched the label at `start..end`: note its rules, then go on to the left.
    #[allow(clippy::too_many_arguments)]
    fn step_into(
        &self,
        name: &[u8],
        node: u32,
        start: usize,
        end: usize,
        depth: usize,
        mask: u8,
        best: &mut Best,
    ) {
        if self.note(node, start, end, depth, mask, best) {
            let next_end = start - 1;
            self.step(
                name,
                node,
                label_start(name, next_end),
                next_end,
                depth + 1,
                mask,
                best,
            );
        }
    }

    /// Notes the rules of `node` (matched by the label at `start..end`); whether there
    /// is a label further left.
    #[inline]
    fn note(
        &self,
        node: u32,
        start: usize,
        end: usize,
        depth: usize,
        mask: u8,
        best: &mut Best,
    ) -> bool {
        let flags = self.nodes[node as usize].flags & mask;
        if flags != 0 {
            let section = |icann: u8| {
                if flags & icann != 0 {
                    Section::Icann
                } else {
                    Section::Private
                }
            };
            if flags & RULES != 0 && best.rule.is_none_or(|f| f.depth < depth) {
                let section = section(ICANN_RULE);
                best.rule = Some(Found {
                    depth,
                    start,
                    section,
                });
            }
            if flags & EXCEPTIONS != 0 && best.exception.is_none_or(|f| f.depth < depth) {
                // The suffix is the rule less this label: it starts after `end`'s dot.
                let section = section(ICANN_EXCEPTION);
                best.exception = Some(Found {
                    depth,
                    start: end + 1,
                    section,
                });
            }
        }
        start > 0
    }

    /// Reads the text of a list (see [`super::SuffixList::parse`]).
    pub(crate) fn parse(text: &str) -> Result<Rules, ListError> {
        let mut builder = Builder::default();
        let mut section = Section::Icann;
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = line.trim_start();
            if let Some(comment) = line.strip_prefix("//") {
                if comment.contains("===BEGIN PRIVATE DOMAINS===") {
                    section = Section::Private;
                } else if comment.contains("===BEGIN ICANN DOMAINS===")
                    || comment.contains("===END PRIVATE DOMAINS===")
                {
                    section = Section::Icann;
                }
                continue;
            }
            let Some(rule) = line.split_whitespace().next() else {
                continue;
            };
            builder
                .add(rule, section)
                .map_err(|kind| ListError::new(line_no, kind))?;
        }
        if builder.rule_count == 0 {
            return Err(ListError::new(0, ListErrorKind::NoRules));
        }
        Ok(builder.finish())
    }
}

#[derive(Default)]
struct Builder {
    nodes: Vec<Node>,
    labels: String,
    edges: HashMap<(u32, String), u32>,
    rule_count: usize,
}

impl Builder {
    fn add(&mut self, rule: &str, section: Section) -> Result<(), ListErrorKind> {
        if self.nodes.is_empty() {
            self.nodes.push(Node {
                parent: NONE,
                label: (0, 0),
                wildcard: NONE,
                flags: 0,
            });
        }
        let (exception, body) = match rule.strip_prefix('!') {
            Some(body) => (true, body),
            None => (false, rule),
        };
        if body.split('.').any(str::is_empty) {
            return Err(ListErrorKind::EmptyLabel(rule.to_owned()));
        }
        if body.contains('!') || (exception && (!body.contains('.') || body.contains('*'))) {
            return Err(ListErrorKind::BadException(rule.to_owned()));
        }
        if body.split('.').any(|l| l != "*" && l.contains('*')) {
            return Err(ListErrorKind::BadWildcard(rule.to_owned()));
        }
        // The ASCII form, as hosts are serialized: lower case, Punycode.
        let ascii = crate::host::domain_to_ascii(body, false)
            .map_err(|e| ListErrorKind::InvalidDomain(rule.to_owned(), e))?;
        if ascii.split('.').any(str::is_empty) {
            return Err(ListErrorKind::EmptyLabel(rule.to_owned()));
        }
        let mut node = 0u32;
        for label in ascii.rsplit('.') {
            node = self.child_or_insert(node, label);
        }
        let flag = match (section, exception) {
            (Section::Icann, false) => ICANN_RULE,
            (Section::Icann, true) => ICANN_EXCEPTION,
            (Section::Private, false) => PRIVATE_RULE,
            (Section::Private, true) => PRIVATE_EXCEPTION,
        };
        let flags = &mut self.nodes[node as usize].flags;
        if *flags & flag == 0 {
            self.rule_count += 1;
        }
        *flags |= flag;
        Ok(())
    }

    fn child_or_insert(&mut self, parent: u32, label: &str) -> u32 {
        if label == "*" {
            let w = self.nodes[parent as usize].wildcard;
            if w != NONE {
                return w;
            }
        } else if let Some(&id) = self.edges.get(&(parent, label.to_owned())) {
            return id;
        }
        let id = self.nodes.len() as u32;
        let start = self.labels.len() as u32;
        self.labels.push_str(label);
        self.nodes.push(Node {
            parent,
            label: (start, self.labels.len() as u32),
            wildcard: NONE,
            flags: 0,
        });
        if label == "*" {
            self.nodes[parent as usize].wildcard = id;
        } else {
            self.edges.insert((parent, label.to_owned()), id);
        }
        id
    }

    fn finish(self) -> Rules {
        // At most a quarter full: most lookups that miss stop at an empty slot.
        let size = (self.edges.len() * 4).next_power_of_two().max(8);
        let mut rules = Rules {
            nodes: self.nodes,
            labels: self.labels,
            table: vec![(0, NONE); size],
            rule_count: self.rule_count,
        };
        let mask = size - 1;
        for &id in self.edges.values() {
            let node = &rules.nodes[id as usize];
            let (start, end) = node.label;
            let label = &rules.labels.as_bytes()[start as usize..end as usize];
            let hash = edge_hash(node.parent, label);
            let mut slot = hash as usize & mask;
            while rules.table[slot].1 != NONE {
                slot = (slot + 1) & mask;
            }
            rules.table[slot] = ((hash >> 32) as u32, id);
        }
        rules
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Section, Sections, SuffixList};
    use super::ListErrorKind;

    const LIST: &str = "\
// ===BEGIN ICANN DOMAINS===
com
uk
co.uk
*.ck
!www.ck
jp
*.kawasaki.jp
!city.kawasaki.jp
公司.cn
cn
// ===END ICANN DOMAINS===
// ===BEGIN PRIVATE DOMAINS===
github.io
blogspot.com
*.compute.example.com
// ===END PRIVATE DOMAINS===
";

    fn check(list: &SuffixList, domain: &str, sections: Sections) -> (String, Option<String>) {
        let s = list.lookup(domain, sections).unwrap();
        (
            s.as_str().to_owned(),
            s.registrable_domain().map(str::to_owned),
        )
    }

    #[test]
    fn formal_algorithm() {
        let list = SuffixList::parse(LIST).unwrap();
        assert_eq!(list.rule_count(), Some(13));
        let cases: &[(&str, &str, Option<&str>)] = &[
            ("com", "com", None),
            ("a.b.example.com", "com", Some("example.com")),
            ("b.example.co.uk", "co.uk", Some("example.co.uk")),
            ("ck", "ck", None),
            ("c.ck", "c.ck", None),
            ("b.c.ck", "c.ck", Some("b.c.ck")),
            ("www.ck", "ck", Some("www.ck")),
            ("w.www.ck", "ck", Some("www.ck")),
            ("x.kawasaki.jp", "x.kawasaki.jp", None),
            ("city.kawasaki.jp", "kawasaki.jp", Some("city.kawasaki.jp")),
            (
                "a.city.kawasaki.jp",
                "kawasaki.jp",
                Some("city.kawasaki.jp"),
            ),
            ("xn--55qx5d.cn", "xn--55qx5d.cn", None),
            ("a.xn--55qx5d.cn", "xn--55qx5d.cn", Some("a.xn--55qx5d.cn")),
            ("b.compute.example.com", "b.compute.example.com", None),
            (
                "a.b.compute.example.com",
                "b.compute.example.com",
                Some("a.b.compute.example.com"),
            ),
            (
                "x.a.b.compute.example.com",
                "b.compute.example.com",
                Some("a.b.compute.example.com"),
            ),
            ("example.unlisted", "unlisted", Some("example.unlisted")),
            ("example.com.", "com.", Some("example.com.")),
        ];
        for &(domain, suffix, registrable) in cases {
            let got = check(&list, domain, Sections::All);
            assert_eq!(
                got,
                (suffix.to_owned(), registrable.map(str::to_owned)),
                "{domain}"
            );
        }
        assert_eq!(
            check(&list, "x.github.io", Sections::Icann),
            ("io".to_owned(), Some("github.io".to_owned()))
        );
        let s = list.lookup("x.github.io", Sections::All).unwrap();
        assert_eq!(s.section(), Some(Section::Private));
        assert!(!list.lookup("a.unlisted", Sections::All).unwrap().is_known());
        let s = list
            .lookup("x.a.compute.example.com", Sections::Icann)
            .unwrap();
        assert_eq!((s.as_str(), s.section()), ("com", Some(Section::Icann)));
    }

    #[test]
    fn wildcard_and_exact_children_both_count() {
        // `*.foo` matches `x.baz.foo` although `baz.foo` leads on to `bar.baz.foo`.
        let list = SuffixList::parse("foo\n*.foo\nbar.baz.foo\n").unwrap();
        assert_eq!(check(&list, "x.baz.foo", Sections::All).0, "baz.foo");
        assert_eq!(check(&list, "bar.baz.foo", Sections::All).0, "bar.baz.foo");
    }

    #[test]
    fn malformed_rules_name_their_line() {
        let cases: &[(&str, usize, ListErrorKind)] = &[
            ("com\n.com\n", 2, ListErrorKind::EmptyLabel(".com".into())),
            (
                "com\n\n  a..b  // note\n",
                3,
                ListErrorKind::EmptyLabel("a..b".into()),
            ),
            ("a*.com\n", 1, ListErrorKind::BadWildcard("a*.com".into())),
            ("!com\n", 1, ListErrorKind::BadException("!com".into())),
            (
                "!*.b.com\n",
                1,
                ListErrorKind::BadException("!*.b.com".into()),
            ),
            (
                "a!b.com\n",
                1,
                ListErrorKind::BadException("a!b.com".into()),
            ),
            ("// only comments\n\n", 0, ListErrorKind::NoRules),
        ];
        for (text, line, kind) in cases {
            let err = SuffixList::parse(text).unwrap_err();
            assert_eq!((err.line(), err.kind()), (*line, kind), "{text:?}");
        }
        let err = SuffixList::parse("com\nexa mple\nbad<host.com\n").unwrap_err();
        assert_eq!(err.line(), 3);
        assert_eq!(
            err.to_string(),
            "line 3: rule \"bad<host.com\" is not a domain: domain-invalid-code-point at byte 3: \
             the domain contains a forbidden code point"
        );
    }

    #[test]
    fn unicode_and_upper_case_rules_are_stored_in_ascii() {
        let list = SuffixList::parse("Example\nإختبار\n").unwrap();
        assert!(list.lookup("a.example", Sections::All).unwrap().is_known());
        let s = list.lookup("a.b.xn--kgbechtv", Sections::All).unwrap();
        assert_eq!((s.as_str(), s.is_known()), ("xn--kgbechtv", true));
    }
}
