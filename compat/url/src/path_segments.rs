//! [`PathSegmentsMut`]: editing a URL's path segment by segment.

use crate::edit::Pieces;
use crate::Url;
use rapidurl::percent;

/// Edits the path of a URL that can be a base, from [`Url::path_segments_mut`]. The URL
/// is written again when this is dropped.
///
/// ```
/// let mut url = url::Url::parse("https://github.com/rust-lang/rust/issues?labels=E-easy").unwrap();
/// url.path_segments_mut().unwrap().pop().push("pulls");
/// assert_eq!(url.as_str(), "https://github.com/rust-lang/rust/pulls?labels=E-easy");
/// ```
#[derive(Debug)]
pub struct PathSegmentsMut<'a> {
    url: &'a mut Url,
    /// The path being edited: `""`, or `/` and the segments.
    path: String,
}

impl<'a> PathSegmentsMut<'a> {
    pub(crate) fn new(url: &'a mut Url) -> PathSegmentsMut<'a> {
        let path = url.path().to_owned();
        PathSegmentsMut { url, path }
    }

    /// Removes every segment: the path becomes `/` (a non-special URL's empty path stays
    /// empty).
    pub fn clear(&mut self) -> &mut Self {
        self.path.truncate(1);
        self
    }

    /// Removes the last segment if it is empty (a trailing `/`), unless it is the only
    /// one.
    pub fn pop_if_empty(&mut self) -> &mut Self {
        if self.path.len() > 1 && self.path.ends_with('/') {
            self.path.pop();
        }
        self
    }

    /// Removes the last segment, if there is one.
    pub fn pop(&mut self) -> &mut Self {
        if self.path.len() > 1 {
            let last_slash = self.path[1..].rfind('/').map_or(0, |i| i);
            self.path.truncate(1 + last_slash);
        }
        self
    }

    /// Appends a segment, percent-encoded; `/` (and `\` in a special URL), `?`, `#` and
    /// `%` are encoded too, so the segment stays one and reads back as given. `.` and
    /// `..` are ignored.
    pub fn push(&mut self, segment: &str) -> &mut Self {
        self.extend(Some(segment))
    }

    /// Appends each segment as [`PathSegmentsMut::push`] does.
    pub fn extend<I>(&mut self, segments: I) -> &mut Self
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        let special = self.url.is_special();
        for segment in segments {
            let segment = segment.as_ref();
            if matches!(segment, "." | "..") {
                continue;
            }
            if self.path.len() > 1 || self.path.is_empty() {
                self.path.push('/');
            }
            for c in segment.chars() {
                match c {
                    '\t' | '\n' | '\r' => {}
                    '/' => self.path.push_str("%2F"),
                    '\\' if special => self.path.push_str("%5C"),
                    '?' => self.path.push_str("%3F"),
                    '#' => self.path.push_str("%23"),
                    '%' => self.path.push_str("%25"),
                    _ => {
                        let mut buf = [0; 4];
                        percent::encode_into(
                            c.encode_utf8(&mut buf),
                            &percent::PATH,
                            &mut self.path,
                        );
                    }
                }
            }
        }
        self
    }
}

impl Drop for PathSegmentsMut<'_> {
    fn drop(&mut self) {
        let mut pieces = Pieces::of(self.url);
        if pieces.path == self.path {
            return;
        }
        pieces.path = &self.path;
        if let Some(new) = pieces.to_url() {
            *self.url = new;
        }
    }
}
