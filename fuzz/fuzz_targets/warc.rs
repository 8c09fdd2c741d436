//! The WARC reader (`rapidurl_cli::warc::WarcRows`) over any bytes.
//!
//! Input: the WARC bytes, then three bytes of parameters (the size of the inner reader's
//! reads, and where to cut the input: a fraction of its length, in 1/65536ths).
//!
//! Invariants: no panic; the text is UTF-8, the header line, then lines of nine cells
//! whose last is a byte offset inside the input, increasing; no cell holds a raw carriage
//! return; an error is a `Damaged` message naming the input and a record
//! (`f.warc: WARC record N at byte B `); the same bytes read one at a time give the same
//! text and message; the rows of the input cut short are the first rows of the whole
//! input's, and an input that reads cleanly, cut, fails only as a record cut short.
#![no_main]

use std::io::{self, Read};

use libfuzzer_sys::fuzz_target;
use rapidurl_cli::compressed::damaged;
use rapidurl_cli::warc::{COLUMNS, WarcRows};

/// Gives at most `step` bytes a read.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.bytes.len());
        buf[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// The text the reader yields over `bytes` read `step` bytes at a time, and its error.
fn read(bytes: &[u8], step: usize) -> (String, Option<String>) {
    let mut reader = WarcRows::new(
        "f.warc",
        Trickle {
            bytes,
            step: step.max(1),
        },
    );
    let mut out = Vec::new();
    let mut buf = vec![0u8; 1 + step % 4096];
    let error = loop {
        match reader.read(&mut buf) {
            Ok(0) => break None,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) => {
                let message = damaged(&e)
                    .unwrap_or_else(|| panic!("an error that is not Damaged: {e}"))
                    .0
                    .clone();
                assert!(
                    message.starts_with("f.warc: WARC record "),
                    "a message without its place: {message:?}"
                );
                assert_eq!(reader.read(&mut buf).unwrap(), 0, "text after the error");
                break Some(message);
            }
        }
    };
    let text = String::from_utf8(out).expect("UTF-8 text");
    check(&text, bytes.len());
    (text, error)
}

/// The text is the header line and lines of nine cells, offsets increasing inside the
/// input.
fn check(text: &str, len: usize) {
    let header = COLUMNS.join("\t") + "\n";
    let rows = text.strip_prefix(header.as_str()).expect("the header line");
    let mut last: Option<u64> = None;
    for line in rows.split_inclusive('\n') {
        let line = line.strip_suffix('\n').expect("a whole line");
        assert!(!line.contains('\r'), "a raw carriage return: {line:?}");
        let cells: Vec<&str> = line.split('\t').collect();
        assert_eq!(cells.len(), COLUMNS.len(), "{line:?}");
        let offset: u64 = cells[8].parse().expect("an offset");
        assert!((offset as usize) < len, "offset {offset} past {len}");
        assert!(last.is_none_or(|l| l < offset), "offsets not increasing");
        last = Some(offset);
        assert!(
            cells[5].is_empty() || cells[5].parse::<u64>().is_ok(),
            "content_length {:?}",
            cells[5]
        );
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (bytes, params) = data.split_at(data.len() - 3);
    let step = 1 + params[0] as usize * 17;
    let fraction = u16::from_le_bytes([params[1], params[2]]) as usize;
    let (full, error) = read(bytes, step);
    assert_eq!(
        read(bytes, 1),
        (full.clone(), error.clone()),
        "one byte a read"
    );
    let cut = bytes.len() * fraction / 65536;
    let (part, part_error) = read(&bytes[..cut], step);
    assert!(
        full.starts_with(&part),
        "the cut input's rows are not the first rows:\n{part}\nof\n{full}"
    );
    if let (None, Some(message)) = (&error, &part_error) {
        // A clean input cut fails only as a record cut short.
        assert!(message.contains(" is cut short: "), "{message}");
    }
});
