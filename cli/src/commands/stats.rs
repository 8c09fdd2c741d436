//! `rapidurl stats`: how often each value of one field occurs, the most frequent first.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Mutex;

use clap::{Args, ValueEnum};

use crate::commands::args::{InputArgs, load_psl, prepare, thread_count};
use crate::input::rows::{Flow, Row, RowSink};
use crate::input::window::Work;
use crate::outcome::Failure;
use crate::output::{Column, push_csv, push_json_string};
use crate::pipeline::progress::Progress;
use crate::pipeline::{Collector, Done, Stop};
use crate::routes;

pub const AFTER_HELP: &str = "\
Reads the input as `rapidurl parse` does (formats, --column, --base) and prints the
number of rows, the number of invalid URLs, then the --top most frequent values of the
--by field among the valid URLs (for `error`, the error names of the invalid ones; for
`input`, the cells of all rows), most frequent first (ties in value order), each with
its count, its share of the rows counted and a bar. An empty value is shown as \"\" and
an absent one as (none). --format csv or jsonl writes the table alone, one
value,count,share row or object per value. Counting keeps one entry per distinct value.

Exit status: 0 on success, 2 on a usage error or an input that cannot be opened or
used, 3 on an input that is not well formed.

Examples:
  rapidurl stats crawl.txt --by hostname
  rapidurl stats log.csv --column url --by error --top 5
  rapidurl stats a.jsonl b.jsonl --by protocol --format csv
  rapidurl stats access.log --routes routes.tsv --by route
  rapidurl stats access.log --routes paths.tsv --routes-base https://shop.example --by route";

/// Arguments of `rapidurl stats`.
#[derive(Args, Debug)]
pub struct StatsArgs {
    #[command(flatten)]
    input: InputArgs,

    /// The field to count: a URL field (hostname, protocol, port …), `error` (the error
    /// names of invalid URLs) or `input`.
    #[arg(long, value_name = "FIELD", value_parser = clap::value_parser!(Column))]
    by: Column,

    /// How many of the most frequent values to show.
    #[arg(long, value_name = "N", default_value_t = 10)]
    top: usize,

    /// A public_suffix_list.dat to use instead of the built-in snapshot of the list.
    #[arg(long, value_name = "FILE")]
    psl: Option<std::path::PathBuf>,

    /// A route table for `--by route`: one URL pattern a line, or `name<TAB>pattern`; a
    /// pattern is absolute (https://example.com/users/:id) or a path (/users/:id: any
    /// protocol, host and port), as `rapidurl parse --help` says.
    #[arg(long, value_name = "FILE")]
    routes: Option<std::path::PathBuf>,

    /// The base URL of the route table's relative patterns: each is read as
    /// `new URLPattern(pattern, URL)`, so /users/:id takes the base's protocol, host and
    /// port.
    #[arg(long, value_name = "URL")]
    routes_base: Option<String>,

    /// Output: a table for people (text), or the values alone as CSV or JSON Lines.
    #[arg(long, value_enum, default_value_t = StatsFormat::Text)]
    format: StatsFormat,
}

/// How `stats` writes its table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatsFormat {
    /// Totals, then one line per value with a bar (for people).
    Text,
    /// `value,count,share` rows with a header (RFC 4180).
    Csv,
    /// One `{"value":…,"count":…,"share":…}` object per line.
    Jsonl,
}

/// How often each value was seen, by one worker: keyed by the value's text, looked up
/// with the borrowed text (a value is copied only the first time the table sees it),
/// with a fast non-cryptographic hash. Values absent from a row (a URL without that
/// field) are counted apart.
#[derive(Default)]
pub(crate) struct Table {
    values: rustc_hash::FxHashMap<Box<str>, u64>,
    absent: u64,
}

impl Table {
    /// Counts one `value`.
    #[inline]
    pub(crate) fn add(&mut self, value: Option<&str>) {
        match value {
            None => self.absent += 1,
            Some(v) => match self.values.get_mut(v) {
                Some(n) => *n += 1,
                None => {
                    self.values.insert(v.into(), 1);
                }
            },
        }
    }

    /// Adds `other`'s counts to this table's.
    pub(crate) fn merge(&mut self, other: Table) {
        self.absent += other.absent;
        if self.values.len() < other.values.len() {
            let smaller = std::mem::replace(&mut self.values, other.values);
            for (value, n) in smaller {
                *self.values.entry(value).or_insert(0) += n;
            }
        } else {
            for (value, n) in other.values {
                *self.values.entry(value).or_insert(0) += n;
            }
        }
    }

    /// The values and their counts (`None`: absent), in no order.
    pub(crate) fn into_values(self) -> Vec<(Option<String>, u64)> {
        let absent = (self.absent > 0).then_some((None, self.absent));
        self.values
            .into_iter()
            .map(|(v, n)| (Some(String::from(v)), n))
            .chain(absent)
            .collect()
    }
}

