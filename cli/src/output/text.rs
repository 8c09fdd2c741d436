//! Writing rows as text: TSV, CSV or JSON Lines, one row per input record (Parquet is in
//! [`super::parquet`]).

use clap::ValueEnum;
use rapidurl::field::{Field, FieldContext, RouteAnswer};
use rapidurl::psl::SuffixList;
use rapidurl::{Url, UrlRef};

use crate::input::rows::RowError;
use crate::input::table::Cell;

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
    /// Apache Parquet: one string column per field, written in row groups.
    Parquet,
}

impl Format {
    /// The format a file's name says, if it says one.
    pub fn from_extension(path: &str) -> Option<Format> {
        let ext = std::path::Path::new(path).extension()?.to_str()?;
        Some(match ext.to_ascii_lowercase().as_str() {
            "csv" => Format::Csv,
            "tsv" | "tab" => Format::Tsv,
            "jsonl" | "ndjson" => Format::Jsonl,
            "parquet" => Format::Parquet,
            _ => return None,
        })
    }
}

/// The name of the column (or JSON key) that holds a row's error.
pub const ERROR_COLUMN: &str = "error";

/// A column the tool writes after the passed-through ones: a named value of the URL, or
/// one of the tool's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// A value of the parsed URL ([`rapidurl::field::Field`]).
    Field(Field),
    /// `input`: the line or cell as read.
    Input,
    /// `error`: why the row has no URL (empty, or JSON `null`, when it has one).
    Error,
}

impl Column {
    /// The column's name (its header, its JSON key).
    pub fn name(&self) -> std::borrow::Cow<'static, str> {
        match self {
            Column::Field(f) => f.name(),
            Column::Input => "input".into(),
            Column::Error => ERROR_COLUMN.into(),
        }
    }

    /// What the column needs of the route table (`route`, `route_params`).
    pub fn wants_routes(&self) -> crate::routes::Wants {
        match self {
            Column::Field(Field::Route) => crate::routes::Wants::Route,
            Column::Field(Field::RouteParams) => crate::routes::Wants::Params,
            _ => crate::routes::Wants::Nothing,
        }
    }
}

impl std::str::FromStr for Column {
    type Err = String;

    fn from_str(name: &str) -> Result<Column, String> {
        match name {
            "input" => Ok(Column::Input),
            ERROR_COLUMN => Ok(Column::Error),
            _ => name
                .parse::<Field>()
                .map(Column::Field)
                .map_err(|e| format!("{e}; and the tool's own: input, error")),
        }
    }
}

/// How rows are written: a format, the passed-through columns' names, then the
/// tool's columns. Rows are appended to a `String`, so that batches of rows are formatted
/// in parallel and written in order.
#[derive(Clone, Debug)]
pub struct RowFormat {
    format: Format,
    pass: Vec<String>,
    columns: Vec<Column>,
    error_auto: bool,
    /// Per column, its JSON key with quotes and colon (`"href":`).
    json_keys: Vec<String>,
    separator: char,
    terminator: &'static str,
    /// The columns, when the format is a table's and every one is a field that is a
    /// slice of `href` (else empty): rows of such URLs are written without escaping.
    fields_only: Vec<Field>,
    /// `--psl`: the Public Suffix List of the host analytics fields (else the built-in).
    suffix_list: Option<SuffixList>,
    /// The columns, when the format is a table's and every column is one of the URL's own
    /// string attributes (else empty), each with whether its values may need escaping
    /// ([`Attr::may_need_escaping`]): the direct path of [`Self::url_line`].
    direct: Vec<(Attr, bool)>,
    /// `direct`'s column when there is exactly one (read with one load per row).
    one: Option<(Attr, bool)>,
    /// Whether a value of some column of `direct` may need escaping.
    direct_check: bool,
    /// What ends a row of the direct path: the empty `error` column's separator (with
    /// `--on-error mark`), then the line end.
    row_end: RowEnd,
}

/// One of the URL's own string attributes (each a slice of `href`): the columns of the
/// direct path of [`RowFormat::url_line`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Attr {
    Href,
    /// A slice of `href` for an http(s), ws(s) or ftp URL without credentials (see
    /// [`Field::href_range`]); any other row's origin is built, off the direct path.
    Origin,
    Protocol,
    Username,
    Password,
    Host,
    Hostname,
    Port,
    Pathname,
    Search,
    Hash,
}

