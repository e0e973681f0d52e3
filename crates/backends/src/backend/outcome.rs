//! What backends report and what the verified runners make of it: raw [`Found`] answers and
//! [`CountEnd`]s, typed reasons ([`Undecided`]), the plain [`Stats`] struct, and the verified
//! [`Status`], [`Outcome`] and [`CountOutcome`]. No logic beyond naming: the runners in
//! [`super::verified`] decide every status, so no status is ever guessed elsewhere.

use std::collections::BTreeMap;

use num_bigint::BigUint;
use serde::{Deserialize, Serialize};

use crate::backend::Count;
use crate::model::Solution;

/// Search statistics, in one plain struct shared by all backends. Fields a backend does not
/// track stay zero (and are left out of JSON); backend-specific figures go in `extra`, the
/// figures reports read by name in typed fields ([`Stats::relaxation`]).
///
/// In JSON, [`Stats::relaxation`] is written into `extra` under its old keys (`lp_feasible`,
/// `lp_integral`, `lp_fractional`) and read back from there, so records written before and
/// after read alike; [`Stats::levels`] is its own object (`levels`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "StatsJson", into = "StatsJson")]
pub struct Stats {
    /// Search nodes visited (partial placements tried).
    pub nodes: u64,
    /// Nodes visited at each depth (the search profile).
    pub nodes_per_depth: Vec<u64>,
    /// Values placed (by propagation or by choice).
    pub steps: u64,
    /// Choices made at choice points.
    pub guesses: u64,
    /// Choices undone.
    pub backtracks: u64,
    /// Solutions met by the search.
    pub solutions: u64,
    /// Wall-clock seconds inside the backend.
    pub seconds: f64,
    /// What solving the LP relaxation alone found (`milp` with `relax=true`); `None` for
    /// every other run. Reports draw the share of integral optima from it.
    pub relaxation: Option<LpVerdict>,
    /// The exact counts of a search-space table row (a table experiment's record); `None`
    /// for every backend run.
    pub levels: Option<SpaceLevels>,
    /// Backend-specific figures (FFT batches, LP iterations, rank, ...).
    pub extra: BTreeMap<String, serde_json::Value>,
    /// An optimiser's incumbent trace: every improving solution and bound change with its
    /// time, at most [`crate::backend::incumbent::TRACE_LIMIT`] points (see
    /// [`crate::backend::incumbent`]); empty for every other run.
    pub trace: Vec<TracePoint>,
}

impl Stats {
    /// Every backend-specific figure by its key, the typed ones included under their record
    /// keys (`lp_integral`, ...): what a report lists per backend. Cost: a copy of `extra`.
    pub fn figures(&self) -> BTreeMap<String, serde_json::Value> {
        let mut all = self.extra.clone();
        if let Some(r) = &self.relaxation {
            r.write_to(&mut all);
        }
        all
    }
}

/// The verdict of an LP relaxation solved alone: whether it is feasible and whether its
/// optimal vertex is integral (then it is a 0-1 solution, still to be verified).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LpVerdict {
    /// The relaxation has a feasible point (false proves the 0-1 problem infeasible).
    pub feasible: bool,
    /// The optimal vertex found is integral.
    pub integral: bool,
    /// Fractional values at that vertex (0 when integral or infeasible); `None` in records
    /// written before it was counted.
    pub fractional: Option<usize>,
}

impl LpVerdict {
    const FEASIBLE: &'static str = "lp_feasible";
    const INTEGRAL: &'static str = "lp_integral";
    const FRACTIONAL: &'static str = "lp_fractional";

    /// Writes the verdict into `extra` under its record keys.
    fn write_to(&self, extra: &mut BTreeMap<String, serde_json::Value>) {
        extra.insert(Self::FEASIBLE.into(), self.feasible.into());
        extra.insert(Self::INTEGRAL.into(), self.integral.into());
        if let Some(f) = self.fractional {
            extra.insert(Self::FRACTIONAL.into(), f.into());
        }
    }

