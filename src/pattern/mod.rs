//! URL patterns: the [URL Pattern Standard](https://urlpattern.spec.whatwg.org/)'s
//! matcher ([`UrlPattern`]), and many patterns matched at once ([`PatternSet`]).
//!
//! A pattern such as `https://*.example.com/users/:id(\\d+)/*` is eight component
//! patterns (protocol … hash), each normalized as the Standard says. A URL matches when
//! every component matches; [`UrlPattern::exec`] also returns each component's input and
//! groups.
//!
//! ```
//! use rapidurl::pattern::UrlPattern;
//!
//! let p = UrlPattern::parse("https://*.example.com/users/:id(\\d+)/*", None).unwrap();
//! assert_eq!(p.hostname(), "*.example.com");
//! let m = p.exec_str("https://api.example.com/users/42/posts", None).unwrap().unwrap();
//! assert_eq!(m.pathname.get("id"), Some("42"));
//! assert_eq!(m.pathname.get("0"), Some("posts"));
//! assert!(!p.test_str("https://api.example.com/users/bob/posts", None).unwrap());
//!
//! let err = UrlPattern::parse("https://example.com/:id/:id", None).unwrap_err();
//! assert_eq!(err.to_string(), "duplicate group name `id` (in the pathname pattern, at code point 5)");
//! ```
//!
//! ## Matching engines and time limits
//!
//! A component without regexp groups (`:name`, `*`, fixed text, `{…}` with modifiers:
//! most routes) is matched by this module's own Pike VM, which follows the Standard's
//! regular expression instruction by instruction without backtracking: `test` takes
//! time O(n × m) for an input of n code points and a program of m instructions (about
//! the component pattern's length), `exec` O(n × m × g) with g groups (each thread
//! carries its captures); memory O(m × g).
//!
//! A component with regexp groups (`:id(\d+)`) is checked by the `regress` crate (the
//! Standard's syntax errors, flags `v`, or `vi` with `ignore_case`) and then compiled by
//! this module's own regexp engine, which follows ECMAScript's semantics (leftmost-first
//! priority, greedy and lazy quantifiers, no empty iteration past a quantifier's minimum,
//! `\d \w \s . \b` as ECMAScript defines them, class set operations and `\q{…}`,
//! `\p{…}`, simple case folding under `vi`, where `\w` and `\b` include U+017F and
//! U+212A):
//!
//! - without a backreference or a lookaround, it runs in linear time: the same bounds as
//!   above, O(n × m) for `test` and O(n × m × g) for `exec`, with m the instructions of the
//!   compiled regexp. `test` runs a bit-parallel NFA on programs of at most 64
//!   instructions (else a Pike VM); `exec` runs a backtracking interpreter that visits
//!   each (instruction, position) pair at most once when the regexp has no quantifier
//!   whose body can match the empty string and n × m is at most 2¹⁸ (the common route
//!   regexps on ordinary paths: `\d+`, `[^\/]+`, `.*`), else the Pike VM; all three give
//!   the match a backtracking ECMAScript engine finds. `benches/pattern_adversarial.rs`
//!   times nested quantifiers, stacked `.*`, alternations of equal branches and counted
//!   repetitions on pathnames of up to a mebibyte (docs/robustness.md has the table);
//!   `tests/limits.rs` runs them.
//! - with a backreference or a lookaround (which no linear-time engine runs), it runs on
//!   a backtracking interpreter that gives up after [`MAX_BACKTRACK_STEPS`] steps per
//!   component match: [`UrlPattern::test`] and [`UrlPattern::exec`] then return
//!   [`PatternErrorKind::MatchLimit`], never a silent "no match"; so do
//!   [`PatternSet`]'s lookups for a URL on which a pattern they try gives up.
//!   [`UrlPattern::may_hit_match_limit`] tells such patterns apart.
//!
//! A regexp group's program has at most [`MAX_REGEXP_PROGRAM_SIZE`] instructions
//! (counted repetitions are unrolled: `(?:a{1000}){1000}` would be a million); a larger
//! one fails at construction with [`PatternErrorKind::RegExpTooLarge`]. Properties of
//! strings (`\p{RGI_Emoji}`) and regexp modifiers (`(?i:…)`) are refused at construction
//! as unsupported. Patterns are compiled once: construction is linear in the pattern's
//! length, plus the regexp groups' compilation (bounded by the program size). A pattern
//! with `ignore_case` also compiles, once, the regexp it uses for non-ASCII inputs.
//!
//! A [`PatternSet`] matches a URL in time linear in the URL's length for its index
//! lookups (the hostname's `.suffix` lookups look only at as many of its last bytes as
//! the table's longest `*.suffix` has, however many labels it has), plus the above for
//! each pattern the index finds. `tests/limits.rs` (release build) runs hostile patterns
//! without regexp groups and inputs of a mebibyte to completion.

