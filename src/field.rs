//! Named values of a parsed URL: the columns of the command-line tool (`rapidurl parse
//! --fields …`) and of the Python package's `parse_column`, defined once so that every
//! front end names and computes them the same way.
//!
//! ```
//! use rapidurl::field::Field;
//!
//! let arena = rapidurl::bumpalo::Bump::new();
//! let url = rapidurl::parse_ref("https://example.com:8443/a?q=1", &arena).unwrap();
//! let field: Field = "host".parse().unwrap();
//! assert_eq!(field.value(&url).as_deref(), Some("example.com:8443"));
//! assert_eq!(field.to_string(), "host");
//! assert!("colour".parse::<Field>().is_err());
//!
//! // Host analytics (the built-in Public Suffix List) and query parameters.
//! let url = rapidurl::parse_ref("https://www.example.co.uk/x?utm_source=mail+2", &arena).unwrap();
//! let fields: Vec<Field> = ["registrable_domain", "subdomain", "param:utm_source", "param:x"]
//!     .iter()
//!     .map(|name| name.parse().unwrap())
//!     .collect();
//! let values: Vec<Option<String>> =
//!     fields.iter().map(|f| f.value(&url).map(|v| v.into_owned())).collect();
//! assert_eq!(values, [Some("example.co.uk".into()), Some("www".into()), Some("mail 2".into()), None]);
//!
//! // Another list (say, loaded with `SuffixList::from_file`) goes through a `FieldContext`.
//! use rapidurl::field::FieldContext;
//! use rapidurl::psl::SuffixList;
//! let list = SuffixList::parse("uk\n").unwrap();
//! let cx = FieldContext::new().suffix_list(&list);
//! assert_eq!(fields[0].value_with(&url, &cx).as_deref(), Some("co.uk"));
//! ```

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use crate::psl::{Sections, SuffixList, SuffixPart};
use crate::view::UrlRef;

/// A value computed from a parsed URL, named as the URL API's attribute where there is one.
///
/// `value` returns `None` where the value is absent (null in Arrow, empty in text
/// formats); the URL API's attributes are never absent (an absent port is `""`, as
/// `new URL()` says).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
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
    /// The host's public suffix (URL Standard §3.2); absent unless the host is a domain.
    PublicSuffix,
    /// The host's registrable domain (§3.2); absent when the host is not a domain or is a
    /// public suffix.
    RegistrableDomain,
    /// The host's labels before its registrable domain; absent when there is no
    /// registrable domain, empty when the host is one.
    Subdomain,
    /// `param:NAME`: the decoded value of the query's first `NAME` pair; absent when
    /// there is none.
    Param(String),
    /// The URL rendered for people ([`crate::render::render`] with default options): no
    /// credentials, the host in Unicode, percent-encoded UTF-8 decoded where safe.
    Display,
    /// `true` or `false`: whether the input text is a valid URL string (§4.3). A value of
    /// the input, not of the parsed URL: absent unless the [`FieldContext`] has the input.
    /// The input is judged on its own, as an absolute-URL-with-fragment string, even where
    /// the front end parsed it against a base (`--base`): a relative reference is `false`.
    Valid,
    /// The names of the validation errors that parsing the input reported, in order,
    /// separated by spaces (empty when none): the parse against the base the URL was
    /// parsed against, when the [`FieldContext`] has it ([`FieldContext::base`]), as
    /// [`crate::parse_with_validation_errors_with_base`] reports them. A value of the
    /// input: absent unless the [`FieldContext`] has it.
    ValidationErrors,
    /// The SURT key ([`crate::canon::surt()`], the `surt` package's defaults):
    /// `com,example)/a?a=1&b=2`.
    Surt,
    /// The dedup key with its defaults ([`crate::canon::dedup`]): a URL.
    Canonical,
    /// The name of the first pattern of the route table that matches the URL (its text
    /// when it has no name), empty when none matches; absent unless the [`FieldContext`]
    /// has a route table ([`FieldContext::routes`]), and absent when a pattern with a
    /// backreference or a lookaround ran out of steps on this URL
    /// ([`FieldContext::route_error`] tells that apart; the tool and Python columns make
    /// such a row an error row named [`ROUTE_MATCH_LIMIT`]).
    Route,
    /// The groups of that match as a JSON object: named groups by name, numbered ones as
    /// `component.N` (`{"id":"42","pathname.0":"x/y"}`), a component that is `*` alone
    /// left out; absent when no route matches, there is no route table, or matching ran
    /// out of steps (as for [`Field::Route`]).
    RouteParams,
}

