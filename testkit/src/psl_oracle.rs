//! The `psl` crate's compiled matcher as an oracle for `rapidurl::psl::SuffixList`: the
//! same snapshot of the list as the library's built-in table (both come from the same
//! `psl` version in `Cargo.lock`), found by another implementation.
//!
//! [`lookup`] answers as `SuffixList::lookup` is documented to: one trailing dot set
//! aside and given back; no answer for a domain that starts with a dot or whose public
//! suffix has an empty label; no registrable domain when the label before the suffix is
//! empty. For the ICANN section alone, when a private rule prevails the matcher is asked
//! again on that suffix less its first label (every ICANN rule that matches and is no
//! longer also matches it, and none longer can).

use psl::Psl;

/// The section of the rule that gave a suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The list's ICANN section.
    Icann,
    /// The list's private section.
    Private,
}

/// The oracle's answer for a domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer<'d> {
    domain: &'d str,
    start: usize,
    section: Option<Section>,
}

impl<'d> Answer<'d> {
    /// The public suffix, with the domain's trailing dot if it has one.
    pub fn as_str(&self) -> &'d str {
        &self.domain[self.start..]
    }

    /// The section of the prevailing rule; `None` when only the implicit `*` matched.
    pub fn section(&self) -> Option<Section> {
        self.section
    }

    /// Whether a rule of the list matched.
    pub fn is_known(&self) -> bool {
        self.section.is_some()
    }

    /// The registrable domain: the suffix and the non-empty label before it.
    pub fn registrable_domain(&self) -> Option<&'d str> {
        Some(&self.domain[self.registrable_start()?..])
    }

    /// The labels before the registrable domain, without the dot that ends them.
    pub fn subdomain(&self) -> Option<&'d str> {
        let start = self.registrable_start()?;
        Some(&self.domain[..start.saturating_sub(1)])
    }

    fn registrable_start(&self) -> Option<usize> {
        let label_end = self.start.checked_sub(1)?;
        let label_start = self.domain[..label_end].rfind('.').map_or(0, |dot| dot + 1);
        (label_start < label_end).then_some(label_start)
    }
}

/// The public suffix of `domain` (ASCII, lower case, as the URL host parser serializes
/// it) by the `psl` crate, over the whole list or (`icann_only`) its ICANN section.
pub fn lookup(domain: &str, icann_only: bool) -> Option<Answer<'_>> {
    let name = domain.strip_suffix('.').unwrap_or(domain);
    if name.is_empty() || name.starts_with('.') {
        return None;
    }
    let find = |n: &str| psl::List.find(n.rsplit('.').map(str::as_bytes));
    let mut info = find(name);
    if icann_only {
        while info.typ == Some(psl::Type::Private) {
            let suffix = &name[name.len() - info.len..];
            match suffix.find('.') {
                Some(dot) => info = find(&suffix[dot + 1..]),
                None => {
                    info.typ = None;
                    break;
                }
            }
        }
    }
    let start = name.len() - info.len.min(name.len());
    if name.as_bytes().get(start).is_none_or(|&b| b == b'.') {
        return None;
    }
    let section = info.typ.map(|t| match t {
        psl::Type::Icann => Section::Icann,
        psl::Type::Private => Section::Private,
    });
    Some(Answer {
        domain,
        start,
        section,
    })
}