mod bitnfa;
mod canon;
mod constructor;
mod error;
mod init;
mod limits;
mod matcher;
mod parts;
mod regexp;
mod roundtrip;
mod set;
mod tokenizer;

pub use error::{PatternError, PatternErrorKind};
pub use init::COMPONENT_NAMES;
pub use set::{PatternSet, SetMatch};

use crate::{Url, UrlRef};
use init::{HASH, HOSTNAME, Init, Kind, PASSWORD, PATHNAME, PORT, PROTOCOL, SEARCH, USERNAME};
pub use limits::{MAX_BACKTRACK_STEPS, MAX_PROGRAM_SIZE as MAX_REGEXP_PROGRAM_SIZE};
use matcher::Program;
use parts::{Options, Part, PartType};
use regexp::Regexp;

/// The components of a pattern or of a URL as a dictionary (the Standard's
/// `URLPatternInit`): each may be given or not, and a base URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlPatternInit {
    /// `protocol` (a trailing `:` is taken off).
    pub protocol: Option<String>,
    /// `username`.
    pub username: Option<String>,
    /// `password`.
    pub password: Option<String>,
    /// `hostname`.
    pub hostname: Option<String>,
    /// `port`.
    pub port: Option<String>,
    /// `pathname`.
    pub pathname: Option<String>,
    /// `search` (a leading `?` is taken off).
    pub search: Option<String>,
    /// `hash` (a leading `#` is taken off).
    pub hash: Option<String>,
    /// `baseURL`: fills in the components not given.
    pub base_url: Option<String>,
}

impl UrlPatternInit {
    fn to_init(&self) -> Init {
        Init {
            comps: [
                self.protocol.clone(),
                self.username.clone(),
                self.password.clone(),
                self.hostname.clone(),
                self.port.clone(),
                self.pathname.clone(),
                self.search.clone(),
                self.hash.clone(),
            ],
            base_url: self.base_url.clone(),
        }
    }

    /// The component named `name` (`"protocol"` … `"hash"`, or `"baseURL"`), mutable.
    pub fn field_mut(&mut self, name: &str) -> Option<&mut Option<String>> {
        Some(match name {
            "protocol" => &mut self.protocol,
            "username" => &mut self.username,
            "password" => &mut self.password,
            "hostname" => &mut self.hostname,
            "port" => &mut self.port,
            "pathname" => &mut self.pathname,
            "search" => &mut self.search,
            "hash" => &mut self.hash,
            "baseURL" => &mut self.base_url,
            _ => return None,
        })
    }
}

/// What a pattern is made from, or what is matched: a string or a dictionary.
#[derive(Clone, Copy, Debug)]
pub enum UrlPatternInput<'a> {
    /// A constructor string (for a pattern) or a URL string (to match).
    String(&'a str),
    /// A dictionary of components.
    Init(&'a UrlPatternInit),
}

impl<'a> From<&'a str> for UrlPatternInput<'a> {
    fn from(s: &'a str) -> Self {
        UrlPatternInput::String(s)
    }
}

impl<'a> From<&'a UrlPatternInit> for UrlPatternInput<'a> {
    fn from(i: &'a UrlPatternInit) -> Self {
        UrlPatternInput::Init(i)
    }
}

/// Options of a pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UrlPatternOptions {
    /// Match the pathname, search and hash ignoring case (`ignoreCase`).
    pub ignore_case: bool,
}

