//! The shapes of the view: [`View`] and every part of it templates read (headline, event,
//! suite, models with their rates, tools, pairs and cases, gates, compare rows, surface diff,
//! lint). Serialized as the template context; field docs say what each text holds.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::render::text::rate as rate_text;
use crate::report::metrics::Rate;

/// What every template reads: one document laid out as text. Serialized as the template context.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// `scorecard`, `compare` or `ci`.
    pub kind: &'static str,
    /// `mf eval SUITE`, `mf compare`, `mf ci`.
    pub title: String,
    /// The verdict line and its reasons.
    pub headline: Headline,
    /// Why the run is free-only (`mf ci` in free mode), as a plain sentence.
    pub free: Option<String>,
    /// What the run skipped or could not do (`mf ci`), informational.
    pub notes: Vec<String>,
    /// The triggering event (`mf ci`).
    pub event: Option<EventView>,
    /// The suite and reproducibility of the (head) scorecard.
    pub suite: Option<SuiteView>,
    /// The (head) scorecard's models.
    pub models: Vec<ModelView>,
    /// Gates of the (head) scorecard that failed or are quality gates.
    pub gates: Vec<GateView>,
    /// Mount-group scores of the (head) scorecard (`--profile all|NAME`), per group and model.
    pub groups: Vec<GroupView>,
    /// Base vs head statistics.
    pub compare: Option<CompareView>,
    /// The free surface diff.
    pub surface: Option<SurfaceView>,
    /// Lint of the head surface (`mf ci`).
    pub lint: Option<LintView>,
    /// Files the run wrote, `(label, path)`.
    pub files: Vec<(String, String)>,
    /// Which sections to render (see [`SECTIONS`](super::limit::SECTIONS)); a size limit switches
    /// some off.
    pub show: BTreeMap<String, bool>,
    /// The mf version that rendered this.
    pub generator: String,
}

/// The verdict line.
#[derive(Debug, Clone, Serialize)]
pub struct Headline {
    /// `pass`, `fail`, `unhealthy`, `regressed`, `improved`, `unchanged`, `insufficient-data`,
    /// `surface-diff`.
    pub status: String,
    /// ✅ ❌ ⚠️ ℹ️.
    pub icon: &'static str,
    /// `mf ci: FAIL`.
    pub title: String,
    /// The one-line detail after the title (the first model's selection accuracy, …).
    pub detail: String,
    /// Why, one sentence each, worst first.
    pub reasons: Vec<String>,
}

/// The triggering event.
#[derive(Debug, Clone, Serialize)]
pub struct EventView {
    /// `pull_request`, `push`, ….
    pub name: Option<String>,
    /// `owner/repo`.
    pub repository: Option<String>,
    /// Pull request number.
    pub pull_request: Option<u64>,
    /// Base commit, 12 characters.
    pub base_sha: Option<String>,
    /// Head commit, 12 characters.
    pub head_sha: Option<String>,
    /// From a fork.
    pub fork: bool,
    /// Link to the workflow run (http(s) only).
    pub run_url: Option<String>,
}

/// The suite behind a scorecard.
#[derive(Debug, Clone, Serialize)]
pub struct SuiteView {
    /// Suite name.
    pub name: String,
    /// Suite file.
    pub path: String,
    /// `6 tools (1,997 tokens) · 11 cases × 5 repeats · seed 0 · mf-perm-v1`.
    pub line: String,
    /// Surface fingerprint.
    pub fingerprint: String,
    /// Tool count.
    pub tools: usize,
    /// Case count.
    pub cases: usize,
}

/// A rate laid out: text plus the numbers charts place (shares in 0–1).
#[derive(Debug, Clone, Serialize)]
pub struct RateView {
    /// `k/n = p% [lo–hi]`.
    pub text: String,
    /// `91.3%`, or `n/a`.
    pub percent: String,
    /// The value, when measured.
    pub value: Option<f64>,
    /// Lower end of the 95% interval.
    pub lo: Option<f64>,
    /// Upper end of the 95% interval.
    pub hi: Option<f64>,
    /// Numerator.
    pub k: u64,
    /// Denominator.
    pub n: u64,
}

