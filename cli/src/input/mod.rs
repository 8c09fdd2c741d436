//! The input side: opening an input and cutting it into batches of whole records
//! ([`source`]), gzip and zstd inputs ([`compressed`]), reading CSV, TSV and JSON Lines
//! cells ([`table`], [`records`]), logs and crawl indexes ([`logs`]), WARC records
//! ([`warc`]), the rows a command's sink sees ([`rows`]), and a window of batches as the
//! library engine's source and sink ([`window`]). Start reading at [`source`], then
//! [`window`].
//!
//! The room imports nothing of the rest of the tool. It is also the `rapidurl_cli` library
//! (this file is its root), so that the fuzz targets `readers` and `warc` (fuzz/) can
//! drive it; the `rapidurl` binary compiles the same modules as its `input` module.

pub mod compressed;
pub mod logs;
pub mod records;
pub mod rows;
pub mod source;
pub mod table;
pub mod warc;
pub mod window;
