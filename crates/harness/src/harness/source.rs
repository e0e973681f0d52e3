//! Instance sources: puzzle and model files (in `models/` or the data sets in `data/`, in any
//! format [`crate::puzzle::parse`] reads, the 0-1 program formats of [`crate::read`] included),
//! every file of a folder whose name matches a glob, and built-in boards, with filters, a
//! seeded sample or the first few.
//!
//! Instance ids are stable whatever the filters and sampling: `{file stem}#{index}` with the
//! 0-based position of the puzzle in its file, `{generator}-{size}` for built-in boards, and for
//! a folder `{file name}` (a file of one puzzle or model, or one that does not read) or
//! `{file name}#{index}`. Records are keyed by these ids, so a resumed or sharded run finds its
//! own rows again.
//!
//! A file given alone that does not read is bad input: the experiment runs nothing. A file of a
//! folder that does not read is one instance holding its located error, which the runner records
//! as that instance's `error` rows, so one malformed file among many costs its own rows only.
//!
//! Cost: a source reads its whole file (or every file of its folder) once (the largest set in
//! `data/`, 49 158 Sudoku lines, takes well under a second); models are built later, by the
//! runner, one per instance.

use std::path::{Path, PathBuf};

use rand::seq::index::sample;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::harness::listing::{holds_a_model, InstanceSpec, SpecOrigin};
use crate::harness::HarnessError;
use crate::puzzle::kind::Builtin;
use crate::puzzle::kinds::KINDS;
use crate::puzzle::Puzzle;

/// Built-in boards that need no file: a family offered by a puzzle kind
/// ([`crate::puzzle::kind::Kind::builtins`]: `hex`, `queens-bare`, `sudoku-empty`).
#[derive(Debug, Clone, Copy)]
pub struct BuiltinFamily(&'static Builtin);

impl PartialEq for BuiltinFamily {
    fn eq(&self, other: &BuiltinFamily) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for BuiltinFamily {}

impl BuiltinFamily {
    fn all() -> impl Iterator<Item = &'static Builtin> {
        KINDS.iter().flat_map(|k| k.builtins().iter())
    }

    /// The names `generate = ...` takes, in registry order.
    pub fn names() -> Vec<&'static str> {
        BuiltinFamily::all().map(|b| b.name).collect()
    }

    /// The family called `name`.
    pub fn from_name(name: &str) -> Option<BuiltinFamily> {
        BuiltinFamily::all()
            .find(|b| b.name == name)
            .map(BuiltinFamily)
    }

    /// The family's name.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// Whether `size` makes a board of this family.
    pub fn accepts(self, size: usize) -> bool {
        (self.0.accepts)(size)
    }

    /// The sizes accepted, in words, for error messages.
    pub fn valid_sizes(self) -> &'static str {
        self.0.valid_sizes
    }

    /// The board of this family with `size`.
    pub fn board(self, size: usize) -> Option<Puzzle> {
        (self.0.board)(size)
    }
}

/// Where the puzzles of a source come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Origin {
    /// A puzzle file (resolved path).
    File(PathBuf),
    /// Every regular file of a folder whose name matches `glob`, in name order.
    Folder {
        /// The folder (resolved path).
        dir: PathBuf,
        /// The pattern file names must match (see [`glob_matches`]).
        glob: String,
    },
    /// Built-in boards of the listed sizes.
    Builtin {
        /// Which boards.
        family: BuiltinFamily,
        /// Their sizes, in order.
        sizes: Vec<usize>,
    },
    /// `count` random Sudoku of box size `box_size` with `clues` clues each, from `seed`
    /// (`generate = "sudoku-random"`).
    RandomSudoku {
        /// Box size (3 for 9x9).
        box_size: usize,
        /// Clues kept per puzzle.
        clues: usize,
        /// Puzzles made.
        count: usize,
        /// Seed of the generator.
        seed: u64,
    },
}

/// Which puzzles of a file to keep.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Keep only puzzles whose file states a solution (for the Queens community levels: the
    /// ones with a unique solution).
    pub known_solution: bool,
    /// Keep only these sizes (Queens `n`, Sudoku `n`, hex width, generic: variables).
    pub sizes: Option<Vec<usize>>,
}

