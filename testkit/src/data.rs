//! Where the test data is: the web-platform-tests `url/` files, the benchmark corpora,
//! and data that dependencies ship (read from the cargo registry).
//!
//! WPT files ([`wpt_file`]), first found wins:
//! 1. the folder named by the environment variable `RAPIDURL_WPT_DIR`;
//! 2. `../shared/wpt` beside the workspace (the project's shared data);
//! 3. the `tests/wpt` folder of the `ada-url` crate (a dev-dependency) in the cargo registry
//!    under `$CARGO_HOME` or `~/.cargo`.
//!
//! A missing file fails the test and says where to put it.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};

/// The path of the WPT data file `file`; panics, saying where to put it, if none is found.
pub fn wpt_file(file: &str) -> PathBuf {
    if let Some(dir) = env::var_os("RAPIDURL_WPT_DIR") {
        let path = PathBuf::from(dir).join(file);
        assert!(
            path.is_file(),
            "RAPIDURL_WPT_DIR is set, but {} is not a file",
            path.display()
        );
        return path;
    }
    let shared = workspace_root().join("../shared/wpt");
    if shared.join(file).is_file() {
        return shared.join(file);
    }
    if let Some(path) = ada_url_wpt_dir().map(|dir| dir.join(file))
        && path.is_file()
    {
        return path;
    }
    panic!(
        "WPT data file {file} not found. Put it (from web-platform-tests url/resources/) in {} \
         or in a folder named by the environment variable RAPIDURL_WPT_DIR.",
        shared.display()
    )
}

/// The workspace's root folder (the one with `Cargo.lock`), whichever member's tests run.
pub fn workspace_root() -> PathBuf {
    // This crate's folder is `testkit/` in the workspace.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .unwrap_or(manifest)
        .to_path_buf()
}

/// `registry/src/*/ada-url-<version>/tests/wpt` under `$CARGO_HOME` or `~/.cargo`.
fn ada_url_wpt_dir() -> Option<PathBuf> {
    let dir = registry_crate_dir("ada-url")?.join("tests/wpt");
    dir.is_dir().then_some(dir)
}

/// The source folder of the crate `name` in the cargo registry (`registry/src/*/` under
/// `$CARGO_HOME` or `~/.cargo`): the version `Cargo.lock` holds, else the newest found.
/// Tests read data that dependencies ship (WPT files, the Public Suffix List's tests)
/// from there, so that the repository holds no copy.
pub fn registry_crate_dir(name: &str) -> Option<PathBuf> {
    let lock = fs::read_to_string(workspace_root().join("Cargo.lock")).unwrap_or_default();
    let locked = lock
        .split("[[package]]")
        .find(|p| p.contains(&format!("\nname = \"{name}\"\n")))
        .and_then(|p| p.split("\nversion = \"").nth(1))
        .and_then(|v| v.split('"').next())
        .map(str::to_owned);
    let cargo_homes = [
        env::var_os("CARGO_HOME").map(PathBuf::from),
        env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")),
    ];
    let prefix = format!("{name}-");
    let mut found: Vec<(bool, Vec<u64>, PathBuf)> = cargo_homes
        .into_iter()
        .flatten()
        .filter_map(|home| fs::read_dir(home.join("registry/src")).ok())
        .flat_map(|indexes| indexes.flatten())
        .filter_map(|index| fs::read_dir(index.path()).ok())
        .flat_map(|crates| crates.flatten())
        .filter_map(|krate| {
            let dir_name = krate.file_name().into_string().ok()?;
            let version = dir_name.strip_prefix(&prefix)?;
            // `ada-url-4.0.0`, not `ada-url-sys-1.0`.
            if !version.starts_with(|c: char| c.is_ascii_digit()) {
                return None;
            }
            let is_locked = locked.as_deref() == Some(version);
            let key = version.split('.').map(|n| n.parse().unwrap_or(0)).collect();
            Some((is_locked, key, krate.path()))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, _, dir)| dir)
}

/// The benchmark corpora folder: `RAPIDURL_CORPORA_DIR`, or `../shared/corpora` beside the
/// workspace; panics, saying where to put them, if it is missing.
pub fn corpora_dir() -> PathBuf {
    let dir = corpora_dir_unchecked();
    if env::var_os("RAPIDURL_CORPORA_DIR").is_some() {
        return dir;
    }
    assert!(
        dir.is_dir(),
        "benchmark corpora not found: set RAPIDURL_CORPORA_DIR, or put the corpora \
         (kasztp.txt, userbait.txt, node_files.txt, isaacs_files.txt) in {}",
        dir.display()
    );
    dir
}

/// Where the corpora are to be ([`corpora_dir`]), whether or not the folder exists.
pub fn corpora_dir_unchecked() -> PathBuf {
    match env::var_os("RAPIDURL_CORPORA_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("../shared/corpora"),
    }
}

/// The corpus `name` (`kasztp.txt`, ...) in [`corpora_dir`].
pub fn corpus_file(name: &str) -> PathBuf {
    corpora_dir().join(name)
}

/// The text of the corpus `name`; panics, naming the file, when it cannot be read.
pub fn corpus_text(name: &str) -> String {
    let path = corpus_file(name);
    fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (set RAPIDURL_CORPORA_DIR to the corpora folder)",
            path.display()
        )
    })
}

/// The shared corpora (`*.txt`), sorted by name; with `with_sample`, the project's own
/// `corpora/sample.txt` last. Panics when there is none.
pub fn corpus_paths(with_sample: bool) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = fs::read_dir(corpora_dir())
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    let sample = workspace_root().join("corpora/sample.txt");
    if with_sample && sample.is_file() {
        paths.push(sample);
    }
    assert!(
        !paths.is_empty(),
        "no corpus found: set RAPIDURL_CORPORA_DIR"
    );
    paths
}
