//! Workflow-command annotations (`::error file=…,line=…,title=…::message`) printed on stdout, so
//! the Actions log and the pull request's "Files changed" tab mark the lines that need work.
//!
//! GitHub shows at most 10 annotations of each level per step, so at most [`PER_LEVEL`] are
//! printed per level, worst first: significant regressions of gated metrics, then lint errors
//! (findings new in this change before old ones); then non-gated regressions and lint warnings.
//! Infos are never annotated. Escaping follows the runner's rules: in the message `%`, `\r`,
//! `\n` become `%25`, `%0D`, `%0A`; in properties also `:` and `,` become `%3A`, `%2C`.

use std::collections::BTreeSet;

use crate::render::text::percent;
use crate::report::ci::LintGate;
use crate::report::compare::{CompareReport, MetricComparison, Pairing, Verdict};
use crate::report::lint::{Finding, LintReport, Severity};

/// GitHub shows this many annotations per level per step.
pub const PER_LEVEL: usize = 10;

/// Annotation level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// `::error`.
    Error,
    /// `::warning`.
    Warning,
}

impl Level {
    /// The workflow command.
    pub fn command(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
        }
    }
}

/// One annotation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// Level.
    pub level: Level,
    /// Repository-relative file the annotation points at.
    pub file: Option<String>,
    /// 1-based line.
    pub line: Option<u32>,
    /// Short title.
    pub title: String,
    /// The message.
    pub message: String,
}

impl Annotation {
    /// The workflow command line (no trailing newline).
    pub fn render(&self) -> String {
        let mut props = Vec::new();
        if let Some(file) = &self.file {
            props.push(format!("file={}", escape_property(file)));
            if let Some(line) = self.line {
                props.push(format!("line={line}"));
            }
        }
        props.push(format!("title={}", escape_property(&self.title)));
        format!(
            "::{} {}::{}",
            self.level.command(),
            props.join(","),
            escape_data(&self.message)
        )
    }
}

/// Escape a command's message.
pub fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a command property value.
pub fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// Where a tool is defined: its file and line, when known.
pub type OriginOf<'a> = &'a dyn Fn(&str) -> Option<(String, Option<u32>)>;

/// The annotations of one run, at most [`PER_LEVEL`] per level, worst first. `new_in_head`
/// holds the baseline keys of findings this change introduced; `origin_of` says where a tool
/// is defined (for regressions of one tool). A finding the lint gate does not count (already at
/// the base) is never annotated.
pub fn select(
    lint: &LintReport,
    gate: Option<&LintGate>,
    compare: Option<&CompareReport>,
    new_in_head: &BTreeSet<String>,
    origin_of: OriginOf<'_>,
) -> Vec<Annotation> {
    let mut candidates: Vec<(Level, u8, Annotation)> = Vec::new();
    if let Some(eval) = compare.and_then(|c| c.eval.as_ref()) {
        let gated: BTreeSet<&str> = eval.gate.metrics.iter().map(String::as_str).collect();
        for model in &eval.models {
            let all = model.metrics.iter().chain(&model.tools).chain(&model.pairs);
            for m in all.filter(|m| m.verdict == Verdict::Regressed) {
                let level = if gated.contains(m.metric.as_str()) {
                    Level::Error
                } else {
                    Level::Warning
                };
                let (file, line) = m
                    .subject
                    .as_deref()
                    .filter(|_| m.metric == "tool-accuracy")
                    .and_then(origin_of)
                    .map_or((None, None), |(f, l)| (Some(f), l));
                candidates.push((
                    level,
                    0,
                    Annotation {
                        level,
                        file,
                        line,
                        title: format!("mf: {} regressed", m.metric),
                        message: regression_message(&model.model, m, eval.gate.pairing),
                    },
                ));
            }
        }
    }
    for f in lint
        .findings
        .iter()
        .filter(|f| gate.is_none_or(|g| g.counts(f)))
    {
        let level = match f.severity {
            Severity::Error => Level::Error,
            Severity::Warn => Level::Warning,
            Severity::Info => continue,
        };
        let rank = if new_in_head.contains(&f.baseline_key()) {
            1
        } else {
            2
        };
        candidates.push((level, rank, finding_annotation(level, f)));
    }
    // Stable: within a rank, the report's order (already worst first).
    candidates.sort_by_key(|(level, rank, _)| (*level, *rank));
    let mut out = Vec::new();
    let mut counts = [0usize; 2];
    for (level, _, a) in candidates {
        let n = &mut counts[level as usize];
        if *n < PER_LEVEL {
            *n += 1;
            out.push(a);
        }
    }
    out
}