/// One instance source of an experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// File or built-in boards.
    pub origin: Origin,
    /// Which puzzles to keep.
    pub filter: Filter,
    /// Keep a seeded random sample of this many (in file order), after filtering.
    pub sample: Option<usize>,
    /// The sample's seed.
    pub seed: u64,
    /// Keep the first this many, after filtering.
    pub first: Option<usize>,
}

/// One puzzle to run, with its stable id.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// `{file stem}#{index}`, `{generator}-{size}`, or in a folder `{file name}` or
    /// `{file name}#{index}`.
    pub id: String,
    /// The source it came from, for per-source tables: the file stem, the folder and its glob
    /// (`pb/*.opb`), or the generator with its settings.
    pub group: String,
    /// The name of the file the puzzle was read from (without its folder); `None` for
    /// generated boards.
    pub file: Option<String>,
    /// The puzzle, or the located error of a file of a folder that does not read (`FILE:LINE:
    /// COL: expected ..., found ...`).
    pub puzzle: Result<Puzzle, String>,
    /// Set when the instances were listed for a run under a memory limit
    /// ([`list_instances`]): where a worker builds this instance's model. A file of a 0-1
    /// program or generic model is then not read here at all: `puzzle` is
    /// `Err(`[`NOT_READ_HERE`]`)`.
    pub spec: Option<InstanceSpec>,
}

/// The `puzzle` of a listed instance whose file this process did not read.
pub const NOT_READ_HERE: &str = "not read in this process: a worker builds its model";

impl Instance {
    /// The size the `sizes` filter looks at; `None` for a file that does not read.
    pub fn size(&self) -> Option<usize> {
        self.puzzle.as_ref().ok().map(Puzzle::size)
    }

    /// Whether this process did not read the instance's file ([`NOT_READ_HERE`]).
    pub fn is_unread(&self) -> bool {
        matches!(&self.puzzle, Err(e) if e == NOT_READ_HERE)
    }
}

/// Whether the `known_solution` filter keeps `inst`: a puzzle stating its solution, or a file
/// that does not read (its error must reach the records).
fn keeps_for_solution(inst: &Instance) -> bool {
    inst.puzzle.as_ref().map_or(true, Puzzle::states_solution)
}

