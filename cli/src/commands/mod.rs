//! The tool's commands, one module each: its arguments, its help and its run; and
//! [`args`], the input options every bulk command shares and the inputs they open.

pub mod args;
pub mod bench;
pub mod check;
pub mod dedup;
pub mod lint;
pub mod parse;
pub mod stats;
