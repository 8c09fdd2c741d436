//! The drop-in takes over a real dependency tree through `[patch.crates-io]`.
//!
//! This test writes a small application in cargo's temporary folder whose dependencies are
//! two crates from crates.io that depend on `url` and name `url::Url` in their public API:
//!
//! - `urlpattern` (Deno's URL Pattern): a `url::Url` is the pattern's base URL
//!   (`UrlPatternInit::base_url`) and the input it matches (`UrlPatternMatchInput::Url`);
//!   it also calls `url::quirks` for every component;
//! - `sitemap`: a `url::Url` goes into the writer (`impl Into<UrlEntry> for Url`) and comes
//!   back from the reader as `Location::Url(Url)`, parsed by `Url::parse` inside `sitemap`.
//!
//! The application itself depends on `url = "2"` and passes the `Url` it builds to both, so
//! the three must agree on one `url::Url` type. Its manifest patches `url` with this crate
//! (`[patch.crates-io] url = { path = ... }`) and is a workspace of its own. The lock file
//! is seeded from the workspace's `Cargo.lock` (the versions the workspace builds with;
//! cargo adds what is missing), then `cargo update --workspace`, `cargo build` and
//! `cargo run` run there with a target folder of their own. The test checks:
//!
//! - the application's `Cargo.lock`: exactly one package `url`, 2.5.8, without `source`
//!   (the path package); every package that depends on `url` names it without a source;
//!   `urlpattern` and `sitemap` are there and depend on it;
//! - `cargo tree -i url --edges normal`: its root is `url v2.5.8 (<this crate's folder>)`
//!   and `urlpattern`, `sitemap` and the application are right under it; `cargo tree -d`
//!   shows no second `url`; cargo never warns that the patch was not used;
//! - the program's output, line for line: what the two crates computed on this crate's
//!   `Url`s.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

/// The crates from crates.io that the application depends on, pinned: `(name, version)`.
const CRATES: &[(&str, &str)] = &[("urlpattern", "0.6.0"), ("sitemap", "0.4.1")];

/// The application's `src/main.rs`.
const MAIN_RS: &str = r#"use std::io::Cursor;

use sitemap::reader::{SiteMapEntity, SiteMapReader};
use sitemap::structs::{Location, UrlEntry};
use sitemap::writer::SiteMapWriter;
use url::Url;
use urlpattern::{UrlPattern, UrlPatternInit, UrlPatternMatchInput};

fn main() {
    let base = Url::parse("https://example.com/shop/").unwrap();
    let page = base.join("books/42?lang=en#reviews").unwrap();
    println!("page {page}");

    // urlpattern: the pattern's base URL and the matched input are `url::Url`s.
    let init = UrlPatternInit {
        pathname: Some("/shop/books/:id".to_owned()),
        base_url: Some(base.clone()),
        ..Default::default()
    };
    let pattern: UrlPattern = UrlPattern::parse(init, Default::default()).unwrap();
    println!(
        "urlpattern pattern {}://{}{}",
        pattern.protocol(),
        pattern.hostname(),
        pattern.pathname()
    );
    let hit = pattern
        .exec(UrlPatternMatchInput::Url(page.clone()))
        .unwrap()
        .expect("the page matches");
    println!(
        "urlpattern match id={} hostname={} search={} hash={}",
        hit.pathname.groups["id"].as_deref().unwrap(),
        hit.hostname.input,
        hit.search.input,
        hit.hash.input
    );
    let other = Url::parse("https://example.org/shop/books/42").unwrap();
    let miss = pattern.test(UrlPatternMatchInput::Url(other.clone())).unwrap();
    println!("urlpattern test {other} {miss}");

    // sitemap: a `url::Url` goes into the writer, and `Location::Url` comes back out.
    let mut xml = Vec::new();
    let mut urls = SiteMapWriter::new(&mut xml).start_urlset().unwrap();
    urls.url(page.clone()).unwrap();
    urls.url(UrlEntry::builder().loc("HTTPS://Example.COM:443/a/./b/../c?q=1 2"))
        .unwrap();
    urls.end().unwrap();
    for entity in SiteMapReader::new(Cursor::new(xml)) {
        match entity {
            SiteMapEntity::Url(entry) => match entry.loc {
                Location::Url(url) => println!(
                    "sitemap loc {url} host={} path={} same-as-page={}",
                    url.host_str().unwrap(),
                    url.path(),
                    url == page
                ),
                other => panic!("not a URL: {other:?}"),
            },
            other => panic!("unexpected entity: {other:?}"),
        }
    }
}
"#;