/// Whether the file name `name` matches `pattern`: `*` stands for any run of characters, `?`
/// for one, everything else for itself. A name starting with `.` matches only a pattern that
/// starts with `.` (hidden files stay out of `*`). Cost: O(pattern x name) at worst.
pub fn glob_matches(pattern: &str, name: &str) -> bool {
    if name.starts_with('.') && !pattern.starts_with('.') {
        return false;
    }
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // Greedy matching with one backtrack point: the last `*` and where it started matching.
    let (mut i, mut j, mut star) = (0, 0, None);
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// The regular files of `dir` whose names match `glob`, sorted by name. Errors name the folder.
pub fn folder_files(dir: &Path, glob: &str) -> Result<Vec<PathBuf>, HarnessError> {
    let unreadable =
        |e: std::io::Error| HarnessError::Source(format!("{}: cannot list: {e}", dir.display()));
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(unreadable)? {
        let entry = entry.map_err(unreadable)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if glob_matches(glob, &name) && entry.path().is_file() {
            files.push((name, entry.path()));
        }
    }
    files.sort();
    Ok(files.into_iter().map(|(_, p)| p).collect())
}

/// The group of a folder source's instances: `FOLDER/GLOB` (the folder's own name).
fn folder_group(dir: &Path, glob: &str) -> String {
    let folder = dir.file_name().map_or_else(
        || dir.display().to_string(),
        |d| d.to_string_lossy().into_owned(),
    );
    format!("{folder}/{glob}")
}

/// The spec of puzzle `index` of `path`, instance `id`, for a run under `memory_mb`.
fn file_spec(id: &str, path: &Path, index: usize, memory_mb: u64) -> InstanceSpec {
    InstanceSpec {
        id: id.to_string(),
        origin: SpecOrigin::File {
            path: path.to_path_buf(),
            index,
        },
        memory_limit_mb: memory_mb,
        alone: false,
    }
}

/// The instances of the files of `dir` matching `glob` (see the module docs for ids); a file
/// that does not read is one instance holding its error. With `listing` (a memory limit, in
/// MB) a file of a model is not read, and every instance has its [`Instance::spec`].
fn folder_instances(
    dir: &Path,
    glob: &str,
    listing: Option<u64>,
) -> Result<Vec<Instance>, HarnessError> {
    let group = folder_group(dir, glob);
    let mut out = Vec::new();
    for path in folder_files(dir, glob)? {
        let name = path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let instance = |id: String, puzzle| Instance {
            id,
            group: group.clone(),
            file: Some(name.clone()),
            puzzle,
            spec: None,
        };
        if let (Some(mb), true) = (listing, holds_a_model(&path)) {
            let spec = file_spec(&name, &path, 0, mb);
            out.push(Instance {
                spec: Some(spec),
                ..instance(name.clone(), Err(NOT_READ_HERE.into()))
            });
            continue;
        }
        let indexed = |i: usize, id: String, p| Instance {
            spec: listing.map(|mb| file_spec(&id, &path, i, mb)),
            ..instance(id, p)
        };
        match read_puzzles(&path) {
            Ok(puzzles) if puzzles.len() == 1 => {
                out.extend((puzzles.into_iter()).map(|p| indexed(0, name.clone(), Ok(p))))
            }
            Ok(puzzles) => out.extend(
                (puzzles.into_iter().enumerate())
                    .map(|(i, p)| indexed(i, format!("{name}#{i}"), Ok(p))),
            ),
            // A file that does not read is recorded as such; no worker needs it.
            Err(e) => out.push(instance(name.clone(), Err(e.to_string()))),
        }
    }
    Ok(out)
}

/// Reads every puzzle of `path` with the shared parser (format from the extension; `.txt` is
/// Sudoku lines or Queens blocks, by its first line). Errors name file, puzzle, line, column.
pub(crate) fn read_puzzles(path: &Path) -> Result<Vec<Puzzle>, HarnessError> {
    crate::puzzle::parse::load(path).map_err(|e| HarnessError::Source(e.to_string()))
}

impl Source {
    /// The instances of this source, in file (or size) order.
    pub fn instances(&self) -> Result<Vec<Instance>, HarnessError> {
        self.instances_listed(None)
    }

    /// [`Source::instances`], or with `listing` (a run's memory limit, in MB) the instances
    /// as [`list_instances`] gives them: each with its [`Instance::spec`], and a file of a
    /// model not read. A filter on sizes or known solutions, which needs the models, is then
    /// refused for such a file.
    fn instances_listed(&self, listing: Option<u64>) -> Result<Vec<Instance>, HarnessError> {
        let all: Vec<Instance> = match &self.origin {
            Origin::Builtin { family, sizes } => sizes
                .iter()
                .filter_map(|&n| {
                    family.board(n).map(|puzzle| Instance {
                        id: format!("{}-{n}", family.name()),
                        group: format!("generate {}", family.name()),
                        file: None,
                        puzzle: Ok(puzzle),
                        spec: listing.map(|mb| InstanceSpec {
                            id: format!("{}-{n}", family.name()),
                            origin: SpecOrigin::Builtin {
                                family: family.name().to_string(),
                                size: n,
                            },
                            memory_limit_mb: mb,
                            alone: false,
                        }),
                    })
                })
                .collect(),
            Origin::RandomSudoku {
                box_size,
                clues,
                count,
                seed,
            } => {
                // The shared seeded generator; puzzle i has its own stream, so any one
                // instance can be regenerated alone.
                (0..*count)
                    .map(|i| Instance {
                        id: format!("sudoku-random-b{box_size}-c{clues}-s{seed}#{i}"),
                        group: format!("sudoku-random {clues} clues, seed {seed}"),
                        file: None,
                        puzzle: Ok(Puzzle::of(
                            crate::puzzle::kinds::sudoku::generate::generate(
                                *box_size, *clues, *seed, i as u64,
                            )
                            .puzzle,
                        )),
                        spec: listing.map(|mb| InstanceSpec {
                            id: format!("sudoku-random-b{box_size}-c{clues}-s{seed}#{i}"),
                            origin: SpecOrigin::RandomSudoku {
                                box_size: *box_size,
                                clues: *clues,
                                seed: *seed,
                                index: i as u64,
                            },
                            memory_limit_mb: mb,
                            alone: false,
                        }),
                    })
                    .collect()
            }
            Origin::File(path) => {
                let stem = file_group(path);
                let name = path.file_name().map(|s| s.to_string_lossy().into_owned());
                let instance = |i: usize, puzzle| Instance {
                    id: format!("{stem}#{i}"),
                    group: stem.clone(),
                    file: name.clone(),
                    puzzle,
                    spec: listing.map(|mb| file_spec(&format!("{stem}#{i}"), path, i, mb)),
                };
                if let (Some(_), true) = (listing, holds_a_model(path)) {
                    let mut alone = instance(0, Err(NOT_READ_HERE.into()));
                    if let Some(spec) = &mut alone.spec {
                        spec.alone = true;
                    }
                    return self.filtered(vec![alone]);
                }
                (read_puzzles(path)?.into_iter().enumerate())
                    .map(|(i, puzzle)| instance(i, Ok(puzzle)))
                    .collect()
            }
            Origin::Folder { dir, glob } => folder_instances(dir, glob, listing)?,
        };
        self.filtered(all)
    }

    /// `all` after this source's filters, first-n and sample. A file this process did not read
    /// ([`NOT_READ_HERE`]) cannot be filtered by size or known solution: refused.
    fn filtered(&self, all: Vec<Instance>) -> Result<Vec<Instance>, HarnessError> {
        let filters = self.filter.sizes.is_some() || self.filter.known_solution;
        if let Some(unread) = (all.iter()).find(|i| filters && i.is_unread()) {
            return Err(HarnessError::Source(format!(
                "{}: a filter on sizes or known solutions needs its model built, and under a memory limit this process builds none (the workers do): drop the filter or the limit",
                unread.file.as_deref().unwrap_or(&unread.id)
            )));
        }
        let mut kept: Vec<Instance> = all
            .into_iter()
            .filter(|inst| !self.filter.known_solution || keeps_for_solution(inst))
            .filter(|inst| match (&self.filter.sizes, inst.size()) {
                (Some(sizes), Some(size)) => sizes.contains(&size),
                _ => true,
            })
            .collect();
        if let Some(n) = self.first {
            kept.truncate(n);
        }
        if let Some(n) = self.sample {
            if n < kept.len() {
                let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
                let mut chosen = sample(&mut rng, kept.len(), n).into_vec();
                chosen.sort_unstable();
                let mut slots: Vec<Option<Instance>> = kept.into_iter().map(Some).collect();
                kept = chosen.into_iter().filter_map(|i| slots[i].take()).collect();
            }
        }
        Ok(kept)
    }
}

/// The group of a file's instances: its stem.
fn file_group(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What the sizes of one source's instances are: the family whose sizes can share an axis
/// (the puzzle kind's name; for generic models the source's name without a trailing `-N`, so
/// `knapsack-20` and `knapsack-30` join but a knapsack never joins a set cover) and what the
/// size measures ([`crate::puzzle::kind::Kind::size_axis`]; `model variables` for generic
/// models).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeFamily {
    /// The source group the records carry.
    pub group: String,
    /// The family's name.
    pub family: String,
    /// What its sizes measure, as an axis label.
    pub axis: String,
}

impl SizeFamily {
    /// The family of a group no source describes (records of another experiment file): its
    /// name without a trailing `-N`, sizes unexplained.
    pub fn unknown(group: &str) -> SizeFamily {
        SizeFamily {
            group: group.to_string(),
            family: family_stem(group),
            axis: "puzzle size".into(),
        }
    }
}

/// `name` without a trailing `-N` (`knapsack-20` -> `knapsack`).
fn family_stem(name: &str) -> String {
    match name.rsplit_once('-') {
        Some((stem, n)) if !stem.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            stem.to_string()
        }
        _ => name.to_string(),
    }
}

