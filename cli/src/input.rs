//! Reading input: named files or standard input, in blocks of whole lines, and turning a
//! block into parsed rows with the batch engine.

use std::borrow::Cow;
use std::fs::File;
use std::io::{self, Read};

use rapidurl::batch::{self, UrlColumn};
use rapidurl::{ParseError, Url};

/// The name under which standard input appears in diagnostics.
pub const STDIN_NAME: &str = "<stdin>";

/// The default size of a block: input is read, parsed and written this much at a time, so
/// memory stays bounded whatever the input's size.
pub const DEFAULT_BLOCK_BYTES: u32 = 4 * 1024 * 1024;

/// One input: a file, or standard input when the path is `-`, read in blocks of whole
/// lines.
pub struct Source {
    /// The name used in diagnostics (`file:line:col:`).
    pub name: String,
    reader: Box<dyn Read>,
    /// Read but not yet returned bytes start at `consumed`.
    buf: Vec<u8>,
    consumed: usize,
    block_bytes: usize,
    eof: bool,
}

impl Source {
    /// Opens `path` for reading (`-` is standard input), to be read in blocks of about
    /// `block_bytes` bytes.
    pub fn open(path: &str, block_bytes: usize) -> io::Result<Source> {
        let (name, reader): (String, Box<dyn Read>) = if path == "-" {
            (STDIN_NAME.to_owned(), Box::new(io::stdin().lock()))
        } else {
            (path.to_owned(), Box::new(File::open(path)?))
        };
        Ok(Source {
            name,
            reader,
            buf: Vec::new(),
            consumed: 0,
            block_bytes: block_bytes.max(1),
            eof: false,
        })
    }

    /// The next block: at least `block_bytes` bytes (less at the end of the input) ending
    /// at a line end, or everything left at the end of the input; `None` when nothing is
    /// left. A line longer than a block makes the block longer.
    pub fn next_block(&mut self) -> io::Result<Option<&[u8]>> {
        self.buf.drain(..self.consumed);
        self.consumed = 0;
        let mut limit = self.block_bytes;
        let mut searched = 0;
        loop {
            if !self.eof && self.buf.len() < limit {
                let want = limit - self.buf.len();
                self.buf.try_reserve_exact(want).map_err(io::Error::other)?;
                let n = (&mut self.reader)
                    .take(want as u64)
                    .read_to_end(&mut self.buf)?;
                // `take` + `read_to_end` stop short of `want` only at the end of input.
                self.eof = n < want;
                continue;
            }
            if self.eof {
                self.consumed = self.buf.len();
                return Ok((!self.buf.is_empty()).then_some(self.buf.as_slice()));
            }
            // Full: cut after the last line end, or read on if one line fills the block.
            if let Some(i) = memchr::memrchr(b'\n', &self.buf[searched..]) {
                self.consumed = searched + i + 1;
                return Ok(Some(&self.buf[..self.consumed]));
            }
            searched = self.buf.len();
            limit = limit.saturating_mul(2);
        }
    }

    /// The input's size, if it is a regular file.
    pub fn size(path: &str) -> Option<u64> {
        if path == "-" {
            return None;
        }
        let meta = std::fs::metadata(path).ok()?;
        meta.is_file().then_some(meta.len())
    }
}

/// How each line of a block becomes a URL.
pub struct Mode {
    /// Resolve lines against this base (and the base column's empty fields against it).
    pub base: Option<Url>,
    /// The same, as given on the command line.
    pub base_text: Option<String>,
    /// With `--base-column N`: the 0-based column holding each line's base.
    pub base_column: Option<usize>,
}

impl Mode {
    /// Parses the lines of `block`, one row per line, with the batch engine (in parallel,
    /// on the current thread pool).
    pub fn parse_block(&self, block: &[u8]) -> UrlColumn {
        let Some(base_column) = self.base_column else {
            return batch::parse_lines_with_base(block, self.base.as_ref());
        };
        let lines: Vec<Cow<'_, str>> = batch::lines(block).collect();
        let pairs: Vec<(&str, Option<&str>)> = lines
            .iter()
            .map(|line| {
                let (url, base) = split_fields(line, base_column);
                let base = base.filter(|b| !b.is_empty()).or(self.base_text.as_deref());
                (url, base)
            })
            .collect();
        batch::parse_pairs(&pairs)
    }
}

/// The URL field and the base field of a TSV line whose base is in column `base_column`
/// (0-based): the URL is the first column, or the second when the base is the first. A
/// missing URL field is the empty string; a missing base field is `None`.
pub fn split_fields(line: &str, base_column: usize) -> (&str, Option<&str>) {
    let url_column = usize::from(base_column == 0);
    let (mut url, mut base) = ("", None);
    for (i, field) in line.split('\t').enumerate() {
        if i == url_column {
            url = field;
        }
        if i == base_column {
            base = Some(field);
        }
        if i >= url_column.max(base_column) {
            break;
        }
    }
    (url, base)
}

/// The 1-based column of an error: one more than its byte offset, or 1 when it has none.
pub fn error_column(err: &ParseError) -> usize {
    err.offset().map_or(1, |o| o + 1)
}

#[cfg(test)]
mod tests {
    use super::split_fields;

    #[test]
    fn fields() {
        assert_eq!(split_fields("u\tb", 1), ("u", Some("b")));
        assert_eq!(split_fields("b\tu\tx", 0), ("u", Some("b")));
        assert_eq!(split_fields("u", 1), ("u", None));
        assert_eq!(split_fields("b", 0), ("", Some("b")));
        assert_eq!(split_fields("u\tx\tb", 2), ("u", Some("b")));
        assert_eq!(split_fields("u\t", 1), ("u", Some("")));
    }
}
