//! The parser's round trip, shared by this crate's tests and the `pattern_parse` fuzz
//! target: a pattern's normalized components, given back as a dictionary, construct the
//! same pattern again.

use super::{UrlPattern, UrlPatternInit, UrlPatternInput, UrlPatternOptions};

/// The default port of the special protocols that have one (`80` for `http`).
fn default_port(protocol: &str) -> &'static str {
    match protocol {
        "http" | "ws" => "80",
        "https" | "wss" => "443",
        "ftp" => "21",
        _ => "",
    }
}

impl UrlPattern {
    /// The normalized components as a dictionary: the protocol with one more trailing
    /// `:`, the search with one more leading `?` and the hash with one more leading `#`
    /// (a dictionary loses one of each).
    fn normalized_init(&self) -> UrlPatternInit {
        let [
            protocol,
            username,
            password,
            hostname,
            port,
            pathname,
            search,
            hash,
        ] = self.component_patterns().map(|c| Some(c.to_owned()));
        UrlPatternInit {
            protocol: protocol.map(|v| format!("{v}:")),
            username,
            password,
            hostname,
            port,
            pathname,
            search: search.map(|v| format!("?{v}")),
            hash: hash.map(|v| format!("#{v}")),
            base_url: None,
        }
    }

    /// Checks that the normalized components, given back as a dictionary (with
    /// `options`), construct the same pattern again: the same components, but for a port
    /// that canonicalization made its special protocol's default (`80 ` with `http`),
    /// which construction then empties as the Standard says; the same
    /// `has_regexp_groups`. The error says what differs. For tests and fuzz targets; not
    /// part of the supported API.
    #[doc(hidden)]
    pub fn __check_round_trip(&self, options: UrlPatternOptions) -> Result<(), String> {
        let again = UrlPattern::new(
            UrlPatternInput::Init(&self.normalized_init()),
            None,
            options,
        )
        .map_err(|e| {
            format!(
                "{:?} does not construct again: {e}",
                self.component_patterns()
            )
        })?;
        let mut expected = self.component_patterns();
        let default = default_port(expected[0]);
        if !default.is_empty() && expected[4] == default {
            expected[4] = "";
        }
        if expected != again.component_patterns() {
            return Err(format!(
                "{expected:?} constructs {:?}",
                again.component_patterns()
            ));
        }
        if self.has_regexp_groups() != again.has_regexp_groups() {
            return Err(format!("{expected:?}: has_regexp_groups differs"));
        }
        Ok(())
    }
}
