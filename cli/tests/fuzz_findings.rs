//! Regression tests for what the `readers` fuzz target (fuzz/) found in the tool's
//! readers: each input is the fuzzer's, reduced, run through the built binary.

mod support;

use support::*;

/// A CSV header of bytes that are not UTF-8, shorter than its lossy decoding (each byte
/// becomes a three-byte U+FFFD): the header's end in the decoded text lies past the raw
/// bytes. Reported with its place (exit status 2: the header is read when the input is
/// opened), no panic.
#[test]
fn csv_header_shorter_than_its_lossy_decoding() {
    for (ext, contents) in [
        ("csv", &b"\xff\xff\xff\xff\n"[..]),
        ("tsv", &b"\xff\xff\xff\xff"[..]),
        ("csv", &b"a,\xf4\n"[..]),
    ] {
        let file = TempFile::with_extension(contents, ext);
        let out = run(&["parse", file.path()], b"");
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{contents:?}: {err}");
        assert_eq!(code(&out), 2, "{contents:?}: {err}");
        assert!(
            err.contains(&format!("{}:1: the header is not valid UTF-8", file.path())),
            "{contents:?}: {err}"
        );
    }
}

/// A last CSV record `""` (one quoted empty field) without a line feed is a row (its URL
/// is empty, so it is reported), as it is with one; it used to be taken for a blank line
/// and dropped without a word.
#[test]
fn csv_last_record_of_a_quoted_empty_field_is_a_row() {
    for contents in [&b"url\nhttp://a/\n\"\""[..], &b"url\nhttp://a/\n\"\"\n"[..]] {
        let file = TempFile::with_extension(contents, "csv");
        let out = run(&["parse", "--fields", "href", file.path()], b"");
        let err = stderr(&out);
        assert_eq!(code(&out), 0, "{err}");
        assert_eq!(stdout(&out).lines().count(), 3, "{:?}", stdout(&out));
        assert!(
            err.contains(&format!(
                "{}:3:1: missing-scheme-non-relative-URL",
                file.path()
            )),
            "{err}"
        );
    }
    // Blank lines stay no records.
    let file = TempFile::with_extension(b"url\n\nhttp://a/\r\n\r\n", "csv");
    let out = run(&["parse", "--fields", "href", file.path()], b"");
    assert_eq!(stdout(&out).lines().count(), 2, "{:?}", stdout(&out));
}

/// A damaged Parquet file: the `parquet` and `arrow` crates panic on some damage (a bit
/// width assertion, a division by zero, a negative column offset) instead of returning an
/// error. The tool reports the file and the row group (exit status 3) and never panics.
/// Every byte of a small file the tool wrote is overwritten in turn with `0xff` (and the
/// first 64 with `0x00`), which reaches all four panics the `readers` target found.
#[test]
fn damaged_parquet_is_reported_not_a_panic() {
    let urls: String = (0..40)
        .map(|i| format!("https://example.com/p{i}?q={i}\n"))
        .collect();
    let lines = TempFile::new(urls.as_bytes());
    let good = TempFile::with_extension(b"", "parquet");
    let out = run(
        &[
            "parse",
            "--fields",
            "href,hostname",
            "-o",
            good.path(),
            lines.path(),
        ],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let good_bytes = std::fs::read(&good.0).expect("the tool wrote its Parquet file");
    let bad = TempFile::with_extension(b"", "parquet");
    let (mut reported, mut read) = (0, 0);
    let damage = (0..good_bytes.len())
        .map(|i| (i, 0xff))
        .chain((0..64).map(|i| (i, 0x00)));
    for (at, byte) in damage {
        if good_bytes[at] == byte {
            continue;
        }
        let mut bytes = good_bytes.clone();
        bytes[at] = byte;
        std::fs::write(&bad.0, &bytes).expect("write the damaged file");
        let out = run(
            &["parse", "--column", "href", "--drop-columns", bad.path()],
            b"",
        );
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "byte {at} = {byte:#x}: {err}");
        match code(&out) {
            0 => {
                // Damage that still decodes: every row is there (a header and 40 rows),
                // whatever the URLs became.
                assert_eq!(
                    stdout(&out).lines().count(),
                    41,
                    "byte {at} = {byte:#x}: rows lost: {err}"
                );
                read += 1;
            }
            2 | 3 => {
                assert!(
                    err.starts_with(&format!("rapidurl: {}", bad.path())),
                    "byte {at} = {byte:#x}: the report names no file: {err}"
                );
                reported += 1;
            }
            other => panic!("byte {at} = {byte:#x}: exit status {other}: {err}"),
        }
    }
    // Both outcomes occur: damage to the data pages that still decodes, and damage the
    // reader refuses.
    assert!(
        reported > 100 && read > 100,
        "reported {reported}, read {read}"
    );
}