impl Field {
    /// Every attribute of the URL API, in the order of the Standard's IDL.
    pub const URL_API: [Field; 11] = [
        Field::Href,
        Field::Origin,
        Field::Protocol,
        Field::Username,
        Field::Password,
        Field::Host,
        Field::Hostname,
        Field::Port,
        Field::Pathname,
        Field::Search,
        Field::Hash,
    ];

    /// The fields written when none are asked for: the URL API's attributes without the
    /// derived `origin` and `host`.
    pub const DEFAULT: [Field; 9] = [
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

    /// The host analytics, after the URL API's attributes (`param:NAME` aside).
    pub const HOST_ANALYTICS: [Field; 3] = [
        Field::PublicSuffix,
        Field::RegistrableDomain,
        Field::Subdomain,
    ];

    /// Rendering and validation, after the host analytics.
    pub const VALIDATION: [Field; 3] = [Field::Display, Field::Valid, Field::ValidationErrors];

    /// The canonical keys ([`crate::canon`]), after rendering and validation.
    pub const CANONICAL: [Field; 2] = [Field::Surt, Field::Canonical];
    /// The route table's fields, after rendering and validation.
    pub const ROUTE: [Field; 2] = [Field::Route, Field::RouteParams];

    /// The prefix of `param:NAME`.
    pub const PARAM_PREFIX: &'static str = "param:";

    /// The field's name, e.g. `"hostname"`, `"param:utm_source"`: the column name, the
    /// JSON key, and what [`FromStr`] accepts.
    pub fn name(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            Field::PublicSuffix => "public_suffix",
            Field::RegistrableDomain => "registrable_domain",
            Field::Subdomain => "subdomain",
            Field::Display => "display",
            Field::Valid => "valid",
            Field::ValidationErrors => "validation_errors",
            Field::Surt => "surt",
            Field::Canonical => "canonical",
            Field::Route => "route",
            Field::RouteParams => "route_params",
            Field::Param(name) => return Cow::Owned(format!("{}{name}", Field::PARAM_PREFIX)),
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
        })
    }

    /// Whether the value is always a slice of the URL's serialization (`href`), so that
    /// a front end that found `href` free of characters it must escape can copy the value
    /// as it is. `origin` is not: a `blob:` URL's origin is that of the URL in its path.
    /// `param:NAME` is not either: its value is decoded.
    pub fn is_slice_of_href(&self) -> bool {
        !matches!(
            self,
            Field::Origin
                | Field::Param(_)
                | Field::Display
                | Field::Valid
                | Field::ValidationErrors
                | Field::Surt
                | Field::Canonical
                | Field::Route
                | Field::RouteParams
        )
    }

    /// Where this field's value lies in `url.href()`, for the URL API's own string
    /// attributes (`href`, `protocol`, `username`, `password`, `host`, `hostname`,
    /// `port`, `pathname`, `search`, `hash`): the same bytes as [`Field::value`] gives,
    /// as offsets, without slicing (an empty value may be given as `0..0`). `None` for
    /// the other fields. For front ends that copy values out of the input themselves.
    ///
    /// ```
    /// use rapidurl::field::Field;
    /// let arena = rapidurl::bumpalo::Bump::new();
    /// let url = rapidurl::parse_ref("https://example.com:8080/a?q#f", &arena).unwrap();
    /// let range = Field::Hostname.href_range(&url).unwrap();
    /// assert_eq!(&url.href()[range], "example.com");
    /// assert_eq!(Field::RegistrableDomain.href_range(&url), None);
    /// ```
    ///
    /// `origin` has a range too when its value is a slice of `href`: for an http(s), ws(s)
    /// or ftp URL without credentials, `scheme://host[:port]` is where `href` begins.
    ///
    /// ```
    /// use rapidurl::field::Field;
    /// let arena = rapidurl::bumpalo::Bump::new();
    /// let url = rapidurl::parse_ref("https://example.com:8080/a", &arena).unwrap();
    /// assert_eq!(&url.href()[Field::Origin.href_range(&url).unwrap()], "https://example.com:8080");
    /// let url = rapidurl::parse_ref("https://user@example.com/a", &arena).unwrap();
    /// assert_eq!(Field::Origin.href_range(&url), None);
    /// ```
    #[inline(always)]
    pub fn href_range(&self, url: &UrlRef<'_>) -> Option<std::ops::Range<usize>> {
        let (c, s) = (url.components(), url.href());
        Some(match self {
            Field::Href => 0..s.len(),
            Field::Origin => origin_range(c)?,
            Field::Protocol => c.protocol_range(),
            Field::Username => c.username_range(),
            Field::Password => c.password_range(s),
            Field::Host => c.host_range(),
            Field::Hostname => c.hostname_range(),
            Field::Port => c.port_range(),
            Field::Pathname => c.pathname_range(s),
            Field::Search => c.search_range(s),
            Field::Hash => c.hash_range(s),
            _ => return None,
        })
    }

    /// This field of `url`, as [`Field::value_with`] gives it, without allocating where it
    /// can be helped: a value that is a slice of `href` (see [`Field::href_range`], which
    /// covers `origin` for an http(s), ws(s) or ftp URL without credentials) or a constant
    /// (`null`, `true`, `false`) is returned as it is, and any other is written into `buf`
    /// (cleared first) and returned from there, so that a caller that reuses `buf` for
    /// every row allocates nothing per value. `None` where the value is absent.
    ///
    /// ```
    /// use rapidurl::field::{Field, FieldContext};
    /// let arena = rapidurl::bumpalo::Bump::new();
    /// let cx = FieldContext::new();
    /// let mut buf = String::new();
    /// let url = rapidurl::parse_ref("https://u:p@example.com/a", &arena).unwrap();
    /// assert_eq!(Field::Origin.value_into(&url, &cx, &mut buf), Some("https://example.com"));
    /// let url = rapidurl::parse_ref("file:///x", &arena).unwrap();
    /// assert_eq!(Field::Origin.value_into(&url, &cx, &mut buf), Some("null"));
    /// ```
    #[inline]
    pub fn value_into<'b>(
        &self,
        url: &'b UrlRef<'_>,
        cx: &FieldContext<'_>,
        buf: &'b mut String,
    ) -> Option<&'b str> {
        if let Some(range) = self.href_range(url) {
            return Some(&url.href()[range]);
        }
        match self {
            Field::Origin => Some(origin_into(url, buf)),
            Field::Surt => {
                buf.clear();
                crate::canon::surt_into(url, &crate::canon::SurtOptions::default(), buf);
                Some(buf.as_str())
            }
            _ => {
                let value = self.value_with(url, cx)?;
                Some(match value {
                    Cow::Borrowed(v) => v,
                    Cow::Owned(v) => {
                        *buf = v;
                        buf.as_str()
                    }
                })
            }
        }
    }

    /// Whether the value is one of the input text rather than of the parsed URL (`valid`,
    /// `validation_errors`): give the input through [`FieldContext::input`].
    pub fn needs_input(&self) -> bool {
        matches!(self, Field::Valid | Field::ValidationErrors)
    }

    /// Whether the value comes from a route table (`route`, `route_params`): give it
    /// through [`FieldContext::routes`].
    pub fn needs_routes(&self) -> bool {
        matches!(self, Field::Route | Field::RouteParams)
    }

    /// This field of `url`, with the built-in Public Suffix List; `None` where the value
    /// is absent.
    pub fn value<'a>(&self, url: &UrlRef<'a>) -> Option<Cow<'a, str>> {
        self.value_with(url, &FieldContext::new())
    }

    /// This field of `url`, with the list and sections of `cx` for the host analytics.
    pub fn value_with<'a>(&self, url: &UrlRef<'a>, cx: &FieldContext<'_>) -> Option<Cow<'a, str>> {
        let suffix = |part| {
            url.suffix_part(cx.list, cx.sections, part)
                .map(Cow::Borrowed)
        };
        Some(match self {
            Field::PublicSuffix => suffix(SuffixPart::PublicSuffix)?,
            Field::RegistrableDomain => suffix(SuffixPart::RegistrableDomain)?,
            Field::Subdomain => suffix(SuffixPart::Subdomain)?,
            Field::Param(name) => url.query_param(name)?,
            Field::Display => Cow::Owned(crate::render::render(
                url,
                &crate::render::RenderOptions::default(),
            )),
            Field::Valid => Cow::Borrowed(if crate::is_valid_url_string(cx.input?) {
                "true"
            } else {
                "false"
            }),
            Field::ValidationErrors => {
                let (_, errors) = match cx.base {
                    Some(base) => crate::parse_with_validation_errors_with_base(cx.input?, base),
                    None => crate::parse_with_validation_errors(cx.input?),
                };
                let names: Vec<&str> = errors.iter().map(|e| e.name()).collect();
                Cow::Owned(names.join(" "))
            }
            Field::Surt => Cow::Owned(crate::canon::surt(url)),
            Field::Canonical => crate::canon::dedup_borrowed(url),
            Field::Route => {
                let set = cx.routes?;
                let index = match cx.answer {
                    Some(answer) => answer.index().ok()?,
                    None => set.first(url).ok()?,
                };
                Cow::Owned(index.map_or_else(String::new, |i| set.name(i).to_owned()))
            }
            Field::RouteParams => Cow::Owned(match cx.answer {
                Some(RouteAnswer::Match(found)) => route_params(&found.result),
                Some(RouteAnswer::NoRoute | RouteAnswer::Limit(_)) => return None,
                Some(RouteAnswer::Route(_)) | None => {
                    route_params(&cx.routes?.first_match(url).ok()??.result)
                }
            }),
            Field::Href => Cow::Borrowed(url.href()),
            Field::Origin => match origin_range(url.components()) {
                Some(range) => Cow::Borrowed(&url.href()[range]),
                None => {
                    let mut buf = String::new();
                    match origin_into(url, &mut buf) {
                        "null" => Cow::Borrowed("null"),
                        _ => Cow::Owned(buf),
                    }
                }
            },
            Field::Protocol => Cow::Borrowed(url.protocol()),
            Field::Username => Cow::Borrowed(url.username()),
            Field::Password => Cow::Borrowed(url.password()),
            Field::Host => Cow::Borrowed(url.host()),
            Field::Hostname => Cow::Borrowed(url.hostname()),
            Field::Port => Cow::Borrowed(url.port()),
            Field::Pathname => Cow::Borrowed(url.pathname()),
            Field::Search => Cow::Borrowed(url.search()),
            Field::Hash => Cow::Borrowed(url.hash()),
        })
    }
}

