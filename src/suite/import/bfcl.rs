//! The Berkeley Function Calling Leaderboard (BFCL, `bfcl-eval` on PyPI): a category file
//! (`BFCL_v4_multiple.json`, one JSON item per line) and its possible answers
//! (`possible_answer/BFCL_v4_multiple.json`) → an mf suite.
//!
//! Each item becomes one case with the item's functions as the case's own `tools` (inline),
//! its question as `input`, the id as `id`, tags `bfcl` and the category:
//! - one expected call → `expectedTool` + `expectedArgs` (see `bfcl_answers`);
//! - several (`parallel`, `parallel_multiple`) → `expectedCalls`, scored order-insensitively;
//! - none, or an `irrelevance` item without answers → `expectedTool: null`.
//!
//! Function names with `.` become `_` (`math.factorial` → `math_factorial`) unless
//! `keep_dots`: OpenAI and most providers refuse dots in function names, and BFCL renames them
//! the same way for those models. The schema dialect is converted by `bfcl_schema`. Every change
//! is a [`Conversion`]; items that cannot become a case (several turns, Java or JavaScript, no
//! answer) are listed in [`Imported::skipped`].

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::bfcl_answers::{UNSATISFIABLE, expected_args};
use super::bfcl_schema::{convert_parameters, escape};
use super::{Conversion, ImportError, Imported};
use crate::suite::{Case, CaseTool, ExpectedCall, InlineTool, Suite};

/// How to import.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Keep `.` in function names (by default `.` → `_`).
    pub keep_dots: bool,
}

/// The file being read: its name for messages and its text.
#[derive(Debug, Clone, Copy)]
pub struct File<'a> {
    /// How to name it in messages and `source`.
    pub name: &'a str,
    /// Its text: JSON Lines (BFCL's layout) or one JSON array.
    pub text: &'a str,
}

/// Import a BFCL category (`data`) with its possible answers.
pub fn import(
    data: File<'_>,
    answers: Option<File<'_>>,
    options: &Options,
) -> Result<Imported, ImportError> {
    let items = records(data)?;
    let mut truth: BTreeMap<String, Value> = BTreeMap::new();
    if let Some(answers) = answers {
        for (line, v) in records(answers)? {
            let id = v
                .get("id")
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(answers.name, line, "an answer needs a string `id`"))?;
            let gt = v.get("ground_truth").cloned().ok_or_else(|| {
                invalid(
                    answers.name,
                    line,
                    "an answer needs `ground_truth`: [{function: {param: [accepted…]}}]",
                )
            })?;
            truth.insert(id.to_owned(), gt);
        }
    }
    let mut imported = Imported {
        suite: Suite::default(),
        conversions: Vec::new(),
        skipped: Vec::new(),
    };
    let mut categories: Vec<String> = Vec::new();
    for (line, item) in items {
        let id = item
            .get("id")
            .and_then(Value::as_str)
            .ok_or_else(|| invalid(data.name, line, "an item needs a string `id`"))?
            .to_owned();
        match case(
            &id,
            &item,
            truth.get(&id),
            answers.is_some(),
            data.name,
            line,
            options,
            &mut imported.conversions,
        ) {
            Ok(case) => {
                let category = category(&id);
                if !categories.contains(&category) {
                    categories.push(category);
                }
                imported.suite.cases.push(case);
            }
            Err(why) => imported.skipped.push(format!("{id}: {why}")),
        }
    }
    if imported.suite.cases.is_empty() {
        return Err(ImportError::Empty {
            file: data.name.to_owned(),
            skipped: imported.skipped,
        });
    }
    imported.suite.name = match categories.as_slice() {
        [one] => format!("bfcl-{}", one.replace('_', "-")),
        _ => "bfcl".to_owned(),
    };
    imported.suite.description = Some(format!(
        "Imported by `mf tasks import bfcl` from {} ({}): {} cases from the Berkeley Function \
         Calling Leaderboard (bfcl-eval, Apache-2.0), each with its own tools.",
        data.name,
        categories.join(", "),
        imported.suite.cases.len()
    ));
    Ok(imported)
}