impl Attr {
    /// The attribute `field` names, when it is one of the URL's own strings.
    fn of(field: &Field) -> Option<Attr> {
        Some(match field {
            Field::Href => Attr::Href,
            Field::Origin => Attr::Origin,
            Field::Protocol => Attr::Protocol,
            Field::Username => Attr::Username,
            Field::Password => Attr::Password,
            Field::Host => Attr::Host,
            Field::Hostname => Attr::Hostname,
            Field::Port => Attr::Port,
            Field::Pathname => Attr::Pathname,
            Field::Search => Attr::Search,
            Field::Hash => Attr::Hash,
            _ => return None,
        })
    }

    /// The attribute's value (the getter, inlined: a slice of `href`); `None` for an
    /// origin that is not a slice of `href` (the row then leaves the direct path).
    #[inline(always)]
    fn get<'a>(self, url: &UrlRef<'a>) -> Option<&'a str> {
        Some(match self {
            Attr::Href => url.href(),
            Attr::Origin => &url.href()[Field::Origin.href_range(url)?],
            Attr::Protocol => url.protocol(),
            Attr::Username => url.username(),
            Attr::Password => url.password(),
            Attr::Host => url.host(),
            Attr::Hostname => url.hostname(),
            Attr::Port => url.port(),
            Attr::Pathname => url.pathname(),
            Attr::Search => url.search(),
            Attr::Hash => url.hash(),
        })
    }

    /// Where the attribute's value lies in `url.href()` ([`Field::href_range`], inlined:
    /// offsets, no slicing); `None` for an origin that is not a slice of it.
    #[inline(always)]
    fn range(self, url: &UrlRef<'_>) -> Option<std::ops::Range<usize>> {
        let field = match self {
            Attr::Href => Field::Href,
            Attr::Origin => Field::Origin,
            Attr::Protocol => Field::Protocol,
            Attr::Username => Field::Username,
            Attr::Password => Field::Password,
            Attr::Host => Field::Host,
            Attr::Hostname => Field::Hostname,
            Attr::Port => Field::Port,
            Attr::Pathname => Field::Pathname,
            Attr::Search => Field::Search,
            Attr::Hash => Field::Hash,
        };
        field.href_range(url)
    }

    /// Whether a value of this attribute may hold a byte that a table of `format` escapes
    /// (TSV: `\`; CSV: `,` and `"`; tab, line feed and carriage return are never in
    /// `href`, see [`needs_table_escaping`]). What the URL Standard's serializer allows:
    /// a protocol is the scheme (ASCII letters, digits, `+ - .`) and `:`; a port is
    /// digits; a host is a domain (forbidden domain code points include `\`), an IPv4 or
    /// IPv6 address, or an opaque host (forbidden host code points include `\`), never
    /// `\` but possibly `,` or `"` (`foo://a,"b/`); a username or password is
    /// percent-encoded with the userinfo set, which encodes `\` and `"` but not `,`.
    /// Paths, queries and fragments may hold all three.
    fn may_need_escaping(self, format: Format) -> bool {
        match self {
            Attr::Protocol | Attr::Port => false,
            // An origin of the direct path is `scheme://host[:port]`: as the host.
            Attr::Origin | Attr::Host | Attr::Hostname | Attr::Username | Attr::Password => {
                format != Format::Tsv
            }
            Attr::Href | Attr::Pathname | Attr::Search | Attr::Hash => true,
        }
    }
}

/// The end of a row of [`RowFormat::url_line`]'s direct path: the line end, after the
/// empty `error` column's separator with `--on-error mark`.
#[derive(Clone, Copy, Debug)]
enum RowEnd {
    Lf,
    TabLf,
    CrLf,
    CommaCrLf,
}

impl RowEnd {
    /// The bytes.
    #[inline(always)]
    fn bytes(self) -> &'static [u8] {
        match self {
            RowEnd::Lf => b"\n",
            RowEnd::TabLf => b"\t\n",
            RowEnd::CrLf => b"\r\n",
            RowEnd::CommaCrLf => b",\r\n",
        }
    }
}

