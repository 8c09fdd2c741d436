//! Parsing a constructor string (`https://*.example.com/users/:id`) into the component
//! pattern strings (URL Pattern Standard, "Constructor string parsing").

use super::error::PatternError;
use super::init::{HASH, HOSTNAME, Init, PASSWORD, PATHNAME, PORT, PROTOCOL, SEARCH, USERNAME};
use super::tokenizer::{Policy, Token, TokenType, tokenize};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Init,
    Protocol,
    Authority,
    Username,
    Password,
    Hostname,
    Port,
    Pathname,
    Search,
    Hash,
    Done,
}

impl State {
    /// The component this state fills, if any.
    fn component(self) -> Option<usize> {
        Some(match self {
            State::Protocol => PROTOCOL,
            State::Username => USERNAME,
            State::Password => PASSWORD,
            State::Hostname => HOSTNAME,
            State::Port => PORT,
            State::Pathname => PATHNAME,
            State::Search => SEARCH,
            State::Hash => HASH,
            _ => return None,
        })
    }
}

struct ConstructorParser<'a> {
    input: &'a [char],
    tokens: Vec<Token>,
    result: Init,
    component_start: usize,
    token_index: usize,
    token_increment: usize,
    group_depth: usize,
    hostname_ipv6_bracket_depth: isize,
    protocol_matches_special_scheme: bool,
    state: State,
}

impl ConstructorParser<'_> {
    fn change_state(&mut self, new_state: State, skip: usize) {
        use State::*;
        if let Some(c) = self.state.component() {
            self.result.comps[c] = Some(self.make_component_string());
        }
        if self.state != Init && new_state != Done {
            if matches!(self.state, Protocol | Authority | Username | Password)
                && matches!(new_state, Port | Pathname | Search | Hash)
                && self.result.comps[HOSTNAME].is_none()
            {
                self.result.comps[HOSTNAME] = Some(String::new());
            }
            if matches!(
                self.state,
                Protocol | Authority | Username | Password | Hostname | Port
            ) && matches!(new_state, Search | Hash)
                && self.result.comps[PATHNAME].is_none()
            {
                self.result.comps[PATHNAME] = Some(if self.protocol_matches_special_scheme {
                    "/".to_owned()
                } else {
                    String::new()
                });
            }
            if matches!(
                self.state,
                Protocol | Authority | Username | Password | Hostname | Port | Pathname
            ) && new_state == Hash
                && self.result.comps[SEARCH].is_none()
            {
                self.result.comps[SEARCH] = Some(String::new());
            }
        }
        self.state = new_state;
        self.token_index += skip;
        self.component_start = self.token_index;
        self.token_increment = 0;
    }

    fn rewind(&mut self) {
        self.token_index = self.component_start;
        self.token_increment = 0;
    }

    fn rewind_and_set_state(&mut self, state: State) {
        self.rewind();
        self.state = state;
    }

    fn safe_token(&self, index: usize) -> &Token {
        self.tokens
            .get(index)
            .unwrap_or_else(|| &self.tokens[self.tokens.len() - 1])
    }

    fn is_non_special_pattern_char(&self, index: usize, value: &str) -> bool {
        let token = self.safe_token(index);
        token.value == value
            && matches!(
                token.ty,
                TokenType::Char | TokenType::EscapedChar | TokenType::InvalidChar
            )
    }

    fn here_is(&self, value: &str) -> bool {
        self.is_non_special_pattern_char(self.token_index, value)
    }

    fn next_is_authority_slashes(&self) -> bool {
        self.is_non_special_pattern_char(self.token_index + 1, "/")
            && self.is_non_special_pattern_char(self.token_index + 2, "/")
    }

    fn is_search_prefix(&self) -> bool {
        if self.here_is("?") {
            return true;
        }
        if self.tokens[self.token_index].value != "?" {
            return false;
        }
        let Some(previous) = self.token_index.checked_sub(1) else {
            return true;
        };
        let previous = self.safe_token(previous);
        !matches!(
            previous.ty,
            TokenType::Name | TokenType::Regexp | TokenType::Close | TokenType::Asterisk
        )
    }

    fn make_component_string(&self) -> String {
        let token = &self.tokens[self.token_index];
        let start = self.safe_token(self.component_start).index;
        self.input[start..token.index].iter().collect()
    }

    fn compute_protocol_matches_special_scheme(&mut self) -> Result<(), PatternError> {
        let protocol = self.make_component_string();
        let component = super::Component::compile(
            &protocol,
            &super::canon::protocol,
            super::parts::Options::DEFAULT,
            "protocol",
        )?;
        self.protocol_matches_special_scheme = component.matches_special_scheme();
        Ok(())
    }
}

