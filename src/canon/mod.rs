//! Canonical keys: one string per resource, for crawlers, archives and deduplication.
//!
//! A crawler meets the same page under many URLs (`HTTP://Example.com:80/a?b=2&a=1#top`,
//! `http://example.com/a?a=1&b=2`); before it fetches, stores or counts one, it reduces it
//! to a key. Every key here is computed from a parsed URL ([`UrlRef`]), so it starts from
//! the WHATWG parse: a string that does not parse has no key.
//!
//! | Preset | Function | Is | Computed as |
//! |---|---|---|---|
//! | SURT | [`surt()`], [`surt_with`] | not a URL: `com,example)/a?a=1&b=2` | the `surt` package's `surt.surt(url)` (Internet Archive CDX keys) |
//! | Scrapy | [`scrapy()`] | a URL | `w3lib.url.canonicalize_url(url)` (Scrapy's request fingerprints) |
//! | Safe Browsing | [`safe_browsing()`] | a URL | Google Safe Browsing's documented canonicalization |
//! | Dedup | [`dedup`], [`dedup_with`] | a URL | this crate's own "same resource?" key, each step switchable ([`DedupOptions`]) |
//!
//! The presets that give a URL give a fixed point of the WHATWG parser (parsing the key
//! gives the key back as its `href`) and are idempotent (the key of a key is itself).
//! Where a preset's reference computes something else on a URL the WHATWG parser reads
//! differently, the differences are named in `docs/canon.md`.
//!
//! ```
//! use rapidurl::canon::{self, Preset};
//!
//! let arena = rapidurl::bumpalo::Bump::new();
//! let url = rapidurl::parse_ref("HTTP://www.Example.com:80/a/?b=2&a=1&utm_source=x#top", &arena).unwrap();
//! assert_eq!(canon::surt(&url), "com,example)/a?a=1&b=2&utm_source=x");
//! assert_eq!(canon::dedup(&url), "http://www.example.com/a/?a=1&b=2");
//! assert_eq!(canon::scrapy(&url), "http://www.example.com/a/?a=1&b=2&utm_source=x");
//! assert_eq!(canon::safe_browsing(&url), "http://www.example.com/a/?b=2&a=1&utm_source=x");
//! assert_eq!(
//!     canon::canonicalize("http://example.com/?b&a", Preset::Scrapy).unwrap(),
//!     "http://example.com/?a=&b="
//! );
//! assert!(canon::canonicalize("http://exa mple.com/", Preset::Dedup).is_err());
//! assert_eq!(
//!     canon::canonicalize("www.google.com", Preset::SafeBrowsing).unwrap(),
//!     "http://www.google.com/"
//! );
//! ```

mod dedup;
pub mod safe_browsing;
pub mod scrapy;
mod split;
pub mod surt;

#[cfg(feature = "field")]
pub(crate) use self::dedup::dedup_borrowed;
pub use self::dedup::{DEFAULT_TRACKING_PARAMS, DedupOptions, dedup, dedup_into, dedup_with};
pub use self::safe_browsing::{safe_browsing, safe_browsing_into};
pub use self::scrapy::{scrapy, scrapy_into};
pub use self::surt::{Options as SurtOptions, surt, surt_input, surt_into, surt_with};

use crate::error::ParseError;
use crate::percent::{hex_value, push_pct};
use crate::view::UrlRef;
use std::fmt;
use std::str::FromStr;

/// A canonicalization, by the name the Python package and the tool give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// [`dedup`] with its defaults (`"dedup"`).
    Dedup,
    /// [`scrapy()`] (`"scrapy"`).
    Scrapy,
    /// [`safe_browsing()`] (`"safe_browsing"`).
    SafeBrowsing,
    /// [`surt()`] with its defaults (`"surt"`): not a URL.
    Surt,
}

impl Preset {
    /// Every preset, in the order of [`Preset::name`]'s table.
    pub const ALL: [Preset; 4] = [
        Preset::Dedup,
        Preset::Scrapy,
        Preset::SafeBrowsing,
        Preset::Surt,
    ];

    /// The preset's name: `dedup`, `scrapy`, `safe_browsing`, `surt`.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Dedup => "dedup",
            Preset::Scrapy => "scrapy",
            Preset::SafeBrowsing => "safe_browsing",
            Preset::Surt => "surt",
        }
    }

    /// Whether the preset's key is a URL (all but SURT).
    pub fn is_url(self) -> bool {
        self != Preset::Surt
    }

    /// Appends the key of `url` to `out`.
    pub fn key_into(self, url: &UrlRef<'_>, out: &mut String) {
        match self {
            Preset::Dedup => dedup_into(url, DedupOptions::defaults(), out),
            Preset::Scrapy => scrapy_into(url, out),
            Preset::SafeBrowsing => safe_browsing_into(url, out),
            Preset::Surt => surt_into(url, &SurtOptions::default(), out),
        }
    }

    /// The key of `url`.
    pub fn key(self, url: &UrlRef<'_>) -> String {
        let mut out = String::with_capacity(url.href().len());
        self.key_into(url, &mut out);
        out
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = UnknownPreset;

    /// A preset by its name (see [`Preset::name`]).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| UnknownPreset(name.to_owned()))
    }
}

/// A preset name that [`Preset`] does not know; its message lists the known ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPreset(pub String);

impl fmt::Display for UnknownPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown canonicalization preset {:?}; the presets are dedup, scrapy, safe_browsing, surt",
            self.0
        )
    }
}

impl std::error::Error for UnknownPreset {}

