//! Web server access logs and crawl indexes read as tables: each line becomes a row of
//! named cells ([`LineReader::read`]), and a line that is not one of its format's becomes
//! an error row with a reason ([`Fault`]), never a dropped line.
//!
//! - NCSA common and combined (Apache's and nginx's defaults) and Apache's
//!   `vhost_combined`: fields separated by spaces, `"quoted"` fields with the servers'
//!   escapes (`\"`, `\\`, `\n`, `\xHH` …) decoded, the time in `[brackets]`; the request
//!   line is split into `method`, `url` (the request target) and `protocol`.
//! - W3C extended (IIS, Amazon CloudFront): the columns are named by the `#Fields:`
//!   directive; a later directive that names other fields applies from its line on.
//! - AWS Application Load Balancer logs.
//! - CDX (classic, with or without its ` CDX …` header line) and CDXJ crawl indexes.
//!
//! A `-` cell is null. The request target of a log is the `url` column; where the log
//! names the host a request was sent to (`vhost_combined`, W3C with a host field), the
//! `request_origin` column holds the scheme, host and port it gives, and origin-form targets
//! (`/a?b=1`) are resolved against it (else against `--base`).

use std::borrow::Cow;

use super::table::{self, Cell};

/// The error name of a line that does not have its format's shape.
pub const NOT_A_LOG_LINE: &str = "not-a-log-line";
/// The error name of a log line whose request field is not a request line.
pub const NOT_A_REQUEST: &str = "not-a-request";
/// The error name of a request target that is not a URL (asterisk-form, authority-form).
pub const NOT_A_URL_TARGET: &str = "not-a-URL-target";
/// The error name of an origin-form target with no host to resolve it against.
pub const NO_HOST: &str = "no-host";

/// Why a line is an error row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// A short name ([`NOT_A_LOG_LINE`], [`NOT_A_REQUEST`] …).
    pub name: &'static str,
    /// What is wrong, in words.
    pub detail: String,
    /// The 1-based byte position of the problem in the line.
    pub column: usize,
}

impl Fault {
    fn new(name: &'static str, column: usize, detail: String) -> Fault {
        Fault {
            name,
            detail,
            column,
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.name, self.detail)
    }
}

/// The formats this module reads (`--input-format`'s names in [`LogFormat::name`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// NCSA common.
    Common,
    /// NCSA combined.
    Combined,
    /// Apache's `vhost_combined`.
    VhostCombined,
    /// W3C extended.
    W3c,
    /// AWS Application Load Balancer.
    Alb,
    /// Classic CDX.
    Cdx,
    /// CDXJ.
    Cdxj,
}

impl LogFormat {
    /// The format's name as `--input-format` spells it.
    pub fn name(self) -> &'static str {
        match self {
            LogFormat::Common => "common",
            LogFormat::Combined => "combined",
            LogFormat::VhostCombined => "vhost_combined",
            LogFormat::W3c => "w3c",
            LogFormat::Alb => "alb",
            LogFormat::Cdx => "cdx",
            LogFormat::Cdxj => "cdxj",
        }
    }

    /// Whether the `url` column is a request target (resolved against the
    /// `request_origin` column or `--base` when it is a path).
    pub fn url_is_target(self) -> bool {
        matches!(
            self,
            LogFormat::Common | LogFormat::Combined | LogFormat::VhostCombined | LogFormat::W3c
        )
    }
}

/// The kinds of field of an NCSA line, in order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `host:port` (`vhost_combined`): the `vhost`, `vhost_port` and `request_origin`
    /// columns.
    HostPort,
    /// A bare token.
    Bare,
    /// A 3-digit status code.
    Status,
    /// A byte count or `-`.
    Count,
    /// `[time]`.
    Time,
    /// The quoted request line: the `method`, `url` and `http_version` columns.
    Request,
    /// A quoted field.
    Quoted,
}

const COMMON: &[(Kind, &str)] = &[
    (Kind::Bare, "remote_host"),
    (Kind::Bare, "ident"),
    (Kind::Bare, "user"),
    (Kind::Time, "time"),
    (Kind::Request, "request"),
    (Kind::Status, "status"),
    (Kind::Count, "bytes"),
];

const REFERRER_AGENT: &[(Kind, &str)] = &[(Kind::Quoted, "referrer"), (Kind::Quoted, "user_agent")];

/// The columns of the Application Load Balancer's fields, in order; the request field
/// (13th) is split into `method`, `url` and `http_version`. Lines of older logs end earlier:
/// the fields after `user_agent` are null there.
const ALB: &[&str] = &[
    "type",
    "time",
    "elb",
    "client",
    "target",
    "request_processing_time",
    "target_processing_time",
    "response_processing_time",
    "elb_status_code",
    "target_status_code",
    "received_bytes",
    "sent_bytes",
    "request",
    "user_agent",
    "ssl_cipher",
    "ssl_protocol",
    "target_group_arn",
    "trace_id",
    "domain_name",
    "chosen_cert_arn",
    "matched_rule_priority",
    "request_creation_time",
    "actions_executed",
    "redirect_url",
    "error_reason",
    "target_port_list",
    "target_status_code_list",
    "classification",
    "classification_reason",
    "conn_trace_id",
];

/// The fields an ALB line has at least (through `user_agent`).
const ALB_LEAST: usize = 14;

