//! Writing rows as Parquet: each worker builds an Arrow record batch per input batch
//! (passed-through columns, then one nullable string column per field), and the
//! collector writes them with the `parquet` crate's `ArrowWriter`, which closes a row group
//! every [`ROW_GROUP_ROWS`] rows (or [`ROW_GROUP_BYTES`]), so memory stays bounded.

use std::io::Write;
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{ArrayRef, RecordBatch, UInt32Array};
use arrow_schema::{DataType, Field as ArrowField, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use rapidurl::UrlRef;

use crate::input::rows::RowError;
use crate::input::table::Cell;
use crate::output::{Column, ERROR_COLUMN};

/// Rows per row group written.
pub const ROW_GROUP_ROWS: usize = 64 * 1024;
/// The most bytes a row group may buffer before it is written.
pub const ROW_GROUP_BYTES: usize = 64 * 1024 * 1024;

/// The output schema: `pass` (the passed-through columns' Arrow fields), then a nullable
/// string column per column, then `error` with `error_auto`.
pub fn schema(pass: Vec<ArrowField>, columns: &[Column], error_auto: bool) -> SchemaRef {
    let mut fields = pass;
    fields.extend(
        columns
            .iter()
            .map(|c| ArrowField::new(c.name(), DataType::Utf8, true)),
    );
    if error_auto {
        fields.push(ArrowField::new(ERROR_COLUMN, DataType::Utf8, true));
    }
    Arc::new(Schema::new(fields))
}

/// One batch's rows as Arrow columns.
pub struct ArrowRows {
    columns: Vec<Column>,
    error_auto: bool,
    /// One per column, then the automatic `error` column.
    builders: Vec<StringBuilder>,
    /// The passed-through columns when they come as cells (text inputs).
    pass: Vec<StringBuilder>,
    /// The input rows written, when passed-through columns come as Arrow arrays.
    kept: Vec<u32>,
}

impl ArrowRows {
    /// Builders for `columns` (and `error` with `error_auto`) and `pass_cells`
    /// passed-through cells.
    pub fn new(columns: Vec<Column>, error_auto: bool, pass_cells: usize) -> ArrowRows {
        let n = columns.len() + usize::from(error_auto);
        ArrowRows {
            columns,
            error_auto,
            builders: (0..n).map(|_| StringBuilder::new()).collect(),
            pass: (0..pass_cells).map(|_| StringBuilder::new()).collect(),
            kept: Vec::new(),
        }
    }

    fn cells(&mut self, index: usize, cells: &[Cell<'_>]) {
        self.kept.push(index as u32);
        for (builder, cell) in self.pass.iter_mut().zip(cells) {
            match cell {
                Cell::Null => builder.append_null(),
                _ => builder.append_value(cell.text()),
            }
        }
    }

    /// Adds the row of a parsed URL (row `index` of the input batch); `cx` is the
    /// context of the fields' values.
    pub fn url_row(
        &mut self,
        index: usize,
        cells: &[Cell<'_>],
        input: &str,
        url: &UrlRef<'_>,
        cx: &rapidurl::field::FieldContext<'_>,
    ) {
        self.cells(index, cells);
        for (builder, column) in self.builders.iter_mut().zip(&self.columns) {
            match column {
                Column::Field(f) => builder.append_option(f.value_with(url, cx)),
                Column::Input => builder.append_value(input),
                Column::Error => builder.append_null(),
            }
        }
        if self.error_auto
            && let Some(b) = self.builders.last_mut()
        {
            b.append_null();
        }
    }

    /// Adds the row of a record without a URL.
    pub fn error_row(&mut self, index: usize, cells: &[Cell<'_>], input: &str, err: &RowError) {
        self.cells(index, cells);
        let text = err.to_string();
        for (builder, column) in self.builders.iter_mut().zip(&self.columns) {
            match column {
                Column::Field(_) => builder.append_null(),
                Column::Input => builder.append_value(input),
                Column::Error => builder.append_value(&text),
            }
        }
        if self.error_auto
            && let Some(b) = self.builders.last_mut()
        {
            b.append_value(&text);
        }
    }

    /// The record batch of the rows added, in `schema`; the passed-through columns are
    /// those built from cells, or, given `input` (a Parquet input's batch and the names
    /// of its columns that pass), those arrays, less the rows not written.
    pub fn finish(
        &mut self,
        schema: &SchemaRef,
        input: Option<(&RecordBatch, &[String])>,
    ) -> Result<RecordBatch, String> {
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(schema.fields().len());
        if let Some((batch, names)) = input {
            let all = self.kept.len() == batch.num_rows();
            let indices = UInt32Array::from(std::mem::take(&mut self.kept));
            for name in names {
                let array = batch
                    .column_by_name(name)
                    .ok_or_else(|| format!("no column {name:?}"))?;
                arrays.push(if all {
                    array.clone()
                } else {
                    arrow_select::take::take(array.as_ref(), &indices, None)
                        .map_err(|e| e.to_string())?
                });
            }
        } else {
            self.kept.clear();
            for b in &mut self.pass {
                arrays.push(Arc::new(b.finish()));
            }
        }
        for b in &mut self.builders {
            arrays.push(Arc::new(b.finish()));
        }
        RecordBatch::try_new(schema.clone(), arrays).map_err(|e| e.to_string())
    }
}

/// Opens the Parquet writer on `out`.
pub fn writer(
    out: Box<dyn Write + Send>,
    schema: SchemaRef,
) -> Result<ArrowWriter<Box<dyn Write + Send>>, String> {
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
        .set_max_row_group_bytes(Some(ROW_GROUP_BYTES))
        .build();
    ArrowWriter::try_new(out, schema, Some(props)).map_err(|e| e.to_string())
}
