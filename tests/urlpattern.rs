//! web-platform-tests `urlpattern/resources/urlpatterntestdata.json`, every entry through
//! the Rust API (`rapidurl::pattern::UrlPattern`), as the WPT harness runs it in a
//! browser: construct, compare the normalized component patterns, then `test` and
//! `exec` on the inputs. Prints `urlpatterntestdata.json: N passed, M failed`.
//!
//! A second test runs each input that matches through the reference path (every
//! component on `regress`'s backtracking executor, the Standard's regular expressions)
//! and checks that the own matcher finds the same groups.

use rapidurl_testkit::data as common;

use rapidurl::Url;
use rapidurl::pattern::{
    COMPONENT_NAMES, UrlPattern, UrlPatternInit, UrlPatternInput, UrlPatternOptions,
    UrlPatternResult,
};
use serde_json::Value;
use std::collections::BTreeMap;
use std::panic::{self, AssertUnwindSafe};

fn entries() -> Vec<Value> {
    let path = common::wpt_file("urlpatterntestdata.json");
    let text = std::fs::read_to_string(&path).expect("read urlpatterntestdata.json");
    let data: Value =
        serde_json::from_str(&usv_escapes(&text)).expect("urlpatterntestdata.json is JSON");
    data.as_array()
        .expect("urlpatterntestdata.json is an array")
        .iter()
        .filter(|e| e.is_object())
        .cloned()
        .collect()
}

/// The JSON text with each `\\u` escape of a lone surrogate turned into `\\uFFFD`: what
/// WebIDL's USVString conversion does to the constructor's arguments.
fn usv_escapes(text: &str) -> String {
    let unit = |s: &str| -> Option<u16> {
        let hex = s.strip_prefix("\\u")?.get(..4)?;
        u16::from_str_radix(hex, 16).ok()
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let b = text.as_bytes();
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\\') {
            out.push_str("\\\\");
            i += 2;
            continue;
        }
        if let Some(u) = unit(&text[i..]) {
            let high = (0xD800..0xDC00).contains(&u);
            let low = (0xDC00..0xE000).contains(&u);
            let paired =
                high && unit(&text[i + 6..]).is_some_and(|n| (0xDC00..0xE000).contains(&n));
            if paired {
                out.push_str(&text[i..i + 12]);
                i += 12;
                continue;
            }
            if high || low {
                out.push_str("\\uFFFD");
                i += 6;
                continue;
            }
        }
        let c = text[i..].chars().next().unwrap();
        out.push(c);
        i += c.len_utf8();
    }
    out
}

fn init_of(v: &Value) -> UrlPatternInit {
    let mut init = UrlPatternInit::default();
    // WebIDL dictionaries ignore members they do not have (`{"ignoreCase": true}` as
    // the first argument is an empty URLPatternInit).
    for (k, val) in v.as_object().expect("a dictionary") {
        if let Some(field) = init.field_mut(k) {
            *field = Some(
                val.as_str()
                    .expect("dictionary values are strings")
                    .to_owned(),
            );
        }
    }
    init
}

/// The constructor arguments as the WebIDL overloads take them: (input, baseURL,
/// options) or (input, options). A dictionary in second place followed by a third
/// argument is the first overload with the dictionary as base URL string.
struct Args {
    input: Option<Value>,
    base: Option<String>,
    options: UrlPatternOptions,
}

fn args_of(pattern: &[Value]) -> Args {
    let mut args = Args {
        input: pattern.first().cloned(),
        base: None,
        options: UrlPatternOptions::default(),
    };
    let options_of = |v: &Value| UrlPatternOptions {
        ignore_case: v
            .get("ignoreCase")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    };
    match (pattern.get(1), pattern.get(2)) {
        (Some(Value::String(b)), o) => {
            args.base = Some(b.clone());
            if let Some(o) = o {
                args.options = options_of(o);
            }
        }
        (Some(o @ Value::Object(_)), None) => args.options = options_of(o),
        (Some(Value::Object(_)), Some(_)) => args.base = Some("[object Object]".to_owned()),
        _ => {}
    }
    args
}

fn construct(args: &Args) -> Result<UrlPattern, rapidurl::pattern::PatternError> {
    match &args.input {
        Some(Value::String(s)) => UrlPattern::new(
            UrlPatternInput::String(s),
            args.base.as_deref(),
            args.options,
        ),
        Some(v) => UrlPattern::new(
            UrlPatternInput::Init(&init_of(v)),
            args.base.as_deref(),
            args.options,
        ),
        None => UrlPattern::new(
            UrlPatternInput::Init(&UrlPatternInit::default()),
            None,
            args.options,
        ),
    }
}

