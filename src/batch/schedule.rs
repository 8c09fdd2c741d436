//! Spreading chunks of work over threads for a front end that writes its own output
//! (the Python package's `parse_column` writes Arrow columns): the calling thread works
//! too, helpers come from a rayon pool, and each thread claims chunks one at a time from
//! a contiguous region of its own, so that consecutive chunks go to one output and a call
//! makes about one output per thread.
//!
//! The chunks are split into one region per thread, balanced by weight. A thread takes
//! the next chunk from the front of its region (one compare-and-swap on a word holding
//! the region's front and end); when its region is empty it steals the back half of the
//! largest region left (a single chunk when only one is left) and goes on from there
//! with a new output. The balance is that of chunk-sized steps (make chunks small, e.g.
//! with [`row_ranges_by`](super::row_ranges_by)), while the outputs stay few: one per
//! region, i.e. the thread count plus the number of steals.
//!
//! Why not one rayon task per chunk: each task would make an output (for Python, a record
//! batch that pyarrow imports serially, a few µs each); the calling thread would sleep
//! while the pool worked (a wake-up to hand the work over and one to get it back, and on
//! an idle virtual machine a wake-up costs tens of µs); and with one thread the pool
//! would add both for nothing: here one thread means the calling thread alone.
//!
//! ```
//! use rapidurl::batch::schedule::{run, Threads, Work};
//! use std::ops::Range;
//!
//! /// Sums chunk numbers; an output is the list of (chunk, sum) it saw.
//! struct Sum;
//! impl Work for Sum {
//!     type Output = Vec<usize>;
//!     type Done = Vec<usize>;
//!     type Error = ();
//!     fn start(&self, _region: Range<usize>) -> Vec<usize> { Vec::new() }
//!     fn step(&self, out: &mut Vec<usize>, chunk: usize) -> Result<(), ()> {
//!         out.push(chunk);
//!         Ok(())
//!     }
//!     fn full(&self, _out: &Vec<usize>) -> bool { false }
//!     fn finish(&self, out: Vec<usize>) -> Result<Vec<usize>, ()> { Ok(out) }
//! }
//!
//! let helpers = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
//! let threads = Threads::new(2, Some(std::sync::Arc::new(helpers)));
//! let outputs = run(&threads, &[1; 10], &Sum).unwrap();
//! let chunks: Vec<usize> = outputs.into_iter().flatten().collect();
//! assert_eq!(chunks, (0..10).collect::<Vec<_>>());
//! ```

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The threads of one [`run`]: the calling thread plus the workers of a rayon pool.
pub struct Threads {
    /// Threads in all, the calling one included (at least 1).
    n: usize,
    /// A pool of `n - 1` threads (`None` when `n` is 1).
    helpers: Option<Arc<rayon::ThreadPool>>,
    /// Set when the helpers have their work (or the call ends): see [`Threads::wake`].
    ready: Arc<AtomicBool>,
}

