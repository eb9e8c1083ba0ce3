//! `mf cluster` (BEHAVIOR §2.2): groups of tools a model may confuse, from the surface pair
//! scorer ([`crate::analyze::confusable`]) — the same pairs and scores as lint's
//! `confusable-pair` and `mf check`, at every surface size.
//!
//! Tools are linked when the scorer finds them confusable with a score of at least `threshold`
//! (the scorer's candidates only, so time and memory stay linear in the surface; every scored
//! pair is at least [`crate::analyze::confusable::CONFUSABLE`], so a threshold below it links the same pairs). Clusters are
//! the connected components of those links (single linkage) under a size cap, built like
//! Kruskal's algorithm: links are taken strongest first (score, then surface order) and a link
//! that would join two groups into one larger than `max_cluster_size` is skipped. So a chain of
//! weak links never glues two tight groups together, and a cluster is always connected by links
//! it kept. Tools with no kept link are listed in `unclustered` rather than as one-tool
//! clusters: a cluster is something to act on, a lone tool is not. A risky pair also carries the
//! compat similarity ([`crate::analyze::similarity`]: lexical, structural, family) of v1, for
//! reference. Scores in the report are rounded to 4 decimals. The analysis expects a normalized
//! surface ([`crate::surface::normalize::normalize_surface`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::analyze::confusable::{ConfusablePair, Relation, Scorer};
use crate::analyze::similarity::SurfaceSimilarity;
use crate::report::cluster::{
    Basis, Boundary, CLUSTER_REPORT_VERSION, Cluster, ClusterReport, ClusterSummary, Cohesion,
    FamilyHint, MAX_FAMILY_HINTS, MAX_RISKY_PAIRS, RiskyPair, ToolBoundary,
};
use crate::surface::terms;
use crate::surface::{Surface, Tool};

/// How to cluster.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClusterOptions {
    /// Pairs at or above this score are linked (compat default 0.5).
    pub threshold: f64,
    /// No cluster grows beyond this many tools (default 10).
    pub max_cluster_size: usize,
}

impl Default for ClusterOptions {
    fn default() -> ClusterOptions {
        ClusterOptions {
            threshold: 0.5,
            max_cluster_size: 10,
        }
    }
}

/// Words per boundary entry and per label.
const MAX_WORDS: usize = 8;

/// Cluster `surface` (see the module docs).
pub fn cluster(surface: &Surface, options: &ClusterOptions) -> ClusterReport {
    let tools = &surface.tools;
    let scorer = Scorer::new(tools);
    let pairs: Vec<ConfusablePair> = scorer
        .pairs()
        .into_iter()
        .filter(|p| p.score >= options.threshold)
        .collect();
    let groups = capped_components(tools.len(), &pairs, options.max_cluster_size.max(1));
    let terms: Vec<Vec<String>> = tools.iter().map(terms::terms).collect();
    let term_df = document_frequency(&terms);
    let names: Vec<Vec<String>> = tools.iter().map(name_family_tokens).collect();
    let name_df = document_frequency(&names);

    let mut clusters = Vec::new();
    let mut boundaries = Vec::new();
    let mut cluster_of: Vec<Option<usize>> = vec![None; tools.len()];
    for members in groups.iter().filter(|g| g.len() >= 2) {
        let k = clusters.len();
        let id = format!("c{}", k + 1);
        members.iter().for_each(|&m| cluster_of[m] = Some(k));
        clusters.push(Cluster {
            id: id.clone(),
            label: label(members, tools, &names, &name_df, &terms, &term_df),
            tools: members.iter().map(|&m| tools[m].name.clone()).collect(),
            cohesion: cohesion(members, &scorer),
        });
        boundaries.push(boundary(id, members, tools, &terms, &term_df));
    }
    let unclustered: Vec<String> = (0..tools.len())
        .filter(|&i| cluster_of[i].is_none())
        .map(|i| tools[i].name.clone())
        .collect();
    let family_hints = family_hints(tools, &names, &name_df, &cluster_of, &clusters);
    let summary = ClusterSummary {
        tools: tools.len(),
        clusters: clusters.len(),
        unclustered: unclustered.len(),
        risky_pairs: pairs.len(),
    };
    ClusterReport {
        version: CLUSTER_REPORT_VERSION,
        kind: "cluster".to_owned(),
        threshold: options.threshold,
        max_cluster_size: options.max_cluster_size,
        summary,
        clusters,
        unclustered,
        risky_pairs: risky_pairs(tools, pairs),
        family_hints,
        boundaries,
    }
}

