//! Conversions between `file:` URLs and local paths, as the `url` crate makes them (the
//! URL Standard defines none).

use crate::Url;
use rapidurl::percent;
use std::path::{Path, PathBuf};

/// Bytes of a path segment, percent-encoded: the path percent-encode set, plus `/`, `%`
/// and `\`, and every non-ASCII byte.
fn push_segment(out: &mut String, bytes: &[u8]) {
    const SEGMENT: percent::AsciiSet = percent::PATH.add(b'/').add(b'%').add(b'\\');
    percent::encode_bytes_into(bytes, &SEGMENT, out);
}

#[cfg(not(windows))]
pub(crate) fn from_file_path(path: &Path) -> Result<Url, ()> {
    use std::os::unix::ffi::OsStrExt;
    if !path.is_absolute() {
        return Err(());
    }
    let mut s = String::from("file://");
    let mut empty = true;
    for component in path.components().skip(1) {
        empty = false;
        s.push('/');
        push_segment(&mut s, component.as_os_str().as_bytes());
    }
    if empty {
        s.push('/');
    }
    Url::reparse(&s).ok_or(())
}

#[cfg(not(windows))]
pub(crate) fn to_file_path(url: &Url) -> Result<PathBuf, ()> {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let segments = url.path_segments().ok_or(())?;
    match url.host() {
        None | Some(crate::Host::Domain("localhost")) => {}
        Some(_) => return Err(()),
    }
    let mut bytes = Vec::new();
    for segment in segments {
        bytes.push(b'/');
        bytes.extend_from_slice(&percent::decode(segment.as_bytes()));
    }
    // A path ending in a Windows drive letter gets its slash.
    let n = bytes.len();
    if n > 2 && bytes[n - 2].is_ascii_alphabetic() && matches!(bytes[n - 1], b':' | b'|') {
        bytes.push(b'/');
    }
    Ok(PathBuf::from(OsStr::from_bytes(&bytes)))
}

#[cfg(windows)]
pub(crate) fn from_file_path(path: &Path) -> Result<Url, ()> {
    use std::path::{Component, Prefix};
    if !path.is_absolute() {
        return Err(());
    }
    let mut components = path.components();
    let mut s = String::from("file://");
    let drive_only;
    match components.next() {
        Some(Component::Prefix(p)) => match p.kind() {
            Prefix::Disk(letter) | Prefix::VerbatimDisk(letter) => {
                s.push('/');
                s.push(char::from(letter));
                s.push(':');
            }
            Prefix::UNC(server, share) | Prefix::VerbatimUNC(server, share) => {
                let server = server.to_str().ok_or(())?;
                let host = crate::Host::parse(server).map_err(|_| ())?;
                s.push_str(&host.to_string());
                s.push('/');
                push_segment(&mut s, share.to_str().ok_or(())?.as_bytes());
            }
            _ => return Err(()),
        },
        _ => return Err(()),
    }
    let mut only_prefix = true;
    for component in components {
        if component == Component::RootDir {
            continue;
        }
        only_prefix = false;
        s.push('/');
        push_segment(&mut s, component.as_os_str().to_str().ok_or(())?.as_bytes());
    }
    drive_only = only_prefix && s.len() == "file:///C:".len() && s.ends_with(':');
    if drive_only {
        s.push('/');
    }
    Url::reparse(&s).ok_or(())
}

#[cfg(windows)]
pub(crate) fn to_file_path(url: &Url) -> Result<PathBuf, ()> {
    let mut segments = url.path_segments().ok_or(())?;
    let host = match url.host() {
        None | Some(crate::Host::Domain("localhost")) => None,
        Some(_) if url.scheme() == "file" => url.host_str(),
        Some(_) => return Err(()),
    };
    let mut out = String::new();
    match host {
        Some(host) => {
            out.push_str(r"\\");
            out.push_str(host);
        }
        None => {
            let first = segments.next().ok_or(())?;
            let b = first.as_bytes();
            match b.len() {
                2 if b[0].is_ascii_alphabetic() && b[1] == b':' => out.push_str(first),
                4 if b[0].is_ascii_alphabetic()
                    && b[1..3] == *b"%3"
                    && matches!(b[3], b'a' | b'A') =>
                {
                    out.push_str(&first[..1]);
                    out.push(':');
                }
                _ => return Err(()),
            }
        }
    }
    for segment in segments {
        out.push('\\');
        let decoded = percent::decode(segment.as_bytes());
        out.push_str(std::str::from_utf8(&decoded).map_err(|_| ())?);
    }
    Ok(PathBuf::from(out))
}
