//! Base vs head as the templates read it: the compare rows per model (metrics, tools, pairs),
//! the gate in words, and the surface diff.

use super::lint::finding_view;
use super::types::{
    ChangeView, CompareModelView, CompareRow, CompareView, GroupCompareView, PairChangeView,
    RateView, SurfaceView,
};
use super::words::{status_icon, test_text, verdict_key};
use crate::render::text::{effect_text, p_text, pairing_text, plural, verdict_word};
use crate::report::compare::{
    CompareReport, MetricComparison, SurfaceDiff, ToolChange, Verdict as CompareVerdict,
};

pub(super) fn compare_row(model: &str, c: &MetricComparison, gated: &[String]) -> CompareRow {
    let label = match &c.subject {
        Some(s) => format!("{} {s}", c.metric),
        None => c.metric.clone(),
    };
    CompareRow {
        model: model.to_owned(),
        label,
        gated: gated.contains(&c.metric),
        before: RateView::new(&c.before),
        after: RateView::new(&c.after),
        delta: match (&c.effect, c.delta) {
            (Some(e), _) => effect_text(e),
            (None, Some(d)) => format!("{:+.1} pts", d * 100.0),
            (None, None) => String::new(),
        },
        delta_value: c.delta,
        // Under calibration the calibrated test decides: say it first.
        cases: match &c.calibrated {
            Some(k) => format!(
                "calibrated: head worst on {} of {} (A/A flipped {} of {}), p = {} · {}",
                k.worse,
                k.informative_worse,
                k.aa_flipped,
                k.cases,
                p_text(k.p_adjusted),
                test_text(&c.case)
            ),
            None => test_text(&c.case),
        },
        trials: test_text(&c.trial),
        verdict: verdict_word(c.verdict).to_owned(),
        icon: match c.verdict {
            CompareVerdict::Regressed => "❌",
            CompareVerdict::Improved => "✅",
            CompareVerdict::Unchanged => "➖",
            CompareVerdict::InsufficientData | CompareVerdict::LikelyRegressed => "⚠️",
            CompareVerdict::NoSignificantChange => "➖",
        },
        lower_is_better: !c.higher_is_better,
    }
}

pub(super) fn compare_view(report: &CompareReport) -> CompareView {
    let mut view = CompareView {
        verdict: report
            .verdict
            .map_or("surface diff", verdict_word)
            .to_owned(),
        icon: status_icon(report.verdict.map_or("surface-diff", verdict_key)),
        base: report.base.source.clone(),
        head: report.head.source.clone(),
        line: String::new(),
        left_out: Vec::new(),
        models: Vec::new(),
        regressions: Vec::new(),
        groups: Vec::new(),
    };
    let Some(eval) = &report.eval else {
        return view;
    };
    view.groups = eval
        .profiles
        .iter()
        .map(|g| {
            let pct = |v: Option<f64>| v.map_or("n/a".to_owned(), |v| format!("{:.1}%", v * 100.0));
            let side = |f: &Option<crate::report::compare::GroupFigures>| {
                f.as_ref().map_or_else(
                    || "—".to_owned(),
                    |f| {
                        format!(
                            "mounted {} / all-in-one {}",
                            pct(f.mounted.value),
                            pct(f.all_in_one.value)
                        )
                    },
                )
            };
            GroupCompareView {
                profile: g.profile.clone(),
                model: g.model.clone(),
                before: side(&g.before),
                after: side(&g.after),
                note: if g.comparable {
                    String::new()
                } else {
                    format!("not comparable: {}", g.reasons.join("; "))
                },
            }
        })
        .collect();
    view.line = format!(
        "{} paired cases · gate: {}, α = {}, gated: {}",
        eval.cases.paired,
        pairing_text(eval.gate.pairing),
        eval.gate.alpha,
        eval.gate.metrics.join(", ")
    );
    if let Some(c) = &eval.calibration {
        view.line.push_str(&format!(
            " · A/A run: {} ({} cases in all three runs)",
            c.source, c.paired
        ));
    }
    for (what, ids) in [
        ("only in base", &eval.cases.only_in_base),
        ("only in head", &eval.cases.only_in_head),
        ("input changed, not paired", &eval.cases.input_changed),
    ] {
        if !ids.is_empty() {
            view.left_out.push(format!("{what}: {}", ids.join(", ")));
        }
    }
    for models in [&eval.models_only_in_base, &eval.models_only_in_head] {
        if !models.is_empty() {
            view.left_out
                .push(format!("models on one side only: {}", models.join(", ")));
        }
    }
    let gated = &eval.gate.metrics;
    for m in &eval.models {
        let metrics: Vec<CompareRow> = m
            .metrics
            .iter()
            .map(|c| compare_row(&m.model, c, gated))
            .collect();
        let others: Vec<&MetricComparison> = m.tools.iter().chain(&m.pairs).collect();
        let moved: Vec<CompareRow> = others
            .iter()
            .filter(|c| {
                !matches!(
                    c.verdict,
                    CompareVerdict::Unchanged | CompareVerdict::NoSignificantChange
                )
            })
            .map(|c| compare_row(&m.model, c, gated))
            .collect();
        let notes = m
            .metrics
            .iter()
            .chain(&m.tools)
            .chain(&m.pairs)
            .flat_map(|c| {
                let label = c
                    .subject
                    .as_ref()
                    .map_or_else(|| c.metric.clone(), |s| format!("{} {s}", c.metric));
                c.notes.iter().map(move |n| format!("{label}: {n}"))
            })
            .collect();
        view.regressions.extend(
            metrics
                .iter()
                .chain(&moved)
                .filter(|r| r.verdict == "regressed")
                .cloned(),
        );
        // Robustness (the `mf tasks mutate` variants) is shown with the suite-wide metrics but
        // never gated, so it is no regression of the PR.
        let mut metrics = metrics;
        metrics.extend(m.robustness.iter().map(|c| compare_row(&m.model, c, gated)));
        view.models.push(CompareModelView {
            model: m.model.clone(),
            quiet: others.len() - moved.len(),
            metrics,
            moved,
            notes,
        });
    }
    view
}

