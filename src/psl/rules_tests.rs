//! A list loaded at run time ([`super::SuffixList::parse`]): the rules, their sections and
//! the errors of malformed lines.

use super::{ListErrorKind, Section, Sections, SuffixList};

const LIST: &str = "\
// ===BEGIN ICANN DOMAINS===
com
uk
co.uk
*.ck
!www.ck
jp
*.kawasaki.jp
!city.kawasaki.jp
公司.cn
cn
// ===END ICANN DOMAINS===
// ===BEGIN PRIVATE DOMAINS===
github.io
blogspot.com
*.compute.example.com
// ===END PRIVATE DOMAINS===
";

fn check(list: &SuffixList, domain: &str, sections: Sections) -> (String, Option<String>) {
    let s = list.lookup(domain, sections).unwrap();
    (
        s.as_str().to_owned(),
        s.registrable_domain().map(str::to_owned),
    )
}

#[test]
fn formal_algorithm() {
    let list = SuffixList::parse(LIST).unwrap();
    assert_eq!(list.rule_count(), Some(13));
    let cases: &[(&str, &str, Option<&str>)] = &[
        ("com", "com", None),
        ("a.b.example.com", "com", Some("example.com")),
        ("b.example.co.uk", "co.uk", Some("example.co.uk")),
        ("ck", "ck", None),
        ("c.ck", "c.ck", None),
        ("b.c.ck", "c.ck", Some("b.c.ck")),
        ("www.ck", "ck", Some("www.ck")),
        ("w.www.ck", "ck", Some("www.ck")),
        ("x.kawasaki.jp", "x.kawasaki.jp", None),
        ("city.kawasaki.jp", "kawasaki.jp", Some("city.kawasaki.jp")),
        (
            "a.city.kawasaki.jp",
            "kawasaki.jp",
            Some("city.kawasaki.jp"),
        ),
        ("xn--55qx5d.cn", "xn--55qx5d.cn", None),
        ("a.xn--55qx5d.cn", "xn--55qx5d.cn", Some("a.xn--55qx5d.cn")),
        ("b.compute.example.com", "b.compute.example.com", None),
        (
            "a.b.compute.example.com",
            "b.compute.example.com",
            Some("a.b.compute.example.com"),
        ),
        (
            "x.a.b.compute.example.com",
            "b.compute.example.com",
            Some("a.b.compute.example.com"),
        ),
        ("example.unlisted", "unlisted", Some("example.unlisted")),
        ("example.com.", "com.", Some("example.com.")),
    ];
    for &(domain, suffix, registrable) in cases {
        let got = check(&list, domain, Sections::All);
        assert_eq!(
            got,
            (suffix.to_owned(), registrable.map(str::to_owned)),
            "{domain}"
        );
    }
    assert_eq!(
        check(&list, "x.github.io", Sections::Icann),
        ("io".to_owned(), Some("github.io".to_owned()))
    );
    let s = list.lookup("x.github.io", Sections::All).unwrap();
    assert_eq!(s.section(), Some(Section::Private));
    assert!(!list.lookup("a.unlisted", Sections::All).unwrap().is_known());
    let s = list
        .lookup("x.a.compute.example.com", Sections::Icann)
        .unwrap();
    assert_eq!((s.as_str(), s.section()), ("com", Some(Section::Icann)));
}

#[test]
fn wildcard_and_exact_children_both_count() {
    // `*.foo` matches `x.baz.foo` although `baz.foo` leads on to `bar.baz.foo`.
    let list = SuffixList::parse("foo\n*.foo\nbar.baz.foo\n").unwrap();
    assert_eq!(check(&list, "x.baz.foo", Sections::All).0, "baz.foo");
    assert_eq!(check(&list, "bar.baz.foo", Sections::All).0, "bar.baz.foo");
}

#[test]
fn malformed_rules_name_their_line() {
    let cases: &[(&str, usize, ListErrorKind)] = &[
        ("com\n.com\n", 2, ListErrorKind::EmptyLabel(".com".into())),
        (
            "com\n\n  a..b  // note\n",
            3,
            ListErrorKind::EmptyLabel("a..b".into()),
        ),
        ("a*.com\n", 1, ListErrorKind::BadWildcard("a*.com".into())),
        ("!com\n", 1, ListErrorKind::BadException("!com".into())),
        (
            "!*.b.com\n",
            1,
            ListErrorKind::BadException("!*.b.com".into()),
        ),
        (
            "a!b.com\n",
            1,
            ListErrorKind::BadException("a!b.com".into()),
        ),
        ("// only comments\n\n", 0, ListErrorKind::NoRules),
    ];
    for (text, line, kind) in cases {
        let err = SuffixList::parse(text).unwrap_err();
        assert_eq!((err.line(), err.kind()), (*line, kind), "{text:?}");
    }
    let err = SuffixList::parse("com\nexa mple\nbad<host.com\n").unwrap_err();
    assert_eq!(err.line(), 3);
    assert_eq!(
        err.to_string(),
        "line 3: rule \"bad<host.com\" is not a domain: domain-invalid-code-point at byte 3: \
         the domain holds a forbidden domain code point"
    );
}

#[test]
fn unicode_and_upper_case_rules_are_stored_in_ascii() {
    let list = SuffixList::parse("Example\nإختبار\n").unwrap();
    assert!(list.lookup("a.example", Sections::All).unwrap().is_known());
    let s = list.lookup("a.b.xn--kgbechtv", Sections::All).unwrap();
    assert_eq!((s.as_str(), s.is_known()), ("xn--kgbechtv", true));
}
