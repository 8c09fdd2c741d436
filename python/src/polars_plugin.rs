//! The Polars expression plugin: `pl.col(u).url.<field>()` runs inside Polars' engine
//! (lazy, streaming, on Polars' own threads, without the GIL) through Polars' plugin ABI,
//! version 0.1, implemented here over arrow-rs's C Data Interface, without the `polars`
//! crate.
//!
//! Polars loads this extension module a second time as a plugin library (the same file:
//! `rapidurl/polars.py` passes `_rapidurl`'s path) and calls:
//!
//! - `_polars_plugin_get_version`: the ABI version, `major << 16 | minor`;
//! - `_polars_plugin_field_rapidurl`: the output's field (name and type) for the input
//!   fields and the call's keyword arguments, when Polars plans the query;
//! - `_polars_plugin_rapidurl`: the function itself, on each chunk of rows Polars hands
//!   it (a Series: an Arrow schema and its arrays);
//! - `_polars_plugin_get_last_error_message`: the message of the last call that failed
//!   on this thread (a failed call leaves its return value empty).
//!
//! The keyword arguments are the dict `rapidurl/polars.py` gives Polars, which pickles it:
//! `fields` (a list of field names), `base` (a string or None; a base column is the
//! second input), `routes` and `routes_base` (a route table, for the `route` and
//! `route_params` fields) and `struct` (one column per field, plus `error`, as a Struct; else the
//! one field, or the `error` column when there is none). The rows go through `column::parse`, the engine of
//! `parse_column`, on the calling thread, with string_view output: a value that lies in
//! the input's buffers is a view into them, the others are inline or copied once.
//!
//! This is the one module of the package with `unsafe` code: Polars hands raw pointers
//! across a C ABI. Each block says what it relies on. A panic never crosses the
//! boundary (Polars aborts on one): it becomes the call's error.

#![allow(unsafe_code)]

use std::cell::RefCell;
use std::ffi::{CString, c_char, c_void};
use std::mem::ManuallyDrop;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use arrow_array::builder::StringViewBuilder;
use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema, from_ffi, to_ffi};
use arrow_array::{Array, ArrayRef, StructArray, make_array};
use arrow_schema::{DataType, Field as ArrowField, Fields};
use rapidurl::field::Field;
use serde_pickle::{DeOptions, HashableValue, Value};

use crate::column::{self, Base, Column, ERROR_COLUMN, Layout, Strings};

/// The plugin ABI version this module implements (Polars' `polars-ffi` 0.1: the field
/// function takes the keyword arguments).
const ABI: (u32, u32) = (0, 1);

/// A Series across the ABI: a field, its chunks (Arrow arrays), and how to free the two
/// boxes that hold them (not the arrays: the receiver moves each out).
#[repr(C)]
pub struct SeriesExport {
    field: *mut FFI_ArrowSchema,
    arrays: *mut *mut FFI_ArrowArray,
    len: usize,
    release: Option<unsafe extern "C" fn(*mut SeriesExport)>,
    private_data: *mut c_void,
}

/// What Polars tells the plugin about the call (bit 0: Polars runs it in parallel).
#[repr(C)]
pub struct CallerContext {
    bitflags: u64,
}

/// A call of fewer rows than this runs on the calling thread even when Polars leaves the
/// parallelism to the plugin (splitting it would cost more than it saves).
const PARALLEL_ROWS: usize = 65_536;

