//! The experiment file: what to run, on what, how often, and what to write.
//!
//! An experiment is a TOML file read with `deny_unknown_fields`: a misspelt key is an error
//! naming its line and column, never silently ignored. Every check that can fail before a run
//! (unknown backend, bad option, missing file, unknown baseline) is done by [`Experiment::load`],
//! so a malformed file runs nothing and writes nothing.
//!
//! ```toml
//! title = "Brute force"     # the figures' title (default: the file name)
//! description = "brute force on tiny boards"
//! kind = "solve"            # "solve" (default), "count" or "table"
//! repetitions = 1           # runs of each (instance, backend) pair
//! time_limit = 10           # seconds per run: the backend stops itself, or its worker is killed
//! memory_limit = 2000       # MB of address space per run (its worker process); beyond: memout
//! count_limit = 2           # "count": stop counting after this many solutions
//! certify = true            # proofs of the answers, checked (backends that log proofs)
//! baseline = "brute"        # label the ratios are taken against
//! outputs = ["markdown", "csv", "time-plot"]
//!
//! [[instances]]
//! file = "../models/sudoku4.txt"        # relative to this file
//! # data = "sudoku/norvig_top95.txt"    # relative to the data folder (data/)
//! # dir = "../data/pb", glob = "*.opb"  # every matching file of a folder (relative to this
//! #                                     # file), in name order; `*` and `?` in the glob
//! # data = "cnf", glob = "*.cnf"        # a folder of the data folder
//! #   (a file of a folder that does not read is that instance's `error` rows; the run goes on)
//! # generate = "queens-bare", sizes = [4, 5, 6]   (also "hex", "sudoku-empty")
//! # generate = "sudoku-random", clues = 26, count = 500, seed = 1   (box size 3 unless sizes = [b])
//! sample = 100                          # seeded sample of this many (after filters)
//! seed = 1
//! first = 10                            # or: the first this many
//! known_solution = true                 # only puzzles whose file states a solution
//! sizes = [7, 8]                        # only these sizes (Queens n, Sudoku n, hex width)
//!
//! peers = ["cp-sat"]       # labels filled in by experiments/peers/peers.py, not run here
//!
//! [[backends]]
//! name = "brute"            # registry name
//! label = "brute"           # name in records and reports (default: the name)
//! seed = 0
//! params = { key = "value" }
//! sweep = { dim = [64, 128], seed = [1, 2] }  # one configuration per combination, labelled
//!                                             # "brute dim=64 seed=1" and so on
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::backend::{make_backend, BackendOptions};
use crate::harness::source::Source;
use crate::harness::HarnessError;
use crate::puzzle::table::{Settings, SweptTable};

mod checks;
mod schema;

pub use schema::MAX_EXPERIMENT_BYTES;

/// What an experiment does with each instance.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExperimentKind {
    /// Look for one solution per (instance, backend) pair.
    #[default]
    Solve,
    /// Count solutions (up to `count_limit`).
    Count,
    /// The search-space table: exact counts against board size (see [`TableSpec`]).
    Table,
}

/// What one run asks a backend for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Task {
    /// `Solver::solve`, verified.
    Solve,
    /// `Counter::count`, every witness verified.
    Count,
}

impl Task {
    /// The lower-case name used in records.
    pub fn name(self) -> &'static str {
        match self {
            Task::Solve => "solve",
            Task::Count => "count",
        }
    }
}

/// Which report files to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Output {
    /// `reports/NAME.md`: per-backend table, header with machine, commit and command.
    Markdown,
    /// `reports/NAME.csv`: one row per run.
    Csv,
    /// The run's time figures (log scale): `reports/NAME.cactus.svg` (or one
    /// `NAME.cactus-SOURCE.svg` per large source and `NAME.cactus-small-sources.svg`), and
    /// where the records allow them `NAME.scatter.svg`, `NAME.integral.svg` and
    /// `NAME.size-time.svg` (see [`crate::harness::report`]'s figure list). Table experiments
    /// write none.
    TimePlot,
    /// `reports/NAME.size.svg`: search-space size against board size (table experiments).
    SizePlot,
}