/// The tables the workers count into, one per thread: a batch's part takes its thread's
/// table when the batch starts and puts it back when its last row is counted
/// ([`RowSink::end`]), so each thread counts into one table for the whole run (fewer
/// tables, fewer cache misses), and the tables are merged once at the end.
struct Tables {
    /// By rayon thread index; the last slot serves threads outside the pool.
    slots: Vec<Mutex<Option<Table>>>,
    /// Tables that found their slot taken (a thread that took a second batch before
    /// the first ended), or came back after their batch ended elsewhere.
    spare: Mutex<Vec<Table>>,
}

/// A lock whose holder panicked is still a table of counts: the run ends with that
/// panic anyway.
fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Tables {
    fn new(threads: usize) -> Tables {
        Tables {
            slots: (0..=threads).map(|_| Mutex::new(None)).collect(),
            spare: Mutex::new(Vec::new()),
        }
    }

    /// The slot of the calling thread.
    fn slot(&self) -> &Mutex<Option<Table>> {
        let last = self.slots.len() - 1;
        &self.slots[rayon::current_thread_index().map_or(last, |i| i.min(last))]
    }

    /// The calling thread's table (a new one if it is out).
    fn take(&self) -> Table {
        locked(self.slot()).take().unwrap_or_default()
    }

    /// Puts `table` back as the calling thread's.
    fn put(&self, table: Table) {
        let mut slot = locked(self.slot());
        if slot.is_none() {
            *slot = Some(table);
        } else {
            drop(slot);
            locked(&self.spare).push(table);
        }
    }

    /// Every table, merged.
    fn merged(self) -> Table {
        let spare = self.spare.into_inner().unwrap_or_else(|e| e.into_inner());
        self.slots
            .into_iter()
            .filter_map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
            .chain(spare)
            .fold(Table::default(), |mut all, t| {
                all.merge(t);
                all
            })
    }
}

/// The rows of one batch, or of everything so far, and why reading stopped.
#[derive(Default)]
struct Counts {
    rows: u64,
    invalid: u64,
    stop: Option<Stop>,
}

/// Runs `rapidurl stats`.
pub fn run(args: StatsArgs) -> Result<ExitCode, Failure> {
    routes::load(
        args.routes.as_deref(),
        args.routes_base.as_deref(),
        args.by.wants_routes(),
    )?;
    let list = load_psl(args.psl.as_deref())?;
    count(args.input, &args.by, args.top, args.format, list)
}

/// Counts the values of `by` over the inputs and writes the table.
fn count(
    input: InputArgs,
    by: &Column,
    top: usize,
    format: StatsFormat,
    suffix_list: Option<rapidurl::psl::SuffixList>,
) -> Result<ExitCode, Failure> {
    let prepared = prepare(&input, true, false)?;
    let plan = prepared.plan.clone();
    let progress = Progress::new(prepared.total);
    let threads = thread_count(input.threads);
    let work = CountWork {
        column: by,
        suffix_list: suffix_list.as_ref(),
        tables: Tables::new(threads),
    };
    let mut sink = Sink {
        total: Counts::default(),
        progress: &progress,
    };
    let result = crate::pipeline::run(prepared.reader, threads, &plan, &work, &mut sink);
    progress.finish();
    result?;
    let values = work.tables.merged().into_values();
    write_table(&sink.total, values, by, top, format)?;
    Ok(ExitCode::SUCCESS)
}

/// `stats`' collector: the counts of every batch, added up.
struct Sink<'p> {
    total: Counts,
    progress: &'p Progress,
}
impl Collector<Counts> for Sink<'_> {
    fn collect(&mut self, done: Done<Counts>, _: &[u8]) -> Result<(), Stop> {
        self.progress.inc(done.bytes);
        let c = done.value;
        self.total.rows += c.rows;
        self.total.invalid += c.invalid;
        c.stop.map_or(Ok(()), Err)
    }
    fn idle(&mut self) -> Result<(), Stop> {
        Ok(())
    }
}

/// Writes the --top of `values` (counted over all rows) as `format` says: the most
/// frequent first, ties in value order (an absent value first), whatever the order
/// `values` comes in.
fn write_table(
    total: &Counts,
    mut values: Vec<(Option<String>, u64)>,
    by: &Column,
    top: usize,
    format: StatsFormat,
) -> io::Result<()> {
    let counted: u64 = values.iter().map(|v| v.1).sum();
    let distinct = values.len();
    let order = |a: &(Option<String>, u64), b: &(Option<String>, u64)| {
        b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0))
    };
    if top < values.len() {
        // The top N first (in no order), then only those sorted.
        values.select_nth_unstable_by(top, order);
        values.truncate(top);
    }
    values.sort_unstable_by(order);
    let share = |n: u64| share_of(n, counted);
    let mut out = BufWriter::new(io::stdout().lock());
    match format {
        StatsFormat::Text => write_text(&mut out, total, by, &values, distinct, counted)?,
        StatsFormat::Csv => {
            writeln!(out, "value,count,share\r")?;
            for (value, n) in &values {
                let mut cell = String::new();
                push_csv(&mut cell, value.as_deref().unwrap_or(""));
                write!(out, "{cell},{n},{:.6}\r\n", share(*n))?;
            }
        }
        StatsFormat::Jsonl => {
            for (value, n) in &values {
                let mut cell = String::new();
                match value {
                    Some(v) => push_json_string(&mut cell, v),
                    None => cell.push_str("null"),
                }
                writeln!(
                    out,
                    "{{\"value\":{cell},\"count\":{n},\"share\":{:.6}}}",
                    share(*n)
                )?;
            }
        }
    }
    out.flush()
}

