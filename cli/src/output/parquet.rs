//! Writing rows as Parquet: each worker builds an Arrow record batch per input batch
//! (passed-through columns, then one nullable string column per field); the collector
//! gathers the batches, in input order, into row groups of [`ROW_GROUP_ROWS`] rows (or
//! [`ROW_GROUP_BYTES`]) and hands each row group to the worker pool, where its
//! columns are encoded and compressed in parallel ([`ParquetFile`]); the encoded row
//! groups are written in order. With no pool (no thread could be started), each row
//! group is encoded where it is written, one column after the other: the same file. At most [`PENDING_GROUPS`] row groups, of at most
//! [`PENDING_BYTES`] together, wait to be written, so memory stays bounded.

use std::collections::VecDeque;
use std::io::Write;
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{ArrayRef, RecordBatch, UInt32Array};
use arrow_schema::{DataType, Field as ArrowField, Schema, SchemaRef};
use clap::ValueEnum;
use crossbeam_channel::{Receiver, bounded};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{
    ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves,
};
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use rapidurl::UrlRef;

use crate::input::rows::RowError;
use crate::input::table::Cell;
use crate::output::{Column, ERROR_COLUMN};

/// Rows in a row group (the last one of a file may have fewer, and one whose rows
/// reach [`ROW_GROUP_BYTES`] first).
pub const ROW_GROUP_ROWS: usize = 256 * 1024;
/// The most bytes of Arrow data a row group gathers before it is encoded.
pub const ROW_GROUP_BYTES: usize = 32 * 1024 * 1024;
/// Row groups that may be encoding or waiting to be written (each is split into one task
/// per column, so a few keep every thread busy; more would only hold memory).
pub const PENDING_GROUPS: usize = 4;
/// The most bytes of Arrow data the pending row groups may hold (a row group of many
/// wide columns counts for more than one of three narrow ones).
pub const PENDING_BYTES: usize = 64 * 1024 * 1024;

/// How the pages of a Parquet output are compressed (`--compression`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Codec {
    /// Zstandard (the default; `--compression-level` 1 to 22, default 3).
    Zstd,
    /// Snappy: faster, larger files.
    Snappy,
    /// LZ4 (the `LZ4_RAW` codec of the Parquet format).
    Lz4,
    /// No compression.
    None,
}

impl Codec {
    /// The `parquet` crate's compression for this codec at `level` (zstd only: an error
    /// for a level out of range, or a level given to another codec).
    pub fn compression(self, level: Option<i32>) -> Result<Compression, String> {
        match (self, level) {
            (Codec::Zstd, level) => {
                let level = level.unwrap_or(DEFAULT_ZSTD_LEVEL);
                ZstdLevel::try_new(level)
                    .map(Compression::ZSTD)
                    .map_err(|_| format!("--compression-level {level}: zstd levels are 1 to 22"))
            }
            (other, Some(_)) => Err(format!(
                "--compression-level applies to zstd only, not to {}",
                other
                    .to_possible_value()
                    .map_or("this codec".to_owned(), |v| v.get_name().to_owned())
            )),
            (Codec::Snappy, None) => Ok(Compression::SNAPPY),
            (Codec::Lz4, None) => Ok(Compression::LZ4_RAW),
            (Codec::None, None) => Ok(Compression::UNCOMPRESSED),
        }
    }
}

/// The zstd level when none is given.
pub const DEFAULT_ZSTD_LEVEL: i32 = 3;

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

/// The writer's properties: `compression`, statistics per page, and dictionary
/// encoding for every column: a column chunk starts with a dictionary of its values and
/// falls back to plain pages once the dictionary outgrows a page, so a column whose
/// values repeat (hosts, domains, schemes, and the paths of a log) is stored once per
/// value and one that does not costs the lookups until the fallback.
fn properties(compression: Compression) -> WriterProperties {
    WriterProperties::builder()
        .set_compression(compression)
        .set_dictionary_enabled(true)
        .set_statistics_enabled(EnabledStatistics::Page)
        .set_max_row_group_row_count(None)
        .build()
}

