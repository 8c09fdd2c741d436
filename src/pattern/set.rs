//! [`PatternSet`]: many named URL patterns compiled once, matched against parsed URLs
//! through an index on their literal parts.
//!
//! Each pattern is filed under its protocol, hostname and first path segment when the
//! pattern fixes them (`https`, `api.example.com`, `users` for
//! `https://api.example.com/users/:id`), else under "any". A protocol or hostname that is
//! fixed text with optional pieces (`http{s}?`) is filed under each text it matches; a
//! hostname `*.example.com` under the suffix `.example.com`. A URL looks up its own
//! scheme, host (and each of its suffixes starting at a `.`) and first segment, and only
//! the patterns of those buckets are tested, in the order they were added (the buckets'
//! lists are merged, nothing is allocated).
//!
//! Testing a candidate is cheap too: the components the index has proven (a fixed
//! protocol or hostname) and those that are `*` are not tested; the pathname is first
//! checked against the number of `/` its pattern allows, then against the fixed text it
//! must start and end with, before the matcher runs on the rest.

use super::init::{HASH, HOSTNAME, PASSWORD, PATHNAME, PORT, PROTOCOL, SEARCH, USERNAME};
use super::{PatternError, UrlPattern, UrlPatternResult, url_parts};
use crate::UrlRef;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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

/// The key a pattern is filed under at one level of the index.
#[derive(Clone, Debug)]
enum Key {
    /// The component is this text.
    Exact(String),
    /// The component ends with this text, which starts with `.` (`*.example.com`).
    Suffix(String),
    /// Anything else.
    Any,
}

/// The index: each text a pattern fixes (protocol, hostname, `.suffix` of a hostname,
/// first path segment) has a number (0: "any"); each host number has its buckets sorted
/// by (segment, protocol) numbers. A URL's strings are hashed once each; a bucket is then
/// found by position and binary search, whatever the number of buckets.
#[derive(Debug, Default)]
struct Index {
    protocols: Map<u32>,
    /// Hostnames and `.suffix`es: one numbering, so that a number is one or the other.
    hosts: Map<u32>,
    suffixes: Map<u32>,
    segments: Map<u32>,
    /// The length of the longest `.suffix`: only the dots of a hostname's last so many
    /// bytes can start one (so that a hostname of many labels costs no more than its
    /// length).
    longest_suffix: usize,
    next_host: u32,
    /// By host number: its buckets, sorted.
    by_host: Vec<Vec<Bucket>>,
}

/// The patterns filed under a host number and these (segment, protocol) numbers, in
/// the order added.
type Bucket = ((u32, u32), Vec<Candidate>);

/// A pattern in a bucket: its position, and the fewest and the most `/` its pathname
/// allows (tested there, before the pattern itself is read).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    index: usize,
    slashes: (u64, u64),
}

/// The number of `text` in `map`, given the next free number when it has none.
fn number(map: &mut Map<u32>, text: String, next: &mut u32) -> u32 {
    *map.entry(text).or_insert_with(|| {
        *next += 1;
        *next
    })
}

impl Index {
    fn protocol_id(&mut self, key: &Key) -> u32 {
        match key {
            Key::Exact(text) => {
                let mut next = self.protocols.len() as u32;
                number(&mut self.protocols, text.clone(), &mut next)
            }
            _ => 0,
        }
    }

    fn host_id(&mut self, key: &Key) -> u32 {
        match key {
            Key::Exact(text) => number(&mut self.hosts, text.clone(), &mut self.next_host),
            Key::Suffix(text) => {
                self.longest_suffix = self.longest_suffix.max(text.len());
                number(&mut self.suffixes, text.clone(), &mut self.next_host)
            }
            Key::Any => 0,
        }
    }

    fn segment_id(&mut self, key: &Key) -> u32 {
        match key {
            Key::Exact(text) => {
                let mut next = self.segments.len() as u32;
                number(&mut self.segments, text.clone(), &mut next)
            }
            _ => 0,
        }
    }

    /// Files pattern `i` under every combination of its keys.
    fn file(&mut self, i: Candidate, protocols: &[Key], hosts: &[Key], segment: &Key) {
        let s = self.segment_id(segment);
        for protocol in protocols {
            let p = self.protocol_id(protocol);
            for host in hosts {
                let h = self.host_id(host) as usize;
                if self.by_host.len() <= h {
                    self.by_host.resize_with(h + 1, Vec::new);
                }
                let buckets = &mut self.by_host[h];
                match buckets.binary_search_by_key(&(s, p), |b| b.0) {
                    Ok(at) => buckets[at].1.push(i),
                    Err(at) => buckets.insert(at, ((s, p), vec![i])),
                }
            }
        }
    }

