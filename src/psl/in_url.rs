//! The suffix lookups of a parsed URL's host: what the getters of `Url`, `UrlRef` and
//! `rapidurl::field` call, over a serialization and its components.

use super::{Sections, Suffix, SuffixList, label_start};
use crate::components::{Components, HostKind};

/// Which part of a domain's public suffix lookup (§3.2) a getter returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SuffixPart {
    /// The public suffix.
    PublicSuffix,
    /// The registrable domain: the public suffix and the label before it.
    RegistrableDomain,
    /// The labels before the registrable domain, without the dot that ends them.
    Subdomain,
}

impl SuffixPart {
    /// This part of a full lookup's answer.
    pub(crate) fn of<'d>(self, suffix: &Suffix<'d>) -> Option<&'d str> {
        match self {
            SuffixPart::PublicSuffix => Some(suffix.as_str()),
            SuffixPart::RegistrableDomain => suffix.registrable_domain(),
            SuffixPart::Subdomain => suffix.subdomain(),
        }
    }
}

/// The public suffix lookup of the host (§3.2): `None` unless the host is a domain.
#[inline]
pub(crate) fn domain_suffix<'s>(
    c: &Components,
    s: &'s str,
    list: &SuffixList,
    sections: Sections,
) -> Option<Suffix<'s>> {
    if c.host_kind != HostKind::Domain {
        return None;
    }
    list.lookup(c.hostname(s), sections)
}

/// `part` of a domain host over the whole of `list`, by the list's short cut in the
/// serialization (`last_two`: [`super::builtin_last_two`] for the built-in list, which
/// the compiler sees through, else [`SuffixList::last_two_in`]), or by a full lookup when
/// that cannot answer.
#[inline(always)]
pub(crate) fn suffix_part<'s>(
    c: &Components,
    s: &'s str,
    list: &SuffixList,
    part: SuffixPart,
    last_two: impl FnOnce(&str, usize, usize) -> Option<(usize, Option<usize>)>,
) -> Option<&'s str> {
    if c.host_kind != HostKind::Domain {
        return None;
    }
    let (start, end) = (c.host_start as usize, c.host_end as usize);
    match (last_two(s, start, end), part) {
        (Some((suffix, _)), SuffixPart::PublicSuffix) => s.get(suffix..end),
        (Some((_, before)), SuffixPart::RegistrableDomain) => s.get(before?..end),
        (Some((_, before)), SuffixPart::Subdomain) => {
            s.get(start..before?.saturating_sub(1).max(start))
        }
        (None, _) => list.part_by_lookup(c.hostname(s), part),
    }
}

/// The last label of a domain host, without the trailing dot.
#[inline]
pub(crate) fn top_level_domain<'s>(c: &Components, s: &'s str) -> Option<&'s str> {
    if c.host_kind != HostKind::Domain {
        return None;
    }
    let host = c.hostname(s);
    let name = host.strip_suffix('.').unwrap_or(host);
    // The word-wise dot search of the suffix lookups: a byte loop costs more than many a
    // lookup.
    let label = &name[label_start(name.as_bytes(), name.len())..];
    (!label.is_empty()).then_some(label)
}
