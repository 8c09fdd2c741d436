//! URL writing (URL Standard §4.3): which strings are *valid* URL strings.
//!
//! The parser accepts far more than it calls valid; these functions answer the stricter
//! question a linter or a form validator asks. They follow the grammar of §4.3 as the
//! Standard's reference implementation reads it (the npm package `whatwg-url` 17.3,
//! which follows a newer edition than the text we carry; docs/architecture.md lists where
//! they differ): a valid domain also must not end in a number, and a valid IPv6 piece has
//! no leading zero.

use crate::components::{Base, SchemeKind};
use crate::host::valid::bracketed_ipv6;
use crate::host::{is_forbidden_host_byte, is_valid_host_string};
use crate::validation::{is_url_code_point, percent_encoded_byte_at};

/// A valid URL string without a base (§4.3): a valid absolute-URL-with-fragment string.
/// [`is_valid_url_string_with_base`] also takes relative-URL-with-fragment strings (only
/// `#fragment` when the base has an opaque path).
///
/// ```
/// use rapidurl::{Url, is_valid_url_string, is_valid_url_string_with_base};
/// use rapidurl::host::is_valid_host_string;
/// use rapidurl::is_valid_url_port_string;
///
/// assert!(is_valid_url_string("https://example.com/a?b#c"));
/// assert!(!is_valid_url_string("https://example.com/a b")); // a space is no URL unit
/// assert!(!is_valid_url_string("https:example.com")); // special: `//` is required
/// assert!(!is_valid_url_string("../x?y")); // relative: only with a base
/// let base = Url::parse("https://example.com/dir/").unwrap();
/// assert!(is_valid_url_string_with_base("../x?y", &base));
/// assert!(is_valid_host_string("[::1]") && !is_valid_host_string("127.1"));
/// assert!(is_valid_url_port_string("8080") && !is_valid_url_port_string("65536"));
/// ```
pub fn is_valid_url_string(input: &str) -> bool {
    absolute_with_fragment(input)
}

/// [`is_valid_url_string`] with a base URL: an absolute-URL-with-fragment string, or a
/// relative-URL-with-fragment string relative to `base` (§4.3).
pub fn is_valid_url_string_with_base<'b>(input: &str, base: impl Into<Base<'b>>) -> bool {
    absolute_with_fragment(input) || relative_with_fragment(input, base.into())
}

/// A valid URL-port string (§4.3): the empty string, or ASCII digits whose value is at
/// most 65535.
pub fn is_valid_url_port_string(input: &str) -> bool {
    input.is_empty() || (input.bytes().all(|b| b.is_ascii_digit()) && fits_u16(input))
}

fn fits_u16(digits: &str) -> bool {
    let significant = digits.trim_start_matches('0');
    significant.len() <= 5 && significant.parse::<u32>().map_or(true, |n| n <= 65535)
}

/// A valid opaque-host string (§3.4): URL units other than forbidden host code points
/// (at least one), or a bracketed valid IPv6-address string.
fn is_valid_opaque_host_string(input: &str) -> bool {
    bracketed_ipv6(input)
        || (!input.is_empty()
            && url_units(input, |c| c.is_ascii() && is_forbidden_host_byte(c as u8)))
}

/// Whether `input` is URL units (§4.3): URL code points and percent-encoded bytes, none
/// of them a code point that `excluded` rejects.
pub(crate) fn url_units(input: &str, excluded: impl Fn(char) -> bool) -> bool {
    let bytes = input.as_bytes();
    let mut chars = input.char_indices();
    while let Some((i, c)) = chars.next() {
        if c == '%' {
            if !percent_encoded_byte_at(bytes, i) {
                return false;
            }
            chars.next();
            chars.next();
        } else if !is_url_code_point(c) || excluded(c) {
            return false;
        }
    }
    true
}

/// Splits at the first `delimiter`: what comes before it, and what after (if it is there).
fn split_first(input: &str, delimiter: char) -> (&str, Option<&str>) {
    match input.split_once(delimiter) {
        Some((before, after)) => (before, Some(after)),
        None => (input, None),
    }
}