/// Where the origin lies in `href` when it is a slice of it: a tuple origin (http(s),
/// ws(s), ftp) of a URL without credentials is `scheme://host[:port]`, which `href` begins
/// with (the port is absent when it is the scheme's default, in both).
#[inline(always)]
fn origin_range(c: &crate::Components) -> Option<std::ops::Range<usize>> {
    use crate::components::SchemeKind;
    match c.scheme_kind() {
        SchemeKind::Http
        | SchemeKind::Https
        | SchemeKind::Ws
        | SchemeKind::Wss
        | SchemeKind::Ftp
            if !c.has_credentials() =>
        {
            Some(0..c.authority_end())
        }
        _ => None,
    }
}

/// The origin of `url` (`url.origin()`): `"null"` as a constant, any other written into
/// `buf` (cleared first).
#[cold]
fn origin_into<'b>(url: &UrlRef<'_>, buf: &'b mut String) -> &'b str {
    let origin = url.to_origin();
    if origin.is_opaque() {
        return "null";
    }
    buf.clear();
    use std::fmt::Write as _;
    let _ = write!(buf, "{origin}");
    buf.as_str()
}

/// The error name of a row whose route fields could not be computed because the route
/// table's lookup ran out of steps ([`FieldContext::route_error`]): the `error` of the
/// tool's rows and of Python's columns.
pub const ROUTE_MATCH_LIMIT: &str = "route-match-limit";

