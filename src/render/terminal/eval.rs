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
        "{} · {} · {} × {} · seed {} · {}",
        style.bold(&card.suite.name),
        if cases.iter().any(|c| c.tools.is_some()) {
            format!(
                "{} across cases (each case its own set)",
                plural(card.suite.tools.len(), "tool", "tools")
            )
        } else {
            format!(
                "{} ({} tokens)",
                plural(card.suite.tools.len(), "tool", "tools"),
                card.suite.tool_tokens
            )
        },
        plural(cases.len(), "case", "cases"),
        plural(card.reproducibility.repeat as usize, "repeat", "repeats"),
        card.reproducibility.seed,
        card.reproducibility.permutation
    );
    if let Some(shard) = &card.shard {
        let _ = writeln!(s, "{}", style.dim(&crate::render::text::part_phrase(shard)));
    }
    if let Some(p) = &card.partial {
        let _ = writeln!(s, "{}", style.bold(&crate::render::text::partial_phrase(p)));
    }
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
        if let Some(exact) = &x.call_set_accuracy {
            line(&mut s, "call-set accuracy", rate(exact));
        }
        line(&mut s, "over-trigger", rate(&x.over_trigger));
        line(&mut s, "abstention", rate(&x.abstention));
        line(&mut s, "phantom calls", rate(&x.phantom));
        line(&mut s, "multi-call", rate(&x.multi_call));
        if let Some(r) = &m.robustness {
            let worst = r
                .by_kind
                .iter()
                .filter_map(|k| k.mutated.value.map(|v| (v, k.mutation.as_str())))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            let mut text = format!(
                "{} on variants vs {} on their originals",
                rate(&r.mutated),
                rate(&r.original)
            );
            if let Some((v, kind)) = worst {
                text.push_str(&format!(
                    "; weakest: {kind} {}",
                    crate::render::text::percent(Some(v))
                ));
            }
            if !r.broken.is_empty() {
                text.push_str(&format!(
                    "; {} variants broke a passing case",
                    r.broken.len()
                ));
            }
            line(&mut s, "robustness", text);
        }
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
    if let Some(p) = &card.profiles {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "{} (selection accuracy over each group's cases: mounted alone vs within all {})",
            style.bold("mount groups"),
            plural(card.suite.tools.len(), "tool", "tools")
        );
        for g in &p.groups {
            let list = |v: &[String]| {
                if v.is_empty() {
                    "none".to_owned()
                } else {
                    v.join(", ")
                }
            };
            let delta = g.delta.map_or("n/a".to_owned(), |d| {
                format!(
                    "{}{:.1} pts",
                    if d < 0.0 { "−" } else { "+" },
                    d.abs() * 100.0
                )
            });
            let _ = writeln!(
                s,
                "  {} · {} · {} · {}",
                style.bold(&g.profile),
                g.model,
                plural(g.tools.len(), "tool", "tools"),
                plural(g.cases.len(), "case", "cases")
            );
            let _ = writeln!(s, "    mounted     {}", rate(&g.mounted));
            let _ = writeln!(s, "    all-in-one  {}", rate(&g.all_in_one));
            let _ = writeln!(
                s,
                "    delta {delta} · lifted {} · jammed {} · cases {}↑ {}↓ p = {} (Holm over the groups)",
                list(&g.lifted),
                list(&g.jammed),
                g.test.improved,
                g.test.regressed,
                crate::render::text::p_text(g.test.p_adjusted)
            );
            for pr in &g.problems {
                let _ = writeln!(s, "    {}", style.yellow(&format!("note: {pr}")));
            }
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
