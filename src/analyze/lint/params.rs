//! Parameters family: what a model gets wrong when it fills arguments. A required parameter
//! that also has a `default` (the default can never apply, or "required" is wrong); a
//! description that names a parameter the schema does not have (`` `per_page` ``); and one
//! concept spelled differently across the tools of one server (`perPage` / `per_page`,
//! `query` / `q`), so a model that learned one tool sends the other's spelling.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;
use serde_json::Value;

use super::{LintInput, surface_finding, tool_finding, with_param};
use crate::report::lint::{Finding, Severity};
use crate::surface::terms::name_tokens;

/// Parameter names that mean the same value.
const SAME_CONCEPT: &[&[&str]] = &[
    &["query", "q", "search_query", "search_term"],
    &["limit", "max_results", "max_result"],
    &["per_page", "page_size"],
    &["file_path", "filepath"],
    &["directory", "dir", "dir_path", "dirpath", "folder"],
    &["url", "uri", "link"],
    &["branch", "branch_name"],
    &["database", "db", "database_name", "db_name"],
];

/// Spellings that join a concept only on a tool whose name has the given word: a bare `path`
/// is a file's path on `read_file` but an API route on `freee_api_get` and a folder on
/// `list_directory_content`.
const QUALIFIED: &[(&str, &str, &str)] = &[("path", "file_path", "file")];

/// The concept a parameter spelling stands for on `tool`.
fn concept_of(spelling: &str, tool_words: &[String]) -> String {
    if let Some((_, concept, _)) = QUALIFIED
        .iter()
        .find(|(s, _, w)| *s == spelling && tool_words.iter().any(|t| t == w))
    {
        return (*concept).to_owned();
    }
    SAME_CONCEPT
        .iter()
        .find(|g| g.contains(&spelling))
        .map_or_else(|| spelling.to_owned(), |g| g[0].to_owned())
}

/// `` `word` `` in a description, snake_case or camelCase (a parameter-looking identifier).
static CODE_IDENT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"`([a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*)`").ok()
});

/// Run the parameters family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let tools = input.tools();
    let names: BTreeSet<String> = tools.iter().map(|t| t.name.to_lowercase()).collect();
    // Every parameter name on the surface: a description may point at another tool's.
    let mut surface_params: BTreeSet<String> = BTreeSet::new();
    for t in tools {
        if let Some(schema) = t.input_schema.as_ref() {
            super::visit_params(schema, &mut |path, _| {
                for part in path.split(['.', '[', ']']).filter(|p| !p.is_empty()) {
                    surface_params.insert(part.to_lowercase());
                }
                true
            });
        }
    }
    for tool in tools {
        let Some(schema) = tool.input_schema.as_ref() else {
            continue;
        };
        let props = schema.get("properties").and_then(Value::as_object);
        let mut all_params: BTreeSet<String> = BTreeSet::new();
        super::visit_params(schema, &mut |path, _| {
            for part in path.split(['.', '[', ']']).filter(|p| !p.is_empty()) {
                all_params.insert(part.to_lowercase());
            }
            true
        });
        for r in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if props
                .and_then(|p| p.get(r))
                .is_some_and(|p| p.get("default").is_some())
            {
                out.push(with_param(
                    tool_finding(
                        Severity::Warn,
                        "param-required-with-default",
                        tool,
                        format!("Parameter `{r}` of `{}` is required and has a default; a model must always send it, so the default never applies.", tool.name),
                        "Drop it from `required` if the default is safe, or drop the default.".into(),
                    ),
                    r,
                ));
            }
        }
        let text = tool.description.as_deref().unwrap_or("");
        let mut reported = BTreeSet::new();
        for c in CODE_IDENT
            .as_ref()
            .into_iter()
            .flat_map(|re| re.captures_iter(text))
        {
            let Some(m) = c.get(1) else { continue };
            let w = m.as_str().to_lowercase();
            if all_params.contains(&w)
                || surface_params.contains(&w)
                || names.contains(&w)
                || !reported.insert(w.clone())
            {
                continue;
            }
            // Only when the identifier reads as an argument: "`x` parameter", "pass `x`",
            // "set `x`", "`x` argument", "`x`:".
            let before = text[..m.start().saturating_sub(1)].to_lowercase();
            let after = text[(m.end() + 1).min(text.len())..].to_lowercase();
            let arg_like = ["pass ", "set ", "provide ", "use the "]
                .iter()
                .any(|p| before.ends_with(p))
                || ["parameter", "argument", "param "]
                    .iter()
                    .any(|p| after.trim_start().starts_with(p));
            if !arg_like {
                continue;
            }
            out.push(with_param(
                tool_finding(
                    Severity::Warn,
                    "description-unknown-param",
                    tool,
                    format!("The description of `{}` names a parameter `{}` that its schema does not have; a model will send it and the call may fail.", tool.name, m.as_str()),
                    "Rename the parameter in the text to the schema's name, or add it to the schema.".into(),
                ),
                m.as_str(),
            ));
        }
    }
    param_drift(input, out);
}

/// The normalized form of a parameter name: tokens joined by `_` (`perPage` = `per_page`;
/// `url` and `urls` stay apart: one value vs many is a real difference).
fn normal(name: &str) -> String {
    name_tokens(name).join("_")
}

/// One concept, several spellings, within one server's tools.
fn param_drift(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let tools = input.tools();
    let mut by_server: BTreeMap<Option<&str>, Vec<usize>> = BTreeMap::new();
    for (i, t) in tools.iter().enumerate() {
        by_server
            .entry(t.origin.server.as_deref())
            .or_default()
            .push(i);
    }
    for members in by_server.values() {
        // concept → spelling → tools using it.
        let mut seen: BTreeMap<String, BTreeMap<String, Vec<&str>>> = BTreeMap::new();
        for &i in members {
            let t = &tools[i];
            let Some(props) = t
                .input_schema
                .as_ref()
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object)
            else {
                continue;
            };
            let words = name_tokens(&t.name);
            let mut concepts_here: BTreeMap<String, usize> = BTreeMap::new();
            for name in props.keys() {
                *concepts_here
                    .entry(concept_of(&normal(name), &words))
                    .or_insert(0) += 1;
            }
            for name in props.keys() {
                let concept = concept_of(&normal(name), &words);
                // One tool taking both spellings means two different values.
                if concepts_here.get(&concept).is_some_and(|&k| k > 1) {
                    continue;
                }
                seen.entry(concept)
                    .or_default()
                    .entry(name.clone())
                    .or_default()
                    .push(t.name.as_str());
            }
        }
        for (concept, spellings) in seen {
            if spellings.len() < 2 {
                continue;
            }
            let list: Vec<String> = spellings
                .iter()
                .map(|(s, ts)| {
                    let more = if ts.len() > 1 {
                        format!(" +{}", ts.len() - 1)
                    } else {
                        String::new()
                    };
                    format!("`{s}` ({}{more})", ts[0])
                })
                .collect();
            out.push(surface_finding(
                Severity::Warn,
                "param-name-drift",
                format!("One parameter concept (`{concept}`) is spelled {} ways across tools: {}; a model that learned one tool sends the other's spelling.", spellings.len(), list.join(", ")),
                "Use one spelling for one concept across every tool of the server.".into(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_normalize() {
        assert_eq!(normal("perPage"), normal("per_page"));
        assert_ne!(normal("urls"), normal("url"));
    }
}
