//! The free surface diff (BEHAVIOR §5): what changed between a base and a head surface, with no
//! model and no key. Tools added, removed, re-described and re-schemed (with token counts and
//! where they are defined), the total token delta, lint findings new in head, and pairs of tools
//! that became confusable.
//!
//! # Rules
//! - **Matching** is by tool name, exactly as served. When a name occurs more than once on a
//!   side (two servers both serving `search`), the k-th occurrence in base is matched with the
//!   k-th in head; extra occurrences are added or removed.
//! - **Re-described**: the descriptions differ after the normalization lint uses
//!   ([`normalize_text`]: NFC, CRLF → LF, trailing whitespace trimmed), so line-ending and
//!   trailing-space noise is not a change. The change keeps both descriptions as served.
//! - **Re-schemed**: the input schemas differ as canonical JSON ([`normalize_value`]: keys
//!   sorted, strings normalized; refs are *not* inlined, so a change inside `$defs` is reported
//!   where it is written). A missing schema reads as `{"type":"object"}`, which is what
//!   providers are sent. The change lists the JSON pointers of the nodes that differ: a key on
//!   one side only, a scalar that changed, or an array that changed (arrays of objects or arrays
//!   of equal length are followed element by element; other arrays, such as `required` or
//!   `enum`, are reported whole).
//! - **Tokens**: [`tool_tokens`] totals (o200k_base) per tool and for the whole surface.
//! - **Findings**: both surfaces are linted with default [`LintOptions`]; a head finding is new
//!   when its identity ([`Finding::baseline_key`]: code + tool/pair/skill + param, as baselines
//!   match) is absent from base. Base findings whose identity head lacks are counted resolved.
//! - **Newly confusable**: pairs the surface pair scorer ([`crate::analyze::confusable`], on
//!   the normalized tools, exactly as lint's `confusable-pair`, cluster and check use it) finds
//!   confusable in head (score at least [`CONFUSABLE_THRESHOLD`]) and did not in base, or that
//!   involve a tool base does not have.
//!
//! Every list is sorted (tools by name then origin; pairs by head score descending, then
//! names; findings in lint order), so the same inputs give byte-identical JSON.

use std::cmp::Ordering;
use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use crate::analyze::confusable::{CONFUSABLE, Scorer};
use crate::analyze::lint::{LintOptions, lint};
use crate::report::compare::{ConfusablePair, SurfaceDiff, TokenDelta, ToolChange};
use crate::report::lint::Finding;
use crate::surface::normalize::{normalize_surface, normalize_text, normalize_value};
use crate::surface::tokens::tool_tokens;
use crate::surface::{Surface, Tool};

/// Pair score at or above which two tools are confusable: the pair scorer's own mark
/// ([`CONFUSABLE`], 0.5), where lint's `confusable-pair` warns.
pub const CONFUSABLE_THRESHOLD: f64 = CONFUSABLE;

/// The surface diff of `base` → `head` (see the module docs for every rule).
pub fn diff(base: &Surface, head: &Surface) -> SurfaceDiff {
    let matching = Matching::new(&base.tools, &head.tools);
    let base_tokens: Vec<u64> = base.tools.iter().map(tokens_of).collect();
    let head_tokens: Vec<u64> = head.tools.iter().map(tokens_of).collect();

    let mut out = SurfaceDiff {
        tokens: TokenDelta {
            before: base_tokens.iter().sum(),
            after: head_tokens.iter().sum(),
            delta: 0,
        },
        ..SurfaceDiff::default()
    };
    out.tokens.delta = signed(out.tokens.after) - signed(out.tokens.before);

    for (h, tool) in head.tools.iter().enumerate() {
        let Some(b) = matching.head_to_base[h] else {
            out.added.push(change(tool, None, Some(head_tokens[h])));
            continue;
        };
        let old = &base.tools[b];
        let before = Some(base_tokens[b]);
        let after = Some(head_tokens[h]);
        if described(old) != described(tool) {
            out.redescribed.push(ToolChange {
                description: Some([old.description.clone(), tool.description.clone()]),
                ..change(tool, before, after)
            });
        }
        let pointers = schema_changes(&canonical_schema(old), &canonical_schema(tool));
        if !pointers.is_empty() {
            out.reschemed.push(ToolChange {
                schema_changes: pointers,
                ..change(tool, before, after)
            });
        }
    }
    for (b, tool) in base.tools.iter().enumerate() {
        if !matching.base_matched[b] {
            out.removed.push(change(tool, Some(base_tokens[b]), None));
        }
    }
    for list in [
        &mut out.added,
        &mut out.removed,
        &mut out.redescribed,
        &mut out.reschemed,
    ] {
        list.sort_by(|x, y| x.name.cmp(&y.name).then_with(|| x.origin.cmp(&y.origin)));
    }

    let (new_findings, resolved) = finding_changes(base, head);
    out.new_findings = new_findings;
    out.resolved_findings = resolved;
    out.newly_confusable = newly_confusable(base, head, &matching);
    out
}