/// The CDXJ columns: the two leading fields, the JSON block's usual keys, and the block.
const CDXJ: &[&str] = &[
    "urlkey",
    "timestamp",
    "url",
    "mime",
    "status",
    "digest",
    "length",
    "offset",
    "filename",
    "json",
];

/// The CDXJ columns read from the JSON block, by key.
const CDXJ_KEYS: std::ops::Range<usize> = 2..9;

/// The classic CDX field letters and their column names.
const CDX_LETTERS: &[(char, &str)] = &[
    ('N', "urlkey"),
    ('A', "canonized_url"),
    ('a', "url"),
    ('b', "timestamp"),
    ('e', "ip"),
    ('m', "mime"),
    ('s', "status"),
    ('k', "digest"),
    ('r', "redirect"),
    ('M', "robotflags"),
    ('S', "length"),
    ('V', "offset"),
    ('v', "uncompressed_offset"),
    ('g', "filename"),
    ('n', "arc_length"),
];

/// The fields of a CDX file without a header line: the usual 11.
const CDX_DEFAULT: &str = "N b a m s k r M S V g";

/// The fields of a CDX file without a header line whose first line has nine.
const CDX_NINE: &str = "N b a m s k r V g";

/// The NCSA fields of `format`.
fn ncsa_fields(format: LogFormat) -> Vec<(Kind, &'static str)> {
    let mut fields = Vec::new();
    if format == LogFormat::VhostCombined {
        fields.push((Kind::HostPort, "vhost"));
    }
    fields.extend_from_slice(COMMON);
    if format != LogFormat::Common {
        fields.extend_from_slice(REFERRER_AGENT);
    }
    fields
}

/// The columns a field of kind `kind` named `name` gives.
fn columns_of(kind: Kind, name: &'static str) -> Vec<&'static str> {
    match kind {
        Kind::HostPort => vec!["vhost", "vhost_port", "request_origin"],
        Kind::Request => vec!["method", "url", "http_version"],
        _ => vec![name],
    }
}

/// The columns of an input of `format` whose first lines are `head` (the header or
/// directives, for CDX and W3C), and how many bytes of `head` are a header line to skip
/// (CDX's ` CDX …` line).
pub fn header(format: LogFormat, head: &str) -> Result<(Vec<String>, usize), String> {
    let owned = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    Ok(match format {
        LogFormat::Common | LogFormat::Combined | LogFormat::VhostCombined => {
            let mut columns = Vec::new();
            for (kind, name) in ncsa_fields(format) {
                columns.extend(columns_of(kind, name).iter().map(|s| (*s).to_owned()));
            }
            columns.push("extra".to_owned());
            (columns, 0)
        }
        LogFormat::Alb => {
            let mut columns = Vec::new();
            for name in ALB {
                match *name {
                    "request" => columns.extend(owned(&["method", "url", "http_version"])),
                    other => columns.push(other.to_owned()),
                }
            }
            columns.push("extra".to_owned());
            (columns, 0)
        }
        LogFormat::Cdxj => (owned(CDXJ), 0),
        LogFormat::Cdx => {
            let first = head.split('\n').next().unwrap_or("");
            let trimmed = first.trim_start_matches(' ');
            if let Some(letters) = trimmed.strip_prefix("CDX ") {
                let consumed = (first.len() + 1).min(head.len());
                (cdx_columns(letters.trim_end_matches('\r'))?, consumed)
            } else {
                // No header: the usual eleven fields, or nine (without M and S).
                let fields = first.trim_end_matches('\r').split(' ').count();
                let letters = if fields == 9 { CDX_NINE } else { CDX_DEFAULT };
                (cdx_columns(letters)?, 0)
            }
        }
        LogFormat::W3c => {
            let fields = w3c_fields(head).ok_or_else(|| {
                "no #Fields: directive before the first entry: a W3C extended log names \
                 its fields first (#Fields: date time cs-uri-stem …)"
                    .to_owned()
            })?;
            (W3c::new(&fields).columns(), 0)
        }
    })
}

/// The columns of a CDX header's field letters.
fn cdx_columns(letters: &str) -> Result<Vec<String>, String> {
    let mut columns: Vec<String> = Vec::new();
    for letter in letters.split_ascii_whitespace() {
        let mut chars = letter.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(format!(
                "the CDX header names the field {letter:?}: a field is one letter"
            ));
        };
        let name = CDX_LETTERS
            .iter()
            .find(|(l, _)| *l == c)
            .map_or_else(|| format!("cdx_{c}"), |(_, n)| (*n).to_owned());
        if columns.contains(&name) {
            return Err(format!("the CDX header names the field {c:?} twice"));
        }
        columns.push(name);
    }
    if columns.is_empty() {
        return Err("the CDX header names no fields".to_owned());
    }
    Ok(columns)
}

/// The fields named by the first `#Fields:` directive among the leading `#` lines of
/// `head`, if there is one before the first entry.
fn w3c_fields(head: &str) -> Option<Vec<String>> {
    for line in head.split('\n') {
        let line = line.trim_end_matches('\r');
        if let Some(fields) = line.strip_prefix("#Fields:") {
            return Some(fields.split_ascii_whitespace().map(str::to_owned).collect());
        }
        if !line.starts_with('#') && !line.trim().is_empty() {
            return None;
        }
    }
    None
}

