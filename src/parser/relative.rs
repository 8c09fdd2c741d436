//! Relative references against a special base, resolved without the state machine.
//!
//! Most links on a page are relative references of plain characters (`../img/a.png`,
//! `/search?q=x`, `#top`) against a base with a host (not `file:`: its drive letters have
//! rules of their own). For
//! those, the result is the base's scheme and authority (already serialized, so copied as
//! they are), then the base's path merged with the reference's (dot segments removed,
//! URL Standard §4.4's relative and path states), then the reference's query and fragment,
//! which need no percent-encoding. [`resolve`] writes that directly and returns its
//! components. A scheme-relative reference (`//host/path`) is the base's scheme and the
//! reference, when the fast path proves that canonical. Anything else (a scheme, a byte
//! the states would encode or treat specially, a `file:` or non-special base) is left to
//! the state machine, which gives the
//! same result for every input this path takes (tested in this module and by
//! tests/fast_path.rs).

use super::state::{is_double_dot, is_single_dot};
use crate::components::{Components, HostKind, SchemeKind, UrlParts};
use crate::output::Output;

/// Bytes a reference's path may hold to be resolved here: printable ASCII that the path
/// percent-encode set does not hold, but `\` (a special URL's path separator) and the
/// path's ends, `?` and `#`.
const PATH: [bool; 256] = table(b"\"<>`{}^'\\?#");

/// Bytes its query and fragment may hold: printable ASCII that the special-query and
/// fragment percent-encode sets do not hold.
const REST: [bool; 256] = table(b"\"<>`{}^'\\");

/// Printable ASCII but `excluded`.
const fn table(excluded: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0x21;
    while b < 0x7f {
        t[b] = true;
        b += 1;
    }
    let mut k = 0;
    while k < excluded.len() {
        t[excluded[k] as usize] = false;
        k += 1;
    }
    t
}

