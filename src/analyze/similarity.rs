//! Pair similarity between tools: lexical (character-trigram Sørensen–Dice over name tokens +
//! description, compat), structural (parameter names, types, required sets) and family (shared
//! distinctive name tokens, weighted by document frequency). The pair score is the strongest of
//! the three, with the basis recorded.
//!
//! # Formulas
//! - **Lexical** (compat): [`lexical_text`] is the name's tokens ([`name_tokens`]) joined by
//!   spaces, a space, then the description; lower-cased, every whitespace run collapsed to one
//!   space, trimmed, then padded with **one space on each side**. Its character trigrams (over
//!   Unicode scalar values) form a set; `lexical = 2|A∩B| / (|A|+|B|)` (0 when both are empty).
//! - **Structural**: each top-level parameter is a key `(name, type)` — the name as its
//!   [`name_tokens`] joined by `_` (so `dryRun` = `dry_run`), the JSON type with `integer` read as
//!   `number`, unions sorted and joined by `|`, `any` when absent — weighing 2 when required and
//!   1 when optional. `structural = Σ min(wa, wb) / (Σ max(wa, wb) + λ)` with `λ = 4`
//!   ([`STRUCTURAL_SMOOTHING`]): a weighted Jaccard smoothed as if the pair also differed in an
//!   imaginary parameter of weight 4. Two tools without parameters score 0 (no evidence), and a
//!   pair needs shared weight ≥ 4 (two required parameters, or one required and two optional) to
//!   reach 0.5 on parameters alone: one shared `path` is not a reason to confuse two tools.
//! - **Family**: the name's [`name_tokens`], lightly singularized ([`stem`]), as a set.
//!   `idf(w) = ln(N / df(w))` where `df` counts the tools of the surface whose name has `w`: a
//!   token in every tool weighs 0. `family = 2 Σ_{A∩B} idf / (Σ_A idf + Σ_B idf)` (IDF-weighted
//!   Dice; 0 when both sums are 0).
//! - `score = max(lexical, structural, family)`; on ties the basis is lexical, then structural,
//!   then family.
//!
//! # Indexed search
//! [`similar_pairs`] never scores all n² pairs: for each of the three measures it runs a
//! prefix-filter join (AllPairs/PPJoin style) over weighted feature sets whose features are
//! ranked rare-first. A pair can only reach `t` if its shared weight reaches a bound (`t(Wa+Wb)/2`
//! for both Dice measures, `t(max(Wa,Wb)+λ)` for structural), and then the two sets' prefixes in
//! the global order must share a feature, so only tools sharing a prefix feature become
//! candidates; size and positional bounds prune further. Bounds are loosened by a relative 1e-9
//! so float rounding can only add candidates. Each join accumulates, per earlier tool, the
//! weight shared in the prefixes (a dense accumulator per worker, probes run in parallel over
//! tools), then verifies a candidate on its own measure only: shared features not yet counted
//! rank after the last match and lie past the indexed prefix or the probed part, so only those
//! are looked up, stopping once the bound falls short. Pairs that pass are scored exactly by the
//! same function as [`similar_pairs_exhaustive`], so results are identical.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};

use rayon::prelude::*;
use serde::Serialize;
use serde_json::Value;

// The similarity API keeps naming these; they are defined lower down (report, surface).
pub use crate::report::cluster::Basis;
use crate::surface::Tool;
pub use crate::surface::terms::{name_tokens, stem, terms};

/// The similarity of two tools (indices into the slice given to [`similar_pairs`], `a < b`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PairSimilarity {
    /// Index of the first tool.
    #[serde(skip)]
    pub a: usize,
    /// Index of the second tool.
    #[serde(skip)]
    pub b: usize,
    /// Trigram Dice over name tokens + description, in [0, 1].
    pub lexical: f64,
    /// Parameter-shape similarity, in [0, 1].
    pub structural: f64,
    /// Shared distinctive name-token similarity, in [0, 1].
    pub family: f64,
    /// `max(lexical, structural, family)`.
    pub score: f64,
    /// Which of the three is `score`.
    pub basis: Basis,
    /// Distinctive words both tools use (name tokens and description terms), sorted.
    pub shared_terms: Vec<String>,
}