/// The groups of a route's match as a JSON object (see [`Field::RouteParams`]).
fn route_params(result: &crate::pattern::UrlPatternResult) -> String {
    let mut out = String::from("{");
    let json = |s: &str, out: &mut String| {
        out.push('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
    };
    for (component, r) in result.components() {
        for (name, value) in &r.groups {
            let Some(value) = value else { continue };
            if name == "0" && r.groups.len() == 1 && value == &r.input {
                // A component that is `*` alone (or a lone wildcard) says nothing.
                continue;
            }
            if out.len() > 1 {
                out.push(',');
            }
            if name.starts_with(|c: char| c.is_ascii_digit()) {
                json(&format!("{component}.{name}"), &mut out);
            } else {
                json(name, &mut out);
            }
            out.push(':');
            json(value, &mut out);
        }
    }
    out.push('}');
    out
}

/// What the host analytics fields are computed against: a Public Suffix List (the
/// built-in one by default) and its sections (both by default, as §3.2 says); and, for
/// the fields of the input text (`valid`, `validation_errors`), the input the URL was
/// parsed from and the base it was parsed against ([`FieldContext::base`]); for `route`
/// and `route_params`, a route table.
///
/// ```
/// use rapidurl::field::{Field, FieldContext};
///
/// let arena = rapidurl::bumpalo::Bump::new();
/// let input = "https://user@example.com/a b";
/// let url = rapidurl::parse_ref(input, &arena).unwrap();
/// let cx = FieldContext::new().input(input);
/// let errors = Field::ValidationErrors.value_with(&url, &cx);
/// assert_eq!(errors.as_deref(), Some("invalid-credentials invalid-URL-unit"));
/// assert_eq!(Field::Valid.value_with(&url, &cx).as_deref(), Some("false"));
/// assert_eq!(Field::Valid.value(&url), None); // no input given
/// assert_eq!(Field::Display.value(&url).as_deref(), Some("https://example.com/a%20b"));
///
/// // Against a base: the errors of that parse (`\` for `/`), while `valid` judges the
/// // input alone.
/// let base = rapidurl::Url::parse("https://example.com/a/").unwrap();
/// let url = rapidurl::parse_ref_with_base("b\\c", &base, &arena).unwrap();
/// let cx = FieldContext::new().input("b\\c").base(Some((&base).into()));
/// let errors = Field::ValidationErrors.value_with(&url, &cx);
/// assert_eq!(errors.as_deref(), Some("invalid-reverse-solidus"));
/// assert_eq!(Field::Valid.value_with(&url, &cx).as_deref(), Some("false"));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FieldContext<'l> {
    list: &'l SuffixList,
    sections: Sections,
    input: Option<&'l str>,
    base: Option<crate::Base<'l>>,
    routes: Option<&'l crate::pattern::PatternSet>,
    answer: Option<&'l RouteAnswer<'l>>,
}

