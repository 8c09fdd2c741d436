//! `parse_column`'s engine: string columns in (Arrow arrays, read in place), one Arrow
//! utf8 column per field plus an `error` column out, parsed in parallel with no Python
//! object per row and the GIL released.
//!
//! Rows are split into small chunks with `rapidurl::batch::row_ranges_by` (rows weighed
//! by length, about 32 per thread), which the threads claim as
//! `rapidurl::batch::schedule` describes; each thread parses its chunks' rows with
//! `parse_ref` (zero-copy for canonical input, an arena for the rest) or
//! `parse_hostname`, and appends each field's value straight to that column's Arrow
//! values and offsets buffers (for the URL API's string attributes, through a plain
//! getter: one call and one copy a row). A run of consecutive chunks makes one output,
//! which becomes one record batch: nothing is concatenated, and a call returns about one
//! batch per thread. Errors are rare: they
//! are kept as a list of rows and become the `error` column when the output ends.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, GenericBinaryArray, LargeBinaryArray,
    OffsetSizeTrait, RecordBatch, StringArray,
};
use arrow_schema::{DataType, Field as ArrowField, Schema, SchemaRef};
use rapidurl::bumpalo::Bump;
use rapidurl::field::{Field, FieldContext};
use rapidurl::{ErrorKind, ParseError, Url, UrlRef};

use rapidurl::batch::schedule::{self as work, Threads, Work};

/// The name of the column that holds each invalid row's error name.
pub const ERROR_COLUMN: &str = "error";

/// The arena is emptied when it holds more than this after a row.
const ARENA_RESET_BYTES: usize = 1 << 20;

/// Chunks per thread: the unit a thread claims at a time, small enough that the threads
/// finish within a chunk of each other (outputs are per run of chunks, not per chunk).
const CHUNKS_PER_THREAD: usize = 32;
/// Bounds on a chunk's input bytes.
const MIN_CHUNK_BYTES: usize = 8 * 1024;
const MAX_CHUNK_BYTES: usize = 1 << 20;
/// An output (a record batch) is finished once a column holds this many bytes or it
/// holds this many rows, so that no batch comes near utf8's 2 GiB (a chunk's output is
/// far smaller), and its pre-sized buffers are bounded.
const FULL_BYTES: usize = 64 << 20;
const FULL_ROWS: usize = 1 << 24;

/// One imported array of strings, seen as bytes: its offsets (or views) have been
/// validated by `arrow-data`, so reading a row is safe; UTF-8 is checked here, per task.
pub enum Strings {
    /// utf8 or binary (32-bit offsets).
    Small(BinaryArray),
    /// large_utf8 or large_binary (64-bit offsets).
    Large(LargeBinaryArray),
    /// string_view or binary_view.
    View(BinaryViewArray),
    /// The null type: every row is null.
    Null(usize),
}

impl Strings {
    /// Wraps an imported array; `Err` names the type when it is not a string type, or
    /// the problem when its offsets or views do not fit its buffers (the C-data import
    /// does not check them). With `check_offsets` false, offsets (utf8, large_utf8,
    /// binary) are left to [`Strings::for_each`], which checks each task's own in
    /// parallel: the whole column is then never walked by one thread. Views are always
    /// checked here.
    pub fn new(array: &ArrayRef, check_offsets: bool) -> Result<Strings, String> {
        let data = array.to_data();
        let as_type = |dt: DataType| {
            // Rebuilding as binary validates offsets (or views) against the buffers;
            // UTF-8 is checked when the rows are read.
            data.clone()
                .into_builder()
                .data_type(dt)
                .build()
                .map_err(|e| format!("invalid Arrow string array: {e}"))
        };
        Ok(match array.data_type() {
            DataType::Utf8 | DataType::Binary if check_offsets => {
                Strings::Small(as_type(DataType::Binary)?.into())
            }
            DataType::LargeUtf8 | DataType::LargeBinary if check_offsets => {
                Strings::Large(as_type(DataType::LargeBinary)?.into())
            }
            // The same buffers seen as binary (no pass over them).
            DataType::Utf8 => Strings::Small(array.as_string::<i32>().clone().into()),
            DataType::Binary => Strings::Small(array.as_binary::<i32>().clone()),
            DataType::LargeUtf8 => Strings::Large(array.as_string::<i64>().clone().into()),
            DataType::LargeBinary => Strings::Large(array.as_binary::<i64>().clone()),
            DataType::Utf8View | DataType::BinaryView => {
                Strings::View(as_type(DataType::BinaryView)?.into())
            }
            DataType::Null => Strings::Null(array.len()),
            other => {
                return Err(format!(
                    "expected a column of strings (utf8, large_utf8 or string_view), got {other}"
                ));
            }
        })
    }

