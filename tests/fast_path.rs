//! The fast path never gives a second opinion: for every input it accepts, the state
//! machine gives the same serialization and the same `Components`; and every input that
//! `can_parse`'s quick check proves valid does parse (with and without a base). Checked on every WPT
//! input, every line of the benchmark corpora and of the project's sample, and on random
//! mutations of canonical URLs.

use rapidurl_testkit::data as common;

use rapidurl::__testing::{parse_fast, parse_slow, proven_hostname, proven_valid};
use rapidurl::bumpalo::Bump;
use std::path::PathBuf;

/// Checks one input; returns whether the fast path took it.
fn check(input: &str) -> bool {
    if proven_valid(input) {
        if let Err(e) = parse_slow(input) {
            panic!("proven_valid({input:?}) is true, but the state machine rejects it: {e}");
        }
        let base = rapidurl::Url::parse("https://base.example/dir/file").expect("base");
        assert!(
            base.join(input).is_ok(),
            "proven_valid({input:?}) but join fails"
        );
    }
    let Some(fast) = parse_fast(input) else {
        return false;
    };
    match parse_slow(input) {
        Ok(slow) => assert_eq!(fast, slow, "fast and slow paths differ on {input:?}"),
        Err(e) => panic!("fast path accepted {input:?}, which the state machine rejects: {e}"),
    }
    // Through the public API, with and without an arena.
    let url = rapidurl::Url::parse(input).expect("parses");
    assert_eq!(url.as_str(), fast.0);
    let arena = rapidurl::bumpalo::Bump::new();
    let view = rapidurl::parse_ref(input, &arena).expect("parses");
    assert_eq!(view.as_str(), fast.0);
    assert_eq!(view.components(), url.components());
    true
}

/// `parse_hostname` is `parse_ref`'s hostname (or its error), without a base and against
/// two bases; when the proof reads the hostname off the input, it is the input's host
/// bytes lower-cased. Returns whether the proof did.
fn check_hostname(input: &str) -> bool {
    let arena = Bump::new();
    let expected = rapidurl::parse_ref(input, &arena).map(|u| u.hostname());
    let got = rapidurl::parse_hostname(input, &arena);
    assert_eq!(got, expected, "parse_hostname({input:?})");
    for base in ["https://base.example/dir/file", "file:///C:/dir/"] {
        let base = rapidurl::parse_ref(base, &arena).expect("base");
        let expected = rapidurl::parse_ref_with_base(input, &base, &arena).map(|u| u.hostname());
        let got = rapidurl::parse_hostname_with_base(input, &base, &arena);
        assert_eq!(got, expected, "parse_hostname_with_base({input:?}, {base})");
    }
    let Some((range, upper)) = proven_hostname(input) else {
        return false;
    };
    let host = &input[range];
    assert_eq!(
        expected,
        Ok(host.to_ascii_lowercase().as_str()),
        "proven_hostname({input:?})"
    );
    assert_eq!(
        upper,
        host.bytes().any(|c| c.is_ascii_uppercase()),
        "{input:?}"
    );
    true
}

fn lines_of(path: &PathBuf) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    String::from_utf8_lossy(&bytes)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn wpt_inputs() {
    let data: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(common::wpt_file("urltestdata.json")).expect("read"),
    )
    .expect("json");
    let (mut total, mut fast, mut hosts) = (0, 0, 0);
    for case in data
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|c| c.as_object())
    {
        for key in ["input", "base", "href"] {
            if let Some(s) = case.get(key).and_then(|v| v.as_str()) {
                total += 1;
                fast += check(s) as usize;
                hosts += check_hostname(s) as usize;
            }
        }
    }
    println!("WPT inputs, bases and hrefs: {total}, fast path took {fast}, hostname proof {hosts}");
    assert!(total > 1000 && fast > 100 && hosts > 100);
}

#[test]
fn corpora_lines() {
    let shared = rapidurl_testkit::data::corpora_dir_unchecked();
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora");
    let mut files: Vec<PathBuf> = [shared, own]
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flat_map(|d| d.flatten().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("txt" | "tsv")))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "expected the shared corpora and corpora/sample.txt, found {files:?}"
    );
    for file in files {
        let (mut total, mut fast, mut hosts) = (0, 0, 0);
        for line in lines_of(&file) {
            for field in line.split('\t') {
                total += 1;
                fast += check(field) as usize;
                hosts += check_hostname(field) as usize;
            }
        }
        println!(
            "{}: {total} inputs, fast path took {fast}, hostname proof {hosts}",
            file.display()
        );
        if file.ends_with("kasztp.txt") {
            assert!(
                hosts > total * 9 / 10,
                "the proof should read most web URLs"
            );
        }
    }
}

