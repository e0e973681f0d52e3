//! The vector-symbolic legality engine (`--backend vsa`): row occupancy held in bundles of
//! shift-code vectors and read back by FFT circular correlation, driving the shared search of
//! [`crate::backend::search`].
//!
//! # Representation
//! - **Item vectors** are the circular shifts `shift(b, j)`, `j = 0 .. slots`, of one base vector
//!   `b` of dimension `D` (a shift code). `b` is either `gaussian` (independent standard normal
//!   entries, scaled to unit length: distinct shifts are only nearly orthogonal) or `unitary`
//!   (every Fourier coefficient of modulus 1 with random phases, so `b` is real, of unit length,
//!   and distinct shifts are exactly orthogonal as long as `D >= slots`).
//! - **Groups.** Every row of the model becomes one slot of one bundle vector: the rows of each
//!   family, in family order, are cut into blocks of `slots` consecutive rows; block `i` of a
//!   family is one group vector, and row `k` of the block is slot `k`. A group vector is the sum
//!   (bundle) of the item vectors of the slots whose row holds a placed variable, so slot `k`'s
//!   item is added once per placed variable in row `k`. Placing a variable adds item vectors to
//!   the groups of all its rows; undoing subtracts them.
//! - **Sudoku 9x9** (`slots` = 9): family `row-digit` row `r*9+d` is group `r`, slot `d` (the
//!   bundle of the digits in row `r`, digit `d` = shift `d`); likewise `column-digit` and
//!   `box-digit`: the seed's 27 group vectors. Family `cell` (row `r*9+c`) adds 9 more groups
//!   (row `r`, slot = column `c`) that play the part of the seed's "cell is empty" board test.
//!   Queens of side `n` and hex boards of width `w` get `slots` = `n` / `w` (the longest row), so
//!   each line family is one or a few groups; Queens `touch` rows (4 cells each) fill groups of
//!   `n` windows. Models with variables in no "exactly one" row also get the search's `slack`
//!   family.
//!
//! # Query
//! One batched step correlates every changed group vector with `b`: the bundles are kept in the
//! frequency domain already multiplied by `conj(FFT(b))` (so placing adds a precomputed spectrum
//! and reading needs only an inverse FFT), two groups share one complex inverse FFT (their
//! correlations are real, so one is the real part and the other the imaginary part), and the
//! inverse FFTs of a batch run in one `rustfft` call on one buffer, planned once. Entry `k` of
//! the correlation is the count of slot `k`'s item in the bundle (exact for `unitary` with
//! `D >= slots`, plus crosstalk noise for `gaussian`); it is thresholded at 0.5 into
//! free / occupied, and a variable is legal when all its rows read free.
//!
//! # General rows
//! Bundles already hold counts: a variable of weight `w` adds its row's item `w` times, so slot
//! `k` reads the row's weighted sum. The read is rounded to the nearest whole sum `s` and
//! compared with the row's right-hand side: a variable is legal when, in every row it sits in,
//! `s + w` stays within the row's upper bound (`= k`, `<= k`; `>= k` rows never shut anything
//! out). An exact-cover row is the case `k = 1`: a read of 1 or more (0.5 before rounding, the
//! threshold above) shuts out the whole row. Lower bounds and exactness stay with the shared
//! search, which keeps its own sums; the engine answers legality only. Rows whose total weight
//! exceeds [`MAX_VSA_ROW_WEIGHT`] are refused (`unsupported`): `f32` bundles would read them
//! with errors near 0.5. `misreads` counts reads whose legality differs from the true sum's.
//!
//! Noise can read an occupied row as free (the search may then place a clashing variable: the
//! verifier rejects the answer, status `error`) or a free row as occupied (a legal move is
//! missed: the search may end with no solution, reported `unknown`, never `infeasible`, since an
//! approximate engine proves nothing).
//!
//! # Options (`BackendOptions.params`) and cost
//! - `code` = `unitary` (default) | `gaussian`;
//! - `dim` = `D` (default `auto`: the smallest exact `D`, i.e. `slots`, for `unitary`; 1024 for
//!   `gaussian`);
//! - `slots` = slots per group vector (default: the longest row of the model);
//! - `refresh` = `changed` (default: a batch transforms only the groups changed since the last
//!   batch; the answers are identical) | `all` (every group, every batch, as in the seed);
//! - `BackendOptions.seed` seeds the base vector (ChaCha8): runs are reproducible.
//!
//! Cost per placement: `D` complex additions per row of the variable; per batch: one inverse
//! FFT of size `D` per two changed groups, plus `slots` reads per group. Memory: `groups * D`
//! plus `slots * D` complex numbers (`f32`).

