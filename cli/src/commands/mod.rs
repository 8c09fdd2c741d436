//! The tool's commands, one module each: its arguments, its help and its run. `bench`
//! holds the arguments of `rapidurl bench`; the measurement is `crate::bench`.

pub mod bench;
pub mod check;
pub mod dedup;
pub mod lint;
pub mod parse;
pub mod stats;
