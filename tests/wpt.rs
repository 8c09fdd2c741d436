//! Conformance: the web-platform-tests `url/` data files, run against rapidurl's public API.
//!
//! Where the data comes from, first found wins:
//! 1. the folder named by the environment variable `RAPIDURL_WPT_DIR`;
//! 2. `<CARGO_MANIFEST_DIR>/../shared/wpt` (the project's shared data, see its README.md);
//! 3. the `tests/wpt` folder of the `ada-url` crate (a dev-dependency) in the cargo registry
//!    under `$CARGO_HOME` or `~/.cargo`.
//!
//! If none is there, every test here fails and says where to put the files: a missing suite
//! never passes. A file that yields no case fails too.
//!
//! Each file is run the way the upstream WPT runner for it runs it in a browser (the runner
//! is named in each test's comment); "URL" there is `new URL(input, base)`, here
//! `Url::parse` / `Url::parse_with_base`.

use rapidurl_testkit::data as common;

use std::fs;
use std::panic::{self, AssertUnwindSafe};

use rapidurl::Url;
use rapidurl::host::domain_to_ascii;

/// `URL.canParse(input, base)`: the base string parsed first (`false` when it fails).
fn can_parse(input: &str, base: Option<&str>) -> bool {
    match base {
        None => rapidurl::can_parse(input),
        Some(base) => {
            Url::parse(base).is_ok_and(|base| rapidurl::can_parse_with_base(input, &base))
        }
    }
}
use serde_json::{Map, Value};

type Case = Map<String, Value>;

/// How many failing cases a failed test lists in its message.
const MAX_LISTED: usize = 30;

/// The getters of the URL API, in the order WPT checks them.
const URL_GETTERS: [&str; 11] = [
    "href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname",
    "search", "hash",
];

// ---------------------------------------------------------------------------------------------
// Finding and loading the data

/// The parsed JSON of one data file, its lone surrogates replaced as a browser would.
fn load(file: &str) -> Value {
    let path = common::wpt_file(file);
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read WPT data file {}: {e}", path.display()));
    serde_json::from_str(&replace_lone_surrogates(&text))
        .unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()))
}

/// The test cases of a data file that is an array: its objects (its strings are comments).
fn cases<'a>(file: &str, data: &'a Value) -> impl Iterator<Item = &'a Case> {
    data.as_array()
        .unwrap_or_else(|| panic!("{file}: expected a JSON array at the top level"))
        .iter()
        .filter_map(Value::as_object)
}

// ---------------------------------------------------------------------------------------------
// Reading a case

/// The string member `key` of a case.
fn text<'a>(case: &'a Case, key: &str) -> Result<&'a str, String> {
    case.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("bad test data: {key:?} is not a string"))
}

/// The member `key` of a case that is a string or null (null or absent give `None`).
fn nullable_text<'a>(case: &'a Case, key: &str) -> Result<Option<&'a str>, String> {
    match case.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!(
            "bad test data: {key:?} is neither a string nor null"
        )),
    }
}

/// Whether the case has `"failure": true`.
fn expects_failure(case: &Case) -> bool {
    case.get("failure").and_then(Value::as_bool) == Some(true)
}

/// A short description of a case: the named members, as JSON (so escapes stay visible).
fn label(case: &Case, keys: &[&str]) -> String {
    keys.iter()
        .map(|key| format!("{key}={}", case.get(*key).unwrap_or(&Value::Null)))
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------------------------
// Outcomes

/// The field-by-field mismatches of one case.
#[derive(Default)]
struct Diffs(Vec<String>);

impl Diffs {
    fn check(&mut self, field: &str, expected: &str, actual: &str) {
        if expected != actual {
            self.0
                .push(format!("{field}: expected {expected:?}, got {actual:?}"));
        }
    }

    fn fail(&mut self, message: String) {
        self.0.push(message);
    }

    fn result(self) -> Result<(), String> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self.0.join("; "))
        }
    }
}

