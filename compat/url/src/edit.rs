//! The setters the URL Standard does not define (`set_host`, `set_scheme`, `set_path` on
//! an opaque path, …), with the `url` crate's rules for what each refuses.
//!
//! Each writes the new serialization from the URL's components (URL Standard §4.5) and
//! parses it: the parser then settles every offset, so no setter keeps offsets of its
//! own, and the result is always a URL the parser itself would have made.

use crate::host::parse_host;
use crate::{ParseError, Url};
use rapidurl::percent;

/// A URL's components, to be changed and written again.
pub(crate) struct Pieces<'a> {
    pub(crate) scheme: &'a str,
    pub(crate) username: &'a str,
    pub(crate) password: &'a str,
    /// `None` for a null host; `Some("")` for the empty host.
    pub(crate) host: Option<&'a str>,
    pub(crate) port: Option<u16>,
    pub(crate) path: &'a str,
    pub(crate) opaque_path: bool,
    pub(crate) query: Option<&'a str>,
    pub(crate) fragment: Option<&'a str>,
}

impl<'a> Pieces<'a> {
    pub(crate) fn of(url: &'a Url) -> Pieces<'a> {
        let u = &url.inner;
        Pieces {
            scheme: u.scheme(),
            username: u.username(),
            password: u.password(),
            host: (u.host_kind() != rapidurl::HostKind::None).then(|| u.hostname()),
            port: u.port_number(),
            path: u.pathname(),
            opaque_path: u.has_opaque_path(),
            query: u.query(),
            fragment: u.fragment(),
        }
    }

    /// The URL serializer (§4.5).
    pub(crate) fn serialize(&self) -> String {
        let mut out = String::with_capacity(
            self.scheme.len()
                + self.username.len()
                + self.password.len()
                + self.host.map_or(0, str::len)
                + self.path.len()
                + self.query.map_or(0, str::len)
                + self.fragment.map_or(0, str::len)
                + 16,
        );
        out.push_str(self.scheme);
        out.push(':');
        match self.host {
            Some(host) => {
                out.push_str("//");
                if !self.username.is_empty() || !self.password.is_empty() {
                    out.push_str(self.username);
                    if !self.password.is_empty() {
                        out.push(':');
                        out.push_str(self.password);
                    }
                    out.push('@');
                }
                out.push_str(host);
                if let Some(port) = self.port {
                    out.push(':');
                    out.push_str(&port.to_string());
                }
            }
            None => {
                if !self.opaque_path && self.path.starts_with("//") {
                    out.push_str("/.");
                }
            }
        }
        out.push_str(self.path);
        if let Some(q) = self.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = self.fragment {
            out.push('#');
            out.push_str(f);
        }
        out
    }

    /// The URL these pieces serialize to, or `None` when that is no URL (which the
    /// callers take as a refusal, leaving the URL as it was).
    pub(crate) fn to_url(&self) -> Option<Url> {
        Url::reparse(&self.serialize())
    }
}

/// `set_path` on a URL that can be a base: the path start state with an override (the
/// Standard's `pathname` setter, which takes the text as it is).
pub(crate) fn set_path(url: &mut Url, path: &str) {
    url.inner.set_pathname(path);
}

/// `set_path` on a URL with an opaque path: the text, a leading `/` written `%2F`, tabs
/// and newlines removed, C0 controls, `?` and `#` percent-encoded, and a last space
/// written `%20` (so that the text stays the path of a URL that parses back to itself:
/// a parse trims trailing spaces).
pub(crate) fn set_opaque_path(url: &mut Url, path: &str) {
    let mut encoded = String::with_capacity(path.len() + 2);
    let rest = match path.strip_prefix('/') {
        Some(rest) => {
            encoded.push_str("%2F");
            rest
        }
        None => path,
    };
    let cleaned: String = rest
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    percent::encode_into(
        &cleaned,
        &percent::C0_CONTROL.add(b'?').add(b'#'),
        &mut encoded,
    );
    if encoded.ends_with(' ') {
        encoded.pop();
        encoded.push_str("%20");
    }
    let mut pieces = Pieces::of(url);
    pieces.path = &encoded;
    if let Some(new) = pieces.to_url() {
        *url = new;
    }
}

/// The host written in place of the URL's (with `//` when it had none), userinfo and
/// port kept; a change that makes no URL is not made.
pub(crate) fn replace_host(url: &mut Url, host: &str) -> bool {
    let mut pieces = Pieces::of(url);
    pieces.host = Some(host);
    match pieces.to_url() {
        Some(new) => {
            *url = new;
            true
        }
        None => false,
    }
}

/// `Url::set_host`.
pub(crate) fn set_host(url: &mut Url, host: Option<&str>) -> Result<(), ParseError> {
    if url.cannot_be_a_base() {
        return Err(ParseError::SetHostOnCannotBeABaseUrl);
    }
    let scheme = url.scheme();
    let special = url.is_special();
    let file = scheme == "file";
    match host {
        Some(host) => {
            if host.is_empty() && special && !file {
                return Err(ParseError::EmptyHost);
            }
            let mut name = host;
            if !(host.starts_with('[') && host.ends_with(']')) {
                match host.find(':') {
                    Some(0) => return Err(ParseError::InvalidDomainCharacter),
                    Some(i) => name = &host[..i],
                    None => {}
                }
            }
            let parsed = parse_host(name, !special)?;
            if replace_host(url, &parsed.to_string()) {
                Ok(())
            } else {
                Err(ParseError::EmptyHost)
            }
        }
        None => {
            if !url.has_host() {
                return Ok(());
            }
            if special && !file {
                return Err(ParseError::EmptyHost);
            }
            let mut pieces = Pieces::of(url);
            pieces.username = "";
            pieces.password = "";
            pieces.port = None;
            pieces.host = if file { Some("") } else { None };
            if pieces.path.is_empty() {
                pieces.path = "/";
            }
            if let Some(new) = pieces.to_url() {
                *url = new;
            }
            Ok(())
        }
    }
}

/// `Url::set_scheme`.
pub(crate) fn set_scheme(url: &mut Url, scheme: &str) -> Result<(), ()> {
    let cleaned: String = scheme
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let name = cleaned.strip_suffix(':').unwrap_or(&cleaned);
    let mut bytes = name.bytes();
    let valid = bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if !valid {
        return Err(());
    }
    let name = name.to_ascii_lowercase();
    let new_special = matches!(
        name.as_str(),
        "http" | "https" | "ws" | "wss" | "ftp" | "file"
    );
    if new_special != url.is_special()
        || (name == "file" && url.has_authority())
        || (!url.has_host() && new_special)
    {
        return Err(());
    }
    let c = url.inner.components();
    let mut s = name;
    s.push_str(&url.as_str()[c.scheme_end() as usize..]);
    match Url::reparse(&s) {
        Some(new) => {
            *url = new;
            Ok(())
        }
        None => Err(()),
    }
}
