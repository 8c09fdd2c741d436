//! rapidurl as a DuckDB loadable extension: vectorized `url_*` scalar functions on
//! DuckDB's C extension API (DuckDB 2.0, through `libduckdb-sys`'s `loadable-extension`
//! bindings). See docs/duckdb.md for the functions, the build and the supported versions.
//!
//! DuckDB opens `rapidurl.duckdb_extension` (this library with DuckDB's metadata footer,
//! appended by `scripts/append_metadata.py`) and calls [`rapidurl_init_c_api`], which
//! registers every function on a connection of its own. Each function is called with a
//! chunk of up to 2048 rows (its arguments flattened) and runs one of the row loops of
//! [`kernel`] over them; a panic inside is caught here and becomes the query's error.

pub mod kernel;
pub mod vector;

use std::ffi::{CString, c_char, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};

use libduckdb_sys as ffi;
use rapidurl::field::Field;

use crate::kernel::Failure;
use crate::vector::{BoolOut, MapOut, StrVector, StructOut, VarcharOut};

/// The C API version the extension asks DuckDB for (and that its footer names): every
/// function it calls is in the stable API of this version.
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

/// One overload of one SQL function.
struct Overload {
    params: Vec<Type>,
    ret: Type,
}

/// A SQL function: its name, what it computes, its overloads.
struct Function {
    name: String,
    op: Op,
    overloads: Vec<Overload>,
}

/// Every function of the extension (docs/duckdb.md lists them).
fn functions() -> Vec<Function> {
    use Type::*;
    // `(url)`, `(url BLOB)`, `(url, base)`: the overloads of the per-URL functions.
    let url_overloads = |ret: Type| {
        vec![
            Overload {
                params: vec![Varchar],
                ret,
            },
            Overload {
                params: vec![Blob],
                ret,
            },
            Overload {
                params: vec![Varchar, Varchar],
                ret,
            },
        ]
    };
    let two = |ret: Type| {
        vec![Overload {
            params: vec![Varchar, Varchar],
            ret,
        }]
    };
    // `url_<field>` for every field of `kernel::sql_fields()` but `valid` (`url_valid`,
    // BOOLEAN, below).
    let mut out: Vec<Function> = kernel::sql_fields()
        .into_iter()
        .filter(|f| *f != Field::Valid)
        .map(|field| Function {
            name: format!("url_{}", field.name()),
            op: Op::Field(field),
            overloads: url_overloads(Varchar),
        })
        .collect();
    out.push(Function {
        name: "url_valid".into(),
        op: Op::Valid,
        overloads: url_overloads(Boolean),
    });
    out.push(Function {
        name: "url_error".into(),
        op: Op::Error,
        overloads: url_overloads(Varchar),
    });
    out.push(Function {
        name: "url_parse".into(),
        op: Op::Parse,
        overloads: url_overloads(UrlStruct),
    });
    out.push(Function {
        name: "url_query_param".into(),
        op: Op::QueryParam,
        overloads: two(Varchar),
    });
    out.push(Function {
        name: "url_join".into(),
        op: Op::Join,
        overloads: two(Varchar),
    });
    out.push(Function {
        name: "url_canonicalize".into(),
        op: Op::Canonicalize,
        overloads: two(Varchar),
    });
    out.push(Function {
        name: "url_pattern_test".into(),
        op: Op::PatternTest,
        overloads: two(Boolean),
    });
    out.push(Function {
        name: "url_pattern_exec".into(),
        op: Op::PatternExec,
        overloads: two(Map),
    });
    out
}

/// The names of every SQL function of the extension.
pub fn function_names() -> Vec<String> {
    functions().into_iter().map(|f| f.name).collect()
}

/// A DuckDB logical type, destroyed when dropped.
struct LogicalType(ffi::duckdb_logical_type);

