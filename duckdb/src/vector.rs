//! DuckDB's vectors, read and written in place: the only module (with the registration in
//! `lib.rs`) that touches DuckDB's memory.
//!
//! A flat VARCHAR or BLOB vector is an array of `string_t` (16 bytes: a `u32` length, then
//! either the bytes themselves when there are at most 12 of them, or a 4-byte prefix and a
//! pointer) and a validity mask (one bit a row, `u64` words, absent when every row is
//! valid). A scalar function's arguments come flat, constant (one entry, read through a
//! selection of zeros) or as a dictionary (entries read through a selection); results are
//! written into flat vectors, long strings into the result vector's arena.

use libduckdb_sys::v2 as ffi;
use std::ffi::c_char;

/// DuckDB's 16-byte string storage (`duckdb_v2_bytes`), as VARCHAR and BLOB vectors hold it.
pub type StringT = ffi::duckdb_v2_bytes;

/// The strings of an input vector, borrowed for the duration of the call: a flat vector,
/// or a constant or dictionary one read through its selection (logical row `i` is
/// physical entry `sel[i]`).
#[derive(Clone, Copy)]
pub struct StrVector<'a> {
    data: &'a [StringT],
    validity: Option<&'a [u64]>,
    sel: Option<&'a [u32]>,
    rows: usize,
}

impl<'a> StrVector<'a> {
    /// The flat vector of `rows` rows from its parts: `data` is `rows` `string_t` (a null
    /// row's entry is not read), `validity` `rows.div_ceil(64)` words or null.
    ///
    /// # Safety
    /// The pointers must be valid for `'a` as described; each valid row's `string_t`
    /// longer than 12 bytes must point at that many readable bytes.
    pub unsafe fn from_raw(
        data: *const StringT,
        validity: *const u64,
        rows: usize,
    ) -> StrVector<'a> {
        // SAFETY: the caller's contract.
        unsafe { StrVector::with_selection(data, validity, std::ptr::null(), rows) }
    }

    /// The vector of `rows` logical rows read through `sel` (null: the identity): row `i`
    /// is entry `sel[i]` of `data`, valid when bit `sel[i]` of `validity` (null: all
    /// valid) is set.
    ///
    /// # Safety
    /// `sel`, when not null, must hold `rows` indices; `data` must hold an entry for each
    /// index (for each row when `sel` is null) and `validity`, when not null, a bit for
    /// each, all valid for `'a`; each valid entry longer than 12 bytes must point at that
    /// many readable bytes.
    pub unsafe fn with_selection(
        data: *const StringT,
        validity: *const u64,
        sel: *const u32,
        rows: usize,
    ) -> StrVector<'a> {
        // SAFETY: the caller's contract: the physical entries are those the selection
        // names (or the rows themselves).
        unsafe {
            if rows == 0 {
                return StrVector {
                    data: &[],
                    validity: None,
                    sel: None,
                    rows: 0,
                };
            }
            let sel = (!sel.is_null()).then(|| std::slice::from_raw_parts(sel, rows));
            let physical = match sel {
                Some(s) => s.iter().map(|&k| k as usize + 1).max().unwrap_or(0),
                None => rows,
            };
            StrVector {
                data: std::slice::from_raw_parts(data, physical),
                validity: (!validity.is_null())
                    .then(|| std::slice::from_raw_parts(validity, physical.div_ceil(64))),
                sel,
                rows,
            }
        }
    }

    /// Argument `index` of a scalar function's call, as a view (flattened first when
    /// DuckDB keeps it compressed).
    ///
    /// # Safety
    /// `vector` must be a live VARCHAR or BLOB vector of `rows` rows that outlives `'a`
    /// and is not changed meanwhile.
    pub unsafe fn of_vector(
        vector: ffi::duckdb_v2_vector_handle,
        rows: usize,
    ) -> Result<StrVector<'a>, String> {
        let mut view = ffi::duckdb_v2_vector_view {
            data: std::ptr::null(),
            validity: std::ptr::null(),
            sel: std::ptr::null(),
            count: 0,
        };
        // SAFETY: the caller's contract; a view's pointers stay valid while the vector does.
        unsafe {
            if ffi::duckdb_v2_vector_get_view(vector, &mut view, std::ptr::null_mut()) != OK {
                call("flatten an argument", |e| {
                    ffi::duckdb_v2_vector_flatten(vector, e)
                })?;
                call("read an argument", |e| {
                    ffi::duckdb_v2_vector_get_view(vector, &mut view, e)
                })?;
            }
            Ok(StrVector::with_selection(
                view.data as *const StringT,
                view.validity,
                view.sel,
                rows,
            ))
        }
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// Row `i`'s bytes, read in place; `None` when it is NULL.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        assert!(i < self.rows, "row {i} of {}", self.rows);
        let k = match self.sel {
            Some(sel) => sel[i] as usize,
            None => i,
        };
        if let Some(mask) = self.validity
            && mask[k / 64] >> (k % 64) & 1 == 0
        {
            return None;
        }
        let s: &'a StringT = &self.data[k];
        // SAFETY: both union members start with the length; a string of at most 12 bytes
        // is inlined, a longer one points at its bytes (the constructor's contract).
        unsafe {
            let len = s.value.inlined.length as usize;
            Some(if len <= 12 {
                std::slice::from_raw_parts(s.value.inlined.inlined.as_ptr() as *const u8, len)
            } else {
                std::slice::from_raw_parts(s.value.pointer.ptr as *const u8, len)
            })
        }
    }
}

