//! Tokenizing a pattern string (URL Pattern Standard, "Tokenizing").
//!
//! The tokenizer works on code points: token indices are code point indices into the
//! pattern string, as the Standard counts them (error positions use them too).

use super::error::{PatternError, PatternErrorKind};

/// The kind of a [`Token`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TokenType {
    /// `{`
    Open,
    /// `}`
    Close,
    /// `(regexp)`; the value is the text between the parentheses.
    Regexp,
    /// `:name`; the value is the name.
    Name,
    /// A code point with no syntactic meaning.
    Char,
    /// `\c`; the value is `c`.
    EscapedChar,
    /// `?` or `+`.
    OtherModifier,
    /// `*`.
    Asterisk,
    /// The end of the pattern string.
    End,
    /// A code point that is not valid where it is (lenient policy only).
    InvalidChar,
}

/// One token: its type, the code point index where it starts, and its value.
#[derive(Clone, Debug)]
pub(crate) struct Token {
    pub(crate) ty: TokenType,
    pub(crate) index: usize,
    pub(crate) value: String,
}

/// Strict (errors are errors) or lenient (errors become `InvalidChar` tokens).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Policy {
    Strict,
    Lenient,
}

/// Whether `c` may start (`first`) or continue a name: the ECMAScript IdentifierStart
/// and IdentifierPart sets.
pub(crate) fn is_valid_name_code_point(c: char, first: bool) -> bool {
    use icu_properties::CodePointSetData;
    use icu_properties::props::{IdContinue, IdStart};
    if first {
        c == '$' || c == '_' || CodePointSetData::new::<IdStart>().contains(c)
    } else {
        c == '$'
            || c == '\u{200C}'
            || c == '\u{200D}'
            || CodePointSetData::new::<IdContinue>().contains(c)
    }
}

struct Tokenizer<'a> {
    input: &'a [char],
    policy: Policy,
    tokens: Vec<Token>,
    index: usize,
    next_index: usize,
    code_point: char,
}

impl Tokenizer<'_> {
    fn get_next_code_point(&mut self) {
        self.code_point = self.input[self.next_index];
        self.next_index += 1;
    }

    fn seek_and_get_next_code_point(&mut self, index: usize) {
        self.next_index = index;
        self.get_next_code_point();
    }

    fn add_token(&mut self, ty: TokenType, next_pos: usize, value_pos: usize, value_len: usize) {
        let value = self.input[value_pos..value_pos + value_len]
            .iter()
            .collect();
        self.tokens.push(Token {
            ty,
            index: self.index,
            value,
        });
        self.index = next_pos;
    }

    fn add_token_default_length(&mut self, ty: TokenType, next_pos: usize, value_pos: usize) {
        self.add_token(ty, next_pos, value_pos, next_pos - value_pos);
    }

    fn add_token_default(&mut self, ty: TokenType) {
        self.add_token_default_length(ty, self.next_index, self.index);
    }

    fn error(
        &mut self,
        next_pos: usize,
        value_pos: usize,
        what: &'static str,
    ) -> Result<(), PatternError> {
        match self.policy {
            Policy::Strict => {
                Err(PatternError::new(PatternErrorKind::InvalidToken(what)).at(self.index))
            }
            Policy::Lenient => {
                self.add_token_default_length(TokenType::InvalidChar, next_pos, value_pos);
                Ok(())
            }
        }
    }
}

/// Tokenizes `input` (as code points) under `policy`.
pub(crate) fn tokenize(input: &[char], policy: Policy) -> Result<Vec<Token>, PatternError> {
    let mut t = Tokenizer {
        input,
        policy,
        tokens: Vec::new(),
        index: 0,
        next_index: 0,
        code_point: '\0',
    };
    let len = input.len();
    while t.index < len {
        t.seek_and_get_next_code_point(t.index);
        match t.code_point {
            '*' => {
                t.add_token_default(TokenType::Asterisk);
                continue;
            }
            '+' | '?' => {
                t.add_token_default(TokenType::OtherModifier);
                continue;
            }
            '\\' => {
                if t.index == len - 1 {
                    t.error(
                        t.next_index,
                        t.index,
                        "a `\\` at the end of the pattern escapes nothing",
                    )?;
                    continue;
                }
                let escaped_index = t.next_index;
                t.get_next_code_point();
                t.add_token_default_length(TokenType::EscapedChar, t.next_index, escaped_index);
                continue;
            }
            '{' => {
                t.add_token_default(TokenType::Open);
                continue;
            }
            '}' => {
                t.add_token_default(TokenType::Close);
                continue;
            }
            ':' => {
                let mut name_pos = t.next_index;
                let name_start = name_pos;
                while name_pos < len {
                    t.seek_and_get_next_code_point(name_pos);
                    if !is_valid_name_code_point(t.code_point, name_pos == name_start) {
                        break;
                    }
                    name_pos = t.next_index;
                }
                if name_pos <= name_start {
                    t.error(name_start, t.index, "a `:` not followed by a group name")?;
                    continue;
                }
                t.add_token_default_length(TokenType::Name, name_pos, name_start);
                continue;
            }
            '(' => {
                let mut depth = 1usize;
                let mut regexp_pos = t.next_index;
                let regexp_start = regexp_pos;
                let mut error: Option<&'static str> = None;
                while regexp_pos < len {
                    t.seek_and_get_next_code_point(regexp_pos);
                    if !t.code_point.is_ascii() {
                        error = Some("a regexp group holds a non-ASCII code point");
                        break;
                    }
                    if regexp_pos == regexp_start && t.code_point == '?' {
                        error = Some("a regexp group starts with `?`");
                        break;
                    }
                    if t.code_point == '\\' {
                        if regexp_pos == len - 1 {
                            error = Some("a regexp group ends with `\\`");
                            break;
                        }
                        t.get_next_code_point();
                        if !t.code_point.is_ascii() {
                            error = Some("a regexp group holds a non-ASCII code point");
                            break;
                        }
                        regexp_pos = t.next_index;
                        continue;
                    }
                    if t.code_point == ')' {
                        depth -= 1;
                        if depth == 0 {
                            regexp_pos = t.next_index;
                            break;
                        }
                    } else if t.code_point == '(' {
                        depth += 1;
                        if regexp_pos == len - 1 {
                            error = Some("a regexp group is not closed");
                            break;
                        }
                        let temporary_pos = t.next_index;
                        t.get_next_code_point();
                        if t.code_point != '?' {
                            error = Some(
                                "a capturing group inside a regexp group (only `(?` groups may nest)",
                            );
                            break;
                        }
                        t.next_index = temporary_pos;
                    }
                    regexp_pos = t.next_index;
                }
                if let Some(what) = error {
                    t.error(regexp_start, t.index, what)?;
                    continue;
                }
                if depth != 0 {
                    t.error(regexp_start, t.index, "a regexp group is not closed")?;
                    continue;
                }
                let regexp_len = regexp_pos - regexp_start - 1;
                if regexp_len == 0 {
                    t.error(regexp_start, t.index, "an empty regexp group `()`")?;
                    continue;
                }
                t.add_token(TokenType::Regexp, regexp_pos, regexp_start, regexp_len);
                continue;
            }
            _ => t.add_token_default(TokenType::Char),
        }
    }
    let end = t.index;
    t.add_token_default_length(TokenType::End, end, end);
    Ok(t.tokens)
}
