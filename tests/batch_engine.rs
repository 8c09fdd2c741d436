//! The bulk engine's extension point (`rapidurl::batch::engine`): sources and sinks
//! written outside the crate, rows in input order with their input, result and place,
//! and the column's zero-copy rows.

use rapidurl::batch::engine::{self, Input, Piece, Row, Sink, Source};
use rapidurl::{ErrorKind, ParseError, Url, batch};
use std::ops::Range;

/// What a sink saw of one row.
#[derive(Debug, PartialEq)]
struct Seen {
    index: usize,
    input: String,
    href: Result<String, ParseError>,
    borrowed: bool,
}

/// Records every row of each piece, with the piece's description.
struct Record;

impl<'a> Sink<'a> for Record {
    type Part = (Piece, Vec<Seen>);
    fn part(&self, piece: &Piece) -> Self::Part {
        (piece.clone(), Vec::new())
    }
    fn row(&self, part: &mut Self::Part, row: Row<'a, '_>) {
        if let Some(b) = row.borrowed() {
            // A borrowed serialization is the input itself, and the URL's.
            assert_eq!(b, row.input());
            assert_eq!(b, row.url().unwrap().href());
        }
        part.1.push(Seen {
            index: row.index(),
            input: row.input().to_owned(),
            href: row.url().map(|u| u.href().to_owned()),
            borrowed: row.borrowed().is_some(),
        });
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

/// The rows of the parts in order, checking that pieces are numbered in order, that row
/// indexes restart at 0 in each piece, and that a known first row is the running count.
fn flatten(parts: Vec<(Piece, Vec<Seen>)>) -> Vec<Seen> {
    let mut rows = Vec::new();
    for (k, (piece, seen)) in parts.into_iter().enumerate() {
        assert_eq!(piece.number, k);
        if let Some(first) = piece.first_row {
            assert_eq!(first, rows.len(), "piece {k}'s first row");
        }
        for (i, s) in seen.iter().enumerate() {
            assert_eq!(s.index, i, "piece {k}");
        }
        rows.extend(seen);
    }
    rows
}

/// `n` lines: canonical URLs, URLs the parser rewrites, and failures, mixed.
fn corpus(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| match i % 6 {
            0 => format!("https://example.com/a/{i}"),
            1 => format!("HTTP://Host{i}.example/x/../y"),
            2 => format!("no scheme {i}"),
            3 => format!("http://h:{}/", 65_530 + i % 10),
            4 => format!("file:///tmp/{i}?q#f"),
            _ => format!("https://a.example/p?x={i} y"),
        })
        .collect()
}

fn expected(inputs: &[&str]) -> Vec<Result<String, ParseError>> {
    inputs
        .iter()
        .map(|s| Url::parse(s).map(|u| u.href().to_owned()))
        .collect()
}

#[test]
fn a_sink_sees_every_line_in_order_on_one_and_two_threads() {
    let lines = corpus(30_000);
    let text = lines.join("\r\n");
    let strs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let want = expected(&strs);
    for threads in [1, 2] {
        let parts =
            pool(threads).install(|| engine::run(&engine::Lines::new(text.as_bytes()), &Record));
        assert!(parts.len() > 1, "{threads} threads: several pieces");
        let rows = flatten(parts);
        assert_eq!(rows.len(), lines.len());
        for (i, row) in rows.iter().enumerate() {
            assert_eq!(row.input, lines[i], "row {i}");
            assert_eq!(row.href, want[i], "row {i}");
            // Every line is lent by the source: exactly the canonical ones are borrowed.
            assert_eq!(
                row.borrowed,
                want[i].as_ref().is_ok_and(|h| h == &lines[i]),
                "row {i}"
            );
        }
        assert!(rows.iter().filter(|r| r.borrowed).count() >= lines.len() / 6);
    }
}

#[test]
fn strs_and_pairs_sources_know_each_piece_s_first_row() {
    let lines = corpus(20_000);
    let strs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let parts = pool(2).install(|| engine::run(&engine::Strs::new(&strs, None), &Record));
    assert!(parts.iter().all(|(p, _)| p.first_row.is_some()));
    let rows = flatten(parts);
    let hrefs: Vec<_> = rows.into_iter().map(|r| r.href).collect();
    assert_eq!(hrefs, expected(&strs));

    let base = "https://example.org/dir/page";
    let pairs: Vec<(&str, Option<&str>)> = vec![
        ("../x", Some(base)),
        ("y", Some("not a base")),
        ("z", None),
        ("sc:z", None),
    ];
    let rows = flatten(engine::run(&engine::WithBases::new(&pairs), &Record));
    assert_eq!(rows[0].href.as_deref(), Ok("https://example.org/x"));
    assert_eq!(
        rows[1].href.as_ref().unwrap_err().kind(),
        ErrorKind::InvalidBase
    );
    assert_eq!(
        rows[2].href.as_ref().unwrap_err().name(),
        "missing-scheme-non-relative-URL"
    );
    assert_eq!(rows[3].href.as_deref(), Ok("sc:z"));
}

#[test]
fn offsets_source_reads_arrow_style_columns() {
    // Rows: canonical, rewritten, invalid UTF-8 (decoded, error offset in raw bytes),
    // empty, and one whose offsets run backwards (an empty row).
    let data: &[u8] = b"https://a.example/HTTP://B/\xFF://xhttp://h:99999/";
    let offsets: [i32; 6] = [0, 18, 27, 32, 32, 30];
    let rows = flatten(engine::run(
        &engine::Offsets::new(&offsets, data, None),
        &Record,
    ));
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[4].input, "");
    assert_eq!(rows[0].href.as_deref(), Ok("https://a.example/"));
    assert!(rows[0].borrowed);
    assert_eq!(rows[1].href.as_deref(), Ok("http://b/"));
    assert!(!rows[1].borrowed);
    assert_eq!(rows[2].input, "\u{FFFD}://x");
    assert_eq!(
        rows[2].href,
        Err(Url::parse_bytes(b"\xFF://x").unwrap_err())
    );
    assert_eq!(rows[3].input, "");
    assert!(rows[3].href.is_err());