/// DuckDB's "no error".
pub(crate) const OK: ffi::DUCKDB_V2_ERROR = ffi::DUCKDB_V2_ERROR::DUCKDB_V2_ERROR_NONE;

/// Runs one C API call with an error slot of its own; a failure becomes `what: <DuckDB's
/// message>`.
///
/// # Safety
/// `f` is a C API call whose arguments are valid.
pub(crate) unsafe fn call(
    what: &str,
    f: impl FnOnce(*mut ffi::duckdb_v2_error_info_handle) -> ffi::DUCKDB_V2_ERROR,
) -> Result<(), String> {
    let mut err: ffi::duckdb_v2_error_info_handle = std::ptr::null_mut();
    let code = f(&mut err);
    if code == OK {
        return Ok(());
    }
    let mut text = ffi::duckdb_v2_str {
        ptr: std::ptr::null(),
        len: 0,
    };
    // SAFETY: `err` is null or an error DuckDB filled in, destroyed once; its text is
    // read before that.
    let message = unsafe {
        let message = if !err.is_null()
            && ffi::duckdb_v2_error_info_get_text(err, &mut text) == OK
            && !text.ptr.is_null()
        {
            String::from_utf8_lossy(std::slice::from_raw_parts(
                text.ptr as *const u8,
                text.len as usize,
            ))
            .into_owned()
        } else {
            format!("{code:?}")
        };
        ffi::duckdb_v2_error_info_destroy(&mut err);
        message
    };
    Err(format!("{what}: {message}"))
}

/// Builds `string_t` values for tests and fuzzing: inlined up to 12 bytes, else pointing
/// into `bytes` (which must outlive the vector).
pub fn string_t(bytes: &[u8]) -> StringT {
    let length = u32::try_from(bytes.len()).expect("a string_t holds at most 4 GiB");
    if bytes.len() <= 12 {
        let mut inlined = [0 as c_char; 12];
        for (d, &b) in inlined.iter_mut().zip(bytes) {
            *d = b as c_char;
        }
        StringT {
            value: ffi::duckdb_v2_bytes__bindgen_ty_1 {
                inlined: ffi::duckdb_v2_bytes__bindgen_ty_1__bindgen_ty_2 { length, inlined },
            },
        }
    } else {
        let mut prefix = [0 as c_char; 4];
        for (d, &b) in prefix.iter_mut().zip(bytes) {
            *d = b as c_char;
        }
        StringT {
            value: ffi::duckdb_v2_bytes__bindgen_ty_1 {
                pointer: ffi::duckdb_v2_bytes__bindgen_ty_1__bindgen_ty_1 {
                    length,
                    prefix,
                    ptr: bytes.as_ptr() as *mut c_char,
                },
            },
        }
    }
}

