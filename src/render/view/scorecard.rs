//! One model of a scorecard as the templates read it: figures, rates, per-tool rows, confusion
//! pairs, and the case rows (their outcomes come from `eval::cases`, already decided).

use super::types::{CaseView, ConfusionView, Figure, ModelView, PairView, RateView, ToolView};
use crate::eval::cases::case_outcomes;
use crate::render::text::rate as rate_text;
use crate::report::cases::CaseStatus;
use crate::report::scorecard::{ModelResult, Scorecard};

pub(super) fn model_view(card: &Scorecard, m: &ModelResult) -> ModelView {
    let x = &m.metrics;
    let fig = |name: &str, text: String| Figure {
        name: name.to_owned(),
        text,
    };
    let mut metrics = vec![
        fig("selection accuracy", rate_text(&x.selection_accuracy)),
        fig(
            "per case",
            format!(
                "{}{}",
                rate_text(&x.case_level.rate),
                if x.case_level.ties > 0 {
                    format!(" ({} ties counted as misses)", x.case_level.ties)
                } else {
                    String::new()
                }
            ),
        ),
        fig(
            "argument accuracy",
            x.argument_accuracy_na
                .clone()
                .unwrap_or_else(|| rate_text(&x.argument_accuracy)),
        ),
        fig("over-trigger", rate_text(&x.over_trigger)),
        fig("abstention", rate_text(&x.abstention)),
        fig("phantom calls", rate_text(&x.phantom)),
        fig("multi-call", rate_text(&x.multi_call)),
        fig(
            "errors",
            format!("{} ({} retries)", rate_text(&x.error_rate), x.retries),
        ),
    ];
    if let Some(u) = &x.unreviewed {
        metrics.push(fig(
            "unreviewed cases",
            format!(
                "{} (not in official figures)",
                rate_text(&u.selection_accuracy)
            ),
        ));
    }
    if let Some(e) = &m.execution {
        metrics.push(fig("execution", format!("{} passed", rate_text(&e.rate))));
    }
    let mut spend = Vec::new();
    if let Some(l) = &x.latency_ms {
        spend.push(fig(
            "latency",
            format!("p50 {} ms · p95 {} ms (n = {})", l.p50, l.p95, l.n),
        ));
    }
    if x.tokens.trials_with_usage > 0 {
        spend.push(fig(
            "tokens",
            format!(
                "{} in · {} out over {} trials",
                x.tokens.input, x.tokens.output, x.tokens.trials_with_usage
            ),
        ));
    }
    if let Some(c) = &x.cost {
        spend.push(fig("cost", format!("{:.4} {}", c.amount, c.currency)));
    }
    let cases = case_outcomes(m, &card.suite.cases)
        .into_iter()
        .map(|o| {
            let (status, icon, failure) = match o.status {
                CaseStatus::Pass => ("pass", "✅", None),
                CaseStatus::Fail(k) => ("fail", "❌", Some(k.as_str().to_owned())),
                CaseStatus::Error => ("error", "⚠️", None),
                CaseStatus::NotRun => ("not run", "⏭️", None),
                CaseStatus::Unreviewed => ("unreviewed", "📝", None),
            };
            CaseView {
                id: o.id.clone(),
                expected: o.expected.clone().unwrap_or_else(|| "(none)".into()),
                status: status.to_owned(),
                icon,
                failure,
                outcome: o.summary(),
                verdicts: o
                    .verdicts
                    .iter()
                    .map(|(v, n)| format!("{v} ×{n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                failures: (!o.failures.is_empty()).then(|| o.failure_text()),
                errors: (o.error_count() > 0).then(|| o.error_text()),
                execution: execution_text(m, &o.id),
            }
        })
        .collect();
    ModelView {
        label: m.label.clone(),
        place: if m.wire == "offline" {
            "offline".to_owned()
        } else {
            format!("{} · {} · {}", m.provider, m.wire, m.endpoint)
        },
        selection: RateView::new(&x.selection_accuracy),
        not_applicable: x
            .argument_accuracy_na
            .as_ref()
            .map(|why| format!("argument accuracy {why}"))
            .unwrap_or_default(),
        metrics,
        spend,
        problems: m.health.problems.clone(),
        tools: x
            .per_tool
            .iter()
            .map(|t| ToolView {
                tool: t.tool.clone(),
                on_surface: t.on_surface,
                cases: t.cases,
                accuracy: RateView::new(&t.accuracy),
                picked: t.picked,
                picked_wrongly: t.picked_wrongly,
                arguments: RateView::new(&t.argument_accuracy),
            })
            .collect(),
        confusion_pairs: x
            .confusion_pairs
            .iter()
            .map(|p| PairView {
                expected: p.expected.clone(),
                picked: p.picked.clone(),
                count: p.count,
            })
            .collect(),
        confusion: ConfusionView {
            rows: x.confusion.rows.clone(),
            columns: x.confusion.columns.clone(),
            counts: x.confusion.counts.clone(),
        },
        cases,
    }
}

/// With `--execute`, a case whose executions failed: `2 of 3 executions failed: <the first
/// failing execution's failed expectations>` (the output excerpt stays in the JSON and the
/// terminal, where it is shown escaped).
fn execution_text(m: &ModelResult, case: &str) -> Option<String> {
    let c = m
        .execution
        .as_ref()?
        .cases
        .iter()
        .find(|c| c.case == case)?;
    (c.passed < c.executed).then(|| {
        format!(
            "{} of {} executions failed: {}",
            c.executed - c.passed,
            c.executed,
            c.failed.join("; ")
        )
    })
}