    let large: Vec<i64> = vec![32, 47, 18];
    let rows = flatten(engine::run(
        &engine::Offsets::new(&large, data, None),
        &Record,
    ));
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows[0].href.as_ref().unwrap_err().name(),
        "port-out-of-range"
    );
    // Backwards offsets: an empty row, not a panic.
    assert_eq!(rows[1].input, "");

    let base = Url::parse("https://example.com/a/b").unwrap();
    let data = b"c?d../e";
    let rows = flatten(engine::run(
        &engine::Offsets::new(&[0i32, 3, 7], data, Some(&base)),
        &Record,
    ));
    let hrefs: Vec<_> = rows.into_iter().map(|r| r.href.unwrap()).collect();
    assert_eq!(
        hrefs,
        ["https://example.com/a/c?d", "https://example.com/e"]
    );
}

/// A source of one's own: every other number as a URL, `n` rows.
struct Numbers(usize);

impl<'a> Source<'a> for Numbers {
    fn size(&self) -> usize {
        self.0 * 24
    }
    fn pieces(&self, target: usize) -> Vec<Range<usize>> {
        let per = (target / 24).max(1);
        (0..self.0)
            .step_by(per)
            .map(|s| s..(s + per).min(self.0))
            .collect()
    }
    fn describe(&self, number: usize, piece: &Range<usize>) -> Piece {
        Piece {
            number,
            first_row: Some(piece.start),
            rows: piece.len(),
            bytes: piece.len() * 24,
            input: None,
        }
    }
    fn rows<F: FnMut(Input<'a, '_>)>(&self, piece: Range<usize>, mut row: F) {
        for i in piece {
            let text = format!("https://n{i}.example/");
            row(Input::transient(&text));
        }
    }
}

#[test]
fn a_source_of_one_s_own_feeds_any_sink() {
    let parts = pool(2).install(|| engine::run(&Numbers(50_000), &Record));
    assert!(parts.len() > 1);
    let rows = flatten(parts);
    assert_eq!(rows.len(), 50_000);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(
            row.href.as_deref(),
            Ok(format!("https://n{i}.example/").as_str())
        );
        // Its rows live only for the call: never borrowed.
        assert!(!row.borrowed);
    }
}

#[test]
fn a_column_of_canonical_lines_borrows_them() {
    let lines: Vec<String> = (0..10_000)
        .map(|i| format!("https://example.com/p/{i}?q={i}"))
        .collect();
    let text = lines.join("\n");
    let column = batch::parse_lines(text.as_bytes());
    let range = text.as_ptr() as usize..text.as_ptr() as usize + text.len();
    for (i, row) in column.iter().enumerate() {
        let url = row.unwrap();
        assert_eq!(url.href(), lines[i]);
        assert!(
            range.contains(&(url.href().as_ptr() as usize)),
            "row {i} is a slice of the input"
        );
    }
    // Offsets and components, no copy of the URLs: well under the input's size.
    assert!(
        column.heap_bytes() < text.len(),
        "{} bytes of buffers for {} bytes of input",
        column.heap_bytes(),
        text.len()
    );
    // A rewritten row is copied.
    let column = batch::parse_lines(b"HTTP://A/\nhttp://a/");
    assert_eq!(column.get(0).unwrap().href(), "http://a/");
    assert_eq!(column.get(1).unwrap().href(), "http://a/");
}