/// A W3C extended log's fields and where the derived columns come from.
#[derive(Clone, Debug)]
struct W3c {
    fields: Vec<String>,
    /// `cs-uri`, `cs-uri-stem`, `cs-uri-query`.
    uri: Option<usize>,
    stem: Option<usize>,
    query: Option<usize>,
    /// The host fields, in order of preference: `x-host-header`, `cs(Host)`, `cs-host`.
    hosts: Vec<usize>,
    /// `cs-protocol` (CloudFront: http, https, ws, wss).
    protocol: Option<usize>,
    /// `s-port`.
    port: Option<usize>,
}

impl W3c {
    fn new(fields: &[String]) -> W3c {
        let find = |name: &str| fields.iter().position(|f| f.eq_ignore_ascii_case(name));
        W3c {
            fields: fields.to_vec(),
            uri: find("cs-uri"),
            stem: find("cs-uri-stem"),
            query: find("cs-uri-query"),
            hosts: ["x-host-header", "cs(Host)", "cs-host"]
                .iter()
                .filter_map(|n| find(n))
                .collect(),
            protocol: find("cs-protocol"),
            port: find("s-port"),
        }
    }

    /// The table's columns: the fields, then `url` and `request_origin`.
    fn columns(&self) -> Vec<String> {
        let mut columns = self.fields.clone();
        for derived in ["url", "request_origin"] {
            if !columns.iter().any(|c| c == derived) {
                columns.push(derived.to_owned());
            }
        }
        columns
    }
}

/// Reads the lines of one batch of an input of one format.
pub struct LineReader {
    format: LogFormat,
    /// The table's columns.
    columns: usize,
    /// NCSA: the fields.
    ncsa: Vec<(Kind, &'static str)>,
    /// W3C: the fields in effect, and the table's column of each field and of `url` and
    /// `request_origin` (`None`: not a column of the table, when a later directive names a field
    /// the first did not).
    w3c: Option<(W3c, Vec<Option<usize>>, usize, usize)>,
    /// W3C: the table's columns (to map a later directive's fields by name).
    names: Vec<String>,
}

/// What [`LineReader::read`] made of a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A row.
    Row,
    /// Not a row: an empty line, or a W3C directive (`#Fields:` …).
    Skip,
}

impl LineReader {
    /// A reader for a batch of an input of `format` whose table has `columns`; for W3C,
    /// `directive` is the `#Fields:` line in effect at the batch's start when it is not
    /// the one the columns come from.
    pub fn new(format: LogFormat, columns: &[String], directive: Option<&str>) -> LineReader {
        let mut reader = LineReader {
            format,
            columns: columns.len(),
            ncsa: ncsa_fields(format),
            w3c: None,
            names: columns.to_vec(),
        };
        if format == LogFormat::W3c {
            let fields = directive
                .and_then(w3c_fields)
                .unwrap_or_else(|| columns[..columns.len().saturating_sub(2)].to_vec());
            reader.set_w3c(&fields);
        }
        reader
    }

    fn set_w3c(&mut self, fields: &[String]) {
        let w3c = W3c::new(fields);
        let at = |name: &str| self.names.iter().position(|c| c == name);
        let map = w3c.fields.iter().map(|f| at(f)).collect();
        let url = at("url").unwrap_or(self.columns);
        let origin = at("request_origin").unwrap_or(self.columns);
        self.w3c = Some((w3c, map, url, origin));
    }

