//! Public suffixes and registrable domains (URL Standard §3.2) through URL parsing, and the
//! host and path analytics beside them.
//!
//! - the Standard's own examples table, through `Url`, `UrlRef` and a `UrlColumn` row;
//! - the Public Suffix List project's `checkPublicSuffix` test vectors, read at test time
//!   from the `publicsuffix` crate (a dev-dependency that ships them as `tests/tests.txt`,
//!   with a copy of the list as `tests/public_suffix_list.dat`), against the built-in
//!   list and against that copy loaded at run time;
//! - the loaded list against the `publicsuffix` crate's own lookups on the same file;
//! - wildcard and exception rules, IDN suffixes, upper case and trailing dots, IP hosts.
//!
//! Expected values are written by hand (or are the PSL project's), never computed by the
//! code under test.

use rapidurl_testkit::data as common;

use rapidurl::psl::{Section, Sections, SuffixList};
use rapidurl::{Url, UrlRef};
use rapidurl_testkit::psl_oracle;
use std::path::PathBuf;

/// The `publicsuffix` crate's source folder in the cargo registry.
fn publicsuffix_dir() -> PathBuf {
    common::registry_crate_dir("publicsuffix")
        .expect("the publicsuffix crate (a dev-dependency) is in the cargo registry")
}

/// `(public suffix, registrable domain)` of `http://{host}/`, through `Url` and `UrlRef`,
/// which must agree.
fn psl_of(host: &str) -> (Option<String>, Option<String>) {
    let input = format!("http://{host}/");
    let url = Url::parse(&input).unwrap_or_else(|e| panic!("{input}: {e}"));
    let arena = rapidurl::bumpalo::Bump::new();
    let view: UrlRef<'_> = rapidurl::parse_ref(&input, &arena).unwrap();
    assert_eq!(url.public_suffix(), view.public_suffix(), "{input}");
    assert_eq!(
        url.registrable_domain(),
        view.registrable_domain(),
        "{input}"
    );
    (
        url.public_suffix().map(str::to_owned),
        url.registrable_domain().map(str::to_owned),
    )
}

/// The examples table of §3.2 ("Host input | Public suffix | Registrable domain").
const SPEC_TABLE: &[(&str, Option<&str>, Option<&str>)] = &[
    ("com", Some("com"), None),
    ("example.com", Some("com"), Some("example.com")),
    ("www.example.com", Some("com"), Some("example.com")),
    ("sub.www.example.com", Some("com"), Some("example.com")),
    ("EXAMPLE.COM", Some("com"), Some("example.com")),
    ("example.com.", Some("com."), Some("example.com.")),
    ("github.io", Some("github.io"), None),
    (
        "whatwg.github.io",
        Some("github.io"),
        Some("whatwg.github.io"),
    ),
    ("إختبار", Some("xn--kgbechtv"), None),
    (
        "example.إختبار",
        Some("xn--kgbechtv"),
        Some("example.xn--kgbechtv"),
    ),
    (
        "sub.example.إختبار",
        Some("xn--kgbechtv"),
        Some("example.xn--kgbechtv"),
    ),
    ("[2001:0db8:85a3:0000:0000:8a2e:0370:7334]", None, None),
];

#[test]
fn the_standards_examples_table() {
    for &(host, suffix, registrable) in SPEC_TABLE {
        let want = (suffix.map(str::to_owned), registrable.map(str::to_owned));
        assert_eq!(psl_of(host), want, "host {host}");
        // The same from the `psl` crate's matcher (the oracle).
        let url = Url::parse(&format!("http://{host}/")).unwrap();
        let s = (url.host_kind() == rapidurl::HostKind::Domain)
            .then(|| psl_oracle::lookup(url.hostname(), false))
            .flatten();
        let got = (
            s.map(|s| s.as_str().to_owned()),
            s.and_then(|s| s.registrable_domain()).map(str::to_owned),
        );
        assert_eq!(got, want, "host {host}, psl crate matcher");
    }
}

/// The built-in list is the table that `build.rs` makes from the `psl` crate's
/// `data/rules.txt`, of the version `Cargo.lock` holds, and says so.
#[test]
fn the_builtin_list_is_the_table_of_the_locked_psl_version() {
    let lock = std::fs::read_to_string(common::workspace_root().join("Cargo.lock")).unwrap();
    let locked = lock
        .split("[[package]]")
        .find(|p| p.contains("\nname = \"psl\"\n"))
        .and_then(|p| p.split("\nversion = \"").nth(1))
        .and_then(|v| v.split('"').next())
        .expect("psl in Cargo.lock");
    assert_eq!(rapidurl::psl::BUILTIN_LIST_VERSION, locked);
    assert!(SuffixList::builtin().is_builtin());
}

