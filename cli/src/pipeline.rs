//! The three stages of every bulk command: a reader thread cuts the inputs into batches of
//! whole records, a pool of `--threads` workers turns each batch into a result (formatted
//! rows, an Arrow record batch, counts), and the calling thread collects the results in
//! input order. Channels between the stages are bounded, so memory stays bounded by a few
//! batches whatever the input's size, and the three overlap: while one batch is parsed the
//! next is read and the previous one written.
//!
//! The collector is told when no result is waiting ([`Collector::idle`]): that is when the
//! output is flushed, so rows from a slow pipe appear as their lines arrive; it is also
//! flushed at least every [`FLUSH_EVERY`] while results keep coming.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, bounded, unbounded};

use crate::source::{Batch, Data, Reader};

/// The longest the collector lets written rows wait in a buffer.
pub const FLUSH_EVERY: Duration = Duration::from_millis(100);

/// A worker's answer for one batch.
pub struct Done<T> {
    /// Input bytes the batch covered (for the progress bar).
    pub bytes: u64,
    /// What the worker made of the batch.
    pub value: T,
    /// The batch's input buffer, returned for reuse by the reader.
    pub buffer: Option<Vec<u8>>,
}

/// Why a run stops before the end of its input.
#[derive(Debug)]
pub enum Stop {
    /// An input could not be read or is not a well-formed table: the message for stderr
    /// (it names the file, the line or row group, and the column).
    Input(String),
    /// The command chose to stop (e.g. `--on-error fail`), with this exit status.
    Code(u8),
    /// Writing the output failed.
    Output(std::io::Error),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Self {
        Stop::Output(e)
    }
}

/// What the calling thread does with the workers' results, in input order.
pub trait Collector<T> {
    /// Takes the next result, with the input block it was made from (empty when the
    /// batch was not text); `Err` ends the run.
    fn collect(&mut self, done: Done<T>, input: &[u8]) -> Result<(), Stop>;
    /// No result is waiting (or [`FLUSH_EVERY`] has passed): flush what was written.
    fn idle(&mut self) -> Result<(), Stop>;
}

/// Runs `reader` on its own thread, `threads` workers calling `work` on each batch (with a
/// state of their own made by `state`), and `collector` on the calling thread. Returns
/// when the input is exhausted or something stopped the run; a stopped run does not wait
/// for the reader (which may be blocked on a pipe).
pub fn run<T, S, W>(
    reader: Reader,
    threads: usize,
    state: impl Fn() -> S + Send + Sync + 'static,
    work: W,
    collector: &mut dyn Collector<T>,
) -> Result<(), Stop>
where
    T: Send + 'static,
    W: Fn(&mut S, &Batch) -> Result<T, Stop> + Send + Sync + 'static,
{
    let threads = threads.max(1);
    let (batch_tx, batch_rx) = bounded::<Batch>(threads + 1);
    let (done_tx, done_rx) = bounded::<(u64, Result<Done<T>, Stop>)>(threads * 2 + 2);
    // Input buffers go back to the reader once parsed.
    let (free_tx, free_rx) = unbounded::<Vec<u8>>();

    std::thread::Builder::new()
        .name("reader".into())
        .spawn(move || reader.run(&batch_tx, &free_rx))
        .map_err(|e| Stop::Input(format!("cannot start the reader thread: {e}")))?;

    let work = std::sync::Arc::new(work);
    let state = std::sync::Arc::new(state);
    for k in 0..threads {
        let (rx, tx, work, state) = (
            batch_rx.clone(),
            done_tx.clone(),
            work.clone(),
            state.clone(),
        );
        std::thread::Builder::new()
            .name(format!("worker-{k}"))
            .spawn(move || worker(&rx, &tx, &*state, &*work))
            .map_err(|e| Stop::Input(format!("cannot start {threads} threads: {e}")))?;
    }
    drop(done_tx);
    drop(batch_rx);

    let mut pending: BTreeMap<u64, Result<Done<T>, Stop>> = BTreeMap::new();
    let mut next = 0u64;
    let mut last_flush = Instant::now();
    loop {
        let message = match done_rx.try_recv() {
            Ok(m) => Some(m),
            Err(_) => {
                collector.idle()?;
                last_flush = Instant::now();
                match done_rx.recv_timeout(FLUSH_EVERY) {
                    Ok(m) => Some(m),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
        };
        if let Some((seq, result)) = message {
            pending.insert(seq, result);
        }
        while let Some(result) = pending.remove(&next) {
            next += 1;
            let mut done = result?;
            let buffer = done.buffer.take();
            collector.collect(done, buffer.as_deref().unwrap_or_default())?;
            if let Some(buffer) = buffer {
                let _ = free_tx.send(buffer);
            }
        }
        if last_flush.elapsed() >= FLUSH_EVERY {
            collector.idle()?;
            last_flush = Instant::now();
        }
    }
    // Every worker has finished: the results left are in order unless one is missing,
    // which cannot happen as the reader numbers batches without gaps.
    for (_, result) in std::mem::take(&mut pending) {
        let mut done = result?;
        let buffer = done.buffer.take();
        collector.collect(done, buffer.as_deref().unwrap_or_default())?;
    }
    collector.idle()
}

/// One worker: takes batches until the reader is done or the collector went away.
fn worker<T, S, W>(
    rx: &Receiver<Batch>,
    tx: &Sender<(u64, Result<Done<T>, Stop>)>,
    state: &dyn Fn() -> S,
    work: &W,
) where
    W: Fn(&mut S, &Batch) -> Result<T, Stop>,
{
    let mut state = state();
    for mut batch in rx {
        let result = match &batch.data {
            Data::Fatal(msg) => Err(Stop::Input(msg.clone())),
            _ => work(&mut state, &batch).map(|value| Done {
                bytes: batch.bytes,
                value,
                buffer: match &mut batch.data {
                    Data::Text(buf) => Some(std::mem::take(buf)),
                    Data::Lines(block) => Some(std::mem::take(block).into_parts().0),
                    _ => None,
                },
            }),
        };
        if tx.send((batch.seq, result)).is_err() {
            return;
        }
    }
}