/// Compat overlap thresholds used by lint: a pair at or above warns / informs.
pub const LEXICAL_WARN: f64 = 0.6;
/// See [`LEXICAL_WARN`].
pub const LEXICAL_INFO: f64 = 0.4;
/// `λ` of the structural score (see the module docs).
pub const STRUCTURAL_SMOOTHING: f64 = 4.0;
/// At most this many `shared_terms` per pair (the rarest on the surface are kept).
pub const MAX_SHARED_TERMS: usize = 8;
/// Relative slack on every filter bound, so float rounding can only add candidates.
const SLACK: f64 = 1.0 - 1e-9;

/// Every pair whose `score` is at least `min_score`, sorted by `(a, b)`. Indexed; identical to
/// [`similar_pairs_exhaustive`]. A `min_score` ≤ 0 returns every pair. The result can be as
/// large as n²/2 on a surface of templated near-duplicates: use [`similar_pairs_top`] to bound it.
pub fn similar_pairs(tools: &[Tool], min_score: f64) -> Vec<PairSimilarity> {
    let f = Features::new(tools);
    let mut keep = fold_similar(
        &f,
        min_score,
        Vec::new,
        |v: &mut Vec<(usize, usize, (f64, f64, f64))>, a, b, scores| v.push((a, b, scores)),
        |mut x, mut y| {
            if x.len() < y.len() {
                std::mem::swap(&mut x, &mut y);
            }
            x.append(&mut y);
            x
        },
    );
    keep.par_sort_unstable_by_key(|k| (k.0, k.1));
    keep.into_par_iter()
        .map(|(a, b, s)| f.finish(a, b, s))
        .collect()
}

/// The strongest pairs at or above `min_score`, at most `max_pairs`, with the count of all.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimilarPairs {
    /// The `max_pairs` strongest (score descending, then `(a, b)`), returned sorted by `(a, b)`.
    pub pairs: Vec<PairSimilarity>,
    /// How many pairs reach `min_score` in all.
    pub total: usize,
}

/// Like [`similar_pairs`] but keeps only the `max_pairs` strongest in memory (a bounded heap),
/// for surfaces where nearly every pair is similar.
pub fn similar_pairs_top(tools: &[Tool], min_score: f64, max_pairs: usize) -> SimilarPairs {
    let f = Features::new(tools);
    let push = |top: &mut Top, r: Ranked| {
        top.total += 1;
        if top.heap.len() < max_pairs {
            top.heap.push(r);
        } else if top.heap.peek().is_some_and(|weakest| r < *weakest) {
            top.heap.pop();
            top.heap.push(r);
        }
    };
    let top = fold_similar(
        &f,
        min_score,
        Top::default,
        |top: &mut Top, a, b, scores| {
            let r = Ranked {
                score: scores.0.max(scores.1).max(scores.2),
                a,
                b,
                scores,
            };
            push(top, r);
        },
        |mut x, mut y| {
            if x.heap.len() < y.heap.len() {
                std::mem::swap(&mut x, &mut y);
            }
            // `push` counts each pair again: count the merged total once.
            let total = x.total + y.total;
            for r in y.heap {
                push(&mut x, r);
            }
            x.total = total;
            x
        },
    );
    let mut kept = top.heap.into_vec();
    kept.sort_unstable_by_key(|r| (r.a, r.b));
    SimilarPairs {
        pairs: kept
            .into_iter()
            .map(|r| f.finish(r.a, r.b, r.scores))
            .collect(),
        total: top.total,
    }
}

/// The bounded heap of [`similar_pairs_top`] and the count of all pairs seen.
#[derive(Debug, Default)]
struct Top {
    heap: BinaryHeap<Ranked>,
    total: usize,
}

/// A pair ordered strongest first (score descending, then `(a, b)`), so a max-heap's top is the
/// weakest kept pair.
#[derive(Debug, Clone, Copy)]
struct Ranked {
    score: f64,
    a: usize,
    b: usize,
    scores: (f64, f64, f64),
}

impl Ord for Ranked {
    fn cmp(&self, other: &Ranked) -> Ordering {
        other
            .score
            .total_cmp(&self.score)
            .then(self.a.cmp(&other.a))
            .then(self.b.cmp(&other.b))
    }
}