/// Every field of a lookup, to compare a list with the oracle.
fn answer(list: &SuffixList, host: &str, sections: Sections) -> Option<[Option<String>; 4]> {
    let s = list.lookup(host, sections)?;
    let owned = |x: Option<&str>| x.map(str::to_owned);
    Some([
        Some(s.as_str().to_owned()),
        owned(s.registrable_domain()),
        owned(s.subdomain()),
        Some(format!("{:?} {}", s.section(), s.is_known())),
    ])
}

/// [`answer`] of the `psl` crate's matcher ([`psl_oracle`]).
fn oracle(host: &str, sections: Sections) -> Option<[Option<String>; 4]> {
    let s = psl_oracle::lookup(host, sections == Sections::Icann)?;
    let owned = |x: Option<&str>| x.map(str::to_owned);
    let section = s.section().map(|s| match s {
        psl_oracle::Section::Icann => Section::Icann,
        psl_oracle::Section::Private => Section::Private,
    });
    Some([
        Some(s.as_str().to_owned()),
        owned(s.registrable_domain()),
        owned(s.subdomain()),
        Some(format!("{:?} {}", section, s.is_known())),
    ])
}

/// The table and the `psl` crate's matcher give the same suffix, registrable domain,
/// subdomain, section and known flag on the host of every URL of every corpus (and the
/// sample), for the whole list and for the ICANN section.
#[test]
fn builtin_table_agrees_with_the_matcher_on_every_corpus_host() {
    let dir = common::corpora_dir();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    paths.push(common::workspace_root().join("corpora/sample.txt"));
    let table = SuffixList::builtin();
    let mut compared = 0;
    for path in &paths {
        let text = std::fs::read(path).unwrap();
        for line in String::from_utf8_lossy(&text).lines() {
            let Ok(url) = Url::parse(line) else { continue };
            if url.host_kind() != rapidurl::HostKind::Domain {
                continue;
            }
            let host = url.hostname();
            for sections in [Sections::All, Sections::Icann] {
                let ours = answer(table, host, sections);
                assert_eq!(ours, oracle(host, sections), "{host} {sections:?}");
            }
            compared += 1;
        }
    }
    assert!(compared > 50_000, "only {compared} hosts");
    // And hosts under every rule of the publicsuffix crate's copy of the list, with
    // siblings (a rule's labels, one and two more).
    let text = std::fs::read_to_string(publicsuffix_dir().join("tests/public_suffix_list.dat"));
    for host in hosts_from(&text.unwrap()) {
        for sections in [Sections::All, Sections::Icann] {
            let ours = answer(table, &host, sections);
            assert_eq!(ours, oracle(&host, sections), "{host} {sections:?}");
        }
    }
}

#[cfg(feature = "rayon")]
#[test]
fn the_examples_table_through_a_column() {
    let lines: String = SPEC_TABLE
        .iter()
        .map(|(host, ..)| format!("https://{host}/\n"))
        .collect();
    let column = rapidurl::batch::parse_lines(lines.as_bytes());
    assert_eq!(column.len(), SPEC_TABLE.len());
    for (row, &(host, suffix, registrable)) in column.iter().zip(SPEC_TABLE) {
        let url = row.expect("parses");
        assert_eq!(url.public_suffix(), suffix, "{host}");
        assert_eq!(url.registrable_domain(), registrable, "{host}");
    }
}

/// The PSL's test vectors: `input registrable-domain` per line, `null` for none, `//`
/// comments. `null` input stands for no host at all.
fn check_public_suffix_vectors() -> Vec<(String, Option<String>)> {
    let path = publicsuffix_dir().join("tests/tests.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let vectors: Vec<(String, Option<String>)> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .map(|l| {
            let mut words = l.split_whitespace();
            let input = words.next().expect("input").to_owned();
            let expected = words.next().expect("expected value");
            (input, (expected != "null").then(|| expected.to_owned()))
        })
        .collect();
    assert!(
        vectors.len() > 60,
        "only {} vectors in {}",
        vectors.len(),
        path.display()
    );
    vectors
}

