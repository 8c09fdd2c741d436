//! The sections of the list a lookup uses and a rule comes from, and how the lookup
//! table's flags stand for them.

use super::table;

/// Which part of the list a lookup uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sections {
    /// The whole list, ICANN and private sections, as browsers use it (and §3.2).
    #[default]
    All,
    /// The ICANN section alone (the domains delegated by registries), as BigQuery's
    /// `NET.REG_DOMAIN` uses it: `whatwg.github.io`'s registrable domain is `github.io`.
    Icann,
}

/// The section of the list a rule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// `===BEGIN ICANN DOMAINS===` (also any rule outside the section markers).
    Icann,
    /// `===BEGIN PRIVATE DOMAINS===`.
    Private,
}

/// The rule flags of a table that a lookup over `sections` takes.
#[inline]
pub(super) fn mask(sections: Sections) -> u8 {
    match sections {
        Sections::All => table::RULES | table::EXCEPTIONS,
        Sections::Icann => table::ICANN,
    }
}

/// A table's answer: where the suffix starts, the section
/// of the prevailing rule, where the label before it starts.
#[inline(always)]
pub(super) fn from_found(found: table::Found) -> (usize, Option<Section>, Option<usize>) {
    let section = match found.flag {
        0 => None,
        f if f & table::ICANN != 0 => Some(Section::Icann),
        _ => Some(Section::Private),
    };
    (found.start, section, found.hint)
}