/// Which base tool each head tool is (by name, k-th occurrence with k-th occurrence).
#[derive(Debug)]
struct Matching {
    /// For each head tool, its base counterpart.
    head_to_base: Vec<Option<usize>>,
    /// For each base tool, whether some head tool matched it.
    base_matched: Vec<bool>,
}

impl Matching {
    fn new(base: &[Tool], head: &[Tool]) -> Matching {
        let mut by_name: BTreeMap<&str, std::collections::VecDeque<usize>> = BTreeMap::new();
        for (i, t) in base.iter().enumerate() {
            by_name.entry(t.name.as_str()).or_default().push_back(i);
        }
        let mut base_matched = vec![false; base.len()];
        let head_to_base = head
            .iter()
            .map(|t| {
                let b = by_name.get_mut(t.name.as_str())?.pop_front()?;
                base_matched[b] = true;
                Some(b)
            })
            .collect();
        Matching {
            head_to_base,
            base_matched,
        }
    }
}

fn tokens_of(tool: &Tool) -> u64 {
    u64::try_from(tool_tokens(tool).total).unwrap_or(u64::MAX)
}

fn signed(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A change entry for `tool` with its counts and origin, nothing else set.
fn change(tool: &Tool, before: Option<u64>, after: Option<u64>) -> ToolChange {
    ToolChange {
        name: tool.name.clone(),
        tokens_before: before,
        tokens_after: after,
        origin: Some(tool.origin.display()),
        description: None,
        schema_changes: Vec::new(),
    }
}

/// The description as lint reads it; a missing and an empty description are the same.
fn described(tool: &Tool) -> String {
    tool.description
        .as_deref()
        .map(normalize_text)
        .unwrap_or_default()
}

/// The input schema as canonical JSON; a missing one is what providers are sent instead.
fn canonical_schema(tool: &Tool) -> Value {
    match &tool.input_schema {
        Some(s) => normalize_value(s),
        None => serde_json::json!({"type": "object"}),
    }
}

/// JSON pointers of the nodes where two canonical schemas differ, sorted.
pub fn schema_changes(base: &Value, head: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut pointer = String::new();
    walk_changes(base, head, &mut pointer, &mut out);
    out.sort();
    out.dedup();
    out
}

fn walk_changes(base: &Value, head: &Value, pointer: &mut String, out: &mut Vec<String>) {
    if base == head {
        return;
    }
    match (base, head) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for key in keys {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                match (a.get(key), b.get(key)) {
                    (Some(x), Some(y)) => walk_changes(x, y, pointer, out),
                    _ => out.push(pointer.clone()),
                }
                pointer.truncate(len);
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() && a.iter().any(is_container) => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&i.to_string());
                walk_changes(x, y, pointer, out);
                pointer.truncate(len);
            }
        }
        _ => out.push(pointer.clone()),
    }
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Object(_) | Value::Array(_))
}

/// Head findings whose identity base lacks (in lint order), and how many base findings head
/// no longer has.
fn finding_changes(base: &Surface, head: &Surface) -> (Vec<Finding>, u64) {
    let options = LintOptions::default();
    let before = lint(base, &options);
    let after = lint(head, &options);
    let before_keys: HashSet<String> = before.iter().map(Finding::baseline_key).collect();
    let after_keys: HashSet<String> = after.iter().map(Finding::baseline_key).collect();
    let resolved = before
        .iter()
        .filter(|f| !after_keys.contains(&f.baseline_key()))
        .count();
    let new = after
        .into_iter()
        .filter(|f| !before_keys.contains(&f.baseline_key()))
        .collect();
    (new, u64::try_from(resolved).unwrap_or(u64::MAX))
}

