//! WARC files (WARC 1.0 and 1.1, ISO 28500) as TSV rows: one row per record that has a
//! `WARC-Target-URI`, read without holding any record's payload in memory.
//!
//! [`WarcRows`] reads the (already decompressed) bytes of a WARC file and yields the text
//! of a TSV table, in the escapes the tool's TSV reader decodes (`\t`, `\n`, `\r`, `\\`):
//! a header line of the columns in [`COLUMNS`], then one line per record with a target.
//! A record is a version line (`WARC/` and anything after), header lines (CRLF or LF; a
//! line that starts with a space or a tab continues the one before), a blank line, then
//! `Content-Length` bytes of payload, skipped through a buffer of fixed size. The CRLF
//! CRLF that ends a record may be missing or written as LFs.
//!
//! A damaged file ends the rows with an [`io::Error`] carrying a
//! [`Damaged`] message that names the input, the
//! record (1-based), its byte in the decompressed stream and what is wrong: a record cut
//! short (in its header or its payload), a record that does not start with `WARC/`, a
//! missing or invalid `Content-Length`, a header block longer than [`HEADER_BYTES`]. Every
//! row of the whole records before it is read first; a record cut short gives no row.

use std::io::{self, Read, Write};

use super::compressed::{Damaged, Members};

/// The columns of the rows, in order: seven WARC headers, `Content-Length`, and the
/// record's offset in the file ([`WarcRows::with_members`]).
pub const COLUMNS: [&str; 9] = [
    "url",
    "type",
    "date",
    "record_id",
    "content_type",
    "content_length",
    "payload_digest",
    "ip_address",
    "offset",
];

/// The headers of the first eight columns (matched without regard to case).
const HEADERS: [&str; 8] = [
    "WARC-Target-URI",
    "WARC-Type",
    "WARC-Date",
    "WARC-Record-ID",
    "Content-Type",
    "Content-Length",
    "WARC-Payload-Digest",
    "WARC-IP-Address",
];

/// The index of `Content-Length` in [`HEADERS`].
const CONTENT_LENGTH: usize = 5;

/// The longest header block read (version line, header lines and the blank line); a longer
/// one is damage. Also the size of the reader's buffer.
pub const HEADER_BYTES: usize = 1024 * 1024;

/// Rows are made until this many bytes of text wait to be read.
const OUT_BYTES: usize = 64 * 1024;

/// What a record starts with.
const MAGIC: &[u8] = b"WARC/";

/// The rows of a WARC file as TSV text (see the module's documentation).
pub struct WarcRows<R: Read> {
    name: String,
    inner: R,
    /// The input buffer, of [`HEADER_BYTES`]: it never grows.
    buf: Box<[u8]>,
    /// The unread bytes are `buf[start..end]`.
    start: usize,
    end: usize,
    /// The stream offset of `buf[0]`.
    base: u64,
    /// Whether `inner` has ended.
    eof: bool,
    /// Text made and not yet read: `out[out_pos..]`.
    out: Vec<u8>,
    out_pos: usize,
    /// Records begun so far.
    records: u64,
    /// The values of [`HEADERS`] in the record being read, those `present` says are.
    values: [Vec<u8>; 8],
    present: [bool; 8],
    state: State,
    /// Where the input's gzip members start, for the offsets in the file.
    members: Option<Members>,
}

enum State {
    /// The header line is not written yet.
    Start,
    Running,
    /// The input ended cleanly, or its error was returned.
    Done,
    /// The input ended with this error, returned once the text before it is read.
    Failed(io::Error),
}

/// The outcome of reading one record.
enum Next {
    /// A record was read (its row, if any, is in `out`).
    Record,
    /// The input ended between records.
    End,
}

impl<R: Read> WarcRows<R> {
    /// The rows of `inner`, the decompressed bytes of the WARC input called `name` in
    /// messages.
    pub fn new(name: &str, inner: R) -> WarcRows<R> {
        WarcRows {
            name: name.to_owned(),
            inner,
            buf: vec![0u8; HEADER_BYTES].into_boxed_slice(),
            start: 0,
            end: 0,
            base: 0,
            eof: false,
            out: Vec::with_capacity(OUT_BYTES),
            out_pos: 0,
            records: 0,
            values: Default::default(),
            present: [false; 8],
            state: State::Start,
            members: None,
        }
    }

