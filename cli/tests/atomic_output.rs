//! `-o FILE` is replaced only by a run that succeeds: a run killed by SIGTERM or SIGINT,
//! a run that fails on a later input, under `--on-error fail` or on a write error (a file
//! size limit, a full tmpfs) leaves FILE byte for byte as it was and no temporary file
//! beside it. Standard output keeps its behaviour: a closed pipe is a quiet exit, a full
//! device exit status 2.
//!
//! The kill tests run a real process on a generated input and send the signal once the
//! temporary file exists (polled, with a generous timeout: no timing is asserted). Run
//! with `--nocapture` to see each kill test's transcript.

mod support;

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use support::{BIN, code, run, stderr};

const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

/// How long a poll may wait for the tool (a slow, loaded machine).
const PATIENCE: Duration = Duration::from_secs(300);

/// A directory of its own for one test, removed when dropped.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir =
            std::env::temp_dir().join(format!("rapidurl-atomic-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create dir");
        Dir(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("UTF-8").to_owned()
    }

    /// The temporary files the tool left in the directory.
    fn temps(&self) -> Vec<PathBuf> {
        std::fs::read_dir(&self.0)
            .expect("read dir")
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.to_string_lossy().contains(".rapidurl-tmp-"))
            .collect()
    }

    /// Waits until a temporary file of at least `min_len` bytes exists; its path.
    fn wait_for_temp(&self, min_len: u64, child: &mut Child) -> PathBuf {
        let start = Instant::now();
        loop {
            for temp in self.temps() {
                if std::fs::metadata(&temp).is_ok_and(|m| m.len() >= min_len) {
                    return temp;
                }
            }
            if let Some(status) = child.try_wait().expect("try_wait") {
                panic!("the tool ended ({status}) before its temporary file had {min_len} bytes");
            }
            assert!(
                start.elapsed() < PATIENCE,
                "no temporary file of {min_len} bytes after {PATIENCE:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `n` generated URLs, one a line, all valid.
fn urls(n: usize) -> Vec<u8> {
    urls_with_bad(n, usize::MAX)
}

/// `n` generated URLs, one a line; every line whose number is a multiple of `bad` is not
/// a URL.
fn urls_with_bad(n: usize, bad: usize) -> Vec<u8> {
    let mut text = String::with_capacity(n * 48);
    for i in 1..=n {
        if i % bad == 0 {
            text.push_str("not a url\n");
        } else {
            text.push_str(&format!(
                "https://h{}.example.com/path/{i}?q={}#f\n",
                i % 9973,
                i * 7
            ));
        }
    }
    text.into_bytes()
}

/// A 64-bit FNV-1a hash, for the transcripts.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Sends `signal` to the process `pid` (the shell's `kill`: the tests hold no `unsafe`).
fn send(signal: i32, pid: u32) {
    let status = Command::new("sh")
        .args(["-c", "kill -s \"$1\" \"$2\"", "sh"])
        .args([
            if signal == SIGINT { "INT" } else { "TERM" },
            &pid.to_string(),
        ])
        .status()
        .expect("run sh -c kill");
    assert!(status.success(), "kill -{signal} {pid}: {status}");
}

/// Waits for `child`, then reads its stderr from the file `stderr`.
fn finish(mut child: Child, stderr: &str) -> (ExitStatus, String) {
    let status = child.wait().expect("wait");
    let err = std::fs::read_to_string(stderr).expect("read stderr");
    (status, err)
}

/// What an old output holds: a Parquet file the tool wrote, or known text.
fn old_output(dir: &Dir, ext: &str) -> Vec<u8> {
    if ext != "parquet" {
        return b"old\toutput\nkept\tbyte for byte\n".to_vec();
    }
    let input = dir.path("old-input.txt");
    std::fs::write(&input, b"https://old.example/a\nhttps://old.example/b\n").expect("write");
    let made = dir.path("made.parquet");
    let out = run(&["parse", &input, "-o", &made], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let bytes = std::fs::read(&made).expect("read parquet");
    assert_eq!(&bytes[bytes.len() - 4..], b"PAR1", "a whole Parquet file");
    std::fs::remove_file(&made).expect("remove");
    bytes
}

/// Kills `rapidurl parse BIG [-] -o out.EXT` with `signal` once its temporary file holds
/// rows (with `hold_stdin`, the tool then reads standard input, which is never closed, so
/// the run cannot end first), then checks the old output is intact and no temporary file
/// is left.
fn kill_mid_run(signal: i32, ext: &str, lines: usize, hold_stdin: bool) {
    let name = format!("kill-{signal}-{ext}-{hold_stdin}");
    let dir = Dir::new(&name);
    let big = dir.path("big.txt");
    std::fs::write(&big, urls(lines)).expect("write input");
    let out = dir.path(&format!("out.{ext}"));
    let old = old_output(&dir, ext);
    std::fs::write(&out, &old).expect("write old output");
    let err_file = dir.path("stderr");
    let mut args = vec!["parse", "--threads", "2", big.as_str()];
    if hold_stdin {
        args.push("-");
    }
    args.extend(["-o", out.as_str()]);
    let mut child = Command::new(BIN)
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&err_file).expect("create stderr file"))
        .spawn()
        .expect("spawn rapidurl");
    let stdin = child.stdin.take();
    let temp = dir.wait_for_temp(1, &mut child);
    let temp_len = std::fs::metadata(&temp).map(|m| m.len()).unwrap_or(0);
    let killed = Instant::now();
    send(signal, child.id());
    let (status, err) = finish(child, &err_file);
    let took = killed.elapsed();
    drop(stdin);
    let now = std::fs::read(&out).expect("read output");
    let signal_name = if signal == SIGINT {
        "SIGINT"
    } else {
        "SIGTERM"
    };
    eprintln!(
        "[{name}] rapidurl {}\n  old {out}: {} bytes, fnv {:016x}\n  temporary file seen: {} \
         ({temp_len} bytes)\n  sent {signal_name}; the tool ended in {took:?}: {status}\n  \
         stderr: {err:?}\n  {out} after: {} bytes, fnv {:016x}; temporary files left: {:?}",
        args.join(" "),
        old.len(),
        fnv(&old),
        temp.display(),
        now.len(),
        fnv(&now),
        dir.temps(),
    );
    assert_eq!(
        status.signal(),
        Some(signal),
        "{name}: {status}; stderr {err}"
    );
    assert!(
        err.ends_with(&format!(
            "rapidurl: interrupted ({signal_name}); {out} left unchanged\n"
        )),
        "{name}: {err}"
    );
    assert!(now == old, "{name}: the old output changed");
    assert!(dir.temps().is_empty(), "{name}: {:?} left", dir.temps());
}

#[test]
fn sigterm_mid_run_leaves_an_old_parquet_output_unchanged() {
    kill_mid_run(SIGTERM, "parquet", 300_000, true);
}

#[test]
fn sigint_mid_run_leaves_an_old_tsv_output_unchanged() {
    kill_mid_run(SIGINT, "tsv", 300_000, true);
}

#[test]
fn sigterm_mid_run_leaves_an_old_tsv_output_unchanged() {
    kill_mid_run(SIGTERM, "tsv", 300_000, true);
}

#[test]
fn sigint_mid_run_leaves_an_old_parquet_output_unchanged() {
    kill_mid_run(SIGINT, "parquet", 300_000, true);
}

/// The signal lands while the pipeline is busy parsing and writing a large file.
#[test]
fn sigterm_while_parsing_a_large_file_stops_the_run() {
    kill_mid_run(SIGTERM, "parquet", 1_000_000, false);
}

/// A readable input, then a directory: it opens, and its first read fails (EISDIR),
/// after the rows of the first input are written to the temporary file.
fn failing_inputs(dir: &Dir) -> (String, String) {
    let good = dir.path("good.txt");
    std::fs::write(&good, urls(100_000)).expect("write input");
    let unreadable = dir.path("unreadable");
    std::fs::create_dir_all(&unreadable).expect("mkdir");
    (good, unreadable)
}

#[test]
fn a_failed_run_leaves_the_old_output_unchanged() {
    let dir = Dir::new("failed");
    let (good, unreadable) = failing_inputs(&dir);
    for (command, ext) in [
        ("parse", "tsv"),
        ("parse", "csv"),
        ("parse", "jsonl"),
        ("parse", "parquet"),
        ("dedup", "tsv"),
    ] {
        let out = dir.path(&format!("out.{ext}"));
        let old = old_output(&dir, ext);
        std::fs::write(&out, &old).expect("write old output");
        let mut args = vec![command, "--threads", "2"];
        if command == "dedup" {
            args.extend(["--format", ext]);
        }
        args.extend([good.as_str(), unreadable.as_str(), "-o", out.as_str()]);
        let ran = run(&args, b"");
        let err = stderr(&ran);
        assert_eq!(code(&ran), 3, "{args:?}: {err}");
        assert!(
            err.contains(&format!("rapidurl: {unreadable}: read error: ")),
            "{args:?}: {err}"
        );
        assert!(
            err.ends_with(&format!("rapidurl: {out} left unchanged\n")),
            "{args:?}: {err}"
        );
        assert!(
            std::fs::read(&out).expect("read") == old,
            "{args:?}: changed"
        );
        assert!(dir.temps().is_empty(), "{args:?}: {:?}", dir.temps());
    }
}

#[test]
fn on_error_fail_leaves_the_old_output_unchanged_and_a_new_one_unwritten() {
    let dir = Dir::new("on-error-fail");
    let input = dir.path("in.txt");
    std::fs::write(&input, urls_with_bad(5000, 1000)).expect("write input");
    let out = dir.path("out.tsv");
    std::fs::write(&out, b"old\n").expect("write old output");
    let ran = run(&["parse", "--on-error", "fail", &input, "-o", &out], b"");
    let err = stderr(&ran);
    assert_eq!(code(&ran), 1, "{err}");
    assert!(err.contains(":1000:1: "), "{err}");
    assert!(
        err.ends_with(&format!("rapidurl: {out} left unchanged\n")),
        "{err}"
    );
    assert_eq!(std::fs::read(&out).expect("read"), b"old\n");
    assert!(dir.temps().is_empty(), "{:?}", dir.temps());

    let new = dir.path("new.tsv");
    let ran = run(&["parse", "--on-error", "fail", &input, "-o", &new], b"");
    let err = stderr(&ran);
    assert_eq!(code(&ran), 1, "{err}");
    assert!(
        err.ends_with(&format!("rapidurl: {new} not written\n")),
        "{err}"
    );
    assert!(!Path::new(&new).exists(), "{new} created");
    assert!(dir.temps().is_empty(), "{:?}", dir.temps());
}

#[test]
fn a_successful_run_replaces_the_output_keeping_its_mode_and_links() {
    let dir = Dir::new("success");
    let input = dir.path("in.txt");
    std::fs::write(&input, urls(20_000)).expect("write input");
    let expected = run(&["parse", "--fields", "href,hostname", &input], b"");
    assert_eq!(code(&expected), 0, "{}", stderr(&expected));

    let out = dir.path("out.tsv");
    std::fs::write(&out, b"old\n").expect("write old output");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let ran = run(
        &["parse", "--fields", "href,hostname", &input, "-o", &out],
        b"",
    );
    assert_eq!(code(&ran), 0, "{}", stderr(&ran));
    assert!(ran.stdout.is_empty());
    assert!(std::fs::read(&out).expect("read") == expected.stdout);
    let mode = std::fs::metadata(&out).expect("stat").permissions().mode();
    assert_eq!(mode & 0o777, 0o640, "the old file's mode is kept");
    assert!(dir.temps().is_empty(), "{:?}", dir.temps());

    // Through a symbolic link: the file it points to is replaced, the link stays.
    let link = dir.path("link.tsv");
    std::os::unix::fs::symlink("out.tsv", &link).expect("symlink");
    let ran = run(&["dedup", &input, "-o", &link], b"");
    assert_eq!(code(&ran), 0, "{}", stderr(&ran));
    assert!(
        std::fs::symlink_metadata(&link)
            .expect("lstat")
            .file_type()
            .is_symlink()
    );
    let kept = std::fs::read_to_string(&out).expect("read");
    assert_eq!(kept.lines().count(), 20_000, "dedup's rows: {kept:.100}");
    assert!(dir.temps().is_empty(), "{:?}", dir.temps());

    // A new file, in the current directory (a FILE without a directory part).
    let ran = Command::new(BIN)
        .current_dir(&dir.0)
        .args([
            "parse",
            "--fields",
            "href,hostname",
            "in.txt",
            "-o",
            "new.tsv",
        ])
        .output()
        .expect("run");
    assert_eq!(code(&ran), 0, "{}", stderr(&ran));
    assert!(std::fs::read(dir.path("new.tsv")).expect("read") == expected.stdout);
}

/// A write that fails mid-run on a regular file (the process's file size limit, so
/// writes past it fail with EFBIG) leaves the old output unchanged.
#[test]
fn a_write_error_leaves_the_old_output_unchanged() {
    let dir = Dir::new("write-error");
    let input = dir.path("in.txt");
    std::fs::write(&input, urls(200_000)).expect("write input");
    for ext in ["tsv", "parquet"] {
        let out = dir.path(&format!("out.{ext}"));
        let old = old_output(&dir, ext);
        std::fs::write(&out, &old).expect("write old output");
        // 64 blocks: at most 64 KiB; SIGXFSZ ignored, so the write fails instead.
        let ran = Command::new("sh")
            .args([
                "-c",
                "ulimit -f 64 && trap '' XFSZ && exec \"$@\"",
                "sh",
                BIN,
                "parse",
                &input,
                "-o",
                &out,
            ])
            .output()
            .expect("run sh");
        let err = stderr(&ran);
        assert_eq!(code(&ran), 2, "{ext}: {err}");
        assert!(
            err.starts_with("rapidurl: error writing output: ") && err.contains("File too large"),
            "{ext}: {err}"
        );
        assert!(
            err.ends_with(&format!("rapidurl: {out} left unchanged\n")),
            "{ext}: {err}"
        );
        assert!(std::fs::read(&out).expect("read") == old, "{ext}: changed");
        assert!(dir.temps().is_empty(), "{ext}: {:?}", dir.temps());
    }
}

/// A full disk: a 256 KiB tmpfs, mounted in a private mount namespace (as root, or as a
/// user through a user namespace). Where neither can be made the test fails, saying so.
#[test]
fn a_full_disk_leaves_the_old_output_unchanged() {
    let dir = Dir::new("full-disk");
    let input = dir.path("in.txt");
    std::fs::write(&input, urls(100_000)).expect("write input");
    let disk = dir.path("disk");
    std::fs::create_dir_all(&disk).expect("mkdir");
    let script = r#"
        mount -t tmpfs -o size=256k tmpfs "$1" || exit 99
        printf 'old output\n' > "$1/out.tsv"
        "$2" parse "$3" -o "$1/out.tsv"
        echo "status $?"
        cat "$1/out.tsv"
        ls -A "$1"
    "#;
    let mut ran = None;
    for unshare in [&["--user", "--map-root-user", "--mount"][..], &["--mount"]] {
        let out = Command::new("unshare")
            .args(unshare)
            .args(["sh", "-c", script, "sh", &disk, BIN, &input])
            .output();
        match out {
            Ok(out) if out.status.code() != Some(99) && !out.stdout.is_empty() => {
                ran = Some(out);
                break;
            }
            _ => {}
        }
    }
    let ran = ran.expect(
        "cannot mount a tmpfs in a private mount namespace here (`unshare --mount`, as root \
         or through a user namespace): this test needs one",
    );
    let err = stderr(&ran);
    let out = String::from_utf8_lossy(&ran.stdout);
    eprintln!("[full disk] stdout: {out:?}\n  stderr: {err:?}");
    assert_eq!(out, "status 2\nold output\nout.tsv\n", "stderr: {err}");
    assert!(
        err.starts_with("rapidurl: error writing output: No space left on device"),
        "{err}"
    );
    assert!(
        err.ends_with(&format!("rapidurl: {disk}/out.tsv left unchanged\n")),
        "{err}"
    );
}

/// `-o /dev/full` is not a regular file: it is written directly, and the error is the
/// full device's.
#[test]
fn a_full_device_is_exit_status_2() {
    assert!(
        Path::new("/dev/full").exists(),
        "this test needs Linux's /dev/full (a device whose writes fail with ENOSPC)"
    );
    let dir = Dir::new("dev-full");
    let input = dir.path("in.txt");
    std::fs::write(&input, urls(50_000)).expect("write input");
    for format in ["tsv", "parquet"] {
        let ran = run(
            &["parse", "--format", format, &input, "-o", "/dev/full"],
            b"",
        );
        let err = stderr(&ran);
        assert_eq!(code(&ran), 2, "{format}: {err}");
        assert!(err.contains("No space left on device"), "{format}: {err}");
    }
}

/// `rapidurl parse BIG | head -1`: the reader goes away; the tool ends quietly, status 0.
#[test]
fn a_closed_pipe_is_a_quiet_exit() {
    let dir = Dir::new("pipe");
    let input = dir.path("in.txt");
    std::fs::write(&input, urls(300_000)).expect("write input");
    let err_file = dir.path("stderr");
    let mut child = Command::new(BIN)
        .args(["parse", &input])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&err_file).expect("create stderr file"))
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("read");
    assert!(first.starts_with("href\t"), "{first}");
    let (status, err) = finish(child, &err_file);
    assert_eq!(status.code(), Some(0), "{status}: {err}");
    assert_eq!(err, "");
}
