//! The basic URL parser's state machine (URL Standard §4.4).
//!
//! Each state of the Standard is a method here, named after it. Rather than feeding one
//! code point at a time through a `match` on the state, each method finds the end of the
//! component it handles (the next delimiter) and writes the normalized component into
//! the output string in one go; the transitions between states are method calls. The
//! input has already been trimmed and cleared of tabs and newlines (§4.4 steps 1–3), so
//! every delimiter is an ASCII byte and every slice taken at one is valid UTF-8.
//!
//! Where a state's steps are equivalent to something shorter, a comment says why. The
//! main ones: the authority state's handling of `@` (the last `@` ends the userinfo, the
//! first `:` before it splits username from password, earlier `@`s are encoded — the
//! same result as the Standard's buffer-and-prepend-`%40` steps), and paths, which are
//! kept as their serialization (`/seg/seg`) so that "shorten a path" is a truncation.

use crate::components::{Components, HostKind, SchemeKind, UrlParts};
use crate::encoding_override::percent_encode_after_encoding_to;
use crate::encoding_override::{QueryEncoding, UTF_8};
use crate::error::{ErrorKind, ParseError};
use crate::host;
use crate::output::Output;
use crate::percent::{self, EncodeTable};
use crate::syntax::{
    authority_end, ends_authority, host_colon, is_normalized_windows_drive_letter,
    is_windows_drive_letter, scan_port, scheme_len, starts_with_windows_drive_letter,
};
use crate::validation::{self, Report, Silent, ValidationErrorKind as V};

/// The parser: input (already cleaned), optional base, and the URL being written. `R`
/// hears the validation errors; the ordinary parse's [`Silent`] compiles them away.
pub(crate) struct Parser<'i, 'b, 'o, O: Output + ?Sized, R: Report = Silent> {
    input: &'i str,
    bytes: &'i [u8],
    base: Option<UrlParts<'b>>,
    /// The caller's buffer; the serialization is written from `start` on.
    out: &'o mut O,
    /// Where the serialization starts in `out`: every offset in `c` is relative to it.
    start: usize,
    /// The offsets of what has been written.
    pub(crate) c: Components,
    /// Set when a setter runs a state with a state override (§4.4): then `?` and `#` do
    /// not end a path, and `#` does not end a query.
    state_override: bool,
    /// The encoding override: the query of a special, non-ws(s) URL is percent-encoded
    /// after encoding in it (§4.4 query state). UTF-8 unless the caller says otherwise.
    encoding: QueryEncoding,
    /// Where validation errors go.
    r: R,
    /// The path state checks URL units from here on: a `file:` host that is a drive
    /// letter was read by the file host state, which does not check them.
    units_from: usize,
    /// Only the verdict is wanted (`can_parse`): stop, successfully, where the path,
    /// query and fragment states would start ([`Parser::done_validating`]).
    validate_only: bool,
    /// A validating parser stopped there (then `finish` has nothing to check).
    stopped: bool,
}

/// The path percent-encode set, with what ends a segment: `/`, `\\` in special URLs, and
/// `?` and `#` unless a state override is given (then they are encoded).
static PATH_SPECIAL: EncodeTable = EncodeTable::new(&percent::PATH, b"/\\?#");
static PATH_NOT_SPECIAL: EncodeTable = EncodeTable::new(&percent::PATH, b"/?#");
static PATH_SPECIAL_OVERRIDE: EncodeTable = EncodeTable::new(&percent::PATH, b"/\\");
static PATH_NOT_SPECIAL_OVERRIDE: EncodeTable = EncodeTable::new(&percent::PATH, b"/");
/// The same, for runs of segments ([`percent::encode_path_until`]).
static PATH_RUN_SPECIAL: EncodeTable = EncodeTable::new(&percent::PATH, b"/\\?#").with_slash();
static PATH_RUN_NOT_SPECIAL: EncodeTable = EncodeTable::new(&percent::PATH, b"/?#").with_slash();
static PATH_RUN_SPECIAL_OVERRIDE: EncodeTable =
    EncodeTable::new(&percent::PATH, b"/\\").with_slash();
static PATH_RUN_NOT_SPECIAL_OVERRIDE: EncodeTable =
    EncodeTable::new(&percent::PATH, b"/").with_slash();
