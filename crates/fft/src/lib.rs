//! FFT plans for zeroone's `vsa` backend, behind non-generic functions.
//!
//! Why a crate of its own: `rustfft` is generic over the float type, so its planner and every
//! butterfly it may choose (scalar, SSE, AVX, NEON; f32 and f64) are compiled in the crate that
//! names `FftPlanner<f32>`. Inside zeroone that was about 29% of the library's LLVM IR
//! (`cargo llvm-lines --lib`), compiled twice by `cargo test` (the library and its unit tests).
//! Here it is compiled once, as a dependency; zeroone only calls the returned plans through
//! `dyn Fft`. A cold `cargo test` of the zeroone crate took 295 s of CPU instead of 379 s
//! (wall time unchanged on 2 idle cores).
//!
//! Tested through zeroone's `vsa` tests (a unit test here would compile the generics a second
//! time, in test mode, and the crate is not a default member). Costs: planning is `rustfft`'s (cached per length inside a planner); a call through a plan
//! is one virtual call per batch.

#![deny(missing_docs)]

use std::sync::Arc;

pub use rustfft::num_complex::Complex;
pub use rustfft::Fft;
use rustfft::FftPlanner;

/// Plans single-precision FFTs (the `vsa` bundles), keeping `rustfft`'s per-length cache.
pub struct Planner32(FftPlanner<f32>);

impl Planner32 {
    /// A planner with an empty cache; detects the CPU's SIMD level once.
    pub fn new() -> Self {
        Planner32(FftPlanner::new())
    }

    /// The inverse FFT of length `len` (unnormalised, as `rustfft`'s).
    pub fn inverse(&mut self, len: usize) -> Arc<dyn Fft<f32>> {
        self.0.plan_fft_inverse(len)
    }
}

impl Default for Planner32 {
    fn default() -> Self {
        Self::new()
    }
}

/// Plans double-precision FFTs (the `vsa` codes, built once per dimension).
pub struct Planner64(FftPlanner<f64>);

impl Planner64 {
    /// A planner with an empty cache; detects the CPU's SIMD level once.
    pub fn new() -> Self {
        Planner64(FftPlanner::new())
    }

    /// The forward FFT of length `len` (unnormalised).
    pub fn forward(&mut self, len: usize) -> Arc<dyn Fft<f64>> {
        self.0.plan_fft_forward(len)
    }

    /// The inverse FFT of length `len` (unnormalised, as `rustfft`'s).
    pub fn inverse(&mut self, len: usize) -> Arc<dyn Fft<f64>> {
        self.0.plan_fft_inverse(len)
    }
}

impl Default for Planner64 {
    fn default() -> Self {
        Self::new()
    }
}