/// How one component is matched.
#[derive(Debug)]
enum Engine {
    /// No regexp groups: the part list's own VM; with `ignore_case`, the regexp too, for
    /// inputs that are not ASCII (the VM folds ASCII case only).
    Vm(Program, Option<Regexp>),
    Regex(Regexp),
}

/// A compiled regexp, or the error the pattern reports.
fn compile_regexp(source: &str, ignore_case: bool) -> Result<Regexp, PatternError> {
    Regexp::new(source, ignore_case).map_err(|e| {
        PatternError::new(match e {
            regexp::CompileError::Syntax(m) => PatternErrorKind::InvalidRegExp(m),
            regexp::CompileError::Unsupported(what) => PatternErrorKind::InvalidRegExp(format!(
                "{what} is not supported by this implementation"
            )),
            regexp::CompileError::TooLarge => PatternErrorKind::RegExpTooLarge,
        })
    })
}

/// A syntax error with how to fix it, when a regexp group's class holds a character the
/// `v` flag wants escaped (`[^/]`: write `[^\/]`).
fn with_escape_hint(e: PatternError, parts: &[Part]) -> PatternError {
    let PatternErrorKind::InvalidRegExp(msg) = e.kind() else {
        return e;
    };
    let hint = parts
        .iter()
        .filter(|p| p.ty == PartType::Regexp)
        .find_map(|p| regexp::class_escape_hint(&p.value).map(|h| (p, h)));
    match hint {
        Some((part, (c, fixed))) => PatternError::new(PatternErrorKind::InvalidRegExp(format!(
            "{msg}: under the `v` flag, `{c}` in a class must be escaped \
             (write `({fixed})` for `({})`)",
            part.value
        ))),
        None => e,
    }
}

fn limit(_: regexp::StepLimit) -> PatternError {
    PatternError::new(PatternErrorKind::MatchLimit)
}

/// One compiled component: its normalized pattern string, group names and matcher.
#[derive(Debug)]
pub(crate) struct Component {
    pattern_string: String,
    names: Vec<String>,
    has_regexp_groups: bool,
    regexp_source: String,
    ignore_case: bool,
    engine: Engine,
    parts: Vec<Part>,
    /// The fewest and the most `/` a matching input has (`u64::MAX`: no bound).
    slashes: (u64, u64),
}

impl Component {
    /// Compile a component.
    pub(crate) fn compile(
        input: &str,
        encode: &dyn Fn(&str) -> Result<String, PatternError>,
        options: Options,
        name: &'static str,
    ) -> Result<Component, PatternError> {
        let parts = parts::parse_pattern_string(input, &options, encode)
            .map_err(|e| e.in_component(name))?;
        let (regexp_source, names) = parts::generate_regexp(&parts, &options);
        let has_regexp_groups = parts.iter().any(|p| p.ty == PartType::Regexp);
        let engine = if has_regexp_groups {
            Engine::Regex(
                compile_regexp(&regexp_source, options.ignore_case)
                    .map_err(|e| with_escape_hint(e, &parts).in_component(name))?,
            )
        } else {
            let folded = match options.ignore_case {
                true => {
                    Some(compile_regexp(&regexp_source, true).map_err(|e| e.in_component(name))?)
                }
                false => None,
            };
            Engine::Vm(Program::compile(&parts, &options), folded)
        };
        Ok(Component {
            pattern_string: parts::generate_pattern_string(&parts, &options),
            slashes: parts::slash_bounds(&parts, &options),
            names,
            has_regexp_groups,
            regexp_source,
            ignore_case: options.ignore_case,
            engine,
            parts,
        })
    }

    /// Whether the component matches `input`; an error when a regexp group with a
    /// backreference or a lookaround ran out of steps.
    pub(crate) fn try_is_match(&self, input: &str) -> Result<bool, PatternError> {
        match &self.engine {
            Engine::Vm(_, Some(r)) if !input.is_ascii() => r.is_match(input).map_err(limit),
            Engine::Vm(p, _) => Ok(p.is_match(input)),
            Engine::Regex(r) => r.is_match(input).map_err(limit),
        }
    }

