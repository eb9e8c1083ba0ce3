//! The case-level verdict of an eval: each case of a model tallied over its trials, and the rule
//! that decides it. Renderers (JUnit, the template views) receive these outcomes from here and
//! only lay them out.
//!
//! **When a case passes.** A trial *passes* when it is scored (reviewed, not an error), its
//! verdict is a selection success (`correct`, `correct-abstention`), the argument check of
//! its call, when there was one, passed, and, with `--execute`, its execution met the case's
//! `expect` (else it fails as `exec_failed`). A case passes when a strict majority of its scored
//! trials pass (a tie fails), the same majority rule as the scorecard's `caseLevel`, with the
//! arguments counted too — so a case whose model picks the right tool with wrong arguments most
//! of the time fails as `wrong_args`, while `caseLevel` (selection only) counts it as won.
//!
//! A failing case carries the commonest way its trials failed ([`failure_of`]): `wrong_tool`
//! (another tool, a phantom name, or extra tools besides the expected one), `wrong_args`, `no_call`
//! (abstained on a must-call case) or `over_trigger` (a call on a must-not-call case); ties go to
//! that order. Its pass rate `k of n` comes with a Wilson 95% interval. A case with no scored trial
//! because every trial errored is an error (provider trouble, never a wrong answer), typed by its
//! commonest error kind (ties to the first name alphabetically); when every trial ended in `no-key`
//! or `cancelled` the case was not run, and unreviewed cases (`reviewed: false`) never count.

use std::collections::BTreeMap;

use crate::report::cases::{CaseOutcome, CaseStatus, FailureKind};
use crate::report::metrics::{Rate, Verdict};
use crate::report::scorecard::{CaseInfo, ModelResult, TrialRow};
use crate::report::trial::{ErrorKind, error_kind_name};

/// How a scored trial failed; `None` when it passed.
pub fn failure_of(trial: &TrialRow) -> Option<FailureKind> {
    match trial.verdict {
        Verdict::Correct if trial.args.as_ref().is_some_and(|a| !a.ok) => {
            Some(FailureKind::WrongArgs)
        }
        Verdict::Correct if trial.execution.as_ref().is_some_and(|e| !e.passed) => {
            Some(FailureKind::ExecFailed)
        }
        Verdict::Correct | Verdict::CorrectAbstention | Verdict::Error => None,
        Verdict::WrongTool | Verdict::Phantom | Verdict::UnexpectedAdditionalCalls => {
            Some(FailureKind::WrongTool)
        }
        Verdict::Abstained => Some(FailureKind::NoCall),
        Verdict::OverTriggered => Some(FailureKind::OverTrigger),
    }
}

/// Every selected case of `model`, in suite order, tallied over its trials. Tallying is
/// counting plus each case's Wilson interval; the rule that decides a case is in the module docs.
pub fn case_outcomes(model: &ModelResult, cases: &[CaseInfo]) -> Vec<CaseOutcome> {
    let mut by_case: BTreeMap<&str, Vec<&TrialRow>> = BTreeMap::new();
    for t in &model.trials {
        by_case.entry(t.case.as_str()).or_default().push(t);
    }
    cases
        .iter()
        .map(|case| {
            let trials = by_case.remove(case.id.as_str()).unwrap_or_default();
            outcome(case, &trials)
        })
        .collect()
}

