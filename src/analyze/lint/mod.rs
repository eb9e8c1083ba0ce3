//! `mf lint`: rule families over a surface (BEHAVIOR §2.1). Each family is a file with a
//! `check(&LintInput, &mut Vec<Finding>)`; the rule registry ([`rules`]) documents every code.
//!
//! [`lint`] normalizes the surface once, computes the confusable pairs once (through the
//! surface pair scorer, [`crate::analyze::confusable`], never an all-pairs loop here) and the
//! per-tool data every family reads ([`ToolFacts`]), runs the families and sorts the findings:
//! severity (errors first), code, subject (tool, pair or skill), parameter, message — except
//! `confusable-pair` findings, which keep the scorer's order (strongest first).

mod annotations;
mod budget;
mod descriptions;
mod headers;
mod injection;
mod naming;
mod overlap;
mod params;
mod profiles;
pub mod report;
pub mod rules;
mod schema;
mod surface;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::analyze::confusable::{ConfusablePair, confusable_pairs};
use crate::report::lint::{Finding, Severity, Subject};
use crate::surface::normalize::{Normalized, normalize_surface};
use crate::surface::{Skill, Surface, Tool};

/// Lexical score at or above which a pair is reported as a warning (compat).
pub const OVERLAP_WARN: f64 = 0.6;
/// Lexical score at or above which a pair is reported as info (compat).
pub const OVERLAP_INFO: f64 = 0.4;

/// What the rules may be configured with. Built once from flags or the suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintOptions {
    /// Warn when the surface has more tools than this (default 20: providers document choice
    /// accuracy dropping past about 20 functions).
    pub max_tools: usize,
    /// Error when the whole surface counts more tokens than this.
    pub max_context_tokens: Option<usize>,
    /// Warn when one tool counts more tokens than this.
    pub max_tool_tokens: Option<usize>,
    /// Descriptions shorter than this many characters are "too short" (compat default 20).
    pub min_description_chars: usize,
    /// Mount groups: profile name → tool names (suite `profiles`).
    pub profiles: BTreeMap<String, Vec<String>>,
}

impl Default for LintOptions {
    fn default() -> Self {
        LintOptions {
            max_tools: 20,
            max_context_tokens: None,
            max_tool_tokens: None,
            min_description_chars: 20,
            profiles: BTreeMap::new(),
        }
    }
}

/// Per-tool data computed once and shared by the families.
#[derive(Debug, Clone)]
pub struct ToolFacts {
    /// Name words, lower-cased (`getUserById` → `get`, `user`, `by`, `id`).
    pub words: Vec<String>,
    /// The normalized description, lower-cased, whitespace collapsed; empty when missing.
    pub description: String,
}

/// Everything a family reads. Built once per run by [`lint`].
#[derive(Debug)]
pub struct LintInput<'a> {
    /// The surface as served (wire form, refs intact).
    pub raw: &'a Surface,
    /// The normalized copy (same order as `raw.tools`) and the refs left in place.
    pub normalized: &'a Normalized,
    /// Options.
    pub options: &'a LintOptions,
    /// The confusable pairs of `raw.tools` indices, strongest first.
    pub pairs: &'a [ConfusablePair],
    /// One entry per tool, same order as `raw.tools`.
    pub facts: &'a [ToolFacts],
}

impl LintInput<'_> {
    /// The normalized tools, same order as `raw.tools`.
    pub fn tools(&self) -> &[Tool] {
        &self.normalized.surface.tools
    }

    /// The normalized skills, same order as `raw.skills`.
    pub fn skills(&self) -> &[Skill] {
        &self.normalized.surface.skills
    }
}

/// Whether `finding` fails a run gated at `fail_on` (`--fail-on`): its severity is at or above
/// it. `None` fails nothing.
pub fn fails(finding: &Finding, fail_on: Option<Severity>) -> bool {
    fail_on.is_some_and(|s| finding.severity >= s)
}

