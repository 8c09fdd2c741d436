//! Helpers shared by the command-line tool's end-to-end tests: temporary files, running
//! the built binary, reading what it printed.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

pub const BIN: &str = env!("CARGO_BIN_EXE_rapidurl");

/// A temporary file, removed when dropped.
pub struct TempFile(pub PathBuf);

impl TempFile {
    /// A `.txt` file holding `contents`.
    pub fn new(contents: &[u8]) -> TempFile {
        TempFile::with_extension(contents, "txt")
    }

    /// A file holding `contents` whose name ends in `.EXT`.
    pub fn with_extension(contents: &[u8], ext: &str) -> TempFile {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "rapidurl-cli-test-{}-{}-{n}.{ext}",
            std::process::id(),
            std::thread::current()
                .name()
                .unwrap_or("t")
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
        ));
        std::fs::write(&path, contents).expect("write temp file");
        TempFile(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs the binary with `args` and `stdin`, and returns what it did.
pub fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut command = Command::new(BIN);
    command.args(args);
    output(command, stdin)
}

/// Runs `command` (the binary, or a command that runs it) with `stdin`, and returns what
/// it did.
pub fn output(mut command: Command, stdin: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rapidurl");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    // Written while the output is read, so that neither side waits for the other.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().expect("wait for rapidurl");
    writer.join().expect("stdin writer");
    output
}

/// Runs `rapidurl parse ARGS FILE` on a temporary file holding `contents`.
pub fn parse_file(args: &[&str], contents: &[u8]) -> (Output, TempFile) {
    let file = TempFile::new(contents);
    let mut all: Vec<&str> = vec!["parse"];
    all.extend_from_slice(args);
    all.push(file.path());
    (run(&all, b""), file)
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub fn code(output: &Output) -> i32 {
    output.status.code().expect("exit code")
}

/// The output lines of a run that must have succeeded.
pub fn ok_lines(output: &Output) -> Vec<String> {
    assert_eq!(code(output), 0, "stderr: {}", stderr(output));
    stdout(output).lines().map(str::to_owned).collect()
}
