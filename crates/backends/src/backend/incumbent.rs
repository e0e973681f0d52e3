//! What an optimiser tells about its progress: the gap tolerances it stops at ([`GapLimit`],
//! options `gap` and `abs-gap`) and the bounded incumbent trace ([`Trace`], `stats.trace`).
//!
//! **The gap.** For a solution of value `v` and a proved bound `b` on the optimum (a lower
//! bound when minimising, an upper bound when maximising), the absolute gap is `|v - b|` and
//! the relative gap is `|v - b| / max(1, |v|)`: HiGHS's `mip_rel_gap` (`|primal - dual| /
//! |primal|`), with the denominator kept at least 1 so that a value of 0 gives a finite gap
//! (SCIP's `|primal - dual| / min(|primal|, |dual|)` is infinite there). Both are exact
//! rationals of integers ([`crate::model::objective::Objective::gap_ratio`]); the float is for
//! display. A gap of 0 proves the solution optimal.
//!
//! **The trace.** Every improving solution and every rise of the proved bound, with the
//! seconds since the run started, in the objective's own sign. At most [`TRACE_LIMIT`] points
//! are kept: when the list is full, every second point but the first and the last is dropped
//! (so the trace thins out evenly over the whole run) and the number of points dropped is
//! counted in `stats.extra.trace_dropped`. Cost: one push per event, and `O(TRACE_LIMIT)` per
//! thinning (after at least `TRACE_LIMIT / 2` new events).

pub use crate::backend::outcome::TracePoint;
use crate::backend::{BackendError, BackendOptions};

/// The gap tolerances an optimiser stops at (none by default: it runs to a proof or its
/// limit). Read from the options `gap` (relative, a number from 0) and `abs-gap` (absolute, a
/// whole number from 0) by [`GapLimit::from_options`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GapLimit {
    /// Stop when the relative gap `|v - b| / max(1, |v|)` is at most this.
    pub relative: Option<f64>,
    /// Stop when the absolute gap `|v - b|` is at most this.
    pub absolute: Option<u128>,
}

impl GapLimit {
    /// The option keys a backend that honours the tolerances (and a [`Hint`]) lists in its
    /// registry entry.
    pub const PARAMS: [&'static str; 3] = ["gap", "abs-gap", "hint"];

    /// The tolerances in `options` (`gap`, `abs-gap`), for backend `backend`; a value that is
    /// not a finite number from 0 (`gap`) or a whole number from 0 (`abs-gap`) is
    /// [`BackendError::BadOption`].
    pub fn from_options(backend: &str, options: &BackendOptions) -> Result<GapLimit, BackendError> {
        let bad = |key: &str, value: &str| BackendError::BadOption {
            backend: backend.into(),
            key: key.into(),
            value: value.into(),
            expected: match key {
                "gap" => "a relative gap: a number from 0, e.g. 0.01 for 1%".into(),
                _ => "an absolute gap: a whole number from 0".into(),
            },
        };
        let relative = match options.params.get("gap") {
            None => None,
            Some(v) => match v.parse::<f64>() {
                Ok(g) if g.is_finite() && g >= 0.0 => Some(g),
                _ => return Err(bad("gap", v)),
            },
        };
        let absolute = match options.params.get("abs-gap") {
            None => None,
            Some(v) => Some(v.parse::<u128>().map_err(|_| bad("abs-gap", v))?),
        };
        Ok(GapLimit { relative, absolute })
    }

    /// Whether any tolerance is set.
    pub fn is_set(&self) -> bool {
        self.relative.is_some() || self.absolute.is_some()
    }

    /// Whether the gap between `value` and `bound` is within a tolerance set. Exact for the
    /// absolute gap; the relative one compares `|v - b|` with `gap * max(1, |v|)` in floats.
    pub fn reached(&self, value: i128, bound: i128) -> bool {
        let diff = value.abs_diff(bound);
        let absolute = self.absolute.is_some_and(|a| diff <= a);
        let relative = self.relative.is_some_and(|g| {
            let (num, den) = crate::model::objective::Objective::gap_ratio(value, bound);
            num as f64 <= g * den as f64
        });
        absolute || relative
    }
}

/// A hint (`solve --hint FILE`, option `hint`): values for some or all of the model's
/// variables. A search that honours it tries the hinted values first at every choice, and a
/// complete hint that satisfies every row seeds branch and bound as its first incumbent (one
/// that breaks a row is never trusted: it only orders the choices). The option's text is
/// `ID=0|1` pairs separated by commas (e.g. `0=1,4=0,7=1`), over model variable ids.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hint {
    /// `(variable id, value)` pairs, in the order given, each variable at most once.
    pub values: Vec<(usize, bool)>,
}