    /// The buckets of a URL's protocol, hostname and first path segment.
    fn lookup<'s>(
        &'s self,
        protocol: &str,
        hostname: &str,
        segment: &str,
        slashes: u64,
    ) -> Buckets<'s> {
        let mut out = Buckets::new(slashes);
        if self.by_host.is_empty() {
            return out;
        }
        let protocols = [0, self.protocols.get(protocol).copied().unwrap_or(0)];
        let segments = [0, self.segments.get(segment).copied().unwrap_or(0)];
        let distinct = |ids: &[u32; 2]| if ids[1] == 0 { 1 } else { 2 };
        let mut visit = |h: u32| {
            let Some(buckets) = self.by_host.get(h as usize) else {
                return;
            };
            for &s in &segments[..distinct(&segments)] {
                for &p in &protocols[..distinct(&protocols)] {
                    if let Ok(at) = buckets.binary_search_by_key(&(s, p), |b| b.0) {
                        out.push(&buckets[at].1);
                    }
                }
            }
        };
        visit(0);
        if let Some(&h) = self.hosts.get(hostname) {
            visit(h);
        }
        if !self.suffixes.is_empty() {
            let window = hostname.len().saturating_sub(self.longest_suffix);
            for (i, b) in hostname.bytes().enumerate().skip(window) {
                if b == b'.' {
                    if let Some(&h) = self.suffixes.get(&hostname[i..]) {
                        visit(h);
                    }
                }
            }
        }
        out
    }
}

/// The keys of a protocol or hostname component: each text it matches when there are
/// few, else the suffix of `*.example.com` (hostnames), else "any".
fn keys(pattern: &UrlPattern, component: usize) -> Vec<Key> {
    let c = pattern.component(component);
    if let Some(texts) = c.literals() {
        return texts.into_iter().map(Key::Exact).collect();
    }
    match c.wildcard_suffix() {
        Some(suffix) if component == HOSTNAME => vec![Key::Suffix(suffix)],
        _ => vec![Key::Any],
    }
}

/// The buckets a URL's lookups found (up to 8 on the stack, more in a `Vec`), and the
/// number of `/` in its pathname.
struct Buckets<'a> {
    slashes: u64,
    inline: [&'a [Candidate]; 8],
    len: usize,
    more: Vec<&'a [Candidate]>,
}

impl<'a> Buckets<'a> {
    fn new(slashes: u64) -> Self {
        Buckets {
            slashes,
            inline: [&[]; 8],
            len: 0,
            more: Vec::new(),
        }
    }

    fn push(&mut self, bucket: &'a [Candidate]) {
        if bucket.is_empty() {
        } else if self.len < self.inline.len() {
            self.inline[self.len] = bucket;
            self.len += 1;
        } else {
            self.more.push(bucket);
        }
    }
}

impl Iterator for Buckets<'_> {
    type Item = usize;

    /// The smallest position left in any bucket (each bucket is ascending and a
    /// position is in at most one of a URL's buckets) whose pattern allows the URL's
    /// number of `/`.
    fn next(&mut self) -> Option<usize> {
        loop {
            let (inline, more) = (&mut self.inline[..self.len], &mut self.more);
            let best = inline
                .iter_mut()
                .chain(more.iter_mut())
                .filter(|b| !b.is_empty())
                .min_by_key(|b| b[0].index)?;
            let c = best[0];
            *best = &best[1..];
            if (c.slashes.0..=c.slashes.1).contains(&self.slashes) {
                return Some(c.index);
            }
        }
    }
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
/// let m = set.first_match(&url).unwrap();
/// assert_eq!(m.name, "user");
/// assert_eq!(m.result.pathname.get("id"), Some("42"));
///
/// let url = rapidurl::parse_ref("https://cdn.example.com/a.js", &arena).unwrap();
/// assert_eq!(set.first_match(&url).unwrap().name, "https://*.example.com/*");
/// assert_eq!(set.all(&url), vec![2]);
/// ```
#[derive(Debug, Default)]
pub struct PatternSet {
    entries: Vec<Entry>,
    index: Index,
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
    /// under `name`; returns its position. A pattern whose regexp group has a
    /// backreference or a lookaround is refused
    /// ([`PatternErrorKind::BacktrackingInSet`](super::PatternErrorKind::BacktrackingInSet)):
    /// a set matches in linear time.
    pub fn add(&mut self, name: Option<&str>, pattern: &str) -> Result<usize, PatternError> {
        let compiled = UrlPattern::parse(pattern, None)?;
        if compiled.may_hit_match_limit() {
            return Err(PatternError::new(
                super::PatternErrorKind::BacktrackingInSet,
            ));
        }
        Ok(self.add_pattern(name, pattern, compiled))
    }

