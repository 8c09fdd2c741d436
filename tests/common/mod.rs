//! Shared by the conformance tests: where the web-platform-tests `url/` data is.
//!
//! First found wins:
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
    if let Some(path) = ada_url_wpt_dir().map(|dir| dir.join(file)) {
        if path.is_file() {
            return path;
        }
    }
    panic!(
        "WPT data file {file} not found. Put it (from web-platform-tests url/resources/) in {} \
         or in a folder named by the environment variable RAPIDURL_WPT_DIR.",
        shared.display()
    )
}

/// The workspace's root folder (the one with `Cargo.lock`), whichever member's tests run.
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|dir| dir.join("Cargo.lock").is_file())
        .unwrap_or(manifest)
        .to_path_buf()
}

/// `registry/src/*/ada-url-<version>/tests/wpt` under `$CARGO_HOME` or `~/.cargo`, newest
/// version first found.
fn ada_url_wpt_dir() -> Option<PathBuf> {
    let cargo_homes = [
        env::var_os("CARGO_HOME").map(PathBuf::from),
        env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")),
    ];
    let mut found: Vec<(Vec<u64>, PathBuf)> = cargo_homes
        .into_iter()
        .flatten()
        .filter_map(|home| fs::read_dir(home.join("registry/src")).ok())
        .flat_map(|indexes| indexes.flatten())
        .filter_map(|index| fs::read_dir(index.path()).ok())
        .flat_map(|crates| crates.flatten())
        .filter_map(|krate| {
            let name = krate.file_name().into_string().ok()?;
            let version = name.strip_prefix("ada-url-")?;
            let key = version.split('.').map(|n| n.parse().unwrap_or(0)).collect();
            let dir = krate.path().join("tests/wpt");
            dir.is_dir().then_some((key, dir))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, dir)| dir)
}

/// The benchmark corpora folder: `RAPIDURL_CORPORA_DIR`, or `../shared/corpora` beside the
/// workspace; panics, saying where to put them, if it is missing.
#[allow(dead_code)]
pub fn corpora_dir() -> PathBuf {
    if let Some(dir) = env::var_os("RAPIDURL_CORPORA_DIR") {
        return PathBuf::from(dir);
    }
    let dir = workspace_root().join("../shared/corpora");
    assert!(
        dir.is_dir(),
        "benchmark corpora not found: set RAPIDURL_CORPORA_DIR, or put the corpora \
         (kasztp.txt, userbait.txt, node_files.txt, isaacs_files.txt) in {}",
        dir.display()
    );
    dir
}
