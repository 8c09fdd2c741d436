//! Parsing with options (a base, an encoding override, a syntax-violation callback) on
//! rapidurl's `Url`, and the syntax violations mapped from its validation errors (the URL
//! Standard's names).

use crate::error::{map_error, ParseError, SyntaxViolation};
use form_urlencoded::EncodingOverride;
use rapidurl::{ErrorKind, Url, ValidationError, ValidationErrorKind};
use std::ops::Range;

/// The error of a failed parse of `input`: which host kind failed is read from the
/// input's scheme (or the base's, for a relative input).
pub(crate) fn parse_error(e: &rapidurl::ParseError, input: &str, base: Option<&Url>) -> ParseError {
    let special = match scheme_of(input) {
        Some(scheme) => scheme.special,
        None => base.is_some_and(|b| b.is_special()),
    };
    map_error(e, !special, base.is_some_and(Url::has_opaque_path))
}

/// What [`scheme_of`] tells of an input's scheme.
#[derive(Clone, Copy)]
struct Scheme {
    special: bool,
    file: bool,
}

/// Whether `input` starts with a scheme and `:` (read as the scheme state reads it, after
/// leading C0 controls and spaces, skipping tabs and newlines), and what kind.
fn scheme_of(input: &str) -> Option<Scheme> {
    let mut name = [0u8; 5];
    let (mut n, mut long) = (0, false);
    for &b in input.trim_start_matches(|c: char| c <= ' ').as_bytes() {
        match b {
            b'\t' | b'\n' | b'\r' => {}
            b':' if n > 0 => {
                let name = &name[..n];
                return Some(Scheme {
                    special: !long
                        && matches!(name, b"http" | b"https" | b"ws" | b"wss" | b"ftp" | b"file"),
                    file: !long && name == b"file",
                });
            }
            _ if (n == 0 && b.is_ascii_alphabetic())
                || (n > 0 && (b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))) =>
            {
                if n < name.len() {
                    name[n] = b.to_ascii_lowercase();
                    n += 1;
                } else {
                    long = true;
                }
            }
            _ => return None,
        }
    }
    None
}

/// Parses `input` with the options of a [`crate::ParseOptions`].
pub(crate) fn parse_with(
    input: &str,
    base: Option<&Url>,
    encoding: EncodingOverride<'_>,
    violations: Option<&dyn Fn(SyntaxViolation)>,
) -> Result<Url, ParseError> {
    let result = match violations {
        None => match base {
            None => rapidurl::Url::parse(input),
            Some(b) => rapidurl::Url::parse_with_base(input, b),
        },
        Some(report) => {
            let (result, errors) = match base {
                None => rapidurl::parse_with_validation_errors(input),
                Some(b) => rapidurl::parse_with_validation_errors_with_base(input, b),
            };
            let special = scheme_of(input).map_or(base.is_some_and(Url::is_special), |s| s.special);
            let no_scheme = result
                .as_ref()
                .is_err_and(|e| e.kind() == ErrorKind::MissingSchemeNonRelativeUrl);
            let drive = result.as_ref().is_ok_and(drive_letter_after_host);
            report_violations(input, &errors, special, no_scheme, drive, report);
            result
        }
    };
    let url = match result {
        Ok(url) => url,
        Err(e) => return Err(parse_error(&e, input, base)),
    };
    match encoding {
        Some(encode) => Ok(encode_query(url, input, encode)),
        None => Ok(url),
    }
}

/// The query of a special URL (but `ws:` and `wss:`) encoded with `encode` instead of
/// UTF-8, as the Standard's query state does with an encoding override: the query text
/// of the input, with tabs and newlines removed, converted to bytes and percent-encoded.
/// A query inherited from the base is left as it is.
fn encode_query(url: Url, input: &str, encode: &dyn Fn(&str) -> std::borrow::Cow<'_, [u8]>) -> Url {
    if !matches!(url.scheme(), "http" | "https" | "ftp" | "file") || url.query().is_none() {
        return url;
    }
    let cleaned: String = input
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let Some(q) = cleaned.find('?') else {
        return url;
    };
    let raw = &cleaned[q + 1..];
    let raw = &raw[..raw.find('#').unwrap_or(raw.len())];
    let bytes = encode(raw);
    let s = url.as_str();
    let start = url.components().query_start().unwrap_or(0) as usize + 1;
    let end = url
        .components()
        .fragment_start()
        .map_or(s.len(), |f| f as usize);
    let mut out = String::with_capacity(s.len() + bytes.len() * 3);
    out.push_str(&s[..start]);
    rapidurl::percent::encode_bytes_into(&bytes, &rapidurl::percent::SPECIAL_QUERY, &mut out);
    out.push_str(&s[end..]);
    Url::parse(&out).unwrap_or(url)
}

