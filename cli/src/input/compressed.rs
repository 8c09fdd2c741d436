//! Compressed inputs: told by their first bytes (never by their name), decompressed on a
//! thread of their own while the rows before are parsed (on the reading thread when no
//! thread can be started: the same bytes and errors).
//!
//! gzip (also several members one after the other, as `cat a.gz b.gz` and BGZF make),
//! zstd (also several frames), bzip2 and xz (also several streams, as `pbzip2` and `xz
//! -T` make) are read. A stream that is cut short or damaged ends the input with a
//! message naming the file and the byte of the compressed file where the decoder stopped
//! ([`Damaged`]); every whole record decoded before it is read.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crossbeam_channel::{Receiver, Sender, bounded};

/// A reader that appends what it reads to the end of a buffer: a reader that holds its
/// bytes already (the decoding thread's chunks) copies them once, with no zeroed staging
/// buffer between.
pub trait Append: Read + Send {
    /// Appends at most `max` bytes to `buf` (at least one unless the input has ended) and
    /// says how many; `scratch` is a buffer to read through, kept by the caller between
    /// calls. On an error, what was appended before it stays in `buf`.
    fn append(
        &mut self,
        buf: &mut Vec<u8>,
        max: usize,
        scratch: &mut Vec<u8>,
    ) -> io::Result<usize> {
        if scratch.len() < max {
            scratch.resize(max, 0);
        }
        loop {
            match self.read(&mut scratch[..max]) {
                Ok(n) => {
                    buf.extend_from_slice(&scratch[..n]);
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

impl Append for std::fs::File {
    /// Straight into the buffer's spare capacity (a file's read fills memory that was
    /// never initialized), until `max` bytes or the end.
    fn append(&mut self, buf: &mut Vec<u8>, max: usize, _: &mut Vec<u8>) -> io::Result<usize> {
        self.take(max as u64).read_to_end(buf)
    }
}

impl Append for io::Stdin {}
impl Append for io::Empty {}
impl<R: Read + Send> Append for io::Chain<io::Cursor<Vec<u8>>, R> {}

/// A compression the first bytes of an input show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// gzip (RFC 1952): `1F 8B`.
    Gzip,
    /// Zstandard: `28 B5 2F FD`.
    Zstd,
    /// bzip2: `BZh` and a block-size digit.
    Bzip2,
    /// xz: `FD 37 7A 58 5A 00`.
    Xz,
}

impl Codec {
    /// The compression `head` (an input's first bytes, up to [`MAGIC_BYTES`]) starts
    /// with, if any.
    pub fn sniff(head: &[u8]) -> Option<Codec> {
        MAGICS.iter().find(|m| m.whole(head)).map(|m| m.codec)
    }

    /// The codec's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Codec::Gzip => "gzip",
            Codec::Zstd => "zstd",
            Codec::Bzip2 => "bzip2",
            Codec::Xz => "xz",
        }
    }
}

/// How many first bytes [`Codec::sniff`] needs.
pub const MAGIC_BYTES: usize = 6;

/// The file-name suffixes of compressed files: the format is read from the name without
/// them (`requests.csv.gz` is CSV).
pub const SUFFIXES: [&str; 6] = ["gz", "gzip", "zst", "zstd", "bz2", "xz"];

/// Whether `head` (an input's first bytes so far) may still grow into a compression's
/// first bytes.
pub fn may_be_magic(head: &[u8]) -> bool {
    MAGICS.iter().any(|m| m.may_grow_into(head))
}

/// A codec's first bytes: `prefix`, then, for bzip2, a block-size digit.
struct Magic {
    codec: Codec,
    prefix: &'static [u8],
    /// How many bytes the first bytes are (more than `prefix` for bzip2's digit).
    len: usize,
}

/// The first bytes of each codec.
const MAGICS: [Magic; 4] = [
    Magic {
        codec: Codec::Gzip,
        prefix: &[0x1F, 0x8B],
        len: 2,
    },
    Magic {
        codec: Codec::Zstd,
        prefix: &[0x28, 0xB5, 0x2F, 0xFD],
        len: 4,
    },
    Magic {
        codec: Codec::Bzip2,
        prefix: b"BZh",
        len: 4,
    },
    Magic {
        codec: Codec::Xz,
        prefix: &[0xFD, b'7', b'z', b'X', b'Z', 0],
        len: 6,
    },
];

impl Magic {
    /// Whether `head` starts with all of these first bytes.
    fn whole(&self, head: &[u8]) -> bool {
        head.len() >= self.len
            && head.starts_with(self.prefix)
            && head[self.prefix.len()..self.len]
                .iter()
                .all(u8::is_ascii_digit)
    }

    /// Whether `head` is shorter than these first bytes and may grow into them.
    fn may_grow_into(&self, head: &[u8]) -> bool {
        let n = head.len().min(self.prefix.len());
        head.len() < self.len
            && head[..n] == self.prefix[..n]
            && head[n..].iter().all(u8::is_ascii_digit)
    }
}

/// Reads the first bytes of `reader` until they show a compression or cannot (at most
/// [`MAGIC_BYTES`]; a pipe is not waited on for more than the first read of ordinary
/// text gives), and gives them back in front of the rest.
fn peek(mut reader: Box<dyn Read + Send>) -> io::Result<(Vec<u8>, Box<dyn Append>)> {
    let mut head = Vec::with_capacity(MAGIC_BYTES);
    let mut byte = [0u8; MAGIC_BYTES];
    while head.len() < MAGIC_BYTES && (head.is_empty() || may_be_magic(&head)) {
        let want = MAGIC_BYTES - head.len();
        match reader.read(&mut byte[..want]) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&byte[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let rest: Box<dyn Append> = Box::new(io::Cursor::new(head.clone()).chain(reader));
    Ok((head, rest))
}

/// An input's bytes, or what they decompress to when its first bytes show a compression:
/// told at the first read (so that opening an input reads nothing, and a pipe or a file
/// that fails on its first read fails when the reading starts, as any other).
pub struct Sniffing {
    name: String,
    /// The input before its first read.
    raw: Option<Box<dyn Read + Send>>,
    /// What is read after the first read.
    ready: Option<Box<dyn Append>>,
    /// Where the gzip members start, when asked for.
    members: Option<Members>,
}

impl Sniffing {
    /// `reader`, the input named `name`.
    pub fn new(name: &str, reader: Box<dyn Read + Send>) -> Sniffing {
        Sniffing {
            name: name.to_owned(),
            raw: Some(reader),
            ready: None,
            members: None,
        }
    }

    /// The same, noting in `members` whether the input is compressed and where its gzip
    /// members start.
    pub fn with_members(name: &str, reader: Box<dyn Read + Send>, members: Members) -> Sniffing {
        Sniffing {
            members: Some(members),
            ..Sniffing::new(name, reader)
        }
    }

    /// What is read: at the first call, the input's first bytes are read and tell it.
    fn ready(&mut self) -> io::Result<Option<&mut Box<dyn Append>>> {
        if let Some(raw) = self.raw.take() {
            let (head, rest) = peek(raw)?;
            self.ready = Some(match Codec::sniff(&head) {
                None => rest,
                Some(codec) => decompressed(&self.name, codec, rest, self.members.clone())
                    .map_err(|msg| io::Error::new(io::ErrorKind::InvalidData, Damaged(msg)))?,
            });
        }
        Ok(self.ready.as_mut())
    }
}

/// Where the members of a compressed input start, in the decompressed stream and in the
/// file, for offsets in the file as stored: shared by the decoder, which notes each start
/// before it decodes the member's bytes, and the reader, which asks about the bytes it has
/// read (so that every start it asks about is noted) and forgets the starts before them.
/// Only gzip's members are noted (a `.warc.gz` is one member a record).
#[derive(Clone, Default)]
pub struct Members(Arc<std::sync::Mutex<MemberStarts>>);

#[derive(Default)]
struct MemberStarts {
    /// The input is compressed (set before its first byte is decoded).
    compressed: bool,
    /// (decompressed offset, file offset) of the members not asked about yet.
    starts: std::collections::VecDeque<(u64, u64)>,
}

impl Members {
    /// The offset in the file of the byte at `decoded` in the decompressed stream, when
    /// the file can be read from there: the byte itself in an input that is not
    /// compressed, else the start of the gzip member that starts at that byte (the last
    /// one, after empty members); `None` for a byte inside a member. Asked in increasing
    /// order: the starts before `decoded` are forgotten.
    pub fn file_offset(&self, decoded: u64) -> Option<u64> {
        let mut state = self.0.lock().ok()?;
        if !state.compressed {
            return Some(decoded);
        }
        let mut found = None;
        while let Some(&(at, file)) = state.starts.front() {
            if at > decoded {
                break;
            }
            if at == decoded {
                found = Some(file);
            }
            state.starts.pop_front();
        }
        found
    }

    fn set_compressed(&self) {
        if let Ok(mut state) = self.0.lock() {
            state.compressed = true;
        }
    }

    fn note(&self, decoded: u64, file: u64) {
        if let Ok(mut state) = self.0.lock() {
            state.starts.push_back((decoded, file));
        }
    }
}

impl Read for Sniffing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self.ready()? {
            Some(reader) => reader.read(buf),
            None => Ok(0),
        }
    }
}

impl Append for Sniffing {
    fn append(
        &mut self,
        buf: &mut Vec<u8>,
        max: usize,
        scratch: &mut Vec<u8>,
    ) -> io::Result<usize> {
        match self.ready()? {
            Some(reader) => reader.append(buf, max, scratch),
            None => Ok(0),
        }
    }
}

/// Why a compressed stream could not be read to its end: the message (naming the file,
/// the codec and the byte), carried inside an [`io::Error`] from the decoder to the
/// reader.
#[derive(Debug)]
pub struct Damaged(pub String);

impl std::fmt::Display for Damaged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Damaged {}

/// The [`Damaged`] inside `e`, if it carries one.
pub fn damaged(e: &io::Error) -> Option<&Damaged> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<Damaged>())
}

