//! The compare document for people on a terminal: verdict first, then the metrics with
//! before → after, the paired counts and p, then tools and confusion pairs that moved, then the
//! surface diff. (Markdown and HTML come from the templates, like every other document.)

use std::fmt::Write;

use super::style::Style;
use crate::render::text::{effect_text, p_text, pairing_text, power_lines, verdict_word};
use crate::report::compare::{CompareReport, MetricComparison, PairedTest, SurfaceDiff, Verdict};
use crate::report::metrics::Rate;

fn pct(r: &Rate) -> String {
    r.value
        .map_or_else(|| "n/a".to_owned(), |v| format!("{:.1}%", v * 100.0))
}

fn delta(c: &MetricComparison) -> String {
    match (&c.effect, c.delta) {
        (Some(e), _) => format!(" ({})", effect_text(e)),
        (None, Some(d)) => format!(" ({:+.1} pts)", d * 100.0),
        (None, None) => String::new(),
    }
}

fn test_text(name: &str, t: &PairedTest, adjusted: bool) -> String {
    let p = if adjusted && t.p_adjusted != t.p {
        format!("p = {}, Holm {}", p_text(t.p), p_text(t.p_adjusted))
    } else {
        format!("p = {}", p_text(t.p))
    };
    format!(
        "{name} {}↑ {}↓ {}= of {}, {p} (mid-p {})",
        t.improved,
        t.regressed,
        t.tied,
        t.pairs,
        p_text(t.mid_p)
    )
}

fn label(m: &MetricComparison) -> String {
    match &m.subject {
        Some(s) => format!("{} {s}", m.metric),
        None => m.metric.clone(),
    }
}

/// A compare document as terminal text.
pub fn compare(report: &CompareReport, style: Style) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "mf compare: {} → {}",
        report.base.source, report.head.source
    );
    if let Some(v) = report.verdict {
        let _ = writeln!(
            s,
            "verdict: {}",
            style.bold(&verdict_word(v).to_uppercase())
        );
    }
    if let Some(eval) = &report.eval {
        let c = &eval.cases;
        let _ = writeln!(
            s,
            "{} paired cases{}{}{}",
            c.paired,
            list(" · only in base: ", &c.only_in_base),
            list(" · only in head: ", &c.only_in_head),
            list(" · input changed (not paired): ", &c.input_changed)
        );
        let _ = writeln!(
            s,
            "gate: {}, α = {}, gated: {}",
            pairing_text(eval.gate.pairing),
            eval.gate.alpha,
            eval.gate.metrics.join(", ")
        );
        if let Some(c) = &eval.calibration {
            let _ = writeln!(
                s,
                "calibration: {} ({} cases in base, base again and head)",
                c.source, c.paired
            );
        }
        if let Some(p) = &eval.power {
            for line in power_lines(p) {
                let _ = writeln!(s, "{}", style.dim(&format!("power: {line}")));
            }
        }
        for m in &eval.models {
            let _ = writeln!(s);
            let _ = writeln!(s, "{}", style.bold(&m.model));
            for c in &m.metrics {
                metric_line(&mut s, c, false, style);
            }
            if let Some(c) = &m.robustness {
                metric_line(&mut s, c, false, style);
            }
            let moved: Vec<&MetricComparison> = m
                .tools
                .iter()
                .chain(&m.pairs)
                .filter(|c| matches!(c.verdict, Verdict::Regressed | Verdict::Improved))
                .collect();
            for c in &moved {
                metric_line(&mut s, c, true, style);
            }
            let quiet = m.tools.len() + m.pairs.len() - moved.len();
            if quiet > 0 {
                let _ = writeln!(
                    s,
                    "  {}",
                    style.dim(&format!(
                        "{quiet} tool/confusion-pair comparisons without a significant change (see --format json)"
                    ))
                );
            }
        }
        if !eval.profiles.is_empty() {
            let _ = writeln!(s);
            let _ = writeln!(
                s,
                "{}",
                style.bold("mount groups (mounted alone / within all tools, base → head)")
            );
        }
        for g in &eval.profiles {
            let side = |f: &Option<crate::report::compare::GroupFigures>| {
                f.as_ref().map_or_else(
                    || "—".to_owned(),
                    |f| format!("{} / {}", pct(&f.mounted), pct(&f.all_in_one)),
                )
            };
            let _ = writeln!(
                s,
                "  {} · {}: {} → {}{}",
                g.profile,
                g.model,
                side(&g.before),
                side(&g.after),
                if g.comparable {
                    String::new()
                } else {
                    style
                        .yellow(&format!(" · NOT COMPARABLE: {}", g.reasons.join("; ")))
                        .to_string()
                }
            );
        }
    }
    if let Some(d) = &report.surface {
        let _ = writeln!(s);
        surface_text(&mut s, d);
    }
    s
}