    /// The rows' `offset` is then where the record starts in the file as stored (what a
    /// CDX index records, to seek to): in a file that is not compressed, its byte; in a
    /// compressed one, the start of the gzip member the record starts (`.warc.gz` is one
    /// member a record), null for a record that starts inside a member. Without members,
    /// it is the record's byte in the bytes read.
    pub fn with_members(self, members: Members) -> WarcRows<R> {
        WarcRows {
            members: Some(members),
            ..self
        }
    }

    /// Reads more of `inner` into the buffer, after the unread bytes (moved to its front
    /// first when the buffer is full to its end); the bytes read, 0 at the end of the input
    /// or when the buffer is full of unread bytes.
    fn fill(&mut self) -> io::Result<usize> {
        if self.eof {
            return Ok(0);
        }
        if self.start == self.end {
            self.base += self.end as u64;
            self.start = 0;
            self.end = 0;
        } else if self.end == self.buf.len() && self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.base += self.start as u64;
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            return Ok(0);
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(0);
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// The stream offset of the next unread byte.
    fn at(&self) -> u64 {
        self.base + self.start as u64
    }

    /// A [`Damaged`] error about record `self.records` at `offset`.
    fn damage(&self, offset: u64, what: String) -> io::Error {
        io::Error::new(
            io::ErrorKind::InvalidData,
            Damaged(format!(
                "{}: WARC record {} at byte {offset} {what}",
                self.name, self.records
            )),
        )
    }

    /// Reads one record, its row (if it has a target) appended to `out`.
    fn record(&mut self) -> io::Result<Next> {
        // The separator before it (CRLF CRLF, LFs, or nothing).
        loop {
            let skip = self.buf[self.start..self.end]
                .iter()
                .position(|&b| b != b'\r' && b != b'\n')
                .unwrap_or(self.end - self.start);
            self.start += skip;
            if self.start < self.end {
                break;
            }
            if self.fill()? == 0 {
                return Ok(Next::End);
            }
        }
        self.records += 1;
        let offset = self.at();
        // Asked of every record, in order (the member starts before it are forgotten).
        let file_offset = match &self.members {
            Some(members) => members.file_offset(offset),
            None => Some(offset),
        };
        let header = self.header(offset)?;
        self.parse_header(header);
        if !self.present[CONTENT_LENGTH] {
            return Err(self.damage(offset, "has no Content-Length header".to_owned()));
        }
        let v = &self.values[CONTENT_LENGTH];
        let Some(length) = parse_length(v) else {
            let what = format!("has an invalid Content-Length: \"{}\"", v.escape_ascii());
            return Err(self.damage(offset, what));
        };
        self.start += header;
        self.skip(offset, length)?;
        if self.present[0] {
            self.row(file_offset, length);
        }
        Ok(Next::Record)
    }

    /// The length of the header block at `start` (up to and with its blank line), once it
    /// is all in the buffer.
    fn header(&mut self, offset: u64) -> io::Result<usize> {
        // Where the next line not yet looked at starts, from `start`.
        let mut line = 0;
        loop {
            let have = &self.buf[self.start..self.end];
            let magic = have.len().min(MAGIC.len());
            if have[..magic] != MAGIC[..magic] {
                // The first bytes shown, as many whatever the reads.
                while self.end - self.start < 24 && matches!(self.fill(), Ok(n) if n > 0) {}
                let shown = &self.buf[self.start..self.end.min(self.start + 24)];
                return Err(self.damage(
                    offset,
                    format!(
                        "does not start with \"WARC/\": it starts with \"{}\"",
                        shown.escape_ascii()
                    ),
                ));
            }
            while let Some(lf) = memchr::memchr(b'\n', &have[line..]) {
                let text = &have[line..line + lf];
                line += lf + 1;
                // (The first line, starting with `W`, is never the blank one.)
                if text.is_empty() || text == b"\r" {
                    return Ok(line);
                }
            }
            let had = have.len();
            if had >= self.buf.len() {
                return Err(self.damage(
                    offset,
                    format!(
                        "has a header block longer than {HEADER_BYTES} bytes (no blank line \
                         ends it)"
                    ),
                ));
            }
            if self.fill()? == 0 {
                return Err(self.damage(
                    offset,
                    format!("is cut short: the input ends {had} bytes into its header"),
                ));
            }
        }
    }

    /// Keeps the values of [`HEADERS`] from the header block `buf[start..start + len]`.
    fn parse_header(&mut self, len: usize) {
        self.present = [false; 8];
        for v in &mut self.values {
            v.clear();
        }
        let block = &self.buf[self.start..self.start + len];
        // The header a continuation line adds to (`None`: one not kept).
        let mut current: Option<usize> = None;
        // Past the version line.
        let body = &block[memchr::memchr(b'\n', block).map_or(len, |lf| lf + 1)..];
        let mut at = 0;
        for lf in memchr::memchr_iter(b'\n', body) {
            let line = &body[at..lf];
            at = lf + 1;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                break;
            }
            if line[0] == b' ' || line[0] == b'\t' {
                if let Some(i) = current {
                    let value = &mut self.values[i];
                    let more = trim(line);
                    if !more.is_empty() {
                        if !value.is_empty() {
                            value.push(b' ');
                        }
                        value.extend_from_slice(more);
                    }
                }
                continue;
            }
            current = None;
            let Some(colon) = line.iter().position(|&b| b == b':') else {
                continue;
            };
            let name = trim(&line[..colon]);
            if let Some(i) = HEADERS
                .iter()
                .position(|h| h.as_bytes().eq_ignore_ascii_case(name))
            {
                // The first of a repeated header counts.
                if !self.present[i] {
                    self.present[i] = true;
                    self.values[i].extend_from_slice(trim(&line[colon + 1..]));
                    current = Some(i);
                }
            }
        }
    }

