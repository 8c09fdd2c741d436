//! The documentation's transcripts, run: every `$ rapidurl …` example of README.md and
//! docs/cli.md is a ```` ```console ```` block that `trycmd` runs with the built binary,
//! from the repository root, against the shipped files (`corpora/`, `docs/examples/`).
//! The tool's own README (cli/README.md, also the release archive's, which holds some of
//! `docs/examples/` as `examples/`) runs from `docs/`, where its `examples/` paths lead.
//! Each must exit as its `? STATUS` line says (success when there is none) and print
//! exactly what the block shows (stdout and stderr together, as a terminal shows them).
//!
//! trycmd reads a backslash in a command's output as a Windows path separator (it turns
//! it into `/` before comparing), so the transcripts show no backslash.
//!
//! To see what a changed command prints: `TRYCMD=dump cargo test -p rapidurl-cli --test
//! transcripts` (writes `dump/`); `TRYCMD=overwrite …` rewrites the blocks in place.
//!
//! The transcripts also run where no thread can be started
//! (`documented_transcripts_where_no_thread_starts`: `scripts/nothreads.c` preloaded),
//! and `RAPIDURL_TRANSCRIPTS_TOOL` runs them with another `rapidurl`: a program that
//! takes the tool's arguments and standard input (scripts/test-aarch64.sh passes one that
//! runs the aarch64 tool under qemu-aarch64).

use std::path::{Path, PathBuf};

/// The documents whose transcripts run, relative to the repository root, and the
/// directory (relative to it too) each runs from.
const DOCS: [(&str, &str); 3] = [
    ("README.md", "."),
    ("docs/cli.md", "."),
    ("cli/README.md", "docs"),
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the repository")
        .to_path_buf()
}

/// Runs every transcript with `tool` as `rapidurl`.
fn transcripts(tool: &Path) {
    let repo = repo();
    // trycmd runs a markdown file's commands in the current directory: the repository
    // root, where the documents' paths (`corpora/sample.txt`, `docs/examples/…`) start,
    // or the document's own directory of DOCS. Two tests of this binary change the
    // directory: one at a time (the others read absolute paths).
    static CWD: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _held = CWD.lock().unwrap_or_else(|e| e.into_inner());
    for (doc, dir) in DOCS {
        std::env::set_current_dir(repo.join(dir)).expect("cd to the document's directory");
        let cases = trycmd::TestCases::new();
        cases
            .register_bin("rapidurl", tool)
            .register_bin("cat", Path::new("/bin/cat"))
            // Columns and bars do not depend on the terminal the tests run in.
            .env("COLUMNS", "100")
            .env("NO_COLOR", "1");
        cases.case(repo.join(doc));
        cases.run();
    }
}

#[test]
fn documented_transcripts() {
    match std::env::var_os("RAPIDURL_TRANSCRIPTS_TOOL") {
        Some(tool) => transcripts(Path::new(&tool)),
        None => transcripts(Path::new(env!("CARGO_BIN_EXE_rapidurl"))),
    }
}

/// The transcripts with every thread start refused: the tool runs on one thread and
/// prints the same, but for its note saying so, which the wrapper below takes out of
/// stderr (`cli/tests/threads_refused.rs` checks that note).
#[test]
fn documented_transcripts_where_no_thread_starts() {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let shim = rapidurl_testkit::threads::shim(tmp);
    let wrapper = tmp.join(format!("rapidurl-nothreads-{}", std::process::id()));
    std::fs::write(
        &wrapper,
        format!(
            "#!/usr/bin/env bash\n\
             # rapidurl with no thread able to start; its note saying so taken out\n\
             LD_PRELOAD='{}' '{}' \"$@\" 2>&1 \\\n\
             \x20   | sed '/^rapidurl: cannot start a thread (.*); running on one thread$/d'\n\
             exit \"${{PIPESTATUS[0]}}\"\n",
            shim.display(),
            env!("CARGO_BIN_EXE_rapidurl"),
        ),
    )
    .expect("write the wrapper");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    transcripts(&wrapper);
    let _ = std::fs::remove_file(&wrapper);
    let _ = std::fs::remove_file(&shim);
}

/// Every `$ rapidurl` line of the documents is in a block trycmd runs (```` ```console
/// ````), so none can drift untested; and every block without a language is one trycmd
/// would misread.
#[test]
fn every_rapidurl_example_is_a_tested_transcript() {
    let repo = repo();
    let mut untested = Vec::new();
    for (doc, _) in DOCS {
        let text = std::fs::read_to_string(repo.join(doc)).expect("read the document");
        let mut lang: Option<&str> = None;
        for (n, line) in text.lines().enumerate() {
            if let Some(info) = line.strip_prefix("```") {
                lang = match lang {
                    Some(_) => None,
                    None => Some(info.trim()),
                };
                if lang == Some("") {
                    untested.push(format!("{doc}:{}: a code block without a language", n + 1));
                }
                continue;
            }
            let runs = matches!(lang, Some("console" | "trycmd"));
            if line.starts_with("$ rapidurl") && !runs {
                untested.push(format!(
                    "{doc}:{}: `{line}` is not in a console block",
                    n + 1
                ));
            }
        }
    }
    assert!(untested.is_empty(), "{}", untested.join("\n"));
}