impl PartialOrd for Ranked {
    fn partial_cmp(&self, other: &Ranked) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Ranked {
    fn eq(&self, other: &Ranked) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ranked {}

/// Fold `keep(state, a, b, (lexical, structural, family))`, `a < b`, over every pair whose score
/// reaches `min_score`, in parallel: each worker folds into its own `init()` state and the states
/// are combined with `merge` (in no particular order, so `keep`/`merge` must not depend on it).
/// Each measure's join finds the pairs reaching `min_score` on that measure (verified on it
/// alone); a pair is kept by the join of the *first* measure (lexical, structural, family) that
/// reaches `min_score` — that join is lossless for it — so no pair is kept twice.
fn fold_similar<S: Send>(
    f: &Features,
    min_score: f64,
    init: impl Fn() -> S + Sync + Send,
    keep: impl Fn(&mut S, usize, usize, (f64, f64, f64)) + Sync + Send,
    merge: impl Fn(S, S) -> S + Sync + Send,
) -> S {
    if min_score.is_nan() {
        return init();
    }
    let n = f.trigrams.len();
    if min_score <= 0.0 {
        return (0..n)
            .into_par_iter()
            .fold(&init, |mut s, a| {
                for b in a + 1..n {
                    keep(&mut s, a, b, f.scores(a, b));
                }
                s
            })
            .reduce(&init, &merge);
    }
    let joins = [
        (f.lexical_sets(), Measure::Dice),
        (f.params.clone(), Measure::Smoothed(STRUCTURAL_SMOOTHING)),
        (f.family_sets(), Measure::Dice),
    ];
    let mut out = init();
    for (m, (sets, measure)) in joins.iter().enumerate() {
        let index = Index::new(sets, *measure, min_score);
        let s = (0..index.order.len())
            .into_par_iter()
            .fold(
                || (init(), Scratch::new(n, index.postings.len())),
                |(mut s, mut scratch), p| {
                    index.probe(p, &mut scratch, |x, y| {
                        let (a, b) = (x.min(y), x.max(y));
                        let sc = f.scores(a, b);
                        if [sc.0, sc.1, sc.2].iter().position(|v| *v >= min_score) == Some(m) {
                            keep(&mut s, a, b, sc);
                        }
                    });
                    (s, scratch)
                },
            )
            .map(|(s, _)| s)
            .reduce(&init, &merge);
        out = merge(out, s);
    }
    out
}

/// Every pair whose `score` is at least `min_score`, by scoring all n² pairs. The reference
/// [`similar_pairs`] is tested against; use it only on small surfaces.
pub fn similar_pairs_exhaustive(tools: &[Tool], min_score: f64) -> Vec<PairSimilarity> {
    let f = Features::new(tools);
    let mut out = Vec::new();
    for a in 0..tools.len() {
        for b in a + 1..tools.len() {
            let s = f.scores(a, b);
            if s.0.max(s.1).max(s.2) >= min_score {
                out.push(f.finish(a, b, s));
            }
        }
    }
    out
}

/// The similarity of one pair of `tools` (family weights come from the whole slice).
pub fn pair_similarity(tools: &[Tool], a: usize, b: usize) -> Option<PairSimilarity> {
    SurfaceSimilarity::new(tools).pair(a, b)
}

/// One surface's features, prepared once, to score any pair of its tools (family weights come
/// from the whole surface).
#[derive(Debug)]
pub struct SurfaceSimilarity {
    features: Features,
}

impl SurfaceSimilarity {
    /// Prepare `tools`.
    pub fn new(tools: &[Tool]) -> SurfaceSimilarity {
        SurfaceSimilarity {
            features: Features::new(tools),
        }
    }

    /// The similarity of tools `a` and `b` (in either order), `None` when out of range or equal.
    pub fn pair(&self, a: usize, b: usize) -> Option<PairSimilarity> {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if b >= self.features.trigrams.len() || a == b {
            return None;
        }
        Some(self.features.finish(a, b, self.features.scores(a, b)))
    }
}

/// The text the lexical score reads (see the module docs): `" read text file reads a file "`.
pub fn lexical_text(tool: &Tool) -> String {
    let mut raw = name_tokens(&tool.name).join(" ");
    if let Some(d) = &tool.description {
        raw.push(' ');
        raw.push_str(d);
    }
    let lower = raw.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    format!(" {} ", words.join(" "))
}

/// The set of character trigrams of `text`, sorted and deduplicated.
///
/// Deduplicated while reading (a set of `[char; 3]`): memory follows the distinct trigrams, not
/// the text's length — a 15 MiB description used to allocate a `String` per position.
pub fn trigrams(text: &str) -> Vec<String> {
    let mut seen: std::collections::HashSet<[char; 3]> = std::collections::HashSet::new();
    let mut chars = text.chars();
    let (Some(mut a), Some(mut b)) = (chars.next(), chars.next()) else {
        return Vec::new();
    };
    for c in chars {
        seen.insert([a, b, c]);
        (a, b) = (b, c);
    }
    let mut out: Vec<String> = seen.into_iter().map(|t| t.iter().collect()).collect();
    out.sort_unstable();
    out
}

/// Sørensen–Dice of the trigram sets of [`lexical_text`] (compat overlap score).
pub fn lexical(a: &Tool, b: &Tool) -> f64 {
    let (ta, tb) = (trigrams(&lexical_text(a)), trigrams(&lexical_text(b)));
    let inter = ta.iter().filter(|t| tb.binary_search(t).is_ok()).count();
    dice(inter as f64, ta.len() as f64 + tb.len() as f64)
}

fn dice(shared: f64, total: f64) -> f64 {
    // `shared > 0` also keeps an empty sum's `-0.0` out of reports.
    if shared > 0.0 && total > 0.0 {
        (2.0 * shared / total).min(1.0)
    } else {
        0.0
    }
}

/// The top-level parameters as `(normalized name, type, required)`, sorted by name.
pub fn parameter_keys(tool: &Tool) -> Vec<(String, String, bool)> {
    let schema = tool.input_schema.as_ref();
    let props = schema
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object);
    let required: Vec<&str> = schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out: Vec<(String, String, bool)> = props
        .into_iter()
        .flatten()
        .map(|(name, prop)| {
            (
                name_tokens(name).join("_"),
                json_type(prop),
                required.contains(&name.as_str()),
            )
        })
        .collect();
    out.sort();
    out.dedup_by(|x, y| x.0 == y.0 && x.1 == y.1);
    out
}

fn json_type(prop: &Value) -> String {
    let one = |v: &Value| match v.as_str() {
        Some("integer") => "number".to_owned(),
        Some(s) => s.to_owned(),
        None => "any".to_owned(),
    };
    match prop.get("type") {
        Some(Value::Array(types)) => {
            let mut ts: Vec<String> = types.iter().map(one).collect();
            ts.sort();
            ts.dedup();
            ts.join("|")
        }
        Some(t) => one(t),
        None => "any".to_owned(),
    }
}

/// A weighted feature set: `(rank, weight)` sorted by rank, where rank order is rare-first.
type WeightedSet = Vec<(u32, f64)>;

/// Per-tool features of one surface, with feature ids assigned rare-first.
#[derive(Debug)]
struct Features {
    trigrams: Vec<Vec<u32>>,
    params: Vec<WeightedSet>,
    name_tokens: Vec<Vec<u32>>,
    idf: Vec<f64>,
    terms: Vec<Vec<u32>>,
    term_words: Vec<String>,
    /// A term used by every tool (when there are three or more) is never "shared".
    term_everywhere: Vec<bool>,
}

impl Features {
    fn new(tools: &[Tool]) -> Features {
        let n = tools.len();
        let trigrams = intern_trigrams(tools.par_iter().map(trigram_keys).collect());
        let keys: Vec<Vec<(String, f64)>> = tools
            .par_iter()
            .map(|t| {
                let ks = parameter_keys(t);
                ks.into_iter()
                    .map(|(k, ty, req)| (format!("{k}:{ty}"), if req { 2.0 } else { 1.0 }))
                    .collect()
            })
            .collect();
        let (key_ids, key_words, _) = intern(
            keys.iter()
                .map(|k| k.iter().map(|(s, _)| s.clone()).collect())
                .collect(),
        );
        let params = key_ids
            .into_iter()
            .zip(&keys)
            .map(|(ids, ks)| {
                let weight: HashMap<&str, f64> = ks.iter().map(|(s, w)| (s.as_str(), *w)).collect();
                ids.into_iter()
                    .map(|id| {
                        (
                            id,
                            weight
                                .get(key_words[id as usize].as_str())
                                .copied()
                                .unwrap_or(1.0),
                        )
                    })
                    .collect()
            })
            .collect();
        let names = tools
            .par_iter()
            .map(|t| name_tokens(&t.name).iter().map(|w| stem(w)).collect())
            .collect();
        let (name_tokens, _, df) = intern(names);
        let idf = df.iter().map(|&d| (n as f64 / d as f64).ln()).collect();
        let (terms, term_words, tdf) = intern(tools.par_iter().map(terms).collect());
        let term_everywhere = tdf.iter().map(|&d| n >= 3 && d == n).collect();
        Features {
            trigrams,
            params,
            name_tokens,
            idf,
            terms,
            term_words,
            term_everywhere,
        }
    }

