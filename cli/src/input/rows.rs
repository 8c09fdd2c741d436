//! Rows as the commands see them: each record's URL cell parsed (against `--base` or its
//! base cell), with its line number and the cells that pass through, handed one at a
//! time to the command's sink ([`RowSink`]).

use std::borrow::Cow;
use std::fmt;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use rapidurl::field::{FieldContext, RouteAnswer};
use rapidurl::pattern::PatternSet;
use rapidurl::{ParseError, Url, UrlRef};

use super::source::InputFormat;
use super::table::Cell;

/// How the records of every input become rows: the table's columns and which of them
/// hold the URL, its base, and what passes through.
pub struct Plan {
    /// The inputs' format (all inputs have the same).
    pub format: InputFormat,
    /// The inputs' names, for diagnostics.
    pub names: Vec<String>,
    /// The columns of a table input (empty for lines).
    pub columns: Vec<String>,
    /// The URL's column (tables).
    pub url: usize,
    /// The base's column: for tables, an index into `columns`; for lines, the 0-based
    /// tab-separated field (`--base-column N`).
    pub base: Option<usize>,
    /// The columns passed through, in order.
    pub pass: Vec<usize>,
    /// Whether the sink wants the passed-through cells as [`Cell`]s (not when Parquet
    /// passes Arrow columns straight through).
    pub cells: bool,
    /// `--base`.
    pub base_url: Option<Url>,
    /// How each parsed row is looked up in the route table ([`Plan::look_up`]): set when
    /// the command writes route fields.
    pub routes: Option<Lookup>,
}

/// The route table and what each row's lookup must find: the input side looks each
/// parsed row up once ([`Plan::look_up`]), and the row's answer serves its route fields
/// and its error check.
#[derive(Clone, Copy, Debug)]
pub struct Lookup {
    /// The table.
    pub set: &'static PatternSet,
    /// Whether `route_params` is written (the lookup then computes the groups of the
    /// pattern that matches: [`FieldContext::look_up_route`]).
    pub params: bool,
}

impl Plan {
    /// The route table's answer for `url`, once for all of its row's route fields
    /// (`None` without route fields); an error ([`RowError::Route`]) when the lookup ran
    /// out of steps, which makes the row an error row.
    #[inline]
    pub fn look_up(&self, url: &UrlRef<'_>) -> Result<Option<RouteAnswer<'static>>, RowError> {
        let Some(lookup) = self.routes else {
            return Ok(None);
        };
        match FieldContext::new()
            .routes(lookup.set)
            .look_up_route(url, lookup.params)
        {
            Some(RouteAnswer::Limit(e)) => Err(RowError::Route(e)),
            answer => Ok(answer),
        }
    }
}

/// Why a row has no URL.
#[derive(Clone, Debug)]
pub enum RowError {
    /// The cell did not parse.
    Parse(ParseError),
    /// The cell is null or absent.
    Missing,
    /// The URL parsed, but the route table's lookup ran out of steps on it (a pattern
    /// with a backreference or a lookaround: [`rapidurl::field::ROUTE_MATCH_LIMIT`]).
    Route(rapidurl::pattern::PatternError),
    /// The record is not one of its format's: a log line that is not a request, a crawl
    /// index line without its fields ([`super::logs`]).
    Unreadable(Box<super::logs::Fault>),
}

impl RowError {
    /// A short name: the Standard's validation-error name, or `missing-URL`.
    pub fn name(&self) -> &'static str {
        match self {
            RowError::Parse(e) => e.name(),
            RowError::Missing => "missing-URL",
            RowError::Route(_) => rapidurl::field::ROUTE_MATCH_LIMIT,
            RowError::Unreadable(f) => f.name,
        }
    }

    /// The 1-based byte position of the problem in the cell (1 when there is none).
    pub fn column(&self) -> usize {
        match self {
            RowError::Parse(e) => e.offset().map_or(1, |o| o + 1),
            RowError::Missing | RowError::Route(_) => 1,
            RowError::Unreadable(f) => f.column,
        }
    }
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowError::Parse(e) => e.fmt(f),
            RowError::Missing => f.write_str("missing-URL: the URL cell is null or absent"),
            RowError::Route(e) => write!(f, "{}: {e}", self.name()),
            RowError::Unreadable(fault) => fault.fmt(f),
        }
    }
}

/// One row.
pub struct Row<'r> {
    /// Its line number (CSV: where its record starts; Parquet: its row number).
    pub line: u64,
    /// Its index in the batch.
    pub index: usize,
    /// The URL cell as read.
    pub input: &'r str,
    /// The text parsed: the URL cell (of a tab-separated line with a base field, the
    /// URL's field, while [`Row::input`] is the whole line).
    pub text: &'r str,
    /// The base URL it was parsed against (`--base`, or its base cell), if any.
    pub base: Option<&'r Url>,
    /// The URL, or why there is none.
    pub url: Result<UrlRef<'r>, RowError>,
    /// The passed-through cells (when [`Plan::cells`]).
    pub cells: &'r [Cell<'r>],
    /// The route table's answer for the URL, when the command writes route fields
    /// ([`Plan::look_up`]).
    pub route: Option<&'r RouteAnswer<'static>>,
}

