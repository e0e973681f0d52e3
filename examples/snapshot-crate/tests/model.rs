//! Snapshot tests of this crate's models, as the zeroone README describes: the summary, the
//! Gauss relaxation and every verified solution, with no redaction (the views are stable).

use my_puzzle_model::corner_free_permutations;
use zeroone::testing::{count, load, snapshot, ModelView, SnapshotOptions};

#[test]
fn the_built_model_and_its_solutions() {
    let model = corner_free_permutations();
    insta::assert_json_snapshot!("built_summary", ModelView::of(&model));
    let snap = snapshot(&model, &SnapshotOptions::default()).unwrap();
    insta::assert_json_snapshot!("built_solutions", snap.solutions);
    // A second backend counts the same solutions.
    assert_eq!(count(&model, "sat").unwrap().count, snap.solutions.count);
}

#[test]
fn the_puzzle_file_has_one_solution() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzle.queens");
    let models = load(path).unwrap();
    let snap = snapshot(&models[0], &SnapshotOptions::default()).unwrap();
    insta::assert_json_snapshot!("puzzle_file", snap);
    assert_eq!(snap.solutions.count, 1);
}
