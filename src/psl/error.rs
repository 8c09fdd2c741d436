//! Why a list could not be read.

use std::fmt;

/// Why a list could not be read: the line (1-based) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListError {
    line: usize,
    kind: ListErrorKind,
}

/// The problem [`ListError`] reports.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ListErrorKind {
    /// The bytes are not UTF-8 (the line is where the first bad sequence is).
    NotUtf8,
    /// A rule has an empty label: `a..b`, `.a`, `a.`.
    EmptyLabel(String),
    /// `*` appears in a label that is not `*` alone.
    BadWildcard(String),
    /// `!` appears other than first, or an exception rule has one label or a wildcard.
    BadException(String),
    /// The rule is not a valid domain (UTS #46 processing failed); the error names why.
    InvalidDomain(String, crate::ParseError),
    /// A label of the rule (in ASCII) is longer than 63 bytes, a DNS label's limit.
    LabelTooLong(String),
    /// The text holds no rule (line 0).
    NoRules,
    /// The list has more nodes or label bytes than the lookup table can address (line 0).
    TooLarge,
}

impl ListError {
    pub(crate) fn new(line: usize, kind: ListErrorKind) -> ListError {
        ListError { line, kind }
    }

    /// The line (1-based) where the problem is; 0 when it is about the whole text.
    pub fn line(&self) -> usize {
        self.line
    }

    /// The problem.
    pub fn kind(&self) -> &ListErrorKind {
        &self.kind
    }
}

impl fmt::Display for ListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        match &self.kind {
            ListErrorKind::NotUtf8 => f.write_str("the list is not UTF-8"),
            ListErrorKind::EmptyLabel(r) => write!(f, "rule {r:?} has an empty label"),
            ListErrorKind::BadWildcard(r) => {
                write!(f, "rule {r:?}: a wildcard must be a whole label")
            }
            ListErrorKind::BadException(r) => write!(
                f,
                "rule {r:?}: an exception is `!` then a rule of two or more labels \
                 without wildcards"
            ),
            ListErrorKind::InvalidDomain(r, e) => write!(f, "rule {r:?} is not a domain: {e}"),
            ListErrorKind::LabelTooLong(r) => {
                write!(f, "rule {r:?} has a label longer than 63 bytes")
            }
            ListErrorKind::NoRules => f.write_str("the list has no rule"),
            ListErrorKind::TooLarge => f.write_str("the list is too large for the lookup table"),
        }
    }
}

impl std::error::Error for ListError {}