fn absolute_with_fragment(input: &str) -> bool {
    let (url, fragment) = split_first(input, '#');
    fragment.is_none_or(|f| url_units(f, |_| false)) && absolute(url)
}

/// A valid absolute-URL string: a scheme, `:`, a scheme-relative (special or file) URL
/// string or, for other schemes, one of the three non-special forms; then a query.
fn absolute(input: &str) -> bool {
    let (url, query) = split_first(input, '?');
    if query.is_some_and(|q| !url_units(q, |_| false)) {
        return false;
    }
    let Some(scheme_len) = crate::syntax::scheme_len(url.as_bytes()) else {
        return false;
    };
    let rest = &url[scheme_len + 1..];
    match SchemeKind::from_scheme(&url[..scheme_len].to_ascii_lowercase()) {
        SchemeKind::File => scheme_relative_file(rest),
        SchemeKind::NotSpecial => {
            scheme_relative(rest) || path_absolute_non_authority(rest) || opaque_path(rest)
        }
        _ => scheme_relative_special(rest),
    }
}

fn relative_with_fragment(input: &str, base: Base<'_>) -> bool {
    if base.components().has_opaque_path() {
        return input
            .strip_prefix('#')
            .is_some_and(|f| url_units(f, |_| false));
    }
    let (url, fragment) = split_first(input, '#');
    relative(url, base) && fragment.is_none_or(|f| url_units(f, |_| false))
}

/// A valid relative-URL string: a path-absolute (not `//`) or scheme-less path-relative
/// URL string, or a scheme-relative one of the base's kind; then a query.
fn relative(input: &str, base: Base<'_>) -> bool {
    let (url, query) = split_first(input, '?');
    if query.is_some_and(|q| !url_units(q, |_| false)) {
        return false;
    }
    if path_absolute_non_authority(url) || path_relative_scheme_less(url) {
        return true;
    }
    match base.components().scheme_kind() {
        SchemeKind::File => scheme_relative_file(url),
        SchemeKind::NotSpecial => scheme_relative(url),
        _ => scheme_relative_special(url),
    }
}

/// Splits an authority from the path that follows it (at the first `/`).
fn split_path(input: &str) -> (&str, Option<&str>) {
    match input.find('/') {
        Some(i) => (&input[..i], Some(&input[i..])),
        None => (input, None),
    }
}

/// `//`, a valid host-and-port string, and optionally a path-absolute URL string.
fn scheme_relative_special(input: &str) -> bool {
    let Some(rest) = input.strip_prefix("//") else {
        return false;
    };
    let (authority, path) = split_path(rest);
    host_and_port(authority, is_valid_host_string) && path.is_none_or(path_absolute)
}

/// `//`, then optionally an opaque host and port, and optionally a path-absolute string.
fn scheme_relative(input: &str) -> bool {
    let Some(rest) = input.strip_prefix("//") else {
        return false;
    };
    let (authority, path) = split_path(rest);
    (authority.is_empty() || host_and_port(authority, is_valid_opaque_host_string))
        && path.is_none_or(path_absolute)
}

/// `file:` then `//` and either nothing, a valid host and optional path-absolute URL
/// string, or a path-absolute URL string.
fn scheme_relative_file(input: &str) -> bool {
    let Some(rest) = input.strip_prefix("//") else {
        return false;
    };
    if rest.is_empty() || path_absolute(rest) {
        return true;
    }
    let (host, path) = split_path(rest);
    is_valid_host_string(host) && path.is_none_or(path_absolute)
}

/// A host that `valid_host` accepts, then optionally `:` and a valid URL-port string.
fn host_and_port(input: &str, valid_host: fn(&str) -> bool) -> bool {
    let (host, port) = if input.starts_with('[') {
        let Some(close) = input.find(']') else {
            return false;
        };
        match &input[close + 1..] {
            "" => (&input[..=close], None),
            rest => match rest.strip_prefix(':') {
                Some(port) => (&input[..=close], Some(port)),
                None => return false,
            },
        }
    } else {
        split_first(input, ':')
    };
    !host.is_empty() && valid_host(host) && port.is_none_or(is_valid_url_port_string)
}