/// Random edits of canonical URLs: each byte of an alphabet chosen to hit every branch of
/// the fast path (delimiters, upper case, dots, digits, `%2e`, bytes ≥ 0x80, controls).
#[test]
fn random_mutations() {
    let seeds = [
        "https://example.com/a/b/c.html?x=1&y=2#frag",
        "http://a.b.c:8080/p?q#h",
        "file:///C:/dir/file.txt",
        "file://host/share/x",
        "ws://chat.example/socket",
        "ftp://ftp.example.org:21/pub/",
        "mailto:someone@example.com?subject=hi",
        "data:text/plain,hello",
        "https://xn--bcher-kva.example/",
        "http://example.com",
        "http://user:pa@ss@host.example:8080/x",
        "https://[::1]:443/",
        "http://0x7f.1/",
        "HTTP://192.168.0.1:99999/",
    ];
    let alphabet: Vec<&str> = vec![
        "/",
        ".",
        "..",
        "%2e",
        "%2E",
        "%",
        "?",
        "#",
        ":",
        "@",
        "[",
        "]",
        "\\",
        "|",
        "'",
        "\"",
        " ",
        "\t",
        "\n",
        "A",
        "Z",
        "0",
        "9",
        "0x",
        "-",
        "_",
        "~",
        "`",
        "{",
        "}",
        "^",
        "<",
        ">",
        "é",
        "\u{0}",
        "\u{7f}",
        "localhost",
        "//",
        "443",
        "80",
        ":0",
        ":65536",
        "xn--",
    ];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let (mut total, mut fast, mut hosts) = (0, 0, 0);
    // RAPIDURL_MUTATIONS raises the count for a longer local run.
    let rounds = std::env::var("RAPIDURL_MUTATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(60_000);
    for _ in 0..rounds {
        let mut s = seeds[next(seeds.len())].to_string();
        for _ in 0..1 + next(3) {
            let piece = alphabet[next(alphabet.len())];
            let mut at = next(s.len() + 1);
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            if next(4) == 0 && at < s.len() {
                let mut end = at + 1;
                while !s.is_char_boundary(end) {
                    end += 1;
                }
                s.replace_range(at..end, piece);
            } else {
                s.insert_str(at, piece);
            }
        }
        total += 1;
        fast += check(&s) as usize;
        hosts += check_hostname(&s) as usize;
    }
    println!("random mutations: {total}, fast path took {fast}, hostname proof {hosts}");
    assert!(
        fast > 1000 && hosts > 1000,
        "the mutations should leave many URLs canonical"
    );
}

/// Upper case in the scheme or the host stays on the fast path: the serialization is the
/// input with those two lower-cased (and the `/` of an empty path inserted).
#[test]
fn upper_case_scheme_and_host_take_the_fast_path() {
    let cases = [
        (
            "HTTPS://Example.COM/A/b?Q=1#F",
            "https://example.com/A/b?Q=1#F",
        ),
        ("http://WWW.EXAMPLE.ORG", "http://www.example.org/"),
        ("Http://Example.com:8080?X", "http://example.com:8080/?X"),
        ("FILE://HOST/Share/X", "file://host/Share/X"),
        ("MailTo:Someone@Example.com", "mailto:Someone@Example.com"),
        ("WSS://CHAT.Example/#", "wss://chat.example/#"),
    ];
    for (input, expected) in cases {
        assert!(check(input), "{input:?} left the fast path");
        let (fast, _) = parse_fast(input).expect("fast path");
        assert_eq!(fast, expected, "{input:?}");
    }
    // Still not: `localhost` in any case (the file host becomes empty), numbers, upper-case
    // percent-encoding in the host.
    for input in [
        "file://LOCALHOST/x",
        "http://EXAMPLE.1/",
        "http://EX%41MPLE.com/",
    ] {
        assert!(!check(input), "{input:?} took the fast path");
    }
}

/// The byte classifier (private `scan` module) through the hidden testing module: every
/// kernel this CPU runs gives the scalar reference's masks on every corpus line.
#[test]
fn every_scan_kernel_agrees_with_the_scalar_one_on_the_corpora() {
    let kernels = rapidurl::__testing::scan_kernels();
    assert_eq!(kernels[0].0, "scalar");
    assert!(
        kernels
            .iter()
            .any(|k| k.0 == rapidurl::__testing::scan_kernel_name())
    );
    let sample = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/sample.txt");
    let mut inputs = lines_of(&sample);
    inputs.push("x".repeat(130) + "\u{e9}/\u{7f}");
    for input in &inputs {
        let b = input.as_bytes();
        let words = b.len().div_ceil(64);
        let mut reference = (vec![0u64; words], vec![0u64; words]);
        (kernels[0].1)(b, &mut reference.0, &mut reference.1);
        for (name, kernel) in &kernels[1..] {
            let mut got = (vec![0u64; words], vec![0u64; words]);
            kernel(b, &mut got.0, &mut got.1);
            assert_eq!(got, reference, "kernel {name} on {input:?}");
        }
    }
}

/// Checks one reference against one base: the relative fast path, when it takes the
/// reference, gives the state machine's serialization and components, and `join` gives
/// the state machine's result either way. Returns whether the fast path took it.
fn check_relative(input: &str, base: &rapidurl::Url) -> bool {
    let slow = rapidurl::__testing::parse_slow_with_base(input, base);
    let joined = base
        .join(input)
        .map(|u| (u.as_str().to_owned(), *u.components()));
    assert_eq!(
        joined.map_err(|e| e.to_string()),
        slow.clone().map_err(|e| e.to_string()),
        "join({input:?}) against {base}"
    );
    let Some(fast) = rapidurl::__testing::resolve_relative(input, base) else {
        return false;
    };
    assert_eq!(
        Ok(fast),
        slow,
        "the relative fast path differs on {input:?} against {base}"
    );
    true
}

/// The relative fast path against the state machine: every (base, reference) pair of
/// corpora/relative.tsv and of the WPT data, every corpus line as a reference against
/// bases of each shape, and random edits of references against them.
#[test]
fn relative_references() {
    let bases: Vec<rapidurl::Url> = [
        "https://example.com/a/b/c?q=1#f",
        "https://example.com",
        "http://u:p@example.com:8080/dir/",
        "ws://h/a",
        "ftp://[::1]:21/x/y/",
        "https://example.com//double//slash/",
        "https://xn--bcher-kva.example/%2e/a",
        "file:///C:/dir/file",
        "sc://h/a/b",
        "sc://h",
        "git://host:9418/repo.git/",
        "foo:/a/b",
        "mailto:a@b",
    ]
    .iter()
    .map(|b| rapidurl::Url::parse(b).unwrap())
    .collect();
    // Every pair with a base that has a host (but file:), and a reference of plain
    // characters that is not absolute: the ones the fast path is for.
    let (mut total, mut eligible, mut fast) = (0, 0, 0);
    let own = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpora/relative.tsv");
    for line in lines_of(&own) {
        if let Some((base, reference)) = line.split_once('\t')
            && let Ok(base) = rapidurl::Url::parse(base)
        {
            total += 1;
            let plain = reference
                .trim()
                .bytes()
                .all(|b| b.is_ascii_graphic() && !b"\"<>`{}^'\\".contains(&b));
            let delimiter = reference.find(['/', '?', '#']).unwrap_or(reference.len());
            let absolute = reference.find(':').is_some_and(|colon| colon < delimiter);
            let hierarchical =
                base.host_kind() != rapidurl::HostKind::None && base.scheme() != "file";
            eligible += (hierarchical && plain && !absolute) as usize;
            fast += check_relative(reference, &base) as usize;
        }
    }
    println!(
        "corpora/relative.tsv: {total} pairs, {eligible} plain relative references against a special base, the relative fast path took {fast}"
    );
    assert!(
        fast > eligible * 9 / 10,
        "the relative fast path took {fast} of {eligible}"
    );
    let data: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(common::wpt_file("urltestdata.json")).expect("read"),
    )
    .expect("json");
    for case in data
        .as_array()
        .expect("array")
        .iter()
        .filter_map(|c| c.as_object())
    {
        if let (Some(input), Some(base)) = (
            case["input"].as_str(),
            case.get("base").and_then(|b| b.as_str()),
        ) && let Ok(base) = rapidurl::Url::parse(base)
        {
            check_relative(input, &base);
        }
    }
    const ALPHABET: &[&str] = &[
        "/", ".", "..", "./", "../", "%2e", "%2E", "?", "#", ":", "//", "\\", " ", "\t", "é", "^",
        "'", "a", "b/", "%", "@",
    ];
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut random = 0;
    for _ in 0..40_000 {
        let mut reference = String::new();
        for _ in 0..1 + next() % 8 {
            reference.push_str(ALPHABET[(next() as usize) % ALPHABET.len()]);
        }
        let base = &bases[(next() as usize) % bases.len()];
        random += check_relative(&reference, base) as usize;
    }
    println!("random references: 40000, the relative fast path took {random}");
    assert!(random > 5_000);
}
