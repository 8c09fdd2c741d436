//! When a thread cannot be started (a process or `pids` cgroup limit, a sandbox that
//! refuses `clone`, qemu-user): the run goes on, on the calling thread alone, with the
//! same output, and says so once on stderr.
//!
//! The first refusal switches the whole run: no other thread is tried after it. The
//! pipeline then parses each window where it reads it (`pipeline::Workers::Here`),
//! Parquet row groups are encoded where they are written, compressed inputs are decoded
//! where they are read (`input::compressed`), and SIGINT and SIGTERM are acted on between
//! batches instead of by the signal thread (`output::file`).

use std::fmt::Display;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::input::compressed;

/// A thread start was refused: the run is on the calling thread alone.
static REFUSED: AtomicBool = AtomicBool::new(false);

/// Whether a thread start was refused earlier in the run (then no other is tried).
pub fn refused() -> bool {
    REFUSED.load(Ordering::Relaxed)
}

/// A thread could not be started (`error` says why): from here on the run is on the
/// calling thread. Says so on stderr, the first time only.
pub fn refuse(error: &dyn Display) {
    compressed::decode_on_reading_thread();
    if !REFUSED.swap(true, Ordering::Relaxed) {
        let note = format!("rapidurl: cannot start a thread ({error}); running on one thread\n");
        // As `outcome::report` writes, ignoring failure: the run goes on regardless.
        let _ = std::io::stderr().lock().write_all(note.as_bytes());
    }
}
