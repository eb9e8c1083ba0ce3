//! The suite model: `mf.suite.json` v1 (compat), the same fields in YAML, and the common
//! task-set shape read into the same types. Tools, skills, cases, profiles, named models.
//!
//! Reading lives in [`read`] (format detection, positioned errors), task sets in [`taskset`],
//! eval readiness in [`validate`], `--cases`/`--only`/`--skip` in [`select`]. `mf scan` writes
//! drafts of these types.

pub mod author;
pub mod discover;
pub mod edit;
pub mod execution;
pub mod import;
pub mod input;
mod locate;
pub mod models;
pub mod mutate;
pub mod read;
pub mod select;
pub mod taskset;
pub mod validate;
pub mod write;

pub use read::read_suite_any;
pub use select::{Selection, select};
pub use taskset::{Task, TaskSet};
pub use validate::CaseProblem;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use models::ModelConfig;

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
    /// How tool implementations run for `mf exec` and `mf eval --execute`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<execution::Execution>,
    /// Named models (`--models NAME`), as under `[models.NAME]` in `mf.toml`; a suite entry
    /// overrides the config entry of the same name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub models: BTreeMap<String, ModelConfig>,
    /// Where the tools to evaluate are, relative to the suite file, when `tools[]` is empty and
    /// no surface is given on the command line (a task set's `surface`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<String>,
    /// How the file was named when it was read (the `display` argument); `None` when built in
    /// memory. Not part of the file.
    #[serde(skip)]
    pub file: Option<String>,
    /// Which shape the file had. Not part of the file.
    #[serde(skip)]
    pub format: SuiteFormat,
}

impl Default for Suite {
    /// An empty suite with no name, at the current version.
    fn default() -> Self {
        Suite {
            schema: None,
            version: SUITE_VERSION,
            name: String::new(),
            description: None,
            draft: false,
            tools: Vec::new(),
            skills: Vec::new(),
            cases: Vec::new(),
            profiles: BTreeMap::new(),
            suppressions: Vec::new(),
            execution: None,
            models: BTreeMap::new(),
            surface: None,
            file: None,
            format: SuiteFormat::default(),
        }
    }
}

/// The shape a suite was read from. Task sets name their fields differently (`prompt`,
/// `expected`), so messages about a case use the names of the file it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SuiteFormat {
    /// `mf.suite.json` (JSON); also the value for suites built in memory.
    #[default]
    Json,
    /// A suite written in YAML.
    Yaml,
    /// A task set `{version, surface?, tasks}` in JSON.
    TaskSetJson,
    /// A task set in YAML.
    TaskSetYaml,
}

impl SuiteFormat {
    /// True for the task-set shapes.
    pub fn is_task_set(self) -> bool {
        matches!(self, SuiteFormat::TaskSetJson | SuiteFormat::TaskSetYaml)
    }

    /// Whether the file was YAML (a suite or a task set).
    pub fn is_yaml(self) -> bool {
        matches!(self, SuiteFormat::Yaml | SuiteFormat::TaskSetYaml)
    }

    /// The key holding the cases in this shape (`cases` or `tasks`).
    pub fn cases_key(self) -> &'static str {
        if self.is_task_set() { "tasks" } else { "cases" }
    }

    /// What a case's user message is called in this shape (`input` or `prompt`).
    pub fn input_field(self) -> &'static str {
        if self.is_task_set() {
            "prompt"
        } else {
            "input"
        }
    }

    /// What a case's expected tool is called in this shape (`expectedTool` or `expected`).
    pub fn expected_field(self) -> &'static str {
        if self.is_task_set() {
            "expected"
        } else {
            "expectedTool"
        }
    }
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
    /// Assertions on the arguments (literal, `$contains`, `$oneOf`, `$exists`, `$regex`, ranges,
    /// `$optional`, `$normalize`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_args: Option<Value>,
    /// A parallel-call case: the calls the model must make in one turn, each matched once in any
    /// order, no other call (instead of `expectedTool`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_calls: Option<Vec<ExpectedCall>>,
    /// The case's own tool set (names from the suite's `tools[]`, or inline definitions); absent
    /// = every tool the run offers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<CaseTool>>,
    /// Arguments for `--execute`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_input: Option<Value>,
    /// Expectations for `--execute`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expect: Option<execution::Expect>,
    /// Tags for `--only` / `--skip`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Where the case came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// `false` = never counts in official scores. Default true.
    #[serde(default = "yes")]
    pub reviewed: bool,
    /// The id of the case this one is a variant of (`mf tasks mutate`); the scorecard's
    /// `robustness` compares the two.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutated_from: Option<String>,
    /// Which variant this is (`casing`, `punctuation`, `filler`, `typos`, `word-order`,
    /// `distractor`), with `mutatedFrom`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutation: Option<String>,
    /// 1-based line where the case starts in its file (the `{` in JSON, the `-` of the sequence
    /// item in YAML); `None` when built in memory or when a YAML layout hid it. Not part of the
    /// file.
    #[serde(skip)]
    pub line: Option<u32>,
}

fn yes() -> bool {
    true
}

/// Distinguish `"expectedTool": null` (Some(None)) from an absent key (None).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

