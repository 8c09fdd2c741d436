//! The output side: the row writers of the text formats, TSV, CSV and JSON Lines, with the
//! columns and formats every writer shares ([`text`]); Parquet ([`parquet`]); and the
//! `-o FILE` that only a run that succeeds puts in place ([`file`]). Start reading at
//! [`text`]'s `RowFormat`.

pub mod file;
pub mod parquet;
pub mod text;

pub use text::{
    Column, ERROR_COLUMN, Format, RowFormat, RowText, field_context, push_csv, push_json_string,
};
