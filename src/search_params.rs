//! The `URLSearchParams` class, URL Standard §6.2: a list of name-value pairs read from and
//! written as application/x-www-form-urlencoded text (§5).
//!
//! [`SearchParams`] is a stand-alone list here; the standard's "URL object" link (writing
//! the list back into a URL's query on every change, §6.2 "update") is the business of the
//! code that owns a [`Url`](crate::Url).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::iter::FusedIterator;
use std::ops::Range;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::form;

/// A `URLSearchParams` list (URL Standard §6.2): name-value pairs in order, names may
/// repeat.
///
/// The list is packed: the text of every name and value lives in one buffer and each pair
/// is two ranges of it. [`parse`](Self::parse) copies its input into the buffer once and
/// points the pairs into that copy; only a name or value that holds `+` or `%` is decoded,
/// and its decoded text is appended to the buffer. Parsing makes two allocations (the
/// buffer and the ranges), not two per pair.
///
/// Its [`Display`](fmt::Display) output is the application/x-www-form-urlencoded
/// serialization (§5.2, UTF-8), like `toString()` in a browser.
///
/// ```
/// use rapidurl::SearchParams;
///
/// let mut params = SearchParams::parse("?q=rust+url&page=2&tag=a&tag=b");
/// assert_eq!(params.get("q"), Some("rust url"));
/// assert_eq!(params.get_all("tag"), ["a", "b"]);
/// params.set("page", "3");
/// params.delete("tag", Some("a"));
/// params.append("lang", "en ~");
/// params.sort();
/// assert_eq!(params.to_string(), "lang=en+%7E&page=3&q=rust+url&tag=b");
/// ```
#[derive(Clone, Default)]
pub struct SearchParams {
    /// The text of the names and values (and, after changes, of dropped ones).
    buf: String,
    /// Each pair's name and value as ranges of `buf`, in list order.
    pairs: Vec<Pair>,
    /// The bytes of `buf` that the pairs refer to; the rest is separators, raw text of
    /// decoded names and values, and text of dropped ones.
    live: usize,
    /// The owned pairs of [`as_slice`](Self::as_slice), built on first use and dropped by
    /// every change.
    owned: OnceLock<Vec<(String, String)>>,
}

/// A name and a value, as byte ranges of [`SearchParams::buf`].
#[derive(Clone, Copy, Debug)]
struct Pair {
    name: (usize, usize),
    value: (usize, usize),
}

impl Pair {
    #[inline]
    fn name(self) -> Range<usize> {
        self.name.0..self.name.1
    }

    #[inline]
    fn value(self) -> Range<usize> {
        self.value.0..self.value.1
    }
}

/// The position of the first byte at or after `from` that ends a name or value (`&`, `=`)
/// or needs decoding (`+`, `%`), or `bytes.len()`.
///
/// Eight bytes at a time in a `u64` (SWAR): for each of the four bytes, a byte of
/// `word ^ broadcast(byte)` is zero where the byte is; the classic zero-byte test
/// `(x - 0x01…01) & !x & 0x80…80` sets the high bit of the *first* zero byte exactly
/// (borrows only disturb the bytes above it), which is all that is needed here.
#[inline]
fn next_form_special(bytes: &[u8], mut from: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    #[inline(always)]
    fn zero_bytes(x: u64) -> u64 {
        x.wrapping_sub(ONES) & !x & HIGHS
    }
    while let Some(chunk) = bytes.get(from..from + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let hits = zero_bytes(w ^ (ONES * u64::from(b'&')))
            | zero_bytes(w ^ (ONES * u64::from(b'=')))
            | zero_bytes(w ^ (ONES * u64::from(b'+')))
            | zero_bytes(w ^ (ONES * u64::from(b'%')));
        if hits != 0 {
            return from + (hits.trailing_zeros() / 8) as usize;
        }
        from += 8;
    }
    while from < bytes.len() && !matches!(bytes[from], b'&' | b'=' | b'+' | b'%') {
        from += 1;
    }
    from
}

impl SearchParams {
    /// An empty list: `new URLSearchParams()` (URL Standard §6.2).
    ///
    /// ```
    /// let params = rapidurl::SearchParams::new();
    /// assert!(params.is_empty());
    /// assert_eq!(params.to_string(), "");
    /// ```
    pub fn new() -> Self {
        SearchParams::default()
    }

    /// `new URLSearchParams(string)` (URL Standard §6.2 constructor): drops one leading `?`,
    /// then parses the rest as application/x-www-form-urlencoded (§5.3 string parser).
    ///
    /// ```
    /// use rapidurl::SearchParams;
    ///
    /// let params = SearchParams::parse("?a=1&b=x+y&&c");
    /// assert!(params.iter().eq([("a", "1"), ("b", "x y"), ("c", "")]));
    /// // Only one "?" is removed.
    /// assert_eq!(SearchParams::parse("??a=b").get("?a"), Some("b"));
    /// ```
    pub fn parse(input: &str) -> Self {
        Self::parse_form(input.strip_prefix('?').unwrap_or(input))
    }