use std::f64::consts::PI;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;
use zeroone_fft::{Complex, Fft, Planner32, Planner64};

use crate::backend::search::{Layout, LegalityEngine, RowGate, SearchBackend, VarSet};
use crate::backend::{BackendError, BackendOptions, RowLimit, RowRefusal, Stats};
use crate::model::Model;

/// The largest total weight of a row the `vsa` engine takes: its bundles are `f32`, so a read
/// sum is a whole number plus rounding error, and sums up to 2^10 keep that error far below
/// the 0.5 that rounding to the nearest whole sum tolerates.
pub const MAX_VSA_ROW_WEIGHT: u64 = 1 << 10;

/// The kind of base vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// Standard normal entries, scaled to unit length (the seed's choice): shifts nearly
    /// orthogonal, counts noisy.
    Gaussian,
    /// Flat magnitude spectrum, random phases: shifts exactly orthogonal, counts exact for
    /// `D >= slots`.
    Unitary,
}

impl Code {
    /// `gaussian` or `unitary`.
    pub fn name(self) -> &'static str {
        match self {
            Code::Gaussian => "gaussian",
            Code::Unitary => "unitary",
        }
    }
}

impl std::str::FromStr for Code {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        match s {
            "gaussian" => Ok(Code::Gaussian),
            "unitary" => Ok(Code::Unitary),
            _ => Err(()),
        }
    }
}

