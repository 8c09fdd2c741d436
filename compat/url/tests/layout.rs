//! The layout of `Url`: `Option<Url>` takes no more room than `Url`, as with rust-url, so
//! an optional URL field costs nothing over a required one.

use std::mem::size_of;

#[test]
fn option_url_is_no_larger_than_url() {
    assert_eq!(size_of::<url::Url>(), size_of::<Option<url::Url>>());
}