    /// Takes the verdict out of a record's `extra`, when its keys are there with their types
    /// (`lp_fractional` may be absent; otherwise `extra` is left as it is).
    fn take_from(extra: &mut BTreeMap<String, serde_json::Value>) -> Option<LpVerdict> {
        let feasible = extra.get(Self::FEASIBLE)?.as_bool()?;
        let integral = extra.get(Self::INTEGRAL)?.as_bool()?;
        let fractional = match extra.get(Self::FRACTIONAL) {
            None => None,
            Some(v) => Some(usize::try_from(v.as_u64()?).ok()?),
        };
        for key in [Self::FEASIBLE, Self::INTEGRAL, Self::FRACTIONAL] {
            extra.remove(key);
        }
        Some(LpVerdict {
            feasible,
            integral,
            fractional,
        })
    }
}

/// The exact counts one row of a search-space table experiment computed: each level by its
/// key (`every_cell`, `three_axes`, ...: the kind's table names them and reads them back), and
/// the fixed points Burnside's lemma needs when the row's orbits are completed later (a
/// sharded count). Written as decimal strings, so no digit is lost.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceLevels {
    /// Each level's exact count, by its key.
    #[serde(with = "decimal_map")]
    pub counts: BTreeMap<String, BigUint>,
    /// Placements fixed by each symmetry but the identity, when the row counted them.
    #[serde(default, skip_serializing_if = "Vec::is_empty", with = "decimal_list")]
    pub fixed_points: Vec<BigUint>,
}

impl SpaceLevels {
    /// The count of level `key`, if the row has it.
    pub fn get(&self, key: &str) -> Option<&BigUint> {
        self.counts.get(key)
    }

    /// Sets the count of level `key`.
    pub fn set(&mut self, key: &str, count: impl Into<BigUint>) {
        self.counts.insert(key.into(), count.into());
    }
}

/// Exact big integers as JSON decimal strings (a JSON number would lose digits).
mod decimal_map {
    use std::collections::BTreeMap;

    use num_bigint::BigUint;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        map: &BTreeMap<String, BigUint>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter().map(|(k, v)| (k, v.to_string())))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<String, BigUint>, D::Error> {
        let text = BTreeMap::<String, String>::deserialize(d)?;
        text.into_iter()
            .map(|(k, v)| match v.parse() {
                Ok(n) => Ok((k, n)),
                Err(_) => Err(serde::de::Error::custom(format!(
                    "level {k}: '{v}' is not a whole number"
                ))),
            })
            .collect()
    }
}

