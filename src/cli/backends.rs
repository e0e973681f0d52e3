//! `zeroone backends`: per registered backend, what it does with its default options (solve,
//! count, stream, optimise, proofs), which row kinds it refuses, its size caps, and one line
//! about it. Nothing here names a backend: the abilities are asked of each backend made with
//! default options, the refusals probed with one tiny model per row kind
//! ([`Backend::rows_supported`]), the caps read from [`Backend::size_caps`].
//!
//! Cost: one construction per backend and four tiny models.

use zeroone::backend::{registry, Backend, BackendOptions};
use zeroone::model::{Coord, Model, ModelBuilder, PuzzleKind, Sense};

/// The row kinds probed, each with a three-variable model holding one such row.
fn probes() -> Vec<(&'static str, Model)> {
    let one = |name: &str, weights: Option<Vec<u64>>, sense: Sense| {
        let mut b = ModelBuilder::new(name, PuzzleKind::Generic);
        let x: Vec<usize> = (0..3)
            .map(|i| b.variable(format!("x{i}"), Coord::Free))
            .collect();
        let f = b.family("row");
        match weights {
            Some(w) => b.weighted_row(f, x, w, sense),
            None => b.row(f, x, sense),
        };
        b.build().expect("a probe model is valid")
    };
    vec![
        ("exact cover", one("exact", None, Sense::ExactlyOne)),
        ("cardinality", one("cardinality", None, Sense::AtMost(2))),
        ("at-least", one("at-least", None, Sense::AtLeast(2))),
        (
            "weighted",
            one("weighted", Some(vec![2, 3, 4]), Sense::AtMost(5)),
        ),
    ]
}

/// The listing (see the module docs), one line per backend, columns aligned.
pub fn listing() -> String {
    let probes = probes();
    let mut rows = vec![[
        "backend",
        "solve",
        "count",
        "stream",
        "optimise",
        "proofs",
        "refuses",
        "size caps",
    ]
    .map(String::from)
    .to_vec()];
    let mut about = Vec::new();
    for info in registry() {
        let Ok(mut backend) = (info.make)(&BackendOptions::default()) else {
            continue;
        };
        let b: &mut dyn Backend = backend.as_mut();
        let yes = |has: bool| if has { "yes" } else { "-" }.to_string();
        let refused: Vec<&str> = (probes.iter())
            .filter(|(_, m)| b.rows_supported(m).is_err())
            .map(|(name, _)| *name)
            .collect();
        let caps = b.size_caps();
        rows.push(vec![
            info.name.to_string(),
            yes(b.solver().is_some()),
            yes(b.counter().is_some()),
            yes(b.streamer().is_some()),
            yes(b.optimizer().is_some()),
            // Proof logging is not offered yet; the column is kept for it.
            "-".to_string(),
            if refused.is_empty() {
                "-".to_string()
            } else {
                format!("{} rows", refused.join(", "))
            },
            if caps.is_empty() { "-" } else { caps }.to_string(),
        ]);
        about.push(format!("{:<8} {}", info.name, info.about));
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in &rows {
        let cells: Vec<String> = (row.iter().zip(&widths))
            .map(|(cell, &w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out.push('\n');
    for line in about {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