/// Appends `input` resolved against `base` to `out` and returns its components (offsets
/// from where it starts in `out`), or `None`, writing nothing, when the reference is not
/// one this path resolves. `utf8` says whether the query encoding is UTF-8 (a query is
/// taken only then).
#[inline]
pub(crate) fn resolve<O: Output + ?Sized>(
    input: &str,
    base: UrlParts<'_>,
    utf8: bool,
    out: &mut O,
) -> Option<Components> {
    let bc = base.c;
    // A `file:` base has drive-letter rules of its own; a non-special one without a host
    // may need the `/.` that keeps a path from reading as an authority.
    let special = bc.scheme_kind.is_special();
    if bc.scheme_kind == SchemeKind::File
        || bc.opaque_path
        || (!special && bc.host_kind == HostKind::None)
    {
        return None;
    }
    // The basic URL parser's first step: leading and trailing C0 controls and spaces go.
    let input = input.trim_matches(|c: char| c <= ' ');
    let b = input.as_bytes();
    if b.len() > u32::MAX as usize / 2 || base.s.len() > u32::MAX as usize / 2 {
        return None;
    }
    // The path: plain bytes up to the first `?` or `#`, and no `:` before its first `/`
    // (that `:` may end a scheme).
    let mut path_end = 0;
    while path_end < b.len() && PATH[b[path_end] as usize] {
        path_end += 1;
    }
    if path_end < b.len() && !matches!(b[path_end], b'?' | b'#') {
        return None;
    }
    if !b[path_end..].iter().all(|&c| REST[c as usize]) {
        return None;
    }
    let path_bytes = &b[..path_end];
    if let Some(colon) = path_bytes.iter().position(|&c| c == b':')
        && !path_bytes[..colon].contains(&b'/')
    {
        return None;
    }
    // Whether a segment may be a dot segment (`.`, `..`, `%2e`, …).
    let dots = path_bytes.first().is_some_and(|&c| c == b'.' || c == b'%')
        || path_bytes
            .windows(2)
            .any(|w| w[0] == b'/' && (w[1] == b'.' || w[1] == b'%'));
    if b.starts_with(b"//") {
        return if special {
            scheme_relative(input, base, out)
        } else {
            None
        };
    }
    let rest = &input[path_end..];
    if rest.as_bytes().first() == Some(&b'?') && !utf8 {
        return None;
    }
    let s = base.s;
    let start = out.len();
    let mut c = *bc;
    c.query_start = None;
    c.fragment_start = None;
    let base_path_end = bc.path_end(s);
    if path_end == 0 {
        // No path: the base's path, then the base's query unless the reference has one.
        let keep = if rest.starts_with('?') {
            base_path_end
        } else {
            bc.fragment_start.map_or(s.len(), |f| f as usize)
        };
        out.reserve(keep + rest.len());
        out.push_str(&s[..keep]);
        c.query_start = bc.query_start.filter(|&q| (q as usize) < keep);
    } else {
        let path_start = bc.path_start as usize;
        let path = &input[..path_end];
        out.reserve(base_path_end + input.len());
        // The relative state: the base's path less its last segment (a path-absolute
        // reference starts from the empty path instead).
        let (dir_end, segments) = match path.strip_prefix('/') {
            Some(absolute) => (path_start, absolute),
            None => {
                let dir = s.as_bytes()[path_start..base_path_end]
                    .iter()
                    .rposition(|&c| c == b'/')
                    .unwrap_or(0);
                (path_start + dir, path)
            }
        };
        out.push_str(&s[..dir_end]);
        if !dots {
            // No dot segment: each segment is appended as it is.
            out.push('/');
            out.push_str(segments);
        } else {
            push_segments(segments, start + path_start, out);
        }
    }
    let at = out.len() - start;
    match rest.as_bytes().first() {
        Some(b'?') => {
            c.query_start = Some(at as u32);
            if let Some(f) = rest.bytes().position(|c| c == b'#') {
                c.fragment_start = Some((at + f) as u32);
            }
        }
        Some(_) => c.fragment_start = Some(at as u32),
        None => {}
    }
    out.push_str(rest);
    super::debug_check(&c, &out.as_str()[start..]);
    Some(c)
}

/// The path state on `segments` (`/`-separated, from the end of what `out` holds of the
/// path, which starts at `path_from`): a double-dot segment removes the last segment, a
/// single-dot one is dropped, either at the end leaves an empty last segment.
fn push_segments<O: Output + ?Sized>(segments: &str, path_from: usize, out: &mut O) {
    let mut from = 0;
    loop {
        let to = segments.as_bytes()[from..]
            .iter()
            .position(|&c| c == b'/')
            .map_or(segments.len(), |k| from + k);
        let seg = &segments[from..to];
        let last = to == segments.len();
        if is_double_dot(seg.as_bytes()) {
            let cut = out.as_str().as_bytes()[path_from..]
                .iter()
                .rposition(|&c| c == b'/')
                .unwrap_or(0);
            out.truncate(path_from + cut);
            if last {
                out.push('/');
            }
        } else if is_single_dot(seg.as_bytes()) {
            if last {
                out.push('/');
            }
        } else {
            out.push('/');
            out.push_str(seg);
        }
        if last {
            return;
        }
        from = to + 1;
    }
}