    /// The application/x-www-form-urlencoded string parser (URL Standard §5.3) into the
    /// packed list, without removing a leading `?`: the same list as [`form::parse_str`].
    ///
    /// The input is copied into the buffer as it is; a name or value is a range of that
    /// copy unless it holds `+` or `%`, in which case it is decoded (§5.1 steps 3.4–3.5)
    /// and the decoded text is appended to the buffer.
    pub(crate) fn parse_form(input: &str) -> Self {
        let bytes = input.as_bytes();
        let mut buf = String::with_capacity(input.len());
        buf.push_str(input);
        let mut pairs = Vec::new();
        // Decoded bytes of one name or value, reused.
        let mut scratch = Vec::new();
        let mut live = 0;
        let mut start = 0;
        while start < bytes.len() {
            // One sequence: up to the next `&`. `eq` is the first `=` in it; `dirty_*` say
            // whether the name or the value holds a `+` or `%`.
            let mut eq = None;
            let (mut dirty_name, mut dirty_value) = (false, false);
            let mut i = start;
            let end = loop {
                i = next_form_special(bytes, i);
                match bytes.get(i) {
                    None | Some(b'&') => break i,
                    Some(b'=') if eq.is_none() => eq = Some(i),
                    Some(b'=') => {}
                    // `+` or `%`.
                    Some(_) => {
                        if eq.is_none() {
                            dirty_name = true;
                        } else {
                            dirty_value = true;
                        }
                    }
                }
                i += 1;
            };
            if end > start {
                let (name, value) = match eq {
                    Some(eq) => ((start, eq), (eq + 1, end)),
                    None => ((start, end), (end, end)),
                };
                let name = if dirty_name {
                    push_decoded(&mut buf, &bytes[name.0..name.1], &mut scratch)
                } else {
                    name
                };
                let value = if dirty_value {
                    push_decoded(&mut buf, &bytes[value.0..value.1], &mut scratch)
                } else {
                    value
                };
                live += (name.1 - name.0) + (value.1 - value.0);
                pairs.push(Pair { name, value });
            }
            start = end + 1;
        }
        SearchParams {
            buf,
            pairs,
            live,
            owned: OnceLock::new(),
        }
    }

    /// Appends `name` and `value` to the buffer as a new pair at the end.
    fn push_pair(&mut self, name: &str, value: &str) {
        let name = push_str(&mut self.buf, name);
        let value = push_str(&mut self.buf, value);
        self.live += (name.1 - name.0) + (value.1 - value.0);
        self.pairs.push(Pair { name, value });
    }

    #[inline]
    fn name_of(&self, pair: Pair) -> &str {
        &self.buf[pair.name()]
    }

    #[inline]
    fn value_of(&self, pair: Pair) -> &str {
        &self.buf[pair.value()]
    }

    /// Called by every change: drops the owned copy of [`as_slice`](Self::as_slice) and,
    /// when most of the buffer is text of dropped names and values, rewrites the buffer
    /// with the live text only (so that repeated changes do not grow it without bound).
    fn changed(&mut self) {
        self.owned = OnceLock::new();
        // A rewrite costs about what the changes since the last one wrote.
        if self.buf.len() > 2 * self.live + 64 {
            let mut buf = String::with_capacity(self.live);
            for pair in &mut self.pairs {
                let name = push_str(&mut buf, &self.buf[pair.name()]);
                let value = push_str(&mut buf, &self.buf[pair.value()]);
                *pair = Pair { name, value };
            }
            self.buf = buf;
        }
    }

    /// `new URLSearchParams(sequence)` (URL Standard §6.2 "initialize", sequence case): the
    /// pairs in order, duplicates kept.
    ///
    /// In JavaScript an inner sequence whose size is not 2 throws a `TypeError`; a Rust
    /// pair always has two members, so this cannot fail.
    ///
    /// ```
    /// use rapidurl::SearchParams;
    ///
    /// let params = SearchParams::from_pairs([("a", "1"), ("b", "2"), ("a", "3")]);
    /// assert_eq!(params.to_string(), "a=1&b=2&a=3");
    /// ```
    pub fn from_pairs<I, K, V>(pairs: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let mut params = SearchParams::new();
        for (name, value) in pairs {
            params.push_pair(&name.into(), &value.into());
        }
        params
    }