/// Lint a surface: every family, findings sorted (see the module docs).
pub fn lint(surface: &Surface, options: &LintOptions) -> Vec<Finding> {
    // The budget and schema rules count tokens; the tokenizer unpacks meanwhile.
    crate::surface::o200k::prefetch();
    let normalized = normalize_surface(surface);
    let tools = &normalized.surface.tools;
    let pairs = confusable_pairs(tools);
    let facts: Vec<ToolFacts> = normalized.surface.tools.iter().map(tool_facts).collect();
    let input = LintInput {
        raw: surface,
        normalized: &normalized,
        options,
        pairs: &pairs,
        facts: &facts,
    };
    let mut out = Vec::new();
    surface::check(&input, &mut out);
    schema::check(&input, &mut out);
    descriptions::check(&input, &mut out);
    injection::check(&input, &mut out);
    overlap::check(&input, &mut out);
    params::check(&input, &mut out);
    naming::check(&input, &mut out);
    annotations::check(&input, &mut out);
    headers::check(&input, &mut out);
    budget::check(&input, &mut out);
    profiles::check(&input, &mut out);
    debug_assert!(
        out.iter().all(|f| rules::find(&f.code).is_some()),
        "a finding code is missing from rules::RULES"
    );
    sort_findings(&mut out);
    out
}

/// Keep the findings `select` names (all when empty) and drop those `ignore` names; each entry
/// is a rule code (aliases resolve to their current code) or a family.
pub fn select(findings: Vec<Finding>, select: &[String], ignore: &[String]) -> Vec<Finding> {
    let hits = |names: &[String], f: &Finding| {
        let family = rules::find(&f.code).map(|r| r.family);
        names.iter().any(|n| {
            let n = n.trim();
            rules::canonical(n) == f.code || family == Some(n)
        })
    };
    findings
        .into_iter()
        .filter(|f| (select.is_empty() || hits(select, f)) && !hits(ignore, f))
        .collect()
}

/// Sort findings by what to fix first: severity (errors first), then `confusable-pair` before
/// other codes, code, subject, param, message; `confusable-pair` findings keep their given
/// order (the scorer's, strongest first: the sort is stable).
pub fn sort_findings(findings: &mut [Finding]) {
    findings.sort_by(|x, y| {
        let ranked = x.code == overlap::PAIR_CODE && y.code == overlap::PAIR_CODE;
        y.severity
            .cmp(&x.severity)
            .then_with(|| (x.code != overlap::PAIR_CODE).cmp(&(y.code != overlap::PAIR_CODE)))
            .then_with(|| x.code.cmp(&y.code))
            .then_with(|| {
                if ranked {
                    std::cmp::Ordering::Equal
                } else {
                    subject_key(x)
                        .cmp(&subject_key(y))
                        .then_with(|| x.param.cmp(&y.param))
                        .then_with(|| x.message.cmp(&y.message))
                        .then_with(|| x.line.cmp(&y.line))
                }
            })
    });
}

fn subject_key(f: &Finding) -> (u8, &str, &str) {
    match (&f.pair, &f.tool, &f.skill) {
        (Some([a, b]), _, _) => (1, a.as_str(), b.as_str()),
        (None, Some(t), _) => (1, t.as_str(), ""),
        (None, None, Some(s)) => (2, s.as_str(), ""),
        _ => (0, "", ""),
    }
}

fn tool_facts(tool: &Tool) -> ToolFacts {
    ToolFacts {
        words: name_words(&tool.name),
        description: collapse(tool.description.as_deref().unwrap_or("")),
    }
}