/// Whether to go on after a row.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Next row.
    Go,
    /// Stop the batch here.
    Stop,
}

/// What a command does with rows.
pub trait RowSink {
    /// A row of plain lines whose URL parsed against `base` (`--base`) (the hot path,
    /// inlined into the line loop: no [`Row`] is built unless the sink builds one), with
    /// the route table's answer ([`Row::route`]): by default, [`Self::row`].
    #[inline(always)]
    fn line_url(
        &mut self,
        line: u64,
        index: usize,
        (input, base): (&str, Option<&Url>),
        url: &UrlRef<'_>,
        route: Option<&RouteAnswer<'static>>,
    ) -> Flow {
        self.row(&Row {
            line,
            index,
            input,
            text: input,
            base,
            url: Ok(*url),
            cells: &[],
            route,
        })
    }

    /// Any other row.
    fn row(&mut self, row: &Row<'_>) -> Flow;

    /// Offered each row of plain lines before it is parsed: a sink that can finish the row
    /// from its input alone does so and returns `true` (the row is then neither parsed nor
    /// handed to [`Self::line_url`]). By default every row is parsed.
    #[inline(always)]
    fn take_line(&mut self, input: &rapidurl::batch::engine::Input<'_, '_>) -> bool {
        let _ = input;
        false
    }

    /// The batch's last row has been given, on the thread that gave the rows (state kept
    /// per thread goes back here). By default, nothing.
    #[inline(always)]
    fn end(&mut self) {}
}

impl<F: FnMut(&Row<'_>) -> Flow> RowSink for F {
    #[inline(always)]
    fn row(&mut self, row: &Row<'_>) -> Flow {
        self(row)
    }
}

/// One value of an Arrow column as a cell: strings as text, numbers and booleans as
/// bare JSON, anything else as its display text.
pub fn arrow_cell<'a>(
    array: &'a ArrayRef,
    formatter: Option<&arrow_cast::display::ArrayFormatter<'_>>,
    i: usize,
) -> Cell<'a> {
    if array.is_null(i) {
        return Cell::Null;
    }
    if let Some(s) = Strings::of(array) {
        return s
            .get(i)
            .map_or(Cell::Null, |s| Cell::Text(Cow::Borrowed(s)));
    }
    let text = formatter.map_or_else(String::new, |f| f.value(i).to_string());
    let dt = array.data_type();
    if dt.is_numeric() || *dt == DataType::Boolean {
        // NaN and infinities are not JSON numbers.
        if text.parse::<f64>().is_ok_and(f64::is_finite) || *dt == DataType::Boolean {
            return Cell::Raw(Cow::Owned(text));
        }
    }
    Cell::Text(Cow::Owned(text))
}

/// A string column of any of Arrow's string layouts.
pub enum Strings<'a> {
    /// `Utf8`.
    Small(&'a arrow_array::StringArray),
    /// `LargeUtf8`.
    Large(&'a arrow_array::LargeStringArray),
    /// `Utf8View`.
    View(&'a arrow_array::StringViewArray),
}

impl<'a> Strings<'a> {
    /// The column, if it holds strings.
    pub fn of(array: &'a ArrayRef) -> Option<Strings<'a>> {
        Some(match array.data_type() {
            DataType::Utf8 => Strings::Small(array.as_string::<i32>()),
            DataType::LargeUtf8 => Strings::Large(array.as_string::<i64>()),
            DataType::Utf8View => Strings::View(array.as_string_view()),
            _ => return None,
        })
    }

    /// Row `i`, `None` when null.
    pub fn get(&self, i: usize) -> Option<&'a str> {
        match self {
            Strings::Small(a) => (!a.is_null(i)).then(|| a.value(i)),
            Strings::Large(a) => (!a.is_null(i)).then(|| a.value(i)),
            Strings::View(a) => (!a.is_null(i)).then(|| a.value(i)),
        }
    }
}

/// The URL field and the base field of a tab-separated line whose base is in field
/// `base_column` (0-based): the URL is the first field, or the second when the base is
/// the first. A missing URL field is the empty string; a missing base field is `None`.
pub fn split_fields(line: &str, base_column: usize) -> (&str, Option<&str>) {
    let url_column = usize::from(base_column == 0);
    let (mut url, mut base) = ("", None);
    for (i, field) in line.split('\t').enumerate() {
        if i == url_column {
            url = field;
        }
        if i == base_column {
            base = Some(field);
        }
        if i >= url_column.max(base_column) {
            break;
        }
    }
    (url, base)
}

#[cfg(test)]
mod tests {
    use super::split_fields;

    #[test]
    fn fields() {
        assert_eq!(split_fields("u\tb", 1), ("u", Some("b")));
        assert_eq!(split_fields("b\tu\tx", 0), ("u", Some("b")));
        assert_eq!(split_fields("u", 1), ("u", None));
        assert_eq!(split_fields("b", 0), ("", Some("b")));
        assert_eq!(split_fields("u\tx\tb", 2), ("u", Some("b")));
        assert_eq!(split_fields("u\t", 1), ("u", Some("")));
    }
}
