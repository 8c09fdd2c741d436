//! `-o FILE`, written atomically: the rows go to a temporary file in FILE's directory
//! (`.FILE.rapidurl-tmp-PID`), which is renamed over FILE only once the run has
//! succeeded and the file's bytes are on disk. A run that fails (an error, a bad input, a
//! full disk, `--on-error fail`), panics, or is stopped by SIGINT or SIGTERM removes the
//! temporary file and leaves FILE as it was, byte for byte (or absent, if it was).
//!
//! The signals are taken by a thread (`signal-hook`'s iterator), installed with the
//! first output file: it removes the temporary file, says so on stderr, then ends the
//! process by the same signal (the default action), wherever the pipeline is; a shell's
//! `$?` is then 130 (SIGINT) or 143 (SIGTERM). Creating, renaming and removing the
//! temporary file happen under one lock, so a signal never races a rename: it comes
//! before (FILE unchanged) or after (FILE replaced by the finished output).
//!
//! When that thread cannot be started (the run is then on one thread: `crate::threads`),
//! a signal only marks itself, and the pipeline acts on it between batches
//! ([`act_on_signal`]), as the thread would: the same message, the temporary file
//! removed, the same end. A run waiting for a pipe acts on it once the read returns; a
//! second signal ends the process at once, by the signal's default action (FILE is then
//! still unchanged, but the temporary file stays).
//!
//! A FILE that exists and is not a regular file (`/dev/null`, `/dev/full`, a named pipe)
//! cannot be replaced by a rename: it is written directly, as before, and the signals
//! keep their default action.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once, OnceLock, PoisonError};

use signal_hook::consts::signal::{SIGINT, SIGTERM};

/// The output file of the run, shared with the signal thread.
enum State {
    /// No output file is being written.
    Idle,
    /// Rows are being written to `temp`, which replaces `target` on success.
    Writing(Names),
    /// The run failed and its temporary file was removed: what to tell the user.
    Discarded(Names),
}

/// An output file's names.
struct Names {
    /// The temporary file beside `target`.
    temp: PathBuf,
    /// The file replaced (FILE, or the file a symbolic link FILE points to).
    target: PathBuf,
    /// FILE as the user wrote it, for messages.
    name: String,
    /// Whether FILE existed before the run.
    existed: bool,
}

impl Names {
    /// What became of FILE when the run did not succeed.
    fn fate(&self) -> String {
        if self.existed {
            format!("{} left unchanged", self.name)
        } else {
            format!("{} not written", self.name)
        }
    }
}

static STATE: Mutex<State> = Mutex::new(State::Idle);

/// The shared state, also after a panic elsewhere (the state itself is always whole).
fn state() -> MutexGuard<'static, State> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The run's output file being written: [`OutputFile::commit`] puts it in place;
/// dropping it uncommitted (a failed run, a panic) removes the temporary file.
pub struct OutputFile {
    /// The temporary file (another handle to it), for `sync_all`; `None` when FILE is
    /// written directly.
    temp: Option<File>,
}

