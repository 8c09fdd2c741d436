//! Public suffixes and registrable domains (URL Standard §3.2) over the
//! [Public Suffix List](https://publicsuffix.org/).
//!
//! A [`SuffixList`] is either the built-in snapshot of the list, compiled into the
//! library as a static table (no parsing, no allocation, no start-up cost) from the
//! list the [`psl`](https://docs.rs/psl) crate ships, of the version
//! [`BUILTIN_LIST_VERSION`] names, or a `public_suffix_list.dat` loaded at run time
//! ([`SuffixList::parse`], [`SuffixList::from_file`]) for users who track the list
//! themselves. Lookups follow the list's formal algorithm (wildcard and exception rules,
//! the implicit `*` rule), over the whole list or its ICANN section alone ([`Sections`]),
//! and say whether a listed rule matched ([`Suffix::is_known`]).
//!
//! Domains are looked up as the URL host parser serializes them: ASCII (Punycode), lower
//! case, at most one trailing dot. [`crate::Url::public_suffix`] and
//! [`crate::Url::registrable_domain`] are the Standard's algorithms on a URL's host with
//! the built-in list; [`crate::Url::domain_suffix`] takes any list.
//!
//! ```
//! use rapidurl::psl::{Section, Sections, SuffixList};
//!
//! let list = SuffixList::builtin();
//! let s = list.lookup("www.example.co.uk", Sections::All).unwrap();
//! assert_eq!(s.as_str(), "co.uk");
//! assert_eq!(s.registrable_domain(), Some("example.co.uk"));
//! assert_eq!(s.subdomain(), Some("www"));
//! assert_eq!(s.section(), Some(Section::Icann));
//!
//! // A private-section rule counts for `All`, not for `Icann` (BigQuery's NET.REG_DOMAIN).
//! assert_eq!(list.registrable_domain("whatwg.github.io"), Some("whatwg.github.io"));
//! let icann = list.lookup("whatwg.github.io", Sections::Icann).unwrap();
//! assert_eq!(icann.registrable_domain(), Some("github.io"));
//!
//! // No rule matched: the implicit `*` rule makes the last label the suffix.
//! let s = list.lookup("printer.internal-tld", Sections::All).unwrap();
//! assert_eq!((s.as_str(), s.is_known()), ("internal-tld", false));
//!
//! // A newer list, loaded at run time.
//! let mine = SuffixList::parse("// ===BEGIN ICANN DOMAINS===\nuk\nco.uk\n*.ck\n!www.ck\n")?;
//! assert_eq!(mine.registrable_domain("a.b.ck"), Some("a.b.ck"));
//! assert_eq!(mine.registrable_domain("www.ck"), Some("www.ck"));
//! # Ok::<(), rapidurl::psl::ListError>(())
//! ```

mod error;
mod in_url;
mod rules;
#[cfg(test)]
mod rules_tests;
mod section;
mod table;

use std::fmt;
use std::path::{Path, PathBuf};

pub use error::{ListError, ListErrorKind};
pub(crate) use in_url::{SuffixPart, domain_suffix, suffix_part, top_level_domain};
use rules::Rules;
pub use section::{Section, Sections};
use section::{from_found, mask};
use table::label_start;

/// The built-in table, built by `build.rs` from the `psl` crate's `data/rules.txt`:
/// `TABLE` and `VERSION` (that crate's version).
mod builtin {
    use super::table::Table;
    include!(concat!(env!("OUT_DIR"), "/psl_table.rs"));
}

/// A public suffix list: the built-in snapshot or one loaded at run time.
#[derive(Clone, Debug)]
pub struct SuffixList {
    kind: Kind,
}

/// The version of the [`psl`](https://docs.rs/psl) crate whose copy of the Public Suffix
/// List (its `data/rules.txt`, updated from the list's repository on every release) the
/// built-in table was built from, when the library was built; the version `Cargo.lock`
/// holds. `RAPIDURL_PSL_RULES=PATH` at build time names the file instead (it must be the
/// same version of the list, checked against that crate's matcher); this is then
/// `"(RAPIDURL_PSL_RULES)"`.
pub const BUILTIN_LIST_VERSION: &str = builtin::VERSION;

#[derive(Clone, Debug)]
enum Kind {
    /// The built-in snapshot, the table `build.rs` wrote.
    Builtin,
    /// A list read at run time.
    Loaded(Rules),
}

static BUILTIN: SuffixList = SuffixList {
    kind: Kind::Builtin,
};

impl Default for SuffixList {
    /// The built-in snapshot.
    fn default() -> Self {
        SuffixList {
            kind: Kind::Builtin,
        }
    }
}