/// A `file:` URL with a host whose path starts with a Windows drive letter
/// (`file://host/c:/x`): the Standard keeps the host and reports nothing, the `url`
/// crate reports this violation.
fn drive_letter_after_host(url: &rapidurl::Url) -> bool {
    let path = url.pathname().as_bytes();
    url.scheme() == "file"
        && !url.hostname().is_empty()
        && path.len() >= 3
        && path[1].is_ascii_alphabetic()
        && matches!(path[2], b':' | b'|')
        && matches!(path.get(3), None | Some(b'/'))
}

/// Where the userinfo and the host of `input`'s authority are, as byte ranges of the
/// input, when it has an authority (read as the authority states read it).
fn authority_spans(input: &str, special: bool) -> Option<(Range<usize>, Range<usize>)> {
    let b = input.as_bytes();
    let is_tab = |c: u8| matches!(c, b'\t' | b'\n' | b'\r');
    let lead = b.iter().take_while(|&&c| c <= b' ').count();
    let trail = b.len() - b.iter().rev().take_while(|&&c| c <= b' ').count();
    let mut i = lead;
    // The scheme and its `:`.
    if b.get(i).is_some_and(u8::is_ascii_alphabetic) {
        let mut j = i + 1;
        while j < trail
            && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'+' | b'-' | b'.') || is_tab(b[j]))
        {
            j += 1;
        }
        if b.get(j) == Some(&b':') {
            i = j + 1;
        }
    }
    let slash = |c: u8| c == b'/' || (special && c == b'\\');
    // A special scheme but `file:` skips any number of slashes before its authority; a
    // `file:` URL and a non-special one have one after exactly two.
    let file = b[lead..i].eq_ignore_ascii_case(b"file:");
    let any_slashes = special && !file && i > lead;
    let mut slashes = 0;
    while i < trail && (slash(b[i]) || is_tab(b[i])) && (any_slashes || slashes < 2) {
        slashes += usize::from(!is_tab(b[i]));
        i += 1;
    }
    if slashes < 2 && !any_slashes {
        return None;
    }
    let end = (i..trail)
        .find(|&k| matches!(b[k], b'/' | b'?' | b'#') || (special && b[k] == b'\\'))
        .unwrap_or(trail);
    match b[i..end].iter().rposition(|&c| c == b'@') {
        Some(at) => Some((i..i + at, i + at + 1..end)),
        None => Some((i..i, i..end)),
    }
}

/// Whether `c` is a URL code point (URL Standard §4.2).
fn is_url_code_point(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || "!$&'()*+,-./:;=?@_~".contains(c);
    }
    let n = u32::from(c);
    !((0xFDD0..=0xFDEF).contains(&n) || n & 0xFFFE == 0xFFFE)
}

/// The violations the `url` crate reports for a userinfo's code points: a `%` without
/// two hexadecimal digits, and a code point that is not a URL code point.
fn userinfo_violations(userinfo: &str, report: &dyn Fn(SyntaxViolation)) {
    let chars: Vec<char> = userinfo
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    for (k, &c) in chars.iter().enumerate() {
        if c == '%' {
            let hex = |d: Option<&char>| d.is_some_and(char::is_ascii_hexdigit);
            if !(hex(chars.get(k + 1)) && hex(chars.get(k + 2))) {
                report(SyntaxViolation::PercentDecode);
            }
        } else if !is_url_code_point(c) {
            report(SyntaxViolation::NonUrlCodePoint);
        }
    }
}

