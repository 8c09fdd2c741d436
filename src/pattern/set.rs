//! [`PatternSet`]: many named URL patterns compiled once, matched against parsed URLs
//! through an index on their literal parts.
//!
//! Each pattern is filed under its protocol, hostname and first path segment when the
//! pattern fixes them (`https`, `api.example.com`, `users` for
//! `https://api.example.com/users/:id`), else under "any". A URL looks up its own scheme,
//! host and first segment: at most 2 × 2 × 2 buckets, and only the patterns in them are
//! tested. A table of a thousand routes over a few hosts and top-level paths costs about
//! what the few routes sharing a URL's bucket cost.

use super::init::{HOSTNAME, PATHNAME, PROTOCOL};
use super::{PatternError, UrlPattern, UrlPatternResult, url_parts};
use crate::UrlRef;
use std::collections::HashMap;

/// The key a pattern is filed under at one level of the index.
enum Key {
    /// The component is this text.
    Exact(String),
    /// The component ends with this text, which starts with `.` (`*.example.com`).
    Suffix(String),
    /// Anything else.
    Any,
}

/// A level of the index: buckets by exact value, by `.suffix`, and the bucket of
/// patterns that do not fix this component.
#[derive(Debug)]
struct Level<T> {
    exact: HashMap<String, T>,
    suffix: HashMap<String, T>,
    any: Option<T>,
}

impl<T: Default> Level<T> {
    fn new() -> Self {
        Level {
            exact: HashMap::new(),
            suffix: HashMap::new(),
            any: None,
        }
    }

    fn entry(&mut self, key: Key) -> &mut T {
        match key {
            Key::Exact(k) => self.exact.entry(k).or_default(),
            Key::Suffix(k) => self.suffix.entry(k).or_default(),
            Key::Any => self.any.get_or_insert_with(T::default),
        }
    }

    /// Calls `f` on each bucket `value` may be in: its own, those of its suffixes
    /// starting at a `.`, and the "any" bucket.
    fn each<'a>(&'a self, value: &str, mut f: impl FnMut(&'a T)) {
        if let Some(t) = self.exact.get(value) {
            f(t);
        }
        if !self.suffix.is_empty() {
            for (i, _) in value.match_indices('.') {
                if let Some(t) = self.suffix.get(&value[i..]) {
                    f(t);
                }
            }
        }
        if let Some(t) = &self.any {
            f(t);
        }
    }
}

impl<T: Default> Default for Level<T> {
    fn default() -> Self {
        Level::new()
    }
}

fn key(exact: Option<String>) -> Key {
    exact.map_or(Key::Any, Key::Exact)
}

type Index = Level<Level<Level<Vec<usize>>>>;

/// A named pattern of a set.
#[derive(Debug)]
struct Entry {
    name: Option<String>,
    text: String,
    pattern: UrlPattern,
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
    /// under `name`; returns its position.
    pub fn add(&mut self, name: Option<&str>, pattern: &str) -> Result<usize, PatternError> {
        let compiled = UrlPattern::parse(pattern, None)?;
        Ok(self.add_pattern(name, pattern, compiled))
    }

    /// Adds a pattern already compiled, with its name and its text; returns its position.
    pub fn add_pattern(&mut self, name: Option<&str>, text: &str, pattern: UrlPattern) -> usize {
        let i = self.entries.len();
        let protocol = key(pattern.component(PROTOCOL).literal());
        let hostname = pattern.component(HOSTNAME);
        let host = match (hostname.literal(), hostname.wildcard_suffix()) {
            (Some(h), _) => Key::Exact(h),
            (None, Some(suffix)) => Key::Suffix(suffix),
            (None, None) => Key::Any,
        };
        let segment = key(pattern.component(PATHNAME).first_segment());
        self.index
            .entry(protocol)
            .entry(host)
            .entry(segment)
            .push(i);
        self.entries.push(Entry {
            name: name.map(str::to_owned),
            text: text.to_owned(),
            pattern,
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

    /// The positions of the patterns that may match `url` (those its index buckets
    /// hold), ascending.
    fn candidates(&self, v: &[&str; 8], out: &mut Vec<usize>) {
        out.clear();
        let first_segment = {
            let path = v[PATHNAME];
            let rest = path.strip_prefix('/').unwrap_or("\u{0}");
            rest.split('/').next().unwrap_or("")
        };
        self.index.each(v[PROTOCOL], |p| {
            p.each(v[HOSTNAME], |h| {
                h.each(first_segment, |bucket| out.extend_from_slice(bucket));
            });
        });
        out.sort_unstable();
    }

    /// The position of the first pattern that matches `url`.
    pub fn first(&self, url: &UrlRef<'_>) -> Option<usize> {
        let v = url_parts(url);
        let mut candidates = Vec::new();
        self.candidates(&v, &mut candidates);
        candidates
            .into_iter()
            .find(|&i| self.entries[i].pattern.test_parts(&v))
    }

    /// The first pattern that matches `url`, with its groups.
    pub fn first_match(&self, url: &UrlRef<'_>) -> Option<SetMatch<'_>> {
        let v = url_parts(url);
        let mut candidates = Vec::new();
        self.candidates(&v, &mut candidates);
        candidates.into_iter().find_map(|i| {
            let result = self.entries[i].pattern.exec_parts_pub(v)?;
            Some(SetMatch {
                index: i,
                name: self.name(i),
                result,
            })
        })
    }

    /// The positions of all the patterns that match `url`, ascending.
    pub fn all(&self, url: &UrlRef<'_>) -> Vec<usize> {
        let v = url_parts(url);
        let mut candidates = Vec::new();
        self.candidates(&v, &mut candidates);
        candidates.retain(|&i| self.entries[i].pattern.test_parts(&v));
        candidates
    }

    /// All the patterns that match `url`, with their groups.
    pub fn all_matches(&self, url: &UrlRef<'_>) -> Vec<SetMatch<'_>> {
        let v = url_parts(url);
        let mut candidates = Vec::new();
        self.candidates(&v, &mut candidates);
        candidates
            .into_iter()
            .filter_map(|i| {
                let result = self.entries[i].pattern.exec_parts_pub(v)?;
                Some(SetMatch {
                    index: i,
                    name: self.name(i),
                    result,
                })
            })
            .collect()
    }
}
