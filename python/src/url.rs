//! `URL` and `URLSearchParams`: the URL Standard's API (§6) over `rapidurl::Url` and
//! `rapidurl::SearchParams`, with Python's conventions (snake_case, `str()`, `==`,
//! `hash()`, pickling, iteration).

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::exceptions::{PyAttributeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PyMapping, PyString, PyTuple};
use rapidurl::field::{Field, FieldContext};
use rapidurl::{SearchParams, Url};

use crate::{guard, parse_error, usv};

/// A base given as a `str` or a `URL`.
fn base_url(base: &Bound<'_, PyAny>) -> PyResult<Url> {
    if let Ok(url) = base.cast::<PyUrl>() {
        return Ok(url.borrow().inner.clone());
    }
    match base.cast::<PyString>() {
        Ok(s) => {
            let text = usv(s)?;
            Url::parse(&text).map_err(|_| {
                parse_error(
                    &rapidurl::ParseError::new(rapidurl::ErrorKind::InvalidBase),
                    &text,
                )
            })
        }
        Err(_) => Err(PyTypeError::new_err(format!(
            "base must be a str or a URL, not {}",
            base.get_type().name()?
        ))),
    }
}

/// `url` parsed against `base`: the URL constructor's steps.
fn parse(url: &Bound<'_, PyString>, base: Option<&Bound<'_, PyAny>>) -> PyResult<PyUrl> {
    let input = usv(url)?;
    let base = match base {
        Some(b) if !b.is_none() => Some(base_url(b)?),
        _ => None,
    };
    let result = match &base {
        Some(b) => Url::parse_with_base(&input, b),
        None => Url::parse(&input),
    };
    let inner = result.map_err(|e| parse_error(&e, &input))?;
    Ok(PyUrl::parsed(inner, input.into_owned(), base))
}

/// The text a URL was parsed from and the base it was parsed against, for the fields
/// of the input (`valid`, `validation_errors`), with the href the parse gave: they hold
/// while the URL's href is still that one.
#[derive(Clone)]
struct Source {
    input: String,
    base: Option<Url>,
    href: String,
}

/// A URL, parsed as the WHATWG URL Standard says (what `new URL(url, base)` gives in a
/// browser).
///
/// `URL(url, base=None)` raises `ParseError` (a `ValueError`) when `url` does not parse;
/// `URL.parse` returns `None` instead. The attributes are the URL API's, readable and
/// settable with its semantics: a setter given a value it cannot use leaves the URL as it
/// was, except `href`, which raises `ParseError`.
#[pyclass(module = "rapidurl", name = "URL")]
pub struct PyUrl {
    pub(crate) inner: Url,
    /// Where the URL came from, when that is not its own href without a base.
    source: Option<Box<Source>>,
}

impl PyUrl {
    /// The URL `inner`, parsed from `input` against `base`.
    fn parsed(inner: Url, input: String, base: Option<Url>) -> PyUrl {
        let source = (base.is_some() || input != inner.href()).then(|| {
            Box::new(Source {
                href: inner.href().to_owned(),
                input,
                base,
            })
        });
        PyUrl { inner, source }
    }

    /// The input and base of the fields of the input: those the URL was parsed from while
    /// its href is the one that parse gave, else (a setter changed it) its href alone.
    fn input(&self) -> (&str, Option<&Url>) {
        match &self.source {
            Some(s) if s.href == self.inner.href() => (&s.input, s.base.as_ref()),
            _ => (self.inner.href(), None),
        }
    }

    /// A field of `parse_column` for this URL (`None` where it is absent).
    fn field(&self, field: &Field) -> Option<String> {
        let (input, base) = self.input();
        let cx = FieldContext::new().input(input).base(base.map(Into::into));
        field
            .value_with(&self.inner.as_ref_view(), &cx)
            .map(|v| v.into_owned())
    }

