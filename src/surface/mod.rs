//! The tool surface: what a model sees. Tools and skills with where they came from, normalized
//! for analysis, fingerprinted, and counted in tokens.

pub mod error;
pub mod fingerprint;
pub mod formats;
pub mod git;
pub mod git_repo;
pub mod input;
pub mod json_doc;
pub mod live;
pub mod normalize;
pub mod o200k;
pub mod scan;
pub mod target;
pub mod terms;
pub mod tokens;
pub mod url;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Where a tool or skill definition was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Origin {
    /// Path of the defining file, relative to the scan root (or as given), `/`-separated.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub file: Option<String>,
    /// 1-based line of the definition in `file`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub line: Option<u32>,
    /// 1-based column of the definition in `file`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub column: Option<u32>,
    /// Name of the MCP server the tool belongs to, when known (config entry or live target).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub server: Option<String>,
    /// The input shape or recognizer that produced the definition.
    pub format: SourceFormat,
}

impl Origin {
    /// An origin in `file` at `line:column` (both 1-based).
    pub fn at(format: SourceFormat, file: &str, line: u32, column: u32) -> Origin {
        Origin {
            file: Some(file.to_owned()),
            line: Some(line),
            column: Some(column),
            server: None,
            format,
        }
    }

    /// `file:line` for messages, or the server name, or `-`.
    pub fn display(&self) -> String {
        match (&self.file, self.line, &self.server) {
            (Some(f), Some(l), _) => format!("{f}:{l}"),
            (Some(f), None, _) => f.clone(),
            (None, _, Some(s)) => format!("server {s}"),
            _ => "-".to_owned(),
        }
    }
}

/// The input shape a definition was read from. Part of the scan JSON contract.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default,
)]
#[serde(rename_all = "kebab-case")]
pub enum SourceFormat {
    /// An MCP `tools/list` result (any of its three shapes).
    McpToolsList,
    /// OpenAI Chat Completions `[{type: function, function: {...}}]`.
    OpenaiChat,
    /// OpenAI Responses flat `[{type: function, name, ...}]`.
    OpenaiResponses,
    /// Anthropic Messages `[{name, description, input_schema}]`.
    Anthropic,
    /// A single `function.json` definition.
    FunctionJson,
    /// A tool in an `mf.suite.json` `tools[]` entry.
    Suite,
    /// A TypeScript or JavaScript MCP server (`server.tool`, `server.registerTool`).
    TypescriptCode,
    /// A Python MCP server (`@mcp.tool()`-style decorators).
    PythonCode,
    /// A `SKILL.md` front matter.
    SkillMd,
    /// An MCP client config entry (`.mcp.json` and friends).
    McpConfig,
    /// A live MCP server.
    Live,
    /// Unknown or not recorded.
    #[default]
    Unknown,
}

/// How sure the recognizer is that the definition is what a model will see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    /// Parameters or description were inferred loosely (e.g. a schema built by a helper call).
    Low,
    /// Read from code where the literal values are stated.
    Medium,
    /// Declared JSON: the definition is the wire form.
    High,
}

/// One tool as served: the wire form plus provenance. Fields are never renamed or rewritten;
/// normalization makes a separate copy for analysis.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// The name the model calls.
    pub name: String,
    /// Human title (MCP), if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub title: Option<String>,
    /// The description; `None` when the definition has none.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    /// JSON Schema of the arguments, as declared; `None` when missing.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub input_schema: Option<Value>,
    /// JSON Schema of the result (MCP `outputSchema`), if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub output_schema: Option<Value>,
    /// MCP annotations object as declared (hints), if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub annotations: Option<Value>,
    /// Where the definition was found.
    pub origin: Origin,
    /// How sure the recognizer is.
    pub confidence: Confidence,
}

impl Tool {
    /// A tool with only a name, for builders and tests.
    pub fn named(name: &str, origin: Origin, confidence: Confidence) -> Tool {
        Tool {
            name: name.to_owned(),
            title: None,
            description: None,
            input_schema: None,
            output_schema: None,
            annotations: None,
            origin,
            confidence,
        }
    }

    /// Top-level parameter names of the input schema, in declared order.
    pub fn parameter_names(&self) -> Vec<&str> {
        self.input_schema
            .as_ref()
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .map(|props| props.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    /// [`Tool::wire_json`], moving the texts instead of copying them.
    pub fn into_wire_json(self) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), Value::String(self.name));
        if let Some(t) = self.title {
            map.insert("title".into(), Value::String(t));
        }
        if let Some(d) = self.description {
            map.insert("description".into(), Value::String(d));
        }
        map.insert(
            "inputSchema".into(),
            self.input_schema
                .unwrap_or_else(|| serde_json::json!({"type": "object"})),
        );
        if let Some(o) = self.output_schema {
            map.insert("outputSchema".into(), o);
        }
        if let Some(a) = self.annotations {
            map.insert("annotations".into(), a);
        }
        Value::Object(map)
    }

    /// The wire form a provider would send, MCP style: `{name, title?, description?, inputSchema}`.
    pub fn wire_json(&self) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), Value::String(self.name.clone()));
        if let Some(t) = &self.title {
            map.insert("title".into(), Value::String(t.clone()));
        }
        if let Some(d) = &self.description {
            map.insert("description".into(), Value::String(d.clone()));
        }
        map.insert(
            "inputSchema".into(),
            self.input_schema
                .clone()
                .unwrap_or_else(|| serde_json::json!({"type": "object"})),
        );
        if let Some(o) = &self.output_schema {
            map.insert("outputSchema".into(), o.clone());
        }
        if let Some(a) = &self.annotations {
            map.insert("annotations".into(), a.clone());
        }
        Value::Object(map)
    }
}

/// An agent skill (`SKILL.md`): a name and the description a model uses to decide to load it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Skill {
    /// The skill's name from its front matter.
    pub name: String,
    /// The description from its front matter; `None` when missing.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub description: Option<String>,
    /// Where the skill was found.
    pub origin: Origin,
}

/// A set of tools and skills a model is offered together.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Surface {
    /// Tools in source order.
    pub tools: Vec<Tool>,
    /// Skills in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skills: Vec<Skill>,
    /// MCP servers seen in code whose tools could not all be read (`server-unread`); not part
    /// of any document's surface, only of what the scan saw.
    #[serde(skip)]
    pub unread: Vec<scan::unread::UnreadServer>,
}

impl Surface {
    /// A surface of these tools and skills.
    pub fn of(tools: Vec<Tool>, skills: Vec<Skill>) -> Surface {
        Surface {
            tools,
            skills,
            unread: Vec::new(),
        }
    }

    /// Append every tool, skill and unread server of `other`, keeping order.
    pub fn merge(&mut self, other: Surface) {
        self.tools.extend(other.tools);
        self.skills.extend(other.skills);
        self.unread.extend(other.unread);
    }
}