/// One item as a case, or why it cannot be one.
#[allow(clippy::too_many_arguments)]
fn case(
    id: &str,
    item: &Value,
    truth: Option<&Value>,
    have_answers: bool,
    file: &str,
    line: usize,
    options: &Options,
    out: &mut Vec<Conversion>,
) -> Result<Case, String> {
    if id.starts_with("simple_java") || id.starts_with("simple_javascript") {
        return Err(
            "BFCL checks Java and JavaScript arguments as source-code strings; only the \
                    Python categories are imported"
                .into(),
        );
    }
    let input = question(item)?;
    let functions = item
        .get("function")
        .and_then(Value::as_array)
        .ok_or("no `function` list")?;
    if functions.is_empty() {
        return Err("no function to offer (an mf case offers at least one tool)".into());
    }
    // Names: `.` → `_` unless that would make two functions of the item one name.
    let originals: Vec<&str> = functions
        .iter()
        .map(|f| {
            f.get("name")
                .and_then(Value::as_str)
                .ok_or("a function without a `name`")
        })
        .collect::<Result<_, _>>()?;
    let mut renamed: Vec<String> = originals
        .iter()
        .map(|n| {
            if options.keep_dots {
                (*n).to_owned()
            } else {
                n.replace('.', "_")
            }
        })
        .collect();
    let distinct: std::collections::BTreeSet<&String> = renamed.iter().collect();
    if distinct.len() != renamed.len() {
        out.push(conversion(
            id,
            "function",
            "names kept with dots (`_` would merge two functions)",
            None,
        ));
        renamed = originals.iter().map(|n| (*n).to_owned()).collect();
    }
    let mut tools: Vec<InlineTool> = Vec::with_capacity(functions.len());
    for (f, (original, name)) in functions.iter().zip(originals.iter().zip(&renamed)) {
        if original != name {
            out.push(conversion(
                id,
                &escape(original),
                "name `.` → `_`",
                Some(format!("{original} → {name}")),
            ));
        }
        let mut parameters = f
            .get("parameters")
            .cloned()
            .unwrap_or_else(|| serde_json::json!({"type": "dict"}));
        convert_parameters(
            id,
            &format!("{}/parameters", escape(original)),
            &mut parameters,
            out,
        );
        tools.push(InlineTool {
            name: name.clone(),
            title: None,
            description: f
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            parameters: Some(parameters),
            annotations: None,
            origin: Some(format!("{file}:{line}")),
            side_effects: None,
        });
    }
    let mut case = Case::new(id, &input, None);
    case.tags = vec!["bfcl".to_owned(), category(id)];
    case.source = Some(format!("BFCL {id} ({file}:{line})"));
    let calls: Vec<AnswerCall> = match truth {
        Some(gt) => ground_truth(gt, &originals)?,
        None if id.contains("irrelevance") => Vec::new(),
        None if have_answers => return Err("no possible answer for this id".into()),
        None => return Err("needs --answers (only irrelevance items expect no call)".into()),
    };
    let mut expected = Vec::with_capacity(calls.len());
    for (index, answer) in &calls {
        let tool = &mut tools[*index];
        let schema = tool.parameters.as_mut().expect("set above");
        let at = escape(originals[*index]);
        let before = out.len();
        let args = expected_args(id, &at, schema, answer, out);
        if out[before..].iter().any(|c| c.kind == UNSATISFIABLE) {
            case.reviewed = false;
        }
        expected.push(ExpectedCall {
            tool: tool.name.clone(),
            args: Some(Value::Object(args)),
        });
    }
    match expected.len() {
        0 => {}
        1 => {
            let call = expected.remove(0);
            case.expected_tool = Some(Some(call.tool));
            case.expected_args = call.args;
        }
        _ => {
            case.expected_tool = None;
            case.expected_calls = Some(expected);
        }
    }
    case.tools = Some(
        tools
            .into_iter()
            .map(|t| CaseTool::Inline(Box::new(t)))
            .collect(),
    );
    Ok(case)
}

