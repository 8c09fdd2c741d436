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
use std::iter::FusedIterator;
use std::str::FromStr;

use crate::form;

/// A `URLSearchParams` list (URL Standard §6.2): name-value pairs in order, names may
/// repeat.
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
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchParams {
    list: Vec<(String, String)>,
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
        SearchParams { list: Vec::new() }
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
        let input = input.strip_prefix('?').unwrap_or(input);
        SearchParams {
            list: form::parse(input.as_bytes()),
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
        SearchParams {
            list: pairs
                .into_iter()
                .map(|(name, value)| (name.into(), value.into()))
                .collect(),
        }
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
        SearchParams { list }
    }

    /// The number of pairs: the `size` getter (URL Standard §6.2).
    ///
    /// ```
    /// assert_eq!(rapidurl::SearchParams::parse("a=1&a=2&b").len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the list has no pair (`size` is 0, URL Standard §6.2).
    ///
    /// ```
    /// assert!(rapidurl::SearchParams::parse("?&&").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
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
        self.list.push((name.to_owned(), value.to_owned()));
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
        match value {
            Some(value) => self.list.retain(|(n, v)| !(n == name && v == value)),
            None => self.list.retain(|(n, _)| n != name),
        }
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
        self.list
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `getAll(name)` (URL Standard §6.2): the values of all pairs named `name`, in order.
    ///
    /// ```
    /// let params = rapidurl::SearchParams::parse("a=1&b=2&a=3");
    /// assert_eq!(params.get_all("a"), ["1", "3"]);
    /// assert!(params.get_all("c").is_empty());
    /// ```
    pub fn get_all(&self, name: &str) -> Vec<&str> {
        self.list
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
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
        match value {
            Some(value) => self.list.iter().any(|(n, v)| n == name && v == value),
            None => self.list.iter().any(|(n, _)| n == name),
        }
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
        let Some(first) = self.list.iter().position(|(n, _)| n == name) else {
            self.append(name, value);
            return;
        };
        value.clone_into(&mut self.list[first].1);
        // No pair before `first` is named `name`, so this keeps everything up to `first`.
        let mut at = 0;
        self.list.retain(|(n, _)| {
            let keep = at <= first || n != name;
            at += 1;
            keep
        });
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
        self.list
            .sort_by(|(a, _), (b, _)| cmp_utf16_code_units(a, b));
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
            inner: self.list.iter(),
        }
    }

    /// The list of pairs as a slice.
    ///
    /// ```
    /// let params = rapidurl::SearchParams::parse("a=1");
    /// assert_eq!(params.as_slice(), [("a".to_string(), "1".to_string())]);
    /// ```
    pub fn as_slice(&self) -> &[(String, String)] {
        &self.list
    }

    /// The list of pairs, consuming `self`.
    ///
    /// ```
    /// let pairs = rapidurl::SearchParams::parse("a=1&b").into_vec();
    /// assert_eq!(pairs[1], ("b".to_string(), String::new()));
    /// ```
    pub fn into_vec(self) -> Vec<(String, String)> {
        self.list
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
    inner: std::slice::Iter<'a, (String, String)>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a str, &'a str);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.inner.next().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner
            .next_back()
            .map(|(n, v)| (n.as_str(), v.as_str()))
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
    fn serialization() {
        let params = SearchParams::from_pairs([("a b", "*-._~"), ("&=", "+%")]);
        assert_eq!(params.to_string(), "a+b=*-._%7E&%26%3D=%2B%25");
        assert_eq!(SearchParams::parse(&params.to_string()), params);
    }
}