/// The base vector `b` of dimension `dim` for `code`, from `seed` (unit length; empty when
/// `dim` is 0). Cost: one FFT of size `dim` for `unitary`.
pub fn base_vector(code: Code, dim: usize, seed: u64) -> Vec<f64> {
    if dim == 0 {
        return Vec::new();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    match code {
        Code::Gaussian => {
            let mut b: Vec<f64> = (0..dim).map(|_| rng.sample(StandardNormal)).collect();
            let norm = b.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm > 0.0 {
                b.iter_mut().for_each(|x| *x /= norm);
            }
            b
        }
        Code::Unitary => {
            // Hermitian spectrum of modulus 1: real signal of unit length (Parseval).
            let mut spec = vec![Complex::new(0.0f64, 0.0); dim];
            let sign = |rng: &mut ChaCha8Rng| if rng.gen::<bool>() { 1.0 } else { -1.0 };
            spec[0] = Complex::new(sign(&mut rng), 0.0);
            for k in 1..dim.div_ceil(2) {
                let phase: f64 = rng.gen_range(0.0..2.0 * PI);
                spec[k] = Complex::from_polar(1.0, phase);
                spec[dim - k] = spec[k].conj();
            }
            if dim % 2 == 0 && dim > 1 {
                spec[dim / 2] = Complex::new(sign(&mut rng), 0.0);
            }
            Planner64::new().inverse(dim).process(&mut spec);
            spec.iter().map(|c| c.re / dim as f64).collect()
        }
    }
}

/// A bound on the crosstalk of a shift code: the largest, over slots `j < slots`, of the sum over
/// the other slots `i` of `|<shift(b, i), shift(b, j)>|` (the circular autocorrelation of `b` at
/// lag `i - j`). When every row holds at most one variable, a slot read is off from its true
/// count by at most this much, so a bound below 0.5 means the 0 / 1+ threshold never errs for
/// that base vector (the engine is then exact on valid states even if it is `gaussian`).
/// Dimension 0 holds no slot at all: its bound is infinite. Cost: `slots^2 * D`.
pub fn crosstalk_bound(code: Code, dim: usize, slots: usize, seed: u64) -> f64 {
    if dim == 0 {
        return f64::INFINITY;
    }
    let b = base_vector(code, dim, seed);
    let autocorr = |lag: usize| -> f64 { (0..dim).map(|t| b[t] * b[(t + lag) % dim]).sum() };
    let lags: Vec<f64> = (0..dim).map(autocorr).collect();
    (0..slots)
        .map(|j| {
            (0..slots)
                .filter(|&i| i != j)
                .map(|i| lags[(i % dim + dim - j % dim) % dim].abs())
                .sum::<f64>()
        })
        .fold(0.0, f64::max)
}

/// The VSA legality engine. See the module docs for the representation and options.
pub struct VsaEngine {
    code: Code,
    dim_option: Option<usize>,
    slots_option: Option<usize>,
    seed: u64,
    refresh_all: bool,
    // Set by `reset`.
    dim: usize,
    slots: usize,
    groups: usize,
    row_group: Vec<u32>,
    row_slot: Vec<u32>,
    /// `group * slots + slot` -> row id, or `u32::MAX` for an unused slot.
    slot_row: Vec<u32>,
    /// Per slot: `FFT(shift(b, slot)) * conj(FFT(b)) / D`.
    items: Vec<Complex<f32>>,
    items_key: Option<(Code, usize, usize, u64)>,
    /// Per group: its bundle's spectrum times `conj(FFT(b)) / D`.
    bundles: Vec<Complex<f32>>,
    dirty: Vec<bool>,
    dirty_list: Vec<u32>,
    work: Vec<Complex<f32>>,
    scratch: Vec<Complex<f32>>,
    planner: Planner32,
    ifft: Option<Arc<dyn Fft<f32>>>,
    gate: RowGate,
    /// True weighted sum per row, for the `misreads` diagnostic only.
    truth: Vec<u64>,
    batches: u64,
    ffts: u64,
    misreads: u64,
}

impl std::fmt::Debug for VsaEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VsaEngine")
            .field("code", &self.code)
            .field("dim", &self.dim_option)
            .field("slots", &self.slots_option)
            .field("seed", &self.seed)
            .finish()
    }
}

impl VsaEngine {
    /// Reads `code`, `dim`, `slots` and `refresh` from `options.params` and the seed.
    pub fn new(options: &BackendOptions) -> Result<Self, BackendError> {
        let bad = |key: &str, value: &str, expected: &str| BackendError::BadOption {
            backend: "vsa".into(),
            key: key.into(),
            value: value.into(),
            expected: expected.into(),
        };
        let code: Code = options.param("vsa", "code", Code::Unitary, "gaussian or unitary")?;
        let positive = |key: &str| -> Result<Option<usize>, BackendError> {
            match options.params.get(key).map(String::as_str) {
                None | Some("auto") => Ok(None),
                Some(v) => match v.parse::<usize>() {
                    Ok(d) if (1..=1 << 20).contains(&d) => Ok(Some(d)),
                    _ => Err(bad(key, v, "auto or an integer from 1 to 1048576")),
                },
            }
        };
        let dim_option = positive("dim")?;
        let slots_option = positive("slots")?;
        let refresh_all = match options.params.get("refresh").map(String::as_str) {
            None | Some("changed") => false,
            Some("all") => true,
            Some(v) => return Err(bad("refresh", v, "changed or all")),
        };
        Ok(VsaEngine {
            code,
            dim_option,
            slots_option,
            seed: options.seed,
            refresh_all,
            dim: 0,
            slots: 0,
            groups: 0,
            row_group: Vec::new(),
            row_slot: Vec::new(),
            slot_row: Vec::new(),
            items: Vec::new(),
            items_key: None,
            bundles: Vec::new(),
            dirty: Vec::new(),
            dirty_list: Vec::new(),
            work: Vec::new(),
            scratch: Vec::new(),
            planner: Planner32::new(),
            ifft: None,
            gate: RowGate::default(),
            truth: Vec::new(),
            batches: 0,
            ffts: 0,
            misreads: 0,
        })
    }