/// What the program prints.
const EXPECTED_OUTPUT: &str = "\
page https://example.com/shop/books/42?lang=en#reviews
urlpattern pattern https://example.com/shop/books/:id
urlpattern match id=42 hostname=example.com search=lang=en hash=reviews
urlpattern test https://example.org/shop/books/42 false
sitemap loc https://example.com/shop/books/42?lang=en#reviews host=example.com path=/shop/books/42 same-as-page=true
sitemap loc https://example.com/a/c?q=1%202 host=example.com path=/a/c same-as-page=false
";

fn dropin_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Writes the application and seeds its lock file; returns its folder.
fn write_app() -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("patch-app");
    fs::create_dir_all(root.join("src")).unwrap();
    let mut deps = String::new();
    for (name, version) in CRATES {
        writeln!(deps, "{name} = \"={version}\"").unwrap();
    }
    let manifest = format!(
        r#"[package]
name = "patch-app"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
url = "2"
{deps}# sitemap asks for `xml-rs = ">=0.3"`: pinned, so that a later major version of it
# cannot break this build.
xml-rs = "=1.0.0"

[patch.crates-io]
url = {{ path = {dropin:?} }}

[workspace]
"#,
        dropin = dropin_dir().display().to_string(),
    );
    fs::write(root.join("Cargo.toml"), manifest).unwrap();
    fs::write(root.join("src/main.rs"), MAIN_RS).unwrap();
    // The workspace's lock file pins the versions the workspace builds with (urlpattern's
    // dependencies among them); cargo drops what the application does not use and adds
    // what is missing. Seeded on every run, so the lock checked below is this run's.
    let lock = rapidurl_testkit::data::workspace_root().join("Cargo.lock");
    fs::copy(&lock, root.join("Cargo.lock"))
        .unwrap_or_else(|e| panic!("copying {} into the application: {e}", lock.display()));
    root
}

/// Runs cargo in the application with `args`; panics with cargo's output if it fails.
fn cargo(root: &Path, args: &[&str]) -> Output {
    let bin = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let start = Instant::now();
    let output = Command::new(bin)
        .args(args)
        .current_dir(root)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap_or_else(|e| panic!("cargo {args:?} did not start: {e}"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "`cargo {}` in {} failed ({}):\n--- stdout\n{}\n--- stderr\n{stderr}",
        args.join(" "),
        root.display(),
        output.status,
        String::from_utf8_lossy(&output.stdout),
    );
    // Cargo warns, and goes on with the registry's `url`, when a patch does not apply
    // (a version or a feature that does not match).
    assert!(
        !stderr.contains("was not used"),
        "`cargo {}`: the patch was not applied:\n{stderr}",
        args.join(" ")
    );
    println!("cargo {}: {:.1?}", args.join(" "), start.elapsed());
    output
}

/// One `[[package]]` of a lock file.
#[derive(Debug, Default)]
struct LockedPackage {
    name: String,
    version: String,
    source: Option<String>,
    dependencies: Vec<String>,
}

/// The packages of a `Cargo.lock` (version 3 or 4), read line by line: the keys a lock
/// file's `[[package]]` has are one per line, and `dependencies` is an array of strings
/// with one element per line.
fn parse_lock(text: &str) -> Vec<LockedPackage> {
    fn string(value: &str) -> String {
        value
            .trim()
            .trim_end_matches(',')
            .trim_matches('"')
            .to_owned()
    }
    let mut packages: Vec<LockedPackage> = Vec::new();
    let mut in_package = false;
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') && !in_deps {
            in_package = line == "[[package]]";
            if in_package {
                packages.push(LockedPackage::default());
            }
            continue;
        }
        if !in_package {
            continue;
        }
        let package = packages.last_mut().unwrap();
        if in_deps {
            if line == "]" {
                in_deps = false;
            } else if !line.is_empty() {
                package.dependencies.push(string(line));
            }
            continue;
        }
        let Some((key, value)) = line.split_once(" = ") else {
            continue;
        };
        match key {
            "name" => package.name = string(value),
            "version" => package.version = string(value),
            "source" => package.source = Some(string(value)),
            "dependencies" if value.trim() == "[" => in_deps = true,
            "dependencies" => {
                // A one-line array.
                let inner = value.trim().trim_start_matches('[').trim_end_matches(']');
                package
                    .dependencies
                    .extend(inner.split(',').map(string).filter(|d| !d.is_empty()));
            }
            _ => {}
        }
    }
    packages
}

