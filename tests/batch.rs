//! The batch engine, `rapidurl::batch`: results, order, layout and memory.
//!
//! Expected values come from the URL Standard (hand-written) or from the web-platform-tests
//! data (`urltestdata.json`), never from running the code under test.

use rapidurl_testkit::data as common;

use std::borrow::Cow;

use rapidurl::batch::{self, UrlColumn};
use rapidurl::{ErrorKind, HostKind, Url};
use serde_json::Value;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool")
}

fn hrefs(column: &UrlColumn) -> Vec<Result<String, String>> {
    column
        .iter()
        .map(|row| {
            row.map(|u| u.href().to_owned())
                .map_err(|e| e.name().to_owned())
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Results

#[test]
fn parse_all_keeps_order_and_results() {
    let inputs = [
        "HTTPS://Example.COM:443/a/./b/../c?q#f",
        "http://[::1",
        "mailto:Someone@Example.com",
        "http://0x7f.1/",
    ];
    let urls = batch::parse_all(&inputs);
    assert_eq!(urls.len(), 4);
    assert_eq!(
        urls[0].as_ref().unwrap().href(),
        "https://example.com/a/c?q#f"
    );
    assert_eq!(
        urls[1].as_ref().unwrap_err().kind(),
        ErrorKind::Ipv6Unclosed
    );
    assert_eq!(urls[2].as_ref().unwrap().pathname(), "Someone@Example.com");
    assert_eq!(urls[3].as_ref().unwrap().hostname(), "127.0.0.1");
    assert!(batch::parse_all(&[]).is_empty());
}

#[test]
fn column_rows_getters_and_errors() {
    let inputs = [
        "https://user:pw@example.com:8443/p/q?x=1#frag",
        "https://host:99999",
        "http://example.com",
        "file:///C:/dir/f.txt",
        "",
        "non-spec://h/%7e?a b",
        "http://[2001:db8::1]:80/",
    ];
    let column = batch::parse_column(&inputs, None);
    assert_eq!(column.len(), 7);
    assert!(!column.is_empty());

    let u = column.get(0).expect("row 0 parses");
    assert_eq!(u.href(), "https://user:pw@example.com:8443/p/q?x=1#frag");
    assert_eq!(u.protocol(), "https:");
    assert_eq!(u.username(), "user");
    assert_eq!(u.password(), "pw");
    assert_eq!(u.host(), "example.com:8443");
    assert_eq!(u.port(), "8443");
    assert_eq!(u.pathname(), "/p/q");
    assert_eq!(u.search(), "?x=1");
    assert_eq!(u.hash(), "#frag");
    assert_eq!(u.origin(), "https://example.com:8443");

    // "https://host:" is 13 bytes: the port starts at byte 13.
    assert!(column.get(1).is_none());
    let err = column.error(1).expect("row 1 fails");
    assert_eq!(err.kind(), ErrorKind::PortOutOfRange);
    assert_eq!(err.offset(), Some(13));
    assert!(!column.is_valid(1));

    // The canonical form of an empty special path is `/`.
    assert_eq!(column.get(2).unwrap().href(), "http://example.com/");
    assert_eq!(column.get(2).unwrap().pathname(), "/");
    assert_eq!(column.error(2), None);

    let file = column.get(3).unwrap();
    assert_eq!(file.host_kind(), HostKind::Empty);
    assert_eq!(file.pathname(), "/C:/dir/f.txt");

    assert_eq!(
        column.error(4).unwrap().kind(),
        ErrorKind::MissingSchemeNonRelativeUrl
    );

    let opaque = column.get(5).unwrap();
    assert_eq!(opaque.href(), "non-spec://h/%7e?a%20b");
    assert_eq!(opaque.host_kind(), HostKind::Opaque);

    let v6 = column.get(6).unwrap();
    assert_eq!(v6.host(), "[2001:db8::1]");
    assert_eq!(v6.port(), "");
    assert_eq!(v6.port_or_known_default(), Some(80));

    assert!(column.get(7).is_none() && column.error(7).is_none() && column.row(7).is_none());
    assert_eq!(column.error_count(), 2);
    let errors: Vec<(usize, &str)> = column.errors().map(|(i, e)| (i, e.name())).collect();
    assert_eq!(
        errors,
        [
            (1, "port-out-of-range"),
            (4, "missing-scheme-non-relative-URL")
        ]
    );
    assert_eq!(column.iter().len(), 7);
    assert_eq!((&column).into_iter().filter(Result::is_ok).count(), 5);
    let owned = column.to_vec();
    assert_eq!(owned[2].as_ref().unwrap().as_str(), "http://example.com/");
}

#[test]
fn column_with_a_base() {
    let base = Url::parse("https://example.com/docs/guide/index.html").unwrap();
    let column = batch::parse_column(
        &[
            "../img/a.png",
            "?q=1",
            "#top",
            "//cdn.example/x.js",
            "",
            "http://o/",
        ],
        Some(&base),
    );
    assert_eq!(
        hrefs(&column),
        [
            Ok("https://example.com/docs/img/a.png".to_owned()),
            Ok("https://example.com/docs/guide/index.html?q=1".to_owned()),
            Ok("https://example.com/docs/guide/index.html#top".to_owned()),
            Ok("https://cdn.example/x.js".to_owned()),
            Ok("https://example.com/docs/guide/index.html".to_owned()),
            Ok("http://o/".to_owned()),
        ]
    );
}

#[test]
fn pairs_use_their_own_bases() {
    let column = batch::parse_pairs(&[
        ("b", Some("http://x/a/")),
        ("b", Some("http://x/a/")),
        ("b", Some("http://y/")),
        ("b", None),
        ("b", Some("not a url")),
        ("sc:z", Some("not a url")),
    ]);
    assert_eq!(
        hrefs(&column),
        [
            Ok("http://x/a/b".to_owned()),
            Ok("http://x/a/b".to_owned()),
            Ok("http://y/b".to_owned()),
            Err("missing-scheme-non-relative-URL".to_owned()),
            // `new URL(input, base)` throws when the base does not parse.
            Err("base-URL-invalid".to_owned()),
            Err("base-URL-invalid".to_owned()),
        ]
    );
}

#[test]
fn a_row_longer_than_64_kib_keeps_its_components() {
    let long_path = "a".repeat(70_000);
    let input = format!("https://example.com/{long_path}?q#f");
    let inputs = ["http://a/", input.as_str(), "http://b/"];
    let column = batch::parse_column(&inputs, None);
    let u = column.get(1).unwrap();
    assert_eq!(u.href(), input);
    assert_eq!(u.pathname().len(), 70_001);
    assert_eq!(u.search(), "?q");
    assert_eq!(u.hash(), "#f");
    assert_eq!(column.get(2).unwrap().href(), "http://b/");
}

// ---------------------------------------------------------------------------------------------
// Lines

#[test]
fn parse_lines_handles_crlf_invalid_utf8_and_no_trailing_newline() {
    let column =
        batch::parse_lines(b"http://a/x\r\nhttp://example.com/\xFF\nhttps://h:99999\r\nfoo://h/y");
    assert_eq!(
        hrefs(&column),
        [
            Ok("http://a/x".to_owned()),
            Ok("http://example.com/%EF%BF%BD".to_owned()),
            Err("port-out-of-range".to_owned()),
            Ok("foo://h/y".to_owned()),
        ]
    );
    assert_eq!(column.error(2).unwrap().offset(), Some(10));
    assert_eq!(batch::parse_lines(b"").len(), 0);
    let one_empty = batch::parse_lines(b"\n");
    assert_eq!(one_empty.len(), 1);
    assert_eq!(
        one_empty.error(0).unwrap().kind(),
        ErrorKind::MissingSchemeNonRelativeUrl
    );
}

#[test]
fn parse_lines_with_base_resolves_each_line() {
    let base = Url::parse("http://h/dir/").unwrap();
    let column = batch::parse_lines_with_base(b"a\xFFb\n\n../up\n", Some(&base));
    assert_eq!(
        hrefs(&column),
        [
            Ok("http://h/dir/a%EF%BF%BDb".to_owned()),
            Ok("http://h/dir/".to_owned()),
            Ok("http://h/up".to_owned()),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Order, chunks and threads

/// 300,000 lines, many chunks: row `i` must be line `i`, whose URL is known by construction.
#[test]
fn order_is_kept_across_chunks_and_threads() {
    let n = 300_000;
    let mut text = String::new();
    for i in 0..n {
        match i % 7 {
            0 => text.push_str(&format!("HTTP://Host{i}.Example/a/../p{i}\n")),
            3 => text.push_str(&format!("bad line {i}\n")),
            _ => text.push_str(&format!("https://h{i}.example/p{i}?q={i}\n")),
        }
    }
    for threads in [1, 2] {
        let column = pool(threads).install(|| batch::parse_lines(text.as_bytes()));
        assert_eq!(column.len(), n);
        assert!(
            column.chunk_count() > 1,
            "{} chunk(s)",
            column.chunk_count()
        );
        for (i, row) in column.iter().enumerate() {
            match (i % 7, row) {
                (0, Ok(u)) => assert_eq!(u.href(), format!("http://host{i}.example/p{i}")),
                (3, Err(e)) => assert_eq!(e.kind(), ErrorKind::MissingSchemeNonRelativeUrl),
                (_, Ok(u)) => {
                    assert_eq!(u.hostname(), format!("h{i}.example"));
                    assert_eq!(u.search(), format!("?q={i}"));
                }
                (_, row) => panic!("row {i}: {row:?}"),
            }
        }
        assert_eq!(column.error_count(), (0..n).filter(|i| i % 7 == 3).count());
        assert_eq!(column.get(299_999).unwrap().pathname(), "/p299999");
    }
}

#[test]
fn one_and_two_threads_give_the_same_column() {
    let corpus = std::fs::read(common_corpus("kasztp.txt")).expect("read kasztp.txt");
    let one = pool(1).install(|| batch::parse_lines(&corpus));
    let two = pool(2).install(|| batch::parse_lines(&corpus));
    assert_eq!(hrefs(&one), hrefs(&two));
}

/// A row as its getters' values, or its error's name and offset.
type RowValues = Result<[String; 9], (String, Option<usize>)>;

/// Every getter of every row, and every error with its offset.
fn rows(column: &UrlColumn) -> Vec<RowValues> {
    column
        .iter()
        .map(|row| match row {
            Ok(u) => Ok([
                u.href(),
                u.protocol(),
                u.username(),
                u.password(),
                u.host(),
                u.port(),
                u.pathname(),
                u.search(),
                u.hash(),
            ]
            .map(str::to_owned)),
            Err(e) => Err((e.name().to_owned(), e.offset())),
        })
        .collect()
}

/// Columns built in the buffers of earlier ones (larger, smaller, with long rows, errors
/// and rewritten rows) hold exactly the rows of fresh ones, and nothing left over.
#[test]
fn reused_buffers_give_the_rows_of_fresh_columns() {
    let mut many = String::new();
    for i in 0..120_000 {
        match i % 5 {
            0 => many.push_str(&format!("HTTP://Host{i}.Example/a/../p{i}\n")),
            1 => many.push_str(&format!("bad line {i}\n")),
            _ => many.push_str(&format!("https://h{i}.example/p{i}?q={i}#f\n")),
        }
    }
    let long = format!("https://example.com/{}?q#f\n", "a".repeat(70_000));
    let few =
        format!("http://a/x\r\n{long}http://example.com/\u{FFFD}\nhttps://h:99999\r\nfoo://h/y");
    let mut invalid = few.clone().into_bytes();
    invalid.extend_from_slice(b"\nhttp://b/\xFF\n");
    let corpus = std::fs::read(common_corpus("kasztp.txt")).expect("read kasztp.txt");
    let inputs: [&[u8]; 5] = [
        many.as_bytes(),
        few.as_bytes(),
        &corpus,
        &invalid,
        many.as_bytes(),
    ];
    for threads in [1, 2] {
        pool(threads).install(|| {
            let mut buffers = batch::ColumnBuffers::new();
            for (k, input) in inputs.iter().enumerate() {
                let fresh = batch::parse_lines(input);
                let reused = buffers.parse_lines(input);
                assert_eq!(reused.len(), fresh.len(), "input {k}");
                assert_eq!(reused.error_count(), fresh.error_count(), "input {k}");
                assert!(
                    rows(&reused) == rows(&fresh),
                    "{threads} thread(s), input {k}"
                );
                buffers = reused.into_buffers();
                assert!(buffers.heap_bytes() > 0);
            }
        });
    }
    let base = Url::parse("http://h/dir/").unwrap();
    let reused = batch::ColumnBuffers::new().parse_lines_with_base(b"a\n../up\n", Some(&base));
    assert_eq!(
        hrefs(&reused),
        [
            Ok("http://h/dir/a".to_owned()),
            Ok("http://h/up".to_owned())
        ]
    );
}

fn common_corpus(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpora")
        .join(name)
}

// ---------------------------------------------------------------------------------------------
// Memory

/// A canonical corpus: the column's buffers stay within twice the input's bytes.
#[test]
fn buffers_stay_within_twice_the_input() {
    let lines: Vec<String> = (0..200_000)
        .map(|i| match i % 4 {
            0 => format!("https://www.example.com/articles/{i}/index.html"),
            1 => format!("http://cdn{}.example.net/img/{i}.png?w=640", i % 13),
            2 => format!("https://shop.example/p/{i}#reviews"),
            _ => format!("https://api.example.org/v1/items?id={i}"),
        })
        .collect();
    let inputs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let bytes: usize = inputs.iter().map(|s| s.len()).sum();
    for threads in [1, 2] {
        let column = pool(threads).install(|| batch::parse_column(&inputs, None));
        assert_eq!(column.error_count(), 0);
        eprintln!(
            "{threads} thread(s): {} bytes of buffers for {bytes} bytes of input ({} chunks)",
            column.heap_bytes(),
            column.chunk_count()
        );
        assert!(
            column.heap_bytes() <= 2 * bytes + 4096,
            "{threads} thread(s): {} bytes of buffers for {bytes} bytes of input",
            column.heap_bytes()
        );
        let text = lines.join("\n");
        let from_lines = pool(threads).install(|| batch::parse_lines(text.as_bytes()));
        assert!(
            from_lines.heap_bytes() <= 2 * text.len() + 4096,
            "{threads} thread(s): {} bytes of buffers for {} bytes of lines",
            from_lines.heap_bytes(),
            text.len()
        );
    }
}

// ---------------------------------------------------------------------------------------------
// WPT through the batch engine

/// Every case of urltestdata.json through `parse_pairs` (input, base): the same getters
/// as the WPT expectations, and failure where WPT expects failure.
#[test]
fn wpt_urltestdata_through_parse_pairs() {
    let path = common::wpt_file("urltestdata.json");
    let text = std::fs::read_to_string(&path).expect("read urltestdata.json");
    let data: Value = serde_json::from_str(&text).expect("urltestdata.json is JSON");
    let cases: Vec<&serde_json::Map<String, Value>> = data
        .as_array()
        .expect("an array")
        .iter()
        .filter_map(Value::as_object)
        .collect();
    assert!(cases.len() > 800, "only {} cases", cases.len());
    let pairs: Vec<(&str, Option<&str>)> = cases
        .iter()
        .map(|c| {
            (
                c["input"].as_str().expect("input is a string"),
                c.get("base").and_then(Value::as_str),
            )
        })
        .collect();
    let column = pool(2).install(|| batch::parse_pairs(&pairs));
    assert_eq!(column.len(), cases.len());
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let failure = case.get("failure").and_then(Value::as_bool) == Some(true);
        match (failure, column.row(i).expect("row exists")) {
            (true, Ok(url)) => {
                failures.push(format!("{:?}: expected failure, got {url}", pairs[i]))
            }
            (true, Err(_)) => {}
            (false, Err(e)) => failures.push(format!("{:?}: unexpected {e}", pairs[i])),
            (false, Ok(url)) => {
                let got = [
                    ("href", Cow::Borrowed(url.href())),
                    ("origin", Cow::Owned(url.origin())),
                    ("protocol", Cow::Borrowed(url.protocol())),
                    ("username", Cow::Borrowed(url.username())),
                    ("password", Cow::Borrowed(url.password())),
                    ("host", Cow::Borrowed(url.host())),
                    ("hostname", Cow::Borrowed(url.hostname())),
                    ("port", Cow::Borrowed(url.port())),
                    ("pathname", Cow::Borrowed(url.pathname())),
                    ("search", Cow::Borrowed(url.search())),
                    ("hash", Cow::Borrowed(url.hash())),
                ];
                for (field, value) in got {
                    if let Some(expected) = case.get(field).and_then(Value::as_str)
                        && expected != value
                    {
                        failures.push(format!(
                            "{:?}: {field} expected {expected:?}, got {value:?}",
                            pairs[i]
                        ));
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
