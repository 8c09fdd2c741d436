//! End-to-end tests of the `rapidurl` command-line tool: they run the built binary.
//!
//! Every expected value is written by hand from the URL Standard's behaviour (what a
//! browser's `new URL()` gives), not obtained by running this crate.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};

mod support;

use support::*;

/// The header of the default columns in `--on-error mark` mode (the default).
const DEFAULT_HEADER: &str =
    "href\tprotocol\tusername\tpassword\thostname\tport\tpathname\tsearch\thash\terror";

// ---------------------------------------------------------------------------------------------
// Formats

#[test]
fn tsv_default_columns_and_normalization() {
    let (out, _f) = parse_file(
        &[],
        b"HTTP://EXAMPLE.com:80/a/../b\nhttps://user:pw@Example.org:8443/p?q=1#f\n",
    );
    let lines = ok_lines(&out);
    assert_eq!(
        lines,
        [
            DEFAULT_HEADER,
            "http://example.com/b\thttp:\t\t\texample.com\t\t/b\t\t\t",
            "https://user:pw@example.org:8443/p?q=1#f\thttps:\tuser\tpw\texample.org\t8443\t/p\t?q=1\t#f\t",
        ]
    );
    assert_eq!(stderr(&out), "");
}

#[test]
fn tsv_escapes_backslash_and_input_tabs_are_removed() {
    // A non-special URL keeps a backslash in its path; TSV writes it as `\\`.
    // Tab and newline inside the input are removed by the URL parser.
    let (out, _f) = parse_file(
        &["--fields", "href,pathname", "--no-header"],
        b"foo://h/a\\b\nhttp://exa\tmple.com/\n",
    );
    assert_eq!(
        ok_lines(&out),
        ["foo://h/a\\\\b\t/a\\\\b\t", "http://example.com/\t/\t"]
    );
}

#[test]
fn csv_quotes_fields_with_commas_and_ends_rows_with_crlf() {
    let (out, _f) = parse_file(&["--format", "csv"], b"http://h/a,b?x=1,2\n");
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "href,protocol,username,password,hostname,port,pathname,search,hash,error\r\n\
         \"http://h/a,b?x=1,2\",http:,,,h,,\"/a,b\",\"?x=1,2\",,\r\n"
    );
}

#[test]
fn csv_no_header() {
    let (out, _f) = parse_file(
        &[
            "--format",
            "csv",
            "--no-header",
            "--fields",
            "hostname,port",
        ],
        b"https://example.com:443/\nhttps://example.com:444/\n",
    );
    // The last, empty column is `error` (--on-error mark is the default).
    assert_eq!(stdout(&out), "example.com,,\r\nexample.com,444,\r\n");
}

#[test]
fn header_flag_last_one_wins() {
    let (out, _f) = parse_file(
        &[
            "--no-header",
            "--header",
            "--fields",
            "href",
            "--on-error",
            "skip",
        ],
        b"http://a/\n",
    );
    assert_eq!(ok_lines(&out), ["href", "http://a/"]);
}

#[test]
fn jsonl_uses_url_api_names_and_escapes() {
    let (out, _f) = parse_file(
        &["--format", "jsonl", "--fields", "href,origin,host,pathname"],
        "http://Bücher.example:8080/ä\nfoo://h/a\\b\n".as_bytes(),
    );
    assert_eq!(
        ok_lines(&out),
        [
            r#"{"href":"http://xn--bcher-kva.example:8080/%C3%A4","origin":"http://xn--bcher-kva.example:8080","host":"xn--bcher-kva.example:8080","pathname":"/%C3%A4"}"#,
            r#"{"href":"foo://h/a\\b","origin":"null","host":"h","pathname":"/a\\b"}"#,
        ]
    );
}

#[test]
fn jsonl_default_fields() {
    let (out, _f) = parse_file(&["--format", "jsonl"], b"https://a.example/p?q#h\n");
    assert_eq!(
        ok_lines(&out),
        [
            r##"{"href":"https://a.example/p?q#h","protocol":"https:","username":"","password":"","hostname":"a.example","port":"","pathname":"/p","search":"?q","hash":"#h"}"##
        ]
    );
}