    /// `new URLSearchParams(record)` (URL Standard §6.2 "initialize", record case), given the
    /// record's entries in order.
    ///
    /// A Web IDL `record<USVString, USVString>` is an ordered map: converting a JavaScript
    /// object to it *sets* each key in turn (Web IDL §3.2.x "record", Infra "map set"), so
    /// a key that comes again (in JavaScript: two property names that become the same
    /// USVString once lone surrogates are replaced) keeps the position of its first entry
    /// and takes the value of its last. This function does the same with the entries it is
    /// given: one pair per distinct name, at the position where the name first occurs,
    /// with the value of its last occurrence. Use [`from_pairs`](Self::from_pairs) to keep
    /// duplicates.
    ///
    /// ```
    /// use rapidurl::SearchParams;
    ///
    /// // new URLSearchParams({key: "730d67"}).toString()
    /// assert_eq!(SearchParams::from_record([("key", "730d67")]).to_string(), "key=730d67");
    ///
    /// let params = SearchParams::from_record([("a", "1"), ("b", "2"), ("a", "3")]);
    /// assert_eq!(params.to_string(), "a=3&b=2");
    /// ```
    pub fn from_record<I, K, V>(entries: I) -> Self
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        /// Up to this many pairs, a repeated name is looked for by a scan of the list.
        const SCAN_LIMIT: usize = 16;
        let mut list: Vec<(String, String)> = Vec::new();
        let mut index: Option<HashMap<String, usize>> = None;
        for (name, value) in entries {
            let (name, value) = (name.into(), value.into());
            let existing = match &mut index {
                Some(map) => map.get(&name).copied(),
                None => list.iter().position(|(n, _)| *n == name),
            };
            if let Some(at) = existing {
                list[at].1 = value;
                continue;
            }
            if let Some(map) = &mut index {
                map.insert(name.clone(), list.len());
            } else if list.len() == SCAN_LIMIT {
                let mut map: HashMap<String, usize> = list
                    .iter()
                    .enumerate()
                    .map(|(at, (n, _))| (n.clone(), at))
                    .collect();
                map.insert(name.clone(), list.len());
                index = Some(map);
            }
            list.push((name, value));
        }
        Self::from_pairs(list)
    }

    /// The number of pairs: the `size` getter (URL Standard §6.2).
    ///
    /// ```
    /// assert_eq!(rapidurl::SearchParams::parse("a=1&a=2&b").len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    /// Whether the list has no pair (`size` is 0, URL Standard §6.2).
    ///
    /// ```
    /// assert!(rapidurl::SearchParams::parse("?&&").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// `append(name, value)` (URL Standard §6.2): adds a pair at the end.
    ///
    /// ```
    /// let mut params = rapidurl::SearchParams::parse("a=1");
    /// params.append("a", "2");
    /// params.append("b c", "&");
    /// assert_eq!(params.to_string(), "a=1&a=2&b+c=%26");
    /// ```
    pub fn append(&mut self, name: &str, value: &str) {
        self.push_pair(name, value);
        self.changed();
    }

    /// `delete(name, value)` (URL Standard §6.2): removes every pair named `name` — with
    /// `Some(value)`, only those whose value is also `value`.
    ///
    /// ```
    /// let mut params = rapidurl::SearchParams::parse("a=1&b=2&a=3&a=1");
    /// params.delete("a", Some("1"));
    /// assert_eq!(params.to_string(), "b=2&a=3");
    /// params.delete("a", None);
    /// assert_eq!(params.to_string(), "b=2");
    /// ```
    pub fn delete(&mut self, name: &str, value: Option<&str>) {
        let buf = &self.buf;
        let mut dropped = 0;
        self.pairs.retain(|&p| {
            let drop = &buf[p.name()] == name && value.is_none_or(|v| &buf[p.value()] == v);
            if drop {
                dropped += p.name().len() + p.value().len();
            }
            !drop
        });
        self.live -= dropped;
        self.changed();
    }

    /// `get(name)` (URL Standard §6.2): the value of the first pair named `name`.
    ///
    /// ```
    /// let params = rapidurl::SearchParams::parse("a=1&a=2&b");
    /// assert_eq!(params.get("a"), Some("1"));
    /// assert_eq!(params.get("b"), Some(""));
    /// assert_eq!(params.get("c"), None);
    /// ```
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|&&p| self.name_of(p) == name)
            .map(|&p| self.value_of(p))
    }

    /// `getAll(name)` (URL Standard §6.2): the values of all pairs named `name`, in order.
    ///
    /// ```
    /// let params = rapidurl::SearchParams::parse("a=1&b=2&a=3");
    /// assert_eq!(params.get_all("a"), ["1", "3"]);
    /// assert!(params.get_all("c").is_empty());
    /// ```
    pub fn get_all(&self, name: &str) -> Vec<&str> {
        self.iter()
            .filter(|&(n, _)| n == name)
            .map(|(_, v)| v)
            .collect()
    }

    /// `has(name, value)` (URL Standard §6.2): whether a pair is named `name` — with
    /// `Some(value)`, whether one is named `name` and has the value `value`.
    ///
    /// ```
    /// let params = rapidurl::SearchParams::parse("a=1&b");
    /// assert!(params.has("a", None));
    /// assert!(params.has("a", Some("1")));
    /// assert!(!params.has("a", Some("2")));
    /// assert!(params.has("b", Some("")));
    /// assert!(!params.has("c", None));
    /// ```
    pub fn has(&self, name: &str, value: Option<&str>) -> bool {
        self.iter()
            .any(|(n, v)| n == name && value.is_none_or(|value| v == value))
    }

    /// `set(name, value)` (URL Standard §6.2): gives the first pair named `name` the value
    /// `value` and removes the other pairs so named; appends the pair if there is none.
    ///
    /// ```
    /// let mut params = rapidurl::SearchParams::parse("a=1&b=2&a=3");
    /// params.set("a", "4");
    /// assert_eq!(params.to_string(), "a=4&b=2");
    /// params.set("c", "5");
    /// assert_eq!(params.to_string(), "a=4&b=2&c=5");
    /// ```
    pub fn set(&mut self, name: &str, value: &str) {
        let Some(first) = self.pairs.iter().position(|&p| self.name_of(p) == name) else {
            self.append(name, value);
            return;
        };
        self.live -= self.pairs[first].value().len();
        self.live += value.len();
        self.pairs[first].value = push_str(&mut self.buf, value);
        // No pair before `first` is named `name`, so this keeps everything up to `first`.
        let buf = &self.buf;
        let mut dropped = 0;
        let mut at = 0;
        self.pairs.retain(|&p| {
            let keep = at <= first || &buf[p.name()] != name;
            at += 1;
            if !keep {
                dropped += p.name().len() + p.value().len();
            }
            keep
        });
        self.live -= dropped;
        self.changed();
    }

    /// `sort()` (URL Standard §6.2): a stable sort of the pairs by name, comparing names
    /// by their UTF-16 code units, as JavaScript compares strings.
    ///
    /// This is not the byte (code point) order of Rust's `str`: a character above U+FFFF
    /// is a surrogate pair (D800–DFFF) in UTF-16, so it sorts *before* U+E000–U+FFFF.
    ///
    /// ```
    /// use rapidurl::SearchParams;
    ///
    /// // The Standard's example (a flag emoji sequence and a key).
    /// let mut params = SearchParams::parse("q=🏳️‍🌈&key=e1f7bc78");
    /// params.sort();
    /// assert_eq!(params.to_string(), "key=e1f7bc78&q=%F0%9F%8F%B3%EF%B8%8F%E2%80%8D%F0%9F%8C%88");
    ///
    /// // Stable, and U+1F308 (a surrogate pair in UTF-16) before U+FB03.
    /// let mut params = SearchParams::parse("z=b&\u{FB03}=1&a=x&z=a&🌈=2&a=y");
    /// params.sort();
    /// assert_eq!(params.to_string(), "a=x&a=y&z=b&z=a&%F0%9F%8C%88=2&%EF%AC%83=1");
    /// ```
    pub fn sort(&mut self) {
        // `sort_by` is a stable sort.
        let buf = &self.buf;
        self.pairs
            .sort_by(|a, b| cmp_utf16_code_units(&buf[a.name()], &buf[b.name()]));
        self.changed();
    }

    /// The pairs in order, as `(name, value)`: the value pairs to iterate over (URL
    /// Standard §6.2, `entries()` in JavaScript).
    ///
    /// ```
    /// let params = rapidurl::SearchParams::parse("a=1&b=2");
    /// let names: Vec<&str> = params.iter().map(|(name, _)| name).collect();
    /// assert_eq!(names, ["a", "b"]);
    /// ```
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            buf: &self.buf,
            inner: self.pairs.iter(),
        }
    }

    /// The list of pairs as a slice of owned strings.
    ///
    /// The list is packed (one buffer for all the text), so this builds the owned pairs on
    /// its first call and keeps them until the next change: [`iter`](Self::iter) reads the
    /// pairs without allocating.
    ///
    /// ```
    /// let params = rapidurl::SearchParams::parse("a=1");
    /// assert_eq!(params.as_slice(), [("a".to_string(), "1".to_string())]);
    /// ```
    pub fn as_slice(&self) -> &[(String, String)] {
        self.owned.get_or_init(|| self.owned_pairs())
    }

    fn owned_pairs(&self) -> Vec<(String, String)> {
        self.iter()
            .map(|(n, v)| (n.to_owned(), v.to_owned()))
            .collect()
    }

    /// The list of pairs, consuming `self`.
    ///
    /// ```
    /// let pairs = rapidurl::SearchParams::parse("a=1&b").into_vec();
    /// assert_eq!(pairs[1], ("b".to_string(), String::new()));
    /// ```
    pub fn into_vec(mut self) -> Vec<(String, String)> {
        match self.owned.take() {
            Some(list) => list,
            None => self.owned_pairs(),
        }
    }
}

