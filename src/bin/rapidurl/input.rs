//! Reading input: named files or standard input, one URL per line, streamed as bytes.

use std::fs::File;
use std::io::{self, BufRead, BufReader};

use rapidurl::{ParseError, Url};

/// The name under which standard input appears in diagnostics.
pub const STDIN_NAME: &str = "<stdin>";

/// One input: a file, or standard input when the path is `-`.
pub struct Source {
    /// The name used in diagnostics (`file:line:col:`).
    pub name: String,
    reader: Box<dyn BufRead>,
    buf: Vec<u8>,
}

impl Source {
    /// Opens `path` for reading; `-` is standard input.
    pub fn open(path: &str) -> io::Result<Source> {
        let (name, reader): (String, Box<dyn BufRead>) = if path == "-" {
            (STDIN_NAME.to_owned(), Box::new(io::stdin().lock()))
        } else {
            let file = File::open(path)?;
            (
                path.to_owned(),
                Box::new(BufReader::with_capacity(64 * 1024, file)),
            )
        };
        Ok(Source {
            name,
            reader,
            buf: Vec::with_capacity(256),
        })
    }

    /// The next line, without its line terminator (`\n`, and one `\r` before it if any),
    /// or `None` at the end of the input. A last line without a terminator is still a
    /// line; an empty input has no lines.
    pub fn next_line(&mut self) -> io::Result<Option<&[u8]>> {
        self.buf.clear();
        if self.reader.read_until(b'\n', &mut self.buf)? == 0 {
            return Ok(None);
        }
        let mut line = self.buf.as_slice();
        if let Some(rest) = line.strip_suffix(b"\n") {
            line = rest;
        }
        if let Some(rest) = line.strip_suffix(b"\r") {
            line = rest;
        }
        Ok(Some(line))
    }
}

/// Parses one input line, against `base` when given. A line that is not valid UTF-8 is
/// decoded as [`Url::parse_bytes`] does (each invalid sequence becomes U+FFFD).
pub fn parse_line(line: &[u8], base: Option<&Url>) -> Result<Url, ParseError> {
    match (std::str::from_utf8(line), base) {
        (Ok(s), None) => Url::parse(s),
        (Ok(s), Some(base)) => Url::parse_with_base(s, base),
        (Err(_), None) => Url::parse_bytes(line),
        (Err(_), Some(base)) => Url::parse_with_base(&String::from_utf8_lossy(line), base),
    }
}

/// The 1-based column of an error: one more than its byte offset, or 1 when it has none.
pub fn error_column(err: &ParseError) -> usize {
    err.offset().map_or(1, |o| o + 1)
}