    fn captures(&self, input: &str) -> Result<Option<regexp::Groups>, PatternError> {
        match &self.engine {
            Engine::Vm(_, Some(r)) if !input.is_ascii() => r.captures(input).map_err(limit),
            Engine::Vm(p, _) => Ok(p.captures(input)),
            Engine::Regex(r) => r.captures(input).map_err(limit),
        }
    }

    /// Whether a regexp group of the component runs on the backtracking interpreter
    /// (a backreference or a lookaround).
    pub(crate) fn backtracks(&self) -> bool {
        matches!(&self.engine, Engine::Regex(r) if r.backtracks())
    }

    fn result(&self, input: &str, caps: Vec<Option<(usize, usize)>>) -> ComponentResult {
        let groups = self
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let value = caps
                    .get(i)
                    .copied()
                    .flatten()
                    .map(|(a, b)| input[a..b].to_owned());
                (name.clone(), value)
            })
            .collect();
        ComponentResult {
            input: input.to_owned(),
            groups,
        }
    }

    /// Every text the component matches, when it is fixed text with `?` at most
    /// (`http{s}?`: `http`, `https`), sorted; `None` past 16 texts.
    pub(crate) fn literals(&self) -> Option<Vec<String>> {
        let mut out = vec![String::new()];
        for p in &self.parts {
            if p.ty != PartType::FixedText || self.ignore_case {
                return None;
            }
            match p.modifier {
                parts::Modifier::None => out.iter_mut().for_each(|s| s.push_str(&p.value)),
                parts::Modifier::Optional if out.len() <= 8 => {
                    let with: Vec<String> = out.iter().map(|s| format!("{s}{}", p.value)).collect();
                    out.extend(with);
                }
                _ => return None,
            }
        }
        out.sort_unstable();
        out.dedup();
        Some(out)
    }

    /// Whether every input matches (the component is `*`).
    pub(crate) fn matches_everything(&self) -> bool {
        matches!(&self.engine, Engine::Vm(p, _) if p.matches_everything())
    }

    /// The fewest and the most `/` an input the component matches has (`u64::MAX`: no
    /// bound).
    pub(crate) fn slashes(&self) -> (u64, u64) {
        self.slashes
    }

    /// The fixed suffix of a `*.example.com` hostname pattern (`.example.com`): a full
    /// wildcard, then fixed text starting with `.`.
    pub(crate) fn wildcard_suffix(&self) -> Option<String> {
        match self.parts.as_slice() {
            [w, f]
                if w.ty == PartType::FullWildcard
                    && w.modifier == parts::Modifier::None
                    && w.prefix.is_empty()
                    && w.suffix.is_empty()
                    && f.ty == PartType::FixedText
                    && f.modifier == parts::Modifier::None
                    && f.value.starts_with('.') =>
            {
                Some(f.value.clone())
            }
            _ => None,
        }
    }

    /// Whether the component is fixed text and `/:name` segments only (each followed by
    /// the end or by a part that starts with `/`), case-sensitive: then
    /// [`Component::parts_match`] decides a match, for a pathname compiled with `/` as
    /// its delimiter.
    pub(crate) fn segments_only(&self) -> bool {
        !self.ignore_case
            && !self.parts.is_empty()
            && self.parts.iter().enumerate().all(|(i, p)| match p.ty {
                PartType::FixedText => p.modifier == parts::Modifier::None,
                PartType::SegmentWildcard => {
                    p.modifier == parts::Modifier::None
                        && p.prefix == "/"
                        && p.suffix.is_empty()
                        && self.parts.get(i + 1).is_none_or(|next| match next.ty {
                            PartType::FixedText => next.value.starts_with('/'),
                            _ => next.prefix.starts_with('/'),
                        })
                }
                _ => false,
            })
    }

    /// Whether `input` matches a component that is [`Component::segments_only`]: each
    /// fixed text in turn, and for each `/:name`, a `/` then one or more bytes up to the
    /// next `/` or the end (the part after it starts with `/`, so that is where the
    /// segment ends). Linear, no backtracking.
    pub(crate) fn parts_match(&self, input: &[u8]) -> bool {
        let mut at = 0;
        for p in &self.parts {
            let rest = &input[at..];
            if p.ty == PartType::FixedText {
                if !rest.starts_with(p.value.as_bytes()) {
                    return false;
                }
                at += p.value.len();
            } else {
                if rest.first() != Some(&b'/') {
                    return false;
                }
                let n = rest[1..]
                    .iter()
                    .position(|&b| b == b'/')
                    .unwrap_or(rest.len() - 1);
                if n == 0 {
                    return false;
                }
                at += 1 + n;
            }
        }
        at == input.len()
    }

    /// Protocol component matches a special scheme.
    pub(crate) fn matches_special_scheme(&self) -> bool {
        ["ftp", "file", "http", "https", "ws", "wss"]
            .iter()
            .any(|s| self.try_is_match(s).unwrap_or(false))
    }
}

