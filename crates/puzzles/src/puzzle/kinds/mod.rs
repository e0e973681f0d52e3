//! The registry of puzzle kinds ([`KINDS`], the one list a new kind is added to: its folder
//! here plus one line) and look-ups in it. Everything that handles puzzles of any kind (file
//! formats, `show` titles, drawings, export headers, `solve --json` answers, built-in boards)
//! finds the kind here.
//!
//! The look-ups that take the list of kinds as an argument (`*_in`, [`generators`],
//! [`generator_for`], [`tables`], [`table_for`]) work on any list, so a test or a program can pass the registry extended
//! by kinds of its own; the plain ones read [`KINDS`].
//!
//! Costs: a linear scan of a handful of entries per look-up.

use crate::model::PuzzleKind;
use crate::puzzle::generate::{GenerateError, Generator, GeneratorOption, Request};
use crate::puzzle::kind::Kind;
use crate::puzzle::table::SpaceTable;

/// Declares each kind's folder as a module and lists its [`Kind`] in [`KINDS`]: one line
/// per kind, `folder => STATIC`.
macro_rules! registry {
    ($($folder:ident => $kind:ident),* $(,)?) => {
        $(pub mod $folder;)*

        /// Every puzzle kind, in the order help texts and error messages list them. The
        /// generic JSON/TOML model is not here: it has no geometry and is the parser's own
        /// case. Look-ups by name, extension or model are in this module.
        pub static KINDS: &[&dyn Kind] = &[$(&$folder::$kind),*];
    };
}

// The registry: a new kind is its folder plus one line here.
registry! {
    hex => HEX,
    queens => QUEENS,
    sudoku => SUDOKU,
    star => STAR,
    killer => KILLER,
}

/// The kind called `name`, if registered.
pub fn by_name(name: &str) -> Option<&'static dyn Kind> {
    by_name_in(KINDS, name)
}

