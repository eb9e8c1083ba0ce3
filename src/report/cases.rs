//! Case-level outcomes of an eval: each case of each model tallied over its trials, with the
//! verdict of the case (pass, the commonest failure, error, not run, unreviewed) and the wording
//! of its figures. Data only; the rule that decides a case lives in the eval engine
//! (`eval/cases.rs`), and the JUnit and template renderers lay these values out.

use std::collections::BTreeMap;

use super::metrics::{Rate, Verdict};

/// How a failing trial (or case) failed, as written in `<failure type="…">`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FailureKind {
    /// Another surface tool, a phantom name, or extra tools besides the expected one.
    WrongTool,
    /// The expected tool with arguments that fail the check.
    WrongArgs,
    /// No call on a must-call case.
    NoCall,
    /// A call on a must-not-call case.
    OverTrigger,
    /// The expected tool with good arguments, but its execution (`--execute`) failed an
    /// expectation.
    ExecFailed,
}

impl FailureKind {
    /// The `type` attribute: `wrong_tool`, `wrong_args`, `no_call`, `over_trigger`,
    /// `exec_failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::WrongTool => "wrong_tool",
            FailureKind::WrongArgs => "wrong_args",
            FailureKind::NoCall => "no_call",
            FailureKind::OverTrigger => "over_trigger",
            FailureKind::ExecFailed => "exec_failed",
        }
    }
}

/// What became of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseStatus {
    /// A strict majority of its scored trials passed.
    Pass,
    /// It has scored trials and no strict majority passed; the commonest failure.
    Fail(FailureKind),
    /// Every trial errored (provider trouble).
    Error,
    /// Not run: every trial ended in `no-key` or `cancelled`, or the case has no trial.
    NotRun,
    /// `reviewed: false`: run, but never counted.
    Unreviewed,
}

/// One case of one model, tallied over its trials.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseOutcome {
    /// Case id.
    pub id: String,
    /// The expected tool; `None` = must not call.
    pub expected: Option<String>,
    /// Line of the case in the suite file, when known.
    pub line: Option<u32>,
    /// Trials of the case.
    pub trials: u64,
    /// Trials that are not errors.
    pub scored: u64,
    /// Scored trials that passed (the rule is in `eval::cases`).
    pub passed: u64,
    /// Failed scored trials by how they failed.
    pub failures: BTreeMap<FailureKind, u64>,
    /// Error trials by kind (`timeout`, `http`, …).
    pub errors: BTreeMap<String, u64>,
    /// Trials by verdict.
    pub verdicts: BTreeMap<Verdict, u64>,
    /// Sum of recorded latencies (ms) and how many trials recorded one.
    pub latency_ms: (u64, u64),
    /// Input and output tokens the provider reported.
    pub tokens: (u64, u64),
    /// `passed / scored` with its Wilson interval.
    pub pass_rate: Rate,
    /// The commonest error kind of the case's error trials (ties go to the first name in
    /// alphabetical order); `None` when no trial errored.
    pub commonest_error: Option<String>,
    /// The verdict of the case.
    pub status: CaseStatus,
}

impl CaseOutcome {
    /// Error trials in all.
    pub fn error_count(&self) -> u64 {
        self.errors.values().sum()
    }

    /// `k of n trials passed, 95% CI lo–hi%` (`no scored trial` when none was scored).
    pub fn summary(&self) -> String {
        match self.pass_rate.ci95 {
            Some([lo, hi]) => format!(
                "{} of {} trials passed, 95% CI {:.1}–{:.1}%",
                self.passed,
                self.scored,
                lo * 100.0,
                hi * 100.0
            ),
            None => "no scored trial".to_owned(),
        }
    }

    /// `timeout 3, http 2`: the error kinds with their counts.
    pub fn error_text(&self) -> String {
        counts_text(self.errors.iter().map(|(k, n)| (k.as_str(), *n)))
    }

    /// `wrong_tool 3, no_call 1`: how the failed trials failed.
    pub fn failure_text(&self) -> String {
        counts_text(self.failures.iter().map(|(k, n)| (k.as_str(), *n)))
    }
}

fn counts_text<'a>(items: impl Iterator<Item = (&'a str, u64)>) -> String {
    items
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}