/// Appends `text` to `buf`; its range there.
#[inline]
fn push_str(buf: &mut String, text: &str) -> (usize, usize) {
    let start = buf.len();
    buf.push_str(text);
    (start, buf.len())
}

/// Appends the decoded form of a name or value (§5.1 steps 3.4–3.5: `+` as a space,
/// percent-decoded, UTF-8 decoded without BOM) to `buf`; its range there. `scratch` holds
/// the decoded bytes on the way.
fn push_decoded(buf: &mut String, raw: &[u8], scratch: &mut Vec<u8>) -> (usize, usize) {
    scratch.clear();
    crate::percent::decode_into(raw, true, scratch);
    let start = buf.len();
    match std::str::from_utf8(scratch) {
        Ok(text) => buf.push_str(text),
        Err(_) => buf.push_str(&String::from_utf8_lossy(scratch)),
    }
    (start, buf.len())
}

/// Two lists are equal when they hold the same pairs in the same order (however their
/// buffers are laid out).
impl PartialEq for SearchParams {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for SearchParams {}

/// Hashes the pairs in order, as `Vec<(&str, &str)>` does.
impl Hash for SearchParams {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.len().hash(state);
        for pair in self {
            pair.hash(state);
        }
    }
}

/// `SearchParams { list: [("a", "1"), …] }`: the pairs, not the buffer.
impl fmt::Debug for SearchParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct List<'a>(&'a SearchParams);
        impl fmt::Debug for List<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_list().entries(self.0.iter()).finish()
            }
        }
        f.debug_struct("SearchParams")
            .field("list", &List(self))
            .finish()
    }
}

