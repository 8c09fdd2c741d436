//! Parsing a pattern string into a part list, and turning a part list back into a
//! regular expression string or a normalized pattern string (URL Pattern Standard,
//! "Parsing pattern strings", "Converting part lists to ...").

use super::error::{PatternError, PatternErrorKind};
use super::tokenizer::{Policy, Token, TokenType, is_valid_name_code_point, tokenize};

/// What a part is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PartType {
    /// Fixed text.
    FixedText,
    /// A group with a custom regular expression.
    Regexp,
    /// A group matching up to the next delimiter (`:name`).
    SegmentWildcard,
    /// A group matching anything (`*`).
    FullWildcard,
}

/// A part's modifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Modifier {
    None,
    Optional,
    ZeroOrMore,
    OneOrMore,
}

impl Modifier {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Modifier::None => "",
            Modifier::Optional => "?",
            Modifier::ZeroOrMore => "*",
            Modifier::OneOrMore => "+",
        }
    }
}

/// One piece of a pattern string: fixed text, or one group with a fixed prefix and suffix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub(crate) ty: PartType,
    /// The fixed text, or the regular expression of a `Regexp` part.
    pub(crate) value: String,
    pub(crate) modifier: Modifier,
    pub(crate) name: String,
    pub(crate) prefix: String,
    pub(crate) suffix: String,
}

/// The options of a component: delimiter and prefix code points, ignore case.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Options {
    pub(crate) delimiter: Option<char>,
    pub(crate) prefix: Option<char>,
    pub(crate) ignore_case: bool,
}

impl Options {
    pub(crate) const DEFAULT: Options = Options {
        delimiter: None,
        prefix: None,
        ignore_case: false,
    };
    pub(crate) const HOSTNAME: Options = Options {
        delimiter: Some('.'),
        prefix: None,
        ignore_case: false,
    };
    pub(crate) const PATHNAME: Options = Options {
        delimiter: Some('/'),
        prefix: Some('/'),
        ignore_case: false,
    };

    fn prefix_is(&self, s: &str) -> bool {
        let mut chars = s.chars();
        match (self.prefix, chars.next(), chars.next()) {
            (Some(p), Some(c), None) => p == c,
            _ => false,
        }
    }
}

/// The segment wildcard regexp of `options`: `[^<delimiter>]+?`.
pub(crate) fn segment_wildcard_regexp(options: &Options) -> String {
    let mut s = String::from("[^");
    if let Some(d) = options.delimiter {
        escape_regexp_into(&d.to_string(), &mut s);
    }
    s.push_str("]+?");
    s
}

const FULL_WILDCARD_REGEXP: &str = ".*";

/// An encoding callback: validates and encodes fixed text of a component.
pub(crate) type EncodingCallback<'a> = &'a dyn Fn(&str) -> Result<String, PatternError>;

struct PatternParser<'a> {
    tokens: Vec<Token>,
    encode: EncodingCallback<'a>,
    segment_wildcard_regexp: String,
    parts: Vec<Part>,
    pending_fixed_value: String,
    index: usize,
    next_numeric_name: usize,
}