/// The route table's answer for one URL ([`FieldContext::look_up_route`]), looked up once
/// and then shared by the row's `route` and `route_params` fields and its error check
/// ([`FieldContext::answered`]).
// One answer lives for one row, on the stack, and is never kept in a collection: a box
// around the match would only add an allocation per row.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum RouteAnswer<'s> {
    /// The lookup ran out of steps
    /// ([`PatternErrorKind::MatchLimit`](crate::pattern::PatternErrorKind::MatchLimit)).
    Limit(crate::pattern::PatternError),
    /// No pattern of the table matches.
    NoRoute,
    /// The position of the first pattern that matches, its groups not computed.
    Route(usize),
    /// The first pattern that matches, with its groups.
    Match(crate::pattern::SetMatch<'s>),
}

impl RouteAnswer<'_> {
    /// The position of the first pattern that matches (`None` when none does), or the
    /// error that ended the lookup.
    pub fn index(&self) -> Result<Option<usize>, &crate::pattern::PatternError> {
        match self {
            RouteAnswer::Limit(e) => Err(e),
            RouteAnswer::NoRoute => Ok(None),
            RouteAnswer::Route(i) => Ok(Some(*i)),
            RouteAnswer::Match(found) => Ok(Some(found.index)),
        }
    }
}

impl Default for FieldContext<'_> {
    fn default() -> Self {
        FieldContext::new()
    }
}