impl Threads {
    /// `n` threads (at least 1): the calling one and the workers of `helpers`, a pool of
    /// `n - 1` threads (`None` when `n` is 1).
    pub fn new(n: usize, helpers: Option<Arc<rayon::ThreadPool>>) -> Self {
        Threads {
            n: n.max(1),
            helpers,
            ready: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Threads in all, the calling one included.
    pub fn count(&self) -> usize {
        self.n
    }

    /// Wakes the helpers now, so that they are running when [`run`] hands them their
    /// chunks: a sleeping thread takes tens of µs to wake on an idle virtual machine,
    /// which the caller's serial start (for Python: importing the column, planning the
    /// chunks) then hides. Each helper yields in a loop until [`run`] has its work ready, the
    /// `Threads` is dropped, or `WAKE_SPIN` has passed.
    pub fn wake(&self) {
        let Some(pool) = &self.helpers else { return };
        for _ in 1..self.n {
            let ready = self.ready.clone();
            pool.spawn(move || {
                let since = Instant::now();
                while !ready.load(Ordering::Acquire) && since.elapsed() < WAKE_SPIN {
                    std::thread::yield_now();
                }
            });
        }
    }
}

impl Drop for Threads {
    fn drop(&mut self) {
        self.ready.store(true, Ordering::Release);
    }
}

/// How long a helper woken by [`Threads::wake`] waits for its work before it goes back
/// to rayon's pool (where the work wakes it again when it comes).
const WAKE_SPIN: Duration = Duration::from_millis(1);

/// How long the calling thread, done with the chunks, spins for the helpers to finish
/// theirs (at most a chunk each) before it sleeps until they do: a sleeping thread
/// costs a wake-up, tens of µs on an idle virtual machine.
const SPIN: Duration = Duration::from_micros(500);

/// What a thread does with its chunks, one output at a time.
pub trait Work: Sync {
    /// One thread's output, filled by consecutive chunks.
    type Output;
    /// What a finished output becomes (a record batch).
    type Done: Send;
    /// Why the call fails.
    type Error: Send;
    /// A new output whose first chunk is `chunks.start`; `chunks` is the region it may
    /// grow over if no other thread steals from it (an estimate for pre-sizing).
    fn start(&self, chunks: Range<usize>) -> Self::Output;
    /// Puts chunk `chunk` into `out` (the chunk after the last one it holds).
    fn step(&self, out: &mut Self::Output, chunk: usize) -> Result<(), Self::Error>;
    /// Whether `out` is large enough to be finished before its next chunk.
    fn full(&self, out: &Self::Output) -> bool;
    /// The finished output.
    fn finish(&self, out: Self::Output) -> Result<Self::Done, Self::Error>;
}

/// A thread's region of chunks, `front..end`, packed into one atomic word so that the
/// owner taking the front and a thief cutting the end agree (compare-and-swap).
/// Aligned to keep two threads' regions off one cache line.
#[repr(align(128))]
struct Region(AtomicU64);

fn pack(front: usize, end: usize) -> u64 {
    ((front as u64) << 32) | end as u64
}

fn unpack(v: u64) -> (usize, usize) {
    ((v >> 32) as usize, (v & 0xffff_ffff) as usize)
}

/// The shared state of one call.
struct Shared<'w, W: Work> {
    work: &'w W,
    regions: Vec<Region>,
    failed: AtomicBool,
    /// Helpers that have finished.
    finished: AtomicUsize,
    results: Mutex<Vec<Outputs<W>>>,
}

/// What one thread returns: its finished outputs, each with its first chunk.
type Outputs<W> = Result<Vec<(usize, <W as Work>::Done)>, <W as Work>::Error>;

impl<W: Work> Shared<'_, W> {
    /// The next chunk of thread `t`'s region, and the region's end.
    fn claim(&self, t: usize) -> Option<(usize, usize)> {
        let region = &self.regions[t].0;
        let mut v = region.load(Ordering::Acquire);
        loop {
            let (front, end) = unpack(v);
            if front >= end {
                return None;
            }
            match region.compare_exchange_weak(
                v,
                pack(front + 1, end),
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return Some((front, end)),
                Err(now) => v = now,
            }
        }
    }

    /// Steals the back half of the largest region left (all of it when it holds one
    /// chunk) for thread `t`, whose own region is empty: its first chunk is returned
    /// (claimed) and the rest becomes `t`'s region. `None` when every region is empty.
    fn steal(&self, t: usize) -> Option<(usize, usize)> {
        loop {
            let mut best: Option<(usize, u64)> = None;
            for (v, region) in self.regions.iter().enumerate() {
                let now = region.0.load(Ordering::Acquire);
                let (front, end) = unpack(now);
                let left = end.saturating_sub(front);
                if v != t && left > 0 && best.is_none_or(|(_, b)| left > remaining(b)) {
                    best = Some((v, now));
                }
            }
            let (v, now) = best?;
            let (front, end) = unpack(now);
            let cut = front + (end - front) / 2;
            if self.regions[v]
                .0
                .compare_exchange(now, pack(front, cut), Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                // Nobody else writes an empty region, so a plain store is enough.
                self.regions[t]
                    .0
                    .store(pack(cut + 1, end), Ordering::Release);
                return Some((cut, end));
            }
        }
    }