impl LogicalType {
    fn of(ty: Type) -> LogicalType {
        // SAFETY: DuckDB's type constructors; each result is destroyed by `Drop`, and the
        // struct and map constructors copy their members.
        unsafe {
            let simple = |id| LogicalType(ffi::duckdb_create_logical_type(id));
            match ty {
                Type::Varchar => simple(ffi::DUCKDB_TYPE_DUCKDB_TYPE_VARCHAR),
                Type::Blob => simple(ffi::DUCKDB_TYPE_DUCKDB_TYPE_BLOB),
                Type::Boolean => simple(ffi::DUCKDB_TYPE_DUCKDB_TYPE_BOOLEAN),
                Type::UrlStruct => {
                    let members: Vec<LogicalType> = kernel::PARSE_MEMBERS
                        .iter()
                        .map(|_| LogicalType::of(Type::Varchar))
                        .collect();
                    let mut types: Vec<ffi::duckdb_logical_type> =
                        members.iter().map(|t| t.0).collect();
                    let names: Vec<CString> = kernel::PARSE_MEMBERS
                        .iter()
                        .map(|f| CString::new(f.name().as_ref()).expect("no NUL"))
                        .collect();
                    let mut name_ptrs: Vec<*const c_char> =
                        names.iter().map(|n| n.as_ptr()).collect();
                    LogicalType(ffi::duckdb_create_struct_type(
                        types.as_mut_ptr(),
                        name_ptrs.as_mut_ptr(),
                        types.len() as u64,
                    ))
                }
                Type::Map => {
                    let (k, v) = (
                        LogicalType::of(Type::Varchar),
                        LogicalType::of(Type::Varchar),
                    );
                    LogicalType(ffi::duckdb_create_map_type(k.0, v.0))
                }
            }
        }
    }
}

impl Drop for LogicalType {
    fn drop(&mut self) {
        // SAFETY: created by DuckDB, destroyed once.
        unsafe { ffi::duckdb_destroy_logical_type(&mut self.0) }
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

/// Registers every function on `con`.
///
/// # Safety
/// `con` must be a live connection and the C API initialized.
unsafe fn register(con: ffi::duckdb_connection) -> Result<(), String> {
    for f in functions() {
        let name = CString::new(f.name.as_str()).expect("no NUL");
        // SAFETY: DuckDB's registration calls on live handles; the set and each function
        // are destroyed after registering (DuckDB keeps copies), the extra info is
        // owned by DuckDB from then on.
        unsafe {
            let mut set = ffi::duckdb_create_scalar_function_set(name.as_ptr());
            for o in &f.overloads {
                let mut func = ffi::duckdb_create_scalar_function();
                ffi::duckdb_scalar_function_set_name(func, name.as_ptr());
                for &p in &o.params {
                    let t = LogicalType::of(p);
                    ffi::duckdb_scalar_function_add_parameter(func, t.0);
                }
                let r = LogicalType::of(o.ret);
                ffi::duckdb_scalar_function_set_return_type(func, r.0);
                let extra = Box::new(Extra {
                    op: f.op.clone(),
                    ret: o.ret,
                });
                ffi::duckdb_scalar_function_set_extra_info(
                    func,
                    Box::into_raw(extra) as *mut c_void,
                    Some(destroy_extra),
                );
                ffi::duckdb_scalar_function_set_function(func, Some(invoke));
                let added = ffi::duckdb_add_scalar_function_to_set(set, func);
                ffi::duckdb_destroy_scalar_function(&mut func);
                if added != ffi::DuckDBSuccess {
                    ffi::duckdb_destroy_scalar_function_set(&mut set);
                    return Err(format!("could not add an overload of {}", f.name));
                }
            }
            let state = ffi::duckdb_register_scalar_function_set(con, set);
            ffi::duckdb_destroy_scalar_function_set(&mut set);
            if state != ffi::DuckDBSuccess {
                return Err(format!("could not register {}", f.name));
            }
        }
    }
    Ok(())
}

/// The one callback of every function: runs the op's row loop over the chunk; a failure
/// or a panic becomes the query's error.
unsafe extern "C" fn invoke(
    info: ffi::duckdb_function_info,
    input: ffi::duckdb_data_chunk,
    output: ffi::duckdb_vector,
) {
    let run = AssertUnwindSafe(|| {
        // SAFETY: DuckDB hands a live chunk whose columns have the overload's types (all
        // strings: VARCHAR or BLOB), flattened, and an output vector of its result type;
        // the extra info is the `Extra` registered with the overload.
        unsafe {
            let extra = &*(ffi::duckdb_scalar_function_get_extra_info(info) as *const Extra);
            let columns = ffi::duckdb_data_chunk_get_column_count(input);
            let arg = |c: u64| StrVector::of_chunk(input, c);
            let second = (columns > 1).then(|| arg(1));
            run_op(extra, arg(0), second, output)
        }
    });
    let message = match catch_unwind(run) {
        Ok(Ok(())) => return,
        Ok(Err(Failure(message))) => message,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            format!("rapidurl: internal error (a panic, caught): {what}")
        }
    };
    let message = CString::new(message.replace('\0', " ")).expect("no NUL");
    // SAFETY: `info` is live; DuckDB copies the message.
    unsafe { ffi::duckdb_scalar_function_set_error(info, message.as_ptr()) }
}

/// Runs `extra`'s op over its arguments into `output`.
///
/// # Safety
/// `output` must be a live output vector of `extra.ret`'s type with room for the rows.
unsafe fn run_op<'a>(
    extra: &Extra,
    first: StrVector<'a>,
    second: Option<StrVector<'a>>,
    output: ffi::duckdb_vector,
) -> Result<(), Failure> {
    let need = |v: Option<StrVector<'a>>| v.expect("a two-argument function");
    // SAFETY: the caller's contract, for each result type.
    unsafe {
        match &extra.op {
            Op::Field(f) => kernel::field(f, first, second, &mut VarcharOut::new(output)),
            Op::Valid => kernel::valid(first, second, &mut BoolOut::new(output)),
            Op::Error => kernel::error(first, second, &mut VarcharOut::new(output)),
            Op::Parse => {
                debug_assert_eq!(extra.ret, Type::UrlStruct);
                let mut out = StructOut::new(output, kernel::PARSE_MEMBERS.len());
                kernel::parse(first, second, &mut out)
            }
            Op::QueryParam => {
                kernel::query_param(first, need(second), &mut VarcharOut::new(output))
            }
            Op::Join => kernel::join(first, need(second), &mut VarcharOut::new(output)),
            Op::Canonicalize => {
                return kernel::canonicalize(first, need(second), &mut VarcharOut::new(output));
            }
            Op::PatternTest => {
                return kernel::pattern_test(first, need(second), &mut BoolOut::new(output));
            }
            Op::PatternExec => {
                return kernel::pattern_exec(first, need(second), &mut MapOut::new(output));
            }
        }
    }
    Ok(())
}

