//! `parse_column`: string columns in (Arrow arrays, read in place), one Arrow utf8 column
//! per field plus an `error` column out, parsed in parallel with no Python object per row
//! and the GIL released.
//!
//! This is an adapter over `rapidurl::batch::engine`: each imported array becomes one of
//! its sources (`Offsets` for utf8, large_utf8 and the binary types, `Views` for
//! string_view and binary_view, with the array's validity bitmap for nulls and, for a
//! column of bases, a `RowBases` over it), and [`ArrowSink`] is the sink: each piece of
//! rows the engine parses fills one output (Arrow's builders, one per field, plus the
//! failed rows), which becomes one record batch. The engine cuts the pieces, runs them on
//! the call's rayon pool and returns them in order; nothing here schedules or walks rows.

use std::borrow::Cow;
use std::sync::Arc;

use arrow_array::builder::{BooleanBufferBuilder, StringBuilder};
use arrow_array::{
    Array, ArrayRef, BinaryArray, BinaryViewArray, GenericBinaryArray, LargeBinaryArray,
    OffsetSizeTrait, RecordBatch, StringArray, StringViewArray,
};
use arrow_buffer::{Buffer, NullBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field as ArrowField, Schema, SchemaRef};
use rapidurl::batch::engine::{
    self, Input, Offsets, Piece, Row, RowBases, Sink, Source, Validity, Views,
};
use rapidurl::bumpalo::Bump;
use rapidurl::field::{Field, FieldContext, RouteAnswer};
use rapidurl::{ParseError, Url, UrlRef};

/// The name of the column that holds each invalid row's error name.
pub const ERROR_COLUMN: &str = "error";

/// The arena (hostnames lower-cased off the common path) is emptied when it holds more
/// than this after a row.
const ARENA_RESET_BYTES: usize = 1 << 20;

