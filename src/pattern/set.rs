//! [`PatternSet`]: many named URL patterns compiled once, matched against parsed URLs
//! through an index on their literal parts.
//!
//! Each pattern is filed under its hostname and its first two path segments when the
//! pattern fixes them (`api.example.com`, `users`, `posts` for
//! `https://api.example.com/users/posts/:id`), else under "any": a trie per host, of
//! first segments, then second segments. A hostname that is fixed text with optional
//! pieces (`{www.}?example.com`) is filed under each text it matches; a hostname
//! `*.example.com` under the suffix `.example.com`. A URL looks up its own host (each
//! host the table names knows the `*.suffix` hosts it ends with; another host is
//! looked up by each of its suffixes starting at a `.`), and goes down each of those
//! tries and the "any host" trie as far as its first two segments lead. Each trie node
//! holds its candidates and those of the nodes above it (a list of more than
//! [`PUSH_DOWN`] is not copied: the node then names it), contiguous, in the order the
//! patterns were added; a URL merges the lists of at most a few nodes, with no
//! allocation.
//!
//! A candidate carries what rejects it without reading the pattern: the number of `/`
//! its pathname allows, the protocols it matches (as a bit set over the table's fixed
//! protocols: `http{s}?` is two bits), whether the port must be empty, the fixed text
//! its pathname ends with (up to 8 bytes), and whether the index has proven it already
//! (nothing left to test). Then the components the index has not proven and that are
//! not `*` are tested, pathname first; a pathname of fixed text and `/:name` segments
//! only is matched segment by segment, without its program.
//!
//! The index is built from the patterns on the first lookup after a pattern is added
//! (a `OnceLock`: a set is shared between threads as it is).

use super::init::{HASH, HOSTNAME, PASSWORD, PATHNAME, PORT, PROTOCOL, SEARCH, USERNAME};
use super::parts::{Modifier, PartType};
use super::{
    Component, PatternError, UrlPattern, UrlPatternInit, UrlPatternOptions, UrlPatternResult,
    constructor, url_parts,
};
use crate::UrlRef;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

/// A node's ancestors' lists of at most this many candidates are copied into it; a
/// longer one is named instead (merged at lookup), so that the copies stay within
/// `PUSH_DOWN` × 2 per node whatever the table.
const PUSH_DOWN: usize = 16;

/// A small, fast hasher for the index's keys (the route table's own text: a hash flood
/// would need a hostile route table, not a hostile URL).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let mut last = [0u8; 8];
        let rest = chunks.remainder();
        last[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 59));
    }

    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

impl KeyHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type Map<T> = HashMap<String, T, BuildHasherDefault<KeyHasher>>;

/// The key a pattern is filed under for its hostname.
#[derive(Clone, Debug)]
enum Key {
    /// The component is this text.
    Exact(String),
    /// The component ends with this text, which starts with `.` (`*.example.com`).
    Suffix(String),
    /// Anything else.
    Any,
}

/// The number of protocol texts a set's candidates check as bits (bit 31: any other
/// protocol); a pattern whose protocols are not all among them keeps its protocol test.
const PROTOCOL_BITS: usize = 31;

/// A pattern in a trie node's list: what rejects it without reading the pattern.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    /// Its position in the set.
    index: u32,
    /// The fewest and the most `/` its pathname allows (`u32::MAX`: no bound).
    slashes: (u32, u32),
    /// The protocols it may match, one bit per protocol number (all bits: any).
    protocols: u32,
    /// The fixed text its pathname ends with: the last `tail_len` (≤ 8) bytes, as a
    /// little-endian word of the last 8 bytes shifted right so that they are its top.
    tail: u64,
    tail_len: u8,
    /// Whether the URL's port must be empty.
    port_empty: bool,
    /// Nothing is left to test once the above pass (every component proven or `*`).
    proven: bool,
    /// The pathname is the one test left, and is made of fixed text and `/:name`
    /// segments only ([`Component::parts_match`]).
    segments_only: bool,
}

