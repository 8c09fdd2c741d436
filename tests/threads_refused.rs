//! The bulk engine where no thread can be started (`scripts/nothreads.c` preloaded, as
//! a process or `pids` cgroup limit refuses them): rayon's global pool cannot start, and
//! every `rapidurl::batch` function parses on the calling thread, each row exactly what
//! parsing its input alone gives. The test runs itself again under the shim
//! (`testkit::threads`); under `scripts/test-aarch64.sh`, where the shim is preloaded
//! already, it runs its checks directly.

use rapidurl::batch::engine::{self, Piece, Row, Sink};
use rapidurl::{Url, batch};

/// A row's result as text: the href, or the error's name.
fn text(result: Result<&str, &str>) -> String {
    match result {
        Ok(href) => format!("ok {href}"),
        Err(name) => format!("error {name}"),
    }
}

/// Each input parsed alone (against `base`), as text.
fn alone(inputs: &[&str], base: Option<&Url>) -> Vec<String> {
    inputs
        .iter()
        .map(|s| {
            let parsed = match base {
                Some(b) => Url::parse_with_base(s, b),
                None => Url::parse(s),
            };
            match parsed {
                Ok(u) => text(Ok(u.href())),
                Err(e) => text(Err(e.name())),
            }
        })
        .collect()
}

/// A column's rows as text.
fn column(c: &batch::UrlColumn<'_>) -> Vec<String> {
    c.iter()
        .map(|r| match r {
            Ok(u) => text(Ok(u.href())),
            Err(e) => text(Err(e.name())),
        })
        .collect()
}

/// Every row's href or error name, in order, through a sink of one's own.
struct Texts;

impl<'a> Sink<'a> for Texts {
    type Part = Vec<String>;
    fn part(&self, _: &Piece) -> Vec<String> {
        Vec::new()
    }
    fn row(&self, part: &mut Vec<String>, row: Row<'a, '_>) {
        part.push(match row.url() {
            Ok(u) => text(Ok(u.href())),
            Err(e) => text(Err(e.name())),
        });
    }
}

/// The inputs: the sample corpus, with invalid, relative and non-ASCII lines among them,
/// repeated past several pieces (a piece is at least 64 KiB).
fn inputs() -> String {
    let sample = std::fs::read_to_string(
        rapidurl_testkit::data::workspace_root().join("corpora/sample.txt"),
    )
    .expect("corpora/sample.txt");
    let extra = "nope\n../up?q\nhttps://b\u{fc}cher.example/\u{e9}\nhttp://[::1]:80/a/../b\n\n";
    let mut text = String::new();
    while text.len() < 1 << 20 {
        text.push_str(&sample);
        text.push_str(extra);
    }
    text
}

#[test]
fn every_batch_function_parses_on_the_calling_thread() {
    if rapidurl_testkit::threads::rerun_without_threads(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")),
        "every_batch_function_parses_on_the_calling_thread",
    ) {
        return;
    }
    // No pool can run: rayon's global pool could not start its threads.
    assert_eq!(engine::threads(), 1);

    let input = inputs();
    let lines: Vec<&str> = input.lines().collect();
    assert!(lines.len() > 10_000, "{} lines", lines.len());
    let base = Url::parse("https://example.com/a/b").expect("base");
    let expect = alone(&lines, None);
    let expect_based = alone(&lines, Some(&base));

    assert_eq!(column(&batch::parse_lines(input.as_bytes())), expect);
    assert_eq!(
        column(&batch::parse_lines_with_base(input.as_bytes(), Some(&base))),
        expect_based
    );
    assert_eq!(column(&batch::parse_column(&lines, None)), expect);
    assert_eq!(
        column(&batch::parse_column(&lines, Some(&base))),
        expect_based
    );
    let pairs: Vec<(&str, Option<&str>)> = lines
        .iter()
        .map(|&l| (l, Some("https://example.com/a/b")))
        .collect();
    assert_eq!(column(&batch::parse_pairs(&pairs)), expect_based);
    let all: Vec<String> = batch::parse_all(&lines)
        .iter()
        .map(|r| match r {
            Ok(u) => text(Ok(u.href())),
            Err(e) => text(Err(e.name())),
        })
        .collect();
    assert_eq!(all, expect);
    assert_eq!(
        column(&batch::ColumnBuffers::new().parse_lines(input.as_bytes())),
        expect
    );

    // The engine with a sink of one's own: `run` and `run_here` alike, several pieces.
    let source = engine::Strs::new(&lines, None);
    let parts = engine::run(&source, &Texts);
    assert!(parts.len() > 1, "{} pieces", parts.len());
    assert_eq!(parts.concat(), expect);
    assert_eq!(engine::run_here(&source, &Texts).concat(), expect);
    // A stream, a window at a time.
    let mut streamed = Vec::new();
    engine::run_lines_stream(input.as_bytes(), 64 * 1024, &Texts, |part| {
        streamed.extend(part);
        Ok::<(), std::io::Error>(())
    })
    .expect("stream");
    assert_eq!(streamed, expect);
}