/// Asks DuckDB for its C API, then registers the functions on a connection of its own.
///
/// # Safety
/// DuckDB's arguments to the entry point.
unsafe fn init(
    info: ffi::duckdb_extension_info,
    access: *const ffi::duckdb_extension_access,
) -> Result<bool, String> {
    // SAFETY: DuckDB's entry-point arguments: `access` is its table of callbacks.
    unsafe {
        if !ffi::duckdb_rs_extension_api_init(info, access, C_API_VERSION)? {
            // DuckDB has set the error (a C API it does not have).
            return Ok(false);
        }
        let get_database = (*access)
            .get_database
            .ok_or("DuckDB gave no get_database")?;
        let db = get_database(info);
        if db.is_null() {
            return Err("DuckDB gave no database".into());
        }
        let mut con: ffi::duckdb_connection = std::ptr::null_mut();
        if ffi::duckdb_connect(*db, &mut con) != ffi::DuckDBSuccess {
            return Err("could not connect to the database".into());
        }
        let registered = register(con);
        ffi::duckdb_disconnect(&mut con);
        registered.map(|()| true)
    }
}

/// The extension's entry point (DuckDB calls `<name>_init_c_api`, the name being the
/// file's: `rapidurl`).
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
        .unwrap_or_else(|_| Err("rapidurl: a panic while loading the extension".into()));
    match result {
        Ok(loaded) => loaded,
        Err(message) => {
            // SAFETY: `access` is DuckDB's; it copies the message.
            unsafe {
                if let Some(set_error) = (*access).set_error {
                    let m = CString::new(message.replace('\0', " ")).expect("no NUL");
                    set_error(info, m.as_ptr());
                }
            }
            false
        }
    }
}