#[test]
fn jsonl_has_no_header_even_when_asked() {
    let (out, _f) = parse_file(
        &["--format", "jsonl", "--header", "--fields", "href"],
        b"http://a/\n",
    );
    assert_eq!(ok_lines(&out), [r#"{"href":"http://a/"}"#]);
}

// ---------------------------------------------------------------------------------------------
// --fields

#[test]
fn fields_in_the_order_given() {
    let (out, _f) = parse_file(
        &[
            "--fields",
            "hostname,port,href,origin,search,hash,username,password,protocol,host",
        ],
        b"http://[::1]:8080/x\n",
    );
    assert_eq!(
        ok_lines(&out),
        [
            "hostname\tport\thref\torigin\tsearch\thash\tusername\tpassword\tprotocol\thost\terror",
            "[::1]\t8080\thttp://[::1]:8080/x\thttp://[::1]:8080\t\t\t\t\thttp:\t[::1]:8080\t",
        ]
    );
}

#[test]
fn fields_ipv4_forms() {
    let (out, _f) = parse_file(
        &["--fields", "hostname", "--no-header", "--on-error", "fail"],
        b"http://0x7f.1/\nhttp://3232235777/\nhttp://0300.0250.1.1/\nhttp://[::ffff:192.0.2.128]/\n",
    );
    assert_eq!(
        ok_lines(&out),
        [
            "127.0.0.1",
            "192.168.1.1",
            "192.168.1.1",
            "[::ffff:c000:280]"
        ]
    );
}

/// `--fields hostname` alone reads a host off the line when it can: the rows must be
/// those of the parsed URL, whichever way each line goes (read off the line, lower-cased,
/// quoted for CSV, an error, against a base, CRLF, not UTF-8).
#[test]
fn hostname_alone_is_the_parsed_hostname() {
    let input: &[u8] = b"https://a.example/x\nHTTPS://Mixed.Example/\nhttp://a,b.example/\n\
        ../rel\nhttp://[::1]:8080/\nhttp://4294967295/\nftp://f.example\r\n\
        mailto:x@y\nhttps://\xff.example/\nhttp://x\xffy/\n";
    let tsv = "https://a.example/x\ta.example\t\n\
        https://mixed.example/\tmixed.example\t\n\
        http://a,b.example/\ta,b.example\t\n";
    for (args, head) in [
        (&["--format", "tsv"][..], tsv),
        (
            &["--format", "tsv", "--base", "https://Base.example/d/"][..],
            tsv,
        ),
    ] {
        let (out, _f) = parse_file(&[&["--fields", "href,hostname"], args].concat(), input);
        let both = ok_lines(&out);
        assert!(stdout(&out).contains(head), "{}", stdout(&out));
        let (out, _f) = parse_file(&[&["--fields", "hostname"], args].concat(), input);
        let alone = ok_lines(&out);
        assert_eq!(both.len(), 11, "{both:?}");
        assert_eq!(alone[0], "hostname\terror");
        for (a, b) in alone.iter().zip(&both).skip(1) {
            // `href<TAB>hostname<TAB>error` against `hostname<TAB>error`.
            let (_, rest) = b.split_once('\t').unwrap();
            assert_eq!(a, rest, "{args:?}");
        }
    }
    let (out, _f) = parse_file(
        &["--fields", "hostname", "--format", "csv", "--no-header"],
        input,
    );
    let lines = ok_lines(&out);
    assert_eq!(
        lines[..6],
        [
            "a.example,",
            "mixed.example,",
            "\"a,b.example\",",
            ",missing-scheme-non-relative-URL at byte 0: the input has no scheme and there is \
             no usable base URL",
            "[::1],",
            "255.255.255.255,",
        ]
    );
    assert_eq!(lines[6], "f.example,");
}

#[test]
fn unknown_field_is_a_usage_error() {
    let out = run(&["parse", "--fields", "href,nope"], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("nope"), "stderr: {}", stderr(&out));
}

// ---------------------------------------------------------------------------------------------
// --base

#[test]
fn base_resolves_every_line() {
    let (out, _f) = parse_file(
        &[
            "--base",
            "https://example.com/docs/guide/index.html",
            "--fields",
            "href",
            "--no-header",
            "--on-error",
            "fail",
        ],
        b"../img/a.png\n?q=1\n#top\n//cdn.example/x.js\n/abs\nb/c\n\nhttp://other.example/\n",
    );
    assert_eq!(
        ok_lines(&out),
        [
            "https://example.com/docs/img/a.png",
            "https://example.com/docs/guide/index.html?q=1",
            "https://example.com/docs/guide/index.html#top",
            "https://cdn.example/x.js",
            "https://example.com/abs",
            "https://example.com/docs/guide/b/c",
            // An empty line is the input "": the base itself.
            "https://example.com/docs/guide/index.html",
            "http://other.example/",
        ]
    );
}

#[test]
fn invalid_base_is_a_usage_error() {
    let out = run(&["parse", "--base", "not a url"], b"x\n");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--base"), "stderr: {}", stderr(&out));
    assert!(out.stdout.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Input handling

#[test]
fn stdin_when_no_file_is_given() {
    let out = run(
        &["parse", "--fields", "href,host"],
        b"HTTPS://Example.COM\nhttp://example.com:8080\n",
    );
    assert_eq!(
        ok_lines(&out),
        [
            "href\thost\terror",
            "https://example.com/\texample.com\t",
            "http://example.com:8080/\texample.com:8080\t",
        ]
    );
}

#[test]
fn dash_is_stdin_between_files() {
    let a = TempFile::new(b"http://a/\n");
    let b = TempFile::new(b"http://c/\n");
    let out = run(
        &[
            "parse",
            "--fields",
            "href",
            "--no-header",
            "--on-error",
            "skip",
            a.path(),
            "-",
            b.path(),
        ],
        b"http://b/\n",
    );
    assert_eq!(ok_lines(&out), ["http://a/", "http://b/", "http://c/"]);
}

#[test]
fn stdin_errors_are_named_stdin() {
    let out = run(&["parse", "--on-error", "skip"], b"http://ok/\nhttp://\n");
    assert_eq!(code(&out), 0);
    assert!(
        stderr(&out).starts_with("<stdin>:2:"),
        "stderr: {}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("host-missing"));
}

#[test]
fn empty_file() {
    let (out, _f) = parse_file(&[], b"");
    assert_eq!(ok_lines(&out), [DEFAULT_HEADER]);
    let (out, _f) = parse_file(&["--format", "jsonl"], b"");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "");
    let (out, _f) = parse_file(&["--no-header"], b"");
    assert_eq!(stdout(&out), "");
}

#[test]
fn last_line_without_newline() {
    let (out, _f) = parse_file(
        &["--fields", "href", "--no-header", "--on-error", "fail"],
        b"http://a/\nhttp://b/x",
    );
    assert_eq!(ok_lines(&out), ["http://a/", "http://b/x"]);
}

#[test]
fn crlf_line_endings() {
    let (out, _f) = parse_file(
        &["--fields", "href,pathname", "--no-header"],
        b"http://a/x\r\nhttp://b/\r\nhttps://h:99999\r\nfoo://h/y\r",
    );
    assert_eq!(code(&out), 0);
    assert_eq!(
        stdout(&out),
        "http://a/x\t/x\t\n\
         http://b/\t/\t\n\
         \t\tport-out-of-range at byte 10: the port is greater than 65535\n\
         foo://h/y\t/y\t\n"
    );
    // The port begins at byte 10 of the line: column 11.
    assert!(
        stderr(&out).contains(":3:11: port-out-of-range"),
        "stderr: {}",
        stderr(&out)
    );
}

#[test]
fn invalid_utf8_becomes_percent_encoded_replacement_character() {
    let (out, _f) = parse_file(
        &["--fields", "href,pathname,search", "--no-header"],
        b"http://example.com/\xFF\nhttp://example.com/a?\xC3\n",
    );
    assert_eq!(
        ok_lines(&out),
        [
            "http://example.com/%EF%BF%BD\t/%EF%BF%BD\t\t",
            "http://example.com/a?%EF%BF%BD\t/a\t?%EF%BF%BD\t",
        ]
    );
}

#[test]
fn error_columns_count_bytes_on_lines_with_invalid_utf8() {
    // Two invalid bytes (U+FFFD, three bytes each, once decoded) before the port: the port
    // starts at byte 12 of the line as read, column 13 (before: column 17).
    let (out, _f) = parse_file(&["--no-header"], b"http://\xFF\xFE@h:99999/\n");
    assert!(
        stderr(&out).contains(":1:13: port-out-of-range at byte 12"),
        "stderr: {}",
        stderr(&out)
    );
}

#[test]
fn invalid_utf8_with_base() {
    let (out, _f) = parse_file(
        &[
            "--base",
            "http://h/dir/",
            "--fields",
            "href",
            "--no-header",
            "--on-error",
            "fail",
        ],
        b"a\xFFb\n",
    );
    assert_eq!(ok_lines(&out), ["http://h/dir/a%EF%BF%BDb"]);
}

#[test]
fn empty_line_without_base_is_an_error() {
    let (out, _f) = parse_file(
        &["--fields", "href", "--no-header"],
        b"http://a/\n\nhttp://b/\n",
    );
    assert_eq!(code(&out), 0);
    let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0], "http://a/\t");
    assert!(lines[1].starts_with("\tmissing-scheme-non-relative-URL"));
    assert_eq!(lines[2], "http://b/\t");
    assert!(
        stderr(&out).contains(":2:1: missing-scheme-non-relative-URL"),
        "stderr: {}",
        stderr(&out)
    );
}

#[test]
fn missing_file_is_an_io_error() {
    let out = run(&["parse", "/nonexistent/rapidurl/input.txt"], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("/nonexistent/rapidurl/input.txt"));
}

// ---------------------------------------------------------------------------------------------
// --on-error

const WITH_BAD_LINE: &[u8] = b"http://ok/\nhttps://host:99999\nhttp://ok2/\n";

#[test]
fn on_error_mark_is_the_default() {
    let (out, f) = parse_file(&["--fields", "href,hostname"], WITH_BAD_LINE);
    assert_eq!(
        ok_lines(&out),
        [
            "href\thostname\terror",
            "http://ok/\tok\t",
            "\t\tport-out-of-range at byte 13: the port is greater than 65535",
            "http://ok2/\tok2\t",
        ]
    );
    // "https://host:" is 13 bytes: the port starts at column 14.
    assert_eq!(
        stderr(&out),
        format!(
            "{}:2:14: port-out-of-range at byte 13: the port is greater than 65535\n",
            f.path()
        )
    );
}

#[test]
fn on_error_mark_jsonl_has_an_error_key() {
    let (out, _f) = parse_file(
        &[
            "--format",
            "jsonl",
            "--fields",
            "href",
            "--on-error",
            "mark",
        ],
        WITH_BAD_LINE,
    );
    assert_eq!(
        ok_lines(&out),
        [
            r#"{"href":"http://ok/"}"#,
            r#"{"error":"port-out-of-range at byte 13: the port is greater than 65535"}"#,
            r#"{"href":"http://ok2/"}"#,
        ]
    );
    assert!(stderr(&out).contains(":2:14: port-out-of-range"));
}

#[test]
fn on_error_mark_csv() {
    let (out, _f) = parse_file(&["--format", "csv", "--fields", "href"], WITH_BAD_LINE);
    assert_eq!(
        stdout(&out),
        "href,error\r\nhttp://ok/,\r\n,port-out-of-range at byte 13: the port is greater than 65535\r\nhttp://ok2/,\r\n"
    );
}

#[test]
fn on_error_skip() {
    let (out, _f) = parse_file(&["--fields", "href", "--on-error", "skip"], WITH_BAD_LINE);
    // No `error` column, no row for the bad line, exit status 0.
    assert_eq!(ok_lines(&out), ["href", "http://ok/", "http://ok2/"]);
    let err = stderr(&out);
    assert!(err.contains(":2:14: port-out-of-range"), "stderr: {err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn on_error_fail() {
    let (out, _f) = parse_file(&["--fields", "href", "--on-error", "fail"], WITH_BAD_LINE);
    assert_eq!(code(&out), 1);
    // The rows before the bad line are written; nothing after it.
    assert_eq!(stdout(&out), "href\nhttp://ok/\n");
    let err = stderr(&out);
    assert!(err.contains(":2:14: port-out-of-range"), "stderr: {err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn on_error_fail_jsonl() {
    let (out, _f) = parse_file(
        &[
            "--format",
            "jsonl",
            "--fields",
            "href",
            "--on-error",
            "fail",
        ],
        b"http://[::1\n",
    );
    assert_eq!(code(&out), 1);
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).contains(":1:"));
    assert!(stderr(&out).contains("IPv6-unclosed"));
}

#[test]
fn errors_name_the_file_and_restart_line_numbers() {
    let a = TempFile::new(b"http://a/\nexample.com/path\n");
    let b = TempFile::new(b"http://exa mple.com\n");
    let out = run(&["parse", "--on-error", "skip", a.path(), b.path()], b"");
    assert_eq!(code(&out), 0);
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "stderr: {err}");
    assert!(
        lines[0].starts_with(&format!(
            "{}:2:1: missing-scheme-non-relative-URL",
            a.path()
        )),
        "stderr: {err}"
    );
    assert!(
        lines[1].starts_with(&format!("{}:1:", b.path())),
        "stderr: {err}"
    );
    // A space is a forbidden domain code point.
    assert!(
        lines[1].contains("domain-invalid-code-point"),
        "stderr: {err}"
    );
}

// ---------------------------------------------------------------------------------------------
// check

#[test]
fn check_all_valid() {
    let file = TempFile::new(b"http://a/\nmailto:x@y\nfile:///C:/x\n");
    let out = run(&["check", file.path()], b"");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "lines: 3\nvalid: 3\ninvalid: 0\n");
}

