//! The JavaScript `URL` API's getters and setters (URL Standard §6.1), as functions over
//! [`Url`]: what the web-platform-tests exercise.
//!
//! The getters and setters are the Standard's; where a setter refuses a value (and leaves
//! the URL unchanged), it returns `Err(())`.

use crate::{ParseError, Url};

/// The offsets of a URL's components (with the `expose_internals` feature).
#[cfg(feature = "expose_internals")]
#[derive(Copy, Clone)]
pub struct InternalComponents {
    /// Index of the `:` that ends the scheme.
    pub scheme_end: u32,
    /// End of the username.
    pub username_end: u32,
    /// Start of the host.
    pub host_start: u32,
    /// End of the host.
    pub host_end: u32,
    /// The port, if not the scheme's default.
    pub port: Option<u16>,
    /// Start of the path.
    pub path_start: u32,
    /// Index of the `?`, if there is a query.
    pub query_start: Option<u32>,
    /// Index of the `#`, if there is a fragment.
    pub fragment_start: Option<u32>,
}

/// The offsets of `url`'s components (with the `expose_internals` feature).
#[cfg(feature = "expose_internals")]
pub fn internal_components(url: &Url) -> InternalComponents {
    let c = url.inner.components();
    InternalComponents {
        scheme_end: c.scheme_end(),
        username_end: c.username_end(),
        host_start: c.host_start(),
        host_end: c.host_end(),
        port: c.port(),
        path_start: c.path_start(),
        query_start: c.query_start(),
        fragment_start: c.fragment_start(),
    }
}

/// `domainToASCII`: the domain's ASCII form, or `""` when it is not a domain.
pub fn domain_to_ascii(domain: &str) -> String {
    match crate::Host::parse(domain) {
        Ok(crate::Host::Domain(domain)) => domain,
        _ => String::new(),
    }
}

/// `domainToUnicode`: the domain's Unicode form, or `""` when it is not a domain.
pub fn domain_to_unicode(domain: &str) -> String {
    match crate::Host::parse(domain) {
        Ok(crate::Host::Domain(domain)) => rapidurl::host::domain_to_unicode(&domain),
        _ => String::new(),
    }
}

/// `href`.
pub fn href(url: &Url) -> &str {
    url.as_str()
}

/// The `href` setter: `url` becomes the parse of `value`, or stays as it is.
pub fn set_href(url: &mut Url, value: &str) -> Result<(), ParseError> {
    *url = Url::parse(value)?;
    Ok(())
}

/// `origin`: the ASCII serialization of the origin.
pub fn origin(url: &Url) -> String {
    url.origin().ascii_serialization()
}

/// `protocol`: the scheme and `:`.
#[inline]
pub fn protocol(url: &Url) -> &str {
    url.inner.protocol()
}

/// Runs a Standard setter; `Err(())` when it left the URL as it was and `accepted` says
/// the value was refused.
fn run(
    url: &mut Url,
    set: impl FnOnce(&mut rapidurl::Url),
    accepted: impl FnOnce(&Url) -> bool,
) -> Result<(), ()> {
    let before = url.inner.clone();
    set(&mut url.inner);
    if url.inner.as_str() != before.as_str() || accepted(url) {
        Ok(())
    } else {
        Err(())
    }
}

/// The `protocol` setter. `Err(())` when the scheme was not changed to the one given.
#[allow(clippy::result_unit_err)]
pub fn set_protocol(url: &mut Url, new_protocol: &str) -> Result<(), ()> {
    let wanted: String = new_protocol
        .split(':')
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect::<String>()
        .to_ascii_lowercase();
    run(
        url,
        |u| u.set_protocol(new_protocol),
        |u| u.scheme() == wanted,
    )
}

/// `username`.
#[inline]
pub fn username(url: &Url) -> &str {
    url.username()
}

/// The `username` setter. `Err(())` when the URL cannot have a username.
#[allow(clippy::result_unit_err)]
pub fn set_username(url: &mut Url, new_username: &str) -> Result<(), ()> {
    if !url.has_host() || url.scheme() == "file" {
        return Err(());
    }
    url.inner.set_username(new_username);
    Ok(())
}

