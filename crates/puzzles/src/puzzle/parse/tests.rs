use super::*;
use crate::puzzle::kind::Board;
use crate::puzzle::{HexBoard, QueensBoard, Sudoku};
use crate::read::generic::GenericErrorKind;
use proptest::prelude::*;

fn err(text: &str, format: Format) -> ParseError {
    match parse_str(text, format, "t") {
        Ok(p) => panic!("expected an error, parsed {} puzzles", p.len()),
        Err(e) => e,
    }
}

fn at(e: &ParseError) -> (Option<usize>, usize, usize) {
    (e.puzzle, e.line, e.column)
}

const HEX3: &str = "# a width-3 board\n A B\nA B C\n C C\n";

#[test]
fn hex_board_reads_regions_in_letter_order() {
    let p = parse_str(HEX3, Format::Hex, "t").unwrap();
    let b = p[0].board_as::<HexBoard>().unwrap();
    assert_eq!(b.width(), 3);
    assert_eq!(
        b.regions().unwrap(),
        &[vec![0, 1], vec![0, 1, 2], vec![2, 2]]
    );
    let m = b.to_model("x");
    assert_eq!(m.summary().families["colour"], 3);
}

#[test]
fn hex_file_with_several_boards_and_bare_geometry() {
    let text = "# two boards\n.\n\n  . .\n . . .\n  . .\n\n\n# end\n";
    let p = parse_str(text, Format::Hex, "t").unwrap();
    assert_eq!(p.len(), 2);
    for (puzzle, width) in p.iter().zip([1, 3]) {
        let b = puzzle.board_as::<HexBoard>().unwrap();
        assert_eq!(b.width(), width);
        assert!(b.regions().is_none());
    }
}

#[test]
fn even_hex_width_is_located() {
    let e = err("AB\nABC\n\nAB\nBBA\nAB\nAB\n", Format::Hex);
    // The first board (two rows) is already even.
    assert_eq!(at(&e), (Some(0), 2, 1));
    assert_eq!(e.kind, ParseErrorKind::EvenWidth(2));
    assert_eq!(
        e.to_string(),
        "t:2:1: puzzle 0: expected an odd number of rows (a hex board has width 2s-1), found 2 rows"
    );
}

#[test]
fn hex_row_too_long_points_at_first_extra_cell() {
    let e = err(".\n\n A B\nA B C C\n C C\n", Format::Hex);
    assert_eq!(at(&e), (Some(1), 4, 7));
    assert!(matches!(
        e.kind,
        ParseErrorKind::HexRowLength {
            row: 1,
            width: 3,
            expected: 3,
            found: 4
        }
    ));
}

#[test]
fn hex_row_too_short_points_past_the_end() {
    let e = err(" A B\nA B\n C C\n", Format::Hex);
    assert_eq!(at(&e), (Some(0), 2, 4));
}

#[test]
fn hex_region_count_too_many_points_at_the_extra_letter() {
    let e = err(" A B\nA B C\n C D\n", Format::Hex);
    assert_eq!(at(&e), (Some(0), 3, 4));
    assert!(matches!(
        e.kind,
        ParseErrorKind::RegionCount {
            expected: 3,
            found: 4,
            ..
        }
    ));
}

#[test]
fn hex_region_count_too_few() {
    let e = err(" A B\nA B B\n B B\n", Format::Hex);
    assert_eq!(at(&e), (Some(0), 1, 2));
    assert!(matches!(
        e.kind,
        ParseErrorKind::RegionCount {
            expected: 3,
            found: 2,
            ..
        }
    ));
    assert!(e.to_string().contains("found 2 (AB)"), "{e}");
}

#[test]
fn hex_unknown_character() {
    let e = err(" A B\nA 7 C\n C C\n", Format::Hex);
    assert_eq!(at(&e), (Some(0), 2, 3));
    assert!(matches!(
        e.kind,
        ParseErrorKind::UnknownChar { found: '7', .. }
    ));
}

