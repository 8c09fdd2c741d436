//! Every bulk command's run, in three overlapping stages: the calling thread reads the
//! inputs a window of batches at a time ([`crate::input::source`]); the library's engine parses a window
//! on a pool of `--threads` threads ([`crate::input::window`]), as one job on the pool; and,
//! while that job runs, the calling thread hands the results of the window before to
//! the command's collector, in input order, then reads the next window. Memory stays
//! bounded by three windows (one read, one parsed, one written) whatever the input's
//! size: a window is two batches per thread, and a text batch is a 1 MiB block of whole
//! lines, or one longer line alone, so a run holds a few MiB per thread, or a few times
//! its longest line (docs/robustness.md has the measured figures).
//!
//! A window is parsed as soon as it holds two batches per thread, or when the input has
//! nothing more for now (a slow pipe), so that rows from a pipe are written as their
//! lines arrive; the collector is told after each window ([`Collector::idle`]), which is
//! when the output is flushed.
//!
//! Where no thread can be started ([`crate::threads`]), the run has no pool
//! ([`Workers::Here`]): the calling thread reads a window, parses it, then collects it,
//! the same windows in the same order, so the output is the same.

pub mod progress;

use std::sync::Arc;

use crossbeam_channel::{Receiver, bounded, unbounded};

use crate::input::rows::Plan;
use crate::input::source::{Batch, Data, Ended, Reader};
use crate::input::window::{Work, parse_window};

/// A worker's answer for one batch.
pub struct Done<T> {
    /// Input bytes the batch covered (for the progress bar).
    pub bytes: u64,
    /// What the worker made of the batch.
    pub value: T,
}

/// Why a run stops before the end of its input.
#[derive(Debug)]
pub enum Stop {
    /// An input could not be read or is not a well-formed table: the message for stderr
    /// (it names the file, the line or row group, and the column).
    Input(String),
    /// The command chose to stop (e.g. `--on-error fail`), with this exit status.
    Code(u8),
    /// An input's compressed stream is cut short or damaged: the message (it names the
    /// file and the byte); exit status 2.
    Damaged(String),
    /// Writing the output failed.
    Output(std::io::Error),
}

impl From<std::io::Error> for Stop {
    fn from(e: std::io::Error) -> Self {
        Stop::Output(e)
    }
}

/// What the calling thread does with the batches' results, in input order.
pub trait Collector<T> {
    /// Takes the next result, with the input block it was made from (empty when the
    /// batch was not text); `Err` ends the run.
    fn collect(&mut self, done: Done<T>, input: &[u8]) -> Result<(), Stop>;
    /// A window is done: flush what was written.
    fn idle(&mut self) -> Result<(), Stop>;
    /// The input has nothing more for now (a pipe waiting for its writer) or has ended,
    /// and every window read so far is collected: finish what is still in progress (e.g.
    /// row groups being encoded). By default, nothing.
    fn waiting(&mut self) -> Result<(), Stop> {
        Ok(())
    }
}

/// Batches per thread in a window.
const BATCHES_PER_THREAD: usize = 2;

/// Reads every batch of `reader`, parses them with `work` on `threads` threads, and hands
/// the results to `collector` in input order. Returns when the input is exhausted or
/// something stopped the run (an input that cannot be read is an error, never an early
/// end; a worker that panics ends the run with that panic).
pub fn run<T: Send, W: Work<Out = Result<T, Stop>>>(
    reader: Reader,
    threads: usize,
    plan: &Plan,
    work: &W,
    collector: &mut dyn Collector<T>,
) -> Result<(), Stop> {
    run_on(&workers(threads), reader, plan, work, collector)
}

/// Where a run parses.
pub enum Workers {
    /// A pool of `--threads` threads, while the calling thread reads and writes.
    Pool(Arc<rayon::ThreadPool>),
    /// The calling thread alone, which reads a window, parses it, then writes it: no
    /// thread could be started ([`crate::threads`]).
    Here,
}

impl Workers {
    /// The pool, if the run has one (the Parquet writer encodes on it).
    pub fn pool(&self) -> Option<Arc<rayon::ThreadPool>> {
        match self {
            Workers::Pool(pool) => Some(pool.clone()),
            Workers::Here => None,
        }
    }
}