    fn lexical_sets(&self) -> Vec<WeightedSet> {
        self.trigrams
            .iter()
            .map(|t| t.iter().map(|&id| (id, 1.0)).collect())
            .collect()
    }

    fn family_sets(&self) -> Vec<WeightedSet> {
        let weigh = |ids: &Vec<u32>| {
            ids.iter()
                .map(|&id| (id, self.idf[id as usize]))
                .filter(|x| x.1 > 0.0)
                .collect()
        };
        self.name_tokens.iter().map(weigh).collect()
    }

    /// The exact `(lexical, structural, family)` of tools `a < b`.
    fn scores(&self, a: usize, b: usize) -> (f64, f64, f64) {
        let (ta, tb) = (&self.trigrams[a], &self.trigrams[b]);
        let lexical = dice(merge_count(ta, tb) as f64, (ta.len() + tb.len()) as f64);
        let structural = structural_score(&self.params[a], &self.params[b]);
        let weight = |ids: &[u32]| ids.iter().map(|&i| self.idf[i as usize]).sum::<f64>();
        let (na, nb) = (&self.name_tokens[a], &self.name_tokens[b]);
        let shared: f64 = na
            .iter()
            .filter(|i| nb.binary_search(i).is_ok())
            .map(|&i| self.idf[i as usize])
            .sum();
        let family = dice(shared, weight(na) + weight(nb));
        (lexical, structural, family)
    }