/// Counts the bytes read through it.
struct Counting<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// The compressed file, counted and buffered.
type Source = BufReader<Counting<Box<dyn Append>>>;

/// A decoder of one of the codecs read.
enum Inner {
    /// gzip, one member at a time (each a new decoder on the same buffered source);
    /// `None` once the last member has ended.
    Gzip(Option<Box<flate2::bufread::GzDecoder<Source>>>),
    Zstd(zstd::stream::read::Decoder<'static, Source>),
    Bzip2(Box<bzip2::bufread::MultiBzDecoder<Source>>),
    Xz(Box<liblzma::bufread::XzDecoder<Source>>),
}

impl Inner {
    /// The compressed bytes read into the buffer and not decoded yet.
    fn buffered(&self) -> usize {
        match self {
            Inner::Gzip(d) => d.as_ref().map_or(0, |d| d.get_ref().buffer().len()),
            Inner::Zstd(d) => d.get_ref().buffer().len(),
            Inner::Bzip2(d) => d.get_ref().buffer().len(),
            Inner::Xz(d) => d.get_ref().buffer().len(),
        }
    }
}

/// A decoder that says where the compressed file is damaged.
struct Decoder {
    inner: Inner,
    /// Bytes of the compressed file read into the buffer so far.
    read: Arc<AtomicU64>,
    /// Bytes decompressed so far.
    decoded: u64,
    codec: Codec,
    name: String,
    /// Where the gzip members start, when asked for.
    members: Option<Members>,
}

/// The most memory the xz decoder may take: 4 times what `xz -9` streams need (a 64 MiB
/// dictionary); a stream whose headers ask for more is refused before it is allocated.
/// (zstd's decoder refuses windows over 128 MiB by itself; gzip and bzip2 need little.)
pub const XZ_MEMORY: u64 = 256 * 1024 * 1024;

/// Chunks the decoding thread hands on.
const CHUNK: usize = 256 * 1024;
/// Chunks decoded ahead of the reader.
const AHEAD: usize = 4;

/// The decompressed bytes of `raw` (compressed with `codec`, a file named `name`), decoded
/// on a thread of its own (or on the reading thread when no thread can be started).
/// With `members`, notes that the input is compressed and where its gzip members start.
pub fn decompressed(
    name: &str,
    codec: Codec,
    raw: Box<dyn Append>,
    members: Option<Members>,
) -> Result<Box<dyn Append>, String> {
    let read = Arc::new(AtomicU64::new(0));
    let source = BufReader::with_capacity(
        64 * 1024,
        Counting {
            inner: raw,
            read: read.clone(),
        },
    );
    let inner = match codec {
        Codec::Gzip => Inner::Gzip(Some(Box::new(flate2::bufread::GzDecoder::new(source)))),
        Codec::Zstd => Inner::Zstd(
            zstd::stream::read::Decoder::with_buffer(source)
                .map_err(|e| format!("{name}: cannot start the zstd decoder: {e}"))?,
        ),
        Codec::Bzip2 => Inner::Bzip2(Box::new(bzip2::bufread::MultiBzDecoder::new(source))),
        Codec::Xz => {
            let stream = liblzma::stream::Stream::new_stream_decoder(
                XZ_MEMORY,
                liblzma::stream::CONCATENATED,
            )
            .map_err(|e| format!("{name}: cannot start the xz decoder: {e}"))?;
            Inner::Xz(Box::new(liblzma::bufread::XzDecoder::new_stream(
                source, stream,
            )))
        }
    };
    if let Some(members) = &members {
        members.set_compressed();
        if codec == Codec::Gzip {
            members.note(0, 0);
        }
    }
    Ok(threaded(Decoder {
        inner,
        read,
        decoded: 0,
        codec,
        name: name.to_owned(),
        members,
    }))
}

/// gzip's bytes from the member in `slot`; at its end, the next member's (a new decoder
/// on the same source, its start noted in `members`: `decoded` bytes into the stream, at
/// the byte of the file the source has counted to, less what it holds), if the file goes
/// on; `slot` is emptied at the end of the last.
fn read_gzip(
    slot: &mut Option<Box<flate2::bufread::GzDecoder<Source>>>,
    buf: &mut [u8],
    read: &AtomicU64,
    decoded: u64,
    members: Option<&Members>,
) -> io::Result<usize> {
    while let Some(d) = slot {
        let n = d.read(buf)?;
        if n > 0 || buf.is_empty() {
            return Ok(n);
        }
        let source = d.get_mut();
        if source.fill_buf()?.is_empty() {
            break;
        }
        let at = read.load(Ordering::Relaxed) - source.buffer().len() as u64;
        if let Some(members) = members {
            members.note(decoded, at);
        }
        *slot = slot
            .take()
            .map(|d| Box::new(flate2::bufread::GzDecoder::new(d.into_inner())));
    }
    *slot = None;
    Ok(0)
}

impl Decoder {
    /// What a decoder's error says when it refused a stream for the memory it asks for:
    /// how much the limit is, and what asks for it.
    fn memory_refused(&self, e: &io::Error) -> Option<String> {
        match self.codec {
            Codec::Xz => e
                .get_ref()
                .and_then(|inner| inner.downcast_ref::<liblzma::stream::Error>())
                .is_some_and(|e| matches!(e, liblzma::stream::Error::MemLimit))
                .then(|| {
                    format!(
                        "{} MiB of memory to decode (its dictionary)",
                        XZ_MEMORY >> 20
                    )
                }),
            // zstd's error name for a window over its limit (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`).
            Codec::Zstd => e.to_string().contains("too much memory").then(|| {
                "128 MiB of memory to decode (its window: written with `zstd --long` or a \
                 window over 128 MiB; `zstd -d --long=31` reads it)"
                    .to_owned()
            }),
            Codec::Gzip | Codec::Bzip2 => None,
        }
    }
}

impl Append for Decoder {}

impl Read for Decoder {
    /// The decoder's read; an error becomes a [`Damaged`] naming the file, the codec and
    /// the byte of the compressed file the decoder had reached.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let result = match &mut self.inner {
            Inner::Gzip(slot) => {
                read_gzip(slot, buf, &self.read, self.decoded, self.members.as_ref())
            }
            Inner::Zstd(d) => d.read(buf),
            Inner::Bzip2(d) => d.read(buf),
            Inner::Xz(d) => d.read(buf),
        };
        if let Ok(n) = result {
            self.decoded += n as u64;
        }
        match result {
            Err(e) if e.kind() != io::ErrorKind::Interrupted && damaged(&e).is_none() => {
                let buffered = self.inner.buffered() as u64;
                let at = self.read.load(Ordering::Relaxed).saturating_sub(buffered);
                let what = if let Some(memory) = self.memory_refused(&e) {
                    format!("needs more than {memory}, found at byte {at} of the file")
                } else if e.kind() == io::ErrorKind::UnexpectedEof {
                    format!("is cut short at byte {at} of the file")
                } else {
                    format!("is damaged after byte {at} of the file ({e})")
                };
                Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    Damaged(format!(
                        "{}: the {} stream {what}, {} bytes decompressed; the whole rows \
                         before it were read",
                        self.name,
                        self.codec.name(),
                        self.decoded
                    )),
                ))
            }
            other => other,
        }
    }
}