impl PatternParser<'_> {
    fn try_consume(&mut self, ty: TokenType) -> Option<Token> {
        let next = &self.tokens[self.index];
        if next.ty != ty {
            return None;
        }
        self.index += 1;
        Some(next.clone())
    }

    fn try_consume_modifier(&mut self) -> Option<Token> {
        self.try_consume(TokenType::OtherModifier)
            .or_else(|| self.try_consume(TokenType::Asterisk))
    }

    fn try_consume_regexp_or_wildcard(&mut self, name: &Option<Token>) -> Option<Token> {
        let token = self.try_consume(TokenType::Regexp);
        if name.is_none() && token.is_none() {
            return self.try_consume(TokenType::Asterisk);
        }
        token
    }

    fn consume_required(&mut self, ty: TokenType) -> Result<Token, PatternError> {
        self.try_consume(ty).ok_or_else(|| {
            let found = &self.tokens[self.index];
            let expected = match ty {
                TokenType::Close => "`}` closing the group",
                _ => "the end of the pattern",
            };
            let kind = PatternErrorKind::UnexpectedToken {
                expected,
                found: if found.ty == TokenType::End {
                    "the end of the pattern".to_owned()
                } else {
                    format!("`{}`", found.value)
                },
            };
            PatternError::new(kind).at(found.index)
        })
    }

    fn consume_text(&mut self) -> String {
        let mut result = String::new();
        loop {
            let token = self
                .try_consume(TokenType::Char)
                .or_else(|| self.try_consume(TokenType::EscapedChar));
            match token {
                Some(t) => result.push_str(&t.value),
                None => return result,
            }
        }
    }

    fn maybe_add_part_from_pending_fixed_value(&mut self) -> Result<(), PatternError> {
        if self.pending_fixed_value.is_empty() {
            return Ok(());
        }
        let value = std::mem::take(&mut self.pending_fixed_value);
        let encoded = (self.encode)(&value)?;
        self.parts.push(Part {
            ty: PartType::FixedText,
            value: encoded,
            modifier: Modifier::None,
            name: String::new(),
            prefix: String::new(),
            suffix: String::new(),
        });
        Ok(())
    }

    fn add_part(
        &mut self,
        prefix: String,
        name_token: Option<Token>,
        regexp_or_wildcard: Option<Token>,
        suffix: String,
        modifier_token: Option<Token>,
    ) -> Result<(), PatternError> {
        let modifier = match modifier_token.as_ref().map(|t| t.value.as_str()) {
            Some("?") => Modifier::Optional,
            Some("*") => Modifier::ZeroOrMore,
            Some("+") => Modifier::OneOrMore,
            _ => Modifier::None,
        };
        if name_token.is_none() && regexp_or_wildcard.is_none() && modifier == Modifier::None {
            self.pending_fixed_value.push_str(&prefix);
            return Ok(());
        }
        self.maybe_add_part_from_pending_fixed_value()?;
        if name_token.is_none() && regexp_or_wildcard.is_none() {
            debug_assert!(suffix.is_empty());
            if prefix.is_empty() {
                return Ok(());
            }
            let encoded = (self.encode)(&prefix)?;
            self.parts.push(Part {
                ty: PartType::FixedText,
                value: encoded,
                modifier,
                name: String::new(),
                prefix: String::new(),
                suffix: String::new(),
            });
            return Ok(());
        }
        let mut regexp_value = match &regexp_or_wildcard {
            None => self.segment_wildcard_regexp.clone(),
            Some(t) if t.ty == TokenType::Asterisk => FULL_WILDCARD_REGEXP.to_owned(),
            Some(t) => t.value.clone(),
        };
        let mut ty = PartType::Regexp;
        if regexp_value == self.segment_wildcard_regexp {
            ty = PartType::SegmentWildcard;
            regexp_value.clear();
        } else if regexp_value == FULL_WILDCARD_REGEXP {
            ty = PartType::FullWildcard;
            regexp_value.clear();
        }
        let name = if let Some(t) = &name_token {
            t.value.clone()
        } else {
            let n = self.next_numeric_name.to_string();
            self.next_numeric_name += 1;
            n
        };
        if self.parts.iter().any(|p| p.name == name) {
            let at = name_token
                .as_ref()
                .or(regexp_or_wildcard.as_ref())
                .map_or(0, |t| t.index);
            return Err(PatternError::new(PatternErrorKind::DuplicateName(name)).at(at));
        }
        let prefix = (self.encode)(&prefix)?;
        let suffix = (self.encode)(&suffix)?;
        self.parts.push(Part {
            ty,
            value: regexp_value,
            modifier,
            name,
            prefix,
            suffix,
        });
        Ok(())
    }
}