/// The query percent-encode sets, ending at `#` unless a state override is given.
static SPECIAL_QUERY: EncodeTable = EncodeTable::new(&percent::SPECIAL_QUERY, b"#");
static QUERY: EncodeTable = EncodeTable::new(&percent::QUERY, b"#");
static SPECIAL_QUERY_OVERRIDE: EncodeTable = EncodeTable::new(&percent::SPECIAL_QUERY, b"");
static QUERY_OVERRIDE: EncodeTable = EncodeTable::new(&percent::QUERY, b"");
/// An opaque path: the C0 control percent-encode set, up to `?` or `#`.
static OPAQUE_PATH: EncodeTable = EncodeTable::new(&percent::C0_CONTROL, b"?#");
/// The fragment and userinfo percent-encode sets, to the end of what they are given.
static FRAGMENT: EncodeTable = EncodeTable::new(&percent::FRAGMENT, b"");
static USERINFO: EncodeTable = EncodeTable::new(&percent::USERINFO, b"");

/// The authority's bytes for the authority state's one pass: 2 ends it (`/`, `?`, `#`,
/// and `\\` in special URLs), 1 is `@`, 3 is `:`, `[` or `]`, 0 is anything else.
static AUTHORITY_SPECIAL: [u8; 256] = authority_table(true);
static AUTHORITY_NOT_SPECIAL: [u8; 256] = authority_table(false);

const fn authority_table(special: bool) -> [u8; 256] {
    let mut t = [0u8; 256];
    t[b'@' as usize] = 1;
    t[b':' as usize] = 3;
    t[b'[' as usize] = 3;
    t[b']' as usize] = 3;
    t[b'/' as usize] = 2;
    t[b'?' as usize] = 2;
    t[b'#' as usize] = 2;
    if special {
        t[b'\\' as usize] = 2;
    }
    t
}

/// A single-dot URL path segment (§4.1): `.` or `%2e`, any case.
#[inline]
pub(crate) fn is_single_dot(seg: &[u8]) -> bool {
    seg == b"." || seg.eq_ignore_ascii_case(b"%2e")
}

/// A double-dot URL path segment (§4.1): `..`, `.%2e`, `%2e.` or `%2e%2e`, any case.
#[inline]
pub(crate) fn is_double_dot(seg: &[u8]) -> bool {
    match seg.len() {
        2 => seg == b"..",
        4 => seg.eq_ignore_ascii_case(b".%2e") || seg.eq_ignore_ascii_case(b"%2e."),
        6 => seg.eq_ignore_ascii_case(b"%2e%2e"),
        _ => false,
    }
}

impl<'i, 'b, 'o, O: Output + ?Sized> Parser<'i, 'b, 'o, O> {
    /// A parser for a whole URL (no state override) that appends it to `out`.
    pub(crate) fn new(input: &'i str, base: Option<UrlParts<'b>>, out: &'o mut O) -> Self {
        let start = out.len();
        Parser {
            input,
            bytes: input.as_bytes(),
            base,
            out,
            start,
            c: Components::empty(),
            state_override: false,
            encoding: UTF_8,
            r: Silent,
            units_from: 0,
            validate_only: false,
            stopped: false,
        }
    }

    /// A parser that a setter runs on `input` with a state override, writing just the
    /// component it sets; `scheme_kind` and `host_kind` are those of the URL being set.
    pub(crate) fn for_setter(
        input: &'i str,
        scheme_kind: SchemeKind,
        host_kind: HostKind,
        out: &'o mut O,
    ) -> Self {
        let mut p = Parser::new(input, None, out);
        p.state_override = true;
        p.c.scheme_kind = scheme_kind;
        p.c.host_kind = host_kind;
        p
    }

    /// Finishes a URL whose scheme and authority the fast path proved and `out` already
    /// holds from `start` on (their components in `c`): the path start state at `pos` of
    /// `input` (cleaned as for [`Parser::new`], and equal to the original input up to
    /// `pos`), then the serializer's checks. The path, query and fragment states never
    /// fail; only the length limit can.
    #[inline]
    pub(crate) fn finish_from_path(
        input: &'i str,
        out: &'o mut O,
        start: usize,
        c: Components,
        encoding: QueryEncoding,
        pos: usize,
    ) -> Result<Components, ParseError> {
        let mut p = Parser::new(input, None, out).with_encoding(encoding);
        p.start = start;
        p.c = c;
        p.path_start_state(pos)?;
        p.finish()
    }

