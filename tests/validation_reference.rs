//! Differential test against the URL Standard's reference implementation, the npm package
//! `whatwg-url` (version pinned in tests/reference/package.json), run by Node.js through
//! tests/reference/validation.mjs.
//!
//! For every WPT `urltestdata.json` input (with its base) and every line of the benchmark
//! corpora, our `parse_with_validation_errors` must give exactly the reference's list of
//! validation-error names (order and duplicates included) and the same success or failure,
//! and `is_valid_url_string` the same verdict as its `isValidURLString`.
//!
//! Needs Node.js 20 or newer (`node`, or the path in `RAPIDURL_NODE`) and npm (`npm`, or
//! `RAPIDURL_NPM`): the first test that needs the package installs it with
//! `npm ci --prefix tests/reference`. Without Node.js or npm the test fails and says so: it
//! is never skipped.

use rapidurl_testkit::data as common;

use rapidurl::{Url, is_valid_url_string, parse_with_validation_errors};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// One input and its base, and where it came from.
struct Case {
    source: String,
    input: String,
    base: Option<String>,
}

/// The reference's answer for one case.
struct Reference {
    base_ok: bool,
    ok: bool,
    errors: Vec<String>,
    valid: bool,
}

fn reference_dir() -> PathBuf {
    common::workspace_root().join("tests/reference")
}

/// Installs the pinned reference (`npm ci --prefix tests/reference`) the first time a test
/// of this file needs it; the tests of this binary share one install.
fn ensure_reference_installed(dir: &std::path::Path) {
    static INSTALL: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    let outcome = INSTALL.get_or_init(|| {
        if dir.join("node_modules/whatwg-url/package.json").is_file() {
            return Ok(());
        }
        let npm = std::env::var_os("RAPIDURL_NPM").unwrap_or_else(|| "npm".into());
        let status = Command::new(&npm)
            .args(["ci", "--no-audit", "--no-fund", "--prefix"])
            .arg(dir)
            .stdout(Stdio::null())
            .status()
            .map_err(|e| format!("cannot run {npm:?} (Node.js 20+ and npm are needed): {e}"))?;
        if !status.success() {
            return Err(format!(
                "`npm ci --prefix {}` failed: {status}",
                dir.display()
            ));
        }
        Ok(())
    });
    if let Err(why) = outcome {
        panic!(
            "the reference implementation (whatwg-url, pinned in tests/reference) could not be \
             installed: {why}"
        );
    }
    assert!(
        dir.join("node_modules/whatwg-url/package.json").is_file(),
        "`npm ci --prefix tests/reference` ran but installed no whatwg-url"
    );
}

/// Runs the reference on every case (one Node process for all of them).
fn run_reference(cases: &[Case]) -> Vec<Reference> {
    let dir = reference_dir();
    ensure_reference_installed(&dir);
    let node = std::env::var_os("RAPIDURL_NODE").unwrap_or_else(|| "node".into());
    let mut child = Command::new(&node)
        .arg(dir.join("validation.mjs"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run {node:?} (Node.js 20+ is needed, or set RAPIDURL_NODE): {e}")
        });
    let mut stdin = child.stdin.take().expect("stdin piped");
    let requests: Vec<String> = cases
        .iter()
        .map(|c| json!({"input": c.input, "base": c.base}).to_string())
        .collect();
    let writer = std::thread::spawn(move || {
        for line in requests {
            stdin.write_all(line.as_bytes()).expect("write to node");
            stdin.write_all(b"\n").expect("write to node");
        }
    });
    let stdout = child.stdout.take().expect("stdout piped");
    let answers: Vec<Reference> = BufReader::new(stdout)
        .lines()
        .map(|line| {
            let v: Value = serde_json::from_str(&line.expect("read from node")).expect("JSON");
            Reference {
                base_ok: v["base_ok"].as_bool().expect("base_ok"),
                ok: v["ok"].as_bool().unwrap_or(false),
                errors: v["errors"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|e| e.as_str().expect("name").to_owned())
                            .collect()
                    })
                    .unwrap_or_default(),
                valid: v["valid"].as_bool().unwrap_or(false),
            }
        })
        .collect();
    writer.join().expect("writer thread");
    let status = child.wait().expect("node exits");
    assert!(status.success(), "the reference script failed: {status}");
    assert_eq!(answers.len(), cases.len(), "one answer per case");
    answers
}

fn wpt_cases() -> Vec<Case> {
    let path = common::wpt_file("urltestdata.json");
    let data: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("read urltestdata.json"))
            .expect("urltestdata.json is JSON");
    data.as_array()
        .expect("an array")
        .iter()
        .filter_map(Value::as_object)
        .map(|case| Case {
            source: "urltestdata.json".into(),
            input: case["input"].as_str().expect("input").to_owned(),
            base: case.get("base").and_then(Value::as_str).map(str::to_owned),
        })
        .collect()
}