    /// Skips `length` bytes of payload, of the record at `offset`.
    fn skip(&mut self, offset: u64, length: u64) -> io::Result<()> {
        let payload = self.at();
        let mut left = length;
        loop {
            let take = left.min((self.end - self.start) as u64);
            self.start += take as usize;
            left -= take;
            if left == 0 {
                return Ok(());
            }
            if self.fill()? == 0 {
                let got = self.at() - payload;
                return Err(self.damage(
                    offset,
                    format!(
                        "is cut short: its Content-Length is {length} and the input ends \
                         {got} bytes into its payload"
                    ),
                ));
            }
        }
    }

    /// Appends the row of a record (its values in `values`), at `offset` in the file (an
    /// empty cell when it has none).
    fn row(&mut self, offset: Option<u64>, length: u64) {
        for (i, value) in self.values.iter().enumerate() {
            if self.present[i] {
                let mut v = value.as_slice();
                if i == CONTENT_LENGTH {
                    let _ = write!(self.out, "{length}");
                } else {
                    if i == 0 && v.len() >= 2 && v[0] == b'<' && v[v.len() - 1] == b'>' {
                        v = &v[1..v.len() - 1];
                    }
                    escape(&String::from_utf8_lossy(v), &mut self.out);
                }
            }
            self.out.push(b'\t');
        }
        if let Some(offset) = offset {
            let _ = write!(self.out, "{offset}");
        }
        self.out.push(b'\n');
    }

    /// Makes text into `out`: the header line first, then rows until [`OUT_BYTES`] of
    /// text wait or the input ends (cleanly or not).
    fn produce(&mut self) {
        self.out.clear();
        self.out_pos = 0;
        if let State::Start = self.state {
            self.out.extend_from_slice(COLUMNS.join("\t").as_bytes());
            self.out.push(b'\n');
            self.state = State::Running;
        }
        while self.out.len() < OUT_BYTES {
            match self.record() {
                Ok(Next::Record) => {}
                Ok(Next::End) => {
                    self.state = State::Done;
                    return;
                }
                Err(e) => {
                    self.state = State::Failed(e);
                    return;
                }
            }
        }
    }

    /// The input buffer's size (for tests: it does not grow).
    #[cfg(test)]
    fn buffer_bytes(&self) -> usize {
        self.buf.len()
    }
}

impl<R: Read + Send> super::compressed::Append for WarcRows<R> {}

impl<R: Read> Read for WarcRows<R> {
    fn read(&mut self, into: &mut [u8]) -> io::Result<usize> {
        if into.is_empty() {
            return Ok(0);
        }
        loop {
            if self.out_pos < self.out.len() {
                let n = into.len().min(self.out.len() - self.out_pos);
                into[..n].copy_from_slice(&self.out[self.out_pos..self.out_pos + n]);
                self.out_pos += n;
                return Ok(n);
            }
            match std::mem::replace(&mut self.state, State::Done) {
                State::Done => return Ok(0),
                State::Failed(e) => return Err(e),
                state @ (State::Start | State::Running) => {
                    self.state = state;
                    self.produce();
                }
            }
        }
    }
}

