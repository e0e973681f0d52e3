//! Lanes: an item's live options as one 16-, 32- or 64-bit word, and the one operation the
//! search repeats, a child frame made from its parent and a kill row, which also says which
//! items are left with no option or with one (so MRV finds a forced item without a scan).
//!
//! Frames are a whole number of blocks of [`BLOCK`] lanes (padding lanes are zero and never
//! open). On x86-64 the 16- and 32-bit lanes are done 16 at a time with SSE2 (part of the
//! baseline), the masks gathered by one `movemask` per block; 64-bit lanes, and other
//! architectures, use the plain loop, which is also the reference the tests compare against.
//! (An AVX2 version of the 16-bit lanes, one vector per block, compiled for CPUs that have it
//! and checked at run time, was 1.28x slower on the forum_hardest Sudoku set, median of 3.)

use std::fmt::Debug;

/// Lanes per block: frames and kill rows are padded to a multiple of it.
pub(crate) const BLOCK: usize = 16;

/// Per open-set word `w`, bit `b` for item `64 w + b`: the items with no live option and
/// those with at most one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Thin<const W: usize> {
    /// Items with no live option.
    pub empty: [u64; W],
    /// Items with at most one live option.
    pub at_most_one: [u64; W],
}

impl<const W: usize> Default for Thin<W> {
    fn default() -> Self {
        Thin {
            empty: [0; W],
            at_most_one: [0; W],
        }
    }
}

impl<const W: usize> Thin<W> {
    /// The masks of `frame`, lane by lane (the plain loop; the tests' reference).
    #[cfg(test)]
    pub(crate) fn of<L: Lane>(frame: &[L]) -> Self {
        let mut thin = Thin::default();
        for (j, w) in frame.iter().enumerate() {
            thin.mark(j, w.bits());
        }
        thin
    }

    /// Records item `j` with live options `bits`.
    #[inline(always)]
    fn mark(&mut self, j: usize, bits: u64) {
        self.empty[j / 64] |= u64::from(bits == 0) << (j % 64);
        self.at_most_one[j / 64] |= u64::from(bits & bits.wrapping_sub(1) == 0) << (j % 64);
    }
}

/// An item's live options, bit `k` for its `k`-th option: `u16`, `u32` or `u64`.
pub(crate) trait Lane: Copy + Default + Eq + Debug + Send + Sync + 'static {
    /// The lane's bits.
    fn bits(self) -> u64;
    /// The low bits of `w` (which fit: the lane was chosen for the longest item).
    fn of(w: u64) -> Self;
    /// The frames of this lane width in `scratch`.
    fn frames(scratch: &mut Scratch) -> &mut Vec<Self>;

    /// `child = parent & !kill`, lane by lane, with the [`Thin`] masks of the child. The three
    /// slices have one length, a multiple of [`BLOCK`] at most `64 W`.
    #[inline(always)]
    fn kill_into<const W: usize>(child: &mut [Self], parent: &[Self], kill: &[Self]) -> Thin<W> {
        kill_into_plain(child, parent, kill)
    }
}

/// [`Lane::kill_into`] as a plain loop, lane by lane.
#[inline(always)]
pub(crate) fn kill_into_plain<L: Lane, const W: usize>(
    child: &mut [L],
    parent: &[L],
    kill: &[L],
) -> Thin<W> {
    let mut thin = Thin::default();
    for (j, ((c, &p), &k)) in child.iter_mut().zip(parent).zip(kill).enumerate() {
        let bits = p.bits() & !k.bits();
        *c = L::of(bits);
        thin.mark(j, bits);
    }
    thin
}

/// The frames of the search, kept from run to run so that a batch of puzzles of one shape
/// allocates them once (a frame per depth reached).
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    lanes16: Vec<u16>,
    lanes32: Vec<u32>,
    lanes64: Vec<u64>,
}

