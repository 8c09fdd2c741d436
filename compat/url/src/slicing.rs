//! [`Position`]: slicing a URL between its components (`&url[BeforePath..]`).

use crate::Url;
use std::ops::{Index, Range, RangeFrom, RangeFull, RangeTo};

/// A place in a URL's serialization, before or after each component, for slicing it.
///
/// ```
/// use url::Position;
/// let url = url::Url::parse("https://example.net/a?q#f").unwrap();
/// assert_eq!(&url[Position::BeforePath..Position::AfterQuery], "/a?q");
/// assert_eq!(&url[..Position::AfterPath], "https://example.net/a");
/// ```
#[derive(Copy, Clone, Debug)]
pub enum Position {
    /// The start of the serialization.
    BeforeScheme,
    /// Before the `:` that ends the scheme.
    AfterScheme,
    /// After `://` (or `:` without an authority).
    BeforeUsername,
    /// After the username.
    AfterUsername,
    /// After the `:` before a password (or at the username's end).
    BeforePassword,
    /// Before the `@` after the password (or at the host's start).
    AfterPassword,
    /// At the host's start.
    BeforeHost,
    /// At the host's end.
    AfterHost,
    /// After the `:` before a port (or at the host's end).
    BeforePort,
    /// After the port's digits (or at the host's end).
    AfterPort,
    /// At the path's start.
    BeforePath,
    /// At the path's end.
    AfterPath,
    /// After the `?` (or at the path's end).
    BeforeQuery,
    /// At the query's end.
    AfterQuery,
    /// After the `#` (or at the end).
    BeforeFragment,
    /// The end of the serialization.
    AfterFragment,
}

impl Url {
    fn index_of(&self, position: Position) -> usize {
        let c = self.inner.components();
        let s = self.as_str();
        let len = s.len();
        let at = |i: u32| s.as_bytes().get(i as usize).copied();
        let authority = self.has_authority();
        let has_password = authority && at(c.username_end()) == Some(b':');
        let (query, fragment) = (
            c.query_start().map(|q| q as usize),
            c.fragment_start().map(|f| f as usize),
        );
        let port_end = match c.port() {
            Some(p) => c.host_end() as usize + 1 + p.to_string().len(),
            None => c.host_end() as usize,
        };
        match position {
            Position::BeforeScheme => 0,
            Position::AfterScheme => c.scheme_end() as usize,
            Position::BeforeUsername => c.scheme_end() as usize + if authority { 3 } else { 1 },
            Position::AfterUsername => c.username_end() as usize,
            Position::BeforePassword => c.username_end() as usize + usize::from(has_password),
            Position::AfterPassword => {
                if has_password {
                    c.host_start() as usize - 1
                } else {
                    c.host_start() as usize
                }
            }
            Position::BeforeHost => c.host_start() as usize,
            Position::AfterHost => c.host_end() as usize,
            Position::BeforePort => c.host_end() as usize + usize::from(c.port().is_some()),
            Position::AfterPort => port_end,
            Position::BeforePath => c.path_start() as usize,
            Position::AfterPath => query.or(fragment).unwrap_or(len),
            Position::BeforeQuery => query.map(|q| q + 1).or(fragment).unwrap_or(len),
            Position::AfterQuery => fragment.unwrap_or(len),
            Position::BeforeFragment => fragment.map_or(len, |f| f + 1),
            Position::AfterFragment => len,
        }
    }
}

impl Index<RangeFull> for Url {
    type Output = str;
    fn index(&self, _: RangeFull) -> &str {
        self.as_str()
    }
}

impl Index<RangeFrom<Position>> for Url {
    type Output = str;
    fn index(&self, range: RangeFrom<Position>) -> &str {
        &self.as_str()[self.index_of(range.start)..]
    }
}

impl Index<RangeTo<Position>> for Url {
    type Output = str;
    fn index(&self, range: RangeTo<Position>) -> &str {
        &self.as_str()[..self.index_of(range.end)]
    }
}

impl Index<Range<Position>> for Url {
    type Output = str;
    fn index(&self, range: Range<Position>) -> &str {
        &self.as_str()[self.index_of(range.start)..self.index_of(range.end)]
    }
}
