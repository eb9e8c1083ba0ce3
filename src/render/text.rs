//! The wording every renderer shares, so a figure reads the same in every format: shares and
//! rates (`k/n = p% [lo–hi]`, from the interval the report holds), p-values, compare verdicts
//! and pairings, the ci status, and how a lint finding's subject, place and counts are named.
//! Pure formatting of report values; nothing here is computed from the data.

use crate::util::untrusted::inline;
use std::fmt::Write;

use crate::report::ci::CiStatus;
use crate::report::compare::{Effect, Pairing, PowerPlan, Verdict as CompareVerdict};
use crate::report::lint::{Finding, LintSummary};
use crate::report::metrics::Rate;
use crate::report::scorecard::{PartialInfo, ShardInfo};

/// A share as a whole percentage (`17%`), or `n/a` when it was not measured.
pub fn percent(value: Option<f64>) -> String {
    value
        .map(|v| format!("{:.0}%", v * 100.0))
        .unwrap_or_else(|| "n/a".into())
}

/// `k/n = 75.0% [62.8–84.2]`, or `0/0 (unmeasured)`.
pub fn rate(r: &Rate) -> String {
    match (r.value, r.ci95) {
        (Some(v), Some([lo, hi])) => format!(
            "{}/{} = {:.1}% [{:.1}–{:.1}]",
            r.numerator,
            r.denominator,
            v * 100.0,
            lo * 100.0,
            hi * 100.0
        ),
        (Some(v), None) => format!("{}/{} = {:.1}%", r.numerator, r.denominator, v * 100.0),
        _ => format!("{}/{} (unmeasured)", r.numerator, r.denominator),
    }
}

/// A p-value for people: four decimals, or scientific notation below 0.0001.
pub(crate) fn p_text(p: f64) -> String {
    if p > 0.0 && p < 1e-4 {
        format!("{p:.1e}")
    } else {
        format!("{p:.4}")
    }
}

/// A paired difference with its interval, in points: `−60.0 pts [−85.1, −34.9]`.
pub fn effect_text(e: &Effect) -> String {
    format!(
        "{} pts [{}, {}]",
        signed_points(e.difference),
        signed_points(e.ci95[0]),
        signed_points(e.ci95[1])
    )
}

/// `+12.5` / `−60.0` (a real minus sign), points from a proportion.
fn signed_points(x: f64) -> String {
    let v = x * 100.0;
    // −0.0 and values that round to 0 print as 0.0.
    if v.abs() < 0.05 {
        "0.0".to_owned()
    } else if v < 0.0 {
        format!("−{:.1}", -v)
    } else {
        format!("+{v:.1}")
    }
}

/// What a suite can reveal under its gate, in words (from the report's [`PowerPlan`]).
pub fn power_lines(p: &PowerPlan) -> Vec<String> {
    let mut lines = Vec::new();
    let size = format!("{} cases × {} repeats", p.cases, p.repeats);
    match (p.pairing, p.min_fall) {
        (Pairing::Calibrated, Some(k)) => lines.push(format!(
            "{size}: with the drift base showed against itself ({} case(s) flipped), the calibrated test needs ≥ {k} cases to fall",
            p.aa_flipped.unwrap_or(0)
        )),
        (_, Some(k)) => {
            let mut line = format!(
                "{size}: the case-level test needs ≥ {k} cases to fall and none to rise"
            );
            if let Some(c) = p.calibrated_min_fall {
                line.push_str(&format!(
                    "; with a stable A/A calibration run, ≥ {c} would do"
                ));
            }
            lines.push(line);
        }
        (_, None) => lines.push(format!(
            "{size}: the trial-level test counts trials, not cases (figures below are for the case-level test)"
        )),
    }
    let targets: Vec<String> = p
        .targets
        .iter()
        .map(|t| {
            let now = t
                .power
                .map_or_else(String::new, |x| format!("{:.0}% power now, ", x * 100.0));
            let need = t
                .cases_for_80
                .map_or_else(|| "out of reach".to_owned(), |n| format!("{n} cases"));
            let cal = t
                .calibrated_cases_for_80
                .filter(|_| p.pairing != Pairing::Calibrated)
                .map_or_else(String::new, |n| format!(" ({n} calibrated)"));
            format!("{:.0}-pt drop: {now}80% needs {need}{cal}", t.drop * 100.0)
        })
        .collect();
    if !targets.is_empty() {
        lines.push(format!(
            "{} (stable provider; drift lowers power)",
            targets.join(" · ")
        ));
    }
    lines
}

/// The pairing a compare gate used, in words.
pub fn pairing_text(p: Pairing) -> &'static str {
    match p {
        Pairing::Case => "case-level sign test",
        Pairing::Trial => "trial-level sign test",
        Pairing::Both => "trial- and case-level sign tests (both must agree)",
        Pairing::Calibrated => "calibrated test (base vs base again vs head)",
    }
}

/// `regressed`, `insufficient data`, ….
pub fn verdict_word(v: CompareVerdict) -> &'static str {
    match v {
        CompareVerdict::Regressed => "regressed",
        CompareVerdict::Improved => "improved",
        CompareVerdict::Unchanged => "unchanged",
        CompareVerdict::InsufficientData => "insufficient data",
        CompareVerdict::NoSignificantChange => "no significant change",
        CompareVerdict::LikelyRegressed => "likely regressed",
    }
}