impl Lane for u16 {
    #[inline(always)]
    fn bits(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn of(w: u64) -> Self {
        w as u16
    }
    fn frames(scratch: &mut Scratch) -> &mut Vec<Self> {
        &mut scratch.lanes16
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn kill_into<const W: usize>(child: &mut [u16], parent: &[u16], kill: &[u16]) -> Thin<W> {
        sse2::kill_into16(child, parent, kill)
    }
}

impl Lane for u32 {
    #[inline(always)]
    fn bits(self) -> u64 {
        u64::from(self)
    }
    #[inline(always)]
    fn of(w: u64) -> Self {
        w as u32
    }
    fn frames(scratch: &mut Scratch) -> &mut Vec<Self> {
        &mut scratch.lanes32
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn kill_into<const W: usize>(child: &mut [u32], parent: &[u32], kill: &[u32]) -> Thin<W> {
        sse2::kill_into32(child, parent, kill)
    }
}

impl Lane for u64 {
    #[inline(always)]
    fn bits(self) -> u64 {
        self
    }
    #[inline(always)]
    fn of(w: u64) -> Self {
        w
    }
    fn frames(scratch: &mut Scratch) -> &mut Vec<Self> {
        &mut scratch.lanes64
    }
}

/// The 16- and 32-bit lanes with SSE2, a block of 16 lanes at a time: AND-NOT, store, then
/// `lane == 0` and `lane & (lane - 1) == 0` compared in every lane and packed into one 16-bit
/// mask each by `movemask`.
#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_andnot_si128, _mm_cmpeq_epi16, _mm_cmpeq_epi32,
        _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi16, _mm_packs_epi32, _mm_set1_epi16,
        _mm_set1_epi32, _mm_setzero_si128, _mm_storeu_si128, _mm_sub_epi16, _mm_sub_epi32,
    };

    use super::{Thin, BLOCK};

    /// Puts the 16-bit masks of block `b` into `thin`.
    #[inline(always)]
    fn put<const W: usize>(thin: &mut Thin<W>, b: usize, empty: i32, at_most_one: i32) {
        let (word, shift) = (b * BLOCK / 64, b * BLOCK % 64);
        thin.empty[word] |= u64::from(empty as u16) << shift;
        thin.at_most_one[word] |= u64::from(at_most_one as u16) << shift;
    }

    /// [`super::Lane::kill_into`] for 16-bit lanes.
    #[inline(always)]
    pub(super) fn kill_into16<const W: usize>(
        child: &mut [u16],
        parent: &[u16],
        kill: &[u16],
    ) -> Thin<W> {
        assert!(child.len() == parent.len() && kill.len() == parent.len());
        assert!(parent.len() % BLOCK == 0 && parent.len() <= 64 * W);
        let mut thin = Thin::default();
        // SAFETY: SSE2 is part of the x86-64 baseline; every load and store reads or writes 8
        // lanes inside a block of 16 of slices whose length is a multiple of 16 (checked above).
        unsafe {
            let (zero, one) = (_mm_setzero_si128(), _mm_set1_epi16(1));
            for b in 0..parent.len() / BLOCK {
                let at = |s: &[u16], h: usize| s.as_ptr().add(b * BLOCK + 8 * h).cast::<__m128i>();
                let lo =
                    _mm_andnot_si128(_mm_loadu_si128(at(kill, 0)), _mm_loadu_si128(at(parent, 0)));
                let hi =
                    _mm_andnot_si128(_mm_loadu_si128(at(kill, 1)), _mm_loadu_si128(at(parent, 1)));
                let out = child.as_mut_ptr().add(b * BLOCK).cast::<__m128i>();
                _mm_storeu_si128(out, lo);
                _mm_storeu_si128(out.add(1), hi);
                let empty = _mm_packs_epi16(_mm_cmpeq_epi16(lo, zero), _mm_cmpeq_epi16(hi, zero));
                let lo1 = _mm_cmpeq_epi16(_mm_and_si128(lo, _mm_sub_epi16(lo, one)), zero);
                let hi1 = _mm_cmpeq_epi16(_mm_and_si128(hi, _mm_sub_epi16(hi, one)), zero);
                let at_most_one = _mm_packs_epi16(lo1, hi1);
                put(
                    &mut thin,
                    b,
                    _mm_movemask_epi8(empty),
                    _mm_movemask_epi8(at_most_one),
                );
            }
        }
        thin
    }

    /// [`super::Lane::kill_into`] for 32-bit lanes.
    #[inline(always)]
    pub(super) fn kill_into32<const W: usize>(
        child: &mut [u32],
        parent: &[u32],
        kill: &[u32],
    ) -> Thin<W> {
        assert!(child.len() == parent.len() && kill.len() == parent.len());
        assert!(parent.len() % BLOCK == 0 && parent.len() <= 64 * W);
        let mut thin = Thin::default();
        // SAFETY: as in `kill_into16`: SSE2 is baseline, and each quarter of a block (4 lanes)
        // lies inside slices whose length is a multiple of 16 (checked above).
        unsafe {
            let (zero, one) = (_mm_setzero_si128(), _mm_set1_epi32(1));
            for b in 0..parent.len() / BLOCK {
                let mut empty = [zero; 4];
                let mut thin1 = [zero; 4];
                for q in 0..4 {
                    let at = |s: &[u32]| s.as_ptr().add(b * BLOCK + 4 * q).cast::<__m128i>();
                    let w =
                        _mm_andnot_si128(_mm_loadu_si128(at(kill)), _mm_loadu_si128(at(parent)));
                    _mm_storeu_si128(
                        child.as_mut_ptr().add(b * BLOCK + 4 * q).cast::<__m128i>(),
                        w,
                    );
                    empty[q] = _mm_cmpeq_epi32(w, zero);
                    thin1[q] = _mm_cmpeq_epi32(_mm_and_si128(w, _mm_sub_epi32(w, one)), zero);
                }
                let pack = |m: [__m128i; 4]| {
                    let low = _mm_packs_epi32(m[0], m[1]);
                    _mm_movemask_epi8(_mm_packs_epi16(low, _mm_packs_epi32(m[2], m[3])))
                };
                put(&mut thin, b, pack(empty), pack(thin1));
            }
        }
        thin
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lanes from a fixed stream, about a third of them with at most one bit.
    fn lanes<L: Lane>(len: usize, seed: u64, bits: u32) -> Vec<L> {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..len)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let w = match state % 3 {
                    0 => 1u64 << ((state >> 8) % u64::from(bits)),
                    1 => state >> 5,
                    _ => (state >> 3) & (state >> 29),
                };
                L::of(w)
            })
            .collect()
    }

    /// Each lane width's `kill_into` against the plain loop, at every block count.
    fn agrees<L: Lane>(bits: u32) {
        let (mut empties, mut singles) = (0, 0);
        for blocks in 1..=8 {
            let len = blocks * BLOCK;
            for seed in 0..20 {
                let parent = lanes::<L>(len, seed, bits);
                let kill = lanes::<L>(len, seed + 100, bits);
                let (mut fast, mut plain) = (vec![L::default(); len], vec![L::default(); len]);
                let thin: Thin<8> = L::kill_into(&mut fast, &parent, &kill);
                let reference: Thin<8> = kill_into_plain(&mut plain, &parent, &kill);
                assert_eq!(
                    (&fast, thin),
                    (&plain, reference),
                    "{blocks} blocks, seed {seed}"
                );
                assert_eq!(Thin::<8>::of(&plain), reference);
                let ones = |m: [u64; 8]| m.iter().map(|w| w.count_ones()).sum::<u32>();
                empties += ones(thin.empty);
                singles += ones(thin.at_most_one) - ones(thin.empty);
            }
        }
        // Both masks are exercised: lanes with no bit and lanes with exactly one.
        assert!(
            empties > 100 && singles > 100,
            "{empties} empty, {singles} single"
        );
    }

    #[test]
    fn every_lane_width_kills_and_marks_like_the_plain_loop() {
        agrees::<u16>(16);
        agrees::<u32>(32);
        agrees::<u64>(64);
    }
}
