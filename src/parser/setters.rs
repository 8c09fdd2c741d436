//! The URL API setters (URL Standard §6.1), as state-override runs of the parser.
//!
//! A setter takes the URL apart into its components ([`Pieces`]), replaces one (or two:
//! the host setter may set the port too), and writes the serialization again (§4.5).
//! Where the Standard runs the basic URL parser with a state override, the same state
//! methods as the parser's are run here ([`Parser::for_setter`]), so paths, queries and
//! fragments are normalized by one piece of code.

use super::state::Parser;
use crate::components::{Components, HostKind, SchemeKind};
use crate::host;
use crate::percent;
use crate::syntax::{authority_end, host_colon, remove_tab_and_newline, scan_port};
use std::borrow::Cow;

/// A URL taken apart into its components (§4.1), each already normalized.
#[derive(Clone, Debug)]
pub(crate) struct Pieces<'a> {
    scheme: Cow<'a, str>,
    username: Cow<'a, str>,
    password: Cow<'a, str>,
    host: Option<(Cow<'a, str>, HostKind)>,
    port: Option<u16>,
    path: Cow<'a, str>,
    opaque_path: bool,
    query: Option<Cow<'a, str>>,
    fragment: Option<Cow<'a, str>>,
}

impl<'a> Pieces<'a> {
    /// Takes the URL `(s, c)` apart.
    pub(crate) fn of(s: &'a str, c: &Components) -> Pieces<'a> {
        Pieces {
            scheme: Cow::Borrowed(c.scheme(s)),
            username: Cow::Borrowed(c.username(s)),
            password: Cow::Borrowed(c.password(s)),
            host: (c.host_kind != HostKind::None)
                .then(|| (Cow::Borrowed(c.hostname(s)), c.host_kind)),
            port: c.port,
            path: Cow::Borrowed(c.pathname(s)),
            opaque_path: c.opaque_path,
            query: c.query(s).map(Cow::Borrowed),
            fragment: c.fragment(s).map(Cow::Borrowed),
        }
    }

    /// The length of the serialization, at most 16 bytes over (delimiters, port, `/.`).
    pub(crate) fn len(&self) -> usize {
        self.scheme.len()
            + self.username.len()
            + self.password.len()
            + self.host.as_ref().map_or(0, |h| h.0.len())
            + self.path.len()
            + self.query.as_ref().map_or(0, |q| q.len())
            + self.fragment.as_ref().map_or(0, |f| f.len())
            + 16
    }

    /// The URL serializer (§4.5), recording the offsets. The caller checks [`Pieces::len`]
    /// against the `u32` offset limit first.
    pub(crate) fn build(&self) -> (String, Components) {
        let mut out = String::with_capacity(self.len());
        let mut c = Components::empty();
        out.push_str(&self.scheme);
        c.scheme_end = out.len() as u32;
        c.scheme_kind = SchemeKind::from_scheme(&self.scheme);
        out.push(':');
        match &self.host {
            Some((host, kind)) => {
                out.push_str("//");
                out.push_str(&self.username);
                c.username_end = out.len() as u32;
                if !self.password.is_empty() {
                    out.push(':');
                    out.push_str(&self.password);
                }
                if !self.username.is_empty() || !self.password.is_empty() {
                    out.push('@');
                }
                c.host_start = out.len() as u32;
                out.push_str(host);
                c.host_end = out.len() as u32;
                c.host_kind = *kind;
                if let Some(port) = self.port {
                    out.push(':');
                    percent::push_decimal(&mut out, port.into());
                }
                c.port = self.port;
            }
            None => {
                c.set_host_at(out.len() as u32, HostKind::None);
                if !self.opaque_path && self.path.starts_with("//") {
                    out.push_str("/.");
                }
            }
        }
        c.path_start = out.len() as u32;
        c.opaque_path = self.opaque_path;
        out.push_str(&self.path);
        if let Some(q) = &self.query {
            c.query_start = Some(out.len() as u32);
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = &self.fragment {
            c.fragment_start = Some(out.len() as u32);
            out.push('#');
            out.push_str(f);
        }
        (out, c)
    }
}

/// A URL being changed by a setter: its serialization and components.
pub(crate) type Target<'u> = (&'u mut String, &'u mut Components);

/// Takes the URL apart, lets `edit` change the pieces, and writes it again — unless the
/// new serialization would be longer than `Components` can address (`u32::MAX` bytes):
/// setters have no error to return, so such a change is not made. (A setter that returns
/// without a change does so before calling this.)
fn rewrite(url: Target<'_>, edit: impl FnOnce(&mut Pieces<'_>)) {
    let (s, c) = url;
    let rebuilt = {
        let mut pieces = Pieces::of(s, c);
        edit(&mut pieces);
        if pieces.len() > u32::MAX as usize {
            return;
        }
        pieces.build()
    };
    super::debug_check(&rebuilt.1, &rebuilt.0);
    *s = rebuilt.0;
    *c = rebuilt.1;
}

/// Cannot have a username/password/port (§4.2): the host is null or empty, or the
/// scheme is `file`.
fn cannot_have_username_password_port(c: &Components) -> bool {
    matches!(c.host_kind, HostKind::None | HostKind::Empty) || c.scheme_kind == SchemeKind::File
}

/// The `protocol` setter: scheme start state with a state override on `value` + `:`.
pub(crate) fn set_protocol(url: Target<'_>, value: &str) {
    let value = remove_tab_and_newline(value);
    let v = value.as_bytes();
    if !v.first().is_some_and(u8::is_ascii_alphabetic) {
        return;
    }
    let end = v
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
        .unwrap_or(v.len());
    // The scheme state sees `:` (the one the setter appends, or one in the value) or
    // anything else, which is failure.
    if end < v.len() && v[end] != b':' {
        return;
    }
    let scheme = value[..end].to_ascii_lowercase();
    let new_kind = SchemeKind::from_scheme(&scheme);
    let c = *url.1;
    if c.scheme_kind.is_special() != new_kind.is_special()
        || ((c.has_credentials() || c.port.is_some()) && new_kind == SchemeKind::File)
        || (c.scheme_kind == SchemeKind::File && c.host_kind == HostKind::Empty)
    {
        return;
    }
    rewrite(url, |p| {
        p.scheme = Cow::Owned(scheme);
        if p.port.is_some() && p.port == new_kind.default_port() {
            p.port = None;
        }
    });
}

/// The `username` setter.
pub(crate) fn set_username(url: Target<'_>, value: &str) {
    if cannot_have_username_password_port(url.1) {
        return;
    }
    rewrite(url, |p| {
        p.username = Cow::Owned(percent::encode(value, &percent::USERINFO).into_owned());
    });
}

/// The `password` setter.
pub(crate) fn set_password(url: Target<'_>, value: &str) {
    if cannot_have_username_password_port(url.1) {
        return;
    }
    rewrite(url, |p| {
        p.password = Cow::Owned(percent::encode(value, &percent::USERINFO).into_owned());
    });
}

/// Host-parses `input` for the URL `c`, returning the serialization and kind.
fn parse_host(input: &str, c: &Components) -> Option<(String, HostKind)> {
    let mut out = String::new();
    let kind = host::parse_host_into(input, !c.is_special(), &mut out).ok()?;
    Some((out, kind))
}

/// The `host` setter (`hostname_only` false) and the `hostname` setter (true): the host
/// state, or for file URLs the file host state, with a state override.
pub(crate) fn set_host(url: Target<'_>, value: &str, hostname_only: bool) {
    let c = *url.1;
    if c.opaque_path {
        return;
    }
    let value = remove_tab_and_newline(value);
    if c.scheme_kind == SchemeKind::File {
        return set_file_host(url, &value);
    }
    let v = value.as_bytes();
    let special = c.is_special();
    // Host state with a state override: the host runs to the end of the authority or to
    // a `:` outside brackets.
    let authority_end = authority_end(v, 0, special);
    let end = host_colon(&v[..authority_end]).unwrap_or(authority_end);
    let buffer = &value[..end];
    if v.get(end) == Some(&b':') {
        if buffer.is_empty() || hostname_only {
            return;
        }
        let Some((host, kind)) = parse_host(buffer, &c) else {
            return;
        };
        // Port state with a state override: the host is set even if the port fails.
        let (port_end, port) = scan_port(v, end + 1);
        let new_port = if port_end == end + 1 || port > u16::MAX as u32 {
            None
        } else {
            Some(port as u16)
        };
        return rewrite(url, |p| {
            p.host = Some((Cow::Owned(host), kind));
            if let Some(port) = new_port {
                p.port = (Some(port) != c.scheme_kind.default_port()).then_some(port);
            }
        });
    }
    if buffer.is_empty() && (special || c.has_credentials() || c.port.is_some()) {
        return;
    }
    let Some((host, kind)) = parse_host(buffer, &c) else {
        return;
    };
    rewrite(url, |p| {
        p.host = Some((Cow::Owned(host), kind));
    });
}

/// The `host` and `hostname` setters of a file URL: the file host state with a state
/// override (`localhost` becomes the empty host; a port is not looked for).
fn set_file_host(url: Target<'_>, value: &str) {
    let end = authority_end(value.as_bytes(), 0, true);
    let (mut host, mut kind) = (String::new(), HostKind::Empty);
    if end > 0 {
        let Some(parsed) = parse_host(&value[..end], url.1) else {
            return;
        };
        if parsed.0 != "localhost" {
            (host, kind) = parsed;
        }
    }
    rewrite(url, |p| {
        p.host = Some((Cow::Owned(host), kind));
    });
}

/// The `port` setter.
pub(crate) fn set_port(url: Target<'_>, value: &str) {
    let c = *url.1;
    if cannot_have_username_password_port(&c) {
        return;
    }
    if value.is_empty() {
        return rewrite(url, |p| {
            p.port = None;
        });
    }
    let value = remove_tab_and_newline(value);
    let (end, port) = scan_port(value.as_bytes(), 0);
    if end == 0 || port > u16::MAX as u32 {
        return;
    }
    let port = port as u16;
    rewrite(url, |p| {
        p.port = (Some(port) != c.scheme_kind.default_port()).then_some(port);
    });
}

/// The `pathname` setter: path start state with a state override.
pub(crate) fn set_pathname(url: Target<'_>, value: &str) {
    let c = *url.1;
    if c.opaque_path {
        return;
    }
    let value = remove_tab_and_newline(value);
    let mut out = String::with_capacity(value.len() + 8);
    if Parser::for_setter(&value, c.scheme_kind, c.host_kind, &mut out)
        .path_start_state(0)
        .is_err()
    {
        return;
    }
    let path = out;
    rewrite(url, |p| {
        p.path = Cow::Owned(path);
    });
}

/// The `search` setter: query state with a state override.
pub(crate) fn set_search(url: Target<'_>, value: &str) {
    if value.is_empty() {
        return set_query_text(url, None);
    }
    set_query_text(url, Some(value.strip_prefix('?').unwrap_or(value)));
}

/// Sets the query to `query` (no `?` removed: `Some("")` is the empty query) encoded by
/// the query state with a state override, or removes it; in place: the fragment after it
/// moves, nothing before it does.
pub(crate) fn set_query_text(url: Target<'_>, query: Option<&str>) {
    let (s, c) = url;
    let from = c.path_end(s);
    let to = c.fragment_start.map_or(s.len(), |f| f as usize);
    let query = query.map(remove_tab_and_newline);
    // The longest the new URL can be: each byte of the query percent-encoded, and `?`.
    let longest = s.len() - (to - from) + query.as_ref().map_or(0, |q| 3 * q.len() + 1);
    if longest > u32::MAX as usize {
        return;
    }
    let fragment = (to < s.len()).then(|| s[to..].to_owned());
    s.truncate(from);
    c.query_start = None;
    if let Some(q) = &query {
        c.query_start = Some(from as u32);
        // The query state writes `?` and the query; it never fails.
        let _ = Parser::for_setter(q, c.scheme_kind, c.host_kind, s).query_state(0);
    }
    c.fragment_start = fragment.map(|f| {
        let at = s.len() as u32;
        s.push_str(&f);
        at
    });
    super::debug_check(c, s);
}

/// Sets the query to `query` as it is (already percent-encoded), or to null: the
/// URLSearchParams update steps (§6.2).
pub(crate) fn set_query(url: Target<'_>, query: Option<&str>) {
    rewrite(url, |p| {
        p.query = query.map(|q| Cow::Owned(q.to_owned()));
    });
}

/// The `hash` setter: fragment state with a state override.
pub(crate) fn set_hash(url: Target<'_>, value: &str) {
    if value.is_empty() {
        return set_fragment_text(url, None);
    }
    set_fragment_text(url, Some(value.strip_prefix('#').unwrap_or(value)));
}

/// Sets the fragment to `fragment` (no `#` removed) encoded by the fragment state, or
/// removes it; in place, at the end of the serialization.
pub(crate) fn set_fragment_text(url: Target<'_>, fragment: Option<&str>) {
    let (s, c) = url;
    let from = c.fragment_start.map_or(s.len(), |f| f as usize);
    let fragment = fragment.map(remove_tab_and_newline);
    if from + fragment.as_ref().map_or(0, |f| 3 * f.len() + 1) > u32::MAX as usize {
        return;
    }
    s.truncate(from);
    c.fragment_start = None;
    if let Some(f) = &fragment {
        c.fragment_start = Some(from as u32);
        // The fragment state writes `#` and the fragment; it never fails.
        let _ = Parser::for_setter(f, c.scheme_kind, c.host_kind, s).fragment_state(0);
    }
    super::debug_check(c, s);
}
