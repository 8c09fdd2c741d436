//! End-to-end tests of table input and output (issue 13): CSV, TSV, JSON Lines and Parquet
//! in and out, passed-through columns, `--column`, `--base-column`, `stats`, byte-order
//! marks, streaming from a slow pipe, and the errors of malformed tables.
//!
//! Outputs are read back with other implementations (the `csv` crate, `serde_json`, the
//! `parquet` crate), and every expected value is written by hand.

mod support;

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use arrow_array::{Array, ArrayRef, Int64Array, RecordBatch, StringArray};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use support::*;

/// The logical table every input format carries in the matrix test: id, url, note.
const ROWS: [(i64, &str, &str); 3] = [
    (1, "HTTPS://Example.COM/a/../b?x=1", "first, with comma"),
    (2, "not a url", "say \"hi\""),
    (3, "http://[::1]:8080/", "multi\nline"),
];

/// What `--fields hostname,port` gives for each row of [`ROWS`] (and the start of the
/// error of the row that fails).
const EXPECTED: [(&str, &str, &str); 3] = [
    ("example.com", "", ""),
    ("", "", "missing-scheme-non-relative-URL"),
    ("[::1]", "8080", ""),
];

fn csv_input() -> String {
    "id,url,note\r\n1,HTTPS://Example.COM/a/../b?x=1,\"first, with comma\"\r\n\
     2,not a url,\"say \"\"hi\"\"\"\r\n3,http://[::1]:8080/,\"multi\nline\"\r\n"
        .to_owned()
}

fn tsv_input() -> String {
    "id\turl\tnote\n1\tHTTPS://Example.COM/a/../b?x=1\tfirst, with comma\n\
     2\tnot a url\tsay \"hi\"\n3\thttp://[::1]:8080/\tmulti\\nline\n"
        .to_owned()
}

fn jsonl_input() -> String {
    "{\"id\":1,\"url\":\"HTTPS://Example.COM/a/../b?x=1\",\"note\":\"first, with comma\"}\n\
     {\"id\":2,\"url\":\"not a url\",\"note\":\"say \\\"hi\\\"\"}\n\
     {\"id\":3,\"url\":\"http://[::1]:8080/\",\"note\":\"multi\\nline\"}\n"
        .to_owned()
}

/// A Parquet file of `columns` (in one row group per `group_rows` rows).
fn parquet_file(columns: Vec<(&str, ArrayRef)>, group_rows: usize) -> TempFile {
    let schema = Arc::new(Schema::new(
        columns
            .iter()
            .map(|(n, a)| Field::new(*n, a.data_type().clone(), true))
            .collect::<Vec<_>>(),
    ));
    let batch = RecordBatch::try_new(
        schema.clone(),
        columns.into_iter().map(|(_, a)| a).collect(),
    )
    .expect("record batch");
    let file = TempFile::with_extension(b"", "parquet");
    let props = parquet::file::properties::WriterProperties::builder()
        .set_max_row_group_row_count(Some(group_rows))
        .build();
    let mut writer = ArrowWriter::try_new(
        File::create(file.path()).expect("create"),
        schema,
        Some(props),
    )
    .expect("writer");
    writer.write(&batch).expect("write");
    writer.close().expect("close");
    file
}

fn rows_parquet() -> TempFile {
    parquet_file(
        vec![
            ("id", Arc::new(Int64Array::from(vec![1, 2, 3])) as ArrayRef),
            (
                "url",
                Arc::new(StringArray::from(
                    ROWS.iter().map(|r| r.1).collect::<Vec<_>>(),
                )),
            ),
            (
                "note",
                Arc::new(StringArray::from(
                    ROWS.iter().map(|r| r.2).collect::<Vec<_>>(),
                )),
            ),
        ],
        2,
    )
}

/// A table read back: its column names and its rows as text (null and absent as "").
#[derive(Debug, PartialEq)]
struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

