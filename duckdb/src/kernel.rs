//! The row loops of the SQL functions: a vector of inputs in, a sink of outputs. Safe
//! code over [`StrVector`] and the sink traits, so that tests and the property test drive
//! them with vectors built in Rust.
//!
//! Each loop reads a row's bytes in place (a row that is not UTF-8 is decoded with
//! U+FFFD, as `rapidurl::Url::parse_bytes` and the Python package do), parses it with
//! `parse_ref` (borrowing the input when it is canonical: nothing is allocated for such a
//! row) and hands the value to the sink, which copies it into DuckDB's vector. NULL in
//! any argument gives NULL; an input that does not parse gives NULL (`url_error` says why).

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use rapidurl::bumpalo::Bump;
use rapidurl::canon::{Preset, safe_browsing};
use rapidurl::field::{Field, FieldContext};
use rapidurl::pattern::UrlPattern;
use rapidurl::{ParseError, Url, UrlRef};

use crate::vector::{BoolSink, MapSink, StrSink, StrVector, StructSink};

/// The arena is emptied between rows once it holds this much.
const ARENA_RESET_BYTES: usize = 1 << 20;

/// A row's text: the bytes themselves when they are UTF-8 (checked, not copied), else
/// decoded with U+FFFD.
#[inline(always)]
pub fn text(bytes: &[u8]) -> Cow<'_, str> {
    match rapidurl::batch::row_text(bytes) {
        Some(s) => Cow::Borrowed(s),
        None => String::from_utf8_lossy(bytes),
    }
}

/// The fields of `url_<field>(url)`: every field of the tool's `--fields` but the route
/// table's and `param:NAME` (`url_query_param`). `valid` is BOOLEAN (`url_valid`), the
/// others VARCHAR.
pub fn sql_fields() -> Vec<Field> {
    Field::URL_API
        .into_iter()
        .chain(Field::HOST_ANALYTICS)
        .chain(Field::VALIDATION)
        .chain(Field::CANONICAL)
        .collect()
}

/// The base of a row: parsed once for a run of rows with the same base text (a constant
/// base is flattened into equal rows).
#[derive(Default)]
pub struct BaseCache {
    text: Vec<u8>,
    url: Option<Result<Url, ParseError>>,
}

impl BaseCache {
    /// The parsed base of `bytes`.
    pub fn get(&mut self, bytes: &[u8]) -> &Result<Url, ParseError> {
        if self.url.is_none() || self.text != bytes {
            self.text.clear();
            self.text.extend_from_slice(bytes);
            self.url = Some(Url::parse(&text(bytes)));
        }
        self.url.as_ref().expect("just set")
    }
}