/// Compares two strings as sequences of UTF-16 code units ("code unit less than", Infra),
/// without converting them.
///
/// UTF-8 byte order is code point order. It agrees with UTF-16 code unit order except
/// where the first differing characters are one in U+E000–U+FFFF and one above U+FFFF:
/// the latter starts with a surrogate (D800–DBFF), which is less than E000. (Two distinct
/// characters never have one's UTF-16 form as a prefix of the other's, so comparing the
/// first differing characters decides.)
fn cmp_utf16_code_units(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let Some(mut at) = ab.iter().zip(bb).position(|(x, y)| x != y) else {
        return ab.len().cmp(&bb.len());
    };
    // Back up to the start of the character holding the first difference. The strings
    // share the bytes before `at`, so a boundary in `a` is one in `b` too.
    while !a.is_char_boundary(at) {
        at -= 1;
    }
    let first = |s: &str| {
        s[at..]
            .chars()
            .next()
            .expect("`at` is before the end of both strings because they differ there")
    };
    utf16_key(first(a)).cmp(&utf16_key(first(b)))
}

/// A number that orders characters as their first UTF-16 code units do, with ties (two
/// characters above U+FFFF) broken as their second units do: U+E000–U+FFFF are moved above
/// every character beyond the BMP.
#[inline]
fn utf16_key(c: char) -> u32 {
    let c = u32::from(c);
    if (0xE000..=0xFFFF).contains(&c) {
        c + 0x20_0000
    } else {
        c
    }
}

/// The application/x-www-form-urlencoded serialization of the list (URL Standard §6.2
/// stringification behavior, §5.2 serializer with UTF-8).
///
/// ```
/// let params = rapidurl::SearchParams::from_pairs([("a b", "~"), ("é", "*")]);
/// assert_eq!(params.to_string(), "a+b=%7E&%C3%A9=*");
/// ```
impl fmt::Display for SearchParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&form::serialize_utf8(self.iter()))
    }
}

/// [`SearchParams::parse`]: a leading `?` is dropped, the rest parsed (URL Standard §6.2).
/// Never fails.
///
/// ```
/// let params: rapidurl::SearchParams = "?a=1".parse().unwrap();
/// assert_eq!(params.get("a"), Some("1"));
/// ```
impl FromStr for SearchParams {
    type Err = Infallible;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(SearchParams::parse(s))
    }
}

/// [`SearchParams::from_pairs`]: the pairs in order, duplicates kept.
///
/// ```
/// let params: rapidurl::SearchParams = [("a", "1"), ("a", "2")].into_iter().collect();
/// assert_eq!(params.to_string(), "a=1&a=2");
/// ```
impl<K: Into<String>, V: Into<String>> FromIterator<(K, V)> for SearchParams {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        SearchParams::from_pairs(iter)
    }
}