/// A list of exact big integers as JSON decimal strings.
mod decimal_list {
    use num_bigint::BigUint;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(list: &[BigUint], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(list.iter().map(|v| v.to_string()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<BigUint>, D::Error> {
        Vec::<String>::deserialize(d)?
            .into_iter()
            .map(|v| {
                v.parse()
                    .map_err(|_| serde::de::Error::custom(format!("'{v}' is not a whole number")))
            })
            .collect()
    }
}

/// The JSON form of [`Stats`]: the typed fields folded into `extra`, but for the table
/// levels, which have their own object (records made before it keep them in `extra`, where
/// the table experiment reads them with its kind's keys).
#[derive(Serialize, Deserialize)]
struct StatsJson {
    #[serde(default, skip_serializing_if = "is_zero")]
    nodes: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    nodes_per_depth: Vec<u64>,
    #[serde(default, skip_serializing_if = "is_zero")]
    steps: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    guesses: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    backtracks: u64,
    #[serde(default, skip_serializing_if = "is_zero")]
    solutions: u64,
    #[serde(default)]
    seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    levels: Option<SpaceLevels>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    extra: BTreeMap<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    trace: Vec<TracePoint>,
}

impl From<StatsJson> for Stats {
    fn from(mut j: StatsJson) -> Stats {
        Stats {
            nodes: j.nodes,
            nodes_per_depth: j.nodes_per_depth,
            steps: j.steps,
            guesses: j.guesses,
            backtracks: j.backtracks,
            solutions: j.solutions,
            seconds: j.seconds,
            relaxation: LpVerdict::take_from(&mut j.extra),
            levels: j.levels,
            extra: j.extra,
            trace: j.trace,
        }
    }
}

impl From<Stats> for StatsJson {
    fn from(s: Stats) -> StatsJson {
        let extra = s.figures();
        StatsJson {
            nodes: s.nodes,
            nodes_per_depth: s.nodes_per_depth,
            steps: s.steps,
            guesses: s.guesses,
            backtracks: s.backtracks,
            solutions: s.solutions,
            seconds: s.seconds,
            levels: s.levels,
            extra,
            trace: s.trace,
        }
    }
}

/// One of the search counters of [`Stats`]. What it counts differs between backends (a SAT
/// call, a partial placement, a choice), so a registry entry names each counter its backend
/// fills ([`super::BackendInfo::counters`]) and reports never pool them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchCounter {
    /// [`Stats::nodes`].
    Nodes,
    /// [`Stats::steps`].
    Steps,
    /// [`Stats::guesses`].
    Guesses,
    /// [`Stats::backtracks`].
    Backtracks,
}

impl SearchCounter {
    /// This counter's value in `stats`.
    pub fn of(self, stats: &Stats) -> u64 {
        match self {
            SearchCounter::Nodes => stats.nodes,
            SearchCounter::Steps => stats.steps,
            SearchCounter::Guesses => stats.guesses,
            SearchCounter::Backtracks => stats.backtracks,
        }
    }
}

fn is_zero(x: &u64) -> bool {
    *x == 0
}

/// What a solver found, before verification.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// A candidate solution (still to be verified).
    Solution(Solution),
    /// The backend proved there is no solution.
    Infeasible,
    /// The backend stopped at the time limit it honours, without an answer: `timeout`.
    TimedOut,
    /// The backend stopped without deciding, for a reason of its own (an incomplete method):
    /// `unknown`.
    Undecided(Undecided),
}

/// Why a sound backend stopped without deciding: the reasons an incomplete method gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undecided {
    /// Elimination leaves free variables, so linear algebra alone does not fix the answer.
    FreeVariables {
        /// Unknowns left free (`unknowns - rank`).
        free: usize,
        /// Rank of the equality system.
        rank: usize,
        /// Unknowns (the model's variables).
        unknowns: usize,
        /// Variables the equations fix to 0 or 1.
        fixed: usize,
    },
    /// The search went through the whole space, but its legality engine is approximate, so
    /// finding nothing (or no more) proves nothing.
    ApproximateEngine {
        /// The engine's name.
        engine: &'static str,
    },
    /// The LP relaxation's optimal vertex is fractional, so it is no 0-1 solution.
    FractionalVertex {
        /// Fractional values at the vertex.
        fractional: usize,
        /// Variables of the relaxation.
        variables: usize,
    },
    /// The search stopped before finishing, with no limit reached.
    Stopped,
}

impl std::fmt::Display for Undecided {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Undecided::FreeVariables { free, rank, unknowns, fixed } => write!(
                f,
                "elimination leaves {free} free variable(s) (rank {rank} of {unknowns} unknowns); {fixed} of {unknowns} variables are fixed"
            ),
            Undecided::ApproximateEngine { engine } => write!(
                f,
                "search exhausted, but the {engine} engine is approximate, so it proves nothing about the solutions it did not find"
            ),
            Undecided::FractionalVertex { fractional, variables } => write!(
                f,
                "the LP relaxation's vertex has {fractional} fractional values of {variables}"
            ),
            Undecided::Stopped => write!(f, "the search stopped before it finished"),
        }
    }
}