impl Source {
    /// The [`SizeFamily`] of this source's instances, without reading its puzzles (a file's
    /// format comes from its name, a `.txt` file's from its first 4 KiB). Cost: at most one
    /// short read.
    pub fn size_family(&self) -> SizeFamily {
        let (group, kind) = match &self.origin {
            Origin::Builtin { family, .. } => (
                format!("generate {}", family.name()),
                KINDS
                    .iter()
                    .find(|k| k.builtins().iter().any(|b| b.name == family.name()))
                    .copied(),
            ),
            Origin::RandomSudoku { clues, seed, .. } => (
                format!("sudoku-random {clues} clues, seed {seed}"),
                crate::puzzle::kinds::by_name("sudoku"),
            ),
            Origin::File(path) => {
                let mut head = Vec::new();
                if let Ok(f) = std::fs::File::open(path) {
                    use std::io::Read;
                    let _ = f.take(4096).read_to_end(&mut head);
                }
                let text = String::from_utf8_lossy(&head);
                let format = crate::puzzle::parse::format_of(path, &text);
                (file_group(path), format.and_then(|f| f.kind()))
            }
            // A folder holds files of any format: the generic models' axis (its files' kinds
            // may differ, so none is assumed).
            Origin::Folder { dir, glob } => (folder_group(dir, glob), None),
        };
        match kind {
            Some(k) => SizeFamily {
                family: k.name().to_string(),
                axis: k.size_axis().to_string(),
                group,
            },
            None => SizeFamily {
                family: family_stem(&group),
                axis: "model variables".into(),
                group,
            },
        }
    }
}

