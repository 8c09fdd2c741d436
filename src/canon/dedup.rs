//! The dedup key: this crate's own answer to "is this the same resource?", each step
//! documented and switchable.

use super::normalize_escapes_into;
use crate::components::HostKind;
use crate::view::UrlRef;
use std::sync::OnceLock;

/// The tracking parameters [`DedupOptions::default`] removes: a name ending in `*` is a
/// prefix. Names are compared ignoring ASCII case.
pub const DEFAULT_TRACKING_PARAMS: &[&str] = &[
    "utm_*",
    "gclid",
    "gclsrc",
    "dclid",
    "gbraid",
    "wbraid",
    "fbclid",
    "msclkid",
    "yclid",
    "twclid",
    "ttclid",
    "li_fat_id",
    "mc_cid",
    "mc_eid",
    "igshid",
    "_ga",
    "_gl",
    "_hsenc",
    "_hsmi",
    "mkt_tok",
    "oly_anon_id",
    "oly_enc_id",
    "vero_id",
    "rb_clickid",
    "s_cid",
];

/// The steps of [`dedup_with`]; each is one field. `Default` is the dedup key of the
/// `canonical` field: every step on but the two foldings.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DedupOptions {
    /// Drops the fragment (`#top`). Default: on.
    pub drop_fragment: bool,
    /// Removes the query parameters named in [`DedupOptions::tracking_params`]. Default: on.
    pub strip_tracking: bool,
    /// The names [`DedupOptions::strip_tracking`] removes, ASCII case ignored, `*` at the
    /// end for a prefix. Default: [`DEFAULT_TRACKING_PARAMS`].
    pub tracking_params: Vec<String>,
    /// Sorts the query's `&`-separated parameters by name (the bytes of the name as
    /// written, after [`DedupOptions::normalize_escapes`]), keeping the order of those
    /// with the same name. Default: on.
    pub sort_query: bool,
    /// Decodes the escapes of unreserved bytes (`%7E` → `~`, `%41` → `A`) and writes the
    /// others' hex in upper case (`%2f` → `%2F`), everywhere but in the host (which the
    /// parser has already decoded). Default: on.
    pub normalize_escapes: bool,
    /// Drops an empty query: `?` alone, or nothing left once the parameters are
    /// removed. With sorting or removal on, empty parameters (`a=1&&b=2`) go too.
    /// Default: on.
    pub drop_empty_query: bool,
    /// Drops leading `www.` labels of a domain (`www.example.com` → `example.com`).
    /// Default: off.
    pub fold_www: bool,
    /// Drops the trailing `/`s of a path other than `/` (`/a/` → `/a`). Default: off.
    pub fold_trailing_slash: bool,
}

impl Default for DedupOptions {
    fn default() -> Self {
        DedupOptions {
            drop_fragment: true,
            strip_tracking: true,
            tracking_params: DEFAULT_TRACKING_PARAMS
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
            sort_query: true,
            normalize_escapes: true,
            drop_empty_query: true,
            fold_www: false,
            fold_trailing_slash: false,
        }
    }
}

impl DedupOptions {
    /// Every step off: the key is the URL's `href`.
    pub fn none() -> Self {
        DedupOptions {
            drop_fragment: false,
            strip_tracking: false,
            tracking_params: Vec::new(),
            sort_query: false,
            normalize_escapes: false,
            drop_empty_query: false,
            fold_www: false,
            fold_trailing_slash: false,
        }
    }

    /// The defaults, built once.
    pub fn defaults() -> &'static DedupOptions {
        static DEFAULTS: OnceLock<DedupOptions> = OnceLock::new();
        DEFAULTS.get_or_init(DedupOptions::default)
    }

    fn is_tracking(&self, name: &str) -> bool {
        self.tracking_params
            .iter()
            .any(|p| match p.strip_suffix('*') {
                Some(prefix) => {
                    name.len() >= prefix.len()
                        && name.as_bytes()[..prefix.len()].eq_ignore_ascii_case(prefix.as_bytes())
                }
                None => name.eq_ignore_ascii_case(p),
            })
    }
}

/// The dedup key of `url` with the default steps ([`DedupOptions::default`]), the value
/// of the `canonical` field.
///
/// ```
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("HTTP://Example.com:80/%7euser/a?b=2&utm_source=x&a=1#top", &arena).unwrap();
/// assert_eq!(rapidurl::canon::dedup(&url), "http://example.com/~user/a?a=1&b=2");
/// ```
pub fn dedup(url: &UrlRef<'_>) -> String {
    dedup_with(url, DedupOptions::defaults())
}

