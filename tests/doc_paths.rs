//! Every file of this repository that the documentation names exists: a path such as
//! `cli/src/output/file.rs` in README.md, CHANGELOG.md, python/README.md or docs/*.md
//! (outside fenced code blocks, which show a user's own project) is a file or folder of
//! the checkout. A renamed or moved file then fails here instead of leaving the docs
//! pointing at nothing.

use std::path::Path;

/// The folders of the repository a path may start with.
const ROOTS: [&str; 14] = [
    "src/",
    "cli/",
    "scripts/",
    "python/",
    "duckdb/",
    "compat/",
    "fuzz/",
    "benches/",
    "tests/",
    "testkit/",
    "corpora/",
    "docs/",
    "examples/",
    ".ci/",
];

/// Names of files of other packages that the docs cite, with where.
const ELSEWHERE: [(&str, &str); 2] = [
    // rust-url's own test files, run from the package cargo downloads.
    ("docs/url-compat.md", "tests/unit.rs"),
    ("docs/url-compat.md", "tests/wpt.rs"),
];

/// The repository-relative paths named on `line`: runs of path characters that start
/// with one of [`ROOTS`] and end with a file name's extension, an `::item` suffix
/// dropped.
fn paths(line: &str) -> Vec<&str> {
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find(is_path_char) {
        let tail = &rest[start..];
        let len = tail.find(|c: char| !is_path_char(c)).unwrap_or(tail.len());
        let word = tail[..len].trim_end_matches('.');
        let preceded = rest[..start].chars().next_back();
        if preceded != Some('/')
            && ROOTS.iter().any(|r| word.starts_with(r))
            && Path::new(word).extension().is_some_and(|e| {
                e.len() <= 4
                    && e.to_str()
                        .is_some_and(|e| e.chars().all(|c| c.is_ascii_alphabetic()))
            })
        {
            out.push(word);
        }
        rest = &tail[len..];
    }
    out
}

#[test]
fn every_path_the_docs_name_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<String> = ["README.md", "CHANGELOG.md", "python/README.md"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    for entry in std::fs::read_dir(root.join("docs")).expect("docs/") {
        let name = entry.expect("entry").file_name();
        let name = name.to_str().expect("UTF-8 name");
        if name.ends_with(".md") {
            docs.push(format!("docs/{name}"));
        }
    }
    let mut checked = 0;
    let mut missing = Vec::new();
    for doc in &docs {
        let text = std::fs::read_to_string(root.join(doc)).expect("read doc");
        let mut fenced = false;
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            if fenced {
                continue;
            }
            for path in paths(line) {
                if ELSEWHERE.contains(&(doc.as_str(), path)) {
                    continue;
                }
                checked += 1;
                if !root.join(path).exists() {
                    missing.push(format!("{doc}:{}: {path}", n + 1));
                }
            }
        }
    }
    assert!(
        checked > 200,
        "only {checked} paths found: is the scan broken?"
    );
    assert!(
        missing.is_empty(),
        "paths the docs name that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn paths_are_found_in_prose_and_tables() {
    assert_eq!(
        paths("see `cli/src/output/file.rs` and docs/cli.md; not a/src/x.rs."),
        ["cli/src/output/file.rs", "docs/cli.md"]
    );
    assert_eq!(
        paths("| `cli/tests/fuzz_findings.rs::damaged` | scripts/test-all.sh |"),
        ["cli/tests/fuzz_findings.rs", "scripts/test-all.sh"]
    );
    assert!(paths("the folder fuzz/artifacts/TARGET/ and src/").is_empty());
}