/// Opens `path` for the run's output: a new temporary file beside it, or, when `path`
/// exists and is not a regular file, `path` itself. Returns the file to write and its
/// [`OutputFile`]; an `Err` is the message for stderr.
pub fn create(path: &str) -> Result<(File, OutputFile), String> {
    let meta = fs::metadata(path);
    if let Ok(meta) = &meta {
        if !meta.is_file() {
            let file = File::create(path).map_err(|e| format!("{path}: cannot create: {e}"))?;
            return Ok((file, OutputFile { temp: None }));
        }
        // The file must be writable, as it was when it was written in place (opening it
        // without truncating it changes nothing).
        OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{path}: cannot create: {e}"))?;
    }
    let existed = meta.is_ok();
    let is_link = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let target = if is_link && existed {
        // Replace the file the link points to, not the link.
        fs::canonicalize(path).map_err(|e| format!("{path}: cannot resolve: {e}"))?
    } else {
        PathBuf::from(path)
    };
    let Some(file_name) = target.file_name() else {
        return Err(format!("{path}: cannot create: not a file name"));
    };
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    install_signal_handling()?;
    let mut state = state();
    let pid = std::process::id();
    let mut attempt = 0u32;
    let (file, temp) = loop {
        let mut temp_name = format!(".{}.rapidurl-tmp-{pid}", file_name.to_string_lossy());
        if attempt > 0 {
            temp_name.push_str(&format!("-{attempt}"));
        }
        let temp = dir.join(temp_name);
        // `create_new`: never an existing file, nor through a symbolic link.
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => break (file, temp),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
            Err(e) => {
                return Err(format!(
                    "{path}: cannot create the temporary file {}: {e}",
                    temp.display()
                ));
            }
        }
    };
    let names = Names {
        temp,
        target,
        name: path.to_owned(),
        existed,
    };
    // The new file gets the old one's permissions.
    let kept = match &meta {
        Ok(meta) => file.set_permissions(meta.permissions()),
        Err(_) => Ok(()),
    };
    let handle = kept.and_then(|()| file.try_clone());
    match handle {
        Ok(handle) => {
            *state = State::Writing(names);
            Ok((file, OutputFile { temp: Some(handle) }))
        }
        Err(e) => {
            let _ = fs::remove_file(&names.temp);
            Err(format!("{}: cannot set up: {e}", names.temp.display()))
        }
    }
}

impl OutputFile {
    /// The output of a run that writes to standard output: nothing to put in place.
    pub fn stdout() -> OutputFile {
        OutputFile { temp: None }
    }

    /// Puts the finished output in place (call it once every writer is flushed and
    /// closed): syncs the temporary file to disk and renames it over FILE.
    pub fn commit(mut self) -> Result<(), String> {
        let Some(handle) = self.temp.take() else {
            return Ok(());
        };
        // Synced outside the lock: a signal meanwhile still discards the file.
        let synced = handle.sync_all();
        let mut state = state();
        if let Some(signal) = pending_signal() {
            // Taken before the rename, as the signal thread would have taken it.
            drop(state);
            interrupted(signal);
        }
        let State::Writing(names) = &*state else {
            return Ok(());
        };
        let done = synced
            .map_err(|e| format!("{}: error writing output: {e}", names.name))
            .and_then(|()| {
                fs::rename(&names.temp, &names.target).map_err(|e| {
                    format!(
                        "{}: cannot rename {} over it: {e}",
                        names.name,
                        names.temp.display()
                    )
                })
            });
        match done {
            Ok(()) => *state = State::Idle,
            Err(_) => discard(&mut state),
        }
        drop(state);
        // Taken after the rename: the process ends by it, FILE replaced.
        act_on_signal();
        done
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if self.temp.is_some() {
            discard(&mut state());
        }
    }
}

/// Removes the temporary file of the output being written, if any.
fn discard(state: &mut State) {
    if let State::Writing(names) = std::mem::replace(state, State::Idle) {
        let _ = fs::remove_file(&names.temp);
        *state = State::Discarded(names);
    }
}

/// When the run's output file was discarded: what became of FILE ("out.tsv left
/// unchanged"), for stderr.
pub fn discarded() -> Option<String> {
    match std::mem::replace(&mut *state(), State::Idle) {
        State::Discarded(names) => Some(names.fate()),
        _ => None,
    }
}

/// Takes SIGINT and SIGTERM (once): on a thread of their own; when no thread can be
/// started, by marking them for [`act_on_signal`].
fn install_signal_handling() -> Result<(), String> {
    static ONCE: Once = Once::new();
    let mut result = Ok(());
    ONCE.call_once(|| {
        result = match crate::threads::refused() {
            true => mark_signals(),
            false => {
                signal_hook::iterator::Signals::new([SIGINT, SIGTERM]).and_then(|mut signals| {
                    let spawned = std::thread::Builder::new()
                        .name("signals".to_owned())
                        .spawn(move || {
                            if let Some(signal) = signals.forever().next() {
                                interrupted(signal);
                            }
                        });
                    match spawned {
                        Ok(_) => Ok(()),
                        // The iterator went with the closure (its handlers removed).
                        Err(e) => {
                            crate::threads::refuse(&e);
                            mark_signals()
                        }
                    }
                })
            }
        }
        .map_err(|e| format!("cannot set up signal handling: {e}"));
    });
    result
}

