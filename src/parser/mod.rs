//! The URL parser (URL Standard §4.4), behind one entry point.
//!
//! [`parse_into`] and its two halves ([`parse_canonical`], then [`write_into`]) are the
//! only place that decides between the fast path and the state machine, and the only one
//! that prepares the input as the basic URL parser's steps 1–3 say (strip leading and
//! trailing C0 control or space, remove ASCII tab or newline). They write the
//! serialization into the caller's buffer (an [`Output`]) — or, when the caller can use
//! it and the input is already the serialization, write nothing. The batch column and
//! the setters' `href` go through [`parse_into`], [`UrlRef`](crate::UrlRef) through the
//! two halves, [`Url`](crate::Url) through [`parse_owned`] (the two halves, into the
//! buffer a `Url` keeps); [`check`] is `can_parse`'s.
//!
//! * [`fast`] proves an input canonical and computes its components from the delimiter
//!   positions ([`crate::scan`]'s masks), without copying;
//! * [`state`] is the state machine, one method per state of the Standard, writing the
//!   normalized serialization straight into the buffer;
//! * [`proof`] proves an input valid without parsing it (`can_parse`);
//! * [`setters`] implements the URL API setters (§6.1) with the state methods run with a
//!   state override.

mod fast;
mod proof;
mod relative;
pub(crate) mod setters;
mod state;

use crate::components::{Components, UrlParts};
use crate::encoding_override::{QueryEncoding, UTF_8};
use crate::error::{ErrorKind, ParseError};
use crate::output::Output;
use crate::serialization::{self, Serialization};
use crate::syntax::{is_tab_or_newline, remove_tab_and_newline, trim_c0_or_space};
use crate::validation::{Collect, Report, Silent};
use std::borrow::Cow;

/// The fast path's answer ([`fast::parse_canonical`]) for `input`: callers that can
/// borrow the input ask [`borrowed`] first, then hand it to [`write_into`].
pub(crate) use fast::{Canonical, parse_canonical};
/// The hostname read off the input when the proof shows it is that (see [`view`]'s
/// `parse_hostname`).
///
/// [`view`]: crate::view
pub(crate) use proof::proven_hostname;

/// Parses `input` (against `base`, with the encoding override `encoding`) and appends its
/// serialization to the caller's buffer, returning its components (offsets from where it
/// starts in the buffer). `out` hands out the buffer, and is called at most once, only when
/// something is to be written. With `borrow_input`, a canonical input that is its own
/// serialization is not copied and `out` is not called. On failure the buffer is left as
/// it was.
#[inline]
pub(crate) fn parse_into<'o, O: Output + ?Sized + 'o>(
    input: &str,
    base: Option<UrlParts<'_>>,
    encoding: QueryEncoding,
    out: impl FnOnce() -> &'o mut O,
    borrow_input: bool,
) -> Result<Components, ParseError> {
    let canonical = fast::parse_canonical(input);
    if borrow_input && let Some(c) = borrowed(input, &canonical) {
        return Ok(c);
    }
    write_into(input, canonical, base, encoding, out())
}

/// Parses `input` into the serialization a [`Url`](crate::Url) keeps, when the fast path
/// has not found it to be the input itself (`canonical` is its answer; `Url::parse` copies
/// such an input straight into its result): a short input is written into a per-thread
/// scratch buffer and copied from there, so that a short URL allocates nothing; a long one
/// is written straight into its own `String`.
#[inline(never)]
pub(crate) fn parse_owned(
    input: &str,
    canonical: Option<Canonical>,
    base: Option<UrlParts<'_>>,
    encoding: QueryEncoding,
) -> Result<(Serialization, Components), ParseError> {
    if input.len() <= serialization::INLINE {
        return with_scratch(|scratch| {
            let c = write_into(input, canonical, base, encoding, scratch)?;
            Ok((Serialization::copy_of(scratch), c))
        });
    }
    let mut s = String::new();
    let c = write_into(input, canonical, base, encoding, &mut s)?;
    Ok((Serialization::Heap(s), c))
}