fn corpus_cases() -> Vec<Case> {
    let dir = common::corpora_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read corpora dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).expect("read corpus");
        // Lines as the tool reads them: split at \n, one trailing \r stripped, invalid
        // UTF-8 decoded lossily (the reference sees the same string).
        for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            if raw.is_empty() {
                continue;
            }
            cases.push(Case {
                source: format!("{name}:{}", i + 1),
                input: String::from_utf8_lossy(raw).into_owned(),
                base: None,
            });
        }
    }
    cases
}

/// The host of a special URL as the parser reads it from `input`: after the scheme and any
/// run of `/` and `\\`, up to the end of the authority, after the last `@`, before the
/// first `:` (percent-decoded; for classifying differences only, so brackets are ignored:
/// an IPv6 address never ends with a dot).
fn raw_host(input: &str) -> Option<String> {
    let cleaned: String = input
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let rest = &cleaned[cleaned.find(':')? + 1..];
    let rest = rest.trim_start_matches(['/', '\\']);
    let authority = &rest[..rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len())];
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = host.split(':').next().unwrap_or(host);
    Some(String::from_utf8_lossy(&rapidurl::percent::decode(host.as_bytes())).into_owned())
}

/// The one documented difference (docs/architecture.md): a domain ending in the root dot
/// (`example.com.`). The reference's strict domain to ASCII (tr46 with VerifyDnsLength)
/// rejects the empty last label, so it reports `domain-to-ASCII` and calls the string
/// invalid; the WPT data (verifydnslength_tests.json: `http://example.com.` succeeds with
/// beStrict) follows the newer Standard, which allows it, and so do we. Explained when the
/// host ends with `.`, passes strict domain to ASCII without that dot, and the reference's
/// list is ours with one `domain-to-ASCII` added.
fn root_dot_explains(case: &Case, ours: &[&str], reference: &Reference) -> bool {
    use rapidurl::host::domain_to_ascii;
    let Some(host) = raw_host(&case.input) else {
        return false;
    };
    // The domain after UTS #46 mapping (so that `。` counts as the dot it maps to).
    let Ok(mapped) = domain_to_ascii(&host, false) else {
        return false;
    };
    let Some(without_dot) = mapped.strip_suffix('.') else {
        return false;
    };
    let Some(at) = reference.errors.iter().position(|e| e == "domain-to-ASCII") else {
        return false;
    };
    let mut theirs = reference.errors.clone();
    theirs.remove(at);
    !without_dot.is_empty()
        && domain_to_ascii(without_dot, true).is_ok()
        && !ours.contains(&"domain-to-ASCII")
        && theirs == ours
}

/// How one case compared.
#[derive(Default)]
struct Outcome {
    /// Same success or failure, and exactly the same list of error names.
    errors_equal: bool,
    /// Same valid-URL-string verdict.
    valid_equal: bool,
    /// The lists differ only as `root_dot_explains` accounts for.
    root_dot: bool,
    /// What differs beyond that (empty when nothing does).
    problems: Vec<String>,
}

/// Compares one case with the reference's answer.
fn compare(case: &Case, reference: &Reference) -> Outcome {
    let base = match &case.base {
        None => None,
        Some(b) => match Url::parse(b) {
            Ok(base) if reference.base_ok => Some(base),
            Err(_) if !reference.base_ok => {
                return Outcome {
                    errors_equal: true,
                    valid_equal: true,
                    ..Outcome::default()
                };
            }
            ours => {
                return Outcome {
                    problems: vec![format!(
                        "base {b:?}: ours parses: {}, reference: {}",
                        ours.is_ok(),
                        reference.base_ok
                    )],
                    ..Outcome::default()
                };
            }
        },
    };
    let (result, errors) = match &base {
        Some(base) => rapidurl::parse_with_validation_errors_with_base(&case.input, base),
        None => parse_with_validation_errors(&case.input),
    };
    let names: Vec<&str> = errors.iter().map(|e| e.name()).collect();
    let valid = match &base {
        Some(base) => rapidurl::is_valid_url_string_with_base(&case.input, base),
        None => is_valid_url_string(&case.input),
    };
    let mut outcome = Outcome {
        errors_equal: result.is_ok() == reference.ok && names == reference.errors,
        valid_equal: valid == reference.valid,
        root_dot: root_dot_explains(case, &names, reference),
        problems: Vec::new(),
    };
    if result.is_ok() != reference.ok {
        outcome.problems.push(format!(
            "parses: ours {}, reference {}",
            result.is_ok(),
            reference.ok
        ));
    }
    if names != reference.errors && !outcome.root_dot {
        outcome.problems.push(format!(
            "errors: ours {names:?}, reference {:?}",
            reference.errors
        ));
    }
    // The root dot makes the reference call a string invalid that we call valid, never
    // the other way round.
    let root_dot_verdict = outcome.root_dot && valid && !reference.valid;
    if !outcome.valid_equal && !root_dot_verdict {
        outcome.problems.push(format!(
            "valid: ours {valid}, reference {}",
            reference.valid
        ));
    }
    if result.is_err() && !errors.last().is_some_and(|e| e.is_failure()) {
        outcome
            .problems
            .push("failed, but the last error is not flagged as the failure".into());
    }
    outcome
}