impl<'l> FieldContext<'l> {
    /// The built-in list, both sections.
    pub fn new() -> FieldContext<'static> {
        FieldContext {
            list: SuffixList::builtin(),
            sections: Sections::All,
            input: None,
            base: None,
            routes: None,
            answer: None,
        }
    }

    /// Uses `list` (e.g. one read by [`SuffixList::from_file`]).
    pub fn suffix_list<'m>(self, list: &'m SuffixList) -> FieldContext<'m>
    where
        'l: 'm,
    {
        let this: FieldContext<'m> = self;
        FieldContext { list, ..this }
    }

    /// The input text the URL was parsed from, for `valid` and `validation_errors`.
    pub fn input<'m>(self, input: &'m str) -> FieldContext<'m>
    where
        'l: 'm,
    {
        let this: FieldContext<'m> = self;
        FieldContext {
            input: Some(input),
            ..this
        }
    }

    /// The base URL the input was parsed against (`None`: none), for
    /// `validation_errors`, which then lists the errors of that parse.
    pub fn base<'m>(self, base: Option<crate::Base<'m>>) -> FieldContext<'m>
    where
        'l: 'm,
    {
        let this: FieldContext<'m> = self;
        FieldContext { base, ..this }
    }

    /// The route table for `route` and `route_params`.
    pub fn routes<'m>(self, routes: &'m crate::pattern::PatternSet) -> FieldContext<'m>
    where
        'l: 'm,
    {
        let this: FieldContext<'m> = self;
        FieldContext {
            routes: Some(routes),
            answer: None,
            ..this
        }
    }

    /// The route table's answer for `url`, looked up once for all of a row's route
    /// fields. `params`: whether `route_params` is wanted, which needs the groups of the
    /// pattern that matches (`route` alone does not). The groups are computed anyway when
    /// a pattern of the table has a backreference or a lookaround, since computing them
    /// may run out of steps too: the answer is then [`RouteAnswer::Limit`] whenever
    /// `route_params` would be absent for that reason. `None` when there is no route
    /// table.
    ///
    /// ```
    /// use rapidurl::field::{Field, FieldContext, RouteAnswer};
    /// use rapidurl::pattern::PatternSet;
    ///
    /// let mut set = PatternSet::new();
    /// set.add(Some("user"), "https://example.com/users/:id").unwrap();
    /// let cx = FieldContext::new().routes(&set);
    /// let arena = rapidurl::bumpalo::Bump::new();
    /// let url = rapidurl::parse_ref("https://example.com/users/42", &arena).unwrap();
    /// let answer = cx.look_up_route(&url, true).unwrap();
    /// assert!(matches!(answer, RouteAnswer::Match(_)));
    /// let cx = cx.answered(Some(&answer));
    /// assert_eq!(Field::Route.value_with(&url, &cx).as_deref(), Some("user"));
    /// assert_eq!(Field::RouteParams.value_with(&url, &cx).as_deref(), Some(r#"{"id":"42"}"#));
    /// ```
    pub fn look_up_route(&self, url: &UrlRef<'_>, params: bool) -> Option<RouteAnswer<'l>> {
        let set = self.routes?;
        let answer = if params || set.may_hit_match_limit() {
            set.first_match(url).map(|m| m.map(RouteAnswer::Match))
        } else {
            set.first(url).map(|i| i.map(RouteAnswer::Route))
        };
        Some(match answer {
            Ok(Some(answer)) => answer,
            Ok(None) => RouteAnswer::NoRoute,
            Err(e) => RouteAnswer::Limit(e),
        })
    }

    /// This context, with the route table's answer for the URL whose fields it serves
    /// ([`FieldContext::look_up_route`]): `route`, `route_params` and
    /// [`FieldContext::route_error`] read it instead of looking the URL up again. It
    /// must be the answer for that URL. With `None`, they look the URL up themselves.
    pub fn answered<'m>(self, answer: Option<&'m RouteAnswer<'m>>) -> FieldContext<'m>
    where
        'l: 'm,
    {
        let this: FieldContext<'m> = self;
        FieldContext { answer, ..this }
    }

    /// Uses these sections of the list.
    pub fn sections(self, sections: Sections) -> Self {
        FieldContext { sections, ..self }
    }

    /// Why the route fields of `url` are absent, when it is because the route table's
    /// lookup ran out of steps on it
    /// ([`PatternErrorKind::MatchLimit`](crate::pattern::PatternErrorKind::MatchLimit): a
    /// pattern with a backreference or a lookaround). `None` at once (no lookup) when
    /// there is no route table or none of its patterns can run out of steps.
    ///
    /// ```
    /// use rapidurl::field::FieldContext;
    /// use rapidurl::pattern::PatternSet;
    ///
    /// let mut set = PatternSet::new();
    /// set.add_route(Some("look"), r"/:a((?=(?:a|a)*b)\w*)", None).unwrap();
    /// let cx = FieldContext::new().routes(&set);
    /// let arena = rapidurl::bumpalo::Bump::new();
    /// let url = rapidurl::parse_ref("https://h.test/aab", &arena).unwrap();
    /// assert!(cx.route_error(&url).is_none());
    /// let stall = format!("https://h.test/{}", "a".repeat(40));
    /// let url = rapidurl::parse_ref(&stall, &arena).unwrap();
    /// assert!(cx.route_error(&url).is_some());
    /// ```
    pub fn route_error(&self, url: &UrlRef<'_>) -> Option<crate::pattern::PatternError> {
        if let Some(answer) = self.answer {
            return answer.index().err().cloned();
        }
        let set = self.routes.filter(|s| s.may_hit_match_limit())?;
        set.first_match(url).err()
    }

    /// The list.
    pub fn list(&self) -> &'l SuffixList {
        self.list
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl FromStr for Field {
    type Err = UnknownField;

    /// A field by its name (see [`Field::name`]), case-sensitive as the URL API's names;
    /// `param:NAME` takes any NAME, even empty.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        if let Some(param) = name.strip_prefix(Field::PARAM_PREFIX) {
            return Ok(Field::Param(param.to_owned()));
        }
        Field::URL_API
            .into_iter()
            .chain(Field::HOST_ANALYTICS)
            .chain(Field::VALIDATION)
            .chain(Field::CANONICAL)
            .chain(Field::ROUTE)
            .find(|f| f.name() == name)
            .ok_or_else(|| UnknownField(name.to_owned()))
    }
}

