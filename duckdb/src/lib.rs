//! rapidurl as a DuckDB loadable extension: vectorized `url_*` scalar functions on
//! DuckDB's v2 C extension API (DuckDB 2.0, through `libduckdb-sys`'s
//! `loadable-extension-v2` bindings). See docs/duckdb.md for the functions, the build and
//! the supported versions.
//!
//! DuckDB opens `rapidurl.duckdb_extension` (this library with DuckDB's metadata footer,
//! appended by `scripts/append_metadata.py`) and calls [`rapidurl_init_c_api_v2`], which
//! registers every overload of every function with its parameter names, description and
//! example (what `duckdb_functions()` shows). Each function is called with a chunk of up
//! to 2048 rows and runs one of the row loops of [`kernel`] over them; a failure or a
//! panic inside is caught here and becomes the query's error.

pub mod kernel;
pub mod vector;

use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::null_mut;

use libduckdb_sys::v2 as ffi;
use rapidurl::field::Field;

use crate::kernel::Failure;
use crate::vector::{BoolOut, MapOut, StrVector, StructOut, VarcharOut, call};

/// The C API version the extension asks DuckDB for. The v2 API has no stable function
/// yet, so the footer names the one DuckDB version the extension loads into
/// ([`DUCKDB_VERSION`], ABI type `C_STRUCT_UNSTABLE`).
pub const C_API_VERSION: &str = "v2.0.0";

/// The DuckDB release the extension is built for and loads into (its footer's version).
pub const DUCKDB_VERSION: &str = "v2.0.0";

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

/// A SQL function: its name, what it computes, what `duckdb_functions()` says of it, its
/// overloads.
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
            "the names of the input's validation errors, space-separated (empty when none)"
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
         an unknown preset is an error",
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

/// A `duckdb_v2_str` view of `s` (borrowed for the call it is passed to).
fn text(s: &str) -> ffi::duckdb_v2_str {
    ffi::duckdb_v2_str {
        ptr: s.as_ptr() as *const std::ffi::c_char,
        len: s.len() as u64,
    }
}

/// A DuckDB logical type, destroyed when dropped.
struct LogicalType(ffi::duckdb_v2_logical_type_handle);