    /// The dimension used for the last model (0 before any).
    pub fn dim(&self) -> usize {
        self.dim
    }

    fn build_items(&mut self) {
        let key = (self.code, self.dim, self.slots, self.seed);
        if self.items_key == Some(key) {
            return;
        }
        let d = self.dim;
        let b = base_vector(self.code, d, self.seed);
        let fwd = Planner64::new().forward(d);
        let mut base_spec: Vec<Complex<f64>> = b.iter().map(|&x| Complex::new(x, 0.0)).collect();
        fwd.process(&mut base_spec);
        self.items.clear();
        for j in 0..self.slots {
            // shift(b, j)[t] = b[(t - j) mod D]
            let mut spec: Vec<Complex<f64>> = (0..d)
                .map(|t| Complex::new(b[(t + d - j % d) % d], 0.0))
                .collect();
            fwd.process(&mut spec);
            self.items.extend(
                spec.iter()
                    .zip(&base_spec)
                    .map(|(s, bb)| s * bb.conj() / d as f64)
                    .map(|c| Complex::new(c.re as f32, c.im as f32)),
            );
        }
        self.ifft = Some(self.planner.inverse(d));
        self.items_key = Some(key);
    }

    fn add(&mut self, layout: &Layout, var: usize, sign: f32) {
        let d = self.dim;
        for (&r, &weight) in layout.rows_of(var).iter().zip(layout.weights_of(var)) {
            let r = r as usize;
            let g = self.row_group[r] as usize;
            let s = self.row_slot[r] as usize;
            let item = &self.items[s * d..(s + 1) * d];
            let bundle = &mut self.bundles[g * d..(g + 1) * d];
            if weight == 1 {
                if sign > 0.0 {
                    bundle.iter_mut().zip(item).for_each(|(x, y)| *x += y);
                } else {
                    bundle.iter_mut().zip(item).for_each(|(x, y)| *x -= y);
                }
            } else {
                // The item `weight` times: weights are at most MAX_VSA_ROW_WEIGHT, exact in f32.
                let scale = sign * weight as f32;
                bundle
                    .iter_mut()
                    .zip(item)
                    .for_each(|(x, y)| *x += y * scale);
            }
            if sign > 0.0 {
                self.truth[r] += weight;
            } else {
                self.truth[r] -= weight;
            }
            if !self.dirty[g] {
                self.dirty[g] = true;
                self.dirty_list.push(g as u32);
            }
        }
    }
}