impl Hint {
    /// The hint in option `hint` of `options` (`None` without one), for backend `backend`. A
    /// malformed pair or a variable given twice is [`BackendError::BadOption`]; ids are
    /// checked against a model by [`Hint::for_model`].
    pub fn from_options(
        backend: &str,
        options: &BackendOptions,
    ) -> Result<Option<Hint>, BackendError> {
        let Some(text) = options.params.get("hint") else {
            return Ok(None);
        };
        let bad = |why: String| BackendError::BadOption {
            backend: backend.into(),
            key: "hint".into(),
            value: text.chars().take(80).collect(),
            expected: format!("ID=0|1 pairs separated by commas ({why})"),
        };
        let mut values = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let parsed = pair.split_once('=').and_then(|(id, v)| {
                let value = match v.trim() {
                    "0" => false,
                    "1" => true,
                    _ => return None,
                };
                Some((id.trim().parse::<usize>().ok()?, value))
            });
            let (id, value) = parsed.ok_or_else(|| bad(format!("'{pair}' is not one")))?;
            if !seen.insert(id) {
                return Err(bad(format!("variable {id} is given twice")));
            }
            values.push((id, value));
        }
        Ok(Some(Hint { values }))
    }

    /// The option text of this hint (see the type's docs).
    pub fn to_param(&self) -> String {
        let pairs: Vec<String> = self
            .values
            .iter()
            .map(|&(v, x)| format!("{v}={}", u8::from(x)))
            .collect();
        pairs.join(",")
    }

    /// Per model variable of `model`: its hinted value, if any; `Err` naming the first id
    /// beyond the model's variables.
    pub fn for_model(&self, model: &crate::model::Model) -> Result<Vec<Option<bool>>, String> {
        let n = model.num_variables();
        let mut per_var = vec![None; n];
        for &(v, x) in &self.values {
            if v >= n {
                return Err(format!("the hint names variable {v}; the model has {n}"));
            }
            per_var[v] = Some(x);
        }
        Ok(per_var)
    }

    /// The hint as a solution of `model` when it gives every variable a value and satisfies
    /// every row (the shared verifier's check); otherwise `None`. Cost: one verifier pass.
    pub fn as_solution(&self, model: &crate::model::Model) -> Option<crate::model::Solution> {
        let per_var = self.for_model(model).ok()?;
        let bools: Option<Vec<bool>> = per_var.into_iter().collect();
        let solution = crate::model::Solution::from_bools(&bools?);
        crate::model::verify::Verifier::new(model)
            .check(&solution)
            .is_ok()
            .then_some(solution)
    }
}

/// The most points a [`Trace`] keeps (see the module docs for what is dropped).
pub const TRACE_LIMIT: usize = 256;

/// A bounded incumbent trace (see the module docs).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    points: Vec<TracePoint>,
    dropped: u64,
}

impl Trace {
    /// Adds a point when its value or bound differs from the last one's (true then). Cost:
    /// one push, and a thinning pass when full.
    pub fn note(&mut self, seconds: f64, value: Option<i128>, bound: Option<i128>) -> bool {
        if self
            .points
            .last()
            .is_some_and(|p| p.value == value && p.bound == bound)
        {
            return false;
        }
        if self.points.len() >= TRACE_LIMIT {
            let last = self.points.len() - 1;
            let before = self.points.len();
            let mut i = 0;
            self.points.retain(|_| {
                let keep = i == 0 || i == last || i % 2 == 0;
                i += 1;
                keep
            });
            self.dropped += (before - self.points.len()) as u64;
        }
        self.points.push(TracePoint {
            seconds,
            value,
            bound,
        });
        true
    }

