//! A kind is its folder plus one registry line: a toy kind defined here, in the test, with a
//! generator, is found by the registry look-ups and run by the `generate` dispatch once it is
//! in the list of kinds passed to them, with no file of `src/` edited. The toy's generator is
//! built from the shared machinery (seeded draws, the confirming backends, the `# unique by:`
//! line), so the test also checks that a new kind needs nothing else.
//!
//! Its search-space table is swept by a table experiment under its own `[table]` key
//! (`toy_widths`), run and reported by the harness with no kind named there.
//!
//! The toy: a row of `width` cells of which all but one are walls (`x`); one piece goes in the
//! open cell (`o`). Its model: one "exactly one" row over the cells and an `= 0` row per wall.

use std::sync::Arc;

use num_bigint::BigUint;
use zeroone::backend::{Registry, Status};
use zeroone::harness::record::read_records;
use zeroone::harness::table_run::table_rows;
use zeroone::harness::{run_experiment, Experiment, RunOptions};

use zeroone::model::{Coord, Model, ModelBuilder, ModelError, PuzzleKind, Sense, Solution};
use zeroone::puzzle::generate::{
    below, board_rng, each_board, unique_by_line, Confirmer, GenerateError, Generator,
    GeneratorOption, OnBoard, Request, RunEnd, MAX_ATTEMPTS,
};
use zeroone::puzzle::kind::{Answer, Board, Kind, Reader};
use zeroone::puzzle::kinds::{
    by_name, by_name_in, generator_for, generator_options, generators, table_for, tables, KINDS,
};
use zeroone::puzzle::parse::{Locator, ParseError, ParseErrorKind};
use zeroone::puzzle::table::{
    Cell, Format, SpaceLevels, SpaceTable, SweptTable, Table, TableError, TableOptions,
    TableRequest,
};
use zeroone::puzzle::Puzzle;

/// The toy kind: its name (also its file extension) and its search-space table.
#[derive(Debug)]
struct ToyKind {
    name: &'static str,
    extensions: &'static [&'static str],
    table: ToyTable,
}

static TOY: ToyKind = ToyKind {
    name: "toy",
    extensions: &["toy"],
    table: ToyTable {
        group: "toy",
        sizes_key: "toy_widths",
    },
};

/// A toy board: its width and its open cell.
#[derive(Debug, Clone, PartialEq)]
struct ToyBoard {
    width: usize,
    open: usize,
}

impl ToyBoard {
    /// `x` for a wall, `o` for the open cell.
    fn text(&self) -> String {
        (0..self.width)
            .map(|c| if c == self.open { 'o' } else { 'x' })
            .collect()
    }

    fn read(line: &str) -> Option<ToyBoard> {
        let open = line.find('o')?;
        let ok = line.chars().filter(|&c| c == 'o').count() == 1
            && line.chars().all(|c| c == 'o' || c == 'x');
        ok.then_some(ToyBoard {
            width: line.len(),
            open,
        })
    }

    fn model(&self) -> Model {
        let mut b = ModelBuilder::new("toy", PuzzleKind::new("toy", &[("width", self.width)]));
        let cells: Vec<usize> = (0..self.width)
            .map(|c| b.variable(format!("c{c}"), Coord::Free))
            .collect();
        let row = b.family("row");
        b.row(row, cells.clone(), Sense::ExactlyOne);
        let wall = b.family("wall");
        for &c in cells.iter().filter(|&&c| c != self.open) {
            b.row(wall, vec![c], Sense::Exactly(0));
        }
        b.build().expect("a toy model")
    }
}

impl Board for ToyBoard {
    fn kind(&self) -> &'static dyn Kind {
        &TOY
    }
    fn to_model(&self, _name: String) -> Result<Model, ModelError> {
        Ok(self.model())
    }
    fn size(&self) -> usize {
        self.width
    }
    fn to_text(&self) -> String {
        self.text() + "\n"
    }
}

fn read_line(
    line: &str,
    number: usize,
    index: usize,
    at: &Locator,
) -> Result<Option<Puzzle>, ParseError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    match ToyBoard::read(line) {
        Some(board) => Ok(Some(Puzzle::Board(Arc::new(board)))),
        None => Err(at.error(Some(index), number, 1, ParseErrorKind::NoPuzzle("toy row"))),
    }
}

