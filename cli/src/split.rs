//! The lines of a block of text: the line feeds found for the whole block in one
//! vectorized pass (`rapidurl::batch::line_feeds`, which also tells whether the block is
//! ASCII), then walked bit by bit, with no call per line.

/// A block's line ends, in order: the position of every line feed, then the block's
/// length when its last line has no line feed.
pub struct LineEnds<'m> {
    /// The line-feed masks, one `u64` per 64 bytes.
    masks: &'m [u64],
    /// The index of the word in `word`.
    at: usize,
    /// The bits of `masks[at]` not yet returned.
    word: u64,
    /// The end of an unterminated last line, still to return.
    tail: Option<usize>,
}

/// Fills `masks` with the line feeds of `bytes` and returns its line ends, and the block
/// as text when it is ASCII (`None`: not known to be UTF-8).
#[inline]
pub fn lines<'m, 'b>(bytes: &'b [u8], masks: &'m mut Vec<u64>) -> (LineEnds<'m>, Option<&'b str>) {
    let ascii = rapidurl::batch::line_feeds(bytes, masks);
    let tail = bytes
        .last()
        .is_some_and(|&b| b != b'\n')
        .then_some(bytes.len());
    let ends = LineEnds {
        masks,
        at: 0,
        word: masks.first().copied().unwrap_or(0),
        tail,
    };
    (ends, ascii)
}

impl Iterator for LineEnds<'_> {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        loop {
            if self.word != 0 {
                let end = self.at * 64 + self.word.trailing_zeros() as usize;
                self.word &= self.word - 1;
                return Some(end);
            }
            self.at += 1;
            match self.masks.get(self.at) {
                Some(&w) => self.word = w,
                None => return self.tail.take(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::lines;

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

    /// The line ends of `bytes`, with a mask buffer that held something before.
    fn ends(bytes: &[u8]) -> Vec<usize> {
        let mut masks = vec![7, 7, 7];
        let (ends, ascii) = lines(bytes, &mut masks);
        let ends: Vec<usize> = ends.collect();
        assert_eq!(ascii.is_some(), bytes.is_ascii());
        ends
    }

    #[test]
    fn finds_every_line_feed_at_every_position() {
        // Every length up to 200 and every single position of one or two line feeds,
        // next to bytes that differ from `\n` by one bit (0x0B, 0x8A, 0x0E) and bytes
        // with the high bit set, so that a carry or a borrow would show.
        for len in 0..200 {
            for a in 0..len {
                for b in [a, (a + 1).min(len - 1), (a + 7) % len, (a + 63) % len] {
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
        assert_eq!(ends(&[b'x'; 128]), [128]);
        assert_eq!(ends(&[b'\n'; 70]), (0..70).collect::<Vec<_>>());
        assert_eq!(ends(&[b'\n'; 128]), (0..128).collect::<Vec<_>>());
        let text = b"https://a.example/\r\nhttps://b.example/x?y#z\n\nlast";
        assert_eq!(ends(text), [19, 43, 44, 49]);
    }
}