#[test]
fn hex_mixed_dots_and_letters() {
    let e = err(" . .\n. B .\n . .\n", Format::Hex);
    assert_eq!(at(&e), (Some(0), 2, 3));
    assert!(matches!(
        e.kind,
        ParseErrorKind::MixedBlank {
            first: '.',
            found: 'B'
        }
    ));
}

#[test]
fn empty_files_have_no_puzzle() {
    for format in [Format::Hex, Format::Queens, Format::Sudoku] {
        let e = err("# only a comment\n\n", format);
        assert!(
            matches!(e.kind, ParseErrorKind::NoPuzzle(_)),
            "{format:?}: {e}"
        );
        assert_eq!(e.puzzle, None);
    }
    for format in [Format::Json, Format::Toml] {
        let e = err("", format);
        assert!(
            matches!(
                e.kind,
                ParseErrorKind::GenericModel(GenericErrorKind::Missing("model"))
            ),
            "{format:?}: {e}"
        );
    }
}

const QUEENS4: &str = "# header\nAABB\nACBB\nCCDD\nCCDD\n# solution: 1 3 0 2\n";

#[test]
fn queens_grid_reads_solution_line() {
    // Regions: A = {(0,0),(0,1),(1,0)}, B = {(0,2),(0,3),(1,2),(1,3)}, C = ..., D = rows 2-3 right.
    let p = parse_str(QUEENS4, Format::Queens, "t").unwrap();
    let q = p[0].board_as::<QueensBoard>().unwrap();
    assert_eq!(q.size(), 4);
    assert_eq!(q.known_solution, Some(vec![1, 3, 0, 2]));
    assert_eq!(q.regions().unwrap()[1], vec![0, 2, 1, 1]);
}

#[test]
fn queens_solution_computed_line_and_bare_grid() {
    let text = "....\n....\n....\n....\n# solution-computed: 2 0 3 1\n";
    let p = parse_str(text, Format::Queens, "t").unwrap();
    let q = p[0].board_as::<QueensBoard>().unwrap();
    assert!(q.regions().is_none());
    assert_eq!(q.known_solution, Some(vec![2, 0, 3, 1]));
}

#[test]
fn queens_bad_solution_lines_are_located() {
    let bad_token = QUEENS4.replace("1 3 0 2", "1 3 x 2");
    let e = err(&bad_token, Format::Queens);
    assert_eq!(at(&e), (Some(0), 6, 17));
    let short = QUEENS4.replace("1 3 0 2", "1 3 0");
    let e = err(&short, Format::Queens);
    assert!(matches!(e.kind, ParseErrorKind::BadSolution { .. }));
    let out_of_range = QUEENS4.replace("1 3 0 2", "1 3 0 4");
    assert_eq!(err(&out_of_range, Format::Queens).column, 19);
    // Columns 0 and 1 in rows 0 and 1 touch diagonally.
    let touching = QUEENS4.replace("1 3 0 2", "0 1 3 2");
    let e = err(&touching, Format::Queens);
    assert!(e.to_string().contains("breaks"), "{e}");
}

#[test]
fn queens_row_length_and_region_count() {
    let e = err("AAB\nAB\nCCC\n", Format::Queens);
    assert_eq!(at(&e), (Some(0), 2, 3));
    assert!(matches!(
        e.kind,
        ParseErrorKind::QueensRowLength {
            row: 1,
            size: 3,
            found: 2
        }
    ));
    let e = err("AAB\nABB\nBBB\n", Format::Queens);
    assert!(matches!(
        e.kind,
        ParseErrorKind::RegionCount {
            expected: 3,
            found: 2,
            ..
        }
    ));
    let e = err("AAB\nABC\nBBD\n", Format::Queens);
    assert_eq!(at(&e), (Some(0), 3, 3));
}

