//! `mf ablate --format markdown`: per left-out tool and model the finding, then a table of the
//! suite-wide and per-tool figures before → after, and the cases that changed. Cells are escaped
//! as in every markdown output (tool names and case ids come from the repository).

use std::fmt::Write;

use super::markdown::cell;
use super::terminal::ablate::ablation_word;
use super::text::p_text;
use crate::report::ablate::{AblateReport, AblationMetric};

fn row(s: &mut String, what: &str, m: &AblationMetric) {
    let pct = |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format!("{:.1}%", v * 100.0));
    let _ = writeln!(
        s,
        "| {} | {} ({}/{}) | {} ({}/{}) | {}↑ {}↓ {}= | {} | {} |",
        cell(what),
        pct(m.before.value),
        m.before.numerator,
        m.before.denominator,
        pct(m.after.value),
        m.after.numerator,
        m.after.denominator,
        m.case.improved,
        m.case.regressed,
        m.case.tied,
        p_text(m.case.p_adjusted),
        ablation_word(m.verdict)
    );
}

/// Render the report as markdown.
pub fn markdown(report: &AblateReport) -> String {
    let mut s = String::new();
    let within = report
        .suite
        .profile
        .as_ref()
        .map_or_else(|| "every tool".to_owned(), |p| format!("group `{p}`"));
    let _ = writeln!(
        s,
        "### Ablation: {} (within {})\n",
        cell(&report.suite.name),
        cell(&within)
    );
    for a in &report.ablations {
        let _ = writeln!(s, "**{}** ({})\n", cell(&a.summary), cell(&a.model));
        if !a.stolen.is_empty() {
            let taken: Vec<String> = a
                .stolen
                .iter()
                .map(|t| format!("{} ({} of {})", t.case, t.trials, t.of))
                .collect();
            let _ = writeln!(s, "It was taking: {}\n", cell(&taken.join(", ")));
        }
        if a.selection.before.denominator == 0 {
            continue;
        }
        let _ = writeln!(
            s,
            "| | with it | without it | cases | p (case-level) | verdict |\n|---|---|---|---|---|---|"
        );
        row(&mut s, "selection accuracy", &a.selection);
        for t in &a.tools {
            row(&mut s, t.subject.as_deref().unwrap_or_default(), t);
        }
        let _ = writeln!(s);
        let changed: Vec<String> = a
            .cases
            .iter()
            .filter(|c| c.change != "same")
            .map(|c| {
                format!(
                    "`{}` {} {}→{} of {}",
                    c.case.replace('`', "'"),
                    c.change,
                    c.before,
                    c.after,
                    c.trials
                )
            })
            .collect();
        if !changed.is_empty() {
            let _ = writeln!(
                s,
                "Changed cases (good trials): {}\n",
                cell(&changed.join(", "))
            );
        }
    }
    s
}
