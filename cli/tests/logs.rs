//! Access logs and crawl indexes read as tables (`--input-format common|combined|
//! vhost_combined|w3c|alb|cdx|cdxj`): each line a row with named columns, the request
//! target resolved against the host the line names (or `--base`), and every line that is
//! not its format's an error row with a reason: none dropped, whatever the block size,
//! the thread count or the compression.

mod support;

use std::io::{Read, Write};

use support::{TempFile, code, run, stderr, stdout};

/// The repository's shipped example `name`.
fn example(name: &str) -> String {
    format!("{}/../docs/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `parse --format tsv` of `file` with `args`: the rows, each a vector of cells, the
/// header first.
fn table(args: &[&str]) -> Vec<Vec<String>> {
    let out = run(&[&["parse", "--format", "tsv"], args].concat(), b"");
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

/// The cells of column `name` of `rows` (header first), one per data row.
fn column(rows: &[Vec<String>], name: &str) -> Vec<String> {
    let at = rows[0]
        .iter()
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name} in {:?}", rows[0]));
    rows[1..].iter().map(|r| r[at].clone()).collect()
}

/// The error name of each row (empty when it has none).
fn error_names(rows: &[Vec<String>]) -> Vec<String> {
    column(rows, "error")
        .into_iter()
        .map(|e| e.split(':').next().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn combined_log_rows_errors_and_escapes() {
    let rows = table(&[
        "--input-format",
        "combined",
        "--base",
        "https://shop.example",
        "--fields",
        "href",
        &example("access-combined.log"),
    ]);
    assert_eq!(rows.len(), 19, "18 lines, 18 rows: {rows:?}");
    let href = column(&rows, "href");
    assert_eq!(href[0], "https://shop.example/products/lamp?color=red");
    assert_eq!(
        href[8],
        "https://shop.example/search?q=caf%C3%A9+table&page=2"
    );
    // An absolute-form target is read as it is, not against --base.
    assert_eq!(href[14], "http://shop.example/products/desk");
    assert_eq!(
        error_names(&rows),
        [
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            "not-a-request",
            "",
            "not-a-request",
            "",
            "",
            "",
            "not-a-URL-target",
            "",
            "",
            "",
            "not-a-log-line"
        ]
    );
    // The other columns of an error row are kept.
    assert_eq!(column(&rows, "status")[7], "400");
    assert_eq!(column(&rows, "remote_host")[9], "185.220.101.4");
    assert_eq!(column(&rows, "method")[13], "CONNECT");
    assert_eq!(column(&rows, "user")[3], "alice");
    assert_eq!(column(&rows, "ident")[3], "", "- is null");
    assert_eq!(
        column(&rows, "referrer")[2],
        "https://news.ycombinator.com/item?id=42424242"
    );
    assert_eq!(column(&rows, "http_version")[2], "HTTP/2.0");
    assert_eq!(column(&rows, "time")[0], "28/Nov/2026:06:25:01 +0000");
}

#[test]
fn quoted_fields_are_decoded_as_servers_escape_them() {
    let log = concat!(
        // Apache: \" and \\ and \t; nginx: \x22 for a quote, \xHH for UTF-8 bytes.
        r#"1.2.3.4 - - [t] "GET /a HTTP/1.1" 200 1 "https://r.example/" "A \"quoted\" \\ agent\tx""#,
        "\n",
        r#"1.2.3.4 - - [t] "GET /caf\xC3\xA9 HTTP/1.1" 200 1 "-" "nginx \x22q\x22""#,
        "\n",
        // An unescaped quote inside (a server that does not escape) ends the field only
        // when a space or the end of the line follows it.
        r#"1.2.3.4 - - [t] "GET /b HTTP/1.1" 200 1 "-" "Mozilla "odd"agent""#,
        "\n",
        // Fields after the user agent (nginx's $http_x_forwarded_for) are `extra`.
        r#"1.2.3.4 - - [t] "GET /c HTTP/1.1" 200 1 "-" "ua" "10.0.0.1, 10.0.0.2""#,
        "\n",
    );
    let file = TempFile::new(log.as_bytes());
    let rows = table(&[
        "--input-format",
        "combined",
        "--base",
        "http://s.example",
        "--fields",
        "pathname",
        file.path(),
    ]);
    let agents = column(&rows, "user_agent");
    assert_eq!(
        agents[0], r#"A "quoted" \\ agent\tx"#,
        "TSV output escapes \\ and tab"
    );
    assert_eq!(agents[1], r#"nginx "q""#);
    assert_eq!(agents[2], r#"Mozilla "odd"agent"#);
    assert_eq!(column(&rows, "url")[1], "/café");
    assert_eq!(column(&rows, "pathname")[1], "/caf%C3%A9");
    assert_eq!(column(&rows, "extra")[3], r#""10.0.0.1, 10.0.0.2""#);
    assert_eq!(column(&rows, "extra")[0], "");
}

#[test]
fn a_path_without_a_host_is_an_error_row_that_says_to_give_base() {
    let out = run(
        &[
            "check",
            "--input-format",
            "common",
            &example("access-common.log"),
        ],
        b"",
    );
    assert_eq!(code(&out), 1);
    let text = stdout(&out);
    assert!(text.contains("lines: 12\n"), "{text}");
    assert!(
        text.contains(
            "access-common.log:1:1: no-host: the request target \"/products/lamp?color=red\" \
             is a path, and the line names no host to resolve it against: give --base URL"
        ),
        "{text}"
    );
}

#[test]
fn common_and_combined_tell_each_other_apart() {
    // A common line read as combined: the fields end early, and the message says which
    // format it may be.
    let out = run(
        &[
            "parse",
            "--input-format",
            "combined",
            "--base",
            "http://s.example",
            &example("access-common.log"),
        ],
        b"",
    );
    let err = stderr(&out);
    assert!(
        err.contains(
            "access-common.log:1:94: not-a-log-line: the line ends after 7 fields, before the \
             referrer field; a combined line has 9: is it a common log? (--input-format common)"
        ),
        "{err}"
    );
    let rows = table(&[
        "--input-format",
        "common",
        "--base",
        "http://s.example",
        "--drop-columns",
        "--fields",
        "pathname",
        &example("access-common.log"),
    ]);
    assert_eq!(column(&rows, "pathname")[2], "/blog/2026/winter-sale");
    assert_eq!(
        error_names(&rows).iter().filter(|e| e.is_empty()).count(),
        10
    );
}

#[test]
fn vhost_combined_resolves_against_the_host_and_port_of_each_line() {
    let rows = table(&[
        "--input-format",
        "vhost_combined",
        "--fields",
        "href",
        &example("access-vhost.log"),
    ]);
    let href = column(&rows, "href");
    assert_eq!(href[0], "https://shop.example/products/lamp?color=red");
    assert_eq!(href[4], "http://blog.shop.example/cart");
    assert_eq!(
        column(&rows, "request_origin")[4],
        "http://blog.shop.example"
    );
    assert_eq!(column(&rows, "vhost_port")[0], "443");
    // A port that is not the scheme's default stays in the URL.
    let file = TempFile::new(
        b"h.example:8443 1.2.3.4 - - [t] \"GET /x HTTP/1.1\" 200 1 \"-\" \"-\"\n\
          - 1.2.3.4 - - [t] \"GET /y HTTP/1.1\" 200 1 \"-\" \"-\"\n",
    );
    let rows = table(&[
        "--input-format",
        "vhost_combined",
        "--fields",
        "href",
        file.path(),
    ]);
    assert_eq!(column(&rows, "href")[0], "http://h.example:8443/x");
    // No host on the line and no --base: no-host.
    assert_eq!(error_names(&rows)[1], "no-host");
}

#[test]
fn w3c_fields_directives_apply_from_their_line_across_blocks() {
    let path = example("iis.log");
    let whole = table(&[
        "--input-format",
        "w3c",
        "--base",
        "https://fallback.example",
        "--fields",
        "href",
        &path,
    ]);
    let href = column(&whole, "href");
    // The first directive has no host field: --base; the second adds cs-host.
    assert_eq!(
        href,
        [
            "https://fallback.example/products/lamp?color=red",
            "https://fallback.example/static/app.css",
            "https://fallback.example/cart/add",
            "https://intranet.example/reports/q4?year=2026",
            "http://intranet.example:8080/reports/q4?year=2026",
            "",
        ]
    );
    assert_eq!(error_names(&whole)[5], "not-a-log-line");
    // The second directive's fields map to the first's columns by name (cs-host is not
    // one of them); the origin is told from it.
    assert_eq!(
        column(&whole, "request_origin")[3],
        "https://intranet.example"
    );
    assert_eq!(column(&whole, "cs-username")[3], "bob");
    // The same rows when every line is its own block (the directive in effect travels
    // from block to block), on 1 and 3 threads.
    for threads in ["1", "3"] {
        let small = table(&[
            "--input-format",
            "w3c",
            "--base",
            "https://fallback.example",
            "--fields",
            "href",
            "--block-bytes",
            "1",
            "--threads",
            threads,
            &path,
        ]);
        assert_eq!(small, whole, "--block-bytes 1 --threads {threads}");
    }
}

#[test]
fn cloudfront_logs_are_tab_separated_w3c() {
    let rows = table(&[
        "--input-format",
        "w3c",
        "--drop-columns",
        "--fields",
        "href",
        &example("cloudfront.log"),
    ]);
    assert_eq!(
        column(&rows, "href"),
        [
            "https://shop.example/products/lamp?color=red",
            "https://shop.example/static/app.css",
            "http://shop.example/blog/2026/winter-sale",
            "",
        ]
    );
    assert_eq!(error_names(&rows)[3], "missing-URL");
}

#[test]
fn alb_logs() {
    let rows = table(&[
        "--input-format",
        "alb",
        "--fields",
        "href",
        &example("alb.log"),
    ]);
    assert_eq!(
        column(&rows, "href"),
        [
            "https://shop.example/products/lamp?color=red",
            "https://shop.example/blog/2026/winter-sale",
            "http://shop.example/cart",
            "",
        ]
    );
    assert_eq!(error_names(&rows)[3], "not-a-request");
    assert_eq!(column(&rows, "elb_status_code")[2], "301");
    assert_eq!(
        column(&rows, "redirect_url")[2],
        "https://shop.example:443/cart"
    );
    assert_eq!(column(&rows, "conn_trace_id")[0], "TID_1234567890abcdef");
    assert_eq!(column(&rows, "target")[2], "", "- is null");
    // An older log's line, ending after the user agent: the later fields are null.
    let file = TempFile::new(
        b"http 2016-08-10T22:08:42.945958Z app/my-lb/50dc6c495c0c9188 1.2.3.4:2817 \
          10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 \"GET http://www.example.com:80/ \
          HTTP/1.1\" \"curl/7.46.0\"\n",
    );
    let rows = table(&["--input-format", "alb", "--fields", "href", file.path()]);
    assert_eq!(column(&rows, "href"), ["http://www.example.com/"]);
    assert_eq!(column(&rows, "ssl_cipher"), [""]);
}

#[test]
fn cdx_and_cdxj_indexes() {
    let cdx = table(&["--fields", "hostname", &example("index.cdx")]);
    assert_eq!(
        column(&cdx, "hostname"),
        [
            "example.com",
            "example.com",
            "example.com",
            "cdn.example.org",
            "example.com",
            ""
        ]
    );
    assert_eq!(column(&cdx, "urlkey")[1], "com,example)/about");
    assert_eq!(column(&cdx, "redirect")[2], "https://example.com/new-page");
    assert_eq!(error_names(&cdx)[5], "not-a-log-line");
    // Without its header line: the usual eleven fields.
    let body: String = std::fs::read_to_string(example("index.cdx"))
        .expect("read")
        .lines()
        .skip(1)
        .map(|l| format!("{l}\n"))
        .collect();
    let bare = TempFile::with_extension(body.as_bytes(), "cdx");
    assert_eq!(
        column(&table(&["--fields", "hostname", bare.path()]), "hostname"),
        column(&cdx, "hostname")
    );
    let cdxj = table(&["--fields", "hostname", &example("index.cdxj")]);
    assert_eq!(column(&cdxj, "hostname"), column(&cdx, "hostname"));
    // Numbers in the JSON block are cells as text.
    assert_eq!(column(&cdxj, "status")[3], "200");
    assert_eq!(column(&cdxj, "length")[3], "10422");
    assert_eq!(column(&cdxj, "filename")[0], "crawl-00001.warc.gz");
    assert_eq!(error_names(&cdxj)[5], "not-a-log-line");
}

/// A deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn no_line_is_lost_in_a_log_with_garbage() {
    // Good lines and every kind of bad one, including random bytes (no line feeds).
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut log = Vec::new();
    let mut lines = 0;
    let mut bad = 0;
    for i in 0..3000 {
        let line: Vec<u8> = match rng.next() % 10 {
            0 => {
                bad += 1;
                (0..rng.next() % 200)
                    .map(|_| (rng.next() % 255) as u8 + 1)
                    .filter(|&b| b != b'\n')
                    .collect()
            }
            1 => {
                bad += 1;
                b"1.2.3.4 - - [t] \"\\x16\\x03\\x01\" 400 0 \"-\" \"-\"".to_vec()
            }
            2 => {
                bad += 1;
                format!("1.2.3.4 - - [t] \"GET /cut{i}").into_bytes()
            }
            _ => format!(
                "1.2.3.4 - - [28/Nov/2026:00:00:00 +0000] \"GET /p/{i}?q={} HTTP/1.1\" 200 {} \
                 \"https://r{}.example/\" \"agent {i}\"",
                rng.next() % 100,
                rng.next() % 5000,
                i % 13
            )
            .into_bytes(),
        };
        // A random byte line may be blank (not a row): make it a row.
        if line.iter().all(|b| b.is_ascii_whitespace()) {
            log.extend_from_slice(b"x");
        }
        log.extend_from_slice(&line);
        log.push(b'\n');
        lines += 1;
    }
    let file = TempFile::new(&log);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&log).expect("gzip");
    let gz = TempFile::with_extension(&gz.finish().expect("gzip"), "gz");
    let mut seen = None;
    for (path, threads, block) in [
        (file.path(), "1", "1048576"),
        (file.path(), "3", "4096"),
        (gz.path(), "2", "1000"),
    ] {
        let out = run(
            &[
                "check",
                "--input-format",
                "combined",
                "--base",
                "http://s.example",
                "--threads",
                threads,
                "--block-bytes",
                block,
                path,
            ],
            b"",
        );
        assert_eq!(code(&out), 1, "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains(&format!("lines: {lines}\n")), "{text}");
        // At least the bad lines made bad; random bytes may look like a log line only
        // by a miracle.
        let invalid: usize = text
            .lines()
            .find_map(|l| l.strip_prefix("invalid: "))
            .and_then(|n| n.parse().ok())
            .expect("invalid count");
        assert_eq!(invalid, bad, "{text}");
        let rows = run(
            &[
                "parse",
                "--input-format",
                "combined",
                "--base",
                "http://s.example",
                "--format",
                "jsonl",
                "--drop-columns",
                "--fields",
                "href",
                "--threads",
                threads,
                "--block-bytes",
                block,
                path,
            ],
            b"",
        );
        let body = stdout(&rows);
        assert_eq!(body.lines().count(), lines, "one output row per line");
        match &seen {
            None => seen = Some(body),
            Some(first) => assert_eq!(&body, first, "{path} {threads} threads"),
        }
    }
}

#[test]
fn stats_counts_error_rows_by_name() {
    let out = run(
        &[
            "stats",
            "--input-format",
            "combined",
            "--base",
            "https://shop.example",
            "--by",
            "error",
            &example("access-combined.log.gz"),
        ],
        b"",
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("lines: 18\ninvalid: 4\n"), "{text}");
    for (name, n) in [
        ("not-a-request", 2),
        ("not-a-URL-target", 1),
        ("not-a-log-line", 1),
    ] {
        assert!(
            text.lines().any(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                words.first() == Some(&n.to_string().as_str()) && words.last() == Some(&name)
            }),
            "{name} {n}: {text}"
        );
    }
}

#[test]
fn a_w3c_log_without_fields_and_a_bad_cdx_header_are_refused() {
    let file = TempFile::new(b"#Version: 1.0\n2026-11-28 00:00:00 GET /a\n");
    let out = run(&["check", "--input-format", "w3c", file.path()], b"");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no #Fields: directive before the first entry"),
        "{}",
        stderr(&out)
    );
    let cdx = TempFile::with_extension(b" CDX N b a a\nx 1 u u\n", "cdx");
    let out = run(&["check", cdx.path()], b"");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("the CDX header names the field 'a' twice"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_request_path_that_starts_with_two_slashes_is_a_path() {
    let file = TempFile::new(
        b"1.2.3.4 - - [t] \"GET //evil.example/a?b HTTP/1.1\" 200 1\n\
          1.2.3.4 - - [t] \"GET // HTTP/1.1\" 200 1\n",
    );
    let rows = table(&[
        "--input-format",
        "common",
        "--base",
        "https://shop.example",
        "--fields",
        "input,hostname,pathname,href",
        file.path(),
    ]);
    assert_eq!(column(&rows, "input"), ["//evil.example/a?b", "//"]);
    assert_eq!(column(&rows, "url"), ["//evil.example/a?b", "//"]);
    assert_eq!(column(&rows, "hostname"), ["shop.example", "shop.example"]);
    assert_eq!(column(&rows, "pathname"), ["//evil.example/a", "//"]);
    assert_eq!(
        column(&rows, "href"),
        [
            "https://shop.example//evil.example/a?b",
            "https://shop.example//"
        ]
    );
}

#[test]
fn warc_records_with_a_target_are_rows_and_payloads_are_skipped() {
    let rows = table(&["--fields", "hostname", &example("crawl.warc")]);
    assert_eq!(
        column(&rows, "type"),
        ["request", "response", "metadata", "revisit"]
    );
    assert_eq!(
        column(&rows, "url")[3],
        "https://www.example.com/articles/url-parsing?utm_source=newsletter"
    );
    assert_eq!(column(&rows, "hostname"), ["www.example.com"; 4]);
    // Each offset is where the record starts in the file.
    let whole = std::fs::read(example("crawl.warc")).expect("read");
    let offsets = column(&rows, "offset");
    for (o, kind) in offsets.iter().zip(column(&rows, "type")) {
        let record = &whole[o.parse::<usize>().expect("an offset")..];
        assert!(record.starts_with(b"WARC/1."), "offset {o}");
        let head = String::from_utf8_lossy(&record[..200]);
        assert!(head.contains(&format!("WARC-Type: {kind}")), "offset {o}");
    }
    // The .warc.gz (one gzip member a record) gives the same rows, each offset the start
    // of the record's gzip member in the compressed file (what a CDX index stores):
    // one member decoded from there is the record.
    let gz = std::fs::read(example("crawl.warc.gz")).expect("read");
    let gz_rows = table(&["--fields", "hostname", &example("crawl.warc.gz")]);
    let at = rows[0].iter().position(|c| c == "offset").expect("offset");
    let without_offset = |rows: &[Vec<String>]| -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| [&r[..at], &r[at + 1..]].concat())
            .collect()
    };
    assert_eq!(without_offset(&gz_rows), without_offset(&rows));
    let gz_offsets = column(&gz_rows, "offset");
    for (o, kind) in gz_offsets.iter().zip(column(&rows, "type")) {
        let start: usize = o.parse().expect("an offset");
        let mut record = String::new();
        flate2::read::GzDecoder::new(&gz[start..])
            .read_to_string(&mut record)
            .expect("a gzip member starts at the offset");
        assert!(record.starts_with("WARC/1."), "offset {o}");
        assert!(record.contains(&format!("WARC-Type: {kind}")), "offset {o}");
    }
    assert!(gz_offsets[0] != offsets[0], "{gz_offsets:?}");
    // The same from standard input.
    let out = run(
        &[
            "parse",
            "--format",
            "tsv",
            "--input-format",
            "warc",
            "--fields",
            "hostname",
        ],
        &gz,
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let piped: Vec<Vec<String>> = stdout(&out)
        .lines()
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect();
    assert_eq!(piped, gz_rows);
    // One gzip member for the whole file: no record starts a member, so none has an
    // offset to seek to (the cells are empty); the rows are the same otherwise.
    let mut one = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    one.write_all(&whole).expect("gzip");
    let one = TempFile::with_extension(&one.finish().expect("gzip"), "warc.gz");
    let one_rows = table(&["--fields", "hostname", one.path()]);
    assert_eq!(column(&one_rows, "offset"), [""; 4]);
    assert_eq!(without_offset(&one_rows), without_offset(&rows));
    // A file cut inside a record: exit status 2, the file and the record named, after
    // the rows of the whole records before it.
    let last: usize = offsets[3].parse().expect("an offset");
    let cut = TempFile::with_extension(&whole[..last + 40], "warc");
    let out = run(
        &[
            "parse",
            "--format",
            "tsv",
            "--fields",
            "hostname",
            cut.path(),
        ],
        b"",
    );
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 4, "the header and three rows");
    assert!(
        stderr(&out).contains(&format!("WARC record 5 at byte {last} is cut short")),
        "{}",
        stderr(&out)
    );
}
