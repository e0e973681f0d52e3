//! Tests of the shards: the invariant, partial counts summing to the total, row plans agreeing.

use super::count::{count_all_parts, source_layer};
use super::estimate::{MemoryEstimate, BASE_BYTES};
use super::halves::HexHalves;
use super::plan::{RowOrder, RowPlan, StreamedRows};
use super::states::StateTable;
use super::ShardError;
use crate::puzzle::kinds::hex::lines::hex_count;

#[test]
fn the_invariant_is_shared_by_both_halves_and_the_mirror_image() {
    let h = HexHalves::new(9).unwrap();
    let half = h.half();
    let (layer, _, _) = source_layer(&h, RowPlan::default()).unwrap();
    let table = h
        .class_table(&layer, &[half - 2, half - 1], 0, 1, 100)
        .unwrap();
    let middle = &h.rows[half];
    let active = (1u64 << 18) - 1;
    let mut checked = 0;
    table.for_each(|key, _| {
        assert_eq!(h.invariant(key), h.invariant(h.reflect(key)));
        for &mask in middle {
            if key & mask == 0 {
                let bottom = h.turn(!(key | mask) & active);
                assert_eq!(h.invariant(key), h.invariant(bottom), "{key:b}");
                checked += 1;
            }
        }
    });
    assert!(checked > 100);
}

#[test]
fn shards_sum_to_the_unsharded_count_in_both_row_orders() {
    for width in [1usize, 3, 5, 7, 9, 11, 13, 15] {
        let expected = hex_count(width, (true, true)).unwrap().unwrap().0;
        for order in RowOrder::ALL {
            for parts in [1usize, 2, 3, 7] {
                let plan = RowPlan::new(order, StreamedRows::Two);
                let (total, all) = count_all_parts(width, parts, plan).unwrap().unwrap();
                assert_eq!(total, expected, "width {width}, {parts} parts, {order:?}");
                assert_eq!(all.len(), parts);
            }
        }
    }
}

#[test]
fn every_width_to_17_gives_oeis_a002047_with_several_shard_counts() {
    let a002047 = [1u128, 2, 6, 28, 244, 2544, 35600, 659632, 15106128];
    for (i, &expected) in a002047.iter().enumerate() {
        let width = 2 * i + 1;
        for parts in [2usize, 5, 16] {
            let (total, _) = count_all_parts(width, parts, RowPlan::default())
                .unwrap()
                .unwrap();
            assert_eq!(total, expected, "width {width}, {parts} parts");
        }
    }
}

/// Counts every shard of `width` in `parts` with two and with three streamed rows (both
/// from one process each) and checks them shard by shard: the same partial count and the
/// same states of the class (the top states do not depend on how they were reached).
fn three_streamed_rows_match_two(width: usize, parts: usize, order: RowOrder) {
    let run = |streamed| {
        count_all_parts(width, parts, RowPlan::new(order, streamed))
            .unwrap()
            .unwrap()
    };
    let ((total2, two), (total3, three)) = (run(StreamedRows::Two), run(StreamedRows::Three));
    assert_eq!(total2, total3, "width {width}, {parts} parts, {order:?}");
    for (a, b) in two.iter().zip(&three) {
        let at = format!("width {width}, shard {}/{parts}, {order:?}", a.part);
        assert_eq!((a.part, a.count), (b.part, b.count), "{at}");
        assert_eq!(a.class_states, b.class_states, "{at}");
        assert_eq!(b.plan, RowPlan::new(order, StreamedRows::Three));
        // One source row fewer; with rows enough, a smaller source layer.
        if width / 2 > 3 {
            assert_eq!(a.source_states.len(), b.source_states.len() + 1, "{at}");
            assert!(a.source_states.last() > b.source_states.last(), "{at}");
        }
    }
}

#[test]
fn three_streamed_rows_give_the_two_row_counts_shard_by_shard() {
    for width in [1usize, 3, 5, 7, 9, 11, 13, 15] {
        for order in RowOrder::ALL {
            for parts in [1usize, 2, 3, 7] {
                three_streamed_rows_match_two(width, parts, order);
            }
        }
    }
}

/// Widths 17-23 in 8 shards, top-down and middle-first: minutes in a release build (width
/// 23: about 1 GiB). `cargo test --release --lib kinds::hex::shards -- --ignored`.
#[test]
#[ignore = "minutes in a release build; run with --ignored"]
fn three_streamed_rows_give_the_two_row_counts_shard_by_shard_to_width_23() {
    for width in [17usize, 19, 21, 23] {
        for order in [RowOrder::TopDown, RowOrder::MiddleFirst] {
            three_streamed_rows_match_two(width, 8, order);
        }
    }
}

#[test]
fn the_rows_of_every_plan_are_the_top_rows_once_each() {
    for half in 0..14 {
        for order in RowOrder::ALL {
            for streamed in StreamedRows::ALL {
                let (source, stream) = RowPlan::new(order, streamed).rows(half);
                assert_eq!(stream.len(), half.min(streamed.count()));
                let mut all: Vec<usize> = source.into_iter().chain(stream).collect();
                all.sort_unstable();
                assert_eq!(all, (0..half).collect::<Vec<_>>(), "{order:?} {streamed:?}");
            }
        }
    }
}

