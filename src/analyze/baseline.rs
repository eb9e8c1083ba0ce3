//! Baselines and suppressions: a PR should fail only on findings it introduced. A baseline file
//! lists accepted findings by identity (code + tool/pair/skill + param, not message or line), so
//! editing a description or moving a tool does not resurrect an accepted finding.

use std::collections::BTreeSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::report::lint::Finding;
use crate::suite::Suppression;

/// Baseline format version.
pub const BASELINE_VERSION: u32 = 1;

/// `mf.baseline.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Baseline {
    /// Format version; 1.
    pub version: u32,
    /// Always `"baseline"`.
    pub kind: String,
    /// Accepted findings, sorted by key.
    pub findings: Vec<BaselineEntry>,
}

/// One accepted finding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BaselineEntry {
    /// `code|subject|param` — what matching uses.
    pub key: String,
    /// The rule code (for people reading the file).
    pub code: String,
    /// The tool, pair or skill (for people).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
}

/// Why a baseline could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// Unreadable file.
    #[error(transparent)]
    Load(#[from] crate::surface::formats::LoadError),
    /// Not a baseline.
    #[error(
        "{file}:{line}:{column}: not an mf baseline: {message}; write one with `mf lint --write-baseline {file}`"
    )]
    Invalid {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde said.
        message: String,
    },
}

impl Baseline {
    /// A baseline accepting every finding given.
    pub fn from_findings(findings: &[Finding]) -> Baseline {
        let set: BTreeSet<BaselineEntry> = findings
            .iter()
            .map(|f| BaselineEntry {
                key: f.baseline_key(),
                code: f.code.clone(),
                subject: f
                    .pair
                    .as_ref()
                    .map(|[a, b]| format!("{a} / {b}"))
                    .or_else(|| f.tool.clone())
                    .or_else(|| f.skill.clone()),
            })
            .collect();
        Baseline {
            version: BASELINE_VERSION,
            kind: "baseline".into(),
            findings: set.into_iter().collect(),
        }
    }

    /// Read a baseline file.
    pub fn read(path: &Path, display: &str) -> Result<Baseline, BaselineError> {
        let text = crate::surface::formats::read_text(
            path,
            display,
            crate::surface::formats::MAX_FILE_BYTES,
        )?;
        let b: Baseline = serde_json::from_str(&text).map_err(|e| {
            let (line, column, message) = crate::surface::formats::serde_error_parts(&e);
            BaselineError::Invalid {
                file: display.to_owned(),
                line,
                column,
                message,
            }
        })?;
        if b.kind != "baseline" {
            return Err(BaselineError::Invalid {
                file: display.to_owned(),
                line: 1,
                column: 1,
                message: format!("kind is {:?}, expected \"baseline\"", b.kind),
            });
        }
        Ok(b)
    }
}

/// Drop findings accepted by the baseline or suppressed in the suite. Returns what is left and
/// how many were dropped.
pub fn apply(
    findings: Vec<Finding>,
    baseline: Option<&Baseline>,
    suppressions: &[Suppression],
) -> (Vec<Finding>, usize) {
    let keys: BTreeSet<&str> = baseline
        .map(|b| b.findings.iter().map(|e| e.key.as_str()).collect())
        .unwrap_or_default();
    let before = findings.len();
    let kept: Vec<Finding> = findings
        .into_iter()
        .filter(|f| !keys.contains(f.baseline_key().as_str()))
        .filter(|f| {
            !suppressions.iter().any(|s| {
                s.code == f.code
                    && match &s.tool {
                        None => true,
                        Some(t) => {
                            f.tool.as_deref() == Some(t)
                                || f.pair.as_ref().is_some_and(|p| p.contains(t))
                                || f.skill.as_deref() == Some(t)
                        }
                    }
            })
        })
        .collect();
    let dropped = before - kept.len();
    (kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::lint::{Severity, Subject};

    fn f(code: &str, tool: &str, message: &str, line: u32) -> Finding {
        Finding {
            severity: Severity::Warn,
            code: code.into(),
            kind: Subject::Tool,
            tool: Some(tool.into()),
            skill: None,
            param: None,
            pair: None,
            message: message.into(),
            suggestion: String::new(),
            file: Some("a.json".into()),
            line: Some(line),
        }
    }

    #[test]
    fn baseline_matches_identity_not_message_or_line() {
        let base = Baseline::from_findings(&[f("description-too-short", "a", "old text", 3)]);
        let (kept, dropped) = apply(
            vec![
                f("description-too-short", "a", "new text", 9),
                f("description-too-short", "b", "x", 1),
            ],
            Some(&base),
            &[],
        );
        assert_eq!(dropped, 1);
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].tool.as_deref(), Some("b"));
    }

    #[test]
    fn suppressions_by_code_and_tool() {
        let s = vec![
            Suppression {
                code: "x".into(),
                tool: Some("a".into()),
                reason: None,
            },
            Suppression {
                code: "y".into(),
                tool: None,
                reason: None,
            },
        ];
        let (kept, dropped) = apply(
            vec![f("x", "a", "", 1), f("x", "b", "", 1), f("y", "c", "", 1)],
            None,
            &s,
        );
        assert_eq!(dropped, 2);
        assert_eq!(kept[0].tool.as_deref(), Some("b"));
    }

    #[test]
    fn round_trips_through_json() {
        let b = Baseline::from_findings(&[f("x", "a", "", 1)]);
        let text = serde_json::to_string(&b).expect("json");
        let dir = tempfile::tempdir().expect("tmp");
        let p = dir.path().join("b.json");
        std::fs::write(&p, text).expect("write");
        assert_eq!(Baseline::read(&p, "b.json").expect("reads"), b);
        std::fs::write(&p, "{\"version\":1}").expect("write");
        assert!(
            Baseline::read(&p, "b.json")
                .expect_err("invalid")
                .to_string()
                .contains("b.json:1:")
        );
    }
}
