//! Offline models: answer in-process, never touch the network, need no key.
//!
//! - `mock` never calls a tool (every must-call case abstains): a dry pipeline check.
//! - `lexical` is a keyword baseline router: it picks the tool whose name and description share
//!   the most informative words with the input (IDF-weighted over the surface, name words
//!   counted twice) and calls nothing when no tool shares a name word or at least two
//!   description words. Ties go to the alphabetically first name, so its answer does not depend
//!   on the tool order. It sends no arguments (`{}`): argument accuracy measures nothing for it.
//!   What it gets right, keyword overlap already solves.
//! - `scripted:FILE` answers from a JSON file, for tests and demos: an object from case input
//!   (or `"*"` for any other input) to an answer or a list of answers (used in turn by trial
//!   index, cycling); answers under `"$cases": {"CASE-ID": …}` are for that case alone and
//!   win over its input (two cases may share a message). An answer is a tool name (one call
//!   with `{}`), `null` (no call),
//!   `{"calls": [{"name": …, "arguments": {…} | "raw text"}]}`, or `{"error": KIND}` with a kind
//!   from [`ErrorKind`] (`refusal`, `truncated`, `malformed`, `http`, `timeout`, …).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use super::{Call, ErrorKind, Reply, TrialError, TrialRequest};
use crate::surface::terms::{name_tokens, stem, terms};
use crate::surface::{Confidence, Origin, Tool};

/// An offline model.
#[derive(Debug, Clone)]
pub enum Offline {
    /// Never calls a tool.
    Mock,
    /// The keyword baseline router.
    Lexical,
    /// Answers from a script.
    Scripted(Script),
}

impl Offline {
    /// Answer trial `trial` of case `case_id`.
    pub fn answer(
        &self,
        req: &TrialRequest<'_>,
        case_id: &str,
        trial: u32,
    ) -> Result<Reply, TrialError> {
        match self {
            Offline::Mock => Ok(Reply {
                calls: Vec::new(),
                text: Some("mock: no tool call".to_owned()),
                usage: None,
            }),
            Offline::Lexical => Ok(Reply {
                calls: lexical_pick(req.input, &req.tools)
                    .map(|name| Call {
                        name: Some(name),
                        arguments: Some(Value::Object(serde_json::Map::new())),
                        raw_arguments: None,
                    })
                    .into_iter()
                    .collect(),
                text: None,
                usage: None,
            }),
            Offline::Scripted(s) => s.answer_case(case_id, req.input, trial),
        }
    }
}

/// The lexical router's pick for `input` among `tools`.
pub fn lexical_pick(input: &str, tools: &[&Tool]) -> Option<String> {
    let query = {
        let mut probe = Tool::named("", Origin::default(), Confidence::High);
        probe.description = Some(input.to_owned());
        terms(&probe)
    };
    let per_tool: Vec<(Vec<String>, Vec<String>)> = tools
        .iter()
        .map(|t| {
            let mut name: Vec<String> = name_tokens(&t.name).iter().map(|w| stem(w)).collect();
            name.sort_unstable();
            name.dedup();
            (terms(t), name)
        })
        .collect();
    let n = tools.len() as f64;
    let idf = |term: &String| {
        let df = per_tool
            .iter()
            .filter(|(all, _)| all.binary_search(term).is_ok())
            .count() as f64;
        (1.0 + n / df.max(1.0)).ln()
    };
    let mut best: Option<(f64, &str)> = None;
    for (tool, (all, name)) in tools.iter().zip(&per_tool) {
        let shared: Vec<&String> = query
            .iter()
            .filter(|q| all.binary_search(q).is_ok())
            .collect();
        let name_hits = shared
            .iter()
            .filter(|q| name.binary_search(q).is_ok())
            .count();
        if name_hits == 0 && shared.len() < 2 {
            continue;
        }
        let score: f64 = shared
            .iter()
            .map(|q| {
                idf(q)
                    * if name.binary_search(q).is_ok() {
                        2.0
                    } else {
                        1.0
                    }
            })
            .sum();
        let better = match best {
            None => true,
            Some((s, b)) => {
                score > s + 1e-12 || ((score - s).abs() <= 1e-12 && tool.name.as_str() < b)
            }
        };
        if better {
            best = Some((score, tool.name.as_str()));
        }
    }
    best.map(|(_, name)| name.to_owned())
}

/// A scripted model's answers.
#[derive(Debug, Clone, Default)]
pub struct Script {
    answers: BTreeMap<String, Vec<Value>>,
    by_case: BTreeMap<String, Vec<Value>>,
}

impl Script {
    /// Read a script file. Errors name the file and what is wrong.
    pub fn read(path: &Path) -> Result<Script, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read script {}: {e}", path.display()))?;
        Script::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Parse script JSON.
    pub fn parse(text: &str) -> Result<Script, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let Value::Object(map) = v else {
            return Err("a script is an object from case input to answers".into());
        };
        let mut script = Script::default();
        for (input, a) in map {
            if input == "$cases" {
                let Value::Object(cases) = a else {
                    return Err("\"$cases\" is an object from case id to answers".into());
                };
                for (id, a) in cases {
                    let list = answer_list(&format!("$cases.{id}"), a)?;
                    script.by_case.insert(id, list);
                }
                continue;
            }
            let list = answer_list(&format!("{input:?}"), a)?;
            script.answers.insert(input, list);
        }
        Ok(script)
    }

    fn answer_case(&self, case_id: &str, input: &str, trial: u32) -> Result<Reply, TrialError> {
        let Some(list) = self
            .by_case
            .get(case_id)
            .or_else(|| self.answers.get(input))
            .or_else(|| self.answers.get("*"))
        else {
            return Ok(Reply::default());
        };
        let item = &list[trial as usize % list.len()];
        to_reply(item).unwrap_or_else(|e| Err(TrialError::new(ErrorKind::Malformed, e)))
    }
}

