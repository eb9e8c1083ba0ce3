//! Descriptions family: a tool's description is what a model chooses by. Missing (error for
//! declared tools, warn when a code recognizer may simply have missed it), too short, identical
//! to another tool's, parameters without a description, and generic tool names.

use std::collections::HashMap;

use serde_json::Value;

use super::{LintInput, tool_finding, with_param};
use crate::report::lint::{Finding, Severity};
use crate::surface::{Confidence, Tool};

/// Name words that say nothing about what a tool does. A name made only of these (digits
/// ignored) is generic: `run`, `do_it`, `tool1`, `execute_action`, `helper`.
const GENERIC_WORDS: &[&str] = &[
    "action",
    "call",
    "cmd",
    "command",
    "do",
    "exec",
    "execute",
    "fn",
    "func",
    "function",
    "handle",
    "handler",
    "helper",
    "invoke",
    "it",
    "main",
    "misc",
    "op",
    "operation",
    "perform",
    "process",
    "run",
    "stuff",
    "task",
    "test",
    "thing",
    "tool",
    "util",
    "utility",
    "utils",
];

/// Run the descriptions family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let min = input.options.min_description_chars;
    let mut by_description: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, (tool, facts)) in input.tools().iter().zip(input.facts).enumerate() {
        let text = tool.description.as_deref().unwrap_or("").trim();
        if text.is_empty() {
            let severity = if tool.confidence == Confidence::Low {
                Severity::Warn
            } else {
                Severity::Error
            };
            out.push(tool_finding(
                severity,
                "description-missing",
                tool,
                format!("Tool `{}` has no description; a model can only guess from the name when to call it.", tool.name),
                "Describe what the tool does, what it returns, and when to use it instead of its neighbours.".into(),
            ));
        } else {
            let n = text.chars().count();
            // A CJK character carries about a word: 「チャットのメッセージ一覧を取得」 is a full
            // sentence in 15 characters, and it has no spaces to find an action and an object
            // by, so such text is judged by its weight, not its character count.
            let weight: usize = text.chars().map(|c| if cjk(c) { 3 } else { 1 }).sum();
            if weight < min && !says_action_and_object(text, &facts.words, params_described(tool)) {
                out.push(tool_finding(
                    Severity::Warn,
                    "description-too-short",
                    tool,
                    format!("Description of `{}` is {n} characters (< {min}): \"{text}\".", tool.name),
                    "Say what the tool does, what it returns, and when to use it (one or two sentences).".into(),
                ));
            }
            by_description
                .entry(facts.description.as_str())
                .or_default()
                .push(i);
        }
        undescribed_params(tool, out);
        if is_generic(&facts.words) {
            out.push(tool_finding(
                Severity::Warn,
                "name-generic",
                tool,
                format!("Tool name `{}` says nothing about what it does; models pick tools by name first.", tool.name),
                "Name the action and its object, e.g. `run` → `run_sql_query`, `helper` → `format_invoice`.".into(),
            ));
        }
    }
    let tools = input.tools();
    for indices in by_description.values().filter(|v| v.len() > 1) {
        let names: Vec<&str> = indices.iter().map(|&i| tools[i].name.as_str()).collect();
        for &i in indices {
            let tool = &tools[i];
            // At most five names: a surface of near-identical tools must not grow a message
            // per tool with every other name (quadratic output).
            let total = names.iter().filter(|n| **n != tool.name).count();
            let others: Vec<String> = names
                .iter()
                .filter(|n| **n != tool.name)
                .take(5)
                .map(|n| format!("`{n}`"))
                .collect();
            let others = if others.is_empty() {
                "another tool with the same name".to_owned()
            } else if total > others.len() {
                format!("{} and {} more", others.join(", "), total - others.len())
            } else {
                others.join(", ")
            };
            out.push(tool_finding(
                Severity::Error,
                "description-duplicate",
                tool,
                format!("Description of `{}` is identical to {others}'s; a model cannot tell them apart.", tool.name),
                "Rewrite each description to say what is different: the object it acts on, and when to use the other tool instead.".into(),
            ));
        }
    }
}

