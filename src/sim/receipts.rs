//! Receipt handles: they look random, as real ones do, are seeded (same
//! seed, same run), and never repeat, because an ack finds its message by
//! receipt alone. Minting is bounded: a collision moves to the next free
//! value instead of drawing again, and the short 16-bit form is used only
//! while at most half of its space is taken, so a run with more receives
//! than that gets longer receipts instead of a loop that never ends. The
//! long ones need no memory of those handed out: each is a counter passed
//! through a bijection, so no two are ever equal however long the run.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// Short receipts (`rh-3fa9`) while fewer than this many were handed out.
const SHORT_LIMIT: usize = 1 << 15;

#[derive(Clone, Debug)]
pub struct Receipts {
    rng: ChaCha8Rng,
    short: BTreeSet<u16>,
    /// Long receipts handed out so far, and the seeded offset that makes
    /// them look drawn rather than counted.
    long: u64,
    long_offset: Option<u64>,
}

impl Receipts {
    pub fn new(seed: u64) -> Self {
        Receipts {
            rng: ChaCha8Rng::seed_from_u64(seed),
            short: BTreeSet::new(),
            long: 0,
            long_offset: None,
        }
    }

    /// A receipt never handed out before. Short and long ones differ in
    /// length, so they cannot be equal.
    pub fn mint(&mut self) -> String {
        if self.short.len() < SHORT_LIMIT {
            let mut c = self.rng.random::<u16>();
            // Ends: at most half the values are taken.
            while !self.short.insert(c) {
                c = c.wrapping_add(1);
            }
            return format!("rh-{c:04x}");
        }
        let offset = *self
            .long_offset
            .get_or_insert_with(|| self.rng.random::<u64>());
        let c = scramble(self.long.wrapping_add(offset));
        self.long += 1;
        format!("rh-{c:016x}")
    }

    pub fn issued(&self) -> usize {
        self.short.len() + self.long as usize
    }
}

/// SplitMix64's finaliser: each step (xor with a shift, multiply by an odd
/// constant) can be undone, so distinct inputs give distinct outputs.
fn scramble(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receipts_never_run_out_nor_repeat() {
        let mut receipts = Receipts::new(7);
        let mut seen = BTreeSet::new();
        for _ in 0..70_000 {
            assert!(seen.insert(receipts.mint()));
        }
        assert_eq!(receipts.issued(), 70_000);
        assert!(
            seen.iter().any(|r| r.len() == 3 + 16),
            "long ones took over"
        );
    }

    #[test]
    fn receipts_are_seeded() {
        let run = |seed| {
            let mut r = Receipts::new(seed);
            (0..5).map(|_| r.mint()).collect::<Vec<_>>()
        };
        assert_eq!(run(1), run(1));
        assert_ne!(run(1), run(2));
    }
}
