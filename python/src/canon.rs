//! `rapidurl.surt` and `rapidurl.canonicalize`: the canonical keys of `rapidurl::canon`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyString};
use rapidurl::canon::{Preset, scrapy as scrapy_key, surt as surt_key};

use crate::{guard, parse_error, usv};

/// The key of `url` under `preset`; `ParseError` when `url` does not parse.
fn key(url: &Bound<'_, PyString>, preset: Preset) -> PyResult<String> {
    guard(|| {
        let input = usv(url)?;
        rapidurl::canon::canonicalize(&input, preset).map_err(|e| parse_error(&e, &input))
    })
}

/// `surt(url)`: the Internet Archive's SURT of `url`, as `surt.surt(url)` computes it with
/// its defaults (`'com,example)/a?a=1&b=2'`), on the WHATWG parse; `ParseError` when
/// `url` does not parse.
#[pyfunction]
pub fn surt(url: &Bound<'_, PyString>) -> PyResult<String> {
    key(url, Preset::Surt)
}

/// `canonicalize(url, preset="dedup")`: the canonical form of `url` under `preset`
/// (`"dedup"`, `"scrapy"` or `"safe_browsing"`), a URL; `ParseError` when `url` does not
/// parse (but under `"safe_browsing"`, which takes any input as Google's rules do),
/// `ValueError` for an unknown preset.
#[pyfunction]
#[pyo3(signature = (url, preset="dedup"))]
pub fn canonicalize(url: &Bound<'_, PyString>, preset: &str) -> PyResult<String> {
    let preset = match preset.parse::<Preset>() {
        Ok(p) if p.is_url() => p,
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown preset {preset:?}: the presets are \"dedup\", \"scrapy\", \
                 \"safe_browsing\" (for SURT, use rapidurl.surt)"
            )));
        }
    };
    key(url, preset)
}

/// The `surt` package's option names, in the order of [`surt_options`]'s fields.
const SURT_OPTIONS: [&str; 15] = [
    "surt",
    "with_scheme",
    "trailing_comma",
    "reverse_ipaddr",
    "host_lowercase",
    "host_massage",
    "port_strip_default",
    "path_strip_empty",
    "path_lowercase",
    "path_strip_session_id",
    "path_strip_trailing_slash_unless_empty",
    "query_lowercase",
    "query_strip_session_id",
    "query_strip_empty",
    "query_alpha_reorder",
];

/// The options of a `surt.surt` call: the package's defaults, then each option of
/// `options` by its truth value (names the package does not use are ignored, as it
/// ignores them).
fn surt_options(
    canonicalizer: u8,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<surt_key::Options> {
    let mut o = surt_key::Options {
        canonicalizer: match canonicalizer {
            0 => surt_key::Canonicalizer::Default,
            1 => surt_key::Canonicalizer::Google,
            2 => surt_key::Canonicalizer::Ia,
            _ => surt_key::Canonicalizer::Identity,
        },
        ..surt_key::Options::default()
    };
    let Some(options) = options else {
        return Ok(o);
    };
    // One pass over the options given (usually one or two), not a lookup per name. A
    // keyword argument's name is the interned string of its identifier, so it is found
    // by identity among the interned option names before its text is read.
    let py = options.py();
    let interned = SURT_OPTION_NAMES.get_or_init(py, || {
        SURT_OPTIONS
            .iter()
            .map(|n| PyString::intern(py, n).unbind())
            .collect()
    });
    for (name, value) in options.iter() {
        let Ok(name) = name.cast::<PyString>() else {
            continue;
        };
        if let Some(i) = interned.iter().position(|n| n.bind(py).is(name)) {
            *surt_option(&mut o, i) = value.is_truthy()?;
            continue;
        }
        let name = name.to_cow()?;
        if name == "public_suffix" {
            if value.is_truthy()? {
                return Err(PyTypeError::new_err(
                    "public_suffix=True: surt 0.3.1 raises TypeError here too (tldextract 5 \
                     rejects the bytes host it is given)",
                ));
            }
            continue;
        }
        let Some(i) = SURT_OPTIONS.iter().position(|n| *n == name) else {
            continue;
        };
        *surt_option(&mut o, i) = value.is_truthy()?;
    }
    Ok(o)
}

/// [`SURT_OPTIONS`] as interned Python strings.
static SURT_OPTION_NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();

/// The field of option `i` of [`SURT_OPTIONS`].
fn surt_option(o: &mut surt_key::Options, i: usize) -> &mut bool {
    match i {
        0 => &mut o.surt,
        1 => &mut o.with_scheme,
        2 => &mut o.trailing_comma,
        3 => &mut o.reverse_ipaddr,
        4 => &mut o.host_lowercase,
        5 => &mut o.host_massage,
        6 => &mut o.port_strip_default,
        7 => &mut o.path_strip_empty,
        8 => &mut o.path_lowercase,
        9 => &mut o.path_strip_session_id,
        10 => &mut o.path_strip_trailing_slash_unless_empty,
        11 => &mut o.query_lowercase,
        12 => &mut o.query_strip_session_id,
        13 => &mut o.query_strip_empty,
        _ => &mut o.query_alpha_reorder,
    }
}

/// Python's `host.decode('utf-8', 'ignore').encode('idna')` (IDNA 2003), `None` where it
/// raises `ValueError`.
fn python_idna(py: Python<'_>, host: &[u8]) -> Option<Vec<u8>> {
    let encoded = PyBytes::new(py, host)
        .call_method1("decode", ("utf-8", "ignore"))
        .and_then(|text| text.call_method1("encode", ("idna",)));
    match encoded {
        Ok(b) => b.cast::<PyBytes>().ok().map(|b| b.as_bytes().to_vec()),
        Err(_) => None,
    }
}

/// `_surt(url, canonicalizer=0, options=None)`: `surt.surt(url, **options)` on the raw
/// input, split as the package splits it (`rapidurl.compat.surt.surt` calls it):
/// `bytes` for `bytes`, `str` for `str`, `'-'` for `None`. `canonicalizer`: 0 the
/// default, 1 Google's, 2 the IA's, 3 none.
#[pyfunction]
#[pyo3(signature = (url, canonicalizer=0, options=None))]
pub fn _surt(
    py: Python<'_>,
    url: &Bound<'_, PyAny>,
    canonicalizer: u8,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let options = surt_options(canonicalizer, options)?;
    let run = |input: &[u8]| {
        guard(|| {
            surt_key::surt_input_with(input, &options, &mut |h| python_idna(py, h))
                .map_err(|e| PyValueError::new_err(e.to_string()))
        })
    };
    if let Ok(b) = url.cast::<PyBytes>() {
        let key = run(b.as_bytes())?;
        return Ok(PyBytes::new(py, &key).into_any().unbind());
    }
    if url.is_none() {
        return Ok(PyString::new(py, "-").into_any().unbind());
    }
    let text = url.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "surt() takes a str or bytes URL, not {}",
            url.get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |n| n.to_string())
        ))
    })?;
    let key = run(text.to_cow()?.as_bytes())?;
    let key = String::from_utf8(key)
        .map_err(|e| PyValueError::new_err(format!("the key is not UTF-8: {e}")))?;
    Ok(PyString::new(py, &key).into_any().unbind())
}

