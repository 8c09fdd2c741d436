//! `rapidurl check`: counts the valid and invalid URLs, lists the first invalid rows.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::Args;

use crate::commands::args::{InputArgs, prepare, thread_count};
use crate::input::rows::{self, Flow, Plan, RowError, RowSink};
use crate::input::source;
use crate::input::window::Work;
use crate::outcome::Failure;
use crate::pipeline::progress::Progress;
use crate::pipeline::{self, Collector, Done, Stop};

pub const AFTER_HELP: &str = "\
Prints the number of rows, valid and invalid URLs, and the first 10 invalid rows as
FILE:LINE:COL: ERROR \u{2014} INPUT. Input is read as `rapidurl parse` reads it (see its
help: formats, --column, --base, --base-column). Exit status: 0 when every row is a
valid URL, 1 when any is not, 2 on a usage error or an input that cannot be opened or
used, 3 on an input that is not well formed.

Examples:
  rapidurl check corpora/sample.txt
  cat links.txt | rapidurl check --base https://example.com/
  rapidurl check --column href pages.csv";

/// Arguments of `rapidurl check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    input: InputArgs,
}

/// How many invalid rows `check` lists.
const CHECK_LISTED: usize = 10;

/// What a `check` worker counts in a batch.
struct Checked {
    rows: u64,
    invalid: u64,
    listed: Vec<String>,
    stop: Option<Stop>,
}

impl Checked {
    /// Counts a row without a URL and lists the first few (out of line: such rows are
    /// rare, and the per-row callback stays small enough to be inlined).
    #[cold]
    #[inline(never)]
    fn bad_row(&mut self, name: &str, row: &rows::Row<'_>, err: &RowError) {
        self.invalid += 1;
        if self.listed.len() < CHECK_LISTED {
            self.listed.push(format!(
                "{name}:{}:{}: {err} \u{2014} {}",
                row.line,
                err.column(),
                row.input
            ));
        }
    }
}

/// What `check` does with each batch: counts its rows and lists the first invalid ones.
struct CheckWork<'a> {
    plan: &'a Plan,
}

/// A batch being counted by `check`.
struct CheckPart<'w> {
    name: &'w str,
    c: Checked,
}

impl Work for CheckWork<'_> {
    type Out = Result<Checked, Stop>;
    type Part<'w>
        = CheckPart<'w>
    where
        Self: 'w;

    fn part<'w>(&'w self, batch: &'w source::Batch) -> CheckPart<'w> {
        CheckPart {
            name: &self.plan.names[batch.input],
            c: Checked {
                rows: 0,
                invalid: 0,
                listed: Vec::new(),
                stop: None,
            },
        }
    }

    fn done(&self, mut part: CheckPart<'_>, error: Option<String>) -> Result<Checked, Stop> {
        part.c.stop = error.map(Stop::Input);
        Ok(part.c)
    }
}

impl RowSink for CheckPart<'_> {
    #[inline(always)]
    fn line_url(
        &mut self,
        _: u64,
        _: usize,
        _: (&str, Option<&rapidurl::Url>),
        _: &rapidurl::UrlRef<'_>,
        _: Option<&rapidurl::field::RouteAnswer<'static>>,
    ) -> Flow {
        self.c.rows += 1;
        Flow::Go
    }

    fn row(&mut self, row: &rows::Row<'_>) -> Flow {
        self.c.rows += 1;
        if let Err(err) = &row.url {
            self.c.bad_row(self.name, row, err);
        }
        Flow::Go
    }
}

/// `rapidurl check`.
pub fn run(args: CheckArgs) -> Result<ExitCode, Failure> {
    let prepared = prepare(&args.input, true, false)?;
    let plan = prepared.plan.clone();
    let progress = Progress::new(prepared.total);
    let work = CheckWork { plan: &plan };
    struct Sink<'p> {
        total: Checked,
        progress: &'p Progress,
    }
    impl Collector<Checked> for Sink<'_> {
        fn collect(&mut self, done: Done<Checked>, _: &[u8]) -> Result<(), Stop> {
            self.progress.inc(done.bytes);
            let c = done.value;
            self.total.rows += c.rows;
            self.total.invalid += c.invalid;
            let room = CHECK_LISTED - self.total.listed.len();
            self.total.listed.extend(c.listed.into_iter().take(room));
            match c.stop {
                Some(stop) => Err(stop),
                None => Ok(()),
            }
        }
        fn idle(&mut self) -> Result<(), Stop> {
            Ok(())
        }
    }
    let mut sink = Sink {
        total: Checked {
            rows: 0,
            invalid: 0,
            listed: Vec::new(),
            stop: None,
        },
        progress: &progress,
    };
    let threads = thread_count(args.input.threads);
    let result = pipeline::run(prepared.reader, threads, &plan, &work, &mut sink);
    progress.finish();
    result?;
    let Checked {
        rows,
        invalid,
        listed,
        ..
    } = sink.total;
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(out, "lines: {rows}")?;
    writeln!(out, "valid: {}", rows - invalid)?;
    writeln!(out, "invalid: {invalid}")?;
    if !listed.is_empty() {
        let more = if invalid > listed.len() as u64 {
            format!(" (first {})", listed.len())
        } else {
            String::new()
        };
        writeln!(out, "invalid lines{more}:")?;
        for entry in &listed {
            writeln!(out, "  {entry}")?;
        }
    }
    out.flush()?;
    Ok(if invalid == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