    /// The same parser, telling validation errors to `r`.
    pub(crate) fn with_reporter<R: Report>(self, r: R) -> Parser<'i, 'b, 'o, O, R> {
        Parser {
            input: self.input,
            bytes: self.bytes,
            base: self.base,
            out: self.out,
            start: self.start,
            c: self.c,
            state_override: self.state_override,
            encoding: self.encoding,
            r,
            units_from: self.units_from,
            validate_only: self.validate_only,
            stopped: self.stopped,
        }
    }
}

impl<'i, 'b, 'o, O: Output + ?Sized, R: Report> Parser<'i, 'b, 'o, O, R> {
    /// The same parser, made to give only its verdict: [`Parser::run`] then returns at
    /// the first state of the path, query or fragment, none of which can fail, and the
    /// components it returns are incomplete (what was written is no serialization).
    pub(crate) fn validating(mut self) -> Self {
        self.validate_only = true;
        self
    }

    /// In a validating parser ([`Parser::validating`]), whether the parse can end here,
    /// successfully, at `pos`: the states from the path on never fail (§4.4), and what they
    /// would write cannot take the serialization past the `u32` offsets (`finish`'s only
    /// failure): each byte left becomes at most four (`%XX`, or a legacy encoding's
    /// `&#N;` escapes), plus a `/` and the serializer's `/.`.
    /// When it did not stop (the input was too long for that), the states run to the end
    /// and `finish` checks the length as in a full parse.
    #[inline]
    fn done_validating(&mut self, pos: usize) -> bool {
        self.stopped = self.validate_only
            && (self.out.len() - self.start)
                .saturating_add(4 * (self.bytes.len() - pos.min(self.bytes.len())))
                .saturating_add(8)
                <= u32::MAX as usize;
        self.stopped
    }

    /// Sets the encoding override.
    pub(crate) fn with_encoding(mut self, encoding: QueryEncoding) -> Self {
        self.encoding = encoding;
        self
    }

    /// Runs the machine from the scheme start state and returns the components of the
    /// URL it appended to the buffer (offsets from where it started). On failure what it
    /// wrote is left in the buffer: the caller cuts it.
    /// A failure's validation error is reported here, last, unless the step that found
    /// it did.
    pub(crate) fn run(mut self) -> Result<Components, ParseError> {
        if let Err(e) = self.scheme_start_state() {
            if R::ENABLED
                && let Some(kind) = validation::failure_report(e.kind())
            {
                self.r.report(kind, e.offset().unwrap_or(0));
            }
            return Err(e);
        }
        if self.stopped {
            return Ok(self.c);
        }
        self.finish()
    }

    /// The length of what has been written.
    #[inline]
    fn len(&self) -> u32 {
        (self.out.len() - self.start) as u32
    }

    /// What has been written.
    #[inline]
    pub(crate) fn written(&self) -> &str {
        &self.out.as_str()[self.start..]
    }

    /// Cuts what has been written back to `len` bytes.
    #[inline]
    fn truncate(&mut self, len: usize) {
        self.out.truncate(self.start + len);
    }

    #[inline]
    fn special(&self) -> bool {
        self.c.scheme_kind.is_special()
    }

    /// The serializer's `/.` rule (§4.5 step 3) and the offset limit.
    #[inline]
    fn finish(&mut self) -> Result<Components, ParseError> {
        if self.c.host_kind == HostKind::None && !self.c.opaque_path {
            let ps = self.c.path_start as usize;
            if self.written()[ps..].starts_with("//") {
                self.out.insert_str(self.start + ps, "/.");
                let c = &mut self.c;
                c.path_start += 2;
                c.query_start = c.query_start.map(|q| q + 2);
                c.fragment_start = c.fragment_start.map(|f| f + 2);
            }
        }
        if self.out.len() - self.start > u32::MAX as usize {
            return Err(ParseError::new(ErrorKind::InputTooLong));
        }
        Ok(self.c)
    }