    /// The full record of a pair from its three scores: score, basis and shared terms.
    fn finish(
        &self,
        a: usize,
        b: usize,
        (lexical, structural, family): (f64, f64, f64),
    ) -> PairSimilarity {
        let (score, basis) = [(structural, Basis::Structural), (family, Basis::Family)]
            .into_iter()
            .fold((lexical, Basis::Lexical), |best, c| {
                if c.0 > best.0 { c } else { best }
            });
        // Term ids are rank-ordered rare-first, so the first ones are the most distinctive.
        let tb_terms = &self.terms[b];
        let mut shared_terms: Vec<String> = self.terms[a]
            .iter()
            .filter(|i| !self.term_everywhere[**i as usize] && tb_terms.binary_search(i).is_ok())
            .take(MAX_SHARED_TERMS)
            .map(|&i| self.term_words[i as usize].clone())
            .collect();
        shared_terms.sort();
        PairSimilarity {
            a,
            b,
            lexical,
            structural,
            family,
            score,
            basis,
            shared_terms,
        }
    }
}

/// Intern string sets: ids ranked rare-first (document frequency ascending, then the string),
/// each set returned as sorted ids; also the words by id and their document frequencies.
fn intern(sets: Vec<Vec<String>>) -> (Vec<Vec<u32>>, Vec<String>, Vec<usize>) {
    let mut df: HashMap<&str, usize> = HashMap::new();
    for set in &sets {
        let mut s: Vec<&str> = set.iter().map(String::as_str).collect();
        s.sort_unstable();
        s.dedup();
        for w in s {
            *df.entry(w).or_insert(0) += 1;
        }
    }
    let mut words: Vec<(&str, usize)> = df.into_iter().collect();
    words.sort_unstable_by(|x, y| x.1.cmp(&y.1).then(x.0.cmp(y.0)));
    let rank: HashMap<&str, u32> = words
        .iter()
        .enumerate()
        .map(|(i, w)| (w.0, i as u32))
        .collect();
    let ids = sets
        .iter()
        .map(|set| {
            let mut v: Vec<u32> = set
                .iter()
                .filter_map(|w| rank.get(w.as_str()).copied())
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    let dfs = words.iter().map(|w| w.1).collect();
    let names = words.into_iter().map(|w| w.0.to_owned()).collect();
    (ids, names, dfs)
}

/// The trigram set of a tool's [`lexical_text`], each trigram packed as its three Unicode scalar
/// values (21 bits each), so packed order is the trigram strings' order; sorted, deduplicated.
fn trigram_keys(tool: &Tool) -> Vec<u64> {
    let chars: Vec<char> = lexical_text(tool).chars().collect();
    let mut out: Vec<u64> = chars
        .windows(3)
        .map(|w| (u64::from(w[0]) << 42) | (u64::from(w[1]) << 21) | u64::from(w[2]))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// [`intern`] for packed trigram sets (each already sorted and deduplicated): the same ids,
/// ranked rare-first (document frequency ascending, then the trigram).
fn intern_trigrams(sets: Vec<Vec<u64>>) -> Vec<Vec<u32>> {
    let mut all: Vec<u64> = sets.concat();
    all.par_sort_unstable();
    let mut words: Vec<(usize, u64)> = Vec::new();
    for k in all {
        match words.last_mut() {
            Some(last) if last.1 == k => last.0 += 1,
            _ => words.push((1, k)),
        }
    }
    let mut by_key: Vec<(u64, u32)> = Vec::with_capacity(words.len());
    words.par_sort_unstable();
    by_key.extend(words.iter().enumerate().map(|(i, w)| (w.1, i as u32)));
    by_key.par_sort_unstable();
    sets.par_iter()
        .map(|set| {
            let mut v: Vec<u32> = set
                .iter()
                .filter_map(|k| {
                    by_key
                        .binary_search_by_key(k, |e| e.0)
                        .ok()
                        .map(|i| by_key[i].1)
                })
                .collect();
            v.sort_unstable();
            v
        })
        .collect()
}

fn merge_count(a: &[u32], b: &[u32]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
            Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

fn structural_score(a: &WeightedSet, b: &WeightedSet) -> f64 {
    weighted_overlap(a, b, STRUCTURAL_SMOOTHING)
}

/// Σmin / (Σmax + `smoothing`) over two weighted sets sorted by key (0 when they share no
/// key): the structural measure here, and the parameter-shape measure of the pair scorer.
pub(super) fn weighted_overlap(a: &[(u32, f64)], b: &[(u32, f64)], smoothing: f64) -> f64 {
    let (mut i, mut j, mut min, mut max) = (0, 0, 0.0, 0.0);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                min += x.1.min(y.1);
                max += x.1.max(y.1);
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                max += x.1;
                i += 1;
            }
            (Some(x), None) => {
                max += x.1;
                i += 1;
            }
            (_, Some(y)) => {
                max += y.1;
                j += 1;
            }
            (None, None) => break,
        }
    }
    if min > 0.0 {
        min / (max + smoothing)
    } else {
        0.0
    }
}

/// The shape of a measure, for its filter bounds.
#[derive(Debug, Clone, Copy)]
enum Measure {
    /// `2S / (Wa + Wb)`.
    Dice,
    /// `Σmin / (Σmax + λ)`.
    Smoothed(f64),
}

impl Measure {
    /// Shared weight a pair needs to reach `t`.
    fn need(self, t: f64, wa: f64, wb: f64) -> f64 {
        match self {
            Measure::Dice => t * (wa + wb) / 2.0,
            Measure::Smoothed(l) => t * (wa.max(wb) + l),
        }
    }
    /// Shared weight needed by a set of weight `w` against any larger set (index prefix).
    fn index_need(self, t: f64, w: f64) -> f64 {
        match self {
            Measure::Dice => t * w,
            Measure::Smoothed(l) => t * (w + l),
        }
    }
    /// Shared weight needed by a set of weight `w` against any smaller set (probe prefix).
    fn probe_need(self, t: f64, w: f64) -> f64 {
        match self {
            Measure::Dice => t * w / (2.0 - t).max(f64::MIN_POSITIVE),
            Measure::Smoothed(l) => t * (w + l),
        }
    }
}

/// Per-worker scratch of a join probe: per tool, the overlap accumulated, the last matched
/// positions and whether it is pruned; the list of touched tools to reset; and the features of
/// the probing set.
struct Scratch {
    slots: Vec<Slot>,
    touched: Vec<u32>,
    /// Per feature: `(stamp, weight)` of the probing set's features (stamp = its tool + 1).
    mark: Vec<(u32, f64)>,
}

/// One tool's accumulator while a set probes the index.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    acc: f64,
    last: (u32, u32),
    pruned: bool,
}

impl Scratch {
    fn new(n: usize, features: usize) -> Scratch {
        Scratch {
            slots: vec![Slot::default(); n],
            touched: Vec::new(),
            mark: vec![(0, 0.0); features],
        }
    }
}

/// One indexed occurrence of a feature, with what the probe reads of its set inline.
#[derive(Debug, Clone, Copy)]
struct Posting {
    /// Position of the set in the size order.
    pos: u32,
    /// The set (tool index).
    x: u32,
    /// Position of the feature in the set.
    i: u32,
    /// Total weight of the set.
    total: f64,
    /// Weight of the feature.
    weight: f64,
    /// Weight of the set from this feature to its end.
    suffix: f64,
}

/// One measure's prefix index over all sets, built once and then probed (in parallel) by every
/// set against the sets before it in size order.
struct Index<'s> {
    sets: &'s [WeightedSet],
    measure: Measure,
    t: f64,
    total: Vec<f64>,
    /// Tools with a positive total, by total ascending then id.
    order: Vec<u32>,
    /// `suffix[x][k]`: weight of `sets[x][k..]`.
    suffix: Vec<Vec<f64>>,
    probe_len: Vec<u32>,
    index_len: Vec<u32>,
    /// Per feature, by position in the order.
    postings: Vec<Vec<Posting>>,
}