    /// Reads `line` (no line feed) into `cells` (one per column, null where the line has
    /// none): [`Line::Row`], or the fault that makes it an error row (the cells read
    /// before and after the fault are kept).
    pub fn read<'a>(&mut self, line: &'a str, cells: &mut Vec<Cell<'a>>) -> Result<Line, Fault> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        cells.clear();
        cells.resize(self.columns, Cell::Null);
        if line.trim().is_empty() {
            return Ok(Line::Skip);
        }
        match self.format {
            LogFormat::W3c => self.w3c_line(line, cells),
            LogFormat::Alb => alb_line(line, cells).map(|()| Line::Row),
            LogFormat::Cdxj => cdxj_line(line, cells).map(|()| Line::Row),
            LogFormat::Cdx => cdx_line(line, cells).map(|()| Line::Row),
            _ => ncsa_line(&self.ncsa, self.format, line, cells).map(|()| Line::Row),
        }
    }

    fn w3c_line<'a>(&mut self, line: &'a str, cells: &mut [Cell<'a>]) -> Result<Line, Fault> {
        if let Some(directive) = line.strip_prefix('#') {
            if directive.starts_with("Fields:")
                && let Some(fields) = w3c_fields(line)
            {
                self.set_w3c(&fields);
            }
            return Ok(Line::Skip);
        }
        let Some((w3c, map, url_at, origin_at)) = &self.w3c else {
            return Ok(Line::Skip);
        };
        // CloudFront separates fields by tabs; IIS by spaces, where a field may be a
        // quoted string (`""` a quote inside).
        let values: Vec<Cow<'a, str>> = if line.contains('\t') {
            line.split('\t').map(Cow::Borrowed).collect()
        } else {
            let mut values = Vec::with_capacity(w3c.fields.len());
            let mut pos = 0;
            loop {
                match token(line, &mut pos) {
                    Ok(None) => break,
                    Ok(Some((_, Token::Quoted(t)))) if t.contains("\"\"") => {
                        values.push(Cow::Owned(t.replace("\"\"", "\"")));
                    }
                    Ok(Some((_, Token::Quoted(t) | Token::Bare(t)))) => {
                        values.push(Cow::Borrowed(t));
                    }
                    Ok(Some((start, Token::Bracket(_)))) => {
                        // `[` starts a value here (an IPv6 address), not a bracketed one.
                        let end = line[start..].find(' ').map_or(line.len(), |k| start + k);
                        values.push(Cow::Borrowed(&line[start..end]));
                        pos = end;
                    }
                    Err(at) => {
                        return Err(Fault::new(
                            NOT_A_LOG_LINE,
                            at + 1,
                            "a quoted field is not closed: is the line cut short?".to_owned(),
                        ));
                    }
                }
            }
            values
        };
        if values.len() != w3c.fields.len() {
            return Err(Fault::new(
                NOT_A_LOG_LINE,
                1,
                format!(
                    "the line has {} fields, and the #Fields: directive names {}",
                    values.len(),
                    w3c.fields.len()
                ),
            ));
        }
        let value = |i: Option<usize>| {
            i.map(|i| &*values[i])
                .filter(|v| *v != "-" && !v.is_empty())
        };
        for (v, at) in values.iter().zip(map) {
            if let Some(at) = *at {
                cells[at] = dash_null_cow(v.clone());
            }
        }
        let cell = |i: Option<usize>| value(i).and(i).map(|i| values[i].clone());
        let url = match (cell(w3c.uri), cell(w3c.stem)) {
            (Some(uri), _) => Some(uri),
            (None, Some(stem)) => Some(match value(w3c.query) {
                Some(q) => Cow::Owned(format!("{stem}?{q}")),
                None => stem,
            }),
            (None, None) => None,
        };
        if let (Some(url), Some(cell)) = (url, cells.get_mut(*url_at)) {
            *cell = Cell::Text(url);
        }
        if let Some(host) = w3c.hosts.iter().find_map(|&h| value(Some(h))) {
            let scheme = match value(w3c.protocol).map(str::to_ascii_lowercase).as_deref() {
                Some(p @ ("http" | "https" | "ws" | "wss")) => p.to_owned(),
                _ if value(w3c.port) == Some("443") => "https".to_owned(),
                _ => "http".to_owned(),
            };
            let port = value(w3c.port)
                .filter(|p| !host.contains(':') && *p != default_port(&scheme))
                .map_or(String::new(), |p| format!(":{p}"));
            if let Some(cell) = cells.get_mut(*origin_at) {
                *cell = Cell::Text(Cow::Owned(format!("{scheme}://{host}{port}")));
            }
        }
        Ok(Line::Row)
    }
}

/// The default port of a special scheme.
fn default_port(scheme: &str) -> &'static str {
    match scheme {
        "https" | "wss" => "443",
        _ => "80",
    }
}

/// A cell: null for `-`.
fn dash_null(text: &str) -> Cell<'_> {
    if text == "-" {
        Cell::Null
    } else {
        Cell::Text(Cow::Borrowed(text))
    }
}

