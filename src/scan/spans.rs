//! Where each row of a batch chunk lies: a slice of the input the chunk borrows (a
//! canonical URL is its own serialization), or of the chunk's own buffer.
//!
//! The input is kept as bytes, since a block of lines need not be UTF-8 as a whole (a
//! line that is not is decoded into a copy). A borrowed span is recorded only from a
//! `&str` that lies inside the input, so its bytes are known to be UTF-8 on char
//! boundaries, and reading it back needs no second validation.

/// Marks a span of the borrowed input (the top bit of its start).
const BORROWED: u32 = 1 << 31;

/// The spans of a chunk's rows, in row order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Spans<'a> {
    /// The input the borrowed spans are slices of.
    input: &'a [u8],
    /// Per row, start and end: in `input` when the start has [`BORROWED`], else in the
    /// chunk's own buffer.
    spans: Vec<(u32, u32)>,
}

impl<'a> Spans<'a> {
    /// The same list emptied, over no input, keeping its memory.
    pub(crate) fn recycle(mut self) -> Spans<'static> {
        self.spans.clear();
        Spans {
            input: &[],
            spans: self.spans,
        }
    }

    /// The same (empty) list over `input`, with room for `rows` rows.
    pub(crate) fn reuse<'b>(mut self, input: &'b [u8], rows: usize) -> Spans<'b> {
        self.spans.clear();
        self.spans.reserve(rows);
        Spans {
            input,
            spans: self.spans,
        }
    }

    /// The number of rows.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The bytes of the span list (its capacity).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.spans.capacity() * std::mem::size_of::<(u32, u32)>()
    }

    /// Records `text` as the next row when it is a slice of the input (at an offset below
    /// 2 GiB); returns whether it did.
    #[inline]
    pub(crate) fn push_borrowed(&mut self, text: &'a str) -> bool {
        let at = (text.as_ptr() as usize).wrapping_sub(self.input.as_ptr() as usize);
        let end = at.wrapping_add(text.len());
        let fits = at <= self.input.len()
            && end <= self.input.len()
            && end >= at
            && end < BORROWED as usize;
        if fits {
            self.spans.push((at as u32 | BORROWED, end as u32));
        }
        fits
    }

    /// Records the next row as `start..end` of the chunk's own buffer (both below 2 GiB).
    #[inline]
    pub(crate) fn push_owned(&mut self, start: u32, end: u32) {
        debug_assert!(start < BORROWED && end < BORROWED && start <= end);
        self.spans.push((start & !BORROWED, end));
    }

    /// Row `r`'s text: its slice of the input, or of `own` (the chunk's buffer).
    #[inline]
    pub(crate) fn get<'s>(&'s self, r: usize, own: &'s str) -> &'s str {
        let (start, end) = self.spans[r];
        if start & BORROWED == 0 {
            return &own[start as usize..end as usize];
        }
        let bytes = &self.input[(start & !BORROWED) as usize..end as usize];
        debug_assert!(std::str::from_utf8(bytes).is_ok());
        // SAFETY: a span flagged BORROWED is only pushed by `push_borrowed`, from a `&str`
        // whose bytes are exactly `input[start..end]` (its address and length were checked
        // to lie inside `input`), and `spans` is private to this type: so these bytes are
        // valid UTF-8, as the `&str` they came from was.
        unsafe { std::str::from_utf8_unchecked(bytes) }
    }
}
