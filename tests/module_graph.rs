//! The library's modules import in layers: the `crate::` dependency graph between the
//! top-level modules of `src/` (a file `src/x.rs` or a folder `src/x/`) has no cycle.
//!
//! An edge `a -> b` is any `crate::b` path in `a`'s code (a `use`, a qualified call,
//! `$crate::b` in a macro, a name of a grouped `use crate::{b::…}`), or a root re-export
//! of `b`'s (`crate::Url` is `url`'s, by `lib.rs`'s `pub use crate::url::{…}`). Comments
//! and string literals are not read. When a cycle appears, the test names its modules
//! and, for each edge, the files that make it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `a -> b -> files of a that name b`.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The top-level modules: `src/x.rs` and `src/x/`, without `lib.rs`.
fn modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .expect("src/ is readable")
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if path.is_dir() {
                Some(name)
            } else {
                name.strip_suffix(".rs").map(str::to_owned)
            }
        })
        .filter(|m| m != "lib")
        .collect()
}

/// The code of a Rust file without comments, string literals and character literals
/// (lifetimes stay).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i..].starts_with(b"/*") {
                        depth += 1;
                        i += 2;
                    } else if b[i..].starts_with(b"*/") {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            // A character literal: 'x', '\n', '\u{..}' (a lifetime has no closing quote).
            b'\'' if b.get(i + 2) == Some(&b'\'') || b.get(i + 1) == Some(&b'\\') => {
                i += 1;
                while i < b.len() && b[i] != b'\'' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("' '");
            }
            _ => {
                let len = text[i..].chars().next().map_or(1, char::len_utf8);
                out.push_str(&text[i..i + len]);
                i += len;
            }
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The leading identifier of `s`, after white space.
fn ident(s: &str) -> &str {
    let s = s.trim_start();
    &s[..s.find(|c| !is_ident(c)).unwrap_or(s.len())]
}

/// Every name that follows `crate::` in `code`, including the first name of each item of
/// a grouped `crate::{…}`.
fn crate_names(code: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before_ok = rest[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        rest = &rest[at + "crate::".len()..];
        if !before_ok {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            // The items at depth one of the braces.
            let mut depth = 1;
            let mut item_start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' | ',' if depth == 1 => {
                        names.push(ident(&group[item_start..i]));
                        item_start = i + 1;
                        if c == '}' {
                            break;
                        }
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
        } else {
            names.push(ident(rest));
        }
    }
    names.retain(|n| !n.is_empty());
    names
}

/// The names `lib.rs` re-exports at the root, with the module each comes from.
fn root_reexports(src: &Path) -> BTreeMap<String, String> {
    let lib = code_only(&std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs"));
    let mut map = BTreeMap::new();
    for statement in lib.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use crate::") else {
            continue;
        };
        let module = ident(path);
        let items = path[module.len()..].trim_start_matches("::");
        for name in items
            .split(|c: char| !is_ident(c))
            .filter(|n| !n.is_empty())
        {
            map.insert(name.to_owned(), module.to_owned());
        }
    }
    map
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn graph(src: &Path) -> Graph {
    let modules = modules(src);
    let reexports = root_reexports(src);
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph = Graph::new();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src/");
        let first = relative.iter().next().expect("a path").to_string_lossy();
        let from = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
        if from == "lib" {
            continue;
        }
        let code = code_only(&std::fs::read_to_string(&file).expect("readable source"));
        for name in crate_names(&code) {
            let to = if modules.contains(name) {
                Some(name.to_owned())
            } else {
                reexports.get(name).cloned()
            };
            if let Some(to) = to.filter(|to| *to != from) {
                graph
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(relative.display().to_string());
            }
        }
    }
    graph
}

/// A cycle of `graph` as its modules in order, if it has one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &Graph,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let from = stack.iter().position(|n| n == node).expect("on the stack");
                return Some(stack[from..].to_vec());
            }
            None => {}
        }
        marks.insert(node.to_owned(), Mark::Open);
        stack.push(node.to_owned());
        for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
            if let Some(cycle) = visit(next, graph, marks, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        marks.insert(node.to_owned(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut marks, &mut Vec::new()))
}

#[test]
fn modules_import_in_layers() {
    let src = src_dir();
    let graph = graph(&src);
    // The graph is read at all: the parser's own imports are there.
    assert!(
        graph["parser"].contains_key("host") && graph["url"].contains_key("parser"),
        "the import graph was not read: {graph:?}"
    );
    if let Some(cycle) = find_cycle(&graph) {
        let edges: Vec<String> = cycle
            .iter()
            .zip(cycle.iter().cycle().skip(1))
            .map(|(a, b)| format!("  {a} -> {b} (in {:?})", graph[a][b]))
            .collect();
        panic!(
            "src/ imports in a cycle: {}\n{}",
            cycle.join(" -> "),
            edges.join("\n")
        );
    }
}

#[test]
fn the_reader_finds_what_makes_a_cycle() {
    let code = code_only(
        "use crate::{a::X, b::{c, d}};\n// crate::comment\nlet s = \"crate::string\";\n\
         fn f<'a>(x: &'a str) -> char { '\"'; crate::Url::parse(x); $crate::e::f() }",
    );
    assert_eq!(crate_names(&code), ["a", "b", "Url", "e"]);
    let mut graph = Graph::new();
    for (a, b) in [("x", "y"), ("y", "z"), ("z", "x"), ("w", "x")] {
        graph
            .entry(a.into())
            .or_default()
            .entry(b.into())
            .or_default()
            .insert(format!("{a}.rs"));
    }
    let cycle = find_cycle(&graph).expect("x -> y -> z -> x");
    assert_eq!(cycle.len(), 3);
    graph.get_mut("z").unwrap().clear();
    assert_eq!(find_cycle(&graph), None);
}