/// What the WPT harness expects of a component pattern when the entry does not say.
fn default_expected(entry: &Value, component: &str) -> String {
    let pattern = entry["pattern"].as_array().expect("pattern is a list");
    if let Some(empty) = entry.get("exactly_empty_components")
        && empty.as_array().unwrap().iter().any(|c| c == component)
    {
        return String::new();
    }
    let first = pattern.first();
    if let Some(Value::Object(o)) = first {
        if let Some(Value::String(s)) = o.get(component)
            && !s.is_empty()
        {
            return s.clone();
        }
        let earlier: &[&str] = match component {
            "hostname" => &["protocol"],
            "port" => &["protocol", "hostname"],
            "pathname" => &["protocol", "hostname", "port"],
            "search" => &["protocol", "hostname", "port", "pathname"],
            "hash" => &["protocol", "hostname", "port", "pathname", "search"],
            _ => &[],
        };
        if earlier.iter().any(|c| o.contains_key(*c)) {
            return "*".to_owned();
        }
    }
    let base = match (first, pattern.get(1)) {
        (Some(Value::Object(o)), _) if o.get("baseURL").is_some_and(|b| b != "") => {
            o["baseURL"].as_str().map(str::to_owned)
        }
        (_, Some(Value::String(b))) => Some(b.clone()),
        _ => None,
    };
    if let Some(base) = base
        && component != "username"
        && component != "password"
    {
        let url = Url::parse(&base).expect("the test's base URL parses");
        return match component {
            "protocol" => url.scheme().to_owned(),
            "hostname" => url.hostname().to_owned(),
            "port" => url.port().to_owned(),
            "pathname" => url.pathname().to_owned(),
            "search" => url.search().get(1..).unwrap_or("").to_owned(),
            "hash" => url.hash().get(1..).unwrap_or("").to_owned(),
            _ => unreachable!(),
        };
    }
    "*".to_owned()
}

/// Runs `f` on the entry's inputs: (input, baseURL).
fn with_inputs<T>(inputs: &[Value], f: impl FnOnce(UrlPatternInput<'_>, Option<&str>) -> T) -> T {
    let base = inputs.get(1).and_then(Value::as_str);
    match inputs.first() {
        Some(Value::String(s)) => f(UrlPatternInput::String(s), base),
        Some(v) => {
            let init = init_of(v);
            f(UrlPatternInput::Init(&init), base)
        }
        None => f(UrlPatternInput::Init(&UrlPatternInit::default()), base),
    }
}

fn groups_of(r: &rapidurl::pattern::ComponentResult) -> BTreeMap<String, Option<String>> {
    r.groups.iter().cloned().collect()
}

fn check_result(entry: &Value, result: &UrlPatternResult) -> Result<(), String> {
    let expected = &entry["expected_match"];
    let empty: Vec<&str> = entry
        .get("exactly_empty_components")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut errors = Vec::new();
    for (name, got) in result.components() {
        let (input, groups): (String, BTreeMap<String, Option<String>>) = match expected.get(name) {
            Some(e) => (
                e["input"].as_str().unwrap().to_owned(),
                e["groups"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_str().map(str::to_owned)))
                    .collect(),
            ),
            None => {
                let mut g = BTreeMap::new();
                if !empty.contains(&name) {
                    g.insert("0".to_owned(), Some(String::new()));
                }
                (String::new(), g)
            }
        };
        if got.input != input || groups_of(got) != groups {
            errors.push(format!(
                "exec {name}: expected input {input:?} groups {groups:?}, got input {:?} groups {:?}",
                got.input,
                groups_of(got)
            ));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("; "))
    }
}

fn run_entry(entry: &Value) -> Result<(), String> {
    let pattern = entry["pattern"].as_array().expect("pattern is a list");
    let args = args_of(pattern);
    let constructed = construct(&args);
    if entry.get("expected_obj") == Some(&Value::String("error".into())) {
        return match constructed {
            Err(_) => Ok(()),
            Ok(p) => Err(format!(
                "expected a construction error, got {:?}",
                p.component_patterns()
            )),
        };
    }
    let p = constructed.map_err(|e| format!("construction failed: {e}"))?;
    for (i, name) in COMPONENT_NAMES.iter().enumerate() {
        let expected = match entry.get("expected_obj").and_then(|o| o.get(*name)) {
            Some(Value::String(s)) => s.clone(),
            _ => default_expected(entry, name),
        };
        let got = p.component_patterns()[i];
        if got != expected {
            return Err(format!(
                "component {name}: expected pattern {expected:?}, got {got:?}"
            ));
        }
    }
    let Some(inputs) = entry.get("inputs").and_then(Value::as_array) else {
        return Ok(());
    };
    let expected = &entry["expected_match"];
    if expected == "error" {
        let t = with_inputs(inputs, |i, b| p.test(i, b));
        let e = with_inputs(inputs, |i, b| p.exec(i, b));
        return match (t, e) {
            (Err(_), Err(_)) => Ok(()),
            other => Err(format!("expected test/exec errors, got {other:?}")),
        };
    }
    let tested = with_inputs(inputs, |i, b| p.test(i, b)).map_err(|e| format!("test: {e}"))?;
    let want = expected.is_object();
    if tested != want {
        return Err(format!("test(): expected {want}, got {tested}"));
    }
    let executed = with_inputs(inputs, |i, b| p.exec(i, b)).map_err(|e| format!("exec: {e}"))?;
    match (executed, want) {
        (None, false) => Ok(()),
        (Some(r), false) => Err(format!("exec(): expected null, got {r:?}")),
        (None, true) => Err("exec(): expected a match, got null".to_owned()),
        (Some(r), true) => check_result(entry, &r),
    }
}