impl LogicalType {
    /// The type of `ty`, built by DuckDB from its SQL spelling.
    ///
    /// # Safety
    /// `factory` must be live and the C API initialized.
    unsafe fn of(factory: ffi::duckdb_v2_factory_handle, ty: Type) -> Result<LogicalType, String> {
        let sql = match ty {
            Type::Varchar => "VARCHAR".to_string(),
            Type::Blob => "BLOB".to_string(),
            Type::Boolean => "BOOLEAN".to_string(),
            Type::UrlStruct => format!(
                "STRUCT({})",
                kernel::PARSE_MEMBERS
                    .iter()
                    .map(|f| format!("\"{}\" VARCHAR", f.name()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Type::Map => "MAP(VARCHAR, VARCHAR)".to_string(),
        };
        let mut out = null_mut();
        // SAFETY: the caller's contract; DuckDB copies the text.
        unsafe {
            call(&format!("create the type {sql}"), |e| {
                ffi::duckdb_v2_factory_create_type_from_text(factory, &text(&sql), &mut out, e)
            })?
        };
        Ok(LogicalType(out))
    }
}

impl Drop for LogicalType {
    fn drop(&mut self) {
        // SAFETY: created by DuckDB, destroyed once.
        unsafe { ffi::duckdb_v2_logical_type_destroy(&mut self.0) };
    }
}

/// A scalar function being built, destroyed when dropped (DuckDB keeps a copy of what it
/// registers).
struct ScalarFunction(ffi::duckdb_v2_scalar_function_handle);

impl Drop for ScalarFunction {
    fn drop(&mut self) {
        // SAFETY: created by DuckDB, destroyed once.
        unsafe { ffi::duckdb_v2_scalar_function_destroy(&mut self.0) };
    }
}

/// The state a registered overload keeps: what it computes, and its result type.
struct Extra {
    op: Op,
    ret: Type,
}

unsafe extern "C" fn destroy_extra(p: *mut c_void) {
    // SAFETY: `p` is the `Box<Extra>` given to `duckdb_v2_scalar_function_set_user_data`.
    drop(unsafe { Box::from_raw(p as *mut Extra) });
}

/// Registers every overload of every function with the loading extension.
///
/// # Safety
/// `extension` and `factory` must be DuckDB's, during the entry point, the C API
/// initialized.
unsafe fn register(
    extension: ffi::duckdb_v2_extension_handle,
    factory: ffi::duckdb_v2_factory_handle,
) -> Result<(), String> {
    for f in functions() {
        for o in &f.overloads {
            let with_base =
                o.params.iter().any(|(name, _)| *name == "base") && !matches!(f.op, Op::Join);
            let description = if with_base {
                format!("{} (the input parsed against base)", f.description)
            } else {
                f.description.clone()
            };
            let what = |step: &str| format!("register {}: {step}", f.name);
            // SAFETY: DuckDB's builder calls on live handles; names, types and texts are
            // copied by DuckDB; the user data is owned by DuckDB once set.
            unsafe {
                let mut func = ScalarFunction(null_mut());
                call(&what("create"), |e| {
                    ffi::duckdb_v2_scalar_function_create(factory, &mut func.0, e)
                })?;
                call(&what("name"), |e| {
                    ffi::duckdb_v2_scalar_function_set_name(func.0, &text(&f.name), e)
                })?;
                let mut sig = null_mut();
                call(&what("signature"), |e| {
                    ffi::duckdb_v2_scalar_function_get_signature(func.0, &mut sig, e)
                })?;
                for &(name, ty) in &o.params {
                    let t = LogicalType::of(factory, ty)?;
                    call(&what("parameter"), |e| {
                        ffi::duckdb_v2_function_signature_add_parameter(
                            sig,
                            &text(name),
                            t.0,
                            null_mut(),
                            ffi::DUCKDB_V2_FUNCTION_PARAMETER_KIND::DUCKDB_V2_FUNCTION_PARAMETER_KIND_STANDARD,
                            e,
                        )
                    })?;
                }
                let r = LogicalType::of(factory, o.ret)?;
                call(&what("return type"), |e| {
                    ffi::duckdb_v2_function_signature_set_return_type(sig, r.0, e)
                })?;
                let mut docs = null_mut();
                call(&what("docs"), |e| {
                    ffi::duckdb_v2_scalar_function_get_docs(func.0, &mut docs, e)
                })?;
                call(&what("description"), |e| {
                    ffi::duckdb_v2_function_docs_set_description(docs, &text(&description), e)
                })?;
                if !with_base && o.params[0].1 != Type::Blob {
                    call(&what("example"), |e| {
                        ffi::duckdb_v2_function_docs_add_example(
                            docs,
                            std::ptr::null(),
                            &text(&f.example),
                            e,
                        )
                    })?;
                }
                let mut extra = ffi::duckdb_v2_opaque {
                    ptr: Box::into_raw(Box::new(Extra {
                        op: f.op.clone(),
                        ret: o.ret,
                    })) as *mut c_void,
                    destroy: Some(destroy_extra),
                    equals: None,
                };
                call(&what("user data"), |e| {
                    ffi::duckdb_v2_scalar_function_set_user_data(func.0, &mut extra, e)
                })?;
                call(&what("callback"), |e| {
                    ffi::duckdb_v2_scalar_function_set_exec_callback(func.0, Some(invoke), e)
                })?;
                call(&what("register"), |e| {
                    ffi::duckdb_v2_extension_register_scalar_function(extension, func.0, e)
                })?;
            }
        }
    }
    Ok(())
}

/// The one callback of every function: runs the op's row loop over the chunk; a failure
/// or a panic becomes the query's error.
unsafe extern "C" fn invoke(
    info: ffi::duckdb_v2_scalar_function_exec_info_handle,
    _context: ffi::duckdb_v2_context_handle,
    err: *mut ffi::duckdb_v2_error_info_handle,
) {
    let run = AssertUnwindSafe(|| {
        // SAFETY: DuckDB hands a live call whose arguments have the overload's types (all
        // strings: VARCHAR or BLOB) and a result vector of its result type; the user data
        // is the `Extra` registered with the overload.
        unsafe {
            let mut extra = null_mut();
            call("read the function", |e| {
                ffi::duckdb_v2_scalar_function_exec_get_user_data(info, &mut extra, e)
            })?;
            let extra = &*(extra as *const Extra);
            let mut rows = 0;
            call("read the row count", |e| {
                ffi::duckdb_v2_scalar_function_exec_get_row_count(info, &mut rows, e)
            })?;
            let mut args = 0;
            call("read the arguments", |e| {
                ffi::duckdb_v2_scalar_function_exec_get_arg_count(
                    info,
                    &mut args,
                    null_mut(),
                    null_mut(),
                    null_mut(),
                    e,
                )
            })?;
            let arg = |k: u64| -> Result<StrVector, String> {
                let mut v = null_mut();
                call("read an argument", |e| {
                    ffi::duckdb_v2_scalar_function_exec_get_arg(info, k, &mut v, e)
                })?;
                StrVector::of_vector(v, rows as usize)
            };
            let first = arg(0)?;
            let second = if args > 1 { Some(arg(1)?) } else { None };
            let mut output = null_mut();
            call("read the result", |e| {
                ffi::duckdb_v2_scalar_function_exec_get_result(info, &mut output, e)
            })?;
            run_op(extra, first, second, output).map_err(|Failure(m)| m)
        }
    });
    let message = match catch_unwind(run) {
        Ok(Ok(())) => return,
        Ok(Err(message)) => message,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            format!("rapidurl: internal error (a panic, caught): {what}")
        }
    };
    // SAFETY: `err` is DuckDB's live error slot; it copies the text.
    unsafe { fail_with(*err, &message) }
}

/// Fails the call or the load whose error slot is `slot` with `message`.
///
/// # Safety
/// `slot` must be a live error slot DuckDB handed over.
unsafe fn fail_with(slot: ffi::duckdb_v2_error_info_handle, message: &str) {
    // SAFETY: the caller's contract.
    unsafe {
        ffi::duckdb_v2_error_info_set_code(
            slot,
            ffi::DUCKDB_V2_ERROR::DUCKDB_V2_ERROR_INPUT_INVALID,
        );
        ffi::duckdb_v2_error_info_set_text(slot, &text(message));
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
    output: ffi::duckdb_v2_vector_handle,
) -> Result<(), Failure> {
    let need = |v: Option<StrVector<'a>>| v.expect("a two-argument function");
    // SAFETY: the caller's contract, for each result type.
    unsafe {
        let varchar = || VarcharOut::new(output).map_err(Failure);
        let boolean = || BoolOut::new(output).map_err(Failure);
        match &extra.op {
            Op::Field(f) => kernel::field(f, first, second, &mut varchar()?),
            Op::Valid => kernel::valid(first, second, &mut boolean()?),
            Op::Error => kernel::error(first, second, &mut varchar()?),
            Op::Parse => {
                debug_assert_eq!(extra.ret, Type::UrlStruct);
                let mut out =
                    StructOut::new(output, kernel::PARSE_MEMBERS.len()).map_err(Failure)?;
                kernel::parse(first, second, &mut out)
            }
            Op::QueryParam => kernel::query_param(first, need(second), &mut varchar()?),
            Op::Join => kernel::join(first, need(second), &mut varchar()?),
            Op::Canonicalize => {
                return kernel::canonicalize(first, need(second), &mut varchar()?);
            }
            Op::PatternTest => {
                return kernel::pattern_test(first, need(second), &mut boolean()?);
            }
            Op::PatternExec => {
                let mut out = MapOut::new(output).map_err(Failure)?;
                kernel::pattern_exec(first, need(second), &mut out)?;
                return out.finish().map_err(Failure);
            }
        }
    }
    Ok(())
}

/// Asks DuckDB for its C API, then registers the functions. `Err(None)`: DuckDB refused
/// the API version and has recorded why.
///
/// # Safety
/// DuckDB's argument to the entry point.
unsafe fn init(input: &ffi::duckdb_v2_extension_input) -> Result<(), Option<String>> {
    // SAFETY: DuckDB's entry-point argument, live for the call.
    unsafe {
        if !ffi::duckdb_rs_extension_api_v2_init(input, C_API_VERSION)
            .map_err(|e| Some(e.into()))?
        {
            return Err(None);
        }
        let mut factory = null_mut();
        call("read the factory", |e| {
            ffi::duckdb_v2_context_get_factory(input.context, &mut factory, e)
        })?;
        register(input.extension, factory)?;
    }
    Ok(())
}

/// The extension's entry point (DuckDB calls `<name>_init_c_api_v2`, the name being the
/// file's: `rapidurl`).
///
/// # Safety
/// Called by DuckDB's extension loader, with its argument.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn rapidurl_init_c_api_v2(input: *mut ffi::duckdb_v2_extension_input) {
    // SAFETY: DuckDB's argument, passed on.
    let result = catch_unwind(AssertUnwindSafe(|| unsafe { init(&*input) }))
        .unwrap_or_else(|_| Err(Some("rapidurl: a panic while loading the extension".into())));
    if let Err(Some(message)) = result {
        // SAFETY: DuckDB's live error slot; it copies the message.
        unsafe { fail_with(*(*input).err, &message) }
    }
}