/// A pool of `threads` worker threads for a run; the calling thread alone when a thread
/// cannot be started (now or earlier in the run), which the run says once on stderr.
pub fn workers(threads: usize) -> Workers {
    if crate::threads::refused() {
        return Workers::Here;
    }
    let threads = threads.max(1);
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|k| format!("worker-{k}"))
        .build()
    {
        Ok(pool) => Workers::Pool(Arc::new(pool)),
        Err(e) => {
            crate::threads::refuse(&e);
            Workers::Here
        }
    }
}

/// [`run`] on `workers` (whose pool, if any, the collector may also hand work to, e.g.
/// the Parquet writer's encoding).
pub fn run_on<T: Send, W: Work<Out = Result<T, Stop>>>(
    workers: &Workers,
    reader: Reader,
    plan: &Plan,
    work: &W,
    collector: &mut dyn Collector<T>,
) -> Result<(), Stop> {
    let (result, ended) = match workers {
        // The calling thread is not one of the pool's: inside the scope it reads and
        // collects while a window is parsed by a job on the pool.
        Workers::Pool(pool) => pool.in_place_scope(|scope| {
            let start = |window: Vec<Batch>| {
                // One answer per window; a job that panics drops its sender, so the
                // driver stops waiting (and the scope carries the panic on).
                let (tx, rx) = bounded(1);
                scope.spawn(move |_| {
                    let outs = parse_window(plan, &window, work, false);
                    let _ = tx.send((window, outs));
                });
                rx
            };
            drive(reader, pool.current_num_threads(), collector, start)
        }),
        // The window is parsed as soon as it is read, on this thread, and its answer is
        // there at once: the same windows, in the same order, so the same output.
        Workers::Here => drive(reader, 1, collector, |window: Vec<Batch>| {
            let (tx, rx) = bounded(1);
            let outs = parse_window(plan, &window, work, true);
            let _ = tx.send((window, outs));
            rx
        }),
    };
    match result {
        // A damaged compressed stream stops the run as the reader's fatal batch did,
        // with its own exit status.
        Err(Stop::Input(msg)) if ended == Ended::Damaged => Err(Stop::Damaged(msg)),
        other => other,
    }
}

/// Reads `reader`'s batches a window of two per thread at a time (`threads` of them),
/// starts parsing each window with `start`, and collects the windows in order.
fn drive<T: Send>(
    reader: Reader,
    threads: usize,
    collector: &mut dyn Collector<T>,
    start: impl FnMut(Vec<Batch>) -> Receiver<Parsed<T>>,
) -> (Result<(), Stop>, Ended) {
    let threads = threads.max(1);
    // Input buffers go back to the reader once their rows are written.
    let (free_tx, free_rx) = unbounded::<Vec<u8>>();
    let mut result = Ok(());
    let mut driver = Driver {
        collector,
        free: free_tx,
        parsing: None,
        start,
    };
    let mut window: Vec<Batch> = Vec::new();
    let ended = reader.run(
        &mut |batch: Batch, idle: bool| {
            // A signal taken while no thread could be started is acted on here, between
            // batches (`output::file`); with the signal thread, this finds none.
            crate::output::file::act_on_signal();
            let last = matches!(batch.data, Data::Fatal(_));
            window.push(batch);
            if last || idle || window.len() >= threads * BATCHES_PER_THREAD {
                result = driver.flush(std::mem::take(&mut window), idle || last);
            }
            result.is_ok() && !last
        },
        &free_rx,
    );
    if result.is_ok() {
        result = driver.flush(window, true);
    }
    (result, ended)
}

/// The results of a window, parsed and not yet collected.
type Parsed<T> = (Vec<Batch>, Vec<Result<T, Stop>>);

/// Keeps one window parsing on the pool while the calling thread reads the next and
/// collects the one before.
struct Driver<'a, T, S> {
    collector: &'a mut dyn Collector<T>,
    free: crossbeam_channel::Sender<Vec<u8>>,
    /// Where the window being parsed will be answered.
    parsing: Option<Receiver<Parsed<T>>>,
    /// Starts parsing a window on the pool.
    start: S,
}

