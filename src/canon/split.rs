//! The splitting rules of the keys that read their input as it is, without the URL
//! parser (`safe_browsing`, `surt::surt_input`): where the scheme, the authority and the
//! host and port are. What each key then does with the host (brackets, ports, dots) is
//! its own.

/// The length of `scheme` in `scheme:` at the start of `url` (`[a-zA-Z][a-zA-Z0-9+.-]*`),
/// or `None` when `url` does not start with one.
pub(crate) fn scheme_len(url: &[u8]) -> Option<usize> {
    if !url.first()?.is_ascii_alphabetic() {
        return None;
    }
    let n = url
        .iter()
        .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
    (url[n] == b':').then_some(n)
}

/// The length of the authority at the start of `rest` (what follows `//`): up to the
/// first `/` or `?`.
pub(crate) fn authority_len(rest: &[u8]) -> usize {
    rest.iter()
        .position(|&b| matches!(b, b'/' | b'?'))
        .unwrap_or(rest.len())
}

/// The host and port of `authority`: what follows its last `@` (the credentials
/// dropped).
pub(crate) fn host_port(authority: &[u8]) -> &[u8] {
    match memchr::memrchr(b'@', authority) {
        Some(i) => &authority[i + 1..],
        None => authority,
    }
}