/// A batch's rows as a worker leaves them for the writer: the bytes to write, in row
/// order. The values of the direct path of [`RowFormat::url_line`] are copied in straight
/// from the URL's serialization (no intermediate text); any other row is written as text
/// into [`RowText::side`] and moved in by [`RowText::rows_from`].
#[derive(Default)]
pub struct RowText {
    /// The rows are `buf[..len]`; the bytes past `len` are initialized slack, into which
    /// [`copy_short`]'s moves write past a value's end. Kept from batch to batch, so
    /// that a reused buffer is not zeroed again.
    buf: Vec<u8>,
    len: usize,
    /// Where a row written as text is made, before [`RowText::rows_from`] takes it.
    pub side: String,
}

impl RowText {
    /// Empties it for the next batch, keeping its memory.
    pub fn clear(&mut self) {
        self.len = 0;
        self.side.clear();
    }

    /// The rows, ready to write.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// Takes `side[from..]` (whole rows just written) as the next rows.
    #[inline]
    pub fn rows_from(&mut self, from: usize) {
        let n = self.side.len() - from;
        self.room(n);
        self.buf[self.len..self.len + n].copy_from_slice(&self.side.as_bytes()[from..]);
        self.len += n;
        self.side.truncate(from);
    }

    /// Gives a buffer that has never been used room for `n` bytes of rows at once, in
    /// memory the system hands out zeroed (no zeroing pass, no copies as it grows); a
    /// buffer already in use keeps its size.
    pub fn size_for(&mut self, n: usize) {
        if self.buf.is_empty() {
            self.buf = vec![0; n + MOVE];
        }
    }

    /// Makes room for `n` more bytes after the rows (and [`MOVE`] past them).
    #[inline(always)]
    fn room(&mut self, n: usize) {
        let need = self.len + n + MOVE;
        if need > self.buf.len() {
            self.grow(need);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self, need: usize) {
        self.buf.resize(need.max(2 * self.buf.len()).max(4096), 0);
    }
}

/// The move of [`copy_short`]: [`RowFormat::write`] leaves this much room past the end of
/// what it writes.
const MOVE: usize = 64;

/// Copies `src[start..end]` to `buf` at `*at` and moves `*at` past it: a value of at
/// most [`MOVE`] bytes as one move of that many bytes when `src` has them from `start`
/// (`buf` must have room for them), anything else as a plain copy.
#[inline(always)]
fn copy_short(buf: &mut [u8], at: &mut usize, src: &[u8], start: usize, end: usize) {
    let n = end - start;
    let to = *at;
    if n <= MOVE && start + MOVE <= src.len() {
        buf[to..to + MOVE].copy_from_slice(&src[start..start + MOVE]);
    } else {
        buf[to..to + n].copy_from_slice(&src[start..end]);
    }
    *at = to + n;
}

/// Where `text` starts in `block` when it is a slice of it.
#[inline(always)]
fn offset_in(block: &[u8], text: &str) -> Option<usize> {
    let at = (text.as_ptr() as usize).wrapping_sub(block.as_ptr() as usize);
    (at <= block.len() && text.len() <= block.len() - at).then_some(at)
}

/// Eight copies of byte `b`.
const fn splat(b: u8) -> u64 {
    u64::from_ne_bytes([b; 8])
}

/// Whether some byte of the word is 0.
#[inline(always)]
fn has_zero(w: u64) -> bool {
    w.wrapping_sub(splat(1)) & !w & splat(0x80) != 0
}

/// Whether a value of the URL written into a table of `format` (TSV or CSV) needs
/// escaping: it holds a backslash (TSV), or `,` or `"` (CSV). The values are slices of
/// `href`, which holds only printable ASCII (the parser removes tabs and newlines and
/// percent-encodes other controls: WPT and the fuzz targets hold it to that), so only
/// the format's own specials are looked for. Eight bytes at a time, without a call: the
/// values are short (a host name is a couple of words). `true` for other formats.
#[inline]
fn needs_table_escaping(format: Format, value: &str) -> bool {
    match format {
        Format::Tsv => any_word(value.as_bytes(), |w| has_zero(w ^ splat(b'\\'))),
        Format::Csv => any_word(value.as_bytes(), |w| {
            has_zero(w ^ splat(b',')) | has_zero(w ^ splat(b'"'))
        }),
        _ => true,
    }
}

/// Whether `special` holds for some word of `bytes` (the last one padded with `a`, a
/// byte it must not flag).
#[inline(always)]
fn any_word(bytes: &[u8], special: impl Fn(u64) -> bool) -> bool {
    let load =
        |i: usize| -> u64 { u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or([b'a'; 8])) };
    let n = bytes.len();
    if n < 8 {
        // Padded with a byte that is never special.
        let mut w = splat(b'a');
        for (i, &b) in bytes.iter().enumerate() {
            w ^= u64::from(b ^ b'a') << (8 * i);
        }
        return special(w);
    }
    // Whole words, then the last eight bytes (which may overlap the last word read).
    let mut found = false;
    let mut i = 0;
    while i + 8 < n {
        found |= special(load(i));
        i += 8;
    }
    found | special(load(n - 8))
}

