//! Finding the line ends of a block of text in one pass, eight bytes at a time, with no
//! call per line (a `memchr` call per line cost about a sixth of parsing the line).

/// Eight copies of `\n`.
const LF: u64 = u64::from_ne_bytes([b'\n'; 8]);
/// The low seven bits of every byte.
const LOW7: u64 = u64::from_ne_bytes([0x7F; 8]);
/// The low bit of every byte.
const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
/// The high bit of every byte.
const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);

/// The word read from eight bytes, in memory order (byte `i` is bits `8i..8i+8`).
#[inline(always)]
fn word(bytes: &[u8]) -> u64 {
    u64::from_le_bytes(bytes.try_into().unwrap_or([0; 8]))
}

/// 0x80 in every byte of `x` that is 0, 0 in the others (exact: no carries between
/// bytes, as the high bit is kept out of the addition).
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    !(((x & LOW7) + LOW7) | x | LOW7)
}

/// Replaces the contents of `ends` with the positions of the line feeds of `bytes`, in
/// order, then `bytes.len()` when the last line has no line feed: the end of every line.
/// One pass a word at a time (`ends` is reused from block to block, so it allocates only
/// while it grows).
pub fn line_ends(bytes: &[u8], ends: &mut Vec<usize>) {
    ends.clear();
    #[cfg(target_arch = "x86_64")]
    {
        // The AVX2 searcher itself, without the dispatch `memchr::memchr` goes through
        // on every call (which cost about a third of each call on short lines).
        if let Some(lf) = memchr::arch::x86_64::avx2::memchr::One::new(b'\n') {
            ends.extend(lf.iter(bytes));
        } else {
            words(bytes, ends);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    words(bytes, ends);
    if bytes.last().is_some_and(|&b| b != b'\n') {
        ends.push(bytes.len());
    }
}

/// The line feeds of `bytes` into `ends`, without vector instructions.
fn words(bytes: &[u8], ends: &mut Vec<usize>) {
    // Sixteen bytes per step: a quick test (exact as a yes/no) of whether either word
    // holds a line feed, then the exact positions only for the steps that do.
    let mut pairs = bytes.chunks_exact(16);
    let mut at = 0;
    for pair in &mut pairs {
        let (lo, hi) = pair.split_at(8);
        let (lo, hi) = (word(lo) ^ LF, word(hi) ^ LF);
        let any = (lo.wrapping_sub(ONES) & !lo) | (hi.wrapping_sub(ONES) & !hi);
        if any & HIGH != 0 {
            push_ends(ends, at, zero_bytes(lo));
            push_ends(ends, at + 8, zero_bytes(hi));
        }
        at += 16;
    }
    for (i, &b) in pairs.remainder().iter().enumerate() {
        if b == b'\n' {
            ends.push(at + i);
        }
    }
}

/// Pushes `at` plus the index of every byte marked in `bits` (0x80 in marked bytes).
#[inline(always)]
fn push_ends(ends: &mut Vec<usize>, at: usize, mut bits: u64) {
    while bits != 0 {
        ends.push(at + (bits.trailing_zeros() / 8) as usize);
        bits &= bits - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{line_ends, words};

    /// The line ends found by a plain byte search, to compare with.
    fn plain(bytes: &[u8]) -> Vec<usize> {
        let mut ends: Vec<usize> = bytes
            .iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i)
            .collect();
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            ends.push(bytes.len());
        }
        ends
    }

    /// [`line_ends`], checked against the word-at-a-time search (which this machine
    /// may not use otherwise) on the same bytes.
    fn ends(bytes: &[u8]) -> Vec<usize> {
        // A reused vector: what it held before does not matter.
        let mut ends = vec![7, 7, 7];
        line_ends(bytes, &mut ends);
        let mut by_words = Vec::new();
        words(bytes, &mut by_words);
        let feeds = ends.len() - usize::from(!bytes.is_empty() && !bytes.ends_with(b"\n"));
        assert_eq!(by_words, ends[..feeds], "word-at-a-time search");
        ends
    }

    #[test]
    fn finds_every_line_feed_at_every_position() {
        // Every length up to 100 and every single position of one or two line feeds,
        // next to bytes that differ from `\n` by one bit (0x0B, 0x8A, 0x0E) and bytes
        // with the high bit set, so that a carry or a borrow would show.
        for len in 0..100 {
            for a in 0..len {
                for b in [a, (a + 1).min(len - 1), (a + 7) % len, (a + 31) % len] {
                    let mut bytes: Vec<u8> = (0..len)
                        .map(|i| [0x0B, 0x8A, 0x0E, 0xFF, b'a', 0x09, 0x00][i % 7])
                        .collect();
                    bytes[a] = b'\n';
                    bytes[b] = b'\n';
                    assert_eq!(
                        ends(&bytes),
                        plain(&bytes),
                        "len {len}, line feeds at {a} and {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn dense_and_absent() {
        assert_eq!(ends(b""), Vec::<usize>::new());
        assert_eq!(ends(&[b'x'; 77]), [77]);
        assert_eq!(ends(&[b'\n'; 70]), (0..70).collect::<Vec<_>>());
        let text = b"https://a.example/\r\nhttps://b.example/x?y#z\n\nlast";
        assert_eq!(ends(text), [19, 43, 44, 49]);
    }
}