#[test]
fn check_reports_invalid_lines() {
    let file = TempFile::new(b"http://a/\nhttps://host:99999\nhttp://b/\nhttp://\nhttps://x/\n");
    let out = run(&["check", file.path()], b"");
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with("lines: 5\nvalid: 3\ninvalid: 2\n"),
        "stdout: {text}"
    );
    assert!(
        text.contains(&format!(
            "{}:2:14: port-out-of-range at byte 13: the port is greater than 65535 \u{2014} https://host:99999",
            file.path()
        )),
        "stdout: {text}"
    );
    assert!(
        text.contains(&format!("{}:4:", file.path())) && text.contains("host-missing"),
        "stdout: {text}"
    );
}

#[test]
fn check_lists_at_most_ten() {
    let file = TempFile::new("x\n".repeat(25).as_bytes());
    let out = run(&["check", file.path()], b"");
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with("lines: 25\nvalid: 0\ninvalid: 25\n"),
        "stdout: {text}"
    );
    assert_eq!(text.matches("missing-scheme-non-relative-URL").count(), 10);
}

#[test]
fn check_empty_input_and_base() {
    let out = run(&["check"], b"");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "lines: 0\nvalid: 0\ninvalid: 0\n");
    let out = run(&["check", "--base", "https://example.com/"], b"a/b\n../c\n");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "lines: 2\nvalid: 2\ninvalid: 0\n");
}