/// The kind called `name` among `kinds` (the registry, or the registry extended).
pub fn by_name_in(kinds: &[&'static dyn Kind], name: &str) -> Option<&'static dyn Kind> {
    kinds.iter().copied().find(|k| k.name() == name)
}

/// The kinds among `kinds` that have a generator, each with it, in their order.
pub fn generators(kinds: &[&'static dyn Kind]) -> Vec<(&'static str, &'static dyn Generator)> {
    kinds
        .iter()
        .filter_map(|k| k.generator().map(|g| (k.name(), g)))
        .collect()
}

/// The generator `zeroone generate NAME` runs for `request`, found among `kinds`: an error
/// for a kind without one (with "did you mean"), and for an option in `request` its generator
/// does not read (naming the kinds whose generators do).
pub fn generator_for(
    kinds: &[&'static dyn Kind],
    name: &str,
    request: &Request,
) -> Result<&'static dyn Generator, GenerateError> {
    let all = generators(kinds);
    let Some(&(_, generator)) = all.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
        return Err(GenerateError::UnknownKind {
            name: name.to_string(),
            known: names.join(", "),
            hint: crate::suggest::did_you_mean(name, names.iter().copied()),
        });
    };
    let unread = request
        .options
        .iter()
        .find(|(option, _)| !reads(generator, option));
    if let Some(&(option, _)) = unread {
        let readers: Vec<&str> = all
            .iter()
            .filter(|(_, g)| reads(*g, option))
            .map(|(n, _)| *n)
            .collect();
        return Err(GenerateError::UnreadOption {
            kind: name.to_string(),
            option: option.to_string(),
            readers: in_words(&readers),
        });
    }
    Ok(generator)
}

/// Whether `generator` reads the option called `name`.
fn reads(generator: &dyn Generator, name: &str) -> bool {
    generator.options().iter().any(|o| o.name == name)
}

/// The options the generators among `kinds` read, each once, in the order the kinds and
/// their generators list them: the flags of `zeroone generate`.
pub fn generator_options(kinds: &[&'static dyn Kind]) -> Vec<GeneratorOption> {
    let mut all: Vec<GeneratorOption> = Vec::new();
    for (_, g) in generators(kinds) {
        for o in g.options() {
            if !all.iter().any(|known| known.name == o.name) {
                all.push(*o);
            }
        }
    }
    all
}

/// The kinds among `kinds` that have a search-space table, each with it, in their order.
pub fn tables(kinds: &[&'static dyn Kind]) -> Vec<(&'static str, &'static dyn SpaceTable)> {
    kinds
        .iter()
        .filter_map(|k| k.table().map(|t| (k.name(), t)))
        .collect()
}

/// The search-space table `zeroone table NAME` runs, found among `kinds`: `None` for an
/// unknown kind or one without a table.
pub fn table_for(kinds: &[&'static dyn Kind], name: &str) -> Option<&'static dyn SpaceTable> {
    by_name_in(kinds, name).and_then(|k| k.table())
}

/// `a`, `a and b`, `a, b and c`.
fn in_words(names: &[&str]) -> String {
    match names {
        [] => "none".to_string(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The kind whose files end in `extension` (lower case, no dot), if any.
pub fn by_extension(extension: &str) -> Option<&'static dyn Kind> {
    KINDS
        .iter()
        .copied()
        .find(|k| k.extensions().contains(&extension))
}

/// The kind a model was built by: `None` for generic models and unknown tags.
pub fn of(kind: &PuzzleKind) -> Option<&'static dyn Kind> {
    by_name(kind.tag())
}

/// The kind that reads a `.txt` file whose first grid line is `first`: the highest claim (the
/// first kind listed wins a tie); `None` when no kind claims it.
pub fn for_txt(first: &str) -> Option<&'static dyn Kind> {
    let mut best: Option<(u8, &'static dyn Kind)> = None;
    for &k in KINDS {
        let claim = k.txt_claim(first);
        if claim > 0 && best.is_none_or(|(b, _)| claim > b) {
            best = Some((claim, k));
        }
    }
    best.map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_extensions_are_unique_and_found_again() {
        for (i, k) in KINDS.iter().enumerate() {
            assert!(std::ptr::addr_eq(
                by_name(k.name()).unwrap() as *const dyn Kind,
                *k as *const dyn Kind
            ));
            for later in &KINDS[i + 1..] {
                assert_ne!(k.name(), later.name());
                for e in k.extensions() {
                    assert!(!later.extensions().contains(e), "{e} claimed twice");
                }
            }
        }
        assert!(by_name("generic").is_none() && by_name("model").is_none());
    }

    /// Worker processes get their models as JSON: the kind and the hints backends read must
    /// come back, and a model of every kind must still be drawn and named after the trip.
    #[test]
    fn every_kind_keeps_its_identity_and_hints_through_json() {
        use crate::model::{BoardSymmetry, Model};
        use crate::puzzle::{HexBoard, QueensBoard, Sudoku};
        let models = [
            HexBoard::geometry(5).unwrap().to_model("h"),
            QueensBoard::bare(4).to_model("q"),
            Sudoku::empty(2).to_model("s").unwrap(),
        ];
        let expected = [
            (
                "hex",
                Some("row"),
                true,
                BoardSymmetry::Hexagon { width: 5 },
            ),
            (
                "queens",
                Some("row"),
                true,
                BoardSymmetry::Square { size: 4 },
            ),
            ("sudoku", Some("cell"), false, BoardSymmetry::None),
        ];
        for (m, (name, family, cells, symmetry)) in models.iter().zip(expected) {
            let back: Model = serde_json::from_str(&serde_json::to_string(m).unwrap()).unwrap();
            assert_eq!(back.kind(), m.kind());
            assert_eq!(back.hints(), m.hints());
            let h = back.hints();
            assert_eq!(
                (h.coordinate_family.as_deref(), h.cell_grid, h.symmetry),
                (family, cells, symmetry),
                "{name}"
            );
            let kind = of(back.kind()).unwrap();
            assert_eq!(kind.name(), name);
            assert_eq!(kind.draw(&back, None), kind.draw(m, None));
        }
        // The serialized kind keeps the shape it had as an enum.
        let text = serde_json::to_string(&models[0]).unwrap();
        assert!(
            text.contains(r#""kind":{"kind":"hex","width":5}"#),
            "{text}"
        );
    }

    #[test]
    fn coloured_boards_claim_no_symmetry() {
        let regions = vec![vec![0, 0], vec![1, 1]];
        let q = crate::puzzle::QueensBoard::with_regions(regions).unwrap();
        let hints = q.to_model("q").hints().clone();
        assert_eq!(hints.symmetry, crate::model::BoardSymmetry::None);
        assert_eq!(hints.coordinate_family.as_deref(), Some("row"));
    }

    /// The format messages are made from the registry; they must read as they did when they
    /// were written out by hand.
    #[test]
    fn format_messages_list_every_kind() {
        assert_eq!(
            crate::puzzle::parse::unknown_format(".x".into()).to_string(),
            "expected a file ending in .hex, .queens, .sudoku, .star, .killer, .txt, .json, .toml, \
             .opb, .cnf, .lp, .mps, .xcc or .dlx (optionally .gz), or --format, found '.x'"
        );
        assert_eq!(
            crate::puzzle::parse::format_needed().to_string(),
            "expected --format hex|queens|sudoku|star|killer|json|toml|opb|cnf|lp|mps|xcc to read standard input, found none"
        );
        let names: Vec<&str> = crate::puzzle::parse::Format::all()
            .iter()
            .map(|f| f.name())
            .collect();
        assert_eq!(
            names,
            [
                "hex", "queens", "sudoku", "star", "killer", "json", "toml", "opb", "cnf", "lp",
                "mps", "xcc"
            ]
        );
    }

    #[test]
    fn generators_refuse_options_they_do_not_read_naming_those_that_do() {
        let names: Vec<&str> = generators(KINDS).iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["hex", "queens", "star", "killer"]);
        let asked = |kind: &str, option: &'static str| {
            let request = Request::new(8, 1, 0).with(option, 3);
            generator_for(KINDS, kind, &request)
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        assert_eq!(
            asked("killer", "max-repairs"),
            Err(
                "generate killer does not take --max-repairs (only generate hex, queens and star)"
                    .into()
            )
        );
        assert_eq!(
            asked("queens", "stars"),
            Err("generate queens does not take --stars (only generate star)".into())
        );
        assert_eq!(asked("star", "stars"), Ok(()));
        let err = asked("hexx", "stars").unwrap_err();
        assert!(
            err.ends_with("expected one of hex, queens, star, killer; did you mean 'hex'?"),
            "{err}"
        );
        assert!(asked("sudoku", "stars").is_err(), "sudoku has no generator");
    }

    #[test]
    fn a_txt_file_goes_to_the_strongest_claim() {
        let sudoku_line = "1.3.3.1.2.4.4.2.";
        assert_eq!(for_txt(sudoku_line).map(|k| k.name()), Some("sudoku"));
        assert_eq!(for_txt("ABCD").map(|k| k.name()), Some("queens"));
    }
}