impl RowFormat {
    /// Rows of `pass` (names of passed-through columns) then `columns` in `format`;
    /// with `error_auto`, an `error` column last in tables and an `error` key in the
    /// JSON object of a row without a URL.
    pub fn new(format: Format, pass: Vec<String>, columns: Vec<Column>, error_auto: bool) -> Self {
        let json_keys = columns
            .iter()
            .map(|c| {
                let mut key = String::new();
                push_json_string(&mut key, &c.name());
                key.push(':');
                key
            })
            .collect();
        let (separator, terminator) = match format {
            Format::Csv => (',', "\r\n"),
            Format::Jsonl => (',', "}\n"),
            _ => ('\t', "\n"),
        };
        let fields_only: Vec<Field> = columns
            .iter()
            .filter_map(|c| match c {
                Column::Field(f) if f.is_slice_of_href() => Some(f.clone()),
                _ => None,
            })
            .collect();
        let table = matches!(format, Format::Tsv | Format::Csv);
        let fields_only = if table && fields_only.len() == columns.len() {
            fields_only
        } else {
            Vec::new()
        };
        let direct: Vec<(Attr, bool)> = columns
            .iter()
            .filter_map(|c| match c {
                Column::Field(f) if table => Attr::of(f),
                _ => None,
            })
            .map(|a| (a, a.may_need_escaping(format)))
            .collect();
        let direct = if direct.len() == columns.len() {
            direct
        } else {
            Vec::new()
        };
        RowFormat {
            format,
            pass,
            columns,
            error_auto,
            json_keys,
            separator,
            terminator,
            fields_only,
            suffix_list: None,
            one: match direct[..] {
                [one] => Some(one),
                _ => None,
            },
            direct_check: direct.iter().any(|&(_, check)| check),
            direct,
            row_end: match (format, error_auto) {
                (Format::Csv, true) => RowEnd::CommaCrLf,
                (Format::Csv, false) => RowEnd::CrLf,
                (_, true) => RowEnd::TabLf,
                (_, false) => RowEnd::Lf,
            },
        }
    }

    /// Computes the host analytics fields with `list` instead of the built-in one.
    pub fn with_suffix_list(self, list: Option<SuffixList>) -> Self {
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
        let names: Vec<_> = self.columns.iter().map(Column::name).collect();
        let pass = self.pass.iter().map(String::as_str);
        let error = self.error_auto.then_some(ERROR_COLUMN);
        self.table_row(
            out,
            pass.chain(names.iter().map(|n| n.as_ref())).chain(error),
        );
    }

    /// Starts a value: the separator, unless it is the row's first.
    #[inline]
    fn separate(&self, out: &mut String, first: &mut bool) {
        if *first {
            *first = false;
        } else {
            out.push(self.separator);
        }
    }

