//! Naming family: one surface should name tools one way. Mixed conventions (snake_case,
//! camelCase, PascalCase, kebab-case, dotted) and synonym verbs for the same action (`get` /
//! `fetch` / `retrieve`, `delete` / `remove`, `create` / `add` / `new`) make a model guess names.
//!
//! Tools are compared within their server (tools without a server form one group): a merged
//! surface of several servers is not asked to agree across authors. The majority wins; ties
//! go to the convention or verb listed first below.

use std::collections::BTreeMap;

use super::{LintInput, tool_finding};
use crate::report::lint::{Finding, Severity};

/// A naming convention.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Convention {
    Snake,
    Camel,
    Kebab,
    Dotted,
    Pascal,
}

impl Convention {
    fn describe(self) -> &'static str {
        match self {
            Convention::Snake => "snake_case",
            Convention::Camel => "camelCase",
            Convention::Kebab => "kebab-case",
            Convention::Dotted => "dotted.names",
            Convention::Pascal => "PascalCase",
        }
    }
}

/// Synonym verb groups, canonical (tie-winning) verb first.
const VERB_GROUPS: &[&[&str]] = &[
    &["get", "fetch", "retrieve", "obtain", "lookup"],
    &["delete", "remove", "destroy", "erase", "del", "rm"],
    &["create", "add", "new", "insert", "make"],
    &["update", "modify", "edit", "change"],
    &["search", "find"],
];

/// The convention of a name; `None` for a single lower-case word, which fits every convention.
fn convention(name: &str) -> Option<Convention> {
    if name.contains('.') {
        Some(Convention::Dotted)
    } else if name.contains('-') {
        Some(Convention::Kebab)
    } else if name.contains('_') {
        Some(Convention::Snake)
    } else if name.chars().skip(1).any(char::is_uppercase) {
        Some(if name.starts_with(char::is_uppercase) {
            Convention::Pascal
        } else {
            Convention::Camel
        })
    } else if name.starts_with(char::is_uppercase) {
        Some(Convention::Pascal)
    } else {
        None
    }
}

/// The verb group and verb a tool name starts with (after an optional namespace word).
fn verb_of(words: &[String]) -> Option<(usize, &'static str)> {
    words.iter().take(2).find_map(|w| {
        VERB_GROUPS
            .iter()
            .enumerate()
            .find_map(|(g, verbs)| verbs.iter().find(|v| **v == w.as_str()).map(|v| (g, *v)))
    })
}

/// Run the naming family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let tools = input.tools();
    let mut groups: BTreeMap<Option<&str>, Vec<usize>> = BTreeMap::new();
    for (i, tool) in tools.iter().enumerate() {
        groups
            .entry(tool.origin.server.as_deref())
            .or_default()
            .push(i);
    }
    for members in groups.values() {
        mixed_conventions(input, members, out);
        synonym_verbs(input, members, out);
    }
}

fn mixed_conventions(input: &LintInput<'_>, members: &[usize], out: &mut Vec<Finding>) {
    let tools = input.tools();
    let mut counts: BTreeMap<Convention, usize> = BTreeMap::new();
    let classified: Vec<(usize, Convention)> = members
        .iter()
        .filter_map(|&i| convention(&tools[i].name).map(|c| (i, c)))
        .collect();
    for (_, c) in &classified {
        *counts.entry(*c).or_default() += 1;
    }
    if counts.len() < 2 {
        return;
    }
    // Most tools wins; BTreeMap order (the enum order) breaks ties.
    let Some((&majority, &n)) = counts.iter().rev().max_by_key(|(_, n)| **n) else {
        return;
    };
    for &(i, c) in classified.iter().filter(|(_, c)| *c != majority) {
        let tool = &tools[i];
        out.push(tool_finding(
            Severity::Warn,
            "naming-mixed-conventions",
            tool,
            format!(
                "`{}` is {}, but {n} other tools on this surface are {}; a model guessing a name follows the majority.",
                tool.name,
                c.describe(),
                majority.describe()
            ),
            format!("Rename it in {} (e.g. `{}`).", majority.describe(), respell(&input.facts[i].words, majority)),
        ));
    }
}

fn respell(words: &[String], to: Convention) -> String {
    let cap = |w: &String| {
        let mut cs = w.chars();
        cs.next()
            .map(|f| f.to_uppercase().chain(cs).collect::<String>())
            .unwrap_or_default()
    };
    match to {
        Convention::Snake => words.join("_"),
        Convention::Kebab => words.join("-"),
        Convention::Dotted => words.join("."),
        Convention::Pascal => words.iter().map(cap).collect(),
        Convention::Camel => words
            .iter()
            .enumerate()
            .map(|(i, w)| if i == 0 { w.clone() } else { cap(w) })
            .collect(),
    }
}

fn synonym_verbs(input: &LintInput<'_>, members: &[usize], out: &mut Vec<Finding>) {
    let tools = input.tools();
    let mut by_group: BTreeMap<usize, BTreeMap<&'static str, Vec<usize>>> = BTreeMap::new();
    for &i in members {
        if let Some((g, verb)) = verb_of(&input.facts[i].words) {
            by_group
                .entry(g)
                .or_default()
                .entry(verb)
                .or_default()
                .push(i);
        }
    }
    for (g, verbs) in by_group.iter().filter(|(_, v)| v.len() > 1) {
        let order = |v: &str| {
            VERB_GROUPS[*g]
                .iter()
                .position(|x| *x == v)
                .unwrap_or(usize::MAX)
        };
        let Some((majority, users)) = verbs.iter().max_by(|x, y| {
            x.1.len()
                .cmp(&y.1.len())
                .then_with(|| order(y.0).cmp(&order(x.0)))
        }) else {
            continue;
        };
        for (verb, indices) in verbs.iter().filter(|(v, _)| *v != majority) {
            for &i in indices {
                let tool = &tools[i];
                out.push(tool_finding(
                    Severity::Info,
                    "naming-synonym-verbs",
                    tool,
                    format!(
                        "`{}` uses `{verb}` where {} other tools use `{majority}` for the same action (e.g. `{}`).",
                        tool.name,
                        users.len(),
                        tools[users[0]].name
                    ),
                    format!("Pick one verb per action: rename to start with `{majority}`, or make the difference explicit in the description."),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conventions_are_classified() {
        assert_eq!(convention("get_user"), Some(Convention::Snake));
        assert_eq!(convention("getUser"), Some(Convention::Camel));
        assert_eq!(convention("GetUser"), Some(Convention::Pascal));
        assert_eq!(convention("get-user"), Some(Convention::Kebab));
        assert_eq!(convention("github.get_user"), Some(Convention::Dotted));
        assert_eq!(convention("search"), None);
    }

    #[test]
    fn respelling_follows_the_target() {
        let words: Vec<String> = ["get", "user", "id"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(respell(&words, Convention::Camel), "getUserId");
        assert_eq!(respell(&words, Convention::Snake), "get_user_id");
        assert_eq!(respell(&words, Convention::Pascal), "GetUserId");
    }
}