#[test]
fn sudoku_lines() {
    let text = "# comment\n1.3.3.1.2.4.4.2.\n\n0000000000000000\n";
    let p = parse_str(text, Format::Sudoku, "t").unwrap();
    assert_eq!(p.len(), 2);
    let s = p[0].board_as::<Sudoku>().unwrap();
    assert_eq!(s.box_size(), 2);
    assert_eq!(s.clues(), 8);
    assert_eq!(s.to_line(), "1.3.3.1.2.4.4.2.");
    let s = p[1].board_as::<Sudoku>().unwrap();
    assert_eq!(s.clues(), 0);
}

#[test]
fn sudoku_sizes_up_to_25x25() {
    for (n, box_size) in [(4, 2), (9, 3), (16, 4), (25, 5)] {
        let mut line = ".".repeat(n * n);
        // The largest digit in the last cell.
        line.replace_range(
            n * n - 1..,
            &crate::puzzle::kinds::sudoku::symbol(n - 1).to_string(),
        );
        let p = parse_str(&line, Format::Sudoku, "t").unwrap();
        let s = p[0].board_as::<Sudoku>().unwrap();
        assert_eq!((s.box_size(), s.clues()), (box_size, 1));
        assert_eq!(s.cells()[n * n - 1], Some(n - 1));
    }
    // 'P' is digit 25: beyond a 16x16 grid.
    let mut line = ".".repeat(256);
    line.replace_range(0..1, "P");
    assert!(matches!(
        err(&line, Format::Sudoku).kind,
        ParseErrorKind::UnknownChar { found: 'P', .. }
    ));
}

#[test]
fn sudoku_letters_are_case_insensitive() {
    let mut line = vec!['.'; 256];
    line[0] = 'g';
    line[17] = 'G';
    let line: String = line.into_iter().collect();
    // Both are digit 16; (0,0) and (1,1) share a box, so they clash.
    let e = err(&line, Format::Sudoku);
    assert_eq!(at(&e), (Some(0), 1, 18));
    assert!(matches!(
        e.kind,
        ParseErrorKind::ClashingClue {
            unit: "box",
            first_row: 0,
            first_col: 0,
            ..
        }
    ));
    let ok = line.replace('G', "f");
    assert!(parse_str(&ok, Format::Sudoku, "t").is_ok());
}

#[test]
fn sudoku_wrong_length_and_bad_characters() {
    let e = err("1.3.3.1.2.4.4.2.\n1.3.3.1.2.4.4.2\n", Format::Sudoku);
    assert_eq!(at(&e), (Some(1), 2, 16));
    assert_eq!(e.kind, ParseErrorKind::SudokuLength(15));
    let e = err(&".".repeat(82), Format::Sudoku);
    assert_eq!(at(&e), (Some(0), 1, 82));
    let e = err("1.3.3.1.2.4.4.5.", Format::Sudoku);
    assert_eq!(at(&e), (Some(0), 1, 15));
    assert!(e.to_string().contains("a digit 1-4"), "{e}");
    let e = err(&format!("{}x", ".".repeat(80)), Format::Sudoku);
    assert_eq!(at(&e), (Some(0), 1, 81));
}

#[test]
fn sudoku_clash_points_at_the_second_clue() {
    // Row clash: two 1s in row 0.
    let e = err("1..1............", Format::Sudoku);
    assert_eq!(at(&e), (Some(0), 1, 4));
    assert!(matches!(
        e.kind,
        ParseErrorKind::ClashingClue {
            unit: "row",
            symbol: '1',
            ..
        }
    ));
    // Column clash.
    let e = err("2...........2...", Format::Sudoku);
    assert_eq!(at(&e), (Some(0), 1, 13));
    assert!(matches!(
        e.kind,
        ParseErrorKind::ClashingClue { unit: "column", .. }
    ));
}

#[test]
fn txt_files_are_sniffed() {
    let sudoku = format!("{}\n", ".".repeat(81));
    assert_eq!(format_of(Path::new("a.txt"), &sudoku), Some(Format::Sudoku));
    assert_eq!(format_of(Path::new("a.txt"), QUEENS4), Some(Format::Queens));
    assert_eq!(format_of(Path::new("a.HEX"), ""), Some(Format::Hex));
    assert_eq!(format_of(Path::new("a.csv"), ""), None);
    assert_eq!(format_of(Path::new("a"), ""), None);
}