// ---------------------------------------------------------------------------------------------
// Help and pipes

#[test]
fn every_subcommand_has_help_with_an_example() {
    for sub in ["parse", "check", "stats", "lint", "dedup", "bench"] {
        let out = run(&[sub, "--help"], b"");
        assert_eq!(code(&out), 0);
        let text = stdout(&out);
        assert!(text.contains("Examples:"), "{sub} --help: {text}");
        assert!(
            text.contains(&format!("rapidurl {sub} ")),
            "{sub} --help: {text}"
        );
    }
    let out = run(&["--help"], b"");
    assert_eq!(code(&out), 0);
    assert!(stdout(&out).contains("parse") && stdout(&out).contains("check"));
    assert!(stdout(&out).contains("bench"));
    // The top-level examples show every command.
    for sub in ["parse", "check", "stats", "lint", "dedup", "bench"] {
        assert!(
            stdout(&out).contains(&format!("  rapidurl {sub} ")),
            "--help has no example of {sub}"
        );
    }
}

#[test]
fn broken_pipe_exits_quietly() {
    let file = TempFile::new(
        "http://example.com/some/path?q=1\n"
            .repeat(200_000)
            .as_bytes(),
    );
    let mut child = Command::new(BIN)
        .args(["parse", file.path()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).expect("read some output");
    drop(stdout);
    let output = child.wait_with_output().expect("wait");
    assert_eq!(output.status.code(), Some(0), "stderr: {}", stderr(&output));
    assert_eq!(stderr(&output), "");
    assert!(Path::new(file.path()).exists());
}

// ---------------------------------------------------------------------------------------------
// --base-column

#[test]
fn base_column_resolves_each_line_against_its_own_base() {
    let (out, _f) = parse_file(
        &[
            "--base-column",
            "2",
            "--fields",
            "href",
            "--no-header",
            "--on-error",
            "fail",
        ],
        b"../img/a.png\thttps://example.com/docs/guide/\n\
          ?q=1\thttp://h/p\textra column\n\
          http://abs.example/\thttps://ignored.example/\n\
          mailto:x\n",
    );
    assert_eq!(
        ok_lines(&out),
        [
            "https://example.com/docs/img/a.png",
            "http://h/p?q=1",
            "http://abs.example/",
            "mailto:x",
        ]
    );
}

#[test]
fn base_column_first_puts_the_url_second() {
    let (out, _f) = parse_file(
        &[
            "--base-column",
            "1",
            "--fields",
            "href,pathname",
            "--no-header",
        ],
        b"http://h/a/b\tc\nfoo://x/\t..\n",
    );
    assert_eq!(ok_lines(&out), ["http://h/a/c\t/a/c\t", "foo://x/\t/\t"]);
}

#[test]
fn base_column_third_and_empty_base_falls_back_to_base() {
    let (out, _f) = parse_file(
        &[
            "--base-column",
            "3",
            "--base",
            "http://fallback/dir/",
            "--fields",
            "href",
            "--no-header",
        ],
        b"x\tcomment\thttp://own/\nx\tcomment\t\nx\n",
    );
    assert_eq!(
        ok_lines(&out),
        [
            "http://own/x\t",
            "http://fallback/dir/x\t",
            "http://fallback/dir/x\t"
        ]
    );
}

#[test]
fn base_column_with_an_invalid_base_fails_that_line() {
    let (out, f) = parse_file(
        &["--base-column", "2", "--fields", "href", "--no-header"],
        b"a\thttp://h/\nb\tnot a base\nc\t\n",
    );
    assert_eq!(code(&out), 0);
    let lines: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(lines[0], "http://h/a\t");
    assert!(lines[1].starts_with("\tbase-URL-invalid"), "{}", lines[1]);
    assert!(
        lines[2].starts_with("\tmissing-scheme-non-relative-URL"),
        "{}",
        lines[2]
    );
    let err = stderr(&out);
    assert!(
        err.contains(&format!("{}:2:1: base-URL-invalid", f.path())),
        "stderr: {err}"
    );
    assert!(
        err.contains(&format!("{}:3:1: missing-scheme", f.path())),
        "stderr: {err}"
    );
}

#[test]
fn base_column_zero_is_a_usage_error() {
    let out = run(&["parse", "--base-column", "0"], b"x\n");
    assert_eq!(code(&out), 2);
}

#[test]
fn check_with_base_column() {
    let out = run(&["check", "--base-column", "2"], b"a\thttp://h/\nb\t\n");
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with("lines: 2\nvalid: 1\ninvalid: 1\n"),
        "stdout: {text}"
    );
    assert!(
        text.contains("<stdin>:2:1: missing-scheme-non-relative-URL"),
        "stdout: {text}"
    );
    assert!(text.contains("\u{2014} b\t"), "stdout: {text}");
}