/// Head pairs at or above [`CONFUSABLE_THRESHOLD`] that base did not have there.
fn newly_confusable(base: &Surface, head: &Surface, matching: &Matching) -> Vec<ConfusablePair> {
    let head_tools = normalize_surface(head).surface.tools;
    let pairs: Vec<_> = Scorer::new(&head_tools)
        .pairs()
        .into_iter()
        .filter(|p| p.score >= CONFUSABLE_THRESHOLD)
        .collect();
    if pairs.is_empty() {
        return Vec::new();
    }
    let base_scorer = Scorer::new(&normalize_surface(base).surface.tools);
    let mut out = Vec::new();
    for p in pairs {
        let before = match (matching.head_to_base[p.a], matching.head_to_base[p.b]) {
            // Not confusable at base: 0 (the scorer gives no score below its mark).
            (Some(a), Some(b)) => Some(base_scorer.pair(a, b).map_or(0.0, |s| s.score)),
            _ => None,
        };
        if before.is_some_and(|s| s >= CONFUSABLE_THRESHOLD) {
            continue;
        }
        let (x, y) = (&head.tools[p.a].name, &head.tools[p.b].name);
        let (a, b) = if x <= y { (x, y) } else { (y, x) };
        out.push(ConfusablePair {
            a: a.clone(),
            b: b.clone(),
            score: p.score,
            before,
        });
    }
    out.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then_with(|| x.a.cmp(&y.a))
            .then_with(|| x.b.cmp(&y.b))
            .then_with(|| cmp_opt(x.before, y.before))
    });
    out
}

