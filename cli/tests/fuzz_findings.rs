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