/// Reads a Parquet file: names, column types and rows as text.
fn read_parquet(path: &str) -> (Table, Vec<DataType>, usize) {
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(path).expect("open"))
        .expect("a Parquet file");
    let groups = builder.metadata().num_row_groups();
    let schema = builder.schema().clone();
    let header = schema.fields().iter().map(|f| f.name().clone()).collect();
    let types = schema
        .fields()
        .iter()
        .map(|f| f.data_type().clone())
        .collect();
    let mut rows = Vec::new();
    for batch in builder.build().expect("reader") {
        let batch = batch.expect("batch");
        let columns: Vec<ArrayRef> = batch
            .columns()
            .iter()
            .map(|c| arrow_cast::cast(c, &DataType::Utf8).expect("cast"))
            .collect();
        for i in 0..batch.num_rows() {
            rows.push(
                columns
                    .iter()
                    .map(|c| {
                        let s = c.as_any().downcast_ref::<StringArray>().expect("strings");
                        if s.is_null(i) {
                            String::new()
                        } else {
                            s.value(i).to_owned()
                        }
                    })
                    .collect(),
            );
        }
    }
    (Table { header, rows }, types, groups)
}

/// Reads text output in `format` (tsv, csv, jsonl); JSON objects are read by the keys of
/// `columns`.
fn read_text(format: &str, text: &str, columns: &[&str]) -> Table {
    match format {
        "csv" => {
            let mut r = csv::ReaderBuilder::new().from_reader(text.as_bytes());
            let header = r
                .headers()
                .expect("header")
                .iter()
                .map(str::to_owned)
                .collect();
            let rows = r
                .records()
                .map(|rec| rec.expect("record").iter().map(str::to_owned).collect())
                .collect();
            Table { header, rows }
        }
        "tsv" => {
            let unescape = |f: &str| {
                f.replace("\\n", "\n")
                    .replace("\\t", "\t")
                    .replace("\\\\", "\\")
            };
            let mut lines = text.lines();
            let header = lines
                .next()
                .expect("header")
                .split('\t')
                .map(str::to_owned)
                .collect();
            let rows = lines
                .map(|l| l.split('\t').map(unescape).collect())
                .collect();
            Table { header, rows }
        }
        _ => {
            let rows = text
                .lines()
                .map(|l| {
                    let v: serde_json::Value = serde_json::from_str(l).expect("a JSON object");
                    columns
                        .iter()
                        .map(|c| match &v[*c] {
                            serde_json::Value::Null => String::new(),
                            serde_json::Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .collect()
                })
                .collect();
            Table {
                header: columns.iter().map(|c| (*c).to_owned()).collect(),
                rows,
            }
        }
    }
}

/// Checks a table against [`ROWS`] and [`EXPECTED`]; `pass` says whether id, url and note
/// come first.
fn check_table(table: &Table, pass: bool, what: &str) {
    let mut header: Vec<&str> = if pass {
        vec!["id", "url", "note"]
    } else {
        vec![]
    };
    header.extend(["hostname", "port", "error"]);
    assert_eq!(table.header, header, "{what}");
    assert_eq!(table.rows.len(), ROWS.len(), "{what}: {table:?}");
    for (k, row) in table.rows.iter().enumerate() {
        let mut at = 0;
        if pass {
            assert_eq!(row[0], ROWS[k].0.to_string(), "{what} row {k}");
            assert_eq!(row[1], ROWS[k].1, "{what} row {k}");
            assert_eq!(row[2], ROWS[k].2, "{what} row {k}");
            at = 3;
        }
        assert_eq!(row[at], EXPECTED[k].0, "{what} row {k}");
        assert_eq!(row[at + 1], EXPECTED[k].1, "{what} row {k}");
        let error = &row[at + 2];
        if EXPECTED[k].2.is_empty() {
            assert_eq!(error, "", "{what} row {k}");
        } else {
            assert!(error.starts_with(EXPECTED[k].2), "{what} row {k}: {error}");
        }
    }
}

#[test]
fn every_input_format_to_every_output_format() {
    let inputs: Vec<(&str, TempFile)> = vec![
        (
            "lines",
            TempFile::new(ROWS.map(|r| r.1).join("\n").as_bytes()),
        ),
        (
            "csv",
            TempFile::with_extension(csv_input().as_bytes(), "csv"),
        ),
        (
            "tsv",
            TempFile::with_extension(tsv_input().as_bytes(), "tsv"),
        ),
        (
            "jsonl",
            TempFile::with_extension(jsonl_input().as_bytes(), "jsonl"),
        ),
        ("parquet", rows_parquet()),
    ];
    for (input_format, file) in &inputs {
        let pass = *input_format != "lines";
        for output in ["tsv", "csv", "jsonl", "parquet"] {
            let what = format!("{input_format} -> {output}");
            let out_file = TempFile::with_extension(b"", output);
            let out = run(
                &[
                    "parse",
                    "--fields",
                    "hostname,port",
                    file.path(),
                    "-o",
                    out_file.path(),
                ],
                b"",
            );
            assert_eq!(code(&out), 0, "{what}: {}", stderr(&out));
            assert!(out.stdout.is_empty(), "{what}: -o writes nothing to stdout");
            // The bad row is reported with its line: the second record is on line 3 of
            // CSV and TSV (the header is line 1), line 2 of lines and JSON Lines, row 2
            // of Parquet.
            let line = if matches!(*input_format, "csv" | "tsv") {
                3
            } else {
                2
            };
            let err = stderr(&out);
            assert!(
                err.starts_with(&format!(
                    "{}:{line}:1: missing-scheme-non-relative-URL",
                    file.path()
                )),
                "{what}: {err}"
            );
            let table = if output == "parquet" {
                let (table, types, _) = read_parquet(out_file.path());
                if *input_format == "parquet" {
                    assert_eq!(
                        types[0],
                        DataType::Int64,
                        "{what}: passed-through types are kept"
                    );
                }
                table
            } else {
                let text = std::fs::read_to_string(out_file.path()).expect("output");
                let mut columns = vec!["id", "url", "note"];
                if !pass {
                    columns.clear();
                }
                columns.extend(["hostname", "port", "error"]);
                read_text(output, &text, &columns)
            };
            check_table(&table, pass, &what);
        }
    }
}

#[test]
fn csv_passthrough_keeps_quoting_in_csv_and_jsonl_output() {
    let (out, _f) = parse_file_ext(
        &["--fields", "href", "--format", "csv", "--no-header"],
        csv_input().as_bytes(),
        "csv",
    );
    assert_eq!(
        stdout(&out),
        "1,HTTPS://Example.COM/a/../b?x=1,\"first, with comma\",https://example.com/b?x=1,\r\n\
         2,not a url,\"say \"\"hi\"\"\",,missing-scheme-non-relative-URL at byte 0: the input has no scheme \
         and there is no usable base URL\r\n\
         3,http://[::1]:8080/,\"multi\nline\",http://[::1]:8080/,\r\n"
    );
    let (out, _f) = parse_file_ext(
        &["--fields", "hostname", "--format", "jsonl"],
        csv_input().as_bytes(),
        "csv",
    );
    let lines = ok_lines(&out);
    assert_eq!(
        lines[0],
        r#"{"id":"1","url":"HTTPS://Example.COM/a/../b?x=1","note":"first, with comma","hostname":"example.com"}"#
    );
    assert!(
        lines[1].starts_with(
            r#"{"id":"2","url":"not a url","note":"say \"hi\"","error":"missing-scheme"#
        ),
        "{}",
        lines[1]
    );
    assert_eq!(
        lines[2],
        r#"{"id":"3","url":"http://[::1]:8080/","note":"multi\nline","hostname":"[::1]"}"#
    );
}

/// Runs `rapidurl parse ARGS FILE` on a temporary `.EXT` file holding `contents`.
fn parse_file_ext(args: &[&str], contents: &[u8], ext: &str) -> (std::process::Output, TempFile) {
    let file = TempFile::with_extension(contents, ext);
    let mut all: Vec<&str> = vec!["parse"];
    all.extend_from_slice(args);
    all.push(file.path());
    (run(&all, b""), file)
}

#[test]
fn jsonl_passthrough_keeps_values_and_fills_missing_keys_with_null() {
    let input = "{\"url\":\"http://a.example/x\",\"n\":1.5,\"tags\":[\"a\",{\"b\":null}],\"ok\":true}\n\
                 \n\
                 {\"n\":-2,\"url\":\"http://b.example/\"}\n";
    let (out, _f) = parse_file_ext(&["--fields", "hostname"], input.as_bytes(), "jsonl");
    // A blank line is not a row; a missing key is null; TSV shows JSON values as text.
    assert_eq!(
        ok_lines(&out),
        [
            "url\tn\ttags\tok\thostname\terror",
            "http://a.example/x\t1.5\t[\"a\",{\"b\":null}]\ttrue\ta.example\t",
            "http://b.example/\t-2\t\t\tb.example\t",
        ]
    );
    let (out, _f) = parse_file_ext(
        &["--fields", "hostname", "--format", "jsonl"],
        input.as_bytes(),
        "jsonl",
    );
    assert_eq!(
        ok_lines(&out),
        [
            r#"{"url":"http://a.example/x","n":1.5,"tags":["a",{"b":null}],"ok":true,"hostname":"a.example"}"#,
            r#"{"url":"http://b.example/","n":-2,"tags":null,"ok":null,"hostname":"b.example"}"#,
        ]
    );
}

#[test]
fn column_by_name_and_by_index_and_default() {
    let input = "name,link,ref\nx,http://a.example/,http://r.example/\n";
    for spec in ["link", "2"] {
        let (out, _f) = parse_file_ext(
            &[
                "--column",
                spec,
                "--fields",
                "hostname",
                "--drop-columns",
                "--no-header",
            ],
            input.as_bytes(),
            "csv",
        );
        assert_eq!(ok_lines(&out), ["a.example\t"], "--column {spec}");
    }
    // No `url` column: the first one.
    let (out, _f) = parse_file_ext(
        &["--fields", "input,error", "--drop-columns"],
        input.as_bytes(),
        "csv",
    );
    let lines = ok_lines(&out);
    assert_eq!(lines[0], "input\terror");
    assert!(
        lines[1].starts_with("x\tmissing-scheme-non-relative-URL"),
        "{}",
        lines[1]
    );
    // A column named `url` is the default wherever it is.
    let (out, _f) = parse_file_ext(
        &[
            "--fields",
            "hostname",
            "--drop-columns",
            "--no-header",
            "--input-format",
            "tsv",
        ],
        b"a\turl\nhttp://no.example/\thttp://yes.example/\n",
        "txt",
    );
    assert_eq!(ok_lines(&out), ["yes.example\t"]);
}

#[test]
fn base_and_base_column_on_every_table_format() {
    let csv = "page,link\nhttps://example.com/docs/,../img/a.png\n,/x\nnot a base,y\n";
    let jsonl = "{\"page\":\"https://example.com/docs/\",\"link\":\"../img/a.png\"}\n\
                 {\"page\":null,\"link\":\"/x\"}\n{\"page\":\"not a base\",\"link\":\"y\"}\n";
    let parquet = parquet_file(
        vec![
            (
                "page",
                Arc::new(StringArray::from(vec![
                    Some("https://example.com/docs/"),
                    None,
                    Some("not a base"),
                ])) as ArrayRef,
            ),
            (
                "link",
                Arc::new(StringArray::from(vec!["../img/a.png", "/x", "y"])),
            ),
        ],
        10,
    );
    let files = [
        TempFile::with_extension(csv.as_bytes(), "csv"),
        TempFile::with_extension(jsonl.as_bytes(), "jsonl"),
        parquet,
    ];
    for file in &files {
        let out = run(
            &[
                "parse",
                "--column",
                "link",
                "--base-column",
                "page",
                "--base",
                "http://fallback.example/dir/",
                "--fields",
                "href",
                "--drop-columns",
                "--no-header",
                file.path(),
            ],
            b"",
        );
        let lines = ok_lines(&out);
        assert_eq!(
            lines[0],
            "https://example.com/img/a.png\t",
            "{}",
            file.path()
        );
        // An empty or null base means --base.
        assert_eq!(lines[1], "http://fallback.example/x\t", "{}", file.path());
        assert!(
            lines[2].starts_with("\tbase-URL-invalid"),
            "{}: {}",
            file.path(),
            lines[2]
        );
    }
    // --base alone on CSV.
    let (out, _f) = parse_file_ext(
        &[
            "--column",
            "link",
            "--base",
            "https://h.example/a/b",
            "--fields",
            "href",
            "--drop-columns",
            "--no-header",
        ],
        b"link\nc\n?q\n",
        "csv",
    );
    assert_eq!(
        ok_lines(&out),
        ["https://h.example/a/c\t", "https://h.example/a/b?q\t"]
    );
}

#[test]
fn input_field_says_what_failed() {
    let out = run(
        &["parse", "--fields", "input,hostname", "--format", "jsonl"],
        b"http://ok.example/\nhttp://exa mple.com/\n",
    );
    let lines = ok_lines(&out);
    assert_eq!(
        lines[0],
        r#"{"input":"http://ok.example/","hostname":"ok.example"}"#
    );
    assert!(
        lines[1]
            .starts_with(r#"{"input":"http://exa mple.com/","error":"domain-invalid-code-point"#),
        "{}",
        lines[1]
    );
}

#[test]
fn byte_order_mark_is_not_part_of_the_first_url() {
    let (out, _f) = parse_file(
        &["--fields", "href", "--no-header"],
        b"\xEF\xBB\xBFhttp://a.example/\nhttp://b/\n",
    );
    assert_eq!(ok_lines(&out), ["http://a.example/\t", "http://b/\t"]);
    assert_eq!(stderr(&out), "");
    let out = run(&["check"], b"\xEF\xBB\xBFhttp://a.example/\n");
    assert_eq!(stdout(&out), "lines: 1\nvalid: 1\ninvalid: 0\n");
    // Nor of a CSV header's first name.
    let (out, _f) = parse_file_ext(
        &["--fields", "hostname", "--no-header"],
        b"\xEF\xBB\xBFurl,n\nhttp://c.example/,1\n",
        "csv",
    );
    assert_eq!(ok_lines(&out), ["http://c.example/\t1\tc.example\t"]);
}

#[test]
fn rows_from_a_slow_pipe_appear_before_it_closes() {
    let mut child = Command::new(BIN)
        .args(["parse", "--fields", "hostname", "--no-header"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.expect("a line")).is_err() {
                break;
            }
        }
    });
    for host in ["a.example", "b.example", "c.example"] {
        stdin
            .write_all(format!("http://{host}/\n").as_bytes())
            .expect("write");
        stdin.flush().expect("flush");
        // A generous bound: the row must come while stdin is still open.
        let row = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the row before stdin closes");
        assert_eq!(row, format!("{host}\t"));
    }
    drop(stdin);
    let status = child.wait().expect("wait");
    assert!(status.success());
    reader.join().expect("reader");
}

#[test]
fn slow_csv_pipe_streams_too() {
    let mut child = Command::new(BIN)
        .args([
            "parse",
            "--input-format",
            "csv",
            "--fields",
            "hostname",
            "--format",
            "jsonl",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let _ = tx.send(line.expect("a line"));
        }
    });
    stdin.write_all(b"url,n\n").expect("write");
    stdin.write_all(b"http://a.example/,1\n").expect("write");
    stdin.flush().expect("flush");
    let row = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the row before stdin closes");
    assert_eq!(
        row,
        r#"{"url":"http://a.example/","n":"1","hostname":"a.example"}"#
    );
    drop(stdin);
    assert!(child.wait().expect("wait").success());
}