    /// Scheme start state and scheme state: a scheme is there, or we go to no scheme state.
    fn scheme_start_state(&mut self) -> Result<(), ParseError> {
        let b = self.bytes;
        let Some(end) = scheme_len(b) else {
            return self.no_scheme_state();
        };
        self.out.push_str(&self.input[..end]);
        self.out.make_ascii_lowercase_from(self.start);
        self.c.scheme_kind = SchemeKind::from_bytes(&self.written().as_bytes()[..end]);
        self.c.scheme_end = end as u32;
        self.out.push(':');
        let pos = end + 1;
        if self.c.scheme_kind == SchemeKind::File {
            if !b[pos..].starts_with(b"//") {
                self.r.report(V::SpecialSchemeMissingFollowingSolidus, end);
            }
            return self.file_state(pos);
        }
        if self.special() {
            if let Some(base) = self.base
                && base.c.scheme(base.s) == &self.written()[..end]
            {
                // Special relative or authority state.
                if b[pos..].starts_with(b"//") {
                    return self.special_authority_ignore_slashes_state(pos + 2);
                }
                self.r.report(V::SpecialSchemeMissingFollowingSolidus, pos);
                return self.relative_state(base, pos);
            }
            // Special authority slashes state: it and the ignore-slashes state skip any
            // run of `/` and `\`.
            if b[pos..].starts_with(b"//") {
                return self.special_authority_ignore_slashes_state(pos + 2);
            }
            self.r.report(V::SpecialSchemeMissingFollowingSolidus, pos);
            return self.special_authority_ignore_slashes_state(pos);
        }
        if b.get(pos) == Some(&b'/') {
            // Path or authority state.
            if b.get(pos + 1) == Some(&b'/') {
                return self.authority_state(pos + 2);
            }
            self.null_host();
            self.c.path_start = self.len();
            return self.path_state(pos + 1);
        }
        self.opaque_path_state(pos)
    }

    /// No scheme state.
    fn no_scheme_state(&mut self) -> Result<(), ParseError> {
        let missing = ParseError::at(ErrorKind::MissingSchemeNonRelativeUrl, 0);
        let Some(base) = self.base else {
            return Err(missing);
        };
        let first = self.bytes.first().copied();
        if base.c.opaque_path {
            if first != Some(b'#') {
                return Err(missing);
            }
            // Base's scheme, path and query; an empty fragment to be filled.
            self.out.push_str(base.c.without_fragment(base.s));
            self.c = *base.c;
            return self.fragment_state(1);
        }
        self.out.push_str(base.c.protocol(base.s));
        self.c.scheme_end = base.c.scheme_end;
        self.c.scheme_kind = base.c.scheme_kind;
        if base.c.scheme_kind == SchemeKind::File {
            self.file_state(0)
        } else {
            self.relative_state(base, 0)
        }
    }

    /// Records a null host: no `//`, all authority offsets at the end of the scheme.
    fn null_host(&mut self) {
        let at = self.len();
        self.c.set_host_at(at, HostKind::None);
    }

    /// Writes `//` and records the empty host (file URLs).
    fn empty_host(&mut self) {
        self.out.push_str("//");
        let at = self.len();
        self.c.set_host_at(at, HostKind::Empty);
    }

    /// Copies base's userinfo, host and port (the scheme written so far is base's, so
    /// base's offsets hold as they are).
    fn copy_base_authority(&mut self, base: UrlParts<'_>) {
        let bc = base.c;
        self.out
            .push_str(&base.s[bc.scheme_end as usize + 1..bc.authority_end()]);
        self.c.username_end = bc.username_end;
        self.c.host_start = bc.host_start;
        self.c.host_end = bc.host_end;
        self.c.port = bc.port;
        self.c.host_kind = bc.host_kind;
    }

    /// Copies base's path (without any `/.` prefix: `finish` adds it again if needed).
    fn copy_base_path(&mut self, base: UrlParts<'_>) {
        self.c.path_start = self.len();
        self.out.push_str(base.c.pathname(base.s));
    }

    /// Copies base's query, if it is not null.
    fn copy_base_query(&mut self, base: UrlParts<'_>) {
        if let Some(q) = base.c.query(base.s) {
            self.c.query_start = Some(self.len());
            self.out.push('?');
            self.out.push_str(q);
        }
    }

    /// Relative state (the input has no scheme of its own, or the same special scheme
    /// as base without `//`).
    fn relative_state(&mut self, base: UrlParts<'_>, pos: usize) -> Result<(), ParseError> {
        match self.bytes.get(pos) {
            Some(b'/') => self.relative_slash_state(base, pos + 1),
            Some(b'\\') if self.special() => {
                self.r.report(V::InvalidReverseSolidus, pos);
                self.relative_slash_state(base, pos + 1)
            }
            _ => match self.resume_from_base(base, pos) {
                Some(done) => done,
                None => {
                    self.shorten_path();
                    self.path_state(pos)
                }
            },
        }
    }

