//! The Public Suffix List as data: every node of the list's label tree (a rule, or a
//! label on the way to one) in one table of 16-byte slots, placed by a perfect hash of
//! the node's path, so that finding a label's child is one hash, one two-byte read and
//! one slot read, compared in two `u64` operations (plus the label's bytes past the
//! eighth, on a hit).
//!
//! This file is also compiled into the library's build script (`build.rs`), which builds
//! the built-in table from the `psl` crate's `data/rules.txt` and writes it out as static
//! arrays; loaded lists ([`super::SuffixList::parse`]) build the same structure at run
//! time. It uses nothing outside itself and `std`.
//!
//! A slot is `[label's first 8 bytes, zero-padded (LE); meta]`, `meta` being the parent's
//! slot (bits 0–23, [`ROOT`] for a top-level label), the label's length (24–31), the
//! node's flags (32–39) and, for labels longer than 8 bytes, where the rest of the label
//! starts in the tails (40–63). A node's id is its slot. The hash of a node is computed
//! from its parent's hash and its label, so a walk from the right carries it along; the
//! slot of a hash `h` is given by a "pilot" per bucket of hashes (PTHash-style), found at
//! build time so that no two nodes share a slot. A label that is no child of the node
//! lands on some slot whose parent or label differs.

use std::collections::HashMap;

/// Rule flags of a node: a rule, an exception, per section.
pub(crate) const ICANN_RULE: u8 = 1;
pub(crate) const ICANN_EXCEPTION: u8 = 2;
pub(crate) const PRIVATE_RULE: u8 = 4;
pub(crate) const PRIVATE_EXCEPTION: u8 = 8;
/// The node has children other than `*`.
const CHILDREN: u8 = 16;
/// The node has a `*` child.
const WILDCARD: u8 = 32;

pub(crate) const RULES: u8 = ICANN_RULE | PRIVATE_RULE;
pub(crate) const EXCEPTIONS: u8 = ICANN_EXCEPTION | PRIVATE_EXCEPTION;
/// Every rule flag of the ICANN section.
pub(crate) const ICANN: u8 = ICANN_RULE | ICANN_EXCEPTION;

/// The parent field of a top-level label's slot.
pub(crate) const ROOT: u32 = 0xFF_FFFF;
/// The longest label a rule may have (a DNS label).
pub(crate) const MAX_LABEL: usize = 63;
const MAX_SLOTS: usize = ROOT as usize;
const MAX_TAILS: usize = 1 << 24;
const PILOT_K: u64 = 0x9E37_79B9_7F4A_7C15;
/// The words of a table's filter (a power of two).
pub(crate) const FILTER_WORDS: usize = 2048;
/// The words of a table's [`Table::wild`].
pub(crate) const WILD_WORDS: usize = 16;
/// The words of a table's [`Table::triples`] (a power of two).
pub(crate) const TRIPLE_WORDS: usize = 512;

/// The filter word of a hash, and its two bits in it.
#[inline(always)]
fn filter_bits(h: u64) -> (usize, u64) {
    let word = (h >> 53) as usize & (FILTER_WORDS - 1);
    (word, 1u64 << ((h >> 47) & 63) | 1u64 << ((h >> 41) & 63))
}

/// [`filter_bits`] of [`Table::triples`].
#[inline(always)]
fn triple_bits(h: u64) -> (usize, u64) {
    let word = (h >> 55) as usize & (TRIPLE_WORDS - 1);
    (word, 1u64 << ((h >> 47) & 63) | 1u64 << ((h >> 41) & 63))
}

/// A table, borrowed: the built-in one is static arrays, a loaded one a [`OwnedTable`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table<'a> {
    pub(crate) slots: &'a [[u64; 2]],
    /// Per bucket, the pilot's 32-bit mix that the bucket's hashes are XORed with.
    pub(crate) pilots: &'a [u32],
    pub(crate) tails: &'a [u8],
    /// A filter of the nodes' hashes ([`FILTER_WORDS`] words, two bits per node in one
    /// word): a label whose hash misses it is no child, found without reading a pilot or
    /// a slot (16 KiB, against 200 KiB of slots for the list).
    pub(crate) filter: &'a [u64],
    /// A filter of the keys of the nodes two labels deep, by their two labels (`co.uk`)
    /// ([`FILTER_WORDS`] words, see [`Table::last_two`]).
    pub(crate) pairs: &'a [u64; FILTER_WORDS],
    /// [`WILD_WORDS`] words, a bit for each top-level node with a `*` child, by its length
    /// and last two bytes ([`wild_bit`]; see [`Table::last_two`]).
    pub(crate) wild: &'a [u64; WILD_WORDS],
    /// A filter of the keys of the nodes three labels deep (not `*`), by their three
    /// labels (`blogspot.co.uk`), keyed as [`Table::pairs`] ([`TRIPLE_WORDS`] words, 4 KiB):
    /// a name whose last three labels miss it matches no rule longer than two labels.
    pub(crate) triples: &'a [u64; TRIPLE_WORDS],
    /// The nodes two labels deep whose names (`co.uk`) have at most 15 bytes, by name: an
    /// open-addressing table (a power of two, at most half full) of [`name_key`]s, each
    /// with the node's flags in its low byte. With [`Table::triples`], it answers the
    /// names the [`Table::pairs`] filter sends on without a walk of the tree.
    pub(crate) names: &'a [[u64; 2]],
    /// The hash of the root (the seed the pilots were found for).
    pub(crate) seed: u64,
    /// The root's [`CHILDREN`] and [`WILDCARD`] flags.
    pub(crate) root_flags: u8,
}

/// A table built at run time.
#[derive(Clone, Debug)]
pub(crate) struct OwnedTable {
    pub(crate) slots: Vec<[u64; 2]>,
    pub(crate) pilots: Vec<u32>,
    pub(crate) tails: Vec<u8>,
    pub(crate) filter: Vec<u64>,
    pub(crate) pairs: Box<[u64; FILTER_WORDS]>,
    pub(crate) wild: Box<[u64; WILD_WORDS]>,
    pub(crate) triples: Box<[u64; TRIPLE_WORDS]>,
    pub(crate) names: Vec<[u64; 2]>,
    pub(crate) seed: u64,
    pub(crate) root_flags: u8,
}

