//! Helpers shared by rapidurl's tests, benches, fuzz targets and the tool's tests: one
//! copy of each, used as a dev-dependency (`publish = false`).
//!
//! - [`psl_oracle`]: the `psl` crate's compiled matcher, answering as
//!   `rapidurl::psl::SuffixList::lookup` does, the oracle of the built-in table.

pub mod psl_oracle;
