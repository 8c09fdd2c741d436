//! Bytes that parsed URLs hold, the drop-in (`url`, this crate) against rust-url 2.5.8
//! (`rust_url`): `size_of::<Url>()` (inline) plus the heap each `Url` keeps.
//!
//! A counting global allocator tracks the live bytes: the sizes the program asked for,
//! and, on Linux with glibc, what `malloc_usable_size` says the allocator set aside for
//! them (its size classes; glibc's 8-byte chunk header is in neither). For each corpus,
//! the lines that both sides parse are parsed into a `Vec<Url>` made with room for all of
//! them; the live bytes it adds, less the vector's own buffer, are the URLs' heap. Then
//! one million URLs: the lines of every corpus in turn, repeated until there are
//! 1,000,000 of them.
//!
//! ```sh
//! cargo bench --manifest-path compat/url/Cargo.toml --bench memory
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::mem::size_of;
use std::sync::atomic::{AtomicUsize, Ordering};

use rapidurl_testkit::data;

/// The system allocator, with the live bytes counted.
struct LiveBytes;

/// Bytes asked for and not yet freed.
static REQUESTED: AtomicUsize = AtomicUsize::new(0);
/// The allocator's usable size of those blocks (glibc), else the same as `REQUESTED`.
static USABLE: AtomicUsize = AtomicUsize::new(0);

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn usable_size(ptr: *mut u8, _size: usize) -> usize {
    unsafe extern "C" {
        fn malloc_usable_size(ptr: *mut std::ffi::c_void) -> usize;
    }
    // SAFETY: `ptr` is a live block of the system allocator (glibc's malloc).
    unsafe { malloc_usable_size(ptr.cast()) }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn usable_size(_ptr: *mut u8, size: usize) -> usize {
    size
}

fn add(ptr: *mut u8, size: usize) {
    if !ptr.is_null() {
        REQUESTED.fetch_add(size, Ordering::Relaxed);
        USABLE.fetch_add(usable_size(ptr, size), Ordering::Relaxed);
    }
}

fn sub(ptr: *mut u8, size: usize) {
    REQUESTED.fetch_sub(size, Ordering::Relaxed);
    USABLE.fetch_sub(usable_size(ptr, size), Ordering::Relaxed);
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counters are
// atomics, and `malloc_usable_size` allocates nothing.
unsafe impl GlobalAlloc for LiveBytes {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let ptr = unsafe { System.alloc(layout) };
        add(ptr, layout.size());
        ptr
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        add(ptr, layout.size());
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        sub(ptr, layout.size());
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old_usable = usable_size(ptr, layout.size());
        // SAFETY: same contract as our caller's.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            REQUESTED.fetch_sub(layout.size(), Ordering::Relaxed);
            USABLE.fetch_sub(old_usable, Ordering::Relaxed);
            add(new, new_size);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: LiveBytes = LiveBytes;

/// The live bytes now: (asked for, usable).
fn live() -> (usize, usize) {
    (
        REQUESTED.load(Ordering::SeqCst),
        USABLE.load(Ordering::SeqCst),
    )
}

/// What a vector of parsed URLs holds, per URL.
struct Held {
    inline: usize,
    heap_requested: f64,
    heap_usable: f64,
    /// How many URLs.
    urls: usize,
}

impl Held {
    fn total_requested(&self) -> f64 {
        self.inline as f64 + self.heap_requested
    }
    fn total_usable(&self) -> f64 {
        self.inline as f64 + self.heap_usable
    }
}

/// Parses `lines` into a `Vec<$krate::Url>` and measures what the URLs hold.
macro_rules! measure {
    ($krate:ident, $lines:expr) => {{
        let lines: &[&str] = $lines;
        let before = live();
        let mut urls: Vec<$krate::Url> = Vec::with_capacity(lines.len());
        let with_vec = live();
        for l in lines {
            urls.push($krate::Url::parse(l).expect("the line parsed before"));
        }
        let after = live();
        assert_eq!(urls.len(), lines.len());
        let n = urls.len() as f64;
        let held = Held {
            inline: size_of::<$krate::Url>(),
            heap_requested: (after.0 - with_vec.0) as f64 / n,
            heap_usable: (after.1 - with_vec.1) as f64 / n,
            urls: urls.len(),
        };
        assert_eq!(with_vec.0 - before.0, urls.len() * size_of::<$krate::Url>());
        drop(urls);
        held
    }};
}

fn row(name: &str, ours: &Held, theirs: &Held) -> String {
    format!(
        "| {name} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2}× | {:.2}× |",
        ours.urls,
        ours.heap_requested,
        ours.total_requested(),
        theirs.heap_requested,
        theirs.total_requested(),
        theirs.total_requested() / ours.total_requested(),
        theirs.total_usable() / ours.total_usable(),
    )
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is accepted and ignored.
    let corpora: Vec<(String, String)> = data::corpus_paths(true)
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("corpus is UTF-8");
            (p.file_stem().unwrap().to_string_lossy().into_owned(), text)
        })
        .collect();
    let parsed_lines = |text: &'static str| -> Vec<&'static str> {
        text.lines()
            .filter(|l| url::Url::parse(l).is_ok() && rust_url::Url::parse(l).is_ok())
            .collect()
    };

    println!(
        "size_of::<Url>(): drop-in {} bytes, rust-url {} bytes; size_of::<Option<Url>>(): \
         drop-in {}, rust-url {}",
        size_of::<url::Url>(),
        size_of::<rust_url::Url>(),
        size_of::<Option<url::Url>>(),
        size_of::<Option<rust_url::Url>>(),
    );
    println!(
        "\nBytes per URL (the lines that parse on both sides); inline = size_of::<Url>(), \
         heap = bytes asked of the allocator; last column: the allocator's usable sizes \
         (malloc_usable_size) instead.\n"
    );
    println!(
        "| corpus | URLs | drop-in heap | drop-in inline + heap | rust-url heap | rust-url \
         inline + heap | rust-url ÷ drop-in | the same, usable sizes |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut all: Vec<&'static str> = Vec::new();
    for (name, text) in corpora {
        let text: &'static str = Box::leak(text.into_boxed_str());
        let lines = parsed_lines(text);
        let ours = measure!(url, &lines);
        let theirs = measure!(rust_url, &lines);
        println!("{}", row(&name, &ours, &theirs));
        all.extend(lines);
    }

    const MILLION: usize = 1_000_000;
    let million: Vec<&str> = all.iter().copied().cycle().take(MILLION).collect();
    let ours = measure!(url, &million);
    let theirs = measure!(rust_url, &million);
    println!("{}", row("all, repeated to 1,000,000", &ours, &theirs));
    let mb = |held: &Held| held.total_requested() * MILLION as f64 / 1e6;
    println!(
        "\n1,000,000 URLs: drop-in {:.1} MB, rust-url {:.1} MB (inline + heap asked for; \
         usable sizes: {:.1} MB, {:.1} MB)",
        mb(&ours),
        mb(&theirs),
        ours.total_usable() * MILLION as f64 / 1e6,
        theirs.total_usable() * MILLION as f64 / 1e6,
    );
}
