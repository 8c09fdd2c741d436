//! `rapidurl._rapidurl`: the extension module behind the Python package `rapidurl`.
//!
//! - `url`: `URL` and `URLSearchParams`, the URL API over `rapidurl::Url`;
//! - `pattern`: `URLPattern` and `PatternError`, the URL Pattern Standard's matcher;
//! - `column` and `arrow_io`: `parse_column`, Arrow columns in and out, parsed in
//!   parallel with the GIL released;
//! - `polars_plugin`: the same engine as a Polars expression plugin (`rapidurl.polars`).
//!
//! Every entry point turns a Rust panic into a Python `RuntimeError` (never an abort, and
//! never pyo3's `PanicException`, which `except Exception` does not catch).

// The project keeps `unsafe` in the library's src/scan/; the Arrow import goes through
// pyo3-arrow (arrow_io.rs). The one exception is the Polars plugin ABI (polars_plugin.rs),
// where Polars hands raw pointers across a C ABI.
#![deny(unsafe_code)]

mod arrow_io;
mod canon;
mod column;
mod pattern;
mod polars_plugin;
mod url;

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex};

use arrow_array::ArrayRef;
use arrow_array::builder::StringBuilder;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use rapidurl::field::Field;

use crate::arrow_io::{ArrowTable, import_arrays};
use crate::column::{Base, Column, ColumnError, Strings};

pyo3::create_exception!(
    rapidurl,
    ParseError,
    pyo3::exceptions::PyValueError,
    "A URL that could not be parsed (a ValueError).\n\n`name` is the URL Standard's \
     validation-error name (e.g. 'port-out-of-range'); `offset` is the index in the input \
     str where the problem was found, or None."
);

/// The input as a Rust string, as the URL API's USVString conversion does: a lone
/// surrogate (which a Python `str` can hold) becomes one U+FFFD.
pub(crate) fn usv<'a>(s: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, str>> {
    match s.to_cow() {
        Ok(text) => Ok(text),
        Err(_) => {
            let encoded = s.call_method1("encode", ("utf-16-le", "surrogatepass"))?;
            let bytes = encoded.cast::<PyBytes>()?.as_bytes();
            let units: Vec<u16> = bytes
                .chunks_exact(2)
                .map(|p| u16::from_le_bytes([p[0], p[1]]))
                .collect();
            Ok(std::borrow::Cow::Owned(String::from_utf16_lossy(&units)))
        }
    }
}

/// A Python `ParseError` for `err`, found while parsing `input`: the offset is turned
/// from a byte offset into an index in the `str` (one per code point).
pub(crate) fn parse_error(err: &rapidurl::ParseError, input: &str) -> PyErr {
    Python::attach(|py| {
        let offset = err.offset().map(|o| {
            let o = o.min(input.len());
            input.char_indices().take_while(|&(i, _)| i < o).count()
        });
        let message = match offset {
            Some(o) => format!("{} at index {o}: {}", err.name(), err.kind().description()),
            None => format!("{}: {}", err.name(), err.kind().description()),
        };
        let exc = ParseError::new_err(message);
        let value = exc.value(py);
        // Setting attributes on a fresh exception instance cannot fail short of memory.
        let _ = value.setattr("name", err.name());
        let _ = value.setattr("offset", offset);
        exc
    })
}

/// The message a panic was raised with (empty when it is not text).
pub(crate) fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

/// Runs `f`, turning a panic into a `RuntimeError`.
pub(crate) fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(PyRuntimeError::new_err(format!(
            "rapidurl internal error (please report it): {}",
            panic_text(payload.as_ref())
        ))),
    }
}

/// Whether `url` parses, against `base` if given (`URL.canParse`).
#[pyfunction]
#[pyo3(signature = (url, base=None))]
fn can_parse(url: &Bound<'_, PyString>, base: Option<&Bound<'_, PyString>>) -> PyResult<bool> {
    guard(|| {
        let input = usv(url)?;
        // `URL.canParse`: the base string is parsed first, and one that fails gives false.
        Ok(match base.map(usv).transpose()? {
            None => rapidurl::can_parse(&input),
            Some(base) => rapidurl::Url::parse(&base)
                .is_ok_and(|base| rapidurl::can_parse_with_base(&input, &base)),
        })
    })
}