#[test]
fn shared_data_files_are_sniffed_and_parse() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data");
    let q = data.join("queens/capybaradoku_levels.txt");
    let s = data.join("sudoku/norvig_top95.txt");
    let queens = load(&q).unwrap();
    assert_eq!(queens.len(), 121);
    assert!(queens.iter().all(|p| p
        .board_as::<QueensBoard>()
        .is_some_and(|b| b.known_solution.is_some())));
    let sudoku = load(&s).unwrap();
    assert_eq!(sudoku.len(), 95);
}

#[test]
fn unreadable_file_and_unknown_extension() {
    let e = load(Path::new("/nonexistent/zeroone/x.hex")).unwrap_err();
    assert_eq!((e.line, e.column, e.puzzle), (0, 0, None));
    assert!(matches!(e.kind, ParseErrorKind::Io(_)));
    assert!(e
        .to_string()
        .starts_with("/nonexistent/zeroone/x.hex: expected a readable file"));
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.csv");
    std::fs::write(&p, "A").unwrap();
    assert!(matches!(
        load(&p).unwrap_err().kind,
        ParseErrorKind::UnknownFormat { .. }
    ));
}

#[test]
fn invalid_utf8_is_located() {
    let e = parse_bytes(b"AB\n\xffC\n", Format::Queens, "t").unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    assert_eq!(e.kind, ParseErrorKind::NotText);
}

#[test]
fn load_models_names_each_model() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("boards.hex");
    std::fs::write(&p, ".\n\n . .\n. . .\n . .\n").unwrap();
    let models = load_models(&p).unwrap();
    let names: Vec<&str> = models.iter().map(|m| m.name()).collect();
    assert_eq!(names, vec!["boards#0", "boards#1"]);
}

/// The generic model is read by the model crate (its own tests locate every error); read as
/// a file, its error names the file and keeps the reader's line, column and message.
#[test]
fn generic_model_errors_name_the_file_through_the_stream() {
    for (text, format) in [
        (
            "{\"variables\": [\"a\"],\n \"families\": [[]]}",
            Format::Json,
        ),
        ("variables = [\"a\"]\nfamilies = 3\n", Format::Toml),
        ("{\"variables\": [], \"families\": []}", Format::Json),
    ] {
        let e = err(text, format);
        let direct = if format == Format::Json {
            crate::read::generic::parse_json(text)
        } else {
            crate::read::generic::parse_toml(text)
        }
        .unwrap_err();
        assert_eq!(at(&e), (Some(0), direct.line, direct.column));
        assert_eq!(e.kind.to_string(), direct.kind.to_string());
        let located = format!(
            "t:{}:{}: puzzle 0: {}",
            direct.line, direct.column, direct.kind
        );
        assert_eq!(e.to_string(), located);
    }
}

#[test]
fn writers_round_trip() {
    let p = parse_str(HEX3, Format::Hex, "t").unwrap();
    let b = p[0].board_as::<HexBoard>().unwrap();
    // The board is reached only as its own type.
    assert!(p[0].board_as::<QueensBoard>().is_none());
    let text = b.to_text();
    assert_eq!(text, " A B\nA B C\n C C\n");
    assert_eq!(parse_str(&text, Format::Hex, "t").unwrap(), p);
    let bare = HexBoard::geometry(5).unwrap();
    let text = bare.to_text();
    assert_eq!(
        parse_str(&text, Format::Hex, "t").unwrap(),
        vec![Puzzle::of(bare)]
    );

    let p = parse_str(QUEENS4, Format::Queens, "t").unwrap();
    let q = p[0].board_as::<QueensBoard>().unwrap();
    let text = q.to_text();
    assert_eq!(text, "AABB\nACBB\nCCDD\nCCDD\n# solution: 1 3 0 2\n");
    assert_eq!(parse_str(&text, Format::Queens, "t").unwrap(), p);
}