    /// Runs one of the URL API's setters (they never fail: a value they cannot use leaves
    /// the URL as it was).
    fn set(&mut self, setter: fn(&mut Url, &str), value: &Bound<'_, PyString>) -> PyResult<()> {
        guard(|| {
            setter(&mut self.inner, &usv(value)?);
            Ok(())
        })
    }
}

/// The class's `#[pymethods]` block, with a getter and a setter for each component of the
/// URL API that is a slice of the href and set through the library's setter of the same
/// name (one line of the table each; `#[pymethods]` sees them expanded). The block's
/// attribute and `impl` are the caller's tokens, so that pyo3's generated code is the
/// caller's (edition 2024's `unsafe` rules hold it to the caller's spans).
macro_rules! url_methods {
    (
        components { $( $(#[$doc:meta])* $name:ident, $set_name:ident => $setter:path; )* }
        #[$pymethods:meta]
        impl $class:ident { $($rest:tt)* }
    ) => {
        #[$pymethods]
        impl $class {
            $(
                $(#[$doc])*
                #[getter]
                fn $name(&self) -> &str {
                    self.inner.$name()
                }

                #[setter]
                fn $set_name(&mut self, value: &Bound<'_, PyString>) -> PyResult<()> {
                    self.set($setter, value)
                }
            )*

            $($rest)*
        }
    };
}

url_methods! {
    components {
        /// The scheme and ':', e.g. 'https:'; setting it changes the scheme where the Standard allows.
        protocol, set_protocol => Url::set_protocol;
        /// The username (percent-encoded).
        username, set_username => Url::set_username;
        /// The password (percent-encoded).
        password, set_password => Url::set_password;
        /// The host and port, e.g. 'example.com:8080'.
        host, set_host => Url::set_host;
        /// The host without its port (IDNA-encoded; IPv6 in brackets).
        hostname, set_hostname => Url::set_hostname;
        /// The path, e.g. '/a/b'.
        pathname, set_pathname => Url::set_pathname;
        /// The query with its '?', or '' when empty or absent.
        search, set_search => Url::set_search;
        /// The fragment with its '#', or '' when empty or absent.
        hash, set_hash => Url::set_hash;
    }
    #[pymethods]
    impl PyUrl {
        #[new]
        #[pyo3(signature = (url, base=None))]
        fn new(url: &Bound<'_, PyString>, base: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
            guard(|| parse(url, base))
        }

        /// `URL.parse(url, base=None)`: the URL, or `None` when it does not parse.
        #[staticmethod]
        #[pyo3(signature = (url, base=None))]
        fn parse(url: &Bound<'_, PyString>, base: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Self>> {
            guard(|| match parse(url, base) {
                Ok(url) => Ok(Some(url)),
                Err(err) if err.is_instance_of::<crate::ParseError>(url.py()) => Ok(None),
                Err(err) => Err(err),
            })
        }

        /// `URL.canParse(url, base=None)`: whether `URL(url, base)` would succeed.
        #[staticmethod]
        #[pyo3(signature = (url, base=None))]
        fn can_parse(url: &Bound<'_, PyString>, base: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
            Ok(PyUrl::parse(url, base)?.is_some())
        }

        /// The whole URL; setting it parses the new value (raising `ParseError` on failure).
        #[getter]
        fn href(&self) -> &str {
            self.inner.href()
        }

        #[setter]
        fn set_href(&mut self, value: &Bound<'_, PyString>) -> PyResult<()> {
            guard(|| {
                let text = usv(value)?;
                self.inner
                    .set_href(&text)
                    .map_err(|e| parse_error(&e, &text))?;
                *self = PyUrl::parsed(self.inner.clone(), text.into_owned(), None);
                Ok(())
            })
        }

        /// The serialized origin, e.g. 'https://example.com' ('null' when opaque).
        #[getter]
        fn origin(&self) -> String {
            self.inner.origin()
        }

        /// The port as a string, '' when absent or the scheme's default. Setting accepts a
        /// str or an int.
        #[getter]
        fn port(&self) -> &str {
            self.inner.port()
        }

        #[setter]
        fn set_port(&mut self, value: &Bound<'_, PyAny>) -> PyResult<()> {
            guard(|| {
                if let Ok(s) = value.cast::<PyString>() {
                    self.inner.set_port(&usv(s)?);
                } else if let Ok(n) = value.extract::<u64>() {
                    self.inner.set_port(&n.to_string());
                } else {
                    return Err(PyTypeError::new_err(format!(
                        "port must be a str or an int, not {}",
                        value.get_type().name()?
                    )));
                }
                Ok(())
            })
        }

        /// The query as a `URLSearchParams` bound to this URL: changing it changes `search`.
        #[getter]
        fn search_params(slf: Py<Self>) -> PySearchParams {
            PySearchParams {
                owner: Owner::Url(slf),
            }
        }

        /// `'true'` when the input the URL was parsed from is a valid URL string (URL
        /// Standard §4.3), else `'false'`: `parse_column`'s `valid`. The input is judged on
        /// its own, even when a base was given; once a setter has changed the URL, its
        /// href is judged.
        #[getter]
        fn valid(&self) -> String {
            self.field(&Field::Valid).unwrap_or_default()
        }

        /// The names of the validation errors that parsing the input (against the base,
        /// when one was given) reported, separated by spaces, `''` when none:
        /// `parse_column`'s `validation_errors`. Once a setter has changed the URL, those
        /// of its href.
        #[getter]
        fn validation_errors(&self) -> String {
            self.field(&Field::ValidationErrors).unwrap_or_default()
        }

        /// Any other field the library defines (`rapidurl.parse_column`'s field names that
        /// are identifiers, e.g. `public_suffix` where the library has it).
        fn __getattr__(&self, name: &str) -> PyResult<Option<String>> {
            let field: Field = name.parse().map_err(|_| {
                PyAttributeError::new_err(format!("'URL' object has no attribute '{name}'"))
            })?;
            Ok(self.field(&field))
        }

        /// The URL API's `toJSON()`: the href.
        fn to_json(&self) -> &str {
            self.inner.href()
        }

        fn __str__(&self) -> &str {
            self.inner.href()
        }

        /// `URL('…')`, with the password (if any) shown as `***`.
        fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
            let mut shown = self.inner.clone();
            if !shown.password().is_empty() {
                shown.set_password("***");
            }
            Ok(format!("URL({})", PyString::new(py, shown.href()).repr()?))
        }

        fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
            let py = other.py();
            match other.cast::<PyUrl>() {
                Ok(o) => (self.inner.href() == o.borrow().inner.href())
                    .into_pyobject(py)
                    .map(|b| b.to_owned().into_any().unbind())
                    .unwrap_or_else(|_| py.NotImplemented()),
                Err(_) => py.NotImplemented(),
            }
        }

        fn __hash__(&self) -> u64 {
            let mut h = DefaultHasher::new();
            self.inner.href().hash(&mut h);
            h.finish()
        }

        /// `URL(input, base)` again: the input and base it was parsed from (so that a
        /// copy has the same `valid` and `validation_errors`), or its href once a setter
        /// has changed it.
        fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
            let py = slf.py();
            let this = slf.borrow();
            let args = match this.input() {
                (input, Some(base)) => PyTuple::new(py, [input, base.href()])?,
                (input, None) => PyTuple::new(py, [input])?,
            };
            PyTuple::new(py, [slf.get_type().into_any(), args.into_any()])
        }

        fn __copy__(&self) -> Self {
            PyUrl {
                inner: self.inner.clone(),
                source: self.source.clone(),
            }
        }

        fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
            self.__copy__()
        }
    }
}

