//! Compressed inputs are told by their first bytes and read as what they decompress to:
//! gzip (one member, several, BGZF blocks), zstd (one frame, several), bzip2 and xz (one
//! stream, several), files and standard input, the format read from the name under the
//! compression suffix. A stream cut short or damaged ends the run with exit status 2 and
//! a message naming the file and the byte, after every whole row before the damage.

mod support;

use std::io::Write;

use support::{TempFile, code, run, stderr, stdout};

/// A CSV log of `rows` rows.
fn log(rows: usize) -> Vec<u8> {
    let mut text = String::from("time,url,status\n");
    for i in 0..rows {
        let url = match i % 5 {
            0 => format!("https://www.site{}.example/p/{i}?q={}", i % 17, i * 3),
            1 => format!("\"http://h{}.example.org/a,b\"", i % 7),
            2 => "not a url".to_owned(),
            _ => format!("https://shop{}.example.co.uk/cart/{i}", i % 11),
        };
        text.push_str(&format!(
            "2026-11-28T00:00:{:02}Z,{url},{}\n",
            i % 60,
            200 + i % 4
        ));
    }
    text.into_bytes()
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).expect("gzip");
    e.finish().expect("gzip")
}

/// `data` as BGZF: gzip members of at most 65,280 bytes of input, each with the `BC`
/// extra field, then the empty end-of-file member.
fn bgzf(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for block in data.chunks(65_280).chain(std::iter::once(&[][..])) {
        let mut e = flate2::GzBuilder::new()
            .extra(vec![b'B', b'C', 2, 0, 0, 0])
            .write(Vec::new(), flate2::Compression::fast());
        e.write_all(block).expect("bgzf");
        out.extend(e.finish().expect("bgzf"));
    }
    out
}

fn zstd_frames(data: &[u8], frames: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for part in data.chunks(data.len().div_ceil(frames).max(1)) {
        out.extend(zstd::encode_all(part, 3).expect("zstd"));
    }
    out
}

/// `data` as `streams` bzip2 streams one after the other (as `pbzip2` writes).
fn bzip2_streams(data: &[u8], streams: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for part in data.chunks(data.len().div_ceil(streams).max(1)) {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        e.write_all(part).expect("bzip2");
        out.extend(e.finish().expect("bzip2"));
    }
    out
}

/// `data` as `streams` xz streams one after the other (as `cat a.xz b.xz` makes).
fn xz_streams(data: &[u8], streams: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for part in data.chunks(data.len().div_ceil(streams).max(1)) {
        let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
        e.write_all(part).expect("xz");
        out.extend(e.finish().expect("xz"));
    }
    out
}