/// Whether a stream may be decoded on a thread of its own: false once a thread could not
/// be started, here or elsewhere in the run ([`decode_on_reading_thread`]).
static THREADS: AtomicBool = AtomicBool::new(true);

/// Streams opened from now on are decoded on the thread that reads them, and no thread is
/// tried for them (the run is on one thread: no thread can be started).
pub fn decode_on_reading_thread() {
    THREADS.store(false, Ordering::Relaxed);
}

/// Runs `decoder` on a thread of its own, [`AHEAD`] chunks ahead of the reader; on the
/// calling thread when no thread can be started (the same bytes, the same errors).
fn threaded(decoder: Decoder) -> Box<dyn Append> {
    if !THREADS.load(Ordering::Relaxed) {
        return Box::new(decoder);
    }
    let (tx, rx) = bounded::<io::Result<Vec<u8>>>(AHEAD);
    // The chunks the reader is done with, back to be decoded into again.
    let (back, returned) = bounded::<Vec<u8>>(AHEAD + 1);
    // The thread takes the decoder from here; when it cannot start, the reader does.
    let slot = Arc::new(std::sync::Mutex::new(Some(decoder)));
    let theirs = slot.clone();
    let spawned = std::thread::Builder::new()
        .name("decompress".to_owned())
        .spawn(move || {
            let Some(mut decoder) = theirs.lock().ok().and_then(|mut d| d.take()) else {
                return;
            };
            loop {
                let mut chunk = returned.try_recv().unwrap_or_default();
                // Only a new chunk is zeroed: a returned one keeps its bytes.
                chunk.resize(CHUNK, 0);
                let mut filled = 0;
                let result = loop {
                    match decoder.read(&mut chunk[filled..]) {
                        Ok(0) => break Ok(()),
                        Ok(n) => {
                            filled += n;
                            if filled == CHUNK {
                                break Ok(());
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => break Err(e),
                    }
                };
                chunk.truncate(filled);
                let end = filled < CHUNK;
                if !chunk.is_empty() && tx.send(Ok(chunk)).is_err() {
                    return;
                }
                if let Err(e) = result {
                    let _ = tx.send(Err(e));
                    return;
                }
                if end {
                    // An empty chunk says the stream ended (a thread that dies says
                    // nothing, and the reader reports it).
                    let _ = tx.send(Ok(Vec::new()));
                    return;
                }
            }
        });
    match spawned {
        Ok(_) => Box::new(Chunks {
            rx,
            back,
            chunk: Vec::new(),
            at: 0,
            ended: false,
        }),
        Err(_) => {
            decode_on_reading_thread();
            match slot.lock().ok().and_then(|mut d| d.take()) {
                Some(decoder) => Box::new(decoder),
                None => Box::new(io::empty()),
            }
        }
    }
}

/// The decoding thread's chunks, as a reader.
struct Chunks {
    rx: Receiver<io::Result<Vec<u8>>>,
    /// Where a chunk read to its end goes back to the decoding thread.
    back: Sender<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
    /// The thread said the stream ended.
    ended: bool,
}

impl Chunks {
    /// The bytes of the current chunk not read yet: the next chunk's when it is read to
    /// its end (the one read goes back to the thread); empty at the end of the stream.
    fn unread(&mut self) -> io::Result<&[u8]> {
        if !self.ended && self.at == self.chunk.len() {
            match self.rx.recv() {
                Ok(Ok(chunk)) if chunk.is_empty() => self.ended = true,
                Ok(Ok(chunk)) => {
                    let done = std::mem::replace(&mut self.chunk, chunk);
                    self.at = 0;
                    // The thread may have ended (or have enough): then it is dropped.
                    let _ = self.back.try_send(done);
                }
                Ok(Err(e)) => return Err(e),
                Err(_) => {
                    return Err(io::Error::other(
                        "the thread decompressing the input ended before the stream did",
                    ));
                }
            }
        }
        if self.ended {
            return Ok(&[]);
        }
        Ok(&self.chunk[self.at..])
    }
}

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let unread = self.unread()?;
        let n = buf.len().min(unread.len());
        buf[..n].copy_from_slice(&unread[..n]);
        self.at += n;
        Ok(n)
    }
}

