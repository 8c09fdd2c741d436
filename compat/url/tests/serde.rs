//! serde, with the `serde` feature: a URL serializes as its string, and
//! `serialize_internal` writes the tuple rust-url 2.5.8 writes (serialization, the
//! offsets, the host's kind and address, the port), so that data written by either crate
//! reads back in the other. Compared with the real crate on the corpora.
#![cfg(feature = "serde")]

use serde_json::Value;

fn corpus_sample() -> Vec<String> {
    let mut lines = Vec::new();
    for path in rapidurl_testkit::data::corpus_paths(true) {
        let text = std::fs::read_to_string(&path).unwrap();
        lines.extend(text.lines().step_by(13).map(str::to_owned));
    }
    lines.extend(
        [
            "http://[::1]:8080/a",
            "http://127.0.0.1/",
            "file:///tmp/x",
            "mailto:a@b",
            "sc://h",
            "https://u:p@example.com:444/p?q#f",
        ]
        .map(str::to_owned),
    );
    lines
}

#[test]
fn serialize_internal_is_rust_urls_tuple() {
    let mut compared = 0;
    for line in corpus_sample() {
        let (Ok(ours), Ok(theirs)) = (url::Url::parse(&line), rust_url::Url::parse(&line)) else {
            continue;
        };
        if ours.as_str() != theirs.as_str() {
            continue; // a departure (tests/differential.rs)
        }
        let a = ours
            .serialize_internal(serde_json::value::Serializer)
            .unwrap();
        let b = theirs
            .serialize_internal(serde_json::value::Serializer)
            .unwrap();
        assert_eq!(a, b, "serialize_internal of {line:?}");
        // What rust-url wrote reads back into the drop-in, and the other way.
        let back = url::Url::deserialize_internal(b.clone()).unwrap();
        assert_eq!(back, ours);
        let there = rust_url::Url::deserialize_internal(a).unwrap();
        assert_eq!(there, theirs);
        compared += 1;
    }
    assert!(compared > 8_000, "compared {compared}");
}

#[test]
fn a_url_is_its_string() {
    let url = url::Url::parse("https://example.com/a b").unwrap();
    let json = serde_json::to_string(&url).unwrap();
    assert_eq!(json, "\"https://example.com/a%20b\"");
    let back: url::Url = serde_json::from_str(&json).unwrap();
    assert_eq!(back, url);
    let theirs: rust_url::Url = serde_json::from_str(&json).unwrap();
    assert_eq!(theirs.as_str(), back.as_str());
    let err = serde_json::from_str::<url::Url>("\"/relative\"").unwrap_err();
    assert_eq!(
        err.to_string(),
        "relative URL without a base: \"/relative\" at line 1 column 11"
    );
}

#[test]
fn offsets_that_do_not_match_are_refused() {
    let url = url::Url::parse("https://example.com/path").unwrap();
    let mut tuple = url
        .serialize_internal(serde_json::value::Serializer)
        .unwrap();
    tuple[1] = Value::from(4); // scheme_end, one short
    assert!(url::Url::deserialize_internal(tuple).is_err());
}
