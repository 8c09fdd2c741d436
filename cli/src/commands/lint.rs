//! `rapidurl lint`: every validation error (URL Standard §1.1) of every input line.
//!
//! One line per error, `FILE:LINE:COLUMN: NAME: explanation` (COLUMN counts characters
//! from 1), then the count of each error name on stderr; exit status 1 when any line has
//! one. `--format jsonl` writes one JSON object per error instead.
//!
//! Runs on the engine as `check` does (`pipeline`: read, parse on `--threads` threads,
//! write in order): a line the engine parsed into a URL whose serialization is the line
//! itself and that holds only URL units has no validation error ([`clean`]), and only the
//! other lines are parsed again, reporting, by the worker that holds them.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::Args;
use rapidurl::{UrlRef, parse_with_validation_errors, percent};

use crate::commands::args::{InputArgs, prepare, thread_count};
use crate::input::rows::{Flow, Row, RowSink};
use crate::input::source::{self, InputFormat};
use crate::input::window::Work;
use crate::outcome::{Failure, report};
use crate::output::push_json_string;
use crate::pipeline::progress::Progress;
use crate::pipeline::{self, Collector, Done, Stop};

/// Arguments of `rapidurl lint`.
#[derive(Args, Debug)]
pub struct LintArgs {
    /// Input files, one URL per line; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    files: Vec<String>,

    /// Output format: `text` (FILE:LINE:COLUMN: NAME: explanation) or `jsonl`.
    #[arg(long, value_enum, default_value_t = LintFormat::Text)]
    format: LintFormat,

    /// Worker threads (0 or absent: all cores). Output is the same for any number.
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
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

/// The bytes that a clean line's serialization may not hold as they are: those that are
/// not URL code points (URL Standard §4.3) — controls, space, `"`, `#`, `%`, `<`, `>`,
/// `[`, `\`, `]`, `^`, `` ` ``, `{`, `|`, `}`, DEL and every non-ASCII byte — of which
/// `%` (before two hex digits) and the first `#` are looked at again. 1 for such a byte,
/// 0 for a URL code point.
const NOT_URL_UNIT: [u8; 256] = {
    let mut table = [1; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        let unit = c.is_ascii_alphanumeric()
            || matches!(
                c,
                b'!' | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b'-'
                    | b'.'
                    | b'/'
                    | b':'
                    | b';'
                    | b'='
                    | b'?'
                    | b'@'
                    | b'_'
                    | b'~'
            );
        table[b] = !unit as u8;
        b += 1;
    }
    table
};

/// Whether `line`, which parsed into `url`, certainly has no validation error: its
/// serialization is the line itself (the parser changed nothing: no case to lower, no
/// code point to encode, no dot segment, default port, backslash or whitespace to
/// remove), it has no credentials, a domain host passes strict UTS #46 ToASCII as it is
/// ([`strict_ascii_domain`]), and every byte is a URL code point, a `%` followed by two
/// hex digits, or the `#` that starts the fragment. Such a line gives the state
/// machine no occasion for a validation error; `false` only means "parse it again,
/// reporting" (an IPv6 host's brackets, say, are not URL code points).
#[inline]
pub(crate) fn clean(line: &str, url: &UrlRef<'_>) -> bool {
    let href = url.href();
    // A canonical line's serialization is the line itself, borrowed: no comparison.
    let same = (href.as_ptr() == line.as_ptr() && href.len() == line.len()) || href == line;
    if !same || !url.username().is_empty() || !url.password().is_empty() {
        return false;
    }
    if url.components().host_kind() == rapidurl::HostKind::Domain
        && !strict_ascii_domain(url.hostname())
    {
        return false;
    }
    let bytes = href.as_bytes();
    // Eight bytes at a time, the table's answers or-ed without a branch; a word that holds
    // a byte to look at is looked at again byte by byte.
    let n = bytes.len();
    let flagged = |at: usize| percent::or_of_8(&NOT_URL_UNIT, &bytes[at..at + 8]) != 0;
    let mut i = 0;
    let mut hash = false;
    while i < n {
        if i + 8 <= n {
            if !flagged(i) {
                i += 8;
                continue;
            }
        } else if n >= 8 && !flagged(n - 8) {
            // The last bytes, read as the last eight (some of them looked at already).
            break;
        }
        let b = bytes[i];
        if NOT_URL_UNIT[b as usize] == 0 {
            i += 1;
            continue;
        }
        match b {
            b'%' if bytes.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && bytes.get(i + 2).is_some_and(u8::is_ascii_hexdigit) =>
            {
                i += 3;
            }
            b'#' if !hash => {
                hash = true;
                i += 1;
            }
            _ => return false,
        }
    }
    true
}

/// Whether an ASCII domain (as serialized: lower case) certainly passes the domain to
/// ASCII of a strict parse (UTS #46 with UseSTD3ASCIIRules and VerifyDnsLength), which
/// reports `domain-to-ASCII` otherwise (`a_b.example`, `x..y`, a label of 64 bytes): at
/// most 253 bytes, each label 1 to 63 letters, digits and hyphens, neither beginning nor
/// ending with a hyphen nor holding one at its third and fourth places (so no `xn--`
/// label, which would have to be decoded). Anything else is linted the long way.
#[inline]
fn strict_ascii_domain(host: &str) -> bool {
    // One pass over the bytes, one table load per byte (`str::split` cost more than the
    // rest of the check); the labels are checked at each dot.
    let b = host.as_bytes();
    if b.len() > 253 {
        return false;
    }
    let mut start = 0;
    let mut bad = false;
    for i in 0..=b.len() {
        let class = b.get(i).map_or(DOT, |&c| DOMAIN_CLASS[c as usize]);
        bad |= class == OTHER;
        if class == DOT {
            let n = i - start;
            if n == 0
                || n > 63
                || b[start] == b'-'
                || b[i - 1] == b'-'
                || (n >= 4 && b[start + 2] == b'-' && b[start + 3] == b'-')
            {
                return false;
            }
            start = i + 1;
        }
    }
    !bad
}

/// [`DOMAIN_CLASS`]: a byte a strict ASCII domain may not hold.
const OTHER: u8 = 0;
/// [`DOMAIN_CLASS`]: a lower-case letter, a digit or `-`.
const LDH: u8 = 1;
/// [`DOMAIN_CLASS`]: `.`, which ends a label (as the end of the domain does).
const DOT: u8 = 2;

/// The class of each byte in a domain, for [`strict_ascii_domain`].
const DOMAIN_CLASS: [u8; 256] = {
    let mut table = [OTHER; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' {
            table[c] = LDH;
        }
        c += 1;
    }
    table[b'.' as usize] = DOT;
    table
};

