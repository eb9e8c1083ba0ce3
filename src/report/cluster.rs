//! The cluster report (`mf cluster --format json`, SCHEMA.md §Cluster report): groups of
//! confusable tools, the riskiest pairs, name families split across groups, and what tells the
//! members of each group apart.

use serde::Serialize;

/// What made a pair confusable (v1 names). In a cluster report: `family` when the names decided
/// (same action and object, a bare action, a qualifier-only difference), `structural` when
/// matching schemas did, `lexical` when near-identical descriptions did. In the compat
/// similarity ([`crate::analyze::similarity`]): which of its three measures is the score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// Names and descriptions read alike.
    Lexical,
    /// Parameters look alike.
    Structural,
    /// Names share a distinctive token.
    Family,
}

/// How the pair scorer read two tools' names (`analyze::confusable`), kebab-case in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PairRelation {
    /// Same action, same object.
    SameJob,
    /// Same action; one names no object.
    BareAction,
    /// Same action; the objects differ only by a qualifier.
    Qualified,
    /// Different objects or actions, but the schemas or the descriptions match.
    LookAlike,
    /// Two verb-less names, the only two tools of the surface taking the same parameters.
    SameInputs,
    /// Both descriptions quote the same example request ("Why did task A fail?"): each
    /// claims the other's job.
    SameExample,
    /// One tool's general form does the other's job: a generic or broader object (`resources`,
    /// `file` for `image`), or a parameter of an update (`update_ticket(tags)` / `add_tag`).
    Covers,
}

impl PairRelation {
    /// A short phrase for messages.
    pub fn phrase(self) -> &'static str {
        match self {
            PairRelation::SameJob => "the same action on the same object",
            PairRelation::BareAction => "the same action, one without an object",
            PairRelation::Qualified => {
                "the same action on the same object, differing only by a qualifier"
            }
            PairRelation::LookAlike => "matching schemas or near-identical descriptions",
            PairRelation::Covers => {
                "one tool's general form (a generic or broader object, or a parameter) does the other's job"
            }
            PairRelation::SameExample => "both descriptions claim the same example request",
            PairRelation::SameInputs => {
                "no action in either name and the same parameters, which no other tool takes"
            }
        }
    }
}

/// Cluster report format version.
pub const CLUSTER_REPORT_VERSION: u32 = 1;

/// The cluster report. Deterministic: the same surface and options give the same bytes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterReport {
    /// Format version; 1.
    pub version: u32,
    /// Always `"cluster"`.
    pub kind: String,
    /// Pairs at or above this score are linked.
    pub threshold: f64,
    /// No cluster has more tools than this.
    pub max_cluster_size: usize,
    /// Counts.
    pub summary: ClusterSummary,
    /// Groups of two or more linked tools, ordered by their first tool's position.
    pub clusters: Vec<Cluster>,
    /// Tools linked to no other tool, in surface order.
    pub unclustered: Vec<String>,
    /// The strongest pairs at or above the threshold (at most [`MAX_RISKY_PAIRS`]).
    pub risky_pairs: Vec<RiskyPair>,
    /// Name families split across groups: some tools in a cluster, others in another cluster or
    /// unclustered (at most [`MAX_FAMILY_HINTS`]; most clusters, then most tools, first).
    pub family_hints: Vec<FamilyHint>,
    /// For each cluster: what distinguishes its members and what cannot.
    pub boundaries: Vec<Boundary>,
}

/// At most this many `riskyPairs` are listed; `summary.riskyPairs` has the total.
pub const MAX_RISKY_PAIRS: usize = 50;
/// At most this many `familyHints` are listed.
pub const MAX_FAMILY_HINTS: usize = 50;

/// Counts of a cluster run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterSummary {
    /// Tools on the surface.
    pub tools: usize,
    /// Clusters (two tools or more).
    pub clusters: usize,
    /// Tools in no cluster.
    pub unclustered: usize,
    /// All pairs at or above the threshold (the list is capped, this is not).
    pub risky_pairs: usize,
}

/// A group of tools a model may confuse.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cluster {
    /// `c1`, `c2`, … in order of each cluster's first tool on the surface.
    pub id: String,
    /// The most distinctive words the members share, e.g. `file · read`.
    pub label: String,
    /// Member names, in surface order.
    pub tools: Vec<String>,
    /// Pair scores over every two members.
    pub cohesion: Cohesion,
}

/// Mean and weakest pair score inside a cluster (over all member pairs, linked or not).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cohesion {
    /// Mean pair score.
    pub mean: f64,
    /// Lowest pair score.
    pub min: f64,
}

/// Two tools at or above the threshold, with each measure (rounded to 4 decimals).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RiskyPair {
    /// The tool that comes first on the surface.
    pub a: String,
    /// The other tool.
    pub b: String,
    /// The pair scorer's confusion score (as lint's `confusable-pair`).
    pub score: f64,
    /// How the scorer read the two names (additive in v1).
    pub relation: PairRelation,
    /// The scorer's IDF-weighted text cosine (additive in v1).
    pub text: f64,
    /// The scorer's parameter-shape similarity (additive in v1).
    pub shape: f64,
    /// Compat: trigram Dice over name tokens + description (no longer decides a link).
    pub lexical: f64,
    /// Compat: the structural parameter similarity (no longer decides a link).
    pub structural: f64,
    /// Compat: shared distinctive name tokens (no longer decides a link).
    pub family: f64,
    /// What made the pair confusable (see [`Basis`]).
    pub basis: Basis,
    /// The rarest words on the surface both use (stemmed, at most 6), sorted.
    pub shared_terms: Vec<String>,
}

/// A name token shared by tools that ended up in different groups.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FamilyHint {
    /// The shared name token (singular form).
    pub token: String,
    /// Every tool whose name has the token, in surface order.
    pub tools: Vec<String>,
    /// The clusters those tools are in (ids, ascending); the other tools are unclustered.
    pub clusters: Vec<String>,
}

/// What tells the members of one cluster apart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Boundary {
    /// The cluster's id.
    pub cluster: String,
    /// Member names, in surface order.
    pub tools: Vec<String>,
    /// One entry per member.
    pub per_tool: Vec<ToolBoundary>,
    /// Parameters every member has: they cannot tell the members apart.
    pub shared_params: Vec<String>,
    /// What to write so a model can choose.
    pub suggestion: String,
}

/// One member's distinguishing words and parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolBoundary {
    /// The tool.
    pub tool: String,
    /// Name and description words no other member uses, rarest on the surface first (≤ 8).
    pub distinguishing_words: Vec<String>,
    /// Parameters no other member has, in declared order.
    pub distinguishing_params: Vec<String>,
}