/// Lower-case and collapse runs of whitespace to one space.
pub fn collapse(text: &str) -> String {
    // One pass, one output buffer: no list of the words (a 15 MiB description has millions).
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// Split a tool name into lower-case words at `_`, `-`, `.`, `/`, spaces and camelCase humps.
pub fn name_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            continue;
        }
        let prev = if i > 0 {
            chars.get(i - 1).copied()
        } else {
            None
        };
        let next = chars.get(i + 1).copied();
        let hump = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if hump && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// How deep nested parameters are followed (`a.b.c…`).
pub const MAX_PARAM_DEPTH: usize = 8;

/// Visit every parameter of an input schema in declared order, nested object properties as
/// dotted paths and array items as `name[]`, down to [`MAX_PARAM_DEPTH`]. `visit` gets the
/// path and the property schema and returns whether to look inside it.
pub fn visit_params<'v>(schema: &'v Value, visit: &mut impl FnMut(&str, &'v Value) -> bool) {
    fn walk<'v>(
        schema: &'v Value,
        prefix: &str,
        depth: usize,
        visit: &mut impl FnMut(&str, &'v Value) -> bool,
    ) {
        if depth > MAX_PARAM_DEPTH {
            return;
        }
        let Some(props) = schema.get("properties").and_then(Value::as_object) else {
            return;
        };
        for (name, prop) in props {
            let path = if prefix.is_empty() {
                name.clone()
            } else {
                format!("{prefix}.{name}")
            };
            if !visit(&path, prop) {
                continue;
            }
            walk(prop, &path, depth + 1, visit);
            if let Some(items) = prop.get("items") {
                walk(items, &format!("{path}[]"), depth + 1, visit);
            }
        }
    }
    walk(schema, "", 0, visit);
}

/// A finding about one tool, located at its origin.
pub fn tool_finding(
    severity: Severity,
    code: &str,
    tool: &Tool,
    message: String,
    suggestion: String,
) -> Finding {
    Finding {
        severity,
        code: code.to_owned(),
        kind: Subject::Tool,
        tool: Some(tool.name.clone()),
        skill: None,
        param: None,
        pair: None,
        message,
        suggestion,
        file: tool.origin.file.clone(),
        line: tool.origin.line,
    }
}

/// A finding about a pair of tools: names sorted, located at the first tool's origin.
pub fn pair_finding(
    severity: Severity,
    code: &str,
    a: &Tool,
    b: &Tool,
    message: String,
    suggestion: String,
) -> Finding {
    let (first, second) = if a.name <= b.name { (a, b) } else { (b, a) };
    Finding {
        pair: Some([first.name.clone(), second.name.clone()]),
        ..tool_finding(severity, code, first, message, suggestion)
    }
}

/// A finding about one skill.
pub fn skill_finding(
    severity: Severity,
    code: &str,
    skill: &Skill,
    message: String,
    suggestion: String,
) -> Finding {
    Finding {
        severity,
        code: code.to_owned(),
        kind: Subject::Skill,
        tool: None,
        skill: Some(skill.name.clone()),
        param: None,
        pair: None,
        message,
        suggestion,
        file: skill.origin.file.clone(),
        line: skill.origin.line,
    }
}

/// A finding about the surface as a whole.
pub fn surface_finding(
    severity: Severity,
    code: &str,
    message: String,
    suggestion: String,
) -> Finding {
    Finding {
        severity,
        code: code.to_owned(),
        kind: Subject::Surface,
        tool: None,
        skill: None,
        param: None,
        pair: None,
        message,
        suggestion,
        file: None,
        line: None,
    }
}

/// Attach a parameter path to a finding.
pub fn with_param(mut finding: Finding, param: &str) -> Finding {
    finding.param = Some(param.to_owned());
    finding
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_words_split_every_convention() {
        assert_eq!(name_words("getUserById"), ["get", "user", "by", "id"]);
        assert_eq!(name_words("get_user-by.id"), ["get", "user", "by", "id"]);
        assert_eq!(name_words("HTTPRequest2Json"), ["http", "request2", "json"]);
        assert_eq!(name_words("tool1"), ["tool1"]);
    }
}
