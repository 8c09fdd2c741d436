//! Every line of the benchmark corpora (`../shared/corpora`, or `RAPIDURL_CORPORA_DIR`)
//! parses without a panic, and every URL that parses serializes to a fixed point: parsing
//! its `href` again gives the same `href` and the same getters (the URL Standard's
//! serializer is meant to be idempotent). `can_parse` and `parse_bytes` agree with `parse`.

use rapidurl::Url;
use rapidurl_testkit::data::corpora_dir;
use rapidurl_testkit::invariants::Snapshot;

#[test]
fn corpora_parse_and_reserialize_to_a_fixed_point() {
    let dir = corpora_dir();
    let mut files = 0;
    let mut lines = 0;
    let mut parsed = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("read corpora dir") {
        let path = entry.expect("dir entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("txt") {
            continue;
        }
        files += 1;
        let bytes = std::fs::read(&path).expect("read corpus");
        for raw in bytes.split(|&b| b == b'\n') {
            lines += 1;
            let from_bytes = Url::parse_bytes(raw);
            let Ok(text) = std::str::from_utf8(raw) else {
                continue;
            };
            let result = Url::parse(text);
            assert_eq!(
                result.is_ok(),
                rapidurl::can_parse(text),
                "can_parse disagrees on {text:?}"
            );
            assert_eq!(result, from_bytes, "parse_bytes disagrees on {text:?}");
            let Ok(url) = result else { continue };
            parsed += 1;
            match Url::parse(url.href()) {
                Ok(again)
                    if again.href() == url.href() && Snapshot::of(&again) == Snapshot::of(&url) => {
                }
                Ok(again) => failures.push(format!("{text:?}: {} -> {}", url.href(), again.href())),
                Err(e) => failures.push(format!("{text:?}: {} does not parse: {e}", url.href())),
            }
        }
    }
    println!(
        "corpora: {files} files, {lines} lines, {parsed} parsed, {} not idempotent",
        failures.len()
    );
    assert!(
        files > 0 && lines > 0,
        "no corpus file (*.txt) in {}",
        dir.display()
    );
    assert!(
        failures.is_empty(),
        "{}",
        failures[..failures.len().min(20)].join("\n")
    );
}

/// `Field::href_range` gives the bytes of `href` that each of the URL API's string
/// attributes is, on every URL of the corpora (through `parse_ref`, whose serialization
/// is the input for canonical lines and in the arena for the others); the other fields
/// have no range.
#[test]
#[cfg(feature = "field")]
fn href_ranges_are_the_getters_values() {
    use rapidurl::field::Field;
    let attributes = [
        (Field::Href, "href"),
        (Field::Protocol, "protocol"),
        (Field::Username, "username"),
        (Field::Password, "password"),
        (Field::Host, "host"),
        (Field::Hostname, "hostname"),
        (Field::Port, "port"),
        (Field::Pathname, "pathname"),
        (Field::Search, "search"),
        (Field::Hash, "hash"),
    ];
    let mut arena = rapidurl::bumpalo::Bump::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(corpora_dir()).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap();
        for line in String::from_utf8_lossy(&bytes).lines() {
            arena.reset();
            let Ok(url) = rapidurl::parse_ref(line, &arena) else {
                continue;
            };
            let owned = url.to_url();
            let values = [
                owned.href(),
                owned.protocol(),
                owned.username(),
                owned.password(),
                owned.host(),
                owned.hostname(),
                owned.port(),
                owned.pathname(),
                owned.search(),
                owned.hash(),
            ];
            for ((field, name), want) in attributes.iter().zip(values) {
                let range = field.href_range(&url).unwrap();
                assert_eq!(&url.href()[range], want, "{name} of {line}");
            }
            assert_eq!(Field::RegistrableDomain.href_range(&url), None);
            checked += 1;
        }
    }
    assert!(checked > 100_000, "only {checked} URLs");
}
