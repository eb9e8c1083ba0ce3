//! Step outputs: `key=value` lines appended to `$GITHUB_OUTPUT`, so later steps read
//! `steps.<id>.outputs.<key>`. A value with a line break is written with GitHub's delimiter
//! syntax (`key<<DELIMITER`, the lines, `DELIMITER`), the delimiter chosen so that it is not a
//! line of the value (a value cannot end the block early or inject another key).

use std::io::Write;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::report::ci::{CiMode, CiReport, CiStatus};
use crate::report::compare::{Pairing, Verdict};

/// Outputs in the order they were set (a key set twice keeps its last value).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outputs {
    entries: Vec<(String, String)>,
}

impl Outputs {
    /// No outputs.
    pub fn new() -> Outputs {
        Outputs::default()
    }

    /// Set `key` (letters, digits, `-`, `_`) to `value`.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        let value = value.into();
        match self.entries.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value,
            None => self.entries.push((key.to_owned(), value)),
        }
    }

    /// The value of `key`, if set.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entries
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_str())
    }

    /// The file text: one `key=value` line per single-line value, a delimited block otherwise.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for (key, value) in &self.entries {
            if value.contains(['\n', '\r']) {
                let delimiter = delimiter_for(key, value);
                text.push_str(&format!("{key}<<{delimiter}\n{value}\n{delimiter}\n"));
            } else {
                text.push_str(&format!("{key}={value}\n"));
            }
        }
        text
    }

    /// Append [`Outputs::render`] to the file at `path` (`$GITHUB_OUTPUT`).
    pub fn append_to(&self, path: &Path) -> std::io::Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        file.write_all(self.render().as_bytes())?;
        file.flush()
    }
}

/// The step outputs of a CI report. Always set (empty when not measured), so later steps can
/// read them whatever happened: `status` (`pass`, `fail`, `unhealthy`), `mode` (`full`,
/// `free`), `free-reason`, `reasons` (one per line), `verdict` (`regressed`, `improved`,
/// `unchanged`, `insufficient data`; empty without a comparison), `accuracy` (the first model's
/// head selection accuracy, 0–1), `p-value` (the first model's gated selection-accuracy test),
/// `lint-errors`, `lint-warnings`, `lint-infos`, `base-reused` (`true`/`false`), `calibrated`
/// (`true` when the calibrated gate decided), `calibration-reused` (`true`/`false`), and the paths
/// `report-json`, `junit`, `sarif`, `html`, `badge` (empty when not written).
pub fn from_report(ci: &CiReport) -> Outputs {
    let mut o = Outputs::new();
    o.set(
        "status",
        match ci.status {
            CiStatus::Pass => "pass",
            CiStatus::Fail => "fail",
            CiStatus::Unhealthy => "unhealthy",
        },
    );
    o.set(
        "mode",
        match ci.mode {
            CiMode::Full => "full",
            CiMode::Free => "free",
        },
    );
    o.set("free-reason", ci.free_reason.clone().unwrap_or_default());
    o.set("reasons", ci.reasons.join("\n"));
    let verdict = ci
        .compare
        .as_ref()
        .and_then(|c| c.verdict)
        .map(|v| match v {
            Verdict::Regressed => "regressed",
            Verdict::Improved => "improved",
            Verdict::Unchanged => "unchanged",
            Verdict::InsufficientData => "insufficient data",
            Verdict::NoSignificantChange => "no significant change",
            Verdict::LikelyRegressed => "likely regressed",
        });
    o.set("verdict", verdict.unwrap_or_default());
    let accuracy = ci
        .head
        .as_ref()
        .and_then(|card| card.models.first())
        .and_then(|m| m.metrics.selection_accuracy.value);
    o.set("accuracy", accuracy.map(number).unwrap_or_default());
    let p = ci
        .compare
        .as_ref()
        .and_then(|c| c.eval.as_ref())
        .and_then(|e| {
            let m = e.models.first()?;
            let metric = m
                .metrics
                .iter()
                .find(|x| x.metric == "selection-accuracy")?;
            Some(match e.gate.pairing {
                Pairing::Case => metric.case.p,
                Pairing::Trial => metric.trial.p,
                Pairing::Both => metric.case.p.max(metric.trial.p),
                Pairing::Calibrated => metric.calibrated.as_ref().map_or(metric.case.p, |c| c.p),
            })
        });
    o.set("p-value", p.map(number).unwrap_or_default());
    let s = &ci.lint.summary;
    o.set("lint-errors", s.errors.to_string());
    o.set("lint-warnings", s.warnings.to_string());
    o.set("lint-infos", s.infos.to_string());
    o.set("base-reused", ci.base_reused.to_string());
    let calibrated = ci
        .compare
        .as_ref()
        .and_then(|c| c.eval.as_ref())
        .is_some_and(|e| e.gate.pairing == Pairing::Calibrated);
    o.set("calibrated", calibrated.to_string());
    o.set("calibration-reused", ci.calibration_reused.to_string());
    let f = &ci.files;
    for (key, path) in [
        ("report-json", &f.json),
        ("junit", &f.junit),
        ("sarif", &f.sarif),
        ("html", &f.html),
        ("badge", &f.badge),
    ] {
        o.set(key, path.clone().unwrap_or_default());
    }
    o
}

/// A figure for an output: four decimals, or scientific notation below 0.0001.
fn number(v: f64) -> String {
    if v != 0.0 && v.abs() < 1e-4 {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
}

/// `ghadelimiter_` + 32 hex digits derived from the key and value, re-derived until no line of
/// the value equals it (GitHub ends the block at the first line equal to the delimiter).
fn delimiter_for(key: &str, value: &str) -> String {
    let mut salt = 0u32;
    loop {
        let digest = Sha256::digest(format!("{salt}\0{key}\0{value}").as_bytes());
        let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
        let delimiter = format!("ghadelimiter_{hex}");
        if !value.contains(&delimiter) {
            return delimiter;
        }
        salt += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_line_values_are_key_equals_value() {
        let mut o = Outputs::new();
        o.set("status", "pass");
        o.set("accuracy", "0.9");
        o.set("status", "fail");
        assert_eq!(o.render(), "status=fail\naccuracy=0.9\n");
        assert_eq!(o.get("status"), Some("fail"));
    }

    #[test]
    fn figures_are_plain_numbers() {
        assert_eq!(number(0.85), "0.8500");
        assert_eq!(number(1.0), "1.0000");
        assert_eq!(number(0.0), "0.0000");
        assert_eq!(number(0.0000123), "1.230e-5");
    }

    #[test]
    fn multi_line_values_use_a_delimiter_no_line_of_the_value_equals() {
        let mut o = Outputs::new();
        o.set("reasons", "one\ntwo\nevil=1");
        let text = o.render();
        let mut lines = text.lines();
        let first = lines.next().expect("line");
        let delimiter = first.strip_prefix("reasons<<").expect("heredoc");
        assert!(delimiter.starts_with("ghadelimiter_"));
        assert_eq!(lines.next(), Some("one"));
        assert_eq!(lines.next(), Some("two"));
        assert_eq!(lines.next(), Some("evil=1"));
        assert_eq!(lines.next(), Some(delimiter));
        assert_eq!(lines.next(), None);
    }
}
