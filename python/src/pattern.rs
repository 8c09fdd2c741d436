//! `rapidurl.URLPattern` and `rapidurl.PatternError`: the URL Pattern Standard's matcher
//! over `rapidurl::pattern::UrlPattern`, shaped as the JavaScript API.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use rapidurl::pattern::{
    COMPONENT_NAMES, PatternError as RustPatternError, UrlPattern, UrlPatternInit, UrlPatternInput,
    UrlPatternOptions, UrlPatternResult,
};

use rapidurl::field::Field;
use rapidurl::pattern::PatternSet;

use crate::{guard, usv};

/// The `routes` argument of `parse_column`: a list of patterns (str) or of
/// `(name, pattern)` pairs, as a `PatternSet`, each pattern read by
/// [`PatternSet::add_route`] (absolute; a path `/users/:id` on any host; relative to
/// `routes_base` when given). The fields `route` and `route_params` need one.
pub(crate) fn route_table(
    routes: Option<&Bound<'_, PyAny>>,
    routes_base: Option<&str>,
    fields: &[Field],
) -> PyResult<Option<PatternSet>> {
    let routes = routes.filter(|r| !r.is_none());
    let Some(routes) = routes else {
        if routes_base.is_some() {
            return Err(PyTypeError::new_err(
                "routes_base is the base of a route table's patterns: give routes=[...] too",
            ));
        }
        if fields.iter().any(Field::needs_routes) {
            return Err(PyTypeError::new_err(
                "the fields route and route_params need a route table: routes=[...]",
            ));
        }
        return Ok(None);
    };
    if routes.cast::<PyString>().is_ok() {
        return Err(PyTypeError::new_err(
            "routes must be a list of patterns or of (name, pattern) pairs, not a str",
        ));
    }
    let mut set = PatternSet::new();
    for (i, item) in routes.try_iter()?.enumerate() {
        let item = item?;
        let (name, text): (Option<String>, String) = if let Ok(s) = item.cast::<PyString>() {
            (None, usv(s)?.into_owned())
        } else if let Ok((n, p)) = item.extract::<(String, String)>() {
            (Some(n), p)
        } else {
            return Err(PyTypeError::new_err(format!(
                "routes[{i}] must be a str or a (name, pattern) pair of str"
            )));
        };
        set.add_route(name.as_deref(), &text, routes_base)
            .map_err(|e| pattern_error(&e, &format!("routes[{i}] {text:?}: ")))?;
    }
    Ok(Some(set))
}

pyo3::create_exception!(
    rapidurl,
    PatternError,
    pyo3::exceptions::PyValueError,
    "A URL pattern that could not be constructed (a ValueError).\n\n`component` is the \
     component whose pattern is wrong ('protocol' … 'hash') or None; `position` the code \
     point index in that component's pattern string, or None."
);

/// The Python error of a failed `test` / `exec`: a `PatternError` when a regexp group
/// with a backreference or a lookaround ran out of steps, a `TypeError` otherwise (a
/// dictionary with a base URL).
fn match_error(err: &RustPatternError) -> PyErr {
    match err.kind() {
        rapidurl::pattern::PatternErrorKind::MatchLimit => pattern_error(err, ""),
        _ => PyTypeError::new_err(err.to_string()),
    }
}

/// A Python `PatternError` for `err`, its message after `prefix`.
fn pattern_error(err: &RustPatternError, prefix: &str) -> PyErr {
    Python::attach(|py| {
        let exc = PatternError::new_err(format!("{prefix}{err}"));
        let value = exc.value(py);
        let _ = value.setattr("component", err.component());
        let _ = value.setattr("position", err.position());
        exc
    })
}

/// A dictionary of components (JavaScript key names, `baseURL` included; every value a
/// `str`) as a `UrlPatternInit`.
fn init_of(d: &Bound<'_, PyDict>) -> PyResult<UrlPatternInit> {
    let mut init = UrlPatternInit::default();
    for (k, v) in d.iter() {
        let key: String = k
            .extract()
            .map_err(|_| PyTypeError::new_err("URLPattern dictionary keys must be str"))?;
        let Some(field) = init.field_mut(&key) else {
            return Err(PyTypeError::new_err(format!(
                "unknown URLPattern component {key:?}; the keys are protocol, username, \
                 password, hostname, port, pathname, search, hash, baseURL"
            )));
        };
        let s = v.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!("URLPattern component {key:?} must be a str"))
        })?;
        *field = Some(usv(s)?.into_owned());
    }
    Ok(init)
}

/// The input: `None` (an empty dictionary), a `str`, or a `dict`.
enum Input {
    String(String),
    Init(UrlPatternInit),
}

impl Input {
    fn of(input: Option<&Bound<'_, PyAny>>) -> PyResult<Input> {
        match input {
            None => Ok(Input::Init(UrlPatternInit::default())),
            Some(i) if i.is_none() => Ok(Input::Init(UrlPatternInit::default())),
            Some(i) => {
                if let Ok(s) = i.cast::<PyString>() {
                    return Ok(Input::String(usv(s)?.into_owned()));
                }
                if let Ok(d) = i.cast::<PyDict>() {
                    return Ok(Input::Init(init_of(d)?));
                }
                Err(PyTypeError::new_err(
                    "URLPattern input must be a str, a dict of components, or None",
                ))
            }
        }
    }

    fn as_input(&self) -> UrlPatternInput<'_> {
        match self {
            Input::String(s) => UrlPatternInput::String(s),
            Input::Init(i) => UrlPatternInput::Init(i),
        }
    }
}