    /// Adds a pattern already compiled, with its name and its text; returns its position.
    /// Give it patterns without [`UrlPattern::may_hit_match_limit`] ([`PatternSet::add`]
    /// checks): a set counts a match that runs out of steps as no match.
    pub fn add_pattern(&mut self, name: Option<&str>, text: &str, pattern: UrlPattern) -> usize {
        let i = self.entries.len();
        let protocols = keys(&pattern, PROTOCOL);
        let hosts = keys(&pattern, HOSTNAME);
        let pathname = pattern.component(PATHNAME);
        let segment = pathname.first_segment().map_or(Key::Any, Key::Exact);
        let candidate = Candidate {
            index: i,
            slashes: pathname.slashes(),
        };
        self.index.file(candidate, &protocols, &hosts, &segment);
        let proven = |k: &[Key]| !matches!(k, [Key::Any]);
        let tests = [
            PATHNAME, SEARCH, HASH, PORT, USERNAME, PASSWORD, PROTOCOL, HOSTNAME,
        ]
        .into_iter()
        .filter(|&c| !pattern.component(c).matches_everything())
        .filter(|&c| !(c == PROTOCOL && proven(&protocols)))
        .filter(|&c| !(c == HOSTNAME && proven(&hosts)))
        .collect();
        self.entries.push(Entry {
            name: name.map(str::to_owned),
            text: text.to_owned(),
            pattern,
            tests,
        });
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

    /// The positions of the patterns that may match the URL of components `v` (those its
    /// index buckets hold), ascending.
    fn candidates<'s>(&'s self, v: &[&str; 8]) -> Buckets<'s> {
        let first_segment = {
            let path = v[PATHNAME];
            let rest = path.strip_prefix('/').unwrap_or("\u{0}");
            rest.split('/').next().unwrap_or("")
        };
        let slashes = v[PATHNAME].bytes().filter(|&b| b == b'/').count() as u64;
        self.index
            .lookup(v[PROTOCOL], v[HOSTNAME], first_segment, slashes)
    }

    /// Whether pattern `i` matches the URL of components `v`; the index has found `i`
    /// for this URL (and its pathname has as many `/` as `i` allows).
    fn matches(&self, i: usize, v: &[&str; 8]) -> bool {
        let e = &self.entries[i];
        e.tests
            .iter()
            .all(|&c| e.pattern.component(c).is_match(v[c]))
    }

    /// The positions of the patterns that match the URL of components `v`, ascending.
    fn matching<'s>(&'s self, v: &'s [&str; 8]) -> impl Iterator<Item = usize> + 's {
        self.candidates(v).filter(move |&i| self.matches(i, v))
    }

    fn set_match(&self, i: usize, v: [&str; 8]) -> Option<SetMatch<'_>> {
        let result = self.entries[i].pattern.exec_parts_pub(v)?;
        Some(SetMatch {
            index: i,
            name: self.name(i),
            result,
        })
    }

    /// The position of the first pattern that matches `url`.
    pub fn first(&self, url: &UrlRef<'_>) -> Option<usize> {
        let v = url_parts(url);
        self.matching(&v).next()
    }

    /// The first pattern that matches `url`, with its groups.
    pub fn first_match(&self, url: &UrlRef<'_>) -> Option<SetMatch<'_>> {
        let v = url_parts(url);
        self.matching(&v).find_map(|i| self.set_match(i, v))
    }

    /// The positions of all the patterns that match `url`, ascending.
    pub fn all(&self, url: &UrlRef<'_>) -> Vec<usize> {
        let v = url_parts(url);
        self.matching(&v).collect()
    }

    /// All the patterns that match `url`, with their groups.
    pub fn all_matches(&self, url: &UrlRef<'_>) -> Vec<SetMatch<'_>> {
        let v = url_parts(url);
        self.matching(&v)
            .filter_map(|i| self.set_match(i, v))
            .collect()
    }
}