fn label(entry: &Value) -> String {
    format!("pattern {} inputs {}", entry["pattern"], entry["inputs"])
}

#[test]
fn urlpatterntestdata() {
    let entries = entries();
    let mut passed = 0;
    let mut failures = Vec::new();
    for entry in &entries {
        match panic::catch_unwind(AssertUnwindSafe(|| run_entry(entry))) {
            Ok(Ok(())) => passed += 1,
            Ok(Err(why)) => failures.push(format!("{}\n    {why}", label(entry))),
            Err(_) => failures.push(format!("{}\n    panicked", label(entry))),
        }
    }
    println!(
        "urlpatterntestdata.json: {passed} passed, {} failed",
        failures.len()
    );
    assert!(
        !entries.is_empty(),
        "urlpatterntestdata.json yielded no entry"
    );
    assert!(
        failures.is_empty(),
        "{} of {} entries failed; the first:\n  {}",
        failures.len(),
        entries.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n  ")
    );
}

/// For every constructed pattern and input of the file: the own matcher (Pike VM for
/// components without regexp groups) and the reference path (`regress`'s backtracking
/// executor on the Standard's regular expression for every component) agree.
#[test]
fn own_matcher_agrees_with_the_reference() {
    let mut compared = 0;
    for entry in entries() {
        let args = args_of(entry["pattern"].as_array().unwrap());
        let Ok(p) = construct(&args) else { continue };
        let Some(inputs) = entry.get("inputs").and_then(Value::as_array) else {
            continue;
        };
        let own = with_inputs(inputs, |i, b| p.exec(i, b));
        let tested = with_inputs(inputs, |i, b| p.test(i, b));
        let reference = with_inputs(inputs, |i, b| p.__exec_reference(i, b));
        match (own, reference) {
            (Ok(a), Ok(b)) => {
                assert_eq!(tested.ok(), Some(b.is_some()), "test: {}", label(&entry));
                assert_eq!(a, b, "{}", label(&entry));
            }
            (Err(_), Err(_)) => {}
            (a, b) => panic!("{}: {a:?} vs {b:?}", label(&entry)),
        }
        compared += 1;
    }
    assert!(compared > 300, "only {compared} entries compared");
}

