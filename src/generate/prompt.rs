//! What `mf tasks generate` sends and how it reads the answer. Each request is one user
//! message and one tool, `record_cases`, whose parameters are the drafts: the model answers by
//! calling it, so every wire format mf speaks (and its parsing, caps and redaction) serves
//! generation unchanged. The message carries the definitions of the tools it is about and the
//! names of all the others, so near misses can be told from another tool's job.

use serde_json::{Value, json};

use crate::surface::{Confidence, Origin, Tool};

/// The tool the model answers through.
pub const RECORD_TOOL: &str = "record_cases";

/// What one request asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// `cases` messages that should call `tool`, and `near_misses` that should call none.
    Tool {
        /// Index of the tool.
        tool: usize,
        /// Cases that should call it.
        cases: usize,
        /// Must-not-call near misses.
        near_misses: usize,
    },
    /// `per_side` messages for each tool of a confusable pair, told apart by what differs.
    Pair {
        /// First tool.
        a: usize,
        /// Second tool.
        b: usize,
        /// Cases per tool.
        per_side: usize,
    },
}

impl Ask {
    /// The tools this request may name as expected (anything else in the answer is dropped).
    pub fn allowed(&self) -> Vec<usize> {
        match self {
            Ask::Tool { tool, .. } => vec![*tool],
            Ask::Pair { a, b, .. } => vec![*a, *b],
        }
    }
}

/// The `record_cases` tool: `{cases: [{input, expectedTool}]}`.
pub fn record_tool() -> Tool {
    let mut tool = Tool::named(RECORD_TOOL, Origin::default(), Confidence::High);
    tool.description =
        Some("Record the drafted test cases. Call this once with every case you wrote.".to_owned());
    tool.input_schema = Some(json!({
        "type": "object",
        "properties": {
            "cases": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "input": {"type": "string", "description": "The user's message, in their own words."},
                        "expectedTool": {
                            "type": ["string", "null"],
                            "description": "The tool that should be called, or null when no tool should be."
                        }
                    },
                    "required": ["input", "expectedTool"],
                    "additionalProperties": false
                }
            }
        },
        "required": ["cases"],
        "additionalProperties": false
    }));
    tool
}

fn definition(tool: &Tool) -> String {
    let value = json!({
        "name": tool.name,
        "description": tool.description.clone().unwrap_or_default(),
        "parameters": tool.input_schema.clone().unwrap_or_else(|| json!({"type": "object"})),
    });
    serde_json::to_string(&value).unwrap_or_default()
}

/// The user message of one request.
pub fn message(ask: &Ask, tools: &[Tool]) -> String {
    let others = |skip: &[usize]| -> String {
        let names: Vec<&str> = tools
            .iter()
            .enumerate()
            .filter(|(i, _)| !skip.contains(i))
            .map(|(_, t)| t.name.as_str())
            .collect();
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    };
    let rules = "Write each message as a real user would: their own words, no tool names or \
                 identifiers, one request per message, varied in length and phrasing. Answer \
                 only by calling record_cases once with every case.";
    match ask {
        Ask::Tool {
            tool,
            cases,
            near_misses,
        } => {
            let t = &tools[*tool];
            format!(
                "You are writing test cases for an AI assistant that can call tools. The tool \
                 under test:\n{}\nOther tools the assistant has: {}.\n\nWrite {cases} user \
                 message(s) that should be answered by calling {name} (expectedTool: \
                 \"{name}\"), and {near_misses} message(s) that sound related but that no tool \
                 should answer (expectedTool: null) — e.g. asking about the topic without \
                 asking for the action. {rules}",
                definition(t),
                others(&[*tool]),
                name = t.name,
            )
        }
        Ask::Pair { a, b, per_side } => {
            let (ta, tb) = (&tools[*a], &tools[*b]);
            format!(
                "You are writing test cases for an AI assistant that can call tools. These two \
                 tools are easy to confuse:\n{}\n{}\nOther tools the assistant has: {}.\n\n\
                 Write {per_side} user message(s) that should call {an} and {per_side} that \
                 should call {bn}, each pair as alike as possible except for what decides \
                 between the two tools (expectedTool: the tool's name). {rules}",
                definition(ta),
                definition(tb),
                others(&[*a, *b]),
                an = ta.name,
                bn = tb.name,
            )
        }
    }
}

/// One drafted case as the model wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    /// The message.
    pub input: String,
    /// The tool, or `None` for must-not-call.
    pub expected: Option<String>,
}

/// The drafts in the arguments of `record_cases` calls; each malformed entry becomes a note.
pub fn drafts(arguments: &Value, notes: &mut Vec<String>) -> Vec<Draft> {
    let Some(cases) = arguments.get("cases").and_then(Value::as_array) else {
        notes.push("the answer has no `cases` array".to_owned());
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let input = case.get("input").and_then(Value::as_str).map(str::trim);
        let expected = match case.get("expectedTool") {
            Some(Value::String(s)) => Some(Some(s.trim().to_owned())),
            Some(Value::Null) => Some(None),
            _ => None,
        };
        match (input, expected) {
            (Some(input), Some(expected)) if !input.is_empty() => out.push(Draft {
                input: input.to_owned(),
                expected,
            }),
            _ => notes.push(format!(
                "case #{} has no input text or no expectedTool (string or null)",
                i + 1
            )),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_keep_well_formed_entries_and_note_the_rest() {
        let mut notes = Vec::new();
        let got = drafts(
            &json!({"cases": [
                {"input": "  where is my order  ", "expectedTool": "lookup_order"},
                {"input": "tell me a joke", "expectedTool": null},
                {"input": "", "expectedTool": "x"},
                {"input": "no expectation"},
                {"expectedTool": "x"}
            ]}),
            &mut notes,
        );
        assert_eq!(
            got,
            vec![
                Draft {
                    input: "where is my order".into(),
                    expected: Some("lookup_order".into())
                },
                Draft {
                    input: "tell me a joke".into(),
                    expected: None
                },
            ]
        );
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].starts_with("case #3"), "{notes:?}");
        let mut notes = Vec::new();
        assert!(drafts(&json!({"items": []}), &mut notes).is_empty());
        assert_eq!(notes, vec!["the answer has no `cases` array"]);
    }

    #[test]
    fn a_message_names_its_tools_and_the_others() {
        let mut a = Tool::named("get_invoice", Origin::default(), Confidence::High);
        a.description = Some("Fetch one invoice.".into());
        let b = Tool::named("get_ticket", Origin::default(), Confidence::High);
        let tools = [a, b];
        let m = message(
            &Ask::Tool {
                tool: 0,
                cases: 3,
                near_misses: 1,
            },
            &tools,
        );
        assert!(
            m.contains(r#"{"name":"get_invoice","description":"Fetch one invoice.""#),
            "{m}"
        );
        assert!(
            m.contains("Other tools the assistant has: get_ticket."),
            "{m}"
        );
        assert!(
            m.contains("Write 3 user message(s)") && m.contains("and 1 message(s)"),
            "{m}"
        );
        let p = message(
            &Ask::Pair {
                a: 0,
                b: 1,
                per_side: 2,
            },
            &tools,
        );
        assert!(p.contains("Other tools the assistant has: none."), "{p}");
        assert_eq!(
            Ask::Pair {
                a: 0,
                b: 1,
                per_side: 2
            }
            .allowed(),
            vec![0, 1]
        );
    }
}
