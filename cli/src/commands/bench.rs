//! `rapidurl bench`: its arguments; the measurement itself is `crate::bench`.

use std::process::ExitCode;

use clap::Args;

use crate::outcome::Failure;

pub const AFTER_HELP: &str = "\
Reads FILE into memory (one URL per line), then measures, taking turns (one run each per
round, for at least --time seconds and 3 rounds): the batch engine into a UrlColumn
(batch::parse_lines) on 1 thread and on --threads threads (default: all cores), the
engine with a counting sink on 1 thread, a single-threaded loop over parse_ref (one
arena, emptied every run), and one memchr pass over the bytes. Prints each one's median
run as URLs/s, MB/s (input bytes, 10^6) and ns/URL, its speed against the parse_ref loop,
the speed-up on --threads threads, and the column's speed as a fraction of the memchr
pass's. Output is not formatted or written: this is the parser's throughput, not the
whole tool's (scripts/bulk_table.py times the tool too).

Examples:
  rapidurl bench corpora/sample.txt
  rapidurl bench --threads 2 --time 3 ../shared/corpora/kasztp.txt";

/// Arguments of `rapidurl bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The file to parse, one URL per line.
    #[arg(value_name = "FILE")]
    file: String,

    /// Threads for the multi-threaded measurement (0 or absent: all cores).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,

    /// Minimum measuring time per thread count, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    time: f64,
}

/// Runs `rapidurl bench`.
pub fn run(args: &BenchArgs) -> Result<ExitCode, Failure> {
    crate::bench::run(&args.file, args.threads, args.time)
}