fn cmp_opt(x: Option<f64>, y: Option<f64>) -> Ordering {
    match (x, y) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::surface::{Confidence, Origin, SourceFormat};

    fn tool(name: &str, description: &str, line: u32) -> Tool {
        let mut t = Tool::named(
            name,
            Origin::at(SourceFormat::McpToolsList, "tools.json", line, 5),
            Confidence::High,
        );
        t.description = Some(description.to_owned());
        t.input_schema = Some(json!({
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Where to look."}},
            "required": ["path"]
        }));
        t
    }

    fn surface(tools: Vec<Tool>) -> Surface {
        Surface {
            tools,
            skills: vec![],
            unread: Vec::new(),
        }
    }

    fn sample() -> Surface {
        surface(vec![
            tool(
                "read_file",
                "Read the complete contents of a file from disk and return it as text.",
                3,
            ),
            tool(
                "list_directory",
                "List the entries of a directory with a [FILE] or [DIR] prefix each.",
                20,
            ),
            tool(
                "get_weather",
                "Current weather conditions for a city, in metric units.",
                40,
            ),
        ])
    }

    fn json(d: &SurfaceDiff) -> String {
        serde_json::to_string(d).expect("serialize")
    }

    #[test]
    fn identical_surfaces_have_an_empty_diff() {
        let s = sample();
        let d = diff(&s, &s);
        let total: u64 = s.tools.iter().map(tokens_of).sum();
        assert_eq!(
            d,
            SurfaceDiff {
                tokens: TokenDelta {
                    before: total,
                    after: total,
                    delta: 0
                },
                ..SurfaceDiff::default()
            }
        );
    }

    #[test]
    fn added_and_removed_are_listed_by_name_with_counts_and_origin() {
        let base = sample();
        let mut head = sample();
        let removed = head.tools.remove(1);
        head.tools.push(tool(
            "convert_currency",
            "Convert an amount between two currencies at today's rate.",
            60,
        ));
        head.tools.push(tool(
            "beta_search",
            "Search the product catalogue by keyword and return matching items.",
            80,
        ));
        let d = diff(&base, &head);
        let added: Vec<&str> = d.added.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(added, ["beta_search", "convert_currency"]);
        assert_eq!(d.added[0].origin.as_deref(), Some("tools.json:80"));
        assert_eq!(d.added[0].tokens_before, None);
        assert_eq!(d.added[0].tokens_after, Some(tokens_of(&head.tools[3])));
        assert_eq!(d.removed.len(), 1);
        assert_eq!(d.removed[0].name, "list_directory");
        assert_eq!(d.removed[0].origin.as_deref(), Some("tools.json:20"));
        assert_eq!(d.removed[0].tokens_before, Some(tokens_of(&removed)));
        assert_eq!(d.removed[0].tokens_after, None);
        assert!(d.redescribed.is_empty() && d.reschemed.is_empty());
        let expected = tokens_of(&head.tools[2]) as i64 + tokens_of(&head.tools[3]) as i64
            - tokens_of(&removed) as i64;
        assert_eq!(d.tokens.delta, expected);
        assert_eq!(
            d.tokens.delta,
            d.tokens.after as i64 - d.tokens.before as i64
        );
    }

    #[test]
    fn line_ending_and_trailing_space_noise_is_not_a_change() {
        let base = sample();
        let mut head = sample();
        head.tools[0].description = Some(
            "Read the complete contents of a file from disk and return it as text.  \r\n"
                .to_owned(),
        );
        // Key order and CRLF inside the schema are not changes either.
        head.tools[1].input_schema = Some(json!({
            "required": ["path"],
            "properties": {"path": {"description": "Where to look.\r\n", "type": "string"}},
            "type": "object"
        }));
        let d = diff(&base, &head);
        assert!(d.redescribed.is_empty(), "{:?}", d.redescribed);
        assert!(d.reschemed.is_empty(), "{:?}", d.reschemed);
    }

    #[test]
    fn redescribed_keeps_both_descriptions_as_served() {
        let base = sample();
        let mut head = sample();
        let new = "Current weather and a three-day forecast for a city, in metric units.";
        head.tools[2].description = Some(new.to_owned());
        let d = diff(&base, &head);
        assert_eq!(d.redescribed.len(), 1);
        let c = &d.redescribed[0];
        assert_eq!(c.name, "get_weather");
        assert_eq!(
            c.description,
            Some([base.tools[2].description.clone(), Some(new.to_owned())])
        );
        assert_eq!(c.tokens_before, Some(tokens_of(&base.tools[2])));
        assert_eq!(c.tokens_after, Some(tokens_of(&head.tools[2])));
        assert_eq!(c.origin.as_deref(), Some("tools.json:40"));
        assert!(c.schema_changes.is_empty());
        assert_eq!(
            d.tokens.delta,
            tokens_of(&head.tools[2]) as i64 - tokens_of(&base.tools[2]) as i64
        );
    }

    #[test]
    fn a_description_added_or_dropped_is_a_change() {
        let base = sample();
        let mut head = sample();
        head.tools[0].description = None;
        let d = diff(&base, &head);
        assert_eq!(d.redescribed.len(), 1);
        assert_eq!(
            d.redescribed[0].description,
            Some([base.tools[0].description.clone(), None])
        );
    }

    #[test]
    fn reschemed_lists_the_pointers_that_differ() {
        let base = sample();
        let mut head = sample();
        head.tools[0].input_schema = Some(json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "Absolute path of the file."},
                "head": {"type": "number"}
            },
            "required": ["path", "head"]
        }));
        let d = diff(&base, &head);
        assert!(d.redescribed.is_empty());
        assert_eq!(d.reschemed.len(), 1);
        assert_eq!(d.reschemed[0].name, "read_file");
        assert_eq!(
            d.reschemed[0].schema_changes,
            [
                "/properties/head",
                "/properties/path/description",
                "/required"
            ]
        );
        assert_eq!(d.reschemed[0].description, None);
    }

    #[test]
    fn pointers_follow_arrays_of_schemas_and_escape_keys() {
        let a = json!({"anyOf": [{"type": "string"}, {"type": "number"}], "properties": {"a/b~c": {"type": "string"}}});
        let b = json!({"anyOf": [{"type": "string"}, {"type": "integer"}], "properties": {"a/b~c": {"type": "number"}}});
        assert_eq!(
            schema_changes(&a, &b),
            ["/anyOf/1/type", "/properties/a~1b~0c/type"]
        );
        // Arrays of different length are reported whole.
        let c = json!({"anyOf": [{"type": "string"}]});
        assert_eq!(schema_changes(&a, &c), ["/anyOf", "/properties"]);
        // A type change of the root is the root.
        assert_eq!(schema_changes(&json!({}), &json!([])), [""]);
    }

    #[test]
    fn a_missing_schema_reads_as_an_empty_object_schema() {
        let mut base = sample();
        base.tools[0].input_schema = None;
        let mut head = base.clone();
        head.tools[0].input_schema = Some(json!({"type": "object"}));
        assert!(diff(&base, &head).reschemed.is_empty());
        head.tools[0].input_schema = Some(json!({"type": "object", "properties": {}}));
        assert_eq!(
            diff(&base, &head).reschemed[0].schema_changes,
            ["/properties"]
        );
    }

    #[test]
    fn a_tool_can_be_both_redescribed_and_reschemed() {
        let base = sample();
        let mut head = sample();
        head.tools[1].description =
            Some("List every entry of a directory, each prefixed [FILE] or [DIR].".into());
        head.tools[1].input_schema = Some(json!({"type": "object"}));
        let d = diff(&base, &head);
        assert_eq!(d.redescribed.len(), 1);
        assert_eq!(d.reschemed.len(), 1);
        assert_eq!(d.reschemed[0].schema_changes, ["/properties", "/required"]);
    }

    #[test]
    fn findings_new_in_head_by_identity_and_resolved_counted() {
        let mut base = sample();
        base.tools[2].description = Some("Weather.".into()); // description-too-short in base
        let mut head = sample();
        head.tools[0].description = Some("Reads.".into()); // description-too-short in head
        let d = diff(&base, &head);
        let new: Vec<String> = d.new_findings.iter().map(Finding::baseline_key).collect();
        assert_eq!(new, ["description-too-short|read_file|"]);
        assert_eq!(d.resolved_findings, 1);
        // Rewording the finding's subject text (message changes, identity does not) is not new.
        let mut head2 = base.clone();
        head2.tools[2].description = Some("Weather!!".into());
        let d2 = diff(&base, &head2);
        assert!(d2.new_findings.is_empty(), "{:?}", d2.new_findings);
        assert_eq!(d2.resolved_findings, 0);
    }

    #[test]
    fn a_new_near_duplicate_is_newly_confusable_without_a_base_score() {
        let base = sample();
        let mut head = sample();
        head.tools.push(tool(
            "read_text_file",
            "Read the complete contents of a text file from disk and return it as text.",
            90,
        ));
        let d = diff(&base, &head);
        assert_eq!(d.newly_confusable.len(), 1, "{:?}", d.newly_confusable);
        let p = &d.newly_confusable[0];
        assert_eq!(
            (p.a.as_str(), p.b.as_str()),
            ("read_file", "read_text_file")
        );
        assert!(p.score >= CONFUSABLE_THRESHOLD);
        assert_eq!(p.before, None);
        // Already confusable in base: not new.
        assert!(diff(&head, &head).newly_confusable.is_empty());
    }

    #[test]
    fn an_existing_pair_that_became_confusable_has_both_scores() {
        // Base states the boundary (a description names the other tool, so the pair is not
        // confusable); head deletes that sentence.
        let mut base = sample();
        base.tools.push(tool(
            "get_forecast",
            "Today's forecast for a city. For the next ten days use fetch_forecast.",
            60,
        ));
        base.tools.push(tool(
            "fetch_forecast",
            "The forecast for a city over the next ten days.",
            70,
        ));
        let mut head = base.clone();
        head.tools[3].description = Some("Today's forecast for a city.".into());
        let d = diff(&base, &head);
        let p = d
            .newly_confusable
            .iter()
            .find(|p| p.a == "fetch_forecast" && p.b == "get_forecast")
            .expect("pair");
        assert_eq!(
            p.before,
            Some(0.0),
            "both tools exist in base, not confusable"
        );
        assert!(p.score >= CONFUSABLE_THRESHOLD, "{}", p.score);
        // The same pair with the boundary kept is not new.
        assert!(diff(&base, &base).newly_confusable.is_empty());
    }

    #[test]
    fn duplicate_names_match_in_order() {
        let base = surface(vec![
            tool("search", "Search the wiki pages by keyword and title.", 1),
            tool(
                "search",
                "Search the issue tracker by keyword and label.",
                10,
            ),
        ]);
        let mut head = base.clone();
        head.tools[1].description = Some("Search the issue tracker by label only.".into());
        head.tools.push(tool(
            "search",
            "Search the chat history by keyword and person.",
            20,
        ));
        let d = diff(&base, &head);
        assert_eq!(d.redescribed.len(), 1);
        assert_eq!(d.redescribed[0].origin.as_deref(), Some("tools.json:10"));
        assert_eq!(d.added.len(), 1);
        assert_eq!(d.added[0].origin.as_deref(), Some("tools.json:20"));
        assert!(d.removed.is_empty());
    }

    #[test]
    fn output_is_byte_identical_whatever_the_tool_order() {
        let base = sample();
        let mut head = sample();
        head.tools.remove(0);
        head.tools.push(tool(
            "zeta", "Short.", // a new finding
            100,
        ));
        head.tools.push(tool(
            "alpha_read_file",
            "Read the complete contents of a file from disk and return it as text!",
            110,
        ));
        head.tools[0].description = Some("List entries.".into());
        let first = json(&diff(&base, &head));
        assert_eq!(first, json(&diff(&base, &head)));
        let mut shuffled = head.clone();
        shuffled.tools.reverse();
        let mut base_shuffled = base.clone();
        base_shuffled.tools.rotate_left(1);
        assert_eq!(first, json(&diff(&base_shuffled, &shuffled)));
    }
}