/// The outcome of a lookup: the public suffix of a domain, borrowed from it, and the rule
/// that gave it. Two are equal when they are of the same domain, suffix and section.
#[derive(Clone, Copy, Debug)]
pub struct Suffix<'d> {
    /// The domain looked up.
    domain: &'d str,
    /// Where the public suffix starts in `domain`.
    start: usize,
    /// The section of the prevailing rule; `None` for the implicit `*` rule.
    section: Option<Section>,
    /// Where the label before the suffix starts, when the lookup saw it.
    label_hint: Option<usize>,
}

impl<'d> Suffix<'d> {
    /// The public suffix (§3.2), with the domain's trailing dot if it has one.
    pub fn as_str(&self) -> &'d str {
        &self.domain[self.start..]
    }

    /// Whether a rule of the list matched, rather than only the implicit `*` rule (that
    /// makes any unlisted top-level label a public suffix).
    pub fn is_known(&self) -> bool {
        self.section.is_some()
    }

    /// The section of the rule that matched; `None` when only the implicit `*` did.
    pub fn section(&self) -> Option<Section> {
        self.section
    }

    /// The registrable domain (§3.2): the public suffix and the label before it, with the
    /// domain's trailing dot if it has one; `None` when the domain is the public suffix.
    pub fn registrable_domain(&self) -> Option<&'d str> {
        Some(&self.domain[self.registrable_start()?..])
    }

    /// The labels before the registrable domain, without the dot that ends them: `""`
    /// when the domain is its registrable domain, `None` when it has none.
    pub fn subdomain(&self) -> Option<&'d str> {
        let start = self.registrable_start()?;
        Some(&self.domain[..start.saturating_sub(1)])
    }

    /// The domain looked up.
    pub fn domain(&self) -> &'d str {
        self.domain
    }

    #[inline]
    fn registrable_start(&self) -> Option<usize> {
        if self.start == 0 {
            return None;
        }
        // The label before the suffix; none when it is empty (`a..com`).
        let label_end = self.start - 1;
        let label_start = self
            .label_hint
            .unwrap_or_else(|| table::label_start(self.domain.as_bytes(), label_end));
        (label_start < label_end).then_some(label_start)
    }
}

impl PartialEq for Suffix<'_> {
    fn eq(&self, other: &Self) -> bool {
        (self.domain, self.start, self.section) == (other.domain, other.start, other.section)
    }
}

impl Eq for Suffix<'_> {}

