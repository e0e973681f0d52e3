//! The default backend (`--backend auto`, what `solve` and `count` use without `--backend`):
//! per model, the engine measured fastest on models of its shape ([`choose`]; the figures are
//! in `reports/portfolio.md`, made by `experiments/portfolio.toml`, and in the README's
//! "auto" section):
//!
//! 1. exact cover with no objective that `xcc`'s `transposed` engine (at most 512 primary items
//!    of at most 64 options each: Langford pairs, n-queens, Sudoku, bare hex boards) or its
//!    `sweep` engine (at most 128 items: pentominoes) takes: `xcc` (`reports/exact-cover.md`);
//! 2. a CNF-shaped model (no objective; at least [`SAT_FROM_CLAUSES`] clause rows, `sum >= 1`
//!    or `sum <= len - 1` over unit weights, those at least half of all rows, and at most
//!    [`SAT_MAX_CLAUSES_PER_VARIABLE`] per variable): `sat` (with the `sat` feature). Random
//!    3-SAT, pigeonhole and ordering formulas;
//! 3. any other model (no objective) whose rows are all clauses over positive literals
//!    (`sum >= 1`) or "at most one" (`sum <= 1`, which is also how a CNF reader writes a
//!    binary clause of two negated literals), with at least one of each: `enum` (the small
//!    pigeonhole and the parity formulas: 2.4-3.8x faster than `bitset`, measured in the
//!    README's "auto" section; formulas with mixed clauses, such as the ordering principle,
//!    stay on `bitset`, where `enum` is 4x slower);
//! 4. an objective of at least [`MILP_FROM_TERMS`] nonzero costs over rows that are not all
//!    exact cover (`= 1`, `<= 1`), some with weights (knapsack rows), or of at least
//!    [`MILP_FROM_TERMS_UNWEIGHTED`] over unweighted rows (covering, cardinality): `milp`
//!    (with the `milp` feature);
//! 5. everything else: `bitset` (general rows without an objective, small objectives,
//!    objectives over exact-cover rows such as the cheapest Queens placement, multiplicity
//!    models such as Star Battle, where `xcc`'s MRV engines are level with `bitset` or slower).
//!
//! Counting follows the same choice, with refinements for pure exact cover
//! ([`xcc::pure_exact_cover`]: "exactly one" rows only) measured by
//! `experiments/counting-portfolio.toml` (`reports/counting-portfolio.md`), each predicted from
//! the model's shape before anything is counted:
//!
//! - with givens (Sudoku puzzles) or at most [`TINY_OPTIONS`] variables: `bitset` counts up to
//!   [`GIVENS_FIRST`] solutions (no per-shape tables to build), and a model with more goes on
//!   below from the start;
//! - with at least 4 options per item (set partitions, perfect matchings, pentominoes):
//!   `xcc`'s `memo-sweep` counts at once, unchecked where its bound on the work
//!   (`MemoProblem::sweep_work_bound`) is small, else judged after a fixed number of nodes by
//!   its cache hits (see [`COUNT_SWITCH`]);
//! - otherwise a model that goes to `xcc` is counted by its visiting engine until that has
//!   listed 1,024 solutions; a model with fewer is counted there and then, and one with more
//!   is counted again from the start by `memo-sweep`, given up for the visiting engine if its
//!   cache answers too few look-ups after 5 ms (see [`Xcc::count_visiting_then_memo`]).
//!
//! Models with secondary items (n-queens' diagonals, Queens boards) or multiplicities stay
//! with the visiting engines, and so does any count with a limit (`bitset` first still
//! applies up to it). Cost of the rules: one scan of the row senses; the memo's form and bound
//! on a model of 4+ options per item; a prediction that fails spends `bitset`'s run to 64
//! solutions, or the memo's run to its checkpoint, or (third rule) the first 1,024 solutions'
//! search. The seconds reported cover the whole call. Where `auto` misses the best engine by
//! more than 10%: the README's "auto" section.
//!
//! [`Backend::serving`] names the engine a model goes to, so records say `xcc`, `sat`, `milp`
//! or `bitset`, never `auto` (and `extra.engine` says which of `xcc`'s engines counted).
//!
//! Cost: one scan of the rows and the variables' rows per model shape to choose (a batch of
//! puzzles of one shape is judged once); then the chosen engine's. The engines keep their
//! per-model caches between calls. Options: none besides the time limit (every engine reads
//! it).

use std::ops::ControlFlow;

use crate::backend::bitset::BitsetBackend;
use crate::backend::enumerate::EnumBackend;
#[cfg(feature = "milp")]
use crate::backend::milp::Milp;
use crate::backend::proof::ProofLog;
use crate::backend::proof::{ProofTask, ProvedRun, Prover};
#[cfg(feature = "sat")]
use crate::backend::sat::Sat;
use crate::backend::xcc::{self, MemoSwitch, Xcc};
use crate::backend::{
    Backend, BackendError, BackendOptions, CountEnd, CountReport, Counter, OptimizeReport,
    Optimizer, RowRefusal, SolutionStream, SolveReport, Solver, StreamReport,
};
use crate::model::{Model, Sense, Solution};

