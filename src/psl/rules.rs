//! A list loaded at run time: its rules in the same table as the built-in list's
//! ([`super::table`]), built when the list is read.

use super::error::{ListError, ListErrorKind};
use super::section::{Section, Sections, from_found, mask};
use super::table::{
    Builder, ICANN_EXCEPTION, ICANN_RULE, MAX_LABEL, OwnedTable, PRIVATE_EXCEPTION, PRIVATE_RULE,
};

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
        from_found(self.table.view().find(name, mask(sections)))
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