/// Where a `URLSearchParams` keeps its list: its own, or a URL's query.
enum Owner {
    Own(SearchParams),
    Url(Py<PyUrl>),
}

/// A list of name-value pairs, as the URL API's `URLSearchParams`.
///
/// `URLSearchParams(init=None)`: `init` is a query string (one leading '?' dropped), a
/// mapping, an iterable of (name, value) pairs, or another `URLSearchParams`. Iterating
/// gives (name, value) tuples in order; `str()` is the application/x-www-form-urlencoded
/// serialization. `URL.search_params` is bound to its URL: changing it changes the URL's
/// query, and reading it reads the URL's current query.
#[pyclass(module = "rapidurl", name = "URLSearchParams")]
pub struct PySearchParams {
    owner: Owner,
}

impl PySearchParams {
    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(&SearchParams) -> T) -> T {
        match &self.owner {
            Owner::Own(list) => f(list),
            Owner::Url(url) => f(&url.borrow(py).inner.search_params()),
        }
    }

    fn write<T>(&mut self, py: Python<'_>, f: impl FnOnce(&mut SearchParams) -> T) -> T {
        match &mut self.owner {
            Owner::Own(list) => f(list),
            Owner::Url(url) => {
                let mut url = url.borrow_mut(py);
                let mut bound = url.inner.search_params_mut();
                f(&mut bound)
            }
        }
    }

    fn pairs(&self, py: Python<'_>) -> Vec<(String, String)> {
        self.read(py, |l| l.as_slice().to_vec())
    }
}