/// The fewest clause rows (see [`choose`]) at which a CNF-shaped model
/// goes to `sat`: measured in `reports/portfolio.md` (see the README's "auto" section).
pub const SAT_FROM_CLAUSES: usize = 100;

/// The most clause rows per variable of a model `sat` gets: past it (the parity formulas, 7 to
/// 11 per variable) `bitset` is faster.
pub const SAT_MAX_CLAUSES_PER_VARIABLE: usize = 6;

/// The fewest nonzero objective costs at which a model with rows other than exact cover goes
/// to `milp` (when some row has weights: knapsack-40 of the optimisation experiment, 40 terms,
/// `milp` 3.4 ms against `bitset`'s 27 ms; knapsack-30 `bitset` 3.5x faster).
pub const MILP_FROM_TERMS: usize = 40;

/// The same threshold for rows without weights (covering and cardinality rows, where
/// `bitset`'s bounds are stronger): set cover with 40, 60 and 80 terms (optimisation
/// experiment) and 40 (portfolio) is 1.3-3.4x faster on `bitset`, with 100 and 120 terms
/// 2.6-2.7x faster on `milp`.
pub const MILP_FROM_TERMS_UNWEIGHTED: usize = 100;

/// Counting a model of pure exact cover that goes to `xcc` (see
/// [`Xcc::count_visiting_then_memo`] and the README's "auto" section). With 4 options per item
/// or more it goes to `memo-sweep` at once: unchecked when the memo's bound is at most 2^22
/// mask tests (set partitions of 10 items: 87,893; perfect matchings of 14 points: 90,127),
/// else judged after 32,768 nodes (deterministic) and given up below 0.1 cache hits per node
/// (pentominoes 0.15-0.35 there, Langford pairs L(2,11) above 0.7). Sparser models are visited
/// first: after 1,024 solutions listed by the visiting engine (a model with fewer, such as a
/// Latin square of order 4, never pays for the memo's cache) they go to `memo-sweep`, which
/// is judged after 5 ms (or the first run's time if longer) by the same 0.1 hits per node
/// (measured: sparse Sudoku grids 0.004-0.03, Latin squares above 0.5).
pub const COUNT_SWITCH: MemoSwitch = MemoSwitch {
    after_solutions: 1024,
    check_after: std::time::Duration::from_millis(5),
    at_least_first_run: true,
    min_hits_per_node: 0.1,
    memo_first_options_per_item: 4,
    memo_first_unchecked_work: 1 << 22,
    memo_first_check_after_nodes: 1 << 15,
};

/// The solutions `bitset` counts first, before any other engine, on a model of pure exact
/// cover with givens (Sudoku puzzles and other puzzles with clues, which have one solution or
/// few) or with at most [`TINY_OPTIONS`] variables:
/// `bitset` needs no per-shape preparation (`xcc`'s tables cost 0.4 ms for a 9x9 Sudoku,
/// more than `bitset`'s whole count of a hard one). A model with more (a sparse grid) is
/// counted by `xcc` from the start; `bitset`'s run to this many is spent for nothing.
pub const GIVENS_FIRST: u64 = 64;

/// The most variables of a model of pure exact cover that `auto` counts with `bitset` first
/// (see [`GIVENS_FIRST`]) without givens: bare hex boards of width 5 and 7, Steiner triple
/// systems of order 7, where `xcc`'s preparation costs more than `bitset`'s whole count.
pub const TINY_OPTIONS: usize = 40;

/// The engine `auto` hands a model to (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Exact cover that `xcc`'s fast engines take.
    Xcc,
    /// CNF-shaped models past [`SAT_FROM_CLAUSES`] clauses.
    Sat,
    /// Positive clauses and "at most one" rows, nothing else (see [`choose`]).
    Enum,
    /// Objectives of [`MILP_FROM_TERMS`] terms or more over rows other than exact cover, some
    /// weighted ([`MILP_FROM_TERMS_UNWEIGHTED`] over unweighted rows).
    Milp,
    /// Everything else.
    Bitset,
}

impl Engine {
    /// The registry name of the engine.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Xcc => "xcc",
            Engine::Sat => "sat",
            Engine::Enum => "enum",
            Engine::Milp => "milp",
            Engine::Bitset => "bitset",
        }
    }
}

/// The engine for `model` by the rules of the module docs (without the `sat` or `milp`
/// feature, what would go there goes to `bitset`). Cost: one scan of the rows, and of the
/// variables' rows for exact cover.
pub fn choose(model: &Model) -> Engine {
    match model.objective() {
        None if xcc::transposed_takes(model) || xcc::sweep_takes(model) => Engine::Xcc,
        None if cfg!(feature = "sat") && cnf_shaped(model) => Engine::Sat,
        None if covers_and_packings(model) => Engine::Enum,
        Some(objective) if cfg!(feature = "milp") => {
            let terms = (0..model.num_variables())
                .filter(|&v| objective.cost(v) != 0)
                .count();
            let rows = model.constraints();
            let beyond_exact_cover =
                (rows.iter()).any(|c| !matches!(c.sense, Sense::ExactlyOne | Sense::AtMostOne));
            let from = match rows.iter().any(|c| c.weights.is_some()) {
                true => MILP_FROM_TERMS,
                false => MILP_FROM_TERMS_UNWEIGHTED,
            };
            if terms >= from && beyond_exact_cover {
                Engine::Milp
            } else {
                Engine::Bitset
            }
        }
        _ => Engine::Bitset,
    }
}

