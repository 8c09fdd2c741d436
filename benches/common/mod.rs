//! Shared by the benches: where the corpora are.

#![allow(dead_code)] // each bench uses a part

use std::path::PathBuf;

/// `RAPIDURL_CORPORA_DIR`, else `../shared/corpora` beside the repository.
pub fn shared_corpora_dir() -> PathBuf {
    std::env::var_os("RAPIDURL_CORPORA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora"))
}

/// The shared corpora (`*.txt`), sorted by name; with `with_sample`, the project's own
/// `corpora/sample.txt` last. Panics when there is none.
pub fn corpus_paths(with_sample: bool) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(shared_corpora_dir())
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "txt"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/sample.txt");
    if with_sample && sample.is_file() {
        paths.push(sample);
    }
    assert!(
        !paths.is_empty(),
        "no corpus found: set RAPIDURL_CORPORA_DIR"
    );
    paths
}
