//! Canonicalization of component values (URL Pattern Standard, "Canonicalization"), run
//! through this crate's own URL parser: its setters and its state-override states.

use super::error::{PatternError, PatternErrorKind};
use crate::components::SchemeKind;
use crate::syntax::remove_tab_and_newline;
use crate::{Url, host, percent};

fn invalid(value: &str) -> PatternError {
    PatternError::new(PatternErrorKind::InvalidComponent(value.to_owned()))
}

fn dummy_url() -> Url {
    Url::parse("https://dummy.invalid/").expect("the dummy URL parses")
}

/// Canonicalize a protocol: the scheme of `value` + `://dummy.invalid/`.
pub(crate) fn protocol(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let url = Url::parse(&format!("{value}://dummy.invalid/")).map_err(|_| invalid(value))?;
    Ok(url.scheme().to_owned())
}

/// Canonicalize a username: the `username` setter on the dummy URL.
pub(crate) fn username(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut url = dummy_url();
    url.set_username(value);
    Ok(url.username().to_owned())
}

/// Canonicalize a password: the `password` setter on the dummy URL.
pub(crate) fn password(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut url = dummy_url();
    url.set_password(value);
    Ok(url.password().to_owned())
}

/// Canonicalize a hostname: the hostname state with a state override on the dummy URL
/// (a special URL), failure included.
pub(crate) fn hostname(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let cleaned = remove_tab_and_newline(value);
    let b = cleaned.as_bytes();
    let mut inside_brackets = false;
    let mut end = b.len();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b':' if !inside_brackets => return Err(invalid(value)),
            b'/' | b'?' | b'#' | b'\\' => {
                end = i;
                break;
            }
            b'[' => inside_brackets = true,
            b']' => inside_brackets = false,
            _ => {}
        }
    }
    if end == 0 {
        return Err(invalid(value));
    }
    let mut out = String::new();
    host::parse_host_into(&cleaned[..end], false, &mut out).map_err(|_| invalid(value))?;
    Ok(out)
}

/// Canonicalize an IPv6 hostname: hex digits, `[`, `]` and `:` only, lower-cased.
pub(crate) fn ipv6_hostname(value: &str) -> Result<String, PatternError> {
    if let Some(bad) = value
        .chars()
        .find(|c| !(c.is_ascii_hexdigit() || matches!(c, '[' | ']' | ':')))
    {
        return Err(PatternError::new(PatternErrorKind::InvalidComponent(
            format!("{value} (`{bad}` in an IPv6 address)"),
        )));
    }
    Ok(value.to_ascii_lowercase())
}

/// Canonicalize a port: the port state with a state override, on a URL whose scheme is
/// `protocol` (when given: its default port becomes the empty string).
pub(crate) fn port(value: &str, protocol: Option<&str>) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let cleaned = remove_tab_and_newline(value);
    let digits = cleaned.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(invalid(value));
    }
    let mut n: u32 = 0;
    for &d in &cleaned.as_bytes()[..digits] {
        n = n * 10 + u32::from(d - b'0');
        if n > u32::from(u16::MAX) {
            return Err(invalid(value));
        }
    }
    let default = protocol.and_then(|p| SchemeKind::from_scheme(p).default_port());
    if default == Some(n as u16) {
        return Ok(String::new());
    }
    Ok(n.to_string())
}

/// Canonicalize a pathname (of a URL with a special scheme): the path start state with a
/// state override; a value not starting with `/` keeps its relative form.
pub(crate) fn pathname(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let leading_slash = value.starts_with('/');
    let modified = if leading_slash {
        value.to_owned()
    } else {
        format!("/-{value}")
    };
    let mut url = dummy_url();
    url.set_pathname(&modified);
    let path = url.pathname();
    Ok(if leading_slash {
        path.to_owned()
    } else {
        path.get(2..).unwrap_or("").to_owned()
    })
}

/// Canonicalize an opaque pathname: the opaque path state (C0 control percent-encoding,
/// up to a `?` or `#`).
pub(crate) fn opaque_pathname(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let cleaned = remove_tab_and_newline(value);
    let end = cleaned.find(['?', '#']).unwrap_or(cleaned.len());
    let text = &cleaned[..end];
    let mut out = String::new();
    if end < cleaned.len() && text.ends_with(' ') {
        percent::encode_into(&text[..text.len() - 1], &percent::C0_CONTROL, &mut out);
        out.push_str("%20");
    } else {
        percent::encode_into(text, &percent::C0_CONTROL, &mut out);
    }
    Ok(out)
}

/// Canonicalize a search: the query state with a state override, through the `search`
/// setter of the dummy URL (a `?` is put before the value for the setter to take off).
pub(crate) fn search(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut url = dummy_url();
    url.set_search(&format!("?{value}"));
    Ok(url.search().get(1..).unwrap_or("").to_owned())
}

/// Canonicalize a hash: the fragment state with a state override, through the `hash`
/// setter of the dummy URL.
pub(crate) fn hash(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut url = dummy_url();
    url.set_hash(&format!("#{value}"));
    Ok(url.hash().get(1..).unwrap_or("").to_owned())
}
