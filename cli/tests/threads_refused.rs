//! The tool where no thread can be started: every command goes on, on the calling
//! thread, with the same output, byte for byte, and says once on stderr that it runs on
//! one thread.
//!
//! Threads are refused two ways: `scripts/nothreads.c` built with `cc` and preloaded
//! (every `pthread_create` fails with `EAGAIN`), which works for any user; and a real
//! process limit, `prlimit --nproc=1`, under which the tool's user may run no second
//! task. Root (CI's user) is not bound by that limit, so as root the tool runs as an
//! unused user (`setpriv --reuid`), from a copy in a directory of its own that any user
//! can read.

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

use support::{BIN, TempFile, output};

/// The note the tool writes once when a thread cannot be started.
fn is_note(line: &str) -> bool {
    line.starts_with("rapidurl: cannot start a thread (")
        && line.ends_with("); running on one thread")
}

/// The shim, built once for this test binary.
fn shim() -> &'static Path {
    static SHIM: OnceLock<PathBuf> = OnceLock::new();
    SHIM.get_or_init(|| rapidurl_testkit::threads::shim(Path::new(env!("CARGO_TARGET_TMPDIR"))))
}

/// Runs the tool with `args`: threads allowed when `shim` is false, refused when true.
fn run(args: &[&str], stdin: &[u8], refused: bool) -> Output {
    let mut command = Command::new(BIN);
    command.args(args);
    if refused {
        command.env("LD_PRELOAD", shim());
    }
    output(command, stdin)
}

