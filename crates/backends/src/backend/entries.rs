//! The registry's lines, one constant a backend (name, one line about it, constructor, the
//! `params` it reads, whether it uses `time_limit` and `seed`, its counters and its
//! conformance promises); [`super::registry`] lists them in `--help` order. The heavy engines'
//! lines exist only with their cargo feature.

#[cfg(feature = "gauss")]
use super::gauss;
#[cfg(feature = "highs")]
use super::highs;
#[cfg(feature = "milp")]
use super::milp;
#[cfg(feature = "sat")]
use super::sat;
#[cfg(feature = "vsa")]
use super::vsa;
use super::{
    auto, bitset, brute, dp, enumerate, incumbent, xcc, BackendInfo, Promise, SearchCounter,
};

/// The registry line of `brute`.
pub(super) const BRUTE: BackendInfo = BackendInfo {
    name: "brute",
    about: "tries every 0-1 assignment; tiny models only (<= 25 free variables); the reference in tests",
    make: |o| Ok(Box::new(brute::BruteForce::new(o))),
    params: &[],
    uses_time_limit: false,
    uses_seed: false,
    counters: &[(SearchCounter::Nodes, "assignments tried")],
    promises: &[Promise {
        max_free: brute::MAX_FREE,
        ..Promise::EXACT
    }],
};

/// The registry line of `enum`.
pub(super) const ENUM: BackendInfo = BackendInfo {
    name: "enum",
    about: "coordinate-tuple enumerator: one family gives the lines, the others are bitset distinctness rules; solves, counts, streams",
    make: |o| Ok(Box::new(enumerate::EnumBackend::new(o)?)),
    params: &["families", "order", "coordinate", "threads", "gap", "abs-gap"],
    uses_time_limit: true,
    uses_seed: false,
    counters: &[(SearchCounter::Nodes, "partial placements")],
    promises: &[
        Promise::EXACT,
        Promise {
            params: &[("order", "mrv")],
            ..Promise::EXACT
        },
    ],
};

/// The registry line of `dp`.
pub(super) const DP: BackendInfo = BackendInfo {
    name: "dp",
    about: "counts by dynamic programming over lines (states = used open rows); counts only, no solving",
    make: |o| Ok(Box::new(dp::DpBackend::new(o)?)),
    params: &["coordinate", "memory-limit"],
    uses_time_limit: false,
    uses_seed: false,
    counters: &[],
    promises: &[Promise::EXACT],
};

/// The registry line of `gauss`.
#[cfg(feature = "gauss")]
pub(super) const GAUSS: BackendInfo = BackendInfo {
    name: "gauss",
    about: "exact Gaussian elimination of the equality rows over the rationals; solves only when the equations fix every variable (incomplete)",
    make: |o| Ok(Box::new(gauss::Gauss::new(o))),
    params: &[],
    uses_time_limit: false,
    uses_seed: false,
    counters: &[],
    promises: &[Promise::SOUND],
};

/// The registry line of `milp`.
#[cfg(feature = "milp")]
pub(super) const MILP: BackendInfo = BackendInfo {
    name: "milp",
    about: "0-1 MILP with good_lp + microlp after the search's presolve (presolve=off|propagate|probe); counts with no-good cuts; relax=true solves the LP relaxation",
    make: |o| Ok(Box::new(milp::Milp::new(o)?)),
    params: &["relax", "presolve"],
    uses_time_limit: true,
    uses_seed: false,
    counters: &[],
    promises: &[
        Promise::EXACT,
        Promise {
            params: &[("relax", "true")],
            ..Promise::SOUND
        },
    ],
};

/// The registry line of `sat`.
#[cfg(feature = "sat")]
pub(super) const SAT: BackendInfo = BackendInfo {
    name: "sat",
    about: "CNF encoding (pairwise / sequential-counter at-most-one; rustsat totalizer and GTE/DPW/adder for general rows) solved by varisat, a pure-Rust CDCL solver; counts with blocking clauses",
    make: |o| Ok(Box::new(sat::Sat::new(o)?)),
    params: &["pairwise-up-to", "pb-encoding", "bound-fixing"],
    uses_time_limit: true,
    uses_seed: false,
    // Its SAT calls are in `extra.sat_calls` as well as in `nodes`: named once, there.
    counters: &[],
    promises: &[Promise::EXACT],
};

