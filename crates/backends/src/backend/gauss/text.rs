//! The relaxation's report as Markdown and text: ranks per family, redundant rows with their
//! combinations, pivots, free and fixed variables, the least-norm solution. Linear in the
//! report's size (long lists are cut).

use std::fmt::{self, Write as _};

use super::{GaussReport, RowTerm, Verdict};

impl GaussReport {
    /// The report as Markdown, for people and for the harness's reports: [`Self::exact_markdown`]
    /// followed by the least-norm real solution.
    pub fn to_markdown(&self) -> String {
        let mut s = self.exact_markdown();
        let ln = &self.least_norm;
        let _ = writeln!(s, "### Least-norm real solution\n");
        let _ = writeln!(
            s,
            "min {}, max {}, {} negative and {} fractional values of {}, residual {}.\n",
            ln.min,
            ln.max,
            ln.negative,
            ln.fractional,
            ln.values.len(),
            ln.residual
        );
        s
    }

    /// The exact part of the report as Markdown (sizes, ranks, redundant rows, fixed and free
    /// variables, verdict): no floating-point figures, so it is the same on every machine.
    pub fn exact_markdown(&self) -> String {
        let mut s = String::new();
        let yes = |b: bool| if b { "yes" } else { "no" };
        let _ = writeln!(s, "## Gaussian elimination: {}\n", self.name);
        let _ = writeln!(s, "| quantity | value |\n|---|---|");
        let _ = writeln!(
            s,
            "| equations | {} ({} given) |",
            self.equations, self.givens
        );
        let _ = writeln!(s, "| unknowns | {} |", self.unknowns);
        let _ = writeln!(s, "| rank | {} |", self.rank);
        let _ = writeln!(
            s,
            "| nullity (dimension of the real solutions) | {} |",
            self.nullity
        );
        let _ = writeln!(s, "| consistent | {} |", yes(self.consistent));
        let redundant: usize = self.families.iter().map(|f| f.redundant).sum();
        let _ = writeln!(s, "| redundant equations | {redundant} |");
        let _ = writeln!(s, "| fixed by elimination | {} |", self.fixed.len());
        let _ = writeln!(
            s,
            "| inequality rows (ignored: not equations) | {} |",
            self.ignored_inequalities
        );
        let verdict = match &self.verdict {
            Verdict::Solved => "solved: every variable fixed to 0 or 1".to_string(),
            Verdict::Infeasible(r) => format!("infeasible: {r}"),
            Verdict::Unknown(r) => format!("unknown: {r}"),
        };
        let _ = writeln!(s, "| verdict | {verdict} |\n");

        let _ = writeln!(s, "### Families (in elimination order)\n");
        let _ = writeln!(
            s,
            "| family | equations | independent | redundant | inequalities (ignored) |\n|---|---|---|---|---|"
        );
        for f in &self.families {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} |",
                f.family, f.equations, f.independent, f.redundant, f.ignored_inequalities
            );
        }
        s.push('\n');

        let _ = writeln!(s, "### Redundant rows\n");
        if redundant == 0 {
            let _ = writeln!(s, "None: the equations are independent.\n");
        } else {
            for family in self.families.iter().map(|f| &f.family) {
                let Some(rows) = self.redundant.get(family) else {
                    continue;
                };
                for r in rows {
                    let _ = writeln!(
                        s,
                        "- {family} {} = {}{}",
                        r.index,
                        combination_text(&r.combination, 12),
                        if r.conflicting {
                            " (right-hand sides disagree: inconsistent)"
                        } else {
                            ""
                        }
                    );
                }
            }
            s.push('\n');
        }

        let _ = writeln!(s, "### Fixed by elimination\n");
        if self.fixed.is_empty() {
            let _ = writeln!(s, "None.\n");
        } else {
            let list: Vec<String> = self
                .fixed
                .iter()
                .map(|f| format!("{} = {}", f.label, f.value))
                .collect();
            let _ = writeln!(s, "{}\n", list_text(&list, 40));
        }

        let _ = writeln!(s, "### Pivot and free variables\n");
        let _ = writeln!(
            s,
            "- pivots ({}): {}",
            self.pivots.len(),
            list_text(&self.pivots, 40)
        );
        let _ = writeln!(
            s,
            "- free ({}): {}\n",
            self.free.len(),
            list_text(&self.free, 40)
        );
        s
    }
}

/// Writes `terms` as `row 0 + row 1 - diag 3 + 1/2 anti 2`, at most `max` terms.
pub(super) fn combination_text(terms: &[RowTerm], max: usize) -> String {
    if terms.is_empty() {
        return "0".into();
    }
    let mut s = String::new();
    for (i, t) in terms.iter().take(max).enumerate() {
        let (neg, mag) = match t.coefficient.strip_prefix('-') {
            Some(m) => (true, m),
            None => (false, t.coefficient.as_str()),
        };
        let sign = match (i, neg) {
            (0, false) => "",
            (0, true) => "-",
            (_, false) => " + ",
            (_, true) => " - ",
        };
        let coef = if mag == "1" {
            String::new()
        } else {
            format!("{mag} ")
        };
        let _ = write!(s, "{sign}{coef}{} {}", t.family, t.index);
    }
    if terms.len() > max {
        let _ = write!(s, " ... ({} more terms)", terms.len() - max);
    }
    s
}

pub(super) fn list_text(items: &[String], max: usize) -> String {
    if items.is_empty() {
        return "none".into();
    }
    let mut s = items
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > max {
        let _ = write!(s, ", ... ({} more)", items.len() - max);
    }
    s
}

impl fmt::Display for GaussReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_markdown())
    }
}