/// [`dedup`], borrowed from `url`'s serialization when the default steps leave it as it
/// is: a URL without `?`, `#` or `%` has no query to sort or strip, no fragment to drop
/// and no escape to normalize, and the default steps fold neither `www.` nor trailing
/// slashes. The `canonical` field's value.
#[cfg(feature = "field")]
pub(crate) fn dedup_borrowed<'a>(url: &UrlRef<'a>) -> std::borrow::Cow<'a, str> {
    let href = url.href();
    if memchr::memchr3(b'?', b'#', b'%', href.as_bytes()).is_none() {
        return std::borrow::Cow::Borrowed(href);
    }
    std::borrow::Cow::Owned(dedup(url))
}

/// The dedup key of `url` with the steps of `options`.
///
/// ```
/// use rapidurl::canon::{DedupOptions, dedup_with};
/// let arena = rapidurl::bumpalo::Bump::new();
/// let url = rapidurl::parse_ref("https://www.example.com/a/?ref=x&b=1", &arena).unwrap();
/// let options = DedupOptions {
///     fold_www: true,
///     fold_trailing_slash: true,
///     tracking_params: vec!["ref".into()],
///     ..DedupOptions::default()
/// };
/// assert_eq!(dedup_with(&url, &options), "https://example.com/a?b=1");
/// ```
pub fn dedup_with(url: &UrlRef<'_>, options: &DedupOptions) -> String {
    let mut out = String::with_capacity(url.href().len());
    dedup_into(url, options, &mut out);
    out
}

/// [`dedup_with`], appended to `out`.
pub fn dedup_into(url: &UrlRef<'_>, options: &DedupOptions, out: &mut String) {
    let href = url.href();
    let path_range = url.components().pathname_range(href);
    let host_range = url.components().hostname_range();
    // One scan for `%` over the whole URL: most URLs have none to normalize.
    let normalize = options.normalize_escapes && memchr::memchr(b'%', href.as_bytes()).is_some();
    let push = |text: &str, out: &mut String| {
        if normalize && memchr::memchr(b'%', text.as_bytes()).is_some() {
            normalize_escapes_into(text, out);
        } else {
            out.push_str(text);
        }
    };

    // Scheme, credentials, host and port.
    let mut prefix = &href[..path_range.start];
    // The `/.` the serializer writes before a path starting with `//` when there is no
    // host: written again below only if the path still needs it.
    let dot_slash =
        url.host_kind() == HostKind::None && !url.has_opaque_path() && prefix.ends_with("/.");
    if dot_slash {
        prefix = &prefix[..prefix.len() - 2];
    }
    if options.fold_www && url.host_kind() == HostKind::Domain {
        let mut host = &href[host_range.clone()];
        while host.len() > 4 && host[..4].eq_ignore_ascii_case("www.") {
            host = &host[4..];
        }
        push(&href[..host_range.start], out);
        out.push_str(host);
        out.push_str(&href[host_range.end..prefix.len()]);
    } else {
        push(prefix, out);
    }

    // The path.
    let mut path = &href[path_range.clone()];
    if options.fold_trailing_slash && !url.has_opaque_path() {
        let trimmed = path.trim_end_matches('/');
        path = if trimmed.is_empty() && !path.is_empty() {
            "/"
        } else {
            trimmed
        };
    }
    if dot_slash && path.starts_with("//") {
        out.push_str("/.");
    }
    push(path, out);

    // The query.
    if let Some(q) = url.query() {
        let start = out.len();
        if options.strip_tracking || options.sort_query {
            let mut params: Vec<&str> = q
                .split('&')
                .filter(|p| !p.is_empty())
                .filter(|p| {
                    !options.strip_tracking || {
                        let name = p.split_once('=').map_or(*p, |(n, _)| n);
                        !options.is_tracking(&decoded_name(name))
                    }
                })
                .collect();
            if options.sort_query {
                if normalize {
                    params.sort_by_cached_key(|p| {
                        let mut name = String::new();
                        push(p.split_once('=').map_or(*p, |(n, _)| n), &mut name);
                        name
                    });
                } else {
                    params.sort_by_key(|p| p.split_once('=').map_or(*p, |(n, _)| n));
                }
            }
            out.push('?');
            for (i, p) in params.iter().enumerate() {
                if i > 0 {
                    out.push('&');
                }
                push(p, out);
            }
        } else {
            out.push('?');
            push(q, out);
        }
        if options.drop_empty_query && out.len() == start + 1 {
            out.truncate(start);
        }
    }

    // The fragment.
    if !options.drop_fragment
        && let Some(f) = url.fragment()
    {
        out.push('#');
        push(f, out);
    }
}

/// A parameter's name as it is compared with the tracking list: percent-decoded (`+` as
/// a space), lossy UTF-8.
fn decoded_name(name: &str) -> std::borrow::Cow<'_, str> {
    if !name.contains(['%', '+']) {
        return std::borrow::Cow::Borrowed(name);
    }
    let mut bytes = Vec::with_capacity(name.len());
    crate::percent::decode_into(name.as_bytes(), true, &mut bytes);
    std::borrow::Cow::Owned(String::from_utf8_lossy(&bytes).into_owned())
}
