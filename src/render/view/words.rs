//! Short words and sentences the view builders share: status words and icons, compare verdict
//! keys, a paired test in one line, a short sha, the regression sentence.

use super::types::CompareRow;
use crate::render::text::p_text;
use crate::report::compare::{PairedTest, Verdict as CompareVerdict};
use crate::report::scorecard::Status;

pub(super) fn status_word(s: Status) -> &'static str {
    match s {
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::Unhealthy => "unhealthy",
    }
}

pub(super) fn status_icon(status: &str) -> &'static str {
    match status {
        "pass" | "improved" | "unchanged" => "✅",
        "fail" | "regressed" => "❌",
        "unhealthy" | "insufficient-data" | "likely-regressed" => "⚠️",
        _ => "ℹ️",
    }
}

pub(super) fn verdict_key(v: CompareVerdict) -> &'static str {
    match v {
        CompareVerdict::Regressed => "regressed",
        CompareVerdict::Improved => "improved",
        CompareVerdict::Unchanged => "unchanged",
        CompareVerdict::InsufficientData => "insufficient-data",
        CompareVerdict::NoSignificantChange => "no-significant-change",
        CompareVerdict::LikelyRegressed => "likely-regressed",
    }
}

pub(super) fn test_text(t: &PairedTest) -> String {
    format!(
        "{}↑ {}↓ {}= of {}, p = {}",
        t.improved,
        t.regressed,
        t.tied,
        t.pairs,
        p_text(t.p_adjusted)
    )
}

pub(super) fn short_sha(sha: &Option<String>) -> Option<String> {
    sha.as_ref().map(|s| s.chars().take(12).collect())
}

pub(super) fn regression_sentence(r: &CompareRow) -> String {
    format!(
        "{} regressed on {}: {} → {} ({}), cases {}",
        r.label, r.model, r.before.percent, r.after.percent, r.delta, r.cases
    )
}