/// One component's match: the input it was matched against, and its groups by name
/// (`None`: an optional group that did not take part).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentResult {
    /// The component's value in the matched URL.
    pub input: String,
    /// The groups, in the pattern's order: named groups by name, others `"0"`, `"1"`, ….
    pub groups: Vec<(String, Option<String>)>,
}

impl ComponentResult {
    /// The value of the group `name`, if it took part in the match.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.groups
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// The result of [`UrlPattern::exec`]: one [`ComponentResult`] per component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlPatternResult {
    /// `protocol`.
    pub protocol: ComponentResult,
    /// `username`.
    pub username: ComponentResult,
    /// `password`.
    pub password: ComponentResult,
    /// `hostname`.
    pub hostname: ComponentResult,
    /// `port`.
    pub port: ComponentResult,
    /// `pathname`.
    pub pathname: ComponentResult,
    /// `search`.
    pub search: ComponentResult,
    /// `hash`.
    pub hash: ComponentResult,
}

impl UrlPatternResult {
    /// The components in order (protocol … hash), with their names.
    pub fn components(&self) -> [(&'static str, &ComponentResult); 8] {
        [
            ("protocol", &self.protocol),
            ("username", &self.username),
            ("password", &self.password),
            ("hostname", &self.hostname),
            ("port", &self.port),
            ("pathname", &self.pathname),
            ("search", &self.search),
            ("hash", &self.hash),
        ]
    }
}

/// A URL pattern (the Standard's `URLPattern`): eight compiled components.
#[derive(Debug)]
pub struct UrlPattern {
    comps: [Component; 8],
}

fn hostname_is_ipv6(input: &str) -> bool {
    let b = input.as_bytes();
    b.len() >= 2 && (b[0] == b'[' || (matches!(b[0], b'{' | b'\\') && b[1] == b'['))
}

impl UrlPattern {
    /// A pattern from a constructor string, relative to `base_url` when given
    /// (`new URLPattern(input, baseURL)`), case-sensitive.
    pub fn parse(input: &str, base_url: Option<&str>) -> Result<UrlPattern, PatternError> {
        UrlPattern::new(
            UrlPatternInput::String(input),
            base_url,
            UrlPatternOptions::default(),
        )
    }

    /// A pattern from a dictionary of components (`new URLPattern(init)`): the components
    /// not given (and not taken from `base_url`) match anything.
    pub fn from_init(
        init: &UrlPatternInit,
        options: UrlPatternOptions,
    ) -> Result<UrlPattern, PatternError> {
        UrlPattern::new(UrlPatternInput::Init(init), None, options)
    }

