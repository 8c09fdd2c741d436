//! The web-platform-tests `urltestdata.json` through the command-line tool: every case's
//! input and base as a TSV line, `rapidurl parse --format jsonl --base-column 2`, and
//! every getter of every non-failure case compared with WPT's expected value; failure
//! cases must come out as error rows.
//!
//! A TSV line cannot carry an input (or base) holding a tab, a line feed or a carriage
//! return: those cases are left out here, counted and printed, and are covered by
//! `tests/wpt.rs` through the library.

use rapidurl_testkit::data as common;

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Map, Value};

const BIN: &str = env!("CARGO_BIN_EXE_rapidurl");

const GETTERS: [&str; 11] = [
    "href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname",
    "search", "hash",
];

/// Whether `s` cannot be carried in a field of a TSV line.
fn not_tsv_safe(s: &str) -> bool {
    s.contains(['\t', '\n', '\r'])
}

#[test]
fn wpt_urltestdata_through_the_cli() {
    let path = common::wpt_file("urltestdata.json");
    let text = std::fs::read_to_string(&path).expect("read urltestdata.json");
    let data: Value = serde_json::from_str(&text).expect("urltestdata.json is JSON");
    let all: Vec<&Map<String, Value>> = data
        .as_array()
        .expect("a JSON array")
        .iter()
        .filter_map(Value::as_object)
        .collect();
    let total = all.len();
    let (cases, left_out): (Vec<&Map<String, Value>>, Vec<_>) = all.into_iter().partition(|case| {
        let input = case["input"].as_str().expect("input is a string");
        let base = case.get("base").and_then(Value::as_str).unwrap_or("");
        !not_tsv_safe(input) && !not_tsv_safe(base)
    });
    println!(
        "urltestdata.json: {} cases, {} through the CLI, {} left out (a tab, LF or CR in the \
         input or base cannot be carried in a TSV line; tests/wpt.rs covers them)",
        total,
        cases.len(),
        left_out.len()
    );
    assert!(cases.len() > 850, "only {} cases", cases.len());
    assert!(left_out.len() <= 25, "{} cases left out", left_out.len());

    let mut tsv = String::new();
    for case in &cases {
        tsv.push_str(case["input"].as_str().unwrap_or(""));
        tsv.push('\t');
        tsv.push_str(case.get("base").and_then(Value::as_str).unwrap_or(""));
        tsv.push('\n');
    }
    let fields = GETTERS.join(",");
    let mut child = Command::new(BIN)
        .args([
            "parse",
            "--format",
            "jsonl",
            "--base-column",
            "2",
            "--fields",
            &fields,
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rapidurl");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(tsv.as_bytes()));
    let output = child.wait_with_output().expect("wait for rapidurl");
    writer.join().expect("writer thread").expect("write stdin");
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");
    let rows: Vec<&str> = stdout.lines().collect();
    assert_eq!(rows.len(), cases.len(), "one row per case");

    let mut mismatches = Vec::new();
    let (mut compared, mut failures) = (0, 0);
    for (case, row) in cases.iter().zip(&rows) {
        let label = format!(
            "input={} base={}",
            case["input"],
            case.get("base").unwrap_or(&Value::Null)
        );
        let row: Map<String, Value> = match serde_json::from_str(row) {
            Ok(Value::Object(row)) => row,
            _ => {
                mismatches.push(format!("{label}: not a JSON object: {row}"));
                continue;
            }
        };
        if case.get("failure").and_then(Value::as_bool) == Some(true) {
            failures += 1;
            let is_error_row = row.len() == 1 && row.get("error").is_some_and(Value::is_string);
            if !is_error_row {
                mismatches.push(format!("{label}: expected an error row, got {row:?}"));
            }
            continue;
        }
        compared += 1;
        for getter in GETTERS {
            let Some(expected) = case.get(getter).and_then(Value::as_str) else {
                continue;
            };
            let got = row.get(getter).and_then(Value::as_str);
            if got != Some(expected) {
                mismatches.push(format!(
                    "{label}: {getter} expected {expected:?}, got {got:?}"
                ));
            }
        }
    }
    println!("{compared} cases compared getter by getter, {failures} failure cases as errors");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    // Every failure case is reported on stderr with its line number.
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), failures, "stderr: {stderr}");
}