/// A reader that hands out at most `step` bytes a call, then fails if told to.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
    fail_at_end: bool,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.data.is_empty() && self.fail_at_end {
            return Err(std::io::Error::other("the disk is on fire"));
        }
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

#[test]
fn a_stream_gives_the_rows_of_parse_lines_in_order() {
    let lines = corpus(5_000);
    let mut text = lines.join("\r\n").into_bytes();
    text.extend_from_slice(b"\nhttp://x/\xFF\n\nlast-without-newline:");
    let want: Vec<Result<String, ParseError>> = batch::parse_lines(&text)
        .iter()
        .map(|r| r.map(|u| u.href().to_owned()))
        .collect();
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend_from_slice(&text);
    for (threads, step, block) in [(1, 7, 100), (2, 4096, 1000), (2, 1 << 20, 1 << 16)] {
        for input in [&text, &with_bom] {
            let mut got = Vec::new();
            let reader = Trickle {
                data: input,
                step,
                fail_at_end: false,
            };
            pool(threads)
                .install(|| {
                    engine::run_lines_stream(
                        reader,
                        block,
                        &Record,
                        |(piece, seen): (Piece, Vec<Seen>)| {
                            assert_eq!(piece.first_row, None);
                            got.extend(seen.into_iter().map(|s| s.href));
                            Ok::<(), std::io::Error>(())
                        },
                    )
                })
                .unwrap();
            assert_eq!(
                got.len(),
                want.len(),
                "{threads} threads, reads of {step}, blocks of {block}"
            );
            assert_eq!(
                got, want,
                "{threads} threads, reads of {step}, blocks of {block}"
            );
        }
    }
    // A read error stops the run and is returned; so does the consumer's own error.
    let reader = Trickle {
        data: &text,
        step: 1000,
        fail_at_end: true,
    };
    let err = engine::run_lines_stream(reader, 100, &Record, |_| Ok::<(), std::io::Error>(()))
        .unwrap_err();
    assert_eq!(err.to_string(), "the disk is on fire");
    let mut calls = 0;
    let reader = Trickle {
        data: &text,
        step: 1000,
        fail_at_end: false,
    };
    let err = engine::run_lines_stream(reader, 100, &Record, |_| {
        calls += 1;
        Err(std::io::Error::other("stop"))
    })
    .unwrap_err();
    assert_eq!((err.to_string().as_str(), calls), ("stop", 1));
}

#[test]
fn a_stream_reads_a_line_longer_than_its_window_whole() {
    let long = format!("http://h/{}", "a".repeat(1 << 20));
    let text = format!("{long}\r\nHTTP://x\n{long}");
    let reader = Trickle {
        data: text.as_bytes(),
        step: 4096,
        fail_at_end: false,
    };
    let mut got = Vec::new();
    engine::run_lines_stream(reader, 100, &Record, |(_, seen): (Piece, Vec<Seen>)| {
        got.extend(seen.into_iter().map(|s| s.href.unwrap()));
        Ok::<(), std::io::Error>(())
    })
    .unwrap();
    assert_eq!(got.len(), 3);
    assert_eq!(got[0], long);
    assert_eq!(got[1], "http://x/");
    assert_eq!(got[2], long);
}

/// A 16-byte Arrow view of `len` bytes: inline (`inline` its bytes) or at `offset` of
/// buffer `index`.
fn view(len: u32, inline: &[u8], index: u32, offset: u32) -> [u8; 16] {
    let mut v = [0u8; 16];
    v[..4].copy_from_slice(&len.to_le_bytes());
    if len <= 12 {
        v[4..4 + inline.len()].copy_from_slice(inline);
    } else {
        v[8..12].copy_from_slice(&index.to_le_bytes());
        v[12..].copy_from_slice(&offset.to_le_bytes());
    }
    v
}