// ---------------------------------------------------------------------------------------------
// --threads and blocks

/// A mixed input: canonical and non-canonical URLs, errors, CRLF, invalid UTF-8, empty lines.
fn mixed_input(n: usize) -> Vec<u8> {
    let mut input = Vec::new();
    for i in 0..n {
        let line: Vec<u8> = match i % 10 {
            0 => format!("HTTP://Host{i}.Example:80/a/../p{i}?Q#F\n").into_bytes(),
            1 => format!("https://h{i}.example/p?q={i}\r\n").into_bytes(),
            2 => format!("https://h:{}/\n", 65_536 + i).into_bytes(),
            3 => b"http://example.com/\xFF\xFE\n".to_vec(),
            4 => b"\n".to_vec(),
            5 => format!("mailto:user{i}@example.com\n").into_bytes(),
            6 => format!("file:///tmp/{i}.txt\n").into_bytes(),
            7 => format!("http://[::{:x}]/x\n", i % 65_536).into_bytes(),
            8 => format!("foo://h/{i}/%7e\n").into_bytes(),
            _ => format!("http://192.168.{}.{}/\n", i % 256, i / 256 % 256).into_bytes(),
        };
        input.extend_from_slice(&line);
    }
    input
}

#[test]
fn one_and_two_threads_give_identical_output_in_every_format() {
    let input = mixed_input(20_000);
    let file = TempFile::new(&input);
    for format in ["tsv", "csv", "jsonl"] {
        let mut outputs = Vec::new();
        for threads in ["1", "2"] {
            for block in ["4194304", "1000"] {
                let out = run(
                    &[
                        "parse",
                        "--format",
                        format,
                        "--fields",
                        "href,origin,protocol,username,password,host,hostname,port,pathname,search,hash",
                        "--threads",
                        threads,
                        "--block-bytes",
                        block,
                        file.path(),
                    ],
                    b"",
                );
                assert_eq!(code(&out), 0, "stderr: {}", stderr(&out));
                outputs.push((threads, block, out.stdout, out.stderr));
            }
        }
        let (_, _, first_out, first_err) = &outputs[0];
        for (threads, block, out, err) in &outputs[1..] {
            assert!(
                out == first_out,
                "{format}: --threads {threads} --block-bytes {block} differs"
            );
            assert!(
                err == first_err,
                "{format}: stderr with --threads {threads} --block-bytes {block} differs"
            );
        }
        // One row per line (plus the header), the 2,000 bad lines reported in order.
        let rows = first_out
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .count();
        assert_eq!(rows, 20_000 + usize::from(format != "jsonl"), "{format}");
        let err = String::from_utf8_lossy(first_err);
        assert_eq!(err.lines().count(), 4_000, "{format}");
        assert!(
            err.lines()
                .next()
                .unwrap()
                .contains(":3:11: port-out-of-range")
        );
    }
}

/// Every block size from 1 byte up: a byte-order mark, CRLF and LF line ends (so a block
/// may end between `\r` and `\n`), a last line without a line feed, and values that
/// need escaping (a comma in an opaque host, a backslash in a non-special path) next to
/// values that do not. Rows are the same whatever the cut, and as written by hand.
#[test]
fn line_splitting_at_every_block_edge() {
    let input = b"\xEF\xBB\xBFhttp://a.example/x\r\nfoo://c,d/p\\q\r\nhttp://e/\nhttp://f.example";
    let file = TempFile::new(input);
    let expected = [
        (
            "tsv",
            "hostname\tpathname\terror\n\
             a.example\t/x\t\n\
             c,d\t/p\\\\q\t\n\
             e\t/\t\n\
             f.example\t/\t\n",
        ),
        (
            "csv",
            "hostname,pathname,error\r\n\
             a.example,/x,\r\n\
             \"c,d\",/p\\q,\r\n\
             e,/,\r\n\
             f.example,/,\r\n",
        ),
    ];
    for (format, want) in expected {
        for block in 1..=input.len() + 1 {
            let block = block.to_string();
            let out = run(
                &[
                    "parse",
                    "--fields",
                    "hostname,pathname",
                    "--format",
                    format,
                    "--threads",
                    "2",
                    "--block-bytes",
                    &block,
                    file.path(),
                ],
                b"",
            );
            assert_eq!(code(&out), 0, "stderr: {}", stderr(&out));
            assert_eq!(stdout(&out), want, "{format}, --block-bytes {block}");
        }
    }
    // `check` counts the same four lines, all valid, at any cut.
    for block in ["1", "2", "17", "1000"] {
        let out = run(&["check", "--block-bytes", block, file.path()], b"");
        assert_eq!(code(&out), 0, "stderr: {}", stderr(&out));
        assert!(
            stdout(&out).starts_with("lines: 4\nvalid: 4\ninvalid: 0\n"),
            "--block-bytes {block}: {}",
            stdout(&out)
        );
    }
}

