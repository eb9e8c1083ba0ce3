//! The indexed [`similar_pairs`] must return exactly what scoring every pair returns, for every
//! threshold: checked on generated surfaces with realistic vocabularies (server prefixes, verb ×
//! noun names in mixed conventions, templated descriptions, shared parameter pools, deliberate
//! near-duplicates) and on the real MCP servers' tool lists.

use mf::analyze::similarity::{
    PairSimilarity, similar_pairs, similar_pairs_exhaustive, similar_pairs_top,
};
use mf::surface::{Confidence, Origin, Tool};
use serde_json::{Map, Value, json};

use crate::support::rng::Rng;
use crate::support::server_tools;

const VERBS: &[&str] = &[
    "get", "list", "create", "update", "delete", "read", "write", "search", "find", "move", "copy",
];
const NOUNS: &[&str] = &[
    "file",
    "files",
    "directory",
    "issue",
    "pull_request",
    "comment",
    "user",
    "repo",
    "branch",
    "entity",
];
const QUALS: &[&str] = &[
    "",
    "",
    "",
    "text",
    "info",
    "by_id",
    "multiple",
    "with_sizes",
    "v2",
    "all",
];
const WORDS: &[&str] = &[
    "the",
    "a",
    "of",
    "contents",
    "complete",
    "returns",
    "detailed",
    "metadata",
    "from",
    "system",
    "recursively",
    "use",
    "this",
    "when",
    "you",
    "need",
    "to",
    "single",
    "multiple",
    "efficient",
    "json",
    "path",
    "error",
    "new",
];
const PARAMS: &[(&str, &str)] = &[
    ("path", "string"),
    ("paths", "array"),
    ("id", "string"),
    ("owner", "string"),
    ("repo", "string"),
    ("head", "integer"),
    ("tail", "number"),
    ("dryRun", "boolean"),
    ("query", "string"),
    ("page", "integer"),
    ("perPage", "integer"),
    ("content", "string"),
];

