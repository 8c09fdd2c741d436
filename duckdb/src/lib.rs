//! rapidurl as a DuckDB loadable extension: vectorized `url_*` scalar functions on
//! DuckDB's stable C extension API (the v1.2.0 function table, through `libduckdb-sys`'s
//! `loadable-extension` bindings), loaded by every DuckDB release from 1.2 on. See
//! docs/duckdb.md for the functions, the build and the releases tested.
//!
//! DuckDB opens `rapidurl.duckdb_extension` (this library with DuckDB's metadata footer,
//! appended by `scripts/append_metadata.py`) and calls [`rapidurl_init_c_api`], which
//! registers every overload of every function, and the table function
//! `rapidurl_functions()` that describes them ([`catalog`]). Each function is called with
//! a chunk of up to 2048 rows and runs one of the row loops of [`kernel`] over them; a
//! failure or a panic inside is caught here and becomes the query's error.

pub mod kernel;
pub mod vector;

use std::ffi::{CString, c_char, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::null_mut;

use libduckdb_sys as ffi;
use rapidurl::field::Field;

use crate::kernel::Failure;
use crate::vector::{BoolOut, ListOut, MapOut, StrSink, StrVector, StructOut, VarcharOut};

/// The C API version the extension asks DuckDB for, and its footer declares (ABI type
/// `C_STRUCT`): the stable API of DuckDB 1.2.0. Every function the extension calls is in
/// that version's function table, at the same place in every later release's table, so
/// DuckDB loads the file into every release whose C API is at least this one (1.2.0 and
/// later, 2.0.x included). docs/duckdb.md lists the releases tested.
pub const C_API_VERSION: &str = "v1.2.0";

/// What a registered function computes; its argument types say whether it has a base.
#[derive(Clone, Debug)]
enum Op {
    Field(Field),
    Valid,
    Error,
    Parse,
    QueryParam,
    Join,
    Canonicalize,
    PatternTest,
    PatternExec,
}

/// An argument or result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Varchar,
    Blob,
    Boolean,
    /// `url_parse`'s STRUCT of the URL API's attributes.
    UrlStruct,
    /// MAP(VARCHAR, VARCHAR).
    Map,
}

/// One overload of one SQL function: its parameters' names and types, its result type.
struct Overload {
    params: Vec<(&'static str, Type)>,
    ret: Type,
}

/// A SQL function: its name, what it computes, what `rapidurl_functions()` says of it,
/// its overloads.
struct Function {
    name: String,
    op: Op,
    /// What it returns, as docs/duckdb.md's table says (`tests` compare the two).
    description: String,
    /// A call of it.
    example: String,
    overloads: Vec<Overload>,
}

/// The example URL of the per-URL functions' examples.
const EXAMPLE_URL: &str = "https://user:pw@www.Example.co.uk:8080/a/./b?q=1&lang=en#top";

/// What `url_<field>` returns (docs/duckdb.md's table).
fn describe(field: &Field) -> &'static str {
    match field {
        Field::Href => "the serialized URL",
        Field::Origin => "the serialized origin (null for an opaque origin)",
        Field::Protocol => "the scheme and :",
        Field::Username => "the username (empty when none)",
        Field::Password => "the password (empty when none)",
        Field::Host => "the host and port",
        Field::Hostname => "the host (lower-cased, IDNA to ASCII, IPv4/IPv6 serialized)",
        Field::Port => "the port, empty when absent or the scheme's default",
        Field::Pathname => "the path",
        Field::Search => "? and the query, empty when none",
        Field::Hash => "# and the fragment, empty when none",
        Field::PublicSuffix => {
            "the host's public suffix (built-in Public Suffix List); NULL unless the host is a domain"
        }
        Field::RegistrableDomain => {
            "the host's registrable domain; NULL when the host is not a domain or is a public suffix"
        }
        Field::Subdomain => "the labels before the registrable domain (empty when none)",
        Field::Display => "the URL for people: no credentials, Unicode host, safe percent-decoding",
        Field::ValidationErrors => {
            "the names of the input's validation errors, space-separated (empty when none); \
             url_validation_errors(url, base): those of the parse against base"
        }
        Field::Surt => "the SURT key (com,example)/a?b=1)",
        Field::Canonical => "the dedup key (url_canonicalize(url, 'dedup'))",
        other => unreachable!("{} has no SQL function of its own", other.name()),
    }
}