/// The tally of one data file.
struct Report {
    file: &'static str,
    passed: usize,
    failures: Vec<String>,
}

impl Report {
    fn new(file: &'static str) -> Self {
        Report {
            file,
            passed: 0,
            failures: Vec::new(),
        }
    }

    /// Runs one case; a panic in the library counts as that case failing, not the whole file.
    fn run(&mut self, label: String, case: impl FnOnce() -> Result<(), String>) {
        match panic::catch_unwind(AssertUnwindSafe(case)) {
            Ok(Ok(())) => self.passed += 1,
            Ok(Err(why)) => self.failures.push(format!("{label}\n    {why}")),
            Err(payload) => {
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                self.failures
                    .push(format!("{label}\n    panicked: {message}"));
            }
        }
    }

    /// Prints the tally, then fails if any case failed or there was no case at all.
    fn finish(self) {
        let failed = self.failures.len();
        let total = self.passed + failed;
        println!("{}: {} passed, {failed} failed", self.file, self.passed);
        assert!(total > 0, "{}: the file yielded no test case", self.file);
        if failed > 0 {
            let listed: Vec<&str> = self
                .failures
                .iter()
                .take(MAX_LISTED)
                .map(String::as_str)
                .collect();
            panic!(
                "{}: {failed} of {total} cases failed; the first {}:\n  {}",
                self.file,
                listed.len(),
                listed.join("\n  ")
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The URL API, by name

/// The value of the URL API getter `name`, or `None` for an unknown name.
fn get(url: &Url, name: &str) -> Option<String> {
    let value = match name {
        "href" => url.href(),
        "origin" => return Some(url.origin()),
        "protocol" => url.protocol(),
        "username" => url.username(),
        "password" => url.password(),
        "host" => url.host(),
        "hostname" => url.hostname(),
        "port" => url.port(),
        "pathname" => url.pathname(),
        "search" => url.search(),
        "hash" => url.hash(),
        _ => return None,
    };
    Some(value.to_owned())
}

/// Runs the URL API setter `name` with `value`.
fn set(url: &mut Url, name: &str, value: &str) -> Result<(), String> {
    match name {
        // In JavaScript a failing href setter throws and leaves the URL as it was; the
        // expectations then describe the unchanged URL, so the error itself is not checked.
        "href" => drop(url.set_href(value)),
        "protocol" => url.set_protocol(value),
        "username" => url.set_username(value),
        "password" => url.set_password(value),
        "host" => url.set_host(value),
        "hostname" => url.set_hostname(value),
        "port" => url.set_port(value),
        "pathname" => url.set_pathname(value),
        "search" => url.set_search(value),
        "hash" => url.set_hash(value),
        _ => return Err(format!("bad test data: unknown setter {name:?}")),
    }
    Ok(())
}

/// `new URL(input, base)`: parses `base` first when there is one.
fn parse(input: &str, base: Option<&str>) -> Result<Url, String> {
    match base {
        None => Url::parse(input).map_err(|e| e.to_string()),
        Some(base) => {
            let base = Url::parse(base).map_err(|e| format!("the base failed to parse: {e}"))?;
            Url::parse_with_base(input, &base).map_err(|e| e.to_string())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// urltestdata.json

/// As upstream `url/url-constructor.any.js` (with `searchParams` where the case has it),
/// `url/url-origin.any.js` (origin, where the case has one) and `url/url-statics-canparse.any.js`'s `URL.canParse`, all in one case.
fn url_case(case: &Case) -> Result<(), String> {
    let input = text(case, "input")?;
    let base = nullable_text(case, "base")?;
    let parsed = parse(input, base);
    let can = can_parse(input, base);
    let mut diffs = Diffs::default();
    if expects_failure(case) {
        if let Ok(url) = &parsed {
            diffs.fail(format!("parse: expected failure, got {:?}", url.href()));
        }
        if can {
            diffs.fail("can_parse: expected false, got true".into());
        }
        return diffs.result();
    }
    let url = parsed.map_err(|e| format!("parse: expected success, got error {e}"))?;
    for name in URL_GETTERS {
        let expected = match name {
            "origin" if !case.contains_key("origin") => continue,
            _ => text(case, name)?,
        };
        let actual = get(&url, name).expect("a known getter");
        diffs.check(name, expected, &actual);
    }
    // `url.searchParams.toString()`, where the case gives it (url-constructor.any.js).
    if case.contains_key("searchParams") {
        let expected = text(case, "searchParams")?;
        diffs.check("searchParams", expected, &url.search_params().to_string());
    }
    if !can {
        diffs.fail("can_parse: expected true, got false".into());
    }
    diffs.result()
}

#[test]
fn urltestdata() {
    const FILE: &str = "urltestdata.json";
    let data = load(FILE);
    let mut report = Report::new(FILE);
    for case in cases(FILE, &data) {
        report.run(label(case, &["input", "base"]), || url_case(case));
    }
    report.finish();
}

// ---------------------------------------------------------------------------------------------
// setters_tests.json

/// As upstream `url/url-setters.any.js`: parse `href`, set the setter to `new_value`, then
/// compare every getter named in `expected`.
fn setter_case(setter: &str, case: &Case) -> Result<(), String> {
    let href = text(case, "href")?;
    let mut url = Url::parse(href).map_err(|e| format!("href failed to parse: {e}"))?;
    set(&mut url, setter, text(case, "new_value")?)?;
    let expected = case
        .get("expected")
        .and_then(Value::as_object)
        .ok_or("bad test data: \"expected\" is not an object")?;
    let mut diffs = Diffs::default();
    for (name, value) in expected {
        let expected = value
            .as_str()
            .ok_or_else(|| format!("bad test data: expected.{name} is not a string"))?;
        let actual =
            get(&url, name).ok_or_else(|| format!("bad test data: unknown getter {name:?}"))?;
        diffs.check(name, expected, &actual);
    }
    diffs.result()
}

#[test]
fn setters_tests() {
    const FILE: &str = "setters_tests.json";
    let data = load(FILE);
    let setters = data
        .as_object()
        .unwrap_or_else(|| panic!("{FILE}: expected a JSON object at the top level"));
    let mut report = Report::new(FILE);
    for (setter, list) in setters {
        if setter == "comment" {
            continue;
        }
        for case in cases(FILE, list) {
            let label = format!("{setter}: {}", label(case, &["href", "new_value"]));
            report.run(label, || setter_case(setter, case));
        }
    }
    report.finish();
}

// ---------------------------------------------------------------------------------------------
// toascii.json and IdnaTestV2.json

/// The `input` of a host case and its expected `output`, `None` when that is null (failure).
fn host_case(case: &Case) -> Result<(&str, Option<&str>), String> {
    let output = match case.get("output") {
        Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.as_str()),
        _ => return Err("bad test data: \"output\" is neither a string nor null".into()),
    };
    Ok((text(case, "input")?, output))
}

/// `new URL("https://" + host + "/x")`: fails iff `output` is null; otherwise host and
/// hostname are `output`, pathname is "/x" and href is `"https://" + output + "/x"`.
fn host_by_parsing(host: &str, output: Option<&str>) -> Result<(), String> {
    let parsed = Url::parse(&format!("https://{host}/x"));
    match (parsed, output) {
        (Err(_), None) => Ok(()),
        (Ok(url), None) => Err(format!("expected failure, got href {:?}", url.href())),
        (Err(e), Some(_)) => Err(format!("expected success, got error {e}")),
        (Ok(url), Some(output)) => {
            let mut diffs = Diffs::default();
            diffs.check("host", output, url.host());
            diffs.check("hostname", output, url.hostname());
            diffs.check("pathname", "/x", url.pathname());
            diffs.check("href", &format!("https://{output}/x"), url.href());
            diffs.result()
        }
    }
}

/// `url = new URL("https://x/x"); url[setter] = input`: then `url[setter]` is `output`, or
/// still "x" when `output` is null.
fn host_by_setter(setter: &str, input: &str, output: Option<&str>) -> Result<(), String> {
    let mut url = Url::parse("https://x/x").map_err(|e| format!("https://x/x: {e}"))?;
    set(&mut url, setter, input)?;
    let mut diffs = Diffs::default();
    let actual = get(&url, setter).expect("a known getter");
    diffs.check(setter, output.unwrap_or("x"), &actual);
    diffs.result()
}

/// As upstream `url/toascii.any.js` (the `URL` part of the older `url/toascii.window.js`):
/// three tests per entry, each input used as it is: the constructor, then the `host` and the
/// `hostname` setters.
#[test]
fn toascii() {
    const FILE: &str = "toascii.json";
    let data = load(FILE);
    let mut report = Report::new(FILE);
    for case in cases(FILE, &data) {
        let name = label(case, &["input", "output"]);
        report.run(format!("{name} (URL)"), || {
            let (input, output) = host_case(case)?;
            host_by_parsing(input, output)
        });
        for setter in ["host", "hostname"] {
            report.run(format!("{name} (URL.{setter})"), || {
                let (input, output) = host_case(case)?;
                host_by_setter(setter, input, output)
            });
        }
    }
    report.finish();
}

/// Percent-encodes the code points that would end the host in a URL string (":", "/", "?",
/// "#", "\"), so that they reach the host parser instead of ending the host.
fn encode_host_ending_code_points(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    for c in input.chars() {
        match c {
            ':' | '/' | '?' | '#' | '\\' => out.push_str(&format!("%{:02X}", c as u32)),
            _ => out.push(c),
        }
    }
    out
}

/// As upstream `url/IdnaTestV2.any.js` (the constructor, with the input's host-ending code
/// points percent-encoded first), and, as the issue asks, also through the `host` and
/// `hostname` setters with the same encoded input.
///
/// Upstream skips the one entry whose input is the empty string: `https:///x` would parse
/// "x" as the host, and no URL has an empty special host. Its expected output "" is raw
/// UTS #46 ToASCII; the Standard's domain to ASCII then fails an empty result (§3.3 step
/// 3.1). So here that entry asserts exactly that: `domain_to_ascii("", false)` fails with
/// `domain-to-ASCII`. No entry is skipped.
#[test]
fn idna_test_v2() {
    const FILE: &str = "IdnaTestV2.json";
    let data = load(FILE);
    let mut report = Report::new(FILE);
    for case in cases(FILE, &data) {
        let name = label(case, &["input", "output"]);
        if case.get("input").and_then(Value::as_str) == Some("") {
            report.run(
                format!("{name} (domain to ASCII)"),
                || match domain_to_ascii("", false) {
                    Err(e) if e.name() == "domain-to-ASCII" => Ok(()),
                    other => Err(format!("expected domain-to-ASCII failure, got {other:?}")),
                },
            );
            continue;
        }
        report.run(format!("{name} (URL)"), || {
            let (input, output) = host_case(case)?;
            host_by_parsing(&encode_host_ending_code_points(input), output)
        });
        for setter in ["host", "hostname"] {
            report.run(format!("{name} (URL.{setter})"), || {
                let (input, output) = host_case(case)?;
                host_by_setter(setter, &encode_host_ending_code_points(input), output)
            });
        }
    }
    report.finish();
}

// ---------------------------------------------------------------------------------------------
// verifydnslength_tests.json

/// Not reachable through `new URL`: the hostname of the parsed `input` goes to domain to ASCII
/// with beStrict = true, which fails iff the case says `"failure": true`.
fn dns_length_case(case: &Case) -> Result<(), String> {
    let input = text(case, "input")?;
    let url = Url::parse(input).map_err(|e| format!("the URL failed to parse: {e}"))?;
    let hostname = url.hostname();
    match (domain_to_ascii(hostname, true), expects_failure(case)) {
        (Ok(_), false) | (Err(_), true) => Ok(()),
        (Ok(ascii), true) => Err(format!(
            "domain_to_ascii({hostname:?}, true): expected failure, got {ascii:?}"
        )),
        (Err(e), false) => Err(format!(
            "domain_to_ascii({hostname:?}, true): expected success, got error {e}"
        )),
    }
}

#[test]
fn verifydnslength_tests() {
    const FILE: &str = "verifydnslength_tests.json";
    let data = load(FILE);
    let mut report = Report::new(FILE);
    for case in cases(FILE, &data) {
        report.run(label(case, &["input", "failure"]), || dns_length_case(case));
    }
    report.finish();
}

// ---------------------------------------------------------------------------------------------
// urltestdata-javascript-only.json

/// These inputs hold lone surrogates, which no `&str` can: they test a UTF-16 entry point,
/// which rapidurl does not have. They are counted and reported, neither run nor passed.
#[test]
fn urltestdata_javascript_only() {
    // These inputs hold lone surrogates, which serde_json (like a Rust string) cannot
    // hold: read the `input` string literals from the raw JSON as UTF-16 code units and
    // run them through `Url::parse_utf16`; the expected values come from the same case
    // parsed as JSON after lone surrogates are replaced (they are all ASCII anyway).
    const FILE: &str = "urltestdata-javascript-only.json";
    let raw = fs::read_to_string(common::wpt_file(FILE)).expect("read data file");
    let inputs = raw_string_values(&raw, "input");
    let data = load(FILE);
    let cases: Vec<&Case> = cases(FILE, &data).collect();
    assert_eq!(
        inputs.len(),
        cases.len(),
        "{FILE}: one input literal per case"
    );
    let mut report = Report::new(FILE);
    for (units, case) in inputs.iter().zip(cases) {
        report.run(
            format!("{} (as UTF-16)", label(case, &["input", "base"])),
            || {
                if nullable_text(case, "base")?.is_some() {
                    return Err("cases with a base are not supported by this runner".into());
                }
                let parsed = rapidurl::Url::parse_utf16(units);
                if expects_failure(case) {
                    return match parsed {
                        Err(_) => Ok(()),
                        Ok(url) => Err(format!("expected failure, got {:?}", url.href())),
                    };
                }
                let url = parsed.map_err(|e| format!("expected success, got error {e}"))?;
                let mut diffs = Diffs::default();
                for name in URL_GETTERS {
                    if name == "origin" && !case.contains_key("origin") {
                        continue;
                    }
                    diffs.check(name, text(case, name)?, &get(&url, name).expect("a getter"));
                }
                diffs.result()
            },
        );
    }
    report.finish();
}

/// Every string value of `"key": "..."` in raw JSON text, decoded to UTF-16 code units
/// (escapes included, lone surrogates kept as they are).
fn raw_string_values(raw: &str, key: &str) -> Vec<Vec<u16>> {
    let needle = format!("\"{key}\"");
    let mut out = Vec::new();
    let mut rest = raw;
    while let Some(at) = rest.find(&needle) {
        rest = &rest[at + needle.len()..];
        let Some(open) = rest.find('"') else { break };
        rest = &rest[open + 1..];
        let mut units = Vec::new();
        let mut chars = rest.char_indices();
        let end = loop {
            match chars.next() {
                None => break rest.len(),
                Some((i, '"')) => break i + 1,
                Some((_, '\\')) => match chars.next() {
                    Some((i, 'u')) => {
                        let hex = &rest[i + 1..i + 5];
                        units.push(u16::from_str_radix(hex, 16).expect("\\u escape"));
                        for _ in 0..4 {
                            chars.next();
                        }
                    }
                    Some((_, c)) => units.push(match c {
                        'b' => 0x08,
                        'f' => 0x0C,
                        'n' => 0x0A,
                        'r' => 0x0D,
                        't' => 0x09,
                        other => other as u16,
                    }),
                    None => break rest.len(),
                },
                Some((_, c)) => units.extend(c.encode_utf16(&mut [0; 2]).iter()),
            }
        };
        out.push(units);
        rest = &rest[end..];
    }
    out
}

/// WebIDL's USVString conversion, which a browser applies to every string these files hand to
/// the URL API, done on the JSON text: each `\u` escape of a lone surrogate becomes `\uFFFD`
/// (REPLACEMENT CHARACTER); escapes of surrogate pairs are kept. (serde_json, like a Rust
/// string, cannot hold a lone surrogate; IdnaTestV2.json has some, e.g. "a\ud900z".)
fn replace_lone_surrogates(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let taken = match surrogate_escape(rest) {
            Some(0xD800..=0xDBFF) if matches!(surrogate_escape(&rest[6..]), Some(0xDC00..)) => {
                out.push_str(&rest[..12]);
                12
            }
            Some(_) => {
                out.push_str("\\uFFFD");
                6
            }
            // Any other escape: copy the backslash and the character it escapes.
            None => {
                let len = rest[1..].chars().next().map_or(1, |c| 1 + c.len_utf8());
                out.push_str(&rest[..len]);
                len
            }
        };
        rest = &rest[taken..];
    }
    out.push_str(rest);
    out
}

/// The code unit of the `\uXXXX` escape that `s` starts with, if it is a surrogate.
fn surrogate_escape(s: &str) -> Option<u16> {
    let hex = s.strip_prefix("\\u")?.get(..4)?;
    let unit = u16::from_str_radix(hex, 16).ok()?;
    (0xD800..=0xDFFF).contains(&unit).then_some(unit)
}

// ---------------------------------------------------------------------------------------------
// percent-encoding.json

/// As upstream `url/percent-encoding.window.js`: for each encoding an entry lists, a link
/// `https://doesnotmatter.invalid/?{input}#{input}` in a document of that encoding, i.e. the
/// URL parser with that encoding override: `search` is `?` + the encoding's output, and
/// `hash` is `#` + the UTF-8 output (fragments are always UTF-8).
fn percent_encoding_case(
    input: &str,
    encoding: &str,
    expected: &str,
    utf8: &str,
) -> Result<(), String> {
    #[cfg(feature = "encoding")]
    let options = Url::options().encoding(
        rapidurl::encoding::Encoding::for_label(encoding.as_bytes())
            .ok_or_else(|| format!("unknown encoding label {encoding:?}"))?,
    );
    #[cfg(not(feature = "encoding"))]
    let options = {
        assert_eq!(
            encoding, "utf-8",
            "UTF-8 alone without the feature `encoding`"
        );
        Url::options()
    };
    let href = format!("https://doesnotmatter.invalid/?{input}#{input}");
    let url = options
        .parse(&href)
        .map_err(|e| format!("{href:?} failed to parse: {e}"))?;
    let mut diffs = Diffs::default();
    diffs.check("search", &format!("?{expected}"), url.search());
    diffs.check("hash", &format!("#{utf8}"), url.hash());
    diffs.result()
}

#[test]
fn percent_encoding() {
    const FILE: &str = "percent-encoding.json";
    let data = load(FILE);
    let mut report = Report::new(FILE);
    for case in cases(FILE, &data) {
        let Some(outputs) = case.get("output").and_then(Value::as_object) else {
            report.run(label(case, &["input"]), || {
                Err("bad test data: no output object".into())
            });
            continue;
        };
        let utf8 = outputs.get("utf-8").and_then(Value::as_str);
        for (encoding, expected) in outputs {
            // Without the feature `encoding` the parser knows UTF-8 alone.
            if cfg!(not(feature = "encoding")) && encoding != "utf-8" {
                continue;
            }
            report.run(format!("{} in {encoding}", label(case, &["input"])), || {
                let input = text(case, "input")?;
                let expected = expected
                    .as_str()
                    .ok_or("bad test data: output is not a string")?;
                let utf8 = utf8.ok_or("bad test data: no utf-8 output")?;
                percent_encoding_case(input, encoding, expected, utf8)
            });
        }
    }
    report.finish();
}
