//! The classic counting families as exact-cover models, for counting experiments: set
//! partitions (Bell numbers, OEIS A000110), perfect matchings (double factorials, A001147),
//! Latin squares (A002860) and Steiner triple systems (labelled, A030128). No symmetry is
//! broken: the counts are the labelled ones.
//!
//! `examples/counting_models.rs` writes them as JSON model files (`experiments/counting.toml`
//! reads them). Costs: linear in the options made (set partitions of `n`: `2^n - 1` options,
//! refused past [`MAX_PARTITION_ITEMS`]).

use crate::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};

/// The most items [`set_partitions`] takes: 2^20 - 1 options.
pub const MAX_PARTITION_ITEMS: usize = 20;

/// The set partitions of `n` items (`1..=`[`MAX_PARTITION_ITEMS`]) as exact cover: every
/// nonempty subset is an option (variable `s<mask>`, its items the bits of the mask, item 0 the
/// lowest), family `item` ("exactly one" per item). Bell(n) solutions: 1, 2, 5, 15, 52, ...,
/// Bell(12) = 4,213,597, Bell(15) = 1,382,958,545. `None` for `n` out of range.
pub fn set_partitions(n: usize) -> Option<Model> {
    if !(1..=MAX_PARTITION_ITEMS).contains(&n) {
        return None;
    }
    let mut b = ModelBuilder::new(format!("set-partitions-{n}"), PuzzleKind::Generic);
    let subsets = (1usize << n) - 1;
    for s in 1..=subsets {
        b.variable(format!("s{s}"), Coord::Free);
    }
    let item = b.family("item");
    for i in 0..n {
        let vars = (1..=subsets).filter(|s| s >> i & 1 == 1).map(|s| s - 1);
        b.row(item, vars.collect(), Sense::ExactlyOne);
    }
    b.build().ok()
}

/// The perfect matchings of `2m` points (`m >= 1`) as exact cover: every pair is an option
/// (variable `p<i>-<j>`), family `point` ("exactly one" per point). `(2m - 1)!!` solutions:
/// 1, 3, 15, 105, ..., 13!! = 135,135, 23!! = 316,234,143,225. `None` for `m = 0` or more
/// than 64 points.
pub fn perfect_matchings(m: usize) -> Option<Model> {
    let points = 2 * m;
    if !(2..=128).contains(&points) {
        return None;
    }
    let mut b = ModelBuilder::new(format!("perfect-matchings-{points}"), PuzzleKind::Generic);
    let mut pairs = Vec::new();
    for i in 0..points {
        for j in i + 1..points {
            b.variable(format!("p{i}-{j}"), Coord::Free);
            pairs.push((i, j));
        }
    }
    let point = b.family("point");
    for x in 0..points {
        let vars = (0..pairs.len()).filter(|&v| pairs[v].0 == x || pairs[v].1 == x);
        b.row(point, vars.collect(), Sense::ExactlyOne);
    }
    b.build().ok()
}

/// The Latin squares of order `n` (`1..=32`) as exact cover: variable `r<r>c<c>v<v>` puts
/// value `v` in cell (`r`, `c`); families `cell`, `row-value` and `column-value`, each
/// "exactly one". Solutions (A002860): 1, 2, 12, 576, 161,280, 812,851,200, ... `None` out of
/// range.
pub fn latin_squares(n: usize) -> Option<Model> {
    if !(1..=32).contains(&n) {
        return None;
    }
    let mut b = ModelBuilder::new(format!("latin-squares-{n}"), PuzzleKind::Generic);
    for r in 0..n {
        for c in 0..n {
            for v in 0..n {
                b.variable(format!("r{r}c{c}v{v}"), Coord::Cell { row: r, col: c });
            }
        }
    }
    let var = |r: usize, c: usize, v: usize| (r * n + c) * n + v;
    let cell = b.family("cell");
    for r in 0..n {
        for c in 0..n {
            b.row(
                cell,
                (0..n).map(|v| var(r, c, v)).collect(),
                Sense::ExactlyOne,
            );
        }
    }
    let row_value = b.family("row-value");
    for r in 0..n {
        for v in 0..n {
            let vars = (0..n).map(|c| var(r, c, v)).collect();
            b.row(row_value, vars, Sense::ExactlyOne);
        }
    }
    let column_value = b.family("column-value");
    for c in 0..n {
        for v in 0..n {
            let vars = (0..n).map(|r| var(r, c, v)).collect();
            b.row(column_value, vars, Sense::ExactlyOne);
        }
    }
    b.build().ok()
}

/// The Steiner triple systems on `v` labelled points (`3..=45`) as exact cover: every triple
/// is an option (variable `t<i>-<j>-<k>`), family `pair` ("exactly one" per pair of points).
/// Solutions (labelled, A030128): v = 3: 1, 7: 30, 9: 840, 13: 1,197,504,000 (two systems,
/// automorphism groups of orders 6 and 39: 13!/6 + 13!/39); none unless `v` is 1 or 3 mod 6.
/// `None` out of range.
pub fn steiner_triple_systems(v: usize) -> Option<Model> {
    if !(3..=45).contains(&v) {
        return None;
    }
    let mut b = ModelBuilder::new(format!("steiner-triples-{v}"), PuzzleKind::Generic);
    let mut triples = Vec::new();
    for i in 0..v {
        for j in i + 1..v {
            for k in j + 1..v {
                b.variable(format!("t{i}-{j}-{k}"), Coord::Free);
                triples.push([i, j, k]);
            }
        }
    }
    let pair = b.family("pair");
    for i in 0..v {
        for j in i + 1..v {
            let holds = |t: &[usize; 3]| t.contains(&i) && t.contains(&j);
            let vars = (0..triples.len()).filter(|&t| holds(&triples[t]));
            b.row(pair, vars.collect(), Sense::ExactlyOne);
        }
    }
    b.build().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_those_of_the_families() {
        let m = set_partitions(4).unwrap();
        assert_eq!((m.num_variables(), m.constraints().len()), (15, 4));
        let m = perfect_matchings(3).unwrap();
        assert_eq!((m.num_variables(), m.constraints().len()), (15, 6));
        let m = latin_squares(3).unwrap();
        assert_eq!((m.num_variables(), m.constraints().len()), (27, 27));
        let m = steiner_triple_systems(7).unwrap();
        assert_eq!((m.num_variables(), m.constraints().len()), (35, 21));
        assert!(set_partitions(0).is_none() && set_partitions(21).is_none());
        assert!(perfect_matchings(0).is_none() && latin_squares(0).is_none());
        assert!(steiner_triple_systems(2).is_none());
    }
}