    /// What the relative and file states do when the input continues base's path: copy
    /// base's authority and path; then the end of the input keeps base's query, `?` starts
    /// a new query, `#` keeps base's query and starts a fragment. Returns `None` when
    /// something else follows, which each state handles in its own way.
    fn resume_from_base(
        &mut self,
        base: UrlParts<'_>,
        pos: usize,
    ) -> Option<Result<(), ParseError>> {
        self.copy_base_authority(base);
        self.copy_base_path(base);
        match self.bytes.get(pos) {
            None => {
                self.copy_base_query(base);
                Some(Ok(()))
            }
            Some(b'?') => Some(self.query_state(pos + 1)),
            Some(b'#') => {
                self.copy_base_query(base);
                Some(self.fragment_state(pos + 1))
            }
            Some(_) => None,
        }
    }

    /// Relative slash state.
    fn relative_slash_state(&mut self, base: UrlParts<'_>, pos: usize) -> Result<(), ParseError> {
        match self.bytes.get(pos) {
            Some(&c @ (b'/' | b'\\')) if self.special() => {
                if c == b'\\' {
                    self.r.report(V::InvalidReverseSolidus, pos);
                }
                self.special_authority_ignore_slashes_state(pos + 1)
            }
            Some(b'/') => self.authority_state(pos + 1),
            _ => {
                self.copy_base_authority(base);
                self.c.path_start = self.len();
                self.path_state(pos)
            }
        }
    }

    /// Special authority ignore slashes state: skips every `/` and `\`.
    fn special_authority_ignore_slashes_state(&mut self, mut pos: usize) -> Result<(), ParseError> {
        while matches!(self.bytes.get(pos), Some(b'/' | b'\\')) {
            self.r.report(V::SpecialSchemeMissingFollowingSolidus, pos);
            pos += 1;
        }
        self.authority_state(pos)
    }

    /// Authority state. The userinfo is everything before the last `@` of the authority;
    /// its first `:` separates username from password.
    fn authority_state(&mut self, pos: usize) -> Result<(), ParseError> {
        let b = self.bytes;
        let t = if self.special() {
            &AUTHORITY_SPECIAL
        } else {
            &AUTHORITY_NOT_SPECIAL
        };
        // One pass: the end of the authority (what `authority_end` finds), its last `@`,
        // and the host state's `:` after it (what `host_colon` finds in the host: the
        // first `:` outside `[` … `]`).
        let mut end = pos;
        let mut last_at = None;
        let mut colon = None;
        let mut inside_brackets = false;
        loop {
            end = percent::first_flagged(t, b, end);
            match b.get(end) {
                Some(b'@') => {
                    last_at = Some(end);
                    colon = None;
                    inside_brackets = false;
                }
                Some(b'[') => inside_brackets = true,
                Some(b']') => inside_brackets = false,
                Some(b':') if !inside_brackets && colon.is_none() => colon = Some(end),
                Some(b':') => {}
                _ => break,
            }
            end += 1;
        }
        self.out.push_str("//");
        let user_start = self.out.len();
        let mut host_pos = pos;
        if R::ENABLED {
            for at in memchr::memchr_iter(b'@', &b[pos..end]) {
                self.r.report(V::InvalidCredentials, pos + at);
            }
        }
        if let Some(at) = last_at {
            if at + 1 == end {
                return Err(ParseError::at(ErrorKind::HostMissing, end));
            }
            let userinfo = &self.input[pos..at];
            let (user, pass) = match userinfo.find(':') {
                Some(i) => (&userinfo[..i], &userinfo[i + 1..]),
                None => (userinfo, ""),
            };
            percent::encode_until(user, 0, &USERINFO, self.out);
            self.c.username_end = self.len();
            if !pass.is_empty() {
                self.out.push(':');
                percent::encode_until(pass, 0, &USERINFO, self.out);
            }
            if self.out.len() > user_start {
                self.out.push('@');
            }
            host_pos = at + 1;
        } else {
            self.c.username_end = self.len();
        }
        self.c.host_start = self.len();
        self.host_state(host_pos, end, colon)
    }