/// 200,000 lines over several 4 MiB blocks (and many tiny ones): order and line numbers.
#[test]
fn multi_block_input_keeps_order_and_line_numbers() {
    let n = 200_000;
    let mut input = String::new();
    for i in 1..=n {
        if i % 50_000 == 0 {
            input.push_str(&format!("http://bad{i}:x/\n"));
        } else {
            input.push_str(&format!(
                "https://h{i}.example/some/longer/path/{i}?q={i}\n"
            ));
        }
    }
    assert!(input.len() > 2 * 4 * 1024 * 1024);
    let file = TempFile::new(input.as_bytes());
    for (threads, block) in [("2", "4194304"), ("1", "4194304"), ("2", "100000")] {
        let out = run(
            &[
                "parse",
                "--fields",
                "href",
                "--no-header",
                "--threads",
                threads,
                "--block-bytes",
                block,
                file.path(),
            ],
            b"",
        );
        assert_eq!(code(&out), 0);
        let text = stdout(&out);
        let mut count = 0;
        for (k, line) in text.lines().enumerate() {
            let i = k + 1;
            if i % 50_000 == 0 {
                assert!(line.starts_with("\tport-invalid"), "line {i}: {line}");
            } else {
                assert_eq!(
                    line,
                    format!("https://h{i}.example/some/longer/path/{i}?q={i}\t")
                );
            }
            count += 1;
        }
        assert_eq!(count, n);
        let err = stderr(&out);
        let reported: Vec<&str> = err.lines().collect();
        assert_eq!(reported.len(), 4, "stderr: {err}");
        for (k, line) in reported.iter().enumerate() {
            let expected = format!("{}:{}:", file.path(), (k + 1) * 50_000);
            assert!(line.starts_with(&expected), "{line}");
        }
    }
    let out = run(&["check", "--block-bytes", "100000", file.path()], b"");
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with("lines: 200000\nvalid: 199996\ninvalid: 4\n"),
        "stdout: {text}"
    );
    assert!(
        text.contains(&format!("{}:150000:", file.path())),
        "stdout: {text}"
    );
}

#[test]
fn on_error_fail_stops_in_a_later_block() {
    let mut input = String::new();
    for i in 1..=5_000 {
        input.push_str(&format!("http://h{i}/\n"));
    }
    input.push_str("http://[::1\nhttp://after/\n");
    let file = TempFile::new(input.as_bytes());
    let out = run(
        &[
            "parse",
            "--fields",
            "href",
            "--no-header",
            "--on-error",
            "fail",
            "--block-bytes",
            "4096",
            file.path(),
        ],
        b"",
    );
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 5_000);
    assert_eq!(text.lines().last(), Some("http://h5000/"));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!("{}:5001:", file.path())),
        "stderr: {err}"
    );
    assert!(err.contains("IPv6-unclosed"));
}

#[test]
fn a_line_longer_than_a_block() {
    let long = format!("https://example.com/{}", "a".repeat(10_000));
    let input = format!("http://a/\n{long}\nhttp://b/");
    let out = run(
        &[
            "parse",
            "--fields",
            "href",
            "--no-header",
            "--block-bytes",
            "100",
        ],
        input.as_bytes(),
    );
    assert_eq!(
        ok_lines(&out),
        ["http://a/\t", &format!("{long}\t"), "http://b/\t"]
    );
}

#[test]
fn stdin_with_two_threads_and_small_blocks() {
    let out = run(
        &[
            "parse",
            "--fields",
            "href",
            "--no-header",
            "--on-error",
            "skip",
            "--threads",
            "2",
            "--block-bytes",
            "16",
        ],
        b"HTTPS://Example.COM\r\nbad\r\nhttp://x/\xFF\r\nhttp://y",
    );
    assert_eq!(
        ok_lines(&out),
        ["https://example.com/", "http://x/%EF%BF%BD", "http://y/"]
    );
    assert!(stderr(&out).starts_with("<stdin>:2:1: missing-scheme"));
}

#[test]
fn empty_inputs_everywhere() {
    let (out, _f) = parse_file(&["--base-column", "2", "--format", "jsonl"], b"");
    assert_eq!(code(&out), 0);
    assert_eq!(stdout(&out), "");
    let out = run(&["check", "--threads", "2"], b"");
    assert_eq!(stdout(&out), "lines: 0\nvalid: 0\ninvalid: 0\n");
}

#[test]
fn threads_zero_means_all_cores() {
    let (out, _f) = parse_file(
        &["--threads", "0", "--fields", "host", "--no-header"],
        b"http://a:1/\n",
    );
    assert_eq!(ok_lines(&out), ["a:1\t"]);
}

// ---------------------------------------------------------------------------------------------
// bench

#[test]
fn bench_reports_throughput() {
    let file = TempFile::new("https://example.com/a\nbad\n".repeat(500).as_bytes());
    let out = run(
        &["bench", "--time", "0.05", "--threads", "2", file.path()],
        b"",
    );
    assert_eq!(code(&out), 0, "stderr: {}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(&format!(
            "{}: 13000 bytes, 1000 URLs (500 valid, 500 invalid); ",
            file.path()
        )),
        "{text}"
    );
    assert!(
        text.contains("URLs/s") && text.contains("MB/s") && text.contains("ns/URL"),
        "{text}"
    );
    // One row per measurement, each with its speed against the parse_ref loop.
    let rows: Vec<&str> = text.lines().skip(2).take(6).collect();
    assert!(
        rows[0].starts_with("batch::parse_lines -> UrlColumn, 1 thread "),
        "{text}"
    );
    assert!(
        rows[1].starts_with("parse_lines into reused ColumnBuffers, 1 thread "),
        "{text}"
    );
    assert!(
        rows[2].starts_with("batch::parse_lines -> UrlColumn, 2 threads "),
        "{text}"
    );
    assert!(
        rows[3].starts_with("engine, counting sink, 1 thread "),
        "{text}"
    );
    assert!(rows[4].starts_with("parse_ref loop"), "{text}");
    // The loop against itself: 1.00x, or `-` when its CPU time is too short to tell
    // (a loaded machine can leave it so on this small a file).
    assert!(
        rows[4].ends_with(" 1.00x") || rows[4].ends_with(" -"),
        "{text}"
    );
    assert!(rows[5].starts_with("one memchr pass"), "{text}");
    // Each row ends with its speed against the loop in CPU time, or `-` where the CPU
    // time is too short to tell (the memchr pass, on so small a file).
    assert!(
        rows.iter().all(|r| r.ends_with('x') || r.ends_with(" -")),
        "{text}"
    );
    assert!(
        rows.iter()
            .all(|r| r.split_whitespace().filter(|w| w.ends_with('x')).count() >= 1),
        "{text}"
    );
    assert!(
        text.contains("speed-up of parse_lines on 2 threads: "),
        "{text}"
    );
    assert!(
        text.contains("as a fraction of the memchr pass's speed: 0."),
        "{text}"
    );
    let out = run(&["bench", "/nonexistent/rapidurl/bench.txt"], b"");
    assert_eq!(code(&out), 2);
}