/// `password`.
#[inline]
pub fn password(url: &Url) -> &str {
    url.inner.password()
}

/// The `password` setter. `Err(())` when the URL cannot have a password.
#[allow(clippy::result_unit_err)]
pub fn set_password(url: &mut Url, new_password: &str) -> Result<(), ()> {
    if !url.has_host() || url.scheme() == "file" {
        return Err(());
    }
    url.inner.set_password(new_password);
    Ok(())
}

/// `host`: the host and, after `:`, the port.
#[inline]
pub fn host(url: &Url) -> &str {
    url.inner.host()
}

/// Whether `value` (up to where the host state ends) parses as a host of `url`'s kind.
fn host_parses(url: &Url, value: &str) -> bool {
    let special = url.is_special();
    let end = value
        .find(|c: char| matches!(c, '/' | '?' | '#') || (special && c == '\\'))
        .unwrap_or(value.len());
    let value = &value[..end];
    let name = if value.starts_with('[') {
        &value[..value.find(']').map_or(value.len(), |i| i + 1)]
    } else {
        &value[..value.find(':').unwrap_or(value.len())]
    };
    let name: String = name
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    (url.scheme() == "file" && name.is_empty())
        || crate::host::parse_host(&name, !special)
            .is_ok_and(|h| h.to_string() == url.inner.hostname())
}

/// The `host` setter. `Err(())` when the URL has an opaque path or the value is not a
/// host for it.
#[allow(clippy::result_unit_err)]
pub fn set_host(url: &mut Url, new_host: &str) -> Result<(), ()> {
    if url.cannot_be_a_base() {
        return Err(());
    }
    run(url, |u| u.set_host(new_host), |u| host_parses(u, new_host))
}

/// `hostname`.
#[inline]
pub fn hostname(url: &Url) -> &str {
    url.inner.hostname()
}

/// The `hostname` setter. `Err(())` when the URL has an opaque path or the value is not
/// a host for it.
#[allow(clippy::result_unit_err)]
pub fn set_hostname(url: &mut Url, new_hostname: &str) -> Result<(), ()> {
    if url.cannot_be_a_base() {
        return Err(());
    }
    run(
        url,
        |u| u.set_hostname(new_hostname),
        |u| !new_hostname.contains(':') && host_parses(u, new_hostname),
    )
}

/// `port`: the port's digits, or `""`.
#[inline]
pub fn port(url: &Url) -> &str {
    url.inner.port()
}

/// The `port` setter. `Err(())` when the URL cannot have a port or the value does not
/// start with a port.
#[allow(clippy::result_unit_err)]
pub fn set_port(url: &mut Url, new_port: &str) -> Result<(), ()> {
    if !url.has_host() || url.scheme() == "file" {
        return Err(());
    }
    let digits: String = new_port
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .take_while(char::is_ascii_digit)
        .collect();
    let valid = new_port.is_empty()
        || (!digits.is_empty() && digits.parse::<u32>().is_ok_and(|p| p <= 65535));
    if !valid {
        return Err(());
    }
    url.inner.set_port(new_port);
    Ok(())
}

/// `pathname`.
#[inline]
pub fn pathname(url: &Url) -> &str {
    url.path()
}

/// The `pathname` setter.
pub fn set_pathname(url: &mut Url, new_pathname: &str) {
    url.inner.set_pathname(new_pathname);
}

/// `search`: `?` and the query, or `""` when it is null or empty.
pub fn search(url: &Url) -> &str {
    url.inner.search()
}

/// The `search` setter.
pub fn set_search(url: &mut Url, new_search: &str) {
    url.inner.set_search(new_search);
}

/// `hash`: `#` and the fragment, or `""` when it is null or empty.
pub fn hash(url: &Url) -> &str {
    url.inner.hash()
}

/// The `hash` setter.
pub fn set_hash(url: &mut Url, new_hash: &str) {
    url.inner.set_hash(new_hash);
}
