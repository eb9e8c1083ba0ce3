//! The suite model (`mf.suite.json` v1, compat): tools, skills, cases, profiles. This module
//! holds the types; `mf scan` writes a draft of them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Suite format version written by this mf.
pub const SUITE_VERSION: u32 = 1;

/// An `mf.suite.json` document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Suite {
    /// JSON Schema reference for editors (ignored by mf).
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    /// Format version; 1.
    #[serde(default = "default_version")]
    pub version: u32,
    /// Suite name.
    pub name: String,
    /// What the suite covers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// True when written by `mf scan` and not yet reviewed; a later scan ignores draft suites.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub draft: bool,
    /// The tools.
    #[serde(default)]
    pub tools: Vec<SuiteTool>,
    /// The skills.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<SuiteSkill>,
    /// Test cases (see SCHEMA.md; evaluated by `mf eval`).
    #[serde(default)]
    pub cases: Vec<Case>,
    /// Mount groups: group name → tool names.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub profiles: BTreeMap<String, Vec<String>>,
    /// Lint findings the team accepted: `{code, tool?, reason?}`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suppressions: Vec<Suppression>,
    /// How tool implementations run for `--execute` (kept as written; not used yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<Value>,
}

/// One test case: a user message and the tool a model should pick for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Case {
    /// Stable id, unique in the suite.
    pub id: String,
    /// The user message.
    pub input: String,
    /// The tool to call; `null` = must not call any tool. Absent = not stated (an error for eval).
    #[serde(
        default,
        deserialize_with = "present",
        skip_serializing_if = "Option::is_none"
    )]
    pub expected_tool: Option<Option<String>>,
    /// Assertions on the arguments (literal, `$contains`, `$oneOf`, `$exists`, `$regex`, ranges).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_args: Option<Value>,
    /// Arguments for `--execute`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_input: Option<Value>,
    /// Expectations for `--execute`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<Value>,
    /// Tags for `--only` / `--skip`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Where the case came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// `false` = never counts in official scores. Default true.
    #[serde(default = "yes")]
    pub reviewed: bool,
}

fn yes() -> bool {
    true
}

/// Distinguish `"expectedTool": null` (Some(None)) from an absent key (None).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

impl Case {
    /// True for a must-not-call case.
    pub fn is_must_not_call(&self) -> bool {
        matches!(self.expected_tool, Some(None))
    }
}

/// An accepted lint finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Suppression {
    /// The rule code.
    pub code: String,
    /// The tool it applies to; absent = every tool.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// Why it is accepted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Why a suite could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The file could not be read.
    #[error(transparent)]
    Load(#[from] crate::surface::formats::LoadError),
    /// The file is not a valid suite.
    #[error("{file}:{line}:{column}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What serde said, e.g. ``unknown field `foo`, expected one of …``.
        message: String,
    },
    /// A reference inside the suite is wrong (duplicate case id, unknown tool in a profile).
    #[error("{file}: {message}")]
    Reference {
        /// The file.
        file: String,
        /// What is wrong and what to do.
        message: String,
    },
}

/// Read and validate a suite file (JSON). Unknown keys are errors naming file, line and key.
pub fn read_suite(path: &std::path::Path, display: &str) -> Result<Suite, SuiteError> {
    let text =
        crate::surface::formats::read_text(path, display, crate::surface::formats::MAX_FILE_BYTES)?;
    let suite: Suite = serde_json::from_str(&text).map_err(|e| {
        let (line, column, message) = crate::surface::formats::serde_error_parts(&e);
        SuiteError::Invalid {
            file: display.to_owned(),
            line,
            column,
            message,
        }
    })?;
    let mut seen = std::collections::BTreeSet::new();
    for case in &suite.cases {
        if !seen.insert(case.id.as_str()) {
            return Err(SuiteError::Reference {
                file: display.to_owned(),
                message: format!("case id {:?} appears twice; ids must be unique", case.id),
            });
        }
    }
    Ok(suite)
}

fn default_version() -> u32 {
    SUITE_VERSION
}

/// A suite tool: inline, or a reference to a `function.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SuiteTool {
    /// `{"ref": "path/to/function.json"}`, relative to the suite file.
    Ref {
        /// The path.
        #[serde(rename = "ref")]
        reference: String,
    },
    /// An inline definition.
    Inline(Box<InlineTool>),
}

/// An inline suite tool `{name, title?, description, parameters, annotations?, origin?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct InlineTool {
    /// Name.
    pub name: String,
    /// Title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Input JSON Schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
    /// MCP annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Value>,
    /// Where the definition lives (`file:line`), informational.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
}

/// A suite skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SuiteSkill {
    /// Name.
    pub name: String,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}
