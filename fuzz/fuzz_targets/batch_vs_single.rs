//! The batch API (`rapidurl::batch`) gives, row for row, what the single-URL API gives.
//!
//! The data is a file of lines. The reference splits it itself, the simplest way (at
//! `\n`, one trailing `\r` removed, a last line without `\n` counts, empty input has no
//! lines: what the command-line tool and `batch::lines` document) and parses each line
//! with `Url::parse_bytes` / `Url::parse_with_base`. Checked against it:
//! `batch::parse_lines`, `parse_lines_with_base` and `ColumnBuffers::parse_lines` (in
//! the buffers of the column before, and of the execution before), `parse_all`,
//! `parse_column`, `parse_pairs`, and the engine (`batch::engine::run`) with a sink that
//! records every row, over the `Lines` source (its rows are the split lines) and the
//! Arrow-style `Offsets` and `Views` sources.
//!
//! The batch functions split their input into chunks of at least 64 KiB, so a small
//! input is one chunk. When the first byte is odd, the data is repeated three times with
//! a 66 KiB line between the copies, so that its rows fall on both sides of chunk
//! boundaries too. (Repeating the data itself to 140 KiB made a 140 KiB input of 70,000
//! one-byte lines, seconds per execution under the address sanitizer.) Rows are
//! compared by href and offsets: every getter is a function of the two; and the URL API's
//! fields as the front ends take them (`Field::value_into`, spans of `href`), against the
//! single URL's getters.
#![no_main]

use std::cell::Cell;

use libfuzzer_sys::fuzz_target;
use rapidurl::batch::engine::{self, Piece, Row, Sink};
use rapidurl::field::{Field, FieldContext};
use rapidurl::{Components, ParseError, Url, UrlRef, batch};
use rapidurl_testkit::invariants::assert_same_error_in_raw;

thread_local! {
    /// The buffers of the last execution's column, for the next one to be built in.
    static SPARE: Cell<batch::ColumnBuffers> = Cell::new(batch::ColumnBuffers::new());
}

const BASE: &str = "https://user:pass@example.org:8080/dir/file.html?q=1#frag";

/// The reference line splitter.
fn reference_lines(bytes: &[u8]) -> Vec<&[u8]> {
    if bytes.is_empty() {
        return Vec::new();
    }
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    body.split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line))
        .collect()
}

fn same(
    row: Result<UrlRef<'_>, ParseError>,
    single: &Result<Url, ParseError>,
    what: (&str, usize, &str),
) {
    match (row, single) {
        (Ok(r), Ok(s)) => {
            assert_eq!(r.href(), s.href(), "{what:?}");
            assert_eq!(r.components(), s.components(), "{what:?}");
            same_fields(&r, s, what);
        }
        (Err(a), Err(b)) => assert_eq!(a, *b, "{what:?}"),
        (r, s) => panic!("{what:?}: batch gives {r:?}, single gives {s:?}"),
    }
}

/// The URL API's fields of a batch row as the front ends take them (`Field::value_into`:
/// spans of `href`, `origin` among them when it is one, what the tool's writers and
/// Python's string_view output keep as offsets) are the single URL's getters.
fn same_fields(r: &UrlRef<'_>, s: &Url, what: (&str, usize, &str)) {
    let cx = FieldContext::new();
    let mut buf = String::new();
    for field in Field::URL_API {
        let expected = match field {
            Field::Origin => s.origin(),
            _ => field.value(&s.as_ref_view()).unwrap().into_owned(),
        };
        assert_eq!(
            field.value_into(r, &cx, &mut buf),
            Some(expected.as_str()),
            "{what:?} {field}"
        );
        if let Some(range) = field.href_range(r) {
            assert_eq!(&r.href()[range], expected, "{what:?} {field} as a span");
        }
    }
}