    pub fn len(&self) -> usize {
        match self {
            Strings::Small(a) => a.len(),
            Strings::Large(a) => a.len(),
            Strings::View(a) => a.len(),
            Strings::Null(n) => *n,
        }
    }

    /// The weight of the rows, as `rapidurl::batch::row_ranges` counts it: their bytes
    /// plus one per row.
    fn weight(&self) -> usize {
        match self {
            Strings::Small(a) => offset_weight(a, a.len()),
            Strings::Large(a) => offset_weight(a, a.len()),
            Strings::View(a) => a.views().iter().map(|&v| v as u32 as usize + 1).sum(),
            Strings::Null(n) => *n,
        }
    }

    /// The chunks' row ranges (`rapidurl::batch::row_ranges_by`: consecutive rows
    /// weighing `target` each).
    fn ranges(&self, target: usize) -> Vec<Range<usize>> {
        use rapidurl::batch::{row_ranges_by, row_ranges_cumulative_by};
        match self {
            Strings::Small(a) => row_ranges_cumulative_by(a.len(), target, |i| offset_weight(a, i)),
            Strings::Large(a) => row_ranges_cumulative_by(a.len(), target, |i| offset_weight(a, i)),
            Strings::View(a) => {
                // The low 32 bits of a view are the value's length.
                let v = a.views();
                row_ranges_by(a.len(), target, |i| v[i] as u32 as usize)
            }
            Strings::Null(n) => row_ranges_by(*n, target, |_| 0),
        }
    }

    /// The bytes of rows `range` (an estimate for the output buffers).
    fn span_bytes(&self, range: Range<usize>) -> usize {
        match self {
            Strings::Small(a) => offset_span(a, range),
            Strings::Large(a) => offset_span(a, range),
            Strings::View(a) => a.views()[range].iter().map(|&v| v as u32 as usize).sum(),
            Strings::Null(_) => 0,
        }
    }

    /// Calls `f(i, row)` for each row `i` of `range` in order, `row` being `None` for a
    /// null row; a row that is not valid UTF-8 is decoded lossily (U+FFFD), as
    /// `Url::parse_bytes` does. One loop per layout, so the per-row work is a few loads.
    fn for_each(
        &self,
        range: Range<usize>,
        mut f: impl FnMut(usize, Option<&str>),
    ) -> Result<(), ColumnError> {
        match self {
            Strings::Small(a) => return offset_rows(a, range, f),
            Strings::Large(a) => return offset_rows(a, range, f),
            Strings::View(a) => {
                for i in range {
                    match a.is_null(i) {
                        true => f(i, None),
                        false => f(i, Some(&lossy(a.value(i)))),
                    }
                }
            }
            Strings::Null(_) => range.for_each(|i| f(i, None)),
        }
        Ok(())
    }

    /// Row `i` as text (see [`Strings::for_each`]).
    fn row(&self, i: usize) -> Option<Cow<'_, str>> {
        if self.is_null(i) {
            return None;
        }
        Some(match self {
            Strings::Small(a) => lossy(offset_value(a, i)),
            Strings::Large(a) => lossy(offset_value(a, i)),
            Strings::View(a) => lossy(a.value(i)),
            Strings::Null(_) => return None,
        })
    }

    fn is_null(&self, i: usize) -> bool {
        match self {
            Strings::Small(a) => a.is_null(i),
            Strings::Large(a) => a.is_null(i),
            Strings::View(a) => a.is_null(i),
            Strings::Null(_) => true,
        }
    }
}