/// Parses `input` into a part list (strict tokenizing), encoding fixed text with `encode`.
pub(crate) fn parse_pattern_string(
    input: &str,
    options: &Options,
    encode: EncodingCallback<'_>,
) -> Result<Vec<Part>, PatternError> {
    let chars: Vec<char> = input.chars().collect();
    let tokens = tokenize(&chars, Policy::Strict)?;
    let mut p = PatternParser {
        tokens,
        encode,
        segment_wildcard_regexp: segment_wildcard_regexp(options),
        parts: Vec::new(),
        pending_fixed_value: String::new(),
        index: 0,
        next_numeric_name: 0,
    };
    while p.index < p.tokens.len() {
        let char_token = p.try_consume(TokenType::Char);
        let name_token = p.try_consume(TokenType::Name);
        let regexp_or_wildcard = p.try_consume_regexp_or_wildcard(&name_token);
        if name_token.is_some() || regexp_or_wildcard.is_some() {
            let mut prefix = char_token.map(|t| t.value).unwrap_or_default();
            if !prefix.is_empty() && !options.prefix_is(&prefix) {
                p.pending_fixed_value.push_str(&prefix);
                prefix.clear();
            }
            p.maybe_add_part_from_pending_fixed_value()?;
            let modifier = p.try_consume_modifier();
            p.add_part(
                prefix,
                name_token,
                regexp_or_wildcard,
                String::new(),
                modifier,
            )?;
            continue;
        }
        let fixed = char_token.or_else(|| p.try_consume(TokenType::EscapedChar));
        if let Some(t) = fixed {
            p.pending_fixed_value.push_str(&t.value);
            continue;
        }
        if p.try_consume(TokenType::Open).is_some() {
            let prefix = p.consume_text();
            let name_token = p.try_consume(TokenType::Name);
            let regexp_or_wildcard = p.try_consume_regexp_or_wildcard(&name_token);
            let suffix = p.consume_text();
            p.consume_required(TokenType::Close)?;
            let modifier = p.try_consume_modifier();
            p.add_part(prefix, name_token, regexp_or_wildcard, suffix, modifier)?;
            continue;
        }
        p.maybe_add_part_from_pending_fixed_value()?;
        p.consume_required(TokenType::End)?;
    }
    Ok(p.parts)
}