/// Python's own steps of `canonicalize_url`, through the helpers of
/// `rapidurl.compat.w3lib` (`_host`, `_netloc_bad`, `_ip`) and `str.encode`.
struct PythonEnvironment<'py> {
    helpers: Bound<'py, PyAny>,
    encoding: Option<String>,
}

impl scrapy_key::Environment for PythonEnvironment<'_> {
    fn encode(&mut self, text: &str, out: &mut Vec<u8>) -> Result<(), scrapy_key::Unencodable> {
        let Some(encoding) = &self.encoding else {
            out.extend_from_slice(text.as_bytes());
            return Ok(());
        };
        let py = self.helpers.py();
        let encoded = PyString::new(py, text)
            .call_method1("encode", (encoding.as_str(),))
            .map_err(|_| scrapy_key::Unencodable)?;
        let bytes = encoded
            .cast::<PyBytes>()
            .map_err(|_| scrapy_key::Unencodable)?;
        out.extend_from_slice(bytes.as_bytes());
        Ok(())
    }

    fn host(&mut self, hostname: &str) -> Vec<u8> {
        let result = self.helpers.call_method1("_host", (hostname,));
        match result.as_ref().map(|r| r.cast::<PyBytes>()) {
            Ok(Ok(b)) => b.as_bytes().to_vec(),
            _ => hostname.as_bytes().to_vec(),
        }
    }

    fn netloc_normalizes_to_a_delimiter(&mut self, netloc: &str) -> bool {
        self.helpers
            .call_method1("_netloc_bad", (netloc,))
            .and_then(|r| r.is_truthy())
            .unwrap_or(false)
    }

    fn ip_address(&mut self, text: &str) -> Option<scrapy_key::IpAddress> {
        let r = self.helpers.call_method1("_ip", (text,)).ok()?;
        if r.is_none() {
            return None;
        }
        match r.extract::<String>() {
            Ok(form) => Some(scrapy_key::IpAddress::V6(form)),
            Err(_) => Some(scrapy_key::IpAddress::V4),
        }
    }
}

/// `_canonicalize_url(url, keep_blank_values, keep_fragments, query_separator, encoding,
/// helpers)`: `w3lib.url.canonicalize_url` on a `str` (the two flags taken by their truth
/// value, as Python's `if` does), split as w3lib splits it
/// (`rapidurl.compat.w3lib.canonicalize_url` calls it); `encoding` `None` for UTF-8;
/// `ValueError` where w3lib raises it.
#[pyfunction]
pub fn _canonicalize_url(
    url: &Bound<'_, PyString>,
    keep_blank_values: &Bound<'_, PyAny>,
    keep_fragments: &Bound<'_, PyAny>,
    query_separator: String,
    encoding: Option<String>,
    helpers: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let options = scrapy_key::Options {
        keep_blank_values: keep_blank_values.is_truthy()?,
        keep_fragments: keep_fragments.is_truthy()?,
        query_separator,
    };
    let text = url.to_cow()?;
    let mut env = PythonEnvironment {
        helpers: helpers.clone(),
        encoding,
    };
    guard(|| {
        scrapy_key::scrapy_input_with(&text, &options, &mut env)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    })
}