/// One imported array of strings, seen as bytes, its offsets (or views) validated
/// against its buffers; UTF-8 is checked by the engine, a piece at a time.
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
    /// does not check them: rebuilding the array as binary does).
    pub fn new(array: &ArrayRef) -> Result<Strings, String> {
        let data = array.to_data();
        let as_type = |dt: DataType| {
            data.clone()
                .into_builder()
                .data_type(dt)
                .build()
                .map_err(|e| format!("invalid Arrow string array: {e}"))
        };
        Ok(match array.data_type() {
            DataType::Utf8 | DataType::Binary => Strings::Small(as_type(DataType::Binary)?.into()),
            DataType::LargeUtf8 | DataType::LargeBinary => {
                Strings::Large(as_type(DataType::LargeBinary)?.into())
            }
            DataType::Utf8View | DataType::BinaryView => {
                Strings::View(as_type(DataType::BinaryView)?.into())
            }
            DataType::Null => Strings::Null(array.len()),
            other => {
                return Err(format!(
                    "expected a column of strings (utf8, large_utf8, string_view, binary, large_binary, binary_view or null), got {other}"
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

    /// The buffers that hold the array's values (for `output="view"`: a value of the
    /// output that lies in one of them is a view into it, not a copy).
    fn buffers(&self) -> Vec<Buffer> {
        match self {
            Strings::Small(a) => vec![a.values().clone()],
            Strings::Large(a) => vec![a.values().clone()],
            Strings::View(a) => a.data_buffers().to_vec(),
            Strings::Null(_) => Vec::new(),
        }
    }

    /// Row `i` as text (a row that is not UTF-8 decoded with U+FFFD); `None` when null.
    fn row(&self, i: usize) -> Option<Cow<'_, str>> {
        let bytes = match self {
            Strings::Small(a) => a.is_valid(i).then(|| a.value(i)),
            Strings::Large(a) => a.is_valid(i).then(|| a.value(i)),
            Strings::View(a) => a.is_valid(i).then(|| a.value(i)),
            Strings::Null(_) => None,
        }?;
        Some(String::from_utf8_lossy(bytes))
    }

    /// Runs the engine over the array's rows, each against `base` (`Base::PerRow`: the
    /// rows of the base column from `first`), into `sink`: the parts in row order; on
    /// the calling thread alone when `here`, else on the current rayon pool.
    fn run<K, C>(&self, base: &Base, first: usize, sink: &K, here: bool) -> Vec<Output<C>>
    where
        K: for<'s> Sink<'s, Part = Output<C>>,
    {
        let one = match base {
            Base::One(url) => Some(url),
            _ => None,
        };
        let per_row = match base {
            Base::PerRow(column) => Some(BasesFrom { column, first }),
            _ => None,
        };
        let per_row = per_row.as_ref().map(|b| b as &dyn RowBases);
        match self {
            Strings::Small(a) => run_offsets(a, one, per_row, sink, here),
            Strings::Large(a) => run_offsets(a, one, per_row, sink, here),
            Strings::View(a) => {
                let buffers: Vec<&[u8]> = a.data_buffers().iter().map(|b| b.as_slice()).collect();
                let texts = Views::texts_of(&buffers);
                let views = Views::new(a.views().inner().as_slice(), &buffers, one)
                    .with_texts(&texts)
                    .with_validity(validity(a));
                match per_row {
                    Some(b) => go(&views.with_row_bases(b), sink, here),
                    None => go(&views, sink, here),
                }
            }
            Strings::Null(n) => {
                // Every row null: empty rows, each marked null.
                let offsets = vec![0i32; n + 1];
                let bits = Validity::new(&[], 0);
                engine::run(
                    &Offsets::new(&offsets, &[], None).with_validity(Some(bits)),
                    sink,
                )
            }
        }
    }
}

/// The engine over `source` into `sink`: `engine::run_here` when `here`, else
/// `engine::run`.
fn go<'s, S, K, C>(source: &S, sink: &K, here: bool) -> Vec<Output<C>>
where
    S: Source<'s>,
    K: Sink<'s, Part = Output<C>>,
{
    match here {
        true => engine::run_here(source, sink),
        false => engine::run(source, sink),
    }
}

/// The validity bitmap of `array`, when it has nulls.
fn validity(array: &dyn Array) -> Option<Validity<'_>> {
    array
        .nulls()
        .map(|n| Validity::new(n.validity(), n.offset()))
}

/// [`Strings::run`] for an offsets layout.
fn run_offsets<O, K, C>(
    a: &GenericBinaryArray<O>,
    one: Option<&Url>,
    per_row: Option<&dyn RowBases>,
    sink: &K,
    here: bool,
) -> Vec<Output<C>>
where
    O: OffsetSizeTrait + Into<i64>,
    K: for<'s> Sink<'s, Part = Output<C>>,
{
    let source = Offsets::new(a.value_offsets(), a.value_data(), one).with_validity(validity(a));
    match per_row {
        Some(b) => go(&source.with_row_bases(b), sink, here),
        None => go(&source, sink, here),
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
    pub(crate) fn row(&self, i: usize) -> Option<Cow<'_, str>> {
        let k = self.starts.partition_point(|&s| s <= i).checked_sub(1)?;
        self.arrays[k].row(i - self.starts[k])
    }
}

/// The bases of one array of the input: row `i` of the array has the base column's row
/// `first + i`.
struct BasesFrom<'c> {
    column: &'c Column,
    first: usize,
}

impl RowBases for BasesFrom<'_> {
    fn base(&self, i: usize) -> Option<Cow<'_, str>> {
        self.column.row(self.first + i)
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

/// How the field columns are laid out (`parse_column(…, output=…)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// utf8: every value copied into the column's own buffer.
    Utf8,
    /// string_view: a value that lies in the input's buffers (every span of a canonical
    /// row: `href`, `hostname`, `pathname`… are slices of the input) is a view into them,
    /// shared, not copied; values of up to 12 bytes are inline, others copied.
    View,
}

/// The output schema: one utf8 (or string_view) column per field, then `error` (utf8).
pub fn schema(fields: &[Field], layout: Layout) -> SchemaRef {
    let dt = match layout {
        Layout::Utf8 => DataType::Utf8,
        Layout::View => DataType::Utf8View,
    };
    let mut columns: Vec<ArrowField> = fields
        .iter()
        .map(|f| ArrowField::new(f.name(), dt.clone(), true))
        .collect();
    columns.push(ArrowField::new(ERROR_COLUMN, DataType::Utf8, true));
    Arc::new(Schema::new(columns))
}

/// A failure of the whole call (not of a row).
#[derive(Debug)]
pub enum ColumnError {
    /// An output column would need more than 2 GiB in one record batch.
    TooLarge,
    Arrow(String),
}

/// Parses every row of `input` (against `base`) on the current rayon pool (on the calling
/// thread alone when `here`) and returns the record batches, in row order (one per piece
/// the engine cut), the fields laid out as `layout` says.
pub fn parse(
    input: &Column,
    base: &Base,
    fields: &[Field],
    schema: &SchemaRef,
    routes: Option<&rapidurl::pattern::PatternSet>,
    here: bool,
    layout: Layout,
) -> Result<Vec<RecordBatch>, ColumnError> {
    let call = Call {
        input,
        base,
        fields,
        schema,
        routes,
        here,
    };
    match layout {
        Layout::Utf8 => call.parse(&|_: &Strings| Utf8Columns),
        Layout::View => call.parse(&|array: &Strings| ViewColumns::new(array.buffers())),
    }
}

/// The arguments of a [`parse`] call.
struct Call<'c> {
    input: &'c Column,
    base: &'c Base,
    fields: &'c [Field],
    schema: &'c SchemaRef,
    routes: Option<&'c rapidurl::pattern::PatternSet>,
    here: bool,
}

