//! The tool as a source and a sink of the library's bulk engine
//! (`rapidurl::batch::engine`): a window of batches read from the inputs is the source,
//! one piece per batch (plain lines are the engine's own [`Lines`]; other batches are
//! decoded first into [`Records`]); the sink turns each parsed row into the tool's
//! [`Row`] (line number, input shown, passed-through cells) and hands it to the command's
//! part for that batch ([`Work`]).

use std::ops::Range;

use rapidurl::batch::engine::{self, Input, Lines, Piece, Source};
use rapidurl::{ErrorKind, ParseError, Url, UrlRef};

use super::records::Records;
use super::rows::{Flow, Plan, Row, RowError, RowSink};
use super::source::{Batch, Data};
use super::table::Cell;

/// What a command makes of each batch: a part per batch that takes the batch's rows in
/// order (a [`RowSink`]), then becomes the batch's result.
pub trait Work: Sync {
    /// A batch's result, handed to the command's collector in input order.
    type Out: Send;
    /// The state that takes one batch's rows.
    type Part<'w>: RowSink + Send
    where
        Self: 'w;
    /// A new part for `batch`.
    fn part<'w>(&'w self, batch: &'w Batch) -> Self::Part<'w>;
    /// The batch's result; `error` says why reading stopped inside the batch (after the
    /// rows the part was given).
    fn done(&self, part: Self::Part<'_>, error: Option<String>) -> Self::Out;
}

/// A window of batches as the engine's source: piece `i` is batch `i`.
pub struct Window<'w> {
    /// How records become rows.
    pub plan: &'w Plan,
    /// The batches, in input order.
    pub batches: &'w [Batch],
    /// Each batch's decoded records (`None`: plain lines, cut by the engine).
    pub records: &'w [Option<Records<'w>>],
}

/// The last base cell parsed, and what it gave.
type LastBase = Option<(String, Result<Url, ParseError>)>;

/// The base for a row whose base cell is `cell` (an empty or absent cell means `--base`),
/// parsed once for a run of rows that share it.
fn base_for<'s>(
    last: &'s mut LastBase,
    cell: Option<&str>,
    plan: &'s Plan,
) -> Option<Result<&'s Url, ParseError>> {
    match cell.filter(|c| !c.is_empty()) {
        None => plan.base_url.as_ref().map(Ok),
        Some(text) => {
            if last.as_ref().is_none_or(|(s, _)| s != text) {
                let parsed = Url::parse(text).map_err(|_| ParseError::from(ErrorKind::InvalidBase));
                *last = Some((text.to_owned(), parsed));
            }
            last.as_ref().map(|(_, r)| r.as_ref().map_err(Clone::clone))
        }
    }
}

impl<'w> Source<'w> for Window<'w> {
    fn size(&self) -> usize {
        self.batches.iter().map(|b| b.bytes as usize).sum()
    }

    fn pieces(&self, _target: usize) -> Vec<Range<usize>> {
        (0..self.batches.len()).map(|i| i..i + 1).collect()
    }

    fn describe(&self, number: usize, piece: &Range<usize>) -> Piece {
        let bytes = self.batches[piece.start].bytes as usize;
        Piece {
            number,
            first_row: None,
            rows: bytes / 32 + 1,
            bytes,
            input: None,
        }
    }

    fn rows<F: FnMut(Input<'w, '_>)>(&self, piece: Range<usize>, mut row: F) {
        let i = piece.start;
        let Some(records) = &self.records[i] else {
            if let Data::Text(bytes) = &self.batches[i].data {
                Lines::with_base(bytes, self.plan.base_url.as_ref()).rows(0..bytes.len(), row);
            }
            return;
        };
        let mut last = None;
        for rec in records.rows() {
            let Some(text) = records.url(rec) else {
                // No URL: the sink reports the row as missing-URL.
                row(Input::transient(""));
                continue;
            };
            match base_for(&mut last, records.base(rec), self.plan) {
                None => row(Input::borrowed(text)),
                Some(Ok(base)) => row(Input::borrowed(text).with_base(Some(base))),
                Some(Err(err)) => row(Input::failed(text, err)),
            }
        }
    }
}

/// A batch's part, as the engine's sink holds it.
pub struct Slot<'w, P> {
    /// The command's part.
    pub part: P,
    batch: usize,
    first_line: u64,
    /// The part said stop: later rows of the batch are not handed on.
    stopped: bool,
    /// The passed-through cells of the current row, reused.
    cells: Vec<Cell<'w>>,
}

/// The engine's sink: each row to its batch's part, as the tool's [`Row`].
pub struct Rows<'w, W: Work> {
    /// The command.
    pub work: &'w W,
    /// The window being parsed.
    pub window: &'w Window<'w>,
}

