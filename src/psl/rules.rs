//! A list loaded at run time: its rules in the same table as the built-in list's
//! ([`super::table`]), built when the list is read.

use super::table::{
    Builder, ICANN_EXCEPTION, ICANN_RULE, MAX_LABEL, OwnedTable, PRIVATE_EXCEPTION, PRIVATE_RULE,
};
use super::{ListError, ListErrorKind, Section, Sections};

/// The rules of a loaded list.
#[derive(Clone, Debug)]
pub(crate) struct Rules {
    table: OwnedTable,
    rule_count: usize,
}

impl Rules {
    pub(crate) fn rule_count(&self) -> usize {
        self.rule_count
    }

    /// The public suffix of `name` (ASCII, no trailing dot, not empty, not starting with
    /// a dot): where it starts, the section of the prevailing rule (`None`: the implicit `*`)
    /// and where the label before it starts when the walk saw it.
    #[inline]
    pub(crate) fn find(
        &self,
        name: &[u8],
        sections: Sections,
    ) -> (usize, Option<Section>, Option<usize>) {
        super::from_found(self.table.view().find(name, super::mask(sections)))
    }

    /// The table of the rules.
    #[inline]
    pub(crate) fn table(&self) -> super::table::Table<'_> {
        self.table.view()
    }

    /// Reads the text of a list (see [`super::SuffixList::parse`]).
    pub(crate) fn parse(text: &str) -> Result<Rules, ListError> {
        let mut builder = Builder::new();
        let mut section = Section::Icann;
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = line.trim_start();
            if let Some(comment) = line.strip_prefix("//") {
                if comment.contains("===BEGIN PRIVATE DOMAINS===") {
                    section = Section::Private;
                } else if comment.contains("===BEGIN ICANN DOMAINS===")
                    || comment.contains("===END PRIVATE DOMAINS===")
                {
                    section = Section::Icann;
                }
                continue;
            }
            let Some(rule) = line.split_whitespace().next() else {
                continue;
            };
            add(&mut builder, rule, section).map_err(|kind| ListError::new(line_no, kind))?;
        }
        if builder.rule_count() == 0 {
            return Err(ListError::new(0, ListErrorKind::NoRules));
        }
        let table = builder
            .finish()
            .map_err(|_| ListError::new(0, ListErrorKind::TooLarge))?;
        Ok(Rules {
            table,
            rule_count: builder.rule_count(),
        })
    }
}

/// Checks a rule and adds it in its ASCII form.
fn add(builder: &mut Builder, rule: &str, section: Section) -> Result<(), ListErrorKind> {
    let (exception, body) = match rule.strip_prefix('!') {
        Some(body) => (true, body),
        None => (false, rule),
    };
    if body.split('.').any(str::is_empty) {
        return Err(ListErrorKind::EmptyLabel(rule.to_owned()));
    }
    if body.contains('!') || (exception && (!body.contains('.') || body.contains('*'))) {
        return Err(ListErrorKind::BadException(rule.to_owned()));
    }
    if body.split('.').any(|l| l != "*" && l.contains('*')) {
        return Err(ListErrorKind::BadWildcard(rule.to_owned()));
    }
    // The ASCII form, as hosts are serialized: lower case, Punycode.
    let ascii = crate::host::domain_to_ascii(body, false)
        .map_err(|e| ListErrorKind::InvalidDomain(rule.to_owned(), e))?;
    if ascii.split('.').any(str::is_empty) {
        return Err(ListErrorKind::EmptyLabel(rule.to_owned()));
    }
    if ascii.split('.').any(|l| l.len() > MAX_LABEL) {
        return Err(ListErrorKind::LabelTooLong(rule.to_owned()));
    }
    let flag = match (section, exception) {
        (Section::Icann, false) => ICANN_RULE,
        (Section::Icann, true) => ICANN_EXCEPTION,
        (Section::Private, false) => PRIVATE_RULE,
        (Section::Private, true) => PRIVATE_EXCEPTION,
    };
    builder.add(ascii.rsplit('.').map(str::as_bytes), flag);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Section, Sections, SuffixList};
    use super::ListErrorKind;

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
             the domain contains a forbidden code point"
        );
    }

    #[test]
    fn unicode_and_upper_case_rules_are_stored_in_ascii() {
        let list = SuffixList::parse("Example\nإختبار\n").unwrap();
        assert!(list.lookup("a.example", Sections::All).unwrap().is_known());
        let s = list.lookup("a.b.xn--kgbechtv", Sections::All).unwrap();
        assert_eq!((s.as_str(), s.is_known()), ("xn--kgbechtv", true));
    }
}