/// A Parquet file being written: record batches in, row groups encoded on the pool, in
/// parallel (one task a column), written in input order.
pub struct ParquetFile {
    file: SerializedFileWriter<Box<dyn Write + Send>>,
    factory: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    /// `None`: row groups are encoded on the calling thread.
    pool: Option<Arc<rayon::ThreadPool>>,
    /// Batches of the row group being gathered, its rows and its bytes.
    gathered: Vec<RecordBatch>,
    rows: usize,
    bytes: usize,
    /// Row groups being encoded, in order, with their bytes of Arrow data.
    pending: VecDeque<(
        Receiver<parquet::errors::Result<Vec<ArrowColumnChunk>>>,
        usize,
    )>,
    /// The bytes of the pending row groups.
    pending_bytes: usize,
    /// Row groups handed to the pool so far.
    groups: usize,
}

impl ParquetFile {
    /// Starts a Parquet file of `schema` on `out`, compressed with `compression`, its
    /// row groups encoded on `pool` (on the calling thread when `None`).
    pub fn new(
        out: Box<dyn Write + Send>,
        schema: SchemaRef,
        compression: Compression,
        pool: Option<Arc<rayon::ThreadPool>>,
    ) -> Result<ParquetFile, String> {
        let props = properties(compression);
        let (file, factory) = ArrowWriter::try_new(out, schema.clone(), Some(props))
            .and_then(ArrowWriter::into_serialized_writer)
            .map_err(|e| e.to_string())?;
        Ok(ParquetFile {
            file,
            factory,
            schema,
            pool,
            gathered: Vec::new(),
            rows: 0,
            bytes: 0,
            pending: VecDeque::new(),
            pending_bytes: 0,
            groups: 0,
        })
    }

    /// Adds `batch`'s rows (after every batch before it).
    pub fn write(&mut self, batch: RecordBatch) -> parquet::errors::Result<()> {
        let mut batch = batch;
        while batch.num_rows() > 0 {
            // A row group holds ROW_GROUP_ROWS rows, whatever the batches' sizes (slices
            // share the batch's buffers).
            let take = batch.num_rows().min(ROW_GROUP_ROWS - self.rows);
            let part = batch.slice(0, take);
            batch = batch.slice(take, batch.num_rows() - take);
            self.rows += take;
            self.bytes += data_bytes(&part);
            self.gathered.push(part);
            if self.rows >= ROW_GROUP_ROWS || self.bytes >= ROW_GROUP_BYTES {
                self.encode_gathered()?;
            }
        }
        // Row groups done are written as soon as they are next in order.
        while let Some((front, bytes)) = self.pending.front() {
            match front.try_recv() {
                Ok(chunks) => {
                    self.pending_bytes -= *bytes;
                    self.pending.pop_front();
                    self.append(chunks)?;
                }
                Err(_) => break,
            }
        }
        Ok(())
    }

    /// Hands the gathered batches to the pool as one row group; waits for the oldest row
    /// group first when too many are pending.
    fn encode_gathered(&mut self) -> parquet::errors::Result<()> {
        if self.gathered.is_empty() {
            return Ok(());
        }
        while self.pending.len() >= PENDING_GROUPS
            || (!self.pending.is_empty() && self.pending_bytes + self.bytes > PENDING_BYTES)
        {
            self.write_oldest()?;
        }
        let writers = self.factory.create_column_writers(self.groups)?;
        self.groups += 1;
        let batches = std::mem::take(&mut self.gathered);
        let bytes = self.bytes;
        (self.rows, self.bytes) = (0, 0);
        let schema = self.schema.clone();
        let (tx, rx) = bounded(1);
        match &self.pool {
            Some(pool) => pool.spawn(move || {
                let _ = tx.send(encode_group(&schema, writers, &batches, false));
            }),
            // Encoded now; written when its turn comes, as from the pool.
            None => {
                let _ = tx.send(encode_group(&schema, writers, &batches, true));
            }
        }
        self.pending.push_back((rx, bytes));
        self.pending_bytes += bytes;
        Ok(())
    }

