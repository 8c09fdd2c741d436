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
