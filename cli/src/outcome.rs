//! How a command ends: its failure (an exit status and a message on stderr), and the
//! reporting every command shares.

use std::fmt::Write as _;
use std::fs::File;
use std::io::{self, Write};
use std::process::ExitCode;

use crate::input::rows::RowError;
use crate::output::file::{self as output_file, OutputFile};
use crate::pipeline::Stop;

/// Why the program stops early.
pub enum Failure {
    /// Writing to standard output failed.
    Output(io::Error),
    /// A usage error, or an input or output that cannot be opened or used (exit 2).
    Message(String),
    /// A run that stopped (see [`Stop`]).
    Stopped(Stop),
}

impl From<io::Error> for Failure {
    fn from(err: io::Error) -> Self {
        Failure::Output(err)
    }
}

impl From<Stop> for Failure {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Output(e) => Failure::Output(e),
            stop => Failure::Stopped(stop),
        }
    }
}

/// The exit status of a command's result, its message written to stderr (then, when the
/// run's output file was discarded, that FILE was left unchanged).
pub fn exit_code(result: Result<ExitCode, Failure>) -> ExitCode {
    let code = status_of(result);
    if let Some(fate) = output_file::discarded() {
        report(&format!("rapidurl: {fate}\n"));
    }
    code
}

/// The exit status of a command's result, its message written to stderr.
fn status_of(result: Result<ExitCode, Failure>) -> ExitCode {
    match result {
        Ok(code) => code,
        // `rapidurl parse … | head`: the reader went away; that is not an error.
        Err(Failure::Output(err)) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(err)) | Err(Failure::Stopped(Stop::Output(err))) => {
            report(&format!("rapidurl: error writing output: {err}\n"));
            ExitCode::from(2)
        }
        Err(Failure::Message(msg)) => {
            report(&format!("rapidurl: {msg}\n"));
            ExitCode::from(2)
        }
        Err(Failure::Stopped(Stop::Input(msg))) => {
            report(&format!("rapidurl: {msg}\n"));
            ExitCode::from(3)
        }
        Err(Failure::Stopped(Stop::Damaged(msg))) => {
            report(&format!("rapidurl: {msg}\n"));
            ExitCode::from(2)
        }
        Err(Failure::Stopped(Stop::Code(code))) => ExitCode::from(code),
    }
}

/// Writes to stderr, ignoring failure (there is nowhere left to report it).
pub fn report(text: &str) {
    let _ = io::stderr().lock().write_all(text.as_bytes());
}

/// The `FILE:LINE:COL: ERROR` diagnostic of a row without a URL, with its newline.
pub fn diagnostic(out: &mut String, name: &str, line: u64, err: &RowError) {
    let _ = writeln!(out, "{name}:{line}:{}: {err}", err.column());
}

/// Standard output as a file (no line buffering: rows are written in large pieces).
fn stdout_file() -> Result<Box<dyn Write + Send>, Failure> {
    use std::os::fd::AsFd;
    let fd = io::stdout()
        .as_fd()
        .try_clone_to_owned()
        .map_err(|e| Failure::Message(format!("cannot write to standard output: {e}")))?;
    Ok(Box::new(File::from(fd)))
}

/// The output: `path` (call it once every input is open), or standard output; and what
/// puts the output in place once the run has succeeded ([`OutputFile::commit`]: a file
/// is written to a temporary file beside it, see `output_file`).
pub fn create_output(path: Option<&str>) -> Result<(Box<dyn Write + Send>, OutputFile), Failure> {
    match path {
        Some(path) => {
            let (file, out) = output_file::create(path).map_err(Failure::Message)?;
            Ok((Box::new(file), out))
        }
        None => Ok((stdout_file()?, OutputFile::stdout())),
    }
}