impl fmt::Display for Suffix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl SuffixList {
    /// The snapshot of the list compiled into the library, a table built from the `psl`
    /// crate's copy of the list ([`BUILTIN_LIST_VERSION`]).
    pub fn builtin() -> &'static SuffixList {
        &BUILTIN
    }

    /// Whether this is the built-in snapshot ([`SuffixList::builtin`]).
    pub fn is_builtin(&self) -> bool {
        !matches!(self.kind, Kind::Loaded(_))
    }

    /// The number of rules of a loaded list (`None` for the built-in snapshot).
    pub fn rule_count(&self) -> Option<usize> {
        match &self.kind {
            Kind::Loaded(rules) => Some(rules.rule_count()),
            _ => None,
        }
    }

    /// Reads a list in the format of `public_suffix_list.dat`: one rule per line (read up
    /// to the first white space), `//` comments, and the `===BEGIN ICANN DOMAINS===` /
    /// `===BEGIN PRIVATE DOMAINS===` markers that give each rule its section (a rule
    /// outside them counts as ICANN). Unicode rules are stored in their ASCII form.
    ///
    /// Fails, naming the line, on a rule with an empty label, a wildcard that is not a
    /// whole label, an exception (`!`) of one label or with a wildcard, a rule that is
    /// not a valid domain, or a text with no rule at all.
    ///
    /// ```
    /// use rapidurl::psl::SuffixList;
    /// let err = SuffixList::parse("com\n\n// fine\nexample..com\n").unwrap_err();
    /// assert_eq!(err.line(), 4);
    /// assert_eq!(err.to_string(), "line 4: rule \"example..com\" has an empty label");
    /// ```
    pub fn parse(text: &str) -> Result<SuffixList, ListError> {
        Ok(SuffixList {
            kind: Kind::Loaded(Rules::parse(text)?),
        })
    }

    /// [`SuffixList::parse`] on the bytes of a file; errors name the file and the line.
    pub fn from_file(path: impl AsRef<Path>) -> Result<SuffixList, LoadError> {
        let path = path.as_ref();
        let fail = |kind| LoadError {
            path: path.to_owned(),
            kind,
        };
        let bytes = std::fs::read(path).map_err(|e| fail(LoadErrorKind::Io(e)))?;
        let text = match std::str::from_utf8(&bytes) {
            Ok(text) => text,
            Err(e) => {
                let line = 1 + bytes[..e.valid_up_to()]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                return Err(fail(LoadErrorKind::List(ListError::new(
                    line,
                    ListErrorKind::NotUtf8,
                ))));
            }
        };
        SuffixList::parse(text).map_err(|e| fail(LoadErrorKind::List(e)))
    }

    /// Looks `domain` up: its public suffix and the rule that gave it.
    ///
    /// `domain` is taken as the URL host parser serializes a domain (ASCII, lower case);
    /// one trailing dot is set aside and given back on the results, as §3.2 says. `None`
    /// when the domain starts with a dot (`.example.com`, as the list's own tests expect)
    /// or a label of the public suffix is empty (`com..`); a registrable domain is `None`
    /// too when the label before the suffix is empty (`a..com`). The list's algorithm is
    /// defined on host names, which have no empty labels.
    #[inline]
    pub fn lookup<'d>(&self, domain: &'d str, sections: Sections) -> Option<Suffix<'d>> {
        let bytes = domain.as_bytes();
        let name = match bytes {
            [name @ .., b'.'] => name,
            _ => bytes,
        };
        if name.first().is_none_or(|&b| b == b'.') {
            return None;
        }
        let (start, section, label_hint) = match &self.kind {
            Kind::Builtin => from_found(builtin::TABLE.find(name, mask(sections))),
            Kind::Loaded(rules) => rules.find(name, sections),
        };
        // An empty label in the suffix can only be its first one (the walk stops at an
        // empty label unless a wildcard takes it).
        if name.get(start).is_none_or(|&b| b == b'.') {
            return None;
        }
        Some(Suffix {
            domain,
            start,
            section,
            label_hint,
        })
    }

    /// The public suffix of `domain` over the whole list (§3.2).
    #[inline]
    pub fn public_suffix<'d>(&self, domain: &'d str) -> Option<&'d str> {
        match self.last_two(domain) {
            Some((start, _)) => domain.get(start..),
            None => self.part_by_lookup(domain, SuffixPart::PublicSuffix),
        }
    }

    /// The registrable domain of `domain` over the whole list (§3.2).
    #[inline]
    pub fn registrable_domain<'d>(&self, domain: &'d str) -> Option<&'d str> {
        match self.last_two(domain) {
            Some((_, start)) => domain.get(start..),
            None => self.part_by_lookup(domain, SuffixPart::RegistrableDomain),
        }
    }

    /// `part` of `domain`'s lookup over the whole list, by a full lookup.
    #[inline(never)]
    pub(crate) fn part_by_lookup<'d>(&self, domain: &'d str, part: SuffixPart) -> Option<&'d str> {
        part.of(&self.lookup(domain, Sections::All)?)
    }

    /// The table's short cut in a URL's serialization `s`, for the lookups over the whole
    /// list that need no section ([`table::Table::last_two_in`]): where the public suffix
    /// of the domain `s[start..end]` starts and where the label before it does (`None`
    /// when it has none); `None` when a full lookup must answer.
    #[inline(always)]
    pub(crate) fn last_two_in(
        &self,
        s: &str,
        start: usize,
        end: usize,
    ) -> Option<(usize, Option<usize>)> {
        match &self.kind {
            Kind::Builtin => builtin_last_two(s, start, end),
            Kind::Loaded(rules) => loaded_last_two_in(rules, s, start, end),
        }
    }

    /// The table of this list.
    #[inline(always)]
    fn table(&self) -> table::Table<'_> {
        match &self.kind {
            Kind::Builtin => builtin::TABLE,
            Kind::Loaded(rules) => rules.table(),
        }
    }

    /// The table's short cut for the lookups over the whole list that need no section
    /// ([`table::Table::last_two`]): where the public suffix of `domain` starts and
    /// where the label before it does; `None` when a full lookup must answer.
    #[inline(always)]
    fn last_two(&self, domain: &str) -> Option<(usize, usize)> {
        let table = self.table();
        match domain.as_bytes() {
            name @ [first, .., last] if *first != b'.' && *last != b'.' => table.last_two(name),
            _ => None,
        }
    }
}

/// [`SuffixList::last_two_in`] of the built-in list, which the compiler sees through (a
/// call through [`SuffixList::builtin`] from another crate reads the list's kind at run
/// time).
#[inline(always)]
pub(crate) fn builtin_last_two(
    s: &str,
    start: usize,
    end: usize,
) -> Option<(usize, Option<usize>)> {
    last_two_in(builtin::TABLE, &builtin::TABLE_AT, s, start, end)
}