impl Kind for ToyKind {
    fn name(&self) -> &'static str {
        self.name
    }
    fn extensions(&self) -> &'static [&'static str] {
        self.extensions
    }
    fn noun(&self) -> &'static str {
        "toy row"
    }
    fn reader(&self) -> Reader {
        Reader::Lines(read_line)
    }
    fn title(&self, kind: &PuzzleKind) -> String {
        format!("toy row, width {}", kind.param("width").unwrap_or(0))
    }
    fn description(&self, kind: &PuzzleKind) -> String {
        self.title(kind)
    }
    fn draw(&self, _model: &Model, _solution: Option<&Solution>) -> Option<String> {
        None
    }
    fn answer(&self, _model: &Model, solution: Option<&Solution>) -> Answer {
        Answer::Placements(solution.map(|s| s.ones.iter().map(|&c| [0, c]).collect()))
    }
    fn table(&self) -> Option<&dyn SpaceTable> {
        Some(&self.table)
    }
    fn generator(&self) -> Option<&dyn Generator> {
        Some(self)
    }
}

impl Generator for ToyKind {
    fn options(&self) -> &'static [GeneratorOption] {
        &[MAX_ATTEMPTS]
    }
    fn widths(&self) -> &'static str {
        "2 or more"
    }
    fn generate_each(
        &self,
        request: &Request,
        each: OnBoard<'_, String>,
    ) -> Result<RunEnd, GenerateError> {
        if request.width < 2 {
            return Err(GenerateError::BadSize("expected 2 or more cells".into()));
        }
        let mut confirmer = Confirmer::default();
        let one = |index: usize| {
            let mut rng = board_rng(request.seed, index as u64);
            let board = ToyBoard {
                width: request.width,
                open: below(&mut rng, request.width),
            };
            let checks = confirmer
                .confirm_unique(&board.model(), &Solution::new(vec![board.open]))
                .map_err(|reason| GenerateError::CheckFailed { index, reason })?;
            Ok(format!(
                "# generated toy width={} seed={} board={index}\n{}\n{}\n",
                request.width,
                request.seed,
                unique_by_line(1, &checks),
                board.text()
            ))
        };
        Ok(each_board(request.count, one, each))
    }
}

/// The toy's search-space table, built on the shared machinery: every cell 0/1 (`2^w`), then
/// one piece in a row of `w` cells (`w` placements), for `--size W` or `--sizes A-B`, and
/// swept by a table experiment under `toy_widths`.
#[derive(Debug)]
struct ToyTable {
    group: &'static str,
    sizes_key: &'static str,
}

/// The toy's table of widths: width, `2^w`, `w`.
fn toy_widths_table(widths: &[usize]) -> Table {
    let rows = widths
        .iter()
        .map(|&w| vec![Cell::Int(w as u64), Cell::Int(1 << w), Cell::Int(w as u64)])
        .collect();
    Table {
        title: "Toy rows".into(),
        header: vec!["width".into(), "every cell 0/1".into(), "one piece".into()],
        rows,
    }
}

impl SpaceTable for ToyTable {
    fn family_table(&self, request: &TableRequest) -> Result<Table, TableError> {
        let widths = match (request.size, &request.sizes) {
            (Some(w), None) => vec![w],
            (None, Some(ws)) => ws.clone(),
            _ => return Err(TableError::BadSize("table toy: give --size N".into())),
        };
        Ok(toy_widths_table(&widths))
    }

    fn swept(&self) -> Option<&dyn SweptTable> {
        Some(self)
    }
}

impl SweptTable for ToyTable {
    fn group(&self) -> &'static str {
        self.group
    }
    fn sizes_key(&self) -> &'static str {
        self.sizes_key
    }
    fn levels(&self) -> &'static [(&'static str, &'static str)] {
        &[
            ("every cell 0/1", "each cell 0 or 1: 2^w."),
            ("one piece", "exactly one piece in the row: w."),
        ]
    }
    fn legend_heading(&self) -> &'static str {
        "Toy levels:\n\n"
    }
    fn size_levels(&self, w: usize) -> Result<(BigUint, SpaceLevels), TableError> {
        if !(1..=62).contains(&w) {
            return Err(TableError::BadSize(format!(
                "toy width {w}: expected 1 to 62"
            )));
        }
        let mut levels = SpaceLevels::default();
        levels.set("every_cell", 1u64 << w);
        levels.set("one_piece", w as u64);
        Ok((BigUint::from(w), levels))
    }
    fn level_counts(&self, _w: usize, recorded: &SpaceLevels) -> Option<Vec<Option<BigUint>>> {
        let every = recorded.get("every_cell")?.clone();
        Some(vec![Some(every), Some(recorded.get("one_piece")?.clone())])
    }
    fn sizes_table(&self, recorded: &[(usize, SpaceLevels)]) -> Table {
        let widths: Vec<usize> = recorded.iter().map(|(w, _)| *w).collect();
        toy_widths_table(&widths)
    }
}

/// The registry with the toy added: what a kind's one registry line does.
fn extended() -> Vec<&'static dyn Kind> {
    KINDS.iter().copied().chain([&TOY as &dyn Kind]).collect()
}