/// Where a VARCHAR function writes its rows.
pub trait StrSink {
    /// Row `i` is `value` (copied).
    fn put(&mut self, i: usize, value: &str);
    /// Row `i` is NULL.
    fn null(&mut self, i: usize);
}

/// Where a BOOLEAN function writes its rows.
pub trait BoolSink {
    /// Row `i` is `value`.
    fn put(&mut self, i: usize, value: bool);
    /// Row `i` is NULL.
    fn null(&mut self, i: usize);
}

/// Panics with `message`: a C API call on an output vector failed, which only a broken
/// contract can cause; the caller's `catch_unwind` makes it the query's error.
#[cold]
fn fail(message: String) -> ! {
    panic!("{message}")
}

/// The data of a FLAT output vector.
///
/// # Safety
/// `vector` must be a live flat vector.
unsafe fn data_of(vector: ffi::duckdb_v2_vector_handle) -> Result<*mut std::ffi::c_void, String> {
    let mut data = std::ptr::null_mut();
    // SAFETY: the caller's contract.
    unsafe {
        call("write a result", |e| {
            ffi::duckdb_v2_vector_get_data_mutable(vector, &mut data, e)
        })?
    };
    Ok(data)
}

/// Child `k` of a nested vector.
///
/// # Safety
/// `vector` must be a live STRUCT, LIST or MAP vector with a child `k`.
unsafe fn child_of(
    vector: ffi::duckdb_v2_vector_handle,
    k: usize,
) -> Result<ffi::duckdb_v2_vector_handle, String> {
    let mut child = std::ptr::null_mut();
    // SAFETY: the caller's contract.
    unsafe {
        call("write a result", |e| {
            ffi::duckdb_v2_vector_get_child(vector, k as u64, &mut child, e)
        })?
    };
    Ok(child)
}

/// A flat output vector's validity mask, made writable on the first NULL.
struct Validity {
    vector: ffi::duckdb_v2_vector_handle,
    mask: *mut u64,
}

impl Validity {
    fn new(vector: ffi::duckdb_v2_vector_handle) -> Validity {
        Validity {
            vector,
            mask: std::ptr::null_mut(),
        }
    }

    #[inline]
    fn set_null(&mut self, i: usize) {
        // SAFETY: `vector` is a live flat output vector of at least `i + 1` rows; its
        // mask, once writable, has a bit for each.
        unsafe {
            if self.mask.is_null() {
                let vector = self.vector;
                let mask = &mut self.mask;
                call("write a NULL", |e| {
                    ffi::duckdb_v2_vector_flat_get_validity_mutable(vector, mask, e)
                })
                .unwrap_or_else(|m| fail(m));
            }
            *self.mask.add(i / 64) &= !(1u64 << (i % 64));
        }
    }
}

/// The bytes a long string's copy is carved from: blocks of this size (or of the string's,
/// when longer) asked of the vector's arena, which frees them with the vector.
const ARENA_BLOCK: usize = 16 * 1024;

/// A flat VARCHAR output vector of DuckDB: each value is written as a `string_t` in place,
/// inlined up to 12 bytes, else copied into blocks of the vector's arena.
pub struct VarcharOut {
    vector: ffi::duckdb_v2_vector_handle,
    data: *mut StringT,
    validity: Validity,
    arena: ffi::duckdb_v2_arena_handle,
    block: *mut u8,
    left: usize,
}

impl VarcharOut {
    /// # Safety
    /// `vector` must be a live flat VARCHAR vector with room for the chunk's rows, not
    /// used elsewhere while this exists.
    pub unsafe fn new(vector: ffi::duckdb_v2_vector_handle) -> Result<VarcharOut, String> {
        Ok(VarcharOut {
            vector,
            // SAFETY: the caller's contract; a VARCHAR vector's data is a `string_t` a row.
            data: unsafe { data_of(vector)? } as *mut StringT,
            validity: Validity::new(vector),
            arena: std::ptr::null_mut(),
            block: std::ptr::null_mut(),
            left: 0,
        })
    }

