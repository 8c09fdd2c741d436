//! Conformance of the application/x-www-form-urlencoded parser (URL Standard §5.1),
//! `URLSearchParams` parsing (§6.2) and percent-encode after encoding (§1.3), against the
//! web-platform-tests `url/` data files `urlencoded-parser-data.json` and
//! `percent-encoding.json`.
//!
//! Where a data file comes from, first found wins (as in tests/wpt.rs):
//! 1. the folder named by the environment variable `RAPIDURL_WPT_DIR`;
//! 2. `<CARGO_MANIFEST_DIR>/../shared/wpt` (the project's shared data);
//! 3. the `tests/wpt` folder of the `ada-url` crate (a dev-dependency) in the cargo registry
//!    under `$CARGO_HOME` or `~/.cargo` (it ships percent-encoding.json, not
//!    urlencoded-parser-data.json).
//!
//! A missing file fails the test and says where to put it; a file with no case fails too.

use rapidurl_testkit::data as common;

use std::fs;

#[cfg(feature = "encoding")]
use rapidurl::encoding::{Encoding, percent_encode_after_encoding};
#[cfg(feature = "encoding")]
use rapidurl::percent;
use rapidurl::{SearchParams, form};
use serde_json::Value;

/// The test cases of a data file: the objects of its top-level array (strings are comments).
fn load_cases(file: &str) -> Vec<serde_json::Map<String, Value>> {
    let path = common::wpt_file(file);
    let text =
        fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let data: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()));
    data.as_array()
        .unwrap_or_else(|| panic!("{file}: expected a JSON array at the top level"))
        .iter()
        .filter_map(|v| v.as_object().cloned())
        .collect()
}

/// Prints the tally and fails if a case failed or there was none.
fn finish(file: &str, passed: usize, failures: &[String]) {
    println!("{file}: {passed} passed, {} failed", failures.len());
    assert!(
        passed + failures.len() > 0,
        "{file}: the file yielded no test case"
    );
    assert!(
        failures.is_empty(),
        "{file}: {} cases failed:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// `input` → `output` (a list of `[name, value]`): the upstream runner checks both
/// `new URLSearchParams(input)` and the form parser behind `Request.formData()`; here
/// `form::parse` and `SearchParams::parse`, each compared with the whole list.
#[test]
fn urlencoded_parser_data() {
    const FILE: &str = "urlencoded-parser-data.json";
    let (mut passed, mut failures) = (0, Vec::new());
    for case in load_cases(FILE) {
        let input = case["input"].as_str().expect("input is a string");
        let expected: Vec<(String, String)> = case["output"]
            .as_array()
            .expect("output is an array")
            .iter()
            .map(|pair| {
                let pair = pair.as_array().expect("a pair is an array");
                assert_eq!(pair.len(), 2, "{input:?}: a pair has two members");
                let text = |v: &Value| v.as_str().expect("a string").to_string();
                (text(&pair[0]), text(&pair[1]))
            })
            .collect();
        let parsed = form::parse(input.as_bytes());
        let params = SearchParams::parse(input);
        let mut why = Vec::new();
        if parsed != expected {
            why.push(format!("form::parse gave {parsed:?}"));
        }
        if params.as_slice() != expected.as_slice() {
            why.push(format!("SearchParams::parse gave {:?}", params.as_slice()));
        }
        if why.is_empty() {
            passed += 1;
        } else {
            failures.push(format!(
                "{input:?}: expected {expected:?}; {}",
                why.join("; ")
            ));
        }
    }
    finish(FILE, passed, &failures);
}

/// `input` → `output` per encoding label: the upstream runner sets the query of a special
/// URL in a document of that encoding, so this is percent-encode after encoding with the
/// special-query percent-encode set.
#[test]
#[cfg(feature = "encoding")]
fn percent_encoding_data() {
    const FILE: &str = "percent-encoding.json";
    let (mut passed, mut failures) = (0, Vec::new());
    for case in load_cases(FILE) {
        let input = case["input"].as_str().expect("input is a string");
        let outputs = case["output"].as_object().expect("output is an object");
        for (label, expected) in outputs {
            let expected = expected.as_str().expect("an output is a string");
            let Some(encoding) = Encoding::for_label(label.as_bytes()) else {
                failures.push(format!("{input:?}: unknown encoding label {label:?}"));
                continue;
            };
            let mut actual = String::new();
            percent_encode_after_encoding(
                encoding,
                input,
                &percent::SPECIAL_QUERY,
                false,
                &mut actual,
            );
            if actual == expected {
                passed += 1;
            } else {
                failures.push(format!(
                    "{input:?} in {label}: expected {expected:?}, got {actual:?}"
                ));
            }
        }
    }
    finish(FILE, passed, &failures);
}