/// The share of `n` among `counted` values.
fn share_of(n: u64, counted: u64) -> f64 {
    if counted == 0 {
        0.0
    } else {
        n as f64 / counted as f64
    }
}

/// The table for people: totals, then each value with its count, share and bar.
fn write_text(
    out: &mut impl Write,
    total: &Counts,
    by: &Column,
    values: &[(Option<String>, u64)],
    distinct: usize,
    counted: u64,
) -> io::Result<()> {
    let share = |n: u64| share_of(n, counted);
    writeln!(out, "lines: {}", total.rows)?;
    writeln!(out, "invalid: {}", total.invalid)?;
    let what = match by {
        Column::Error => "error names of the invalid URLs".to_owned(),
        Column::Input => "inputs".to_owned(),
        Column::Field(f) => format!("{f} of the valid URLs"),
    };
    writeln!(
        out,
        "top {} of {distinct} distinct {what} ({counted} counted):",
        values.len()
    )?;
    let width = values
        .iter()
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(1);
    let max = values.first().map_or(1, |v| v.1.max(1));
    let color = io::stdout().is_terminal();
    for (value, n) in values {
        let shown = match value {
            None => "(none)".to_owned(),
            Some(v) if v.is_empty() => "\"\"".to_owned(),
            Some(v) => v.clone(),
        };
        let bar = bar(*n, max, BAR_WIDTH);
        let bar = if color {
            format!("\x1b[36m{bar}\x1b[0m")
        } else {
            bar
        };
        writeln!(
            out,
            "  {n:>width$}  {:>6.2}%  {bar:<w$}  {shown}",
            share(*n) * 100.0,
            w = if color { BAR_WIDTH + 9 } else { BAR_WIDTH }
        )?;
    }
    Ok(())
}

/// Characters of the longest bar.
const BAR_WIDTH: usize = 30;

/// A bar of `n` out of `max` in `width` characters, in eighths of a character.
fn bar(n: u64, max: u64, width: usize) -> String {
    const PARTS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let eighths = (n as u128 * width as u128 * 8 / max.max(1) as u128) as usize;
    let mut s = "█".repeat(eighths / 8);
    if !eighths.is_multiple_of(8) {
        s.push(PARTS[eighths % 8]);
    }
    if s.is_empty() && n > 0 {
        s.push('▏');
    }
    s
}

/// What `stats` does with each batch: counts its values.
struct CountWork<'a> {
    column: &'a Column,
    suffix_list: Option<&'a rapidurl::psl::SuffixList>,
    /// The workers' tables.
    tables: Tables,
}

/// A batch being counted by `stats`.
struct CountPart<'w> {
    work: &'w CountWork<'w>,
    c: Counts,
    /// The table its values are counted into, its thread's (from [`CountWork::tables`]);
    /// `None` once put back.
    table: Option<Table>,
}

impl Work for CountWork<'_> {
    type Out = Result<Counts, Stop>;
    type Part<'w>
        = CountPart<'w>
    where
        Self: 'w;

    fn part<'w>(&'w self, _: &'w crate::input::source::Batch) -> CountPart<'w> {
        CountPart {
            work: self,
            c: Counts::default(),
            table: Some(self.tables.take()),
        }
    }

    fn done(&self, mut part: CountPart<'_>, error: Option<String>) -> Result<Counts, Stop> {
        part.c.stop = error.map(Stop::Input);
        if let Some(table) = part.table.take() {
            locked(&self.tables.spare).push(table);
        }
        Ok(part.c)
    }
}

impl RowSink for CountPart<'_> {
    fn end(&mut self) {
        if let Some(table) = self.table.take() {
            self.work.tables.put(table);
        }
    }

    fn row(&mut self, row: &Row<'_>) -> Flow {
        let c = &mut self.c;
        c.rows += 1;
        if row.url.is_err() {
            c.invalid += 1;
        }
        let table = self.table.get_or_insert_with(Table::default);
        match (self.work.column, &row.url) {
            (Column::Input, _) => table.add(Some(row.input)),
            (Column::Error, Err(e)) => table.add(Some(e.name())),
            (Column::Field(f), Ok(url)) => {
                let cx = crate::output::field_context(self.work.suffix_list)
                    .input(row.text)
                    .base(row.base.map(Into::into))
                    .answered(row.route);
                table.add(f.value_with(url, &cx).as_deref());
            }
            _ => {}
        }
        Flow::Go
    }
}

#[cfg(test)]
mod tests {
    use super::bar;

    #[test]
    fn bars() {
        assert_eq!(bar(10, 10, 4), "████");
        assert_eq!(bar(5, 10, 4), "██");
        assert_eq!(bar(1, 16, 4), "▎");
        assert_eq!(bar(1, 1000, 4), "▏");
        assert_eq!(bar(0, 10, 4), "");
    }
}