proptest! {
    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        for format in [Format::Hex, Format::Queens, Format::Sudoku, Format::Json, Format::Toml] {
            let _ = parse_bytes(&bytes, format, "fuzz");
        }
    }

    #[test]
    fn random_grid_text_never_panics(text in "[A-Da-b. #\n0-9:{}\\[\\]\",=]{0,200}") {
        for format in [Format::Hex, Format::Queens, Format::Sudoku, Format::Json, Format::Toml] {
            if let Err(e) = parse_str(&text, format, "fuzz") {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn written_hex_boards_read_back(width in 0usize..6, seed in any::<u64>()) {
        let width = 2 * width + 1;
        let mut b = HexBoard::geometry(width).unwrap();
        // Colour every cell by its row, then shuffle region ids by the seed: still n regions.
        let perm: Vec<usize> = {
            let mut p: Vec<usize> = (0..width).collect();
            let mut s = seed;
            for i in (1..width).rev() {
                s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                p.swap(i, (s >> 33) as usize % (i + 1));
            }
            p
        };
        let regions = (0..width).map(|r| vec![perm[r]; b.row_len(r)]).collect();
        b = HexBoard::coloured(regions).unwrap();
        let back = parse_str(&b.to_text(), Format::Hex, "t").unwrap();
        prop_assert_eq!(back, vec![Puzzle::of(b)]);
    }
}

#[test]
fn a_byte_order_mark_is_whitespace_in_every_format() {
    // A BOM'd .txt of Sudoku lines was sniffed as Queens (the BOM made the line 82 characters).
    let line = format!("\u{feff}{}\n", ".".repeat(81));
    assert_eq!(format_of(Path::new("a.txt"), &line), Some(Format::Sudoku));
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bom.txt");
    std::fs::write(&p, &line).unwrap();
    let loaded = load(&p).unwrap();
    assert!(loaded.len() == 1 && loaded[0].board_as::<Sudoku>().is_some());
    // Grid formats: the BOM counts as a blank column before the first cell.
    let q = parse_str(&format!("\u{feff}{QUEENS4}"), Format::Queens, "t").unwrap();
    assert_eq!(q.len(), 1);
    let h = parse_str(&format!("\u{feff}{HEX3}"), Format::Hex, "t").unwrap();
    assert_eq!(h.len(), 1);
    let e = err("\u{feff}ABC\nAB\n", Format::Queens);
    assert_eq!(at(&e), (Some(0), 1, 4));
    // Generic models.
    let json = "\u{feff}{\"variables\": [\"a\"], \"families\": [{\"name\": \"f\", \"sense\": \"exactly-one\", \"rows\": [[\"a\"]]}]}";
    assert!(parse_str(json, Format::Json, "t").is_ok());
    let toml = "\u{feff}variables = [\"a\"]\n[[families]]\nname = \"f\"\nsense = \"exactly-one\"\nrows = [[\"a\"]]\n";
    assert!(parse_str(toml, Format::Toml, "t").is_ok());
}

#[test]
fn control_characters_in_labels_and_family_names_are_refused_where_they_are() {
    let json = "{\"variables\": [\"a\", \"b\\nc\"],\n \"families\": [{\"name\": \"f\", \"sense\": \"exactly-one\", \"rows\": [[\"a\"]]}]}";
    let e = err(json, Format::Json);
    assert!(
        matches!(&e.kind, ParseErrorKind::GenericModel(GenericErrorKind::ControlChar { what: "variable label", found }) if found == "b\nc"),
        "{e}"
    );
    assert_eq!((e.line, e.column), (1, 21));
    let toml = "variables = [\"a\"]\n[[families]]\nname = \"f\\tg\"\nsense = \"exactly-one\"\nrows = [[\"a\"]]\n";
    let e = err(toml, Format::Toml);
    assert!(
        matches!(
            &e.kind,
            ParseErrorKind::GenericModel(GenericErrorKind::ControlChar {
                what: "family name",
                ..
            })
        ),
        "{e}"
    );
    assert_eq!(e.line, 3);
}

#[test]
fn the_stream_reads_one_puzzle_at_a_time_and_stops_at_the_first_error() {
    let text = format!("{}\nnot a sudoku\n{}\n", ".".repeat(81), ".".repeat(81));
    let mut stream = PuzzleStream::new(text.as_bytes(), Some(Format::Sudoku), "t");
    assert!(matches!(stream.next(), Some(Ok(p)) if p.board_as::<Sudoku>().is_some()));
    let e = stream.next().unwrap().unwrap_err();
    assert_eq!(at(&e), (Some(1), 2, 13));
    assert!(stream.next().is_none());
}

#[test]
fn gzip_files_read_like_plain_ones_and_name_models_without_gz() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "# two\n{}\n{}\n",
        ".".repeat(81),
        "1".to_string() + &".".repeat(80)
    );
    let p = dir.path().join("two.txt.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).unwrap();
    std::fs::write(&p, gz.finish().unwrap()).unwrap();
    let models = load_models(&p).unwrap();
    let names: Vec<&str> = models.iter().map(|m| m.name()).collect();
    assert_eq!(names, ["two#0", "two#1"]);
    assert_eq!(models[1].givens(), &[0]);
    // A gzip stream that breaks off is a read error, not a panic.
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
    assert!(matches!(load(&p).unwrap_err().kind, ParseErrorKind::Io(_)));
}

#[test]
fn an_unknown_extension_can_be_named_and_standard_input_needs_a_format() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("puzzles.dat");
    std::fs::write(&p, ".".repeat(16)).unwrap();
    assert!(matches!(
        open(&p, None).err().unwrap().kind,
        ParseErrorKind::UnknownFormat { .. }
    ));
    let puzzles: Vec<_> = open(&p, Some(Format::Sudoku)).unwrap().collect();
    assert!(
        matches!(&puzzles[..], [Ok(p)] if p.board_as::<Sudoku>().is_some_and(|s| s.size() == 4))
    );
    assert!(matches!(
        open(Path::new("-"), None).err().unwrap().kind,
        ParseErrorKind::FormatNeeded { .. }
    ));
}