/// The pairs in order, as `(name, value)` (URL Standard §6.2 iterable).
///
/// ```
/// let params = rapidurl::SearchParams::parse("a=1&b=2");
/// let mut seen = Vec::new();
/// for (name, value) in &params {
///     seen.push(format!("{name}:{value}"));
/// }
/// assert_eq!(seen, ["a:1", "b:2"]);
/// ```
impl<'a> IntoIterator for &'a SearchParams {
    type Item = (&'a str, &'a str);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The iterator of [`SearchParams::iter`]: `(name, value)` pairs in order.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    buf: &'a str,
    inner: std::slice::Iter<'a, Pair>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let buf = self.buf;
        self.inner
            .next()
            .map(|&p| (&buf[p.name()], &buf[p.value()]))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        let buf = self.buf;
        self.inner
            .next_back()
            .map(|&p| (&buf[p.name()], &buf[p.value()]))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl FusedIterator for Iter<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(params: &SearchParams) -> Vec<(&str, &str)> {
        params.iter().collect()
    }

    #[test]
    fn constructor_examples() {
        // §6.2 example: new URLSearchParams({key: "730d67"}).toString() is "key=730d67".
        assert_eq!(
            SearchParams::from_record([("key", "730d67")]).to_string(),
            "key=730d67"
        );
        assert_eq!(SearchParams::new(), SearchParams::default());
        assert_eq!(SearchParams::parse(""), SearchParams::new());
        assert_eq!(SearchParams::parse("?"), SearchParams::new());
        assert_eq!(list(&SearchParams::parse("?a=b")), [("a", "b")]);
        assert_eq!(list(&SearchParams::parse("??a=b")), [("?a", "b")]);
        assert_eq!(list(&SearchParams::parse("a=b?c")), [("a", "b?c")]);
        let from_str: SearchParams = "?x=1&y".parse().unwrap();
        assert_eq!(list(&from_str), [("x", "1"), ("y", "")]);
    }

    #[test]
    fn search_examples() {
        // §6.2 examples run through a URL's query; here the list on its own.
        // "?a=b ~" parsed, then serialized: "a=b+%7E".
        assert_eq!(SearchParams::parse("?a=b ~").to_string(), "a=b+%7E");
        // "?a=~&b=%7E": both values are "~".
        let params = SearchParams::parse("?a=~&b=%7E");
        assert_eq!(params.get("a"), Some("~"));
        assert_eq!(params.get("b"), Some("~"));
    }

    #[test]
    fn from_pairs_keeps_duplicates() {
        let params = SearchParams::from_pairs(vec![
            ("a".to_string(), "1".to_string()),
            ("a".to_string(), "2".to_string()),
        ]);
        assert_eq!(list(&params), [("a", "1"), ("a", "2")]);
        let collected: SearchParams = [("x", "y")].into_iter().collect();
        assert_eq!(list(&collected), [("x", "y")]);
    }

    #[test]
    fn from_record_sets_entries() {
        let params = SearchParams::from_record([("a", "1"), ("b", "2"), ("a", "3"), ("c", "4")]);
        assert_eq!(list(&params), [("a", "3"), ("b", "2"), ("c", "4")]);
        // Past the scan limit the map takes over; same result.
        let mut entries: Vec<(String, String)> = (0..40)
            .map(|i| (format!("n{i}"), format!("v{i}")))
            .collect();
        entries.push(("n3".into(), "late".into()));
        entries.push(("n30".into(), "later".into()));
        entries.push(("new".into(), "x".into()));
        entries.push(("n0".into(), "last".into()));
        let params = SearchParams::from_record(entries);
        assert_eq!(params.len(), 41);
        assert_eq!(params.iter().next(), Some(("n0", "last")));
        assert_eq!(params.iter().nth(3), Some(("n3", "late")));
        assert_eq!(params.iter().nth(30), Some(("n30", "later")));
        assert_eq!(params.iter().nth(40), Some(("new", "x")));
        assert_eq!(params.get_all("n3"), ["late"]);
    }

    #[test]
    fn append_get_get_all() {
        let mut params = SearchParams::new();
        params.append("a", "b");
        params.append("a", "c");
        params.append("", "");
        assert_eq!(params.len(), 3);
        assert!(!params.is_empty());
        assert_eq!(params.get("a"), Some("b"));
        assert_eq!(params.get(""), Some(""));
        assert_eq!(params.get("A"), None);
        assert_eq!(params.get_all("a"), ["b", "c"]);
        assert_eq!(params.get_all("z"), Vec::<&str>::new());
        assert_eq!(params.to_string(), "a=b&a=c&=");
    }