/// The weight of rows `0..i` of an offsets layout (their bytes plus one per row), for
/// [`Strings::ranges`] and [`Strings::weight`]. Offsets not checked yet (see
/// `offset_rows`) may run backwards: wrapping arithmetic then gives unbalanced chunks,
/// never a panic, and the chunk reports them.
fn offset_weight<O: OffsetSizeTrait>(a: &GenericBinaryArray<O>, i: usize) -> usize {
    let o = a.value_offsets();
    o[i].as_usize()
        .wrapping_sub(o[0].as_usize())
        .wrapping_add(i)
}

/// [`Strings::span_bytes`] for an offsets layout.
fn offset_span<O: OffsetSizeTrait>(a: &GenericBinaryArray<O>, range: Range<usize>) -> usize {
    let o = a.value_offsets();
    let span = o[range.end]
        .as_usize()
        .saturating_sub(o[range.start].as_usize());
    span.min(a.value_data().len())
}

/// Row `i` of an offsets layout, checked against the buffer (the offsets may not have
/// been checked as a whole): an empty row when they do not fit.
fn offset_value<O: OffsetSizeTrait>(a: &GenericBinaryArray<O>, i: usize) -> &[u8] {
    let o = a.value_offsets();
    a.value_data()
        .get(o[i].as_usize()..o[i + 1].as_usize())
        .unwrap_or_default()
}

/// [`Strings::for_each`] for an offsets layout. The task's offsets are checked first
/// (they must not run backwards or past the values: the C-data import does not check
/// them), then its bytes as UTF-8 in one pass, after which a row is a slice of them
/// (`str::get` still refuses a row whose offsets split a code point of the whole).
fn offset_rows<O: OffsetSizeTrait>(
    a: &GenericBinaryArray<O>,
    range: Range<usize>,
    mut f: impl FnMut(usize, Option<&str>),
) -> Result<(), ColumnError> {
    let offsets = a.value_offsets();
    let own = &offsets[range.start..=range.end];
    let fits = own.windows(2).all(|w| w[0] <= w[1])
        && own[0] >= O::zero()
        && own[own.len() - 1].as_usize() <= a.value_data().len();
    if !fits {
        return Err(ColumnError::Input(format!(
            "invalid Arrow string array: the offsets of rows {}..{} do not fit the values",
            range.start, range.end
        )));
    }
    let nulls = a.nulls();
    let first = own[0].as_usize();
    let bytes = &a.value_data()[first..own[own.len() - 1].as_usize()];
    let text = simdutf8::basic::from_utf8(bytes).ok();
    for i in range {
        if nulls.is_some_and(|n| n.is_null(i)) {
            f(i, None);
            continue;
        }
        let (start, end) = (
            offsets[i].as_usize() - first,
            offsets[i + 1].as_usize() - first,
        );
        match text.and_then(|t| t.get(start..end)) {
            Some(row) => f(i, Some(row)),
            None => f(i, Some(&lossy(&bytes[start..end]))),
        }
    }
    Ok(())
}

fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// A column split into arrays (chunks), with the first row of each.
pub struct Column {
    arrays: Vec<Strings>,
    starts: Vec<usize>,
    len: usize,
}

