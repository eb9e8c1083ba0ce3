//! Lint findings and the lint report (`mf lint --format json`, SCHEMA.md §Lint report).

use serde::{Deserialize, Serialize};

use crate::surface::tokens::SurfaceTokens;

/// Lint report format version.
pub const LINT_REPORT_VERSION: u32 = 1;

/// How bad a finding is. Ordered: `Info < Warn < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails a gate by default.
    Info,
    /// Likely to confuse a model.
    Warn,
    /// Broken: a model will fail or a client will reject the surface.
    Error,
}

impl Severity {
    /// The lower-case name used in JSON and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warn => "warn",
            Severity::Error => "error",
        }
    }
}

/// What a finding is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Subject {
    /// One tool (or a pair of tools, see `pair`).
    Tool,
    /// One skill (or a pair of skills).
    Skill,
    /// The surface as a whole.
    Surface,
}

/// One finding. Codes are a stable contract (SCHEMA.md, `mf lint --explain CODE`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// Severity.
    pub severity: Severity,
    /// Stable rule code, kebab-case (e.g. `description-too-short`).
    pub code: String,
    /// What the finding is about.
    pub kind: Subject,
    /// The tool, when about one tool (for pairs: the first of `pair`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The skill, when about one skill.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skill: Option<String>,
    /// The parameter, when about one parameter (dotted path for nested ones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<String>,
    /// The two tools (or skills) of a pair finding, sorted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<[String; 2]>,
    /// What is wrong, in one or two sentences.
    pub message: String,
    /// What to do about it.
    pub suggestion: String,
    /// Where the subject is defined (for pairs: the first tool's file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line of the definition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl Finding {
    /// The identity a baseline matches on: code + subject (tool/skill/pair) + param. Messages
    /// and lines may change without the finding becoming "new".
    pub fn baseline_key(&self) -> String {
        let subject = match (&self.pair, &self.tool, &self.skill) {
            (Some([a, b]), _, _) => format!("{a}|{b}"),
            (None, Some(t), _) => t.clone(),
            (None, None, Some(s)) => format!("skill:{s}"),
            // A finding about a file rather than a tool (`server-unread`) is that file's.
            _ => match &self.file {
                Some(f) if self.code == "server-unread" => format!("file:{f}"),
                _ => "surface".to_owned(),
            },
        };
        format!(
            "{}|{}|{}",
            self.code,
            subject,
            self.param.as_deref().unwrap_or("")
        )
    }
}

/// Counts of a lint run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LintSummary {
    /// Tools linted.
    pub tools: usize,
    /// Skills linted.
    pub skills: usize,
    /// Findings at `error` (after baseline and suppressions).
    pub errors: usize,
    /// Findings at `warn`.
    pub warnings: usize,
    /// Findings at `info`.
    pub infos: usize,
    /// Findings hidden by the baseline file or inline suppressions.
    pub suppressed: usize,
}

/// The lint report.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LintReport {
    /// Format version; 1.
    pub version: u32,
    /// Always `"lint"`.
    pub kind: String,
    /// What was linted (paths, URL or server), as given.
    pub target: String,
    /// Surface fingerprint.
    pub fingerprint: String,
    /// Token total of the surface.
    pub tokens: SurfaceTokens,
    /// Counts.
    pub summary: LintSummary,
    /// Findings, sorted by severity (errors first), code, subject, param.
    pub findings: Vec<Finding>,
}