    /// Host state, up to `end` (the end of the authority); `colon` is the `:` that starts
    /// a port ([`host_colon`]).
    fn host_state(
        &mut self,
        pos: usize,
        end: usize,
        colon: Option<usize>,
    ) -> Result<(), ParseError> {
        debug_assert_eq!(colon, host_colon(&self.bytes[pos..end]).map(|i| pos + i));
        let host_end = colon.unwrap_or(end);
        if host_end == pos && (colon.is_some() || self.special()) {
            return Err(ParseError::at(ErrorKind::HostMissing, pos));
        }
        self.write_host(pos, host_end)?;
        match colon {
            Some(colon) => self.port_state(colon + 1),
            None => self.path_start_state(end),
        }
    }

    /// Host-parses `input[pos..end]` into the output and records it.
    fn write_host(&mut self, pos: usize, end: usize) -> Result<(), ParseError> {
        let start = self.len();
        let kind = host::parse_host_reporting(
            &self.input[pos..end],
            !self.special(),
            self.out,
            &mut host::Shifted(&mut self.r, pos),
        )
        .map_err(|e| e.shifted(pos).or_at(pos))?;
        self.c.host_start = start;
        self.c.host_end = self.len();
        self.c.host_kind = kind;
        Ok(())
    }

    /// Port state.
    fn port_state(&mut self, pos: usize) -> Result<(), ParseError> {
        let b = self.bytes;
        let (end, value) = scan_port(b, pos);
        if end < b.len() && !ends_authority(b[end], self.special()) {
            return Err(ParseError::at(ErrorKind::PortInvalid, end));
        }
        if end > pos {
            if value > u16::MAX as u32 {
                return Err(ParseError::at(ErrorKind::PortOutOfRange, pos));
            }
            self.write_port(value as u16);
        }
        self.path_start_state(end)
    }

    /// Sets the port (null when it is the scheme's default) and writes it.
    fn write_port(&mut self, port: u16) {
        if Some(port) == self.c.scheme_kind.default_port() {
            self.c.port = None;
        } else {
            self.out.push(':');
            percent::push_decimal(self.out, port.into());
            self.c.port = Some(port);
        }
    }

    /// File state (the scheme is `file`, whether from the input or from base).
    fn file_state(&mut self, pos: usize) -> Result<(), ParseError> {
        let c = self.bytes.get(pos).copied();
        let base = self
            .base
            .filter(|base| base.c.scheme_kind == SchemeKind::File);
        if matches!(c, Some(b'/' | b'\\')) {
            if c == Some(b'\\') {
                self.r.report(V::InvalidReverseSolidus, pos);
            }
            return self.file_slash_state(base, pos + 1);
        }
        let Some(base) = base else {
            self.empty_host();
            self.c.path_start = self.len();
            return self.path_state(pos);
        };
        if let Some(done) = self.resume_from_base(base, pos) {
            return done;
        }
        if starts_with_windows_drive_letter(&self.bytes[pos..]) {
            // Windows drive letter quirk: the path starts afresh.
            self.r.report(V::FileInvalidWindowsDriveLetter, pos);
            self.truncate(self.c.path_start as usize);
        } else {
            self.shorten_path();
        }
        self.path_state(pos)
    }

    /// File slash state.
    fn file_slash_state(
        &mut self,
        base: Option<UrlParts<'_>>,
        pos: usize,
    ) -> Result<(), ParseError> {
        if let Some(&c @ (b'/' | b'\\')) = self.bytes.get(pos) {
            if c == b'\\' {
                self.r.report(V::InvalidReverseSolidus, pos);
            }
            return self.file_host_state(pos + 1);
        }
        match base {
            Some(base) => {
                self.copy_base_authority(base);
                self.c.path_start = self.len();
                // Windows drive letter quirk: keep base's drive letter.
                let base_path = base.c.pathname(base.s).as_bytes();
                if !starts_with_windows_drive_letter(&self.bytes[pos..])
                    && base_path.len() >= 3
                    && is_normalized_windows_drive_letter(&base_path[1..3])
                    && (base_path.len() == 3 || base_path[3] == b'/')
                {
                    self.out.push_str(&base.c.pathname(base.s)[..3]);
                }
            }
            None => {
                self.empty_host();
                self.c.path_start = self.len();
            }
        }
        self.path_state(pos)
    }

