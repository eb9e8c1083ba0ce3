//! The common task-set shape `{version: 1, surface?, tasks: [{id, prompt, expected, tags?}]}`,
//! read unchanged and turned into a [`Suite`]: each task becomes a case, reviewed unless it
//! says `reviewed: false` (drafts from `mf tasks generate`, `mf tasks mutate`, `mf case add` and `mf mcp` do). The way
//! back ([`TaskSet::from_suite`]) is how those commands write a task set.

use serde::{Deserialize, Serialize};

use super::{Case, SUITE_VERSION, Suite, SuiteError};

/// A task-set file. Unknown keys are errors, as in a suite.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskSet {
    /// Format version; 1 (the default when absent). Other values are refused.
    #[serde(default = "version_one")]
    pub version: u32,
    /// The tool surface the tasks are about, relative to the task-set file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<String>,
    /// The tasks.
    pub tasks: Vec<Task>,
}

/// One task: a prompt and the tool a model should pick for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Stable id, unique in the set.
    pub id: String,
    /// The user message.
    pub prompt: String,
    /// The tool to call; `null` = must not call any tool. Required.
    #[serde(deserialize_with = "stated")]
    pub expected: Option<String>,
    /// Tags for `--only` / `--skip`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// `false` = never counts in official scores (as in a suite case). Default true; written
    /// only when false.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub reviewed: bool,
    /// Where the task came from (`generate`, `mutate`, `agent` for `mf case add` / `mf mcp`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The id of the task this one is a variant of (`mf tasks mutate`).
    #[serde(
        default,
        rename = "mutatedFrom",
        skip_serializing_if = "Option::is_none"
    )]
    pub mutated_from: Option<String>,
    /// Which variant this is, with `mutatedFrom`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation: Option<String>,
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn version_one() -> u32 {
    1
}

/// `expected` must be written (serde treats a field with `deserialize_with` and no default as
/// required), and may be `null`.
fn stated<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d)
}

impl TaskSet {
    /// Refuse versions other than 1. `line` finds the line of `version` for the message.
    pub(super) fn check_version(
        &self,
        display: &str,
        line: impl FnOnce() -> usize,
    ) -> Result<(), SuiteError> {
        if self.version == 1 {
            return Ok(());
        }
        Err(SuiteError::Invalid {
            file: display.to_owned(),
            line: line(),
            column: 1,
            message: format!(
                "task-set version {} is not supported; this mf reads version 1",
                self.version
            ),
        })
    }

    /// The suite the tasks stand for: named `name` (the file stem), no inline tools, the
    /// `surface` kept for eval to load, each task a reviewed case (`prompt` → `input`,
    /// `expected` → `expectedTool`, `null` = must not call).
    pub fn into_suite(self, name: &str) -> Suite {
        Suite {
            version: SUITE_VERSION,
            name: name.to_owned(),
            surface: self.surface,
            cases: self
                .tasks
                .into_iter()
                .map(|t| Case {
                    id: t.id,
                    input: t.prompt,
                    expected_tool: Some(t.expected),
                    expected_args: None,
                    tool_input: None,
                    expect: None,
                    tags: t.tags,
                    source: t.source,
                    reviewed: t.reviewed,
                    mutated_from: t.mutated_from,
                    mutation: t.mutation,
                    line: None,
                })
                .collect(),
            ..Suite::default()
        }
    }
}

impl TaskSet {
    /// The task set standing for `suite`'s cases, with `surface` as its surface path. What a
    /// task set cannot hold (inline tools, `expectedArgs`, profiles) is dropped: only call this
    /// for a suite read from a task set, or for cases written as tasks.
    pub fn from_suite(suite: &Suite, surface: Option<String>) -> TaskSet {
        TaskSet {
            version: 1,
            surface,
            tasks: suite
                .cases
                .iter()
                .map(|c| Task {
                    id: c.id.clone(),
                    prompt: c.input.clone(),
                    expected: c.expected_tool.clone().flatten(),
                    tags: c.tags.clone(),
                    reviewed: c.reviewed,
                    source: c.source.clone(),
                    mutated_from: c.mutated_from.clone(),
                    mutation: c.mutation.clone(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expected_must_be_written_but_may_be_null() {
        let set: TaskSet = serde_json::from_str(
            r#"{"tasks": [{"id": "a", "prompt": "hi", "expected": null, "tags": ["x"]}]}"#,
        )
        .expect("task set");
        assert_eq!(set.version, 1);
        let suite = set.into_suite("t");
        assert!(suite.cases[0].is_must_not_call());
        assert!(suite.cases[0].reviewed);
        assert_eq!(suite.cases[0].tags, vec!["x"]);

        let err = serde_json::from_str::<TaskSet>(r#"{"tasks": [{"id": "a", "prompt": "hi"}]}"#)
            .expect_err("expected is required");
        assert!(
            err.to_string().contains("missing field `expected`"),
            "{err}"
        );
    }

    #[test]
    fn other_versions_are_refused_with_the_line() {
        let set: TaskSet = serde_json::from_str(r#"{"version": 2, "tasks": []}"#).expect("parses");
        let err = set.check_version("t.json", || 4).expect_err("version 2");
        assert_eq!(
            err.to_string(),
            "t.json:4:1: task-set version 2 is not supported; this mf reads version 1"
        );
    }
}
