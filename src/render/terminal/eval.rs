//! The eval scorecard for people: one block per model, every rate as `k/n = p% [lo–hi]`.

use crate::render::text::plural;
use std::fmt::Write;

use super::style::Style;
use crate::render::text::rate;
use crate::report::scorecard::{Scorecard, Status};

/// Render the scorecard.
pub fn eval(card: &Scorecard, style: Style) -> String {
    let mut s = String::new();
    let cases = &card.suite.cases;
    let _ = writeln!(
        s,
        "{} · {} ({} tokens) · {} × {} · seed {} · {}",
        style.bold(&card.suite.name),
        plural(card.suite.tools.len(), "tool", "tools"),
        card.suite.tool_tokens,
        plural(cases.len(), "case", "cases"),
        plural(card.reproducibility.repeat as usize, "repeat", "repeats"),
        card.reproducibility.seed,
        card.reproducibility.permutation
    );
    for m in &card.models {
        let x = &m.metrics;
        let _ = writeln!(s);
        let place = if m.wire == "offline" {
            "(offline)".to_owned()
        } else {
            format!("({} · {} · {})", m.provider, m.wire, m.endpoint)
        };
        let _ = writeln!(s, "{} {}", style.bold(&m.label), style.dim(&place));
        let line = |s: &mut String, name: &str, value: String| {
            let _ = writeln!(s, "  {name:<20} {value}");
        };
        line(&mut s, "selection accuracy", rate(&x.selection_accuracy));
        line(
            &mut s,
            "  per case",
            format!(
                "{}{}",
                rate(&x.case_level.rate),
                if x.case_level.ties > 0 {
                    format!(" ({} ties counted as misses)", x.case_level.ties)
                } else {
                    String::new()
                }
            ),
        );
        line(
            &mut s,
            "argument accuracy",
            x.argument_accuracy_na
                .clone()
                .unwrap_or_else(|| rate(&x.argument_accuracy)),
        );
        line(&mut s, "over-trigger", rate(&x.over_trigger));
        line(&mut s, "abstention", rate(&x.abstention));
        line(&mut s, "phantom calls", rate(&x.phantom));
        line(&mut s, "multi-call", rate(&x.multi_call));
        line(
            &mut s,
            "errors",
            format!(
                "{} ({} retries, {} requests sent, {} cached)",
                rate(&x.error_rate),
                x.retries,
                m.health.requests,
                x.cached
            ),
        );
        if let Some(l) = &x.latency_ms {
            line(
                &mut s,
                "latency",
                format!("p50 {} ms · p95 {} ms (n = {})", l.p50, l.p95, l.n),
            );
        }
        if x.tokens.trials_with_usage > 0 {
            line(
                &mut s,
                "tokens",
                format!(
                    "{} in · {} out over {} trials",
                    x.tokens.input, x.tokens.output, x.tokens.trials_with_usage
                ),
            );
        }
        match &x.cost {
            Some(c) => line(&mut s, "cost", format!("{:.4} {}", c.amount, c.currency)),
            None if m.wire != "offline" => {
                line(&mut s, "cost", "unknown (no price or no usage)".into())
            }
            None => {}
        }
        if !x.confusion_pairs.is_empty() {
            let pairs: Vec<String> = x
                .confusion_pairs
                .iter()
                .take(5)
                .map(|p| format!("{} → {} ×{}", p.expected, p.picked, p.count))
                .collect();
            line(&mut s, "expected → picked", pairs.join(", "));
        }
        let mut weak: Vec<_> = x
            .per_tool
            .iter()
            .filter(|t| t.accuracy.value.is_some_and(|v| v < 0.8))
            .collect();
        weak.sort_by(|a, b| {
            let v = |t: &&crate::report::metrics::ToolMetrics| t.accuracy.value.unwrap_or(0.0);
            v(a).total_cmp(&v(b)).then_with(|| a.tool.cmp(&b.tool))
        });
        if !weak.is_empty() {
            let mut shown: Vec<String> = weak
                .iter()
                .take(5)
                .map(|t| format!("{} {}", t.tool, rate(&t.accuracy)))
                .collect();
            if weak.len() > 5 {
                shown.push(format!("and {} more under 80%", weak.len() - 5));
            }
            line(&mut s, "weakest tools", shown.join("; "));
        }
        if let Some(u) = &x.unreviewed {
            line(
                &mut s,
                "unreviewed cases",
                format!("{} (not in official figures)", rate(&u.selection_accuracy)),
            );
        }
        if let Some(x) = &m.execution {
            super::eval_exec::execution(&mut s, x, style);
        }
        for p in &m.health.problems {
            let _ = writeln!(s, "  {}", style.yellow(&format!("unhealthy: {p}")));
        }
    }
    let _ = writeln!(s);
    for g in &card.gates {
        if g.passed && (g.name == "max-error-rate" || g.name == "min-scored") {
            continue;
        }
        let value = g
            .value
            .map_or("unmeasured".to_owned(), |v| format!("{v:.3}"));
        let _ = writeln!(
            s,
            "gate {} {} on {}: {} ({value})",
            g.name,
            g.threshold,
            g.model,
            if g.passed { "pass" } else { "FAIL" }
        );
    }
    let status = match card.status {
        Status::Pass => "pass",
        Status::Fail => "FAIL: a quality gate failed",
        Status::Unhealthy => "UNHEALTHY: the run cannot be trusted",
    };
    let _ = writeln!(s, "status: {}", style.bold(status));
    s
}