impl LegalityEngine for VsaEngine {
    fn name(&self) -> &'static str {
        "vsa"
    }

    fn reset(&mut self, layout: &Layout) -> Result<(), BackendError> {
        self.slots = self.slots_option.unwrap_or(layout.max_row_len.max(2));
        self.dim = self.dim_option.unwrap_or(match self.code {
            Code::Unitary => self.slots,
            Code::Gaussian => 1024,
        });
        // Groups: each family's rows in blocks of `slots`.
        self.row_group.clear();
        self.row_slot.clear();
        self.row_group.resize(layout.num_rows, 0);
        self.row_slot.resize(layout.num_rows, 0);
        let mut first_group = Vec::with_capacity(layout.families.len());
        let mut groups = 0usize;
        for &rows in &layout.family_rows {
            first_group.push(groups);
            groups += (rows as usize).div_ceil(self.slots);
        }
        self.groups = groups;
        self.slot_row.clear();
        self.slot_row.resize(groups * self.slots, u32::MAX);
        for r in 0..layout.num_rows {
            let f = layout.row_family[r] as usize;
            let i = layout.row_index[r] as usize;
            let g = first_group[f] + i / self.slots;
            let s = i % self.slots;
            self.row_group[r] = g as u32;
            self.row_slot[r] = s as u32;
            self.slot_row[g * self.slots + s] = r as u32;
        }
        let cells = groups
            .checked_mul(self.dim)
            .filter(|&c| c <= 1 << 28)
            .ok_or_else(|| BackendError::TooLarge {
                backend: "vsa".into(),
                reason: format!("{groups} groups of dimension {}", self.dim),
            })?;
        self.build_items();
        self.bundles.clear();
        self.bundles.resize(cells, Complex::new(0.0, 0.0));
        self.dirty.clear();
        self.dirty.resize(groups, false);
        self.dirty_list.clear();
        let pairs = groups.div_ceil(2);
        self.work.resize(pairs * self.dim, Complex::new(0.0, 0.0));
        let ifft = self.ifft.as_ref().expect("planned in build_items");
        self.scratch
            .resize(ifft.get_inplace_scratch_len(), Complex::new(0.0, 0.0));
        self.gate.reset(layout);
        self.truth.clear();
        self.truth.resize(layout.num_rows, 0);
        self.batches = 0;
        self.ffts = 0;
        self.misreads = 0;
        Ok(())
    }

    fn exact(&self) -> bool {
        self.code == Code::Unitary && self.dim >= self.slots
    }

    fn place(&mut self, layout: &Layout, var: usize) {
        self.add(layout, var, 1.0);
        self.gate.set_placed(var, true);
    }

    fn unplace(&mut self, layout: &Layout, var: usize) {
        self.add(layout, var, -1.0);
        self.gate.set_placed(var, false);
    }

    fn legal(&mut self, layout: &Layout) -> &VarSet {
        if self.refresh_all {
            self.dirty_list.clear();
            self.dirty_list.extend(0..self.groups as u32);
            self.dirty.iter_mut().for_each(|x| *x = true);
        }
        if self.dirty_list.is_empty() {
            return self.gate.legal();
        }
        let d = self.dim;
        let pairs = self.dirty_list.len().div_ceil(2);
        for (p, pair) in self.dirty_list.chunks(2).enumerate() {
            let out = &mut self.work[p * d..(p + 1) * d];
            let a = pair[0] as usize;
            out.copy_from_slice(&self.bundles[a * d..(a + 1) * d]);
            if let Some(&b) = pair.get(1) {
                let b = b as usize;
                // out = Qa + i Qb
                for (x, y) in out.iter_mut().zip(&self.bundles[b * d..(b + 1) * d]) {
                    x.re -= y.im;
                    x.im += y.re;
                }
            }
        }
        let ifft = self.ifft.as_ref().expect("planned in reset");
        ifft.process_with_scratch(&mut self.work[..pairs * d], &mut self.scratch);
        self.batches += 1;
        self.ffts += pairs as u64;
        for (p, pair) in self.dirty_list.chunks(2).enumerate() {
            for (half, &g) in pair.iter().enumerate() {
                let g = g as usize;
                self.dirty[g] = false;
                for s in 0..self.slots {
                    let r = self.slot_row[g * self.slots + s];
                    if r == u32::MAX {
                        continue;
                    }
                    let value = self.work[p * d + s % d];
                    let count = if half == 0 { value.re } else { value.im };
                    // The nearest whole sum (a read of 0.5 or more is an occupied row).
                    let sum = count.round().max(0.0) as u64;
                    let r = r as usize;
                    if layout.shut_out(r, sum) != layout.shut_out(r, self.truth[r]) {
                        self.misreads += 1;
                    }
                    self.gate.set_sum(layout, r, sum);
                }
            }
        }
        self.dirty_list.clear();
        self.gate.legal()
    }

    fn rows_supported(&self, model: &Model) -> Result<(), RowRefusal> {
        match model
            .constraints()
            .iter()
            .find(|c| c.total_weight() > MAX_VSA_ROW_WEIGHT)
        {
            None => Ok(()),
            Some(c) => Err(RowRefusal::of(
                model,
                c,
                RowLimit::TotalWeightAbove {
                    total: c.total_weight(),
                    max: MAX_VSA_ROW_WEIGHT,
                },
            )),
        }
    }

    fn report(&self, stats: &mut Stats) {
        let extra = &mut stats.extra;
        extra.insert("fft_batches".into(), self.batches.into());
        extra.insert("ffts".into(), self.ffts.into());
        extra.insert("misreads".into(), self.misreads.into());
        extra.insert("dim".into(), self.dim.into());
        extra.insert("slots".into(), self.slots.into());
        extra.insert("groups".into(), self.groups.into());
        extra.insert("code".into(), self.code.name().into());
        extra.insert("exact".into(), self.exact().into());
    }
}