impl Candidate {
    /// Whether a URL with these `/`, this protocol bit, a port (or not) and this
    /// pathname may match.
    #[inline]
    fn admits(&self, slashes: u32, protocol: u32, port: bool, path: &[u8]) -> bool {
        if slashes < self.slashes.0
            || slashes > self.slashes.1
            || self.protocols & protocol == 0
            || self.port_empty && port
        {
            return false;
        }
        let n = self.tail_len as usize;
        if n == 0 {
            return true;
        }
        if path.len() >= 8 {
            let last = u64::from_le_bytes(path[path.len() - 8..].try_into().expect("8 bytes"));
            last >> (64 - 8 * n) == self.tail
        } else {
            path.len() >= n && tail_word(&path[path.len() - n..]) == self.tail
        }
    }
}

/// The bytes `b` (at most 8) as the word [`Candidate::admits`] compares.
fn tail_word(b: &[u8]) -> u64 {
    b.iter().rev().fold(0u64, |w, &x| (w << 8) | u64::from(x))
}

/// A trie node: its list (its own candidates merged with the short lists of the nodes
/// above it, in pattern order), the longer lists above it it names, and its children.
#[derive(Clone, Debug, Default)]
struct Node {
    list: (u32, u32),
    named: [Option<u32>; 2],
    /// Children by segment number, sorted: a range of `Index::children`.
    children: (u32, u32),
}

/// The index of a set, built from its patterns when first needed.
#[derive(Debug, Default)]
struct Index {
    protocols: Map<u32>,
    /// Hostnames and `.suffix`es: one numbering (0: any host).
    hosts: Map<u32>,
    suffixes: Map<u32>,
    /// First and second path segments: one numbering (0: none).
    segments: Map<u32>,
    /// Whether any pattern fixes a second segment (else a URL's is not looked up).
    second_level: bool,
    /// The length of the longest `.suffix`: only the dots of a hostname's last so many
    /// bytes can start one.
    longest_suffix: usize,
    shortest_suffix: usize,
    /// By host number: the root node of its trie, and (for an exact host) the hosts of
    /// the `.suffix`es it ends with.
    roots: Vec<u32>,
    host_suffixes: Vec<Vec<u32>>,
    nodes: Vec<Node>,
    /// Each node's own candidates (for the nodes that name them), and every list.
    own: Vec<(u32, u32)>,
    children: Vec<(u32, u32)>,
    candidates: Vec<Candidate>,
}

/// What the index needs of one pattern.
#[derive(Debug)]
struct Filed {
    hosts: Vec<Key>,
    /// The texts the protocol matches, when it is fixed text with `?` at most.
    protocols: Option<Vec<String>>,
    /// Whether the protocol is not `*`.
    protocol_tested: bool,
    /// Whether the port must be empty.
    port_empty: bool,
    segments: (Option<String>, Option<String>),
    slashes: (u64, u64),
    tail: Option<String>,
    /// Nothing is left to test but (maybe) the protocol.
    proven: bool,
    /// Nothing but the pathname (and maybe the protocol), whose parts allow
    /// [`Component::parts_match`].
    segments_only: bool,
}

/// A trie while it is built: own candidates and children by segment number.
#[derive(Default)]
struct Building {
    own: Vec<Candidate>,
    children: Vec<(u32, Building)>,
}

impl Building {
    fn child(&mut self, segment: u32) -> &mut Building {
        let at = match self.children.binary_search_by_key(&segment, |c| c.0) {
            Ok(at) => at,
            Err(at) => {
                self.children.insert(at, (segment, Building::default()));
                at
            }
        };
        &mut self.children[at].1
    }
}

