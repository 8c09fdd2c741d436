//! Helpers shared by rapidurl's tests, benches, fuzz targets and the tool's tests: one
//! copy of each, used as a dev-dependency (`publish = false`).
//!
//! - [`data`]: where the WPT files, the corpora and the data dependencies ship are;
//! - [`invariants`]: what "the same URL" means, and the invariants every parsed URL keeps;
//! - [`psl_oracle`]: the `psl` crate's compiled matcher, answering as
//!   `rapidurl::psl::SuffixList::lookup` does, the oracle of the built-in table;
//! - [`counting_alloc`]: a counting global allocator for the allocation tests;
//! - [`regexps`]: random ECMAScript regexps and inputs, and regress's answers, for
//!   comparing the own regexp engine with it;
//! - [`threads`]: running a test where no thread can be started (`scripts/nothreads.c`
//!   preloaded).

pub mod counting_alloc;
pub mod data;
pub mod invariants;
pub mod psl_oracle;
pub mod regexps;
pub mod threads;