/// A short description that names an action and an object (`Navigate to a URL`) is complete
/// when the schema fills in the rest — unless it only restates the tool's name (`Get an
/// article.` on `get_article(article_id, locale)`) and leaves a parameter undescribed: a
/// restatement over fully described parameters (`Delete an issue` on `delete_issue(id: "Issue
/// UUID …")`) says all there is.
fn says_action_and_object(text: &str, name_words: &[String], described: bool) -> bool {
    let words: Vec<String> = crate::surface::terms::name_tokens(text)
        .into_iter()
        .filter(|w| {
            w.len() > 1
                && !matches!(
                    w.as_str(),
                    "the" | "to" | "an" | "of" | "for" | "in" | "on" | "by" | "with" | "from"
                )
        })
        .collect();
    let stem = crate::surface::terms::stem;
    let in_name = |w: &String| name_words.iter().any(|n| stem(n) == stem(w));
    words.len() >= 2
        && (described || !words.iter().all(in_name))
        && words.first().is_some_and(|w| {
            crate::analyze::confusable::verb_group(&crate::surface::terms::stem(w)).is_some()
                || w.ends_with('s')
        })
}

/// A Chinese, Japanese or Korean character (Han, kana, Hangul).
fn cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// Every top-level parameter has a description (none at all counts as described).
fn params_described(tool: &Tool) -> bool {
    tool.input_schema
        .as_ref()
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .is_none_or(|props| {
            props.values().all(|p| {
                p.get("description")
                    .and_then(Value::as_str)
                    .is_some_and(|d| !d.trim().is_empty())
            })
        })
}

fn is_generic(words: &[String]) -> bool {
    !words.is_empty()
        && words.iter().all(|w| {
            let stem = w.trim_end_matches(|c: char| c.is_ascii_digit());
            stem.is_empty() || GENERIC_WORDS.contains(&stem)
        })
}

/// Parameter names that say what to send (one token, or the last token of a longer name).
const SELF_EXPLAINING: &[&str] = &[
    "id",
    "ids",
    "uuid",
    "owner",
    "repo",
    "repository",
    "org",
    "organization",
    "page",
    "limit",
    "offset",
    "cursor",
    "query",
    "q",
    "url",
    "uri",
    "path",
    "paths",
    "name",
    "names",
    "title",
    "text",
    "content",
    "body",
    "message",
    "email",
    "username",
    "user",
    "filename",
    "file",
    "filepath",
    "dir",
    "directory",
    "branch",
    "tag",
    "tags",
    "label",
    "labels",
    "description",
    "key",
    "value",
    "values",
    "comment",
    "note",
    "password",
    "token",
    "count",
    "size",
    "width",
    "height",
    "color",
    "colour",
    "font",
    "bold",
    "italic",
    "underline",
    "language",
    "lang",
    "timeout",
    "enabled",
    "recursive",
    "force",
    "verbose",
    "sheet",
    "range",
    "data",
    "fields",
    "field",
    "sort",
    "order",
    "direction",
    "type",
    "format",
    "code",
    "city",
    "country",
    "date",
    "time",
    "start_date",
    "end_date",
    "search",
    "keyword",
    "keywords",
    "pattern",
    "command",
    "args",
    "arguments",
    "env",
    "workspace",
    "project",
    "slug",
    "author",
    "subject",
    "to",
    "from",
    "cc",
    "bcc",
    "channel",
    "thread",
    "reply",
    "status",
    "state",
    "priority",
    "assignee",
    "assignees",
    "milestone",
    "sha",
    "ref",
    "base",
    "head",
    "title",
    "summary",
    "version",
];

/// Last name tokens that make an integer an index or position whose base (0 or 1) and end
/// (inclusive or not) a model must guess.
const INDEX_WORDS: &[&str] = &[
    "index", "idx", "position", "pos", "row", "col", "column", "start", "end", "line",
];

/// Whether a schema (or one of its `anyOf`/`oneOf`/`allOf` branches) carries a description,
/// or is a `$ref` (documented where it is defined).
fn has_description(prop: &Value) -> bool {
    if prop.get("$ref").is_some() {
        return true;
    }
    let own = ["description", "title"].iter().any(|k| {
        prop.get(*k)
            .and_then(Value::as_str)
            .is_some_and(|d| !d.trim().is_empty())
    });
    own || ["anyOf", "oneOf", "allOf"].iter().any(|k| {
        prop.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|bs| bs.iter().any(has_description))
    })
}

fn type_of(prop: &Value) -> Vec<&str> {
    let mut out: Vec<&str> = match prop.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    for k in ["anyOf", "oneOf"] {
        for b in prop.get(k).and_then(Value::as_array).into_iter().flatten() {
            out.extend(type_of(b));
        }
    }
    out
}