/// Escape a regexp string.
pub(crate) fn escape_regexp_into(input: &str, out: &mut String) {
    for c in input.chars() {
        if matches!(
            c,
            '.' | '+'
                | '*'
                | '?'
                | '^'
                | '$'
                | '{'
                | '}'
                | '('
                | ')'
                | '['
                | ']'
                | '|'
                | '/'
                | '\\'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Escape a pattern string.
pub(crate) fn escape_pattern_string(input: &str) -> String {
    let mut out = String::with_capacity(input.len());
    for c in input.chars() {
        if matches!(c, '+' | '*' | '?' | ':' | '{' | '}' | '(' | ')' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Generate a regular expression and name list.
pub(crate) fn generate_regexp(parts: &[Part], options: &Options) -> (String, Vec<String>) {
    let mut r = String::from("^");
    let mut names = Vec::new();
    for part in parts {
        if part.ty == PartType::FixedText {
            if part.modifier == Modifier::None {
                escape_regexp_into(&part.value, &mut r);
            } else {
                r.push_str("(?:");
                escape_regexp_into(&part.value, &mut r);
                r.push(')');
                r.push_str(part.modifier.as_str());
            }
            continue;
        }
        names.push(part.name.clone());
        let value = match part.ty {
            PartType::SegmentWildcard => segment_wildcard_regexp(options),
            PartType::FullWildcard => FULL_WILDCARD_REGEXP.to_owned(),
            _ => part.value.clone(),
        };
        let repeat = matches!(part.modifier, Modifier::ZeroOrMore | Modifier::OneOrMore);
        if part.prefix.is_empty() && part.suffix.is_empty() {
            if !repeat {
                r.push('(');
                r.push_str(&value);
                r.push(')');
                r.push_str(part.modifier.as_str());
            } else {
                r.push_str("((?:");
                r.push_str(&value);
                r.push(')');
                r.push_str(part.modifier.as_str());
                r.push(')');
            }
            continue;
        }
        if !repeat {
            r.push_str("(?:");
            escape_regexp_into(&part.prefix, &mut r);
            r.push('(');
            r.push_str(&value);
            r.push(')');
            escape_regexp_into(&part.suffix, &mut r);
            r.push(')');
            r.push_str(part.modifier.as_str());
            continue;
        }
        r.push_str("(?:");
        escape_regexp_into(&part.prefix, &mut r);
        r.push_str("((?:");
        r.push_str(&value);
        r.push_str(")(?:");
        escape_regexp_into(&part.suffix, &mut r);
        escape_regexp_into(&part.prefix, &mut r);
        r.push_str("(?:");
        r.push_str(&value);
        r.push_str("))*)");
        escape_regexp_into(&part.suffix, &mut r);
        r.push(')');
        if part.modifier == Modifier::ZeroOrMore {
            r.push('?');
        }
    }
    r.push('$');
    (r, names)
}

fn first_is_name_code_point(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| is_valid_name_code_point(c, false))
}

fn starts_with_digit(s: &str) -> bool {
    s.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

/// Generate a pattern string: the normalized form of a part list.
pub(crate) fn generate_pattern_string(parts: &[Part], options: &Options) -> String {
    let mut r = String::new();
    for (index, part) in parts.iter().enumerate() {
        let previous = index.checked_sub(1).map(|i| &parts[i]);
        let next = parts.get(index + 1);
        if part.ty == PartType::FixedText {
            if part.modifier == Modifier::None {
                r.push_str(&escape_pattern_string(&part.value));
                continue;
            }
            r.push('{');
            r.push_str(&escape_pattern_string(&part.value));
            r.push('}');
            r.push_str(part.modifier.as_str());
            continue;
        }
        let custom_name = !starts_with_digit(&part.name);
        let mut needs_grouping = !part.suffix.is_empty()
            || (!part.prefix.is_empty() && !options.prefix_is(&part.prefix));
        if !needs_grouping
            && custom_name
            && part.ty == PartType::SegmentWildcard
            && part.modifier == Modifier::None
            && let Some(next) = next
            && next.prefix.is_empty()
            && next.suffix.is_empty()
        {
            if next.ty == PartType::FixedText {
                needs_grouping = first_is_name_code_point(&next.value);
            } else {
                needs_grouping = starts_with_digit(&next.name);
            }
        }
        if !needs_grouping
            && part.prefix.is_empty()
            && previous.is_some_and(|p| {
                p.ty == PartType::FixedText
                    && options.prefix.is_some()
                    && p.value.ends_with(options.prefix.unwrap_or('\0'))
            })
        {
            needs_grouping = true;
        }
        if needs_grouping {
            r.push('{');
        }
        r.push_str(&escape_pattern_string(&part.prefix));
        if custom_name {
            r.push(':');
            r.push_str(&part.name);
        }
        match part.ty {
            PartType::Regexp => {
                r.push('(');
                r.push_str(&part.value);
                r.push(')');
            }
            PartType::SegmentWildcard if !custom_name => {
                r.push('(');
                r.push_str(&segment_wildcard_regexp(options));
                r.push(')');
            }
            PartType::FullWildcard => {
                if !custom_name
                    && (previous.is_none_or(|p| {
                        p.ty == PartType::FixedText || p.modifier != Modifier::None
                    }) || needs_grouping
                        || !part.prefix.is_empty())
                {
                    r.push('*');
                } else {
                    r.push('(');
                    r.push_str(FULL_WILDCARD_REGEXP);
                    r.push(')');
                }
            }
            _ => {}
        }
        if part.ty == PartType::SegmentWildcard
            && custom_name
            && !part.suffix.is_empty()
            && first_is_name_code_point(&part.suffix)
        {
            r.push('\\');
        }
        r.push_str(&escape_pattern_string(&part.suffix));
        if needs_grouping {
            r.push('}');
        }
        r.push_str(part.modifier.as_str());
    }
    r
}

/// The fewest and the most `/` an input matching `parts` has (`u64::MAX`: no bound): the
/// fixed text and the group prefixes and suffixes count; a segment wildcard's body has
/// none when `/` is the delimiter, a full wildcard's or a regexp's body any number.
pub(crate) fn slash_bounds(parts: &[Part], options: &Options) -> (u64, u64) {
    let count = |s: &str| s.bytes().filter(|&b| b == b'/').count() as u64;
    let (mut lo, mut hi) = (0u64, 0u64);
    for p in parts {
        let fixed = match p.ty {
            PartType::FixedText => count(&p.value),
            _ => count(&p.prefix) + count(&p.suffix),
        };
        let body_max = match p.ty {
            PartType::FixedText => 0,
            PartType::SegmentWildcard if options.delimiter == Some('/') => 0,
            _ => u64::MAX,
        };
        let once_max = fixed.saturating_add(body_max);
        let (min, max) = match p.modifier {
            Modifier::None => (fixed, once_max),
            Modifier::Optional => (0, once_max),
            Modifier::ZeroOrMore | Modifier::OneOrMore => {
                let min = if p.modifier == Modifier::OneOrMore {
                    fixed
                } else {
                    0
                };
                (min, if once_max == 0 { 0 } else { u64::MAX })
            }
        };
        lo += min;
        hi = hi.saturating_add(max);
    }
    (lo, hi)
}