impl OwnedTable {
    pub(crate) fn view(&self) -> Table<'_> {
        Table {
            slots: &self.slots,
            pilots: &self.pilots,
            tails: &self.tails,
            filter: &self.filter,
            pairs: &self.pairs,
            wild: &self.wild,
            triples: &self.triples,
            names: &self.names,
            seed: self.seed,
            root_flags: self.root_flags,
        }
    }
}

/// Where a name's public suffix starts, and where the label before it does (`None` when
/// there is none, or it is empty).
pub(crate) type SuffixAt = (usize, Option<usize>);

/// What [`Table::last_two_in`] leaves to its caller, when its filters cannot answer.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Then {
    /// A full lookup: the name starts or ends with a dot, has one label, or its last two
    /// labels are not all in the window.
    Lookup,
    /// [`Table::walk_masked`] with the window's start and the name's dots in it.
    Walk(usize, u32),
    /// [`Table::by_names`]: the window's start, the dots as given and one place up
    /// (with a dot before the name), and the last two labels' starts (one place up).
    Names(usize, u32, u64, usize, usize),
}

/// An `Option<SuffixAt>` in two words, so that it comes back in registers: `usize::MAX`
/// for `None`, in the first for the whole, in the second for the label before.
pub(crate) type Packed = (usize, usize);

/// `found` as [`Packed`].
#[inline(always)]
pub(crate) fn pack(found: Option<SuffixAt>) -> Packed {
    match found {
        Some((suffix, before)) => (suffix, before.unwrap_or(usize::MAX)),
        None => (usize::MAX, 0),
    }
}

/// [`Packed`] back as an `Option<SuffixAt>`.
#[inline(always)]
pub(crate) fn unpack((suffix, before): Packed) -> Option<SuffixAt> {
    (suffix != usize::MAX).then_some((suffix, (before != usize::MAX).then_some(before)))
}

/// The outcome of [`Table::find`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// Where the public suffix starts in the name.
    pub(crate) start: usize,
    /// The flag of the prevailing rule (one of the four rule flags); 0 for the implicit `*`.
    pub(crate) flag: u8,
    /// Where the label before the suffix starts, when the walk saw it.
    pub(crate) hint: Option<usize>,
}

#[inline(always)]
fn load8(b: &[u8], i: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(w)
}