impl Column {
    pub fn new(arrays: Vec<Strings>) -> Column {
        let mut starts = Vec::with_capacity(arrays.len());
        let mut len = 0;
        for a in &arrays {
            starts.push(len);
            len += a.len();
        }
        Column {
            arrays,
            starts,
            len,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Row `i` of the whole column.
    fn row(&self, i: usize) -> Option<Cow<'_, str>> {
        let k = self.starts.partition_point(|&s| s <= i) - 1;
        self.arrays[k].row(i - self.starts[k])
    }
}

/// What each row is resolved against.
pub enum Base {
    None,
    /// One base for every row.
    One(Url),
    /// A base per row (a null row has none), as many rows as the input.
    PerRow(Column),
}

/// The output schema: one utf8 column per field, then `error`.
pub fn schema(fields: &[Field]) -> SchemaRef {
    let mut columns: Vec<ArrowField> = fields
        .iter()
        .map(|f| ArrowField::new(f.name(), DataType::Utf8, true))
        .collect();
    columns.push(ArrowField::new(ERROR_COLUMN, DataType::Utf8, true));
    Arc::new(Schema::new(columns))
}

/// A failure of the whole call (not of a row).
#[derive(Debug)]
pub enum ColumnError {
    /// An output column would need more than 2 GiB in one record batch.
    TooLarge,
    /// The input is not a valid Arrow array (its offsets do not fit its values).
    Input(String),
    Arrow(String),
}

/// Parses every row of `input` (against `base`) on `threads` and returns the record
/// batches, in row order (about one per thread: see `rapidurl::batch::schedule`).
pub fn parse(
    input: &Column,
    base: &Base,
    fields: &[Field],
    schema: &SchemaRef,
    threads: &Threads,
    routes: Option<&rapidurl::pattern::PatternSet>,
) -> Result<Vec<RecordBatch>, ColumnError> {
    // The hostname alone (the common call): `parse_hostname`, which reads it off the
    // input when the URL is proven valid, without building the view.
    if let [Field::Hostname] = fields {
        return run(
            input,
            base,
            fields,
            schema,
            threads,
            |out: &mut Output, row: Row<'_>, arena: &Bump| {
                let host = match row.base {
                    None => rapidurl::parse_hostname(row.input, arena),
                    Some(b) => rapidurl::parse_hostname_with_base(row.input, &b, arena),
                };
                match host {
                    Ok(host) => out.push_one(host),
                    Err(err) => out.push_missing(Some(&err)),
                }
            },
        );
    }
    // One field with a getter (e.g. `href`): a loop of its own, in which the getter is
    // inlined.
    macro_rules! one_getter {
        ($($field:ident => $get:ident),*) => {
            match fields {
                $([Field::$field] => {
                    return run(input, base, fields, schema, threads, |out: &mut Output, row: Row<'_>, arena: &Bump| {
                        match row.parse(arena) {
                            Ok(url) => out.push_one(url.$get()),
                            Err(err) => out.push_missing(Some(&err)),
                        }
                    });
                })*
                _ => {}
            }
        };
    }
    plain_getters!(one_getter);
    match fields.iter().map(getter).collect::<Option<Vec<Getter>>>() {
        // Every field a plain getter: one indirect call each.
        Some(getters) => run(
            input,
            base,
            fields,
            schema,
            threads,
            |out: &mut Output, row: Row<'_>, arena: &Bump| match row.parse(arena) {
                Ok(url) => out.push_plain(&url, &getters),
                Err(err) => out.push_missing(Some(&err)),
            },
        ),
        None => run(
            input,
            base,
            fields,
            schema,
            threads,
            |out: &mut Output, row: Row<'_>, arena: &Bump| match row.parse(arena) {
                Ok(url) => out.push_url(&url, row.input, fields, routes),
                Err(err) => out.push_missing(Some(&err)),
            },
        ),
    }
}

/// One non-null row: its text and the base it is resolved against.
#[derive(Clone, Copy)]
struct Row<'r> {
    input: &'r str,
    base: Option<UrlRef<'r>>,
}

impl<'r> Row<'r> {
    /// The row parsed (`parse_ref`, borrowed when canonical, else in `arena`).
    #[inline(always)]
    fn parse<'a>(self, arena: &'a Bump) -> Result<UrlRef<'a>, ParseError>
    where
        'r: 'a,
    {
        match self.base {
            None => rapidurl::parse_ref(self.input, arena),
            Some(b) => rapidurl::parse_ref_with_base(self.input, &b, arena),
        }
    }
}