/// Suite profiles from a report: one profile per cluster, named `<id>-<label words>` (e.g.
/// `c1-file-read`), listing its tools. For `mf cluster --out`.
pub fn profiles_from_clusters(report: &ClusterReport) -> BTreeMap<String, Vec<String>> {
    report
        .clusters
        .iter()
        .map(|c| {
            let slug: Vec<String> = c
                .label
                .split(|ch: char| !ch.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .map(str::to_lowercase)
                .collect();
            let name = if slug.is_empty() {
                c.id.clone()
            } else {
                format!("{}-{}", c.id, slug.join("-"))
            };
            (name, c.tools.clone())
        })
        .collect()
}

/// Connected components of the links, strongest first, never merging past `cap`. Each
/// component's members are in surface order; components are ordered by their first member.
fn capped_components(n: usize, pairs: &[ConfusablePair], cap: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<&ConfusablePair> = pairs.iter().collect();
    order.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then(x.a.cmp(&y.a))
            .then(x.b.cmp(&y.b))
    });
    let mut parent: Vec<usize> = (0..n).collect();
    let mut size = vec![1usize; n];
    for p in order {
        let (ra, rb) = (root(&mut parent, p.a), root(&mut parent, p.b));
        if ra != rb && size[ra] + size[rb] <= cap {
            let (big, small) = if size[ra] >= size[rb] {
                (ra, rb)
            } else {
                (rb, ra)
            };
            parent[small] = big;
            size[big] += size[small];
        }
    }
    let mut by_root: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        let r = root(&mut parent, i);
        by_root.entry(r).or_default().push(i);
    }
    let mut groups: Vec<Vec<usize>> = by_root.into_values().collect();
    groups.sort_by_key(|g| g.first().copied());
    groups
}

fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn round4(x: f64) -> f64 {
    (x * 10_000.0).round() / 10_000.0
}

/// Name tokens for families: [`terms::name_tokens`], singular, deduplicated, without
/// digits-only and one-letter tokens.
fn name_family_tokens(tool: &Tool) -> Vec<String> {
    let mut out: Vec<String> = terms::name_tokens(&tool.name)
        .iter()
        .filter(|w| w.chars().count() > 1 && !w.chars().all(|c| c.is_numeric()))
        .map(|w| terms::stem(w))
        .collect();
    out.sort();
    out.dedup();
    out
}

fn document_frequency(sets: &[Vec<String>]) -> HashMap<String, usize> {
    let mut df = HashMap::new();
    for set in sets {
        for w in set {
            *df.entry(w.clone()).or_insert(0) += 1;
        }
    }
    df
}

/// Up to two words shared by the most members (name tokens first, then description terms),
/// the rarer on the surface winning ties; the first two names when nothing is shared.
fn label(
    members: &[usize],
    tools: &[Tool],
    names: &[Vec<String>],
    name_df: &HashMap<String, usize>,
    terms: &[Vec<String>],
    term_df: &HashMap<String, usize>,
) -> String {
    for (sets, df) in [(names, name_df), (terms, term_df)] {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for &m in members {
            sets[m]
                .iter()
                .for_each(|w| *count.entry(w.as_str()).or_insert(0) += 1);
        }
        let mut words: Vec<(&str, usize)> = count.into_iter().filter(|w| w.1 >= 2).collect();
        let everywhere =
            |w: &str| tools.len() > members.len() && df.get(w).copied() == Some(tools.len());
        words.retain(|w| !everywhere(w.0));
        words.sort_by(|x, y| {
            y.1.cmp(&x.1)
                .then(df.get(x.0).cmp(&df.get(y.0)))
                .then(x.0.cmp(y.0))
        });
        if !words.is_empty() {
            return words
                .iter()
                .take(2)
                .map(|w| w.0)
                .collect::<Vec<_>>()
                .join(" · ");
        }
    }
    members
        .iter()
        .take(2)
        .map(|&m| tools[m].name.as_str())
        .collect::<Vec<_>>()
        .join(" · ")
}

/// Over every two members, linked or not; a pair the scorer does not find confusable scores 0.
fn cohesion(members: &[usize], scorer: &Scorer) -> Cohesion {
    let scores: Vec<f64> = members
        .iter()
        .enumerate()
        .flat_map(|(i, &a)| members[i + 1..].iter().map(move |&b| (a, b)))
        .map(|(a, b)| scorer.pair(a, b).map_or(0.0, |p| p.score))
        .collect();
    let mean = scores.iter().sum::<f64>() / scores.len().max(1) as f64;
    let min = scores.iter().copied().fold(f64::INFINITY, f64::min);
    Cohesion {
        mean: round4(mean),
        min: round4(if min.is_finite() { min } else { 0.0 }),
    }
}

fn risky_pairs(tools: &[Tool], mut pairs: Vec<ConfusablePair>) -> Vec<RiskyPair> {
    let name = |i: usize| tools[i].name.as_str();
    pairs.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then(name(x.a).cmp(name(y.a)))
            .then(name(x.b).cmp(name(y.b)))
            .then(x.a.cmp(&y.a))
    });
    pairs.truncate(MAX_RISKY_PAIRS);
    // The v1 compat measures, for the listed pairs only.
    let compat = (!pairs.is_empty()).then(|| SurfaceSimilarity::new(tools));
    pairs
        .into_iter()
        .map(|p| {
            let old = compat.as_ref().and_then(|s| s.pair(p.a, p.b));
            let mut shared_terms = p.shared.clone();
            shared_terms.sort();
            RiskyPair {
                a: name(p.a).to_owned(),
                b: name(p.b).to_owned(),
                score: round4(p.score),
                relation: p.relation,
                text: round4(p.text),
                shape: round4(p.shape),
                lexical: round4(old.as_ref().map_or(0.0, |o| o.lexical)),
                structural: round4(old.as_ref().map_or(0.0, |o| o.structural)),
                family: round4(old.as_ref().map_or(0.0, |o| o.family)),
                basis: basis(&p),
                shared_terms,
            }
        })
        .collect()
}