#[inline(always)]
fn fold(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

/// The first eight bytes of `name[start..end]`, little-endian, zero-padded.
#[inline(always)]
fn first8(name: &[u8], start: usize, end: usize) -> u64 {
    let len = end - start;
    if len >= 8 {
        load8(name, start)
    } else if len == 0 {
        0
    } else if end >= 8 {
        load8(name, end - 8) >> (64 - 8 * len)
    } else if name.len() >= start + 8 {
        load8(name, start) & ((1u64 << (8 * len)) - 1)
    } else {
        name[start..end]
            .iter()
            .rev()
            .fold(0, |w, &b| (w << 8) | u64::from(b))
    }
}

/// The hash of the child labelled `name[start..end]` (whose first eight bytes are
/// `first`, and last eight `last` if it is longer than 8 bytes, else 0) of the node whose
/// hash is `parent`: depends on every byte of the label.
#[inline(always)]
fn child_hash(parent: u64, name: &[u8], start: usize, end: usize, first: u64, last: u64) -> u64 {
    const K_LEN: u64 = 0xD6E8_FEB8_6659_FD93;
    const K_A: u64 = 0xA076_1D64_78BD_642F;
    const K_B: u64 = 0xE703_7ED1_A0B4_28DB;
    let len = end - start;
    let mut a = parent ^ first;
    if len > 16 {
        let mut i = start + 8;
        while i + 8 < end {
            a = fold(a ^ load8(name, i), K_A);
            i += 8;
        }
    }
    fold(a ^ K_A, last ^ (len as u64).wrapping_mul(K_LEN) ^ K_B)
}

/// The start of the label of `name` that ends at `end` (after the last dot before it).
#[inline(always)]
pub(crate) fn label_start(name: &[u8], end: usize) -> usize {
    let mut e = end;
    while e >= 8 {
        let d = dots(load8(name, e - 8));
        if d != 0 {
            return e - 8 + (63 - d.leading_zeros() as usize) / 8 + 1;
        }
        e -= 8;
    }
    if e == 0 {
        return 0;
    }
    if name.len() >= 8 {
        // Bytes 0..e of the first word.
        let d = dots(load8(name, 0)) & ((1u64 << (8 * e)) - 1);
        return if d == 0 {
            0
        } else {
            (63 - d.leading_zeros() as usize) / 8 + 1
        };
    }
    name[..e]
        .iter()
        .rposition(|&b| b == b'.')
        .map_or(0, |dot| dot + 1)
}

/// The start of the label of `name` (at least 8 bytes long) that ends at `end` (not 0),
/// its first eight bytes, and its last eight if it is longer than 8 bytes (else 0): most
/// often from the one read of the eight bytes that end at `end`.
#[inline(always)]
fn label_words(name: &[u8], end: usize) -> (usize, u64, u64) {
    // The eight bytes that end at `end`; the bytes before the name read as zeros.
    let w = if end >= 8 {
        load8(name, end - 8)
    } else {
        load8(name, 0) << (8 * (8 - end))
    };
    let d = dots(w);
    if d != 0 {
        // The byte of the last dot in `w`; the label is the bytes above it.
        let dot = (63 - d.leading_zeros() as usize) / 8;
        return (end + dot - 7, (w >> (8 * dot)) >> 8, 0);
    }
    if end <= 8 {
        return (0, w >> (8 * (8 - end)), 0);
    }
    let start = label_start(name, end - 8);
    let last = if end - start > 8 { w } else { 0 };
    (start, load8(name, start), last)
}

/// The key in [`Table::pairs`] of a name of `len` bytes whose first eight bytes are
/// `first` and last eight `last` (little-endian; zero-padded above when it is shorter).
#[inline(always)]
fn pair_key(first: u64, last: u64, len: usize) -> u64 {
    const K_LEN: u64 = 0x8EBC_6AF0_9C88_C6E3;
    const K: u64 = 0x5899_65CC_7537_4CC3;
    (first.rotate_left(29) ^ last ^ (len as u64).wrapping_mul(K_LEN)).wrapping_mul(K)
}

/// [`pair_key`] of a whole name.
fn pair_key_of(name: &[u8]) -> u64 {
    let (first, last) = if name.len() >= 8 {
        (load8(name, 0), load8(name, name.len() - 8))
    } else {
        let w = first8(name, 0, name.len());
        (w, w)
    };
    pair_key(first, last, name.len())
}

/// The bit of [`Table::wild`] of a last label of `len` bytes (at least one) whose last
/// two bytes, or its dot and its byte, are `last2` (little-endian): labels of the same
/// length and ending share it.
#[inline(always)]
fn wild_bit(last2: u64, len: usize) -> usize {
    ((last2 | (len as u64) << 16).wrapping_mul(0x9FB2_1C65_1E98_DF25) >> 54) as usize
}

/// The longest name [`Table::names`] holds.
pub(crate) const NAME_MAX: usize = 15;

/// The key of a name of `len` bytes (1 to [`NAME_MAX`]) in [`Table::names`]: the 16
/// bytes that end where it ends (`lo`, the first eight, and `hi`, little-endian), with
/// those before it cleared, so that the low byte is free for the flags.
#[inline(always)]
fn name_key(lo: u64, hi: u64, len: usize) -> [u64; 2] {
    let kept = !0u128 << (8 * (16 - len));
    let key = (u128::from(hi) << 64 | u128::from(lo)) & kept;
    [key as u64, (key >> 64) as u64]
}

/// [`name_key`] of a whole name (build time).
fn name_key_of(name: &[u8]) -> [u64; 2] {
    let mut w = [0u8; 16];
    w[16 - name.len()..].copy_from_slice(name);
    name_key(load8(&w, 0), load8(&w, 8), name.len())
}

/// The first slot of [`Table::names`] (`len` of them, a power of two) to look at for `key`.
#[inline(always)]
fn name_slot(key: [u64; 2], len: usize) -> usize {
    let h = (key[0] ^ key[1].rotate_left(23)).wrapping_mul(0x9E6C_63D0_676A_9A99);
    (h >> 32) as usize & (len - 1)
}

/// The high bit of each byte of `w` that is a dot (exact: no carries between bytes).
#[inline(always)]
fn dots(w: u64) -> u64 {
    const DOTS: u64 = 0x2E2E_2E2E_2E2E_2E2E;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = w ^ DOTS;
    !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
}

/// The longest matching rule and exception met so far, by depth (labels from the right).
struct Best {
    rule: (usize, usize, u8),
    exception: (usize, usize, u8),
    /// A suffix start, and where the label before it starts.
    hint: (usize, usize),
}

impl Table<'_> {
    /// Whether a node may have the hash `h` (no node whose hash misses the filter).
    #[inline(always)]
    fn may_hold(&self, h: u64) -> bool {
        let (word, bits) = filter_bits(h);
        self.filter[word] & bits == bits
    }

    #[inline(always)]
    fn slot_of(&self, h: u64) -> usize {
        let buckets = self.pilots.len() as u64;
        let bucket = (((h >> 32) * buckets) >> 32) as usize;
        let x = u64::from(h as u32 ^ self.pilots[bucket]);
        ((x * self.slots.len() as u64) >> 32) as usize
    }

    /// The child of the node at slot `parent` (hash `ph`) labelled `name[start..end]`:
    /// its slot, hash and flags.
    #[inline(always)]
    fn child(
        &self,
        parent: u32,
        ph: u64,
        name: &[u8],
        start: usize,
        end: usize,
    ) -> Option<(u32, u64, u8)> {
        let last = if end - start > 8 {
            load8(name, end - 8)
        } else {
            0
        };
        self.child_of(parent, ph, name, start, end, first8(name, start, end), last)
    }

    /// [`Table::child`], given the label's first eight bytes and its last eight (0 when
    /// it is not longer than 8 bytes).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // the walk's state, kept in registers
    fn child_of(
        &self,
        parent: u32,
        ph: u64,
        name: &[u8],
        start: usize,
        end: usize,
        first: u64,
        last: u64,
    ) -> Option<(u32, u64, u8)> {
        let len = end - start;
        if len > MAX_LABEL {
            return None;
        }
        let h = child_hash(ph, name, start, end, first, last);
        if !self.may_hold(h) {
            return None;
        }
        let s = self.slot_of(h);
        let [key, meta] = self.slots[s];
        if key != first || meta as u32 != parent | (len as u32) << 24 {
            return None;
        }
        if len > 8 {
            let at = (meta >> 40) as usize;
            if self.tails[at..at + len - 8] != name[start + 8..end] {
                return None;
            }
        }
        Some((s as u32, h, (meta >> 32) as u8))
    }

    /// The public suffix of `name` (ASCII, no trailing dot, not empty, not starting with
    /// a dot) by the list's formal algorithm, over the rules whose flags are in `mask`
    /// (every rule flag, or [`ICANN`]).
    ///
    /// Down a path of the tree with no `*` child and no exception rule (nearly every
    /// host), the longest matching rule is the deepest node matched that is a rule: this
    /// walk keeps that alone, and hands any other path to [`Table::find_general`].
    #[inline(always)]
    pub(crate) fn find(&self, name: &[u8], mask: u8) -> Found {
        self.walk_from_right(name, mask)
    }

    /// The short cut of the lookups that need no section: where the public suffix of
    /// `name` (ASCII, neither starting nor ending with a dot) starts and where the label
    /// before it does, when the suffix is the last label; `None` for the names that need
    /// [`Table::find`], whose answers these always are.
    ///
    /// The last label is the public suffix whatever its own rule, unless a rule of two
    /// labels or more ends in it: a `*` child of the top-level node (its label is in
    /// [`Table::wild`]), or a node two labels deep, which every longer rule and exception
    /// passes through (the two labels' key is in [`Table::pairs`]). When neither is
    /// there, no such rule matches; a key found there by chance only sends the name to
    /// the walk. Names whose last label is longer than 7 bytes take [`Table::find`].
    #[inline(always)]
    pub(crate) fn last_two(&self, name: &[u8]) -> Option<(usize, usize)> {
        let n = name.len();
        if n < 8 || self.root_flags & WILDCARD != 0 {
            return None;
        }
        let w = load8(name, n - 8);
        let d = dots(w);
        // No dot, or a last label that is empty.
        if d == 0 || d >> 63 != 0 {
            return None;
        }
        // The last dot is the highest of `d`; the label after it is the bytes above.
        let top_start = n - 8 + (64 - d.leading_zeros() as usize) / 8;
        self.probe(name, label_start(name, top_start - 1), top_start, n)
    }

    /// [`Table::last_two`] of the name `s[start..end]` (ASCII, `end` at least 8) in a text
    /// around it (a URL's serialization) of at least 16 bytes: the dots of the 32 bytes
    /// that end at `end` (or of the first 32 of `s`) come as a bitmask, whose two highest
    /// bits in the name are the two dots, found without a branch on the labels' lengths.
    /// Gives where the public suffix starts and where the label before it does (`None`:
    /// there is none, or it is empty). When the filters send the name on, the last two
    /// labels are looked up by name and the third in a filter ([`Then::Names`], for
    /// [`Table::by_names`]); the wildcard map and names that the short cut cannot read
    /// go to the walk ([`Then::Walk`]), and names that start or end with a dot, have one
    /// label, or whose last two labels are not all in those bytes to the full lookup
    /// ([`Then::Lookup`]).
    /// `dots32` gives the mask (bit `j` for a dot at `s[at + j]`, `None` past the end of
    /// `s`): the library's `scan::dots::dots32`, which this file, compiled into the build
    /// script too, leaves to its caller.
    #[inline(always)]
    pub(crate) fn last_two_in(
        &self,
        s: &[u8],
        start: usize,
        end: usize,
        dots32: impl Fn(&[u8], usize) -> Option<u32>,
    ) -> Result<SuffixAt, Then> {
        if end < 8 || self.root_flags & WILDCARD != 0 {
            return Err(Then::Lookup);
        }
        let lo = end.saturating_sub(32);
        let m = dots32(s, lo).ok_or(Then::Lookup)?;
        // The dots of the name alone: bits `start - lo` (or 0) to `end - lo`.
        let from = start.saturating_sub(lo);
        let m = m & (u32::MAX >> (32 - (end - lo))) & (u32::MAX << from);
        // One place up, with a dot just before the name when it starts in the window:
        // bit `p` of `v` is a dot at `lo + p - 1`, so a label starts at `lo + p`.
        let inside = u64::from(start >= lo);
        let v = u64::from(m) << 1 | inside << from;
        let t = 63 - (v | 1).leading_zeros() as usize;
        let rest = v & !(1 << t);
        let b = 63 - (rest | 1).leading_zeros() as usize;
        let (top_start, before) = (lo + t, lo + b);
        let top_len = end - top_start;
        // The cold cases: a name that starts with a dot (no public suffix, whatever its
        // labels), the last two labels not both in the window (or one label), an empty
        // last label, an empty label before it.
        let leading_dot = s.get(start) == Some(&b'.');
        if leading_dot || rest == 0 || top_len == 0 || t < b + 2 {
            return Err(if rest == 0 || top_len == 0 || leading_dot {
                Then::Lookup
            } else {
                Then::Walk(lo, m)
            });
        }
        let w = load8(s, end - 8);
        if self.wild_holds(w, top_len) {
            return Err(Then::Walk(lo, m));
        }
        // The last two labels' first and last eight bytes ([`pair_key_of`]), without a
        // branch on their length.
        let len = end - before;
        // Read at `before`, or for a name shorter than 8 bytes at `end - 8` and shifted
        // down to it (no branch on the length: one URL in five would mispredict it).
        let at = before.min(end - 8);
        let first = load8(s, at) >> (8 * (before - at));
        let last = if len < 8 { first } else { w };
        if self.pairs_hold(pair_key(first, last, len)) {
            return Err(Then::Names(lo, m, v, t, b));
        }
        Ok((top_start, Some(before)))
    }

    /// The end of [`Table::last_two_in`] for a name whose last two labels (from
    /// `lo + b`, the last from `lo + t`; `v` the mask one place up, `m` as it was) are in
    /// the [`Table::pairs`] filter ([`Then::Names`]): the node of those two labels, found
    /// by name, and for one with children whether the last three labels may be a node
    /// too ([`Table::triples`]), decide the answer; else (a `*` child, an exception, a
    /// name too long, three labels in the filter) the walk does ([`Table::walk_masked`]:
    /// `None` when it cannot answer either).
    #[inline(never)]
    pub(crate) fn by_names(
        &self,
        s: &[u8],
        start: usize,
        end: usize,
        (lo, m, v, t, b): (usize, u32, u64, usize, usize),
    ) -> Packed {
        let walk = || pack(self.walk_masked(s, start, end, lo, m));
        let (top_start, before) = (lo + t, lo + b);
        if end < 16 || end - before > NAME_MAX {
            return walk();
        }
        let (wlo, whi) = (load8(s, end - 16), load8(s, end - 8));
        let Some(flags) = self.name_flags(name_key(wlo, whi, end - before)) else {
            // Not a node: the filter's false positive.
            return pack(Some((top_start, Some(before))));
        };
        if flags & (WILDCARD | EXCEPTIONS) != 0 {
            return walk();
        }
        // The label before the two, unless the name is those two.
        let third = if before == start {
            None
        } else {
            let rest = v & !(1 << t) & !(1 << b);
            if rest == 0 {
                return walk();
            }
            let c = 63 - rest.leading_zeros() as usize;
            if c + 2 > b {
                return walk();
            }
            Some(lo + c)
        };
        if let (Some(third), true) = (third, flags & CHILDREN != 0) {
            // The last three labels' key, as the pairs' is made in `last_two_in`.
            let len = end - third;
            let at = third.min(end - 8);
            let first = load8(s, at) >> (8 * (third - at));
            let last = if len < 8 { first } else { whi };
            if self.triples_hold(pair_key(first, last, len)) {
                return walk();
            }
        }
        pack(Some(if flags & RULES != 0 {
            (before, third)
        } else {
            (top_start, Some(before))
        }))
    }

    /// The walk of [`Table::find`] over the whole list on the name `s[start..end]`, whose
    /// dots among `s[lo..lo + 32]` are the bits of `m` (none outside the name): the
    /// labels' starts come from the mask. Gives where the public suffix starts and where
    /// the label before it does (`None`: the name has none, or it is empty); `None` when
    /// the walk meets a `*` child or an exception, or a label that starts before `lo`.
    #[inline(never)]
    pub(crate) fn walk_masked(
        &self,
        s: &[u8],
        start: usize,
        end: usize,
        lo: usize,
        m: u32,
    ) -> Option<(usize, Option<usize>)> {
        // The start of the label that ends at `e`: after the highest dot below it.
        let label = |e: usize| {
            let below = u64::from(m) & ((1u64 << (e - lo)) - 1);
            if below != 0 {
                Some(lo + 64 - below.leading_zeros() as usize)
            } else {
                (start >= lo).then_some(start)
            }
        };
        let (mut parent, mut ph, mut flags) = (ROOT, self.seed, self.root_flags);
        let (mut e, mut ls) = (end, label(end)?);
        let mut suffix = ls;
        loop {
            if flags & (WILDCARD | CHILDREN) != CHILDREN {
                if flags & WILDCARD != 0 {
                    return None;
                }
                break;
            }
            let Some((slot, h, f)) = self.child(parent, ph, s, ls, e) else {
                break;
            };
            if f & EXCEPTIONS != 0 {
                return None;
            }
            if f & RULES != 0 {
                suffix = ls;
            }
            if ls == start {
                break;
            }
            (parent, ph, flags) = (slot, h, f);
            e = ls - 1;
            ls = label(e)?;
        }
        if suffix == start {
            return Some((suffix, None));
        }
        let before = label(suffix - 1)?;
        Some((suffix, (before + 1 < suffix).then_some(before)))
    }

    /// The end of [`Table::last_two`]: the last two labels of a name that ends at `end`
    /// in `s` start at `start` and `top_start`; their answer, unless the filters send
    /// the name to the walk.
    #[inline(always)]
    fn probe(
        &self,
        s: &[u8],
        start: usize,
        top_start: usize,
        end: usize,
    ) -> Option<(usize, usize)> {
        let top_len = end - top_start;
        // An empty label.
        if start + 1 >= top_start || top_len == 0 {
            return None;
        }
        let w = load8(s, end - 8);
        if self.wild_holds(w, top_len) {
            return None;
        }
        // The last two labels' first and last eight bytes ([`pair_key_of`]).
        let len = end - start;
        let (first, last) = if len >= 8 {
            (load8(s, start), w)
        } else {
            let both = w >> (8 * (8 - len));
            (both, both)
        };
        if self.pairs_hold(pair_key(first, last, len)) {
            return None;
        }
        Some((top_start, start))
    }

    /// Whether [`Table::wild`] may hold the last label of `len` bytes (at least one) of a
    /// name whose last eight bytes, after a dot, are `w`.
    #[inline(always)]
    fn wild_holds(&self, w: u64, len: usize) -> bool {
        let bit = wild_bit(w >> 48, len);
        self.wild[bit / 64] & 1 << (bit % 64) != 0
    }

    /// Whether [`Table::triples`] may hold `key`.
    #[inline(always)]
    fn triples_hold(&self, key: u64) -> bool {
        let (word, bits) = triple_bits(key);
        self.triples[word] & bits == bits
    }

    /// Whether [`Table::pairs`] may hold `key`.
    #[inline(always)]
    fn pairs_hold(&self, key: u64) -> bool {
        let (word, bits) = filter_bits(key);
        self.pairs[word] & bits == bits
    }

    /// The flags of the node whose [`name_key`] is `key` in [`Table::names`], if it holds it:
    /// two slots at a time, compared without a branch (a branch per slot mispredicted
    /// often, a lookup taking one to three).
    #[inline(always)]
    fn name_flags(&self, key: [u64; 2]) -> Option<u8> {
        let len = self.names.len();
        let mut i = name_slot(key, len);
        loop {
            let [a0, b0] = self.names[i];
            let [a1, b1] = self.names[(i + 1) & (len - 1)];
            let same0 = ((a0 & !0xFF) ^ key[0]) | (b0 ^ key[1]) == 0;
            let same1 = ((a1 & !0xFF) ^ key[0]) | (b1 ^ key[1]) == 0;
            if same0 | same1 {
                return Some(if same0 { a0 } else { a1 } as u8);
            }
            // A free slot ends the run the key would be in.
            if (b0 == 0) | (b1 == 0) {
                return None;
            }
            i = (i + 2) & (len - 1);
        }
    }

    /// [`Table::find`]: walks the labels of `name` from the right while they are nodes
    /// of the tree.
    #[inline(always)]
    fn walk_from_right(&self, name: &[u8], mask: u8) -> Found {
        let n = name.len();
        if n < 8 || self.root_flags & WILDCARD != 0 {
            return self.find_general(name, mask);
        }
        let (mut parent, mut ph, mut flags) = (ROOT, self.seed, self.root_flags);
        let mut end = n;
        let (mut start, mut first, mut last) = label_words(name, end);
        // The deepest rule matched: where its suffix starts, and its flags.
        let (mut suffix, mut flag) = (start, 0u8);
        loop {
            if flags & (WILDCARD | CHILDREN) != CHILDREN {
                if flags & WILDCARD != 0 {
                    return self.find_general(name, mask);
                }
                break;
            }
            let Some((s, h, f)) = self.child_of(parent, ph, name, start, end, first, last) else {
                break;
            };
            if f & EXCEPTIONS != 0 {
                return self.find_general(name, mask);
            }
            if f & mask != 0 {
                (suffix, flag) = (start, f & mask);
            }
            if start == 0 {
                return Found {
                    start: suffix,
                    flag,
                    hint: None,
                };
            }
            (parent, ph, flags) = (s, h, f);
            end = start - 1;
            (start, first, last) = label_words(name, end);
        }
        // `start..end` is the label before the last node matched.
        let hint = (suffix == end + 1).then_some(start);
        Found {
            start: suffix,
            flag,
            hint,
        }
    }

    /// [`Table::find`] by the formal algorithm on every path: the rules of `*` children
    /// and exceptions too.
    #[inline(never)]
    fn find_general(&self, name: &[u8], mask: u8) -> Found {
        let mut best = Best {
            rule: (0, 0, 0),
            exception: (0, 0, 0),
            hint: (usize::MAX, 0),
        };
        let last = self.walk(
            name,
            ROOT,
            self.seed,
            self.root_flags,
            name.len(),
            1,
            mask,
            &mut best,
        );
        let (start, flag) = if best.exception.0 > 0 {
            (best.exception.1, best.exception.2)
        } else if best.rule.0 > 0 {
            (best.rule.1, best.rule.2)
        } else {
            (last, 0)
        };
        let hint = (best.hint.0 == start && best.hint.1 != usize::MAX).then_some(best.hint.1);
        Found { start, flag, hint }
    }

    /// Matches the labels of `name` that end at `end` and before, the first of them
    /// (the `depth`-th from the right) under the node at slot `node` (hash `ph`, flags
    /// `flags`), noting rules in `best`. Returns the start of that first label.
    #[allow(clippy::too_many_arguments)] // the walk's state, kept in registers
    fn walk(
        &self,
        name: &[u8],
        mut node: u32,
        mut ph: u64,
        mut flags: u8,
        mut end: usize,
        mut depth: usize,
        mask: u8,
        best: &mut Best,
    ) -> usize {
        let first_start = label_start(name, end);
        let mut start = first_start;
        loop {
            if best.hint.0 == end + 1 {
                best.hint.1 = start;
            }
            if flags & WILDCARD != 0 {
                self.wildcard(name, node, ph, start, end, depth, mask, best);
            }
            if flags & CHILDREN == 0 {
                return first_start;
            }
            let Some((s, h, f)) = self.child(node, ph, name, start, end) else {
                return first_start;
            };
            note(f, start, end, depth, mask, best);
            if start == 0 {
                return first_start;
            }
            (node, ph, flags) = (s, h, f);
            end = start - 1;
            start = label_start(name, end);
            depth += 1;
        }
    }

    /// The `*` child of the node at `node` matches `name[start..end]`: notes its rules
    /// and follows its children (no rule of the list has any).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    #[cold]
    fn wildcard(
        &self,
        name: &[u8],
        node: u32,
        ph: u64,
        start: usize,
        end: usize,
        depth: usize,
        mask: u8,
        best: &mut Best,
    ) {
        let Some((s, h, f)) = self.child(node, ph, b"*", 0, 1) else {
            return;
        };
        note(f, start, end, depth, mask, best);
        if f & (CHILDREN | WILDCARD) != 0 && start > 0 {
            self.walk(name, s, h, f, start - 1, depth + 1, mask, best);
        }
    }
}