    /// `new URLPattern(input, baseURL, options)`: the Standard's "create". A base URL
    /// with a dictionary is an error ([`PatternErrorKind::BaseUrlWithComponents`]).
    pub fn new(
        input: UrlPatternInput<'_>,
        base_url: Option<&str>,
        options: UrlPatternOptions,
    ) -> Result<UrlPattern, PatternError> {
        let init = match input {
            UrlPatternInput::String(s) => {
                let mut init = constructor::parse_constructor_string(s)?;
                if base_url.is_none() && init.comps[PROTOCOL].is_none() {
                    return Err(PatternError::new(PatternErrorKind::MissingProtocol));
                }
                init.base_url = base_url.map(str::to_owned);
                init
            }
            UrlPatternInput::Init(i) => {
                if base_url.is_some() {
                    return Err(PatternError::new(PatternErrorKind::BaseUrlWithComponents));
                }
                i.to_init()
            }
        };
        let processed = init::process(&init, Kind::Pattern, None)?;
        let mut p: [String; 8] = processed.map(|c| c.unwrap_or_else(|| "*".to_owned()));
        if crate::components::SchemeKind::from_scheme(&p[PROTOCOL])
            .default_port()
            .is_some_and(|d| p[PORT] == d.to_string())
        {
            p[PORT].clear();
        }
        let protocol =
            Component::compile(&p[PROTOCOL], &canon::protocol, Options::DEFAULT, "protocol")?;
        let username =
            Component::compile(&p[USERNAME], &canon::username, Options::DEFAULT, "username")?;
        let password =
            Component::compile(&p[PASSWORD], &canon::password, Options::DEFAULT, "password")?;
        let hostname = if hostname_is_ipv6(&p[HOSTNAME]) {
            Component::compile(
                &p[HOSTNAME],
                &canon::ipv6_hostname,
                Options::HOSTNAME,
                "hostname",
            )?
        } else {
            Component::compile(
                &p[HOSTNAME],
                &canon::hostname,
                Options::HOSTNAME,
                "hostname",
            )?
        };
        let port = Component::compile(
            &p[PORT],
            &|v| canon::port(v, None),
            Options::DEFAULT,
            "port",
        )?;
        let ignore_case = options.ignore_case;
        let compile_options = Options {
            ignore_case,
            ..Options::DEFAULT
        };
        let pathname = if protocol.matches_special_scheme() {
            let o = Options {
                ignore_case,
                ..Options::PATHNAME
            };
            Component::compile(&p[PATHNAME], &canon::pathname, o, "pathname")?
        } else {
            Component::compile(
                &p[PATHNAME],
                &canon::opaque_pathname,
                compile_options,
                "pathname",
            )?
        };
        let search = Component::compile(&p[SEARCH], &canon::search, compile_options, "search")?;
        let hash = Component::compile(&p[HASH], &canon::hash, compile_options, "hash")?;
        Ok(UrlPattern {
            comps: [
                protocol, username, password, hostname, port, pathname, search, hash,
            ],
        })
    }

    /// The normalized protocol pattern.
    pub fn protocol(&self) -> &str {
        &self.comps[PROTOCOL].pattern_string
    }
    /// The normalized username pattern.
    pub fn username(&self) -> &str {
        &self.comps[USERNAME].pattern_string
    }
    /// The normalized password pattern.
    pub fn password(&self) -> &str {
        &self.comps[PASSWORD].pattern_string
    }
    /// The normalized hostname pattern.
    pub fn hostname(&self) -> &str {
        &self.comps[HOSTNAME].pattern_string
    }
    /// The normalized port pattern.
    pub fn port(&self) -> &str {
        &self.comps[PORT].pattern_string
    }
    /// The normalized pathname pattern.
    pub fn pathname(&self) -> &str {
        &self.comps[PATHNAME].pattern_string
    }
    /// The normalized search pattern.
    pub fn search(&self) -> &str {
        &self.comps[SEARCH].pattern_string
    }
    /// The normalized hash pattern.
    pub fn hash(&self) -> &str {
        &self.comps[HASH].pattern_string
    }

    /// The eight normalized component patterns, protocol … hash.
    pub fn component_patterns(&self) -> [&str; 8] {
        std::array::from_fn(|i| self.comps[i].pattern_string.as_str())
    }

    /// Whether any component has a regexp group (`hasRegExpGroups`).
    pub fn has_regexp_groups(&self) -> bool {
        self.comps.iter().any(|c| c.has_regexp_groups)
    }

    /// Whether the pathname, search and hash ignore case.
    pub fn ignore_case(&self) -> bool {
        self.comps[PATHNAME].ignore_case
    }

    pub(crate) fn component(&self, i: usize) -> &Component {
        &self.comps[i]
    }