impl Index {
    fn build(filed: &[Filed]) -> Index {
        let mut ix = Index::default();
        // Numbers: protocols (bits), hosts and suffixes, segments.
        let mut tries: Vec<Building> = vec![Building::default()];
        let mut next_host = 0u32;
        let number = |map: &mut Map<u32>, text: &str, next: &mut u32| -> u32 {
            if let Some(&n) = map.get(text) {
                return n;
            }
            *next += 1;
            map.insert(text.to_owned(), *next);
            *next
        };
        let mut next_segment = 0u32;
        for (i, f) in filed.iter().enumerate() {
            let protocols = match &f.protocols {
                Some(texts) => {
                    let mut bits = 0u32;
                    for t in texts {
                        let n = match ix.protocols.get(t.as_str()) {
                            Some(&n) => n,
                            None if ix.protocols.len() < PROTOCOL_BITS => {
                                let n = ix.protocols.len() as u32 + 1;
                                ix.protocols.insert(t.clone(), n);
                                n
                            }
                            None => {
                                // Past the bits: the protocol stays a test.
                                bits = u32::MAX;
                                break;
                            }
                        };
                        bits |= 1 << (n - 1);
                    }
                    bits
                }
                None => u32::MAX,
            };
            let (tail, tail_len) = match &f.tail {
                Some(t) => {
                    let b = &t.as_bytes()[t.len().saturating_sub(8)..];
                    (tail_word(b), b.len() as u8)
                }
                None => (0, 0),
            };
            let bound = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
            let candidate = Candidate {
                index: i as u32,
                slashes: (bound(f.slashes.0), bound(f.slashes.1)),
                protocols,
                tail,
                tail_len,
                port_empty: f.port_empty,
                proven: f.proven && (!f.protocol_tested || protocols != u32::MAX),
                segments_only: f.segments_only && (!f.protocol_tested || protocols != u32::MAX),
            };
            let s1 = f
                .segments
                .0
                .as_deref()
                .map(|t| number(&mut ix.segments, t, &mut next_segment));
            let s2 = f
                .segments
                .1
                .as_deref()
                .map(|t| number(&mut ix.segments, t, &mut next_segment));
            ix.second_level |= s2.is_some();
            for host in &f.hosts {
                let h = match host {
                    Key::Exact(t) => number(&mut ix.hosts, t, &mut next_host),
                    Key::Suffix(t) => {
                        ix.longest_suffix = ix.longest_suffix.max(t.len());
                        ix.shortest_suffix = match ix.shortest_suffix {
                            0 => t.len(),
                            n => n.min(t.len()),
                        };
                        number(&mut ix.suffixes, t, &mut next_host)
                    }
                    Key::Any => 0,
                } as usize;
                if tries.len() <= h {
                    tries.resize_with(h + 1, Building::default);
                }
                let mut node = &mut tries[h];
                if let Some(s1) = s1 {
                    node = node.child(s1);
                    if let Some(s2) = s2 {
                        node = node.child(s2);
                    }
                }
                node.own.push(candidate);
            }
        }
        // The suffix hosts of each exact host.
        ix.host_suffixes = vec![Vec::new(); tries.len()];
        for (text, &h) in &ix.hosts {
            let mut found: Vec<u32> = text
                .bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'.')
                .filter_map(|(i, _)| ix.suffixes.get(&text[i..]).copied())
                .collect();
            found.sort_unstable();
            ix.host_suffixes[h as usize] = found;
        }
        for t in tries {
            let root = ix.flatten(t, &[]);
            ix.roots.push(root);
        }
        ix
    }

    /// Stores trie `t` (whose ancestors' nodes are `above`, nearest last) and returns
    /// the number of its root.
    fn flatten(&mut self, t: Building, above: &[u32]) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(Node::default());
        let own_start = self.candidates.len() as u32;
        self.candidates.extend_from_slice(&t.own);
        self.own.push((own_start, t.own.len() as u32));
        // The list: own, and each ancestor's own list when short (else named).
        let mut list: Vec<Candidate> = t.own.clone();
        let mut named = [None; 2];
        let mut n_named = 0;
        for &a in above {
            let (s, n) = self.own[a as usize];
            if n as usize <= PUSH_DOWN {
                list.extend_from_slice(&self.candidates[s as usize..(s + n) as usize]);
            } else {
                named[n_named] = Some(a);
                n_named += 1;
            }
        }
        list.sort_unstable_by_key(|c| c.index);
        let start = self.candidates.len() as u32;
        self.candidates.extend_from_slice(&list);
        let mut children = Vec::with_capacity(t.children.len());
        let mut path = above.to_vec();
        path.push(id);
        for (segment, child) in t.children {
            children.push((segment, self.flatten(child, &path)));
        }
        let c_start = self.children.len() as u32;
        self.children.extend_from_slice(&children);
        self.nodes[id as usize] = Node {
            list: (start, list.len() as u32),
            named,
            children: (c_start, children.len() as u32),
        };
        id
    }

    fn list(&self, (start, len): (u32, u32)) -> &[Candidate] {
        &self.candidates[start as usize..(start + len) as usize]
    }

    /// The node of `node`'s child for `segment`, if any.
    fn child(&self, node: u32, segment: u32) -> Option<u32> {
        let (s, n) = self.nodes[node as usize].children;
        let kids = &self.children[s as usize..(s + n) as usize];
        kids.binary_search_by_key(&segment, |c| c.0)
            .ok()
            .map(|at| kids[at].1)
    }

    /// Pushes the lists of host `h`'s trie for a URL of these segment numbers.
    fn visit<'s>(&'s self, h: u32, segments: (u32, u32), out: &mut Lists<'s>) {
        let Some(&root) = self.roots.get(h as usize) else {
            return;
        };
        let mut node = root;
        if segments.0 != 0
            && let Some(n) = self.child(node, segments.0)
        {
            node = n;
            if segments.1 != 0
                && let Some(n) = self.child(node, segments.1)
            {
                node = n;
            }
        }
        let n = &self.nodes[node as usize];
        out.push(self.list(n.list));
        for a in n.named.iter().flatten() {
            out.push(self.list(self.own[*a as usize]));
        }
    }

    /// The candidate lists of a URL's hostname and first two segments.
    fn lookup<'s>(&'s self, hostname: &str, segments: (&str, Option<&str>), out: &mut Lists<'s>) {
        if self.roots.is_empty() {
            return;
        }
        let s1 = self.segments.get(segments.0).copied().unwrap_or(0);
        let s2 = match segments.1 {
            Some(t) if s1 != 0 && self.second_level => self.segments.get(t).copied().unwrap_or(0),
            _ => 0,
        };
        self.visit(0, (s1, s2), out);
        if let Some(&h) = self.hosts.get(hostname) {
            self.visit(h, (s1, s2), out);
            for &h in &self.host_suffixes[h as usize] {
                self.visit(h, (s1, s2), out);
            }
        } else if !self.suffixes.is_empty() {
            // Only a dot of the last `longest_suffix` bytes, and not of the last
            // `shortest_suffix - 1`, can start a suffix of the table.
            let b = hostname.as_bytes();
            let from = b.len().saturating_sub(self.longest_suffix);
            let to = (b.len() + 1).saturating_sub(self.shortest_suffix);
            for i in from..to.max(from) {
                if b[i] == b'.'
                    && let Some(&h) = self.suffixes.get(&hostname[i..])
                {
                    self.visit(h, (s1, s2), out);
                }
            }
        }
    }

    /// The bit of protocol `text` in the candidates' sets (bit 31: any other).
    fn protocol_bit(&self, text: &str) -> u32 {
        match self.protocols.get(text) {
            Some(&n) => 1 << (n - 1),
            None => 1 << 31,
        }
    }
}