impl Call<'_> {
    /// [`parse`] with the columns that `layout` makes for each input array.
    fn parse<L: Columns>(
        &self,
        layout: &dyn Fn(&Strings) -> L,
    ) -> Result<Vec<RecordBatch>, ColumnError> {
        let fields = self.fields;
        // The hostname alone (the common call): `parse_hostname`, which reads it off the
        // input when the URL is proven valid, without parsing the rest.
        if let [Field::Hostname] = fields {
            return self.run(&|a| HostnameSink { columns: layout(a) });
        }
        // One field with a getter (e.g. `href`): a sink of its own, in which the getter is
        // inlined.
        macro_rules! one_getter {
            ($($field:ident => $get:ident),*) => {
                match fields {
                    $([Field::$field] => {
                        let write = |out: &mut Output<L::Col>, url: &UrlRef<'_>, _: &str, _: Option<&Url>| {
                            out.push_one(url.$get())
                        };
                        return self.run(&|a| ArrowSink { n_fields: 1, write, columns: layout(a) });
                    })*
                    _ => {}
                }
            };
        }
        plain_getters!(one_getter);
        let n_fields = fields.len();
        match fields.iter().map(getter).collect::<Option<Vec<Getter>>>() {
            // Every field a plain getter: one indirect call each.
            Some(getters) => {
                let write =
                    |out: &mut Output<L::Col>, url: &UrlRef<'_>, _: &str, _: Option<&Url>| {
                        out.push_plain(url, &getters)
                    };
                self.run(&|a| ArrowSink {
                    n_fields,
                    write,
                    columns: layout(a),
                })
            }
            None => {
                let routes = self.routes;
                let write =
                    |out: &mut Output<L::Col>, url: &UrlRef<'_>, text: &str, base: Option<&Url>| {
                        out.push_url(url, (text, base), fields, routes)
                    };
                self.run(&|a| ArrowSink {
                    n_fields,
                    write,
                    columns: layout(a),
                })
            }
        }
    }

    /// Runs the engine over every array of the input into the sink `sink` makes for it;
    /// each part becomes a batch.
    fn run<K, C>(&self, sink: &dyn Fn(&Strings) -> K) -> Result<Vec<RecordBatch>, ColumnError>
    where
        K: for<'s> Sink<'s, Part = Output<C>>,
        C: Col,
    {
        let mut batches = Vec::new();
        for (array, &first) in self.input.arrays.iter().zip(&self.input.starts) {
            let sink = sink(array);
            for out in array.run(self.base, first, &sink, self.here) {
                batches.push(out.finish(self.schema)?);
            }
        }
        Ok(batches)
    }
}

/// The sink of a call whose fields are read off the parsed URL by `write` (given the
/// URL, the row's input text and the base it was parsed against).
struct ArrowSink<W, L> {
    n_fields: usize,
    write: W,
    columns: L,
}