/// Whether `model` has at least [`SAT_FROM_CLAUSES`] clause rows and they are at least half
/// of its rows. A clause row has unit weights, two or more variables, and is `sum >= 1` or
/// `sum <= len - 1` (the readers write a clause with mostly negated literals as the latter,
/// over the complements).
fn cnf_shaped(model: &Model) -> bool {
    let rows = model.constraints();
    let clause = |c: &&crate::model::Constraint| {
        let len = c.vars.len() as u64;
        c.weights.is_none()
            && len >= 2
            && matches!(c.sense.bounds(), (1, None)) | (c.sense.bounds() == (0, Some(len - 1)))
    };
    let clauses = rows.iter().filter(clause).count();
    clauses >= SAT_FROM_CLAUSES
        && 2 * clauses >= rows.len()
        && clauses <= SAT_MAX_CLAUSES_PER_VARIABLE * model.num_variables()
}

/// Whether every row of `model` is unit-weight and either a positive clause (`sum >= 1`) or
/// "at most one" (`sum <= 1`), with at least one of each: the pigeonhole and parity formulas'
/// shape (a covering of items with packing conflicts), which `enum` searches fastest. Cost:
/// one scan of the rows' senses.
fn covers_and_packings(model: &Model) -> bool {
    let (mut covers, mut packings) = (0usize, 0usize);
    for c in model.constraints() {
        match (c.weights.is_none(), c.sense.bounds()) {
            (true, (1, None)) => covers += 1,
            (true, (0, Some(1))) => packings += 1,
            _ => return false,
        }
    }
    covers > 0 && packings > 0
}

/// What a call asks of the engine: to solve or optimise, or to count or list solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ability {
    Optimise,
    Enumerate,
}

/// The default backend: `xcc`, `sat`, `milp` or `bitset`, chosen per model (see the module
/// docs).
#[derive(Debug)]
pub struct Auto {
    xcc: Xcc,
    bitset: BitsetBackend,
    enumerate: EnumBackend,
    #[cfg(feature = "sat")]
    sat: Sat,
    #[cfg(feature = "milp")]
    milp: Milp,
    /// The last model routed and its engine: a batch of puzzles of one shape (which differ in
    /// their givens only) is judged once.
    last: Option<(Model, Engine)>,
    /// Whether `gap`, `abs-gap` or `hint` was given: only `bitset` honours them, so every
    /// objective then goes to `bitset`.
    bitset_options: bool,
}

impl Auto {
    /// The engines, with the time limit of `options`.
    pub fn new(options: &BackendOptions) -> Result<Auto, BackendError> {
        Ok(Auto {
            xcc: Xcc::new(options)?,
            bitset: BitsetBackend::new(options).with_optimiser_options(options)?,
            enumerate: EnumBackend::new(options)?,
            #[cfg(feature = "sat")]
            sat: Sat::new(options)?,
            #[cfg(feature = "milp")]
            milp: Milp::new(options)?,
            last: None,
            bitset_options: (crate::backend::incumbent::GapLimit::PARAMS.iter())
                .any(|key| options.params.contains_key(*key)),
        })
    }

    /// Whether `model` goes to `xcc` ([`choose`]).
    pub fn takes_xcc(model: &Model) -> bool {
        choose(model) == Engine::Xcc
    }

    /// The verdict of [`choose`] on the last model routed, when `model` shares its shape
    /// (rows and variables) and its objective.
    fn known(&self, model: &Model) -> Option<Engine> {
        let (last, engine) = self.last.as_ref()?;
        let alike = last.shares_shape_with(model) && last.objective() == model.objective();
        alike.then_some(*engine)
    }

    /// The engine serving `model` for `ability`: [`choose`]'s, except that `milp` only
    /// optimises (and solves): counting and listing solutions of a model it would optimise go
    /// to `bitset` (`milp` lists none, and counts with one no-good cut per solution), and with
    /// `gap`, `abs-gap` or `hint` given every objective goes to `bitset` (the one engine here
    /// that honours them).
    fn engine(&mut self, model: &Model, ability: Ability) -> &mut dyn Backend {
        match (self.routed(model), ability) {
            (Engine::Xcc, _) => &mut self.xcc,
            (Engine::Enum, _) => &mut self.enumerate,
            #[cfg(feature = "sat")]
            (Engine::Sat, _) => &mut self.sat,
            #[cfg(feature = "milp")]
            (Engine::Milp, Ability::Optimise) => &mut self.milp,
            _ => &mut self.bitset,
        }
    }

    /// The engine [`choose`] names for `model` (judged once per shape), or `bitset` for an
    /// objective when an option only `bitset` honours was given.
    fn routed(&mut self, model: &Model) -> Engine {
        let engine = self.known(model).unwrap_or_else(|| {
            let engine = choose(model);
            self.last = Some((model.clone(), engine));
            engine
        });
        self.honouring_options(model, engine)
    }