fn generated(kinds: &[&'static dyn Kind], request: &Request) -> Vec<String> {
    let generator = generator_for(kinds, "toy", request).unwrap();
    let mut blocks = Vec::new();
    let (found, stopped) = generator
        .generate_each(request, &mut |b| {
            blocks.push(b);
            Ok(())
        })
        .unwrap();
    assert!(stopped.is_none(), "{stopped:?}");
    assert_eq!(found, blocks.len());
    blocks
}

#[test]
fn a_toy_kind_in_the_list_is_found_and_generated_without_touching_src() {
    // Not registered: the shipped registry does not know it.
    assert!(by_name("toy").is_none());
    let unknown = generator_for(KINDS, "toy", &Request::new(5, 1, 0)).map(|_| ());
    assert!(
        matches!(unknown, Err(GenerateError::UnknownKind { .. })),
        "{unknown:?}"
    );

    let kinds = extended();
    let found = by_name_in(&kinds, "toy").expect("found by name");
    assert_eq!(found.noun(), "toy row");
    let names: Vec<&str> = generators(&kinds).iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["hex", "queens", "star", "killer", "toy"]);
    // `generate`'s flags are the generators' options, each once: the toy's one is shared.
    let flags: Vec<&str> = generator_options(&kinds).iter().map(|o| o.name).collect();
    assert_eq!(flags, ["max-attempts", "max-repairs", "stars", "max-cage"]);

    // Dispatch: the toy's own boards, reproducible, each confirmed by two backends and read
    // back by the toy's reader to a board whose model has that one solution.
    let request = Request::new(7, 4, 11);
    let blocks = generated(&kinds, &request);
    assert_eq!(blocks.len(), 4);
    assert_eq!(blocks, generated(&kinds, &request));
    assert_ne!(blocks, generated(&kinds, &Request::new(7, 4, 12)));
    let at = Locator { file: "gen.toy" };
    for (i, block) in blocks.iter().enumerate() {
        assert!(block.starts_with(&format!("# generated toy width=7 seed=11 board={i}\n")));
        let unique_by = block.lines().nth(1).unwrap();
        assert!(
            unique_by.starts_with("# unique by: generator search (1 nodes), "),
            "{unique_by}"
        );
        assert_eq!(
            unique_by.matches(" nodes)").count(),
            3,
            "two backends: {unique_by}"
        );
        let boards: Vec<Puzzle> = block
            .lines()
            .enumerate()
            .filter_map(|(n, l)| read_line(l, n + 1, i, &at).unwrap())
            .collect();
        assert_eq!(boards.len(), 1);
        let board = boards[0].board().unwrap();
        assert_eq!(board.kind().name(), "toy");
        assert_eq!(board.size(), 7);
        assert_eq!(board.to_model("b".into()).unwrap().num_variables(), 7);
    }

    // Options: the toy reads max-attempts only; the refusal names the kinds that read an
    // option, the toy included once it reads it.
    let refused = generator_for(&kinds, "toy", &Request::new(7, 1, 0).with("stars", 2))
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "generate toy does not take --stars (only generate star)"
    );
    let killer = generator_for(
        &kinds,
        "killer",
        &Request::new(9, 1, 0).with("max-repairs", 2),
    )
    .map(|_| ())
    .unwrap_err();
    assert_eq!(
        killer.to_string(),
        "generate killer does not take --max-repairs (only generate hex, queens and star)"
    );
    let hint = generator_for(&kinds, "tyo", &request)
        .map(|_| ())
        .unwrap_err();
    assert!(hint.to_string().ends_with("did you mean 'toy'?"), "{hint}");
    let small = generator_for(&kinds, "toy", &request)
        .unwrap()
        .generate_each(&Request::new(1, 1, 0), &mut |_| Ok(()))
        .map(|_| ())
        .unwrap_err();
    assert!(matches!(small, GenerateError::BadSize(_)), "{small:?}");
}

#[test]
fn a_toy_kind_registers_its_search_space_table_with_its_one_line() {
    assert!(table_for(KINDS, "toy").is_none());
    let kinds = extended();
    let names: Vec<&str> = tables(&kinds).iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["hex", "queens", "sudoku", "star", "toy"]);
    let table = table_for(&kinds, "toy").expect("found through the registry");
    assert_eq!(table.size_flags(), ("size", "sizes"));
    assert!(!table.reads_boards());
    // No split count: `--shard` and `--estimate` refuse it, and name only the kinds that do.
    assert!(table.sharded().is_none());
    let options = TableOptions::default();
    let request = TableRequest {
        size: None,
        sizes: Some(vec![3, 5]),
        stars: 1,
        grid: None,
        solution_limit: 1,
        options: &options,
    };
    let csv = table.family_table(&request).unwrap().render(Format::Csv);
    assert_eq!(
        csv,
        "width,every cell 0/1,one piece,notes\n3,8,3,\n5,32,5,\n"
    );
    let none = TableRequest {
        sizes: None,
        ..request
    };
    assert!(matches!(
        table.family_table(&none),
        Err(TableError::BadSize(_))
    ));
}