    /// The eight component values of `input` (with `base_url`), or `None` when it does
    /// not parse (`match` returns null then); an error for a dictionary with a base URL.
    fn values(
        input: UrlPatternInput<'_>,
        base_url: Option<&str>,
    ) -> Result<Option<[String; 8]>, PatternError> {
        match input {
            UrlPatternInput::Init(i) => {
                if base_url.is_some() {
                    return Err(PatternError::new(PatternErrorKind::BaseUrlWithComponents));
                }
                Ok(init::process(&i.to_init(), Kind::Url, Some(""))
                    .ok()
                    .map(|r| r.map(Option::unwrap_or_default)))
            }
            UrlPatternInput::String(s) => {
                let url = match base_url {
                    Some(b) => {
                        let Ok(base) = Url::parse(b) else {
                            return Ok(None);
                        };
                        Url::parse_with_base(s, &base)
                    }
                    None => Url::parse(s),
                };
                Ok(url.ok().map(|u| url_values(&u.as_ref_view())))
            }
        }
    }

    /// `test(input, baseURL)`: whether the pattern matches. An error for a dictionary
    /// with a base URL, or when a regexp group with a backreference or a lookaround runs
    /// out of steps ([`PatternErrorKind::MatchLimit`]).
    pub fn test(
        &self,
        input: UrlPatternInput<'_>,
        base_url: Option<&str>,
    ) -> Result<bool, PatternError> {
        match Self::values(input, base_url)? {
            Some(v) => self.test_parts(std::array::from_fn(|i| v[i].as_str())),
            None => Ok(false),
        }
    }

    /// `exec(input, baseURL)`: each component's input and groups, or `None`; errors as
    /// [`UrlPattern::test`].
    pub fn exec(
        &self,
        input: UrlPatternInput<'_>,
        base_url: Option<&str>,
    ) -> Result<Option<UrlPatternResult>, PatternError> {
        match Self::values(input, base_url)? {
            Some(v) => self.exec_parts(std::array::from_fn(|i| v[i].as_str())),
            None => Ok(None),
        }
    }

    /// [`UrlPattern::test`] on a URL string (false when it does not parse).
    pub fn test_str(&self, input: &str, base_url: Option<&str>) -> Result<bool, PatternError> {
        self.test(UrlPatternInput::String(input), base_url)
    }

    /// [`UrlPattern::exec`] on a URL string (`None` when it does not parse).
    pub fn exec_str(
        &self,
        input: &str,
        base_url: Option<&str>,
    ) -> Result<Option<UrlPatternResult>, PatternError> {
        self.exec(UrlPatternInput::String(input), base_url)
    }

    /// Whether the pattern matches a parsed URL; errors as [`UrlPattern::test`].
    pub fn test_url(&self, url: &UrlRef<'_>) -> Result<bool, PatternError> {
        self.test_parts(url_parts(url))
    }

    /// [`UrlPattern::exec`] on a parsed URL.
    pub fn exec_url(&self, url: &UrlRef<'_>) -> Result<Option<UrlPatternResult>, PatternError> {
        self.exec_parts(url_parts(url))
    }

    /// Whether any component runs a regexp group on the bounded backtracking
    /// interpreter (a backreference or a lookaround), so that [`UrlPattern::test`] and
    /// [`UrlPattern::exec`] may return [`PatternErrorKind::MatchLimit`].
    pub fn may_hit_match_limit(&self) -> bool {
        self.comps.iter().any(Component::backtracks)
    }