    /// `engine`, or `bitset` for an objective when an option only `bitset` honours was given.
    fn honouring_options(&self, model: &Model, engine: Engine) -> Engine {
        let optimising = model.objective().is_some();
        match engine {
            Engine::Sat | Engine::Milp if optimising && self.bitset_options => Engine::Bitset,
            engine => engine,
        }
    }

    /// The error of an engine that lacks an ability every engine has (never happens).
    fn missing(ability: &str) -> BackendError {
        BackendError::Unsupported {
            backend: "auto".into(),
            ability: ability.into(),
        }
    }
}

impl Solver for Auto {
    fn solve(&mut self, model: &Model) -> Result<SolveReport, BackendError> {
        match self.engine(model, Ability::Optimise).solver() {
            Some(s) => s.solve(model),
            None => Err(Auto::missing("solve")),
        }
    }
}

/// A model of pure exact cover with givens or at most [`TINY_OPTIONS`] variables is counted by
/// `bitset` first (up to [`GIVENS_FIRST`] solutions); a model that goes to `xcc` by
/// [`Xcc::count_visiting_then_memo`] (`memo-sweep` or its visiting engine, see
/// [`COUNT_SWITCH`]); others by the engine [`choose`] names.
impl Counter for Auto {
    fn count(&mut self, model: &Model, limit: Option<u64>) -> Result<CountReport, BackendError> {
        let start = std::time::Instant::now();
        let few = few_solutions_expected(model);
        if few {
            if let Some(mut report) = self.count_by_bitset_first(model, limit)? {
                report.stats.seconds = start.elapsed().as_secs_f64();
                return Ok(report);
            }
        }
        if self.routed(model) == Engine::Xcc {
            let mut report = (self.xcc).count_visiting_then_memo(model, limit, COUNT_SWITCH)?;
            if few {
                let extra = &mut report.stats.extra;
                extra.insert("bitset_first".into(), GIVENS_FIRST.into());
            }
            // The seconds cover the whole call: the choice, and any run spent for nothing.
            report.stats.seconds = start.elapsed().as_secs_f64();
            return Ok(report);
        }
        match self.engine(model, Ability::Enumerate).counter() {
            Some(c) => c.count(model, limit),
            None => Err(Auto::missing("count")),
        }
    }
}

/// Whether `model` is pure exact cover ([`xcc::pure_exact_cover`]) with givens (a puzzle
/// with clues: Sudoku) or with at most [`TINY_OPTIONS`] variables, which `auto` counts with
/// `bitset` first (see [`GIVENS_FIRST`]). Cost: one scan of the rows' senses.
fn few_solutions_expected(model: &Model) -> bool {
    let small = !model.givens().is_empty() || model.num_variables() <= TINY_OPTIONS;
    small && xcc::pure_exact_cover(model)
}

impl Auto {
    /// The count of `model` by `bitset` when it has at most [`GIVENS_FIRST`] solutions (or
    /// reaches `limit`, if smaller), with `extra.engine` naming `bitset`; `None` when it has
    /// more (the caller counts it from the start; this run is spent for nothing).
    fn count_by_bitset_first(
        &mut self,
        model: &Model,
        limit: Option<u64>,
    ) -> Result<Option<CountReport>, BackendError> {
        let cap = limit.map_or(GIVENS_FIRST, |l| l.min(GIVENS_FIRST));
        let mut report = self.bitset.count(model, Some(cap))?;
        if report.end == CountEnd::AtLimit && limit != Some(cap) {
            return Ok(None);
        }
        report.stats.extra.insert("engine".into(), "bitset".into());
        Ok(Some(report))
    }
}

impl SolutionStream for Auto {
    fn for_each_solution(
        &mut self,
        model: &Model,
        found: &mut dyn FnMut(Solution) -> ControlFlow<()>,
    ) -> Result<StreamReport, BackendError> {
        match self.engine(model, Ability::Enumerate).streamer() {
            Some(s) => s.for_each_solution(model, found),
            None => Err(Auto::missing("stream solutions")),
        }
    }
}

/// Objectives go to `milp` or `bitset` ([`choose`]).
impl Optimizer for Auto {
    fn optimize(&mut self, model: &Model) -> Result<OptimizeReport, BackendError> {
        match self.engine(model, Ability::Optimise).optimizer() {
            Some(o) => o.optimize(model),
            None => Err(Auto::missing("optimise")),
        }
    }
}

