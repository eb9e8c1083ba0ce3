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
    pub cases: Vec<Value>,
    /// Mount groups: group name → tool names.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub profiles: BTreeMap<String, Vec<String>>,
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
    Inline(InlineTool),
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