/// Where a bulk call parses: `threads=None` or `0` on rayon's global pool (every core),
/// as the tool's `--threads 0`; `1` on the calling thread; `N` on a pool of `N` threads
/// (one pool per `N`, started once) while the calling thread waits. Where no thread can
/// be started (a process or `pids` cgroup limit, a sandbox), the call parses on the
/// calling thread, with the same results: a pool that cannot start is not kept, and the
/// next call tries again; the global pool, which rayon starts once per process, then
/// stays unstarted (`rapidurl::batch::engine::threads`).
pub(crate) enum Workers {
    /// Rayon's global pool (the engine parses on the calling thread if it cannot start).
    Global,
    /// A pool of its own.
    Pool(Arc<rayon::ThreadPool>),
    /// The calling thread alone.
    Here,
}

impl Workers {
    /// The workers for `threads`.
    pub(crate) fn new(threads: Option<usize>) -> Workers {
        match threads {
            None | Some(0) => Workers::Global,
            Some(1) => Workers::Here,
            Some(n) => Workers::pool(n),
        }
    }

    /// A pool of `n` threads (started once per `n`), or the calling thread when no
    /// thread can be started.
    pub(crate) fn pool(n: usize) -> Workers {
        static POOLS: Mutex<Option<HashMap<usize, Arc<rayon::ThreadPool>>>> = Mutex::new(None);
        let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
        let pools = pools.get_or_insert_with(HashMap::new);
        if let Some(p) = pools.get(&n) {
            return Workers::Pool(p.clone());
        }
        match rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("rapidurl-{i}"))
            .build()
        {
            Ok(p) => {
                let p = Arc::new(p);
                pools.insert(n, p.clone());
                Workers::Pool(p)
            }
            // No thread can be started: this call parses where it is.
            Err(_) => Workers::Here,
        }
    }

    /// Whether the call parses on the calling thread alone (`engine::run_here`).
    pub(crate) fn here(&self) -> bool {
        matches!(self, Workers::Here)
    }

    /// Runs `f` on the pool, or on the calling thread (which uses the global pool, if
    /// any, from there).
    pub(crate) fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match self {
            Workers::Pool(p) => p.install(f),
            Workers::Global | Workers::Here => f(),
        }
    }
}

