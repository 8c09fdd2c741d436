//! rust-url's own tests, unchanged, against this crate.
//!
//! The `url` 2.5.8 package that cargo downloads (this crate's dev-dependency `rust_url`)
//! carries `tests/unit.rs` and `tests/wpt.rs`. This test builds a throw-away package in
//! cargo's temporary folder whose `url` dependency is this crate, with `unit.rs` as a test
//! target read in place from the registry (not copied), and `wpt.rs` beside the current
//! WPT data (`urltestdata.json`, `setters_tests.json` from `../shared/wpt`) and an EMPTY
//! expected-failure list. It runs:
//!
//! - `unit.rs` with default features, then with `serde,expose_internals`: the tests that
//!   fail must be exactly [`DEPARTURES`], each a place where rust-url departs from the URL
//!   Standard and this crate follows the Standard (docs/url-compat.md names each one and
//!   says why), and the number run must be rust-url's own count on Linux;
//! - `wpt.rs`: every case must pass, none expected to fail.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The unit tests of rust-url 2.5.8 that encode its departures from the URL Standard.
const DEPARTURES: &[&str] = &[
    // `data:space   ?query` keeps its spaces as `  %20` (the Standard's opaque-path
    // state); rust-url strips trailing spaces when the query is removed.
    "test_strip_trailing_spaces_from_opaque_path",
];

/// How many of `unit.rs`'s tests run on Linux with default features, and with
/// `serde,expose_internals`.
const RUN_DEFAULT: usize = 66;
const RUN_ALL_FEATURES: usize = 68;

fn upstream_dir() -> PathBuf {
    let dir = rapidurl_testkit::data::registry_crate_dir("url")
        .expect("the `url` 2.5.8 package (this crate's dev-dependency) is in the cargo registry");
    assert!(
        dir.ends_with("url-2.5.8") && dir.join("tests/unit.rs").is_file(),
        "expected rust-url 2.5.8's tests in {}",
        dir.display()
    );
    dir
}

/// Writes the throw-away package and returns its folder.
fn package(upstream: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("url-upstream-tests");
    let wpt_dir = root.join("wpt");
    fs::create_dir_all(&wpt_dir).unwrap();
    let dropin = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = format!(
        r#"[package]
name = "url-upstream-tests"
version = "0.0.0"
edition = "2018"
publish = false

[features]
default = ["std"]
std = ["url/std"]
serde = ["url/serde"]
expose_internals = ["url/expose_internals"]

[dependencies]
url = {{ path = {dropin:?} }}

[dev-dependencies]
serde = "1.0"
serde_derive = "1.0"
serde_json = "1.0"

[lib]
path = "lib.rs"

[[test]]
name = "unit"
path = {unit:?}

[[test]]
name = "url_wpt"
path = "wpt/wpt.rs"
harness = false

[workspace]
"#,
        dropin = dropin.display().to_string(),
        unit = upstream.join("tests/unit.rs").display().to_string(),
    );
    fs::write(root.join("Cargo.toml"), manifest).unwrap();
    fs::write(root.join("lib.rs"), "").unwrap();
    // The workspace's lock file pins the same versions the workspace builds with.
    let lock = rapidurl_testkit::data::workspace_root().join("Cargo.lock");
    if !root.join("Cargo.lock").exists() {
        fs::copy(lock, root.join("Cargo.lock")).unwrap();
    }
    fs::copy(upstream.join("tests/wpt.rs"), wpt_dir.join("wpt.rs")).unwrap();
    fs::copy(
        rapidurl_testkit::data::wpt_file("urltestdata.json"),
        wpt_dir.join("urltestdata.json"),
    )
    .unwrap();
    // The harness knows the nine component setters; the data's newer `href` group is run
    // by `href_setter_cases` below instead.
    let mut setters = setter_data();
    setters.as_object_mut().unwrap().remove("href");
    fs::write(wpt_dir.join("setters_tests.json"), setters.to_string()).unwrap();
    fs::write(wpt_dir.join("expected_failures.txt"), "").unwrap();
    root
}