/// One backend configuration: a registry name with options, under a label.
#[derive(Debug, Clone, PartialEq)]
pub struct BackendConfig {
    /// Name in records and reports; unique within the experiment.
    pub label: String,
    /// Registry name handed to [`make_backend`].
    pub name: String,
    /// Options (seed, params, the experiment's time limit).
    pub options: BackendOptions,
    /// What this configuration is asked for.
    pub task: Task,
}

/// The search-space table experiment: exact counts of placements against board size, one
/// sweep per kind whose table the `[table]` section names by its own keys (`hex_widths`,
/// `queens_sizes`, ...), in the order of the kind registry.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TableSpec {
    /// The kinds' sweeps, in registry order.
    pub sweeps: Vec<Sweep>,
}

/// One kind's table in a table experiment: the sizes listed under its key, the sizes to
/// mark, and, for a table with a sharded count, the shards per size and their settings.
#[derive(Clone)]
pub struct Sweep {
    /// The kind's name in the registry.
    pub kind: &'static str,
    /// The kind's table, as it is swept.
    pub table: &'static dyn SweptTable,
    /// Sizes to count (`hex_widths = [...]`), one record each (or one per shard and one of
    /// the other levels).
    pub sizes: Vec<usize>,
    /// Sizes whose rows the report marks (`mark_hex_widths`, for a kind that marks).
    pub marks: Vec<usize>,
    /// Split each size's sharded count into this many shards (`hex_parts`; a kind with a
    /// [`ShardedSweep`](crate::puzzle::table::ShardedSweep)); absent or 1: one record per size.
    pub parts: Option<usize>,
    /// The sharded count's settings by key (`row_order`, `streamed_rows`), checked by the kind.
    pub settings: Settings,
}

impl Sweep {
    /// The number of shards per size when the count is split (more than one), else `None`.
    pub fn split(&self) -> Option<usize> {
        self.parts
            .filter(|&k| k > 1 && self.table.sharded().is_some())
    }
}

impl std::fmt::Debug for Sweep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sweep")
            .field("kind", &self.kind)
            .field("sizes", &self.sizes)
            .field("marks", &self.marks)
            .field("parts", &self.parts)
            .field("settings", &self.settings)
            .finish()
    }
}

impl PartialEq for Sweep {
    fn eq(&self, other: &Sweep) -> bool {
        (
            self.kind,
            &self.sizes,
            &self.marks,
            self.parts,
            &self.settings,
        ) == (
            other.kind,
            &other.sizes,
            &other.marks,
            other.parts,
            &other.settings,
        )
    }
}

/// A loaded and checked experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    /// The experiment's name: the file stem; it names the report files.
    pub name: String,
    /// The experiment file.
    pub path: PathBuf,
    /// A short title for the report's figures (`title = "..."`); absent: the name is used.
    pub title: Option<String>,
    /// One paragraph for the report.
    pub description: String,
    /// Solve, count or table.
    pub kind: ExperimentKind,
    /// Runs of each (instance, backend) pair.
    pub repetitions: u32,
    /// Per-run wall-clock limit, handed to backends that stop themselves (`BackendInfo::uses_time_limit`) and enforced
    /// on every run by killing its worker after the limit and a grace.
    pub time_limit: Option<Duration>,
    /// Per-run memory limit in MB (the address space of the run's worker process).
    pub memory_limit: Option<u64>,
    /// For counting: stop after this many solutions.
    pub count_limit: Option<u64>,
    /// `certify = true`: every run of a backend that logs proofs writes its proof beside the
    /// records (`NAME.proofs/`) and the checker (`veripb`) checks it; the record says
    /// `certificate` (see [`crate::harness::certify`]). Costs the logging during the run and
    /// the check after it (often slower than the run).
    pub certify: bool,
    /// The label ratios are taken against.
    pub baseline: Option<String>,
    /// Where instances come from, in order.
    pub sources: Vec<Source>,
    /// Backend configurations, in order.
    pub backends: Vec<BackendConfig>,
    /// Report files to write.
    pub outputs: BTreeSet<Output>,
    /// The table to compute (`kind = "table"`).
    pub table: Option<TableSpec>,
    /// Labels of peer solvers whose records an outside script writes (`experiments/peers/`):
    /// `zeroone run` does not run them; `zeroone merge` accepts their records and the reports
    /// show them beside the backends.
    pub peers: Vec<String>,
    /// The folder of its records and reports: `reports_dir` of the file, relative to the file
    /// (default `reports`, beside it), so `zeroone run PATH` finds them wherever it is run
    /// from; `--reports` overrides it. The shipped experiments say `"../reports"`.
    pub reports_dir: PathBuf,
}

