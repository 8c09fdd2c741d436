//! An input that cannot be read to its end stops every bulk command with a message and a
//! non-zero exit status: never fewer rows with status 0.

mod support;

use support::{TempFile, code, run, stderr};

/// A directory opens as a file but fails on the first read (EISDIR).
fn unreadable_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("rapidurl-cli-unreadable-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create dir");
    dir
}

#[test]
fn a_read_error_after_rows_fails_every_command() {
    let dir = unreadable_dir();
    let dir = dir.to_str().expect("UTF-8 path");
    let good = TempFile::new(&b"https://a.example/\nhttps://b.example/\n".repeat(5000));
    for command in [
        &["parse", "--fields", "hostname"][..],
        &["check"],
        &["stats", "--by", "hostname"],
        &["dedup"],
    ] {
        for threads in ["1", "2"] {
            let mut args = command.to_vec();
            args.extend(["--threads", threads, good.path(), dir]);
            let out = run(&args, b"");
            assert_eq!(code(&out), 3, "{args:?}: {}", stderr(&out));
            let err = stderr(&out);
            assert!(
                err.contains(&format!("rapidurl: {dir}: read error: ")),
                "{args:?}: {err}"
            );
        }
    }
    // The rows of the readable input before it are written, in full.
    let out = run(
        &[
            "parse",
            "--fields",
            "hostname",
            "--no-header",
            good.path(),
            dir,
        ],
        b"",
    );
    assert_eq!(out.stdout.iter().filter(|&&b| b == b'\n').count(), 10000);
}

#[test]
fn parse_help_shows_each_table_error_as_the_tool_prints_it() {
    let help = support::stdout(&run(&["parse", "--help"], b""));
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let cases: [(&[u8], &str); 4] = [
        (b"url,n\nhttps://a.example/,1\nhttps://b.example/\n", "csv"),
        (
            b"url,n\nhttps://a.example/,1\n\"https://b.example/,2\n",
            "csv",
        ),
        (
            b"url,n\nhttps://a.example/,1\nhttps://b.ex\"ample/,2\n",
            "csv",
        ),
        (b"{\"url\":\"https://a.example/\"}\nnope\n", "jsonl"),
    ];
    for (bytes, ext) in cases {
        let file = TempFile::with_extension(bytes, ext);
        let out = run(&["parse", file.path()], b"");
        assert_eq!(code(&out), 3, "{}", stderr(&out));
        let err = stderr(&out);
        // `rapidurl: FILE:LINE: WHAT`: WHAT's kind (up to its first colon), numbers as N.
        let what = err
            .trim_end()
            .strip_prefix(&format!("rapidurl: {}:", file.path()))
            .and_then(|rest| rest.split_once(": "))
            .map(|(line, what)| {
                assert!(line.chars().all(|c| c.is_ascii_digit()), "{err}");
                what
            })
            .unwrap_or_else(|| panic!("not FILE:LINE: WHAT: {err}"));
        let kind: String = what
            .split(':')
            .next()
            .unwrap_or("")
            .split(|c: char| c.is_ascii_digit())
            .collect::<Vec<_>>()
            .join("N");
        let kind = kind.replace("NN", "N");
        assert!(
            help.contains(&format!("`{kind}: …`")),
            "parse --help does not show `{kind}: …` ({err})"
        );
    }
    assert!(help.contains("`rapidurl: FILE:LINE: WHAT`"), "{help}");
}