impl<'s, W, L> Sink<'s> for ArrowSink<W, L>
where
    W: Fn(&mut Output<L::Col>, &UrlRef<'_>, &str, Option<&Url>) + Sync,
    L: Columns,
{
    type Part = Output<L::Col>;

    fn part(&self, piece: &Piece) -> Output<L::Col> {
        Output::new(&self.columns, self.n_fields, piece.rows, piece.bytes)
    }

    #[inline(always)]
    fn row(&self, out: &mut Output<L::Col>, row: Row<'s, '_>) {
        if row.is_null() {
            return out.push_missing(None);
        }
        match row.url() {
            Ok(url) => (self.write)(out, &url, row.input(), row.base()),
            Err(err) => out.push_missing(Some(&err)),
        }
    }
}

/// The sink of `parse_column(urls, ["hostname"])`: every row is taken before the engine
/// parses it, and its hostname read with `parse_hostname` (off the input when the URL is
/// proven valid).
struct HostnameSink<L> {
    columns: L,
}

impl<'s, L: Columns> Sink<'s> for HostnameSink<L> {
    type Part = Output<L::Col>;

    fn part(&self, piece: &Piece) -> Output<L::Col> {
        Output::new(&self.columns, 1, piece.rows, piece.bytes)
    }

    fn row(&self, out: &mut Output<L::Col>, row: Row<'s, '_>) {
        // `take_unparsed` takes every row; a row parsed all the same gives the same.
        match row.url() {
            Ok(url) if !row.is_null() => out.push_one(url.hostname()),
            Ok(_) => out.push_missing(None),
            Err(err) => out.push_missing(Some(&err)),
        }
    }

    #[inline(always)]
    fn take_unparsed(&self, out: &mut Output<L::Col>, input: &Input<'s, '_>) -> bool {
        if input.is_null() {
            out.push_missing(None);
            return true;
        }
        if let Some(err) = input.error() {
            out.push_missing(Some(&err));
            return true;
        }
        let host = match input.base() {
            None => rapidurl::parse_hostname(input.text(), &out.arena),
            Some(b) => {
                rapidurl::parse_hostname_with_base(input.text(), &b.as_ref_view(), &out.arena)
            }
        };
        match host {
            Ok(host) => {
                // The column copies the value (a view only points into the input's
                // buffers, never into the arena); the arena may then be emptied.
                let host: &str = host;
                out.fields[0].push(host);
                out.rows += 1;
            }
            Err(err) => out.push_missing(Some(&err)),
        }
        if out.arena.allocated_bytes() > ARENA_RESET_BYTES {
            out.arena.reset();
        }
        true
    }
}

/// A field's value when it is a plain getter of the URL (a slice of its serialization,
/// never null; `origin`'s is one when the scheme is http(s), ws(s) or ftp and the URL has
/// no credentials, else it is written into the scratch buffer given): the row is then written with one indirect call and one copy.
type Getter = for<'a, 'b> fn(&'b UrlRef<'a>, &'b mut String) -> &'b str;

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
                    let get: Getter = |u, _| u.$get();
                    Some(get)
                })*
                // A slice of `href` for an http(s), ws(s) or ftp URL without
                // credentials (`Field::href_range`); any other is written into `buf`.
                Field::Origin => {
                    let get: Getter = |u, buf| {
                        Field::Origin
                            .value_into(u, &FieldContext::new(), buf)
                            .unwrap_or_default()
                    };
                    Some(get)
                }
                _ => None,
            }
        };
    }
    plain_getters!(lookup)
}

/// One output column of a task, of either layout.
trait Col: Send {
    /// Appends `value`.
    fn push(&mut self, value: &str);
    /// Appends a null.
    fn push_null(&mut self);
    /// The array; `Err` when it would have passed its size limit.
    fn finish(self) -> Result<ArrayRef, ColumnError>;
}

/// What makes a task's columns: one per input array (a view column needs its buffers).
trait Columns: Sync {
    type Col: Col;
    /// A column for a piece of `rows` rows and `bytes` bytes of input.
    fn column(&self, rows: usize, bytes: usize) -> Self::Col;
}