fn outcome(case: &CaseInfo, trials: &[&TrialRow]) -> CaseOutcome {
    let mut o = CaseOutcome {
        id: case.id.clone(),
        expected: case.expected_tool.clone(),
        line: case.line,
        trials: trials.len() as u64,
        scored: 0,
        passed: 0,
        failures: BTreeMap::new(),
        errors: BTreeMap::new(),
        verdicts: BTreeMap::new(),
        latency_ms: (0, 0),
        tokens: (0, 0),
        pass_rate: Rate::new(0, 0),
        commonest_error: None,
        status: CaseStatus::NotRun,
    };
    let mut not_run = 0;
    for t in trials {
        *o.verdicts.entry(t.verdict).or_default() += 1;
        if let Some(ms) = t.latency_ms {
            o.latency_ms.0 += ms;
            o.latency_ms.1 += 1;
        }
        if let Some(u) = &t.usage {
            o.tokens.0 += u.input_tokens;
            o.tokens.1 += u.output_tokens;
        }
        if t.verdict == Verdict::Error {
            let kind = t.error.as_ref().map(|e| e.kind);
            if matches!(kind, Some(ErrorKind::NoKey | ErrorKind::Cancelled)) {
                not_run += 1;
            }
            let name = kind.map_or_else(|| "unknown".to_owned(), error_kind_name);
            *o.errors.entry(name).or_default() += 1;
            continue;
        }
        o.scored += 1;
        match failure_of(t) {
            None => o.passed += 1,
            Some(k) => *o.failures.entry(k).or_default() += 1,
        }
    }
    o.pass_rate = Rate::new(o.passed, o.scored);
    o.commonest_error = o
        .errors
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(k, _)| k.clone());
    o.status = if !case.reviewed {
        CaseStatus::Unreviewed
    } else if o.trials == 0 || (o.scored == 0 && not_run == o.trials) {
        CaseStatus::NotRun
    } else if o.scored == 0 {
        CaseStatus::Error
    } else if 2 * o.passed > o.scored {
        CaseStatus::Pass
    } else {
        // The commonest failure; ties go to the declaration order. There is at least one
        // failure here, since passed ≤ scored / 2 and scored > 0.
        let worst = o
            .failures
            .iter()
            .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
            .map_or(FailureKind::WrongTool, |(k, _)| *k);
        CaseStatus::Fail(worst)
    };
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::metrics::ArgCheck;
    use crate::report::trial::TrialError;

    fn case(reviewed: bool) -> CaseInfo {
        CaseInfo {
            id: "c".into(),
            input_hash: "sha256:0".into(),
            expected_tool: Some("t".into()),
            expected_calls: None,
            tools: None,
            reviewed,
            tags: vec![],
            line: Some(3),
            mutated_from: None,
            mutation: None,
            prompt_tokens: 1,
        }
    }

    fn trial(verdict: Verdict, args_ok: Option<bool>, error: Option<ErrorKind>) -> TrialRow {
        TrialRow {
            case: "c".into(),
            trial: 0,
            order: vec![],
            verdict,
            calls: vec![],
            args: args_ok.map(|ok| ArgCheck {
                ok,
                problems: vec![],
                notes: vec![],
            }),
            text: None,
            error: error.map(|k| TrialError::new(k, "x")),
            latency_ms: None,
            usage: None,
            retries: 0,
            cached: false,
            execution: None,
        }
    }

    fn status(reviewed: bool, trials: &[TrialRow]) -> CaseStatus {
        let refs: Vec<&TrialRow> = trials.iter().collect();
        outcome(&case(reviewed), &refs).status
    }

    #[test]
    fn a_tie_fails_and_a_strict_majority_passes() {
        let ok = trial(Verdict::Correct, Some(true), None);
        let wrong = trial(Verdict::WrongTool, None, None);
        assert_eq!(
            status(
                true,
                &[ok.clone(), ok.clone(), wrong.clone(), wrong.clone()]
            ),
            CaseStatus::Fail(FailureKind::WrongTool)
        );
        assert_eq!(
            status(true, &[ok.clone(), ok.clone(), wrong]),
            CaseStatus::Pass
        );
    }

    #[test]
    fn wrong_arguments_fail_a_correct_pick_and_errors_do_not_count() {
        let bad_args = trial(Verdict::Correct, Some(false), None);
        let timeout = trial(Verdict::Error, None, Some(ErrorKind::Timeout));
        let ok = trial(Verdict::Correct, Some(true), None);
        assert_eq!(
            status(true, &[bad_args.clone(), bad_args, ok.clone()]),
            CaseStatus::Fail(FailureKind::WrongArgs)
        );
        // One answer, passing; the errors are reported but are not wrong answers.
        assert_eq!(
            status(true, &[timeout.clone(), timeout.clone(), ok]),
            CaseStatus::Pass
        );
        assert_eq!(status(true, &[timeout.clone(), timeout]), CaseStatus::Error);
    }

    #[test]
    fn failure_ties_go_to_the_declared_order_and_unrun_cases_are_skipped() {
        let abstained = trial(Verdict::Abstained, None, None);
        let phantom = trial(Verdict::Phantom, None, None);
        assert_eq!(
            status(true, &[abstained.clone(), phantom]),
            CaseStatus::Fail(FailureKind::WrongTool)
        );
        let no_key = trial(Verdict::Error, None, Some(ErrorKind::NoKey));
        assert_eq!(status(true, &[no_key.clone(), no_key]), CaseStatus::NotRun);
        assert_eq!(status(true, &[]), CaseStatus::NotRun);
        assert_eq!(status(false, &[abstained]), CaseStatus::Unreviewed);
    }
}