/// A dependency entry's package name: `"url"`, `"url 2.5.8"` or
/// `"url 2.5.8 (registry+...)"` all name `url`.
fn dep_name(entry: &str) -> &str {
    entry.split(' ').next().unwrap()
}

fn check_lock(root: &Path) {
    let text = fs::read_to_string(root.join("Cargo.lock")).unwrap();
    let packages = parse_lock(&text);
    let urls: Vec<&LockedPackage> = packages.iter().filter(|p| p.name == "url").collect();
    assert_eq!(
        urls.len(),
        1,
        "exactly one package `url` in the application's Cargo.lock, found {urls:#?}\n{text}"
    );
    let url = urls[0];
    assert_eq!(url.version, "2.5.8", "{url:#?}");
    assert_eq!(
        url.source, None,
        "the `url` package has a source, so it is not the path package:\n{url:#?}"
    );
    assert!(
        url.dependencies.iter().any(|d| dep_name(d) == "rapidurl"),
        "the locked `url` is built on rapidurl: {url:#?}"
    );
    assert!(
        !text.contains("[[patch.unused]]"),
        "the lock file lists the patch as unused:\n{text}"
    );

    let dependents: Vec<&LockedPackage> = packages
        .iter()
        .filter(|p| p.dependencies.iter().any(|d| dep_name(d) == "url"))
        .collect();
    for package in &dependents {
        for entry in package.dependencies.iter().filter(|d| dep_name(d) == "url") {
            // With one `url` in the lock, cargo names it by name alone; a version or a
            // source here would point at another `url`.
            assert!(
                entry == "url" || entry == "url 2.5.8",
                "{} {} depends on `{entry}`, not on the path package",
                package.name,
                package.version
            );
        }
    }
    let mut names: Vec<&str> = dependents.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    for (name, version) in CRATES.iter().chain(&[("patch-app", "0.0.0")]) {
        let package = packages
            .iter()
            .find(|p| p.name == *name)
            .unwrap_or_else(|| panic!("{name} is not in the application's Cargo.lock:\n{text}"));
        assert_eq!(package.version, *version, "{package:#?}");
        assert!(
            names.contains(name),
            "{name} does not depend on `url` in the lock file: {package:#?}"
        );
    }
    println!("Cargo.lock: one `url` (2.5.8, no source); its dependents: {names:?}");
}

fn check_tree(root: &Path) {
    let output = cargo(root, &["tree", "-i", "url", "--edges", "normal"]);
    let tree = String::from_utf8_lossy(&output.stdout);
    let expected_root = format!("url v2.5.8 ({})", dropin_dir().display());
    assert_eq!(
        tree.lines().next(),
        Some(expected_root.as_str()),
        "`cargo tree -i url` is not rooted at the drop-in:\n{tree}"
    );
    // The packages right under the root, i.e. the ones that depend on `url` directly.
    let direct: Vec<&str> = tree
        .lines()
        .filter_map(|l| l.strip_prefix("├── ").or_else(|| l.strip_prefix("└── ")))
        .collect();
    for (name, version) in CRATES {
        let entry = format!("{name} v{version}");
        assert!(
            direct.contains(&entry.as_str()),
            "{entry} is not right under the drop-in in `cargo tree -i url`:\n{tree}"
        );
    }
    assert!(
        direct.iter().any(|l| l.starts_with("patch-app v0.0.0 (")),
        "the application is not right under the drop-in in `cargo tree -i url`:\n{tree}"
    );
    print!("cargo tree -i url --edges normal:\n{tree}");

    let output = cargo(root, &["tree", "-d", "--edges", "normal"]);
    let duplicates = String::from_utf8_lossy(&output.stdout);
    assert!(
        !duplicates.lines().any(|l| l.starts_with("url v")),
        "`cargo tree -d` shows a second `url`:\n{duplicates}"
    );
}

#[test]
fn patch_replaces_url_in_a_dependency_tree() {
    let start = Instant::now();
    let root = write_app();
    cargo(&root, &["update", "--workspace"]);
    check_lock(&root);
    check_tree(&root);
    cargo(&root, &["build"]);
    let output = cargo(&root, &["run", "--quiet"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        stdout,
        EXPECTED_OUTPUT,
        "the application's output; its stderr:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    print!("the application printed:\n{stdout}");
    println!("total: {:.1?}", start.elapsed());
}