impl Experiment {
    /// Every label the reports show, with its registry name (`peer` for peers): the backends
    /// in order, then the peers.
    pub fn labels(&self) -> Vec<(String, String)> {
        self.backends
            .iter()
            .map(|b| (b.label.clone(), b.name.clone()))
            .chain(self.peers.iter().map(|p| (p.clone(), "peer".to_string())))
            .collect()
    }
}

impl Experiment {
    /// The experiment that runs the peer `label` (one of `peers`, and a backend of this
    /// binary's registry, such as `highs` built with `--features highs`) on the same instances
    /// under the same limits and repetitions: its records go to `NAME.peer-LABEL.jsonl`, it
    /// writes no reports, and `zeroone merge` joins its records with the experiment's own.
    /// Cost: one backend made to check the name.
    pub fn as_peer_run(&self, label: &str) -> Result<Experiment, HarnessError> {
        let bad = |message: String| HarnessError::Experiment {
            file: self.path.clone(),
            location: "peers".into(),
            message,
        };
        if !self.peers.iter().any(|p| p == label) {
            return Err(bad(format!(
                "'{label}' is not one of this experiment's peers ({})",
                self.peers.join(", ")
            )));
        }
        let options = BackendOptions {
            time_limit: self.time_limit,
            seed: 0,
            params: BTreeMap::new(),
        };
        let mut backend = make_backend(label, &options)
            .map_err(|e| bad(format!("peer '{label}' cannot run in this binary: {e}")))?;
        if backend.solver().is_none() {
            return Err(bad(format!("peer '{label}' cannot solve")));
        }
        Ok(Experiment {
            name: format!("{}.peer-{label}", self.name),
            baseline: None,
            backends: vec![BackendConfig {
                label: label.to_string(),
                name: label.to_string(),
                options,
                task: Task::Solve,
            }],
            peers: Vec::new(),
            outputs: BTreeSet::new(),
            ..self.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::source::Origin;
    use std::path::Path;

    fn load(text: &str) -> Result<Experiment, HarnessError> {
        Experiment::from_text(Path::new("exp/test.toml"), text)
    }

    #[test]
    fn reports_dir_is_relative_to_the_experiment_file() {
        for (file, key, reports) in [
            ("experiments/quick.toml", Some("../reports"), "reports"),
            (
                "/repo/experiments/quick.toml",
                Some("../reports"),
                "/repo/reports",
            ),
            ("a/b/x.toml", None, "a/b/reports"),
            ("x.toml", None, "reports"),
            ("x.toml", Some("../out"), "../out"),
            ("../x.toml", Some("../r"), "../../r"),
        ] {
            let line = key.map_or(String::new(), |k| format!("reports_dir = \"{k}\"\n"));
            let text = format!("{line}[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\n");
            let e = Experiment::from_text(Path::new(file), &text).unwrap();
            assert_eq!(e.reports_dir, PathBuf::from(reports), "{file} {key:?}");
        }
    }

    #[test]
    fn a_misspelt_key_is_located_by_line_and_column() {
        let e = load("repetitions = 1\nrepetition = 2\n").unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("exp/test.toml:2:1: unknown field `repetition`"),
            "{text}"
        );
    }

    #[test]
    fn an_unknown_backend_is_located_at_its_name() {
        let e = load(
            "[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n\n[[backends]]\nname = \"nosuch\"\n",
        )
        .unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with("exp/test.toml:6:8: backends[0].name: unknown backend 'nosuch'"),
            "{text}"
        );
    }

    #[test]
    fn a_builtin_source_and_brute_load() {
        let e = load(
            "time_limit = 2\nbaseline = \"b\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [1, 3]\n\n[[backends]]\nname = \"sat\"\nlabel = \"b\"\nparams = { pairwise-up-to = 3 }\n",
        )
        .unwrap();
        assert_eq!(e.name, "test");
        assert_eq!(e.time_limit, Some(Duration::from_secs(2)));
        assert_eq!(e.backends[0].label, "b");
        assert_eq!(e.backends[0].options.params["pairwise-up-to"], "3");
        assert_eq!(e.baseline.as_deref(), Some("b"));
        assert_eq!(e.outputs.len(), 3);
    }

    #[test]
    fn a_baseline_that_is_no_label_is_an_error() {
        let e = load(
            "baseline = \"milp\"\n[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n[[backends]]\nname = \"brute\"\n",
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("exp/test.toml:1:12: baseline 'milp'"),
            "{e}"
        );
    }

    const ONE_SOURCE: &str = "[[instances]]\ngenerate = \"hex\"\nsizes = [1]\n";

    #[test]
    fn an_unknown_params_key_is_located_at_the_key() {
        let text = format!(
            "{ONE_SOURCE}[[backends]]\nname = \"milp\"\nparams = {{ relax = true, relaxx = true }}\n"
        );
        let e = load(&text).unwrap_err().to_string();
        assert!(
            e.starts_with("exp/test.toml:6:26: backends[0].params: backend 'milp' does not take option 'relaxx' (it takes: relax, presolve, time_limit)"),
            "{e}"
        );
        let table = format!(
            "{ONE_SOURCE}[[backends]]\nname = \"enum\"\n[backends.params]\nordr = \"mrv\"\n"
        );
        let e = load(&table).unwrap_err().to_string();
        assert!(
            e.starts_with(
                "exp/test.toml:7:1: backends[0].params: backend 'enum' does not take option 'ordr'"
            ),
            "{e}"
        );
    }

    #[test]
    fn numbers_out_of_range_are_located_errors() {
        let cases = [
            (
                "time_limit = 1e20\n",
                "1:14: time_limit: expected a positive number of seconds, at most 31536000",
            ),
            ("time_limit = 1e300\n", "1:14: time_limit"),
            ("time_limit = nan\n", "1:14: time_limit"),
            ("time_limit = -3\n", "1:14: time_limit"),
            (
                "repetitions = 100000\n",
                "1:15: repetitions: expected 1 to 1000",
            ),
            ("repetitions = 0\n", "1:15: repetitions"),
        ];
        for (head, wanted) in cases {
            let text = format!("{head}{ONE_SOURCE}[[backends]]\nname = \"bitset\"\n");
            let e = load(&text).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("exp/test.toml:{wanted}")),
                "{head}: {e}"
            );
        }
        let e = load("kind = \"table\"\n[table]\nhex_widths = [99999999999]\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("table.hex_widths: 99999999999: expected sizes from 0 to 1000"),
            "{e}"
        );
        let e = load("[[instances]]\ngenerate = \"sudoku-random\"\nclues = 30\ncount = 100000000000\n[[backends]]\nname = \"bitset\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("instances[0].count: expected 1 to 1000000"),
            "{e}"
        );
    }

    #[test]
    fn folder_sources_are_checked_with_located_errors() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("pb")).unwrap();
        std::fs::write(dir.path().join("pb/a.opb"), "+1 x1 >= 1 ;\n").unwrap();
        std::fs::write(dir.path().join("one.cnf"), "p cnf 1 1\n1 0\n").unwrap();
        let path = dir.path().join("exp.toml");
        let load = |source: &str| {
            let text = format!("{source}\n[[backends]]\nname = \"bitset\"\n");
            Experiment::from_text(&path, &text).map_err(|e| e.to_string())
        };
        let e = load("[[instances]]\ndir = \"pb\"\nglob = \"*.opb\"").unwrap();
        assert_eq!(
            e.sources[0].origin,
            Origin::Folder {
                dir: dir.path().join("pb"),
                glob: "*.opb".into()
            }
        );
        // A single file of a 0-1 program format is a file source like any other.
        let e = load("[[instances]]\nfile = \"one.cnf\"").unwrap();
        assert_eq!(
            e.sources[0].origin,
            Origin::File(dir.path().join("one.cnf"))
        );
        for (source, expected) in [
            ("[[instances]]\ndir = \"pb\"", "2:7: instances[0]: `dir` names a folder and needs a `glob`"),
            ("[[instances]]\ndir = \"pb\"\nglob = \"*.cnf\"", "3:8: instances[0].glob: no file of "),
            ("[[instances]]\ndir = \"nope\"\nglob = \"*\"", "2:7: instances[0].dir: expected a folder, found no such folder: nope"),
            ("[[instances]]\ndir = \"one.cnf\"\nglob = \"*\"", "2:7: instances[0].dir: expected a folder, found a file, not a folder"),
            ("[[instances]]\ndir = \"pb\"\nglob = \"../*\"", "3:8: instances[0].glob: expected a file-name pattern"),
            ("[[instances]]\nfile = \"one.cnf\"\nglob = \"*\"", "3:8: instances[0].glob: goes with `dir`"),
            ("[[instances]]\ndir = \"pb\"\nfile = \"one.cnf\"\nglob = \"*\"", "1:1: instances[0]: expected exactly one of `file`, `data`, `dir` or `generate`, found 2"),
        ] {
            let e = load(source).unwrap_err();
            assert!(e.contains(&format!("exp.toml:{expected}")), "{source:?}: {e}");
        }
    }

    #[test]
    fn a_file_that_is_not_utf8_is_a_located_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("latin1.toml");
        std::fs::write(&path, b"description = \"ok\"\n# caf\xe9\n").unwrap();
        let e = Experiment::load(&path).unwrap_err();
        assert!(e.is_bad_input(), "{e}");
        let text = e.to_string();
        assert!(
            text.ends_with(": not UTF-8 text (byte 0xe9); save the file as UTF-8"),
            "{text}"
        );
        assert!(text.contains("latin1.toml:2:6:"), "{text}");
    }

    #[test]
    fn a_byte_order_mark_is_whitespace() {
        let text = format!("\u{feff}{ONE_SOURCE}[[backends]]\nname = \"bitset\"\n");
        let e = load(&text).unwrap();
        assert_eq!(e.backends[0].name, "bitset");
        let bad = load("\u{feff}repetition = 2\n").unwrap_err().to_string();
        assert!(bad.starts_with("exp/test.toml:1:1: unknown field"), "{bad}");
    }

    #[test]
    fn a_sweep_makes_one_labelled_configuration_per_combination() {
        let e = load(
            "[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n[[backends]]\nname = \"vsa\"\nsweep = { code = [\"unitary\", \"gaussian\"], dim = [16, 64], seed = [1, 2] }\n",
        )
        .unwrap();
        assert_eq!(e.backends.len(), 8);
        let first = &e.backends[0];
        assert_eq!(first.label, "vsa code=unitary dim=16 seed=1");
        assert_eq!(first.options.seed, 1);
        assert_eq!(first.options.params["dim"], "16");
        assert_eq!(e.backends[7].label, "vsa code=gaussian dim=64 seed=2");
        // A bad seed in a sweep is located, never silently dropped.
        let bad = load(
            "[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n[[backends]]\nname = \"vsa\"\nsweep = { seed = [\"x\"] }\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            bad.contains("sweep.seed: 'x' is not a whole number"),
            "{bad}"
        );
        let empty = load(
            "[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n[[backends]]\nname = \"vsa\"\nsweep = { dim = [] }\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            empty.contains("sweep.dim: expected a non-empty list"),
            "{empty}"
        );
    }

    #[test]
    fn a_peer_run_takes_only_a_listed_peer_the_binary_has() {
        let e = load(
            "time_limit = 3\nrepetitions = 2\npeers = [\"bitset\", \"cp-sat\"]\nbaseline = \"brute\"\n[[instances]]\ngenerate = \"queens-bare\"\nsizes = [4]\n[[backends]]\nname = \"brute\"\n",
        );
        // Any registry backend can stand in for a peer built into the binary (as `highs` is).
        let e = e.unwrap();
        let peer = e.as_peer_run("bitset").unwrap();
        assert_eq!(peer.name, "test.peer-bitset");
        assert_eq!(peer.backends.len(), 1);
        assert_eq!(peer.backends[0].label, "bitset");
        assert_eq!(peer.time_limit, e.time_limit);
        assert_eq!(peer.repetitions, 2);
        assert!(peer.outputs.is_empty() && peer.peers.is_empty());
        let not_listed = e.as_peer_run("sat").unwrap_err().to_string();
        assert!(
            not_listed.contains("'sat' is not one of this experiment's peers"),
            "{not_listed}"
        );
        let not_built = e.as_peer_run("cp-sat").unwrap_err().to_string();
        assert!(
            not_built.contains("peer 'cp-sat' cannot run in this binary"),
            "{not_built}"
        );
    }
}