    /// Thread `t`'s loop: chunks until none is left, one output per run of consecutive
    /// chunks. Returns the finished outputs with their first chunk.
    fn run(&self, t: usize) -> Outputs<W> {
        let mut done = Vec::new();
        // The output being filled: its first chunk, the chunk it expects next, itself.
        let mut open: Option<(usize, usize, W::Output)> = None;
        while !self.failed.load(Ordering::Relaxed) {
            let Some((chunk, end)) = self.claim(t).or_else(|| self.steal(t)) else {
                break;
            };
            if let Some((first, next, out)) = open.take() {
                match next == chunk && !self.work.full(&out) {
                    true => open = Some((first, next, out)),
                    false => done.push((first, self.fail_on(self.work.finish(out))?)),
                }
            }
            let (_, next, out) =
                open.get_or_insert_with(|| (chunk, chunk, self.work.start(chunk..end)));
            self.fail_on(self.work.step(out, chunk))?;
            *next = chunk + 1;
        }
        if let Some((first, _, out)) = open {
            done.push((first, self.fail_on(self.work.finish(out))?));
        }
        Ok(done)
    }

    /// `r`, telling the other threads to stop when it is an error.
    fn fail_on<T>(&self, r: Result<T, W::Error>) -> Result<T, W::Error> {
        if r.is_err() {
            self.failed.store(true, Ordering::Relaxed);
        }
        r
    }
}

fn remaining(v: u64) -> usize {
    let (front, end) = unpack(v);
    end.saturating_sub(front)
}

/// The threads' first regions: `n` consecutive ranges of chunks (some maybe empty) at
/// about equal shares of the total weight.
fn split(weights: &[usize], n: usize) -> Vec<Range<usize>> {
    let total: u128 = weights.iter().map(|&w| w as u128).sum();
    let mut regions = Vec::with_capacity(n);
    let (mut end, mut seen) = (0, 0u128);
    for t in 1..=n {
        let start = end;
        while end < weights.len() && (seen < total * t as u128 / n as u128 || t == n) {
            seen += weights[end] as u128;
            end += 1;
        }
        regions.push(start..end);
    }
    regions
}

