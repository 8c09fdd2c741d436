//! DuckDB's vectors, read and written in place: the only module (with the registration in
//! `lib.rs`) that touches DuckDB's memory.
//!
//! A flat VARCHAR or BLOB vector is an array of `string_t` (16 bytes: a `u32` length, then
//! either the bytes themselves when there are at most 12 of them, or a 4-byte prefix and a
//! pointer) and a validity mask (one bit a row, `u64` words, absent when every row is
//! valid). The stable C API hands a scalar function its arguments flattened (a constant or
//! dictionary vector arrives as a flat one whose equal rows share their bytes);
//! [`StrVector`] also reads through a selection, which the row loops' tests use. Results
//! are written into flat vectors: short strings inlined in place, long ones gathered and
//! handed to DuckDB in one copy a chunk (see [`VarcharOut`]).

use libduckdb_sys as ffi;
use std::ffi::c_char;

/// DuckDB's 16-byte string storage (`duckdb_string_t`), as VARCHAR and BLOB vectors hold it.
pub type StringT = ffi::duckdb_string_t;

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

    /// A flat VARCHAR or BLOB vector of `rows` rows, as DuckDB hands a scalar function its
    /// arguments.
    ///
    /// # Safety
    /// `vector` must be a live flat VARCHAR or BLOB vector of `rows` rows that outlives
    /// `'a` and is not changed meanwhile.
    pub unsafe fn of_vector(vector: ffi::duckdb_vector, rows: usize) -> StrVector<'a> {
        // SAFETY: the caller's contract; a flat vector's data is a `string_t` a row and
        // its validity mask is null or a bit a row.
        unsafe {
            StrVector::from_raw(
                ffi::duckdb_vector_get_data(vector) as *const StringT,
                ffi::duckdb_vector_get_validity(vector),
                rows,
            )
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

/// Builds `string_t` values for tests and fuzzing: inlined up to 12 bytes, else pointing
/// into `bytes` (which must outlive the vector).
pub fn string_t(bytes: &[u8]) -> StringT {
    let length = u32::try_from(bytes.len()).expect("a string_t holds at most 4 GiB");
    if bytes.len() <= 12 {
        StringT {
            value: ffi::duckdb_string_t__bindgen_ty_1 {
                inlined: ffi::duckdb_string_t__bindgen_ty_1__bindgen_ty_2 {
                    length,
                    inlined: inline12(bytes).map(|b| b as c_char),
                },
            },
        }
    } else {
        long_string_t(bytes, bytes.as_ptr())
    }
}

/// `bytes` (at most 12) zero-padded to 12, by fixed-size copies (two overlapping ones for
/// 4 bytes or more), which compile to moves where a copy of variable length is a call.
#[inline(always)]
fn inline12(bytes: &[u8]) -> [u8; 12] {
    let mut out = [0u8; 12];
    let n = bytes.len();
    if n >= 8 {
        out[..8].copy_from_slice(&bytes[..8]);
        out[n - 8..n].copy_from_slice(&bytes[n - 8..]);
    } else if n >= 4 {
        out[..4].copy_from_slice(&bytes[..4]);
        out[n - 4..n].copy_from_slice(&bytes[n - 4..]);
    } else {
        for (d, &b) in out.iter_mut().zip(bytes) {
            *d = b;
        }
    }
    out
}

/// The `string_t` of a value longer than 12 bytes whose bytes are `bytes` and which
/// points at `at` (where a copy of them lies).
#[inline(always)]
fn long_string_t(bytes: &[u8], at: *const u8) -> StringT {
    let prefix: [u8; 4] = bytes[..4].try_into().expect("longer than 12 bytes");
    StringT {
        value: ffi::duckdb_string_t__bindgen_ty_1 {
            pointer: ffi::duckdb_string_t__bindgen_ty_1__bindgen_ty_1 {
                length: bytes.len() as u32,
                prefix: prefix.map(|b| b as c_char),
                ptr: at as *mut c_char,
            },
        },
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

/// Whether a C API call that returns a `duckdb_state` succeeded.
fn succeeded(state: ffi::duckdb_state) -> bool {
    state == ffi::duckdb_state_DuckDBSuccess
}

/// A flat output vector's validity mask, made writable on the first NULL.
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
        // SAFETY: `vector` is a live flat output vector of at least `i + 1` rows; its
        // mask, once writable, has a bit for each.
        unsafe {
            if self.mask.is_null() {
                ffi::duckdb_vector_ensure_validity_writable(self.vector);
                self.mask = ffi::duckdb_vector_get_validity(self.vector);
                if self.mask.is_null() {
                    fail("rapidurl: DuckDB gave no writable validity mask".into());
                }
            }
            *self.mask.add(i / 64) &= !(1u64 << (i % 64));
        }
    }
}

/// Long values are gathered until they fill this many bytes, then handed to DuckDB in one
/// copy.
const GATHER_BYTES: usize = 256 * 1024;

/// A flat VARCHAR output vector of DuckDB. A value of at most 12 bytes is written as an
/// inlined `string_t` in place. Longer values are gathered back to back in a buffer of
/// our own; at the end of the chunk (or when the buffer is full) the whole buffer is
/// handed to DuckDB as one string of the vector (`duckdb_vector_assign_string_element_len`,
/// one call and one copy into the vector's string heap, which keeps it as long as the
/// vector), and each row's `string_t` is pointed at its own part of that copy. The
/// stable C API has no per-vector allocator: this is one C call a chunk instead of one a
/// row.
pub struct VarcharOut {
    vector: ffi::duckdb_vector,
    data: *mut StringT,
    validity: Validity,
    /// Long values not handed over yet, back to back.
    gathered: Vec<u8>,
    /// Their rows: (row, offset in `gathered`, length).
    pending: Vec<(usize, usize, usize)>,
}

impl VarcharOut {
    /// # Safety
    /// `vector` must be a live flat VARCHAR vector with room for the chunk's rows, not
    /// used elsewhere while this exists.
    pub unsafe fn new(vector: ffi::duckdb_vector) -> VarcharOut {
        VarcharOut {
            vector,
            // SAFETY: the caller's contract; a VARCHAR vector's data is a `string_t` a row.
            data: unsafe { ffi::duckdb_vector_get_data(vector) } as *mut StringT,
            validity: Validity::new(vector),
            gathered: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// Hands the gathered values to DuckDB and points their rows at DuckDB's copy.
    fn flush(&mut self) {
        let Some(&(row, _, _)) = self.pending.last() else {
            return;
        };
        let total = self.gathered.len();
        // SAFETY: `row` is a row of the live vector; DuckDB copies the bytes (valid
        // UTF-8: the concatenation of `&str` values) into the vector's string heap and
        // writes the row's `string_t`, which is read back to find the copy. Each row's
        // entry then points into that copy, which lives as long as the vector.
        unsafe {
            ffi::duckdb_vector_assign_string_element_len(
                self.vector,
                row as u64,
                self.gathered.as_ptr() as *const c_char,
                total as u64,
            );
            let entry = *self.data.add(row);
            let copied = entry.value.pointer.length as usize == total
                && !row_is_null(ffi::duckdb_vector_get_validity(self.vector), row);
            if !copied {
                fail(format!(
                    "rapidurl: DuckDB did not take a string of {total} bytes for row {row}"
                ));
            }
            let base = entry.value.pointer.ptr as *const u8;
            for &(r, offset, len) in &self.pending {
                let bytes = &self.gathered[offset..offset + len];
                *self.data.add(r) = long_string_t(bytes, base.add(offset));
            }
        }
        self.gathered.clear();
        self.pending.clear();
    }
}

/// Whether bit `row` of a validity mask (null: every row valid) is clear.
///
/// # Safety
/// `mask` is null or has a bit for `row`.
unsafe fn row_is_null(mask: *const u64, row: usize) -> bool {
    // SAFETY: the caller's contract.
    !mask.is_null() && unsafe { *mask.add(row / 64) } >> (row % 64) & 1 == 0
}

impl StrSink for VarcharOut {
    #[inline]
    fn put(&mut self, i: usize, value: &str) {
        let bytes = value.as_bytes();
        if bytes.len() <= 12 {
            // SAFETY: the vector has row `i`.
            unsafe { *self.data.add(i) = string_t(bytes) };
            return;
        }
        if u32::try_from(bytes.len()).is_err() {
            fail(format!(
                "rapidurl: a value of {} bytes is longer than a DuckDB string can be",
                bytes.len()
            ));
        }
        if !self.pending.is_empty() && self.gathered.len() + bytes.len() > GATHER_BYTES {
            self.flush();
        }
        self.pending.push((i, self.gathered.len(), bytes.len()));
        self.gathered.extend_from_slice(bytes);
        if self.gathered.len() >= GATHER_BYTES {
            self.flush();
        }
    }

    #[inline]
    fn null(&mut self, i: usize) {
        self.validity.set_null(i)
    }
}

impl Drop for VarcharOut {
    fn drop(&mut self) {
        self.flush();
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
            data: unsafe { ffi::duckdb_vector_get_data(vector) } as *mut bool,
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

/// Where `url_parse` writes: a STRUCT of the URL API's eleven attributes a row.
pub trait StructSink {
    /// Row `i` has these members' values.
    fn put(&mut self, i: usize, values: [&str; 11]);
    /// Row `i` is NULL.
    fn null(&mut self, i: usize);
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
}

impl StructSink for StructOut {
    #[inline]
    fn put(&mut self, i: usize, values: [&str; 11]) {
        for (m, v) in self.members.iter_mut().zip(values) {
            m.put(i, v);
        }
    }

    fn null(&mut self, i: usize) {
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

/// A LIST output vector of DuckDB (a MAP is a LIST of STRUCT(key, value)): rows' list
/// entries are written as they come; the child's values are kept and written at
/// [`ListOut::finish`], once the child vector is grown to hold them all.
pub struct ListOut<T> {
    vector: ffi::duckdb_vector,
    lists: *mut ffi::duckdb_list_entry,
    validity: Validity,
    entries: Vec<T>,
}

/// A MAP(VARCHAR, VARCHAR) output vector.
pub type MapOut = ListOut<(String, String)>;

impl<T> ListOut<T> {
    /// # Safety
    /// `vector` must be a live flat LIST (or MAP) vector, its child empty, of the child
    /// type [`ListOut::finish`] writes for `T`.
    pub unsafe fn new(vector: ffi::duckdb_vector) -> ListOut<T> {
        ListOut {
            vector,
            // SAFETY: a LIST or MAP vector's data is a list entry a row.
            lists: unsafe { ffi::duckdb_vector_get_data(vector) } as *mut ffi::duckdb_list_entry,
            validity: Validity::new(vector),
            entries: Vec::new(),
        }
    }

    /// The child vector, grown to hold every entry put.
    fn grown_child(&self) -> Result<ffi::duckdb_vector, String> {
        let n = self.entries.len() as u64;
        // SAFETY: `vector` is a live LIST vector (the constructor's contract).
        unsafe {
            if !succeeded(ffi::duckdb_list_vector_reserve(self.vector, n))
                || !succeeded(ffi::duckdb_list_vector_set_size(self.vector, n))
            {
                return Err(format!(
                    "rapidurl: DuckDB could not grow a list to {n} entries"
                ));
            }
            Ok(ffi::duckdb_list_vector_get_child(self.vector))
        }
    }

    fn list(&mut self, i: usize, length: usize) {
        // SAFETY: the vector has row `i`.
        unsafe {
            *self.lists.add(i) = ffi::duckdb_list_entry {
                offset: self.entries.len() as u64,
                length: length as u64,
            }
        }
    }

    /// Row `i` is NULL.
    pub fn null(&mut self, i: usize) {
        // A NULL row's list entry is still read as (offset, 0).
        self.list(i, 0);
        self.validity.set_null(i)
    }
}

impl ListOut<String> {
    /// Row `i` is the list of `values`.
    pub fn put(&mut self, i: usize, values: &[&str]) {
        self.list(i, values.len());
        self.entries.extend(values.iter().map(|v| v.to_string()));
    }

    /// Writes the values of every row put (the child is VARCHAR).
    pub fn finish(self) -> Result<(), String> {
        let child = self.grown_child()?;
        // SAFETY: the child is a VARCHAR vector grown to hold every entry.
        let mut values = unsafe { VarcharOut::new(child) };
        for (at, value) in self.entries.iter().enumerate() {
            values.put(at, value);
        }
        Ok(())
    }
}

impl MapOut {
    /// Writes the keys and values of every row put (the child is a STRUCT of two
    /// VARCHARs).
    pub fn finish(self) -> Result<(), String> {
        let child = self.grown_child()?;
        // SAFETY: the child is a STRUCT(key VARCHAR, value VARCHAR) vector grown to hold
        // every entry; each member is written in place.
        let (mut keys, mut values) = unsafe {
            (
                VarcharOut::new(ffi::duckdb_struct_vector_get_child(child, 0)),
                VarcharOut::new(ffi::duckdb_struct_vector_get_child(child, 1)),
            )
        };
        for (at, (key, value)) in self.entries.iter().enumerate() {
            keys.put(at, key);
            values.put(at, value);
        }
        Ok(())
    }
}

impl MapSink for MapOut {
    fn put(&mut self, i: usize, entries: &[(&str, &str)]) {
        self.list(i, entries.len());
        self.entries
            .extend(entries.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    }

    fn null(&mut self, i: usize) {
        ListOut::null(self, i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_t_holds_its_bytes_inlined_or_not() {
        let text: Vec<u8> = (0..40u8).map(|k| b'a' + k % 26).collect();
        for n in 0..=text.len() {
            let entry = string_t(&text[..n]);
            // SAFETY: the entry points into `text` (long) or holds its bytes (short).
            let v = unsafe { StrVector::from_raw(&entry, std::ptr::null(), 1) };
            assert_eq!(v.get(0), Some(&text[..n]), "{n} bytes");
            // SAFETY: both union members start with the length.
            let inlined = unsafe { entry.value.inlined.inlined };
            if n <= 12 {
                // Padded with zeros (DuckDB compares inlined strings as 16 bytes).
                assert!(
                    inlined[n..].iter().all(|&b| b == 0),
                    "{n} bytes: {inlined:?}"
                );
            } else {
                let prefix: [u8; 4] = text[..4].try_into().unwrap();
                assert_eq!(
                    inlined[..4],
                    prefix.map(|b| b as c_char),
                    "prefix, {n} bytes"
                );
            }
        }
    }

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