#[test]
fn views_source_reads_string_view_columns() {
    let buffers: [&[u8]; 2] = [b"xxhttps://long.example/path", b"HTTP://UPPER.EXAMPLE/\xFF"];
    let views: Vec<u8> = [
        view(8, b"sc:inlin", 0, 0),
        view(25, b"", 0, 2),
        view(22, b"", 1, 0),
        // Out of its buffer, and a buffer that does not exist: empty rows.
        view(30, b"", 0, 10),
        view(13, b"", 7, 0),
        view(0, b"", 0, 0),
    ]
    .concat();
    let rows = flatten(engine::run(
        &engine::Views::new(&views, &buffers, None),
        &Record,
    ));
    let inputs: Vec<&str> = rows.iter().map(|r| r.input.as_str()).collect();
    assert_eq!(
        inputs,
        [
            "sc:inlin",
            "https://long.example/path",
            "HTTP://UPPER.EXAMPLE/\u{FFFD}",
            "",
            "",
            ""
        ]
    );
    assert_eq!(rows[0].href.as_deref(), Ok("sc:inlin"));
    assert!(rows[0].borrowed && rows[1].borrowed);
    assert_eq!(
        rows[2].href.as_deref(),
        Ok("http://upper.example/%EF%BF%BD")
    );
    assert!(rows[3..].iter().all(|r| r.href.is_err()));
}

/// Reading from buffers checked whole (`with_texts`) gives the same rows as checking
/// each row: a buffer that is not UTF-8, a view that splits a character, views out of
/// their buffer, inline rows.
#[test]
fn views_read_from_checked_texts_give_the_same_rows() {
    let good: &[u8] = "https://é.example/αβγ/path?q=1".as_bytes();
    let bad: &[u8] = b"https://bad.example/\xFF\xFEtail";
    let buffers: [&[u8]; 2] = [good, bad];
    let views: Vec<u8> = [
        view(good.len() as u32, b"", 0, 0),
        // Starts inside `é` (a two-byte character): not a character boundary.
        view(20, b"", 0, 9),
        // Ends inside `α`.
        view(22, b"", 0, 0),
        view(bad.len() as u32, b"", 1, 0),
        view(9, b"a:inline", 0, 0),
        view(40, b"", 0, 30),
        view(13, b"", 5, 0),
    ]
    .concat();
    let plain = flatten(engine::run(
        &engine::Views::new(&views, &buffers, None),
        &Record,
    ));
    let texts = engine::Views::texts_of(&buffers);
    assert!(texts[0].is_some() && texts[1].is_none());
    let checked = flatten(engine::run(
        &engine::Views::new(&views, &buffers, None).with_texts(&texts),
        &Record,
    ));
    assert_eq!(plain.len(), 7);
    for (a, b) in plain.iter().zip(&checked) {
        assert_eq!(a.input, b.input);
        assert_eq!(a.href, b.href);
        assert_eq!(a.borrowed, b.borrowed);
    }
    // The split views were decoded with U+FFFD, not read as slices.
    assert!(
        checked[1].input.starts_with('\u{FFFD}'),
        "{:?}",
        checked[1].input
    );
    assert!(
        checked[2].input.ends_with('\u{FFFD}'),
        "{:?}",
        checked[2].input
    );
    assert_eq!(
        checked[0].href.as_deref(),
        Ok("https://xn--9ca.example/%CE%B1%CE%B2%CE%B3/path?q=1")
    );
}

/// Records whether each row was null, and its href.
struct Nulls;

impl<'a> Sink<'a> for Nulls {
    type Part = Vec<(bool, Result<String, ParseError>)>;
    fn part(&self, _: &Piece) -> Self::Part {
        Vec::new()
    }
    fn row(&self, part: &mut Self::Part, row: Row<'a, '_>) {
        part.push((row.is_null(), row.url().map(|u| u.href().to_owned())));
    }
}

/// Per-row bases from a list.
struct ListBases(Vec<Option<&'static str>>);

impl engine::RowBases for ListBases {
    fn base(&self, i: usize) -> Option<std::borrow::Cow<'_, str>> {
        self.0[i].map(std::borrow::Cow::Borrowed)
    }
}