impl<'s> Index<'s> {
    fn new(sets: &'s [WeightedSet], measure: Measure, t: f64) -> Index<'s> {
        let total: Vec<f64> = sets.iter().map(|s| s.iter().map(|x| x.1).sum()).collect();
        let mut order: Vec<u32> = (0..sets.len() as u32)
            .filter(|&i| total[i as usize] > 0.0)
            .collect();
        order.sort_by(|&x, &y| {
            total[x as usize]
                .total_cmp(&total[y as usize])
                .then(x.cmp(&y))
        });
        let suffix: Vec<Vec<f64>> = sets
            .iter()
            .map(|set| {
                let mut suffix = vec![0.0; set.len() + 1];
                for k in (0..set.len()).rev() {
                    suffix[k] = suffix[k + 1] + set[k].1;
                }
                suffix
            })
            .collect();
        let features = sets
            .iter()
            .flat_map(|s| s.iter().map(|x| x.0 as usize + 1))
            .max()
            .unwrap_or(0);
        let mut postings: Vec<Vec<Posting>> = vec![Vec::new(); features];
        let mut probe_len = vec![0u32; sets.len()];
        let mut index_len = vec![0u32; sets.len()];
        for (p, &y) in order.iter().enumerate() {
            let y = y as usize;
            let w = total[y];
            probe_len[y] = prefix_len(&suffix[y], measure.probe_need(t, w)) as u32;
            index_len[y] = prefix_len(&suffix[y], measure.index_need(t, w)) as u32;
            for (i, &(f, weight)) in sets[y].iter().enumerate().take(index_len[y] as usize) {
                postings[f as usize].push(Posting {
                    pos: p as u32,
                    x: y as u32,
                    i: i as u32,
                    total: w,
                    weight,
                    suffix: suffix[y][i],
                });
            }
        }
        Index {
            sets,
            measure,
            t,
            total,
            order,
            suffix,
            probe_len,
            index_len,
            postings,
        }
    }

    /// Whether a set of total `wx` can reach `t` against one of total `wy ≥ wx` (size filter;
    /// monotone in `wx`).
    fn fits(&self, wx: f64, wy: f64) -> bool {
        wx.min(wy) >= self.measure.need(self.t, wx, wy) * SLACK
    }

    /// Call `found(x, y)` for every set `x` before the `p`-th of the order whose shared weight
    /// with it reaches the bound of the measure (an exact verification, loosened by [`SLACK`]).
    fn probe(&self, p: usize, sc: &mut Scratch, mut found: impl FnMut(usize, usize)) {
        let y = self.order[p] as usize;
        let (wy, set_y, suf_y) = (self.total[y], &self.sets[y], &self.suffix[y]);
        let probe_len = self.probe_len[y] as usize;
        for (j, &(f, w)) in set_y.iter().enumerate().take(probe_len) {
            let post = &self.postings[f as usize];
            let end = post.partition_point(|e| (e.pos as usize) < p);
            let post = &post[..end];
            // Sizes ascend along the postings: skip the sets too small to reach `t`.
            let start = post.partition_point(|e| !self.fits(e.total, wy));
            for e in &post[start..] {
                let slot = &mut sc.slots[e.x as usize];
                if slot.pruned {
                    continue;
                }
                if slot.acc == 0.0 {
                    sc.touched.push(e.x);
                }
                let need = self.measure.need(self.t, e.total, wy) * SLACK;
                if slot.acc + e.suffix.min(suf_y[j]) < need {
                    slot.pruned = true;
                    continue;
                }
                slot.acc += e.weight.min(w);
                slot.last = (e.i, j as u32);
            }
        }
        let stamp = y as u32 + 1;
        for &(f, w) in set_y {
            sc.mark[f as usize] = (stamp, w);
        }
        // The last probed feature: shared features up to it were all counted where indexed.
        let probed_to = probe_len.checked_sub(1).map(|k| set_y[k].0);
        for k in 0..sc.touched.len() {
            let x = sc.touched[k] as usize;
            let slot = sc.slots[x];
            if !slot.pruned && self.verify(x, y, slot, probed_to, &sc.mark) {
                found(x, y);
            }
            sc.slots[x] = Slot::default();
        }
        sc.touched.clear();
    }

    /// Whether `x` and `y` share at least the needed weight, given the weight `slot.acc`
    /// counted by the probe. A shared feature not yet counted ranks after the last match
    /// (`slot.last`), and lies either past `x`'s indexed prefix or past `probed_to` (the last
    /// feature `y` probed): look those of `x`'s features up in `mark` (the features of `y`,
    /// stamped `y + 1`), stopping once the bound falls short.
    fn verify(
        &self,
        x: usize,
        y: usize,
        slot: Slot,
        probed_to: Option<u32>,
        mark: &[(u32, f64)],
    ) -> bool {
        let need = self.measure.need(self.t, self.total[x], self.total[y]) * SLACK;
        let (sx, fx) = (&self.sets[x], &self.suffix[x]);
        let mut acc = slot.acc;
        let (i, j) = (slot.last.0 as usize + 1, slot.last.1 as usize + 1);
        let past_probe = probed_to.map_or(0, |r| sx.partition_point(|e| e.0 <= r));
        let from = i.max(past_probe.min(self.index_len[x] as usize));
        if acc + fx[from].min(self.suffix[y][j]) < need {
            return false;
        }
        let stamp = y as u32 + 1;
        for (k, &(f, w)) in sx.iter().enumerate().skip(from) {
            if acc >= need {
                return true;
            }
            if acc + fx[k] < need {
                return false;
            }
            let (s, wy) = mark[f as usize];
            if s == stamp {
                acc += w.min(wy);
            }
        }
        acc >= need
    }
}

/// Length of the prefix to keep so that the weight after it (`suffix[len]`) is below `need`.
fn prefix_len(suffix: &[f64], need: f64) -> usize {
    let need = need * SLACK;
    let len = suffix.len() - 1;
    (0..=len).find(|&p| suffix[p] < need).unwrap_or(len)
}