impl RateView {
    /// Lay out a rate.
    pub fn new(r: &Rate) -> RateView {
        RateView {
            text: rate_text(r),
            percent: r
                .value
                .map_or_else(|| "n/a".to_owned(), |v| format!("{:.1}%", v * 100.0)),
            value: r.value,
            lo: r.ci95.map(|c| c[0]),
            hi: r.ci95.map(|c| c[1]),
            k: r.numerator,
            n: r.denominator,
        }
    }
}

/// One named figure.
#[derive(Debug, Clone, Serialize)]
pub struct Figure {
    /// What it is.
    pub name: String,
    /// Its text.
    pub text: String,
}

/// One model of a scorecard.
#[derive(Debug, Clone, Serialize)]
pub struct ModelView {
    /// The `--models` entry.
    pub label: String,
    /// `offline`, or `provider · wire · endpoint`.
    pub place: String,
    /// Selection accuracy (the headline figure).
    pub selection: RateView,
    /// The metrics this model cannot produce, with the reason (`argument accuracy n/a: …`), or
    /// empty.
    pub not_applicable: String,
    /// The metrics, in reading order.
    pub metrics: Vec<Figure>,
    /// Latency, tokens, cost.
    pub spend: Vec<Figure>,
    /// Why the run is unhealthy.
    pub problems: Vec<String>,
    /// One row per tool.
    pub tools: Vec<ToolView>,
    /// Non-zero off-diagonal confusion cells, largest first.
    pub confusion_pairs: Vec<PairView>,
    /// The confusion matrix.
    pub confusion: ConfusionView,
    /// One row per case, tallied over its trials.
    pub cases: Vec<CaseView>,
}

/// One tool's figures.
#[derive(Debug, Clone, Serialize)]
pub struct ToolView {
    /// The tool.
    pub tool: String,
    /// False when a case expects it but the surface lacks it.
    pub on_surface: bool,
    /// Cases expecting it.
    pub cases: u64,
    /// Its recall.
    pub accuracy: RateView,
    /// Trials that called it.
    pub picked: u64,
    /// Of those, trials that should not have.
    pub picked_wrongly: u64,
    /// Argument accuracy.
    pub arguments: RateView,
}

/// One confusion pair.
#[derive(Debug, Clone, Serialize)]
pub struct PairView {
    /// Expected tool or `(none)`.
    pub expected: String,
    /// Picked column.
    pub picked: String,
    /// Trials.
    pub count: u64,
}

/// The confusion matrix as the report holds it.
#[derive(Debug, Clone, Serialize)]
pub struct ConfusionView {
    /// Expected rows.
    pub rows: Vec<String>,
    /// Picked columns.
    pub columns: Vec<String>,
    /// Counts, row by row.
    pub counts: Vec<Vec<u64>>,
}

/// One case of one model.
#[derive(Debug, Clone, Serialize)]
pub struct CaseView {
    /// Case id.
    pub id: String,
    /// Expected tool, or `(none)`.
    pub expected: String,
    /// `pass`, `fail`, `error`, `not run`, `unreviewed`.
    pub status: String,
    /// ✅ ❌ ⚠️ ⏭️.
    pub icon: &'static str,
    /// `wrong_tool`, … for a failing case.
    pub failure: Option<String>,
    /// `k of n trials passed, 95% CI lo–hi%`.
    pub outcome: String,
    /// `correct ×3, wrong-tool ×2`.
    pub verdicts: String,
    /// How the failed scored trials failed, `wrong_args 3`; `None` when none failed.
    pub failures: Option<String>,
    /// `timeout 5` when trials errored.
    pub errors: Option<String>,
    /// With `--execute`: `1 of 3 executions failed: <expectations>`, when any failed.
    pub execution: Option<String>,
}

