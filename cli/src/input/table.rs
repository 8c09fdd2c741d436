//! Cells of table inputs: CSV records (RFC 4180), TSV lines (with the backslash escapes
//! the tool's TSV output uses), and JSON Lines objects.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// One value of a passed-through column.
#[derive(Clone, Debug)]
pub enum Cell<'a> {
    /// Text: a CSV or TSV field, a JSON string, a Parquet string or a value shown as text.
    Text(Cow<'a, str>),
    /// A JSON value that is not a string (number, `true`, object …), or a Parquet number
    /// or boolean, as its JSON text: written bare in JSON Lines, as text elsewhere.
    Raw(Cow<'a, str>),
    /// No value: a missing JSON key, JSON `null`, a Parquet null.
    Null,
}

impl Cell<'_> {
    /// The cell as text (empty for null).
    pub fn text(&self) -> &str {
        match self {
            Cell::Text(s) | Cell::Raw(s) => s,
            Cell::Null => "",
        }
    }
}

/// A CSV or TSV record that is not well formed.
#[derive(Debug)]
pub struct CellError {
    /// Byte offset in the text where the problem is.
    pub at: usize,
    /// The field (0-based) being read.
    pub field: usize,
    /// What is wrong.
    pub what: &'static str,
}

impl CellError {
    /// The message: `NAME:LINE: column N: WHAT`, where `line` is the line number of
    /// `text[record_start]`.
    pub fn message(&self, name: &str, line: u64, text: &str, record_start: usize) -> String {
        let lines = memchr::memchr_iter(b'\n', &text.as_bytes()[record_start..self.at]).count();
        format!(
            "{name}:{}: column {}: {}",
            line + lines as u64,
            self.field + 1,
            self.what
        )
    }
}

/// Reads the record starting at `*pos` of `text` into `cells` (cleared first) and moves
/// `*pos` past its line end. `delimiter` `,` reads CSV (RFC 4180: a field in double
/// quotes may hold commas, quotes doubled and line breaks; a quote anywhere else is an
/// error), `\t` reads TSV (no quoting; `\t`, `\n`, `\r`, `\\` unescaped). A `\r` before
/// the line feed is dropped.
pub fn read_record<'a>(
    text: &'a str,
    pos: &mut usize,
    delimiter: u8,
    cells: &mut Vec<Cow<'a, str>>,
) -> Result<(), CellError> {
    cells.clear();
    let b = text.as_bytes();
    if delimiter == b'\t' {
        let end = memchr::memchr(b'\n', &b[*pos..]).map_or(b.len(), |i| *pos + i);
        let line = &text[*pos..end];
        let line = line.strip_suffix('\r').unwrap_or(line);
        cells.extend(line.split('\t').map(unescape_tsv));
        *pos = (end + 1).min(b.len());
        return Ok(());
    }
    loop {
        let field = cells.len();
        if b.get(*pos) == Some(&b'"') {
            cells.push(quoted_field(text, pos, field)?);
            match b.get(*pos) {
                Some(&d) if d == delimiter => *pos += 1,
                None => return Ok(()),
                Some(b'\n') => {
                    *pos += 1;
                    return Ok(());
                }
                Some(b'\r') if matches!(b.get(*pos + 1), None | Some(b'\n')) => {
                    *pos = (*pos + 2).min(b.len());
                    return Ok(());
                }
                Some(_) => {
                    return Err(CellError {
                        at: *pos,
                        field,
                        what: "a quoted field is followed by something other than a comma or \
                               the end of the line",
                    });
                }
            }
        } else {
            let start = *pos;
            let end = memchr::memchr2(delimiter, b'\n', &b[start..]).map_or(b.len(), |i| start + i);
            let mut value = &text[start..end];
            if let Some(q) = memchr::memchr(b'"', value.as_bytes()) {
                return Err(CellError {
                    at: start + q,
                    field,
                    what: "a double quote inside an unquoted field (RFC 4180 quotes the whole \
                           field and doubles the quote)",
                });
            }
            if b.get(end) == Some(&delimiter) {
                cells.push(Cow::Borrowed(value));
                *pos = end + 1;
                continue;
            }
            value = value.strip_suffix('\r').unwrap_or(value);
            cells.push(Cow::Borrowed(value));
            *pos = (end + 1).min(b.len());
            return Ok(());
        }
    }
}

/// The quoted CSV field whose opening quote is at `*pos` (field number `field`), its
/// doubled quotes made single; moves `*pos` past its closing quote.
fn quoted_field<'a>(
    text: &'a str,
    pos: &mut usize,
    field: usize,
) -> Result<Cow<'a, str>, CellError> {
    let b = text.as_bytes();
    let open = *pos;
    let mut i = open + 1;
    let mut start = i;
    let mut owned: Option<String> = None;
    loop {
        let Some(j) = memchr::memchr(b'"', &b[i..]) else {
            return Err(CellError {
                at: open,
                field,
                what: "unterminated quote: the quoted field is not closed",
            });
        };
        let quote = i + j;
        if b.get(quote + 1) == Some(&b'"') {
            owned
                .get_or_insert_with(String::new)
                .push_str(&text[start..=quote]);
            i = quote + 2;
            start = i;
            continue;
        }
        *pos = quote + 1;
        return Ok(match owned {
            None => Cow::Borrowed(&text[start..quote]),
            Some(mut s) => {
                s.push_str(&text[start..quote]);
                Cow::Owned(s)
            }
        });
    }
}