/// The instances of all `sources`, in order. Two sources yielding the same id is an error (the
/// records could not tell their runs apart).
pub fn load_instances(sources: &[Source]) -> Result<Vec<Instance>, HarnessError> {
    collect_instances(sources, None)
}

/// The instances of a run: [`load_instances`] without a memory limit; under one (in MB),
/// listed for workers that build their models themselves (see [`crate::harness::listing`]):
/// every instance has its [`Instance::spec`], and a file of a 0-1 program or generic model is
/// not read here at all (its instance holds [`NOT_READ_HERE`]; the worker reads it within the
/// limit). Boards are read, as without a limit, for their ids; their models are not built.
/// Ids are the same either way. Cost: reading the files of boards, opening no file of a model.
pub fn list_instances(
    sources: &[Source],
    memory_limit_mb: Option<u64>,
) -> Result<Vec<Instance>, HarnessError> {
    collect_instances(sources, memory_limit_mb)
}

fn collect_instances(
    sources: &[Source],
    listing: Option<u64>,
) -> Result<Vec<Instance>, HarnessError> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for s in sources {
        for inst in s.instances_listed(listing)? {
            if !seen.insert(inst.id.clone()) {
                return Err(HarnessError::Source(format!(
                    "instance '{}' comes from two sources; each puzzle may be listed once",
                    inst.id
                )));
            }
            out.push(inst);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seeded_sample_is_stable_and_in_file_order() {
        let src = Source {
            origin: Origin::Builtin {
                family: BuiltinFamily::from_name("queens-bare").unwrap(),
                sizes: (1..=20).collect(),
            },
            filter: Filter::default(),
            sample: Some(5),
            seed: 42,
            first: None,
        };
        let a: Vec<String> = src.instances().unwrap().into_iter().map(|i| i.id).collect();
        let b: Vec<String> = src.instances().unwrap().into_iter().map(|i| i.id).collect();
        assert_eq!(a, b);
        assert_eq!(a.len(), 5);
        let sizes: Vec<usize> = a
            .iter()
            .map(|id| id.trim_start_matches("queens-bare-").parse().unwrap())
            .collect();
        assert!(sizes.windows(2).all(|w| w[0] < w[1]), "{sizes:?}");
        let other = Source { seed: 43, ..src };
        let c: Vec<String> = other
            .instances()
            .unwrap()
            .into_iter()
            .map(|i| i.id)
            .collect();
        assert_ne!(a, c, "another seed should pick another sample");
    }

    #[test]
    fn random_sudoku_sources_are_seeded() {
        let src = |seed| Source {
            origin: Origin::RandomSudoku {
                box_size: 3,
                clues: 33,
                count: 4,
                seed,
            },
            filter: Filter::default(),
            sample: None,
            seed: 0,
            first: None,
        };
        let a = src(5).instances().unwrap();
        assert_eq!(a.len(), 4);
        assert_eq!(a[3].id, "sudoku-random-b3-c33-s5#3");
        assert!(a.iter().all(|i| i
            .puzzle
            .as_ref()
            .ok()
            .and_then(|p| p.board_as::<crate::puzzle::Sudoku>())
            .is_some_and(|s| s.clues() == 33)));
        assert_eq!(a, src(5).instances().unwrap());
        assert_ne!(a[0].puzzle, src(6).instances().unwrap()[0].puzzle);
    }

    #[test]
    fn a_bad_sudoku_line_is_located() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.txt");
        std::fs::write(&p, "1234341221434321\n12343412214x4321\n").unwrap();
        let src = Source {
            origin: Origin::File(p),
            filter: Filter::default(),
            sample: None,
            seed: 0,
            first: None,
        };
        let e = src.instances().unwrap_err().to_string();
        assert!(e.contains("s.txt:2:12: "), "{e}");
    }

    #[test]
    fn globs_match_stars_and_question_marks_and_leave_hidden_files_out() {
        for (pattern, name, expected) in [
            ("*.opb", "a.opb", true),
            ("*.opb", "a.opb.gz", false),
            ("*.opb*", "a.opb.gz", true),
            ("php-?.cnf", "php-5.cnf", true),
            ("php-?.cnf", "php-10.cnf", false),
            ("*", "README.md", true),
            ("*", ".hidden", false),
            (".*", ".hidden", true),
            ("a*b*c", "axxbyyc", true),
            ("a*b*c", "axxbyy", false),
            ("", "", true),
            ("x", "", false),
        ] {
            assert_eq!(glob_matches(pattern, name), expected, "{pattern} {name}");
        }
    }

    #[test]
    fn a_folder_gives_its_matching_files_in_name_order_and_a_bad_file_its_error() {
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write("b.cnf", "p cnf 2 1\n1 -2 0\n");
        write("a.opb", "+1 x1 +1 x2 >= 1 ;\n");
        write("c.cnf", "p cnf 2 1\n1 3 0\n");
        write("notes.txt", "not a model\n");
        std::fs::create_dir(dir.path().join("sub.cnf")).unwrap();
        let src = |glob: &str| Source {
            origin: Origin::Folder {
                dir: dir.path().to_path_buf(),
                glob: glob.into(),
            },
            filter: Filter::default(),
            sample: None,
            seed: 0,
            first: None,
        };
        let all = src("*.*").instances().unwrap();
        let ids: Vec<&str> = all.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(ids, ["a.opb", "b.cnf", "c.cnf", "notes.txt"]);
        let folder = dir
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert_eq!(all[1].group, format!("{folder}/*.*"));
        assert_eq!(all[1].file.as_deref(), Some("b.cnf"));
        let model = all[1].puzzle.as_ref().unwrap().to_model("b").unwrap();
        assert_eq!(model.own_variables(), 2);
        // The malformed clause is located in its own instance; the others read.
        let e = all[2].puzzle.as_ref().unwrap_err();
        assert!(e.contains("c.cnf:2:3: expected"), "{e}");
        assert!(all[3].puzzle.is_err());
        let cnf = src("*.cnf").instances().unwrap();
        assert_eq!(cnf.len(), 2, "the sub-folder sub.cnf is not a file");
        // A sizes filter keeps the file that does not read: its error must be recorded.
        let sized = Source {
            filter: Filter {
                sizes: Some(vec![99]),
                known_solution: true,
            },
            ..src("*.cnf")
        };
        let kept: Vec<String> = sized
            .instances()
            .unwrap()
            .into_iter()
            .map(|i| i.id)
            .collect();
        assert_eq!(kept, ["c.cnf"]);
    }
}