#[test]
fn a_toy_kind_with_a_swept_table_runs_in_a_table_experiment_under_its_own_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("toys.toml");
    let text = "kind = \"table\"\n[table]\ntoy_widths = [2, 3, 0, 5]\nqueens_sizes = [4]\n";
    std::fs::write(&path, text).unwrap();
    // The shipped registry has no table claiming the key: refused, located, the keys listed.
    let refused = Experiment::load(&path).unwrap_err().to_string();
    assert!(
        refused.contains(":3:1: table: unknown key `toy_widths`, expected one of `hex_widths`"),
        "{refused}"
    );
    let kinds = extended();
    let exp = Experiment::load_in(&path, &Registry::builtin(), &kinds).unwrap();
    let ids: Vec<String> = table_rows(&exp).iter().map(|r| r.id()).collect();
    assert_eq!(ids, ["queens-4", "toy-2", "toy-3", "toy-0", "toy-5"]);

    let summary = run_experiment(&exp, &RunOptions::new(dir.path().join("reports"))).unwrap();
    assert_eq!((summary.ran, summary.stopped), (5, false));
    let (records, _) = read_records(&summary.records, false).unwrap();
    let toy5 = records.iter().find(|r| r.instance == "toy-5").unwrap();
    assert_eq!(toy5.count.as_deref(), Some("5"));
    assert_eq!((toy5.group.as_deref(), toy5.size), (Some("toy"), Some(5)));
    let levels = toy5.stats.levels.as_ref().unwrap();
    assert_eq!(levels.get("every_cell"), Some(&BigUint::from(32u32)));
    let toy0 = records.iter().find(|r| r.instance == "toy-0").unwrap();
    assert_eq!(toy0.status, Status::Error, "the toy's own range");
    // Queens keeps its own record and report alongside (OEIS A002464: 2 at n = 4).
    let queens = records.iter().find(|r| r.instance == "queens-4").unwrap();
    assert_eq!(queens.count.as_deref(), Some("2"));

    let reports = dir.path().join("reports");
    let csv = std::fs::read_to_string(reports.join("toys.toy.csv")).unwrap();
    assert_eq!(
        csv,
        "width,every cell 0/1,one piece,notes\n2,4,2,\n3,8,3,\n5,32,5,\n"
    );
    assert!(reports.join("toys.queens.csv").is_file());
    let md = std::fs::read_to_string(reports.join("toys.md")).unwrap();
    for part in [
        "Toy levels:\n\n- **every cell 0/1**: each cell 0 or 1: 2^w.\n- **one piece**: exactly one piece in the row: w.\n",
        "| 5 | 32 | 5 |",
        "Queens levels:",
        "- toy-0: toy width 0: expected 1 to 62",
        "- rows on record: 4 of 5;",
    ] {
        assert!(md.contains(part), "{part}: {md}");
    }
    let svg = std::fs::read_to_string(reports.join("toys.size.svg")).unwrap();
    assert!(svg.contains("toy: one piece"), "the toy's curves are named");
}

/// A second toy kind whose table claims Queens' `[table]` key, as a registry mistake would:
/// the key would be swept by two tables, so an experiment that uses it is refused.
static CLASH: ToyKind = ToyKind {
    name: "clash",
    extensions: &["clash"],
    table: ToyTable {
        group: "clash",
        sizes_key: "queens_sizes",
    },
};

#[test]
fn a_table_key_two_kinds_claim_is_refused_where_the_experiment_uses_it() {
    let dir = tempfile::tempdir().unwrap();
    let kinds: Vec<&'static dyn Kind> =
        KINDS.iter().copied().chain([&CLASH as &dyn Kind]).collect();
    let path = dir.path().join("clash.toml");
    std::fs::write(
        &path,
        "kind = \"table\"\n[table]\nhex_widths = [5]\nqueens_sizes = [4]\n",
    )
    .unwrap();
    let refused = Experiment::load_in(&path, &Registry::builtin(), &kinds)
        .unwrap_err()
        .to_string();
    assert!(
        refused.contains(":4:1: table: key `queens_sizes` is claimed by the tables of two kinds, `queens` and `clash`"),
        "{refused}"
    );
    // A file that does not use the key is not ambiguous.
    std::fs::write(&path, "kind = \"table\"\n[table]\nhex_widths = [5]\n").unwrap();
    let exp = Experiment::load_in(&path, &Registry::builtin(), &kinds).unwrap();
    let ids: Vec<String> = table_rows(&exp).iter().map(|r| r.id()).collect();
    assert_eq!(ids, ["hex-5"]);
}