#[test]
fn a_shard_holds_a_fraction_of_the_states() {
    let (_, all) = count_all_parts(15, 4, RowPlan::default()).unwrap().unwrap();
    let (_, one) = count_all_parts(15, 1, RowPlan::default()).unwrap().unwrap();
    let whole = one[0].class_states;
    let held: u64 = all.iter().map(|p| p.class_states).sum();
    assert_eq!(held, whole);
    for p in &all {
        assert!(p.class_states * 2 < whole, "{p:?} of {whole}");
        assert!(p.count > 0);
    }
}

#[test]
fn a_table_grows_when_its_size_was_guessed_too_small() {
    let t = StateTable::with_slots(16)
        .fill(10_000, |i, out| {
            out.add(i as u64 % 5000, 1);
            out.add(7, 2);
        })
        .unwrap();
    assert_eq!(t.len(), 5000);
    assert_eq!(t.get(7), Some(2 + 2 * 10_000));
    assert_eq!(t.get(4999), Some(2));
    assert_eq!(t.get(5000), None);
    let layer = t.into_layer();
    assert_eq!(layer.len(), 5000);
    assert_eq!(layer.iter().map(|e| e[1]).sum::<u64>(), 30_000);
    let sorted = StateTable::with_slots(16)
        .fill(layer.len(), |i, out| {
            let e = layer.iter().nth(i).unwrap();
            out.add(e[0], e[1]);
        })
        .unwrap()
        .into_sorted();
    assert_eq!(sorted.get(7), Some(20_002));
    assert_eq!(sorted.get(5000), None);
    let mut found = [1u64; 3];
    sorted.get_many(&[4999, 5001, 7], &mut found);
    assert_eq!(found, [2, 0, 20_002]);
}

#[test]
fn the_estimate_covers_the_measured_states_and_shrinks_with_shards() {
    let h = HexHalves::new(17).unwrap();
    for streamed in StreamedRows::ALL {
        let plan = RowPlan::new(RowOrder::TopDown, streamed);
        let e = MemoryEstimate::measure(&h, plan, 1000).unwrap();
        assert_eq!(e.plan, plan);
        assert!(e.measured_layers < e.source_states.len(), "{e:?}");
        let (_, all) = count_all_parts(17, 1, plan).unwrap().unwrap();
        let exact = &all[0];
        assert_eq!(e.source_states.len(), exact.source_states.len());
        // Measured layers are exact; guessed ones within a factor of the truth.
        let measured = e.measured_layers;
        assert_eq!(e.source_states[..measured], exact.source_states[..measured]);
        let near = |guess: u64, real: u64| 4 * guess >= 3 * real && guess <= 3 * real;
        for (&guess, &real) in e.source_states.iter().zip(&exact.source_states) {
            assert!(near(guess, real), "{e:?} against {exact:?}");
        }
        assert!(
            near(e.top_states, exact.class_states),
            "{e:?} against {exact:?}"
        );
        assert!(e.peak_bytes(1) > e.peak_bytes(4));
        let limit = e.peak_bytes(3);
        assert!(e.parts_within(limit).is_some_and(|k| k <= 3));
        assert_eq!(e.parts_within(1), None);
    }
}

#[test]
fn a_third_streamed_row_needs_less_memory_when_the_shards_are_many() {
    let h = HexHalves::new(21).unwrap();
    let estimate = |streamed| {
        MemoryEstimate::measure(&h, RowPlan::new(RowOrder::TopDown, streamed), 1 << 16).unwrap()
    };
    let (two, three) = (estimate(StreamedRows::Two), estimate(StreamedRows::Three));
    assert_eq!(two.source_states.len(), three.source_states.len() + 1);
    // The same rows in the same order: the three-row source layers are the two-row ones
    // but the last, and the states after all top rows are the same.
    assert_eq!(
        two.source_states[..two.source_states.len() - 1],
        three.source_states
    );
    assert_eq!(two.top_states, three.top_states);
    let states = |e: &MemoryEstimate, parts| e.peak_bytes(parts) - BASE_BYTES;
    // Many shards: the source layer dominates, and it is 3-4 times smaller.
    assert!(
        3 * states(&three, 64) < states(&two, 64),
        "{two:?} {three:?}"
    );
    // One shard: the top layer dominates both.
    assert!(2 * states(&three, 1) > states(&two, 1), "{two:?} {three:?}");
}

#[test]
fn a_count_past_u64_is_an_error_not_a_wrapped_number() {
    let r = StateTable::with_slots(16).fill(3, |_, out| out.add(1, u64::MAX / 2));
    assert!(r.is_err());
}

#[test]
fn shard_errors_read_as_the_dp_count_always_said() {
    use crate::backend::BackendError;
    let reason = "a state count passed 2^64".to_string();
    assert_eq!(
        ShardError::TooLarge(reason.clone()).to_string(),
        BackendError::TooLarge {
            backend: "dp".into(),
            reason: reason.clone(),
        }
        .to_string()
    );
    assert_eq!(
        ShardError::Failed(reason.clone()).to_string(),
        BackendError::Failed {
            backend: "dp".into(),
            reason,
        }
        .to_string()
    );
}