fn tokens_text(t: &ToolChange) -> String {
    match (t.tokens_before, t.tokens_after) {
        (None, Some(a)) => format!("+{a} tokens"),
        (Some(b), None) => format!("−{b} tokens"),
        (Some(b), Some(a)) if a == b => format!("{a} tokens"),
        (Some(b), Some(a)) => {
            let d = a as i64 - b as i64;
            let sign = if d < 0 { "−" } else { "+" };
            format!("{b} → {a} tokens, {sign}{}", d.unsigned_abs())
        }
        (None, None) => String::new(),
    }
}

fn change_view(t: &ToolChange) -> ChangeView {
    ChangeView {
        name: t.name.clone(),
        tokens: tokens_text(t),
        origin: t.origin.clone().unwrap_or_default(),
        detail: t.schema_changes.join(", "),
    }
}

pub(super) fn surface_view(d: &SurfaceDiff) -> SurfaceView {
    let mut parts = Vec::new();
    for (n, one, many) in [
        (d.added.len(), "tool added", "tools added"),
        (d.removed.len(), "tool removed", "tools removed"),
        (d.redescribed.len(), "re-described", "re-described"),
        (d.reschemed.len(), "re-schemed", "re-schemed"),
    ] {
        if n > 0 {
            parts.push(plural(n, one, many));
        }
    }
    if parts.is_empty() {
        parts.push("no tool changed".to_owned());
    }
    let sign = if d.tokens.delta < 0 { "−" } else { "+" };
    SurfaceView {
        line: format!(
            "{} · tool tokens {} → {} ({sign}{})",
            parts.join(", "),
            d.tokens.before,
            d.tokens.after,
            d.tokens.delta.unsigned_abs()
        ),
        added: d.added.iter().map(change_view).collect(),
        removed: d.removed.iter().map(change_view).collect(),
        redescribed: d.redescribed.iter().map(change_view).collect(),
        reschemed: d.reschemed.iter().map(change_view).collect(),
        new_findings: d.new_findings.iter().map(finding_view).collect(),
        resolved_findings: d.resolved_findings,
        newly_confusable: d
            .newly_confusable
            .iter()
            .map(|p| PairChangeView {
                a: p.a.clone(),
                b: p.b.clone(),
                text: format!(
                    "similarity {:.2}, {}",
                    p.score,
                    p.before
                        .map_or_else(|| "a new tool".to_owned(), |b| format!("was {b:.2}"))
                ),
            })
            .collect(),
        changed: !(d.added.is_empty()
            && d.removed.is_empty()
            && d.redescribed.is_empty()
            && d.reschemed.is_empty()
            && d.newly_confusable.is_empty()),
    }
}
