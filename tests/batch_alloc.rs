//! Allocation counts of the batch engine, with a counting global allocator (this test
//! binary only): building a column allocates per chunk, never per URL, for canonical input.

use rapidurl_testkit::counting_alloc;

#[global_allocator]
static GLOBAL: counting_alloc::Counting = counting_alloc::Counting;

/// The batch engine allocates on rayon's workers: count every thread.
use counting_alloc::on_all_threads as allocations;

/// `n` canonical URLs of the shapes crawl and log data are full of.
fn canonical(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| match i % 5 {
            0 => format!("https://www.example.com/articles/{i}/index.html"),
            1 => format!("http://cdn{}.example.net/img/{i}.png?w=640", i % 13),
            2 => format!("https://shop.example/p/{i}#reviews"),
            3 => format!("file:///var/log/app/{i}.log"),
            _ => "https://api.example.org".to_owned(),
        })
        .collect()
}

/// One test, so that no other test of this binary allocates while it counts.
#[test]
fn allocations_grow_with_chunks_not_urls() {
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        pool.install(|| {
            // Warm up the pool, once-per-process state and each worker's own buffers (the
            // buffer a rewritten row is parsed into, kept by the thread from call to call).
            rayon::broadcast(|_| rapidurl::batch::parse_column(&["HTTP://Example.com"], None).len());
            let _ = rapidurl::batch::parse_lines(b"https://example.com/\nHTTP://X");
            for n in [20_000, 200_000] {
                let lines = canonical(n);
                let inputs: Vec<&str> = lines.iter().map(String::as_str).collect();
                let (count, column) =
                    allocations(|| rapidurl::batch::parse_column(&inputs, None));
                assert_eq!(column.len(), n);
                assert_eq!(column.error_count(), 0);
                // Per chunk: the data string, the offsets, the components, the bitmap;
                // per column: the chunk list, its row starts, the chunk plan.
                let chunks = column.chunk_count();
                eprintln!("parse_column, {threads} thread(s), {n} URLs: {count} allocations, {chunks} chunks");
                assert!(
                    count <= 4 * chunks + 8,
                    "{threads} thread(s), {n} URLs: {count} allocations for {chunks} chunks"
                );
                drop(column);

                let text = lines.join("\n");
                let (count, column) =
                    allocations(|| rapidurl::batch::parse_lines(text.as_bytes()));
                assert_eq!(column.len(), n);
                let chunks = column.chunk_count();
                eprintln!("parse_lines, {threads} thread(s), {n} lines: {count} allocations, {chunks} chunks");
                assert!(
                    count <= 4 * chunks + 8,
                    "{threads} thread(s), {n} lines: {count} allocations for {chunks} chunks"
                );

                // The same lines into the buffers of that column: the chunks are built in
                // memory already allocated; what is left is per column (the chunk list,
                // its row starts, the chunk plan) and a buffer that must grow because its
                // piece is larger than the one it was made for.
                let buffers = column.into_buffers();
                let (count, column) = allocations(|| buffers.parse_lines(text.as_bytes()));
                assert_eq!(column.len(), n);
                assert_eq!(column.get(n - 2).unwrap().href(), lines[n - 2]);
                let chunks = column.chunk_count();
                eprintln!("ColumnBuffers::parse_lines, {threads} thread(s), {n} lines: {count} allocations, {chunks} chunks");
                assert!(
                    count <= chunks + 8,
                    "{threads} thread(s), {n} lines, reused: {count} allocations for {chunks} chunks"
                );
                drop(column);

                // Rows that share a base string parse it once per run of rows, not per
                // row: parsing a base allocates (its serialization), so a base parsed
                // for every row would cost `n` allocations.
                let relative: Vec<String> = (0..n).map(|i| format!("../item/{i}?q")).collect();
                let pairs: Vec<(&str, Option<&str>)> = relative
                    .iter()
                    .map(|r| (r.as_str(), Some("https://example.com/a/b/c")))
                    .collect();
                let (count, column) = allocations(|| rapidurl::batch::parse_pairs(&pairs));
                assert_eq!(column.len(), n);
                assert_eq!(column.get(n - 1).unwrap().pathname(), format!("/a/item/{}", n - 1));
                let chunks = column.chunk_count();
                eprintln!("parse_pairs, {threads} thread(s), {n} rows: {count} allocations, {chunks} chunks");
                assert!(
                    count <= 10 * chunks + 16,
                    "{threads} thread(s), {n} pairs: {count} allocations for {chunks} chunks"
                );
            }
        });
    }
}