/// [`parse`] with `write` parsing a row and putting its fields (or its error) into an
/// output.
fn run<W>(
    input: &Column,
    base: &Base,
    fields: &[Field],
    schema: &SchemaRef,
    threads: &Threads,
    write: W,
) -> Result<Vec<RecordBatch>, ColumnError>
where
    W: Fn(&mut Output, Row<'_>, &Bump) + Sync,
{
    // Chunks of about 1/CHUNKS_PER_THREAD of a thread's share, within bounds.
    let total: usize = input
        .arrays
        .iter()
        .map(Strings::weight)
        .fold(0, usize::saturating_add);
    let target = (total / (threads.count() * CHUNKS_PER_THREAD))
        .clamp(MIN_CHUNK_BYTES, MAX_CHUNK_BYTES)
        .max(total >> 30);
    let mut chunks = Vec::new();
    for (k, array) in input.arrays.iter().enumerate() {
        for range in array.ranges(target) {
            chunks.push(Task {
                array,
                range,
                start: input.starts[k],
            });
        }
    }
    // Per chunk: its weight, and running sums of rows and bytes (to pre-size outputs).
    let weights: Vec<usize> = chunks
        .iter()
        .map(|c| c.array.span_bytes(c.range.clone()) + c.range.len())
        .collect();
    let mut rows_before = Vec::with_capacity(chunks.len() + 1);
    let mut bytes_before = Vec::with_capacity(chunks.len() + 1);
    let (mut rows, mut bytes) = (0, 0);
    for (c, w) in chunks.iter().zip(&weights) {
        rows_before.push(rows);
        bytes_before.push(bytes);
        rows += c.range.len();
        bytes += w - c.range.len();
    }
    rows_before.push(rows);
    bytes_before.push(bytes);
    let job = Job {
        chunks,
        rows_before,
        bytes_before,
        base,
        n_fields: fields.len(),
        schema,
        write,
    };
    work::run(threads, &weights, &job)
}

/// The rows of one call, in chunks, and what to do with each row.
struct Job<'a, W> {
    chunks: Vec<Task<'a>>,
    /// Rows and bytes of the chunks before chunk `c` (one more entry than chunks).
    rows_before: Vec<usize>,
    bytes_before: Vec<usize>,
    base: &'a Base,
    n_fields: usize,
    schema: &'a SchemaRef,
    write: W,
}

/// An output being filled by one thread, with the thread's arena and base cache.
struct Open {
    out: Output,
    arena: Bump,
    bases: BaseCache,
}