impl<'w, W: Work> engine::Sink<'w> for Rows<'w, W> {
    type Part = Slot<'w, W::Part<'w>>;

    fn part(&self, piece: &Piece) -> Self::Part {
        let batch = &self.window.batches[piece.number];
        Slot {
            part: self.work.part(batch),
            batch: piece.number,
            first_line: batch.first_line,
            stopped: false,
            cells: Vec::new(),
        }
    }

    #[inline(always)]
    fn take_unparsed(&self, slot: &mut Self::Part, input: &Input<'w, '_>) -> bool {
        // A stopped part takes the rest of its rows unparsed: they are dropped.
        slot.stopped || (self.window.records[slot.batch].is_none() && slot.part.take_line(input))
    }

    fn end(&self, slot: &mut Self::Part) {
        slot.part.end();
    }

    #[inline]
    fn row(&self, slot: &mut Self::Part, row: engine::Row<'w, '_>) {
        if slot.stopped {
            return;
        }
        let index = row.index();
        let flow = match &self.window.records[slot.batch] {
            None => {
                let line = slot.first_line + index as u64;
                match row.url_ref() {
                    Ok(url) => match self.window.plan.look_up(url) {
                        Ok(route) => slot.part.line_url(
                            line,
                            index,
                            (row.input(), row.base()),
                            url,
                            route.as_ref(),
                        ),
                        Err(e) => bad_line(&mut slot.part, line, index, row.input(), e),
                    },
                    Err(e) => bad_line(
                        &mut slot.part,
                        line,
                        index,
                        row.input(),
                        RowError::Parse(*e),
                    ),
                }
            }
            Some(records) => record_row(
                slot,
                self.window.plan,
                records,
                index,
                row.url(),
                (row.input(), row.base()),
            ),
        };
        if flow == Flow::Stop {
            slot.stopped = true;
        }
    }
}

/// A line whose URL did not parse, or whose route lookup ran out of steps (out of the
/// line loop: such lines are rare).
#[cold]
#[inline(never)]
fn bad_line<S: RowSink>(sink: &mut S, line: u64, index: usize, input: &str, e: RowError) -> Flow {
    sink.row(&Row {
        line,
        index,
        input,
        text: input,
        base: None,
        url: Err(e),
        cells: &[],
        route: None,
    })
}

/// A decoded record's row.
fn record_row<'w, P: RowSink>(
    slot: &mut Slot<'w, P>,
    plan: &Plan,
    records: &'w Records<'w>,
    index: usize,
    url: Result<UrlRef<'_>, ParseError>,
    (text, base): (&str, Option<&Url>),
) -> Flow {
    let Some(rec) = records.rows().get(index) else {
        return Flow::Stop;
    };
    records.cells(rec, &mut slot.cells);
    let (url, route) = match records.url(rec).map(|_| url.map_err(RowError::Parse)) {
        None => match records.fault(index) {
            Some(fault) => (Err(RowError::Unreadable(Box::new(fault.clone()))), None),
            None => (Err(RowError::Missing), None),
        },
        Some(Err(e)) => (Err(e), None),
        Some(Ok(u)) => match plan.look_up(&u) {
            Ok(route) => (Ok(u), route),
            Err(e) => (Err(e), None),
        },
    };
    slot.part.row(&Row {
        line: rec.line,
        index,
        input: records.shown(rec),
        text,
        base,
        url,
        cells: &slot.cells,
        route: route.as_ref(),
    })
}

/// A batch's records, decoded; `None` for plain lines (the engine cuts them).
fn records_of<'b>(plan: &'b Plan, batch: &'b Batch) -> Option<Records<'b>> {
    (!super::records::plain_lines(plan, batch)).then(|| super::records::decode(plan, batch))
}

/// Parses the window's batches on the current rayon pool (decoding the records of those
/// that are not plain lines first) and returns each batch's result, in order: the
/// engine runs the window, then each part becomes its result ([`Work::done`]), both
/// in parallel; on the calling thread alone when `here` (no thread could be started: no
/// rayon pool is touched), one batch after the other, with the same results.
pub fn parse_window<W: Work>(plan: &Plan, batches: &[Batch], work: &W, here: bool) -> Vec<W::Out> {
    use rayon::prelude::*;
    let records: Vec<Option<Records<'_>>> = match here {
        true => batches.iter().map(|b| records_of(plan, b)).collect(),
        false => batches.par_iter().map(|b| records_of(plan, b)).collect(),
    };
    let window = Window {
        plan,
        batches,
        records: &records,
    };
    let sink = Rows {
        work,
        window: &window,
    };
    // Each part made into its result (e.g. rows copied out, an Arrow record batch
    // finished), in order.
    let done = |(slot, rec): (Slot<'_, W::Part<'_>>, &Option<Records<'_>>)| {
        let error = rec.as_ref().and_then(|r| r.error.clone());
        work.done(slot.part, error)
    };
    match here {
        true => engine::run_here(&window, &sink)
            .into_iter()
            .zip(records.iter())
            .map(done)
            .collect(),
        false => engine::run(&window, &sink)
            .into_par_iter()
            .zip(records.par_iter())
            .map(done)
            .collect(),
    }
}