/// `parse --format tsv`'s output for `args` (the input file last), checked to succeed.
fn parsed(args: &[&str]) -> String {
    let out = run(args, b"");
    assert_eq!(code(&out), 0, "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn compressed_inputs_read_as_their_contents() {
    let plain_bytes = log(40_000);
    let plain = TempFile::with_extension(&plain_bytes, "csv");
    let want = parsed(&["parse", "--fields", "hostname,pathname", plain.path()]);
    let half = plain_bytes.len() / 2;
    let cut = plain_bytes[..half]
        .iter()
        .rposition(|&b| b == b'\n')
        .expect("a line end")
        + 1;
    let two_members = [gzip(&plain_bytes[..cut]), gzip(&plain_bytes[cut..])].concat();
    let cases: [(&str, Vec<u8>); 9] = [
        ("gzip", gzip(&plain_bytes)),
        ("gzip, two members", two_members),
        ("BGZF", bgzf(&plain_bytes)),
        ("zstd", zstd_frames(&plain_bytes, 1)),
        ("zstd, five frames", zstd_frames(&plain_bytes, 5)),
        ("bzip2", bzip2_streams(&plain_bytes, 1)),
        ("bzip2, three streams", bzip2_streams(&plain_bytes, 3)),
        ("xz", xz_streams(&plain_bytes, 1)),
        ("xz, three streams", xz_streams(&plain_bytes, 3)),
    ];
    for (what, bytes) in cases {
        for threads in ["1", "2"] {
            // By the name under the suffix: `.csv.gz`, `.csv.zst`, `.csv.bz2`, `.csv.xz`.
            let ext = match what.split(',').next() {
                Some("zstd") => "csv.zst",
                Some("bzip2") => "csv.bz2",
                Some("xz") => "csv.xz",
                _ => "csv.gz",
            };
            let file = TempFile::with_extension(&bytes, ext);
            let got = parsed(&[
                "parse",
                "--threads",
                threads,
                "--fields",
                "hostname,pathname",
                file.path(),
            ]);
            assert!(
                got == want,
                "{what}, {threads} threads: differs from the plain file"
            );
            // The compression is told by the bytes, not the name: a `.csv` file that
            // is compressed is read the same.
            let named_plain = TempFile::with_extension(&bytes, "csv");
            let got = parsed(&["parse", "--fields", "hostname,pathname", named_plain.path()]);
            assert!(got == want, "{what} named .csv: differs");
        }
        // Standard input.
        let out = run(
            &[
                "parse",
                "--input-format",
                "csv",
                "--fields",
                "hostname,pathname",
            ],
            &bytes,
        );
        assert_eq!(code(&out), 0, "{what} on stdin: {}", stderr(&out));
        assert!(stdout(&out) == want, "{what} on stdin: differs");
    }
    // `stats` counts the same from a compressed file.
    let gz = TempFile::with_extension(&gzip(&plain_bytes), "csv.gz");
    let stats = |path: &str| {
        parsed(&[
            "stats",
            "--by",
            "registrable_domain",
            "--format",
            "csv",
            path,
        ])
    };
    assert_eq!(stats(gz.path()), stats(plain.path()));
}

#[test]
fn a_damaged_stream_ends_with_status_2_after_the_rows_before_it() {
    let plain_bytes = log(40_000);
    let plain = TempFile::with_extension(&plain_bytes, "csv");
    let all = parsed(&["parse", "--fields", "hostname", plain.path()]);
    let gz = gzip(&plain_bytes);
    let cut_gz = gz[..gz.len() * 2 / 3].to_vec();
    // A member whose trailer lies about its size (ISIZE, the last 4 bytes, one more than
    // the data), then one that does not: the decoder stops at the first member's end.
    let mut lying = gzip(&plain_bytes);
    let n = lying.len();
    let size = u32::from_le_bytes(lying[n - 4..].try_into().expect("4 bytes"));
    lying[n - 4..].copy_from_slice(&(size + 1).to_le_bytes());
    lying.extend(gzip(b"https://after.example/\n"));
    // Eight zstd frames, the fifth one's header overwritten: the decoder stops there.
    let mut zst = Vec::new();
    let mut fifth = 0;
    for (k, part) in plain_bytes
        .chunks(plain_bytes.len().div_ceil(8))
        .enumerate()
    {
        if k == 4 {
            fifth = zst.len();
        }
        zst.extend(zstd::encode_all(part, 3).expect("zstd"));
    }
    for b in &mut zst[fifth..fifth + 6] {
        *b ^= 0xA5;
    }
    let bz = bzip2_streams(&plain_bytes, 1);
    let cut_bz = bz[..bz.len() * 2 / 3].to_vec();
    // Three xz streams, the second's header overwritten: the decoder stops there.
    let xz_parts: Vec<Vec<u8>> = plain_bytes
        .chunks(plain_bytes.len().div_ceil(3))
        .map(|part| xz_streams(part, 1))
        .collect();
    let mut xz = xz_parts.concat();
    let second = xz_parts[0].len();
    for b in &mut xz[second..second + 8] {
        *b ^= 0x5A;
    }
    let whole_xz = xz_streams(&plain_bytes, 1);
    let cut_xz = whole_xz[..whole_xz.len() * 2 / 3].to_vec();
    for (what, bytes, says) in [
        (
            "gzip cut short",
            cut_gz,
            "the gzip stream is cut short at byte",
        ),
        (
            "gzip lying about its size",
            lying,
            "the gzip stream is damaged after byte",
        ),
        ("zstd damaged", zst, "the zstd stream is damaged after byte"),
        (
            "bzip2 cut short",
            cut_bz,
            "the bzip2 stream is cut short at byte",
        ),
        ("xz damaged", xz, "the xz stream is damaged after byte"),
        ("xz cut short", cut_xz, "the xz stream is cut short at byte"),
    ] {
        let file = TempFile::with_extension(&bytes, "csv");
        let out = run(&["parse", "--fields", "hostname", file.path()], b"");
        assert_eq!(code(&out), 2, "{what}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains(&format!("rapidurl: {}: {says}", file.path())),
            "{what}: {err}"
        );
        // Whole rows came out before the damage, each as the plain file gives it: a
        // prefix of its output (never a garbled row).
        let got = stdout(&out);
        assert!(
            got.lines().count() > 1000,
            "{what}: only {} lines",
            got.lines().count()
        );
        assert!(
            all.starts_with(&got),
            "{what}: the rows are not a prefix of the plain file's"
        );
    }
}

#[test]
fn a_compressed_parquet_file_is_refused() {
    // Parquet compresses its own pages.
    let file = TempFile::with_extension(&gzip(b"PAR1"), "parquet");
    let out = run(&["check", file.path()], b"");
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("gzip-compressed"), "{}", stderr(&out));
}