    /// Appends the passed-through cells of a row (JSON members, or table fields).
    fn cells(&self, out: &mut String, cells: &[Cell<'_>], first: &mut bool) {
        for (cell, name) in cells.iter().zip(&self.pass) {
            self.separate(out, first);
            if self.format == Format::Jsonl {
                push_json_string(out, name);
                out.push(':');
                match cell {
                    Cell::Text(s) => push_json_string(out, s),
                    Cell::Raw(s) => out.push_str(s),
                    Cell::Null => out.push_str("null"),
                }
            } else {
                self.push_value(out, cell.text());
            }
        }
    }

    /// Appends the row of a parsed URL of plain lines (no passed-through cells): the hot
    /// path, inlined into the line loop. A table of the URL's own attributes is written
    /// directly: each value is its getter's slice, pushed as it is; only the attributes
    /// whose values may hold the format's special bytes are checked for them (a few
    /// words), and only a row that holds one goes through the general formatter.
    #[inline(always)]
    pub fn url_line(
        &self,
        out: &mut String,
        (input, base): (&str, Option<&Url>),
        url: &UrlRef<'_>,
        route: Option<&RouteAnswer<'_>>,
    ) {
        if self.direct.is_empty() {
            return self.url_row_general(out, &[], input, (input, base), url, route);
        }
        let start = out.len();
        let mut special = false;
        if let Some((attr, check)) = self.one {
            // One column (`--fields hostname`): no loop.
            match attr.get(url) {
                Some(value) => {
                    special = self.needs_escaping(attr, check, value);
                    out.push_str(value);
                }
                None => special = true,
            }
        } else {
            self.direct_values(out, url, &mut special);
        }
        if special {
            // Rare: write the row again, with escaping (or an origin to build).
            out.truncate(start);
            return self.url_row_general(out, &[], input, (input, base), url, route);
        }
        // Each a constant: a store of one to three bytes, no call.
        match self.row_end {
            RowEnd::Lf => out.push('\n'),
            RowEnd::TabLf => out.push_str("\t\n"),
            RowEnd::CrLf => out.push_str("\r\n"),
            RowEnd::CommaCrLf => out.push_str(",\r\n"),
        }
    }

    /// [`Self::url_line`] for the writer: a row of the direct path whose values need no
    /// escaping and are all slices of `href` is written by copying each value out of
    /// `href` (read from `block`, the input block, when `href` lies in it, so that most
    /// values are one 64-byte move); any other row is written as text.
    #[inline(always)]
    pub fn url_line_into(
        &self,
        rows: &mut RowText,
        block: &[u8],
        (input, base): (&str, Option<&Url>),
        url: &UrlRef<'_>,
        route: Option<&RouteAnswer<'_>>,
    ) {
        let href = url.href();
        let (src, at) = match offset_in(block, href) {
            Some(at) => (block, at),
            None => (href.as_bytes(), 0),
        };
        if let Some((attr, check)) = self.one {
            if let Some(r) = attr.range(url)
                && (!check || !needs_table_escaping(self.format, &href[r.clone()]))
            {
                let end = self.row_end.bytes();
                rows.room(r.len() + end.len());
                let mut w = rows.len;
                copy_short(&mut rows.buf, &mut w, src, at + r.start, at + r.end);
                rows.buf[w..w + end.len()].copy_from_slice(end);
                rows.len = w + end.len();
                return;
            }
        } else if !self.direct.is_empty() && (!self.direct_check || !self.href_needs_escaping(href))
        {
            // Every value is a slice of `href`, which holds none of the format's special
            // bytes: no value needs escaping. Each value is at most `href` long, with a
            // separator after it (the last one's room holds the row end).
            rows.room(self.direct.len() * (href.len() + 3));
            let separator = if self.format == Format::Csv {
                b','
            } else {
                b'\t'
            };
            // A slice, not the `Vec`: its address and length stay in registers across
            // the byte stores.
            let buf = rows.buf.as_mut_slice();
            let mut w = rows.len;
            let mut direct = true;
            for &(attr, _) in &self.direct {
                let Some(r) = attr.range(url) else {
                    // An origin to build.
                    direct = false;
                    break;
                };
                copy_short(buf, &mut w, src, at + r.start, at + r.end);
                buf[w] = separator;
                w += 1;
            }
            if direct {
                // The row end in place of the last separator.
                let end = self.row_end.bytes();
                w -= 1;
                buf[w..w + end.len()].copy_from_slice(end);
                rows.len = w + end.len();
                return;
            }
        }
        let from = rows.side.len();
        self.url_line(&mut rows.side, (input, base), url, route);
        rows.rows_from(from);
    }

    /// For `--fields hostname` alone: when the line's hostname can be read off it without
    /// parsing it ([`rapidurl::parse_hostname`], exactly the parsed URL's hostname, here
    /// borrowed from the line) and needs no escaping, leaves it as a range of `block` and
    /// returns `true`. Any other row (one that fails, a host to lower-case or to escape,
    /// any other columns) returns `false`, to be parsed.
    #[inline(always)]
    pub fn hostname_span(
        &self,
        rows: &mut RowText,
        block: &[u8],
        input: &rapidurl::batch::engine::Input<'_, '_>,
        arena: &rapidurl::bumpalo::Bump,
    ) -> bool {
        let Some((Attr::Hostname, check)) = self.one else {
            return false;
        };
        if input.error().is_some() {
            return false;
        }
        let host = match input.base() {
            None => rapidurl::parse_hostname(input.text(), arena),
            Some(base) => rapidurl::parse_hostname_with_base(input.text(), base, arena),
        };
        let Ok(host) = host else {
            return false;
        };
        let Some(at) = offset_in(block, host) else {
            return false;
        };
        if self.needs_escaping(Attr::Hostname, check, host) {
            return false;
        }
        let end = self.row_end.bytes();
        rows.room(host.len() + end.len());
        let mut w = rows.len;
        copy_short(&mut rows.buf, &mut w, block, at, at + host.len());
        rows.buf[w..w + end.len()].copy_from_slice(end);
        rows.len = w + end.len();
        true
    }

    /// Copies the rows of `rows` to the start of `buf` (grown when it is too short, never
    /// shrunk or cleared) and returns their length: the rows are `buf[..n]`. A writer
    /// that can write `rows.bytes()` itself needs no copy.
    pub fn write(&self, buf: &mut Vec<u8>, rows: &RowText) -> usize {
        let rows = rows.bytes();
        if buf.len() < rows.len() {
            buf.resize(rows.len(), 0);
        }
        buf[..rows.len()].copy_from_slice(rows);
        rows.len()
    }

    /// The values of [`Self::url_line`]'s direct path, with separators; sets `special`
    /// when one of them needs escaping.
    #[inline(always)]
    fn direct_values(&self, out: &mut String, url: &UrlRef<'_>, special: &mut bool) {
        // The separator as a constant of each branch, so that pushing it is storing a
        // byte (not encoding a `char` read from `self`).
        let csv = self.format == Format::Csv;
        for (i, &(attr, check)) in self.direct.iter().enumerate() {
            if i > 0 {
                out.push(if csv { ',' } else { '\t' });
            }
            match attr.get(url) {
                Some(value) => {
                    *special |= self.needs_escaping(attr, check, value);
                    out.push_str(value);
                }
                None => *special = true,
            }
        }
    }

    /// Whether `value`, of `attr`, needs escaping in this table format: looked for only
    /// when `check` ([`Attr::may_need_escaping`]); debug builds look always, to hold the
    /// reasoning there to the parser's output.
    #[inline(always)]
    fn needs_escaping(&self, attr: Attr, check: bool, value: &str) -> bool {
        if check {
            return needs_table_escaping(self.format, value);
        }
        debug_assert!(
            !needs_table_escaping(self.format, value),
            "{attr:?} {value:?} needs escaping in {:?}",
            self.format
        );
        false
    }

    /// Appends the row of a parsed URL, with its passed-through cells; `input` is the URL
    /// cell as read (the `input` field), `parsed` the text parsed and the base it was
    /// parsed against (for `valid` and `validation_errors`).
    #[inline(never)]
    pub fn url_row(
        &self,
        out: &mut String,
        cells: &[Cell<'_>],
        input: &str,
        parsed: (&str, Option<&Url>),
        url: &UrlRef<'_>,
        route: Option<&RouteAnswer<'_>>,
    ) {
        if cells.is_empty() && input == parsed.0 {
            self.url_line(out, parsed, url, route);
        } else {
            self.url_row_general(out, cells, input, parsed, url, route);
        }
    }

    /// [`Self::url_row`] for any columns and format.
    #[inline(never)]
    fn url_row_general(
        &self,
        out: &mut String,
        cells: &[Cell<'_>],
        input: &str,
        (text, base): (&str, Option<&Url>),
        url: &UrlRef<'_>,
        route: Option<&RouteAnswer<'_>>,
    ) {
        // Every field but `origin` is a slice of `href` (the origin of a `blob:` URL is
        // that of the URL in its path, which may differ): when `href` needs no escaping,
        // neither do they, and one scan per row replaces one per field.
        let plain = !self.href_needs_escaping(url.href());
        let cx = field_context(self.suffix_list.as_ref())
            .input(text)
            .base(base.map(Into::into))
            .answered(route);
        if plain && cells.is_empty() && !self.fields_only.is_empty() {
            // The common case: a table of URL fields that need no escaping.
            for (i, field) in self.fields_only.iter().enumerate() {
                if i > 0 {
                    out.push(self.separator);
                }
                if let Some(value) = field.value_with(url, &cx) {
                    out.push_str(&value);
                }
            }
            if self.error_auto {
                out.push(self.separator);
            }
            out.push_str(self.terminator);
            return;
        }
        let json = self.format == Format::Jsonl;
        let mut first = true;
        if json {
            out.push('{');
        }
        if !cells.is_empty() {
            self.cells(out, cells, &mut first);
        }
        for (column, key) in self.columns.iter().zip(&self.json_keys) {
            self.separate(out, &mut first);
            if json {
                out.push_str(key);
            }
            match column {
                Column::Field(field) => match field.value_with(url, &cx) {
                    Some(value) if plain && field.is_slice_of_href() => {
                        if json {
                            out.push('"');
                            out.push_str(&value);
                            out.push('"');
                        } else {
                            out.push_str(&value);
                        }
                    }
                    Some(value) => self.push_value(out, &value),
                    None if json => out.push_str("null"),
                    None => {}
                },
                Column::Input => self.push_value(out, input),
                Column::Error if json => out.push_str("null"),
                Column::Error => {}
            }
        }
        // The empty `error` column of tables (--on-error mark).
        if self.error_auto && !json {
            self.separate(out, &mut first);
        }
        out.push_str(self.terminator);
    }

    /// Appends the row of a record without a URL: the passed-through cells, `input` and
    /// the error; the URL's columns empty (absent in JSON Lines).
    pub fn error_row(&self, out: &mut String, cells: &[Cell<'_>], input: &str, err: &RowError) {
        let text = err.to_string();
        let json = self.format == Format::Jsonl;
        let mut first = true;
        if json {
            out.push('{');
        }
        self.cells(out, cells, &mut first);
        for (column, key) in self.columns.iter().zip(&self.json_keys) {
            let value = match column {
                Column::Field(_) if json => continue,
                Column::Field(_) => "",
                Column::Input => input,
                Column::Error => &text,
            };
            self.separate(out, &mut first);
            if json {
                out.push_str(key);
            }
            self.push_value(out, value);
        }
        if self.error_auto {
            self.separate(out, &mut first);
            if json {
                push_json_string(out, ERROR_COLUMN);
                out.push(':');
            }
            self.push_value(out, &text);
        }
        out.push_str(self.terminator);
    }

    /// Whether a value that is a slice of `href` may need escaping: `href` holds only
    /// printable ASCII (the parser removes tabs and newlines and percent-encodes other
    /// controls: WPT and the fuzz targets hold the parser to that), so only the format's own
    /// specials are looked for, with one search.
    fn href_needs_escaping(&self, href: &str) -> bool {
        let b = href.as_bytes();
        match self.format {
            Format::Tsv => memchr::memchr(b'\\', b).is_some(),
            Format::Csv => memchr::memchr2(b',', b'"', b).is_some(),
            Format::Jsonl | Format::Parquet => memchr::memchr2(b'"', b'\\', b).is_some(),
        }
    }

    fn push_value(&self, out: &mut String, value: &str) {
        match self.format {
            Format::Csv => push_csv(out, value),
            Format::Jsonl => push_json_string(out, value),
            _ => push_tsv(out, value),
        }
    }

    fn table_row<'a>(&self, out: &mut String, values: impl Iterator<Item = &'a str>) {
        for (i, value) in values.enumerate() {
            if i > 0 {
                out.push(self.separator);
            }
            self.push_value(out, value);
        }
        out.push_str(self.terminator);
    }
}

/// The context of [`Field::value_with`]: `list`, or the built-in Public Suffix List.
pub fn field_context(list: Option<&SuffixList>) -> FieldContext<'_> {
    crate::routes::with_routes(match list {
        Some(list) => FieldContext::new().suffix_list(list),
        None => FieldContext::new(),
    })
}

/// Appends `value` with tab, newline, carriage return and backslash escaped.
pub fn push_tsv(out: &mut String, value: &str) {
    // URL serializations rarely need escaping: find out with two vectorized scans.
    let bytes = value.as_bytes();
    let special = memchr::memchr3(b'\t', b'\n', b'\r', bytes).is_some()
        || memchr::memchr(b'\\', bytes).is_some();
    if !special {
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
    let bytes = value.as_bytes();
    let special = memchr::memchr2(b',', b'"', bytes).is_some()
        || memchr::memchr2(b'\r', b'\n', bytes).is_some();
    if special {
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
    let bytes = value.as_bytes();
    let special = memchr::memchr2(b'"', b'\\', bytes).is_some() || bytes.iter().any(|&b| b < b' ');
    if !special {
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

#[cfg(test)]
mod tests {
    use super::{Column, Format, RowFormat, RowText, needs_table_escaping};
    use rapidurl::field::Field;

    /// The rows `url_line_into` then `write` give for `lines`, one block, against rows
    /// written from the URL's getters: values of every length up to 70 bytes, the last
    /// ones ending at the block's end (where no 16- or 32-byte move may read), and rows
    /// that are written as text (a host to lower-case, a value to escape) between them.
    #[test]
    fn rows_copied_out_of_the_block_are_the_getters_values() {
        let mut lines = Vec::new();
        for n in 0..70 {
            lines.push(format!(
                "https://h{}.example/{}",
                "a".repeat(n % 7),
                "p".repeat(n)
            ));
            lines.push(format!(
                "http://x/{}?{}#{}",
                "q".repeat(n / 2),
                "s".repeat(n),
                "f"
            ));
        }
        lines.push("https://UPPER.example/a,b\\c".to_owned());
        lines.push("https://a.b/".to_owned());
        lines.push("https://c.d/e".to_owned());
        let block = lines.join("\n").into_bytes();
        let fields = [Field::Hostname, Field::Pathname, Field::Search, Field::Href];
        for format in [Format::Tsv, Format::Csv] {
            for columns in [&fields[..1], &fields[1..2], &fields[..]] {
                for error_auto in [false, true] {
                    let cols: Vec<Column> = columns.iter().cloned().map(Column::Field).collect();
                    let rf = RowFormat::new(format, Vec::new(), cols, error_auto);
                    let mut rows = RowText::default();
                    let mut expected = String::new();
                    let text = std::str::from_utf8(&block).unwrap();
                    for line in text.split('\n') {
                        // A view borrowing the line when it is canonical: its values
                        // are then copied out of the block; any other row's out of
                        // its `href`, or written as text.
                        let arena = rapidurl::bumpalo::Bump::new();
                        let view = rapidurl::parse_ref(line, &arena).unwrap();
                        rf.url_line_into(&mut rows, &block, (line, None), &view, None);
                        let values: Vec<String> = columns
                            .iter()
                            .map(|f| {
                                let v = f.value(&view).unwrap_or_default();
                                let special = match format {
                                    Format::Csv => v.contains([',', '"']),
                                    _ => v.contains('\\'),
                                };
                                match (format, special) {
                                    (Format::Csv, true) => {
                                        format!("\"{}\"", v.replace('"', "\"\""))
                                    }
                                    (_, true) => v.replace('\\', "\\\\"),
                                    _ => v.to_string(),
                                }
                            })
                            .collect();
                        let sep = if format == Format::Csv { "," } else { "\t" };
                        expected.push_str(&values.join(sep));
                        if error_auto {
                            expected.push_str(sep);
                        }
                        expected.push_str(if format == Format::Csv { "\r\n" } else { "\n" });
                    }
                    // A buffer that held other rows before: nothing of them is left.
                    let mut buf = vec![b'#'; 100_000];
                    let n = rf.write(&mut buf, &rows);
                    assert_eq!(
                        std::str::from_utf8(&buf[..n]).unwrap(),
                        expected,
                        "{format:?} {columns:?} error column {error_auto}"
                    );
                }
            }
        }
    }

    #[test]
    fn table_escaping_is_found_at_every_position() {
        for (format, specials) in [(Format::Tsv, &b"\\"[..]), (Format::Csv, &b",\""[..])] {
            for len in 0..40 {
                // Bytes next to the specials (`+`, `-`, `[`, `]`, `!`, `#`) and none of them.
                let plain: Vec<u8> = (0..len).map(|i| b"+-[]!#a"[i % 7]).collect();
                let text = String::from_utf8(plain.clone()).unwrap();
                assert!(!needs_table_escaping(format, &text), "{format:?} {text:?}");
                for at in 0..len {
                    for &special in specials {
                        let mut bytes = plain.clone();
                        bytes[at] = special;
                        let text = String::from_utf8(bytes).unwrap();
                        assert!(needs_table_escaping(format, &text), "{format:?} {text:?}");
                    }
                }
            }
        }
        assert!(needs_table_escaping(Format::Jsonl, "plain"));
    }
}