/// Notes the rules of a node (flags `f`) matched by the label `start..end`, the
/// `depth`-th from the right. At equal depth the node noted last prevails (the exact
/// child after the wildcard).
#[inline(always)]
fn note(f: u8, start: usize, end: usize, depth: usize, mask: u8, best: &mut Best) {
    let f = f & mask;
    if f == 0 {
        return;
    }
    if f & RULES != 0 && best.rule.0 <= depth {
        // The section: ICANN if the node is an ICANN rule, else private.
        let flag = if f & ICANN_RULE != 0 {
            ICANN_RULE
        } else {
            PRIVATE_RULE
        };
        best.rule = (depth, start, flag);
        best.hint = (start, usize::MAX);
    }
    if f & EXCEPTIONS != 0 && best.exception.0 <= depth {
        let flag = if f & ICANN_EXCEPTION != 0 {
            ICANN_EXCEPTION
        } else {
            PRIVATE_EXCEPTION
        };
        // The suffix is the rule less this label: it starts after `end`'s dot.
        best.exception = (depth, end + 1, flag);
        best.hint = (end + 1, start);
    }
}

/// Why a table could not be built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BuildError {
    /// More nodes, or more bytes of long labels, than a slot can address.
    TooLarge,
}

/// Builds a table from rules.
#[derive(Default)]
pub(crate) struct Builder {
    /// (parent, label, flags); node 0 is the root.
    nodes: Vec<(u32, Vec<u8>, u8)>,
    edges: HashMap<(u32, Vec<u8>), u32>,
    rules: usize,
}