/// A gate.
#[derive(Debug, Clone, Serialize)]
pub struct GateView {
    /// `min-accuracy ≥ 0.8 on MODEL: 0.600 — FAIL`.
    pub text: String,
    /// Whether it passed.
    pub passed: bool,
}

/// One mount group of one model: mounted alone vs within all tools.
#[derive(Debug, Clone, Serialize)]
pub struct GroupView {
    /// The group.
    pub profile: String,
    /// The model label.
    pub model: String,
    /// Selection accuracy mounted alone (`k/n = p% [lo–hi]`).
    pub mounted: String,
    /// Within all tools.
    pub all_in_one: String,
    /// `+66.7 pts`, or `n/a`.
    pub delta: String,
    /// Cases right only mounted alone, comma-separated, or `none`.
    pub lifted: String,
    /// Cases wrong only mounted alone, or `none`.
    pub jammed: String,
    /// Notes (unhealthy mounted run, no run).
    pub problems: Vec<String>,
}

/// Base vs head.
#[derive(Debug, Clone, Serialize)]
pub struct CompareView {
    /// `regressed`, `improved`, `unchanged`, `insufficient data`; `surface diff` when only
    /// surfaces were compared.
    pub verdict: String,
    /// ❌ ✅ ⚠️ ℹ️.
    pub icon: &'static str,
    /// Base source.
    pub base: String,
    /// Head source.
    pub head: String,
    /// `10 paired cases · gate: case-level sign test, α = 0.05, gated: …`.
    pub line: String,
    /// Cases left out of the pairing, one sentence each.
    pub left_out: Vec<String>,
    /// One block per model.
    pub models: Vec<CompareModelView>,
    /// Every regressed comparison over all models (what a reviewer reads first).
    pub regressions: Vec<CompareRow>,
    /// Mount groups side by side (`eval.profiles`), per group and model.
    pub groups: Vec<GroupCompareView>,
}

/// One mount group of one model in a compare.
#[derive(Debug, Clone, Serialize)]
pub struct GroupCompareView {
    /// The group.
    pub profile: String,
    /// The model label.
    pub model: String,
    /// Base: `mounted 100.0% / all-in-one 33.3%`, or `—`.
    pub before: String,
    /// Head, the same.
    pub after: String,
    /// Empty when comparable, else `not comparable: REASON; …`.
    pub note: String,
}

/// One model's comparisons.
#[derive(Debug, Clone, Serialize)]
pub struct CompareModelView {
    /// The model.
    pub model: String,
    /// The suite-wide metrics.
    pub metrics: Vec<CompareRow>,
    /// Per-tool and confusion-pair comparisons whose verdict is not `unchanged`.
    pub moved: Vec<CompareRow>,
    /// Per-tool and confusion-pair comparisons left out of `moved`.
    pub quiet: usize,
    /// Notes, `label: note`.
    pub notes: Vec<String>,
}

/// One compared metric.
#[derive(Debug, Clone, Serialize)]
pub struct CompareRow {
    /// The model.
    pub model: String,
    /// `selection-accuracy`, `tool-accuracy lookup_order`, ….
    pub label: String,
    /// Whether `--fail-on-regression` reads it.
    pub gated: bool,
    /// Base over the paired trials.
    pub before: RateView,
    /// Head over the paired trials.
    pub after: RateView,
    /// `−46.5 pts`, or empty when unmeasured.
    pub delta: String,
    /// The delta as a share, when measured.
    pub delta_value: Option<f64>,
    /// `0↑ 6↓ 3= of 9, p = 0.0312`.
    pub cases: String,
    /// `0↑ 23↓ 20= of 43, p = 2.4e-7`.
    pub trials: String,
    /// `regressed`, `improved`, `unchanged`, `insufficient data`.
    pub verdict: String,
    /// ❌ ✅ ➖ ⚠️.
    pub icon: &'static str,
    /// True when lower is better.
    pub lower_is_better: bool,
}