/// With a proof (`--proof`, `--certify`, `certify = true`), `auto` runs the engine of its
/// choice that logs one: `xcc` (its `counts` engine: the memo engines log nothing) for a model
/// it sends to `xcc` and that `xcc` can log, `bitset` (the shared search, with its branch and
/// bound) for every other model, including those it would send to `sat` or `milp`, which log
/// no proofs. So the default backend certifies every claim the logging engines can; the proof
/// costs that engine's logged run.
impl Prover for Auto {
    fn prove(
        &mut self,
        model: &Model,
        task: ProofTask,
        log: &mut dyn ProofLog,
    ) -> Result<ProvedRun, BackendError> {
        let xcc_logs = task != ProofTask::Optimize
            && self.routed(model) == Engine::Xcc
            && self.xcc.no_proof_for(Some(model)).is_none();
        let engine: &mut dyn Backend = if xcc_logs {
            &mut self.xcc
        } else {
            &mut self.bitset
        };
        match engine.prover() {
            Some(p) => p.prove(model, task, log),
            None => Err(Auto::missing("log proofs")),
        }
    }
}

impl Backend for Auto {
    fn name(&self) -> &'static str {
        "auto"
    }
    fn prover(&mut self) -> Option<&mut dyn Prover> {
        Some(self)
    }
    /// The engine [`choose`] names (for a count or a listing of solutions of a model it
    /// sends to `milp`, `bitset` runs; see `Auto::engine`).
    fn serving(&self, model: &Model) -> &'static str {
        let engine = self.known(model).unwrap_or_else(|| choose(model));
        self.honouring_options(model, engine).name()
    }
    fn solver(&mut self) -> Option<&mut dyn Solver> {
        Some(self)
    }
    fn counter(&mut self) -> Option<&mut dyn Counter> {
        Some(self)
    }
    fn streamer(&mut self) -> Option<&mut dyn SolutionStream> {
        Some(self)
    }
    fn optimizer(&mut self) -> Option<&mut dyn Optimizer> {
        Some(self)
    }
    fn size_caps(&self) -> &'static str {
        "those of the engine it picks"
    }
    /// What `bitset` reads (every row kind); `xcc` reads a subset.
    fn rows_supported(&self, model: &Model) -> Result<(), RowRefusal> {
        self.bitset.rows_supported(model)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{count_verified, make_backend, Status};
    use crate::model::{Coord, ModelBuilder, PuzzleKind, Sense};

    fn count_by(backend: &mut dyn Backend, model: &Model) -> u128 {
        let out = count_verified(backend, model, None).unwrap();
        assert_eq!(out.status, Status::Solved, "{:?}", out.reason);
        out.count.to_u128().unwrap()
    }

    /// Random 3-SAT (a fixed xorshift stream) in DIMACS: `n` variables, `m` clauses.
    fn three_sat(n: usize, m: usize) -> Model {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |below: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % below as u64) as usize
        };
        let mut text = format!("p cnf {n} {m}\n");
        for _ in 0..m {
            let mut vars = Vec::new();
            while vars.len() < 3 {
                let v = 1 + next(n);
                if !vars.contains(&v) {
                    vars.push(v);
                }
            }
            for v in vars {
                let sign = if next(2) == 0 { "-" } else { "" };
                text.push_str(&format!("{sign}{v} "));
            }
            text.push_str("0\n");
        }
        zeroone_model::read::read_str(zeroone_model::read::cnf::FORMAT, &text, "3sat").unwrap()
    }

    /// The pigeonhole formula in DIMACS (as python-sat's `genhard -t php` writes it): `p`
    /// pigeons each in some hole, no two in one of the `h` holes.
    fn pigeonhole(p: usize, h: usize) -> Model {
        let var = |i: usize, j: usize| 1 + i * h + j;
        let mut clauses: Vec<String> = (0..p)
            .map(|i| (0..h).map(|j| format!("{} ", var(i, j))).collect())
            .collect();
        for j in 0..h {
            for a in 0..p {
                for b in a + 1..p {
                    clauses.push(format!("-{} -{} ", var(a, j), var(b, j)));
                }
            }
        }
        let mut text = format!("p cnf {} {}\n", p * h, clauses.len());
        clauses
            .iter()
            .for_each(|c| text.push_str(&format!("{c}0\n")));
        zeroone_model::read::read_str(zeroone_model::read::cnf::FORMAT, &text, "php").unwrap()
    }

    /// A model whose rows are `rows` (one family, `sense` each) over `n` variables, with the
    /// objective `1 + v % 7` on every variable.
    fn with_objective(n: usize, rows: &[Vec<usize>], sense: Sense) -> Model {
        objective_model(n, rows, sense, false)
    }

    /// [`with_objective`] with the weights 2, 3, 4, ... on each row's variables.
    fn with_weighted_objective(n: usize, rows: &[Vec<usize>], sense: Sense) -> Model {
        objective_model(n, rows, sense, true)
    }

    fn objective_model(n: usize, rows: &[Vec<usize>], sense: Sense, weighted: bool) -> Model {
        let mut b = ModelBuilder::new("objective", PuzzleKind::Generic);
        let x: Vec<usize> = (0..n)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("rows");
        for row in rows {
            let vars = row.iter().map(|&i| x[i]).collect();
            if weighted {
                b.weighted_row(f, vars, (2..2 + row.len() as u64).collect(), sense);
            } else {
                b.row(f, vars, sense);
            }
        }
        b.objective(
            crate::model::ObjectiveSense::Minimize,
            x.iter().map(|&v| (v, 1 + v as i64 % 7)).collect(),
        );
        b.build().unwrap()
    }

    #[test]
    fn each_rule_keeps_its_choice_on_a_small_model_of_its_shape() {
        use crate::puzzle::QueensBoard;
        let when = |feature: bool, engine: Engine| if feature { engine } else { Engine::Bitset };
        let sat = when(cfg!(feature = "sat"), Engine::Sat);
        let milp = when(cfg!(feature = "milp"), Engine::Milp);
        // Exact cover: xcc.
        assert_eq!(choose(&QueensBoard::bare(6).to_model("q6")), Engine::Xcc);
        // CNF: sat from the threshold on, bitset below it and for dense formulas.
        let cnf = three_sat(100, SAT_FROM_CLAUSES * 3);
        assert_eq!(choose(&cnf), sat);
        assert_eq!(
            choose(&three_sat(20, SAT_FROM_CLAUSES - 10)),
            Engine::Bitset
        );
        assert_eq!(choose(&three_sat(20, 300)), Engine::Bitset); // 7.5 per variable or more
                                                                 // Positive clauses and "at most one" rows only (pigeonhole, parity): enum, counting
                                                                 // and refuting as bitset does; one mixed clause (or an objective) and it is bitset's.
        for (p, h, count) in [(4, 3, 0), (3, 3, 6), (4, 4, 24)] {
            let php = pigeonhole(p, h);
            assert_eq!(choose(&php), Engine::Enum, "php {p} {h}");
            let mut auto = Auto::new(&BackendOptions::default()).unwrap();
            assert_eq!(auto.serving(&php), "enum");
            let mut bitset = make_backend("bitset", &BackendOptions::default()).unwrap();
            assert_eq!(count_by(&mut auto, &php), count);
            assert_eq!(count_by(bitset.as_mut(), &php), count);
            let solved = crate::backend::solve_verified(&mut auto, &php).unwrap();
            let expected = if count == 0 {
                Status::Infeasible
            } else {
                Status::Solved
            };
            assert_eq!(solved.status, expected);
        }
        assert_eq!(
            choose(&three_sat(20, SAT_FROM_CLAUSES - 10)),
            Engine::Bitset
        );
        // General rows without an objective: bitset.
        let general = crate::backend::fixtures::line_sums(4, Sense::Exactly(2), Sense::Exactly(2));
        assert_eq!(choose(&general), Engine::Bitset);
        // Objectives: milp from MILP_FROM_TERMS costs over rows with weights and from
        // MILP_FROM_TERMS_UNWEIGHTED over covering rows, bitset below them and over
        // exact-cover rows.
        let pairs =
            |n: usize| -> Vec<Vec<usize>> { (0..n).step_by(2).map(|i| vec![i, i + 1]).collect() };
        let n = MILP_FROM_TERMS_UNWEIGHTED;
        let cover = with_objective(n, &pairs(n), Sense::AtLeast(1));
        assert_eq!(choose(&cover), milp);
        let small = with_objective(n - 2, &pairs(n - 2), Sense::AtLeast(1));
        assert_eq!(choose(&small), Engine::Bitset);
        let weighted = |n: usize| with_weighted_objective(n, &pairs(n), Sense::AtLeast(3));
        assert_eq!(choose(&weighted(MILP_FROM_TERMS)), milp);
        assert_eq!(choose(&weighted(MILP_FROM_TERMS - 2)), Engine::Bitset);
        let exact = with_objective(100, &pairs(100), Sense::ExactlyOne);
        assert_eq!(choose(&exact), Engine::Bitset);
        // Records name the engine chosen, and each answers as bitset does.
        let mut auto = Auto::new(&BackendOptions::default()).unwrap();
        let mut bitset = make_backend("bitset", &BackendOptions::default()).unwrap();
        for (model, engine) in [(&cnf, sat), (&cover, milp), (&exact, Engine::Bitset)] {
            assert_eq!(auto.serving(model), engine.name());
            let by_auto = crate::backend::solve_verified(&mut auto, model).unwrap();
            let by_bitset = crate::backend::solve_verified(bitset.as_mut(), model).unwrap();
            assert_eq!(
                (by_auto.status, by_auto.objective),
                (by_bitset.status, by_bitset.objective)
            );
            assert!(by_auto.verified || by_auto.status == Status::Infeasible);
        }
        // With a gap tolerance (which only bitset honours) the objective goes to bitset.
        let mut gap_options = BackendOptions::default();
        gap_options.params.insert("abs-gap".into(), "0".into());
        let with_gap = Auto::new(&gap_options).unwrap();
        assert_eq!(with_gap.serving(&cover), "bitset");
        assert_eq!(with_gap.serving(&cnf), sat.name());
        // Listing solutions of a model whose optimisation goes to milp runs bitset (milp
        // lists none).
        let mut listed = 0;
        let out =
            crate::backend::solutions_verified(&mut auto, &cover, Some(5), &mut |_| listed += 1)
                .unwrap();
        assert_eq!((out.status, out.count, listed), (Status::Solved, 5, 5));
    }

    /// The count of `model` by `auto`, checked by the verifier, and the engine that made it.
    fn auto_count(model: &Model, limit: Option<u64>) -> (u128, Status, String) {
        let mut auto = Auto::new(&BackendOptions::default()).unwrap();
        assert_eq!(auto.serving(model), "xcc");
        let out = count_verified(&mut auto, model, limit).unwrap();
        assert!(out.verified, "{:?}", out.reason);
        let engine = out.stats.extra.get("engine").and_then(|e| e.as_str());
        let engine = engine.unwrap_or_default().to_string();
        (out.count.to_u128().unwrap(), out.status, engine)
    }

    #[test]
    fn counting_switches_to_memo_past_the_threshold_on_pure_exact_cover_only() {
        use crate::puzzle::generate::counting::{perfect_matchings, set_partitions};
        use crate::puzzle::generate::exact_cover::n_queens;
        // Pure exact cover with many options per item and a small memo bound: memo-sweep at
        // once, no visiting first, Bell(8) = 4,140.
        let partitions = set_partitions(8).unwrap();
        assert!(xcc::pure_exact_cover(&partitions));
        assert_eq!(
            auto_count(&partitions, None),
            (4140, Status::Solved, "memo-sweep".into())
        );
        let mut auto = Auto::new(&BackendOptions::default()).unwrap();
        let report = auto.count(&partitions, None).unwrap();
        assert!(report.stats.extra.contains_key("memo_work_bound"));
        assert!(!report.stats.extra.contains_key("visited_first"));
        // Below it: the visiting engine alone (7!! = 105 matchings of 8 points).
        let matchings = perfect_matchings(4).unwrap();
        assert_eq!(
            auto_count(&matchings, None),
            (105, Status::Solved, "transposed".into())
        );
        // Secondary items (the diagonals): visiting, past the threshold too (2,680 11-queens).
        let queens = n_queens(11);
        assert!(!xcc::pure_exact_cover(&queens));
        assert_eq!(
            auto_count(&queens, None),
            (2680, Status::Solved, "transposed".into())
        );
        // A count limit: visiting (the memo cannot stop early).
        let (count, status, engine) = auto_count(&partitions, Some(2000));
        assert_eq!((count, status), (2000, Status::Limit));
        assert_ne!(engine, "memo-sweep");
    }

    /// [`COUNT_SWITCH`] after `n` solutions.
    fn switch_at(n: u64) -> MemoSwitch {
        MemoSwitch {
            after_solutions: n,
            ..COUNT_SWITCH
        }
    }

    #[test]
    fn the_switch_to_memo_counts_what_brute_force_counts() {
        use crate::puzzle::generate::counting::{perfect_matchings, set_partitions};
        let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
        // Bell(4) = 15 and 5!! = 15, past a threshold of 4 solutions.
        for model in [set_partitions(4).unwrap(), perfect_matchings(3).unwrap()] {
            let mut xcc = Xcc::new(&BackendOptions::default()).unwrap();
            let report = xcc
                .count_visiting_then_memo(&model, None, switch_at(4))
                .unwrap();
            assert_eq!(report.stats.extra["engine"], "memo-sweep");
            assert_eq!(report.stats.extra["visited_first"], 4);
            assert!(report.end.is_complete());
            let by_brute = count_verified(brute.as_mut(), &model, None).unwrap();
            assert_eq!(report.count, by_brute.count, "{}", model.name());
            assert_eq!(report.count.to_u128(), Some(15));
            // Fewer solutions than the threshold: the visiting engine's count stands.
            let report = xcc
                .count_visiting_then_memo(&model, None, switch_at(64))
                .unwrap();
            assert_ne!(report.stats.extra["engine"], "memo-sweep");
            assert_eq!(report.count, by_brute.count);
        }
    }

    #[test]
    fn a_memo_failing_its_cache_test_hands_the_count_back_to_the_visiting_engine() {
        use crate::puzzle::generate::counting::latin_squares;
        // Latin squares of order 4: 576 (A002860); the memo counts 1,143 states, so its first
        // test (every 1,024 states) comes before its end. The checkpoint must not wait for
        // the first run's time: on a loaded machine the memo would finish before it.
        let latin = latin_squares(4).unwrap();
        let mut xcc = Xcc::new(&BackendOptions::default()).unwrap();
        let given_up = MemoSwitch {
            check_after: std::time::Duration::ZERO,
            at_least_first_run: false,
            min_hits_per_node: 2.0,
            ..switch_at(4)
        };
        let report = xcc
            .count_visiting_then_memo(&latin, None, given_up)
            .unwrap();
        assert_eq!(report.count.to_u128(), Some(576));
        assert_eq!(report.stats.extra["engine"], "transposed");
        assert_eq!(report.stats.extra["memo_abandoned_at"], 1024);
        assert!(report.end.is_complete());
        // A cache test it passes: the memo's count.
        let kept = MemoSwitch {
            min_hits_per_node: 0.0,
            ..given_up
        };
        let report = xcc.count_visiting_then_memo(&latin, None, kept).unwrap();
        assert_eq!(report.count.to_u128(), Some(576));
        assert_eq!(report.stats.extra["engine"], "memo-sweep");
        assert!(!report.stats.extra.contains_key("memo_abandoned_at"));
    }

    #[test]
    fn a_memo_counting_first_and_failing_its_cache_test_hands_the_count_to_visiting() {
        use crate::puzzle::generate::exact_cover::pentominoes;
        // Pentominoes 3x20: 8 tilings (2 up to symmetry, A000105's rectangles), 72 items and
        // 1,236 options (17 per item): the memo goes first. With no unchecked bound and a
        // cache test it cannot pass (at 1,024 nodes of its 15,140), the visiting engine
        // counts from the start.
        let model = pentominoes(3, 20);
        let mut xcc = Xcc::new(&BackendOptions::default()).unwrap();
        let strict = MemoSwitch {
            memo_first_unchecked_work: 0,
            memo_first_check_after_nodes: 1024,
            min_hits_per_node: 1000.0,
            ..COUNT_SWITCH
        };
        let report = xcc.count_visiting_then_memo(&model, None, strict).unwrap();
        assert_eq!(report.count.to_u128(), Some(8));
        assert_eq!(report.stats.extra["engine"], "sweep");
        assert_eq!(report.stats.extra["memo_abandoned_at"], 1024);
        assert!(report.end.is_complete());
        // A test it passes: the memo's count, the same.
        let lenient = MemoSwitch {
            min_hits_per_node: 0.0,
            ..strict
        };
        let report = xcc.count_visiting_then_memo(&model, None, lenient).unwrap();
        assert_eq!(report.count.to_u128(), Some(8));
        assert_eq!(report.stats.extra["engine"], "memo-sweep");
        assert!(report.stats.extra["memo_work_bound"].as_u64().unwrap() > 0);
    }

    #[test]
    fn puzzles_with_givens_count_by_bitset_up_to_its_cap_then_by_xcc() {
        use crate::puzzle::Sudoku;
        let sudoku = |cells: Vec<Option<usize>>| {
            (Sudoku::from_cells(2, cells).unwrap())
                .to_model("4x4")
                .unwrap()
        };
        let mut xcc = make_backend("xcc", &BackendOptions::default()).unwrap();
        // One solution (a puzzle): bitset's count stands.
        let grid = [0, 1, 2, 3, 2, 3, 0, 1, 1, 0, 3, 2, 3, 2, 1, 0];
        let mut cells: Vec<Option<usize>> = grid.iter().map(|&d| Some(d)).collect();
        for c in [0, 5, 10, 15, 3, 6] {
            cells[c] = None;
        }
        let puzzle = sudoku(cells);
        let (count, status, engine) = auto_count(&puzzle, None);
        assert_eq!(
            (count, status, engine.as_str()),
            (1, Status::Solved, "bitset")
        );
        assert_eq!(count_by(xcc.as_mut(), &puzzle), 1);
        // One given: 288 / 4 = 72 grids, past the cap: xcc counts them all from the start.
        let mut cells = vec![None; 16];
        cells[0] = Some(0);
        let sparse = sudoku(cells);
        const { assert!(72 > GIVENS_FIRST) };
        let (count, status, engine) = auto_count(&sparse, None);
        assert_eq!((count, status), (72, Status::Solved));
        assert_ne!(engine, "bitset");
        assert_eq!(count_by(xcc.as_mut(), &sparse), 72);
        let mut auto = Auto::new(&BackendOptions::default()).unwrap();
        let report = auto.count(&sparse, None).unwrap();
        assert_eq!(report.stats.extra["bitset_first"], GIVENS_FIRST);
        // A limit at or below the cap: bitset's count at the limit stands.
        let (count, status, engine) = auto_count(&sparse, Some(10));
        assert_eq!(
            (count, status, engine.as_str()),
            (10, Status::Limit, "bitset")
        );
    }

    #[test]
    fn exact_cover_goes_to_xcc_and_weighted_rows_to_bitset_with_brute_force_counts() {
        let mut auto = Auto::new(&BackendOptions::default()).unwrap();
        let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
        let mut b = ModelBuilder::new("cover", PuzzleKind::Generic);
        let x: Vec<usize> = (0..4)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("rows");
        b.row(f, vec![x[0], x[1]], Sense::ExactlyOne);
        b.row(f, vec![x[2], x[3]], Sense::ExactlyOne);
        b.row(f, vec![x[0], x[2]], Sense::AtMostOne);
        let cover = b.build().unwrap();
        assert_eq!(auto.serving(&cover), "xcc");
        // x0 x3, x1 x2, x1 x3.
        assert_eq!(count_by(&mut auto, &cover), 3);
        assert_eq!(count_by(brute.as_mut(), &cover), 3);

        let mut b = ModelBuilder::new("weighted", PuzzleKind::Generic);
        let x: Vec<usize> = (0..4)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("knapsack");
        b.weighted_row(f, x, vec![1, 2, 3, 4], Sense::Exactly(5));
        let weighted = b.build().unwrap();
        assert_eq!(auto.serving(&weighted), "bitset");
        // {1, 4} and {2, 3}.
        assert_eq!(count_by(&mut auto, &weighted), 2);
        assert_eq!(count_by(brute.as_mut(), &weighted), 2);
    }
}