impl Builder {
    pub(crate) fn new() -> Builder {
        Builder {
            nodes: vec![(0, Vec::new(), 0)],
            edges: HashMap::new(),
            rules: 0,
        }
    }

    /// The number of distinct rules added.
    pub(crate) fn rule_count(&self) -> usize {
        self.rules
    }

    /// Adds a rule: its labels from the right (ASCII, none empty or longer than
    /// [`MAX_LABEL`]; `*` for a wildcard), and its flag (one of the four rule flags).
    pub(crate) fn add<'l>(&mut self, labels: impl Iterator<Item = &'l [u8]>, flag: u8) {
        let mut node = 0u32;
        for label in labels {
            let key = (node, label.to_vec());
            node = match self.edges.get(&key) {
                Some(&id) => id,
                None => {
                    let id = self.nodes.len() as u32;
                    let parent = &mut self.nodes[node as usize].2;
                    *parent |= if label == b"*" { WILDCARD } else { CHILDREN };
                    self.nodes.push((node, label.to_vec(), 0));
                    self.edges.insert(key, id);
                    id
                }
            };
        }
        let flags = &mut self.nodes[node as usize].2;
        if *flags & flag == 0 {
            self.rules += 1;
        }
        *flags |= flag;
    }

    /// Places every node in a table.
    pub(crate) fn finish(&self) -> Result<OwnedTable, BuildError> {
        let n = self.nodes.len() - 1;
        let tail_bytes: usize = self
            .nodes
            .iter()
            .map(|(_, l, _)| l.len().saturating_sub(8))
            .sum();
        // A few more slots than nodes; a bucket of about four hashes per pilot.
        let m = (n + n / 8 + 1).max(2);
        if m >= MAX_SLOTS || tail_bytes >= MAX_TAILS {
            return Err(BuildError::TooLarge);
        }
        let buckets = n / 4 + 1;
        for attempt in 0u64.. {
            let seed = fold(0x243F_6A88_85A3_08D3 ^ attempt, PILOT_K);
            if let Some(table) = self.place(seed, m + attempt as usize, buckets) {
                return Ok(table);
            }
        }
        unreachable!("the loop above only ends by returning")
    }

    /// [`Table::names`]: the nodes two labels deep (not `*`) whose names have at most
    /// [`NAME_MAX`] bytes.
    fn names(&self) -> Vec<[u64; 2]> {
        // Each node's name and depth, parents first (a node is added after its parent).
        let mut full: Vec<(Vec<u8>, usize)> = vec![(Vec::new(), 0)];
        let mut keyed = Vec::new();
        for (parent, label, flags) in &self.nodes[1..] {
            let (up, depth) = &full[*parent as usize];
            let name = match depth {
                0 => label.clone(),
                _ => [&label[..], b".", up].concat(),
            };
            if depth + 1 == 2 && label != b"*" && name.len() <= NAME_MAX {
                keyed.push((name_key_of(&name), *flags));
            }
            full.push((name, depth + 1));
        }
        let len = (2 * keyed.len()).next_power_of_two().max(2);
        let mut names = vec![[0u64; 2]; len];
        for (key, flags) in keyed {
            let mut i = name_slot(key, len);
            while names[i] != [0, 0] {
                i = (i + 1) & (len - 1);
            }
            names[i] = [key[0] | u64::from(flags), key[1]];
        }
        names
    }

    fn place(&self, seed: u64, m: usize, nb: usize) -> Option<OwnedTable> {
        let mut table = OwnedTable {
            slots: vec![[0, u64::MAX]; m],
            pilots: vec![0; nb],
            tails: Vec::new(),
            filter: vec![0; FILTER_WORDS],
            pairs: Box::new([0; FILTER_WORDS]),
            wild: Box::new([0; WILD_WORDS]),
            triples: Box::new([0; TRIPLE_WORDS]),
            names: self.names(),
            seed,
            root_flags: self.nodes[0].2,
        };
        // The hash of every node, parents first (a node is added after its parent).
        let mut hashes = vec![seed; self.nodes.len()];
        for (id, (parent, label, _)) in self.nodes.iter().enumerate().skip(1) {
            let first = first8(label, 0, label.len());
            let last = if label.len() > 8 {
                load8(label, label.len() - 8)
            } else {
                0
            };
            hashes[id] = child_hash(hashes[*parent as usize], label, 0, label.len(), first, last);
        }
        for &h in &hashes[1..] {
            let (word, bits) = filter_bits(h);
            table.filter[word] |= bits;
        }
        for (parent, label, flags) in &self.nodes[1..] {
            if *parent == 0 && flags & WILDCARD != 0 {
                let dotted = [b".", &label[..]].concat();
                let last2 =
                    u64::from(dotted[dotted.len() - 2]) | u64::from(dotted[dotted.len() - 1]) << 8;
                let bit = wild_bit(last2, label.len());
                table.wild[bit / 64] |= 1 << (bit % 64);
            }
            let (grandparent, up, _) = &self.nodes[*parent as usize];
            if *parent != 0 && *grandparent == 0 {
                let (word, bits) = filter_bits(pair_key_of(&[&label[..], b".", up].concat()));
                table.pairs[word] |= bits;
            }
            let top = &self.nodes[*grandparent as usize];
            if *parent != 0 && *grandparent != 0 && top.0 == 0 && label != b"*" {
                let name = [&label[..], b".", up, b".", &top.1[..]].concat();
                let (word, bits) = triple_bits(pair_key_of(&name));
                table.triples[word] |= bits;
            }
        }
        let mut sorted = hashes[1..].to_vec();
        sorted.sort_unstable();
        if sorted.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        let view = |t: &OwnedTable, h: u64| t.view().slot_of(h);
        let mut by_bucket: Vec<Vec<usize>> = vec![Vec::new(); nb];
        for (id, &h) in hashes.iter().enumerate().skip(1) {
            let bucket = (((h >> 32) * nb as u64) >> 32) as usize;
            by_bucket[bucket].push(id);
        }
        let mut order: Vec<usize> = (0..nb).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(by_bucket[b].len()));
        let mut slot_of = vec![usize::MAX; self.nodes.len()];
        let mut taken = vec![false; m];
        let mut chosen = Vec::new();
        for b in order {
            let ids = &by_bucket[b];
            if ids.is_empty() {
                break;
            }
            let mut placed = false;
            for pilot in 0..=u64::from(u16::MAX) {
                table.pilots[b] = (pilot.wrapping_mul(PILOT_K) >> 32) as u32;
                chosen.clear();
                for &id in ids {
                    let s = view(&table, hashes[id]);
                    if taken[s] || chosen.contains(&s) {
                        break;
                    }
                    chosen.push(s);
                }
                if chosen.len() == ids.len() {
                    for (&id, &s) in ids.iter().zip(&chosen) {
                        taken[s] = true;
                        slot_of[id] = s;
                    }
                    placed = true;
                    break;
                }
            }
            if !placed {
                return None;
            }
        }
        for (id, (parent, label, flags)) in self.nodes.iter().enumerate().skip(1) {
            let parent_slot = if *parent == 0 {
                ROOT as u64
            } else {
                slot_of[*parent as usize] as u64
            };
            let mut meta = parent_slot | (label.len() as u64) << 24 | u64::from(*flags) << 32;
            if label.len() > 8 {
                meta |= (table.tails.len() as u64) << 40;
                table.tails.extend_from_slice(&label[8..]);
            }
            table.slots[slot_of[id]] = [first8(label, 0, label.len()), meta];
        }
        Some(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_starts_and_first_bytes() {
        let names: &[&[u8]] = &[
            b"a",
            b"a.b",
            b"www.example.com",
            b"abcdefgh.ijklmnop.q",
            b"x.abcdefghijklmnopqrstuvwxyz.abcdefghijklmnopq",
            b"..a.",
            b"1234567.9",
        ];
        for name in names {
            for end in 0..=name.len() {
                let expected = name[..end]
                    .iter()
                    .rposition(|&b| b == b'.')
                    .map_or(0, |d| d + 1);
                assert_eq!(label_start(name, end), expected, "{name:?} {end}");
                let mut w = [0u8; 8];
                let take = (end - expected).min(8);
                w[..take].copy_from_slice(&name[expected..expected + take]);
                if name.len() >= 8 && end > 0 {
                    let last = if end - expected > 8 {
                        load8(name, end - 8)
                    } else {
                        0
                    };
                    let want = (expected, u64::from_le_bytes(w), last);
                    assert_eq!(label_words(name, end), want, "{name:?} {end}");
                }
                for start in 0..=end {
                    let mut w = [0u8; 8];
                    let take = (end - start).min(8);
                    w[..take].copy_from_slice(&name[start..start + take]);
                    assert_eq!(first8(name, start, end), u64::from_le_bytes(w));
                }
            }
        }
    }

    #[test]
    fn children_are_found_and_others_are_not() {
        let mut b = Builder::new();
        let rules: &[&str] = &[
            "com",
            "example.com",
            "a-label-longer-than-sixteen.com",
            "*.ck",
            "abcdefghi.com",
        ];
        for rule in rules {
            b.add(rule.rsplit('.').map(str::as_bytes), ICANN_RULE);
        }
        let owned = b.finish().unwrap();
        let t = owned.view();
        let kinds = |host: &'static str| {
            let f = t.find(host.as_bytes(), RULES | EXCEPTIONS);
            (&host[f.start..], f.flag)
        };
        assert_eq!(kinds("x.example.com"), ("example.com", ICANN_RULE));
        assert_eq!(kinds("x.examplf.com"), ("com", ICANN_RULE));
        assert_eq!(
            kinds("a-label-longer-than-sixteen.com"),
            ("a-label-longer-than-sixteen.com", ICANN_RULE)
        );
        assert_eq!(
            kinds("a-label-longer-than-sixteeN.com"),
            ("com", ICANN_RULE)
        );
        assert_eq!(
            kinds("a-label-longer-thaN-sixteen.com"),
            ("com", ICANN_RULE)
        );
        assert_eq!(kinds("abcdefghi.com"), ("abcdefghi.com", ICANN_RULE));
        assert_eq!(kinds("abcdefghj.com"), ("com", ICANN_RULE));
        assert_eq!(kinds("a.b.ck"), ("b.ck", ICANN_RULE));
        assert_eq!(kinds("ck"), ("ck", 0));
        assert_eq!(kinds("example"), ("example", 0));
    }

    #[test]
    fn names_hold_the_nodes_two_labels_deep_and_the_triples_filter_three() {
        let mut b = Builder::new();
        let rules: &[(&str, u8)] = &[
            ("uk", ICANN_RULE),
            ("co.uk", ICANN_RULE),
            ("blogspot.co.uk", PRIVATE_RULE),
            ("a.b.c.uk", PRIVATE_RULE),
            ("*.sch.uk", ICANN_RULE),
            ("www.ck", ICANN_EXCEPTION),
            ("fifteen-bytes.x", ICANN_RULE),
            ("sixteen--bytes.x", ICANN_RULE),
        ];
        for &(rule, flag) in rules {
            b.add(rule.rsplit('.').map(str::as_bytes), flag);
        }
        let owned = b.finish().unwrap();
        let t = owned.view();
        assert!(t.names.len().is_power_of_two());
        let flags = |name: &str| t.name_flags(name_key_of(name.as_bytes()));
        assert_eq!(flags("co.uk"), Some(ICANN_RULE | CHILDREN));
        // A node on the way to a rule, and one with only a `*` child.
        assert_eq!(flags("c.uk"), Some(CHILDREN));
        assert_eq!(flags("sch.uk"), Some(WILDCARD));
        assert_eq!(flags("www.ck"), Some(ICANN_EXCEPTION));
        assert_eq!(flags("fifteen-bytes.x"), Some(ICANN_RULE));
        // Not nodes, or deeper than two labels, or longer than 15 bytes, or top-level.
        let not_names = [
            "uk",
            "x.co.uk",
            "blogspot.co.uk",
            "b.c.uk",
            "a.b.c.uk",
            "sixteen--bytes.x",
            "co.uj",
        ];
        for name in not_names {
            assert_eq!(flags(name), None, "{name}");
        }
        // The nodes three labels deep, of any length, are in the triples' filter.
        let triple = |name: &str| t.triples_hold(pair_key_of(name.as_bytes()));
        for name in ["blogspot.co.uk", "b.c.uk"] {
            assert!(triple(name), "{name}");
        }
        // Two bits for each (`*.sch.uk` is not there): the filter holds those two alone.
        let bits: u32 = t.triples.iter().map(|w| w.count_ones()).sum();
        assert!((2..=4).contains(&bits), "{bits}");
    }

    #[test]
    fn by_names_answers_as_the_walk_does() {
        let mut b = Builder::new();
        for (rule, flag) in [
            ("uk", ICANN_RULE),
            ("co.uk", ICANN_RULE),
            ("blogspot.co.uk", PRIVATE_RULE),
            ("kuleuven.be", ICANN_RULE),
            ("x.notarule.be", ICANN_RULE),
            ("*.sch.uk", ICANN_RULE),
        ] {
            b.add(rule.rsplit('.').map(str::as_bytes), flag);
        }
        let owned = b.finish().unwrap();
        let t = owned.view();
        let dots = |s: &[u8], at: usize| {
            let w = s.get(at..at + 16)?;
            let second = (at + 16).min(s.len() - 16);
            let mask = |w: &[u8]| {
                w.iter()
                    .rev()
                    .fold(0u32, |m, &c| m << 1 | u32::from(c == b'.'))
            };
            Some(mask(w) | mask(&s[second..second + 16]) << (second - at))
        };
        let mut by_names = 0;
        for host in [
            "www.bbc.co.uk",
            "bbc.co.uk",
            "co.uk",
            "x.blogspot.co.uk",
            "www.kuleuven.be",
            "a.b.notarule.be",
            "notarule.be",
            "y.notarule.be",
            "a.b.sch.uk",
            "a-much-longer-label-than-the-window.co.uk",
        ] {
            let s = format!("https://{host}/some/path/to/fill/the/window");
            let (start, end) = (8, 8 + host.len());
            let found = match t.last_two_in(s.as_bytes(), start, end, dots) {
                Ok(found) => Some(found),
                Err(Then::Names(lo, m, v, top, before)) => {
                    by_names += 1;
                    unpack(t.by_names(s.as_bytes(), start, end, (lo, m, v, top, before)))
                }
                Err(Then::Walk(lo, m)) => t.walk_masked(s.as_bytes(), start, end, lo, m),
                Err(Then::Lookup) => None,
            };
            let f = t.find(host.as_bytes(), RULES | EXCEPTIONS);
            let want_before = host[..f.start]
                .strip_suffix('.')
                .map(|up| up.rfind('.').map_or(0, |d| d + 1));
            let want = (start + f.start, want_before.map(|b| start + b));
            // The walk and the names give way to the full lookup for `*`, and for a
            // label that starts before the window.
            if host.contains("sch.uk") || host.contains("window") {
                assert_eq!(found, None, "{host}");
            } else {
                assert_eq!(found, Some(want), "{host}");
            }
        }
        assert!(by_names >= 6, "{by_names}");
    }
}
