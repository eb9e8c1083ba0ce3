//! The tasks lint report (`mf tasks lint --format json`, SCHEMA.md "Tasks lint report"): a
//! suite's cases checked against the surface they will be asked about, before anything is
//! spent. Findings are about cases (or a tool's share of them), so they name the case and its
//! line rather than a tool definition; their severities are the lint ones.

use serde::{Deserialize, Serialize};

use super::lint::Severity;

/// Tasks lint report format version.
pub const TASKS_LINT_REPORT_VERSION: u32 = 1;

/// One finding. Codes are a stable contract (SCHEMA.md, `mf tasks lint --explain CODE`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TaskFinding {
    /// Severity.
    pub severity: Severity,
    /// Stable rule code, kebab-case (e.g. `unknown-expected-tool`).
    pub code: String,
    /// The case id, when about one case.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// The tool, when about one tool (the expected tool of the case, or the tool short of cases).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The key at fault as the file names it (`expectedTool`/`expected`, `input`/`prompt`,
    /// `id`, `expectedArgs.KEY`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What is wrong, in one or two sentences.
    pub message: String,
    /// What to do about it.
    pub suggestion: String,
    /// The suite file.
    pub file: String,
    /// 1-based line of the case, when known (absent for findings about the whole suite).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
}

impl TaskFinding {
    /// `file:line: case "id": message` (or `file: message`), the one-line form errors use.
    pub fn one_line(&self) -> String {
        let at = self.line.map(|l| format!(":{l}")).unwrap_or_default();
        match &self.case {
            Some(case) => format!("{}{at}: case {case:?}: {}", self.file, self.message),
            None => format!("{}{at}: {}", self.file, self.message),
        }
    }

    /// The identity SARIF fingerprints on: code + case (or tool) + field.
    pub fn key(&self) -> String {
        format!(
            "{}|{}|{}",
            self.code,
            self.case.as_deref().map_or_else(
                || self.tool.clone().unwrap_or_default(),
                |c| format!("case:{c}")
            ),
            self.field.as_deref().unwrap_or("")
        )
    }
}

/// Counts of a tasks lint run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TasksLintSummary {
    /// Cases in the file.
    pub cases: usize,
    /// Of which reviewed (`reviewed` not false).
    pub reviewed: usize,
    /// Reviewed must-not-call cases (`expectedTool: null`).
    pub must_not_call: usize,
    /// Tools on the surface.
    pub tools: usize,
    /// Findings at `error`.
    pub errors: usize,
    /// Findings at `warn`.
    pub warnings: usize,
    /// Findings at `info`.
    pub infos: usize,
}

/// The tasks lint report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TasksLintReport {
    /// Format version; 1.
    pub version: u32,
    /// Always `"tasks-lint"`.
    pub kind: String,
    /// The suite (task set) file, as given.
    pub suite: String,
    /// Where the tools came from.
    pub surface: String,
    /// Surface fingerprint (`sha256:…`, as in the scan report).
    pub fingerprint: String,
    /// Counts.
    pub summary: TasksLintSummary,
    /// Findings: errors first, then warnings, then infos; inside a severity by line, code and
    /// case.
    pub findings: Vec<TaskFinding>,
}
