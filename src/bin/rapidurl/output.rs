//! Writing rows: TSV, CSV or JSON Lines, one row per input line.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, Write};

use clap::ValueEnum;
use rapidurl::{ParseError, Url};

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

/// A URL component that can be written as a column, named as the URL API's attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Field {
    /// The whole serialized URL.
    Href,
    /// The serialized origin (`null` for opaque origins).
    Origin,
    /// The scheme followed by `:`.
    Protocol,
    /// The username.
    Username,
    /// The password.
    Password,
    /// The host with its port, if any.
    Host,
    /// The host without its port.
    Hostname,
    /// The port, empty when absent or the scheme's default.
    Port,
    /// The path.
    Pathname,
    /// The query with its leading `?`, empty when absent or empty.
    Search,
    /// The fragment with its leading `#`, empty when absent or empty.
    Hash,
}

/// The columns written when `--fields` is not given.
pub const DEFAULT_FIELDS: [Field; 9] = [
    Field::Href,
    Field::Protocol,
    Field::Username,
    Field::Password,
    Field::Hostname,
    Field::Port,
    Field::Pathname,
    Field::Search,
    Field::Hash,
];

impl Field {
    /// The column name: the URL API's attribute name, e.g. `"hostname"`.
    pub const fn name(self) -> &'static str {
        match self {
            Field::Href => "href",
            Field::Origin => "origin",
            Field::Protocol => "protocol",
            Field::Username => "username",
            Field::Password => "password",
            Field::Host => "host",
            Field::Hostname => "hostname",
            Field::Port => "port",
            Field::Pathname => "pathname",
            Field::Search => "search",
            Field::Hash => "hash",
        }
    }

    /// This component of `url`, as the URL API's getter returns it.
    pub fn value(self, url: &Url) -> Cow<'_, str> {
        match self {
            Field::Href => Cow::Borrowed(url.href()),
            Field::Origin => Cow::Owned(url.origin()),
            Field::Protocol => Cow::Borrowed(url.protocol()),
            Field::Username => Cow::Borrowed(url.username()),
            Field::Password => Cow::Borrowed(url.password()),
            Field::Host => Cow::Borrowed(url.host()),
            Field::Hostname => Cow::Borrowed(url.hostname()),
            Field::Port => Cow::Borrowed(url.port()),
            Field::Pathname => Cow::Borrowed(url.pathname()),
            Field::Search => Cow::Borrowed(url.search()),
            Field::Hash => Cow::Borrowed(url.hash()),
        }
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The name of the extra column (or JSON key) that holds a parse error.
pub const ERROR_COLUMN: &str = "error";

/// Writes rows in one format to an output.
pub struct RowWriter<W: Write> {
    out: W,
    format: Format,
    fields: Vec<Field>,
    error_column: bool,
    scratch: String,
}

impl<W: Write> RowWriter<W> {
    /// A writer of `fields` in `format`; with `error_column`, tables get a last `error`
    /// column (empty for URLs that parsed).
    pub fn new(out: W, format: Format, fields: Vec<Field>, error_column: bool) -> Self {
        RowWriter {
            out,
            format,
            fields,
            error_column,
            scratch: String::new(),
        }
    }

    /// Writes the header row (nothing for JSON Lines).
    pub fn header(&mut self) -> io::Result<()> {
        if self.format == Format::Jsonl {
            return Ok(());
        }
        let mut names: Vec<&str> = self.fields.iter().map(|f| f.name()).collect();
        if self.error_column {
            names.push(ERROR_COLUMN);
        }
        self.table_row(names.into_iter())
    }

    /// Writes the row of a parsed URL.
    pub fn url_row(&mut self, url: &Url) -> io::Result<()> {
        let fields = std::mem::take(&mut self.fields);
        let values: Vec<Cow<'_, str>> = fields.iter().map(|f| f.value(url)).collect();
        let result = match self.format {
            Format::Jsonl => {
                let pairs = fields
                    .iter()
                    .map(|f| f.name())
                    .zip(values.iter().map(|v| &**v));
                self.json_object(pairs)
            }
            _ => {
                let error = self.error_column.then_some("");
                self.table_row(values.iter().map(|v| &**v).chain(error))
            }
        };
        self.fields = fields;
        result
    }

    /// Writes the row of a line that did not parse: empty fields and the error text in the
    /// `error` column, or, in JSON Lines, an object with only an `error` key.
    pub fn error_row(&mut self, err: &ParseError) -> io::Result<()> {
        let text = err.to_string();
        match self.format {
            Format::Jsonl => self.json_object(std::iter::once((ERROR_COLUMN, text.as_str()))),
            _ => {
                let empties = std::iter::repeat_n("", self.fields.len());
                self.table_row(empties.chain(std::iter::once(text.as_str())))
            }
        }
    }

    /// Flushes the output.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    fn table_row<'a>(&mut self, values: impl Iterator<Item = &'a str>) -> io::Result<()> {
        let line = &mut self.scratch;
        line.clear();
        let (separator, terminator) = match self.format {
            Format::Csv => (',', "\r\n"),
            _ => ('\t', "\n"),
        };
        for (i, value) in values.enumerate() {
            if i > 0 {
                line.push(separator);
            }
            match self.format {
                Format::Csv => push_csv(line, value),
                _ => push_tsv(line, value),
            }
        }
        line.push_str(terminator);
        self.out.write_all(line.as_bytes())
    }

    fn json_object<'a>(
        &mut self,
        pairs: impl Iterator<Item = (&'a str, &'a str)>,
    ) -> io::Result<()> {
        let line = &mut self.scratch;
        line.clear();
        line.push('{');
        for (i, (key, value)) in pairs.enumerate() {
            if i > 0 {
                line.push(',');
            }
            push_json_string(line, key);
            line.push(':');
            push_json_string(line, value);
        }
        line.push_str("}\n");
        self.out.write_all(line.as_bytes())
    }
}

/// Appends `value` with tab, newline, carriage return and backslash escaped.
pub fn push_tsv(out: &mut String, value: &str) {
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
    if value.contains([',', '"', '\r', '\n']) {
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