#[test]
fn validity_and_row_bases_of_column_sources() {
    let data = b"ab../chttps://x/d";
    let offsets = [0i32, 1, 2, 6, 6, 17];
    // Row 3 null (bit clear); the bitmap starts at bit 2 of its first byte.
    let bits = [0b0101_1100u8, 0b0000_0001];
    let validity = Some(engine::Validity::new(&bits, 2));
    let bases = ListBases(vec![
        Some("http://h/p/q"),
        Some("http://h/p/q"),
        Some("not a base"),
        Some("http://h/"),
        None,
    ]);
    let source = engine::Offsets::new(&offsets, data, None)
        .with_validity(validity)
        .with_row_bases(&bases);
    let rows: Vec<_> = engine::run(&source, &Nulls).into_iter().flatten().collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(rows[0], (false, Ok("http://h/p/a".to_owned())));
    assert_eq!(rows[1], (false, Ok("http://h/p/b".to_owned())));
    let err = rows[2].1.as_ref().unwrap_err();
    assert_eq!((rows[2].0, err.kind()), (false, ErrorKind::InvalidBase));
    // A null row: an empty input that fails as one does, flagged null.
    assert!(rows[3].0);
    assert_eq!(
        rows[3].1.as_ref().unwrap_err().name(),
        "missing-scheme-non-relative-URL"
    );
    assert_eq!(rows[4], (false, Ok("https://x/d".to_owned())));

    // The same through views (all inline), with one base for every row.
    let base = Url::parse("http://h/p/q").unwrap();
    let views: Vec<u8> = [view(1, b"a", 0, 0), view(4, b"../c", 0, 0)].concat();
    let source = engine::Views::new(&views, &[], Some(&base))
        .with_validity(Some(engine::Validity::new(&[0b10], 0)));
    let rows: Vec<_> = engine::run(&source, &Nulls).into_iter().flatten().collect();
    assert!(rows[0].0);
    assert_eq!(rows[1], (false, Ok("http://h/c".to_owned())));
}

/// Takes the rows that start with `x` without parsing them (counted), parses the rest.
struct TakeX;

impl<'a> Sink<'a> for TakeX {
    type Part = (usize, Vec<(usize, String)>);
    fn part(&self, _: &Piece) -> Self::Part {
        (0, Vec::new())
    }
    fn row(&self, part: &mut Self::Part, row: Row<'a, '_>) {
        assert!(!row.input().starts_with('x'), "a taken row was parsed");
        part.1
            .push((row.index(), row.url().unwrap().href().to_owned()));
    }
    fn take_unparsed(&self, part: &mut Self::Part, input: &Input<'a, '_>) -> bool {
        let take = input.text().starts_with('x');
        part.0 += usize::from(take);
        take
    }
}

#[test]
fn a_sink_can_take_rows_unparsed() {
    let parts = engine::run(
        &engine::Lines::new(b"http://a/\nxyz\nHTTP://B\nxx\n"),
        &TakeX,
    );
    let taken: usize = parts.iter().map(|p| p.0).sum();
    let parsed: Vec<_> = parts.into_iter().flat_map(|p| p.1).collect();
    assert_eq!(taken, 2);
    // Taken rows keep their place: the parsed ones are rows 0 and 2.
    assert_eq!(
        parsed,
        [(0, "http://a/".to_owned()), (2, "http://b/".to_owned())]
    );
}

/// Records the thread each piece ran on, and its rows' hrefs.
struct OnThread;

impl<'a> Sink<'a> for OnThread {
    type Part = (std::thread::ThreadId, Vec<String>);
    fn part(&self, _: &Piece) -> Self::Part {
        (std::thread::current().id(), Vec::new())
    }
    fn row(&self, part: &mut Self::Part, row: Row<'a, '_>) {
        part.1.push(
            row.url()
                .map_or_else(|e| e.name().to_owned(), |u| u.href().to_owned()),
        );
    }
}

#[test]
fn run_here_parses_on_the_calling_thread() {
    let text = "https://a.example/x\nnope\nHTTP://B/\n".repeat(20_000);
    let source = engine::Lines::new(text.as_bytes());
    let caller = std::thread::current().id();
    let here = engine::run_here(&source, &OnThread);
    // `install` runs its work on the pool's threads while this one waits.
    let pooled = pool(2).install(|| engine::run(&source, &OnThread));
    // Several pieces, every one on the calling thread, and the same rows as `run`.
    assert!(here.len() > 1);
    assert!(here.iter().all(|p| p.0 == caller));
    assert!(pooled.iter().all(|p| p.0 != caller));
    let rows = |parts: Vec<(std::thread::ThreadId, Vec<String>)>| -> Vec<String> {
        parts.into_iter().flat_map(|p| p.1).collect()
    };
    let here = rows(here);
    assert_eq!(here.len(), 60_000);
    assert_eq!(
        here[..3],
        [
            "https://a.example/x",
            "missing-scheme-non-relative-URL",
            "http://b/"
        ]
    );
    assert_eq!(here, rows(pooled));
}
