//! The bulk commands' answers do not depend on how the work is spread: `parse -o
//! FILE.parquet` (row groups encoded on the workers, in parallel) holds the same rows as
//! `parse --format tsv`, row for row, at any number of threads and with every codec; the
//! file says the codec asked for and has dictionary pages and statistics; `stats` prints
//! the same table at any number of threads, and its counts are those of the field
//! column `parse` writes, counted here.

mod support;

use std::collections::HashMap;
use std::fs::File;

use arrow_array::{Array, StringArray};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::{Compression, PageType};
use parquet::file::reader::{FileReader, SerializedFileReader};
use support::{TempFile, code, run, stderr, stdout};

/// A CSV log of `rows` rows (time, url, status): hosts and paths repeat, some URLs are
/// relative or broken, some cells are quoted, and the values are such that `stats` has
/// ties.
fn log_csv(rows: usize) -> Vec<u8> {
    let mut text = String::from("time,url,status\n");
    for i in 0..rows {
        let url = match i % 11 {
            0 => format!("https://Shop{}.Example.co.uk/a/../cart?id={i}", i % 7),
            1 => "not a url".to_owned(),
            2 => format!("\"http://h{}.example.com/p,{i}\"", i % 13),
            3 => format!("https://xn--bcher-kva.example/b{}", i % 5),
            4 => format!("http://[::{:x}]/x", i % 3),
            5 => String::new(),
            _ => format!("https://www.site{}.org/path/{}", i % 29, i % 101),
        };
        text.push_str(&format!(
            "2026-11-{:02}T00:00:00Z,{url},{}\n",
            1 + i % 28,
            200 + i % 3
        ));
    }
    text.into_bytes()
}

/// The rows of a Parquet file as text (null as the empty string), its row groups, and
/// each column chunk's codec, whether it has a dictionary page, and whether it has
/// statistics.
#[allow(clippy::type_complexity)]
fn read_parquet(path: &str) -> (Vec<Vec<String>>, usize, Vec<(Compression, bool, bool)>) {
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(File::open(path).expect("open")).expect("read");
    let groups = builder.metadata().num_row_groups();
    let mut rows = Vec::new();
    for batch in builder.build().expect("reader") {
        let batch = batch.expect("batch");
        let columns: Vec<&StringArray> = batch
            .columns()
            .iter()
            .map(|c| c.as_any().downcast_ref::<StringArray>().expect("strings"))
            .collect();
        for i in 0..batch.num_rows() {
            rows.push(
                columns
                    .iter()
                    .map(|c| {
                        if c.is_null(i) {
                            String::new()
                        } else {
                            c.value(i).to_owned()
                        }
                    })
                    .collect(),
            );
        }
    }
    let reader = SerializedFileReader::new(File::open(path).expect("open")).expect("read");
    let mut chunks = Vec::new();
    let meta = reader.metadata();
    for g in 0..meta.num_row_groups() {
        let group = reader.get_row_group(g).expect("row group");
        for c in 0..meta.row_group(g).num_columns() {
            let column = meta.row_group(g).column(c);
            let mut pages = group.get_column_page_reader(c).expect("pages");
            let first = pages.get_next_page().expect("page").expect("a first page");
            chunks.push((
                column.compression(),
                first.page_type() == PageType::DICTIONARY_PAGE,
                column.statistics().is_some(),
            ));
        }
    }
    (rows, groups, chunks)
}

/// `parse --format tsv`'s rows, unescaped as the tool escapes them.
fn tsv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .skip(1)
        .map(|line| {
            line.split('\t')
                .map(|f| {
                    f.replace("\\t", "\t")
                        .replace("\\n", "\n")
                        .replace("\\r", "\r")
                        .replace("\\\\", "\\")
                })
                .collect()
        })
        .collect()
}

const FIELDS: &str = "hostname,registrable_domain,pathname,protocol";

