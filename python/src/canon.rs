//! `rapidurl.surt` and `rapidurl.canonicalize`: the canonical keys of `rapidurl::canon`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
use rapidurl::canon::Preset;

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
/// parse, `ValueError` for an unknown preset.
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