/// A cell of decoded text: null for `-`.
fn dash_null_cow(text: Cow<'_, str>) -> Cell<'_> {
    if text == "-" {
        Cell::Null
    } else {
        Cell::Text(text)
    }
}

/// A field of a log line, as read.
#[derive(Debug)]
enum Token<'a> {
    /// Unquoted: up to the next space.
    Bare(&'a str),
    /// Between quotes, escapes not yet decoded.
    Quoted(&'a str),
    /// Between `[` and `]`.
    Bracket(&'a str),
}

/// The next field of `line` from `*pos` and where it starts (`None` at the end): one or
/// more spaces separate fields. A quoted field ends at a `"` that is not escaped and is
/// followed by a space or the end of the line (servers that do not escape quotes leave
/// bare ones inside); an unterminated quote or bracket is a fault.
fn token<'a>(line: &'a str, pos: &mut usize) -> Result<Option<(usize, Token<'a>)>, usize> {
    let b = line.as_bytes();
    while *pos < b.len() && b[*pos] == b' ' {
        *pos += 1;
    }
    let start = *pos;
    if start >= b.len() {
        return Ok(None);
    }
    match b[start] {
        b'"' => {
            let mut i = start + 1;
            while let Some(k) = memchr::memchr2(b'"', b'\\', &b[i..]) {
                let j = i + k;
                if b[j] == b'\\' {
                    i = j + 2;
                    if i > b.len() {
                        break;
                    }
                    continue;
                }
                if j + 1 == b.len() || b[j + 1] == b' ' {
                    *pos = j + 1;
                    return Ok(Some((start, Token::Quoted(&line[start + 1..j]))));
                }
                i = j + 1;
            }
            Err(start)
        }
        b'[' => match memchr::memchr(b']', &b[start..]) {
            Some(k) => {
                *pos = start + k + 1;
                Ok(Some((start, Token::Bracket(&line[start + 1..start + k]))))
            }
            None => Err(start),
        },
        _ => {
            let end = memchr::memchr(b' ', &b[start..]).map_or(b.len(), |k| start + k);
            *pos = end;
            Ok(Some((start, Token::Bare(&line[start..end]))))
        }
    }
}

/// The text of a quoted field with the servers' escapes decoded: Apache's `\"`, `\\`,
/// `\b`, `\n`, `\r`, `\t`, `\v` and `\xHH`, nginx's `\xHH` (bytes that are not UTF-8
/// become U+FFFD); any other backslash is kept.
pub fn unescape(text: &str) -> Cow<'_, str> {
    if memchr::memchr(b'\\', text.as_bytes()).is_none() {
        return Cow::Borrowed(text);
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let (byte, len) = match b[i + 1] {
            b'"' => (b'"', 2),
            b'\\' => (b'\\', 2),
            b'b' => (8, 2),
            b'n' => (b'\n', 2),
            b'r' => (b'\r', 2),
            b't' => (b'\t', 2),
            b'v' => (11, 2),
            b'x' if i + 3 < b.len() && hex(b[i + 2]).is_some() && hex(b[i + 3]).is_some() => (
                hex(b[i + 2]).unwrap_or(0) * 16 + hex(b[i + 3]).unwrap_or(0),
                4,
            ),
            _ => (b'\\', 1),
        };
        out.push(byte);
        i += len;
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// A field's text: quoted fields decoded.
fn token_text<'a>(token: &Token<'a>) -> Cow<'a, str> {
    match *token {
        Token::Bare(t) | Token::Bracket(t) => Cow::Borrowed(t),
        Token::Quoted(t) => unescape(t),
    }
}

/// An NCSA line (common, combined, vhost_combined).
fn ncsa_line<'a>(
    fields: &[(Kind, &'static str)],
    format: LogFormat,
    line: &'a str,
    cells: &mut [Cell<'a>],
) -> Result<(), Fault> {
    let mut pos = 0;
    let mut col = 0;
    // A request that is not one: reported after the other fields are read.
    let mut late: Option<Fault> = None;
    for (n, &(kind, name)) in fields.iter().enumerate() {
        let (start, tok) = match token(line, &mut pos) {
            Ok(Some(t)) => t,
            Ok(None) => {
                let hint = if format == LogFormat::Combined && n == COMMON.len() {
                    ": is it a common log? (--input-format common)"
                } else {
                    ""
                };
                return Err(Fault::new(
                    NOT_A_LOG_LINE,
                    line.len() + 1,
                    format!(
                        "the line ends after {n} fields, before the {name} field; a {} line \
                         has {}{hint}",
                        format.name(),
                        fields.len()
                    ),
                ));
            }
            Err(at) => {
                return Err(Fault::new(
                    NOT_A_LOG_LINE,
                    at + 1,
                    format!(
                        "the {name} field opens a quote or a bracket that the line does not \
                         close: is the line cut short?"
                    ),
                ));
            }
        };
        let wrong = |what: &str| {
            Fault::new(
                NOT_A_LOG_LINE,
                start + 1,
                format!(
                    "field {} ({name}) is {:?}, not {what}",
                    n + 1,
                    preview(&token_text(&tok))
                ),
            )
        };
        match kind {
            Kind::HostPort => {
                let Token::Bare(text) = tok else {
                    return Err(wrong("host:port"));
                };
                let (host, port) = match text.rsplit_once(':') {
                    Some((h, p)) if p.bytes().all(|c| c.is_ascii_digit()) && !p.is_empty() => {
                        (h, Some(p))
                    }
                    _ => (text, None),
                };
                cells[col] = dash_null(host);
                cells[col + 1] = port.map_or(Cell::Null, dash_null);
                if host != "-" && !host.is_empty() {
                    let scheme = if port == Some("443") { "https" } else { "http" };
                    let port = port
                        .filter(|p| *p != default_port(scheme))
                        .map_or(String::new(), |p| format!(":{p}"));
                    cells[col + 2] = Cell::Text(Cow::Owned(format!("{scheme}://{host}{port}")));
                }
                col += 3;
            }
            Kind::Time => {
                let Token::Bracket(text) = tok else {
                    return Err(wrong("a [time]"));
                };
                cells[col] = dash_null(text);
                col += 1;
            }
            Kind::Status => {
                let Token::Bare(text) = tok else {
                    return Err(wrong("a status code"));
                };
                if !(text.len() == 3 && text.bytes().all(|c| c.is_ascii_digit())) && text != "-" {
                    return Err(wrong("a status code"));
                }
                cells[col] = dash_null(text);
                col += 1;
            }
            Kind::Count => {
                let Token::Bare(text) = tok else {
                    return Err(wrong("a byte count"));
                };
                if !(text.bytes().all(|c| c.is_ascii_digit()) || text == "-") {
                    return Err(wrong("a byte count"));
                }
                cells[col] = dash_null(text);
                col += 1;
            }
            Kind::Request => {
                let Token::Quoted(_) = tok else {
                    return Err(wrong("a quoted request line"));
                };
                if let Err(f) = request(token_text(&tok), start + 1, &mut cells[col..col + 3]) {
                    late.get_or_insert(f);
                }
                col += 3;
            }
            Kind::Bare => {
                let Token::Bare(text) = tok else {
                    return Err(wrong("a bare field"));
                };
                cells[col] = dash_null(text);
                col += 1;
            }
            Kind::Quoted => {
                cells[col] = dash_null_cow(token_text(&tok));
                col += 1;
            }
        }
    }
    let rest = line[pos..].trim_matches(' ');
    if !rest.is_empty() {
        cells[col] = Cell::Text(Cow::Borrowed(rest));
    }
    late.map_or(Ok(()), Err)
}

/// At most 40 characters of `text`, for a message.
fn preview(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// Splits a decoded request line into `method`, `url` and `http_version` cells (`cells` has
/// three); the fault says why it is not a request (`column`: where the field starts).
fn request<'a>(text: Cow<'a, str>, column: usize, cells: &mut [Cell<'a>]) -> Result<(), Fault> {
    let fault = |name, detail: String| Fault::new(name, column, detail);
    let t: &str = &text;
    if t == "-" || t.trim().is_empty() {
        return Err(fault(
            NOT_A_REQUEST,
            format!(
                "the request is {t:?}: the server read no request line (the connection \
                 closed or timed out first)"
            ),
        ));
    }
    let b = t.as_bytes();
    if b[0] == 0x16 {
        return Err(fault(
            NOT_A_REQUEST,
            "the request is binary (it starts with byte 16, a TLS handshake): a TLS \
             client sent to a plain-HTTP port"
                .to_owned(),
        ));
    }
    let (method, rest) = match memchr::memchr(b' ', b) {
        Some(k) => (&t[..k], &t[k + 1..]),
        None => (t, ""),
    };
    if method == "-" {
        return Err(fault(
            NOT_A_REQUEST,
            format!(
                "the request {:?} has no method: the server could not read the request",
                preview(t)
            ),
        ));
    }
    if method.is_empty() || !method.bytes().all(is_tchar) {
        return Err(fault(
            NOT_A_REQUEST,
            format!("the request {:?} does not start with a method", preview(t)),
        ));
    }
    let rest = rest.trim_matches(' ');
    let last = memchr::memrchr(b' ', rest.as_bytes()).map(|k| (&rest[..k], &rest[k + 1..]));
    let (target, protocol) = match last {
        Some((target, p)) if p.starts_with("HTTP/") => (target.trim_end_matches(' '), Some(p)),
        _ if rest.starts_with("HTTP/") => ("", Some(rest)),
        _ => (rest, None),
    };
    if target.is_empty() {
        return Err(fault(
            NOT_A_REQUEST,
            format!("the request {:?} has no target", preview(t)),
        ));
    }
    let authority = method == "CONNECT" || is_authority(target);
    let form = if target.starts_with('/') || (has_scheme(target) && !authority) {
        None
    } else if target == "*" {
        Some("is asterisk-form (OPTIONS *): it names the server, not a resource".to_owned())
    } else if authority {
        Some("is authority-form (the host and port of a CONNECT), not a URL".to_owned())
    } else {
        Some("is neither a path (/…) nor an absolute URL".to_owned())
    };
    // The cells, borrowed from the line when nothing was decoded.
    let piece = |s: &str| -> Cow<'a, str> {
        match &text {
            Cow::Borrowed(whole) => {
                let at = s.as_ptr() as usize - whole.as_ptr() as usize;
                Cow::Borrowed(&whole[at..at + s.len()])
            }
            Cow::Owned(_) => Cow::Owned(s.to_owned()),
        }
    };
    cells[0] = Cell::Text(piece(method));
    cells[2] = protocol.map_or(Cell::Null, |p| Cell::Text(piece(p)));
    if let Some(why) = form {
        return Err(fault(
            NOT_A_URL_TARGET,
            format!("the request target {:?} {why}", preview(target)),
        ));
    }
    cells[1] = Cell::Text(piece(target));
    Ok(())
}

/// Whether `target` is `host:port` (authority-form: a colon, then only digits).
fn is_authority(target: &str) -> bool {
    target.rsplit_once(':').is_some_and(|(h, p)| {
        !h.is_empty() && !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit())
    }) && !target.contains('/')
}

/// Whether `target` starts with a scheme and a colon (an absolute-form target).
fn has_scheme(target: &str) -> bool {
    let b = target.as_bytes();
    match b.iter().position(|&c| c == b':') {
        Some(k) if k > 0 => {
            b[0].is_ascii_alphabetic()
                && b[1..k]
                    .iter()
                    .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
        }
        _ => false,
    }
}

/// A byte of an HTTP token (a method).
fn is_tchar(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&c)
}

/// An Application Load Balancer line.
fn alb_line<'a>(line: &'a str, cells: &mut [Cell<'a>]) -> Result<(), Fault> {
    let mut pos = 0;
    let mut col = 0;
    let mut late = None;
    for (n, name) in ALB.iter().enumerate() {
        let (start, tok) = match token(line, &mut pos) {
            Ok(Some(t)) => t,
            Ok(None) if n >= ALB_LEAST => break,
            Ok(None) => {
                return Err(Fault::new(
                    NOT_A_LOG_LINE,
                    line.len() + 1,
                    format!(
                        "the line ends after {n} fields, before the {name} field; an ALB \
                         line has at least {ALB_LEAST}"
                    ),
                ));
            }
            Err(at) => {
                return Err(Fault::new(
                    NOT_A_LOG_LINE,
                    at + 1,
                    format!(
                        "the {name} field opens a quote that the line does not close: is \
                         the line cut short?"
                    ),
                ));
            }
        };
        if *name == "request" {
            if !matches!(tok, Token::Quoted(_)) {
                return Err(Fault::new(
                    NOT_A_LOG_LINE,
                    start + 1,
                    "field 13 (request) is not a quoted request line".to_owned(),
                ));
            }
            if let Err(f) = request(token_text(&tok), start + 1, &mut cells[col..col + 3]) {
                late.get_or_insert(f);
            }
            col += 3;
        } else {
            cells[col] = dash_null_cow(token_text(&tok));
            col += 1;
        }
    }
    let rest = line[pos..].trim_matches(' ');
    if !rest.is_empty() {
        cells[cells.len() - 1] = Cell::Text(Cow::Borrowed(rest));
    }
    late.map_or(Ok(()), Err)
}

/// A CDXJ line: `urlkey timestamp {json}`.
fn cdxj_line<'a>(line: &'a str, cells: &mut [Cell<'a>]) -> Result<(), Fault> {
    let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
    let (stamp, json) = rest.split_once(' ').unwrap_or((rest, ""));
    let json_at = line.len() - json.len();
    if !json.starts_with('{') {
        return Err(Fault::new(
            NOT_A_LOG_LINE,
            json_at + 1,
            "a CDXJ line is `urlkey timestamp {json}`, and this one has no JSON block \
             after its timestamp"
                .to_owned(),
        ));
    }
    cells[0] = dash_null(key);
    cells[1] = dash_null(stamp);
    cells[CDXJ.len() - 1] = Cell::Raw(Cow::Borrowed(json));
    let object = table::json_object(json).map_err(|e| {
        Fault::new(
            NOT_A_LOG_LINE,
            json_at + 1,
            format!("the JSON block is {e}"),
        )
    })?;
    for (k, value) in object.0 {
        if let Some(i) = CDXJ[CDXJ_KEYS].iter().position(|c| *c == k) {
            cells[CDXJ_KEYS.start + i] = match table::json_cell(value) {
                Cell::Raw(raw) => Cell::Text(raw),
                cell => cell,
            };
        }
    }
    Ok(())
}

/// A classic CDX line: fields separated by spaces, one per column.
fn cdx_line<'a>(line: &'a str, cells: &mut [Cell<'a>]) -> Result<(), Fault> {
    let fields: Vec<&str> = line.split(' ').collect();
    if fields.len() != cells.len() {
        return Err(Fault::new(
            NOT_A_LOG_LINE,
            1,
            format!(
                "the line has {} fields, and the CDX header names {}",
                fields.len(),
                cells.len()
            ),
        ));
    }
    for (cell, field) in cells.iter_mut().zip(fields) {
        *cell = dash_null(field);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells of `line` read as `format` (columns from [`header`] over `head`), as
    /// text (`None`: null), or the fault's name and column.
    fn read(
        format: LogFormat,
        head: &str,
        line: &str,
    ) -> Result<Vec<Option<String>>, (&'static str, usize)> {
        let (columns, _) = header(format, head).expect("columns");
        let mut reader = LineReader::new(format, &columns, None);
        let mut cells = Vec::new();
        match reader.read(line, &mut cells) {
            Ok(_) => Ok(cells
                .iter()
                .map(|c| match c {
                    Cell::Null => None,
                    Cell::Text(t) | Cell::Raw(t) => Some(t.to_string()),
                })
                .collect()),
            Err(f) => Err((f.name, f.column)),
        }
    }

    #[test]
    fn escapes_of_apache_and_nginx() {
        assert_eq!(unescape(r"plain"), "plain");
        assert!(matches!(unescape("plain"), Cow::Borrowed(_)));
        assert_eq!(unescape(r#"a\"b\\c"#), r#"a"b\c"#);
        assert_eq!(unescape(r"\n\r\t\b\v"), "\n\r\t\u{8}\u{b}");
        assert_eq!(unescape(r"caf\xc3\xA9"), "café");
        assert_eq!(unescape(r"\x22q\x22"), "\"q\"");
        // Not UTF-8 once decoded: U+FFFD.
        assert_eq!(unescape(r"\xff"), "\u{fffd}");
        // Not an escape: kept.
        assert_eq!(unescape(r"\q \x4 \xZZ \"), r"\q \x4 \xZZ \");
    }

    #[test]
    fn target_forms() {
        assert!(has_scheme("https://a/"));
        assert!(has_scheme("a+b-c.d:x"));
        assert!(!has_scheme("/a:b"));
        assert!(!has_scheme(":a"));
        assert!(!has_scheme("1a:b"));
        assert!(is_authority("example.com:443"));
        assert!(is_authority("[::1]:8080"));
        assert!(!is_authority("https://a:1/"));
        assert!(!is_authority("a:"));
        assert!(!is_authority(":1"));
    }

    #[test]
    fn requests() {
        let common = |request: &str| {
            read(
                LogFormat::Common,
                "",
                &format!("h - - [t] \"{request}\" 200 1"),
            )
        };
        let row = common("GET /a?b HTTP/1.1").expect("a row");
        assert_eq!(
            row[4..7],
            [
                Some("GET".into()),
                Some("/a?b".into()),
                Some("HTTP/1.1".into())
            ]
        );
        // HTTP/0.9: no version.
        let row = common("GET /").expect("a row");
        assert_eq!(row[4..7], [Some("GET".into()), Some("/".into()), None]);
        // A target with a space in it (a client that did not encode it).
        let row = common("GET /a b HTTP/1.0").expect("a row");
        assert_eq!(row[5], Some("/a b".into()));
        // The fault's column is where the request field starts (its quote).
        assert_eq!(common("-"), Err((NOT_A_REQUEST, 11)));
        assert_eq!(common(""), Err((NOT_A_REQUEST, 11)));
        assert_eq!(common(r"\x16\x03\x01"), Err((NOT_A_REQUEST, 11)));
        assert_eq!(common("G(T / HTTP/1.1"), Err((NOT_A_REQUEST, 11)));
        assert_eq!(common("GET"), Err((NOT_A_REQUEST, 11)));
        assert_eq!(common("GET HTTP/1.1"), Err((NOT_A_REQUEST, 11)));
        assert_eq!(common("OPTIONS * HTTP/1.1"), Err((NOT_A_URL_TARGET, 11)));
        assert_eq!(
            common("CONNECT a.example:443 HTTP/1.1"),
            Err((NOT_A_URL_TARGET, 11))
        );
        assert_eq!(
            common("GET a.example:443 HTTP/1.1"),
            Err((NOT_A_URL_TARGET, 11))
        );
        assert_eq!(
            common("GET index.html HTTP/1.1"),
            Err((NOT_A_URL_TARGET, 11))
        );
        assert!(common("GET http://a.example/x HTTP/1.1").is_ok());
    }

    #[test]
    fn ncsa_shapes() {
        let common = |line: &str| read(LogFormat::Common, "", line);
        assert_eq!(
            common("h - - [t] \"GET / HTTP/1.1\" 2000 1"),
            Err((NOT_A_LOG_LINE, 28))
        );
        assert_eq!(
            common("h - - [t] \"GET / HTTP/1.1\" 200 x1"),
            Err((NOT_A_LOG_LINE, 32))
        );
        assert_eq!(
            common("h - - t \"GET / HTTP/1.1\" 200 1"),
            Err((NOT_A_LOG_LINE, 7))
        );
        assert_eq!(
            common("h - - [t \"GET / HTTP/1.1\" 200 1"),
            Err((NOT_A_LOG_LINE, 7))
        );
        assert_eq!(common("h - - [t] GET 200 1"), Err((NOT_A_LOG_LINE, 11)));
        assert_eq!(common("h - -"), Err((NOT_A_LOG_LINE, 6)));
        // Fields may be separated by more than one space; more fields are `extra`.
        let row = common("h  -  -  [t]  \"GET / HTTP/1.1\"  200  -  more  fields").expect("a row");
        assert_eq!(row[0], Some("h".into()));
        assert_eq!(row[8], None, "- bytes");
        assert_eq!(row[9], Some("more  fields".into()));
        // A blank line is not a row.
        let (columns, _) = header(LogFormat::Common, "").expect("columns");
        let mut cells = Vec::new();
        let mut reader = LineReader::new(LogFormat::Common, &columns, None);
        assert_eq!(reader.read(" \r", &mut cells), Ok(Line::Skip));
    }

    #[test]
    fn headers() {
        let (columns, consumed) = header(LogFormat::Cdx, " CDX a b\nx y\n").expect("cdx");
        assert_eq!(
            (columns, consumed),
            (vec!["url".to_owned(), "timestamp".to_owned()], 9)
        );
        let (columns, consumed) = header(LogFormat::Cdx, "x y\n").expect("cdx");
        assert_eq!((columns.len(), consumed), (11, 0));
        let nine = "k 2026 https://a/ text/html 200 D - 0 f\n";
        let (columns, _) = header(LogFormat::Cdx, nine).expect("cdx");
        assert_eq!(columns[7..], ["offset", "filename"]);
        assert_eq!(header(LogFormat::Cdx, "CDX Z\n").expect("cdx").0, ["cdx_Z"]);
        assert!(header(LogFormat::Cdx, " CDX ab\n").is_err());
        assert!(header(LogFormat::Cdx, " CDX \n").is_err());
        let (columns, _) = header(
            LogFormat::W3c,
            "#Version: 1.0\r\n#Fields: date cs-uri-stem\r\nd /a\r\n",
        )
        .expect("w3c");
        assert_eq!(columns, ["date", "cs-uri-stem", "url", "request_origin"]);
        assert!(header(LogFormat::W3c, "#Version: 1.0\nd /a\n#Fields: x\n").is_err());
        assert_eq!(header(LogFormat::Alb, "").expect("alb").0.len(), 33);
    }

    #[test]
    fn w3c_origins() {
        let head = "#Fields: cs-uri-stem cs-uri-query s-port cs-host cs-protocol\n";
        let origin =
            |line: &str| read(LogFormat::W3c, head, line).map(|r| (r[5].clone(), r[6].clone()));
        assert_eq!(
            origin("/a q=1 443 h.example -"),
            Ok((Some("/a?q=1".into()), Some("https://h.example".into())))
        );
        assert_eq!(
            origin("/a - 8080 h.example -"),
            Ok((Some("/a".into()), Some("http://h.example:8080".into())))
        );
        assert_eq!(
            origin("/a - 443 h.example:8443 https"),
            Ok((Some("/a".into()), Some("https://h.example:8443".into())))
        );
        assert_eq!(origin("/a - 80 - wss").map(|o| o.1), Ok(None));
        // Quoted strings (a `""` inside), runs of spaces, an IPv6 address.
        let head = "#Fields: cs-uri-stem cs(User-Agent) c-ip\n";
        assert_eq!(
            read(LogFormat::W3c, head, r#"/a  "Mozilla 5 ""x""" [::1] "#),
            Ok(vec![
                Some("/a".into()),
                Some(r#"Mozilla 5 "x""#.into()),
                Some("[::1]".into()),
                Some("/a".into()),
                None
            ])
        );
        assert_eq!(
            read(LogFormat::W3c, head, r#"/a "cut"#),
            Err((NOT_A_LOG_LINE, 4))
        );
        assert_eq!(origin("/a - 80"), Err((NOT_A_LOG_LINE, 1)));
    }
}