#[test]
fn an_xz_stream_asking_for_too_much_memory_is_refused_by_name() {
    // An xz stream whose block header asks for a 4 GiB dictionary (LZMA2's largest), its
    // header checksum made right: a valid header, refused before anything is allocated.
    let mut xz = xz_streams(&log(100), 1);
    // The stream header (12 bytes), then the block header: its size, its flags (no sizes,
    // one filter), the LZMA2 filter (0x21), one property byte, the dictionary size.
    let size = (usize::from(xz[12]) + 1) * 4;
    assert_eq!(xz[13], 0, "block flags");
    assert_eq!(
        xz[14..16],
        [0x21, 0x01],
        "the LZMA2 filter and its property size"
    );
    xz[16] = 40;
    let mut crc = flate2::Crc::new();
    crc.update(&xz[12..12 + size - 4]);
    xz[12 + size - 4..12 + size].copy_from_slice(&crc.sum().to_le_bytes());
    let file = TempFile::with_extension(&xz, "csv.xz");
    let out = run(&["parse", "--fields", "hostname", file.path()], b"");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "{}: the xz stream needs more than 256 MiB of memory to decode",
            file.path()
        )),
        "{}",
        stderr(&out)
    );
    // The same header with the dictionary `xz -9` uses (64 MiB: 2 << (28 / 2 + 11)) decodes.
    xz[16] = 28;
    let mut crc = flate2::Crc::new();
    crc.update(&xz[12..12 + size - 4]);
    xz[12 + size - 4..12 + size].copy_from_slice(&crc.sum().to_le_bytes());
    let file = TempFile::with_extension(&xz, "csv.xz");
    let out = run(&["parse", "--fields", "hostname", file.path()], b"");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn a_zstd_frame_with_a_window_over_128_mib_is_refused_by_name() {
    // As the zstd command does without `--long`/`--memory`: a 256 MiB window (window log
    // 28, as `zstd --long=28` writes) is over the decoder's default limit.
    let mut e = zstd::stream::Encoder::new(Vec::new(), 3).expect("zstd");
    e.window_log(28).expect("window log");
    e.long_distance_matching(true).expect("long");
    e.write_all(&log(100)).expect("zstd");
    let file = TempFile::with_extension(&e.finish().expect("zstd"), "csv.zst");
    let out = run(&["parse", "--fields", "hostname", file.path()], b"");
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "{}: the zstd stream needs more than 128 MiB of memory to decode",
            file.path()
        )),
        "{}",
        stderr(&out)
    );
}
