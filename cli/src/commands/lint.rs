//! `rapidurl lint`: every validation error (URL Standard §1.1) of every input line.
//!
//! One line per error, `FILE:LINE:COLUMN: NAME: explanation` (COLUMN counts characters
//! from 1), then the count of each error name on stderr; exit status 1 when any line has
//! one. `--format jsonl` writes one JSON object per error instead.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::ExitCode;

use clap::Args;
use rapidurl::parse_with_validation_errors;

use crate::input::input_paths;
use crate::outcome::{Failure, report};
use crate::output::push_json_string;

/// Arguments of `rapidurl lint`.
#[derive(Args, Debug)]
pub struct LintArgs {
    /// Input files, one URL per line; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Output format: `text` (FILE:LINE:COLUMN: NAME: explanation) or `jsonl`.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    format: LintFormat,
}

/// Writes the findings of `errors` (of line `place.1` of `place.0`, whose text is
/// `line`) into `text`, and counts them by name.
fn describe(
    text: &mut String,
    (name, line_no): (&str, u64),
    line: &str,
    errors: &[rapidurl::ValidationError],
    format: LintFormat,
    counts: &mut BTreeMap<&'static str, u64>,
) {
    for e in errors {
        *counts.entry(e.name()).or_default() += 1;
        // Characters before the offset (which is on a character boundary; counted
        // without slicing, so that no offset can make this panic).
        let column = line
            .char_indices()
            .take_while(|&(i, _)| i < e.offset())
            .count()
            + 1;
        match format {
            LintFormat::Text => {
                let _ = writeln!(
                    text,
                    "{name}:{line_no}:{column}: {}: {}",
                    e.name(),
                    e.description()
                );
            }
            LintFormat::Jsonl => {
                text.push_str("{\"file\":");
                push_json_string(text, name);
                let _ = write!(
                    text,
                    ",\"line\":{line_no},\"column\":{column},\"byte\":{},\"name\":\"{}\",\
                     \"failure\":{},\"explanation\":",
                    e.offset(),
                    e.name(),
                    e.is_failure()
                );
                push_json_string(text, e.description());
                text.push_str("}\n");
            }
        }
    }
}

/// How `lint` writes its findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LintFormat {
    /// `FILE:LINE:COLUMN: NAME: explanation`, for people and editors.
    Text,
    /// One JSON object per error: file, line, column, byte, name, failure, explanation.
    Jsonl,
}

/// Runs `rapidurl lint`.
pub fn run(args: LintArgs) -> Result<ExitCode, Failure> {
    lint(&input_paths(&args.files), args.format)
}

/// Lints every line of `paths` (standard input for none or `-`).
fn lint(paths: &[String], format: LintFormat) -> Result<ExitCode, Failure> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut counts: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut lines_with_errors = 0u64;
    for path in paths {
        let (name, reader): (&str, Box<dyn Read>) = if path == "-" {
            ("<stdin>", Box::new(io::stdin().lock()))
        } else {
            let file = File::open(path)
                .map_err(|e| Failure::Message(format!("cannot open {path}: {e}")))?;
            (path.as_str(), Box::new(file))
        };
        let mut reader = BufReader::with_capacity(256 * 1024, reader);
        let mut raw = Vec::new();
        let mut line_no = 0u64;
        let mut text = String::new();
        loop {
            raw.clear();
            let read = reader
                .read_until(b'\n', &mut raw)
                .map_err(|e| Failure::Message(format!("cannot read {name}: {e}")))?;
            if read == 0 {
                break;
            }
            line_no += 1;
            let bytes = raw.strip_suffix(b"\n").unwrap_or(&raw);
            let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
            let line = String::from_utf8_lossy(bytes);
            let (_, errors) = parse_with_validation_errors(&line);
            if errors.is_empty() {
                continue;
            }
            lines_with_errors += 1;
            text.clear();
            describe(
                &mut text,
                (name, line_no),
                &line,
                &errors,
                format,
                &mut counts,
            );
            out.write_all(text.as_bytes())?;
        }
    }
    out.flush()?;
    let mut summary = String::new();
    for (name, count) in &counts {
        let _ = writeln!(summary, "{count:>10} {name}");
    }
    let _ = writeln!(
        summary,
        "{lines_with_errors} line(s) with validation errors"
    );
    report(&summary);
    Ok(if lines_with_errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
