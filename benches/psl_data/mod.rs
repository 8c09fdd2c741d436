//! Shared by the public suffix benches (`psl`, `psl_beside`, as their module `psl_data`):
//! the kasztp corpus, its domain hosts, and the copy of the list that the
//! `publicsuffix` crate ships.

#![allow(dead_code)] // each bench uses a part

use rapidurl_testkit::data as test_common;

/// The text of `kasztp.txt` (one URL a line) from the shared corpora.
pub fn kasztp_text() -> String {
    let path = test_common::corpora_dir().join("kasztp.txt");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (set RAPIDURL_CORPORA_DIR)", path.display()))
}

/// The hostnames of the URLs among `lines` whose host is a domain, in order.
pub fn domain_hosts<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| rapidurl::Url::parse(l.as_ref()).ok())
        .filter(|u| u.host_kind() == rapidurl::HostKind::Domain)
        .map(|u| u.hostname().to_owned())
        .collect()
}

/// `tests/public_suffix_list.dat` of the `publicsuffix` crate in the cargo registry.
pub fn publicsuffix_dat() -> String {
    let dat = test_common::registry_crate_dir("publicsuffix")
        .expect("the publicsuffix crate in the cargo registry")
        .join("tests/public_suffix_list.dat");
    std::fs::read_to_string(&dat).expect("the shipped list")
}

/// The sum of `f`'s lengths over `hosts` (what the lookup benches compute, so that no
/// lookup is optimized away).
pub fn total_len<'h>(hosts: &'h [String], f: impl Fn(&'h str) -> Option<usize>) -> usize {
    hosts.iter().filter_map(|h| f(h)).sum()
}

/// What a pass over the corpus does with each URL beside `parse_ref`.
#[derive(Clone, Copy, Debug)]
pub enum Beside {
    /// Reads the hostname (the baseline).
    Hostname,
    /// `UrlRef::registrable_domain`.
    RegistrableDomain,
    /// The `psl` crate's `List.domain` on the hostname.
    PslCrate,
    /// `UrlRef::top_level_domain` (the last label): what finding one label costs, a
    /// floor for any lookup.
    TopLevelDomain,
}

impl Beside {
    pub const ALL: [Beside; 4] = [
        Beside::Hostname,
        Beside::RegistrableDomain,
        Beside::PslCrate,
        Beside::TopLevelDomain,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Beside::Hostname => "parse_ref",
            Beside::RegistrableDomain => "parse_ref + registrable_domain()",
            Beside::PslCrate => "parse_ref + psl crate on hostname",
            Beside::TopLevelDomain => "parse_ref + top_level_domain()",
        }
    }
}

/// The work of `$what` on each URL as `$f` (a function of `&UrlRef` giving a length) in
/// `$body`, so that the passes below share it.
macro_rules! with_work {
    ($what:expr, |$f:ident| $body:expr) => {
        with_work!(@ $what, $f, $body,
            Hostname hostname_len,
            RegistrableDomain registrable_domain_len,
            PslCrate psl_crate_len,
            TopLevelDomain top_level_domain_len)
    };
    (@ $what:expr, $f:ident, $body:expr, $($variant:ident $work:ident),*) => {
        match $what {
            $(Beside::$variant => {
                let $f = $work;
                $body
            })*
        }
    };
}

fn hostname_len(u: &rapidurl::UrlRef<'_>) -> usize {
    u.hostname().len()
}

fn registrable_domain_len(u: &rapidurl::UrlRef<'_>) -> usize {
    u.registrable_domain().map_or(0, str::len)
}

fn psl_crate_len(u: &rapidurl::UrlRef<'_>) -> usize {
    use psl::Psl;
    psl::List
        .domain(u.hostname().as_bytes())
        .map_or(0, |d| d.as_bytes().len())
}

fn top_level_domain_len(u: &rapidurl::UrlRef<'_>) -> usize {
    u.top_level_domain().map_or(0, str::len)
}

/// One pass of `parse_ref` over `lines` (in `arena`, reset first) doing `what` with each
/// URL; the sum of the lengths read.
pub fn parse_pass(lines: &[&str], arena: &mut rapidurl::bumpalo::Bump, what: Beside) -> usize {
    arena.reset();
    with_work!(what, |f| each_url(lines, arena, f))
}

/// One pass doing `what` with each of `urls`, parsed beforehand: the work alone, without
/// the parse around it.
pub fn parsed_pass(urls: &[rapidurl::UrlRef<'_>], what: Beside) -> usize {
    with_work!(what, |f| each_parsed(urls, f))
}

#[inline(never)]
fn each_parsed(urls: &[rapidurl::UrlRef<'_>], f: impl Fn(&rapidurl::UrlRef<'_>) -> usize) -> usize {
    urls.iter().map(f).sum()
}

#[inline(always)]
fn each_url(
    lines: &[&str],
    arena: &rapidurl::bumpalo::Bump,
    f: impl Fn(&rapidurl::UrlRef<'_>) -> usize,
) -> usize {
    let mut n = 0;
    for l in lines {
        if let Ok(u) = rapidurl::parse_ref(l, arena) {
            n += f(&u);
        }
    }
    n
}