fn base_of(base_url: Option<&Bound<'_, PyAny>>) -> PyResult<Option<String>> {
    match base_url {
        None => Ok(None),
        Some(b) if b.is_none() => Ok(None),
        Some(b) => {
            let s = b
                .cast::<PyString>()
                .map_err(|_| PyTypeError::new_err("base_url must be a str or None"))?;
            Ok(Some(usv(s)?.into_owned()))
        }
    }
}

/// A URL pattern (the URL Pattern Standard's `URLPattern`).
///
/// `URLPattern(input=None, base_url=None, *, ignore_case=False)`: `input` is a
/// constructor string (`"https://*.example.com/users/:id"`, relative to `base_url` when
/// given) or a dict of component patterns (`{"pathname": "/users/:id"}`, JavaScript key
/// names, `baseURL` included; components not given match anything). An invalid pattern
/// raises `rapidurl.PatternError`; `base_url` with a dict raises `TypeError`.
#[pyclass(name = "URLPattern", module = "rapidurl", frozen)]
pub struct PyUrlPattern {
    inner: UrlPattern,
}

fn result_dict<'py>(
    py: Python<'py>,
    r: &UrlPatternResult,
    inputs: Bound<'py, PyList>,
) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("inputs", inputs)?;
    for (name, c) in r.components() {
        let groups = PyDict::new(py);
        for (k, v) in &c.groups {
            groups.set_item(k, v.as_deref())?;
        }
        let comp = PyDict::new(py);
        comp.set_item("input", &c.input)?;
        comp.set_item("groups", groups)?;
        out.set_item(name, comp)?;
    }
    Ok(out)
}

#[pymethods]
impl PyUrlPattern {
    #[new]
    #[pyo3(signature = (input=None, base_url=None, *, ignore_case=false))]
    fn new(
        input: Option<&Bound<'_, PyAny>>,
        base_url: Option<&Bound<'_, PyAny>>,
        ignore_case: bool,
    ) -> PyResult<Self> {
        guard(|| {
            let input = Input::of(input)?;
            let base = base_of(base_url)?;
            if matches!(input, Input::Init(_)) && base.is_some() {
                return Err(PyTypeError::new_err(
                    "base_url cannot be given with a dict of components (use its baseURL key)",
                ));
            }
            let options = UrlPatternOptions { ignore_case };
            let inner = UrlPattern::new(input.as_input(), base.as_deref(), options)
                .map_err(|e| pattern_error(&e, ""))?;
            Ok(PyUrlPattern { inner })
        })
    }

    /// The normalized protocol pattern.
    #[getter]
    fn protocol(&self) -> &str {
        self.inner.protocol()
    }
    /// The normalized username pattern.
    #[getter]
    fn username(&self) -> &str {
        self.inner.username()
    }
    /// The normalized password pattern.
    #[getter]
    fn password(&self) -> &str {
        self.inner.password()
    }
    /// The normalized hostname pattern.
    #[getter]
    fn hostname(&self) -> &str {
        self.inner.hostname()
    }
    /// The normalized port pattern.
    #[getter]
    fn port(&self) -> &str {
        self.inner.port()
    }
    /// The normalized pathname pattern.
    #[getter]
    fn pathname(&self) -> &str {
        self.inner.pathname()
    }
    /// The normalized search pattern.
    #[getter]
    fn search(&self) -> &str {
        self.inner.search()
    }
    /// The normalized hash pattern.
    #[getter]
    fn hash(&self) -> &str {
        self.inner.hash()
    }
    /// Whether a component has a regexp group (`hasRegExpGroups`).
    #[getter]
    fn has_regexp_groups(&self) -> bool {
        self.inner.has_regexp_groups()
    }

    /// Whether the pattern matches `input` (a URL str, relative to `base_url` when given,
    /// or a dict of components); a URL that does not parse does not match.
    #[pyo3(signature = (input=None, base_url=None))]
    fn test(
        &self,
        input: Option<&Bound<'_, PyAny>>,
        base_url: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<bool> {
        guard(|| {
            let i = Input::of(input)?;
            let base = base_of(base_url)?;
            self.inner
                .test(i.as_input(), base.as_deref())
                .map_err(|e| match_error(&e))
        })
    }

    /// `None`, or the match as JavaScript's `exec` returns it: `inputs`, and per
    /// component `{"input": str, "groups": {name: str or None}}` (None: an optional group
    /// that did not take part).
    #[pyo3(signature = (input=None, base_url=None))]
    fn exec<'py>(
        &self,
        py: Python<'py>,
        input: Option<&Bound<'py, PyAny>>,
        base_url: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        guard(|| {
            let i = Input::of(input)?;
            let base = base_of(base_url)?;
            let r = self
                .inner
                .exec(i.as_input(), base.as_deref())
                .map_err(|e| match_error(&e))?;
            let Some(r) = r else { return Ok(None) };
            let inputs = PyList::empty(py);
            match input {
                Some(x) if !x.is_none() => inputs.append(x)?,
                _ => inputs.append(PyDict::new(py))?,
            }
            if let Some(b) = &base {
                inputs.append(b)?;
            }
            result_dict(py, &r, inputs).map(Some)
        })
    }

    fn __repr__(&self) -> String {
        let parts: Vec<String> = COMPONENT_NAMES
            .iter()
            .zip(self.inner.component_patterns())
            .map(|(n, p)| format!("{n}={p:?}"))
            .collect();
        format!("URLPattern({})", parts.join(", "))
    }
}
