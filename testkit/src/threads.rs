//! Running code where no thread can be started: `scripts/nothreads.c`, built for this
//! machine with `cc` and preloaded (`LD_PRELOAD`), makes every `pthread_create` fail with
//! `EAGAIN`, as a process or `pids` cgroup limit does. It is the test's way to refuse
//! threads on any machine: root (CI's user) is not bound by `RLIMIT_NPROC`, so `ulimit -u`
//! cannot do it there.
//!
//! A test that must run without threads calls [`rerun_without_threads`] with its own
//! name: in the normal run, that runs the test binary again, that test alone, under the
//! shim, and checks that it passed there; under the shim (or wherever threads are
//! already refused, e.g. under `scripts/test-aarch64.sh`), it returns `false` and the test
//! goes on with its checks.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable set in the child run.
const CHILD: &str = "RAPIDURL_TEST_NO_THREADS";

/// Whether a thread can be started here (one is started and joined).
pub fn threads_start() -> bool {
    std::thread::Builder::new()
        .spawn(|| ())
        .is_ok_and(|h| h.join().is_ok())
}

/// The repository's root (testkit/ is one of its folders).
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testkit/ is in the repository")
        .to_path_buf()
}

/// `scripts/nothreads.c` built with `cc` into `dir` (a shared library to preload); panics
/// with cc's message when it cannot be built.
pub fn shim(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).expect("create the shim's directory");
    let out = dir.join(format!("nothreads-{}.so", std::process::id()));
    let source = repo().join("scripts/nothreads.c");
    let status = Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o"])
        .arg(&out)
        .arg(&source)
        .status()
        .unwrap_or_else(|e| panic!("cannot run cc (to build {}): {e}", source.display()));
    assert!(status.success(), "cc failed to build {}", source.display());
    out
}

/// In the normal run: runs this test binary again with the shim preloaded, the test
/// `name` alone (its full path, e.g. `module::test_name`, or the name for a test at the
/// top of an integration test file), asserts that it ran and passed, and returns `true`
/// (the caller returns). In that child run, or wherever a thread cannot start already:
/// checks that none can (so the child's checks are the ones meant) and returns `false`:
/// the caller runs its checks.
///
/// `tmp` is where the shim is built (`env!("CARGO_TARGET_TMPDIR")`).
pub fn rerun_without_threads(tmp: &Path, name: &str) -> bool {
    if std::env::var_os(CHILD).is_some() || !threads_start() {
        assert!(
            !threads_start(),
            "{name}: a thread started under the shim (is LD_PRELOAD honoured?)"
        );
        return false;
    }
    let shim = shim(tmp);
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(&exe)
        .args([name, "--exact", "--test-threads=1", "--nocapture"])
        .env("LD_PRELOAD", &shim)
        .env(CHILD, "1")
        .output()
        .expect("run the test binary again");
    let _ = std::fs::remove_file(&shim);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.contains("test result: ok. 1 passed"),
        "{name} without threads: {}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    true
}
