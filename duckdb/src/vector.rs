//! DuckDB's vectors, read and written in place: the only module (with the registration in
//! `lib.rs`) that touches DuckDB's memory.
//!
//! A flat VARCHAR or BLOB vector is an array of `string_t` (16 bytes: a `u32` length, then
//! either the bytes themselves when there are at most 12 of them, or a 4-byte prefix and a
//! pointer) and a validity mask (one bit a row, `u64` words, absent when every row is
//! valid). The C API flattens a scalar function's inputs before calling it.

use libduckdb_sys as ffi;
use std::ffi::c_char;

/// The strings of an input vector, borrowed for the duration of the call.
#[derive(Clone, Copy)]
pub struct StrVector<'a> {
    data: &'a [ffi::duckdb_string_t],
    validity: Option<&'a [u64]>,
}

impl<'a> StrVector<'a> {
    /// The vector of `rows` rows from its parts: `data` is `rows` `string_t` (a null row's
    /// entry is not read), `validity` `rows.div_ceil(64)` words or null.
    ///
    /// # Safety
    /// The pointers must be valid for `'a` as described; each valid row's `string_t`
    /// longer than 12 bytes must point at that many readable bytes.
    pub unsafe fn from_raw(
        data: *const ffi::duckdb_string_t,
        validity: *const u64,
        rows: usize,
    ) -> StrVector<'a> {
        // SAFETY: the caller's contract.
        unsafe {
            StrVector {
                data: if rows == 0 {
                    &[]
                } else {
                    std::slice::from_raw_parts(data, rows)
                },
                validity: if validity.is_null() || rows == 0 {
                    None
                } else {
                    Some(std::slice::from_raw_parts(validity, rows.div_ceil(64)))
                },
            }
        }
    }

    /// Column `col` of a DuckDB data chunk.
    ///
    /// # Safety
    /// `chunk` must be a live chunk whose column `col` is a flat VARCHAR or BLOB vector.
    pub unsafe fn of_chunk(chunk: ffi::duckdb_data_chunk, col: u64) -> StrVector<'a> {
        // SAFETY: the caller's contract; DuckDB's vectors hold `size` rows.
        unsafe {
            let rows = ffi::duckdb_data_chunk_get_size(chunk) as usize;
            let v = ffi::duckdb_data_chunk_get_vector(chunk, col);
            StrVector::from_raw(
                ffi::duckdb_vector_get_data(v) as *const ffi::duckdb_string_t,
                ffi::duckdb_vector_get_validity(v),
                rows,
            )
        }
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// Row `i`'s bytes, read in place; `None` when it is NULL.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<&'a [u8]> {
        if let Some(mask) = self.validity
            && mask[i / 64] >> (i % 64) & 1 == 0
        {
            return None;
        }
        let s: &'a ffi::duckdb_string_t = &self.data[i];
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