/// The registry line of `highs`.
#[cfg(feature = "highs")]
pub(super) const HIGHS: BackendInfo = BackendInfo {
    name: "highs",
    about: "0-1 MILP with good_lp + HiGHS (cargo feature 'highs'); same options as milp",
    make: |o| Ok(Box::new(highs::new(o)?)),
    params: &["relax", "presolve"],
    uses_time_limit: true,
    uses_seed: false,
    counters: &[],
    promises: &[Promise::EXACT],
};

/// The registry line of `auto`.
pub(super) const AUTO: BackendInfo = BackendInfo {
    name: "auto",
    about: "the default, by measurement (reports/portfolio.md, reports/counting-portfolio.md): xcc for exact cover its fast engines take (counted by xcc's memo-sweep past 1,024 solutions of pure exact cover), sat for CNF-shaped models of 100+ clauses, milp for objectives of 40+ costs over rows other than exact cover (bitset when gap, abs-gap or hint is given), bitset otherwise; records name the engine that ran",
    make: |o| Ok(Box::new(auto::Auto::new(o)?)),
    params: &incumbent::GapLimit::PARAMS,
    uses_time_limit: true,
    uses_seed: false,
    counters: &[],
    promises: &[Promise::EXACT],
};

/// The registry line of `bitset`.
pub(super) const BITSET: BackendInfo = BackendInfo {
    name: "bitset",
    about: "propagation + MRV/LCV backtracking with exact bitset legality; the fast exact path",
    make: |o| {
        Ok(Box::new(
            bitset::BitsetBackend::new(o).with_optimiser_options(o)?,
        ))
    },
    params: &incumbent::GapLimit::PARAMS,
    uses_time_limit: true,
    uses_seed: false,
    counters: &[
        (SearchCounter::Guesses, "guesses"),
        (SearchCounter::Backtracks, "backtracks"),
        (SearchCounter::Steps, "values placed"),
    ],
    promises: &[Promise::EXACT],
};

/// The registry line of `xcc`.
pub(super) const XCC: BackendInfo = BackendInfo {
    name: "xcc",
    about: "exact cover with multiplicities on bit-parallel option sets: MRV on per-item live-option lanes for exact cover with <= 512 primary items of <= 64 options, a sweep over 128-bit item masks for other exact cover with <= 128 items, Knuth's Algorithms X/M with MRV otherwise (engine=auto|transposed|sweep|byte-counts|counts); counting only, a cache of sub-problem counts (engine=memo|memo-sweep|memo-mrv, cache size memo-cache); unit-weight rows only; solves, counts, streams",
    make: |o| Ok(Box::new(xcc::Xcc::new(o)?)),
    params: &["engine", "memo-cache"],
    uses_time_limit: true,
    uses_seed: false,
    counters: &[],
    promises: &[Promise::EXACT],
};

/// The registry line of `vsa`.
#[cfg(feature = "vsa")]
pub(super) const VSA: BackendInfo = BackendInfo {
    name: "vsa",
    about: "the same search with legality read from FFT-correlated shift-code bundles (code, dim, slots, refresh)",
    make: |o| Ok(Box::new(vsa::VsaBackend::new(o)?.with_optimiser_options(o)?)),
    params: &["code", "dim", "slots", "refresh", "gap", "abs-gap", "hint"],
    uses_time_limit: true,
    uses_seed: true,
    counters: &[
        (SearchCounter::Guesses, "guesses"),
        (SearchCounter::Backtracks, "backtracks"),
        (SearchCounter::Steps, "values placed"),
    ],
    promises: &[Promise {
        params: &[("code", "unitary")],
        seed: 5,
        ..Promise::EXACT
    }],
};