/// The item's one user turn as text (a system message first, then a blank line).
fn question(item: &Value) -> Result<String, String> {
    let turns = item
        .get("question")
        .and_then(Value::as_array)
        .ok_or("no `question`")?;
    let [turn] = turns.as_slice() else {
        return Err(format!(
            "{} turns; an mf case is one user message",
            turns.len()
        ));
    };
    let messages = turn.as_array().ok_or("a turn is not a list of messages")?;
    let mut parts = Vec::new();
    for m in messages {
        let role = m.get("role").and_then(Value::as_str).unwrap_or_default();
        let content = m.get("content").and_then(Value::as_str).unwrap_or_default();
        match role {
            "user" | "system" => parts.push(content.to_owned()),
            other => {
                return Err(format!(
                    "a {other:?} message; an mf case is one user message"
                ));
            }
        }
    }
    if parts.is_empty() {
        return Err("an empty question".into());
    }
    Ok(parts.join("\n\n"))
}

/// One ground-truth call: the index of its function in the item, and its possible answer.
type AnswerCall = (usize, Map<String, Value>);

/// BFCL's `ground_truth` (`[{function: {param: [accepted…]}}]`) as (function index, answer).
fn ground_truth(gt: &Value, functions: &[&str]) -> Result<Vec<AnswerCall>, String> {
    let list = gt.as_array().ok_or("`ground_truth` is not a list")?;
    list.iter()
        .map(|call| {
            let map = call
                .as_object()
                .filter(|m| m.len() == 1)
                .ok_or("a ground-truth call is not {function: {…}}")?;
            let (name, args) = map.iter().next().expect("one entry");
            let index = functions.iter().position(|f| f == name).ok_or_else(|| {
                format!("the answer calls {name:?}, which the item does not define")
            })?;
            let args = args
                .as_object()
                .cloned()
                .ok_or("a ground-truth call's arguments are not an object")?;
            Ok((index, args))
        })
        .collect()
}

/// The category of an id: `simple_python_12` → `simple_python`, `live_multiple_3-1-0` →
/// `live_multiple`.
pub fn category(id: &str) -> String {
    let trimmed = id.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-');
    trimmed.strip_suffix('_').unwrap_or(trimmed).to_owned()
}

/// Items with their 1-based lines: JSON Lines, or a JSON array (line 1 for each).
fn records(file: File<'_>) -> Result<Vec<(usize, Value)>, ImportError> {
    let text = file.text.strip_prefix('\u{feff}').unwrap_or(file.text);
    if text.trim_start().starts_with('[') {
        let v: Value =
            serde_json::from_str(text).map_err(|e| invalid(file.name, e.line(), &e.to_string()))?;
        return Ok(v
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|v| (1, v))
            .collect());
    }
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| {
            invalid(
                file.name,
                i + 1,
                &format!("not JSON ({e}); BFCL files hold one JSON object per line"),
            )
        })?;
        if !v.is_object() {
            return Err(invalid(file.name, i + 1, "expected a JSON object"));
        }
        out.push((i + 1, v));
    }
    Ok(out)
}

fn invalid(file: &str, line: usize, message: &str) -> ImportError {
    ImportError::Invalid {
        file: file.to_owned(),
        line,
        message: message.to_owned(),
    }
}