/// [`SuffixList::last_two_in`] with `table`, also at `at` in memory for the walk (a
/// constant table passed by value would be written out for it on every call).
#[inline(always)]
fn last_two_in(
    table: table::Table<'_>,
    at: &table::Table<'_>,
    s: &str,
    start: usize,
    end: usize,
) -> Option<(usize, Option<usize>)> {
    let b = s.as_bytes();
    match table.last_two_in(b, start, end, crate::scan::dots::dots32) {
        Ok(found) => Some(found),
        Err(table::Then::Names(lo, m, v, t, u)) => {
            table::unpack(at.by_names(b, start, end, (lo, m, v, t, u)))
        }
        Err(table::Then::Walk(lo, m)) => at.walk_masked(b, start, end, lo, m),
        Err(table::Then::Lookup) => None,
    }
}

/// [`SuffixList::last_two_in`] of a loaded list (kept out of the built-in list's code).
#[inline(never)]
fn loaded_last_two_in(
    rules: &Rules,
    s: &str,
    start: usize,
    end: usize,
) -> Option<(usize, Option<usize>)> {
    let table = rules.table();
    last_two_in(table, &table, s, start, end)
}

/// Why [`SuffixList::from_file`] failed: the file, and the I/O or list error.
#[derive(Debug)]
pub struct LoadError {
    path: PathBuf,
    kind: LoadErrorKind,
}

/// The cause of a [`LoadError`].
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadErrorKind {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file is not a valid list.
    List(ListError),
}

impl LoadError {
    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The cause.
    pub fn kind(&self) -> &LoadErrorKind {
        &self.kind
    }
}

impl fmt::Display for LoadError {
    /// `FILE: cause` for I/O errors, `FILE:LINE: problem` for list errors.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.display();
        match &self.kind {
            LoadErrorKind::Io(e) => write!(f, "{path}: {e}"),
            LoadErrorKind::List(e) if e.line() > 0 => {
                let msg = e.to_string();
                let msg = msg.split_once(": ").map_or(msg.as_str(), |(_, m)| m);
                write!(f, "{path}:{}: {msg}", e.line())
            }
            LoadErrorKind::List(e) => write!(f, "{path}: {e}"),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            LoadErrorKind::Io(e) => Some(e),
            LoadErrorKind::List(e) => Some(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn icann_only_skips_private_rules_in_the_builtin() {
        let list = SuffixList::builtin();
        let s = list.lookup("foo.blogspot.com", Sections::All).unwrap();
        assert_eq!(
            (s.as_str(), s.section()),
            ("blogspot.com", Some(Section::Private))
        );
        let s = list.lookup("foo.blogspot.com", Sections::Icann).unwrap();
        assert_eq!((s.as_str(), s.section()), ("com", Some(Section::Icann)));
        assert_eq!(s.registrable_domain(), Some("blogspot.com"));
        assert_eq!(s.subdomain(), Some("foo"));
    }

    #[test]
    fn empty_labels_have_no_suffix() {
        let loaded = SuffixList::parse("com\n*.ck\n").unwrap();
        for d in [
            "",
            ".",
            "..",
            ".com",
            "com..",
            "a.b..",
            ".example.com",
            "a..ck",
        ] {
            assert_eq!(
                SuffixList::builtin().lookup(d, Sections::All),
                None,
                "{d:?}"
            );
            assert_eq!(loaded.lookup(d, Sections::All), None, "{d:?}");
        }
        for list in [SuffixList::builtin(), &loaded] {
            let s = list.lookup("a..com", Sections::All).unwrap();
            let got = (s.as_str(), s.registrable_domain(), s.subdomain());
            assert_eq!(got, ("com", None, None));
            let s = list.lookup("a..b.example.com.", Sections::All).unwrap();
            assert_eq!(s.registrable_domain(), Some("example.com."));
            assert_eq!(s.subdomain(), Some("a..b"));
        }
    }

    #[test]
    fn load_error_names_file_and_line() {
        let dir = std::env::temp_dir().join(format!("rapidurl-psl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.dat");
        std::fs::write(&path, "// c\ncom\n!com\n").unwrap();
        let err = SuffixList::from_file(&path).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "{}:3: rule \"!com\": an exception is `!` then a rule of two or more labels \
                 without wildcards",
                path.display()
            )
        );
        std::fs::write(&path, b"com\nco\xFFm\n").unwrap();
        let err = SuffixList::from_file(&path).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("{}:2: the list is not UTF-8", path.display())
        );
        let missing = dir.join("missing.dat");
        let err = SuffixList::from_file(&missing).unwrap_err();
        assert!(matches!(err.kind(), LoadErrorKind::Io(_)));
        assert!(
            err.to_string()
                .starts_with(&format!("{}: ", missing.display()))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