/// Builds `string_t` values for tests and fuzzing: inlined up to 12 bytes, else pointing
/// into `bytes` (which must outlive the vector).
pub fn string_t(bytes: &[u8]) -> ffi::duckdb_string_t {
    let length = u32::try_from(bytes.len()).expect("a string_t holds at most 4 GiB");
    if bytes.len() <= 12 {
        let mut inlined = [0 as c_char; 12];
        for (d, &b) in inlined.iter_mut().zip(bytes) {
            *d = b as c_char;
        }
        ffi::duckdb_string_t {
            value: ffi::duckdb_string_t__bindgen_ty_1 {
                inlined: ffi::duckdb_string_t__bindgen_ty_1__bindgen_ty_2 { length, inlined },
            },
        }
    } else {
        let mut prefix = [0 as c_char; 4];
        for (d, &b) in prefix.iter_mut().zip(bytes) {
            *d = b as c_char;
        }
        ffi::duckdb_string_t {
            value: ffi::duckdb_string_t__bindgen_ty_1 {
                pointer: ffi::duckdb_string_t__bindgen_ty_1__bindgen_ty_1 {
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

/// A DuckDB output vector's validity mask, made writable on the first NULL.
struct Validity {
    vector: ffi::duckdb_vector,
    mask: *mut u64,
}

impl Validity {
    fn new(vector: ffi::duckdb_vector) -> Validity {
        Validity {
            vector,
            mask: std::ptr::null_mut(),
        }
    }

    #[inline]
    fn set_null(&mut self, i: usize) {
        // SAFETY: `vector` is a live output vector of at least `i + 1` rows; its mask,
        // once writable, has a bit for each.
        unsafe {
            if self.mask.is_null() {
                ffi::duckdb_vector_ensure_validity_writable(self.vector);
                self.mask = ffi::duckdb_vector_get_validity(self.vector);
            }
            *self.mask.add(i / 64) &= !(1u64 << (i % 64));
        }
    }
}

/// A flat VARCHAR output vector of DuckDB.
pub struct VarcharOut {
    vector: ffi::duckdb_vector,
    validity: Validity,
}

impl VarcharOut {
    /// # Safety
    /// `vector` must be a live flat VARCHAR vector with room for the chunk's rows, not
    /// used elsewhere while this exists.
    pub unsafe fn new(vector: ffi::duckdb_vector) -> VarcharOut {
        VarcharOut {
            vector,
            validity: Validity::new(vector),
        }
    }
}

impl StrSink for VarcharOut {
    #[inline]
    fn put(&mut self, i: usize, value: &str) {
        // SAFETY: the vector has row `i`; DuckDB copies the bytes into its string heap
        // (or inlines them).
        unsafe {
            ffi::duckdb_vector_assign_string_element_len(
                self.vector,
                i as u64,
                value.as_ptr() as *const c_char,
                value.len() as u64,
            )
        }
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
    pub unsafe fn new(vector: ffi::duckdb_vector) -> BoolOut {
        BoolOut {
            // SAFETY: a BOOLEAN vector's data is one `bool` a row.
            data: unsafe { ffi::duckdb_vector_get_data(vector) as *mut bool },
            validity: Validity::new(vector),
        }
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
    /// `vector` must be a live STRUCT vector of `members` VARCHAR members.
    pub unsafe fn new(vector: ffi::duckdb_vector, members: usize) -> StructOut {
        StructOut {
            validity: Validity::new(vector),
            members: (0..members)
                // SAFETY: the caller's contract.
                .map(|k| unsafe {
                    VarcharOut::new(ffi::duckdb_struct_vector_get_child(vector, k as u64))
                })
                .collect(),
        }
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

/// A MAP(VARCHAR, VARCHAR) output vector of DuckDB: a LIST of STRUCT(key, value).
pub struct MapOut {
    vector: ffi::duckdb_vector,
    validity: Validity,
    keys: ffi::duckdb_vector,
    values: VarcharOut,
    size: u64,
}

impl MapOut {
    /// # Safety
    /// `vector` must be a live MAP(VARCHAR, VARCHAR) vector, its list child empty.
    pub unsafe fn new(vector: ffi::duckdb_vector) -> MapOut {
        // SAFETY: the caller's contract: a MAP is a list of structs (key, value).
        unsafe {
            let child = ffi::duckdb_list_vector_get_child(vector);
            MapOut {
                vector,
                validity: Validity::new(vector),
                keys: ffi::duckdb_struct_vector_get_child(child, 0),
                values: VarcharOut::new(ffi::duckdb_struct_vector_get_child(child, 1)),
                size: ffi::duckdb_list_vector_get_size(vector),
            }
        }
    }
}

impl MapSink for MapOut {
    fn put(&mut self, i: usize, entries: &[(&str, &str)]) {
        let n = entries.len() as u64;
        // SAFETY: row `i` exists; the child is grown before it is written (its vectors
        // stay the same objects, so the member sinks stay valid; the values' validity is
        // never written: a value is never NULL).
        unsafe {
            if ffi::duckdb_list_vector_reserve(self.vector, self.size + n) != ffi::DuckDBSuccess {
                panic!("could not grow a MAP vector");
            }
            let list = ffi::duckdb_vector_get_data(self.vector) as *mut ffi::duckdb_list_entry;
            *list.add(i) = ffi::duckdb_list_entry {
                offset: self.size,
                length: n,
            };
            for (k, (key, value)) in entries.iter().enumerate() {
                let at = self.size as usize + k;
                ffi::duckdb_vector_assign_string_element_len(
                    self.keys,
                    at as u64,
                    key.as_ptr() as *const c_char,
                    key.len() as u64,
                );
                self.values.put(at, value);
            }
            self.size += n;
            ffi::duckdb_list_vector_set_size(self.vector, self.size);
        }
    }

    fn null(&mut self, i: usize) {
        // SAFETY: row `i` exists; a NULL list entry is still read as (offset, 0).
        unsafe {
            let list = ffi::duckdb_vector_get_data(self.vector) as *mut ffi::duckdb_list_entry;
            *list.add(i) = ffi::duckdb_list_entry {
                offset: self.size,
                length: 0,
            };
        }
        self.validity.set_null(i)
    }
}