    fn test_parts(&self, v: [&str; 8]) -> Result<bool, PatternError> {
        for (c, s) in self.comps.iter().zip(v) {
            if !c.try_is_match(s)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn exec_parts(&self, v: [&str; 8]) -> Result<Option<UrlPatternResult>, PatternError> {
        let mut caps = Vec::with_capacity(8);
        for (c, s) in self.comps.iter().zip(v) {
            match c.captures(s)? {
                Some(cap) => caps.push(cap),
                None => return Ok(None),
            }
        }
        let mut it = caps
            .into_iter()
            .enumerate()
            .map(|(i, cap)| self.comps[i].result(v[i], cap));
        let mut next = || it.next().expect("eight components");
        Ok(Some(UrlPatternResult {
            protocol: next(),
            username: next(),
            password: next(),
            hostname: next(),
            port: next(),
            pathname: next(),
            search: next(),
            hash: next(),
        }))
    }

    /// Like [`UrlPattern::exec`], but with every component run by `regress`'s backtracking
    /// executor on the Standard's regular expression: the reference the own matcher is
    /// checked against by this crate's tests and fuzz targets. Not part of the supported API.
    #[doc(hidden)]
    pub fn __exec_reference(
        &self,
        input: UrlPatternInput<'_>,
        base_url: Option<&str>,
    ) -> Result<Option<UrlPatternResult>, PatternError> {
        let Some(v) = Self::values(input, base_url)? else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(8);
        for (c, s) in self.comps.iter().zip(&v) {
            let re = regress::Regex::with_flags(&c.regexp_source, matcher::flags(c.ignore_case))
                .map_err(|e| PatternError::new(PatternErrorKind::InvalidRegExp(e.to_string())))?;
            let Some(m) = re.find(s) else {
                return Ok(None);
            };
            let caps = m
                .captures
                .iter()
                .map(|r| r.as_ref().map(|r| (r.start, r.end)))
                .collect();
            out.push(c.result(s, caps));
        }
        let mut it = out.into_iter();
        let mut next = || it.next().expect("eight components");
        Ok(Some(UrlPatternResult {
            protocol: next(),
            username: next(),
            password: next(),
            hostname: next(),
            port: next(),
            pathname: next(),
            search: next(),
            hash: next(),
        }))
    }
}

/// The own regexp engine on `source` (flags `v`, `vi` with `ignore_case`), anchored at
/// the start of `input`: the byte ranges of the whole match (first) and of each group, or why it
/// did not run (a compile error, or the step limit). For the fuzz targets' differential
/// against `regress`; not part of the supported API.
#[doc(hidden)]
#[allow(clippy::type_complexity)] // a hidden test hook; no public alias for its type
pub fn __regexp_captures(
    source: &str,
    ignore_case: bool,
    input: &str,
) -> Result<Option<Vec<Option<(usize, usize)>>>, String> {
    let re = Regexp::new(source, ignore_case).map_err(|e| format!("{e:?}"))?;
    let caps = re.groups(input).map_err(|e| format!("{e:?}"))?;
    if re.is_match(input).map_err(|e| format!("{e:?}"))? != caps.is_some() {
        return Err("is_match and captures disagree".to_owned());
    }
    Ok(caps)
}

/// A regexp compiled by the own engine (flags `v`, `vi` with `ignore_case`), for the
/// benches' comparison with `regress` on the same source. Not part of the supported API.
#[doc(hidden)]
pub struct __Regexp(Regexp);

impl __Regexp {
    /// Compiles `source`; the error's text when it does not compile.
    pub fn new(source: &str, ignore_case: bool) -> Result<__Regexp, String> {
        Regexp::new(source, ignore_case)
            .map(__Regexp)
            .map_err(|e| format!("{e:?}"))
    }

    /// Whether it matches at the start of `input` (`None`: out of steps).
    pub fn is_match(&self, input: &str) -> Option<bool> {
        self.0.is_match(input).ok()
    }

    /// The byte ranges of the whole match and of each group (`None`: out of steps).
    #[allow(clippy::type_complexity)] // a hidden bench hook
    pub fn groups(&self, input: &str) -> Option<Option<Vec<Option<(usize, usize)>>>> {
        self.0.groups(input).ok()
    }
}

/// The eight component values of a parsed URL, as `match` takes them.
pub(crate) fn url_parts<'u>(url: &'u UrlRef<'_>) -> [&'u str; 8] {
    let search = url.search();
    let hash = url.hash();
    [
        url.scheme(),
        url.username(),
        url.password(),
        url.hostname(),
        url.port(),
        url.pathname(),
        search.strip_prefix('?').unwrap_or(search),
        hash.strip_prefix('#').unwrap_or(hash),
    ]
}

fn url_values(url: &UrlRef<'_>) -> [String; 8] {
    url_parts(url).map(str::to_owned)
}
