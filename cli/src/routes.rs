//! `--routes FILE` (and `--routes-base URL`): the route table of the `route` and
//! `route_params` fields.
//!
//! One pattern a line, or `name<TAB>pattern` (split at the first tab). A pattern is read
//! by [`PatternSet::add_route`]: an absolute constructor string
//! (`https://example.com/users/:id`); a path (`/users/:id`: the pathname pattern alone,
//! any protocol, host and port); with `--routes-base URL`, every pattern string as
//! `new URLPattern(pattern, URL)`, so that a path takes the base's protocol, host and
//! port. A line whose first character is `#` is a comment, and a line of only white
//! space is skipped; a `#` anywhere else belongs to the pattern (it starts the hash
//! component). The table is read once, before any row, and shared by every worker.

use std::path::Path;
use std::sync::OnceLock;

use rapidurl::field::FieldContext;
use rapidurl::pattern::{PatternErrorKind, PatternSet};

use crate::outcome::Failure;

static TABLE: OnceLock<PatternSet> = OnceLock::new();

/// How each row is looked up in the route table, when the command writes or counts a
/// `route` or `route_params` field ([`crate::input::rows::Plan::routes`]).
static LOOKUP: OnceLock<Lookup> = OnceLock::new();

pub use crate::input::rows::Lookup;

/// The lookup of every parsed row, if the command writes route fields.
pub fn lookup() -> Option<Lookup> {
    LOOKUP.get().copied()
}

/// The route table read by [`load`], if any.
pub fn table() -> Option<&'static PatternSet> {
    TABLE.get()
}

/// `cx` with the route table, when there is one.
pub fn with_routes(cx: FieldContext<'_>) -> FieldContext<'_> {
    match table() {
        Some(set) => cx.routes(set),
        None => cx,
    }
}

/// What a command needs of the route table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wants {
    /// No route field.
    Nothing,
    /// `route`, not `route_params`.
    Route,
    /// `route_params` (with `route` or without).
    Params,
}

impl Wants {
    /// What columns that each need `wants` need together.
    pub fn all(wants: impl IntoIterator<Item = Wants>) -> Wants {
        wants.into_iter().max().unwrap_or(Wants::Nothing)
    }
}

/// Reads the route table of `--routes FILE` (when given; its relative patterns against
/// `--routes-base URL`) and checks that the fields asked for have what they need: an
/// error names the file, line and column of a bad pattern, or the option a `route` field
/// lacks. `wants`: the route fields the command writes or counts.
pub fn load(path: Option<&Path>, base: Option<&str>, wants: Wants) -> Result<(), Failure> {
    let Some(path) = path else {
        if base.is_some() {
            return Err(Failure::Message(
                "--routes-base is the base of a route table's patterns: give --routes FILE too"
                    .to_owned(),
            ));
        }
        if wants != Wants::Nothing {
            return Err(Failure::Message(
                "the fields route and route_params need a route table: --routes FILE".to_owned(),
            ));
        }
        return Ok(());
    };
    if let Some(base) = base {
        rapidurl::Url::parse(base).map_err(|e| {
            Failure::Message(format!("--routes-base {base:?}: not a valid URL: {e}"))
        })?;
    }
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Message(format!("{name}: cannot read the route table: {e}")))?;
    let set = parse_table(&text, &name.to_string(), base)?;
    if set.is_empty() {
        return Err(Failure::Message(format!(
            "{name}: the route table has no pattern"
        )));
    }
    let _ = TABLE.set(set);
    if let Some(set) = TABLE.get().filter(|_| wants != Wants::Nothing) {
        let _ = LOOKUP.set(Lookup {
            set,
            params: wants == Wants::Params,
        });
    }
    Ok(())
}

/// A route table from its text, its relative patterns against `base`; errors as
/// `FILE:LINE:COL: message`, COL the column where the pattern starts.
pub fn parse_table(text: &str, name: &str, base: Option<&str>) -> Result<PatternSet, Failure> {
    let mut set = PatternSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let (route, pattern, offset) = match line.split_once('\t') {
            Some((route, pattern)) => (Some(route), pattern, route.chars().count() + 1),
            None => (None, line, 0),
        };
        set.add_route(route, pattern, base).map_err(|e| {
            let hint = match e.kind() {
                PatternErrorKind::MissingProtocol => {
                    "; start a path with `/`, or give --routes-base URL"
                }
                _ => "",
            };
            // The column of the pattern; the message places the error within it.
            Failure::Message(format!(
                "{name}:{}:{}: bad route pattern: {e}{hint}",
                i + 1,
                offset + 1
            ))
        })?;
    }
    Ok(set)
}