proptest! {
    #[test]
    fn random_bytes_through_the_stream_never_panic(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
        gzip in any::<bool>(),
    ) {
        use std::io::Write;
        let bytes = if gzip {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(&bytes).unwrap();
            gz.finish().unwrap()
        } else {
            bytes
        };
        let programs = crate::read::FORMATS.iter().map(|&f| Some(Format::Program(f)));
        let formats = [None, Some(Format::Hex), Some(Format::Queens), Some(Format::Sudoku), Some(Format::Json), Some(Format::Toml)];
        for format in formats.into_iter().chain(programs) {
            let reader = gunzip_if_needed(std::io::Cursor::new(bytes.clone())).unwrap();
            for item in PuzzleStream::new(reader, format, "fuzz").models() {
                if let Err(e) = item {
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }
}

proptest! {
    /// Text made of the characters the 0-1 program formats use: every reader ends with a model
    /// or one located error, never a panic.
    #[test]
    fn random_program_text_never_panics(text in "[x~0-9 +\\-<>=;:|*\n.eEa-cpnfMINSTBOUDRHLGmarkeINTORGQ'\\\\]{0,300}") {
        for &format in crate::read::FORMATS {
            let name = format!("fuzz.{}", format.name());
            match parse_str(&text, Format::Program(format), &name) {
                Ok(models) => prop_assert_eq!(models.len(), 1),
                Err(e) => prop_assert!(e.to_string().starts_with(&format!("{name}:")), "{}", e),
            }
        }
    }
}

/// The shipped examples of the 0-1 program formats (`examples/formats/`), each with the
/// registered format its extension names, read once. Every registered format must have one
/// (adding a format adds its example there, which this test and the README point to).
fn program_examples() -> &'static [(crate::read::Format, String)] {
    static EXAMPLES: std::sync::OnceLock<Vec<(crate::read::Format, String)>> =
        std::sync::OnceLock::new();
    EXAMPLES.get_or_init(|| {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/formats");
        let mut examples: Vec<(crate::read::Format, String)> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter_map(|path| {
                let ext = path.extension()?.to_str()?.to_string();
                let format = crate::read::Format::by_extension(&ext)?;
                Some((format, std::fs::read_to_string(&path).unwrap()))
            })
            .collect();
        examples.sort_by_key(|(format, text)| (format.name(), text.clone()));
        for format in crate::read::FORMATS {
            assert!(
                examples.iter().any(|(f, _)| f == format),
                "no example of {format} in {}",
                dir.display()
            );
        }
        examples
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]
    /// Malformed input of every format made from a valid file: a cut, a random insertion and a
    /// swapped character somewhere in a real example. Each reads to one model or fails with a
    /// located error naming the file and a line of the text (line 0: the whole file).
    #[test]
    fn mutated_examples_of_every_format_read_or_fail_located(
        which in 0usize..64,
        cut in any::<(u16, u8)>(),
        insert in any::<(u16, String)>(),
        swap in any::<(u16, char)>(),
    ) {
        let examples = program_examples();
        let (format, text) = &examples[which % examples.len()];
        let format = *format;
        let mut chars: Vec<char> = text.chars().collect();
        let at = |k: u16, len: usize| if len == 0 { 0 } else { k as usize % len };
        let start = at(cut.0, chars.len());
        let end = (start + cut.1 as usize % 8).min(chars.len());
        chars.drain(start..end);
        let i = at(insert.0, chars.len() + 1);
        chars.splice(i..i, insert.1.chars().take(6));
        if !chars.is_empty() {
            let j = at(swap.0, chars.len());
            chars[j] = swap.1;
        }
        let mutated: String = chars.into_iter().collect();
        let name = format!("mutated.{}", format.name());
        let lines = mutated.lines().count() + 1;
        match parse_str(&mutated, Format::Program(format), &name) {
            Ok(models) => prop_assert_eq!(models.len(), 1),
            Err(e) => {
                prop_assert!(e.to_string().starts_with(&format!("{name}:")), "{}", e);
                prop_assert!(e.line <= lines, "line {} of {}: {}", e.line, lines, e);
            }
        }
    }
}

// The readers' malformed samples (test data of the model crate, not visible from here).
#[path = "../../../../model/src/read/malformed.rs"]
mod malformed;

/// The malformed samples of every 0-1 program format, read as files: the error names the
/// file, the line and the column.
#[test]
fn malformed_programs_are_located_errors_through_the_stream() {
    for &(format, text, (line, column), word) in malformed::MALFORMED {
        let name = format!("bad.{}", format.name());
        let e = parse_str(text, Format::Program(format), &name).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{e}");
        let located = if column > 0 {
            format!("{name}:{line}:{column}: expected ")
        } else {
            format!("{name}:{line}: expected ")
        };
        assert!(e.to_string().starts_with(&located), "{e}");
        assert!(e.to_string().contains(word), "{e}");
    }
}

#[test]
fn program_formats_go_by_extension_and_read_through_gzip() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny.cnf.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(b"p cnf 2 1\n1 -2 0\n").unwrap();
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let models = load_models(&path).unwrap();
    assert_eq!((models.len(), models[0].name()), (1, "tiny#0"));
    assert_eq!(models[0].own_variables(), 2);
    for (ext, format) in [
        ("opb", "opb"),
        ("cnf", "cnf"),
        ("lp", "lp"),
        ("mps", "mps"),
        ("xcc", "xcc"),
        ("dlx", "xcc"),
    ] {
        let found = format_of_name(Path::new(&format!("a.{ext}")))
            .flatten()
            .map(Format::name);
        assert_eq!(found, Some(format));
    }
}