/// Parse a constructor string.
pub(crate) fn parse_constructor_string(input: &str) -> Result<Init, PatternError> {
    let chars: Vec<char> = input.chars().collect();
    let tokens = tokenize(&chars, Policy::Lenient)?;
    let mut p = ConstructorParser {
        input: &chars,
        tokens,
        result: Init::default(),
        component_start: 0,
        token_index: 0,
        token_increment: 1,
        group_depth: 0,
        hostname_ipv6_bracket_depth: 0,
        protocol_matches_special_scheme: false,
        state: State::Init,
    };
    while p.token_index < p.tokens.len() {
        p.token_increment = 1;
        if p.tokens[p.token_index].ty == TokenType::End {
            if p.state == State::Init {
                p.rewind();
                if p.here_is("#") {
                    p.change_state(State::Hash, 1);
                } else if p.is_search_prefix() {
                    p.change_state(State::Search, 1);
                } else {
                    p.change_state(State::Pathname, 0);
                }
                p.token_index += p.token_increment;
                continue;
            }
            if p.state == State::Authority {
                p.rewind_and_set_state(State::Hostname);
                p.token_index += p.token_increment;
                continue;
            }
            p.change_state(State::Done, 0);
            break;
        }
        if p.tokens[p.token_index].ty == TokenType::Open {
            p.group_depth += 1;
            p.token_index += p.token_increment;
            continue;
        }
        if p.group_depth > 0 {
            if p.tokens[p.token_index].ty == TokenType::Close {
                p.group_depth -= 1;
            } else {
                p.token_index += p.token_increment;
                continue;
            }
        }
        match p.state {
            State::Init => {
                if p.here_is(":") {
                    p.rewind_and_set_state(State::Protocol);
                }
            }
            State::Protocol => {
                if p.here_is(":") {
                    p.compute_protocol_matches_special_scheme()?;
                    let (mut next_state, mut skip) = (State::Pathname, 1);
                    if p.next_is_authority_slashes() {
                        next_state = State::Authority;
                        skip = 3;
                    } else if p.protocol_matches_special_scheme {
                        next_state = State::Authority;
                    }
                    p.change_state(next_state, skip);
                }
            }
            State::Authority => {
                if p.here_is("@") {
                    p.rewind_and_set_state(State::Username);
                } else if p.here_is("/") || p.is_search_prefix() || p.here_is("#") {
                    p.rewind_and_set_state(State::Hostname);
                }
            }
            State::Username => {
                if p.here_is(":") {
                    p.change_state(State::Password, 1);
                } else if p.here_is("@") {
                    p.change_state(State::Hostname, 1);
                }
            }
            State::Password => {
                if p.here_is("@") {
                    p.change_state(State::Hostname, 1);
                }
            }
            State::Hostname => {
                if p.here_is("[") {
                    p.hostname_ipv6_bracket_depth += 1;
                } else if p.here_is("]") {
                    p.hostname_ipv6_bracket_depth -= 1;
                } else if p.here_is(":") && p.hostname_ipv6_bracket_depth == 0 {
                    p.change_state(State::Port, 1);
                } else if p.here_is("/") {
                    p.change_state(State::Pathname, 0);
                } else if p.is_search_prefix() {
                    p.change_state(State::Search, 1);
                } else if p.here_is("#") {
                    p.change_state(State::Hash, 1);
                }
            }
            State::Port => {
                if p.here_is("/") {
                    p.change_state(State::Pathname, 0);
                } else if p.is_search_prefix() {
                    p.change_state(State::Search, 1);
                } else if p.here_is("#") {
                    p.change_state(State::Hash, 1);
                }
            }
            State::Pathname => {
                if p.is_search_prefix() {
                    p.change_state(State::Search, 1);
                } else if p.here_is("#") {
                    p.change_state(State::Hash, 1);
                }
            }
            State::Search => {
                if p.here_is("#") {
                    p.change_state(State::Hash, 1);
                }
            }
            State::Hash | State::Done => {}
        }
        p.token_index += p.token_increment;
    }
    if p.result.comps[HOSTNAME].is_some() && p.result.comps[PORT].is_none() {
        p.result.comps[PORT] = Some(String::new());
    }
    Ok(p.result)
}