fn conversion(item: &str, at: &str, kind: &str, detail: Option<String>) -> Conversion {
    Conversion {
        item: item.to_owned(),
        at: at.to_owned(),
        kind: kind.to_owned(),
        detail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const DATA: &str = r#"{"id": "parallel_multiple_1", "question": [[{"role": "user", "content": "Areas: 7x3 rectangle, circle r=5."}]], "function": [{"name": "area_rectangle.calculate", "description": "Rectangle area.", "parameters": {"type": "dict", "properties": {"length": {"type": "float"}, "breadth": {"type": "float"}}, "required": ["length", "breadth"]}}, {"name": "area_circle.calculate", "description": "Circle area.", "parameters": {"type": "dict", "properties": {"radius": {"type": "float"}}, "required": ["radius"]}}]}
{"id": "simple_python_0", "question": [[{"role": "user", "content": "Triangle base 10 height 5."}]], "function": [{"name": "calculate_triangle_area", "description": "Area.", "parameters": {"type": "dict", "properties": {"base": {"type": "integer"}, "height": {"type": "integer"}, "unit": {"type": "string"}}, "required": ["base", "height"]}}]}
{"id": "irrelevance_0", "question": [[{"role": "user", "content": "Who won in 1998?"}]], "function": [{"name": "calculate_triangle_area", "description": "Area.", "parameters": {"type": "dict", "properties": {}, "required": []}}]}
{"id": "multi_turn_base_0", "question": [[{"role": "user", "content": "a"}], [{"role": "user", "content": "b"}]], "function": []}
"#;
    const ANSWERS: &str = r#"{"id": "parallel_multiple_1", "ground_truth": [{"area_rectangle.calculate": {"length": [7.0], "breadth": [3.0]}}, {"area_circle.calculate": {"radius": [5.0]}}]}
{"id": "simple_python_0", "ground_truth": [{"calculate_triangle_area": {"base": [10], "height": [5], "unit": ["units", ""]}}]}
"#;

    #[test]
    fn items_become_cases_with_their_own_tools() {
        let imported = import(
            File {
                name: "d.json",
                text: DATA,
            },
            Some(File {
                name: "a.json",
                text: ANSWERS,
            }),
            &Options::default(),
        )
        .expect("imports");
        let cases = &imported.suite.cases;
        assert_eq!(cases.len(), 3);
        let pm = &cases[0];
        let calls = pm.expected_calls.as_ref().expect("a call set");
        assert_eq!(calls[0].tool, "area_rectangle_calculate");
        assert_eq!(calls[1].args, Some(json!({"radius": {"$oneOf": [5.0]}})));
        assert_eq!(pm.tools.as_ref().expect("tools").len(), 2);
        let simple = &cases[1];
        assert_eq!(
            simple.expected_tool,
            Some(Some("calculate_triangle_area".into()))
        );
        assert_eq!(
            simple.expected_args.as_ref().expect("args")["unit"],
            json!({"$oneOf": ["units"], "$normalize": true, "$optional": true})
        );
        assert_eq!(simple.tags, ["bfcl", "simple_python"]);
        assert_eq!(
            cases[2].expected_tool,
            Some(None),
            "irrelevance: call nothing"
        );
        assert_eq!(
            imported.skipped,
            ["multi_turn_base_0: 2 turns; an mf case is one user message"]
        );
        let counts: BTreeMap<String, usize> = imported.counts().into_iter().collect();
        assert_eq!(counts["name `.` → `_`"], 2);
        assert_eq!(counts["type dict → object"], 4);
        assert_eq!(counts["type float → number"], 3);
        // The suite reads back as a suite and is ready for eval.
        let text = serde_json::to_string(&imported.suite).expect("json");
        let back = crate::suite::read::parse_json_suite(&text, "s.json").expect("reads back");
        back.validate_for_eval("s.json").expect("ready");
    }

    #[test]
    fn categories_and_errors_name_the_line() {
        assert_eq!(category("live_multiple_3-1-0"), "live_multiple");
        assert_eq!(category("simple_python_12"), "simple_python");
        let err = import(
            File {
                name: "d.json",
                text: "{\"id\": 1}\n{",
            },
            None,
            &Options::default(),
        )
        .expect_err("bad");
        assert!(err.to_string().starts_with("d.json:2: not JSON"), "{err}");
        let err = import(
            File {
                name: "d.json",
                text: "{\"id\": 1}\n",
            },
            None,
            &Options::default(),
        )
        .expect_err("bad");
        assert!(
            err.to_string()
                .starts_with("d.json:1: an item needs a string `id`"),
            "{err}"
        );
    }
}
