//! The square Queens board's table: its levels ([`QueensLevels`]) and tables.

use crate::backend::dp::LineProblem;
use crate::model::Model;
use crate::puzzle::symmetry::Group;
use crate::puzzle::table::{
    binomial, checked_orbits, enum_count, factorial, one_or_many, orbit_stats, pow2,
    with_board_count, Cell, Method, SpaceLevels, SpaceTable, SweptTable, Table, TableError,
    TableOptions, TableRequest,
};
use crate::puzzle::Puzzle;
use crate::puzzle::QueensBoard;
use num_bigint::BigUint;

/// The Queens kind's [`SpaceTable`]: `--size N` or `--sizes A-B`, and a board's own count
/// when it has regions.
pub struct QueensTable;

impl SpaceTable for QueensTable {
    fn family_table(&self, request: &TableRequest) -> Result<Table, TableError> {
        one_or_many(
            request.size,
            request.sizes.as_deref(),
            "table queens: give --size N or --sizes A-B",
            |n| queens_levels(n, request.options),
            queens_table,
            queens_sizes_table,
        )
    }

    fn reads_boards(&self) -> bool {
        true
    }

    fn board_table(
        &self,
        puzzle: &Puzzle,
        model: &Model,
        request: &TableRequest,
    ) -> Option<Result<Table, TableError>> {
        let board = puzzle.board_as::<QueensBoard>()?;
        let levels = with_board_count(
            queens_levels(board.size(), request.options),
            board.regions().is_some(),
            model,
            |l, count| l.board = Some(count),
        );
        Some(levels.map(|l| queens_table(&l)))
    }

    fn swept(&self) -> Option<&dyn SweptTable> {
        Some(self)
    }
}

/// The Queens table as a table experiment sweeps it: `[table] queens_sizes = [...]`, one
/// record `queens-{n}` per size whose count is the no-touching level.
impl SweptTable for QueensTable {
    fn group(&self) -> &'static str {
        "queens"
    }

    fn sizes_key(&self) -> &'static str {
        "queens_sizes"
    }

    fn levels(&self) -> &'static [(&'static str, &'static str)] {
        &QUEENS_LEVELS
    }

    fn legend_heading(&self) -> &'static str {
        "Queens levels:\n\n"
    }

    fn size_levels(&self, size: usize) -> Result<(BigUint, SpaceLevels), TableError> {
        let l = queens_levels(size, &TableOptions::default())?;
        Ok((l.no_touching.clone(), l.to_space_levels()))
    }

    fn level_counts(&self, size: usize, recorded: &SpaceLevels) -> Option<Vec<Option<BigUint>>> {
        let l = QueensLevels::from_space_levels(size, recorded)?;
        Some(vec![
            Some(l.every_cell),
            Some(l.choose_n),
            Some(l.one_per_row),
            Some(l.permutations),
            Some(l.no_touching),
            l.orbits,
        ])
    }

    fn sizes_table(&self, recorded: &[(usize, SpaceLevels)]) -> Table {
        let all: Vec<QueensLevels> = (recorded.iter())
            .filter_map(|(n, l)| QueensLevels::from_space_levels(*n, l))
            .collect();
        queens_sizes_table(&all)
    }
}

/// The levels of an `n` x `n` Queens board, named and defined as [`HEX_LEVELS`](crate::puzzle::kinds::hex::table::HEX_LEVELS).
pub const QUEENS_LEVELS: [(&str, &str); 6] = [
    ("every cell 0/1", "each of the n² cells is 0 or 1, with no rule: 2^(n²)."),
    ("n cells", "exactly n of the n² cells are 1: C(n², n)."),
    ("one per row", "exactly one queen in each row: n^n."),
    (
        "one per row and column",
        "one per row and one per column: the n! permutations.",
    ),
    (
        "no two touching",
        "a permutation with no two queens in touching (diagonally adjacent) cells: OEIS A002464.",
    ),
    (
        "no two touching up to symmetry",
        "the no-touching placements counted once per orbit of the 8 rotations and reflections of the square.",
    ),
];

/// Why a Queens size's orbits are empty.
pub(super) const QUEENS_NO_ORBITS: &str = "not computed: Queens orbits come from enumerating every no-touching placement, and there are more than the orbit limit (--orbit-limit, 2,000,000 by default)";

/// The levels of one Queens size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueensLevels {
    /// Side `n`.
    pub size: usize,
    /// `2^(n^2)`.
    pub every_cell: BigUint,
    /// `C(n^2, n)`.
    pub choose_n: BigUint,
    /// `n^n`: one per row.
    pub one_per_row: BigUint,
    /// `n!`: one per row and column.
    pub permutations: BigUint,
    /// No two touching as well (OEIS A002464).
    pub no_touching: BigUint,
    /// No-touching placements up to the 8 symmetries of the square.
    pub orbits: Option<BigUint>,
    /// A board's solution count with its regions, when a board was given.
    pub board: Option<BigUint>,
}

