//! `PatternSet`'s index drops no candidate: route tables made to stress each level of
//! it (routes that differ only in their second path segment, wildcards, optional and
//! repeated groups and regexp groups there, `ignore_case`, many protocols, `*.suffix`
//! hosts, path-only routes), each URL's answers compared with the patterns tested one
//! by one.

use rapidurl::pattern::{PatternSet, UrlPattern, UrlPatternInput, UrlPatternOptions};

/// Every URL of `hrefs` against `set` and its patterns one by one: the same matches, the
/// same first match with the same groups. Returns the number of URLs that matched.
fn agree(set: &PatternSet, patterns: &[&UrlPattern], hrefs: &[String]) -> usize {
    let arena = rapidurl::bumpalo::Bump::new();
    let mut matched = 0;
    for href in hrefs {
        let Ok(url) = rapidurl::parse_ref(href, &arena) else {
            continue;
        };
        let all: Vec<usize> = (0..patterns.len())
            .filter(|&i| patterns[i].test_url(&url).unwrap())
            .collect();
        assert_eq!(set.all(&url).unwrap(), all, "{href}");
        assert_eq!(set.first(&url).unwrap(), all.first().copied(), "{href}");
        let first = set.first_match(&url).unwrap();
        assert_eq!(
            first.as_ref().map(|m| m.index),
            all.first().copied(),
            "{href}"
        );
        if let Some(m) = first {
            assert_eq!(
                Some(m.result),
                patterns[m.index].exec_url(&url).unwrap(),
                "{href}"
            );
        }
        let all_matches: Vec<usize> = set
            .all_matches(&url)
            .unwrap()
            .iter()
            .map(|m| m.index)
            .collect();
        assert_eq!(all_matches, all, "{href}");
        matched += usize::from(!all.is_empty());
    }
    matched
}

const PATHS: [&str; 34] = [
    "/api/users/:id",
    "/api/orders/:id",
    "/api/users",
    "/api/users/",
    "/api/:version/users",
    "/api/*",
    "/api/users{/:id}?",
    "/api/user{s}?/:id",
    "/api/users{/x}?y",
    "/api/users:id",
    "/api/(users|orders)/:id",
    "/api/:res(\\d+)",
    "/api/users/*",
    "/api/users/:id/:sub",
    "/api{/v1}?/users",
    "/api/u\u{fc}sers/:id",
    "/api/users/:id+",
    "/api/users/:id*",
    "/api/users/:id?",
    "/api//x",
    "/api/Users/:id",
    "/:x/users/:id",
    "*",
    "/api",
    "/api/users.json",
    "/api/users{.json}?",
    "/abc{/:x}?def",
    "/api/users{/:x}?def",
    "/api/users{/:x}*",
    "/api/*/users",
    "/api/users/:id.pdf",
    "/api/(.*)",
    "{/:lang}?/api/users/:id",
    "/api/users{/}?",
];

const URL_PATHS: [&str; 30] = [
    "/api/users/42",
    "/api/orders/7",
    "/api/users",
    "/api/users/",
    "/api/v1/users",
    "/api/USERS/42",
    "/api/Users/42",
    "/api/usersy",
    "/api/users/xy",
    "/api/usery",
    "/api/u%C3%BCsers/1",
    "/api/123",
    "/api/user/1",
    "/api//x",
    "/api",
    "/api/",
    "/abcdef",
    "/abc/def",
    "/api/usersdef",
    "/api/users/zdef",
    "/x/users/1",
    "/api/users.json",
    "/",
    "",
    "/api/users/1/2/3",
    "/api/users/a.pdf",
    "/api/x/users",
    "/fr/api/users/9",
    "/API/users/1",
    "/api/users/42?q",
];

#[test]
fn routes_that_differ_past_the_first_segment() {
    let mut set = PatternSet::new();
    let mut patterns = Vec::new();
    let hosts = ["*", "example.com", "*.example.com", "{www.}?example.com"];
    let schemes = ["*", "https", "http{s}?"];
    for (i, path) in PATHS.iter().enumerate() {
        for (j, host) in hosts.iter().enumerate() {
            let scheme = schemes[(i + j) % schemes.len()];
            let text = format!("{scheme}://{host}{path}");
            let ignore_case = (i + j) % 3 == 0;
            let options = UrlPatternOptions { ignore_case };
            let Ok(p) = UrlPattern::new(UrlPatternInput::String(&text), None, options) else {
                continue;
            };
            let q = UrlPattern::new(UrlPatternInput::String(&text), None, options).unwrap();
            set.add_pattern(None, &text, p);
            patterns.push(q);
        }
    }
    assert!(patterns.len() > 120, "{} patterns", patterns.len());
    let mut hrefs = Vec::new();
    for scheme in ["https", "http", "ftp", "foo"] {
        for host in [
            "example.com",
            "www.example.com",
            "a.b.example.com",
            "other.test",
        ] {
            for path in URL_PATHS {
                hrefs.push(format!("{scheme}://{host}{path}"));
            }
        }
    }
    let patterns: Vec<&UrlPattern> = patterns.iter().collect();
    let matched = agree(&set, &patterns, &hrefs);
    assert!(matched > 200, "{matched} URLs matched");
}

#[test]
fn path_only_routes_and_many_protocols() {
    // Path routes (any host, any protocol), and more protocol texts than the index has
    // bits for: the ones past them are tested, not proven.
    // The set under test, and the same routes in a second set whose patterns are tested
    // one by one.
    let mut set = PatternSet::new();
    let mut reference = PatternSet::new();
    let mut add = |text: &str| {
        set.add_route(None, text, None).unwrap();
        reference.add_route(None, text, None).unwrap();
    };
    for path in PATHS {
        add(if path == "*" { "/*" } else { path });
    }
    for n in 0..40 {
        add(&format!("p{n}://h/api/users/:id"));
        add(&format!("{{p{n}}}?q://*/api/:x"));
    }
    let patterns: Vec<&UrlPattern> = (0..reference.len()).map(|i| reference.pattern(i)).collect();
    let mut hrefs = Vec::new();
    for n in [0, 1, 30, 31, 32, 39, 40] {
        for scheme in [
            format!("p{n}"),
            format!("p{n}q"),
            "q".to_owned(),
            "https".to_owned(),
        ] {
            for path in URL_PATHS {
                hrefs.push(format!("{scheme}://h{path}"));
            }
        }
    }
    let matched = agree(&set, &patterns, &hrefs);
    assert!(matched > 200, "{matched} URLs matched");
}

#[test]
fn a_pattern_added_after_a_lookup_is_found() {
    let arena = rapidurl::bumpalo::Bump::new();
    let url = rapidurl::parse_ref("https://example.com/api/users/1", &arena).unwrap();
    let mut set = PatternSet::new();
    set.add(None, "https://example.com/api/orders/:id").unwrap();
    assert_eq!(set.first(&url).unwrap(), None);
    set.add(None, "https://example.com/api/users/:id").unwrap();
    assert_eq!(set.first(&url).unwrap(), Some(1));
    set.add_route(None, "/api/:what/:id", None).unwrap();
    assert_eq!(set.all(&url).unwrap(), vec![1, 2]);
}