/// Runs the vectors with `registrable` (the registrable domain of a URL); the expected
/// value is compared in ASCII, as hosts are serialized: the vectors write IDN results in
/// Unicode, so those go through the URL host parser (IDNA, not the code under test).
fn run_vectors(registrable: impl Fn(&Url) -> Option<String>) {
    let mut failures = Vec::new();
    for (input, expected) in check_public_suffix_vectors() {
        let got = if input == "null" {
            registrable(&Url::parse("mailto:null").unwrap())
        } else {
            match Url::parse(&format!("http://{input}/")) {
                Ok(url) => registrable(&url),
                Err(_) => None,
            }
        };
        let expected = expected.map(|e| rapidurl::host::domain_to_ascii(&e, false).unwrap());
        if got != expected {
            failures.push(format!("{input}: got {got:?}, expected {expected:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn check_public_suffix_vectors_with_the_builtin_list() {
    run_vectors(|url| url.registrable_domain().map(str::to_owned));
}

#[test]
fn check_public_suffix_vectors_with_the_psl_crate_matcher() {
    run_vectors(|url| {
        if url.host_kind() != rapidurl::HostKind::Domain {
            return None;
        }
        let s = psl_oracle::lookup(url.hostname(), false)?;
        s.registrable_domain().map(str::to_owned)
    });
}

fn shipped_list() -> SuffixList {
    let path = publicsuffix_dir().join("tests/public_suffix_list.dat");
    SuffixList::from_file(&path).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn check_public_suffix_vectors_with_a_loaded_list() {
    let list = shipped_list();
    assert!(list.rule_count().unwrap() > 9000);
    run_vectors(|url| {
        let s = url.domain_suffix(&list, Sections::All)?;
        s.registrable_domain().map(str::to_owned)
    });
}

/// Hosts to compare lookups on: for every rule of the list, the rule itself, one and two
/// labels more (a wildcard read as a label), and the hosts of the benchmark corpora when
/// they are there.
fn hosts_from(list_text: &str) -> Vec<String> {
    let mut hosts = Vec::new();
    for line in list_text.lines() {
        let rule = line.split_whitespace().next().unwrap_or("");
        if rule.is_empty() || rule.starts_with("//") {
            continue;
        }
        let Ok(ascii) = rapidurl::host::domain_to_ascii(
            &rule.trim_start_matches('!').replace('*', "wild"),
            false,
        ) else {
            continue;
        };
        hosts.push(format!("b.a.{ascii}"));
        hosts.push(format!("a.{ascii}"));
        hosts.push(ascii);
    }
    let corpus = common::workspace_root().join("../shared/corpora/kasztp.txt");
    if let Ok(text) = std::fs::read_to_string(corpus) {
        for line in text.lines() {
            if let Ok(url) = Url::parse(line)
                && url.host_kind() == rapidurl::HostKind::Domain
            {
                hosts.push(url.hostname().to_owned());
            }
        }
    }
    hosts
}

/// Our loaded list and the `publicsuffix` crate, reading the same file, agree on every
/// host, for the whole list and for the ICANN section.
#[test]
fn loaded_list_agrees_with_the_publicsuffix_crate() {
    use publicsuffix::Psl;
    let path = publicsuffix_dir().join("tests/public_suffix_list.dat");
    let text = std::fs::read_to_string(&path).unwrap();
    let ours = SuffixList::parse(&text).unwrap();
    let all: publicsuffix::List = text.parse().unwrap();
    let icann: publicsuffix::IcannList = text.parse().unwrap();
    let hosts = hosts_from(&text);
    assert!(hosts.len() > 27_000, "{} hosts", hosts.len());
    let mut differences = Vec::new();
    for host in &hosts {
        let theirs_all = all.suffix(host.as_bytes()).map(|s| s.as_bytes().to_vec());
        let theirs_icann = icann.suffix(host.as_bytes()).map(|s| s.as_bytes().to_vec());
        let mine_all = ours
            .lookup(host, Sections::All)
            .map(|s| s.as_str().as_bytes().to_vec());
        let mine_icann = ours
            .lookup(host, Sections::Icann)
            .map(|s| s.as_str().as_bytes().to_vec());
        if mine_all != theirs_all || mine_icann != theirs_icann {
            differences.push(host.as_str());
        }
    }
    assert!(
        differences.is_empty(),
        "{} differ: {:?}",
        differences.len(),
        &differences[..differences.len().min(20)]
    );
}

#[test]
fn wildcard_and_exception_rules_through_urls() {
    // `*.ck` and `!www.ck`; `*.kawasaki.jp` and `!city.kawasaki.jp`.
    let cases: &[(&str, Option<&str>, Option<&str>)] = &[
        ("ck", Some("ck"), None),
        ("b.ck", Some("b.ck"), None),
        ("a.b.ck", Some("b.ck"), Some("a.b.ck")),
        ("www.ck", Some("ck"), Some("www.ck")),
        ("x.www.ck", Some("ck"), Some("www.ck")),
        ("WWW.CK", Some("ck"), Some("www.ck")),
        ("x.kawasaki.jp", Some("x.kawasaki.jp"), None),
        (
            "a.x.kawasaki.jp",
            Some("x.kawasaki.jp"),
            Some("a.x.kawasaki.jp"),
        ),
        (
            "city.kawasaki.jp",
            Some("kawasaki.jp"),
            Some("city.kawasaki.jp"),
        ),
        (
            "www.city.kawasaki.jp",
            Some("kawasaki.jp"),
            Some("city.kawasaki.jp"),
        ),
    ];
    for &(host, suffix, registrable) in cases {
        let want = (suffix.map(str::to_owned), registrable.map(str::to_owned));
        assert_eq!(psl_of(host), want, "host {host}");
    }
}

#[test]
fn idn_suffixes_are_matched_in_ascii() {
    let cases: &[(&str, Option<&str>, Option<&str>)] = &[
        (
            "食狮.公司.cn",
            Some("xn--55qx5d.cn"),
            Some("xn--85x722f.xn--55qx5d.cn"),
        ),
        (
            "www.食狮.公司.cn",
            Some("xn--55qx5d.cn"),
            Some("xn--85x722f.xn--55qx5d.cn"),
        ),
        ("公司.cn", Some("xn--55qx5d.cn"), None),
        (
            "www.xn--85x722f.xn--fiqs8s",
            Some("xn--fiqs8s"),
            Some("xn--85x722f.xn--fiqs8s"),
        ),
        (
            "Bücher.中国",
            Some("xn--fiqs8s"),
            Some("xn--bcher-kva.xn--fiqs8s"),
        ),
    ];
    for &(host, suffix, registrable) in cases {
        let want = (suffix.map(str::to_owned), registrable.map(str::to_owned));
        assert_eq!(psl_of(host), want, "host {host}");
    }
    let url = Url::parse("https://食狮.公司.cn/").unwrap();
    let s = url
        .domain_suffix(SuffixList::builtin(), Sections::All)
        .unwrap();
    assert!(s.is_known());
    assert_eq!(s.section(), Some(Section::Icann));
}

#[test]
fn upper_case_and_trailing_dots() {
    let url = Url::parse("HTTPS://WWW.Example.CO.UK./Path").unwrap();
    assert_eq!(url.hostname(), "www.example.co.uk.");
    assert_eq!(url.public_suffix(), Some("co.uk."));
    assert_eq!(url.registrable_domain(), Some("example.co.uk."));
    assert_eq!(url.subdomain(), Some("www"));
    assert_eq!(url.top_level_domain(), Some("uk"));
    // Two trailing dots: the last label (after the one dot §3.2 sets aside) is empty.
    let url = Url::parse("http://example.com../").unwrap();
    assert_eq!(
        (url.public_suffix(), url.registrable_domain()),
        (None, None)
    );
    assert_eq!(url.top_level_domain(), None);
    // A leading dot, an empty label: no suffix (as the PSL's vectors say of `.com`).
    let url = Url::parse("http://.example.com/").unwrap();
    assert_eq!((url.public_suffix(), url.subdomain()), (None, None));
}

#[test]
fn hosts_that_are_not_domains_have_no_suffix() {
    for input in [
        "http://192.168.0.1/",
        "http://0x7f.1/",
        "http://[::1]/",
        "http://[2001:db8::1]:8080/",
        "sc://opaque.example.com/",
        "file:///etc/hosts",
        "sc:///empty-host",
        "mailto:someone@example.com",
    ] {
        let url = Url::parse(input).unwrap();
        assert_eq!(url.public_suffix(), None, "{input}");
        assert_eq!(url.registrable_domain(), None, "{input}");
        assert_eq!(url.subdomain(), None, "{input}");
        assert_eq!(url.top_level_domain(), None, "{input}");
        assert!(
            url.domain_suffix(SuffixList::builtin(), Sections::Icann)
                .is_none()
        );
    }
    // `file://localhost/` has an empty host; `file://server/` a domain.
    let url = Url::parse("file://server.example.com/share").unwrap();
    assert_eq!(url.registrable_domain(), Some("example.com"));
}

#[test]
fn unlisted_suffixes_come_from_the_implicit_rule() {
    let url = Url::parse("http://printer.lan/").unwrap();
    let s = url
        .domain_suffix(SuffixList::builtin(), Sections::All)
        .unwrap();
    assert_eq!(
        (s.as_str(), s.is_known(), s.section()),
        ("lan", false, None)
    );
    assert_eq!(url.registrable_domain(), Some("printer.lan"));
    let url = Url::parse("http://localhost:3000/").unwrap();
    assert_eq!(
        (url.public_suffix(), url.registrable_domain()),
        (Some("localhost"), None)
    );
    assert_eq!(url.subdomain(), None);
}

#[test]
fn icann_section_alone() {
    let url = Url::parse("https://whatwg.github.io/").unwrap();
    let s = url
        .domain_suffix(SuffixList::builtin(), Sections::Icann)
        .unwrap();
    assert_eq!((s.as_str(), s.section()), ("io", Some(Section::Icann)));
    assert_eq!(s.registrable_domain(), Some("github.io"));
    assert_eq!(s.subdomain(), Some("whatwg"));
    let s = url
        .domain_suffix(SuffixList::builtin(), Sections::All)
        .unwrap();
    assert_eq!(
        (s.as_str(), s.section()),
        ("github.io", Some(Section::Private))
    );
    assert_eq!(s.subdomain(), Some(""));

    let list = shipped_list();
    let s = url.domain_suffix(&list, Sections::Icann).unwrap();
    assert_eq!(s.registrable_domain(), Some("github.io"));
}

#[test]
fn path_segments() {
    let url = Url::parse("https://example.com/a/b%20c//d/").unwrap();
    let segs: Vec<&str> = url.path_segments().unwrap().collect();
    assert_eq!(segs, ["a", "b%20c", "", "d", ""]);
    let url = Url::parse("https://example.com").unwrap();
    assert_eq!(url.path_segments().unwrap().collect::<Vec<_>>(), [""]);
    let url = Url::parse("sc://host").unwrap();
    assert_eq!(url.path_segments().unwrap().count(), 0);
    assert!(
        Url::parse("mailto:a@b.example")
            .unwrap()
            .path_segments()
            .is_none()
    );
}

#[test]
fn query_pairs_decode_lazily() {
    let url = Url::parse("https://example.com/?a=1&&b=x+y%21&c&=e&a=2&%ZZ=%FF#f=g").unwrap();
    let pairs: Vec<(&str, &str)> = url.query_pairs().map(|(n, v)| (n.raw(), v.raw())).collect();
    assert_eq!(
        pairs,
        [
            ("a", "1"),
            ("b", "x+y%21"),
            ("c", ""),
            ("", "e"),
            ("a", "2"),
            ("%ZZ", "%FF")
        ]
    );
    let decoded: Vec<(String, String)> = url
        .query_pairs()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    // The same pairs as URLSearchParams gives.
    let params = url.search_params();
    let expected: Vec<(String, String)> = params
        .iter()
        .map(|(n, v)| (n.to_owned(), v.to_owned()))
        .collect();
    assert_eq!(decoded, expected);
    assert_eq!(decoded[5], ("%ZZ".to_owned(), "\u{FFFD}".to_owned()));
    assert_eq!(url.query_param("a").as_deref(), Some("1"));
    assert_eq!(url.query_param("b").as_deref(), Some("x y!"));
    assert_eq!(url.query_param("c").as_deref(), Some(""));
    assert_eq!(url.query_param("f"), None);
    assert_eq!(url.query_param("%ZZ").as_deref(), Some("\u{FFFD}"));
    let url = Url::parse("https://example.com/?%E2%82%AC=euro&%FF=bad").unwrap();
    assert_eq!(url.query_param("€").as_deref(), Some("euro"));
    assert_eq!(url.query_param("\u{FFFD}").as_deref(), Some("bad"));
    assert_eq!(
        Url::parse("https://example.com/")
            .unwrap()
            .query_pairs()
            .count(),
        0
    );
}

/// The built-in table's ICANN-only lookups against a loaded list's, on hosts under every
/// private rule of the `publicsuffix` crate's copy of the list. The two snapshots
/// differ in date, so a host counts only where both lists know its ICANN suffix the same
/// way for the whole list too.
#[test]
fn builtin_icann_only_agrees_with_a_loaded_list() {
    let path = publicsuffix_dir().join("tests/public_suffix_list.dat");
    let text = std::fs::read_to_string(&path).unwrap();
    let private = &text[text.find("===BEGIN PRIVATE DOMAINS===").unwrap()..];
    let loaded = SuffixList::parse(&text).unwrap();
    let builtin = SuffixList::builtin();
    let mut compared = 0;
    let mut differences = Vec::new();
    for host in hosts_from(private) {
        let (Some(b), Some(l)) = (
            builtin.lookup(&host, Sections::Icann),
            loaded.lookup(&host, Sections::Icann),
        ) else {
            continue;
        };
        // Skip hosts whose whole-list answer differs between the snapshots (rules added
        // or removed since the copy was taken).
        let all = |list: &SuffixList| list.lookup(&host, Sections::All).map(|s| s.as_str());
        if all(builtin) != all(&loaded) {
            continue;
        }
        compared += 1;
        if (b.as_str(), b.section()) != (l.as_str(), l.section()) {
            differences.push(host);
        }
    }
    assert!(compared > 3000, "only {compared} hosts compared");
    assert!(differences.is_empty(), "{differences:?}");
}

/// The built-in table answers as the `psl` crate called directly does, on hosts under every
/// rule, their siblings and the corpus.
#[test]
fn builtin_list_answers_as_the_psl_crate() {
    use psl::Psl;
    let path = publicsuffix_dir().join("tests/public_suffix_list.dat");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut hosts = hosts_from(&text);
    // Siblings that share their last two labels with a host seen before.
    let siblings: Vec<String> = hosts.iter().map(|h| format!("sibling.{h}")).collect();
    hosts.extend(siblings);
    let list = SuffixList::builtin();
    for host in &hosts {
        let ours = list.lookup(host, Sections::All).map(|s| {
            let section = match s.section() {
                Some(Section::Icann) => Some(psl::Type::Icann),
                Some(Section::Private) => Some(psl::Type::Private),
                None => None,
            };
            (
                s.as_str().to_owned(),
                section,
                s.registrable_domain().map(str::to_owned),
            )
        });
        let theirs = psl::List.suffix(host.as_bytes()).map(|s| {
            let domain = psl::List.domain(host.as_bytes());
            let text = |b: &[u8]| String::from_utf8(b.to_vec()).unwrap();
            (
                text(s.as_bytes()),
                s.typ(),
                domain.map(|d| text(d.as_bytes())),
            )
        });
        assert_eq!(ours, theirs, "{host}");
    }
}

/// The short cuts of the getters (a dot mask of the serialization, two filters, a walk
/// on the mask) and of `SuffixList::{public_suffix, registrable_domain}` agree with the
/// `psl` crate's matcher on the hosts of every corpus and under every rule of the list,
/// each in URLs that put it at different places in the serialization: first in a short
/// URL, after user info with dots (which the dot mask must not take for the host's), with
/// a path that makes the serialization long, and with a trailing dot.
#[test]
fn short_cuts_agree_with_the_matcher() {
    use rapidurl::field::{Field, FieldContext};
    let text = std::fs::read_to_string(publicsuffix_dir().join("tests/public_suffix_list.dat"));
    let loaded = SuffixList::parse(text.as_ref().unwrap()).unwrap();
    let mut hosts = hosts_from(text.as_ref().unwrap());
    let dir = common::corpora_dir();
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let bytes = std::fs::read(entry.path()).unwrap();
        for line in String::from_utf8_lossy(&bytes).lines() {
            if let Ok(url) = Url::parse(line)
                && url.host_kind() == rapidurl::HostKind::Domain
            {
                hosts.push(url.hostname().to_owned());
            }
        }
    }
    hosts.extend(
        [
            "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.example.co.uk",
            "averyveryverylonglabelthatfillsthewindow.example.com",
            "x.averyveryverylonglabelthatfillsthewindow.com",
            "a.co",
            "www.ck",
            "a.b.ck",
            "city.kobe.jp",
            "a.b.city.kobe.jp",
            "x.compute.amazonaws.com",
            "a..com",
            "a.b..co.uk",
        ]
        .map(str::to_owned),
    );
    let mut compared = 0;
    for host in &hosts {
        for trailing in ["", "."] {
            let domain = format!("{host}{trailing}");
            let want = psl_oracle::lookup(&domain, false);
            let want = [
                want.map(|s| s.as_str()),
                want.and_then(|s| s.registrable_domain()),
                want.and_then(|s| s.subdomain()),
            ];
            for list in [SuffixList::builtin(), &loaded] {
                let got = [
                    list.public_suffix(&domain),
                    list.registrable_domain(&domain),
                    want[2],
                ];
                if list.is_builtin() {
                    assert_eq!(got, want, "{domain}");
                } else {
                    // The publicsuffix crate's copy may differ from the psl crate's.
                    let s = list.lookup(&domain, Sections::All);
                    let full = [
                        s.map(|s| s.as_str()),
                        s.and_then(|s| s.registrable_domain()),
                    ];
                    assert_eq!(got[..2], full, "{domain} (loaded)");
                }
            }
            for url in [
                format!("ws://{domain}"),
                format!("https://u.s.e.r:p.w@{domain}/"),
                format!("http://{domain}/{}", "p/".repeat(20)),
            ] {
                let Ok(parsed) = Url::parse(&url) else {
                    continue;
                };
                if parsed.hostname() != domain {
                    continue;
                }
                let got = [
                    parsed.public_suffix(),
                    parsed.registrable_domain(),
                    parsed.subdomain(),
                ];
                assert_eq!(got, want, "{url}");
                let arena = rapidurl::bumpalo::Bump::new();
                let view = rapidurl::parse_ref(&url, &arena).unwrap();
                let got = [
                    view.public_suffix(),
                    view.registrable_domain(),
                    view.subdomain(),
                ];
                assert_eq!(got, want, "{url} (parse_ref)");
                // The fields, over the loaded list, against its own full lookup.
                let cx = FieldContext::new().suffix_list(&loaded);
                let fields = [
                    Field::PublicSuffix,
                    Field::RegistrableDomain,
                    Field::Subdomain,
                ];
                let got = fields.map(|f| f.value_with(&view, &cx).map(|v| v.into_owned()));
                let full = loaded.lookup(&domain, Sections::All);
                let full = [
                    full.map(|s| s.as_str().to_owned()),
                    full.and_then(|s| s.registrable_domain()).map(str::to_owned),
                    full.and_then(|s| s.subdomain()).map(str::to_owned),
                ];
                assert_eq!(got, full, "{url} (fields, loaded list)");
                compared += 1;
            }
        }
    }
    assert!(compared > 200_000, "only {compared} URLs");
}

/// Generated hosts in generated URLs: the short cuts of the getters (the built-in table's
/// and a loaded list's), against oracles that are not this crate's tables: the `psl`
/// crate ([`psl_oracle`]) for the built-in list, and the `publicsuffix`
/// crate's own lookups (both sections) for its copy of the list loaded at run time.
///
/// The hosts mix real suffixes of one to three labels (wildcards, exceptions, private
/// rules), random and very long labels, empty labels, `*`, upper case and trailing dots,
/// behind userinfo that holds dots and inside URLs of many lengths: what moves the
/// window, its masks and the hand-offs between the short cut and the full lookups.
mod generated {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::Config;
    use rapidurl::field::{Field, FieldContext};
    use std::sync::OnceLock;

    /// Suffixes and labels around them, whole (`co.uk`): in random order they would
    /// seldom meet a rule of more than one label.
    const ENDS: &[&str] = &[
        "com",
        "co.uk",
        "uk",
        "ac.uk",
        "gov.uk",
        "sch.uk",
        "jp",
        "kobe.jp",
        "city.kobe.jp",
        "www.city.kobe.jp",
        "ck",
        "www.ck",
        "bd",
        "er",
        "blogspot.com",
        "github.io",
        "io",
        "s3.amazonaws.com",
        "compute.amazonaws.com",
        "eu-west-1.compute.amazonaws.com",
        "appspot.com",
        "nom.br",
        "br",
        "k12.ak.us",
        "ak.us",
        "us",
        "xn--p1ai",
        "com.au",
        "net.au",
        "org",
        "de",
        "example",
        "localhost",
        "xn--80ak6aa92e.com",
        "co",
        "a",
        "zz",
        "blogspot.co.uk",
        "pages.dev",
        "we.bs",
        "mm",
        "kh",
        "np",
        "pg",
        "fk",
        "jm",
    ];

    fn label() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => prop::sample::select(ENDS).prop_map(str::to_owned),
            3 => "[a-z0-9-]{1,12}",
            1 => "[a-z]{20,70}",
            1 => Just(String::new()),
            1 => Just("*".to_owned()),
            1 => "[A-Z]{1,4}",
        ]
    }

    fn host() -> impl Strategy<Value = String> {
        (
            prop::collection::vec(label(), 0..7),
            prop::sample::select(ENDS),
            any::<bool>(),
        )
            .prop_map(|(labels, end, trailing_dot)| {
                let mut host = labels.join(".");
                if !labels.is_empty() {
                    host.push('.');
                }
                host.push_str(end);
                if trailing_dot {
                    host.push('.');
                }
                host
            })
    }

    fn url() -> impl Strategy<Value = String> {
        let before = prop::sample::select(
            &[
                "http://",
                "ws://",
                "https://u.s.e.r:p.w@",
                "ftp://a@",
                "http://x.y.z.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:p.q.r@",
                "https://.@",
            ][..],
        );
        let after = prop::sample::select(
            &[
                "",
                "/",
                ":8080/",
                "/p?q#f",
                "/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            ][..],
        );
        (before, host(), after).prop_map(|(b, h, a)| format!("{b}{h}{a}"))
    }

    struct Oracles {
        loaded: SuffixList,
        all: publicsuffix::List,
        icann: publicsuffix::IcannList,
    }

    fn oracles() -> &'static Oracles {
        static ORACLES: OnceLock<Oracles> = OnceLock::new();
        ORACLES.get_or_init(|| {
            let text =
                std::fs::read_to_string(publicsuffix_dir().join("tests/public_suffix_list.dat"))
                    .unwrap();
            Oracles {
                loaded: SuffixList::parse(&text).unwrap(),
                all: text.parse().unwrap(),
                icann: text.parse().unwrap(),
            }
        })
    }

    /// Public suffix, registrable domain and subdomain of a lookup.
    fn parts(s: Option<rapidurl::psl::Suffix<'_>>) -> [Option<&str>; 3] {
        [
            s.map(|s| s.as_str()),
            s.and_then(|s| s.registrable_domain()),
            s.and_then(|s| s.subdomain()),
        ]
    }

    fn config() -> Config {
        Config {
            // PROPTEST_CASES=1000000 cargo test --release --test psl generated: a longer search.
            cases: std::env::var("PROPTEST_CASES")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(4096),
            failure_persistence: None,
            ..Config::default()
        }
    }

    proptest! {
        #![proptest_config(config())]

        #[test]
        fn getters_agree_with_other_implementations(input in url()) {
            let Ok(url) = Url::parse(&input) else {
                return Ok(());
            };
            let arena = rapidurl::bumpalo::Bump::new();
            let view = rapidurl::parse_ref(&input, &arena).unwrap();
            let by_url = [url.public_suffix(), url.registrable_domain(), url.subdomain()];
            let by_view = [view.public_suffix(), view.registrable_domain(), view.subdomain()];
            prop_assert_eq!(by_url, by_view);
            let host = url.hostname();
            if url.host_kind() != rapidurl::HostKind::Domain {
                prop_assert_eq!(by_url, [None; 3]);
                return Ok(());
            }
            // The built-in list's short cut against the psl crate.
            let want = psl_oracle::lookup(host, false);
            let want = [
                want.map(|s| s.as_str()),
                want.and_then(|s| s.registrable_domain()),
                want.and_then(|s| s.subdomain()),
            ];
            prop_assert_eq!(by_url, want, "built-in, {}", host);
            prop_assert_eq!(parts(SuffixList::builtin().lookup(host, Sections::All)), want);

            // The loaded list's short cut (the tool's fields) against its full lookup.
            let o = oracles();
            let cx = FieldContext::new().suffix_list(&o.loaded);
            let fields = [Field::PublicSuffix, Field::RegistrableDomain, Field::Subdomain];
            let got = fields.map(|f| f.value_with(&view, &cx).map(|v| v.into_owned()));
            let full = parts(o.loaded.lookup(host, Sections::All)).map(|p| p.map(str::to_owned));
            prop_assert_eq!(&got, &full, "loaded, {}", host);

            // Both sections of the loaded list against the publicsuffix crate, for names
            // whose labels are all non-empty (the crate does not answer for the others
            // as §3.2 does).
            if host.split('.').any(str::is_empty) {
                return Ok(());
            }
            use publicsuffix::Psl;
            let h = host.as_bytes();
            let text = |b: &[u8]| std::str::from_utf8(b).unwrap().to_owned();
            for (sections, theirs) in [
                (Sections::All, (o.all.suffix(h), o.all.domain(h))),
                (Sections::Icann, (o.icann.suffix(h), o.icann.domain(h))),
            ] {
                let mine = view.domain_suffix(&o.loaded, sections);
                let mine = [
                    mine.map(|s| s.as_str().to_owned()),
                    mine.and_then(|s| s.registrable_domain()).map(str::to_owned),
                ];
                let theirs = [
                    theirs.0.map(|s| text(s.as_bytes())),
                    theirs.1.map(|d| text(d.as_bytes())),
                ];
                prop_assert_eq!(mine, theirs, "{:?}, {}", sections, host);
            }
        }
    }
}