impl Suite {
    /// The declared `sideEffects` of `tool`: on its inline entry (same name), or on the `ref`
    /// entry whose file defined it.
    pub fn side_effects_of(&self, tool: &crate::surface::Tool) -> Option<execution::SideEffects> {
        self.tools.iter().find_map(|t| match t {
            SuiteTool::Inline(t) if t.name == tool.name => t.side_effects,
            SuiteTool::Ref {
                reference,
                side_effects,
            } => {
                let rel = reference.trim_start_matches("./");
                let file = tool.origin.file.as_deref().unwrap_or_default();
                (file == rel || file.ends_with(&format!("/{rel}")))
                    .then_some(*side_effects)
                    .flatten()
            }
            _ => None,
        })
    }
}

impl Case {
    /// True for a must-not-call case.
    pub fn is_must_not_call(&self) -> bool {
        matches!(self.expected_tool, Some(None)) && self.expected_calls.is_none()
    }

    /// The expected calls of a parallel-call case (`expectedCalls`), when it is one.
    pub fn call_set(&self) -> Option<&[ExpectedCall]> {
        self.expected_calls.as_deref()
    }

    /// A case with only the required fields, for builders and tests.
    pub fn new(id: &str, input: &str, expected_tool: Option<&str>) -> Case {
        Case {
            id: id.to_owned(),
            input: input.to_owned(),
            expected_tool: Some(expected_tool.map(str::to_owned)),
            expected_args: None,
            expected_calls: None,
            tools: None,
            tool_input: None,
            expect: None,
            tags: Vec::new(),
            source: None,
            reviewed: true,
            line: None,
            mutated_from: None,
            mutation: None,
        }
    }
}

/// One call of a parallel-call case: the tool and the assertions on its arguments (the
/// `expectedArgs` syntax).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExpectedCall {
    /// The tool to call.
    pub tool: String,
    /// Assertions on this call's arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Value>,
}

/// One entry of a case's own tool set: a name from the suite's `tools[]`, or an inline
/// definition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CaseTool {
    /// A tool of the suite (or of the surface the run offers), by name.
    Name(String),
    /// A tool defined for this case only.
    Inline(Box<InlineTool>),
}

impl CaseTool {
    /// The tool's name.
    pub fn name(&self) -> &str {
        match self {
            CaseTool::Name(n) => n,
            CaseTool::Inline(t) => &t.name,
        }
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

/// Why a suite could not be read, or is not fit for a command. Every variant about a file names
/// it.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The file could not be read.
    #[error(transparent)]
    Load(#[from] crate::surface::formats::LoadError),
    /// The file is not valid JSON/YAML, or a value outside any case has the wrong shape.
    #[error("{file}:{line}:{column}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said, e.g. ``unknown field `foo`, expected one of …``.
        message: String,
    },
    /// One case (task) has the wrong shape: an unknown or missing key, or a value of the wrong
    /// type.
    #[error(
        "{file}:{line}:{column}: {}: {message}",
        case_and_field(*.index, .id.as_deref(), .field.as_deref())
    )]
    Case {
        /// The file.
        file: String,
        /// 1-based line of the problem (for a missing key, where the case starts).
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// 0-based position of the case in `cases[]` (`tasks[]`).
        index: usize,
        /// The case id, when the case has a readable one.
        id: Option<String>,
        /// The key at fault, as written in the file (`input`, `prompt`, `expectedTol`, …).
        field: Option<String>,
        /// What the parser said.
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
    /// Cases that cannot be evaluated as written, every one listed (see
    /// [`Suite::validate_for_eval`]).
    #[error("{}", validate::describe(.file, .problems))]
    NotReady {
        /// The file.
        file: String,
        /// Each problem, in case order.
        problems: Vec<CaseProblem>,
    },
    /// `--cases`/`--only`/`--skip` selected nothing, or named an id the suite lacks.
    #[error("{0}")]
    Selection(String),
}

/// `case "id", field `f`` / `case #3` for messages.
fn case_and_field(index: usize, id: Option<&str>, field: Option<&str>) -> String {
    let case = match id {
        Some(id) => format!("case {id:?}"),
        None => format!("case #{}", index + 1),
    };
    match field {
        Some(f) => format!("{case}, field `{f}`"),
        None => case,
    }
}

/// Read and validate an `mf.suite.json` (JSON only; see [`read_suite_any`] for YAML and task
/// sets). Unknown keys are errors naming file, line and key, and the case id when the key is
/// inside a case. Each case gets its [`Case::line`].
pub fn read_suite(path: &std::path::Path, display: &str) -> Result<Suite, SuiteError> {
    let text = read::read_suite_text(path, display)?;
    let suite = read::parse_json_suite(&text, display)?;
    read::check_surface_inside(&suite, path, display)?;
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
        /// What the tool may touch (exec admission).
        #[serde(
            rename = "sideEffects",
            default,
            skip_serializing_if = "Option::is_none"
        )]
        side_effects: Option<execution::SideEffects>,
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
    /// What the tool may touch (`none`, `read`, `write`, `external`): exec admission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_effects: Option<execution::SideEffects>,
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