/// Parses `input` (WHATWG, no base) and returns its key under `preset`; the parse error
/// when it does not parse. Safe Browsing takes any input as Google's rules do
/// ([`safe_browsing::canonicalize_input`]: no scheme means `http://`, a host may hold
/// any byte) and never fails.
pub fn canonicalize(input: &str, preset: Preset) -> Result<String, ParseError> {
    if preset == Preset::SafeBrowsing {
        return Ok(safe_browsing::canonicalize_input(input.as_bytes()));
    }
    let arena = bumpalo::Bump::new();
    let url = crate::parse_ref(input, &arena)?;
    Ok(preset.key(&url))
}

/// Percent-decodes `input` until nothing is left to decode (`%2541` gives `A`), in one
/// pass: each decoded byte may complete an escape with the bytes before it, which is then
/// decoded at once. Each decoding shortens the output by two bytes, so the work is linear.
pub(crate) fn unescape_repeatedly(input: &[u8], out: &mut Vec<u8>) {
    out.clear();
    if memchr::memchr(b'%', input).is_none() {
        out.extend_from_slice(input);
        return;
    }
    out.reserve(input.len());
    for &b in input {
        out.push(b);
        loop {
            let n = out.len();
            if n < 3 || out[n - 3] != b'%' {
                break;
            }
            match (hex_value(out[n - 2]), hex_value(out[n - 1])) {
                (Some(h), Some(l)) => {
                    out.truncate(n - 3);
                    out.push(h << 4 | l);
                }
                _ => break,
            }
        }
    }
}

/// Whether `first` is directly followed by `second` somewhere in `bytes` (for short
/// spans such as a host or a path: a search for `second` and a look behind each hit,
/// cheaper there than a substring search's set-up).
#[inline]
pub(crate) fn has_pair(bytes: &[u8], first: u8, second: u8) -> bool {
    memchr::memchr_iter(second, bytes).any(|i| i > 0 && bytes[i - 1] == first)
}

/// A set of bytes to percent-encode, as a 256-entry table.
pub(crate) struct ByteSet([bool; 256]);

impl ByteSet {
    /// Bytes ≤ 0x20, ≥ 0x7F, and the ASCII bytes of `extra`.
    pub(crate) const fn controls_space_high_and(extra: &[u8]) -> ByteSet {
        let mut t = [false; 256];
        let mut b = 0;
        while b < 256 {
            t[b] = b <= 0x20 || b >= 0x7f;
            b += 1;
        }
        let mut i = 0;
        while i < extra.len() {
            t[extra[i] as usize] = true;
            i += 1;
        }
        ByteSet(t)
    }

    /// Every byte but ASCII letters, digits, and the bytes of `keep`.
    pub(crate) const fn all_but_alnum_and(keep: &[u8]) -> ByteSet {
        let mut t = [true; 256];
        let mut b = 0;
        while b < 128 {
            let c = b as u8;
            if c.is_ascii_alphanumeric() {
                t[b] = false;
            }
            b += 1;
        }
        let mut i = 0;
        while i < keep.len() {
            t[keep[i] as usize] = false;
            i += 1;
        }
        ByteSet(t)
    }

    #[inline]
    pub(crate) fn contains(&self, b: u8) -> bool {
        self.0[b as usize]
    }
}

/// Appends `bytes` to `out`, each byte of `set` as `%XX` (upper-case hex).
pub(crate) fn escape_into(bytes: &[u8], set: &ByteSet, out: &mut String) {
    escape_with(bytes, set, out, push_pct);
}

/// Appends `bytes` to `out`, each byte of `set` written by `escape`, the runs between them
/// as they are.
#[inline(always)]
pub(crate) fn escape_with(
    bytes: &[u8],
    set: &ByteSet,
    out: &mut String,
    escape: impl Fn(&mut String, u8),
) {
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if set.contains(b) {
            // Bytes outside `set` are ASCII (every set holds the bytes ≥ 0x80).
            out.push_str(ascii(&bytes[start..i]));
            escape(out, b);
            start = i + 1;
        }
    }
    out.push_str(ascii(&bytes[start..]));
}

/// `bytes` as text: every caller passes ASCII.
fn ascii(bytes: &[u8]) -> &str {
    debug_assert!(bytes.is_ascii());
    crate::scan::ascii(bytes).unwrap_or("")
}

/// Whether `b` is an RFC 3986 unreserved byte (`A-Z a-z 0-9 - . _ ~`).
#[inline]
pub(crate) fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// Appends `text` with each `%XX` escape of an unreserved byte decoded and every other
/// escape's hex upper-cased; a decoded hex digit stays escaped where it would complete an
/// escape with a `%` before it (so that the result is its own normal form).
pub(crate) fn normalize_escapes_into(text: &str, out: &mut String) {
    let b = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'%' || i + 2 >= b.len() {
            i += 1;
            continue;
        }
        let (Some(h), Some(l)) = (hex_value(b[i + 1]), hex_value(b[i + 2])) else {
            i += 1;
            continue;
        };
        out.push_str(&text[start..i]);
        let v = h << 4 | l;
        let completes = completes_escape(out, v);
        if is_unreserved(v) && !completes {
            out.push(v as char);
        } else {
            push_pct(out, v);
        }
        i += 3;
        start = i;
    }
    out.push_str(&text[start..]);
}

/// Whether the byte `v`, written after `out`, would complete an escape with a `%` before
/// it (`%` then `v`, or `%`, a hex digit, then `v`): decoding to it would change what a
/// second pass reads, so it stays encoded.
pub(crate) fn completes_escape(out: &str, v: u8) -> bool {
    let tail = out.as_bytes();
    let n = tail.len();
    v.is_ascii_hexdigit()
        && ((n >= 1 && tail[n - 1] == b'%')
            || (n >= 2 && tail[n - 2] == b'%' && tail[n - 1].is_ascii_hexdigit()))
}
