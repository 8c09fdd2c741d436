//! The components of a pattern or of an input as a dictionary, and "process a
//! URLPatternInit" (URL Pattern Standard, "URLPatternInit processing").

use super::canon;
use super::error::{PatternError, PatternErrorKind};
use super::parts::escape_pattern_string;
use crate::Url;
use crate::components::SchemeKind;

pub(crate) const PROTOCOL: usize = 0;
pub(crate) const USERNAME: usize = 1;
pub(crate) const PASSWORD: usize = 2;
pub(crate) const HOSTNAME: usize = 3;
pub(crate) const PORT: usize = 4;
pub(crate) const PATHNAME: usize = 5;
pub(crate) const SEARCH: usize = 6;
pub(crate) const HASH: usize = 7;

/// The names of the eight components, in order.
pub const COMPONENT_NAMES: [&str; 8] = [
    "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash",
];

/// A `URLPatternInit` as a table: each component may be given, and a base URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Init {
    pub(crate) comps: [Option<String>; 8],
    pub(crate) base_url: Option<String>,
}

/// Whether the init is processed for a pattern or for a URL to match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Pattern,
    Url,
}

fn is_special_scheme(s: &str) -> bool {
    SchemeKind::from_scheme(s).is_special()
}

fn base_string(input: &str, kind: Kind) -> String {
    match kind {
        Kind::Pattern => escape_pattern_string(input),
        Kind::Url => input.to_owned(),
    }
}

fn is_absolute_pathname(input: &str, kind: Kind) -> bool {
    let b = input.as_bytes();
    match b.first() {
        None => false,
        Some(b'/') => true,
        _ if kind == Kind::Url => false,
        _ => b.len() >= 2 && matches!(b[0], b'\\' | b'{') && b[1] == b'/',
    }
}

fn strip(v: &str, f: impl FnOnce(&str) -> Option<&str>) -> &str {
    f(v).unwrap_or(v)
}

/// Process a URLPatternInit, with `initial` as the starting values (all null for a
/// pattern, all empty for a URL).
pub(crate) fn process(
    init: &Init,
    kind: Kind,
    initial: Option<&str>,
) -> Result<[Option<String>; 8], PatternError> {
    let mut result: [Option<String>; 8] = Default::default();
    if let Some(v) = initial {
        for r in &mut result {
            *r = Some(v.to_owned());
        }
    }
    let has = |i: usize| init.comps[i].is_some();
    let mut base = None;
    if let Some(base_str) = &init.base_url {
        let url = Url::parse(base_str).map_err(|e| {
            PatternError::new(PatternErrorKind::InvalidBaseUrl(format!(
                "{base_str:?}: {e}"
            )))
        })?;
        if !has(PROTOCOL) {
            result[PROTOCOL] = Some(base_string(url.scheme(), kind));
        }
        if kind != Kind::Pattern && !(has(PROTOCOL) || has(HOSTNAME) || has(PORT) || has(USERNAME))
        {
            result[USERNAME] = Some(base_string(url.username(), kind));
        }
        if kind != Kind::Pattern
            && !(has(PROTOCOL) || has(HOSTNAME) || has(PORT) || has(USERNAME) || has(PASSWORD))
        {
            result[PASSWORD] = Some(base_string(url.password(), kind));
        }
        if !(has(PROTOCOL) || has(HOSTNAME)) {
            result[HOSTNAME] = Some(base_string(url.hostname(), kind));
        }
        if !(has(PROTOCOL) || has(HOSTNAME) || has(PORT)) {
            result[PORT] = Some(url.port().to_owned());
        }
        if !(has(PROTOCOL) || has(HOSTNAME) || has(PORT) || has(PATHNAME)) {
            result[PATHNAME] = Some(base_string(url.pathname(), kind));
        }
        if !(has(PROTOCOL) || has(HOSTNAME) || has(PORT) || has(PATHNAME) || has(SEARCH)) {
            let q = url.search();
            result[SEARCH] = Some(base_string(q.strip_prefix('?').unwrap_or(q), kind));
        }
        if !(has(PROTOCOL)
            || has(HOSTNAME)
            || has(PORT)
            || has(PATHNAME)
            || has(SEARCH)
            || has(HASH))
        {
            let h = url.hash();
            result[HASH] = Some(base_string(h.strip_prefix('#').unwrap_or(h), kind));
        }
        base = Some(url);
    }
    let pattern = kind == Kind::Pattern;
    let name = |i: usize| COMPONENT_NAMES[i];
    if let Some(v) = &init.comps[PROTOCOL] {
        let v = strip(v, |v| v.strip_suffix(':'));
        result[PROTOCOL] = Some(if pattern {
            v.to_owned()
        } else {
            canon::protocol(v).map_err(|e| e.in_component(name(PROTOCOL)))?
        });
    }
    if let Some(v) = &init.comps[USERNAME] {
        result[USERNAME] = Some(if pattern {
            v.clone()
        } else {
            canon::username(v)?
        });
    }
    if let Some(v) = &init.comps[PASSWORD] {
        result[PASSWORD] = Some(if pattern {
            v.clone()
        } else {
            canon::password(v)?
        });
    }
    if let Some(v) = &init.comps[HOSTNAME] {
        result[HOSTNAME] = Some(if pattern {
            v.clone()
        } else {
            canon::hostname(v).map_err(|e| e.in_component(name(HOSTNAME)))?
        });
    }
    let protocol = result[PROTOCOL].clone().unwrap_or_default();
    if let Some(v) = &init.comps[PORT] {
        result[PORT] = Some(if pattern {
            v.clone()
        } else {
            canon::port(v, Some(&protocol)).map_err(|e| e.in_component(name(PORT)))?
        });
    }
    if let Some(v) = &init.comps[PATHNAME] {
        let mut path = v.clone();
        if let Some(base) = &base
            && !base.has_opaque_path()
            && !is_absolute_pathname(&path, kind)
        {
            let base_path = base_string(base.pathname(), kind);
            if let Some(slash) = base_path.rfind('/') {
                path = format!("{}{}", &base_path[..=slash], path);
            }
        }
        result[PATHNAME] = Some(if pattern {
            path
        } else if protocol.is_empty() || is_special_scheme(&protocol) {
            canon::pathname(&path)?
        } else {
            canon::opaque_pathname(&path)?
        });
    }
    if let Some(v) = &init.comps[SEARCH] {
        let v = strip(v, |v| v.strip_prefix('?'));
        result[SEARCH] = Some(if pattern {
            v.to_owned()
        } else {
            canon::search(v)?
        });
    }
    if let Some(v) = &init.comps[HASH] {
        let v = strip(v, |v| v.strip_prefix('#'));
        result[HASH] = Some(if pattern {
            v.to_owned()
        } else {
            canon::hash(v)?
        });
    }
    Ok(result)
}