/// The hostname keys of a pattern: each text it matches when there are few, else the
/// suffix of `*.example.com`, else "any".
fn host_keys(c: &Component) -> Vec<Key> {
    if let Some(texts) = c.literals() {
        return texts.into_iter().map(Key::Exact).collect();
    }
    match c.wildcard_suffix() {
        Some(suffix) => vec![Key::Suffix(suffix)],
        None => vec![Key::Any],
    }
}

/// The first two path segments every pathname the component matches has (`users` and
/// `posts` for `/users/posts/:id`), as far as the pattern fixes them and matching is
/// case-sensitive: its leading fixed text, each segment ending at a `/` of that text or
/// where a part that must start with `/` follows.
fn leading_segments(c: &Component) -> (Option<String>, Option<String>) {
    let none = (None, None);
    if c.ignore_case {
        return none;
    }
    let Some(first) = c.parts.first() else {
        return none;
    };
    if first.ty != PartType::FixedText || first.modifier != Modifier::None {
        return none;
    }
    let Some(rest) = first.value.strip_prefix('/') else {
        return none;
    };
    // Whether the text after the fixed text starts with `/` (or there is none): the
    // next part must appear (or end the pattern) and starts with `/`.
    let closed = match c.parts.get(1) {
        None => true,
        Some(next) => {
            next.ty != PartType::FixedText
                && next.prefix.starts_with('/')
                && (next.modifier == Modifier::None
                    || next.modifier == Modifier::OneOrMore
                    || c.parts.len() == 2)
        }
    };
    let mut pieces = rest.split('/');
    let n = rest.split('/').count();
    let mut segment = |k: usize| -> Option<String> {
        let piece = pieces.next()?;
        (k + 1 < n || closed).then(|| piece.to_owned())
    };
    let s1 = segment(0);
    let s2 = if s1.is_some() { segment(1) } else { None };
    (s1, s2)
}