    /// File host state.
    fn file_host_state(&mut self, pos: usize) -> Result<(), ParseError> {
        let b = self.bytes;
        let end = authority_end(b, pos, true);
        if is_windows_drive_letter(&b[pos..end]) {
            // Windows drive letter quirk: the "host" is the path's first segment.
            self.r.report(V::FileInvalidWindowsDriveLetterHost, pos);
            self.units_from = end;
            self.empty_host();
            self.c.path_start = self.len();
            return self.path_state(pos);
        }
        self.empty_host();
        if end > pos {
            self.write_host(pos, end)?;
            if &self.written()[self.c.host_start as usize..] == "localhost" {
                self.truncate(self.c.host_start as usize);
                self.c.host_end = self.c.host_start;
                self.c.host_kind = HostKind::Empty;
            }
        }
        self.path_start_state(end)
    }

    /// Path start state.
    pub(crate) fn path_start_state(&mut self, pos: usize) -> Result<(), ParseError> {
        if self.done_validating(pos) {
            return Ok(());
        }
        self.c.path_start = self.len();
        let b = self.bytes;
        if self.special() {
            if b.get(pos) == Some(&b'\\') {
                self.r.report(V::InvalidReverseSolidus, pos);
            }
            let pos = if matches!(b.get(pos), Some(b'/' | b'\\')) {
                pos + 1
            } else {
                pos
            };
            return self.path_state(pos);
        }
        match b.get(pos) {
            Some(b'?') if !self.state_override => self.query_state(pos + 1),
            Some(b'#') if !self.state_override => self.fragment_state(pos + 1),
            Some(b'/') => self.path_state(pos + 1),
            Some(_) => self.path_state(pos),
            None => {
                if self.state_override && self.c.host_kind == HostKind::None {
                    self.out.push('/');
                }
                Ok(())
            }
        }
    }

    /// Path state: one segment per turn of the loop, written as `/` and the segment. The
    /// segment is encoded in the same pass that finds its end; a dot segment or a Windows
    /// drive letter (which encoding never changes) is then taken back and handled. A
    /// segment that can be neither (it does not start with `.` or `%`, and is not a file
    /// URL's first) goes on with the segments after it that can be neither, in one pass
    /// ([`percent::encode_path_until`]): they are written as they are, `/` included.
    fn path_state(&mut self, mut pos: usize) -> Result<(), ParseError> {
        if self.done_validating(pos) {
            return Ok(());
        }
        let b = self.bytes;
        let special = self.special();
        let file = self.c.scheme_kind == SchemeKind::File;
        let (table, run_table) = match (special, self.state_override) {
            (true, false) => (&PATH_SPECIAL, &PATH_RUN_SPECIAL),
            (false, false) => (&PATH_NOT_SPECIAL, &PATH_RUN_NOT_SPECIAL),
            (true, true) => (&PATH_SPECIAL_OVERRIDE, &PATH_RUN_SPECIAL_OVERRIDE),
            (false, true) => (&PATH_NOT_SPECIAL_OVERRIDE, &PATH_RUN_NOT_SPECIAL_OVERRIDE),
        };
        loop {
            let seg_start = pos;
            let path_empty = self.len() == self.c.path_start;
            self.out.push('/');
            let seg_out = self.out.len();
            let alone = matches!(b.get(pos), Some(b'.' | b'%')) || (file && path_empty);
            pos = if alone {
                percent::encode_until(self.input, pos, table, self.out)
            } else {
                percent::encode_path_until(self.input, pos, run_table, self.out)
            };
            // One segment when `alone`, else segments that are no dot segments.
            let seg = &b[seg_start..pos];
            if R::ENABLED {
                let from = seg_start.max(self.units_from.min(pos));
                validation::report_url_units(&mut self.r, &self.input[from..pos], from);
                if special && b.get(pos) == Some(&b'\\') {
                    self.r.report(V::InvalidReverseSolidus, pos);
                }
            }
            if !alone {
                // Written as it is.
            } else if seg.len() <= 6 && matches!(seg.first(), Some(b'.' | b'%')) {
                // Dot segments are written as they are: take back the `/` and the segment.
                let double = is_double_dot(seg);
                if double || is_single_dot(seg) {
                    self.out.truncate(seg_out - 1);
                    if double {
                        self.shorten_path();
                    }
                    let at_slash =
                        pos < b.len() && (b[pos] == b'/' || (special && b[pos] == b'\\'));
                    if !at_slash {
                        self.out.push('/');
                    }
                }
            } else if file && path_empty && is_windows_drive_letter(seg) {
                // Windows drive letter quirk: `C|` becomes `C:` (the letter is written).
                self.out.truncate(seg_out + 1);
                self.out.push(':');
            }
            match b.get(pos) {
                None => return Ok(()),
                Some(b'?') if !self.state_override => return self.query_state(pos + 1),
                Some(b'#') if !self.state_override => return self.fragment_state(pos + 1),
                Some(_) => pos += 1,
            }
        }
    }