#[test]
fn lint_lists_each_validation_error_with_line_and_character_column() {
    let file =
        TempFile::new("https://user@example.com/ä b\nhttp://ok.example/\nhttp://a b/\n".as_bytes());
    let out = run(&["lint", file.path()], b"");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let p = file.path();
    assert_eq!(
        stdout,
        format!(
            "{p}:1:13: invalid-credentials: the input includes credentials (a username or password)\n\
             {p}:1:27: invalid-URL-unit: a code point that is not a URL unit, or a '%' not followed by two hex digits\n\
             {p}:3:8: domain-to-ASCII: the domain is not valid under UTS #46 ToASCII (strict)\n"
        )
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("         1 invalid-URL-unit\n"), "{stderr}");
    assert!(
        stderr.contains("2 line(s) with validation errors"),
        "{stderr}"
    );

    let out = run(
        &["lint", "--format", "jsonl"],
        b"http://ok.example/\nhttps://example.org:7z\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"file\":\"<stdin>\",\"line\":2,\"column\":22,\"byte\":21,\"name\":\"port-invalid\",\
         \"failure\":true,\"explanation\":\"the port contains a character that is not a digit\"}\n"
    );
    let clean = run(&["lint"], b"https://example.org/a?b#c\n");
    assert_eq!(clean.status.code(), Some(0));
    assert!(clean.stdout.is_empty());
}

/// `check` and `lint` word an error alike: for each line that fails to parse, check's
/// explanation (after `NAME at byte B: `) is lint's (after `NAME: `) for the failing
/// error, written here by hand.
#[test]
fn check_and_lint_explain_a_failure_in_the_same_words() {
    let cases = [
        (
            "http://[::1",
            "IPv6-unclosed",
            "the IPv6 address is missing its closing ']'",
        ),
        (
            "https://example.org:7z",
            "port-invalid",
            "the port contains a character that is not a digit",
        ),
        (
            "http://h:99999/",
            "port-out-of-range",
            "the port is greater than 65535",
        ),
        (
            "nope",
            "missing-scheme-non-relative-URL",
            "the input has no scheme and there is no usable base URL",
        ),
        (
            "http://",
            "host-missing",
            "the URL requires a host but has none",
        ),
        (
            "http://[1::2::3]/",
            "IPv6-multiple-compression",
            "the IPv6 address has more than one '::'",
        ),
        (
            "http://[::1.2.3.]/",
            "IPv4-in-IPv6-invalid-code-point",
            "the IPv4 address embedded in the IPv6 address is malformed",
        ),
        (
            "http://1.2.3.4.5/",
            "IPv4-too-many-parts",
            "the IPv4 address has more than four parts",
        ),
    ];
    let text: String = cases.iter().map(|(url, _, _)| format!("{url}\n")).collect();
    let file = TempFile::new(text.as_bytes());
    let check = stdout(&run(&["check", file.path()], b""));
    let lint = stdout(&run(&["lint", file.path()], b""));
    for (line, (url, name, explanation)) in cases.iter().enumerate() {
        let prefix = format!("{}:{}:", file.path(), line + 1);
        let checked = check
            .lines()
            .find(|l| l.trim_start().starts_with(&prefix))
            .unwrap_or_else(|| panic!("check has no line {}: {check}", line + 1));
        assert!(
            checked.contains(&format!(": {name} at byte "))
                && checked.ends_with(&format!(": {explanation} \u{2014} {url}")),
            "check: {checked}"
        );
        let linted = lint
            .lines()
            .rfind(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("lint has no line {}: {lint}", line + 1));
        assert!(
            linted.ends_with(&format!(": {name}: {explanation}")),
            "lint: {linted}"
        );
    }
}

#[test]
fn parse_writes_display_valid_and_validation_errors() {
    let out = run(
        &[
            "parse",
            "--fields",
            "display,valid,validation_errors",
            "--no-header",
        ],
        b"https://user:pw@xn--bcher-kva.example/%C3%A4?q=%C3%BC#%C3%A9\nhttps://example.org/x\n",
    );
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "https://b\u{fc}cher.example/\u{e4}?q=\u{fc}#\u{e9}\tfalse\tinvalid-credentials\t\n\
         https://example.org/x\ttrue\t\t\n"
    );
}