/// The signal taken and not yet acted on (0: none), when signals are marked rather than
/// taken by a thread.
static PENDING: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// Marks SIGINT and SIGTERM in [`PENDING`] for [`act_on_signal`]; a second one ends the
/// process by its default action.
fn mark_signals() -> std::io::Result<()> {
    let pending = PENDING.get_or_init(|| Arc::new(AtomicUsize::new(0)));
    let armed = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        // In this order: the first signal arms the default action, the second runs it.
        signal_hook::flag::register_conditional_default(signal, armed.clone())?;
        signal_hook::flag::register(signal, armed.clone())?;
        signal_hook::flag::register_usize(signal, pending.clone(), signal as usize)?;
    }
    Ok(())
}

/// The signal marked and not yet acted on, if any.
fn pending_signal() -> Option<i32> {
    PENDING
        .get()
        .map(|p| p.load(Ordering::SeqCst))
        .filter(|&s| s != 0)
        .and_then(|s| i32::try_from(s).ok())
}

/// Acts on a signal that was marked (no signal thread could be started): removes the
/// temporary file, says so, and ends the process by the signal, as the signal thread
/// does. Called by the pipeline between batches; an atomic load when there is none.
pub fn act_on_signal() {
    if let Some(signal) = pending_signal() {
        interrupted(signal);
    }
}

/// Ends the process on `signal`: removes the temporary file, says what happened, then
/// ends by the signal's default action.
fn interrupted(signal: i32) -> ! {
    // Held until the end: no rename can start.
    let mut state = state();
    discard(&mut state);
    let name = match signal {
        SIGINT => "SIGINT",
        _ => "SIGTERM",
    };
    let message = match &*state {
        State::Discarded(names) => format!("rapidurl: interrupted ({name}); {}\n", names.fate()),
        _ => format!("rapidurl: interrupted ({name})\n"),
    };
    // Written as `outcome::report` does, ignoring failure: nowhere is left to report it.
    let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), message.as_bytes());
    let _ = signal_hook::low_level::emulate_default_handler(signal);
    // Only when the default action could not be taken.
    std::process::exit(128 + signal)
}

#[cfg(test)]
mod tests {
    use super::{create, discarded};
    use std::io::Write;

    /// Whether `path` is a temporary file of this module's.
    fn is_temp_name(path: &std::path::Path) -> bool {
        path.file_name()
            .is_some_and(|n| n.to_string_lossy().contains(".rapidurl-tmp-"))
    }

    fn temps(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        std::fs::read_dir(dir)
            .expect("read_dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| is_temp_name(p))
            .collect()
    }

    #[test]
    fn an_output_replaces_the_file_only_when_committed() {
        let dir = std::env::temp_dir().join(format!("rapidurl-outfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("mkdir");
        let path = dir.join("out.tsv");
        std::fs::write(&path, "old\n").expect("write");
        let name = path.to_str().expect("UTF-8");

        let (mut file, out) = create(name).expect("create");
        file.write_all(b"new, dropped\n").expect("write");
        assert_eq!(temps(&dir).len(), 1, "the temporary file is beside FILE");
        drop(out);
        assert_eq!(std::fs::read(&path).expect("read"), b"old\n");
        assert!(temps(&dir).is_empty(), "the temporary file is removed");
        assert_eq!(discarded(), Some(format!("{name} left unchanged")));

        let (mut file, out) = create(name).expect("create");
        file.write_all(b"new\n").expect("write");
        drop(file);
        out.commit().expect("commit");
        assert_eq!(std::fs::read(&path).expect("read"), b"new\n");
        assert!(temps(&dir).is_empty());
        assert_eq!(discarded(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