/// A (name, value) pair from an item of an iterable `init`.
fn pair(item: &Bound<'_, PyAny>, index: usize) -> PyResult<(String, String)> {
    let bad = || {
        PyTypeError::new_err(format!(
            "URLSearchParams: item {index} must be a pair of str (name, value)"
        ))
    };
    if item.is_instance_of::<PyString>() {
        return Err(bad());
    }
    let members: Vec<Bound<'_, PyAny>> = item
        .try_iter()
        .map_err(|_| bad())?
        .collect::<PyResult<_>>()?;
    if members.len() != 2 {
        return Err(bad());
    }
    let text = |m: &Bound<'_, PyAny>| -> PyResult<String> {
        Ok(usv(m.cast::<PyString>().map_err(|_| bad())?)?.into_owned())
    };
    Ok((text(&members[0])?, text(&members[1])?))
}

#[pymethods]
impl PySearchParams {
    #[new]
    #[pyo3(signature = (init=None))]
    fn new(py: Python<'_>, init: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        guard(|| {
            let list = match init {
                None => SearchParams::new(),
                Some(i) if i.is_none() => SearchParams::new(),
                Some(i) => {
                    if let Ok(s) = i.cast::<PyString>() {
                        SearchParams::parse(&usv(s)?)
                    } else if let Ok(other) = i.cast::<PySearchParams>() {
                        SearchParams::from_pairs(other.borrow().pairs(py))
                    } else if let Ok(map) = i.cast::<PyMapping>() {
                        let mut entries = Vec::new();
                        for (k, item) in map.items()?.iter().enumerate() {
                            entries.push(pair(&item, k)?);
                        }
                        SearchParams::from_record(entries)
                    } else {
                        let iter = PyIterator::from_object(i).map_err(|_| {
                            PyTypeError::new_err(
                                "URLSearchParams() takes a str, a mapping or an iterable of pairs",
                            )
                        })?;
                        let mut pairs = Vec::new();
                        for (k, item) in iter.enumerate() {
                            pairs.push(pair(&item?, k)?);
                        }
                        SearchParams::from_pairs(pairs)
                    }
                }
            };
            Ok(PySearchParams {
                owner: Owner::Own(list),
            })
        })
    }

    /// Appends a pair.
    fn append(
        &mut self,
        py: Python<'_>,
        name: &Bound<'_, PyString>,
        value: &Bound<'_, PyString>,
    ) -> PyResult<()> {
        let (name, value) = (usv(name)?, usv(value)?);
        self.write(py, |l| l.append(&name, &value));
        Ok(())
    }

    /// Removes every pair named `name` (whose value is `value`, when given).
    #[pyo3(signature = (name, value=None))]
    fn delete(
        &mut self,
        py: Python<'_>,
        name: &Bound<'_, PyString>,
        value: Option<&Bound<'_, PyString>>,
    ) -> PyResult<()> {
        let name = usv(name)?;
        let value = value.map(usv).transpose()?;
        self.write(py, |l| l.delete(&name, value.as_deref()));
        Ok(())
    }

    /// The value of the first pair named `name`, or `None`.
    fn get(&self, py: Python<'_>, name: &Bound<'_, PyString>) -> PyResult<Option<String>> {
        let name = usv(name)?;
        Ok(self.read(py, |l| l.get(&name).map(str::to_owned)))
    }

    /// The values of every pair named `name`, in order.
    fn get_all(&self, py: Python<'_>, name: &Bound<'_, PyString>) -> PyResult<Vec<String>> {
        let name = usv(name)?;
        Ok(self.read(py, |l| {
            l.get_all(&name).into_iter().map(str::to_owned).collect()
        }))
    }

    /// Whether a pair named `name` (with value `value`, when given) exists.
    #[pyo3(signature = (name, value=None))]
    fn has(
        &self,
        py: Python<'_>,
        name: &Bound<'_, PyString>,
        value: Option<&Bound<'_, PyString>>,
    ) -> PyResult<bool> {
        let name = usv(name)?;
        let value = value.map(usv).transpose()?;
        Ok(self.read(py, |l| l.has(&name, value.as_deref())))
    }

    /// Sets the first pair named `name` to `value` and removes the others (or appends).
    fn set(
        &mut self,
        py: Python<'_>,
        name: &Bound<'_, PyString>,
        value: &Bound<'_, PyString>,
    ) -> PyResult<()> {
        let (name, value) = (usv(name)?, usv(value)?);
        self.write(py, |l| l.set(&name, &value));
        Ok(())
    }

    /// Sorts the pairs by name (stable, by UTF-16 code units as the Standard says).
    fn sort(&mut self, py: Python<'_>) {
        self.write(py, SearchParams::sort);
    }

    /// The number of pairs.
    #[getter]
    fn size(&self, py: Python<'_>) -> usize {
        self.read(py, SearchParams::len)
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.size(py)
    }

    /// Whether a pair named `name` exists.
    fn __contains__(&self, py: Python<'_>, name: &Bound<'_, PyString>) -> PyResult<bool> {
        self.has(py, name, None)
    }

    /// The (name, value) pairs, in order.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        PyList::new(py, self.pairs(py))?.try_iter()
    }

    /// The (name, value) pairs, as a list.
    fn items(&self, py: Python<'_>) -> Vec<(String, String)> {
        self.pairs(py)
    }

    /// The names, in order (repeated names repeat).
    fn keys(&self, py: Python<'_>) -> Vec<String> {
        self.pairs(py).into_iter().map(|(k, _)| k).collect()
    }

    /// The values, in order.
    fn values(&self, py: Python<'_>) -> Vec<String> {
        self.pairs(py).into_iter().map(|(_, v)| v).collect()
    }

    fn __str__(&self, py: Python<'_>) -> String {
        self.read(py, |l| l.to_string())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let text = self.read(py, |l| l.to_string());
        Ok(format!(
            "URLSearchParams({})",
            PyString::new(py, &text).repr()?
        ))
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        match other.cast::<PySearchParams>() {
            Ok(o) => {
                let equal = self.pairs(py) == o.borrow().pairs(py);
                equal
                    .into_pyobject(py)
                    .map(|b| b.to_owned().into_any().unbind())
                    .unwrap_or_else(|_| py.NotImplemented())
            }
            Err(_) => py.NotImplemented(),
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let pairs = slf.borrow().pairs(py);
        PyTuple::new(
            py,
            [
                slf.get_type().into_any(),
                PyTuple::new(py, [PyList::new(py, pairs)?])?.into_any(),
            ],
        )
    }
}