/// Runs `work` over chunks `0..weights.len()` (chunk `c` weighing `weights[c]`) on
/// `threads`, and returns the finished outputs in chunk order; the first error when a
/// step or a finish fails. Panics in any thread reach the caller.
///
/// # Panics
///
/// With 2³² − 1 chunks or more (chunk numbers are packed two to a 64-bit word).
pub fn run<W: Work>(
    threads: &Threads,
    weights: &[usize],
    work: &W,
) -> Result<Vec<W::Done>, W::Error> {
    let chunks = weights.len();
    assert!(chunks < u32::MAX as usize, "too many chunks");
    let n = threads.n.clamp(1, chunks.max(1));
    let regions = split(weights, n)
        .into_iter()
        .map(|r| Region(AtomicU64::new(pack(r.start, r.end))))
        .collect();
    let shared = Shared {
        work,
        regions,
        failed: AtomicBool::new(false),
        finished: AtomicUsize::new(0),
        results: Mutex::new(Vec::with_capacity(n)),
    };
    let own = match (&threads.helpers, n) {
        (Some(pool), 2..) => pool.in_place_scope(|scope| {
            for t in 1..n {
                let shared = &shared;
                scope.spawn(move |_| {
                    let r = shared.run(t);
                    shared
                        .results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(r);
                    shared.finished.fetch_add(1, Ordering::Release);
                });
            }
            // Helpers spinning since `Threads::wake` may go back to the pool: the work
            // is in its queue.
            threads.ready.store(true, Ordering::Release);
            let own = shared.run(0);
            // The helpers are at most a chunk from done (or not started: then the
            // scope's end waits for them anyway, which costs no more than before).
            let since = Instant::now();
            while shared.finished.load(Ordering::Acquire) < n - 1 && since.elapsed() < SPIN {
                std::thread::yield_now();
            }
            own
        }),
        _ => {
            // No helper works in this call: let those `Threads::wake` woke go.
            threads.ready.store(true, Ordering::Release);
            shared.run(0)
        }
    };
    let mut all = own?;
    for r in shared
        .results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        all.extend(r?);
    }
    all.sort_unstable_by_key(|(first, _)| *first);
    Ok(all.into_iter().map(|(_, done)| done).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records which chunks each output holds; chunk `fail` fails; an output is full at
    /// `full` chunks; chunk `c` spins `delay(c)` µs (to make threads steal).
    struct Record {
        fail: Option<usize>,
        full: usize,
        delay: fn(usize) -> u64,
    }

    impl Work for Record {
        type Output = Vec<usize>;
        type Done = Vec<usize>;
        type Error = usize;
        fn start(&self, chunks: Range<usize>) -> Vec<usize> {
            assert!(chunks.start < chunks.end);
            Vec::with_capacity(chunks.len())
        }
        fn step(&self, out: &mut Vec<usize>, chunk: usize) -> Result<(), usize> {
            if let Some(&last) = out.last() {
                assert_eq!(chunk, last + 1, "an output holds consecutive chunks");
            }
            let until = Instant::now() + Duration::from_micros((self.delay)(chunk));
            while Instant::now() < until {
                std::hint::spin_loop();
            }
            out.push(chunk);
            match self.fail == Some(chunk) {
                true => Err(chunk),
                false => Ok(()),
            }
        }
        fn full(&self, out: &Vec<usize>) -> bool {
            out.len() >= self.full
        }
        fn finish(&self, out: Vec<usize>) -> Result<Vec<usize>, usize> {
            Ok(out)
        }
    }

    fn threads(n: usize) -> Threads {
        let helpers = (n > 1).then(|| {
            Arc::new(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n - 1)
                    .build()
                    .unwrap(),
            )
        });
        Threads::new(n, helpers)
    }

    /// Every chunk is in exactly one output, outputs come back in chunk order, and there
    /// are few of them: one with one thread, and never more than the chunks.
    #[test]
    fn every_chunk_once_in_order() {
        let delays: [fn(usize) -> u64; 3] =
            [|_| 0, |c| (c % 7) as u64 * 20, |c| (c < 5) as u64 * 2000];
        for n in [1, 2, 3, 8] {
            let threads = threads(n);
            for chunks in [0, 1, 2, 3, 17, 200] {
                for (d, &delay) in delays.iter().enumerate() {
                    let weights: Vec<usize> = (0..chunks).map(|c| 1 + c % 5).collect();
                    let work = Record {
                        fail: None,
                        full: usize::MAX,
                        delay,
                    };
                    let outputs = run(&threads, &weights, &work).unwrap();
                    let flat: Vec<usize> = outputs.iter().flatten().copied().collect();
                    assert_eq!(
                        flat,
                        (0..chunks).collect::<Vec<_>>(),
                        "n {n}, chunks {chunks}, delay {d}"
                    );
                    assert!(outputs.iter().all(|o| !o.is_empty()));
                    if n == 1 {
                        assert!(outputs.len() <= 1);
                    }
                }
            }
        }
    }

    /// A full output is finished and the next chunk starts a new one.
    #[test]
    fn full_outputs_are_split() {
        let work = Record {
            fail: None,
            full: 4,
            delay: |_| 0,
        };
        let outputs = run(&threads(1), &[1; 10], &work).unwrap();
        assert_eq!(outputs, [vec![0, 1, 2, 3], vec![4, 5, 6, 7], vec![8, 9]]);
    }

    /// A failing chunk fails the call (with its error), on one thread or several.
    #[test]
    fn a_failing_chunk_fails_the_call() {
        for n in [1, 2, 4] {
            let work = Record {
                fail: Some(33),
                full: usize::MAX,
                delay: |_| 0,
            };
            assert_eq!(run(&threads(n), &[1; 100], &work), Err(33));
        }
    }

    /// The first regions tile the chunks at about equal shares of the weight.
    #[test]
    fn regions_split_by_weight() {
        assert_eq!(split(&[10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1], 2), [0..1, 1..11]);
        assert_eq!(split(&[1; 8], 2), [0..4, 4..8]);
        assert_eq!(split(&[1; 9], 3), [0..3, 3..6, 6..9]);
        assert_eq!(split(&[1; 2], 4), [0..0, 0..1, 1..1, 1..2]);
        assert_eq!(split(&[], 2), [0..0, 0..0]);
        assert_eq!(split(&[5, 5], 1), vec![Range { start: 0, end: 2 }]);
    }

    /// Few outputs even when threads steal: each steal halves what is left of a region.
    #[test]
    fn steals_are_few() {
        for delay in [|_| 0, |c: usize| (c < 20) as u64 * 500] {
            let work = Record {
                fail: None,
                full: usize::MAX,
                delay,
            };
            let outputs = run(&threads(2), &[1; 256], &work).unwrap();
            assert!(outputs.len() <= 2 * (1 + 9), "{} outputs", outputs.len());
        }
    }
}