/// Every function of the extension (docs/duckdb.md lists them).
fn functions() -> Vec<Function> {
    use Type::*;
    // `(url)`, `(url BLOB)`, `(url, base)`: the overloads of the per-URL functions.
    let url_overloads = |ret: Type| {
        vec![
            Overload {
                params: vec![("url", Varchar)],
                ret,
            },
            Overload {
                params: vec![("url", Blob)],
                ret,
            },
            Overload {
                params: vec![("url", Varchar), ("base", Varchar)],
                ret,
            },
        ]
    };
    let two = |a: &'static str, b: &'static str, ret: Type| {
        vec![Overload {
            params: vec![(a, Varchar), (b, Varchar)],
            ret,
        }]
    };
    let per_url = |name: &str, op: Op, description: &str, ret: Type| Function {
        name: name.to_string(),
        op,
        description: description.to_string(),
        example: format!("{name}('{EXAMPLE_URL}')"),
        overloads: url_overloads(ret),
    };
    // `url_<field>` for every field of `kernel::sql_fields()` but `valid` (`url_valid`,
    // BOOLEAN, below).
    let mut out: Vec<Function> = kernel::sql_fields()
        .into_iter()
        .filter(|f| *f != Field::Valid)
        .map(|field| {
            let name = format!("url_{}", field.name());
            per_url(&name, Op::Field(field.clone()), describe(&field), Varchar)
        })
        .collect();
    out.push(per_url(
        "url_valid",
        Op::Valid,
        "whether the input is a valid URL string (URL Standard §4.3: stricter than \"parses\"; \
         false for an input that does not parse)",
        Boolean,
    ));
    out.push(per_url(
        "url_error",
        Op::Error,
        "the name of the validation error the input fails to parse with; NULL when it parses",
        Varchar,
    ));
    out.push(per_url(
        "url_parse",
        Op::Parse,
        "the URL API's attributes: STRUCT(href, origin, protocol, username, password, host, \
         hostname, port, pathname, search, hash) of VARCHAR; NULL when the input does not parse",
        UrlStruct,
    ));
    let pair = |name: &str,
                op: Op,
                description: &str,
                example: String,
                params: (&'static str, &'static str),
                ret: Type| Function {
        name: name.to_string(),
        op,
        description: description.to_string(),
        example,
        overloads: two(params.0, params.1, ret),
    };
    out.push(pair(
        "url_query_param",
        Op::QueryParam,
        "the decoded value of the query's first name pair; NULL when there is none",
        format!("url_query_param('{EXAMPLE_URL}', 'lang')"),
        ("url", "name"),
        Varchar,
    ));
    out.push(pair(
        "url_join",
        Op::Join,
        "relative resolved against base (new URL(relative, base).href)",
        "url_join('https://example.com/a/b', '../c?d=1')".into(),
        ("base", "relative"),
        Varchar,
    ));
    out.push(pair(
        "url_canonicalize",
        Op::Canonicalize,
        "the URL's key under preset: 'dedup', 'scrapy', 'safe_browsing' (URLs) or 'surt'; \
         an unknown preset is an error; NULL when the URL does not parse, but \
         'safe_browsing' takes any input, as Google's rules and Python's \
         rapidurl.canonicalize do (no scheme means http://)",
        format!("url_canonicalize('{EXAMPLE_URL}', 'scrapy')"),
        ("url", "preset"),
        Varchar,
    ));
    out.push(pair(
        "url_pattern_test",
        Op::PatternTest,
        "whether the URL matches the URL pattern (a URLPattern constructor string such as \
         'https://*.example.com/books/:id'); NULL when the URL does not parse",
        "url_pattern_test('https://*.example.com/books/:id', 'https://shop.example.com/books/42')"
            .into(),
        ("pattern", "url"),
        Boolean,
    ));
    out.push(pair(
        "url_pattern_exec",
        Op::PatternExec,
        "the match's groups: named groups by name, unnamed ones as component.N (pathname.0), \
         a component that is * alone left out (the tool's route_params); NULL when the URL \
         does not match or does not parse",
        "url_pattern_exec('https://*.example.com/books/:id', 'https://shop.example.com/books/42')"
            .into(),
        ("pattern", "url"),
        Map,
    ));
    out
}

/// The names of every SQL function of the extension.
pub fn function_names() -> Vec<String> {
    functions().into_iter().map(|f| f.name).collect()
}