/// The surface diff.
#[derive(Debug, Clone, Serialize)]
pub struct SurfaceView {
    /// `1 tool added, 1 re-described, 1 re-schemed · tool tokens 424 → 497 (+73)`; zero
    /// categories are left out (`no tool changed · tool tokens 424 → 424 (+0)`).
    pub line: String,
    /// Added tools.
    pub added: Vec<ChangeView>,
    /// Removed tools.
    pub removed: Vec<ChangeView>,
    /// Re-described tools.
    pub redescribed: Vec<ChangeView>,
    /// Re-schemed tools (`detail` names the JSON pointers that changed).
    pub reschemed: Vec<ChangeView>,
    /// Lint findings new in head (compare documents; a ci document lists them under `lint`).
    pub new_findings: Vec<FindingView>,
    /// Findings base had that head does not.
    pub resolved_findings: u64,
    /// Pairs that became confusable.
    pub newly_confusable: Vec<PairChangeView>,
    /// Whether anything changed at all (tools or confusable pairs).
    pub changed: bool,
}

/// One changed tool.
#[derive(Debug, Clone, Serialize)]
pub struct ChangeView {
    /// The tool name.
    pub name: String,
    /// `+61 tokens`, `70 → 52 tokens (−18)`, `−40 tokens`.
    pub tokens: String,
    /// Where it is defined (`file:line`), or empty.
    pub origin: String,
    /// The changed JSON pointers of a re-schemed tool, comma-separated, or empty.
    pub detail: String,
}

/// A pair that became confusable.
#[derive(Debug, Clone, Serialize)]
pub struct PairChangeView {
    /// One tool.
    pub a: String,
    /// The other.
    pub b: String,
    /// `similarity 0.81, was 0.42` or `similarity 0.81, a new tool`.
    pub text: String,
}

/// The lint of the head surface.
#[derive(Debug, Clone, Serialize)]
pub struct LintView {
    /// `3 errors, 4 warnings, 3 infos (1 suppressed) on 12 tools and 2 skills`.
    pub line: String,
    /// ❌ ⚠️ ✅ for the findings the gate counts.
    pub icon: &'static str,
    /// Error count (every finding).
    pub errors: usize,
    /// Warning count (every finding).
    pub warnings: usize,
    /// `New lint findings` (a pull request, new findings gated) or `Lint findings`.
    pub title: String,
    /// `2 errors, 1 warning new in this pull request; 7 pre-existing findings not gated`.
    pub gate_line: String,
    /// Errors and warnings the gate counts (new ones in a pull request), worst first.
    pub new: Vec<FindingView>,
    /// The first few of `new` (what a comment lists).
    pub top: Vec<FindingView>,
    /// How many of `new` are not in `top`.
    pub more: usize,
    /// `… 1 more error and 2 more warnings`, empty when `more` is 0.
    pub more_text: String,
    /// Infos the gate counts (never gating; folded).
    pub new_infos: Vec<FindingView>,
    /// Findings already at the merge base (counted and folded, never gated).
    pub preexisting: Vec<FindingView>,
    /// Every finding.
    pub all: Vec<FindingView>,
}

/// One lint finding.
#[derive(Debug, Clone, Serialize)]
pub struct FindingView {
    /// `error`, `warn`, `info`.
    pub severity: &'static str,
    /// ❌ ⚠️ ℹ️.
    pub icon: &'static str,
    /// Rule code.
    pub code: String,
    /// Tool, pair, skill or surface, with the parameter.
    pub subject: String,
    /// What is wrong.
    pub message: String,
    /// What to do.
    pub suggestion: String,
    /// `file:line`, or empty.
    pub location: String,
}