/// `family` when the names decided, else whichever of shape and text matched.
fn basis(p: &ConfusablePair) -> Basis {
    match p.relation {
        Relation::LookAlike if p.shape >= p.text => Basis::Structural,
        Relation::SameInputs => Basis::Structural,
        Relation::SameExample => Basis::Lexical,
        Relation::Covers => Basis::Family,
        Relation::LookAlike => Basis::Lexical,
        _ => Basis::Family,
    }
}

/// Name tokens whose tools are in a cluster and also elsewhere (another cluster or
/// unclustered); a token in every tool is not a family.
fn family_hints(
    tools: &[Tool],
    names: &[Vec<String>],
    name_df: &HashMap<String, usize>,
    cluster_of: &[Option<usize>],
    clusters: &[Cluster],
) -> Vec<FamilyHint> {
    let mut members: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, set) in names.iter().enumerate() {
        set.iter()
            .for_each(|w| members.entry(w.as_str()).or_default().push(i));
    }
    let mut hints: Vec<FamilyHint> = members
        .into_iter()
        .filter(|(w, _)| name_df.get(*w).copied() != Some(tools.len()))
        .filter_map(|(w, ms)| {
            let ks: BTreeSet<usize> = ms.iter().filter_map(|&m| cluster_of[m]).collect();
            let split =
                ks.len() >= 2 || (ks.len() == 1 && ms.iter().any(|&m| cluster_of[m].is_none()));
            split.then(|| FamilyHint {
                token: w.to_owned(),
                tools: ms.iter().map(|&m| tools[m].name.clone()).collect(),
                clusters: ks.into_iter().map(|k| clusters[k].id.clone()).collect(),
            })
        })
        .collect();
    hints.sort_by(|x, y| {
        (y.clusters.len(), y.tools.len())
            .cmp(&(x.clusters.len(), x.tools.len()))
            .then(x.token.cmp(&y.token))
    });
    hints.truncate(MAX_FAMILY_HINTS);
    hints
}

fn boundary(
    id: String,
    members: &[usize],
    tools: &[Tool],
    terms: &[Vec<String>],
    term_df: &HashMap<String, usize>,
) -> Boundary {
    let params: Vec<Vec<&str>> = members
        .iter()
        .map(|&m| tools[m].parameter_names())
        .collect();
    let mut per_tool = Vec::new();
    for (k, &m) in members.iter().enumerate() {
        let others = || members.iter().enumerate().filter(move |(j, _)| *j != k);
        let mut words: Vec<&String> = terms[m]
            .iter()
            .filter(|w| others().all(|(_, &o)| terms[o].binary_search(w).is_err()))
            .collect();
        words.sort_by(|x, y| term_df.get(*x).cmp(&term_df.get(*y)).then(x.cmp(y)));
        let own_params = params[k]
            .iter()
            .filter(|p| others().all(|(j, _)| !params[j].contains(p)));
        per_tool.push(ToolBoundary {
            tool: tools[m].name.clone(),
            distinguishing_words: words.into_iter().take(MAX_WORDS).cloned().collect(),
            distinguishing_params: own_params.map(|p| (*p).to_owned()).collect(),
        });
    }
    let shared_params: Vec<String> = params
        .first()
        .map(|first| {
            first
                .iter()
                .filter(|p| params.iter().all(|ps| ps.contains(p)))
                .map(|p| (*p).to_owned())
                .collect()
        })
        .unwrap_or_default();
    let suggestion = suggestion(&per_tool, &shared_params);
    Boundary {
        cluster: id,
        tools: members.iter().map(|&m| tools[m].name.clone()).collect(),
        per_tool,
        shared_params,
        suggestion,
    }
}

fn suggestion(per_tool: &[ToolBoundary], shared_params: &[String]) -> String {
    let uses: Vec<String> = per_tool
        .iter()
        .map(|t| match t.distinguishing_words.as_slice() {
            [] => format!(
                "{} (nothing sets it apart: merge it or say what it alone does)",
                t.tool
            ),
            ws => format!(
                "{} for {}",
                t.tool,
                ws.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
            ),
        })
        .collect();
    let mut s = format!(
        "Say in each description when to use it instead of the others: {}.",
        uses.join("; ")
    );
    if !shared_params.is_empty() && per_tool.iter().all(|t| t.distinguishing_params.is_empty()) {
        s.push_str(&format!(
            " Their parameters ({}) cannot tell them apart.",
            shared_params.join(", ")
        ));
    }
    s
}