fn list(prefix: &str, items: &[String]) -> String {
    if items.is_empty() {
        String::new()
    } else {
        format!("{prefix}{}", items.join(", "))
    }
}

fn metric_line(s: &mut String, c: &MetricComparison, adjusted: bool, style: Style) {
    let word = verdict_word(c.verdict);
    let word = match c.verdict {
        Verdict::Regressed => style.bold(&word.to_uppercase()),
        Verdict::InsufficientData => style.yellow(word),
        _ => word.to_owned(),
    };
    let _ = writeln!(
        s,
        "  {:<28} {} → {}{}  {word}",
        label(c),
        pct(&c.before),
        pct(&c.after),
        delta(c)
    );
    let calibrated = c.calibrated.as_ref().map_or_else(String::new, |k| {
        format!(
            "calibrated: head worst on {} of {} cases with a unique worst run (A/A flipped {} of {}), p = {} · ",
            k.worse,
            k.informative_worse,
            k.aa_flipped,
            k.cases,
            if adjusted && k.p_adjusted != k.p {
                format!("{}, Holm {}", p_text(k.p), p_text(k.p_adjusted))
            } else {
                p_text(k.p)
            }
        )
    });
    let _ = writeln!(
        s,
        "  {:<28} {}",
        "",
        style.dim(&format!(
            "{calibrated}{} · {}",
            test_text("cases", &c.case, adjusted),
            test_text("trials", &c.trial, adjusted)
        ))
    );
    for n in &c.notes {
        let _ = writeln!(s, "  {:<28} {}", "", style.yellow(&format!("note: {n}")));
    }
}

fn surface_text(s: &mut String, d: &SurfaceDiff) {
    let _ = writeln!(
        s,
        "surface: {} added, {} removed, {} re-described, {} re-schemed · tokens {} → {} ({:+})",
        d.added.len(),
        d.removed.len(),
        d.redescribed.len(),
        d.reschemed.len(),
        d.tokens.before,
        d.tokens.after,
        d.tokens.delta
    );
    for (what, list) in [
        ("added", &d.added),
        ("removed", &d.removed),
        ("re-described", &d.redescribed),
        ("re-schemed", &d.reschemed),
    ] {
        for t in list {
            let _ = writeln!(
                s,
                "  {what:<13} {}{}",
                t.name,
                t.origin
                    .as_deref()
                    .map(|o| format!("  {o}"))
                    .unwrap_or_default()
            );
        }
    }
    if !d.new_findings.is_empty() || d.resolved_findings > 0 {
        let _ = writeln!(
            s,
            "  lint: {} in head, {} resolved",
            crate::render::text::plural(d.new_findings.len(), "new finding", "new findings"),
            d.resolved_findings
        );
        for f in d.new_findings.iter().take(10) {
            let _ = writeln!(s, "    {} {}: {}", f.severity.as_str(), f.code, f.message);
        }
    }
    for p in &d.newly_confusable {
        let _ = writeln!(
            s,
            "  newly confusable: {} / {} ({:.2}{})",
            p.a,
            p.b,
            p.score,
            p.before
                .map(|b| format!(", was {b:.2}"))
                .unwrap_or_default()
        );
    }
}
