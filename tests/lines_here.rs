//! The bulk engine's line source on the calling thread (`engine::run_here`, which starts
//! no thread): every row is exactly what parsing its line alone gives. The line source
//! finds line ends and whether a block is ASCII with the CPU's scan kernel
//! (`scan/lines.rs`: AVX2 or SSE2 on x86_64, NEON on aarch64), so this checks that kernel
//! in the engine, also where rayon's threads cannot start (aarch64 under QEMU,
//! `scripts/test-aarch64.sh`).
#![cfg(feature = "rayon")]

use proptest::prelude::*;
use rapidurl::Url;
use rapidurl::batch::engine::{self, Piece, Row, Sink};

/// Each row's index in its piece, input, raw bytes and href or error name.
struct Rows;

type Parsed = (usize, String, Option<Vec<u8>>, Result<String, String>);

impl<'a> Sink<'a> for Rows {
    type Part = Vec<Parsed>;
    fn part(&self, _: &Piece) -> Self::Part {
        Vec::new()
    }
    fn row(&self, part: &mut Self::Part, row: Row<'a, '_>) {
        let result = row
            .url()
            .map(|u| u.href().to_owned())
            .map_err(|e| e.name().to_owned());
        part.push((
            row.index(),
            row.input().to_owned(),
            row.raw().map(<[u8]>::to_vec),
            result,
        ));
    }
}

/// The rows of `text` by `run_here`, in order, each with its index in the input (its
/// index in its piece checked on the way).
fn here(text: &[u8]) -> Vec<Parsed> {
    let mut rows = Vec::new();
    for part in engine::run_here(&engine::Lines::new(text), &Rows) {
        for (i, (index, input, raw, result)) in part.into_iter().enumerate() {
            assert_eq!(index, i, "a row's index in its piece");
            rows.push((rows.len(), input, raw, result));
        }
    }
    rows
}

/// The rows of `text` one line at a time: `\n` or `\r\n` ends a line, a last line without
/// one counts, a line that is not UTF-8 is decoded with U+FFFD.
fn expected(text: &[u8]) -> Vec<Parsed> {
    let mut lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    if lines.last() == Some(&&b""[..]) {
        lines.pop();
    }
    lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let (input, raw) = match std::str::from_utf8(line) {
                Ok(s) => (s.to_owned(), None),
                Err(_) => (
                    String::from_utf8_lossy(line).into_owned(),
                    Some(line.to_vec()),
                ),
            };
            let result = Url::parse(&input)
                .map(|u| u.href().to_owned())
                .map_err(|e| e.name().to_owned());
            (i, input, raw, result)
        })
        .collect()
}

/// Lines of URL-like pieces: canonical and not, upper case, non-ASCII, invalid UTF-8,
/// `\r\n`, empty lines.
fn text() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(&b"https://a.example/x"[..]),
        Just(&b"HTTP://B.example/"[..]),
        Just(&b"http://b\xC3\xBCcher.example/"[..]),
        Just(&b"http://x/\xFF\xFE"[..]),
        Just(&b"nope"[..]),
        Just(&b"/relative"[..]),
        Just(&b"file:///C:/dir/../f"[..]),
        Just(&b"\r"[..]),
        Just(&b" "[..]),
        Just(&b"%41"[..]),
    ];
    let line = proptest::collection::vec(piece, 0..5).prop_map(|p| p.concat());
    (
        proptest::collection::vec(line, 0..200),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(lines, crlf, last_terminated)| {
            let end: &[u8] = if crlf { b"\r\n" } else { b"\n" };
            let mut text = lines.join(end);
            if last_terminated {
                text.extend_from_slice(end);
            }
            text
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 100,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn run_here_over_lines_equals_parsing_each_line(text in text()) {
        prop_assert_eq!(here(&text), expected(&text));
    }
}

#[test]
fn run_here_over_many_blocks_equals_parsing_each_line() {
    // More than one 64 KiB block of the line source, some lines not ASCII.
    let mut text = Vec::new();
    for i in 0..8_000 {
        let line: &[u8] = match i % 5 {
            0 => b"https://a.example/x",
            1 => b"HTTP://B.example/\r",
            2 => b"http://b\xC3\xBCcher.example/",
            3 => b"http://x/\xFF",
            _ => b"",
        };
        text.extend_from_slice(line);
        text.push(b'\n');
    }
    let rows = here(&text);
    assert_eq!(rows.len(), 8_000);
    assert_eq!(rows, expected(&text));
}
