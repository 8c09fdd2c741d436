//! Where a serialization is written: the caller's buffer.
//!
//! The parser (and the host parser and percent-encoders it calls) append to an [`Output`],
//! so that each caller has the URL written straight into the buffer it keeps: a `String`
//! for [`crate::Url`], a string in a `bumpalo` arena for [`crate::UrlRef`], the shared
//! buffer of a batch chunk for the batch engine's `UrlColumn` (a `String` too: its rows are appended
//! one after another). No serialization is built in one place and copied to another.

/// An append-only text buffer that can be cut back (the parser's "shorten a path") and
/// read (the parser compares what it wrote). Offsets are into the whole buffer; the
/// parser keeps its own start.
pub(crate) trait Output {
    /// Everything in the buffer.
    fn as_str(&self) -> &str;
    /// Appends `s`.
    fn push_str(&mut self, s: &str);
    /// Appends `c`.
    fn push(&mut self, c: char);
    /// Cuts the buffer back to `len` bytes (a char boundary).
    fn truncate(&mut self, len: usize);
    /// Inserts `s` at byte `at` (a char boundary).
    fn insert_str(&mut self, at: usize, s: &str);
    /// ASCII-lower-cases the bytes from `from` (a char boundary) to the end.
    fn make_ascii_lowercase_from(&mut self, from: usize);
    /// Makes room for `additional` more bytes.
    fn reserve(&mut self, additional: usize);
    /// The length of the buffer in bytes.
    #[inline]
    fn len(&self) -> usize {
        self.as_str().len()
    }
}

impl Output for String {
    #[inline]
    fn as_str(&self) -> &str {
        self
    }
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s)
    }
    #[inline]
    fn push(&mut self, c: char) {
        String::push(self, c)
    }
    #[inline]
    fn truncate(&mut self, len: usize) {
        String::truncate(self, len)
    }
    #[inline]
    fn insert_str(&mut self, at: usize, s: &str) {
        String::insert_str(self, at, s)
    }
    #[inline]
    fn make_ascii_lowercase_from(&mut self, from: usize) {
        self[from..].make_ascii_lowercase()
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        String::reserve(self, additional)
    }
    #[inline]
    fn len(&self) -> usize {
        String::len(self)
    }
}

impl Output for bumpalo::collections::String<'_> {
    #[inline]
    fn as_str(&self) -> &str {
        self
    }
    #[inline]
    fn push_str(&mut self, s: &str) {
        bumpalo::collections::String::push_str(self, s)
    }
    #[inline]
    fn push(&mut self, c: char) {
        bumpalo::collections::String::push(self, c)
    }
    #[inline]
    fn truncate(&mut self, len: usize) {
        bumpalo::collections::String::truncate(self, len)
    }
    #[inline]
    fn insert_str(&mut self, at: usize, s: &str) {
        bumpalo::collections::String::insert_str(self, at, s)
    }
    #[inline]
    fn make_ascii_lowercase_from(&mut self, from: usize) {
        self[from..].make_ascii_lowercase()
    }
    #[inline]
    fn reserve(&mut self, additional: usize) {
        bumpalo::collections::String::reserve(self, additional)
    }
    #[inline]
    fn len(&self) -> usize {
        bumpalo::collections::String::len(self)
    }
}