/// `pass`, `fail`, `unhealthy`: a ci status in words.
pub fn ci_status_word(status: CiStatus) -> &'static str {
    match status {
        CiStatus::Pass => "pass",
        CiStatus::Fail => "fail",
        CiStatus::Unhealthy => "unhealthy",
    }
}

/// What a finding is about, as people read it: `tool`, `a ↔ b` for a pair, `skill NAME`, or
/// `surface`. Shared by the lint renderers so every format names a subject the same way.
pub fn subject(finding: &Finding) -> String {
    match (&finding.pair, &finding.tool, &finding.skill) {
        (Some([a, b]), _, _) => format!("{a} ↔ {b}"),
        (None, Some(tool), _) => tool.clone(),
        (None, None, Some(skill)) => format!("skill {skill}"),
        _ => "surface".to_owned(),
    }
}

/// Where a finding's subject is defined: `file:line`, `file`, or `None` when unknown.
pub fn location(finding: &Finding) -> Option<String> {
    match (&finding.file, finding.line) {
        (Some(file), Some(line)) => Some(format!("{}:{line}", inline(file))),
        (Some(file), None) => Some(inline(file).into_owned()),
        _ => None,
    }
}

/// `1 error`, `3 errors`: a count with its noun in the right number.
pub fn plural(count: usize, singular: &str, plural: &str) -> String {
    if count == 1 {
        format!("{count} {singular}")
    } else {
        format!("{count} {plural}")
    }
}

/// The counts of a lint run in one phrase: `3 errors, 4 warnings, 3 infos (1 suppressed) on 12
/// tools and 2 skills`. Taken from the report's summary, never recounted.
pub fn summary_phrase(summary: &LintSummary) -> String {
    let mut s = format!(
        "{}, {}, {}",
        plural(summary.errors, "error", "errors"),
        plural(summary.warnings, "warning", "warnings"),
        plural(summary.infos, "info", "infos"),
    );
    if summary.suppressed > 0 {
        let _ = write!(s, " ({} suppressed)", summary.suppressed);
    }
    let _ = write!(s, " {}", scope_phrase(summary));
    s
}

/// What was linted: `on 12 tools`, or `on 12 tools and 2 skills`.
pub fn scope_phrase(summary: &LintSummary) -> String {
    let mut s = format!("on {}", plural(summary.tools, "tool", "tools"));
    if summary.skills > 0 {
        let _ = write!(s, " and {}", plural(summary.skills, "skill", "skills"));
    }
    s
}

/// `part: shard 2/3 (40 trials; …)`: what a part of a sharded eval holds.
pub fn part_phrase(s: &ShardInfo) -> String {
    format!(
        "part: shard {}/{} ({}; its figures cover this shard only — merge the parts with `mf merge`)",
        s.index,
        s.count,
        plural(s.trials.len(), "trial", "trials")
    )
}

/// `PARTIAL: shard 3/3 missing (30 trials); …`: what a partial merge lacks.
pub fn partial_phrase(p: &PartialInfo) -> String {
    let missing: Vec<String> = p
        .missing
        .iter()
        .map(|k| format!("{k}/{}", p.count))
        .collect();
    format!(
        "PARTIAL: shard{} {} missing ({}); the figures cover the merged shards only",
        if missing.len() == 1 { "" } else { "s" },
        missing.join(", "),
        plural(p.missing_trials as usize, "trial", "trials")
    )
}

/// Why a declared server's snapshot is not fresh, naming its tools (`mf ci --live`'s reason
/// and annotation).
pub fn snapshot_reason(s: &crate::report::snapshot::ServerSnapshot) -> String {
    let fix = format!("run `mf snapshot {}` and commit the file", s.name);
    match s.status {
        crate::report::snapshot::SnapshotStatus::Missing => format!(
            "server {}: no snapshot at {} yet ({}); {fix}",
            s.name,
            s.snapshot,
            snapshot_changes(s)
        ),
        crate::report::snapshot::SnapshotStatus::Failed => format!(
            "server {}: the freshness check could not run: {}",
            s.name,
            s.error.as_deref().unwrap_or("unknown error")
        ),
        _ => format!(
            "server {}: the snapshot {} is stale: {}; {fix}",
            s.name,
            s.snapshot,
            snapshot_changes(s)
        ),
    }
}

fn snapshot_changes(s: &crate::report::snapshot::ServerSnapshot) -> String {
    let mut parts = Vec::new();
    if !s.added.is_empty() {
        parts.push(format!("added {}", s.added.join(", ")));
    }
    if !s.removed.is_empty() {
        parts.push(format!("removed {}", s.removed.join(", ")));
    }
    if !s.changed.is_empty() {
        let each: Vec<String> = s
            .changed
            .iter()
            .map(|c| format!("{} ({})", c.name, c.fields.join(", ")))
            .collect();
        parts.push(format!("changed {}", each.join(", ")));
    }
    if parts.is_empty() {
        "the file does not read as a snapshot".into()
    } else {
        parts.join("; ")
    }
}