/// A scheme-relative reference (`//host/path`) against a special base: the base's scheme,
/// `:` and the reference, when the fast path proves that string canonical (the
/// authority states read the same from there as from the relative slash state).
fn scheme_relative<O: Output + ?Sized>(
    input: &str,
    base: UrlParts<'_>,
    out: &mut O,
) -> Option<Components> {
    let start = out.len();
    let scheme = &base.s[..base.c.scheme_end as usize + 1];
    out.reserve(scheme.len() + input.len());
    out.push_str(scheme);
    out.push_str(input);
    match super::fast::parse_canonical_cold(&out.as_str()[start..]) {
        Some(canonical) if canonical.is_input() => Some(canonical.components),
        _ => {
            out.truncate(start);
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding_override::UTF_8;

    /// A serialization and its components.
    type Parsed = (String, Components);

    /// `base` parsed by the state machine.
    fn parsed(base: &str) -> Parsed {
        let mut s = String::new();
        let c = super::super::parse_slow(base, None, UTF_8, &mut s).unwrap();
        (s, c)
    }

    /// The fast path's answer (if it takes `input`) and the state machine's.
    fn both(input: &str, base: &str) -> (Option<Parsed>, Result<Parsed, String>) {
        let b = parsed(base);
        let parts = UrlParts { s: &b.0, c: &b.1 };
        let mut fast = String::from("prefix:");
        let quick = resolve(input, parts, true, &mut fast).map(|c| (fast[7..].to_owned(), c));
        let mut slow = String::new();
        let state = super::super::parse_slow(input, Some(parts), UTF_8, &mut slow)
            .map(|c| (slow, c))
            .map_err(|e| e.to_string());
        (quick, state)
    }

    const BASES: &[&str] = &[
        "https://example.com/a/b/c?q=1#f",
        "https://example.com/",
        "https://example.com",
        "http://u:p@example.com:8080/dir/",
        "ws://h/a",
        "ftp://[::1]:21/x/y/",
        "https://example.com/a/b/c/d/e/f?x",
        "https://example.com//double//slash",
        "sc://h",
        "git://host:9418/repo.git/",
        "foo://u@h/a/b?q#f",
    ];

    const REFERENCES: &[&str] = &[
        "",
        "#",
        "#top",
        "?",
        "?q",
        "?q#f",
        "x",
        "x/y",
        "./x",
        "../x",
        "../../x",
        "../../../../../../x",
        ".",
        "..",
        "./",
        "../",
        "/",
        "/x",
        "/x/../y",
        "/./x",
        "/..",
        "x/..",
        "x/.",
        "x/./y",
        "%2e/x",
        "%2E%2e/x",
        ".%2e/",
        "x/%2e%2e",
        "a//b",
        "a/",
        "//",
        "//h/x",
        "x?y#z",
        "x#y?z",
        "x:y",
        "a/b:c",
        "x y",
        "x\\y",
        "x^y",
        "x'y",
        "x?'y",
        "x#`",
        "http:x",
        "HTTP://h/",
        "mailto:x",
        "...",
        "..a/x",
        "a/%2e",
        "%",
        "%zz/x",
        "x?a=1&b=2#f#g",
        "|",
        "[::1]",
        "@",
        "x@y:z",
        ";a=b",
        "-._~!$&()*+,=",
    ];

    #[test]
    fn the_fast_path_gives_the_state_machines_results() {
        let mut taken = 0;
        for base in BASES {
            for input in REFERENCES {
                let (quick, state) = both(input, base);
                if let Some(q) = quick {
                    taken += 1;
                    assert_eq!(Ok(q), state, "{input:?} against {base:?}");
                }
            }
        }
        assert!(taken > 300, "the fast path took {taken} references");
    }

    #[test]
    fn what_it_leaves_to_the_state_machine() {
        let base = "https://example.com/a/b";
        for input in ["x:y", "//H/x", "x y", "x\\y", "x^y", "x\u{e9}", "x\ty"] {
            assert!(both(input, base).0.is_none(), "{input:?}");
        }
        assert!(both("//h/x", "sc://h/a/b").0.is_none());
        for base in ["file:///a/b", "sc:/a/b", "mailto:a@b"] {
            assert!(both("x", base).0.is_none(), "{base:?}");
        }
        // A query in another encoding than UTF-8 is the state machine's.
        let b = parsed(base);
        let parts = UrlParts { s: &b.0, c: &b.1 };
        assert!(resolve("?q", parts, false, &mut String::new()).is_none());
        assert!(resolve("x", parts, false, &mut String::new()).is_some());
    }
}