    /// Shorten a URL's path (§4.1): drop the last segment, except a lone normalized
    /// Windows drive letter of a file URL.
    fn shorten_path(&mut self) {
        let ps = self.c.path_start as usize;
        let path = &self.written().as_bytes()[ps..];
        if self.c.scheme_kind == SchemeKind::File
            && path.len() == 3
            && is_normalized_windows_drive_letter(&path[1..])
        {
            return;
        }
        if let Some(last) = path.iter().rposition(|&c| c == b'/') {
            self.truncate(ps + last);
        }
    }

    /// Opaque path state. The path is written percent-encoded with the C0 control set; a
    /// space just before `?` or `#` is written as `%20` so that it survives re-parsing.
    fn opaque_path_state(&mut self, pos: usize) -> Result<(), ParseError> {
        if self.done_validating(pos) {
            return Ok(());
        }
        self.null_host();
        self.c.path_start = self.len();
        self.c.opaque_path = true;
        let b = self.bytes;
        // Found and encoded in one pass, a word of runs at a time; a space is not in the
        // set, so one just before the delimiter is the last byte written.
        let end = percent::encode_until(self.input, pos, &OPAQUE_PATH, self.out);
        if R::ENABLED {
            validation::report_url_units(&mut self.r, &self.input[pos..end], pos);
        }
        if end < b.len() && end > pos && b[end - 1] == b' ' {
            let len = self.out.len();
            self.out.truncate(len - 1);
            self.out.push_str("%20");
        }
        match b.get(end) {
            Some(b'?') => self.query_state(end + 1),
            Some(b'#') => self.fragment_state(end + 1),
            _ => Ok(()),
        }
    }

    /// Query state: writes `?` and the encoded query, up to `#` (or to the end with a
    /// state override).
    pub(crate) fn query_state(&mut self, pos: usize) -> Result<(), ParseError> {
        if self.done_validating(pos) {
            return Ok(());
        }
        let b = self.bytes;
        self.c.query_start = Some(self.len());
        self.out.push('?');
        let special = self.special();
        // Step 1: only special URLs other than ws/wss use a legacy encoding for the query.
        let end = if self.encoding == UTF_8
            || !special
            || matches!(self.c.scheme_kind, SchemeKind::Ws | SchemeKind::Wss)
        {
            let table = match (special, self.state_override) {
                (true, false) => &SPECIAL_QUERY,
                (false, false) => &QUERY,
                (true, true) => &SPECIAL_QUERY_OVERRIDE,
                (false, true) => &QUERY_OVERRIDE,
            };
            percent::encode_until(self.input, pos, table, self.out)
        } else {
            let end = if self.state_override {
                b.len()
            } else {
                memchr::memchr(b'#', &b[pos..]).map_or(b.len(), |i| pos + i)
            };
            let query = &self.input[pos..end];
            percent_encode_after_encoding_to(
                self.encoding,
                query,
                &percent::SPECIAL_QUERY,
                false,
                self.out,
            );
            end
        };
        if R::ENABLED {
            validation::report_url_units(&mut self.r, &self.input[pos..end], pos);
        }
        if end < b.len() {
            return self.fragment_state(end + 1);
        }
        Ok(())
    }

    /// Fragment state: writes `#` and the rest of the input, encoded.
    pub(crate) fn fragment_state(&mut self, pos: usize) -> Result<(), ParseError> {
        if self.done_validating(pos) {
            return Ok(());
        }
        self.c.fragment_start = Some(self.len());
        self.out.push('#');
        if R::ENABLED {
            validation::report_url_units(&mut self.r, &self.input[pos..], pos);
        }
        percent::encode_until(self.input, pos, &FRAGMENT, self.out);
        Ok(())
    }
}