/// `bytes` without spaces and tabs around.
fn trim(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|&b| b != b' ' && b != b'\t')
        .unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| b != b' ' && b != b'\t')
        .map_or(start, |i| i + 1);
    &bytes[start..end]
}

/// A `Content-Length` value: ASCII digits that fit a `u64`.
fn parse_length(value: &[u8]) -> Option<u64> {
    if value.is_empty() || !value.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(value).ok()?.parse().ok()
}

/// Appends `text` to `out` in the TSV escapes: tab, line feed, carriage return and
/// backslash as `\t`, `\n`, `\r`, `\\`.
fn escape(text: &str, out: &mut Vec<u8>) {
    let text = text.as_bytes();
    if !text
        .iter()
        .any(|&b| matches!(b, b'\t' | b'\n' | b'\r' | b'\\'))
    {
        out.extend_from_slice(text);
        return;
    }
    for &b in text {
        match b {
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\\' => out.extend_from_slice(b"\\\\"),
            _ => out.push(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::{self, Read};

    use super::super::compressed::damaged;
    use super::{HEADER_BYTES, WarcRows};

    const HEADER: &str = "url\ttype\tdate\trecord_id\tcontent_type\tcontent_length\tpayload_digest\tip_address\toffset\n";

    /// Gives at most `step` bytes a read (cycling through 1..=step when `cycle`).
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
        cycle: bool,
        next: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let want = if self.cycle {
                self.next = self.next % self.step + 1;
                self.next
            } else {
                self.step
            };
            let n = want.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// The text `reader` yields, and the message of the error that ends it, if any.
    fn drain(mut reader: impl Read, read_size: usize) -> (String, Option<String>) {
        let mut out = Vec::new();
        let mut buf = vec![0u8; read_size];
        loop {
            match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
                Err(e) => {
                    let message = damaged(&e)
                        .unwrap_or_else(|| panic!("not a Damaged error: {e}"))
                        .0
                        .clone();
                    // Nothing after the error.
                    assert_eq!(reader.read(&mut buf).unwrap(), 0);
                    return (String::from_utf8(out).unwrap(), Some(message));
                }
            }
        }
        (String::from_utf8(out).unwrap(), None)
    }

    fn rows(bytes: &[u8]) -> (String, Option<String>) {
        drain(WarcRows::new("t.warc", bytes), 64 * 1024)
    }

    /// A record: `version`, the header lines, a blank line, `payload`, then `sep`;
    /// `eol` ends each line of the header block.
    fn record(version: &str, headers: &[&str], payload: &[u8], eol: &str, sep: &str) -> Vec<u8> {
        let mut r = Vec::new();
        r.extend_from_slice(version.as_bytes());
        r.extend_from_slice(eol.as_bytes());
        for h in headers {
            r.extend_from_slice(h.as_bytes());
            r.extend_from_slice(eol.as_bytes());
        }
        r.extend_from_slice(eol.as_bytes());
        r.extend_from_slice(payload);
        r.extend_from_slice(sep.as_bytes());
        r
    }

    /// Five records of WARC 1.0 and 1.1 (warcinfo, request, response, metadata, revisit)
    /// in `eol` lines and `sep` separators, their offsets, and the expected rows.
    fn five(eol: &str, sep: &str) -> (Vec<u8>, Vec<usize>, String) {
        let records = [
            record(
                "WARC/1.0",
                &[
                    "WARC-Type: warcinfo",
                    "WARC-Date: 2026-01-02T03:04:05Z",
                    "WARC-Record-ID: <urn:uuid:a>",
                    "Content-Type: application/warc-fields",
                    "Content-Length: 15",
                ],
                b"software: x\r\n\r\n",
                eol,
                sep,
            ),
            record(
                "WARC/1.0",
                &[
                    "WARC-Type: request",
                    "WARC-Target-URI: http://example.com/a?b=1",
                    "WARC-Date: 2026-01-02T03:04:06Z",
                    "WARC-Record-ID: <urn:uuid:b>",
                    "Content-Type: application/http; msgtype=request",
                    "WARC-IP-Address: 192.0.2.7",
                    "Content-Length: 19",
                ],
                b"GET /a?b=1 HTTP/1.0",
                eol,
                sep,
            ),
            record(
                "WARC/1.1",
                &[
                    "warc-type: response",
                    "WARC-TARGET-URI: <https://example.com/>",
                    "WARC-Date: 2026-01-02T03:04:07.123456Z",
                    "WARC-Record-ID: <urn:uuid:c>",
                    "Content-Type: application/http; msgtype=response",
                    "WARC-Payload-Digest: sha1:AAAA",
                    "content-length: 44",
                ],
                b"HTTP/1.1 200 OK\r\n\r\n<html>WARC/1.0\r\n\r\n</html>",
                eol,
                sep,
            ),
            record(
                "WARC/1.1",
                &[
                    "WARC-Type: metadata",
                    "WARC-Target-URI: https://example.com/",
                    "WARC-Date: 2026-01-02T03:04:08Z",
                    "WARC-Record-ID: <urn:uuid:d>",
                    "Content-Length: 0",
                ],
                b"",
                eol,
                sep,
            ),
            record(
                "WARC/1.1",
                &[
                    "WARC-Type: revisit",
                    "WARC-Target-URI: https://example.com/b",
                    "WARC-Date: 2026-01-02T03:04:09Z",
                    "WARC-Record-ID: <urn:uuid:e>",
                    "WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
                    "WARC-Payload-Digest: sha1:AAAA",
                    "Content-Length: 5",
                ],
                b"HTTP/",
                eol,
                sep,
            ),
        ];
        let mut offsets = vec![0];
        for r in &records {
            offsets.push(offsets.last().unwrap() + r.len());
        }
        let expected = format!(
            "{HEADER}\
             http://example.com/a?b=1\trequest\t2026-01-02T03:04:06Z\t<urn:uuid:b>\tapplication/http; msgtype=request\t19\t\t192.0.2.7\t{}\n\
             https://example.com/\tresponse\t2026-01-02T03:04:07.123456Z\t<urn:uuid:c>\tapplication/http; msgtype=response\t44\tsha1:AAAA\t\t{}\n\
             https://example.com/\tmetadata\t2026-01-02T03:04:08Z\t<urn:uuid:d>\t\t0\t\t\t{}\n\
             https://example.com/b\trevisit\t2026-01-02T03:04:09Z\t<urn:uuid:e>\t\t5\tsha1:AAAA\t\t{}\n",
            offsets[1], offsets[2], offsets[3], offsets[4]
        );
        (records.concat(), offsets, expected)
    }

    #[test]
    fn records_of_warc_1_0_and_1_1() {
        for (eol, sep) in [
            ("\r\n", "\r\n\r\n"),
            ("\n", "\n\n"),
            ("\n", ""),
            ("\r\n", ""),
        ] {
            let (bytes, offsets, expected) = five(eol, sep);
            assert_eq!(rows(&bytes), (expected, None), "{eol:?} {sep:?}");
            assert_eq!(offsets.len(), 6);
        }
    }

    #[test]
    fn empty_input_is_the_header_line() {
        assert_eq!(rows(b""), (HEADER.to_owned(), None));
        assert_eq!(rows(b"\r\n\n"), (HEADER.to_owned(), None));
    }

    #[test]
    fn the_sample_files_of_the_docs() {
        let expected = format!(
            "{HEADER}\
             https://www.example.com/articles/url-parsing?utm_source=feed\trequest\t2026-11-28T09:14:03Z\t<urn:uuid:1d3f5b7a-2c4e-4a6b-8d0f-3e5a7c9b1d2f>\tapplication/http; msgtype=request\t215\t\t93.184.215.14\t412\n\
             https://www.example.com/articles/url-parsing?utm_source=feed\tresponse\t2026-11-28T09:14:03Z\t<urn:uuid:0b7e3c2a-4f61-4d2b-9a0e-5c8d2e7f9a31>\tapplication/http; msgtype=response\t469\tsha1:UHC4OZVRRUWKWKA2XFIYN4IL7RWPORKH\t93.184.215.14\t1011\n\
             https://www.example.com/articles/url-parsing?utm_source=feed\tmetadata\t2026-11-28T09:14:03Z\t<urn:uuid:8a2c4e6f-1b3d-4f5a-9c7e-2d4f6a8c0e1b>\tapplication/warc-fields\t183\t\t\t1857\n\
             https://www.example.com/articles/url-parsing?utm_source=newsletter\trevisit\t2026-11-28T11:40:57Z\t<urn:uuid:c4e6a8b0-3d5f-4b7a-8e9c-1f3a5c7e9b2d>\tapplication/http; msgtype=response\t145\tsha1:UHC4OZVRRUWKWKA2XFIYN4IL7RWPORKH\t93.184.215.14\t2383\n"
        );
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples/");
        let plain = std::fs::read(format!("{dir}crawl.warc")).unwrap();
        assert_eq!(rows(&plain), (expected.clone(), None));
        let gz = std::fs::read(format!("{dir}crawl.warc.gz")).unwrap();
        // One gzip member a record.
        assert_eq!(gz.windows(3).filter(|w| *w == [0x1F, 0x8B, 8]).count(), 5);
        let decoded = flate2::read::MultiGzDecoder::new(gz.as_slice());
        assert_eq!(
            drain(WarcRows::new("crawl.warc.gz", decoded), 4096),
            (expected, None)
        );
    }

    #[test]
    fn folded_headers_and_cells_that_need_escapes() {
        let bytes = record(
            "WARC/1.1",
            &[
                "WARC-Type: resource",
                "WARC-Target-URI:\thttp://example.com/a\\b\t ",
                "WARC-Record-ID:",
                "  <urn:uuid:f>",
                "WARC-Date: 2026-01-02T03:04:05Z",
                "Content-Type: text/plain;",
                "\tcharset=\"a\tb\"\r\r;",
                "   ",
                " x=1",
                "WARC-Type: not the first",
                "  nor this",
                "No colon here",
                "Content-Length:  3 ",
            ],
            b"abc",
            "\r\n",
            "\r\n\r\n",
        );
        let expected = format!(
            "{HEADER}http://example.com/a\\\\b\tresource\t2026-01-02T03:04:05Z\t<urn:uuid:f>\t\
             text/plain; charset=\"a\\tb\"\\r\\r; x=1\t3\t\t\t0\n"
        );
        assert_eq!(rows(&bytes), (expected, None));
        // Bytes that are not UTF-8 are replaced; a line feed cannot be in a value, a
        // carriage return inside one can.
        let mut bytes = record(
            "WARC/1.0",
            &[
                "WARC-Target-URI: http://\u{e9}.example/\r\x01@",
                "Content-Length: 0",
            ],
            b"",
            "\n",
            "",
        );
        let at = bytes.iter().position(|&b| b == b'@').unwrap();
        bytes[at] = 0xFF;
        assert_eq!(
            rows(&bytes),
            (
                format!("{HEADER}http://\u{e9}.example/\\r\x01\u{fffd}\t\t\t\t\t0\t\t\t0\n"),
                None
            )
        );
    }

    #[test]
    fn every_read_size_gives_the_same_rows() {
        for (eol, sep) in [("\r\n", "\r\n\r\n"), ("\n", "")] {
            let (bytes, _, expected) = five(eol, sep);
            for step in 1..=bytes.len() + 1 {
                for cycle in [false, true] {
                    let inner = Trickle {
                        bytes: &bytes,
                        step,
                        cycle,
                        next: 0,
                    };
                    // Read out in pieces of every size too.
                    let got = drain(WarcRows::new("t.warc", inner), step % 17 + 1);
                    assert_eq!(got, (expected.clone(), None), "step {step} {cycle}");
                }
            }
        }
    }

    #[test]
    fn every_cut_keeps_the_rows_of_the_whole_records() {
        for (eol, sep) in [("\r\n", "\r\n\r\n"), ("\n", "\n")] {
            let (bytes, offsets, expected) = five(eol, sep);
            let lines: Vec<&str> = expected.split_inclusive('\n').collect();
            // The end of each record's payload.
            let ends: Vec<usize> = offsets[1..].iter().map(|o| o - sep.len()).collect();
            for cut in 0..=bytes.len() {
                let (text, error) = rows(&bytes[..cut]);
                // Records 2..=5 have rows (lines 1..=4).
                let whole = ends.iter().filter(|&&e| e <= cut).count();
                let want: String = lines[..whole.max(1)].concat();
                assert_eq!(text, want, "cut at {cut}");
                let inside = (0..5).find(|&i| offsets[i] < cut && cut < ends[i]);
                match (inside, error) {
                    (None, None) => {}
                    (Some(i), Some(message)) => {
                        let place = format!(
                            "t.warc: WARC record {} at byte {} is cut short: ",
                            i + 1,
                            offsets[i]
                        );
                        assert!(message.starts_with(&place), "cut at {cut}: {message}");
                    }
                    (inside, error) => panic!("cut at {cut}: {inside:?} {error:?}"),
                }
            }
        }
    }

    #[test]
    fn damage_is_named() {
        let good = record(
            "WARC/1.0",
            &["WARC-Target-URI: http://a/", "Content-Length: 1"],
            b"x",
            "\r\n",
            "\r\n\r\n",
        );
        let first = format!("{HEADER}http://a/\t\t\t\t\t1\t\t\t0\n");
        let at = good.len();
        let cases: [(Vec<u8>, String); 6] = [
            (
                record(
                    "WARC/1.0",
                    &["WARC-Target-URI: http://b/", "Content-Length: 5000"],
                    b"abc",
                    "\r\n",
                    "",
                ),
                format!(
                    "t.warc: WARC record 2 at byte {at} is cut short: its Content-Length is 5000 and the input ends 3 bytes into its payload"
                ),
            ),
            (
                record("WARC/1.0", &["WARC-Target-URI: http://b/"], b"", "\r\n", ""),
                format!("t.warc: WARC record 2 at byte {at} has no Content-Length header"),
            ),
            (
                record("WARC/1.0", &["Content-Length: 12a"], b"", "\r\n", ""),
                format!(
                    "t.warc: WARC record 2 at byte {at} has an invalid Content-Length: \"12a\""
                ),
            ),
            (
                record(
                    "WARC/1.0",
                    &["Content-Length: 99999999999999999999"],
                    b"",
                    "\r\n",
                    "",
                ),
                format!(
                    "t.warc: WARC record 2 at byte {at} has an invalid Content-Length: \"99999999999999999999\""
                ),
            ),
            (
                b"HTTP/1.1 200 OK\r\n\r\n".to_vec(),
                format!(
                    "t.warc: WARC record 2 at byte {at} does not start with \"WARC/\": it starts with \"HTTP/1.1 200 OK\\r\\n\\r\\n\""
                ),
            ),
            (
                b"WARC/1.0\r\nContent-Len".to_vec(),
                format!(
                    "t.warc: WARC record 2 at byte {at} is cut short: the input ends 21 bytes into its header"
                ),
            ),
        ];
        for (bad, message) in cases {
            let bytes = [good.as_slice(), &bad].concat();
            assert_eq!(rows(&bytes), (first.clone(), Some(message)));
        }
    }

    #[test]
    fn a_header_block_is_at_most_a_mebibyte() {
        let long = |n: usize| {
            let value = "x".repeat(n);
            record(
                "WARC/1.0",
                &[
                    "WARC-Target-URI: http://a/",
                    &format!("X: {value}"),
                    "Content-Length: 0",
                ],
                b"",
                "\r\n",
                "",
            )
        };
        // 10 + 28 + (5 + n) + 19 + 2 bytes: exactly the cap passes.
        let fits = long(HEADER_BYTES - 64);
        assert_eq!(fits.len(), HEADER_BYTES);
        let (text, error) = rows(&fits);
        assert_eq!((text.lines().count(), error), (2, None));
        let (text, error) = rows(&long(HEADER_BYTES - 63));
        assert_eq!(text, HEADER);
        assert_eq!(
            error.unwrap(),
            format!(
                "t.warc: WARC record 1 at byte 0 has a header block longer than {HEADER_BYTES} bytes (no blank line ends it)"
            )
        );
    }

    /// A record with a payload of `len` zero bytes, made as it is read, then a small record.
    struct Big {
        head: Vec<u8>,
        len: u64,
        tail: Vec<u8>,
        at: u64,
        /// Reads asked for.
        reads: usize,
    }

    impl Read for Big {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.reads += 1;
            let (h, l) = (self.head.len() as u64, self.len);
            let mut n = 0;
            while n < buf.len() {
                let at = self.at;
                let take = if at < h {
                    let k = ((h - at) as usize).min(buf.len() - n);
                    buf[n..n + k].copy_from_slice(&self.head[at as usize..at as usize + k]);
                    k
                } else if at < h + l {
                    let k = ((h + l - at) as usize).min(buf.len() - n);
                    buf[n..n + k].fill(0);
                    k
                } else {
                    let t = (at - h - l) as usize;
                    let k = (self.tail.len() - t).min(buf.len() - n);
                    buf[n..n + k].copy_from_slice(&self.tail[t..t + k]);
                    k
                };
                if take == 0 {
                    break;
                }
                n += take;
                self.at += take as u64;
            }
            Ok(n)
        }
    }

    #[test]
    fn a_large_payload_is_skipped_in_a_buffer_of_fixed_size() {
        let len = 50 * 1024 * 1024;
        let head =
            format!("WARC/1.1\r\nWARC-Target-URI: http://big/\r\nContent-Length: {len}\r\n\r\n")
                .into_bytes();
        let tail = record(
            "WARC/1.1",
            &["WARC-Target-URI: http://after/", "Content-Length: 0"],
            b"",
            "\r\n",
            "",
        );
        let second = head.len() as u64 + len + 4;
        let big = Big {
            head,
            len,
            tail: [b"\r\n\r\n".as_slice(), &tail].concat(),
            at: 0,
            reads: 0,
        };
        let mut reader = WarcRows::new("big.warc", big);
        let mut text = String::new();
        reader.read_to_string(&mut text).unwrap();
        assert_eq!(
            text,
            format!(
                "{HEADER}http://big/\t\t\t\t\t{len}\t\t\t0\nhttp://after/\t\t\t\t\t0\t\t\t{second}\n"
            )
        );
        assert_eq!(reader.buffer_bytes(), HEADER_BYTES);
        assert!(reader.out.capacity() <= 2 * super::OUT_BYTES);
        assert_eq!(reader.inner.at, second + tail.len() as u64);
        // Read in large pieces: a read fills the whole buffer.
        assert!(reader.inner.reads <= 52, "{} reads", reader.inner.reads);
    }

    #[test]
    fn an_error_of_the_input_comes_after_the_rows_before_it() {
        struct Failing<'a>(&'a [u8]);
        impl Read for Failing<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        super::Damaged("t.warc.gz: the gzip stream is cut short".to_owned()),
                    ));
                }
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let (bytes, offsets, expected) = five("\r\n", "\r\n\r\n");
        let lines: Vec<&str> = expected.split_inclusive('\n').collect();
        // Cut in the last record's payload.
        let cut = &bytes[..bytes.len() - 5];
        assert!(cut.len() > offsets[4]);
        let (text, error) = drain(WarcRows::new("t.warc.gz", Failing(cut)), 100);
        assert_eq!(text, lines[..4].concat());
        assert_eq!(error.unwrap(), "t.warc.gz: the gzip stream is cut short");
    }

    /// xorshift64*: the tests' random bytes.
    fn random(state: &mut u64) -> u64 {
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    #[test]
    fn random_bytes_never_panic() {
        let (good, _, _) = five("\r\n", "\r\n\r\n");
        let mut state = 0x9E37_79B9_7F4A_7C15;
        for round in 0..3000u32 {
            let mut bytes = if round.is_multiple_of(2) {
                let n = (random(&mut state) % 600) as usize;
                let alphabet = b"WARC/1.0\r\n:- Content-Length: 12 WARC-Target-URI: <> \t";
                (0..n)
                    .map(|_| {
                        let r = random(&mut state);
                        if r.is_multiple_of(4) {
                            r as u8
                        } else {
                            alphabet[(r >> 8) as usize % alphabet.len()]
                        }
                    })
                    .collect()
            } else {
                good.clone()
            };
            for _ in 0..(random(&mut state) % 8) {
                if bytes.is_empty() {
                    break;
                }
                let i = (random(&mut state) % bytes.len() as u64) as usize;
                bytes[i] = random(&mut state) as u8;
            }
            let step = 1 + (random(&mut state) % 64) as usize;
            let inner = Trickle {
                bytes: &bytes,
                step,
                cycle: true,
                next: 0,
            };
            let (text, _) = drain(WarcRows::new("r.warc", inner), 7);
            assert!(text.starts_with(HEADER));
            for line in text.lines() {
                assert_eq!(line.split('\t').count(), 9, "{line:?}");
                assert!(!line.contains('\r'));
            }
        }
    }
}
