//! The tools `mf mcp` serves: name, title, description, input schema and annotation hints, as
//! plain data (the server turns them into MCP tool definitions). Written for a model that must
//! pick among them: each description says what the tool does, what it returns and when to use
//! another one instead; `mf lint --stdio "mf mcp"` finds nothing to warn about in them
//! (tests/integration/mcp_server.rs).

use serde_json::{Value, json};

/// One tool of the catalogue.
#[derive(Debug, Clone)]
pub struct ToolDef {
    /// The MCP tool name.
    pub name: &'static str,
    /// A short title for people.
    pub title: &'static str,
    /// What a model reads to choose it.
    pub description: &'static str,
    /// The input JSON Schema.
    pub schema: Value,
    /// `readOnlyHint`.
    pub read_only: bool,
    /// `destructiveHint` (only meaningful when not read-only).
    pub destructive: bool,
    /// `idempotentHint`.
    pub idempotent: bool,
    /// `openWorldHint`: reaches beyond the working directory (providers, live servers).
    pub open_world: bool,
}

fn suite_param() -> Value {
    json!({
        "type": "string",
        "description": "Suite file inside the working directory (mf.suite.json, a YAML suite or a task set). Default: mf.suite.json, mf.suite.yaml or mf.suite.yml here."
    })
}

/// The surface arguments of the free analyses: files or folders, or one live server.
fn surface_params(what: &str) -> serde_json::Map<String, Value> {
    let mut m = serde_json::Map::new();
    m.insert(
        "paths".into(),
        json!({
            "type": "array",
            "items": {"type": "string"},
            "description": format!("Files or folders inside the working directory holding {what} (tools/list JSON, OpenAI or Anthropic tool JSON, a suite, or a repository folder to scan). Default: the default suite, else the working directory.")
        }),
    );
    m.insert(
        "stdio".into(),
        json!({
            "type": "string",
            "description": "Command line of a live MCP server to start and list over stdio (e.g. \"npx -y @modelcontextprotocol/server-memory\"). Refused unless the operator started mf mcp with --allow-live-targets."
        }),
    );
    m.insert(
        "url".into(),
        json!({
            "type": "string",
            "format": "uri",
            "description": "Streamable HTTP URL of a live MCP server to list. Refused unless the operator started mf mcp with --allow-live-targets."
        }),
    );
    m
}

fn object(properties: serde_json::Map<String, Value>, required: &[&str]) -> Value {
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false
    })
}

fn props(pairs: &[(&str, Value)]) -> serde_json::Map<String, Value> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect()
}