fn finding_annotation(level: Level, f: &Finding) -> Annotation {
    let subject = crate::render::text::subject(f);
    let mut message = match &f.param {
        Some(p) => format!("{subject} ({p}): {}", f.message),
        None => format!("{subject}: {}", f.message),
    };
    if !f.suggestion.is_empty() {
        message.push('\n');
        message.push_str(&f.suggestion);
    }
    Annotation {
        level,
        file: f.file.clone(),
        line: f.line,
        title: format!("mf {}", f.code),
        message,
    }
}

fn regression_message(model: &str, m: &MetricComparison, pairing: Pairing) -> String {
    let test = match pairing {
        Pairing::Trial => &m.trial,
        Pairing::Case | Pairing::Both | Pairing::Calibrated => &m.case,
    };
    let what = match &m.subject {
        Some(s) => format!("{} of {s}", m.metric),
        None => m.metric.clone(),
    };
    format!(
        "{what} regressed for {model}: {} → {} ({} of {} paired {} worse, {} better; p = {:.4})",
        percent(m.before.value),
        percent(m.after.value),
        test.regressed,
        test.pairs,
        if matches!(pairing, Pairing::Trial) {
            "trials"
        } else {
            "cases"
        },
        test.improved,
        test.p_adjusted,
    )
}

/// (`mf ci --live`) One error per declared server whose snapshot is not fresh, at its snapshot
/// file (`path` is PATH, the folder of the `mf.toml` that declares it), naming the tools added,
/// removed and changed.
pub fn snapshots(report: &crate::report::snapshot::SnapshotReport, path: &str) -> Vec<Annotation> {
    use crate::report::snapshot::SnapshotStatus;
    let dir = path.trim_end_matches('/');
    report
        .servers
        .iter()
        .filter(|s| s.status != SnapshotStatus::Fresh)
        .take(PER_LEVEL)
        .map(|s| Annotation {
            level: Level::Error,
            file: (!s.snapshot.is_empty()).then(|| {
                if dir.is_empty() || dir == "." {
                    s.snapshot.clone()
                } else {
                    format!("{dir}/{}", s.snapshot)
                }
            }),
            line: None,
            title: format!("mf: snapshot of server {} is not fresh", s.name),
            message: crate::render::text::snapshot_reason(s),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::lint::Subject;

    fn finding(severity: Severity, code: &str, tool: &str) -> Finding {
        Finding {
            severity,
            code: code.to_owned(),
            kind: Subject::Tool,
            tool: Some(tool.to_owned()),
            skill: None,
            param: None,
            pair: None,
            message: "bad, really: 100%\nsecond line".to_owned(),
            suggestion: String::new(),
            file: Some("tools/a,b:c.json".to_owned()),
            line: Some(3),
        }
    }

    fn report(findings: Vec<Finding>) -> LintReport {
        serde_json::from_value(serde_json::json!({
            "version": 1, "kind": "lint", "target": ".", "fingerprint": "sha256:0",
            "tokens": {"total": 0, "tokenizer": "o200k_base", "exact": true},
            "summary": {"tools": 0, "skills": 0, "errors": 0, "warnings": 0, "infos": 0, "suppressed": 0},
            "findings": findings,
        }))
        .expect("lint report")
    }

    #[test]
    fn messages_and_properties_are_escaped_per_the_runner_rules() {
        let a = finding_annotation(Level::Error, &finding(Severity::Error, "x", "t"));
        assert_eq!(
            a.render(),
            "::error file=tools/a%2Cb%3Ac.json,line=3,title=mf x::t: bad, really: 100%25%0Asecond line"
        );
    }

    #[test]
    fn at_most_ten_per_level_new_findings_first_and_no_infos() {
        let mut findings: Vec<Finding> = (0..12)
            .map(|i| finding(Severity::Error, "old", &format!("t{i:02}")))
            .collect();
        findings.push(finding(Severity::Error, "new", "z"));
        findings.extend((0..3).map(|i| finding(Severity::Warn, "w", &format!("w{i}"))));
        findings.push(finding(Severity::Info, "i", "i"));
        let lint = report(findings);
        let new: BTreeSet<String> = ["new|z|".to_owned()].into_iter().collect();
        let got = select(&lint, None, None, &new, &|_| None);
        let errors: Vec<&Annotation> = got.iter().filter(|a| a.level == Level::Error).collect();
        assert_eq!(errors.len(), PER_LEVEL);
        assert_eq!(errors[0].title, "mf new");
        assert_eq!(got.iter().filter(|a| a.level == Level::Warning).count(), 3);
        assert!(got.iter().all(|a| a.title != "mf i"));
    }
}
