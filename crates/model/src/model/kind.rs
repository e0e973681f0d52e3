//! What a model is of: its puzzle kind ([`PuzzleKind`]), the symmetry and hints it carries
//! ([`ModelHints`]), and where each variable sits ([`Coord`]).

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Where a variable sits on the puzzle, for rendering answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Coord {
    /// A cell: `row` from the top, `col` the 0-based position in that row (hex: position within
    /// the row, not the shared diagonal coordinate).
    Cell {
        /// Row from the top, 0-based.
        row: usize,
        /// Position in the row, 0-based.
        col: usize,
    },
    /// A cell holding a value (Sudoku: `value` is the 0-based digit index).
    CellValue {
        /// Row from the top, 0-based.
        row: usize,
        /// Column, 0-based.
        col: usize,
        /// Value index, 0-based (digit 1 is value 0).
        value: usize,
    },
    /// No geometric meaning (generic models).
    Free,
}

/// What kind of puzzle a model came from: the kind's tag (as the registry in
/// `crate::puzzle::kinds` names it: `hex`, `queens`, `sudoku`, or `generic` for a model with no
/// geometry) and its size parameters (`width = 9`, `box_size = 3`). It is the kind's identity
/// only, for output (names, titles, drawings); what backends need to know about a model is in
/// its [`ModelHints`]. Serialized as `{"kind": tag, param: value, ...}`. Cost: one small vector.
#[derive(Debug, Clone)]
pub struct PuzzleKind {
    pub(super) tag: Cow<'static, str>,
    pub(super) params: Vec<(Cow<'static, str>, usize)>,
    /// The kind in words, as its builder gave it ([`PuzzleKind::described`]); not part of the
    /// identity (equality, hashing) nor of the serialized form.
    pub(super) words: Option<String>,
}

impl PartialEq for PuzzleKind {
    fn eq(&self, other: &PuzzleKind) -> bool {
        self.tag == other.tag && self.params == other.params
    }
}

impl Eq for PuzzleKind {}

impl std::hash::Hash for PuzzleKind {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.tag.hash(state);
        self.params.hash(state);
    }
}

impl PuzzleKind {
    /// A model read from a JSON or TOML file, or built in code, with no puzzle geometry. (Kept
    /// under the name it had as an enum variant, so code that builds generic models reads the
    /// same.)
    #[allow(non_upper_case_globals)]
    pub const Generic: PuzzleKind = PuzzleKind {
        tag: Cow::Borrowed("generic"),
        params: Vec::new(),
        words: None,
    };

    /// The kind tagged `tag` with the size parameters `params` (name and value each), as a
    /// puzzle kind's model builder states it. Parameters are kept sorted by name, the order
    /// they are read back from JSON in, so a kind equals itself after the trip.
    pub fn new(tag: &'static str, params: &[(&'static str, usize)]) -> PuzzleKind {
        let mut params: Vec<_> = params.iter().map(|&(k, v)| (Cow::Borrowed(k), v)).collect();
        params.sort();
        PuzzleKind {
            tag: Cow::Borrowed(tag),
            params,
            words: None,
        }
    }

    /// This kind with its description in words (`hex board of width 9`), which its builder
    /// knows and outputs that do not know the kinds (export headers) print.
    pub fn described(mut self, words: impl Into<String>) -> PuzzleKind {
        self.words = Some(words.into());
        self
    }

    /// The kind in words: the builder's description, else `generic model` or `TAG model`
    /// (a kind read back from JSON keeps its tag and parameters only).
    pub fn words(&self) -> Cow<'_, str> {
        match &self.words {
            Some(w) => Cow::Borrowed(w),
            None if self.is_generic() => Cow::Borrowed("generic model"),
            None => Cow::Owned(format!("{} model", self.tag)),
        }
    }

    /// The tag: the kind's name in the registry (`generic` for no geometry).
    pub fn tag(&self) -> &str {
        &self.tag
    }

    /// Whether this is the generic kind (no puzzle geometry).
    pub fn is_generic(&self) -> bool {
        self.tag == "generic"
    }

    /// The size parameter called `key` (`width`, `size`, `box_size`, ...), if the kind has it.
    pub fn param(&self, key: &str) -> Option<usize> {
        self.params.iter().find(|(k, _)| k == key).map(|&(_, v)| v)
    }

    /// The short name used in JSON output: the tag, or `model` for the generic kind.
    pub fn name(&self) -> &str {
        if self.is_generic() {
            "model"
        } else {
            &self.tag
        }
    }
}

/// The serialized form of a [`PuzzleKind`]: its tag under `kind`, then its parameters.
#[derive(Serialize, Deserialize)]
pub(super) struct PuzzleKindRepr {
    pub(super) kind: String,
    #[serde(flatten)]
    pub(super) params: BTreeMap<String, usize>,
}

impl Serialize for PuzzleKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        PuzzleKindRepr {
            kind: self.tag.to_string(),
            params: self
                .params
                .iter()
                .map(|(k, v)| (k.to_string(), *v))
                .collect(),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for PuzzleKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<PuzzleKind, D::Error> {
        let repr = PuzzleKindRepr::deserialize(deserializer)?;
        Ok(PuzzleKind {
            tag: Cow::Owned(repr.kind),
            params: repr
                .params
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k), v))
                .collect(),
            words: None,
        })
    }
}

/// The board symmetry a model's placements have, for orbit counts (placements that differ by a
/// rotation or reflection of the board).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "group")]
pub enum BoardSymmetry {
    /// No symmetry is known (generic models, boards with clues or regions).
    #[default]
    None,
    /// The 8 symmetries of the square (`crate::puzzle::symmetry::Group::square`).
    Square {
        /// Side of the square.
        size: usize,
    },
    /// The 12 symmetries of the hexagon (`crate::puzzle::symmetry::Group::hex`).
    Hexagon {
        /// Width of the hex board.
        width: usize,
    },
}

/// What backends, exporters and the renderer may know about a model beyond its rows, stated by
/// the puzzle kind that built it (or by a generic model file), so that none of them needs to
/// know the kind. Every hint is optional: a backend must work (maybe slower) without it.
/// Serialized with the model; fields at their default are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelHints {
    /// The family of exactly-one rows that partitions the variables and should supply the
    /// coordinate of the line-by-line backends (`enum`, `dp`): `row` for boards with one piece
    /// per row, `cell` for Sudoku. `None`: the backend looks for one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coordinate_family: Option<String>,
    /// Whether the variables are the cells of a board (`Coord::Cell`) holding one piece per
    /// line, so per-variable figures (the least-norm solution of `gauss`) read best laid out
    /// as the board, one grid row per line.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cell_grid: bool,
    /// The board symmetry of the bare board, for orbit counts.
    #[serde(skip_serializing_if = "is_no_symmetry")]
    pub symmetry: BoardSymmetry,
}

pub(super) fn is_no_symmetry(s: &BoardSymmetry) -> bool {
    *s == BoardSymmetry::None
}

pub(super) fn is_default_hints(h: &&ModelHints) -> bool {
    **h == ModelHints::default()
}
