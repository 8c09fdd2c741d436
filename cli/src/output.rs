//! Writing rows: TSV, CSV or JSON Lines, one row per input line.

use clap::ValueEnum;
use rapidurl::field::{Field, FieldContext};
use rapidurl::psl::SuffixList;
use rapidurl::{ParseError, UrlRef};

/// The output format of `rapidurl parse`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Tab-separated values; tab, newline, carriage return and backslash in values are
    /// written as `\t`, `\n`, `\r` and `\\`.
    Tsv,
    /// Comma-separated values, quoted per RFC 4180, rows ending in CRLF.
    Csv,
    /// One JSON object per line, keyed by the URL API's attribute names.
    Jsonl,
}

/// The name of the extra column (or JSON key) that holds a parse error.
pub const ERROR_COLUMN: &str = "error";

/// How rows are written: a format, its columns, and whether tables get an `error`
/// column. Rows are appended to a `String`, so that blocks of rows can be formatted in
/// parallel and written in order.
#[derive(Clone, Debug)]
pub struct RowFormat {
    format: Format,
    fields: Vec<Field>,
    error_column: bool,
    /// The Public Suffix List of the host analytics fields.
    suffix_list: SuffixList,
}

impl RowFormat {
    /// Rows of `fields` in `format`; with `error_column`, tables get a last `error` column
    /// (empty for URLs that parsed).
    pub fn new(format: Format, fields: Vec<Field>, error_column: bool) -> Self {
        RowFormat {
            format,
            fields,
            error_column,
            suffix_list: SuffixList::default(),
        }
    }

    /// Computes the host analytics fields with `list` instead of the built-in one.
    pub fn with_suffix_list(self, list: SuffixList) -> Self {
        RowFormat {
            suffix_list: list,
            ..self
        }
    }

    /// Appends the header row (nothing for JSON Lines).
    pub fn header(&self, out: &mut String) {
        if self.format == Format::Jsonl {
            return;
        }
        let names: Vec<_> = self.fields.iter().map(|f| f.name()).collect();
        let error = self.error_column.then_some(ERROR_COLUMN);
        self.table_row(out, names.iter().map(|n| n.as_ref()).chain(error));
    }

    /// Whether some field is a value of the input line (see `Field::needs_input`).
    pub fn needs_input(&self) -> bool {
        self.fields.iter().any(Field::needs_input)
    }

    /// Appends the row of a parsed URL, parsed from the line `input`.
    pub fn url_row(&self, out: &mut String, url: &UrlRef<'_>, input: &str) {
        // Every field but `origin` is a slice of `href` (the origin of a `blob:` URL is
        // that of the URL in its path, which may differ): when `href` needs no escaping,
        // neither do they, and one scan per row replaces one per field.
        let plain = !self.needs_escaping(url.href());
        let cx = FieldContext::new()
            .suffix_list(&self.suffix_list)
            .input(input);
        match self.format {
            Format::Jsonl => {
                out.push('{');
                for (i, field) in self.fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    // Field names need no escaping.
                    out.push('"');
                    out.push_str(&field.name());
                    out.push_str("\":");
                    let value = field.value_with(url, &cx).unwrap_or_default();
                    if plain && field.is_slice_of_href() {
                        out.push('"');
                        out.push_str(&value);
                        out.push('"');
                    } else {
                        push_json_string(out, &value);
                    }
                }
                out.push_str("}\n");
            }
            _ => {
                let (separator, terminator) = self.separators();
                for (i, field) in self.fields.iter().enumerate() {
                    if i > 0 {
                        out.push(separator);
                    }
                    let value = field.value_with(url, &cx).unwrap_or_default();
                    if plain && field.is_slice_of_href() {
                        out.push_str(&value);
                    } else {
                        self.push_value(out, &value);
                    }
                }
                // The empty `error` column.
                if self.error_column && !self.fields.is_empty() {
                    out.push(separator);
                }
                out.push_str(terminator);
            }
        }
    }

    /// Appends the row of a line that did not parse: empty fields and the error text in
    /// the `error` column, or, in JSON Lines, an object with only an `error` key.
    pub fn error_row(&self, out: &mut String, err: &ParseError) {
        let text = err.to_string();
        match self.format {
            Format::Jsonl => {
                out.push('{');
                push_json_string(out, ERROR_COLUMN);
                out.push(':');
                push_json_string(out, &text);
                out.push_str("}\n");
            }
            _ => {
                let empties = std::iter::repeat_n("", self.fields.len());
                self.table_row(out, empties.chain(std::iter::once(text.as_str())));
            }
        }
    }

    /// Whether `value` holds a byte this format escapes or quotes.
    fn needs_escaping(&self, value: &str) -> bool {
        match self.format {
            Format::Tsv => tsv_needs_escaping(value),
            Format::Csv => csv_needs_quoting(value),
            Format::Jsonl => json_needs_escaping(value),
        }
    }

    fn separators(&self) -> (char, &'static str) {
        match self.format {
            Format::Csv => (',', "\r\n"),
            _ => ('\t', "\n"),
        }
    }

    fn push_value(&self, out: &mut String, value: &str) {
        match self.format {
            Format::Csv => push_csv(out, value),
            _ => push_tsv(out, value),
        }
    }

    fn table_row<'a>(&self, out: &mut String, values: impl Iterator<Item = &'a str>) {
        let (separator, terminator) = self.separators();
        for (i, value) in values.enumerate() {
            if i > 0 {
                out.push(separator);
            }
            self.push_value(out, value);
        }
        out.push_str(terminator);
    }
}

/// Whether `value` holds a tab, newline, carriage return or backslash (URL serializations
/// rarely do: two vectorized scans find out).
fn tsv_needs_escaping(value: &str) -> bool {
    let b = value.as_bytes();
    memchr::memchr3(b'\t', b'\n', b'\r', b).is_some() || memchr::memchr(b'\\', b).is_some()
}

/// Whether `value` holds a comma, double quote, carriage return or line feed.
fn csv_needs_quoting(value: &str) -> bool {
    let b = value.as_bytes();
    memchr::memchr3(b',', b'"', b'\r', b).is_some() || memchr::memchr(b'\n', b).is_some()
}

/// Whether `value` holds a double quote, a backslash or a control character.
fn json_needs_escaping(value: &str) -> bool {
    let b = value.as_bytes();
    memchr::memchr2(b'"', b'\\', b).is_some() || b.iter().any(|&c| c < b' ')
}

/// Appends `value` with tab, newline, carriage return and backslash escaped.
pub fn push_tsv(out: &mut String, value: &str) {
    if !tsv_needs_escaping(value) {
        out.push_str(value);
        return;
    }
    for c in value.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
}

/// Appends `value` as an RFC 4180 field: in double quotes, with quotes doubled, when it
/// holds a comma, a double quote, a carriage return or a line feed; as it is otherwise.
pub fn push_csv(out: &mut String, value: &str) {
    if csv_needs_quoting(value) {
        out.push('"');
        for c in value.chars() {
            if c == '"' {
                out.push('"');
            }
            out.push(c);
        }
        out.push('"');
    } else {
        out.push_str(value);
    }
}

/// Appends `value` as a JSON string literal (RFC 8259).
pub fn push_json_string(out: &mut String, value: &str) {
    out.push('"');
    if !json_needs_escaping(value) {
        out.push_str(value);
        out.push('"');
        return;
    }
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => {
                use std::fmt::Write as _;
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