/// The fixed text every pathname the component matches ends with (its last part, fixed
/// text that must appear), when matching is case-sensitive.
fn fixed_tail(c: &Component) -> Option<String> {
    if c.ignore_case {
        return None;
    }
    let last = c.parts.last()?;
    (last.ty == PartType::FixedText && last.modifier == Modifier::None && !last.value.is_empty())
        .then(|| last.value.clone())
}

/// The lists a URL's lookups found (up to 8 on the stack, more in a `Vec`).
struct Lists<'a> {
    inline: [&'a [Candidate]; 8],
    len: usize,
    more: Vec<&'a [Candidate]>,
}

impl<'a> Lists<'a> {
    fn new() -> Self {
        Lists {
            inline: [&[]; 8],
            len: 0,
            more: Vec::new(),
        }
    }

    fn push(&mut self, list: &'a [Candidate]) {
        if list.is_empty() {
        } else if self.len < self.inline.len() {
            self.inline[self.len] = list;
            self.len += 1;
        } else {
            self.more.push(list);
        }
    }

    /// The candidate of the smallest position left in any list (each list is ascending
    /// and a position is in at most one of a URL's lists), taken off its list.
    #[inline]
    fn next(&mut self) -> Option<&'a Candidate> {
        if self.more.is_empty() {
            let lists = &mut self.inline[..self.len];
            match lists {
                [] => None,
                [a] => {
                    let (c, rest) = a.split_first()?;
                    *a = rest;
                    Some(c)
                }
                _ => {
                    let best = lists
                        .iter_mut()
                        .filter(|l| !l.is_empty())
                        .min_by_key(|l| l[0].index)?;
                    let (c, rest) = best.split_first()?;
                    *best = rest;
                    Some(c)
                }
            }
        } else {
            let best = self.inline[..self.len]
                .iter_mut()
                .chain(self.more.iter_mut())
                .filter(|l| !l.is_empty())
                .min_by_key(|l| l[0].index)?;
            let (c, rest) = best.split_first()?;
            *best = rest;
            Some(c)
        }
    }
}

/// Whether a route's pattern is a pathname pattern: it starts with `/`, `{/` or `\/`
/// (what the Standard takes for an absolute pathname pattern).
fn is_pathname_pattern(pattern: &str) -> bool {
    pattern.starts_with('/') || pattern.starts_with("{/") || pattern.starts_with("\\/")
}

/// A path route (`/users/:id`, `/search?q=:q`): the pathname, search and hash that the
/// constructor string has (as relative to a base URL), as a dictionary, so that the
/// protocol, username, password, hostname and port match anything.
fn path_route(pattern: &str) -> Result<UrlPattern, PatternError> {
    let parsed = constructor::parse_constructor_string(pattern)?;
    if [PROTOCOL, USERNAME, PASSWORD, HOSTNAME, PORT]
        .iter()
        .any(|&c| parsed.comps[c].is_some())
    {
        // An escaped `:` (`/a\:b`) reads as a protocol's end: the whole is the pathname.
        let init = UrlPatternInit {
            pathname: Some(pattern.to_owned()),
            ..UrlPatternInit::default()
        };
        return UrlPattern::from_init(&init, UrlPatternOptions::default());
    }
    let init = UrlPatternInit {
        pathname: parsed.comps[PATHNAME].clone(),
        search: parsed.comps[SEARCH].clone(),
        hash: parsed.comps[HASH].clone(),
        ..UrlPatternInit::default()
    };
    UrlPattern::from_init(&init, UrlPatternOptions::default())
}