/// One row of `rapidurl_functions()`: one overload of one function, as docs/duckdb.md's
/// table describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CatalogRow {
    /// The function's name.
    pub function_name: String,
    /// Its parameters' names (`url`, `base`, `name`, …).
    pub parameters: Vec<String>,
    /// Their SQL types.
    pub parameter_types: Vec<String>,
    /// The SQL type it returns.
    pub return_type: String,
    /// What it returns (the table's text; an overload with a base adds "(the input parsed
    /// against base)").
    pub description: String,
    /// A call of it, for the first form of each function; `None` for the others.
    pub example: Option<String>,
}

impl Type {
    /// The type as DuckDB spells it (`duckdb_functions()`'s `return_type`).
    fn sql(self) -> String {
        match self {
            Type::Varchar => "VARCHAR".into(),
            Type::Blob => "BLOB".into(),
            Type::Boolean => "BOOLEAN".into(),
            Type::UrlStruct => format!(
                "STRUCT({})",
                kernel::PARSE_MEMBERS
                    .iter()
                    .map(|f| format!("{} VARCHAR", f.name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Type::Map => "MAP(VARCHAR, VARCHAR)".into(),
        }
    }
}

/// Whether an overload parses its input against a base (every `(url, base)` form but
/// `url_join`'s own `(base, relative)`).
fn has_base(f: &Function, o: &Overload) -> bool {
    o.params.iter().any(|(name, _)| *name == "base") && !matches!(f.op, Op::Join)
}

/// Every overload of every function, with its parameter names, types, description and
/// example: what `rapidurl_functions()` returns, one row an overload.
pub fn catalog() -> Vec<CatalogRow> {
    let mut rows = Vec::new();
    for f in functions() {
        for (k, o) in f.overloads.iter().enumerate() {
            let description = if has_base(&f, o) {
                format!("{} (the input parsed against base)", f.description)
            } else {
                f.description.clone()
            };
            rows.push(CatalogRow {
                function_name: f.name.clone(),
                parameters: o.params.iter().map(|(n, _)| n.to_string()).collect(),
                parameter_types: o.params.iter().map(|(_, t)| t.sql()).collect(),
                return_type: o.ret.sql(),
                description,
                example: (k == 0).then(|| f.example.clone()),
            });
        }
    }
    rows
}

/// A C string for the C API (names and messages never hold NUL; one that did would be
/// cut there).
fn c_string(s: &str) -> CString {
    CString::new(s).unwrap_or_else(|e| {
        let end = e.nul_position();
        CString::new(&s[..end]).expect("cut before the first NUL")
    })
}

/// A DuckDB logical type, destroyed when dropped.
struct LogicalType(ffi::duckdb_logical_type);

impl LogicalType {
    fn plain(id: ffi::DUCKDB_TYPE) -> LogicalType {
        // SAFETY: the C API is initialized (the entry point does it first).
        LogicalType(unsafe { ffi::duckdb_create_logical_type(id) })
    }

    /// The type of `ty`.
    fn of(ty: Type) -> LogicalType {
        match ty {
            Type::Varchar => LogicalType::plain(ffi::DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR),
            Type::Blob => LogicalType::plain(ffi::DUCKDB_TYPE_DUCKDB_TYPE_BLOB),
            Type::Boolean => LogicalType::plain(ffi::DUCKDB_TYPE_DUCKDB_TYPE_BOOLEAN),
            Type::UrlStruct => {
                let members: Vec<LogicalType> = kernel::PARSE_MEMBERS
                    .iter()
                    .map(|_| LogicalType::of(Type::Varchar))
                    .collect();
                let names: Vec<CString> = kernel::PARSE_MEMBERS
                    .iter()
                    .map(|f| c_string(&f.name()))
                    .collect();
                let mut types: Vec<ffi::duckdb_logical_type> =
                    members.iter().map(|t| t.0).collect();
                let mut name_ptrs: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
                // SAFETY: as many live member types as names; DuckDB copies both.
                LogicalType(unsafe {
                    ffi::duckdb_create_struct_type(
                        types.as_mut_ptr(),
                        name_ptrs.as_mut_ptr(),
                        types.len() as u64,
                    )
                })
            }
            Type::Map => {
                let (k, v) = (
                    LogicalType::of(Type::Varchar),
                    LogicalType::of(Type::Varchar),
                );
                // SAFETY: two live types; DuckDB copies them.
                LogicalType(unsafe { ffi::duckdb_create_map_type(k.0, v.0) })
            }
        }
    }

    /// LIST(VARCHAR).
    fn varchar_list() -> LogicalType {
        let v = LogicalType::of(Type::Varchar);
        // SAFETY: a live type; DuckDB copies it.
        LogicalType(unsafe { ffi::duckdb_create_list_type(v.0) })
    }
}

impl Drop for LogicalType {
    fn drop(&mut self) {
        // SAFETY: created by DuckDB, destroyed once.
        unsafe { ffi::duckdb_destroy_logical_type(&mut self.0) };
    }
}

/// A scalar function set being built, destroyed when dropped (DuckDB keeps a copy of what
/// it registers).
struct FunctionSet(ffi::duckdb_scalar_function_set);

impl Drop for FunctionSet {
    fn drop(&mut self) {
        // SAFETY: created by DuckDB, destroyed once.
        unsafe { ffi::duckdb_destroy_scalar_function_set(&mut self.0) };
    }
}

/// A scalar function being built, destroyed when dropped.
struct ScalarFunction(ffi::duckdb_scalar_function);

impl Drop for ScalarFunction {
    fn drop(&mut self) {
        // SAFETY: created by DuckDB, destroyed once.
        unsafe { ffi::duckdb_destroy_scalar_function(&mut self.0) };
    }
}

/// The state a registered overload keeps: what it computes, and its result type.
struct Extra {
    op: Op,
    ret: Type,
}

unsafe extern "C" fn destroy_extra(p: *mut c_void) {
    // SAFETY: `p` is the `Box<Extra>` given to `duckdb_scalar_function_set_extra_info`.
    drop(unsafe { Box::from_raw(p as *mut Extra) });
}

/// Registers every overload of every function, then `rapidurl_functions()`, on
/// `connection`.
///
/// # Safety
/// `connection` must be a live connection to the loading database, the C API initialized.
unsafe fn register(connection: ffi::duckdb_connection) -> Result<(), String> {
    for f in functions() {
        let name = c_string(&f.name);
        // SAFETY: DuckDB's builder calls on live handles; names and types are copied by
        // DuckDB; the extra info is owned by DuckDB once set.
        unsafe {
            let set = FunctionSet(ffi::duckdb_create_scalar_function_set(name.as_ptr()));
            for o in &f.overloads {
                let func = ScalarFunction(ffi::duckdb_create_scalar_function());
                ffi::duckdb_scalar_function_set_name(func.0, name.as_ptr());
                for &(_, ty) in &o.params {
                    let t = LogicalType::of(ty);
                    ffi::duckdb_scalar_function_add_parameter(func.0, t.0);
                }
                let r = LogicalType::of(o.ret);
                ffi::duckdb_scalar_function_set_return_type(func.0, r.0);
                let extra = Box::into_raw(Box::new(Extra {
                    op: f.op.clone(),
                    ret: o.ret,
                }));
                ffi::duckdb_scalar_function_set_extra_info(
                    func.0,
                    extra as *mut c_void,
                    Some(destroy_extra),
                );
                ffi::duckdb_scalar_function_set_function(func.0, Some(invoke));
                if ffi::duckdb_add_scalar_function_to_set(set.0, func.0)
                    != ffi::duckdb_state_DuckDBSuccess
                {
                    return Err(format!(
                        "rapidurl: DuckDB refused an overload of {}",
                        f.name
                    ));
                }
            }
            if ffi::duckdb_register_scalar_function_set(connection, set.0)
                != ffi::duckdb_state_DuckDBSuccess
            {
                return Err(format!("rapidurl: DuckDB refused to register {}", f.name));
            }
        }
    }
    // SAFETY: the caller's contract.
    unsafe { register_catalog(connection) }
}

/// The columns of `rapidurl_functions()`, in order.
const CATALOG_COLUMNS: [&str; 6] = [
    "function_name",
    "parameters",
    "parameter_types",
    "return_type",
    "description",
    "example",
];

/// Registers the table function `rapidurl_functions()`.
///
/// # Safety
/// As [`register`].
unsafe fn register_catalog(connection: ffi::duckdb_connection) -> Result<(), String> {
    let name = c_string("rapidurl_functions");
    // SAFETY: DuckDB's builder calls on a live handle, destroyed once.
    unsafe {
        let mut table = ffi::duckdb_create_table_function();
        ffi::duckdb_table_function_set_name(table, name.as_ptr());
        ffi::duckdb_table_function_set_bind(table, Some(catalog_bind));
        ffi::duckdb_table_function_set_init(table, Some(catalog_init));
        ffi::duckdb_table_function_set_function(table, Some(catalog_scan));
        let state = ffi::duckdb_register_table_function(connection, table);
        ffi::duckdb_destroy_table_function(&mut table);
        if state != ffi::duckdb_state_DuckDBSuccess {
            return Err("rapidurl: DuckDB refused to register rapidurl_functions".into());
        }
    }
    Ok(())
}

unsafe extern "C" fn catalog_bind(info: ffi::duckdb_bind_info) {
    for column in CATALOG_COLUMNS {
        let ty = if column.starts_with("parameter") {
            LogicalType::varchar_list()
        } else {
            LogicalType::of(Type::Varchar)
        };
        let column = c_string(column);
        // SAFETY: DuckDB's live bind info; it copies the name and the type.
        unsafe { ffi::duckdb_bind_add_result_column(info, column.as_ptr(), ty.0) };
    }
    // SAFETY: as above.
    unsafe { ffi::duckdb_bind_set_cardinality(info, catalog().len() as u64, true) };
}

unsafe extern "C" fn destroy_position(p: *mut c_void) {
    // SAFETY: `p` is the `Box<usize>` given to `duckdb_init_set_init_data`.
    drop(unsafe { Box::from_raw(p as *mut usize) });
}

unsafe extern "C" fn catalog_init(info: ffi::duckdb_init_info) {
    // SAFETY: DuckDB's live init info; it owns the position from here on.
    unsafe {
        ffi::duckdb_init_set_init_data(
            info,
            Box::into_raw(Box::new(0usize)) as *mut c_void,
            Some(destroy_position),
        )
    };
}

/// Writes the next rows of the catalog into `output` (empty once every row is out).
unsafe extern "C" fn catalog_scan(info: ffi::duckdb_function_info, output: ffi::duckdb_data_chunk) {
    let run = AssertUnwindSafe(|| -> Result<(), String> {
        // SAFETY: the init data is the position set by `catalog_init`; `output` is a live
        // chunk of the bound columns with room for `duckdb_vector_size()` rows.
        unsafe {
            let position = &mut *(ffi::duckdb_function_get_init_data(info) as *mut usize);
            let rows = catalog();
            let room = ffi::duckdb_vector_size() as usize;
            let todo = &rows[(*position).min(rows.len())..];
            let todo = &todo[..todo.len().min(room)];
            let column = |k: u64| ffi::duckdb_data_chunk_get_vector(output, k);
            let mut name = VarcharOut::new(column(0));
            let mut params = ListOut::<String>::new(column(1));
            let mut types = ListOut::<String>::new(column(2));
            let mut ret = VarcharOut::new(column(3));
            let mut description = VarcharOut::new(column(4));
            let mut example = VarcharOut::new(column(5));
            for (i, row) in todo.iter().enumerate() {
                name.put(i, &row.function_name);
                params.put(i, &strs(&row.parameters));
                types.put(i, &strs(&row.parameter_types));
                ret.put(i, &row.return_type);
                description.put(i, &row.description);
                match &row.example {
                    Some(e) => example.put(i, e),
                    None => example.null(i),
                }
            }
            params.finish()?;
            types.finish()?;
            drop((name, ret, description, example));
            ffi::duckdb_data_chunk_set_size(output, todo.len() as u64);
            *position += todo.len();
        }
        Ok(())
    });
    if let Some(message) = failure(catch_unwind(run)) {
        let message = c_string(&message);
        // SAFETY: DuckDB's live function info; it copies the message.
        unsafe { ffi::duckdb_function_set_error(info, message.as_ptr()) };
    }
}

/// The strings of `v`, borrowed.
fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(|s| s.as_str()).collect()
}

/// The message of a failed or panicking call; `None` when it succeeded.
fn failure(result: std::thread::Result<Result<(), String>>) -> Option<String> {
    match result {
        Ok(Ok(())) => None,
        Ok(Err(message)) => Some(message),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Some(format!(
                "rapidurl: internal error (a panic, caught): {what}"
            ))
        }
    }
}

/// The one callback of every function: runs the op's row loop over the chunk; a failure
/// or a panic becomes the query's error.
unsafe extern "C" fn invoke(
    info: ffi::duckdb_function_info,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
) {
    let run = AssertUnwindSafe(|| {
        // SAFETY: DuckDB hands a live call whose arguments are flat vectors of the
        // overload's types (all strings: VARCHAR or BLOB) and a result vector of its
        // result type; the extra info is the `Extra` registered with the overload.
        unsafe {
            let extra = &*(ffi::duckdb_scalar_function_get_extra_info(info) as *const Extra);
            let rows = ffi::duckdb_data_chunk_get_size(input) as usize;
            let args = ffi::duckdb_data_chunk_get_column_count(input);
            let arg =
                |k: u64| StrVector::of_vector(ffi::duckdb_data_chunk_get_vector(input, k), rows);
            let first = arg(0);
            let second = (args > 1).then(|| arg(1));
            run_op(extra, first, second, output).map_err(|Failure(m)| m)
        }
    });
    if let Some(message) = failure(catch_unwind(run)) {
        let message = c_string(&message);
        // SAFETY: DuckDB's live function info; it copies the message.
        unsafe { ffi::duckdb_scalar_function_set_error(info, message.as_ptr()) };
    }
}

/// Runs `extra`'s op over its arguments into `output`.
///
/// # Safety
/// `output` must be a live flat output vector of `extra.ret`'s type with room for the
/// rows.
unsafe fn run_op<'a>(
    extra: &Extra,
    first: StrVector<'a>,
    second: Option<StrVector<'a>>,
    output: ffi::duckdb_vector,
) -> Result<(), Failure> {
    let need = |v: Option<StrVector<'a>>| v.expect("a two-argument function");
    // SAFETY: the caller's contract, for each result type.
    unsafe {
        let varchar = || VarcharOut::new(output);
        let boolean = || BoolOut::new(output);
        match &extra.op {
            Op::Field(f) => kernel::field(f, first, second, &mut varchar()),
            Op::Valid => kernel::valid(first, second, &mut boolean()),
            Op::Error => kernel::error(first, second, &mut varchar()),
            Op::Parse => {
                debug_assert_eq!(extra.ret, Type::UrlStruct);
                let mut out = StructOut::new(output, kernel::PARSE_MEMBERS.len());
                kernel::parse(first, second, &mut out)
            }
            Op::QueryParam => kernel::query_param(first, need(second), &mut varchar()),
            Op::Join => kernel::join(first, need(second), &mut varchar()),
            Op::Canonicalize => {
                return kernel::canonicalize(first, need(second), &mut varchar());
            }
            Op::PatternTest => {
                return kernel::pattern_test(first, need(second), &mut boolean());
            }
            Op::PatternExec => {
                let mut out = MapOut::new(output);
                kernel::pattern_exec(first, need(second), &mut out)?;
                return out.finish().map_err(Failure);
            }
        }
    }
    Ok(())
}