fn same_owned(
    row: &Result<Url, ParseError>,
    single: &Result<Url, ParseError>,
    what: (&str, usize, &str),
) {
    match (row, single) {
        (Ok(r), Ok(s)) => {
            assert_eq!(r.href(), s.href(), "{what:?}");
            assert_eq!(r.components(), s.components(), "{what:?}");
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{what:?}"),
        (r, s) => panic!("{what:?}: batch gives {r:?}, single gives {s:?}"),
    }
}

/// A row as the recording sink saw it: index in its piece, input, result, and the
/// borrowed serialization if any.
type Seen = (
    usize,
    String,
    Result<(String, Components), ParseError>,
    Option<String>,
);

/// Records every row, per piece, with the piece's first row when the source knows it.
struct Record;

impl<'a> Sink<'a> for Record {
    type Part = (Option<usize>, Vec<Seen>);
    fn part(&self, piece: &Piece) -> Self::Part {
        (piece.first_row, Vec::new())
    }
    fn row(&self, part: &mut Self::Part, row: Row<'a, '_>) {
        let url = row.url().map(|u| (u.href().to_owned(), *u.components()));
        part.1.push((
            row.index(),
            row.input().to_owned(),
            url,
            row.borrowed().map(str::to_owned),
        ));
    }
}

/// Checks the recorded parts against the single-URL results, in order.
fn check_recorded(
    parts: Vec<(Option<usize>, Vec<Seen>)>,
    singles: &[Result<Url, ParseError>],
    strs: &[&str],
    what: &str,
) {
    let mut n = 0;
    for (first, rows) in parts {
        if let Some(first) = first {
            assert_eq!(first, n, "{what}: first row of a piece");
        }
        for (k, (index, input, url, borrowed)) in rows.into_iter().enumerate() {
            assert_eq!(index, k, "{what}: index in piece");
            assert_eq!(input, strs[n], "{what}: input of row {n}");
            match (&url, &singles[n]) {
                (Ok((href, c)), Ok(s)) => {
                    assert_eq!(href, s.href(), "{what} row {n}");
                    assert_eq!(c, s.components(), "{what} row {n}");
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{what} row {n}"),
                (r, s) => panic!("{what} row {n}: engine gives {r:?}, single gives {s:?}"),
            }
            if let Some(b) = borrowed {
                assert_eq!(b, input, "{what}: a borrowed row is its input");
                assert_eq!(Some(b.as_str()), url.as_ref().ok().map(|u| u.0.as_str()));
            }
            n += 1;
        }
    }
    assert_eq!(n, singles.len(), "{what}: row count");
}

fuzz_target!(|data: &[u8]| {
    let big;
    let data = if data.first().is_some_and(|b| b % 2 == 1) {
        // data, a 66 KiB line, data, a 66 KiB line, data: chunks end after each long
        // line, so the data's rows sit on both sides of two chunk boundaries.
        let filler = format!("http://h/{}", "a".repeat(66 * 1024));
        let mut v = Vec::with_capacity(3 * data.len() + 2 * filler.len() + 4);
        for part in [data, filler.as_bytes(), data, filler.as_bytes(), data] {
            v.extend_from_slice(part);
            v.push(b'\n');
        }
        big = v;
        &big[..]
    } else {
        data
    };
    let lines = reference_lines(data);
    let texts: Vec<String> = lines
        .iter()
        .map(|l| String::from_utf8_lossy(l).into_owned())
        .collect();
    let strs: Vec<&str> = texts.iter().map(String::as_str).collect();
    // Error offsets: `parse_bytes` and `parse_lines` count bytes of the line, the APIs
    // over strings count bytes of the decoded line.
    let singles: Vec<Result<Url, ParseError>> = lines.iter().map(|l| Url::parse_bytes(l)).collect();
    let decoded: Vec<Result<Url, ParseError>> = strs.iter().map(|s| Url::parse(s)).collect();
    for (i, (single, dec)) in singles.iter().zip(&decoded).enumerate() {
        match (single, dec) {
            (Err(a), Err(b)) => assert_same_error_in_raw(lines[i], a, b, &("parse_bytes", i)),
            (a, b) => same_owned(a, b, ("parse_bytes", i, strs[i])),
        }
    }
    let base = Url::parse(BASE).unwrap();
    let with_base: Vec<Result<Url, ParseError>> = strs
        .iter()
        .map(|s| Url::parse_with_base(s, &base))
        .collect();

    let column = batch::parse_lines(data);
    assert_eq!(column.len(), singles.len(), "parse_lines row count");
    assert_eq!(
        column.error_count(),
        singles.iter().filter(|r| r.is_err()).count()
    );
    for (i, (row, single)) in column.iter().zip(&singles).enumerate() {
        same(row, single, ("parse_lines", i, strs[i]));
        assert_eq!(column.is_valid(i), single.is_ok());
    }
    for (i, (row, single)) in column.to_vec().iter().zip(&singles).enumerate() {
        same_owned(row, single, ("to_vec", i, strs[i]));
    }

    // Built in the buffers of the column above.
    let column = column
        .into_buffers()
        .parse_lines_with_base(data, Some(&base));
    assert_eq!(column.len(), with_base.len());
    for (i, (row, single)) in column.iter().zip(&with_base).enumerate() {
        match (row, single) {
            (Err(a), Err(b)) => {
                assert_same_error_in_raw(lines[i], &a, b, &("parse_lines_with_base", i))
            }
            (row, single) => same(row, single, ("parse_lines_with_base", i, strs[i])),
        }
    }

    // Built in the buffers of the execution before's column (another input).
    let reused = SPARE.with(Cell::take).parse_lines(data);
    assert_eq!(reused.len(), singles.len(), "ColumnBuffers row count");
    for (i, (row, single)) in reused.iter().zip(&singles).enumerate() {
        same(row, single, ("ColumnBuffers::parse_lines", i, strs[i]));
    }
    SPARE.with(|spare| spare.set(reused.into_buffers()));

    let all = batch::parse_all(&strs);
    assert_eq!(all.len(), decoded.len());
    for (i, (row, single)) in all.iter().zip(&decoded).enumerate() {
        same_owned(row, single, ("parse_all", i, strs[i]));
    }

    let column = batch::parse_column(&strs, None);
    assert_eq!(column.len(), decoded.len());
    for (i, (row, single)) in column.iter().zip(&decoded).enumerate() {
        same(row, single, ("parse_column", i, strs[i]));
    }

    // Every row against the base given as a string (parsed once per run of rows).
    let pairs: Vec<(&str, Option<&str>)> = strs.iter().map(|s| (*s, Some(BASE))).collect();
    let column = batch::parse_pairs(&pairs);
    assert_eq!(column.len(), with_base.len());
    for (i, (row, single)) in column.iter().zip(&with_base).enumerate() {
        same(row, single, ("parse_pairs", i, strs[i]));
    }

    // The engine itself, with a sink of its own, over lines and over Arrow-style offsets
    // of the raw lines (32- and 64-bit).
    let parts = engine::run(&engine::Lines::new(data), &Record);
    check_recorded(parts, &singles, &strs, "engine Lines");
    let mut flat = Vec::new();
    let mut offsets = vec![0i64];
    for line in &lines {
        flat.extend_from_slice(line);
        offsets.push(flat.len() as i64);
    }
    let parts = engine::run(&engine::Offsets::new(&offsets, &flat, None), &Record);
    check_recorded(parts, &singles, &strs, "engine Offsets i64");
    if let Ok(small) = offsets
        .iter()
        .map(|&o| i32::try_from(o))
        .collect::<Result<Vec<i32>, _>>()
    {
        let parts = engine::run(&engine::Offsets::new(&small, &flat, Some(&base)), &Record);
        check_recorded(
            parts,
            &with_base_raw(&lines, &base),
            &strs,
            "engine Offsets i32, base",
        );
    }
    // The same rows as Arrow string views over one buffer (short rows inline).
    let mut views = Vec::new();
    for w in offsets.windows(2) {
        let (start, len) = (w[0] as usize, (w[1] - w[0]) as usize);
        let mut v = [0u8; 16];
        v[..4].copy_from_slice(&(len as u32).to_le_bytes());
        if len <= 12 {
            v[4..4 + len].copy_from_slice(&flat[start..start + len]);
        } else {
            v[12..].copy_from_slice(&(start as u32).to_le_bytes());
        }
        views.extend_from_slice(&v);
    }
    let buffers = [flat.as_slice()];
    let parts = engine::run(&engine::Views::new(&views, &buffers, None), &Record);
    check_recorded(parts, &singles, &strs, "engine Views");
});

/// Each raw line parsed against `base` as the engine does it: decoded with U+FFFD, an
/// error's offset in bytes of the raw line.
fn with_base_raw(lines: &[&[u8]], base: &Url) -> Vec<Result<Url, ParseError>> {
    lines
        .iter()
        .map(|l| {
            let text = String::from_utf8_lossy(l);
            Url::parse_with_base(&text, base).map_err(|e| match text {
                std::borrow::Cow::Owned(_) => e.in_raw_utf8(l),
                std::borrow::Cow::Borrowed(_) => e,
            })
        })
        .collect()
}