/// `/` followed by a path-relative URL string.
fn path_absolute(input: &str) -> bool {
    input
        .strip_prefix('/')
        .is_some_and(|rest| rest.split('/').all(path_segment))
}

/// A path-absolute URL string that does not start with `//`.
fn path_absolute_non_authority(input: &str) -> bool {
    path_absolute(input) && !input.starts_with("//")
}

/// Path segments separated by `/`, not starting with `/`, and not starting with what
/// would read as a scheme (letters, digits, `+-.` then `:`).
fn path_relative_scheme_less(input: &str) -> bool {
    !input.starts_with('/')
        && input.split('/').all(path_segment)
        && crate::syntax::scheme_len(input.as_bytes()).is_none()
}

/// A valid URL-path-segment string: URL units other than `/` and `?`.
fn path_segment(input: &str) -> bool {
    url_units(input, |c| c == '/' || c == '?')
}

/// A valid opaque-path string: not starting with `/`, URL units other than `?`.
fn opaque_path(input: &str) -> bool {
    !input.starts_with('/') && url_units(input, |c| c == '?')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Url;

    fn valid(input: &str) -> bool {
        is_valid_url_string(input)
    }

    #[test]
    fn absolute_url_strings() {
        for ok in [
            "https://example.org/",
            "https://example.org:8080/a/b?c=d#e",
            "https://127.0.0.1/",
            "https://[2001:db8::1]:443/",
            "file:///C:/path",
            "file://host/share",
            "file://",
            "mailto:someone@example.org",
            "sc://opaque.host:1/path",
            "sc:/path/only",
            "urn:isbn:0451450523",
            "https://example.org/%C3%A4",
        ] {
            assert!(valid(ok), "{ok} should be valid");
        }
        for bad in [
            "https://example.org/>", // §1.1's invalid-URL-unit examples
            "https://example.org ",
            "https://example.org/%s",
            "https:example.org", // special-scheme-missing-following-solidus
            "file:c:/my-secret-folder",
            "https://user@example.org",  // invalid-credentials
            "https://example.org:70000", // port-out-of-range
            "https://example.org:7z",    // port-invalid
            "https://0x7f.1/",           // not a valid IPv4-address string
            "https://01.2.3.4/",
            "https://[::1:]/",
            "https://[0001::1]/", // a leading zero in a piece
            "https://a..b/",
            "https://-a.example/",  // CheckHyphens
            "https://a_b.example/", // UseSTD3ASCIIRules
            "https://example.42/",  // ends in a number
            "sc://a b/",
            "sc:/a?b#c d",
            "",
            "no-colon",
        ] {
            assert!(!valid(bad), "{bad:?} should not be valid");
        }
    }

    #[test]
    fn relative_url_strings_need_a_base() {
        let base = Url::parse("https://example.org/dir/page").unwrap();
        for ok in [
            "",
            "x",
            "../x?y#z",
            "/abs/path",
            "//other.example/p",
            "?q",
            "#f",
        ] {
            assert!(!valid(ok), "{ok:?} alone");
            assert!(
                is_valid_url_string_with_base(ok, &base),
                "{ok:?} against a base"
            );
        }
        // A first segment with a colon reads as a scheme, and `a:b c` is no valid URL.
        assert!(!is_valid_url_string_with_base("a:b c", &base));
        assert!(is_valid_url_string_with_base("./a:b", &base));
        assert!(!is_valid_url_string_with_base("//", &base));
        let opaque = Url::parse("mailto:x@y").unwrap();
        assert!(is_valid_url_string_with_base("#frag", &opaque));
        assert!(!is_valid_url_string_with_base("x", &opaque));
        let file = Url::parse("file:///C:/").unwrap();
        assert!(is_valid_url_string_with_base("///C:/x", &file));
    }

    #[test]
    fn ports() {
        assert!(is_valid_url_port_string(""));
        assert!(is_valid_url_port_string("065535"));
        assert!(!is_valid_url_port_string("99999999999999999999"));
    }
}