/// Asks DuckDB for its C API, then registers the functions on a connection of its own.
/// `Err(None)`: DuckDB refused and has recorded why.
///
/// # Safety
/// DuckDB's arguments to the entry point.
unsafe fn init(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> Result<(), Option<String>> {
    // SAFETY: DuckDB's entry-point arguments, live for the call; the database it hands is
    // borrowed for the call, the connection opened here closed before returning.
    unsafe {
        if !ffi::duckdb_rs_extension_api_init(info, access, C_API_VERSION)
            .map_err(|e| Some(e.to_string()))?
        {
            return Err(None);
        }
        let get_database = (*access)
            .get_database
            .ok_or_else(|| Some("rapidurl: DuckDB gave no get_database".to_string()))?;
        let database = get_database(info);
        if database.is_null() {
            return Err(None);
        }
        let mut connection: ffi::duckdb_connection = null_mut();
        if ffi::duckdb_connect(*database, &mut connection) != ffi::duckdb_state_DuckDBSuccess {
            return Err(Some(
                "rapidurl: could not connect to the loading database".into(),
            ));
        }
        let result = register(connection);
        ffi::duckdb_disconnect(&mut connection);
        result.map_err(Some)
    }
}

/// The extension's entry point (DuckDB calls `<name>_init_c_api` for a `C_STRUCT` file,
/// the name being the file's: `rapidurl`). Returns whether the extension loaded; when
/// not, the reason is given to DuckDB, which makes it the `LOAD`'s error.
///
/// # Safety
/// Called by DuckDB's extension loader, with its arguments.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rapidurl_init_c_api(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> bool {
    // SAFETY: DuckDB's arguments, passed on.
    let result = catch_unwind(AssertUnwindSafe(|| unsafe { init(info, access) }))
        .unwrap_or_else(|_| Err(Some("rapidurl: a panic while loading the extension".into())));
    match result {
        Ok(()) => true,
        Err(None) => false,
        Err(Some(message)) => {
            let message = c_string(&message);
            // SAFETY: DuckDB's live access struct; it copies the message.
            unsafe {
                if let Some(set_error) = (*access).set_error {
                    set_error(info, message.as_ptr());
                }
            }
            false
        }
    }
}