/// Reports each validation error of a parse to `report` as the `url` crate's violation,
/// as that crate reports them: the userinfo's code points after its `@`s, none for a
/// host's code points, and only the input's own (trimmed, tabs) when the input has no
/// scheme to parse.
fn report_violations(
    input: &str,
    errors: &[ValidationError],
    special: bool,
    no_scheme: bool,
    drive_after_host: bool,
    report: &dyn Fn(SyntaxViolation),
) {
    let bytes = input.as_bytes();
    let lead = bytes.iter().take_while(|&&b| b <= b' ').count();
    let trail = bytes.len() - bytes.iter().rev().take_while(|&&b| b <= b' ').count();
    let hash = input.find('#');
    let (mut trimmed_seen, mut tab_seen, mut at_seen) = (false, false, false);
    let mut slashes_seen = false;
    let spans = authority_spans(input, special);
    let last_at = errors
        .iter()
        .rposition(|e| e.kind() == ValidationErrorKind::InvalidCredentials);
    // `FileWithHostAndWindowsDrive` comes where the path's first segment (the drive
    // letter) ends, as the `url` crate finds it.
    let mut drive_at = drive_after_host.then(|| {
        let after_host = spans.as_ref().map_or(lead, |(_, h)| h.end);
        (after_host + 1..trail)
            .find(|&k| matches!(bytes[k], b'/' | b'\\' | b'?' | b'#'))
            .unwrap_or(trail)
    });
    for (index, e) in errors.iter().enumerate() {
        let at = e.offset();
        if drive_at.is_some_and(|d| at >= d) {
            drive_at = None;
            report(SyntaxViolation::FileWithHostAndWindowsDrive);
        }
        let byte = bytes.get(at).copied();
        let in_authority = spans
            .as_ref()
            .is_some_and(|(u, h)| u.contains(&at) || h.contains(&at));
        let input_level = at < lead || at >= trail || matches!(byte, Some(b'\t' | b'\n' | b'\r'));
        if no_scheme && !(e.kind() == ValidationErrorKind::InvalidUrlUnit && input_level) {
            continue;
        }
        if e.kind() == ValidationErrorKind::InvalidUrlUnit && in_authority && !input_level {
            continue;
        }
        if Some(index) == last_at {
            report(if at_seen {
                SyntaxViolation::UnencodedAtSign
            } else {
                SyntaxViolation::EmbeddedCredentials
            });
            if let Some((userinfo, _)) = &spans {
                userinfo_violations(&input[userinfo.clone()], report);
            }
            continue;
        }
        let violation = match e.kind() {
            ValidationErrorKind::InvalidReverseSolidus => SyntaxViolation::Backslash,
            ValidationErrorKind::InvalidCredentials => {
                let v = if at_seen {
                    SyntaxViolation::UnencodedAtSign
                } else {
                    SyntaxViolation::EmbeddedCredentials
                };
                at_seen = true;
                v
            }
            ValidationErrorKind::SpecialSchemeMissingFollowingSolidus => {
                if slashes_seen {
                    continue;
                }
                slashes_seen = true;
                if scheme_of(input).is_some_and(|s| s.file) {
                    SyntaxViolation::ExpectedFileDoubleSlash
                } else {
                    SyntaxViolation::ExpectedDoubleSlash
                }
            }
            ValidationErrorKind::FileInvalidWindowsDriveLetterHost => {
                SyntaxViolation::FileWithHostAndWindowsDrive
            }
            ValidationErrorKind::InvalidUrlUnit => {
                if at < lead || at >= trail {
                    if trimmed_seen {
                        continue;
                    }
                    trimmed_seen = true;
                    SyntaxViolation::C0SpaceIgnored
                } else if matches!(byte, Some(b'\t' | b'\n' | b'\r')) {
                    if tab_seen {
                        continue;
                    }
                    tab_seen = true;
                    SyntaxViolation::TabOrNewlineIgnored
                } else if byte == Some(b'%') {
                    SyntaxViolation::PercentDecode
                } else if byte == Some(0) && hash.is_some_and(|h| h < at) {
                    SyntaxViolation::NullInFragment
                } else {
                    SyntaxViolation::NonUrlCodePoint
                }
            }
            _ => continue,
        };
        report(violation);
    }
    if drive_at.is_some() {
        report(SyntaxViolation::FileWithHostAndWindowsDrive);
    }
}