#[test]
fn no_header_is_written_when_an_input_cannot_be_opened() {
    let a = TempFile::new(b"http://a/\n");
    let out_file = TempFile::with_extension(b"", "csv");
    std::fs::remove_file(out_file.path()).expect("remove");
    let out = run(
        &[
            "parse",
            a.path(),
            "/nonexistent/rapidurl/b.txt",
            "-o",
            out_file.path(),
        ],
        b"",
    );
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("/nonexistent/rapidurl/b.txt"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
    assert!(
        !std::path::Path::new(out_file.path()).exists(),
        "-o file created"
    );
    let out = run(&["parse", a.path(), "/nonexistent/rapidurl/b.txt"], b"");
    assert_eq!(code(&out), 2);
    assert_eq!(stdout(&out), "");
}

/// Runs `rapidurl ARGS` and checks it failed with `status` and a message holding every
/// one of `parts`; returns stdout.
fn fails(args: &[&str], status: i32, parts: &[&str]) -> String {
    let out = run(args, b"");
    let err = stderr(&out);
    assert_eq!(code(&out), status, "{args:?}: {err}");
    for part in parts {
        assert!(err.contains(part), "{args:?}: {part:?} not in {err}");
    }
    stdout(&out)
}

#[test]
fn malformed_tables_are_reported_with_file_line_and_column() {
    let ragged = TempFile::with_extension(b"url,n\nhttp://a/,1\nhttp://b/\n", "csv");
    let printed = fails(
        &["parse", "--fields", "href", "--no-header", ragged.path()],
        3,
        &[&format!(
            "{}:3: ragged row: 1 fields where the header has 2",
            ragged.path()
        )],
    );
    // The rows before the bad one are written.
    assert_eq!(printed, "http://a/\t1\thttp://a/\t\n");

    let ragged_tsv = TempFile::with_extension(b"url\tn\nhttp://a/\t1\tx\n", "tsv");
    fails(
        &["parse", ragged_tsv.path()],
        3,
        &[&format!("{}:2: ragged row: 3 fields", ragged_tsv.path())],
    );

    let unterminated =
        TempFile::with_extension(b"url,n\nhttp://a/,1\nhttp://b/,\"open\nstill open\n", "csv");
    fails(
        &["parse", unterminated.path()],
        3,
        &[&format!("{}:3: unterminated quote", unterminated.path())],
    );

    let stray = TempFile::with_extension(b"url,n\nhttp://a/,x\"y\"\n", "csv");
    fails(
        &["parse", stray.path()],
        3,
        &[&format!(
            "{}:2: column 2: a double quote inside an unquoted field",
            stray.path()
        )],
    );

    let bad_json = TempFile::with_extension(b"{\"url\":\"http://a/\"}\n{\"url\":\n", "jsonl");
    fails(
        &["parse", bad_json.path()],
        3,
        &[&format!("{}:2: not a JSON object", bad_json.path())],
    );

    let number = TempFile::with_extension(b"{\"url\":\"http://a/\"}\n{\"url\":5}\n", "jsonl");
    fails(
        &["parse", number.path()],
        3,
        &[&format!(
            "{}:2: column \"url\" (the URL) holds a number, not a string",
            number.path()
        )],
    );

    let extra = TempFile::with_extension(
        b"{\"url\":\"http://a/\"}\n{\"url\":\"http://b/\",\"x\":1}\n",
        "jsonl",
    );
    fails(
        &["parse", extra.path()],
        3,
        &[&format!("{}:2: key \"x\" is not a column", extra.path())],
    );
}

#[test]
fn unusable_columns_are_usage_errors() {
    let csv = TempFile::with_extension(b"a,b\nhttp://x/,1\n", "csv");
    fails(
        &["parse", "--column", "link", csv.path()],
        2,
        &["--column link", csv.path(), "no column \"link\"", "a, b"],
    );
    fails(
        &["parse", "--column", "3", csv.path()],
        2,
        &["--column 3", "has 2 columns"],
    );
    fails(
        &["parse", "--base-column", "nope", csv.path()],
        2,
        &["--base-column nope"],
    );
    let lines = TempFile::new(b"http://x/\n");
    fails(
        &["parse", "--column", "1", lines.path()],
        2,
        &["--column", "lines input"],
    );

    let numbers = parquet_file(
        vec![
            ("url", Arc::new(Int64Array::from(vec![1, 2])) as ArrayRef),
            (
                "page",
                Arc::new(StringArray::from(vec!["http://a/", "http://b/"])),
            ),
        ],
        10,
    );
    fails(
        &["parse", numbers.path()],
        2,
        &[
            numbers.path(),
            "column \"url\" (the URL) holds Int64, not strings",
        ],
    );
    fails(
        &["parse", "--column", "href", numbers.path()],
        2,
        &[numbers.path(), "no column \"href\""],
    );
    // A clash between an input column and an output column.
    let clash = TempFile::with_extension(b"url,hostname\nhttp://x/,y\n", "csv");
    fails(
        &["parse", "--fields", "hostname", clash.path()],
        2,
        &["\"hostname\"", "--drop-columns"],
    );
}

#[test]
fn parquet_round_trip_in_row_groups() {
    // 300,000 rows in (row groups of 40,000): two row groups out (262,144 rows, then the
    // rest), every row back in order.
    let n = 300_000;
    let urls: Vec<String> = (0..n)
        .map(|i| format!("https://h{}.example/p/{i}?q={i}", i % 7))
        .collect();
    let input = parquet_file(
        vec![
            ("url", Arc::new(StringArray::from(urls.clone())) as ArrayRef),
            (
                "n",
                Arc::new(Int64Array::from((0..n as i64).collect::<Vec<_>>())),
            ),
        ],
        40_000,
    );
    let output = TempFile::with_extension(b"", "parquet");
    let out = run(
        &[
            "parse",
            "--threads",
            "2",
            "--fields",
            "hostname,search",
            "--on-error",
            "fail",
            input.path(),
            "-o",
            output.path(),
        ],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let (table, types, groups) = read_parquet(output.path());
    assert_eq!(table.header, ["url", "n", "hostname", "search"]);
    assert_eq!(types[1], DataType::Int64);
    assert_eq!(groups, 2, "{groups} row groups");
    assert_eq!(table.rows.len(), n);
    for (i, row) in table.rows.iter().enumerate() {
        assert_eq!(row[0], urls[i]);
        assert_eq!(row[1], i.to_string());
        assert_eq!(row[2], format!("h{}.example", i % 7));
        assert_eq!(row[3], format!("?q={i}"));
    }
}

#[test]
fn parquet_to_stdout_with_format() {
    let out = run(
        &["parse", "--format", "parquet", "--fields", "href"],
        b"http://a/\nbad\n",
    );
    assert_eq!(code(&out), 0);
    let file = TempFile::with_extension(&out.stdout, "parquet");
    let (table, _, _) = read_parquet(file.path());
    assert_eq!(table.header, ["href", "error"]);
    assert_eq!(table.rows[0], ["http://a/", ""]);
    assert_eq!(table.rows[1][0], "");
    assert!(table.rows[1][1].starts_with("missing-scheme-non-relative-URL"));
}

#[test]
fn check_reads_tables() {
    let csv = TempFile::with_extension(b"n,url\n1,http://a/\n2,\"http://exa mple/\"\n", "csv");
    let out = run(&["check", csv.path()], b"");
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(
        text.starts_with("lines: 2\nvalid: 1\ninvalid: 1\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}:3:", csv.path())) && text.contains("\u{2014} http://exa mple/"),
        "{text}"
    );
}

#[test]
fn stats_counts_shares_and_bars() {
    let input = "https://a.example/1\nhttps://b.example/\nhttps://a.example/2\nbad\nhttp://a.example:8080/\n\
                 https://c.example/\nhttp://[::1\n";
    let out = run(
        &["stats", "--by", "hostname", "--top", "2"],
        input.as_bytes(),
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "lines: 7");
    assert_eq!(lines[1], "invalid: 2");
    assert_eq!(
        lines[2],
        "top 2 of 3 distinct hostname of the valid URLs (5 counted):"
    );
    // 3 of 5 valid URLs, then 1 of 5 (b before c: ties in value order); the bars are
    // 30 and 10 characters.
    assert_eq!(
        lines[3],
        format!("  3   60.00%  {}  a.example", "█".repeat(30))
    );
    assert_eq!(
        lines[4],
        format!(
            "  1   20.00%  {}{}  b.example",
            "█".repeat(10),
            " ".repeat(20)
        )
    );
    assert_eq!(lines.len(), 5);

    let out = run(
        &["stats", "--by", "error", "--format", "csv"],
        input.as_bytes(),
    );
    assert_eq!(
        stdout(&out),
        "value,count,share\r\nIPv6-unclosed,1,0.500000\r\nmissing-scheme-non-relative-URL,1,0.500000\r\n"
    );
    let out = run(
        &["stats", "--by", "port", "--format", "jsonl"],
        input.as_bytes(),
    );
    assert_eq!(
        stdout(&out),
        "{\"value\":\"\",\"count\":4,\"share\":0.800000}\n{\"value\":\"8080\",\"count\":1,\"share\":0.200000}\n"
    );
    // On a table, by its URL column.
    let csv = TempFile::with_extension(
        b"id,link\n1,http://x.example/\n2,http://x.example/y\n",
        "csv",
    );
    let out = run(
        &[
            "stats",
            "--column",
            "link",
            "--by",
            "hostname",
            "--format",
            "csv",
            csv.path(),
        ],
        b"",
    );
    assert_eq!(
        stdout(&out),
        "value,count,share\r\nx.example,2,1.000000\r\n"
    );
    fails(&["stats", "--by", "colour"], 2, &["colour"]);
}

/// The fields of the input text (`valid`, `validation_errors`) and of the route table
/// (`route`, `route_params`, looked up once a row on the input side) reach every writer,
/// from plain lines and from a table, and `stats` counts them.
#[test]
fn input_text_and_route_fields_in_every_output_format() {
    // `word` has a lookaround: a lookup can run out of steps, and the row is then an
    // error row.
    let routes = TempFile::new(b"word\t/w/:a((?=(?:a|a)*b)\\w*)\nany\t/*\n");
    let stall = format!("https://h.test/w/{}", "a".repeat(40));
    let urls = ["https://h.test/w/aab", "https://h.test/x y", stall.as_str()];
    let expected: [[&str; 4]; 3] = [
        ["true", "", "word", r#"{"a":"aab"}"#],
        [
            "false",
            "invalid-URL-unit",
            "any",
            r#"{"pathname.0":"x%20y"}"#,
        ],
        ["", "", "", ""],
    ];
    let fields = [
        "valid",
        "validation_errors",
        "route",
        "route_params",
        "error",
    ];
    let lines = TempFile::new(urls.join("\n").as_bytes());
    let csv = TempFile::with_extension(
        format!(
            "id,url\n{}",
            (0..3)
                .map(|i| format!("{i},{}\n", urls[i]))
                .collect::<String>()
        )
        .as_bytes(),
        "csv",
    );
    for (input, file) in [("lines", &lines), ("csv", &csv)] {
        let pass = input == "csv";
        for output in ["tsv", "csv", "jsonl", "parquet"] {
            let what = format!("{input} -> {output}");
            let out_file = TempFile::with_extension(b"", output);
            let out = run(
                &[
                    "parse",
                    "--routes",
                    routes.path(),
                    "--fields",
                    &fields[..4].join(","),
                    file.path(),
                    "-o",
                    out_file.path(),
                ],
                b"",
            );
            assert_eq!(code(&out), 0, "{what}: {}", stderr(&out));
            let table = if output == "parquet" {
                read_parquet(out_file.path()).0
            } else {
                let text = std::fs::read_to_string(out_file.path()).expect("output");
                let mut columns = if pass { vec!["id", "url"] } else { vec![] };
                columns.extend(fields);
                read_text(output, &text, &columns)
            };
            let at = if pass { 2 } else { 0 };
            assert_eq!(table.header[at..], fields, "{what}");
            assert_eq!(table.rows.len(), 3, "{what}: {table:?}");
            for (k, row) in table.rows.iter().enumerate() {
                assert_eq!(row[at..at + 4], expected[k], "{what} row {k}");
                let error = &row[at + 4];
                assert_eq!(
                    error.starts_with("route-match-limit: "),
                    k == 2,
                    "{what}: {error}"
                );
            }
        }
        let counts = |by: &str| {
            let out = run(
                &[
                    "stats",
                    "--routes",
                    routes.path(),
                    "--by",
                    by,
                    "--format",
                    "csv",
                    file.path(),
                ],
                b"",
            );
            assert_eq!(code(&out), 0, "{input} --by {by}: {}", stderr(&out));
            let mut rows: Vec<String> = stdout(&out)
                .lines()
                .skip(1)
                .map(|l| l.rsplit_once(',').map_or(l, |(row, _share)| row).to_owned())
                .collect();
            rows.sort();
            rows
        };
        // By `valid`, no route is looked up: the third URL counts as valid.
        assert_eq!(counts("valid"), ["false,1", "true,2"], "{input}");
        assert_eq!(counts("route"), ["any,1", "word,1"], "{input}");
    }
}
