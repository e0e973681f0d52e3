//! Deterministic output for users' snapshot tests: `--stable`, `solve --all`, labels, `show`
//! indices and `zeroone snapshot`, run through the binary.

use std::process::{Command, Output};

use serde_json::Value;

fn zeroone(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_zeroone"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "zeroone {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn stable_solve_output_is_byte_identical_and_carries_no_statistics() {
    let args = [
        "solve",
        "models/hex-9.hex",
        "--backend",
        "bitset",
        "--stable",
        "--json",
    ];
    let first = zeroone(&args).stdout;
    assert_eq!(first, zeroone(&args).stdout);
    // The same bytes whatever the number of jobs (one hex board, then a file of many Sudoku).
    for jobs in ["1", "2"] {
        let mut with_jobs = args.to_vec();
        with_jobs.extend(["--jobs", jobs]);
        assert_eq!(first, zeroone(&with_jobs).stdout, "--jobs {jobs}");
    }
    let many = |jobs: &str| {
        zeroone(&[
            "solve",
            "models/sudoku-9x9.sudoku",
            "--stable",
            "--json",
            "--jobs",
            jobs,
        ])
        .stdout
    };
    assert_eq!(many("1"), many("2"));
    let v = &lines(&zeroone(&args))[0];
    assert_eq!(v["status"], "solved");
    assert!(v.get("stats").is_none(), "{v}");
    // Without --stable the statistics (and their timings) are there.
    let timed = &lines(&zeroone(&[
        "solve",
        "models/hex-9.hex",
        "--backend",
        "bitset",
        "--json",
    ]))[0];
    assert!(timed["stats"]["seconds"].is_number(), "{timed}");
    // The text form drops the time taken too.
    let text = zeroone(&[
        "solve",
        "models/hex-9.hex",
        "--backend",
        "bitset",
        "--stable",
    ]);
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    assert!(
        text.starts_with("puzzle 0 (hex-9#0): solved by bitset, verified\n"),
        "{text}"
    );
}

#[test]
fn stable_count_and_gauss_drop_timings_and_floating_point() {
    let count = [
        "count",
        "models/hex-bare.hex",
        "--backend",
        "bitset",
        "--stable",
        "--json",
    ];
    let v = lines(&zeroone(&count));
    assert!(v.iter().all(|l| l.get("stats").is_none()));
    assert_eq!(zeroone(&count).stdout, zeroone(&count).stdout);
    let gauss = ["gauss", "models/hex-5.hex", "--stable", "--json"];
    let g = &lines(&zeroone(&gauss))[0];
    assert!(
        g.get("least_norm").is_none() && g["rank"].is_number(),
        "{g}"
    );
    let md = zeroone(&["gauss", "models/hex-5.hex", "--stable"]).stdout;
    let md = String::from_utf8_lossy(&md).into_owned();
    assert!(md.contains("rank") && !md.contains("Least-norm"), "{md}");
}

#[test]
fn show_json_lines_carry_their_index() {
    let v = lines(&zeroone(&["show", "--json", "models/hex-bare.hex"]));
    let indices: Vec<u64> = v.iter().map(|l| l["index"].as_u64().unwrap()).collect();
    assert_eq!(indices, (0..v.len() as u64).collect::<Vec<_>>());
    let one = lines(&zeroone(&[
        "show",
        "--json",
        "--index",
        "2",
        "models/hex-bare.hex",
    ]));
    assert_eq!(one[0]["index"], 2);
}

#[test]
fn solve_all_prints_every_verified_solution_once() {
    // The bare width-5 hex board has as many solutions as `count` says; --all lists each once.
    let count = lines(&zeroone(&[
        "count",
        "models/hex-bare.hex",
        "--index",
        "2",
        "--backend",
        "bitset",
        "--json",
    ]))[0]["count"]
        .as_u64()
        .unwrap();
    assert!(count >= 2);
    let all = lines(&zeroone(&[
        "solve",
        "--all",
        "--json",
        "models/hex-bare.hex",
        "--index",
        "2",
        "--backend",
        "bitset",
    ]));
    // The last line closes the list: status, how many, whether that is all.
    let (closing, all) = all.split_last().unwrap();
    assert_eq!(
        (closing["solutions"].as_u64(), closing["complete"].as_bool()),
        (Some(count), Some(true))
    );
    assert_eq!(all.len() as u64, count);
    let mut placements: Vec<String> = all.iter().map(|l| l["placements"].to_string()).collect();
    placements.sort();
    placements.dedup();
    assert_eq!(placements.len() as u64, count, "solutions repeat");
    for (k, l) in all.iter().enumerate() {
        assert_eq!(
            (l["solution"].as_u64(), l["verified"].as_bool()),
            (Some(k as u64), Some(true))
        );
    }
    let limited = lines(&zeroone(&[
        "solve",
        "--all",
        "--limit",
        "1",
        "--json",
        "models/hex-bare.hex",
        "--index",
        "2",
        "--backend",
        "enum",
    ]));
    assert_eq!(limited.len(), 2, "one solution and the closing line");
    assert_eq!(limited[1]["status"], "limit");
}

#[test]
fn generic_answers_use_labels_unless_ids_are_asked_for() {
    let all = lines(&zeroone(&[
        "solve",
        "--all",
        "--json",
        "models/latin-3.toml",
        "--backend",
        "sat",
    ]));
    assert_eq!(
        all.len(),
        2,
        "the shipped Latin square has one completion, then the closing line"
    );
    let ones: Vec<&str> = all[0]["ones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(ones.contains(&"r0c0=1") && ones.len() == 9, "{ones:?}");
}

#[test]
fn snapshot_text_is_stable_and_holds_model_gauss_and_solutions() {
    let args = ["snapshot", "models/hex-bare.hex", "--index", "2"];
    let text = zeroone(&args).stdout;
    assert_eq!(text, zeroone(&args).stdout);
    let v: Value = serde_json::from_slice(&text).unwrap();
    let snap = &v[0];
    assert_eq!(snap["index"], 2);
    assert_eq!(snap["model"]["kind"], "hex");
    assert!(snap["gauss"]["rank"].is_number());
    let n = snap["solutions"]["count"].as_u64().unwrap();
    assert_eq!(
        snap["solutions"]["solutions"].as_array().unwrap().len() as u64,
        n
    );
    assert_eq!(snap["solutions"]["exhaustive"], true);
    // Two backends give the same snapshot: the solution set is sorted, not in search order.
    let sat = zeroone(&[
        "snapshot",
        "models/hex-bare.hex",
        "--index",
        "2",
        "--backend",
        "sat",
    ]);
    let sat: Value = serde_json::from_slice(&sat.stdout).unwrap();
    assert_eq!(
        sat[0]["solutions"]["solutions"],
        snap["solutions"]["solutions"]
    );
}

#[test]
fn solve_all_refuses_limits_it_could_not_enforce() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_zeroone"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap()
    };
    for args in [
        vec![
            "solve",
            "--all",
            "models/hex-5.hex",
            "--backend",
            "brute",
            "--time-limit",
            "1",
        ],
        vec![
            "solve",
            "--all",
            "models/hex-5.hex",
            "--memory-limit",
            "100",
        ],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty());
    }
    // A backend that stops itself honours the limit in this process.
    let o = run(&[
        "solve",
        "--all",
        "models/hex-5.hex",
        "--backend",
        "bitset",
        "--time-limit",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(0));
}