/// `PatternSet` finds the same first match and the same set of matches as testing its
/// patterns one by one, over generated routes (fixed and wildcard protocols, hosts and
/// first segments, optional and repeated groups, case-insensitive ones) and URLs that hit
/// and miss them.
#[test]
fn pattern_set_agrees_with_one_by_one() {
    use rapidurl::pattern::PatternSet;
    let hosts = [
        "example.com",
        "api.example.com",
        "b\u{fc}cher.example",
        "[::1]",
        "{www.}?example.com",
    ];
    let schemes = ["https", "http", "http{s}?", "*", "foo", "{f}?t{t}?p"];
    let paths = [
        "/users/:id",
        "/users{/:id}?",
        "/users/*",
        "/users",
        "/users:x",
        "/u/:a/:b?",
        "/:seg/x",
        "/static/:file.:ext",
        "/(\\d+)/:rest*",
        "*",
        "/users/:id+",
        "/users{.json}?",
        "/%75sers/:id",
        "/users/:id/:action?",
        "{/:dir}*/end",
        "/a{/b}?/c",
        "/a/(.*)/c",
        "/users/:id/edit{/}?",
    ];
    let mut set = PatternSet::new();
    let mut patterns = Vec::new();
    for (i, scheme) in schemes.iter().enumerate() {
        for (j, host) in hosts.iter().enumerate() {
            for (k, path) in paths.iter().enumerate() {
                let host = if (i + j + k) % 7 == 0 {
                    "*.example.com"
                } else {
                    host
                };
                let text = format!("{scheme}://{host}{path}");
                let ignore_case = (i + j + k) % 5 == 0;
                let options = rapidurl::pattern::UrlPatternOptions { ignore_case };
                let Ok(p) = UrlPattern::new(UrlPatternInput::String(&text), None, options) else {
                    continue;
                };
                let q = UrlPattern::new(UrlPatternInput::String(&text), None, options).unwrap();
                set.add_pattern(None, &text, p);
                patterns.push(q);
            }
        }
    }
    assert!(patterns.len() > 200, "{} patterns", patterns.len());
    let url_paths = [
        "/users/42",
        "/users",
        "/users/",
        "/USERS/7",
        "/usersx",
        "/u/a",
        "/u/a/b",
        "/anything/x",
        "/static/a.js",
        "/2024/a/b",
        "/users/1/2/3",
        "/users.json",
        "/",
        "",
        "/users/1/edit",
        "/users/1/edit/",
        "/x/y/end",
        "/end",
        "/a/c",
        "/a/b/c",
        "/a/b/b/c",
    ];
    let arena = rapidurl::bumpalo::Bump::new();
    let mut compared = 0;
    let mut matched = 0;
    for scheme in ["https", "http", "foo", "ftp", "tp"] {
        let more = [
            "cdn.example.com",
            "www.example.com",
            "a.b.example.com",
            "other.test",
        ];
        for host in hosts.iter().chain(&more) {
            for path in url_paths {
                let href = format!("{scheme}://{host}{path}");
                let Ok(url) = rapidurl::parse_ref(&href, &arena) else {
                    continue;
                };
                let all: Vec<usize> = (0..patterns.len())
                    .filter(|&i| patterns[i].test_url(&url).unwrap())
                    .collect();
                assert_eq!(set.all(&url).unwrap(), all, "{href}");
                assert_eq!(set.first(&url).unwrap(), all.first().copied(), "{href}");
                let first = set.first_match(&url).unwrap();
                assert_eq!(first.as_ref().map(|m| m.index), all.first().copied());
                if let Some(m) = first {
                    assert_eq!(Some(m.result), patterns[m.index].exec_url(&url).unwrap());
                }
                compared += 1;
                matched += usize::from(!all.is_empty());
            }
        }
    }
    assert!(
        compared > 200 && matched > 50,
        "{compared} URLs, {matched} matched"
    );
}

/// Every pattern of the file that constructs gives normalized components that, given back
/// as a dictionary, construct the same pattern again (but for a port that became its
/// special protocol's default, which construction empties), the check the `pattern_parse`
/// fuzz target runs on arbitrary input.
#[test]
fn normalized_components_construct_the_same_pattern() {
    let mut checked = 0;
    for entry in entries() {
        let args = args_of(entry["pattern"].as_array().unwrap());
        let Ok(p) = construct(&args) else { continue };
        p.__check_round_trip(args.options)
            .unwrap_or_else(|e| panic!("{}: {e}", label(&entry)));
        checked += 1;
    }
    assert!(checked > 300, "only {checked} patterns checked");
}

/// The round trip keeps a port that is not the protocol's default, and empties one that
/// canonicalization made the default (`https://h:443` has no port).
#[test]
fn round_trip_keeps_ports_but_the_default() {
    let options = rapidurl::pattern::UrlPatternOptions::default();
    for (text, port) in [("https://h:8443/x", "8443"), ("https://h:443/x", "")] {
        let p = UrlPattern::parse(text, None).unwrap();
        assert_eq!(p.port(), port);
        p.__check_round_trip(options).unwrap();
    }
    let p = UrlPattern::parse("http://h:(\\d+)/x", None).unwrap();
    assert!(p.has_regexp_groups());
    p.__check_round_trip(options).unwrap();
}

/// The inputs the `pattern_exec` fuzz target timed out on in its backtracking reference:
/// many wildcards in one component. The own matcher (no backtracking) answers them, and
/// a longer form of them, at once; `exec` and `test` agree.
#[test]
fn many_wildcards_do_not_backtrack() {
    for stars in [8, 40] {
        let pattern = format!("https://*/{}e{}m", "*".repeat(stars), "*".repeat(stars));
        let p = UrlPattern::parse(&pattern, None).unwrap();
        let miss = format!("https://x.test/{}", "e".repeat(500));
        let hit = format!("https://x.test/{}m", "e".repeat(500));
        assert!(!p.test_str(&miss, None).unwrap());
        assert!(p.exec_str(&miss, None).unwrap().is_none());
        assert!(p.test_str(&hit, None).unwrap());
        let m = p.exec_str(&hit, None).unwrap().unwrap();
        assert_eq!(m.pathname.input.len(), 502);
    }
}
