//! The WARC reader (`rapidurl_cli::warc::WarcRows`) over WARC files made in memory:
//! 256 MiB of records with 64 KiB payloads (the payloads are skipped) and 64 MiB of
//! records with 1 KiB payloads (the headers count), against reading the same bytes in
//! 1 MiB pieces and dropping them (the speed of memory).
//!
//! ```sh
//! cargo bench -p rapidurl-cli --bench warc -- --warm-up-time 1 --measurement-time 5
//! ```

use std::hint::black_box;
use std::io::Read;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rapidurl_cli::warc::WarcRows;

/// `total` bytes of response records with `payload`-byte payloads.
fn warc(total: usize, payload: usize) -> Vec<u8> {
    let body = vec![b'x'; payload];
    let mut out = Vec::with_capacity(total + 4096);
    let mut n = 0u64;
    while out.len() < total {
        n += 1;
        out.extend_from_slice(
            format!(
                "WARC/1.1\r\nWARC-Type: response\r\n\
                 WARC-Target-URI: https://www.example.com/articles/{n}?utm_source=feed\r\n\
                 WARC-Date: 2026-11-28T09:14:03Z\r\n\
                 WARC-Record-ID: <urn:uuid:0b7e3c2a-4f61-4d2b-9a0e-{n:012}>\r\n\
                 WARC-IP-Address: 93.184.215.14\r\n\
                 WARC-Payload-Digest: sha1:UHC4OZVRRUWKWKA2XFIYN4IL7RWPORKH\r\n\
                 Content-Type: application/http; msgtype=response\r\n\
                 Content-Length: {payload}\r\n\r\n"
            )
            .as_bytes(),
        );
        out.extend_from_slice(&body);
        out.extend_from_slice(b"\r\n\r\n");
    }
    out
}

/// Bytes of text read out of `reader` in 64 KiB pieces.
fn drain(mut reader: impl Read) -> usize {
    let mut buf = vec![0u8; 64 * 1024];
    let mut n = 0;
    loop {
        match reader.read(&mut buf).expect("a clean WARC") {
            0 => return n,
            k => n += k,
        }
    }
}

fn rows(c: &mut Criterion) {
    for (label, total, payload) in [
        ("64 KiB payloads", 256 << 20, 64 << 10),
        ("1 KiB payloads", 64 << 20, 1 << 10),
    ] {
        let bytes = warc(total, payload);
        let mut g = c.benchmark_group(format!("warc {label}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.sample_size(10);
        g.bench_function("WarcRows", |b| {
            b.iter(|| drain(WarcRows::new("bench.warc", black_box(bytes.as_slice()))))
        });
        g.bench_function("1 MiB reads, dropped", |b| {
            b.iter(|| {
                let mut from = black_box(bytes.as_slice());
                let mut buf = vec![0u8; 1 << 20];
                let mut n = 0;
                while let Ok(k @ 1..) = from.read(&mut buf) {
                    n += black_box(&buf[..k]).len();
                }
                n
            })
        });
        g.finish();
    }
}

criterion_group!(benches, rows);
criterion_main!(benches);