/// Written as its message, so reports that carry a reason keep reading as text.
impl Serialize for Undecided {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// How an enumeration (a count or a stream of solutions) ended, before verification.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CountEnd {
    /// The whole space was searched by an exact method: nothing was missed.
    Complete,
    /// Stopped at the caller's limit (a count limit, a callback that asked to stop).
    AtLimit,
    /// Stopped at the time limit the backend honours.
    TimedOut,
    /// Stopped, or finished without proof, for a reason of the backend's own.
    Undecided(Undecided),
}

impl CountEnd {
    /// Whether nothing was missed.
    pub fn is_complete(&self) -> bool {
        *self == CountEnd::Complete
    }
}

/// A solver's raw report.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveReport {
    /// The answer.
    pub found: Found,
    /// How the search went.
    pub stats: Stats,
}

/// A counter's raw report.
#[derive(Debug, Clone, PartialEq)]
pub struct CountReport {
    /// Solutions counted (exact, of any size).
    pub count: Count,
    /// How the count ended.
    pub end: CountEnd,
    /// Some of the counted solutions (the first few), for verification; counting methods that
    /// never see a solution (dynamic programming) leave this empty.
    pub witnesses: Vec<Solution>,
    /// How the search went.
    pub stats: Stats,
}

/// How many witnesses a counter should keep.
pub const WITNESS_LIMIT: usize = 16;

/// The verified status of a run.
///
/// Only `Solved` and `Infeasible` are answers (they enter time ratios); `Limit`, `Timeout`,
/// `Memout` and `Crash` count as twice the time limit in PAR-2; `Unknown`, `Unsupported` and
/// `Error` are neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A solution was found and the verifier accepted it; for a count: the count is complete
    /// and every witness passed the verifier.
    Solved,
    /// A model with an objective: a verified solution whose recomputed value the backend
    /// proved optimal.
    Optimal,
    /// A model with an objective: a limit stopped the search with a verified solution in hand
    /// (the best value found; not proved optimal).
    Feasible,
    /// The backend proved there is no solution.
    Infeasible,
    /// A sound backend stopped without deciding (an incomplete method, a search it gave up).
    Unknown,
    /// A count or search stopped by a limit (`--limit`, `count_limit`, or the time limit
    /// honoured by the backend itself); a count keeps its partial value.
    Limit,
    /// The run reached its time limit without an answer (stopped by the backend at the limit,
    /// or killed by the parent process after the limit and a grace period).
    Timeout,
    /// The run's process ran out of its memory limit.
    Memout,
    /// The run's process died (a signal, an abort) without a result.
    Crash,
    /// The backend refuses this model or task (too large for it, an ability it lacks); the
    /// reason says why.
    Unsupported,
    /// The backend failed, panicked, or returned an answer the verifier rejected.
    Error,
}

impl Status {
    /// Every status, in the order reports list them.
    pub const ALL: [Status; 11] = [
        Status::Solved,
        Status::Optimal,
        Status::Feasible,
        Status::Infeasible,
        Status::Unknown,
        Status::Limit,
        Status::Timeout,
        Status::Memout,
        Status::Crash,
        Status::Unsupported,
        Status::Error,
    ];

    /// The lower-case name used in JSON and reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Optimal => "optimal",
            Status::Feasible => "feasible",
            Status::Infeasible => "infeasible",
            Status::Unknown => "unknown",
            Status::Limit => "limit",
            Status::Timeout => "timeout",
            Status::Memout => "memout",
            Status::Crash => "crash",
            Status::Unsupported => "unsupported",
            Status::Error => "error",
        }
    }

    /// Whether this is an answer (`solved`, `optimal` or `infeasible`): only these enter time
    /// ratios. `feasible` is not: the optimum was not proved.
    pub fn is_answer(self) -> bool {
        matches!(self, Status::Solved | Status::Optimal | Status::Infeasible)
    }

    /// Whether PAR-2 charges this run twice the time limit (it ran out of a resource or died,
    /// or stopped at the limit before proving its solution optimal).
    pub fn is_par2_penalty(self) -> bool {
        matches!(
            self,
            Status::Limit | Status::Timeout | Status::Memout | Status::Crash | Status::Feasible
        )
    }

    /// Whether the run handed back a verified solution (`solved`, `optimal`, `feasible`).
    pub fn has_solution(self) -> bool {
        matches!(self, Status::Solved | Status::Optimal | Status::Feasible)
    }

    /// Whether the run ended without running to an outcome, which makes `solve` and `count`
    /// exit with status 1: `error`, `crash`, `unsupported`.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Error | Status::Crash | Status::Unsupported)
    }
}