/// One key's answers as a non-empty list, each readable.
fn answer_list(key: &str, a: Value) -> Result<Vec<Value>, String> {
    let list = match a {
        Value::Array(items) if !items.is_empty() => items,
        Value::Array(_) => return Err(format!("{key}: empty answer list")),
        other => vec![other],
    };
    for item in &list {
        let _answer = to_reply(item).map_err(|e| format!("{key}: {e}"))?;
    }
    Ok(list)
}

fn to_reply(v: &Value) -> Result<Result<Reply, TrialError>, String> {
    let call = |name: Option<String>, args: Option<&Value>| match args {
        Some(Value::String(raw)) => Call::from_wire(name, raw),
        // `null` arguments mean none, as the HTTP formats read them.
        Some(Value::Null) => Call::from_wire(name, ""),
        Some(v) => Call {
            name,
            arguments: Some(v.clone()),
            raw_arguments: None,
        },
        None => Call::from_wire(name, ""),
    };
    match v {
        Value::Null => Ok(Ok(Reply::default())),
        Value::String(name) => Ok(Ok(Reply {
            calls: vec![call(Some(name.clone()), None)],
            ..Reply::default()
        })),
        Value::Object(o) if o.contains_key("error") => {
            let kind: ErrorKind = serde_json::from_value(o["error"].clone())
                .map_err(|_| format!("unknown error kind {}", o["error"]))?;
            let label = o["error"].as_str().unwrap_or("error");
            Ok(Err(TrialError::new(kind, format!("scripted {label}"))))
        }
        Value::Object(o) => {
            let Some(Value::Array(calls)) = o.get("calls") else {
                return Err("an answer object needs \"calls\": [...] or \"error\"".into());
            };
            let calls = calls
                .iter()
                .map(|c| {
                    let name = c.get("name").and_then(Value::as_str).map(str::to_owned);
                    call(name, c.get("arguments"))
                })
                .collect();
            Ok(Ok(Reply {
                calls,
                ..Reply::default()
            }))
        }
        other => Err(format!("cannot read answer {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str, desc: &str) -> Tool {
        let mut t = Tool::named(name, Origin::default(), Confidence::High);
        t.description = Some(desc.to_owned());
        t
    }

    #[test]
    fn lexical_picks_by_informative_words_and_abstains_without_overlap() {
        let tools = [
            tool(
                "search_tickets",
                "Search support tickets by keyword and status.",
            ),
            tool("issue_refund", "Refund an order, fully or partly."),
            tool("get_invoice", "Fetch one invoice by its id."),
        ];
        let refs: Vec<&Tool> = tools.iter().collect();
        assert_eq!(
            lexical_pick("Please refund order 1234", &refs).as_deref(),
            Some("issue_refund")
        );
        assert_eq!(
            lexical_pick("find tickets about login", &refs).as_deref(),
            Some("search_tickets")
        );
        assert_eq!(lexical_pick("what a lovely day", &refs), None);
        let reversed: Vec<&Tool> = tools.iter().rev().collect();
        assert_eq!(
            lexical_pick("show me the invoice", &refs),
            lexical_pick("show me the invoice", &reversed),
            "order does not matter"
        );
    }

    #[test]
    fn scripts_cycle_by_trial_and_carry_errors_and_raw_arguments() {
        let s = Script::parse(
            r#"{"refund it": ["issue_refund", null, {"error": "refusal"},
                 {"calls": [{"name": "a", "arguments": "{bad"}, {"arguments": {}}]}],
                "*": "get_invoice"}"#,
        )
        .expect("parse");
        let req = |input: &'static str| TrialRequest {
            model: "m",
            input,
            tools: Vec::new(),
            temperature: None,
            max_output_tokens: 10,
        };
        let r0 = s.answer_case("", req("refund it").input, 0).expect("ok");
        assert_eq!(r0.calls[0].name.as_deref(), Some("issue_refund"));
        assert!(
            s.answer_case("", "refund it", 1)
                .expect("ok")
                .calls
                .is_empty()
        );
        assert_eq!(
            s.answer_case("", "refund it", 2).expect_err("refusal").kind,
            ErrorKind::Refusal
        );
        let r3 = s.answer_case("", "refund it", 3).expect("ok");
        assert_eq!(r3.calls[0].raw_arguments.as_deref(), Some("{bad"));
        assert_eq!(r3.calls[1].name, None);
        assert_eq!(
            s.answer_case("", "refund it", 4).expect("cycles").calls[0]
                .name
                .as_deref(),
            Some("issue_refund")
        );
        assert_eq!(
            s.answer_case("", "other", 0).expect("ok").calls[0]
                .name
                .as_deref(),
            Some("get_invoice")
        );
        let by_case = Script::parse(r#"{"$cases": {"c2": "b"}, "same": "a"}"#).expect("parse");
        let first = by_case.answer_case("c1", "same", 0).expect("ok");
        let second = by_case.answer_case("c2", "same", 0).expect("ok");
        assert_eq!(first.calls[0].name.as_deref(), Some("a"));
        assert_eq!(
            second.calls[0].name.as_deref(),
            Some("b"),
            "the case's own answer wins"
        );
        assert!(Script::parse(r#"{"$cases": ["x"]}"#).is_err());
        assert!(Script::parse(r#"{"x": {"error": "nope"}}"#).is_err());
        assert!(Script::parse(r#"{"x": 3}"#).is_err());
    }
}
