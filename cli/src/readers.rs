//! The tool's input readers as a library: opening an input, cutting it into batches of
//! whole records ([`source`]), reading CSV, TSV and JSON Lines cells ([`table`],
//! [`records`]) and turning a batch into rows through the library's engine ([`window`],
//! [`rows`]). The `rapidurl` binary compiles the same modules; this target exists so that
//! the fuzz target `readers` (fuzz/) can drive them.

pub mod records;
pub mod rows;
pub mod source;
pub mod table;
pub mod window;