/// utf8 columns ([`Values`]).
struct Utf8Columns;

impl Columns for Utf8Columns {
    type Col = Values;
    fn column(&self, rows: usize, bytes: usize) -> Values {
        Values::with_capacity(rows, bytes / 2)
    }
}

impl Col for Values {
    #[inline(always)]
    fn push(&mut self, value: &str) {
        Values::push(self, value)
    }
    fn push_null(&mut self) {
        Values::push_null(self)
    }
    fn finish(self) -> Result<ArrayRef, ColumnError> {
        Values::finish(self)
    }
}

/// string_view columns over the buffers of one input array ([`ViewValues`]).
struct ViewColumns {
    shared: Arc<Shared>,
}

/// The input array's buffers, which a view column shares, and where each lies in memory.
struct Shared {
    buffers: Vec<Buffer>,
    /// Each buffer's address and length.
    ranges: Vec<(usize, usize)>,
}

impl ViewColumns {
    fn new(buffers: Vec<Buffer>) -> Self {
        let ranges = buffers
            .iter()
            .map(|b| (b.as_ptr() as usize, b.len()))
            .collect();
        ViewColumns {
            shared: Arc::new(Shared { buffers, ranges }),
        }
    }
}

impl Columns for ViewColumns {
    type Col = ViewValues;
    fn column(&self, rows: usize, bytes: usize) -> ViewValues {
        ViewValues {
            views: Vec::with_capacity(rows),
            own: Vec::with_capacity(bytes / 16),
            nulls: None,
            first: self.shared.ranges.first().copied().unwrap_or((0, 0)),
            shared: self.shared.clone(),
            too_large: false,
        }
    }
}

/// One output string_view column of a task: its views, the values it copies (those
/// outside the input's buffers, longer than 12 bytes) and, from the first null, its
/// validity bits. The input's buffers come first in the array's buffers, then its own.
struct ViewValues {
    views: Vec<u128>,
    own: Vec<u8>,
    nulls: Option<BooleanBufferBuilder>,
    /// The first input buffer's address and length (`shared.ranges[0]`, or empty): the
    /// only one of a utf8 input.
    first: (usize, usize),
    shared: Arc<Shared>,
    too_large: bool,
}

impl ViewValues {
    /// The view of `value`, longer than 12 bytes: into the input buffer that holds it, or
    /// into `own`, where it is copied.
    #[inline(always)]
    fn long_view(&mut self, value: &[u8]) -> u128 {
        let at = value.as_ptr() as usize;
        let prefix = u32::from_le_bytes([value[0], value[1], value[2], value[3]]);
        let view = |buffer: usize, offset: usize| {
            value.len() as u128
                | (prefix as u128) << 32
                | (buffer as u128) << 64
                | (offset as u128) << 96
        };
        let inside = |(start, len): (usize, usize)| {
            let offset = at.wrapping_sub(start);
            (offset < len && value.len() <= len - offset && offset <= u32::MAX as usize)
                .then_some(offset)
        };
        if let Some(offset) = inside(self.first) {
            return view(0, offset);
        }
        for (k, &range) in self.shared.ranges.iter().enumerate().skip(1) {
            if let Some(offset) = inside(range) {
                return view(k, offset);
            }
        }
        let offset = self.own.len();
        if offset + value.len() > u32::MAX as usize {
            self.too_large = true;
            return 0;
        }
        self.own.extend_from_slice(value);
        view(self.shared.ranges.len(), offset)
    }
}

impl Col for ViewValues {
    #[inline(always)]
    fn push(&mut self, value: &str) {
        let bytes = value.as_bytes();
        let view = if bytes.len() <= 12 {
            let mut v = [0u8; 16];
            v[..4].copy_from_slice(&(bytes.len() as u32).to_le_bytes());
            v[4..4 + bytes.len()].copy_from_slice(bytes);
            u128::from_le_bytes(v)
        } else {
            self.long_view(bytes)
        };
        self.views.push(view);
        if let Some(nulls) = &mut self.nulls {
            nulls.append(true);
        }
    }

