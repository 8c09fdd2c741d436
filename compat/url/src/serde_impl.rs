//! serde: a URL is its serialization as a string; `serialize_internal` writes the `url`
//! crate's tuple of serialization and offsets.

use crate::host::HostInternal;
use crate::Url;
use serde::de::{Error, Visitor};
use std::fmt;

impl serde::Serialize for Url {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Url {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Url, D::Error> {
        struct UrlVisitor;

        impl Visitor<'_> for UrlVisitor {
            type Value = Url;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string representing an URL")
            }

            fn visit_str<E: Error>(self, s: &str) -> Result<Url, E> {
                Url::parse(s).map_err(|err| Error::custom(format!("{err}: {s:?}")))
            }
        }

        deserializer.deserialize_str(UrlVisitor)
    }
}

/// The tuple `serialize_internal` writes: serialization, scheme_end, username_end,
/// host_start, host_end, host, port, path_start, query_start, fragment_start.
type Internal = (
    String,
    u32,
    u32,
    u32,
    u32,
    HostInternal,
    Option<u16>,
    u32,
    Option<u32>,
    Option<u32>,
);

fn internal(url: &Url) -> Internal {
    let c = url.inner.components();
    (
        url.as_str().to_owned(),
        c.scheme_end(),
        c.username_end(),
        c.host_start(),
        c.host_end(),
        HostInternal::from(url.host()),
        c.port(),
        c.path_start(),
        c.query_start(),
        c.fragment_start(),
    )
}

pub(crate) fn serialize_internal<S: serde::Serializer>(
    url: &Url,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&internal(url), serializer)
}

pub(crate) fn deserialize_internal<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Url, D::Error> {
    let read: Internal = serde::Deserialize::deserialize(deserializer)?;
    let url = Url::parse(&read.0).map_err(|e| Error::custom(format!("{e}: {:?}", read.0)))?;
    if internal(&url) != read {
        return Err(Error::custom(format!(
            "the offsets do not match the serialization {:?}",
            read.0
        )));
    }
    Ok(url)
}