fn generated_tool(rng: &mut Rng, prefix: &str) -> Tool {
    let (verb, noun, qual) = (rng.pick(VERBS), rng.pick(NOUNS), rng.pick(QUALS));
    let parts: Vec<&str> = [prefix, verb, noun, qual]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect();
    let name = match rng.below(4) {
        0 => parts.join("-"),
        1 => parts.join("."),
        2 => parts
            .iter()
            .enumerate()
            .map(|(i, p)| if i == 0 { p.to_string() } else { capitalize(p) })
            .collect(),
        _ => parts.join("_"),
    };
    let mut description = format!(
        "{} {} {}",
        capitalize(verb),
        rng.pick(WORDS),
        noun.replace('_', " ")
    );
    for _ in 0..rng.below(14) {
        description.push(' ');
        description.push_str(rng.pick(WORDS));
    }
    let mut props = Map::new();
    let mut required = Vec::new();
    for _ in 0..rng.below(4) {
        let (p, ty) = PARAMS[rng.below(PARAMS.len())];
        props.insert(p.to_owned(), json!({"type": ty}));
        if rng.chance(50) {
            required.push(Value::String(p.to_owned()));
        }
    }
    let mut t = Tool::named(&name, Origin::default(), Confidence::High);
    t.description = (!rng.chance(5)).then_some(description);
    t.input_schema = Some(json!({"type": "object", "properties": props, "required": required}));
    t
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// A surface of `n` tools; about a fifth are near-duplicates of an earlier tool (a word of the
/// description changed, or the name re-styled).
fn generated_surface(seed: u64, n: usize) -> Vec<Tool> {
    let mut rng = Rng(seed);
    let prefix = if rng.chance(40) { "srv" } else { "" };
    let mut tools: Vec<Tool> = Vec::with_capacity(n);
    while tools.len() < n {
        if !tools.is_empty() && rng.chance(20) {
            let mut t = tools[rng.below(tools.len())].clone();
            t.name = format!("{}_{}", t.name, rng.pick(QUALS));
            if let Some(d) = &mut t.description {
                d.push(' ');
                d.push_str(rng.pick(WORDS));
            }
            tools.push(t);
        } else {
            tools.push(generated_tool(&mut rng, prefix));
        }
    }
    tools
}

/// Compare at every threshold; the exhaustive scan runs once (at the lowest threshold) and is
/// filtered, which is exactly what it would return at each higher one.
fn assert_equivalent_at(tools: &[Tool], thresholds: &[f64], what: &str) {
    let lowest = thresholds.iter().copied().fold(f64::INFINITY, f64::min);
    let all = similar_pairs_exhaustive(tools, lowest);
    for &t in thresholds {
        let exhaustive: Vec<_> = all.iter().filter(|p| p.score >= t).cloned().collect();
        assert_same(similar_pairs(tools, t), exhaustive.clone(), t, what);
        // The bounded variant keeps the strongest k (score desc, then a, b) and counts all.
        for k in if t == 0.4 || t == 0.6 {
            &[0usize, 1, 7][..]
        } else {
            &[]
        } {
            let k = *k;
            let mut strongest = exhaustive.clone();
            strongest.sort_by(|x, y| {
                y.score
                    .total_cmp(&x.score)
                    .then((x.a, x.b).cmp(&(y.a, y.b)))
            });
            strongest.truncate(k);
            strongest.sort_by_key(|p| (p.a, p.b));
            let top = similar_pairs_top(tools, t, k);
            assert_eq!(top.total, exhaustive.len(), "{what} at {t}: total");
            assert_same(top.pairs, strongest, t, &format!("{what}, top {k}"));
        }
    }
    assert_eq!(
        all,
        similar_pairs_exhaustive(tools, lowest),
        "exhaustive scan is not deterministic"
    );
}

fn assert_same(
    indexed: Vec<PairSimilarity>,
    exhaustive: Vec<PairSimilarity>,
    threshold: f64,
    what: &str,
) {
    if indexed != exhaustive {
        let missing: Vec<_> = exhaustive
            .iter()
            .filter(|p| !indexed.contains(p))
            .take(3)
            .collect();
        let extra: Vec<_> = indexed
            .iter()
            .filter(|p| !exhaustive.contains(p))
            .take(3)
            .collect();
        panic!(
            "{what} at {threshold}: indexed {} pairs, exhaustive {}; missing {missing:?}; extra {extra:?}",
            indexed.len(),
            exhaustive.len()
        );
    }
}

const THRESHOLDS: &[f64] = &[0.05, 0.2, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.75, 0.9, 1.0];

#[test]
fn indexed_equals_exhaustive_on_generated_surfaces() {
    let mut nonempty = 0;
    for seed in 0..36u64 {
        let n = 2 + (seed as usize * 37) % 110;
        let tools = generated_surface(seed, n);
        assert_equivalent_at(&tools, THRESHOLDS, &format!("seed {seed}, {n} tools"));
        nonempty += usize::from(!similar_pairs(&tools, 0.5).is_empty());
    }
    // The generator must produce pairs above the compat thresholds, or the test proves nothing.
    assert!(nonempty > 24, "only {nonempty} surfaces had a pair at 0.5");
}

#[test]
fn indexed_equals_exhaustive_on_edge_cases() {
    let named = |n: &str| Tool::named(n, Origin::default(), Confidence::High);
    let cases: Vec<Vec<Tool>> = vec![
        vec![],
        vec![named("a")],
        vec![named(""), named(""), named("x")],
        vec![named("same"), named("same"), named("same")],
        vec![named("ab"), named("abc"), named("abcd"), named("b")],
    ];
    for tools in &cases {
        for &t in THRESHOLDS.iter().chain(&[0.0, -1.0, 1.5]) {
            assert_same(
                similar_pairs(tools, t),
                similar_pairs_exhaustive(tools, t),
                t,
                "edge case",
            );
        }
    }
}

#[test]
fn indexed_equals_exhaustive_on_real_servers() {
    let mut all = Vec::new();
    for server in ["filesystem", "memory", "everything"] {
        let tools = server_tools(server);
        assert_equivalent_at(&tools, THRESHOLDS, server);
        all.extend(tools);
    }
    assert_equivalent_at(&all, THRESHOLDS, "all three servers");
}