/// Runs `rapidurl lint`.
pub fn run(args: LintArgs) -> Result<ExitCode, Failure> {
    // Every input is read as lines, whatever its name says.
    let input = InputArgs {
        files: args.files,
        input_format: Some(InputFormat::Lines),
        column: None,
        base: None,
        base_column: None,
        threads: args.threads,
        block_bytes: source::DEFAULT_BLOCK_BYTES,
    };
    let prepared = prepare(&input, true, false)?;
    let plan = prepared.plan.clone();
    let progress = Progress::new(prepared.total);
    let work = LintWork {
        names: &plan.names,
        format: args.format,
    };
    let mut sink = LintOut {
        out: io::BufWriter::new(io::stdout().lock()),
        counts: BTreeMap::new(),
        lines_with_errors: 0,
        progress: &progress,
    };
    let result = pipeline::run(
        prepared.reader,
        thread_count(args.threads),
        &plan,
        &work,
        &mut sink,
    );
    progress.finish();
    result?;
    sink.out.flush()?;
    let mut summary = String::new();
    for (name, count) in &sink.counts {
        let _ = writeln!(summary, "{count:>10} {name}");
    }
    let _ = writeln!(
        summary,
        "{} line(s) with validation errors",
        sink.lines_with_errors
    );
    report(&summary);
    Ok(if sink.lines_with_errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// What `lint` does with each batch: the findings of its lines.
struct LintWork<'a> {
    names: &'a [String],
    format: LintFormat,
}

/// A batch's findings, as text in line order, and their counts.
struct Findings {
    text: String,
    counts: BTreeMap<&'static str, u64>,
    lines_with_errors: u64,
    stop: Option<Stop>,
}

/// A batch being linted.
struct LintPart<'w> {
    name: &'w str,
    format: LintFormat,
    found: Findings,
}

impl LintPart<'_> {
    /// Parses `input` again, reporting, and writes its findings (out of line: most lines
    /// are clean).
    #[cold]
    #[inline(never)]
    fn lint(&mut self, line: u64, input: &str) {
        let (_, errors) = parse_with_validation_errors(input);
        if errors.is_empty() {
            return;
        }
        self.found.lines_with_errors += 1;
        describe(
            &mut self.found.text,
            (self.name, line),
            input,
            &errors,
            self.format,
            &mut self.found.counts,
        );
    }
}

