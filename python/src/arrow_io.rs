//! The Arrow PyCapsule interface, both ways: columns in from any object exposing
//! `__arrow_c_stream__` or `__arrow_c_array__` (pyarrow, Polars, pandas with Arrow dtypes,
//! DuckDB, DataFusion…), a table out through `__arrow_c_stream__`.
//!
//! Imported buffers are read in place: `arrow-array`'s C-data import wraps the producer's
//! memory and calls the producer's release callback when the last reference goes.

use std::ffi::CStr;

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi};
use arrow_array::ffi_stream::{ArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{ArrayRef, RecordBatch, RecordBatchIterator, make_array};
use arrow_schema::SchemaRef;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict, PyList, PyTuple};

const STREAM: &CStr = c"arrow_array_stream";
const SCHEMA: &CStr = c"arrow_schema";
const ARRAY: &CStr = c"arrow_array";

/// The arrays of `obj`, in order, when it exposes the Arrow PyCapsule interface; `None`
/// when it exposes neither method.
pub fn import_arrays(obj: &Bound<'_, PyAny>) -> PyResult<Option<Vec<ArrayRef>>> {
    if obj.hasattr("__arrow_c_stream__")? {
        let capsule = obj.call_method0("__arrow_c_stream__")?;
        let capsule = capsule.cast::<PyCapsule>()?;
        let ptr = capsule.pointer_checked(Some(STREAM))?;
        // SAFETY: the PyCapsule interface says an `arrow_array_stream` capsule points to an
        // ArrowArrayStream struct, which `from_raw` moves out (leaving a released struct
        // behind for the capsule's destructor); the capsule outlives this call.
        let reader = unsafe { ArrayStreamReader::from_raw(ptr.cast().as_ptr()) }
            .map_err(|e| PyValueError::new_err(format!("Arrow stream: {e}")))?;
        let arrays = reader
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PyValueError::new_err(format!("Arrow stream: {e}")))?;
        return Ok(Some(arrays));
    }
    if obj.hasattr("__arrow_c_array__")? {
        let pair = obj.call_method0("__arrow_c_array__")?;
        let pair = pair.cast::<PyTuple>()?;
        if pair.len() != 2 {
            return Err(PyTypeError::new_err(
                "__arrow_c_array__ must return a (schema, array) pair of capsules",
            ));
        }
        let schema = pair.get_item(0)?;
        let array = pair.get_item(1)?;
        let schema_ptr = schema.cast::<PyCapsule>()?.pointer_checked(Some(SCHEMA))?;
        let array_ptr = array.cast::<PyCapsule>()?.pointer_checked(Some(ARRAY))?;
        // SAFETY: per the PyCapsule interface the two capsules point to an ArrowSchema and
        // an ArrowArray that describe each other. `from_raw` moves the array out (the
        // capsule keeps a released struct); the schema is only borrowed while both
        // capsules are alive.
        let data = unsafe {
            let array = FFI_ArrowArray::from_raw(array_ptr.cast().as_ptr());
            from_ffi(array, &*schema_ptr.cast::<FFI_ArrowSchema>().as_ptr())
        }
        .map_err(|e| PyValueError::new_err(format!("Arrow array: {e}")))?;
        return Ok(Some(vec![make_array(data)]));
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
    /// `requested_schema` is accepted and ignored (every column is utf8).
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
                let column = batch.column(c);
                let strings = column
                    .as_any()
                    .downcast_ref::<arrow_array::StringArray>()
                    .ok_or_else(|| PyTypeError::new_err("column is not utf8"))?;
                for value in strings.iter() {
                    list.append(value)?;
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