    /// `len` bytes of the vector's arena, valid as long as the vector.
    #[inline]
    fn alloc(&mut self, len: usize) -> *mut u8 {
        if len > self.left {
            let size = len.max(ARENA_BLOCK);
            // SAFETY: `vector` is a live VARCHAR vector; its arena outlives these calls.
            unsafe {
                if self.arena.is_null() {
                    let (vector, arena) = (self.vector, &mut self.arena);
                    call("write a string", |e| {
                        ffi::duckdb_v2_vector_get_arena(vector, arena, e)
                    })
                    .unwrap_or_else(|m| fail(m));
                }
                let (arena, block) = (self.arena, &mut self.block);
                call("write a string", |e| {
                    ffi::duckdb_v2_arena_allocate(arena, size as u64, block, e)
                })
                .unwrap_or_else(|m| fail(m));
            }
            self.left = size;
        }
        let at = self.block;
        // SAFETY: `len <= left` bytes remain in the block.
        self.block = unsafe { self.block.add(len) };
        self.left -= len;
        at
    }
}

impl StrSink for VarcharOut {
    #[inline]
    fn put(&mut self, i: usize, value: &str) {
        let bytes = value.as_bytes();
        let entry = if bytes.len() <= 12 {
            string_t(bytes)
        } else {
            let at = self.alloc(bytes.len());
            // SAFETY: `at` is `bytes.len()` fresh bytes of the arena, which keeps them as
            // long as the vector.
            unsafe {
                std::ptr::copy_nonoverlapping(bytes.as_ptr(), at, bytes.len());
                string_t(std::slice::from_raw_parts(at, bytes.len()))
            }
        };
        // SAFETY: the vector has row `i`.
        unsafe { *self.data.add(i) = entry }
    }

    #[inline]
    fn null(&mut self, i: usize) {
        self.validity.set_null(i)
    }
}

/// A flat BOOLEAN output vector of DuckDB.
pub struct BoolOut {
    data: *mut bool,
    validity: Validity,
}

impl BoolOut {
    /// # Safety
    /// As [`VarcharOut::new`], for a BOOLEAN vector.
    pub unsafe fn new(vector: ffi::duckdb_v2_vector_handle) -> Result<BoolOut, String> {
        Ok(BoolOut {
            // SAFETY: a BOOLEAN vector's data is one `bool` a row.
            data: unsafe { data_of(vector)? } as *mut bool,
            validity: Validity::new(vector),
        })
    }
}

impl BoolSink for BoolOut {
    #[inline]
    fn put(&mut self, i: usize, value: bool) {
        // SAFETY: the vector has row `i`.
        unsafe { *self.data.add(i) = value }
    }

    #[inline]
    fn null(&mut self, i: usize) {
        self.validity.set_null(i)
    }
}

/// A STRUCT output vector of VARCHAR members: one sink a member; a NULL row is NULL in
/// the struct and in each member.
pub struct StructOut {
    validity: Validity,
    /// The members' sinks.
    pub members: Vec<VarcharOut>,
}

impl StructOut {
    /// # Safety
    /// `vector` must be a live flat STRUCT vector of `members` VARCHAR members.
    pub unsafe fn new(
        vector: ffi::duckdb_v2_vector_handle,
        members: usize,
    ) -> Result<StructOut, String> {
        Ok(StructOut {
            validity: Validity::new(vector),
            members: (0..members)
                // SAFETY: the caller's contract.
                .map(|k| unsafe { VarcharOut::new(child_of(vector, k)?) })
                .collect::<Result<_, _>>()?,
        })
    }

    /// Row `i` is NULL.
    pub fn null(&mut self, i: usize) {
        self.validity.set_null(i);
        for m in &mut self.members {
            m.null(i);
        }
    }
}

/// Where `url_pattern_exec` writes: a MAP(VARCHAR, VARCHAR) a row.
pub trait MapSink {
    /// Row `i` is the map of `entries` (keys distinct).
    fn put(&mut self, i: usize, entries: &[(&str, &str)]);
    /// Row `i` is NULL.
    fn null(&mut self, i: usize);
}

/// A MAP(VARCHAR, VARCHAR) output vector of DuckDB: a LIST of STRUCT(key, value). Rows'
/// list entries are written as they come; the keys and values are kept and written at
/// [`MapOut::finish`], once the child vector is grown to hold them all.
pub struct MapOut {
    vector: ffi::duckdb_v2_vector_handle,
    lists: *mut ffi::duckdb_v2_list_entry,
    validity: Validity,
    entries: Vec<(String, String)>,
}