/// How many threads a call may use when Polars leaves the parallelism to the plugin:
/// `POLARS_MAX_THREADS`, as Polars reads it, else every core.
fn plugin_threads() -> usize {
    std::env::var("POLARS_MAX_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

thread_local! {
    /// The message of the last call that failed on this thread.
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(message: &str) {
    let message = CString::new(message.replace('\0', " ")).expect("NULs replaced");
    LAST_ERROR.with(|e| *e.borrow_mut() = message);
}

/// The ABI version, `major << 16 | minor`.
#[unsafe(no_mangle)]
pub extern "C" fn _polars_plugin_get_version() -> u32 {
    (ABI.0 << 16) | ABI.1
}

/// The message of the last call that failed on this thread (valid until the next call
/// on this thread).
#[unsafe(no_mangle)]
pub extern "C" fn _polars_plugin_get_last_error_message() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// The call's keyword arguments.
struct Kwargs {
    fields: Vec<Field>,
    base: Option<String>,
    as_struct: bool,
    /// `_panic_for_tests`: the call panics (the tests check that Polars gets an error).
    panic_for_tests: bool,
    /// `routes` (pairs of a name or None and a pattern) and `routes_base`: the route
    /// table of the `route` and `route_params` fields.
    routes: Option<rapidurl::pattern::PatternSet>,
}

impl Kwargs {
    /// Decodes the pickled dict `rapidurl/polars.py` passes.
    fn decode(bytes: &[u8]) -> Result<Kwargs, String> {
        let value = serde_pickle::value_from_slice(bytes, DeOptions::new())
            .map_err(|e| format!("rapidurl: the plugin's arguments could not be read: {e}"))?;
        let Value::Dict(dict) = value else {
            return Err("rapidurl: the plugin's arguments are not a dict".into());
        };
        let get = |key: &str| dict.get(&HashableValue::String(key.into()));
        let fields = match get("fields") {
            Some(Value::List(names)) => names
                .iter()
                .map(|n| match n {
                    Value::String(s) => s.parse::<Field>().map_err(|e| e.to_string()),
                    other => Err(format!("rapidurl: a field name is not a str: {other:?}")),
                })
                .collect::<Result<Vec<_>, _>>()?,
            _ => return Err("rapidurl: the plugin's arguments have no list of fields".into()),
        };
        let base = match get("base") {
            None | Some(Value::None) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => return Err(format!("rapidurl: base is not a str: {other:?}")),
        };
        let as_struct = matches!(get("struct"), Some(Value::Bool(true)));
        if !as_struct && fields.len() > 1 {
            return Err("rapidurl: one field (none: the error), or struct=True".into());
        }
        let routes_base = match get("routes_base") {
            None | Some(Value::None) => None,
            Some(Value::String(s)) => Some(s.as_str()),
            Some(other) => return Err(format!("rapidurl: routes_base is not a str: {other:?}")),
        };
        let routes = match get("routes") {
            None | Some(Value::None) => None,
            Some(Value::List(pairs)) => {
                let mut set = rapidurl::pattern::PatternSet::new();
                for (i, pair) in pairs.iter().enumerate() {
                    let (name, text) = match pair {
                        Value::List(p) | Value::Tuple(p) => match p.as_slice() {
                            [Value::None, Value::String(t)] => (None, t),
                            [Value::String(n), Value::String(t)] => (Some(n.as_str()), t),
                            _ => return Err(format!("rapidurl: routes[{i}] is not a pair")),
                        },
                        _ => return Err(format!("rapidurl: routes[{i}] is not a pair")),
                    };
                    set.add_route(name, text, routes_base)
                        .map_err(|e| format!("rapidurl: routes[{i}] {text:?}: {e}"))?;
                }
                Some(set)
            }
            Some(other) => return Err(format!("rapidurl: routes is not a list: {other:?}")),
        };
        if routes.is_none() && fields.iter().any(Field::needs_routes) {
            return Err("rapidurl: the fields route and route_params need a route table".into());
        }
        Ok(Kwargs {
            fields,
            base,
            as_struct,
            panic_for_tests: matches!(get("_panic_for_tests"), Some(Value::Bool(true))),
            routes,
        })
    }

    /// The type of the output: string_view, or a Struct of string_view fields and `error`.
    fn data_type(&self) -> DataType {
        if !self.as_struct {
            return DataType::Utf8View;
        }
        let schema = column::schema(&self.fields, Layout::View);
        let members: Fields = schema
            .fields()
            .iter()
            .map(|f| Arc::new(ArrowField::new(f.name(), DataType::Utf8View, true)))
            .collect();
        DataType::Struct(members)
    }
}

/// The keyword arguments of a call, as a slice.
///
/// # Safety
/// `ptr` must point at `len` readable bytes (or `len` be 0).
unsafe fn kwargs_of<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 || ptr.is_null() {
        return &[];
    }
    // SAFETY: the caller's contract (Polars passes its pickled bytes, alive for the call).
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// The output field of the function: named after the first input, of the call's type.
///
/// # Safety
/// Called by Polars with `n` input fields at `fields`, a writable empty schema at
/// `out` and the keyword arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _polars_plugin_field_rapidurl(
    fields: *const FFI_ArrowSchema,
    n: usize,
    out: *mut FFI_ArrowSchema,
    kwargs_ptr: *const u8,
    kwargs_len: usize,
) {
    let run = AssertUnwindSafe(|| -> Result<(), String> {
        if n == 0 || fields.is_null() {
            return Err("rapidurl: the plugin needs an input column".into());
        }
        // SAFETY: Polars hands `n` live schemas and its pickled arguments for the call.
        let (first, kwargs) = unsafe { (&*fields, kwargs_of(kwargs_ptr, kwargs_len)) };
        let kwargs = Kwargs::decode(kwargs)?;
        let name = first.name().unwrap_or("");
        let field = ArrowField::new(name, kwargs.data_type(), true);
        let schema = FFI_ArrowSchema::try_from(&field).map_err(|e| e.to_string())?;
        // SAFETY: `out` is Polars' empty schema (nothing to release), written once.
        unsafe { std::ptr::write(out, schema) };
        Ok(())
    });
    finish(catch_unwind(run));
}

/// Records a failed or panicking call's message for `_polars_plugin_get_last_error_message`.
fn finish(result: std::thread::Result<Result<(), String>>) {
    match result {
        Ok(Ok(())) => {}
        Ok(Err(message)) => set_error(&message),
        Err(panic) => set_error(&format!(
            "rapidurl: internal error (a panic, caught): {}",
            crate::panic_text(panic.as_ref())
        )),
    }
}

/// An input Series taken over from Polars: its name and its chunks. The export's boxes
/// are freed (its `release`) as soon as the arrays are moved out.
struct Input {
    name: String,
    chunks: Vec<ArrayRef>,
}

impl Input {
    /// Takes over the Series at `e`.
    ///
    /// # Safety
    /// `e` must be a live export Polars hands over (its arrays not yet moved out); it is
    /// read once and released here.
    unsafe fn take(e: *const SeriesExport) -> Result<Input, String> {
        // SAFETY: the caller's contract: the export is ours from here on.
        let mut e = unsafe { std::ptr::read(e) };
        // Every array moved out first, so that each is released (dropped) even when an
        // earlier one fails to import.
        // SAFETY: `arrays` holds `len` pointers to live arrays, each moved out once.
        let raw: Vec<FFI_ArrowArray> = unsafe {
            (0..e.len)
                .map(|k| std::ptr::read(*e.arrays.add(k)))
                .collect()
        };
        let result = (|| {
            // SAFETY: `field` is the export's live schema until its release below.
            let schema = unsafe { &*e.field };
            let name = schema.name().unwrap_or("").to_owned();
            // A column of Polars' Null type (every row null, e.g. `[None, None]`): its
            // arrays carry a buffer arrow-rs does not expect of the null type, and only
            // their length matters.
            let null_type = schema.format() == "n";
            let chunks = raw
                .into_iter()
                .map(|a| match null_type {
                    true => Ok(Arc::new(arrow_array::NullArray::new(a.len())) as ArrayRef),
                    // SAFETY: each array was exported with this schema.
                    false => unsafe { from_ffi(a, schema) }.map(make_array),
                })
                .collect::<Result<Vec<_>, _>>()
                .map_err(|err| format!("rapidurl: a Polars column could not be read: {err}"))?;
            Ok(Input { name, chunks })
        })();
        if let Some(release) = e.release {
            // SAFETY: Polars' own callback for its export, called once; the arrays were
            // moved out, which it expects.
            unsafe { release(&mut e) };
        }
        result
    }
}

/// What Polars frees the exported Series with: the two boxes, not the arrays (Polars has
/// moved them out).
unsafe extern "C" fn release_export(e: *mut SeriesExport) {
    if e.is_null() {
        return;
    }
    // SAFETY: `e` is an export of `export`, released once: `private_data` is its
    // `Private`, each array pointer a box whose array was moved out.
    unsafe {
        let e = &mut *e;
        if e.private_data.is_null() {
            return;
        }
        let private = Box::from_raw(e.private_data as *mut Private);
        for &p in private.arrays.iter() {
            drop(Box::from_raw(p as *mut ManuallyDrop<FFI_ArrowArray>));
        }
        drop(private.schema);
        e.private_data = std::ptr::null_mut();
        e.release = None;
    }
}

/// The boxes behind an exported Series.
struct Private {
    schema: Box<FFI_ArrowSchema>,
    arrays: Box<[*mut FFI_ArrowArray]>,
}

/// `chunks` as a Series named `name`, for Polars to take over.
fn export(name: &str, data_type: DataType, chunks: Vec<ArrayRef>) -> Result<SeriesExport, String> {
    let field = ArrowField::new(name, data_type, true);
    let mut schema = Box::new(FFI_ArrowSchema::try_from(&field).map_err(|e| e.to_string())?);
    let mut arrays = chunks
        .iter()
        .map(|a| {
            to_ffi(&a.to_data())
                .map(|(array, _)| Box::into_raw(Box::new(array)))
                .map_err(|e| e.to_string())
        })
        .collect::<Result<Box<[_]>, _>>()?;
    Ok(SeriesExport {
        field: schema.as_mut() as *mut FFI_ArrowSchema,
        arrays: arrays.as_mut_ptr(),
        len: arrays.len(),
        release: Some(release_export),
        private_data: Box::into_raw(Box::new(Private { schema, arrays })) as *mut c_void,
    })
}

/// The rows of `input` (against the base of `kwargs`, or the rows of `bases`) parsed into
/// the call's output chunks, of `data_type` (`kwargs.data_type()`).
fn compute(
    input: Input,
    bases: Option<Input>,
    kwargs: &Kwargs,
    data_type: &DataType,
    threads: usize,
) -> Result<Vec<ArrayRef>, String> {
    let strings = |chunks: &[ArrayRef]| {
        chunks
            .iter()
            .map(Strings::new)
            .collect::<Result<Vec<_>, _>>()
            .map(Column::new)
    };
    let mut column = strings(&input.chunks)?;
    let base = match (&kwargs.base, bases) {
        (_, Some(b)) => {
            let mut b = strings(&b.chunks)?;
            // Polars hands a literal (`pl.lit("https://…")`) over as one row, not
            // broadcast: one row on either side goes with every row of the other, as in
            // Polars' own operators.
            if b.len() == 1 && column.len() != 1 {
                b = repeat(&b, column.len());
            } else if column.len() == 1 && b.len() != 1 {
                column = repeat(&column, b.len());
            }
            if b.len() != column.len() {
                return Err(format!(
                    "rapidurl: {} bases for {} URLs",
                    b.len(),
                    column.len()
                ));
            }
            Base::PerRow(b)
        }
        (Some(text), None) => Base::One(rapidurl::Url::parse(text).map_err(|e| {
            format!("base-URL-invalid: the base URL {text:?} could not be parsed ({e})")
        })?),
        (None, None) => Base::None,
    };
    let schema = column::schema(&kwargs.fields, Layout::View);
    // The calling thread for a small call, and where no thread can start.
    let workers = match threads <= 1 || column.len() < PARALLEL_ROWS {
        true => crate::Workers::Here,
        false => crate::Workers::new(Some(threads)),
    };
    let here = workers.here();
    let parse = || {
        column::parse(
            &column,
            &base,
            &kwargs.fields,
            &schema,
            kwargs.routes.as_ref(),
            here,
            Layout::View,
        )
    };
    let batches = workers.run(parse).map_err(|e| format!("rapidurl: {e:?}"))?;
    let members = match data_type {
        DataType::Struct(members) => Some(members),
        _ => None,
    };
    batches
        .into_iter()
        .map(|batch| {
            let Some(members) = members else {
                return match kwargs.fields.is_empty() {
                    true => arrow_cast_utf8_to_view(batch.column(0)),
                    false => Ok(batch.column(0).clone()),
                };
            };
            let columns: Vec<ArrayRef> = batch
                .columns()
                .iter()
                .map(|c| match c.data_type() {
                    // `error` is utf8 in parse_column's schema: string_view here.
                    DataType::Utf8 => arrow_cast_utf8_to_view(c),
                    _ => Ok(c.clone()),
                })
                .collect::<Result<_, String>>()?;
            StructArray::try_new(members.clone(), columns, None)
                .map(|s| Arc::new(s) as ArrayRef)
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// Row 0 of `column` as a column of `n` rows (a string_view array whose views share one
/// copy of the value).
fn repeat(column: &Column, n: usize) -> Column {
    let value = column.row(0);
    let mut builder = StringViewBuilder::with_capacity(n).with_deduplicate_strings();
    for _ in 0..n {
        match &value {
            Some(v) => builder.append_value(v),
            None => builder.append_null(),
        }
    }
    let array: ArrayRef = Arc::new(builder.finish());
    Column::new(vec![Strings::new(&array).expect("a string_view array")])
}

/// A utf8 column as string_view (the `error` column of a struct call).
fn arrow_cast_utf8_to_view(array: &ArrayRef) -> Result<ArrayRef, String> {
    let utf8 = array
        .as_any()
        .downcast_ref::<arrow_array::StringArray>()
        .ok_or_else(|| format!("rapidurl: {ERROR_COLUMN} is not utf8"))?;
    let view: arrow_array::StringViewArray = utf8.iter().collect();
    Ok(Arc::new(view))
}

/// The function: `inputs` (the URLs, and a column of bases when the call has one)
/// parsed into one string_view column, or a Struct of them, written to `out`.
///
/// # Safety
/// Called by Polars with `n` live exports at `inputs` (taken over here), its pickled
/// arguments, an empty export at `out` and its context.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _polars_plugin_rapidurl(
    inputs: *const SeriesExport,
    n: usize,
    kwargs_ptr: *const u8,
    kwargs_len: usize,
    out: *mut SeriesExport,
    context: *const CallerContext,
) {
    let run = AssertUnwindSafe(|| -> Result<(), String> {
        // SAFETY: Polars hands `n` exports, each taken over once (all of them, even when
        // the arguments are bad, so that each is released).
        let taken: Vec<Result<Input, String>> = (0..n)
            .map(|k| unsafe { Input::take(inputs.add(k)) })
            .collect();
        // SAFETY: the pickled arguments, alive for the call.
        let kwargs = Kwargs::decode(unsafe { kwargs_of(kwargs_ptr, kwargs_len) })?;
        if kwargs.panic_for_tests {
            panic!("a panic asked for by the tests");
        }
        let mut taken = taken.into_iter();
        let input = taken
            .next()
            .ok_or("rapidurl: the plugin needs an input column")??;
        let bases = taken.next().transpose()?;
        let name = input.name.clone();
        // SAFETY: Polars' context, alive for the call (null: none given).
        let parallel = unsafe { context.as_ref() }.is_some_and(|c| c.bitflags & 1 == 1);
        let threads = if parallel { 1 } else { plugin_threads() };
        let data_type = kwargs.data_type();
        let mut chunks = compute(input, bases, &kwargs, &data_type, threads)?;
        if chunks.is_empty() {
            // Polars reads a Series' dtype off its first chunk: an empty input still
            // gets one (empty) array.
            chunks.push(arrow_array::new_empty_array(&data_type));
        }
        let series = export(&name, data_type, chunks)?;
        // SAFETY: `out` is Polars' empty export (nothing to release), written once.
        unsafe { std::ptr::write(out, series) };
        Ok(())
    });
    finish(catch_unwind(run));
}
