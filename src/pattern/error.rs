//! [`PatternError`]: why a URL pattern could not be constructed, and where.

use std::fmt;

/// What is wrong in a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PatternErrorKind {
    /// The tokenizer met something that is not valid pattern syntax (the text says what).
    InvalidToken(&'static str),
    /// The pattern parser expected one token and found another.
    UnexpectedToken {
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// Two groups of one component have the same name.
    DuplicateName(String),
    /// A regexp group is not a valid ECMAScript regular expression (with the `v` flag).
    InvalidRegExp(String),
    /// A pattern string without a protocol, and no base URL to take one from.
    MissingProtocol,
    /// A base URL was given together with a dictionary of components (put it in `baseURL`).
    BaseUrlWithComponents,
    /// The base URL could not be parsed as a URL.
    InvalidBaseUrl(String),
    /// Fixed text of a component is not valid in that component (the URL parser refused it).
    InvalidComponent(String),
    /// A regexp group compiles to more than
    /// [`MAX_REGEXP_PROGRAM_SIZE`](super::MAX_REGEXP_PROGRAM_SIZE) instructions (counted
    /// repetitions such as `(?:a{1000}){1000}` are unrolled).
    RegExpTooLarge,
    /// Matching a regexp group with a backreference or a lookaround took more than
    /// [`MAX_BACKTRACK_STEPS`](super::MAX_BACKTRACK_STEPS) steps: the input was neither
    /// matched nor refused.
    MatchLimit,
}

/// The component of a URL pattern an error is in.
pub type ComponentName = &'static str;

/// Why a URL pattern could not be constructed: what ([`PatternErrorKind`]), in which
/// component when known, and at which code point of that component's pattern string (or of
/// the constructor string) when known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    kind: PatternErrorKind,
    component: Option<ComponentName>,
    position: Option<usize>,
}

impl PatternError {
    pub(crate) fn new(kind: PatternErrorKind) -> PatternError {
        PatternError {
            kind,
            component: None,
            position: None,
        }
    }

    pub(crate) fn at(mut self, position: usize) -> PatternError {
        self.position = Some(position);
        self
    }

    pub(crate) fn in_component(mut self, component: ComponentName) -> PatternError {
        self.component.get_or_insert(component);
        self
    }

    /// What is wrong.
    pub fn kind(&self) -> &PatternErrorKind {
        &self.kind
    }

    /// The component (`"protocol"` … `"hash"`) whose pattern is wrong, when known.
    pub fn component(&self) -> Option<&'static str> {
        self.component
    }

    /// The code point index in that component's pattern string, when known.
    pub fn position(&self) -> Option<usize> {
        self.position
    }
}

impl fmt::Display for PatternErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternErrorKind::InvalidToken(what) => write!(f, "invalid pattern syntax: {what}"),
            PatternErrorKind::UnexpectedToken { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            PatternErrorKind::DuplicateName(name) => write!(f, "duplicate group name `{name}`"),
            PatternErrorKind::InvalidRegExp(msg) => {
                write!(f, "invalid regular expression in a regexp group: {msg}")
            }
            PatternErrorKind::MissingProtocol => f.write_str(
                "the pattern string has no protocol and no base URL was given (relative pattern)",
            ),
            PatternErrorKind::BaseUrlWithComponents => f.write_str(
                "a base URL argument was given with a dictionary of components (use its baseURL)",
            ),
            PatternErrorKind::InvalidBaseUrl(e) => write!(f, "invalid base URL: {e}"),
            PatternErrorKind::InvalidComponent(v) => write!(f, "invalid value {v:?}"),
            PatternErrorKind::RegExpTooLarge => write!(
                f,
                "a regexp group compiles to more than {} instructions (counted repetitions \
                 are unrolled: use fewer or smaller counts)",
                super::MAX_REGEXP_PROGRAM_SIZE
            ),
            PatternErrorKind::MatchLimit => write!(
                f,
                "matching gave up after {} steps of a regexp group with a backreference or \
                 a lookaround (the input is neither matched nor refused)",
                super::MAX_BACKTRACK_STEPS
            ),
        }
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        match (self.component, self.position) {
            (Some(c), Some(p)) => write!(f, " (in the {c} pattern, at code point {p})"),
            (Some(c), None) => write!(f, " (in the {c} pattern)"),
            (None, Some(p)) => write!(f, " (at code point {p})"),
            (None, None) => Ok(()),
        }
    }
}

impl std::error::Error for PatternError {}
