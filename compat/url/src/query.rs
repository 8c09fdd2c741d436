//! [`UrlQuery`]: the target of `query_pairs_mut`'s serializer.

use crate::Url;

/// Where [`Url::query_pairs_mut`]'s serializer writes: the URL's serialization up to the
/// end of its query. The URL is written again (fragment restored) when the serializer is
/// finished or dropped.
#[derive(Debug)]
pub struct UrlQuery<'a> {
    url: Option<&'a mut Url>,
    /// The serialization up to the end of the query, which the serializer extends.
    text: String,
    /// The fragment (with `#`) to restore after the query.
    fragment: String,
}

pub(crate) fn serializer(url: &mut Url) -> form_urlencoded::Serializer<'_, UrlQuery<'_>> {
    let s = url.as_str();
    let c = url.inner.components();
    let (end, fragment) = match c.fragment_start() {
        Some(f) => (f as usize, s[f as usize..].to_owned()),
        None => (s.len(), String::new()),
    };
    let mut text = String::with_capacity(end + 64);
    text.push_str(&s[..end]);
    let start = match c.query_start() {
        Some(q) => q as usize + 1,
        None => {
            text.push('?');
            text.len()
        }
    };
    let target = UrlQuery {
        url: Some(url),
        text,
        fragment,
    };
    form_urlencoded::Serializer::for_suffix(target, start)
}

/// The URL becomes `text` (its serialization up to the end of the query) and `fragment`.
fn write_back(url: &mut Url, text: &mut String, fragment: &str) {
    text.push_str(fragment);
    if let Some(new) = Url::reparse(text) {
        *url = new;
    }
}

impl<'a> form_urlencoded::Target for UrlQuery<'a> {
    fn as_mut_string(&mut self) -> &mut String {
        &mut self.text
    }

    fn finish(mut self) -> &'a mut Url {
        let url = self.url.take().expect("a UrlQuery is finished once");
        write_back(url, &mut self.text, &self.fragment);
        url
    }

    type Finished = &'a mut Url;
}

impl Drop for UrlQuery<'_> {
    fn drop(&mut self) {
        if let Some(url) = self.url.take() {
            write_back(url, &mut self.text, &self.fragment);
        }
    }
}
