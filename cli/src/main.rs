//! `rapidurl`: parse, validate and count URLs in bulk per the WHATWG URL Standard, from
//! lines, CSV, TSV, JSON Lines or Parquet, to TSV, CSV, JSON Lines or Parquet.
//!
//! Every bulk command is an adapter over the library's bulk engine
//! (`rapidurl::batch::engine`, driven by `pipeline`), in four rooms:
//!
//! - `input/`, the input side: the inputs are read a window of batches of whole records at
//!   a time (`input::source`; tables decoded by `input::records`), and the window is the
//!   engine's source (`input::window`);
//! - `output/`, the output side: each command's sink formats the rows (`output::text`,
//!   `output::parquet`); an `-o` file is written beside its place and put there only by a
//!   run that succeeds (`output::file`);
//! - `pipeline/`, which joins them: the engine parses a window on `--threads` threads
//!   while the rows of the window before are written in input order; memory is bounded by
//!   three windows whatever the input's size (measured in docs/robustness.md);
//! - `commands/`, one module a command (`stats` counts rather than writes), and the
//!   options they share (`commands::args`).
//!
//! Beside them, `outcome` (how a command ends: its exit status and message), `routes`
//! (the `--routes` table of the `route` fields) and `threads` (what the run does when a
//! thread cannot be started: it goes on, on the calling thread), which the rooms share.
//!
//! See `rapidurl --help` and `rapidurl <command> --help`.
#![forbid(unsafe_code)]

mod commands;
mod input;
mod outcome;
mod output;
mod pipeline;
mod routes;
mod threads;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::commands::{check, dedup, lint, parse, stats};

// `bench` (the measurement, edited with the library's engine) reaches these at the root.

/// Parse URLs in bulk per the WHATWG URL Standard (what a browser's `new URL()` does).
#[derive(Parser, Debug)]
#[command(name = "rapidurl", version, propagate_version = true)]
#[command(after_help = "Examples:\n  \
    rapidurl parse urls.txt > urls.tsv\n  \
    rapidurl parse access-log.csv --column request_url --fields hostname,pathname -o out.parquet\n  \
    cat urls.txt | rapidurl parse --format jsonl --fields href,origin\n  \
    rapidurl check urls.txt\n  \
    rapidurl stats crawl.jsonl --by hostname --top 20\n  \
    rapidurl lint urls.txt\n  \
    rapidurl dedup frontier.txt --key surt > unique.txt\n  \
    rapidurl bench urls.txt\n\n\
    Exit status: 0 success; 1 invalid URLs (check), validation errors (lint) or a bad URL\n\
    under --on-error fail; 2 usage error, or an input or output that cannot be opened or\n\
    used; 3 an input that is not well formed (ragged row, unterminated quote, bad JSON),\n\
    found while reading it.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `rapidurl lint --help`'s closing text.
const LINT_AFTER_HELP: &str = "\
Columns count characters from 1. --format jsonl writes one object per error with file,
line, column, byte (the byte offset), name, failure (whether the error made parsing fail)
and explanation. The counts of each name and the number of lines with errors go to stderr.

Examples:
  rapidurl lint urls.txt
  rapidurl lint --format jsonl urls.txt > errors.jsonl
  cat urls.txt | rapidurl lint 2>/dev/null | head -20";

/// The subcommands.
#[derive(Subcommand, Debug)]
enum Command {
    /// Parse the URL of each input line or row and write its components (with the row's
    /// other columns), one output row per input row.
    #[command(after_help = parse::AFTER_HELP)]
    Parse(parse::ParseArgs),
    /// Validate the URL of each input line or row; print a summary and exit 1 if any is
    /// invalid.
    #[command(after_help = check::AFTER_HELP)]
    Check(check::CheckArgs),
    /// Count the values of one field over the input: the top values with their counts,
    /// shares and a bar.
    #[command(after_help = stats::AFTER_HELP)]
    Stats(stats::StatsArgs),
    /// Measure parse throughput on a file: URLs/s, MB/s and ns/URL, on one thread and on
    /// all of them.
    #[command(after_help = commands::bench::AFTER_HELP)]
    Bench(commands::bench::BenchArgs),
    /// List every validation error (URL Standard §1.1) of one URL per input line:
    /// FILE:LINE:COLUMN: NAME: explanation, then counts per name on stderr; exit 1 when any.
    #[command(after_help = LINT_AFTER_HELP)]
    Lint(lint::LintArgs),
    /// Write each row whose canonical key (--key) is new, in input order, unchanged.
    #[command(after_help = dedup::DEDUP_AFTER_HELP)]
    Dedup(dedup::DedupArgs),
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Parse(args) => parse::run(args),
        Command::Check(args) => check::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Bench(args) => commands::bench::run(&args),
        Command::Lint(args) => lint::run(args),
        Command::Dedup(args) => dedup::run(args),
    };
    outcome::exit_code(result)
}