    /// Waits for the oldest pending row group and writes it.
    fn write_oldest(&mut self) -> parquet::errors::Result<()> {
        let Some((rx, bytes)) = self.pending.pop_front() else {
            return Ok(());
        };
        self.pending_bytes -= bytes;
        let chunks = rx
            .recv()
            .map_err(|_| ParquetError::General("a row group's encoding task died".to_owned()))?;
        self.append(chunks)
    }

    /// Writes an encoded row group.
    fn append(
        &mut self,
        chunks: parquet::errors::Result<Vec<ArrowColumnChunk>>,
    ) -> parquet::errors::Result<()> {
        let mut group = self.file.next_row_group()?;
        for chunk in chunks? {
            chunk.append_to_row_group(&mut group)?;
        }
        group.close()?;
        Ok(())
    }

    /// Waits for the row groups being encoded and writes them (the input has nothing
    /// more for now: what was encoded is not left waiting for the next rows).
    pub fn write_pending(&mut self) -> parquet::errors::Result<()> {
        while !self.pending.is_empty() {
            self.write_oldest()?;
        }
        Ok(())
    }

    /// Encodes what is gathered, writes every row group in order, then the footer.
    pub fn close(mut self) -> parquet::errors::Result<()> {
        self.encode_gathered()?;
        self.write_pending()?;
        self.file.close()?;
        Ok(())
    }
}

/// The bytes of Arrow data `batch` covers (a slice counts its own rows, not its
/// buffers' whole capacity).
fn data_bytes(batch: &RecordBatch) -> usize {
    batch
        .columns()
        .iter()
        .map(|c| {
            c.to_data()
                .get_slice_memory_size()
                .unwrap_or_else(|_| c.get_array_memory_size())
        })
        .sum()
}

/// Encodes one row group of `batches`: the column writers of each top-level field (one
/// per leaf column) run as one task, the tasks in parallel on the current pool (one
/// after the other on the calling thread when `here`).
fn encode_group(
    schema: &SchemaRef,
    writers: Vec<ArrowColumnWriter>,
    batches: &[RecordBatch],
    here: bool,
) -> parquet::errors::Result<Vec<ArrowColumnChunk>> {
    use rayon::prelude::*;
    // Which writers belong to which field: as many as the field has leaves.
    let mut writers = writers.into_iter();
    let mut fields: Vec<(usize, Vec<ArrowColumnWriter>)> = Vec::new();
    for (i, field) in schema.fields().iter().enumerate() {
        let leaves = match batches.first() {
            Some(b) => compute_leaves(field, b.column(i))?.len(),
            None => 0,
        };
        fields.push((i, writers.by_ref().take(leaves).collect()));
    }
    let encode = |(i, mut writers): (usize, Vec<ArrowColumnWriter>)| {
        let field = schema.field(i);
        for batch in batches {
            let leaves = compute_leaves(field, batch.column(i))?;
            for (writer, leaf) in writers.iter_mut().zip(&leaves) {
                writer.write(leaf)?;
            }
        }
        writers
            .into_iter()
            .map(ArrowColumnWriter::close)
            .collect::<parquet::errors::Result<Vec<_>>>()
    };
    let encoded: Vec<Vec<ArrowColumnChunk>> = match here {
        true => fields
            .into_iter()
            .map(encode)
            .collect::<parquet::errors::Result<_>>()?,
        false => fields
            .into_par_iter()
            .map(encode)
            .collect::<parquet::errors::Result<_>>()?,
    };
    Ok(encoded.into_iter().flatten().collect())
}

/// Opens the `parquet` crate's own writer on `out` (one thread; for tests that compare
/// with it).
#[allow(dead_code)]
pub fn writer(
    out: Box<dyn Write + Send>,
    schema: SchemaRef,
) -> Result<ArrowWriter<Box<dyn Write + Send>>, String> {
    let props = properties(Compression::SNAPPY);
    ArrowWriter::try_new(out, schema, Some(props)).map_err(|e| e.to_string())
}