/// Runs the comparison over `cases`, prints the agreement figures, and fails listing the
/// differences if there are any beyond the documented one.
fn agree(label: &str, cases: Vec<Case>) {
    let answers = run_reference(&cases);
    let (mut same_errors, mut same_valid, mut root_dot) = (0, 0, 0);
    let (mut with_errors, mut valid) = (0, 0);
    let mut differences = Vec::new();
    for (case, reference) in cases.iter().zip(&answers) {
        let outcome = compare(case, reference);
        same_errors += usize::from(outcome.errors_equal);
        same_valid += usize::from(outcome.valid_equal);
        root_dot += usize::from(outcome.root_dot);
        with_errors += usize::from(!reference.errors.is_empty());
        valid += usize::from(reference.valid);
        if !outcome.problems.is_empty() {
            differences.push(format!(
                "{}: {:?} (base {:?}): {}",
                case.source,
                case.input,
                case.base,
                outcome.problems.join("; ")
            ));
        }
    }
    println!(
        "{label}: {} inputs ({with_errors} with validation errors, {valid} valid URL strings \
         per the reference); outcome and error lists equal: {same_errors}; valid-URL-string \
         verdicts equal: {same_valid}; differing by the root dot only (documented): {root_dot}",
        cases.len()
    );
    assert!(
        differences.is_empty(),
        "{} differences from whatwg-url:\n{}",
        differences.len(),
        differences
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Mutations of the WPT inputs and of corpus lines: each gets one to three insertions,
/// deletions or replacements of delimiters, troublesome code points and fragments
/// (`%zz`, `xn--`, `::`, `。`, U+00AD, U+202E, …), from a fixed seed, so that every run
/// checks the same `count` strings.
fn mutated_cases(count: usize) -> Vec<Case> {
    const PIECES: &[&str] = &[
        "/",
        "\\",
        ":",
        "@",
        "?",
        "#",
        "%",
        "[",
        "]",
        ".",
        " ",
        "\t",
        "<",
        "^",
        "|",
        "`",
        "{",
        "\"",
        "'",
        "a",
        "X",
        "0",
        "9",
        "f",
        "-",
        "_",
        "~",
        "!",
        "$",
        "&",
        "(",
        "*",
        "+",
        ",",
        ";",
        "=",
        "ä",
        "é",
        "\u{ad}",
        "\u{200b}",
        "\u{202e}",
        "１",
        "。",
        "\u{fffd}",
        "💩",
        "\u{0}",
        "\u{7f}",
        "%41",
        "%2e",
        "%zz",
        "%C3%A4",
        "xn--",
        "0x",
        "::",
        "[::1]",
        "127.0.0.1",
        "//",
    ];
    let mut seeds: Vec<String> = wpt_cases().into_iter().map(|c| c.input).collect();
    seeds.extend(corpus_cases().into_iter().step_by(97).map(|c| c.input));
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    };
    (0..count)
        .map(|i| {
            let mut chars: Vec<char> = seeds[next(seeds.len())].chars().collect();
            for _ in 0..=next(3) {
                let at = next(chars.len() + 1);
                let piece: Vec<char> = PIECES[next(PIECES.len())].chars().collect();
                match next(3) {
                    0 => drop(chars.splice(at..at, piece)),
                    1 if at < chars.len() => drop(chars.remove(at)),
                    _ => {
                        let end = (at + 1).min(chars.len());
                        drop(chars.splice(at..end, piece));
                    }
                }
            }
            Case {
                source: format!("mutation {i}"),
                input: chars
                    .into_iter()
                    .filter(|&c| c != '\n' && c != '\r')
                    .collect(),
                base: None,
            }
        })
        .collect()
}

#[test]
fn mutated_inputs_agree_with_the_reference() {
    agree("mutations", mutated_cases(20_000));
}

#[test]
fn wpt_inputs_agree_with_the_reference() {
    agree("urltestdata.json", wpt_cases());
}

#[test]
fn corpora_agree_with_the_reference() {
    agree("corpora", corpus_cases());
}