/// A column from `obj`: the Arrow PyCapsule interface when it has it, else a sequence of
/// `str` or `None` (copied into an Arrow array with the GIL held).
fn column(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Column> {
    let arrays: Vec<ArrayRef> = match import_arrays(obj)? {
        Some(arrays) => arrays,
        None => {
            if obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyBytes>() {
                return Err(PyTypeError::new_err(format!(
                    "{what} must be a column (an Arrow array, Series…) or a sequence of str, \
                     not a single {}",
                    obj.get_type().name()?
                )));
            }
            let mut builder = StringBuilder::new();
            let items = obj.try_iter().map_err(|_| {
                PyTypeError::new_err(format!(
                    "{what} must be a column (an Arrow array, Series…) or a sequence of str, not {}",
                    obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
                ))
            })?;
            for (row, item) in items.enumerate() {
                let item = item?;
                if item.is_none() {
                    builder.append_null();
                } else if let Ok(s) = item.cast::<PyString>() {
                    builder.append_value(usv(s)?);
                } else {
                    return Err(PyTypeError::new_err(format!(
                        "{what}: row {row} is {}, expected str or None",
                        item.get_type().name()?
                    )));
                }
            }
            vec![Arc::new(builder.finish())]
        }
    };
    let strings = arrays
        .iter()
        .map(|a| Strings::new(a).map_err(|e| PyTypeError::new_err(format!("{what}: {e}"))))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(Column::new(strings))
}

/// The fields by name (`Field::from_str`, so every field the library defines). A name
/// is a column's name, which the Arrow C interface holds as a C string: one with a NUL
/// (`param:a\0b`) is refused here, not by the Arrow consumer.
fn fields(names: Option<Vec<String>>) -> PyResult<Vec<Field>> {
    match names {
        None => Ok(Field::DEFAULT.to_vec()),
        Some(names) => names
            .iter()
            .map(|n| {
                if n.contains('\0') {
                    return Err(PyValueError::new_err(format!(
                        "the field name {n:?} holds a NUL character, which an Arrow column name cannot"
                    )));
                }
                n.parse::<Field>()
                    .map_err(|e| PyValueError::new_err(e.to_string()))
            })
            .collect(),
    }
}

/// The engine of `rapidurl.parse_column` (the Python wrapper documents it and turns the
/// result into a `pyarrow.Table` when pyarrow is installed).
#[pyfunction]
#[pyo3(signature = (urls, fields=None, *, base=None, threads=None, routes=None, routes_base=None, output="utf8"))]
#[allow(clippy::too_many_arguments)]
fn parse_column(
    py: Python<'_>,
    urls: &Bound<'_, PyAny>,
    fields: Option<Vec<String>>,
    base: Option<&Bound<'_, PyAny>>,
    threads: Option<usize>,
    routes: Option<&Bound<'_, PyAny>>,
    routes_base: Option<String>,
    output: &str,
) -> PyResult<ArrowTable> {
    guard(|| {
        let layout = match output {
            "utf8" => column::Layout::Utf8,
            "view" => column::Layout::View,
            other => {
                return Err(PyValueError::new_err(format!(
                    "output must be \"utf8\" or \"view\", not {other:?}"
                )));
            }
        };
        let fields = self::fields(fields)?;
        let routes = pattern::route_table(routes, routes_base.as_deref(), &fields)?;
        // `threads=1` starts no pool (it works where no thread can be, as under qemu-user);
        // other counts fall back to the calling thread where no thread can start.
        let workers = Workers::new(threads);
        let here = workers.here();
        let input = column(urls, "urls")?;
        let base = match base {
            None => Base::None,
            Some(b) if b.is_none() => Base::None,
            Some(b) => match b.cast::<PyString>() {
                Ok(s) => {
                    let text = usv(s)?;
                    let url = rapidurl::Url::parse(&text).map_err(|e| {
                        let err = parse_error(&e, &text);
                        let inner = err
                            .value(py)
                            .str()
                            .map(|s| s.to_string())
                            .unwrap_or_default();
                        let exc = ParseError::new_err(format!(
                            "base-URL-invalid: the base URL could not be parsed ({inner})"
                        ));
                        let _ = exc.value(py).setattr("name", "base-URL-invalid");
                        let _ = exc.value(py).setattr("offset", py.None());
                        exc
                    })?;
                    Base::One(url)
                }
                Err(_) => {
                    let bases = column(b, "base")?;
                    if bases.len() != input.len() {
                        return Err(PyValueError::new_err(format!(
                            "base has {} rows, urls has {}",
                            bases.len(),
                            input.len()
                        )));
                    }
                    Base::PerRow(bases)
                }
            },
        };
        let schema = column::schema(&fields, layout);
        let result = py.detach(|| {
            catch_unwind(AssertUnwindSafe(|| {
                let parse = || {
                    column::parse(
                        &input,
                        &base,
                        &fields,
                        &schema,
                        routes.as_ref(),
                        here,
                        layout,
                    )
                };
                workers.run(parse)
            }))
        });
        let batches = match result {
            Ok(Ok(batches)) => batches,
            Ok(Err(ColumnError::TooLarge)) => {
                return Err(PyValueError::new_err(
                    "an output column would exceed 2 GiB (utf8: its 32-bit offsets) or 4 GiB \
                     (string_view: its own buffer) in one Arrow batch",
                ));
            }
            Ok(Err(ColumnError::Arrow(e))) => return Err(PyRuntimeError::new_err(e)),
            Err(payload) => std::panic::resume_unwind(payload),
        };
        Ok(ArrowTable::new(schema, batches))
    })
}

/// The Rust batch API alone, for python/bench/bench.py: `rapidurl::batch::parse_lines`
/// over newline-separated bytes on `threads` threads (GIL released); the number of valid
/// rows.
#[pyfunction]
#[pyo3(signature = (data, threads=None))]
fn _batch_parse_lines(py: Python<'_>, data: &[u8], threads: Option<usize>) -> PyResult<usize> {
    // `parse_lines` runs on the current pool: one thread is a pool of one.
    let workers = match threads {
        Some(n) if n > 0 => Workers::pool(n),
        _ => Workers::Global,
    };
    guard(|| {
        Ok(py.detach(|| {
            workers.run(|| {
                let column = rapidurl::batch::parse_lines(data);
                column.len() - column.error_count()
            })
        }))
    })
}

/// The lines of some bytes held on the Rust side, for python/bench/bench.py's anchor:
/// a `parse_ref` loop over them is the parser alone, as `rapidurl bench` times it (the
/// lines split beforehand, one arena).
#[pyclass(frozen)]
struct _Lines {
    lines: Vec<String>,
}

#[pymethods]
impl _Lines {
    /// The lines of `data` (a trailing `\r` removed, invalid UTF-8 replaced, no row after
    /// a last line feed).
    #[new]
    fn new(data: &[u8]) -> Self {
        let data = data.strip_suffix(b"\n").unwrap_or(data);
        let lines = data
            .split(|&b| b == b'\n')
            .map(|l| String::from_utf8_lossy(l.strip_suffix(b"\r").unwrap_or(l)).into_owned())
            .collect();
        _Lines { lines }
    }

    /// `rapidurl::parse_ref` over every line (GIL released); the total length of the
    /// valid rows' `href`, so that nothing is left unused.
    fn parse_ref_loop(&self, py: Python<'_>) -> usize {
        py.detach(|| {
            let arena = rapidurl::bumpalo::Bump::new();
            let mut n = 0usize;
            for line in &self.lines {
                if let Ok(url) = rapidurl::parse_ref(line, &arena) {
                    n += url.href().len();
                }
            }
            n
        })
    }
}

/// Panics on purpose, so that the tests can check that a panic becomes a RuntimeError.
#[pyfunction]
fn _panic_for_tests() -> PyResult<()> {
    guard(|| panic!("a deliberate panic"))
}

/// The names of the URL API's fields (`Field::URL_API`) and of the fields `parse_column`
/// computes when none are named (`Field::DEFAULT`), as the library defines them.
#[pyfunction]
fn _field_names() -> (Vec<String>, Vec<String>) {
    let names = |fields: &[Field]| fields.iter().map(|f| f.name().into_owned()).collect();
    (names(&Field::URL_API), names(&Field::DEFAULT))
}

#[pymodule]
fn _rapidurl(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ParseError", m.py().get_type::<ParseError>())?;
    m.add_class::<url::PyUrl>()?;
    m.add_class::<url::PySearchParams>()?;
    m.add("PatternError", m.py().get_type::<pattern::PatternError>())?;
    m.add_class::<pattern::PyUrlPattern>()?;
    m.add_class::<ArrowTable>()?;
    m.add_function(wrap_pyfunction!(can_parse, m)?)?;
    m.add_function(wrap_pyfunction!(parse_column, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add_function(wrap_pyfunction!(_field_names, m)?)?;
    m.add_function(wrap_pyfunction!(_batch_parse_lines, m)?)?;
    m.add_class::<_Lines>()?;
    m.add_function(wrap_pyfunction!(canon::surt, m)?)?;
    m.add_function(wrap_pyfunction!(canon::canonicalize, m)?)?;
    m.add_function(wrap_pyfunction!(canon::_surt, m)?)?;
    m.add_function(wrap_pyfunction!(canon::_canonicalize_url, m)?)?;
    Ok(())
}