/// Every tool, in the order `tools/list` serves them.
pub fn catalogue() -> Vec<ToolDef> {
    vec![
        ToolDef {
            name: "scan_tools",
            title: "Scan a repository for tool definitions",
            description: "Find every tool definition in a repository folder (MCP servers in TypeScript or Python, tools/list snapshots, OpenAI and Anthropic function JSON, SKILL.md files, .mcp.json server configs) without running anything from it. Returns the tools with their file:line, the skills, the configured servers, and a draft suite; with writeSuite it also writes mf.scan.json and the draft mf.suite.json (never over a hand-written suite). Start here on an unknown repository; use lint_surface to judge the tools it found.",
            schema: object(
                props(&[
                    (
                        "root",
                        json!({"type": "string", "description": "Folder inside the working directory to scan. Default: the working directory."}),
                    ),
                    (
                        "probe",
                        json!({"type": "boolean", "default": false, "description": "Also start each configured MCP server and list its live tools (runs repository code; refused unless the operator allowed live targets)."}),
                    ),
                    (
                        "timeoutMs",
                        json!({"type": "integer", "minimum": 1, "maximum": 120000, "default": 10000, "description": "Per-phase timeout of each probed server, in milliseconds."}),
                    ),
                    (
                        "writeSuite",
                        json!({"type": "boolean", "default": false, "description": "Write mf.scan.json and a draft mf.suite.json into the scanned folder."}),
                    ),
                ]),
                &[],
            ),
            read_only: false,
            destructive: false,
            idempotent: true,
            open_world: false,
        },
        ToolDef {
            name: "list_suite",
            title: "List a suite's cases",
            description: "Read an mf test suite and return its name, format, tools, profiles and every case (id, input, expected tool or null for must-not-call, tags, reviewed, source, line). Use it before add_cases to see which cases exist, and before run_eval to pick case ids; use coverage for counts per tool instead.",
            schema: object(props(&[("suite", suite_param())]), &[]),
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: false,
        },
        ToolDef {
            name: "coverage",
            title: "Measure suite coverage",
            description: "Count the reviewed cases of a suite per tool and per profile against the guidance (at least 3 reviewed cases per tool, at least 15% must-not-call cases) and list the tools that need more cases and the cases whose expected tool is not on the surface. Returns the coverage report. Use list_suite to read the cases themselves.",
            schema: object(props(&[("suite", suite_param())]), &[]),
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: false,
        },
        ToolDef {
            name: "add_cases",
            title: "Append test cases to a suite",
            description: "Append new test cases to a suite file, each checked against the suite's own tools first: an unknown expectedTool or expectedArgs key is refused with the closest names, and nothing is written unless every case passes. Cases land as source \"agent\" and reviewed false (they never count in official scores until a person reviews them); the rest of the file is kept byte for byte. Returns each added case with its id and line. Use dryRun to check cases without writing.",
            schema: object(
                props(&[
                    ("suite", suite_param()),
                    (
                        "cases",
                        json!({
                            "type": "array",
                            "minItems": 1,
                            "maxItems": 100,
                            "description": "The cases to append, in order.",
                            "items": {
                                "type": "object",
                                "additionalProperties": false,
                                "required": ["input", "expectedTool"],
                                "properties": {
                                    "input": {"type": "string", "description": "The user message the model answers."},
                                    "expectedTool": {"type": ["string", "null"], "description": "Name of the tool the model should call, or null when it should call no tool."},
                                    "expectedArgs": {"type": "object", "description": "Assertions on the call's arguments: parameter → literal value, or an operator object ($contains, $oneOf, $exists, $regex, $gte, $lte, $gt, $lt)."},
                                    "tags": {"type": "array", "items": {"type": "string"}, "description": "Tags for selecting cases in run_eval (only / skip)."},
                                    "id": {"type": "string", "description": "Case id; default: a stable id from the expected tool and the input."}
                                }
                            }
                        }),
                    ),
                    (
                        "source",
                        json!({"type": "string", "default": "agent", "description": "Where the cases came from, written as each case's source."}),
                    ),
                    (
                        "reviewed",
                        json!({"type": "boolean", "default": false, "description": "Mark the cases reviewed; leave false unless a person checked them."}),
                    ),
                    (
                        "dryRun",
                        json!({"type": "boolean", "default": false, "description": "Check the cases and return them without writing the suite."}),
                    ),
                ]),
                &["cases"],
            ),
            read_only: false,
            destructive: false,
            idempotent: false,
            open_world: false,
        },
        ToolDef {
            name: "run_eval",
            title: "Evaluate which tool models pick",
            description: "Run a suite's cases against models and measure how often each picks the expected tool (selection accuracy with a 95% interval, argument accuracy, over-triggering), within the operator's trial caps. The offline model lexical is free and needs no key; provider models (openai:…, anthropic:…) cost money and are refused unless the operator allowed paid runs. Reports progress and honours cancellation (finished trials stay cached when the operator turned the cache on). Returns a compact summary; resultFile saves the full scorecard for compare_runs.",
            schema: object(
                props(&[
                    ("suite", suite_param()),
                    (
                        "models",
                        json!({"type": "array", "items": {"type": "string"}, "default": ["lexical"], "description": "Models to evaluate: lexical (free, offline), PROVIDER:MODEL such as openai:gpt-4.1-mini, or a model named in the suite or mf.toml."}),
                    ),
                    (
                        "cases",
                        json!({"type": "array", "items": {"type": "string"}, "description": "Only these case ids. Default: every case."}),
                    ),
                    (
                        "only",
                        json!({"type": "array", "items": {"type": "string"}, "description": "Only cases with one of these tags."}),
                    ),
                    (
                        "skip",
                        json!({"type": "array", "items": {"type": "string"}, "description": "Leave out cases with one of these tags."}),
                    ),
                    (
                        "profile",
                        json!({"type": "string", "description": "Offer only the tools of this suite profile."}),
                    ),
                    (
                        "repeat",
                        json!({"type": "integer", "minimum": 1, "maximum": 100, "default": 5, "description": "Trials per case and model (at most the operator's --max-repeat)."}),
                    ),
                    (
                        "seed",
                        json!({"type": "integer", "minimum": 0, "default": 0, "description": "Seed of the per-trial tool order."}),
                    ),
                    (
                        "failUnder",
                        json!({"type": "number", "minimum": 0, "maximum": 1, "description": "Fail the run (status fail) when a model's selection accuracy is below this rate."}),
                    ),
                    (
                        "maxTrials",
                        json!({"type": "integer", "minimum": 1, "maximum": 1000, "description": "Most paid trials this run may send; may lower the operator's cap, never raise it."}),
                    ),
                    (
                        "dryRun",
                        json!({"type": "boolean", "default": false, "description": "Plan only: the trial count, token and cost estimate and any budget refusal; nothing is sent."}),
                    ),
                    (
                        "resultFile",
                        json!({"type": "string", "description": "Write the full scorecard JSON to this file inside the working directory."}),
                    ),
                ]),
                &[],
            ),
            read_only: false,
            destructive: false,
            idempotent: true,
            open_world: true,
        },
        ToolDef {
            name: "lint_surface",
            title: "Lint tool definitions",
            description: "Check tool definitions for what makes a model pick the wrong tool or call it badly: missing or vague descriptions, undocumented parameters, invalid schemas, confusable pairs, prompt injection, token cost over budget. Returns the findings with rule code, severity, tool and file:line, worst first. Use cluster_surface to see groups of confusable tools, check_install before adding a new server.",
            schema: object(
                {
                    let mut m = surface_params("the tools to lint");
                    m.insert("suite".into(), suite_param());
                    m.insert("ignore".into(), json!({"type": "array", "items": {"type": "string"}, "description": "Rule codes to leave out (see mf lint --list-rules)."}));
                    m
                },
                &[],
            ),
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: true,
        },
        ToolDef {
            name: "cluster_surface",
            title: "Group confusable tools",
            description: "Group tools whose names, descriptions and schemas are similar enough that a model may confuse them, and say for each group what tells its members apart. Returns clusters with member tools and similarity scores. Use lint_surface for every other kind of problem.",
            schema: object(
                {
                    let mut m = surface_params("the tools to group");
                    m.insert("threshold".into(), json!({"type": "number", "minimum": 0, "maximum": 1, "default": 0.5, "description": "Similarity from which two tools join a cluster."}));
                    m
                },
                &[],
            ),
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: true,
        },
        ToolDef {
            name: "check_install",
            title: "Check a capability before installing",
            description: "Compare a capability you are about to install (a manifest with a name and its tools) with the tools already installed, and report the new tools that duplicate or collide with installed ones. Returns pass or warn with each colliding pair. Use lint_surface to judge one set of tools on its own.",
            schema: object(
                {
                    let mut m = surface_params("the installed tools");
                    m.insert("manifest".into(), json!({"type": "string", "description": "Manifest file inside the working directory: {name, tools[]} or one tool definition."}));
                    m
                },
                &["manifest"],
            ),
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: true,
        },
        ToolDef {
            name: "compare_runs",
            title: "Compare two saved eval runs",
            description: "Compare two scorecards saved by run_eval (resultFile) or mf eval --json-out, base against head: per model and metric the change with its 95% interval, paired sign tests, and a verdict (improved, regressed, no significant change). Returns the compare report. Run run_eval twice with the same models and seed first.",
            schema: object(
                props(&[
                    (
                        "base",
                        json!({"type": "string", "description": "Scorecard file of the earlier run, inside the working directory."}),
                    ),
                    (
                        "head",
                        json!({"type": "string", "description": "Scorecard file of the later run, inside the working directory."}),
                    ),
                    (
                        "alpha",
                        json!({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1, "default": 0.05, "description": "Significance level of the regression verdict."}),
                    ),
                ]),
                &["base", "head"],
            ),
            read_only: true,
            destructive: false,
            idempotent: true,
            open_world: false,
        },
    ]
}