    #[test]
    fn delete_with_and_without_value() {
        let mut params = SearchParams::parse("a=1&b=1&a=2&a=1&c");
        params.delete("a", Some("1"));
        assert_eq!(list(&params), [("b", "1"), ("a", "2"), ("c", "")]);
        params.delete("a", Some("3"));
        assert_eq!(params.len(), 3);
        params.delete("c", Some(""));
        assert_eq!(list(&params), [("b", "1"), ("a", "2")]);
        params.delete("b", None);
        assert_eq!(list(&params), [("a", "2")]);
        params.delete("zz", None);
        assert_eq!(list(&params), [("a", "2")]);
    }

    #[test]
    fn has_with_and_without_value() {
        let params = SearchParams::parse("a=1&a=2&b=");
        assert!(params.has("a", None));
        assert!(params.has("a", Some("2")));
        assert!(!params.has("a", Some("3")));
        assert!(params.has("b", Some("")));
        assert!(!params.has("b", Some("x")));
        assert!(!params.has("c", None));
        assert!(!SearchParams::new().has("", None));
    }

    #[test]
    fn set_first_and_remove_others() {
        let mut params = SearchParams::parse("x=0&a=1&b=2&a=3&a=4&c=5");
        params.set("a", "new");
        assert_eq!(
            list(&params),
            [("x", "0"), ("a", "new"), ("b", "2"), ("c", "5")]
        );
        params.set("d", "6");
        assert_eq!(
            list(&params),
            [("x", "0"), ("a", "new"), ("b", "2"), ("c", "5"), ("d", "6")]
        );
        params.set("x", "");
        assert_eq!(params.to_string(), "x=&a=new&b=2&c=5&d=6");
    }

    #[test]
    fn sort_standard_example() {
        // §6.2 example: "?q=🏳️‍🌈&key=e1f7bc78" sorted.
        let mut params = SearchParams::parse("?q=🏳️‍🌈&key=e1f7bc78");
        params.sort();
        assert_eq!(
            params.to_string(),
            "key=e1f7bc78&q=%F0%9F%8F%B3%EF%B8%8F%E2%80%8D%F0%9F%8C%88"
        );
    }

    #[test]
    fn sort_is_stable() {
        let mut params = SearchParams::parse("z=b&a=b&z=a&a=a");
        params.sort();
        assert_eq!(
            list(&params),
            [("a", "b"), ("a", "a"), ("z", "b"), ("z", "a")]
        );
        let mut params = SearchParams::parse("\u{FFFD}=x&\u{FFFC}&\u{FFFD}=a");
        params.sort();
        assert_eq!(
            list(&params),
            [("\u{FFFC}", ""), ("\u{FFFD}", "x"), ("\u{FFFD}", "a")]
        );
    }

    #[test]
    fn sort_by_utf16_code_units() {
        // Byte order would be U+E000 < U+FFFD < U+1F600; UTF-16 order puts U+1F600
        // (D83D DE00) before U+E000 and U+FFFD.
        let mut params = SearchParams::from_pairs([
            ("\u{FFFD}", "1"),
            ("\u{E000}", "2"),
            ("\u{1F600}", "3"),
            ("a", "4"),
            ("\u{D7FF}", "5"),
        ]);
        params.sort();
        assert_eq!(
            list(&params),
            [
                ("a", "4"),
                ("\u{D7FF}", "5"),
                ("\u{1F600}", "3"),
                ("\u{E000}", "2"),
                ("\u{FFFD}", "1")
            ]
        );
        // ﬃ (U+FB03) after 🌈 (U+1F308).
        let mut params = SearchParams::parse("ﬃ&🌈");
        params.sort();
        assert_eq!(list(&params), [("🌈", ""), ("ﬃ", "")]);
        // Prefixes first; a difference after a shared prefix decides.
        let mut params = SearchParams::parse("ab&a&a\u{FFFF}&a\u{10000}&");
        params.sort();
        assert_eq!(
            list(&params),
            [("a", ""), ("ab", ""), ("a\u{10000}", ""), ("a\u{FFFF}", "")]
        );
    }