/// Runs `cargo test` in the package with `args`; returns (success, stdout + stderr).
fn cargo_test(root: &Path, args: &[&str]) -> (bool, String) {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .arg("test")
        .args(args)
        .current_dir(root)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    (output.status.success(), text)
}

/// The failed tests and the number run, from libtest's output.
fn outcome(text: &str) -> (BTreeSet<String>, usize) {
    let failed = text
        .lines()
        .filter_map(|l| l.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
        .map(str::to_owned)
        .collect();
    let result = text
        .lines()
        .find(|l| l.starts_with("test result:"))
        .unwrap_or_else(|| panic!("no test result in:\n{text}"));
    let count = |word: &str| -> usize {
        result
            .split(';')
            .find_map(|part| {
                part.trim()
                    .trim_start_matches("test result: ok. ")
                    .trim_start_matches("test result: FAILED. ")
                    .strip_suffix(word)
            })
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0)
    };
    (failed, count("passed") + count("failed"))
}

fn check_unit(root: &Path, features: &[&str], expected_run: usize) {
    let mut args = vec!["--test", "unit"];
    let joined = features.join(",");
    if !features.is_empty() {
        args.extend(["--features", &joined]);
    }
    let (_, text) = cargo_test(root, &args);
    let (failed, run) = outcome(&text);
    let expected: BTreeSet<String> = DEPARTURES.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        failed, expected,
        "with features {features:?}, the failing tests are not exactly the listed departures:\n{text}"
    );
    assert_eq!(
        run, expected_run,
        "with features {features:?}, tests run:\n{text}"
    );
    println!(
        "unit.rs with features {features:?}: {} passed, {} failed (the listed departures)",
        run - failed.len(),
        failed.len()
    );
}

#[test]
fn rust_url_unit_tests_and_wpt_harness() {
    let root = package(&upstream_dir());
    check_unit(&root, &[], RUN_DEFAULT);
    check_unit(&root, &["serde", "expose_internals"], RUN_ALL_FEATURES);

    let (ok, text) = cargo_test(&root, &["--test", "url_wpt"]);
    assert!(
        ok && text.contains("all tests passed"),
        "rust-url's WPT harness on the current data, no expected failures:\n{text}"
    );
    let cases = text.matches(" ... ✅").count();
    assert!(cases > 1000, "the WPT harness ran {cases} cases:\n{text}");
    println!("wpt.rs: {cases} passed, 0 failed");
}

fn setter_data() -> serde_json::Value {
    let path = rapidurl_testkit::data::wpt_file("setters_tests.json");
    serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap()
}

/// The `href` setter cases, which rust-url's harness has no setter kind for, through
/// `quirks::set_href` and every getter the case names.
#[test]
fn href_setter_cases() {
    let data = setter_data();
    let cases = data["href"]
        .as_array()
        .expect("setters_tests.json has an href group");
    assert!(!cases.is_empty());
    for case in cases {
        let mut url = url::Url::parse(case["href"].as_str().unwrap()).unwrap();
        let _ = url::quirks::set_href(&mut url, case["new_value"].as_str().unwrap());
        for (getter, want) in case["expected"].as_object().unwrap() {
            let got = match getter.as_str() {
                "href" => url::quirks::href(&url),
                "protocol" => url::quirks::protocol(&url),
                "username" => url::quirks::username(&url),
                "password" => url::quirks::password(&url),
                "host" => url::quirks::host(&url),
                "hostname" => url::quirks::hostname(&url),
                "port" => url::quirks::port(&url),
                "pathname" => url::quirks::pathname(&url),
                "search" => url::quirks::search(&url),
                "hash" => url::quirks::hash(&url),
                other => panic!("unknown getter {other}"),
            };
            assert_eq!(got, want.as_str().unwrap(), "{case}: {getter}");
        }
    }
}

#[test]
fn every_departure_is_documented() {
    let doc = rapidurl_testkit::data::workspace_root().join("docs/url-compat.md");
    let text = fs::read_to_string(&doc).expect("docs/url-compat.md exists");
    for name in DEPARTURES {
        assert!(
            text.contains(name),
            "{} does not name the departure {name}",
            doc.display()
        );
    }
}
