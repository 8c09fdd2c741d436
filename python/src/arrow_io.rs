//! The Arrow PyCapsule interface, both ways: columns in from any object exposing
//! `__arrow_c_stream__` or `__arrow_c_array__` (pyarrow, Polars, pandas with Arrow dtypes,
//! DuckDB, DataFusion…), a table out through `__arrow_c_stream__`.
//!
//! Imports go through `pyo3-arrow`, whose C-data import wraps the producer's buffers (read
//! in place, no copy) and calls the producer's release callback when the last reference
//! goes; this crate holds no `unsafe` code. `arrow-pyarrow` was not enough: its stream
//! import accepts struct streams (tables) only, while a pyarrow `ChunkedArray`, a Polars
//! `Series` and a pandas `Series` export streams of plain string arrays.

use std::ffi::CStr;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{ArrayRef, RecordBatch, RecordBatchIterator};
use arrow_schema::SchemaRef;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict, PyList};
use pyo3_arrow::{PyArray, PyChunkedArray};

const STREAM: &CStr = c"arrow_array_stream";

/// The arrays of `obj`, in order, when it exposes the Arrow PyCapsule interface; `None`
/// when it exposes neither method.
pub fn import_arrays(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<ArrayRef>>> {
    if obj.hasattr("__arrow_c_stream__")? {
        let (chunks, _field) = obj.extract::<PyChunkedArray>()?.into_inner();
        return Ok(Some(chunks));
    }
    if obj.hasattr("__arrow_c_array__")? {
        let (array, _field) = obj.extract::<PyArray>()?.into_inner();
        return Ok(Some(vec![array]));
    }
    Ok(None)
}

/// Record batches that can be exported again and again through `__arrow_c_stream__`;
/// what `parse_column` returns (the Python wrapper turns it into a `pyarrow.Table` when
/// pyarrow is installed).
#[pyclass(module = "rapidurl", name = "ArrowTable", frozen)]
pub struct ArrowTable {
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
}

impl ArrowTable {
    pub fn new(schema: SchemaRef, batches: Vec<RecordBatch>) -> Self {
        ArrowTable { schema, batches }
    }
}

#[pymethods]
impl ArrowTable {
    /// The Arrow PyCapsule interface: a stream of the table's record batches.
    /// `requested_schema` is accepted and ignored (the columns are utf8, or string_view
    /// with `output="view"`).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader = RecordBatchIterator::new(
            self.batches.clone().into_iter().map(Ok),
            self.schema.clone(),
        );
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, STREAM)
    }

    /// The column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.schema
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }

    /// The number of rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batches.iter().map(RecordBatch::num_rows).sum()
    }

    fn __len__(&self) -> usize {
        self.num_rows()
    }

    /// The table as a dict of lists of `str` or `None`, for use without pyarrow.
    fn to_pydict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (c, field) in self.schema.fields().iter().enumerate() {
            let list = PyList::empty(py);
            for batch in &self.batches {
                let column = batch.column(c).as_any();
                if let Some(strings) = column.downcast_ref::<arrow_array::StringArray>() {
                    for value in strings.iter() {
                        list.append(value)?;
                    }
                } else if let Some(views) = column.downcast_ref::<arrow_array::StringViewArray>() {
                    for value in views.iter() {
                        list.append(value)?;
                    }
                } else {
                    return Err(PyTypeError::new_err("column is not utf8 or string_view"));
                }
            }
            dict.set_item(field.name(), list)?;
        }
        Ok(dict)
    }

    fn __repr__(&self) -> String {
        format!(
            "ArrowTable(rows={}, columns={:?})",
            self.num_rows(),
            self.column_names()
        )
    }
}