/// Parses row `i` of `urls` (against row `i` of `bases`) and calls `each` with the input
/// text and the result; `None` for a NULL row. The work of every loop below.
#[inline(always)]
fn for_each_row<'v>(
    urls: StrVector<'v>,
    bases: Option<StrVector<'v>>,
    arena: &mut Bump,
    mut each: impl FnMut(usize, Option<(&str, Result<UrlRef<'_>, ParseError>)>),
) {
    for_each_based_row(urls, bases, arena, |i, row| {
        each(i, row.map(|(input, url, _)| (input, url)))
    });
}

/// [`for_each_row`], with the base each row was parsed against (`None` without one).
#[inline(always)]
fn for_each_based_row<'v>(
    urls: StrVector<'v>,
    bases: Option<StrVector<'v>>,
    arena: &mut Bump,
    mut each: impl FnMut(usize, Option<(&str, Result<UrlRef<'_>, ParseError>, Option<&Url>)>),
) {
    let mut cache = BaseCache::default();
    for i in 0..urls.len() {
        if arena.allocated_bytes() > ARENA_RESET_BYTES {
            arena.reset();
        }
        let Some(bytes) = urls.get(i) else {
            each(i, None);
            continue;
        };
        let input = text(bytes);
        let (url, base) = match bases {
            None => (rapidurl::parse_ref(&input, arena), None),
            Some(bases) => match bases.get(i) {
                None => {
                    each(i, None);
                    continue;
                }
                Some(b) => match cache.get(b) {
                    Ok(base) => (
                        rapidurl::parse_ref_with_base(&input, base, arena),
                        Some(base),
                    ),
                    Err(_) => (Err(rapidurl::ErrorKind::InvalidBase.into()), None),
                },
            },
        };
        each(i, Some((&input, url, base)));
    }
}

/// `url_<field>(url[, base])`: the field's value, NULL where it is absent or the URL does
/// not parse.
pub fn field(field: &Field, urls: StrVector, bases: Option<StrVector>, out: &mut impl StrSink) {
    let mut arena = Bump::new();
    if *field == Field::Hostname {
        // The hostname alone: read off the input when the URL is proven valid.
        let mut cache = BaseCache::default();
        for i in 0..urls.len() {
            if arena.allocated_bytes() > ARENA_RESET_BYTES {
                arena.reset();
            }
            let Some(bytes) = urls.get(i) else {
                out.null(i);
                continue;
            };
            let input = text(bytes);
            let host = match bases {
                None => rapidurl::parse_hostname(&input, &arena),
                Some(bases) => match bases.get(i) {
                    None => {
                        out.null(i);
                        continue;
                    }
                    Some(b) => match cache.get(b) {
                        Ok(base) => rapidurl::parse_hostname_with_base(&input, base, &arena),
                        Err(_) => Err(rapidurl::ErrorKind::InvalidBase.into()),
                    },
                },
            };
            match host {
                Ok(host) => out.put(i, host),
                Err(_) => out.null(i),
            }
        }
        return;
    }
    for_each_based_row(urls, bases, &mut arena, |i, row| match row {
        Some((input, Ok(url), base)) => {
            let cx = FieldContext::new().input(input).base(base.map(Into::into));
            match field.value_with(&url, &cx) {
                Some(v) => out.put(i, &v),
                None => out.null(i),
            }
        }
        _ => out.null(i),
    });
}

/// `url_valid(url[, base])`: whether the input is a valid URL string (the tool's `valid`:
/// judged on its own, as an absolute URL with fragment, even when a base is given); NULL
/// for NULL, or when the base does not parse.
pub fn valid(urls: StrVector, bases: Option<StrVector>, out: &mut impl BoolSink) {
    let mut cache = BaseCache::default();
    for i in 0..urls.len() {
        let Some(bytes) = urls.get(i) else {
            out.null(i);
            continue;
        };
        if let Some(bases) = bases {
            match bases.get(i) {
                Some(b) if cache.get(b).is_ok() => {}
                _ => {
                    out.null(i);
                    continue;
                }
            }
        }
        out.put(i, rapidurl::is_valid_url_string(&text(bytes)));
    }
}

/// `url_error(url[, base])`: the name of the error the URL fails to parse with, NULL when
/// it parses (or is NULL).
pub fn error(urls: StrVector, bases: Option<StrVector>, out: &mut impl StrSink) {
    let mut arena = Bump::new();
    for_each_row(urls, bases, &mut arena, |i, row| match row {
        Some((_, Err(e))) => out.put(i, e.name()),
        _ => out.null(i),
    });
}

/// The members of `url_parse`'s STRUCT: the URL API's attributes.
pub const PARSE_MEMBERS: [Field; 11] = Field::URL_API;

/// `url_parse(url[, base])`: a STRUCT of the URL API's attributes; NULL when the URL does
/// not parse.
pub fn parse(urls: StrVector, bases: Option<StrVector>, out: &mut impl StructSink) {
    let mut arena = Bump::new();
    for_each_row(urls, bases, &mut arena, |i, row| match row {
        Some((_, Ok(url))) => {
            // PARSE_MEMBERS's order (the Standard's IDL), each attribute read straight
            // off the URL; `origin` through `Field` (a slice of href, or built).
            let origin = Field::Origin.value(&url);
            let values: [&str; 11] = [
                url.href(),
                origin.as_deref().unwrap_or("null"),
                url.protocol(),
                url.username(),
                url.password(),
                url.host(),
                url.hostname(),
                url.port(),
                url.pathname(),
                url.search(),
                url.hash(),
            ];
            out.put(i, values);
        }
        _ => out.null(i),
    });
}

/// `url_query_param(url, name)`: the decoded value of the query's first `name` pair;
/// NULL when there is none.
pub fn query_param(urls: StrVector, names: StrVector, out: &mut impl StrSink) {
    let mut arena = Bump::new();
    for_each_row(urls, None, &mut arena, |i, row| {
        let Some((_, Ok(url))) = row else {
            return out.null(i);
        };
        let Some(name) = names.get(i) else {
            return out.null(i);
        };
        match url.query_param(&text(name)) {
            Some(v) => out.put(i, &v),
            None => out.null(i),
        }
    });
}

/// `url_join(base, relative)`: `relative` resolved against `base` (`new URL(relative,
/// base).href`); NULL when either does not parse.
pub fn join(bases: StrVector, relatives: StrVector, out: &mut impl StrSink) {
    let mut arena = Bump::new();
    for_each_row(relatives, Some(bases), &mut arena, |i, row| match row {
        Some((_, Ok(url))) => out.put(i, url.href()),
        _ => out.null(i),
    });
}

/// A preset name that is not one: the error of the query.
#[derive(Debug)]
pub struct Failure(pub String);

/// `url_canonicalize(url, preset)`: the URL's key under the preset (`dedup`, `scrapy`,
/// `safe_browsing`, `surt`); NULL when the URL does not parse, but for `safe_browsing`,
/// which takes any input as Google's rules do and as `rapidurl::canon::canonicalize`
/// (and Python's `canonicalize`) does: the input's key, whether it parses or not (`http://`
/// before an input without a scheme). An unknown preset fails
/// the query, unless the row's URL is NULL: a NULL argument gives NULL before anything
/// else is looked at, so that the answer does not depend on whether DuckDB hands the
/// NULL as a constant vector (which it answers itself, without calling the function).
pub fn canonicalize(
    urls: StrVector,
    presets: StrVector,
    out: &mut impl StrSink,
) -> Result<(), Failure> {
    let mut arena = Bump::new();
    let mut key = String::new();
    let mut last: Option<(Vec<u8>, Preset)> = None;
    let mut failure = None;
    for_each_row(urls, None, &mut arena, |i, row| {
        if failure.is_some() {
            return;
        }
        let Some(name) = presets.get(i).filter(|_| row.is_some()) else {
            return out.null(i);
        };
        let preset = match &last {
            Some((n, p)) if n == name => *p,
            _ => match text(name).parse::<Preset>() {
                Ok(p) => {
                    last = Some((name.to_vec(), p));
                    p
                }
                Err(e) => {
                    failure = Some(Failure(e.to_string()));
                    return;
                }
            },
        };
        let Some((input, url)) = row else {
            return out.null(i);
        };
        if preset == Preset::SafeBrowsing {
            return out.put(i, &safe_browsing::canonicalize_input(input.as_bytes()));
        }
        let Ok(url) = url else {
            return out.null(i);
        };
        key.clear();
        preset.key_into(&url, &mut key);
        out.put(i, &key);
    });
    failure.map_or(Ok(()), Err)
}

/// A compiled pattern, or the message of its error.
type Compiled = Rc<Result<UrlPattern, String>>;

/// The patterns a thread has compiled, by their text: each distinct pattern (a constant is
/// flattened into equal rows) is compiled once per thread, however many vectors it spans.
#[derive(Default)]
struct PatternCache {
    entries: Vec<(Box<[u8]>, Compiled)>,
}

/// The cache holds at most this many patterns (then starts over).
const PATTERN_CACHE_SIZE: usize = 64;

impl PatternCache {
    fn get(&mut self, text_bytes: &[u8]) -> Compiled {
        if let Some(i) = self.entries.iter().position(|(t, _)| **t == *text_bytes) {
            if i != 0 {
                self.entries.swap(0, i);
            }
            return self.entries[0].1.clone();
        }
        if self.entries.len() >= PATTERN_CACHE_SIZE {
            self.entries.clear();
        }
        let compiled =
            Rc::new(UrlPattern::parse(&text(text_bytes), None).map_err(|e| e.to_string()));
        self.entries.push((text_bytes.into(), compiled.clone()));
        let last = self.entries.len() - 1;
        self.entries.swap(0, last);
        compiled
    }
}

thread_local! {
    static PATTERNS: RefCell<PatternCache> = RefCell::default();
}

/// Row `i`'s pattern: the last row's when the text is the same (no lookup).
fn pattern_of<'a>(
    patterns: StrVector<'a>,
    i: usize,
    last: &mut Option<(&'a [u8], Compiled)>,
) -> Option<Result<Compiled, Failure>> {
    let bytes = patterns.get(i)?;
    let compiled = match last {
        Some((t, c)) if *t == bytes => c.clone(),
        _ => {
            let c = PATTERNS.with(|cache| cache.borrow_mut().get(bytes));
            *last = Some((bytes, c.clone()));
            c
        }
    };
    Some(match &*compiled {
        Ok(_) => Ok(compiled),
        Err(e) => Err(Failure(format!(
            "invalid URL pattern {:?}: {e}",
            text(bytes)
        ))),
    })
}

/// The row loop of the pattern functions: `each` gets row `i` with its compiled pattern
/// and parsed URL, or `None` for a row that is NULL (either argument) or whose URL does
/// not parse. A pattern that does not compile, or an error of `each`, stops the loop and
/// is returned; a row whose URL is NULL is `None` before its pattern is compiled (as
/// `canonicalize`'s preset: DuckDB answers a constant NULL itself, never calling).
fn pattern_rows(
    patterns: StrVector,
    urls: StrVector,
    mut each: impl FnMut(usize, Option<(&UrlPattern, &UrlRef<'_>)>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let mut arena = Bump::new();
    let mut last = None;
    let mut failure = None;
    for_each_row(urls, None, &mut arena, |i, row| {
        if failure.is_some() {
            return;
        }
        // A NULL URL first: its row is NULL whatever its pattern.
        let outcome = match row.map(|r| (pattern_of(patterns, i, &mut last), r)) {
            None | Some((None, _)) => each(i, None),
            Some((Some(Err(e)), _)) => Err(e),
            Some((Some(Ok(compiled)), (_, Ok(url)))) => {
                let pattern = compiled.as_ref().as_ref().expect("checked");
                each(i, Some((pattern, &url)))
            }
            Some((Some(Ok(_)), (_, Err(_)))) => each(i, None),
        };
        if let Err(e) = outcome {
            failure = Some(e);
        }
    });
    failure.map_or(Ok(()), Err)
}

/// `url_pattern_test(pattern, url)`: whether the URL matches the pattern (a URLPattern
/// constructor string); NULL when the URL does not parse. An invalid pattern fails the
/// query.
pub fn pattern_test(
    patterns: StrVector,
    urls: StrVector,
    out: &mut impl BoolSink,
) -> Result<(), Failure> {
    pattern_rows(patterns, urls, |i, row| {
        let Some((pattern, url)) = row else {
            out.null(i);
            return Ok(());
        };
        // A regexp group past its step limit: the query fails, never a silent FALSE.
        let hit = pattern
            .test_url(url)
            .map_err(|e| Failure(format!("url_pattern_test: row {}: {e}", i + 1)))?;
        out.put(i, hit);
        Ok(())
    })
}

/// `url_pattern_exec(pattern, url)`: the groups of the match as a MAP (named groups by
/// name, numbered ones as `component.N`, a component that is `*` alone left out, groups
/// that took no part left out: the tool's `route_params`); NULL when the URL does not
/// parse or does not match. An invalid pattern fails the query.
pub fn pattern_exec(
    patterns: StrVector,
    urls: StrVector,
    out: &mut impl MapSink,
) -> Result<(), Failure> {
    let mut keys: Vec<String> = Vec::new();
    pattern_rows(patterns, urls, |i, row| {
        let Some((pattern, url)) = row else {
            out.null(i);
            return Ok(());
        };
        let result = match pattern.exec_url(url) {
            Ok(Some(result)) => result,
            Ok(None) => {
                out.null(i);
                return Ok(());
            }
            // A regexp group past its step limit: the query fails, never a silent NULL.
            Err(e) => return Err(Failure(format!("url_pattern_exec: row {}: {e}", i + 1))),
        };
        keys.clear();
        let mut values: Vec<&str> = Vec::new();
        for (component, r) in result.components() {
            for (name, value) in &r.groups {
                let Some(value) = value else { continue };
                if name == "0" && r.groups.len() == 1 && value == &r.input {
                    continue;
                }
                keys.push(if name.starts_with(|c: char| c.is_ascii_digit()) {
                    format!("{component}.{name}")
                } else {
                    name.clone()
                });
                values.push(value);
            }
        }
        // A name used in two components keeps its first value (MAP keys are distinct).
        let mut entries: Vec<(&str, &str)> = Vec::with_capacity(keys.len());
        for (k, v) in keys.iter().zip(values) {
            if !entries.iter().any(|(e, _)| *e == k.as_str()) {
                entries.push((k, v));
            }
        }
        out.put(i, &entries);
        Ok(())
    })
}