/// A TSV field with `\t`, `\n`, `\r` and `\\` turned back into the characters they
/// stand for (any other backslash is kept).
fn unescape_tsv(field: &str) -> Cow<'_, str> {
    if !field.contains('\\') {
        return Cow::Borrowed(field);
    }
    let mut out = String::with_capacity(field.len());
    let mut chars = field.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    Cow::Owned(out)
}

/// The keys and values of one JSON object, in order, values left as JSON text.
pub struct JsonObject<'a>(pub Vec<(Cow<'a, str>, &'a RawValue)>);

/// A key: borrowed from the line when it has no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> de::Deserialize<'de> for JsonObject<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = JsonObject<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsonObject<'de>, A::Error> {
                let mut pairs = Vec::new();
                while let Some(key) = map.next_key::<Key<'de>>()? {
                    let value: &'de RawValue = map.next_value()?;
                    pairs.push((key.0, value));
                }
                Ok(JsonObject(pairs))
            }
        }
        d.deserialize_map(V)
    }
}

/// Parses one line of JSON Lines: an object, or an error message.
pub fn json_object(line: &str) -> Result<JsonObject<'_>, String> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    serde_json::from_str(line)
        .map_err(|e| format!("not a JSON object (column {}): {e}", e.column().max(1)))
}

/// The keys of the object on `line` (the columns of a JSON Lines input).
pub fn json_keys(line: &str) -> Result<Vec<String>, String> {
    Ok(json_object(line)?
        .0
        .into_iter()
        .map(|(k, _)| k.into_owned())
        .collect())
}

/// What a JSON value's text holds, for messages: `number`, `object` …
pub fn json_kind(raw: &str) -> &'static str {
    match raw.as_bytes().first() {
        Some(b'"') => "a string",
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// A JSON value's text as a cell: strings decoded, `null` as [`Cell::Null`], anything
/// else kept as its JSON text.
pub fn json_cell(raw: &RawValue) -> Cell<'_> {
    let text = raw.get();
    match text.as_bytes().first() {
        Some(b'"') => match serde_json::from_str::<Cow<'_, str>>(text) {
            Ok(s) => Cell::Text(s),
            Err(_) => Cell::Raw(Cow::Borrowed(text)),
        },
        Some(b'n') => Cell::Null,
        _ => Cell::Raw(Cow::Borrowed(text)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(text: &str, delimiter: u8) -> Result<(Vec<String>, usize), String> {
        let mut cells = Vec::new();
        let mut pos = 0;
        read_record(text, &mut pos, delimiter, &mut cells).map_err(|e| e.what.to_owned())?;
        Ok((cells.iter().map(|c| c.to_string()).collect(), pos))
    }

    #[test]
    fn csv_records() {
        assert_eq!(
            record("a,b\r\nx", b',').unwrap(),
            (vec!["a".into(), "b".into()], 5)
        );
        assert_eq!(
            record("\"a,\"\"b\"\"\nc\",,d\n", b',').unwrap(),
            (vec!["a,\"b\"\nc".into(), "".into(), "d".into()], 15)
        );
        assert_eq!(
            record("x,\"y\"", b',').unwrap(),
            (vec!["x".into(), "y".into()], 5)
        );
        assert!(record("a,b\"c\n", b',').unwrap_err().contains("unquoted"));
        assert!(
            record("\"abc\n", b',')
                .unwrap_err()
                .contains("unterminated")
        );
        assert!(record("\"a\"b,c\n", b',').unwrap_err().contains("followed"));
    }

    #[test]
    fn tsv_records() {
        assert_eq!(
            record("a\\tb\tc\\\\d\\x\r\nnext", b'\t').unwrap(),
            (vec!["a\tb".into(), "c\\d\\x".into()], 13)
        );
    }

    #[test]
    fn json_objects() {
        let obj = json_object(r#"{"u":"h\"i","n":1.5,"o":{"a":[1]},"z":null}"#).unwrap();
        let keys: Vec<&str> = obj.0.iter().map(|(k, _)| k.as_ref()).collect();
        assert_eq!(keys, ["u", "n", "o", "z"]);
        assert_eq!(json_cell(obj.0[0].1).text(), "h\"i");
        assert_eq!(json_cell(obj.0[1].1).text(), "1.5");
        assert_eq!(json_cell(obj.0[2].1).text(), r#"{"a":[1]}"#);
        assert!(matches!(json_cell(obj.0[3].1), Cell::Null));
        assert!(json_object("[1]").is_err());
        assert!(json_object("{\"a\":").is_err());
    }
}