impl<W> Work for Job<'_, W>
where
    W: Fn(&mut Output, Row<'_>, &Bump) + Sync,
{
    type Output = Open;
    type Done = RecordBatch;
    type Error = ColumnError;

    fn start(&self, chunks: Range<usize>) -> Open {
        // Sized for the whole region (the first thread to touch the memory is the one
        // that fills it), capped at what one output may hold.
        let rows = self.rows_before[chunks.end] - self.rows_before[chunks.start];
        let bytes = self.bytes_before[chunks.end] - self.bytes_before[chunks.start];
        Open {
            out: Output::new(self.n_fields, rows.min(FULL_ROWS), bytes.min(FULL_BYTES)),
            arena: Bump::new(),
            bases: BaseCache { last: None },
        }
    }

    fn step(&self, open: &mut Open, chunk: usize) -> Result<(), ColumnError> {
        parse_chunk(&self.chunks[chunk], self.base, open, &self.write)
    }

    fn full(&self, open: &Open) -> bool {
        open.out.rows as usize >= FULL_ROWS
            || open
                .out
                .fields
                .iter()
                .any(|f| f.builder.values_slice().len() >= FULL_BYTES)
    }

    fn finish(&self, open: Open) -> Result<RecordBatch, ColumnError> {
        open.out.finish(self.schema)
    }
}

/// One row of [`parse_task`]: a null row, or `write` with the row and its base; the arena
/// is emptied when it has grown. Inlined into each of the task's row loops.
#[inline(always)]
fn each<W>(
    write: &W,
    arena: &mut Bump,
    base: Option<UrlRef<'_>>,
    input: Option<&str>,
    out: &mut Output,
) where
    W: Fn(&mut Output, Row<'_>, &Bump),
{
    match input {
        None => out.push_missing(None),
        Some(input) => write(out, Row { input, base }, arena),
    }
    if arena.allocated_bytes() > ARENA_RESET_BYTES {
        arena.reset();
    }
}

/// One chunk's rows: `range` of `array`, whose first row is row `start` of the column.
struct Task<'a> {
    array: &'a Strings,
    range: Range<usize>,
    start: usize,
}

/// A field's value when it is a plain getter of the URL (a slice of its serialization,
/// never null): the row is then written with one indirect call and one copy.
type Getter = for<'a, 'b> fn(&'b UrlRef<'a>) -> &'b str;

/// Calls macro `$then` with the fields that are plain getters (`Field` variant =>
/// `UrlRef` method): the URL API's string attributes but `origin`, which is computed.
macro_rules! plain_getters {
    ($then:ident) => {
        $then!(Href => href, Protocol => protocol, Username => username, Password => password,
            Host => host, Hostname => hostname, Port => port, Pathname => pathname,
            Search => search, Hash => hash)
    };
}
use plain_getters;

/// The getter of `field` when it has one (see `plain_getters`); `None` sends the row
/// through `Field::value_with`.
fn getter(field: &Field) -> Option<Getter> {
    macro_rules! lookup {
        ($($field:ident => $get:ident),*) => {
            match field {
                $(Field::$field => {
                    let get: Getter = |u| u.$get();
                    Some(get)
                })*
                _ => None,
            }
        };
    }
    plain_getters!(lookup)
}

/// One output utf8 column of a task: Arrow's builder, which writes the values and
/// offsets buffers directly (its validity bitmap is only made at the first null, and
/// nulls are rare: invalid and null rows) and finishes without a validation pass (its
/// `append_value` costs less than writing two `Vec`s and having Arrow check them at the
/// end, measured). A column that would pass 2 GiB (32-bit offsets) stops growing and
/// fails at the end, so no row needs a `Result`.
struct Values {
    builder: StringBuilder,
    too_large: bool,
}

impl Values {
    fn with_capacity(rows: usize, bytes: usize) -> Self {
        Values {
            builder: StringBuilder::with_capacity(rows, bytes),
            too_large: false,
        }
    }

    /// Appends `value`.
    #[inline(always)]
    fn push(&mut self, value: &str) {
        if self.builder.values_slice().len() + value.len() > i32::MAX as usize {
            self.too_large = true;
            return;
        }
        self.builder.append_value(value);
    }

    /// Appends a null.
    fn push_null(&mut self) {
        self.builder.append_null();
    }

    /// Appends `n` nulls.
    fn push_nulls(&mut self, n: usize) {
        self.builder.append_nulls(n);
    }

    /// The utf8 array; `Err` when it would have passed 2 GiB.
    fn finish(mut self) -> Result<ArrayRef, ColumnError> {
        match self.too_large {
            true => Err(ColumnError::TooLarge),
            false => Ok(Arc::new(self.builder.finish())),
        }
    }
}

/// The per-task output: one column per field, and the failed rows for the `error`
/// column (built at the end: all null, without a pass, when no row failed).
struct Output {
    fields: Vec<Values>,
    errors: Vec<(u32, &'static str)>,
    rows: u32,
}

impl Output {
    fn new(n_fields: usize, rows: usize, bytes: usize) -> Self {
        Output {
            fields: (0..n_fields)
                .map(|_| Values::with_capacity(rows, bytes / 2))
                .collect(),
            errors: Vec::new(),
            rows: 0,
        }
    }

    /// A row with no fields: a null row (`error` null too) or an invalid one.
    fn push_missing(&mut self, error: Option<&ParseError>) {
        for f in &mut self.fields {
            f.push_null();
        }
        if let Some(err) = error {
            self.errors.push((self.rows, err.name()));
        }
        self.rows += 1;
    }

    /// A parsed row of a one-field output: its value.
    #[inline(always)]
    fn push_one(&mut self, value: &str) {
        self.fields[0].push(value);
        self.rows += 1;
    }

    /// A parsed row whose fields all have getters (`getters[k]` is field `k`'s).
    #[inline]
    fn push_plain(&mut self, url: &UrlRef<'_>, getters: &[Getter]) {
        for (get, f) in getters.iter().zip(&mut self.fields) {
            f.push(get(url));
        }
        self.rows += 1;
    }

    /// A parsed row, any fields; `input` is its text, for the fields that are values of
    /// the input (`valid`, `validation_errors`), `routes` the route table (`route`,
    /// `route_params`).
    fn push_url(
        &mut self,
        url: &UrlRef<'_>,
        input: &str,
        fields: &[Field],
        routes: Option<&rapidurl::pattern::PatternSet>,
    ) {
        let cx = FieldContext::new().input(input);
        let cx = match routes {
            Some(set) => cx.routes(set),
            None => cx,
        };
        for (field, f) in fields.iter().zip(&mut self.fields) {
            match field.value_with(url, &cx) {
                Some(v) => f.push(&v),
                None => f.push_null(),
            }
        }
        self.rows += 1;
    }

    fn finish(self, schema: &SchemaRef) -> Result<RecordBatch, ColumnError> {
        let rows = self.rows as usize;
        let mut columns = self
            .fields
            .into_iter()
            .map(Values::finish)
            .collect::<Result<Vec<ArrayRef>, ColumnError>>()?;
        columns.push(error_column(rows, &self.errors)?);
        RecordBatch::try_new(schema.clone(), columns).map_err(|e| ColumnError::Arrow(e.to_string()))
    }
}

/// The `error` column of `rows` rows: `errors` (row, name), in row order, and null
/// elsewhere.
fn error_column(rows: usize, errors: &[(u32, &str)]) -> Result<ArrayRef, ColumnError> {
    if errors.is_empty() {
        return Ok(Arc::new(StringArray::new_null(rows)));
    }
    let mut out = Values::with_capacity(rows, errors.iter().map(|e| e.1.len()).sum());
    // The rows between two failed ones are appended as one run of nulls.
    let mut done = 0;
    for &(r, name) in errors {
        out.push_nulls(r as usize - done);
        out.push(name);
        done = r as usize + 1;
    }
    out.push_nulls(rows - done);
    out.finish()
}

/// The last base string a task parsed, and its result: rows that share a base (the
/// common case, e.g. the page a link was found on) parse it once.
struct BaseCache {
    last: Option<(String, Result<Url, ParseError>)>,
}

impl BaseCache {
    fn get(&mut self, base: &str) -> &Result<Url, ParseError> {
        if self.last.as_ref().is_none_or(|(s, _)| s != base) {
            let parsed = Url::parse(base).map_err(|_| ParseError::new(ErrorKind::InvalidBase));
            self.last = Some((base.to_owned(), parsed));
        }
        &self.last.as_ref().expect("just set").1
    }
}

/// Parses one chunk into `open` (the output of the thread that claimed it).
fn parse_chunk<W>(
    task: &Task<'_>,
    base: &Base,
    open: &mut Open,
    write: &W,
) -> Result<(), ColumnError>
where
    W: Fn(&mut Output, Row<'_>, &Bump),
{
    let Task {
        array,
        range,
        start,
    } = task;
    let (range, start) = (range.clone(), *start);
    let Open { out, arena, bases } = open;
    // One loop per kind of base, so that `write` is compiled for it (no base: the row
    // loop holds nothing but the parse and the push).
    match base {
        Base::None => array.for_each(range, |_, row| each(write, arena, None, row, out)),
        Base::One(url) => {
            let one = url.as_ref_view();
            array.for_each(range, |_, row| each(write, arena, Some(one), row, out))
        }
        Base::PerRow(column) => array.for_each(range, |i, row| match column.row(start + i) {
            None => each(write, arena, None, row, out),
            Some(b) => match bases.get(&b) {
                Ok(base) => each(write, arena, Some(base.as_ref_view()), row, out),
                // A null input row stays null; any other row fails with the base.
                Err(err) => match row {
                    None => out.push_missing(None),
                    Some(_) => out.push_missing(Some(err)),
                },
            },
        }),
    }
}