/// A named pattern of a set, with what a candidate URL must still be tested on.
#[derive(Debug)]
struct Entry {
    name: Option<String>,
    text: String,
    pattern: UrlPattern,
    /// The components to test (those the index does not prove and that are not `*`),
    /// pathname first.
    tests: Vec<usize>,
}

/// Many URL patterns, each with a name, compiled once; for a parsed URL, the first
/// pattern (in the order added) that matches, or all that match.
///
/// ```
/// use rapidurl::pattern::PatternSet;
///
/// let mut set = PatternSet::new();
/// set.add(Some("user"), "https://example.com/users/:id").unwrap();
/// set.add(Some("static"), "https://example.com/static/*").unwrap();
/// set.add(None, "https://*.example.com/*").unwrap();
///
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("https://example.com/users/42", &arena).unwrap();
/// let m = set.first_match(&url).unwrap().unwrap();
/// assert_eq!(m.name, "user");
/// assert_eq!(m.result.pathname.get("id"), Some("42"));
///
/// let url = rapidurl::parse_ref("https://cdn.example.com/a.js", &arena).unwrap();
/// assert_eq!(set.first_match(&url).unwrap().unwrap().name, "https://*.example.com/*");
/// assert_eq!(set.all(&url).unwrap(), vec![2]);
/// ```
#[derive(Debug, Default)]
pub struct PatternSet {
    entries: Vec<Entry>,
    filed: Vec<Filed>,
    /// Built from `filed` on the first lookup after an `add`.
    index: OnceLock<Index>,
    /// Whether a pattern may run out of steps ([`PatternSet::may_hit_match_limit`]).
    backtracks: bool,
}

/// A pattern of a set that matched a URL: its position, its name (its text when it has
/// no name) and the groups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetMatch<'s> {
    /// The position of the pattern in the set (the order of [`PatternSet::add`]).
    pub index: usize,
    /// The pattern's name, else its text.
    pub name: &'s str,
    /// Each component's input and groups.
    pub result: UrlPatternResult,
}

impl PatternSet {
    /// An empty set.
    pub fn new() -> PatternSet {
        PatternSet::default()
    }

    /// Compiles the constructor string `pattern` (which must be absolute) and adds it
    /// under `name`; returns its position.
    ///
    /// A pattern whose regexp group has a backreference or a lookaround is accepted: its
    /// matching is bounded by [`MAX_BACKTRACK_STEPS`](super::MAX_BACKTRACK_STEPS) per
    /// component, and a URL on which it runs out of steps makes the lookups
    /// ([`PatternSet::first`], …) return
    /// [`PatternErrorKind::MatchLimit`](super::PatternErrorKind::MatchLimit) for that URL.
    pub fn add(&mut self, name: Option<&str>, pattern: &str) -> Result<usize, PatternError> {
        let compiled = UrlPattern::parse(pattern, None)?;
        Ok(self.add_pattern(name, pattern, compiled))
    }