/// With a base (`--base`, a base column), `validation_errors` is what the parse against
/// that base reported (`b\c` against `https://example.com/a/`: a backslash for a
/// slash), not what the input alone would give (`missing-scheme-non-relative-URL`);
/// `valid` judges the input alone. Lines, CSV and Parquet, which reach the fields by
/// different paths.
#[test]
fn validation_errors_are_those_of_the_parse_against_the_base() {
    let args = ["--fields", "href,valid,validation_errors", "--no-header"];
    let want = "https://example.com/a/b/c\tfalse\tinvalid-reverse-solidus\t\n\
                https://example.com/x\ttrue\t\t\n";
    let mut with_base = vec!["parse", "--base", "https://example.com/a/"];
    with_base.extend(args);
    let out = run(&with_base, b"b\\c\nhttps://example.com/x\n");
    assert_eq!(stdout(&out), want, "{}", stderr(&out));

    let mut with_column = vec!["parse", "--base-column", "2"];
    with_column.extend(args);
    let out = run(
        &with_column,
        b"b\\c\thttps://example.com/a/\nhttps://example.com/x\thttp://other.example/\n",
    );
    assert_eq!(stdout(&out), want, "{}", stderr(&out));

    let csv = TempFile::with_extension(
        b"url,page\nb\\c,https://example.com/a/\nhttps://example.com/x,\n",
        "csv",
    );
    let out = run(
        &[
            "parse",
            csv.path(),
            "--base-column",
            "page",
            "--drop-columns",
            "--fields",
            "href,valid,validation_errors",
            "--no-header",
        ],
        b"",
    );
    assert_eq!(stdout(&out), want, "{}", stderr(&out));

    // As Parquet (the Arrow rows), read back as TSV.
    let parquet = TempFile::with_extension(b"", "parquet");
    let out = run(
        &[
            "parse",
            csv.path(),
            "--base-column",
            "page",
            "--drop-columns",
            "--fields",
            "href,valid,validation_errors",
            "-o",
            parquet.path(),
        ],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The validation_errors column read back as the URL column: each cell as read.
    let out = run(
        &[
            "parse",
            parquet.path(),
            "--column",
            "validation_errors",
            "--fields",
            "input",
            "--drop-columns",
            "--no-header",
        ],
        b"",
    );
    let text = stdout(&out);
    let cells: Vec<&str> = text
        .lines()
        .map(|l| l.split('\t').next().unwrap_or(""))
        .collect();
    assert_eq!(cells, ["invalid-reverse-solidus", ""], "{}", stderr(&out));
}

/// The direct path of plain lines checks for the table's special bytes only in the fields
/// whose values may hold them: a host may hold `,` and `"` (an opaque host keeps both) but
/// never `\`; a username keeps `,` (the userinfo set encodes `"` and `\`); a protocol or
/// a port holds neither. One field alone and several together, CSV and TSV.
#[test]
fn direct_fields_are_escaped_exactly_where_their_values_need_it() {
    let file = TempFile::new(b"foo://u,\"x@a\"b,c/p\\q\nhttp://h.example:81/\n");
    let cases: [(&str, &str, &str); 6] = [
        (
            "csv",
            "hostname",
            "hostname,error\r\n\"a\"\"b,c\",\r\nh.example,\r\n",
        ),
        ("csv", "username", "username,error\r\n\"u,%22x\",\r\n,\r\n"),
        (
            "csv",
            "protocol,port,host",
            "protocol,port,host,error\r\nfoo:,,\"a\"\"b,c\",\r\nhttp:,81,h.example:81,\r\n",
        ),
        (
            "tsv",
            "hostname",
            "hostname\terror\na\"b,c\t\nh.example\t\n",
        ),
        (
            "tsv",
            "username,hostname,pathname",
            "username\thostname\tpathname\terror\nu,%22x\ta\"b,c\t/p\\\\q\t\n\th.example\t/\t\n",
        ),
        ("csv", "pathname", "pathname,error\r\n/p\\q,\r\n/,\r\n"),
    ];
    for (format, fields, want) in cases {
        let out = run(
            &["parse", "--format", format, "--fields", fields, file.path()],
            b"",
        );
        assert_eq!(code(&out), 0, "stderr: {}", stderr(&out));
        assert_eq!(stdout(&out), want, "{format} {fields}");
    }
}

/// `parse --help`'s `--fields` text names every field the tool accepts.
#[test]
fn parse_help_names_every_field() {
    let out = run(&["parse", "--help"], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let help = stdout(&out);
    let start = help
        .find("--fields <FIELDS>")
        .expect("--fields in the help");
    let end = start + help[start..].find("--psl").expect("--psl after --fields");
    let words: Vec<&str> = help[start..end]
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .collect();
    use rapidurl::field::Field;
    let fields = [
        &Field::URL_API[..],
        &Field::HOST_ANALYTICS,
        &Field::VALIDATION,
        &Field::CANONICAL,
        &Field::ROUTE,
    ]
    .concat();
    let mut names: Vec<String> = fields.iter().map(|f| f.name().into_owned()).collect();
    names.extend(["param:NAME", "input", "error"].map(String::from));
    let routes = TempFile::new(b"all\t/*\n");
    for name in &names {
        assert!(
            words.contains(&name.as_str()),
            "--fields help lacks {name}: {}",
            &help[start..end]
        );
        // Every name is a field the tool takes.
        let name = name.replace("NAME", "q");
        let ran = run(
            &["parse", "--routes", routes.path(), "--fields", &name],
            b"https://a.example/?q=1\n",
        );
        assert_eq!(code(&ran), 0, "--fields {name}: {}", stderr(&ran));
    }
}

/// docs/cli.md's table of fields: every name in it is a `rapidurl::field::Field` (the
/// names Python's `parse_column` takes, through the same `FromStr`) but the two the
/// text before the table calls the tool's own.
#[test]
fn the_fields_table_names_the_fields_parse_column_takes() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/cli.md"))
        .expect("docs/cli.md");
    let start = doc.find("**Fields** (").expect("the fields table");
    let intro = &doc[start..doc[start..].find("\n\n").map_or(doc.len(), |e| start + e)];
    assert!(
        intro.contains("the tool's own two, `input` and `error`"),
        "the text before the table: {intro}"
    );
    let own = ["input", "error"];
    let table = doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| field |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    let mut names = Vec::new();
    for row in table {
        let first = row.split('|').nth(1).expect("a first cell");
        names.extend(first.split('`').skip(1).step_by(2).map(str::to_owned));
    }
    assert!(names.len() >= 20, "{names:?}");
    for name in &names {
        let name = name.strip_suffix("NAME").unwrap_or(name);
        let name = if name == "param:" { "param:q" } else { name };
        let is_field = name.parse::<rapidurl::field::Field>().is_ok();
        assert_eq!(
            is_field,
            !own.contains(&name),
            "{name}: a Field of the library: {is_field}; the tool's own: {}",
            own.contains(&name)
        );
    }
}