/// Runs `f` with this thread's scratch buffer, emptied (no allocation per call once it has
/// grown; a buffer grown past 64 KiB by a long URL is let go afterwards).
fn with_scratch<R>(f: impl FnOnce(&mut String) -> R) -> R {
    thread_local! {
        static SCRATCH: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    const KEEP: usize = 64 * 1024;
    SCRATCH.with(|cell| match cell.try_borrow_mut() {
        Ok(mut scratch) => {
            scratch.clear();
            let r = f(&mut scratch);
            if scratch.capacity() > KEEP {
                *scratch = String::new();
            }
            r
        }
        // Only when `f` itself reaches here (it does not); stay correct anyway.
        Err(_) => f(&mut String::new()),
    })
}

/// The components of `input` when `canonical` (its fast-path answer) shows that the input
/// is its own serialization: nothing to write.
#[inline(always)]
pub(crate) fn borrowed(input: &str, canonical: &Option<Canonical>) -> Option<Components> {
    let canonical = canonical.as_ref()?;
    if !canonical.is_input() {
        return None;
    }
    debug_check(&canonical.components, input);
    Some(canonical.components)
}

/// [`parse_into`] after the fast path: appends the serialization of `input` to `out`,
/// from `canonical` (the fast path's answer) when it has one, else from the state machine.
#[inline]
pub(crate) fn write_into<O: Output + ?Sized>(
    input: &str,
    canonical: Option<Canonical>,
    base: Option<UrlParts<'_>>,
    encoding: QueryEncoding,
    out: &mut O,
) -> Result<Components, ParseError> {
    // A canonical input means the same with or without a base (it has a scheme and, if
    // special, an authority) and in any encoding (it is ASCII).
    if let Some(canonical) = canonical {
        if let Some(rest) = canonical.rest() {
            return finish_rest(input, canonical, rest, encoding, out);
        }
        let c = canonical.components;
        let start = out.len();
        out.reserve(canonical.len(input));
        canonical.write(input, out);
        debug_check(&c, &out.as_str()[start..]);
        return Ok(c);
    }
    if let Some(base) = base
        && let Some(c) = relative::resolve(input, base, encoding == UTF_8, out)
    {
        return Ok(c);
    }
    let start = out.len();
    let parsed = parse_slow(input, base, encoding, out);
    settle(parsed, out, start)
}

/// What the state machine wrote into `out` from `start` on: its components checked
/// ([`debug_check`]), or on failure cut off, so that the buffer is left as it was.
#[inline(always)]
fn settle<O: Output + ?Sized>(
    parsed: Result<Components, ParseError>,
    out: &mut O,
    start: usize,
) -> Result<Components, ParseError> {
    match parsed {
        Ok(c) => {
            debug_check(&c, &out.as_str()[start..]);
            Ok(c)
        }
        Err(e) => {
            out.truncate(start);
            Err(e)
        }
    }
}

/// [`write_into`] for an input whose scheme and authority the fast path proved (up to
/// `rest`): writes them as proven, then runs the state machine from the path
/// start state on the rest, cleaned as the basic URL parser's steps 1–3 say (the proven
/// prefix starts with a letter and holds no C0 control, space, tab or newline, so cleaning
/// leaves it and its offsets as they are). Base and encoding: as in [`write_into`]'s
/// canonical case, a special scheme and `//` make the base irrelevant; the encoding still
/// applies to the query.
#[inline(never)]
fn finish_rest<O: Output + ?Sized>(
    input: &str,
    canonical: Canonical,
    rest: usize,
    encoding: QueryEncoding,
    out: &mut O,
) -> Result<Components, ParseError> {
    if input.len() > u32::MAX as usize {
        return Err(ParseError::new(ErrorKind::InputTooLong));
    }
    let start = out.len();
    let (_, end) = trim_c0_or_space(input.as_bytes());
    debug_assert!(rest <= end);
    // The prefix has no tab or newline: only the rest is searched.
    let cleaned = match remove_tab_and_newline(&input[rest..end]) {
        Cow::Borrowed(_) => Cow::Borrowed(&input[..end]),
        Cow::Owned(tail) => Cow::Owned(input[..rest].to_owned() + &tail),
    };
    out.reserve(cleaned.len() + 8);
    canonical.write_prefix(input, rest, out);
    let parsed =
        state::Parser::finish_from_path(&cleaned, out, start, canonical.components, encoding, rest);
    settle(parsed, out, start)
}

/// In debug builds, panics when `c` does not describe `s` ([`Components::check`]).
#[inline]
#[track_caller]
pub(crate) fn debug_check(c: &Components, s: &str) {
    if cfg!(debug_assertions)
        && let Err(rule) = c.check(s)
    {
        panic!("components of {s:?} break the rule {rule:?}: {c:?}");
    }
}

/// Whether `input` parses against `base` (`can_parse`): proven without parsing when
/// [`proof`] can, else by the state machine into a scratch string.
#[inline(always)]
pub(crate) fn check(input: &str, base: Option<UrlParts<'_>>) -> bool {
    // A scheme and a plain authority prove it, base or not: nothing is written.
    proof::proven_valid(input) || proven_trimmed(input) || check_slow(input, base)
}

/// Whether `input` with leading or trailing C0 control or space is proven to parse: the
/// parser strips them first (step 1), so the proof of what is left holds for `input`.
#[inline(never)]
fn proven_trimmed(input: &str) -> bool {
    let b = input.as_bytes();
    let edge = |c: Option<&u8>| c.is_some_and(|&c| c <= b' ');
    if !edge(b.first()) && !edge(b.last()) {
        return false;
    }
    let (lead, end) = trim_c0_or_space(b);
    proof::proven_valid(&input[lead..end])
}

/// The state machine's verdict: run validating ([`state::Parser::validating`]: it stops
/// where the path starts, as nothing after can fail), writing the scheme and the host into
/// the per-thread scratch buffer ([`with_scratch`]).
fn check_slow(input: &str, base: Option<UrlParts<'_>>) -> bool {
    with_scratch(|scratch| validate_slow(input, base, scratch))
}

/// Where a byte of the cleaned input was in the original input, for error offsets.
fn original_offset(original: &str, lead: usize, cleaned_pos: usize, removed_any: bool) -> usize {
    if !removed_any {
        return lead + cleaned_pos;
    }
    let mut kept = 0;
    for (i, b) in original.bytes().enumerate().skip(lead) {
        if is_tab_or_newline(b) {
            continue;
        }
        if kept == cleaned_pos {
            return i;
        }
        kept += 1;
    }
    original.len()
}

/// The state machine alone, without trying the fast path first: steps 1–3, then the
/// states, appending to `out` (which may hold a partial URL on failure).
fn parse_slow<O: Output + ?Sized>(
    input: &str,
    base: Option<UrlParts<'_>>,
    encoding: QueryEncoding,
    out: &mut O,
) -> Result<Components, ParseError> {
    parse_slow_reporting(input, base, encoding, out, Silent)
}

/// Whether [`parse_slow`] succeeds, found by a validating run of the state machine.
fn validate_slow(input: &str, base: Option<UrlParts<'_>>, out: &mut String) -> bool {
    run_slow(input, base, UTF_8, out, Silent, true).is_ok()
}

/// Parses as [`parse_into`] does, collecting validation errors into `errors`: always the
/// state machine (a canonical input can still have validation errors, e.g. credentials).
pub(crate) fn parse_reporting(
    input: &str,
    base: Option<UrlParts<'_>>,
    out: &mut String,
    errors: &mut Collect,
) -> Result<Components, ParseError> {
    let c = parse_slow_reporting(input, base, UTF_8, out, errors)?;
    debug_check(&c, out);
    Ok(c)
}

/// [`parse_slow`], telling validation errors to `r`.
fn parse_slow_reporting<O: Output + ?Sized, R: Report>(
    input: &str,
    base: Option<UrlParts<'_>>,
    encoding: QueryEncoding,
    out: &mut O,
    r: R,
) -> Result<Components, ParseError> {
    run_slow(input, base, encoding, out, r, false)
}

/// [`parse_slow_reporting`], or with `validate_only` a validating run (the verdict alone;
/// the components are then incomplete).
#[inline(always)]
fn run_slow<O: Output + ?Sized, R: Report>(
    input: &str,
    base: Option<UrlParts<'_>>,
    encoding: QueryEncoding,
    out: &mut O,
    mut r: R,
    validate_only: bool,
) -> Result<Components, ParseError> {
    if input.len() > u32::MAX as usize {
        return Err(ParseError::new(ErrorKind::InputTooLong));
    }
    // Steps 1.2-1.3: strip leading and trailing C0 control or space.
    let (lead, end) = trim_c0_or_space(input.as_bytes());
    let trimmed = &input[lead..end];
    // Steps 2-3: remove ASCII tab or newline.
    let cleaned = remove_tab_and_newline(trimmed);
    let removed_any = matches!(cleaned, Cow::Owned(_));
    out.reserve(cleaned.len() + 8);
    if R::ENABLED {
        r.cleaned(input, lead, input.len() - end);
    }
    let mut parser = state::Parser::new(&cleaned, base, out);
    if validate_only {
        parser = parser.validating();
    }
    parser
        .with_encoding(encoding)
        .with_reporter(r)
        .run()
        .map_err(|e| match e.offset() {
            Some(pos) => ParseError::at(e.kind(), original_offset(input, lead, pos, removed_any)),
            None => e,
        })
}

/// Entry points for this crate's own tests (the fast path forced on or off).
pub(crate) mod testing {
    use super::*;

    /// The fast path alone: `Some` only for input whose scheme and authority it proves
    /// canonical; the serialization is then its own (a whole canonical input) or the
    /// proven prefix finished by the state machine from the path start state.
    pub(crate) fn parse_fast(input: &str) -> Option<(String, Components)> {
        let canonical = fast::parse_canonical_cold(input)?;
        let mut out = String::new();
        if let Some(rest) = canonical.rest() {
            let c = finish_rest(input, canonical, rest, UTF_8, &mut out).ok()?;
            return Some((out, c));
        }
        canonical.write(input, &mut out);
        Some((out, canonical.components))
    }

    /// Whether the fast path proves all of `input` canonical (`Some(true)`), or only its
    /// scheme and authority (`Some(false)`), or neither (`None`).
    pub(crate) fn fast_outcome(input: &str) -> Option<bool> {
        fast::parse_canonical_cold(input).map(|c| c.rest().is_none())
    }

    /// The check `can_parse` runs first.
    pub(crate) fn proven_valid(input: &str) -> bool {
        proof::proven_valid(input)
    }

    /// The relative fast path alone: `Some` only for a reference it resolves.
    pub(crate) fn resolve_relative(
        input: &str,
        base: UrlParts<'_>,
    ) -> Option<(String, Components)> {
        let mut out = String::new();
        relative::resolve(input, base, true, &mut out).map(|c| (out, c))
    }

    /// The state machine alone, against a base.
    pub(crate) fn parse_slow_with_base(
        input: &str,
        base: UrlParts<'_>,
    ) -> Result<(String, Components), ParseError> {
        let mut out = String::new();
        super::parse_slow(input, Some(base), UTF_8, &mut out).map(|c| (out, c))
    }

    /// The state machine alone.
    pub(crate) fn parse_slow(input: &str) -> Result<(String, Components), ParseError> {
        let mut out = String::new();
        super::parse_slow(input, None, UTF_8, &mut out).map(|c| (out, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `can_parse`'s route (the proof, the proof of the trimmed input, the validating run)
    /// gives the full parse's verdict with leading and trailing C0 control or space.
    #[test]
    fn check_agrees_with_parse_around_trimming() {
        let sample =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt"))
                .expect("corpora/sample.txt");
        let mut trimmed = 0;
        for line in sample
            .lines()
            .chain(["", " ", "\u{1}", " http://x ", "\thttp://x/"])
        {
            for input in [
                line.to_owned(),
                format!(" {line}"),
                format!("{line}\u{0}"),
                format!("\u{1f} {line} \t"),
            ] {
                let parsed = parse_slow(&input, None, UTF_8, &mut String::new()).is_ok();
                assert_eq!(check(&input, None), parsed, "{input:?}");
                trimmed += (!proof::proven_valid(&input) && proven_trimmed(&input)) as usize;
            }
        }
        assert!(trimmed > 1_000, "{trimmed}");
    }

    /// The validating run gives the full parse's verdict: on every line of the project's
    /// sample and on inputs that fail late (host, port) or only in the path's neighbours,
    /// with and without a base.
    #[test]
    fn validating_run_agrees_with_parse() {
        let sample =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/corpora/sample.txt"))
                .expect("corpora/sample.txt");
        let edge = [
            "http://ex ample.com/a b",
            "http://example.com:65536/x",
            "http://example.com:6553/x?y#z",
            "http://[::1/x",
            "http://a@/x",
            "file://loc%61lhost/C|/x",
            "file:///C|/../../x",
            "non-special://h:x/p",
            "non-special://[::1]:80",
            "//host/p?q",
            "?only-query",
            "#only-fragment",
            "../../a/./b",
            "sc:opaque path ?q#f",
            "https://xn--a.example/",
            "https://ü.xn--a/",
            "",
            "  ",
        ];
        let parse_base = |input: &str| {
            let mut s = String::new();
            let c = parse_slow(input, None, UTF_8, &mut s).unwrap();
            (s, c)
        };
        let (base_s, base_c) = parse_base("https://user:pw@base.example:8080/dir/file?q#f");
        let (opaque_s, opaque_c) = parse_base("sc:opaque?q");
        let base_url = UrlParts {
            s: &base_s,
            c: &base_c,
        };
        let opaque_base = UrlParts {
            s: &opaque_s,
            c: &opaque_c,
        };
        let mut checked = 0;
        for input in sample.lines().chain(edge) {
            for base in [None, Some(base_url), Some(opaque_base)] {
                let mut full = String::new();
                let parsed = parse_slow(input, base, UTF_8, &mut full).is_ok();
                let mut scratch = String::new();
                assert_eq!(
                    validate_slow(input, base, &mut scratch),
                    parsed,
                    "{input:?} against {:?}",
                    base.map(|b| b.s)
                );
                checked += parsed as usize;
            }
        }
        assert!(checked > 5_000, "{checked}");
    }
}