/// Why an undescribed parameter leaves a model guessing, when the schema shows it: an index
/// with no stated base, or a free-form object with no stated shape.
fn guess_needed(path: &str, prop: &Value) -> Option<&'static str> {
    let leaf = path.rsplit(['.', '[']).next().unwrap_or(path);
    let tokens = crate::surface::terms::name_tokens(leaf);
    let types = type_of(prop);
    let numeric = types.iter().any(|t| matches!(*t, "integer" | "number"));
    let last = tokens.last().map(String::as_str);
    if numeric && prop.get("minimum").is_none() && last.is_some_and(|t| INDEX_WORDS.contains(&t)) {
        // A bare `start`/`end` number is as often a time as a position.
        return Some(if matches!(last, Some("start" | "end")) {
            "a start or end whose unit is not said (a position from 0 or 1, or a time in seconds or milliseconds)"
        } else {
            "an index or position whose base (0 or 1) and end (inclusive or not) are not said"
        });
    }
    // A union of typed objects (`anyOf: [{operation: const, params: {…}}, …]`) says its keys
    // in its branches.
    let typed_branches = ["anyOf", "oneOf", "allOf"].iter().any(|k| {
        prop.get(*k)
            .and_then(Value::as_array)
            .is_some_and(|b| !b.is_empty() && b.iter().all(|m| m.get("properties").is_some()))
    });
    let free_object = types.contains(&"object")
        && !typed_branches
        && prop.get("properties").is_none()
        && prop.get("additionalProperties").is_none_or(|a| {
            a.as_bool().unwrap_or(false) || a.as_object().is_some_and(|o| o.is_empty())
        });
    if free_object {
        return Some("a free-form object whose keys and values are not said");
    }
    None
}

/// Whether a parameter name explains itself (`owner`, `repo`, `page`, `file_path`).
fn self_explaining(path: &str) -> bool {
    let leaf = path.rsplit(['.', '[']).next().unwrap_or(path);
    let tokens = crate::surface::terms::name_tokens(leaf);
    let joined = tokens.join("_");
    SELF_EXPLAINING.contains(&joined.as_str())
        || tokens.last().is_some_and(|t| {
            SELF_EXPLAINING.contains(&t.as_str()) && !INDEX_WORDS.contains(&t.as_str())
        })
}

/// Report parameters (nested ones as dotted paths, array items as `name[]`) without a
/// description, looked up through `anyOf`/`oneOf`/`allOf` and `$ref`. Not reported: names that
/// explain themselves, parameters the tool description names, fields of a described parent.
/// Warn when the schema shows a model must guess (an index with no base, a free-form object),
/// info otherwise.
fn undescribed_params(tool: &Tool, out: &mut Vec<Finding>) {
    let Some(schema) = tool.input_schema.as_ref() else {
        return;
    };
    let text = tool.description.as_deref().unwrap_or("").to_lowercase();
    let mentioned = |leaf: &str| {
        let l = leaf.to_lowercase();
        l.len() > 2
            && text.match_indices(&l).any(|(i, _)| {
                let before = text[..i].chars().next_back();
                let after = text[i + l.len()..].chars().next();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
    };
    let mut missing: Vec<(String, Severity, &'static str)> = Vec::new();
    super::visit_params(schema, &mut |path, prop| {
        if !prop.is_object() {
            return false;
        }
        if has_description(prop) {
            // A described parent documents its fields.
            return false;
        }
        let leaf = path
            .rsplit(['.', '['])
            .next()
            .unwrap_or(path)
            .trim_end_matches(']');
        let why = guess_needed(path, prop);
        if why.is_none() && (self_explaining(path) || mentioned(leaf)) {
            return true;
        }
        let severity = if why.is_some() && !mentioned(leaf) {
            Severity::Warn
        } else {
            Severity::Info
        };
        missing.push((
            path.to_owned(),
            severity,
            why.unwrap_or("its meaning and format must be guessed from the name"),
        ));
        true
    });
    for (path, severity, why) in missing {
        out.push(with_param(
            tool_finding(
                severity,
                "param-description-missing",
                tool,
                format!("Parameter `{path}` of `{}` has no description: {why}.", tool.name),
                "Add a `description` saying what the value is, its format or units (an index: 0- or 1-based), and an example.".into(),
            ),
            &path,
        ));
    }
}

#[cfg(test)]
mod tests;