    #[test]
    fn utf16_comparison() {
        use Ordering::*;
        let cases: &[(&str, &str, Ordering)] = &[
            ("", "", Equal),
            ("", "a", Less),
            ("a", "", Greater),
            ("abc", "abd", Less),
            ("\u{10000}", "\u{E000}", Less),
            ("\u{10FFFF}", "\u{E000}", Less),
            ("\u{FFFF}", "\u{10000}", Greater),
            ("\u{D7FF}", "\u{10000}", Less),
            ("\u{10000}", "\u{10001}", Less),
            // U+10400 is D801 DC00, U+103FF is D800 DFFF.
            ("\u{103FF}", "\u{10400}", Less),
            ("é", "\u{10000}", Less),
            // Same first byte (EF) of U+FFFD and U+F000; differing later bytes.
            ("\u{F000}", "\u{FFFD}", Less),
            // Shared lead byte F0 of two four-byte characters.
            ("x\u{1F600}", "x\u{1F308}", Greater),
            ("\u{1F600}", "\u{1F600}", Equal),
        ];
        for &(a, b, expected) in cases {
            assert_eq!(cmp_utf16_code_units(a, b), expected, "{a:?} vs {b:?}");
            // Cross-check against an explicit UTF-16 comparison.
            assert_eq!(
                a.encode_utf16().cmp(b.encode_utf16()),
                expected,
                "{a:?} vs {b:?}"
            );
        }
    }

    #[test]
    fn iteration_and_traits() {
        let params = SearchParams::parse("a=1&b=2&c=3");
        let mut it = params.iter();
        assert_eq!(it.len(), 3);
        assert_eq!(it.next_back(), Some(("c", "3")));
        assert_eq!(it.next(), Some(("a", "1")));
        assert_eq!(it.next(), Some(("b", "2")));
        assert_eq!(it.next(), None);
        let mut names = String::new();
        for (name, _) in &params {
            names.push_str(name);
        }
        assert_eq!(names, "abc");
        let copy = params.clone();
        assert_eq!(copy, params);
        assert_eq!(
            format!("{params:?}"),
            r#"SearchParams { list: [("a", "1"), ("b", "2"), ("c", "3")] }"#
        );
        assert_eq!(params.as_slice().len(), 3);
        assert_eq!(params.into_vec()[2], ("c".to_string(), "3".to_string()));
    }

    #[test]
    fn next_form_special_finds_the_first() {
        let text = b"abcdefghijklmnopqrstuvwxyz0123456789";
        for at in 0..text.len() {
            for &c in b"&=+%" {
                let mut bytes = text.to_vec();
                bytes[at] = c;
                // A second one later must not hide the first.
                if at + 3 < bytes.len() {
                    bytes[at + 3] = b'&';
                }
                for from in 0..=at {
                    assert_eq!(next_form_special(&bytes, from), at, "{bytes:?} from {from}");
                }
            }
        }
        assert_eq!(next_form_special(text, 0), text.len());
        assert_eq!(next_form_special(b"", 0), 0);
        // High bytes next to a hit (borrows in the zero-byte test).
        assert_eq!(next_form_special("é\u{80}x%".as_bytes(), 0), 5);
        assert_eq!(next_form_special(b"\x00\x01\x80\xff\x7f&", 0), 5);
    }

    #[test]
    fn only_pairs_with_plus_or_percent_are_decoded() {
        let params = SearchParams::parse("a=1&b%20c=d+e&f&=g&h=%zz%");
        assert_eq!(
            list(&params),
            [
                ("a", "1"),
                ("b c", "d e"),
                ("f", ""),
                ("", "g"),
                ("h", "%zz%")
            ]
        );
        // The clean pairs are ranges of the copied input; decoded ones follow it.
        let copied = "a=1&b%20c=d+e&f&=g&h=%zz%".len();
        assert!(params.pairs[0].name.1 <= copied && params.pairs[2].name.1 <= copied);
        assert!(params.pairs[1].name.0 >= copied && params.pairs[1].value.0 >= copied);
    }

    #[test]
    fn changes_do_not_grow_the_buffer_without_bound() {
        let mut params = SearchParams::parse("a=1&b=2");
        for i in 0..10_000 {
            params.set("a", &format!("value{i}"));
            params.append("c", "xxxxxxxx");
            params.delete("c", None);
        }
        assert_eq!(list(&params), [("a", "value9999"), ("b", "2")]);
        assert!(
            params.buf.len() < 200,
            "buffer holds {} bytes",
            params.buf.len()
        );
        // as_slice follows the changes.
        assert_eq!(params.as_slice()[0].1, "value9999");
        params.sort();
        params.set("b", "3");
        assert_eq!(params.as_slice()[1].1, "3");
        let mut other = SearchParams::new();
        other.append("a", "value9999");
        other.append("b", "3");
        assert_eq!(params, other);
        use std::hash::BuildHasher;
        let state = std::collections::hash_map::RandomState::new();
        assert_eq!(state.hash_one(&params), state.hash_one(&other));
    }

    #[test]
    fn serialization() {
        let params = SearchParams::from_pairs([("a b", "*-._~"), ("&=", "+%")]);
        assert_eq!(params.to_string(), "a+b=*-._%7E&%26%3D=%2B%25");
        assert_eq!(SearchParams::parse(&params.to_string()), params);
    }
}