/// A field name that [`Field`] does not know; its message lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownField(pub String);

impl fmt::Display for UnknownField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown field {:?}; the fields are", self.0)?;
        for (i, field) in Field::URL_API
            .iter()
            .chain(&Field::HOST_ANALYTICS)
            .chain(&Field::VALIDATION)
            .chain(&Field::CANONICAL)
            .chain(&Field::ROUTE)
            .enumerate()
        {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{field}")?;
        }
        write!(f, ", {}NAME", Field::PARAM_PREFIX)
    }
}

impl std::error::Error for UnknownField {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for field in Field::URL_API {
            assert_eq!(field.name().parse::<Field>(), Ok(field.clone()));
        }
        assert_eq!(
            "Href".parse::<Field>().unwrap_err().to_string(),
            "unknown field \"Href\"; the fields are href, origin, protocol, username, \
             password, host, hostname, port, pathname, search, hash, public_suffix, \
             registrable_domain, subdomain, display, valid, validation_errors, surt, canonical, \
             route, route_params, param:NAME"
        );
        for field in Field::VALIDATION {
            assert_eq!(field.name().parse::<Field>(), Ok(field.clone()));
        }
        for field in Field::HOST_ANALYTICS {
            assert_eq!(field.name().parse::<Field>(), Ok(field.clone()));
        }
        for field in Field::CANONICAL {
            assert_eq!(field.name().parse::<Field>(), Ok(field.clone()));
        }
        let param: Field = "param:utm_source".parse().unwrap();
        assert_eq!(param, Field::Param("utm_source".into()));
        assert_eq!(param.to_string(), "param:utm_source");
    }

    #[test]
    fn host_analytics_and_params() {
        let arena = bumpalo::Bump::new();
        let values = |input: &str| -> Vec<Option<String>> {
            let url = crate::parse_ref(input, &arena).unwrap();
            let fields = [
                "public_suffix",
                "registrable_domain",
                "subdomain",
                "param:a",
                "param:",
            ];
            fields
                .iter()
                .map(|f| {
                    f.parse::<Field>()
                        .unwrap()
                        .value(&url)
                        .map(|v| v.into_owned())
                })
                .collect()
        };
        let s = |v: &str| Some(v.to_owned());
        assert_eq!(
            values("https://a.b.example.com/?a=%41+b&=e&a=2"),
            [s("com"), s("example.com"), s("a.b"), s("A b"), s("e")]
        );
        assert_eq!(
            values("https://example.com/?b"),
            [s("com"), s("example.com"), s(""), None, None]
        );
        assert_eq!(values("https://com/"), [s("com"), None, None, None, None]);
        assert_eq!(values("http://[::1]/?a"), [None, None, None, s(""), None]);
        assert_eq!(values("http://10.0.0.1/"), [None, None, None, None, None]);
        assert_eq!(
            values("sc://opaque.example.com/"),
            [None, None, None, None, None]
        );
        assert_eq!(values("file:///x"), [None, None, None, None, None]);
    }

    #[test]
    fn canonical_keys() {
        let arena = bumpalo::Bump::new();
        let url =
            crate::parse_ref("HTTP://www.Example.com/A/?b=1&a=2&utm_source=m#f", &arena).unwrap();
        let value = |f: Field| f.value(&url).map(|v| v.into_owned());
        assert_eq!(
            value(Field::Surt).as_deref(),
            Some("com,example)/a?a=2&b=1&utm_source=m")
        );
        assert_eq!(
            value(Field::Canonical).as_deref(),
            Some("http://www.example.com/A/?a=2&b=1")
        );
    }

    #[test]
    fn route_fields() {
        let mut set = crate::pattern::PatternSet::new();
        set.add(Some("user"), "https://example.com/users/:id/*")
            .unwrap();
        set.add(None, "https://*.example.com/:file.js").unwrap();
        let cx = FieldContext::new().routes(&set);
        let arena = bumpalo::Bump::new();
        let values = |input: &str| {
            let url = crate::parse_ref(input, &arena).unwrap();
            let v = |f: &Field| f.value_with(&url, &cx).map(|v| v.into_owned());
            (v(&Field::Route), v(&Field::RouteParams))
        };
        let s = |v: &str| Some(v.to_owned());
        assert_eq!(
            values("https://example.com/users/42/a/\"b"),
            (s("user"), s(r#"{"id":"42","pathname.0":"a/%22b"}"#))
        );
        assert_eq!(
            values("https://cdn.example.com/app.js"),
            (
                s("https://*.example.com/:file.js"),
                s(r#"{"hostname.0":"cdn","file":"app"}"#)
            )
        );
        assert_eq!(values("https://example.com/"), (s(""), None));
        let url = crate::parse_ref("https://example.com/", &arena).unwrap();
        assert_eq!(Field::Route.value(&url), None);
        assert_eq!("route_params".parse::<Field>(), Ok(Field::RouteParams));
    }

    #[test]
    fn a_route_answer_is_read_not_looked_up_again() {
        let mut set = crate::pattern::PatternSet::new();
        set.add(Some("user"), "https://example.com/users/:id")
            .unwrap();
        set.add(Some("any"), "https://example.com/*").unwrap();
        let cx = FieldContext::new().routes(&set);
        let arena = bumpalo::Bump::new();
        let url = crate::parse_ref("https://example.com/users/42", &arena).unwrap();
        let v = |cx: &FieldContext<'_>, f: Field| f.value_with(&url, cx).map(|v| v.into_owned());
        // The answer looked up, with the groups or without: the values of no answer.
        for params in [false, true] {
            let answer = cx.look_up_route(&url, params).unwrap();
            assert_eq!(answer.index(), Ok(Some(0)));
            let answered = cx.answered(Some(&answer));
            for f in [Field::Route, Field::RouteParams] {
                assert_eq!(v(&answered, f.clone()), v(&cx, f), "{params}");
            }
            assert!(answered.route_error(&url).is_none());
        }
        // An answer given is what the fields say: no second lookup.
        let other = RouteAnswer::Route(1);
        let answered = cx.answered(Some(&other));
        assert_eq!(v(&answered, Field::Route).as_deref(), Some("any"));
        let none = RouteAnswer::NoRoute;
        let answered = cx.answered(Some(&none));
        assert_eq!(v(&answered, Field::Route).as_deref(), Some(""));
        assert_eq!(v(&answered, Field::RouteParams), None);
        // A lookup that ran out of steps: no route fields, and the error told.
        let mut look = crate::pattern::PatternSet::new();
        look.add_route(Some("look"), r"/:a((?=(?:a|a)*b)\w*)", None)
            .unwrap();
        let cx = FieldContext::new().routes(&look);
        let stall = format!("https://h.test/{}", "a".repeat(40));
        let url = crate::parse_ref(&stall, &arena).unwrap();
        for params in [false, true] {
            let answer = cx.look_up_route(&url, params).unwrap();
            assert!(matches!(answer, RouteAnswer::Limit(_)), "{answer:?}");
            let answered = cx.answered(Some(&answer));
            assert_eq!(Field::Route.value_with(&url, &answered), None);
            assert_eq!(Field::RouteParams.value_with(&url, &answered), None);
            assert!(answered.route_error(&url).is_some());
        }
        assert!(FieldContext::new().look_up_route(&url, true).is_none());
    }

    #[test]
    fn values_are_the_getters() {
        let arena = bumpalo::Bump::new();
        let url = crate::parse_ref("blob:https://a.example:1/x?y#z", &arena).unwrap();
        let got: Vec<String> = Field::URL_API
            .iter()
            .map(|f| f.value(&url).unwrap().into_owned())
            .collect();
        assert_eq!(
            got,
            [
                "blob:https://a.example:1/x?y#z",
                "https://a.example:1",
                "blob:",
                "",
                "",
                "",
                "",
                "",
                "https://a.example:1/x",
                "?y",
                "#z"
            ]
        );
    }
}
