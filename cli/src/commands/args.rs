//! The input handling every bulk command shares: the input options, opening the files or
//! standard input (before anything is written), choosing each one's format, reading the
//! first one's columns, resolving `--column`, `--base-column` and `--base`, and the
//! number of threads. Rows are then numbered (line, or row for Parquet) by the readers
//! (`crate::input::source`, `crate::input::records`) and errors reported as FILE:LINE:COL
//! (`crate::outcome`).

use std::sync::Arc;

use clap::Args;
use rapidurl::Url;

use crate::input::rows::Plan;
use crate::input::source::{self, DEFAULT_BLOCK_BYTES, Input, InputFormat, Reader};
use crate::outcome::Failure;

/// Where the rows come from (shared by `parse`, `check`, `stats` and `dedup`).
#[derive(Args, Debug)]
pub struct InputArgs {
    /// Input files; standard input when none is given or for `-`.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// The inputs' format [default: by extension: .csv, .tsv/.tab, .jsonl/.ndjson,
    /// .parquet, .cdx, .cdxj, .warc, under .gz or .zst too; lines otherwise and for
    /// standard input]. Access logs (common, combined …) are all `.log`: name theirs.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub input_format: Option<InputFormat>,

    /// The column holding the URL (tables): a name, or a number counted from 1
    /// [default: `url`, else the first column].
    #[arg(long, value_name = "NAME|N")]
    pub column: Option<String>,

    /// Resolve every URL against this base URL.
    #[arg(long, value_name = "URL")]
    pub base: Option<String>,

    /// The column holding each row's base URL: a name or a number from 1 (lines input:
    /// tab-separated field N; the URL is field 1, or 2 when N is 1).
    #[arg(long, value_name = "NAME|N")]
    pub base_column: Option<String>,

    /// Worker threads parsing (0 or absent: all cores). Output is the same for any
    /// number.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Bytes of text input read and parsed at a time (whole records; at most 1 GiB).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_BLOCK_BYTES, hide = true,
          value_parser = clap::value_parser!(u32).range(1..=1 << 30))]
    pub block_bytes: u32,
}

/// The number of threads for `--threads N`: N, or all cores for 0 or none.
pub fn thread_count(threads: Option<usize>) -> usize {
    match threads {
        Some(n) if n > 0 => n,
        _ => std::thread::available_parallelism().map_or(1, usize::from),
    }
}

/// The inputs to read: the files given, or standard input.
pub fn input_paths(files: &[String]) -> Vec<String> {
    if files.is_empty() {
        vec!["-".to_owned()]
    } else {
        files.to_vec()
    }
}

/// The column `spec` names (a name, or a number from 1) among `columns`.
fn resolve_column(
    spec: &str,
    columns: &[String],
    input: &str,
    option: &str,
) -> Result<usize, Failure> {
    let list = columns.join(", ");
    if !spec.is_empty() && spec.bytes().all(|b| b.is_ascii_digit()) {
        return match spec.parse::<usize>() {
            Ok(n) if (1..=columns.len()).contains(&n) => Ok(n - 1),
            _ => Err(Failure::Message(format!(
                "{option} {spec}: {input} has {} columns ({list})",
                columns.len()
            ))),
        };
    }
    columns.iter().position(|c| c == spec).ok_or_else(|| {
        Failure::Message(format!(
            "{option} {spec}: {input} has no column {spec:?}; its columns are {list}"
        ))
    })
}

/// The inputs, opened, and how their records become rows.
pub struct Prepared {
    pub plan: Arc<Plan>,
    pub reader: Reader,
    /// The total size of the inputs, when every one is a regular file.
    pub total: Option<u64>,
    /// The Arrow fields of the passed-through columns (their types for Parquet input).
    pub pass_fields: Vec<arrow_schema::Field>,
}