/// `refused`'s stderr with the note taken out, which must be there exactly once.
fn without_note(refused: &Output, what: &str) -> String {
    let text = String::from_utf8_lossy(&refused.stderr).into_owned();
    let notes = text.lines().filter(|l| is_note(l)).count();
    assert_eq!(notes, 1, "{what}: the note, once, on stderr:\n{text}");
    text.lines()
        .filter(|l| !is_note(l))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Runs `args` with threads and without: the same exit status, the same stdout and the
/// same stderr but for the note; returns the run without threads.
fn same(args: &[&str], stdin: &[u8]) -> Output {
    let what = args.join(" ");
    let normal = run(args, stdin, false);
    let refused = run(args, stdin, true);
    assert!(
        !is_note(
            String::from_utf8_lossy(&normal.stderr)
                .lines()
                .next()
                .unwrap_or("")
        ),
        "{what}: the note where threads start"
    );
    assert_eq!(
        refused.status.code(),
        normal.status.code(),
        "{what}: exit status"
    );
    assert!(
        refused.stdout == normal.stdout,
        "{what}: stdout differs ({} bytes against {})",
        refused.stdout.len(),
        normal.stdout.len()
    );
    assert_eq!(
        without_note(&refused, &what),
        String::from_utf8_lossy(&normal.stderr),
        "{what}: stderr"
    );
    refused
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the repository")
        .to_path_buf()
}

/// A repository file's path, as text.
fn shipped(path: &str) -> String {
    repo().join(path).to_str().expect("UTF-8 path").to_owned()
}

/// The sample corpus repeated `times` times.
fn sample(times: usize) -> Vec<u8> {
    std::fs::read(repo().join("corpora/sample.txt"))
        .expect("corpora/sample.txt")
        .repeat(times)
}

#[test]
fn every_command_writes_the_same_bytes_where_no_thread_starts() {
    let big = TempFile::new(&sample(8));
    let big = big.path();
    let sample_txt = shipped("corpora/sample.txt");
    let access = shipped("docs/examples/access.csv");
    let lint = shipped("docs/examples/lint.txt");
    let frontier = shipped("docs/examples/frontier.txt");
    let events = shipped("docs/examples/events.jsonl");
    let cases: Vec<Vec<&str>> = vec![
        vec!["parse", big],
        vec!["parse", "--threads", "4", "--format", "jsonl", big],
        vec!["parse", "--threads", "1", "--format", "csv", &sample_txt],
        vec![
            "parse",
            &access,
            "--column",
            "request",
            "--fields",
            "hostname,registrable_domain",
        ],
        vec![
            "parse",
            "--on-error",
            "skip",
            "--fields",
            "href,origin",
            &events,
        ],
        vec!["check", big],
        vec!["check", &events],
        vec!["stats", big, "--by", "hostname", "--top", "20"],
        vec!["stats", "--threads", "3", big, "--by", "registrable_domain"],
        vec!["dedup", big, "--key", "surt"],
        vec!["dedup", &frontier],
        vec!["lint", &lint],
        vec!["lint", "--format", "jsonl", big],
    ];
    for args in &cases {
        same(args, b"");
    }
    // Standard input.
    same(&["parse", "--fields", "hostname,pathname"], &sample(2));
    same(&["check"], &sample(1));
}

#[test]
fn compressed_inputs_are_decoded_on_the_reading_thread() {
    let text = sample(4);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&text).expect("gzip");
    let gz = TempFile::with_extension(&gz.finish().expect("gzip"), "txt.gz");
    let zst = TempFile::with_extension(&zstd::encode_all(&text[..], 3).expect("zstd"), "txt.zst");
    let plain = same(&["parse", "--fields", "href,hostname", gz.path()], b"");
    assert!(!plain.stdout.is_empty());
    same(&["parse", "--fields", "href,hostname", zst.path()], b"");
    same(&["check", zst.path()], b"");
    // Cut short: the same message, the same rows before it.
    let bytes = std::fs::read(&gz.0).expect("read");
    let cut = TempFile::with_extension(&bytes[..bytes.len() / 2], "txt.gz");
    let out = same(&["parse", "--fields", "href", cut.path()], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn output_files_are_the_same_files_where_no_thread_starts() {
    let small = TempFile::new(&sample(4));
    // 280,000 rows: more than one row group (262,144 rows), each encoded where it is
    // written.
    let big = TempFile::new(&sample(56));
    let dir = std::env::temp_dir().join(format!("rapidurl-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    for name in ["out.parquet", "out.tsv", "narrow.parquet"] {
        let (input, fields): (&TempFile, &[&str]) = match name {
            "narrow.parquet" => (&big, &["--fields", "hostname,registrable_domain,pathname"]),
            _ => (&small, &[]),
        };
        let (mut files, mut stderrs) = (Vec::new(), Vec::new());
        for refused in [false, true] {
            let path = dir.join(format!("{refused}-{name}"));
            let mut args = vec!["parse", input.path(), "-o", path.to_str().expect("UTF-8")];
            args.extend_from_slice(fields);
            let out = run(&args, b"", refused);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(out.stdout.is_empty());
            // The bad lines' diagnostics, and the note when threads are refused.
            stderrs.push(match refused {
                true => without_note(&out, name),
                false => String::from_utf8_lossy(&out.stderr).into_owned(),
            });
            files.push(std::fs::read(&path).expect("the output file"));
        }
        assert!(files[0].len() > 1000, "{name}: {} bytes", files[0].len());
        assert!(files[0] == files[1], "{name}: the files differ");
        assert_eq!(stderrs[0], stderrs[1], "{name}: stderr");
    }
    // A Parquet input, read back where no thread starts.
    let parquet = dir.join("false-out.parquet");
    let parquet = parquet.to_str().expect("UTF-8");
    same(
        &[
            "parse",
            parquet,
            "--column",
            "href",
            "--drop-columns",
            "--fields",
            "hostname",
        ],
        b"",
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("read_dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains("rapidurl-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `parse -o FILE` stopped by SIGTERM while no signal thread could be started: the
/// signal is acted on between batches, as the signal thread acts on it.
#[test]
fn a_signal_is_taken_between_batches_where_no_thread_starts() {
    let dir = std::env::temp_dir().join(format!("rapidurl-threads-sig-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let out = dir.join("out.tsv");
    std::fs::write(&out, b"old\n").expect("write");
    // stderr (a diagnostic per bad line) to a file: a pipe no one reads would fill.
    let errors = dir.join("stderr.txt");
    let mut child = Command::new(BIN)
        .args(["parse", "-", "-o", out.to_str().expect("UTF-8")])
        .env("LD_PRELOAD", shim())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&errors).expect("create"))
        .spawn()
        .expect("spawn rapidurl");
    let mut stdin = child.stdin.take().expect("stdin");
    // Rows arrive, the temporary file holds some: then the signal, then more rows (the
    // read that was waiting returns, and the next batch acts on the signal).
    let chunk = sample(4);
    stdin.write_all(&chunk).expect("write");
    let temp = loop {
        let found = std::fs::read_dir(&dir)
            .expect("read_dir")
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .find(|p| p.to_string_lossy().contains(".out.tsv.rapidurl-tmp"));
        if let Some(t) = found.filter(|t| std::fs::metadata(t).is_ok_and(|m| m.len() > 0)) {
            break t;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let pid = child.id().to_string();
    let killed = Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill");
    assert!(killed.success());
    // A pipe that is written to and then closed: the tool reads, then acts.
    let _ = stdin.write_all(&chunk);
    drop(stdin);
    let status = child.wait().expect("wait");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(15), "{status:?}");
    let stderr = std::fs::read_to_string(&errors).expect("stderr");
    assert!(
        stderr.ends_with(&format!(
            "rapidurl: interrupted (SIGTERM); {} left unchanged\n",
            out.display()
        )),
        "{stderr}"
    );
    assert_eq!(stderr.lines().filter(|l| is_note(l)).count(), 1, "{stderr}");
    assert_eq!(std::fs::read(&out).expect("read"), b"old\n");
    assert!(!temp.exists(), "{} is left", temp.display());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Under a real process limit: `prlimit --nproc=1`, the tool's user may run no second
/// task, so every thread start fails (EAGAIN), as in a container at its `pids` limit.
#[test]
fn parse_writes_every_row_under_a_process_limit() {
    // A directory any user can read, with a copy of the tool and the input.
    let dir = std::env::temp_dir().join(format!("rapidurl-nproc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let tool = dir.join("rapidurl");
    std::fs::copy(BIN, &tool).expect("copy the tool");
    std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let input = dir.join("urls.txt");
    std::fs::write(&input, sample(8)).expect("write");
    std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let input = input.to_str().expect("UTF-8");

    let normal = run(&["parse", input], b"", false);
    assert_eq!(normal.status.code(), Some(0));
    let root = std::fs::metadata("/proc/self").is_ok_and(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    let mut command = Command::new("prlimit");
    command.arg("--nproc=1:1");
    if root {
        // Root is not bound by RLIMIT_NPROC: the tool runs as a user that runs nothing
        // else (a number of its own for each run of this test), with no capabilities.
        let id = 200_000 + std::process::id() % 100_000;
        command.args([
            "setpriv".to_owned(),
            format!("--reuid={id}"),
            format!("--regid={id}"),
            "--clear-groups".to_owned(),
        ]);
    }
    command.arg(&tool).args(["parse", input]);
    let limited = output(command, b"");
    let stderr = String::from_utf8_lossy(&limited.stderr).into_owned();
    assert_eq!(limited.status.code(), Some(0), "{stderr}");
    assert!(
        limited.stdout == normal.stdout,
        "the rows differ under the limit:\n{stderr}"
    );
    let rows = limited.stdout.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(
        rows,
        sample(8).iter().filter(|&&b| b == b'\n').count() + 1,
        "a row a line, and the header"
    );
    // The bad lines' diagnostics, as without the limit, and the note, with EAGAIN.
    assert_eq!(
        without_note(&limited, "under the limit"),
        String::from_utf8_lossy(&normal.stderr)
    );
    let note = stderr.lines().find(|l| is_note(l)).unwrap_or_default();
    assert!(note.contains("(os error 11)"), "EAGAIN: {note}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `pids` cgroup of its own, limited to one task: the cgroup v1 controller's hierarchy
/// (`/sys/fs/cgroup/pids`) or cgroup v2's unified one with the controller enabled. Made
/// for the test, removed after it.
struct PidsCgroup(PathBuf);

impl PidsCgroup {
    fn new() -> PidsCgroup {
        let v1 = Path::new("/sys/fs/cgroup/pids");
        let v2 = Path::new("/sys/fs/cgroup");
        let parent = if v1.join("tasks").exists() {
            v1
        } else if std::fs::read_to_string(v2.join("cgroup.subtree_control"))
            .is_ok_and(|c| c.split_whitespace().any(|c| c == "pids"))
        {
            v2
        } else {
            panic!(
                "no pids cgroup controller to limit the tool with: mount cgroup v1's at \
                 /sys/fs/cgroup/pids, or enable it in cgroup v2's /sys/fs/cgroup/cgroup.subtree_control"
            )
        };
        let dir = parent.join(format!("rapidurl-test-{}", std::process::id()));
        std::fs::create_dir(&dir).unwrap_or_else(|e| {
            panic!(
                "cannot make the cgroup {} ({e}): this test needs a writable pids \
                 controller (root, or a delegated cgroup)",
                dir.display()
            )
        });
        PidsCgroup(dir)
    }
}

impl Drop for PidsCgroup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.0);
    }
}

#[test]
fn parse_writes_every_row_in_a_pids_cgroup_of_one_task() {
    let input = TempFile::new(&sample(8));
    let normal = run(&["parse", input.path()], b"", false);
    assert_eq!(normal.status.code(), Some(0));
    let cgroup = PidsCgroup::new();
    // The shell joins the cgroup, limits it to one task (itself) and becomes the tool:
    // every thread the tool tries to start is refused by the kernel.
    let script = r#"echo $$ > "$1/cgroup.procs" && echo 1 > "$1/pids.max" && exec "$2" parse "$3""#;
    let mut command = Command::new("sh");
    command.args(["-c", script, "sh"]);
    command.arg(&cgroup.0).args([BIN, input.path()]);
    let limited = output(command, b"");
    let stderr = String::from_utf8_lossy(&limited.stderr).into_owned();
    assert_eq!(limited.status.code(), Some(0), "{stderr}");
    assert!(
        limited.stdout == normal.stdout,
        "the rows differ in the cgroup:\n{stderr}"
    );
    assert_eq!(
        without_note(&limited, "in the cgroup"),
        String::from_utf8_lossy(&normal.stderr)
    );
    let note = stderr.lines().find(|l| is_note(l)).unwrap_or_default();
    assert!(note.contains("(os error 11)"), "EAGAIN: {note}");
    // The kernel counted the refusals.
    let events = std::fs::read_to_string(cgroup.0.join("pids.events")).expect("pids.events");
    assert!(
        events.trim().strip_prefix("max ").is_some_and(|n| n != "0"),
        "pids.events: {events}"
    );
}
