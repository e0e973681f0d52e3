//! What backends report and what the verified runners make of it: raw [`Found`] answers and
//! [`CountEnd`]s, typed reasons ([`Undecided`]), the plain [`Stats`] struct, and the verified
//! [`Status`], [`Outcome`] and [`CountOutcome`]. No logic beyond naming: the runners in
//! [`super::verified`] decide every status, so no status is ever guessed elsewhere.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::backend::Count;
use crate::model::Solution;

/// Search statistics, in one plain struct shared by all backends. Fields a backend does not
/// track stay zero (and are left out of JSON); backend-specific figures go in `extra`, the
/// figures reports read by name in typed fields ([`Stats::relaxation`]).
///
/// In JSON, [`Stats::relaxation`] is written into `extra` under its old keys (`lp_feasible`,
/// `lp_integral`, `lp_fractional`) and read back from there, so records written before and
/// after read alike. A record may add an entry of its own to the object
/// ([`Stats::serialize_with_entry`]: the table experiment's levels); read as plain `Stats`,
/// an entry this struct does not know is skipped.
#[derive(Debug, Clone, Default, PartialEq)]
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

impl Stats {
    /// Writes these statistics as their JSON object (the one [`Serialize`] writes: the
    /// counters that are not zero, `seconds`, the figures of [`Stats::figures`] as `extra`,
    /// the trace), with one more entry of the caller's, `key: value`, right after `seconds`
    /// when `entry` is `Some`: how a record keeps figures of its own inside its `stats`
    /// object, at the place its records have always had them (the harness's table levels).
    /// Cost: one pass over the fields and a copy of `extra`.
    pub fn serialize_with_entry<S: Serializer, T: Serialize + ?Sized>(
        &self,
        entry: Option<(&'static str, &T)>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let extra = self.figures();
        let mut m = s.serialize_struct("Stats", 10)?;
        let counters = [
            ("steps", self.steps),
            ("guesses", self.guesses),
            ("backtracks", self.backtracks),
            ("solutions", self.solutions),
        ];
        if self.nodes != 0 {
            m.serialize_field("nodes", &self.nodes)?;
        }
        if !self.nodes_per_depth.is_empty() {
            m.serialize_field("nodes_per_depth", &self.nodes_per_depth)?;
        }
        for (key, value) in counters.into_iter().filter(|&(_, v)| v != 0) {
            m.serialize_field(key, &value)?;
        }
        m.serialize_field("seconds", &self.seconds)?;
        if let Some((key, value)) = entry {
            m.serialize_field(key, value)?;
        }
        if !extra.is_empty() {
            m.serialize_field("extra", &extra)?;
        }
        if !self.trace.is_empty() {
            m.serialize_field("trace", &self.trace)?;
        }
        m.end()
    }

    /// Reads statistics written by [`Stats::serialize_with_entry`]: the statistics, and the
    /// caller's entry `key` when the object has it (every key neither knows is skipped, as
    /// plain [`Deserialize`] skips them). Cost: one pass over the object.
    pub fn deserialize_with_entry<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        key: &'static str,
        d: D,
    ) -> Result<(Stats, Option<T>), D::Error> {
        d.deserialize_map(StatsVisitor {
            key: Some(key),
            entry: PhantomData,
        })
    }
}

impl Serialize for Stats {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.serialize_with_entry::<S, ()>(None, s)
    }
}

impl<'de> Deserialize<'de> for Stats {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Stats, D::Error> {
        let visitor = StatsVisitor::<IgnoredAny> {
            key: None,
            entry: PhantomData,
        };
        Ok(d.deserialize_map(visitor)?.0)
    }
}

/// Reads the JSON object of [`Stats`] (every field optional, `seconds` 0 when absent), and
/// the caller's entry `key` if any; the LP verdict is taken back out of `extra`.
struct StatsVisitor<T> {
    key: Option<&'static str>,
    entry: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for StatsVisitor<T> {
    type Value = (Stats, Option<T>);

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object of search statistics")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut stats = Stats::default();
        let mut entry = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "nodes" => stats.nodes = map.next_value()?,
                "nodes_per_depth" => stats.nodes_per_depth = map.next_value()?,
                "steps" => stats.steps = map.next_value()?,
                "guesses" => stats.guesses = map.next_value()?,
                "backtracks" => stats.backtracks = map.next_value()?,
                "solutions" => stats.solutions = map.next_value()?,
                "seconds" => stats.seconds = map.next_value()?,
                "extra" => stats.extra = map.next_value()?,
                "trace" => stats.trace = map.next_value()?,
                k if Some(k) == self.key => entry = map.next_value()?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        stats.relaxation = LpVerdict::take_from(&mut stats.extra);
        Ok((stats, entry))
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