/// Opens every input (before anything is written), reads the first one's columns, and
/// resolves `--column`, `--base-column` and `--base`. `drop` leaves the passed-through
/// columns out; `arrow_pass` says Parquet columns pass through as Arrow arrays.
pub fn prepare(args: &InputArgs, drop: bool, arrow_pass: bool) -> Result<Prepared, Failure> {
    let base_url = args
        .base
        .as_deref()
        .map(|b| {
            Url::parse(b).map_err(|e| Failure::Message(format!("invalid --base URL {b:?}: {e}")))
        })
        .transpose()?;
    let paths = input_paths(&args.files);
    let mut inputs = open_all(&paths, args)?;
    let format = inputs[0].format;
    let first = &mut inputs[0];
    let columns = first.columns().map_err(Failure::Message)?.to_vec();
    let (url, base, pass) = if format == InputFormat::Lines {
        (0, lines_base_column(args)?, Vec::new())
    } else {
        let (url, base) = table_columns(args, first, &columns)?;
        let pass = if drop {
            Vec::new()
        } else {
            (0..columns.len()).collect()
        };
        (url, base, pass)
    };
    let schema = first.arrow_schema();
    let pass_fields = pass
        .iter()
        .map(|&i| match &schema {
            Some(s) => s.field(i).clone(),
            None => arrow_schema::Field::new(&columns[i], arrow_schema::DataType::Utf8, true),
        })
        .collect();
    let projection = (format == InputFormat::Parquet && drop).then(|| {
        std::iter::once(url)
            .chain(base)
            .map(|i| columns[i].clone())
            .collect()
    });
    let plan = Plan {
        format,
        names: inputs.iter().map(|i| i.name.clone()).collect(),
        url,
        base,
        cells: !(arrow_pass && format == InputFormat::Parquet),
        pass,
        columns: columns.clone(),
        base_url,
        routes: crate::routes::lookup(),
    };
    let total = paths.iter().map(|p| Input::size(p)).sum();
    Ok(Prepared {
        plan: Arc::new(plan),
        reader: Reader {
            inputs,
            columns,
            projection,
        },
        total,
        pass_fields,
    })
}

/// Opens every input, checking that they have one format.
fn open_all(paths: &[String], args: &InputArgs) -> Result<Vec<Input>, Failure> {
    let mut inputs = Vec::with_capacity(paths.len());
    for path in paths {
        inputs.push(
            Input::open(path, args.input_format, args.block_bytes as usize)
                .map_err(Failure::Message)?,
        );
    }
    let format = inputs[0].format;
    if let Some(other) = inputs.iter().find(|i| i.format != format) {
        return Err(Failure::Message(format!(
            "{} is {} but {} is {}: give inputs of one format (or --input-format)",
            inputs[0].name,
            format.name(),
            other.name,
            other.format.name()
        )));
    }
    Ok(inputs)
}

/// The 0-based tab-separated field of `--base-column N` for lines input (no `--column`).
fn lines_base_column(args: &InputArgs) -> Result<Option<usize>, Failure> {
    if args.column.is_some() {
        return Err(Failure::Message(
            "--column names a column of a table (csv, tsv, jsonl or parquet input); lines \
             input is one URL per line (see --input-format)"
                .into(),
        ));
    }
    match args.base_column.as_deref() {
        None => Ok(None),
        Some(n) => match n.parse::<u16>() {
            Ok(n) if n >= 1 => Ok(Some(usize::from(n) - 1)),
            _ => Err(Failure::Message(format!(
                "--base-column {n}: with lines input, the number of a tab-separated \
                 field, from 1"
            ))),
        },
    }
}

/// The URL's column and the base's (`--column`, `--base-column`) of a table whose first
/// input is `first`, checked to hold strings.
fn table_columns(
    args: &InputArgs,
    first: &Input,
    columns: &[String],
) -> Result<(usize, Option<usize>), Failure> {
    if columns.is_empty() {
        return Err(Failure::Message(format!("{}: no columns", first.name)));
    }
    let url = match args.column.as_deref() {
        Some(spec) => resolve_column(spec, columns, &first.name, "--column")?,
        None => columns.iter().position(|c| c == "url").unwrap_or(0),
    };
    let base = args
        .base_column
        .as_deref()
        .map(|spec| resolve_column(spec, columns, &first.name, "--base-column"))
        .transpose()?
        .or_else(|| {
            // A log's request target is resolved against the host the log names.
            (first.format.log().is_some_and(|l| l.url_is_target()) && columns[url] == "url")
                .then(|| columns.iter().position(|c| c == "request_origin"))
                .flatten()
        });
    if base == Some(url) {
        return Err(Failure::Message(format!(
            "--base-column names the URL's column ({:?})",
            columns[url]
        )));
    }
    source::check_string_column(first, &columns[url], "the URL").map_err(Failure::Message)?;
    if let Some(b) = base {
        source::check_string_column(first, &columns[b], "the base").map_err(Failure::Message)?;
    }
    Ok((url, base))
}

/// The Public Suffix List of `--psl FILE`, or `None` for the built-in one.
pub fn load_psl(
    path: Option<&std::path::Path>,
) -> Result<Option<rapidurl::psl::SuffixList>, Failure> {
    path.map(|p| {
        rapidurl::psl::SuffixList::from_file(p).map_err(|e| Failure::Message(e.to_string()))
    })
    .transpose()
}