/// The `vsa` backend: the shared search with [`VsaEngine`]. Solves and counts; answers are
/// exact with `unitary` codes and `D >= slots`, approximate otherwise (then never `infeasible`
/// and never an exhaustive count).
pub type VsaBackend = SearchBackend<VsaEngine>;

impl VsaBackend {
    /// A VSA backend from `options` (see the module docs); rejects bad option values.
    pub fn new(options: &BackendOptions) -> Result<Self, BackendError> {
        Ok(SearchBackend::with_engine(
            VsaEngine::new(options)?,
            options,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn correlation(a: &[f64], b: &[f64], shift: usize) -> f64 {
        let d = a.len();
        (0..d).map(|t| a[t] * b[(t + d - shift) % d]).sum()
    }

    #[test]
    fn unitary_shifts_are_orthogonal_and_gaussian_ones_are_not() {
        for d in [9, 16, 31] {
            let b = base_vector(Code::Unitary, d, 7);
            assert!((correlation(&b, &b, 0) - 1.0).abs() < 1e-9);
            for s in 1..d {
                assert!(correlation(&b, &b, s).abs() < 1e-9, "D={d} shift {s}");
            }
        }
        let g = base_vector(Code::Gaussian, 16, 7);
        assert!((correlation(&g, &g, 0) - 1.0).abs() < 1e-9);
        assert!((1..16).any(|s| correlation(&g, &g, s).abs() > 1e-3));
    }

    #[test]
    fn dimension_zero_gives_an_empty_vector_and_an_infinite_bound_not_a_panic() {
        for code in [Code::Gaussian, Code::Unitary] {
            assert!(base_vector(code, 0, 1).is_empty());
            assert_eq!(crosstalk_bound(code, 0, 9, 1), f64::INFINITY);
        }
    }

    #[test]
    fn crosstalk_bound_is_zero_for_unitary_and_shrinks_with_d_for_gaussian() {
        assert!(crosstalk_bound(Code::Unitary, 9, 9, 3) < 1e-9);
        assert!(crosstalk_bound(Code::Unitary, 8, 9, 3) >= 1.0 - 1e-9); // slot 8 aliases slot 0
        let small = crosstalk_bound(Code::Gaussian, 16, 9, 3);
        let large = crosstalk_bound(Code::Gaussian, 4096, 9, 3);
        assert!(small > 0.5 && large < 0.2, "{small} {large}");
    }

    #[test]
    fn same_seed_same_vector_other_seed_other_vector() {
        let a = base_vector(Code::Gaussian, 64, 1);
        assert_eq!(a, base_vector(Code::Gaussian, 64, 1));
        assert_ne!(a, base_vector(Code::Gaussian, 64, 2));
    }

    #[test]
    fn bad_options_are_refused() {
        let mut o = BackendOptions::default();
        o.params.insert("code".into(), "binary".into());
        assert!(matches!(
            VsaEngine::new(&o),
            Err(BackendError::BadOption { .. })
        ));
        let mut o = BackendOptions::default();
        o.params.insert("dim".into(), "0".into());
        assert!(VsaEngine::new(&o).is_err());
    }
}