#[test]
fn parquet_rows_equal_tsv_rows_at_any_thread_count_and_codec() {
    // Enough rows for several row groups (each gathers at least 131,072).
    let rows = 300_000;
    let input = TempFile::with_extension(&log_csv(rows), "csv");
    let tsv = run(
        &[
            "parse",
            "--threads",
            "1",
            "--fields",
            FIELDS,
            "--format",
            "tsv",
            input.path(),
        ],
        b"",
    );
    assert_eq!(code(&tsv), 0, "{}", stderr(&tsv));
    let want = tsv_rows(&stdout(&tsv));
    assert_eq!(want.len(), rows);
    let cases: [(&str, &[&str], Compression); 6] = [
        ("1", &[], Compression::ZSTD(Default::default())),
        ("2", &[], Compression::ZSTD(Default::default())),
        (
            "3",
            &["--compression", "zstd", "--compression-level", "9"],
            Compression::ZSTD(Default::default()),
        ),
        ("2", &["--compression", "snappy"], Compression::SNAPPY),
        ("2", &["--compression", "lz4"], Compression::LZ4_RAW),
        ("2", &["--compression", "none"], Compression::UNCOMPRESSED),
    ];
    for (threads, extra, codec) in cases {
        let out = TempFile::with_extension(b"", "parquet");
        let mut args = vec![
            "parse",
            "--threads",
            threads,
            "--fields",
            FIELDS,
            input.path(),
            "-o",
            out.path(),
        ];
        args.extend_from_slice(extra);
        let run = run(&args, b"");
        assert_eq!(code(&run), 0, "{args:?}: {}", stderr(&run));
        let (got, groups, chunks) = read_parquet(out.path());
        assert!(groups >= 2, "{args:?}: {groups} row groups");
        assert_eq!(got.len(), want.len(), "{args:?}");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert_eq!(g, w, "{args:?}: row {i}");
        }
        for (k, (compression, dictionary, statistics)) in chunks.iter().enumerate() {
            assert_eq!(
                std::mem::discriminant(compression),
                std::mem::discriminant(&codec),
                "{args:?}: column chunk {k}"
            );
            assert!(statistics, "{args:?}: column chunk {k} has no statistics");
            // Every column starts with a dictionary (those whose values do not repeat
            // fall back to plain pages after it).
            assert!(
                dictionary,
                "{args:?}: column chunk {k} has no dictionary page"
            );
        }
    }
}

#[test]
fn compression_options_are_checked() {
    let input = TempFile::new(b"https://a.example/\n");
    let out = TempFile::with_extension(b"", "parquet");
    for (args, says) in [
        (vec!["--compression-level", "23"], "zstd levels are 1 to 22"),
        (
            vec!["--compression", "snappy", "--compression-level", "3"],
            "zstd only",
        ),
        (
            vec!["--compression", "lz4", "--format", "tsv"],
            "Parquet output only",
        ),
    ] {
        let mut all = vec!["parse", input.path(), "-o", out.path()];
        all.extend(args.iter().copied());
        let r = run(&all, b"");
        assert_eq!(code(&r), 2, "{all:?}");
        assert!(stderr(&r).contains(says), "{all:?}: {}", stderr(&r));
    }
}

#[test]
fn stats_is_the_same_at_any_thread_count_and_counts_what_parse_writes() {
    let input = TempFile::with_extension(&log_csv(120_000), "csv");
    for by in [
        "registrable_domain",
        "hostname",
        "protocol",
        "error",
        "input",
    ] {
        let tables: Vec<String> = ["1", "2", "3", "4"]
            .iter()
            .map(|t| {
                let r = run(
                    &[
                        "stats",
                        "--threads",
                        t,
                        "--by",
                        by,
                        "--top",
                        "1000000",
                        "--format",
                        "csv",
                        input.path(),
                    ],
                    b"",
                );
                assert_eq!(code(&r), 0, "{}", stderr(&r));
                stdout(&r)
            })
            .collect();
        for (t, table) in tables.iter().enumerate().skip(1) {
            assert_eq!(table, &tables[0], "--by {by}: {} threads against 1", t + 1);
        }
        // The same counts from `parse`'s column of that field (valid rows only, but
        // for `error`, which counts the invalid ones, and `input`, which counts all).
        let fields = if by == "error" {
            "error".to_owned()
        } else {
            format!("{by},error")
        };
        let parsed = run(
            &[
                "parse",
                "--fields",
                &fields,
                "--format",
                "tsv",
                "--threads",
                "2",
                input.path(),
            ],
            b"",
        );
        assert_eq!(code(&parsed), 0, "{}", stderr(&parsed));
        let parsed_rows = tsv_rows(&stdout(&parsed));
        let mut counts: HashMap<String, u64> = HashMap::new();
        for row in &parsed_rows {
            let error = row.last().expect("an error column");
            let invalid = !error.is_empty();
            let counted = match by {
                "error" => invalid,
                "input" => true,
                _ => !invalid,
            };
            if counted {
                let value = if by == "error" {
                    error
                        .split(' ')
                        .next()
                        .unwrap_or("")
                        .trim_end_matches(':')
                        .to_owned()
                } else {
                    row[3].clone()
                };
                *counts.entry(value).or_insert(0) += 1;
            }
        }
        let mut stats: HashMap<String, u64> = HashMap::new();
        let mut csv = csv::Reader::from_reader(tables[0].as_bytes());
        for record in csv.records() {
            let record = record.expect("csv");
            *stats.entry(record[0].to_owned()).or_insert(0) +=
                record[1].parse::<u64>().expect("count");
        }
        assert_eq!(stats, counts, "--by {by}");
    }
}