impl QueensLevels {
    /// The levels as a table experiment records them, by key: `every_cell`, `choose_n`,
    /// `one_per_row`, `permutations`, `no_touching`, and `orbits` when counted.
    pub fn to_space_levels(&self) -> SpaceLevels {
        let mut l = SpaceLevels::default();
        l.set("every_cell", self.every_cell.clone());
        l.set("choose_n", self.choose_n.clone());
        l.set("one_per_row", self.one_per_row.clone());
        l.set("permutations", self.permutations.clone());
        l.set("no_touching", self.no_touching.clone());
        if let Some(o) = &self.orbits {
            l.set("orbits", o.clone());
        }
        l
    }

    /// The levels of size `size` read back from [`QueensLevels::to_space_levels`]'s keys;
    /// `None` when one is missing.
    pub fn from_space_levels(size: usize, l: &SpaceLevels) -> Option<QueensLevels> {
        Some(QueensLevels {
            size,
            every_cell: l.get("every_cell")?.clone(),
            choose_n: l.get("choose_n")?.clone(),
            one_per_row: l.get("one_per_row")?.clone(),
            permutations: l.get("permutations")?.clone(),
            no_touching: l.get("no_touching")?.clone(),
            orbits: l.get("orbits").cloned(),
            board: None,
        })
    }
}

/// Computes the Queens levels of size `size` (1..=32).
pub fn queens_levels(size: usize, options: &TableOptions) -> Result<QueensLevels, TableError> {
    if !(1..=32).contains(&size) {
        return Err(TableError::BadSize(format!(
            "queens size {size}: expected 1 to 32"
        )));
    }
    let n = size as u64;
    let model = QueensBoard::bare(size).to_model(format!("queens-{size}"));
    let no_touching = match options.method {
        Method::Dp => {
            LineProblem::from_model(&model, Some("row"))
                .map_err(|e| TableError::Count(e.to_string()))?
                .count()
                .map_err(|e| TableError::Count(e.to_string()))?
                .0
        }
        Method::Enum => enum_count(&model, &["row", "column", "touch"])?,
    };
    let orbits = if no_touching <= options.orbit_limit {
        let stats = orbit_stats(
            &model,
            &["row", "column", "touch"],
            &Group::square(size),
            |_, c| c,
        )?;
        if stats.placements != no_touching {
            return Err(TableError::Count(format!(
                "enumerated {} placements, counted {no_touching}",
                stats.placements
            )));
        }
        Some(checked_orbits(&stats)?)
    } else {
        None
    };
    Ok(QueensLevels {
        size,
        every_cell: pow2(n * n),
        choose_n: binomial(n * n, n),
        one_per_row: BigUint::from(n).pow(size as u32),
        permutations: factorial(n),
        no_touching: BigUint::from(no_touching),
        orbits,
        board: None,
    })
}

/// The table of one Queens size: one row per level.
pub fn queens_table(l: &QueensLevels) -> Table {
    let n = l.size;
    let mut rows = vec![
        vec![
            Cell::text(QUEENS_LEVELS[0].0),
            Cell::formula(l.every_cell.clone(), format!("2^{}", n * n)),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[1].0),
            Cell::formula(l.choose_n.clone(), format!("C({},{n})", n * n)),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[2].0),
            Cell::formula(l.one_per_row.clone(), format!("{n}^{n}")),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[3].0),
            Cell::formula(l.permutations.clone(), format!("{n}!")),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[4].0),
            Cell::count(l.no_touching.clone()),
        ],
        vec![
            Cell::text(QUEENS_LEVELS[5].0),
            l.orbits
                .clone()
                .map_or(Cell::Missing(QUEENS_NO_ORBITS.into()), Cell::count),
        ],
    ];
    if let Some(b) = &l.board {
        rows.push(vec![
            Cell::text("with the board's regions"),
            Cell::count(b.clone()),
        ]);
    }
    Table {
        title: format!("Queens, {n}x{n}"),
        header: vec!["level".into(), "count".into()],
        rows,
    }
}

/// One row per size, one column per level.
pub fn queens_sizes_table(all: &[QueensLevels]) -> Table {
    let rows = all
        .iter()
        .map(|l| {
            vec![
                Cell::Int(l.size as u64),
                Cell::formula(l.every_cell.clone(), format!("2^{}", l.size * l.size)),
                Cell::formula(
                    l.choose_n.clone(),
                    format!("C({},{})", l.size * l.size, l.size),
                ),
                Cell::formula(l.one_per_row.clone(), format!("{0}^{0}", l.size)),
                Cell::formula(l.permutations.clone(), format!("{}!", l.size)),
                Cell::count(l.no_touching.clone()),
                l.orbits
                    .clone()
                    .map_or(Cell::Missing(QUEENS_NO_ORBITS.into()), Cell::count),
            ]
        })
        .collect();
    Table {
        title: "Queens by size".into(),
        header: std::iter::once("size")
            .chain(QUEENS_LEVELS.iter().map(|l| l.0))
            .map(String::from)
            .collect(),
        rows,
    }
}