impl Append for Chunks {
    /// The chunk's bytes, copied once.
    fn append(&mut self, buf: &mut Vec<u8>, max: usize, _: &mut Vec<u8>) -> io::Result<usize> {
        let unread = self.unread()?;
        let n = max.min(unread.len());
        buf.extend_from_slice(&unread[..n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::{Codec, may_be_magic};

    #[test]
    fn first_bytes_tell_the_codec() {
        assert_eq!(Codec::sniff(&[0x1F, 0x8B, 8]), Some(Codec::Gzip));
        assert_eq!(Codec::sniff(&[0x28, 0xB5, 0x2F, 0xFD]), Some(Codec::Zstd));
        assert_eq!(Codec::sniff(b"BZh9"), Some(Codec::Bzip2));
        assert_eq!(Codec::sniff(b"BZhx"), None);
        assert_eq!(Codec::sniff(b"\xFD7zXZ\x00"), Some(Codec::Xz));
        assert_eq!(Codec::sniff(b"\xFD7zXZ"), None);
        assert_eq!(Codec::sniff(b"https:"), None);
        assert!(may_be_magic(&[0x1F]) && may_be_magic(b"BZh") && may_be_magic(b"\xFD7z"));
        assert!(!may_be_magic(&[0x1F, 0x8B]) && !may_be_magic(b"BZh9") && !may_be_magic(b"h"));
    }
}