impl MapOut {
    /// # Safety
    /// `vector` must be a live flat MAP(VARCHAR, VARCHAR) vector, its child empty.
    pub unsafe fn new(vector: ffi::duckdb_v2_vector_handle) -> Result<MapOut, String> {
        Ok(MapOut {
            vector,
            // SAFETY: a MAP vector's data is a list entry a row.
            lists: unsafe { data_of(vector)? } as *mut ffi::duckdb_v2_list_entry,
            validity: Validity::new(vector),
            entries: Vec::new(),
        })
    }

    /// Writes the keys and values of every row put.
    pub fn finish(self) -> Result<(), String> {
        let n = self.entries.len() as u64;
        // SAFETY: the child (a STRUCT of two VARCHARs) is grown to hold every entry, then
        // each member is written in place.
        unsafe {
            let child = child_of(self.vector, 0)?;
            call("grow a MAP", |e| {
                ffi::duckdb_v2_vector_set_size(child, n, e)
            })?;
            let mut keys = VarcharOut::new(child_of(child, 0)?)?;
            let mut values = VarcharOut::new(child_of(child, 1)?)?;
            for (at, (key, value)) in self.entries.iter().enumerate() {
                keys.put(at, key);
                values.put(at, value);
            }
        }
        Ok(())
    }

    fn list(&mut self, i: usize, length: usize) {
        // SAFETY: the vector has row `i`.
        unsafe {
            *self.lists.add(i) = ffi::duckdb_v2_list_entry {
                offset: self.entries.len() as u64,
                length: length as u64,
            }
        }
    }
}

impl MapSink for MapOut {
    fn put(&mut self, i: usize, entries: &[(&str, &str)]) {
        self.list(i, entries.len());
        self.entries
            .extend(entries.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    }

    fn null(&mut self, i: usize) {
        // A NULL row's list entry is still read as (offset, 0).
        self.list(i, 0);
        self.validity.set_null(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selection_maps_rows_to_entries_and_their_validity() {
        let long = b"https://example.com/a-long-path".to_vec();
        let entries = [string_t(b"a.test"), string_t(&long), string_t(b"NULL row")];
        // Entry 2 is NULL.
        let mask = [0b011u64];
        // A dictionary: rows 0..5 read entries 1, 0, 2, 1, 1.
        let sel = [1u32, 0, 2, 1, 1];
        // SAFETY: `sel` names entries 0..=2, which `entries` and `mask` hold; the long
        // entry points into `long`, alive for the test.
        let v =
            unsafe { StrVector::with_selection(entries.as_ptr(), mask.as_ptr(), sel.as_ptr(), 5) };
        assert_eq!(v.len(), 5);
        let rows: Vec<Option<&[u8]>> = (0..5).map(|i| v.get(i)).collect();
        assert_eq!(
            rows,
            [
                Some(&long[..]),
                Some(&b"a.test"[..]),
                None,
                Some(&long[..]),
                Some(&long[..])
            ]
        );
        // A constant: every row reads entry 0.
        let zeros = [0u32; 4];
        // SAFETY: as above, entry 0 only.
        let c = unsafe {
            StrVector::with_selection(entries.as_ptr(), std::ptr::null(), zeros.as_ptr(), 4)
        };
        assert!((0..4).all(|i| c.get(i) == Some(&b"a.test"[..])));
        // A constant NULL.
        let none = [0u64];
        let n = unsafe {
            StrVector::with_selection(entries.as_ptr(), none.as_ptr(), zeros.as_ptr(), 4)
        };
        assert!((0..4).all(|i| n.get(i).is_none()));
    }

    #[test]
    #[should_panic(expected = "row 5 of 5")]
    fn a_row_past_the_end_is_refused() {
        let entries = [string_t(b"a")];
        let sel = [0u32; 5];
        // SAFETY: entry 0 exists.
        let v = unsafe {
            StrVector::with_selection(entries.as_ptr(), std::ptr::null(), sel.as_ptr(), 5)
        };
        v.get(5);
    }
}
