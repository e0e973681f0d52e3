//! `zeroone table` end to end: the seed's width-9 table, formats, board files, bad input.

use std::process::Command;

fn zeroone(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn width_nine_csv_has_the_seed_numbers_in_plain_digits() {
    let (code, out, err) = zeroone(&["table", "hex", "--width", "9", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<&str> = out.lines().collect();
    // The same header at every width: the width is in the title, not in a column name.
    assert_eq!(rows[0], "level,count,log10 count,scaling in n,notes");
    assert_eq!(rows.len(), 7);
    for (row, count) in rows[1..].iter().zip([
        "2305843009213693952",
        "17341763505",
        "25401600",
        "25231",
        "244",
        "29",
    ]) {
        assert!(row.contains(&format!(",{count},")), "{row}");
    }
    assert!(!out.contains("2,305"));
}

#[test]
fn a_board_file_adds_its_own_count_and_json_is_exact() {
    let (code, out, err) = zeroone(&["table", "models/hex-9.hex", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    // Above 2^53 a count is a decimal string; below, a JSON number.
    assert_eq!(rows[0]["count"], "2305843009213693952");
    assert_eq!(rows[6]["level"], "with the board's colours");
    assert_eq!(rows[6]["count"], 1);
}

#[test]
fn widths_and_sizes_give_one_row_each() {
    let (code, out, _) = zeroone(&["table", "hex", "--widths", "1-7", "--format", "csv"]);
    assert_eq!(code, 0);
    // Header plus widths 1, 3, 5, 7 (even widths skipped).
    assert_eq!(out.lines().count(), 5);
    assert!(out
        .lines()
        .nth(4)
        .unwrap()
        .starts_with("7,37,137438953472,"));
    let (code, out, _) = zeroone(&["table", "queens", "--sizes", "4-6", "--format", "csv"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(
            "\n6,68719476736,10.8371,1947792,6.2895,46656,4.6689,720,2.8573,90,1.9542,15,1.1761,\n"
        ),
        "{out}"
    );
}

#[test]
fn bad_input_exits_2_without_output() {
    for args in [
        vec!["table", "hex", "--width", "8"],
        vec!["table", "hex", "--width", "9", "--format", "xml"],
        vec!["table", "hex", "--widths", "9-1"],
        vec!["table", "queens"],
        vec!["table", "missing-file.hex"],
        vec!["table", "sudoku", "--grid", "12x"],
    ] {
        let (code, out, err) = zeroone(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}");
        assert!(!err.is_empty());
    }
}

#[test]
fn output_file_is_written_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.md");
    let (code, out, _) = zeroone(&[
        "table",
        "queens",
        "--size",
        "6",
        "--output",
        path.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    assert!(out.is_empty());
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("| no two touching | 90 |"), "{text}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn width_25_above_the_memory_limit_stops_at_once_with_the_shards_that_fit() {
    let start = std::time::Instant::now();
    let (code, out, err) = zeroone(&["table", "hex", "--width", "25", "--memory-limit", "12G"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("hex width 25: the three-axis count (top-down) needs about"),
        "{err}"
    );
    assert!(err.contains("above the limit of 12.00 GiB"), "{err}");
    for streamed in ["with 2 streamed rows", "with 3 streamed rows"] {
        assert!(
            err.contains(&format!("{streamed}, `--shard k/K` with K >= ")),
            "{err}"
        );
    }
    assert!(
        start.elapsed().as_secs() < 120,
        "the guard must not count first"
    );
    let (code, _, err) = zeroone(&["table", "hex", "--width", "25", "--memory-limit", "lots"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--memory-limit 'lots'"), "{err}");
}

#[test]
fn shards_of_width_15_sum_to_the_count_and_a_bad_shard_is_refused() {
    let mut total = 0u128;
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let (code, out, err) = zeroone(&[
            "table",
            "hex",
            "--width",
            "15",
            "--shard",
            &shard,
            "--row-order",
            "middle-first",
            "--format",
            "csv",
        ]);
        assert_eq!(code, 0, "{err}");
        let first = out.lines().nth(1).unwrap();
        total += first.split(',').nth(1).unwrap().parse::<u128>().unwrap();
    }
    assert_eq!(total, 659_632);
    for bad in ["0/3", "4/3", "x"] {
        let (code, out, err) = zeroone(&["table", "hex", "--width", "15", "--shard", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(out.is_empty());
    }
}

#[test]
fn three_streamed_rows_give_the_shards_of_two_and_the_estimate_shows_both() {
    let shard_count = |k: usize, streamed: &str| {
        let shard = format!("{k}/3");
        let (code, out, err) = zeroone(&[
            "table",
            "hex",
            "--width",
            "15",
            "--shard",
            &shard,
            "--streamed-rows",
            streamed,
            "--format",
            "csv",
        ]);
        assert_eq!(code, 0, "{err}");
        let first = out.lines().nth(1).unwrap().to_string();
        first.split(',').nth(1).unwrap().parse::<u128>().unwrap()
    };
    let mut total = 0;
    for k in 1..=3 {
        let three = shard_count(k, "3");
        assert_eq!(three, shard_count(k, "2"), "shard {k}/3");
        total += three;
    }
    assert_eq!(total, 659_632);
    let (code, out, err) = zeroone(&[
        "table",
        "hex",
        "--width",
        "21",
        "--estimate",
        "--format",
        "csv",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2 * 11, "{out}");
    let gib = |row: &[&str]| row[2].trim_end_matches(" GiB").parse::<f64>().unwrap();
    // Two rows first; with many shards the three-row source layer is the smaller one.
    assert_eq!((rows[0][0], rows[0][1]), ("2", "1"), "{out}");
    assert_eq!((rows[17][0], rows[17][1]), ("3", "64"), "{out}");
    assert!(gib(&rows[17]) < gib(&rows[6]), "{out}");
    for (args, expected) in [
        (
            vec!["--shard", "1/3", "--streamed-rows", "4"],
            "--streamed-rows 4",
        ),
        (vec!["--streamed-rows", "3"], "only with"),
        (
            vec!["--estimate", "--streamed-rows", "1"],
            "--streamed-rows 1",
        ),
        (
            vec!["--estimate", "--row-order", "left"],
            "--row-order 'left'",
        ),
    ] {
        let mut all = vec!["table", "hex", "--width", "15"];
        all.extend(args);
        let (code, out, err) = zeroone(&all);
        assert_eq!(code, 2, "{all:?}: {err}");
        assert!(out.is_empty(), "{all:?}: {out}");
        assert!(err.contains(expected), "{all:?}: {err}");
    }
    // Only a kind whose table splits its count takes --shard or --estimate; the refusal names
    // those kinds (from the registry) with their size flag.
    for flag in [vec!["--shard", "1/2"], vec!["--estimate"]] {
        let mut all = vec!["table", "queens", "--width", "5"];
        all.extend(flag.iter().copied());
        let (code, out, err) = zeroone(&all);
        assert_eq!(code, 2, "{all:?}: {err}");
        assert!(out.is_empty(), "{all:?}: {out}");
        assert!(
            err.contains(&format!(
                "{}: only with `table hex --width N` (no board file)",
                flag[0]
            )),
            "{all:?}: {err}"
        );
    }
}
