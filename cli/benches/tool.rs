//! The command-line tool, whole process: the largest corpus (kasztp) through
//! `rapidurl parse` (TSV to /dev/null, `--threads 1` and `2`) against a single-threaded
//! in-process loop over `ada_url::Url::parse`.
//!
//! Corpora: `RAPIDURL_CORPORA_DIR`, else `../shared/corpora` beside the workspace.
//!
//! ```sh
//! cargo bench -p rapidurl-cli --bench tool -- --warm-up-time 1 --measurement-time 3
//! ```

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rapidurl_testkit::data::corpora_dir;
use std::hint::black_box;
use std::process::{Command, Stdio};

fn kasztp(c: &mut Criterion) {
    let path = corpora_dir().join("kasztp.txt");
    let bytes = std::fs::read(&path).expect("kasztp.txt (set RAPIDURL_CORPORA_DIR)");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let mut g = c.benchmark_group("kasztp");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(10);
    g.bench_function("ada_url::Url::parse loop (1 thread)", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for line in black_box(&text).lines() {
                if let Ok(url) = ada_url::Url::parse(line, None) {
                    n += url.href().len();
                }
            }
            n
        })
    });
    for threads in ["1", "2"] {
        g.bench_function(format!("rapidurl parse (CLI, --threads {threads})"), |b| {
            b.iter(|| {
                let status = Command::new(env!("CARGO_BIN_EXE_rapidurl"))
                    .args(["parse", "--threads", threads])
                    .arg(&path)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .expect("run rapidurl");
                assert!(status.success());
            })
        });
    }
    g.finish();
}

criterion_group!(benches, kasztp);
criterion_main!(benches);