impl Work for LintWork<'_> {
    type Out = Result<Findings, Stop>;
    type Part<'w>
        = LintPart<'w>
    where
        Self: 'w;

    fn part<'w>(&'w self, batch: &'w source::Batch) -> LintPart<'w> {
        LintPart {
            name: &self.names[batch.input],
            format: self.format,
            found: Findings {
                text: String::new(),
                counts: BTreeMap::new(),
                lines_with_errors: 0,
                stop: None,
            },
        }
    }

    fn done(&self, mut part: LintPart<'_>, error: Option<String>) -> Result<Findings, Stop> {
        part.found.stop = error.map(Stop::Input);
        Ok(part.found)
    }
}

impl RowSink for LintPart<'_> {
    #[inline(always)]
    fn line_url(
        &mut self,
        line: u64,
        _: usize,
        (input, _): (&str, Option<&rapidurl::Url>),
        url: &UrlRef<'_>,
        _: Option<&rapidurl::field::RouteAnswer<'static>>,
    ) -> Flow {
        if !clean(input, url) {
            self.lint(line, input);
        }
        Flow::Go
    }

    fn row(&mut self, row: &Row<'_>) -> Flow {
        self.lint(row.line, row.input);
        Flow::Go
    }
}

/// Writes each batch's findings in order and adds up their counts.
struct LintOut<'p, W: Write> {
    out: W,
    counts: BTreeMap<&'static str, u64>,
    lines_with_errors: u64,
    progress: &'p Progress,
}

impl<W: Write> Collector<Findings> for LintOut<'_, W> {
    fn collect(&mut self, done: Done<Findings>, _: &[u8]) -> Result<(), Stop> {
        self.progress.inc(done.bytes);
        let found = done.value;
        self.out.write_all(found.text.as_bytes())?;
        for (name, n) in found.counts {
            *self.counts.entry(name).or_default() += n;
        }
        self.lines_with_errors += found.lines_with_errors;
        match found.stop {
            Some(stop) => Err(stop),
            None => Ok(()),
        }
    }

    fn idle(&mut self) -> Result<(), Stop> {
        self.out.flush()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::clean;

    /// A line `clean` passes has no validation error: every line of the corpora and
    /// every WPT input, and lines made to trip each of its conditions.
    #[test]
    fn clean_lines_have_no_validation_errors() {
        let mut lines: Vec<String> = [
            "https://example.org/a?b#c",
            "https://example.org/a?b#c#d",
            "https://example.org/a%zz",
            "https://example.org/a%4",
            "https://example.org/a%41",
            "https://u@example.org/",
            "https://u:p@example.org/",
            "http://[::1]/",
            "http://example.org/a[b]",
            "http://example.org/?a|b^c{d}",
            "sc:a[b]",
            "sc:%zz",
            "sc://h/a|b",
            "file:///C|/x",
            "file:///C:/x",
            "mailto:a@b.example",
            "javascript:alert(1)",
            "http://example.org/#\u{e9}",
            "http://example.org/a\\b",
            "http://a_b.example/",
            "http://./",
            "https://xn--/",
            "http://example.com./",
            "http://-a.example/",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for path in rapidurl_testkit::data::corpus_paths(true) {
            let text = std::fs::read(&path).unwrap();
            let text = String::from_utf8_lossy(&text).into_owned();
            lines.extend(text.lines().map(str::to_owned));
        }
        let wpt =
            std::fs::read_to_string(rapidurl_testkit::data::wpt_file("urltestdata.json")).unwrap();
        let json: serde_json::Value = serde_json::from_str(&wpt).unwrap();
        for case in json.as_array().unwrap() {
            if let Some(input) = case.get("input").and_then(|i| i.as_str()) {
                lines.push(input.to_owned());
            }
        }
        let mut passed = 0;
        for line in &lines {
            let arena = rapidurl::bumpalo::Bump::new();
            let Ok(url) = rapidurl::parse_ref(line, &arena) else {
                continue;
            };
            if clean(line, &url) {
                passed += 1;
                let (_, errors) = rapidurl::parse_with_validation_errors(line);
                assert!(errors.is_empty(), "{line:?}: {errors:?}");
            }
        }
        assert!(passed > 0);
    }
}