    /// Compiles one pattern of a route table and adds it under `name`; returns its
    /// position. `pattern` is read as the command-line tool's `--routes` and Python's
    /// `parse_column(routes=…)` read it:
    ///
    /// - with `base_url`, as `new URLPattern(pattern, base_url)`: an absolute pattern
    ///   string stays as it is, a relative one (`/users/:id`, `users/:id`, `?q=:q`) takes
    ///   the base's protocol, hostname and port (and its path, for a relative path);
    /// - without, a pattern that starts with `/` (or `{/`, `\/`: the Standard's absolute
    ///   pathname pattern) is a path: the dictionary of the pathname, search and hash that
    ///   the constructor string has (`/users/:id` is `{pathname: "/users/:id"}`, whose
    ///   search and hash match anything; `/find?q=:q` also fixes the search), so that the
    ///   protocol, username, password, hostname and port match anything;
    /// - else as [`PatternSet::add`]: a constructor string with its protocol.
    ///
    /// ```
    /// use rapidurl::pattern::PatternSet;
    ///
    /// let mut set = PatternSet::new();
    /// set.add_route(Some("user"), "/users/:id(\\d+)", None).unwrap();
    /// set.add_route(Some("shop"), "/products/:slug", Some("https://shop.example")).unwrap();
    /// assert_eq!(set.pattern(0).hostname(), "*");
    /// assert_eq!(set.pattern(1).hostname(), "shop.example");
    ///
    /// let arena = rapidurl::bumpalo::Bump::new();
    /// let url = rapidurl::parse_ref("http://any.test:8080/users/42?x", &arena).unwrap();
    /// let m = set.first_match(&url).unwrap().unwrap();
    /// assert_eq!(m.result.pathname.get("id"), Some("42"));
    /// let url = rapidurl::parse_ref("https://other.test/products/lamp", &arena).unwrap();
    /// assert_eq!(set.first(&url).unwrap(), None);
    ///
    /// // Without a base, a relative pattern that is not a path is an error.
    /// assert!(set.add_route(None, "users/:id", None).is_err());
    /// ```
    pub fn add_route(
        &mut self,
        name: Option<&str>,
        pattern: &str,
        base_url: Option<&str>,
    ) -> Result<usize, PatternError> {
        let compiled = match base_url {
            Some(base) => UrlPattern::parse(pattern, Some(base))?,
            None if is_pathname_pattern(pattern) => path_route(pattern)?,
            None => UrlPattern::parse(pattern, None)?,
        };
        Ok(self.add_pattern(name, pattern, compiled))
    }

    /// Adds a pattern already compiled, with its name and its text; returns its position.
    pub fn add_pattern(&mut self, name: Option<&str>, text: &str, pattern: UrlPattern) -> usize {
        let i = self.entries.len();
        let hosts = host_keys(pattern.component(HOSTNAME));
        let protocol = pattern.component(PROTOCOL);
        let pathname = pattern.component(PATHNAME);
        let host_proven = !matches!(hosts.as_slice(), [Key::Any]);
        // A port pattern that is empty (most: a host without a port) is a candidate's bit.
        let port_empty = pattern
            .component(PORT)
            .literals()
            .is_some_and(|t| t == [""]);
        // The protocol last: the candidate's protocol bits may prove it.
        let tests: Vec<usize> = [
            PATHNAME, SEARCH, HASH, PORT, USERNAME, PASSWORD, HOSTNAME, PROTOCOL,
        ]
        .into_iter()
        .filter(|&c| !pattern.component(c).matches_everything())
        .filter(|&c| !(c == HOSTNAME && host_proven))
        .filter(|&c| !(c == PORT && port_empty))
        .collect();
        let protocols = if protocol.matches_everything() {
            None
        } else {
            protocol.literals()
        };
        self.filed.push(Filed {
            proven: tests.iter().all(|&c| c == PROTOCOL),
            segments_only: tests.iter().all(|&c| c == PROTOCOL || c == PATHNAME)
                && protocol.matches_special_scheme()
                && pathname.segments_only(),
            hosts,
            protocols,
            port_empty,
            protocol_tested: !protocol.matches_everything(),
            segments: leading_segments(pathname),
            slashes: pathname.slashes(),
            tail: fixed_tail(pathname),
        });
        self.backtracks |= pattern.may_hit_match_limit();
        self.entries.push(Entry {
            name: name.map(str::to_owned),
            text: text.to_owned(),
            pattern,
            tests,
        });
        self.index = OnceLock::new();
        i
    }

    /// The number of patterns.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the set has no pattern.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The name of pattern `i` (its text when it has none).
    pub fn name(&self, i: usize) -> &str {
        let e = &self.entries[i];
        e.name.as_deref().unwrap_or(&e.text)
    }

    /// Pattern `i`.
    pub fn pattern(&self, i: usize) -> &UrlPattern {
        &self.entries[i].pattern
    }