/// A verified solve result: what may be printed or counted.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Verified status.
    pub status: Status,
    /// The solution, present only when `status` is `Solved`, `Optimal` or `Feasible` (hence
    /// verified).
    pub solution: Option<Solution>,
    /// Whether the verifier accepted a solution.
    pub verified: bool,
    /// Why the status is not `solved`, `optimal` or `infeasible`.
    pub reason: Option<String>,
    /// A model with an objective: the value of `solution`, recomputed by the verifier (exact).
    pub objective: Option<i128>,
    /// A model with an objective: the bound on the optimum the backend proved, when it knows
    /// one (equal to `objective` when `optimal`).
    pub bound: Option<i128>,
    /// The backend's statistics (time measured here when the backend left it zero).
    pub stats: Stats,
}

impl Outcome {
    /// An outcome with `stats` and nothing else: status `error`, no solution, no values (for
    /// struct-update syntax).
    pub fn empty(stats: Stats) -> Outcome {
        Outcome {
            status: Status::Error,
            solution: None,
            verified: false,
            reason: None,
            objective: None,
            bound: None,
            stats,
        }
    }

    /// The verified `solution` of a model with no objective (status `solved`).
    pub fn solved(solution: Solution, stats: Stats) -> Outcome {
        Outcome {
            status: Status::Solved,
            solution: Some(solution),
            verified: true,
            ..Outcome::empty(stats)
        }
    }

    /// The relative gap between `objective` and `bound` (see
    /// [`crate::model::objective::Objective::gap`]), when both are known.
    pub fn gap(&self) -> Option<f64> {
        Some(crate::model::objective::Objective::gap(
            self.objective?,
            self.bound?,
        ))
    }

    /// The relative gap as the exact fraction `(|objective - bound|, max(1, |objective|))`
    /// (see [`crate::model::objective::Objective::gap_ratio`]), when both are known.
    pub fn gap_ratio(&self) -> Option<(u128, u128)> {
        Some(crate::model::objective::Objective::gap_ratio(
            self.objective?,
            self.bound?,
        ))
    }
}

/// A verified count result.
#[derive(Debug, Clone, PartialEq)]
pub struct CountOutcome {
    /// `Solved` when the count is complete and every witness verified; `Limit` when it stopped
    /// at a limit (the partial count is kept); `Unsupported` or `Error` otherwise.
    pub status: Status,
    /// Solutions counted (exact, of any size).
    pub count: Count,
    /// Whether the search finished rather than stopping at the limit.
    pub exhaustive: bool,
    /// Whether at least one witness was checked and all witnesses passed the verifier.
    pub verified: bool,
    /// Why the status is not `solved`.
    pub reason: Option<String>,
    /// The backend's statistics.
    pub stats: Stats,
}

/// One point of an optimiser's trace: the incumbent value and the proved bound (objective's
/// own sign) from `seconds` after the run started.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TracePoint {
    /// Seconds since the run started.
    #[serde(rename = "t")]
    pub seconds: f64,
    /// The best value found so far (`None` before the first solution).
    #[serde(rename = "v", default, skip_serializing_if = "Option::is_none")]
    pub value: Option<i128>,
    /// The proved bound on the optimum so far (`None` when none is known).
    #[serde(rename = "b", default, skip_serializing_if = "Option::is_none")]
    pub bound: Option<i128>,
}
