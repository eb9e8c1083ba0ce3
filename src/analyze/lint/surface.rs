//! Surface family: tools a client cannot load or a model cannot address — unnamed, malformed
//! or duplicate names, a missing input schema — and more tools than configured.

use std::collections::HashMap;

use super::{LintInput, surface_finding, tool_finding};
use crate::report::lint::{Finding, Severity};
use crate::surface::SourceFormat;

/// Longest name the MCP specification allows.
const MAX_NAME_CHARS: usize = 128;

/// Run the surface family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    for u in &input.raw.unread {
        let mut f = surface_finding(
            Severity::Warn,
            "server-unread",
            format!("{} (saw {}).", u.message, u.saw),
            u.fix.to_owned(),
        );
        f.file = Some(u.file.clone());
        f.line = u.line;
        out.push(f);
    }
    let tools = input.tools();
    let mut first_by_name: HashMap<&str, usize> = HashMap::with_capacity(tools.len());
    for (i, tool) in tools.iter().enumerate() {
        let name = tool.name.trim();
        if name.is_empty() {
            out.push(tool_finding(
                Severity::Error,
                "tool-unnamed",
                tool,
                format!(
                    "A tool at {} has no name; a model cannot call it.",
                    tool.origin.display()
                ),
                "Give the tool a unique snake_case name, e.g. `search_orders`.".into(),
            ));
            continue;
        }
        if let Some(problem) = name_problem(&tool.name) {
            out.push(tool_finding(
                Severity::Error,
                "tool-name-invalid",
                tool,
                format!(
                    "Tool name `{}` {problem}; MCP clients and providers reject it.",
                    tool.name
                ),
                "Use 1–64 characters from `A-Z a-z 0-9 _ -` (dots only for namespacing).".into(),
            ));
        }
        match first_by_name.get(tool.name.as_str()) {
            Some(&first) => {
                let other = &tools[first];
                out.push(tool_finding(
                    Severity::Error,
                    "tool-duplicate-name",
                    tool,
                    format!(
                        "Tool name `{}` is defined twice ({} and {}); a client keeps one and the model cannot tell them apart.",
                        tool.name,
                        other.origin.display(),
                        tool.origin.display()
                    ),
                    "Rename one of them, or prefix each server's tools (e.g. `github_search` and `jira_search`).".into(),
                ));
            }
            None => {
                first_by_name.insert(tool.name.as_str(), i);
            }
        }
        if tool.input_schema.is_none() {
            // MCP requires `inputSchema`; OpenAI and Anthropic treat a missing one as "no arguments".
            let mcp = matches!(
                tool.origin.format,
                SourceFormat::McpToolsList | SourceFormat::Live
            );
            out.push(tool_finding(
                if mcp { Severity::Error } else { Severity::Warn },
                "schema-missing",
                tool,
                format!("Tool `{}` declares no input schema.", tool.name),
                "Declare the arguments as a JSON Schema object; for no arguments use `{\"type\": \"object\", \"properties\": {}}`.".into(),
            ));
        }
    }
    let max = input.options.max_tools;
    if tools.len() > max {
        out.push(surface_finding(
            Severity::Warn,
            "too-many-tools",
            format!("The surface offers {} tools (more than {max}); providers document tool choice getting less accurate past about 20 (OpenAI recommends fewer than ~20 functions).", tools.len()),
            "Split the tools into profiles (mount groups) so a model sees only the ones a task needs, or merge tools that differ only by a parameter; raise `--max-tools` if this is intended.".into(),
        ));
    }
}

/// Why a (non-empty) name is malformed, if it is.
fn name_problem(name: &str) -> Option<String> {
    let bad: Vec<char> = name
        .chars()
        .filter(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .collect();
    if let Some(c) = bad.first() {
        return Some(format!("contains {}", describe_char(*c)));
    }
    let n = name.chars().count();
    (n > MAX_NAME_CHARS).then(|| format!("is {n} characters long (at most {MAX_NAME_CHARS})"))
}

fn describe_char(c: char) -> String {
    if c.is_whitespace() {
        "whitespace".to_owned()
    } else {
        format!("`{c}` (U+{:04X})", u32::from(c))
    }
}