impl<T: Send, S: FnMut(Vec<Batch>) -> Receiver<Parsed<T>>> Driver<'_, T, S> {
    /// Waits for the window being parsed, starts parsing `window`, then collects the
    /// window before while it is parsed; `now`: waits for `window` and collects it too
    /// (the input has nothing more for now, or ends).
    fn flush(&mut self, window: Vec<Batch>, now: bool) -> Result<(), Stop> {
        let before = self.wait()?;
        if !window.is_empty() {
            self.parsing = Some((self.start)(window));
        }
        if let Some(parsed) = before {
            self.collect(parsed)?;
        }
        if now {
            if let Some(parsed) = self.wait()? {
                self.collect(parsed)?;
            }
            self.collector.waiting()?;
        }
        Ok(())
    }

    /// The window being parsed, once it is.
    fn wait(&mut self) -> Result<Option<Parsed<T>>, Stop> {
        match self.parsing.take() {
            None => Ok(None),
            Some(rx) => rx
                .recv()
                .map(Some)
                .map_err(|_| Stop::Input("a worker thread died".to_owned())),
        }
    }

    /// Hands a window's results to the collector in order, then says it is done.
    fn collect(&mut self, (window, outs): Parsed<T>) -> Result<(), Stop> {
        if window.is_empty() {
            return Ok(());
        }
        for (batch, value) in window.into_iter().zip(outs) {
            let input = match &batch.data {
                Data::Text(bytes) => bytes.as_slice(),
                _ => &[],
            };
            let done = Done {
                bytes: batch.bytes,
                value: value?,
            };
            self.collector.collect(done, input)?;
            if let Data::Text(buffer) = batch.data {
                let _ = self.free.send(buffer);
            }
        }
        self.collector.idle()
    }
}

#[cfg(test)]
mod tests {
    use super::{Collector, Done, Stop, run};
    use crate::input::rows::{Flow, Plan, Row, RowSink};
    use crate::input::source::{Batch, Input, InputFormat, Reader};
    use crate::input::window::Work;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// A command whose worker dies (panics) on the 3000th row of the input.
    struct Dies(AtomicU64);

    struct DiesPart<'w>(&'w AtomicU64, u64);

    impl RowSink for DiesPart<'_> {
        fn row(&mut self, _: &Row<'_>) -> Flow {
            self.1 += 1;
            assert!(
                self.0.fetch_add(1, Ordering::Relaxed) < 3000,
                "the worker dies"
            );
            Flow::Go
        }
    }

    impl Work for Dies {
        type Out = Result<u64, Stop>;
        type Part<'w> = DiesPart<'w>;
        fn part<'w>(&'w self, _: &'w Batch) -> DiesPart<'w> {
            DiesPart(&self.0, 0)
        }
        fn done(&self, part: DiesPart<'_>, _: Option<String>) -> Result<u64, Stop> {
            Ok(part.1)
        }
    }

    struct Count(u64);

    impl Collector<u64> for Count {
        fn collect(&mut self, done: Done<u64>, _: &[u8]) -> Result<(), Stop> {
            self.0 += done.value;
            Ok(())
        }
        fn idle(&mut self) -> Result<(), Stop> {
            Ok(())
        }
    }

    #[test]
    fn a_dying_worker_ends_the_run_instead_of_dropping_rows() {
        let path = std::env::temp_dir().join(format!("rapidurl-dies-{}.txt", std::process::id()));
        std::fs::write(&path, "https://a.example/\n".repeat(5000)).expect("write");
        let path_str = path.to_str().expect("UTF-8");
        for threads in [1, 2] {
            let input = Input::open(path_str, None, 4096).expect("open");
            let reader = Reader {
                inputs: vec![input],
                columns: Vec::new(),
                projection: None,
            };
            let plan = Plan {
                format: InputFormat::Lines,
                names: vec![path_str.to_owned()],
                columns: Vec::new(),
                url: 0,
                base: None,
                pass: Vec::new(),
                cells: false,
                base_url: None,
                routes: None,
            };
            let mut count = Count(0);
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run(reader, threads, &plan, &Dies(AtomicU64::new(0)), &mut count)
            }));
            assert!(
                outcome.is_err(),
                "{threads} threads: the run ended normally"
            );
        }
        let _ = std::fs::remove_file(&path);
    }
}