    /// Whether a pattern of the set has a regexp group with a backreference or a
    /// lookaround ([`UrlPattern::may_hit_match_limit`]): only then can a lookup return
    /// [`PatternErrorKind::MatchLimit`](super::PatternErrorKind::MatchLimit).
    pub fn may_hit_match_limit(&self) -> bool {
        self.backtracks
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| Index::build(&self.filed))
    }

    /// Calls `f` on the position of each pattern that matches the URL of components
    /// `v`, ascending, until it returns `Ok(true)`; stops at the first error (of a
    /// pattern's test or of `f`).
    fn scan(
        &self,
        v: &[&str; 8],
        mut f: impl FnMut(usize) -> Result<bool, PatternError>,
    ) -> Result<(), PatternError> {
        let index = self.index();
        let path = v[PATHNAME].as_bytes();
        // The number of `/`, and the first two segments.
        let mut slashes = 0u32;
        let mut cuts = [path.len(); 3];
        for (i, _) in path.iter().enumerate().filter(|&(_, &b)| b == b'/') {
            if (slashes as usize) < cuts.len() {
                cuts[slashes as usize] = i;
            }
            slashes += 1;
        }
        let segments = if path.first() == Some(&b'/') {
            let first = &v[PATHNAME][1..cuts[1]];
            let second = (cuts[1] < path.len()).then(|| &v[PATHNAME][cuts[1] + 1..cuts[2]]);
            (first, second)
        } else {
            ("\u{0}", None)
        };
        let mut lists = Lists::new();
        index.lookup(v[HOSTNAME], segments, &mut lists);
        let protocol = index.protocol_bit(v[PROTOCOL]);
        while let Some(c) = lists.next() {
            if c.admits(slashes, protocol, !v[PORT].is_empty(), path)
                && (c.proven
                    || if c.segments_only {
                        self.entries[c.index as usize]
                            .pattern
                            .component(PATHNAME)
                            .parts_match(path)
                    } else {
                        self.test(c, v)?
                    })
                && f(c.index as usize)?
            {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Whether the pattern of candidate `c` matches the URL of components `v`, past what
    /// the candidate itself proves.
    fn test(&self, c: &Candidate, v: &[&str; 8]) -> Result<bool, PatternError> {
        let e = &self.entries[c.index as usize];
        for &k in &e.tests {
            if !((k == PROTOCOL && c.protocols != u32::MAX)
                || e.pattern.component(k).try_is_match(v[k])?)
            {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn set_match(&self, i: usize, v: [&str; 8]) -> Result<Option<SetMatch<'_>>, PatternError> {
        Ok(self.entries[i]
            .pattern
            .exec_parts(v)?
            .map(|result| SetMatch {
                index: i,
                name: self.name(i),
                result,
            }))
    }

    /// The position of the first pattern that matches `url`; an error
    /// ([`PatternErrorKind::MatchLimit`](super::PatternErrorKind::MatchLimit)) when a
    /// pattern tried before the first match ran out of steps (only when
    /// [`PatternSet::may_hit_match_limit`]).
    pub fn first(&self, url: &UrlRef<'_>) -> Result<Option<usize>, PatternError> {
        let v = url_parts(url);
        let mut out = None;
        self.scan(&v, |i| {
            out = Some(i);
            Ok(true)
        })?;
        Ok(out)
    }

    /// The first pattern that matches `url`, with its groups; errors as
    /// [`PatternSet::first`].
    pub fn first_match(&self, url: &UrlRef<'_>) -> Result<Option<SetMatch<'_>>, PatternError> {
        let v = url_parts(url);
        let mut out = None;
        self.scan(&v, |i| {
            out = self.set_match(i, v)?;
            Ok(out.is_some())
        })?;
        Ok(out)
    }

    /// The positions of all the patterns that match `url`, ascending; errors as
    /// [`PatternSet::first`].
    pub fn all(&self, url: &UrlRef<'_>) -> Result<Vec<usize>, PatternError> {
        let v = url_parts(url);
        let mut out = Vec::new();
        self.scan(&v, |i| {
            out.push(i);
            Ok(false)
        })?;
        Ok(out)
    }

    /// All the patterns that match `url`, with their groups; errors as
    /// [`PatternSet::first`].
    pub fn all_matches(&self, url: &UrlRef<'_>) -> Result<Vec<SetMatch<'_>>, PatternError> {
        let v = url_parts(url);
        let mut out = Vec::new();
        self.scan(&v, |i| {
            out.extend(self.set_match(i, v)?);
            Ok(false)
        })?;
        Ok(out)
    }
}