    fn push_null(&mut self) {
        let nulls = self.nulls.get_or_insert_with(|| {
            let mut bits = BooleanBufferBuilder::new(self.views.capacity());
            bits.append_n(self.views.len(), true);
            bits
        });
        nulls.append(false);
        self.views.push(0);
    }

    fn finish(mut self) -> Result<ArrayRef, ColumnError> {
        if self.too_large {
            return Err(ColumnError::TooLarge);
        }
        let mut buffers = self.shared.buffers.clone();
        if !self.own.is_empty() {
            buffers.push(Buffer::from_vec(std::mem::take(&mut self.own)));
        }
        let nulls = self.nulls.take().map(|mut b| NullBuffer::new(b.finish()));
        if nulls.as_ref().is_some_and(|n| n.len() != self.views.len()) {
            return Err(ColumnError::Arrow("a validity bit per row".into()));
        }
        // Built without Arrow's validation pass (which checks every value's UTF-8 again,
        // as much work as writing the column): every view was made by `push` from a
        // `&str`, inline, or as the address and length of that `str` inside one of
        // `shared.buffers` (checked by `long_view`), or of its copy in `own`, the buffer
        // after them. So each view lies inside its buffer and holds valid UTF-8.
        #[allow(unsafe_code)]
        // SAFETY: the views are in bounds and UTF-8, as said above; the validity has a
        // bit per view (checked above).
        let array = unsafe {
            StringViewArray::new_unchecked(ScalarBuffer::from(self.views), buffers, nulls)
        };
        Ok(Arc::new(array))
    }
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
struct Output<C> {
    fields: Vec<C>,
    errors: Vec<(u32, &'static str)>,
    rows: u32,
    /// Room for what the parser rewrites (the hostname sink's lower-cased hosts).
    arena: Bump,
    /// Where a value that is not a slice of the URL is written (`Field::value_into`).
    scratch: String,
}

impl<C: Col> Output<C> {
    fn new<L: Columns<Col = C>>(columns: &L, n_fields: usize, rows: usize, bytes: usize) -> Self {
        Output {
            fields: (0..n_fields).map(|_| columns.column(rows, bytes)).collect(),
            errors: Vec::new(),
            rows: 0,
            arena: Bump::new(),
            scratch: String::new(),
        }
    }

    /// A row with no fields: a null row (`error` null too) or an invalid one.
    fn push_missing(&mut self, error: Option<&ParseError>) {
        self.push_error(error.map(ParseError::name));
    }

    /// A row without fields: NULL in each, and its error's name (none for a NULL input).
    fn push_error(&mut self, name: Option<&'static str>) {
        for f in &mut self.fields {
            f.push_null();
        }
        if let Some(name) = name {
            self.errors.push((self.rows, name));
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
            f.push(get(url, &mut self.scratch));
        }
        self.rows += 1;
    }

    /// A parsed row, any fields; `input` is its text and the base it was parsed against,
    /// for the fields that are values of the input (`valid`, `validation_errors`),
    /// `routes` the route table (`route`, `route_params`).
    fn push_url(
        &mut self,
        url: &UrlRef<'_>,
        (input, base): (&str, Option<&Url>),
        fields: &[Field],
        routes: Option<&rapidurl::pattern::PatternSet>,
    ) {
        let cx = FieldContext::new().input(input).base(base.map(Into::into));
        let cx = match routes {
            Some(set) => cx.routes(set),
            None => cx,
        };
        // One lookup in the route table for all of the row's route fields. A lookup that
        // ran out of steps (a pattern with a backreference or a lookaround) makes an error
        // row, as a URL that does not parse.
        let route = match routes {
            Some(_) if fields.iter().any(Field::needs_routes) => {
                cx.look_up_route(url, fields.contains(&Field::RouteParams))
            }
            _ => None,
        };
        if let Some(RouteAnswer::Limit(_)) = route {
            return self.push_error(Some(rapidurl::field::ROUTE_MATCH_LIMIT));
        }
        let cx = cx.answered(route.as_ref());
        for (field, f) in fields.iter().zip(&mut self.fields) {
            match field.value_into(url, &cx, &mut self.scratch) {
                Some(v) => f.push(v),
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
            .map(Col::finish)
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