    /// The points kept, oldest first.
    pub fn points(&self) -> &[TracePoint] {
        &self.points
    }

    /// How many points were dropped to keep the trace within [`TRACE_LIMIT`].
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Moves the trace into `stats` (`stats.trace`, and `extra.trace_dropped` when points
    /// were dropped), with every value mapped by `sign` (minimisation form to the objective's
    /// own sign).
    pub fn into_stats(self, stats: &mut crate::backend::Stats, sign: impl Fn(i128) -> i128) {
        if self.dropped > 0 {
            stats
                .extra
                .insert("trace_dropped".into(), self.dropped.into());
        }
        stats.trace = self
            .points
            .into_iter()
            .map(|p| TracePoint {
                value: p.value.map(&sign),
                bound: p.bound.map(&sign),
                ..p
            })
            .collect();
    }
}

/// A receiver of trace points (see [`with_progress`]).
pub type ProgressSink = std::rc::Rc<dyn Fn(&TracePoint)>;

thread_local! {
    /// The sink [`with_progress`] installed on this thread, if any.
    static PROGRESS: std::cell::RefCell<Option<ProgressSink>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with `sink` told every new trace point (incumbent or bound change, in the
/// objective's own sign) of an optimiser that `f` runs on this thread (`solve --progress`
/// prints them). The sink is called from inside the search: it should be quick. Backends
/// that keep no trace never call it. Cost: one thread-local look-up per trace point.
pub fn with_progress<R>(sink: ProgressSink, f: impl FnOnce() -> R) -> R {
    let before = PROGRESS.with(|p| p.replace(Some(sink)));
    let result = f();
    PROGRESS.with(|p| *p.borrow_mut() = before);
    result
}

/// Hands `point` to the sink of [`with_progress`] on this thread, if one is installed.
pub(crate) fn report_progress(point: &TracePoint) {
    let sink = PROGRESS.with(|p| p.borrow().clone());
    if let Some(sink) = sink {
        sink(point);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gap_limit_reads_its_options_and_compares_exactly() {
        let mut o = BackendOptions::default();
        assert!(!GapLimit::from_options("b", &o).unwrap().is_set());
        o.params.insert("gap".into(), "0.1".into());
        o.params.insert("abs-gap".into(), "3".into());
        let g = GapLimit::from_options("b", &o).unwrap();
        assert_eq!((g.relative, g.absolute), (Some(0.1), Some(3)));
        // |20 - 17| = 3 <= 3 (absolute).
        assert!(g.reached(20, 17));
        // |100 - 91| = 9 <= 0.1 * 100 (relative).
        assert!(g.reached(100, 91));
        assert!(!g.reached(100, 89));
        // Maximising: the bound is above the value.
        assert!(g.reached(-100, -91) && g.reached(91, 100));
        for bad in ["-1", "x", "inf", "NaN"] {
            o.params.insert("gap".into(), bad.into());
            assert!(GapLimit::from_options("b", &o).is_err(), "{bad}");
        }
        o.params.insert("gap".into(), "0".into());
        o.params.insert("abs-gap".into(), "1.5".into());
        assert!(GapLimit::from_options("b", &o).is_err());
    }

    #[test]
    fn the_trace_keeps_changes_only_and_stays_bounded() {
        let mut t = Trace::default();
        t.note(0.0, None, Some(1));
        t.note(0.1, None, Some(1));
        assert_eq!(t.points().len(), 1);
        for i in 0..1000 {
            t.note(i as f64, Some(1000 - i), Some(1));
        }
        assert!(t.points().len() <= TRACE_LIMIT);
        assert_eq!(t.points().len() as u64 + t.dropped(), 1001);
        // The first and the last event are kept, in order.
        assert_eq!(t.points()[0].value, None);
        assert_eq!(t.points().last().unwrap().value, Some(1));
        assert!(t.points().windows(2).all(|w| w[0].seconds <= w[1].seconds));
    }
}
