//! The view every template reads: one document (scorecard, compare, ci) laid out as
//! pre-formatted text — every rate as `k/n = p% [lo–hi]` with its Wilson interval from the
//! report. The view computes no statistic; it only formats what the report holds.

use std::collections::BTreeMap;

use serde::Serialize;

use super::document::Document;
use super::template::{Limit, SECTIONS, TOP_FINDINGS};
use super::text::{
    location, p_text, pairing_text, plural, rate as rate_text, subject, summary_phrase,
    verdict_word,
};
use crate::eval::cases::case_outcomes;
use crate::report::cases::CaseStatus;
use crate::report::ci::{CiMode, CiReport, CiStatus};
use crate::report::compare::{
    CompareReport, MetricComparison, PairedTest, SurfaceDiff, Verdict as CompareVerdict,
};
use crate::report::lint::{Finding, LintReport, Severity};
use crate::report::metrics::Rate;
use crate::report::scorecard::{ModelResult, Scorecard, Status};

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
    /// Base vs head statistics.
    pub compare: Option<CompareView>,
    /// The free surface diff.
    pub surface: Option<SurfaceView>,
    /// Lint of the head surface (`mf ci`).
    pub lint: Option<LintView>,
    /// Files the run wrote, `(label, path)`.
    pub files: Vec<(String, String)>,
    /// Which sections to render (see [`SECTIONS`]); a size limit switches some off.
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
}

/// A gate.
#[derive(Debug, Clone, Serialize)]
pub struct GateView {
    /// `min-accuracy ≥ 0.8 on MODEL: 0.600 — FAIL`.
    pub text: String,
    /// Whether it passed.
    pub passed: bool,
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
    /// `1 added, 1 removed, 2 re-described, 0 re-schemed · tokens 1997 → 1905 (−92)`.
    pub line: String,
    /// Added tools with where they are defined.
    pub added: Vec<String>,
    /// Removed tools.
    pub removed: Vec<String>,
    /// Re-described tools.
    pub redescribed: Vec<String>,
    /// Re-schemed tools with the JSON pointers that changed.
    pub reschemed: Vec<String>,
    /// Lint findings new in head.
    pub new_findings: Vec<FindingView>,
    /// Findings base had that head does not.
    pub resolved_findings: u64,
    /// `a ↔ b 0.81 (was 0.42)`.
    pub newly_confusable: Vec<String>,
}

/// The lint of the head surface.
#[derive(Debug, Clone, Serialize)]
pub struct LintView {
    /// `3 errors, 4 warnings, 3 infos (1 suppressed) on 12 tools and 2 skills`.
    pub line: String,
    /// ❌ ⚠️ ✅.
    pub icon: &'static str,
    /// Error count.
    pub errors: usize,
    /// Warning count.
    pub warnings: usize,
    /// Errors and warnings, worst first, at most a few.
    pub top: Vec<FindingView>,
    /// Errors and warnings not in `top`.
    pub more: usize,
    /// Every finding (for the details).
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

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::Unhealthy => "unhealthy",
    }
}

fn status_icon(status: &str) -> &'static str {
    match status {
        "pass" | "improved" | "unchanged" => "✅",
        "fail" | "regressed" => "❌",
        "unhealthy" | "insufficient-data" => "⚠️",
        _ => "ℹ️",
    }
}

fn verdict_key(v: CompareVerdict) -> &'static str {
    match v {
        CompareVerdict::Regressed => "regressed",
        CompareVerdict::Improved => "improved",
        CompareVerdict::Unchanged => "unchanged",
        CompareVerdict::InsufficientData => "insufficient-data",
    }
}

fn test_text(t: &PairedTest) -> String {
    format!(
        "{}↑ {}↓ {}= of {}, p = {}",
        t.improved,
        t.regressed,
        t.tied,
        t.pairs,
        p_text(t.p_adjusted)
    )
}

fn short_sha(sha: &Option<String>) -> Option<String> {
    sha.as_ref().map(|s| s.chars().take(12).collect())
}

impl View {
    /// Lay out any document.
    pub fn new(doc: &Document) -> View {
        match doc {
            Document::Scorecard(card) => View::scorecard(card),
            Document::Compare(report) => View::compare(report),
            Document::Ci(ci) => View::ci(ci),
        }
    }

    /// Lay out a CI document.
    pub fn of_ci(ci: &CiReport) -> View {
        View::ci(ci)
    }

    fn empty(kind: &'static str, title: String, headline: Headline) -> View {
        View {
            kind,
            title,
            headline,
            free: None,
            notes: Vec::new(),
            event: None,
            suite: None,
            models: Vec::new(),
            gates: Vec::new(),
            compare: None,
            surface: None,
            lint: None,
            files: Vec::new(),
            show: SECTIONS.iter().map(|s| ((*s).to_owned(), true)).collect(),
            generator: format!("mf {}", env!("CARGO_PKG_VERSION")),
        }
    }

    fn with_scorecard(&mut self, card: &Scorecard) {
        let r = &card.reproducibility;
        self.suite = Some(SuiteView {
            name: card.suite.name.clone(),
            path: card.suite.path.clone(),
            line: format!(
                "{} ({} tokens) · {} × {} · seed {} · {}",
                plural(card.suite.tools.len(), "tool", "tools"),
                card.suite.tool_tokens,
                plural(card.suite.cases.len(), "case", "cases"),
                plural(r.repeat as usize, "repeat", "repeats"),
                r.seed,
                r.permutation
            ),
            fingerprint: card.suite.fingerprint.clone(),
            tools: card.suite.tools.len(),
            cases: card.suite.cases.len(),
        });
        self.models = card.models.iter().map(|m| model_view(card, m)).collect();
        self.gates = card
            .gates
            .iter()
            .filter(|g| !g.passed || !(g.name == "max-error-rate" || g.name == "min-scored"))
            .map(|g| {
                let op = if g.name.starts_with("max") {
                    "≤"
                } else {
                    "≥"
                };
                let value = g
                    .value
                    .map_or_else(|| "unmeasured".to_owned(), |v| format!("{v:.3}"));
                GateView {
                    text: format!(
                        "{} {op} {} on {}: {value} — {}",
                        g.name,
                        g.threshold,
                        g.model,
                        if g.passed { "pass" } else { "FAIL" }
                    ),
                    passed: g.passed,
                }
            })
            .collect();
    }

    fn scorecard(card: &Scorecard) -> View {
        let status = status_word(card.status);
        let detail = card
            .models
            .first()
            .map(|m| {
                format!(
                    "selection accuracy {} ({})",
                    rate_text(&m.metrics.selection_accuracy),
                    m.label
                )
            })
            .unwrap_or_default();
        let mut reasons: Vec<String> = card
            .gates
            .iter()
            .filter(|g| !g.passed)
            .map(|g| {
                format!(
                    "gate {} {} failed on {} ({})",
                    g.name,
                    g.threshold,
                    g.model,
                    g.value
                        .map_or_else(|| "unmeasured".to_owned(), |v| format!("{v:.3}"))
                )
            })
            .collect();
        for m in &card.models {
            reasons.extend(
                m.health
                    .problems
                    .iter()
                    .map(|p| format!("{}: {p}", m.label)),
            );
        }
        let mut view = View::empty(
            "scorecard",
            format!("mf eval {}", card.suite.name),
            Headline {
                status: status.to_owned(),
                icon: status_icon(status),
                title: format!("mf eval {}: {}", card.suite.name, status.to_uppercase()),
                detail,
                reasons,
            },
        );
        view.with_scorecard(card);
        view
    }

    fn compare(report: &CompareReport) -> View {
        let status = report.verdict.map_or("surface-diff", verdict_key);
        let cv = compare_view(report);
        let detail = format!("{} → {}", report.base.source, report.head.source);
        let reasons = cv
            .regressions
            .iter()
            .filter(|r| r.gated)
            .map(regression_sentence)
            .collect();
        let mut view = View::empty(
            "compare",
            "mf compare".to_owned(),
            Headline {
                status: status.to_owned(),
                icon: status_icon(status),
                title: format!(
                    "mf compare: {}",
                    report
                        .verdict
                        .map_or("surface diff".to_owned(), |v| verdict_word(v)
                            .to_uppercase())
                ),
                detail,
                reasons,
            },
        );
        view.compare = report.eval.as_ref().map(|_| cv);
        view.surface = report.surface.as_ref().map(surface_view);
        view
    }

    fn ci(ci: &CiReport) -> View {
        let status = match ci.status {
            CiStatus::Pass => "pass",
            CiStatus::Fail => "fail",
            CiStatus::Unhealthy => "unhealthy",
        };
        let detail = match (&ci.head, ci.mode) {
            (_, CiMode::Free) => "free checks only".to_owned(),
            (Some(card), CiMode::Full) => card
                .models
                .first()
                .map(|m| {
                    format!(
                        "selection accuracy {} ({})",
                        rate_text(&m.metrics.selection_accuracy),
                        m.label
                    )
                })
                .unwrap_or_default(),
            (None, CiMode::Full) => String::new(),
        };
        let mut view = View::empty(
            "ci",
            "mf ci".to_owned(),
            Headline {
                status: status.to_owned(),
                icon: status_icon(status),
                title: format!("mf ci: {}", status.to_uppercase()),
                detail,
                reasons: ci.reasons.clone(),
            },
        );
        if ci.mode == CiMode::Free {
            let why = match &ci.free_reason {
                Some(r) => r.clone(),
                None if ci.event.fork => "this pull request comes from a fork, and GitHub gives \
                     fork pull requests no secrets, so no API key was available"
                    .to_owned(),
                None => "no API key was available".to_owned(),
            };
            view.free = Some(format!(
                "Free checks only: {why}. No model was called, so this run measured no accuracy; \
                 lint and the surface diff still ran."
            ));
        }
        view.notes = ci.notes.clone();
        let e = &ci.event;
        view.event = Some(EventView {
            name: e.name.clone(),
            repository: e.repository.clone(),
            pull_request: e.pull_request,
            base_sha: short_sha(&e.base_sha),
            head_sha: short_sha(&e.head_sha),
            fork: e.fork,
            run_url: e
                .run_url
                .clone()
                .filter(|u| u.starts_with("https://") || u.starts_with("http://")),
        });
        if let Some(card) = &ci.head {
            view.with_scorecard(card);
        }
        view.compare = ci
            .compare
            .as_ref()
            .filter(|c| c.eval.is_some())
            .map(compare_view);
        view.surface = ci
            .surface
            .as_ref()
            .or_else(|| ci.compare.as_ref().and_then(|c| c.surface.as_ref()))
            .map(surface_view);
        view.lint = Some(lint_view(&ci.lint));
        let f = &ci.files;
        view.files = [
            ("JSON", &f.json),
            ("JUnit", &f.junit),
            ("SARIF", &f.sarif),
            ("HTML", &f.html),
            ("badge", &f.badge),
        ]
        .into_iter()
        .filter_map(|(label, path)| path.as_ref().map(|p| (label.to_owned(), p.clone())))
        .collect();
        view
    }

    /// The line that ends a cut text: what was left out and where the full report is.
    pub fn pointer(&self, dropped: &[&str], limit: Limit) -> String {
        let mut whereto = Vec::new();
        if let Some(url) = self.event.as_ref().and_then(|e| e.run_url.as_ref()) {
            whereto.push(format!("[workflow run]({url})"));
        }
        if let Some((_, json)) = self.files.iter().find(|(l, _)| l == "JSON") {
            whereto.push(format!("`{}`", json.replace('`', "'")));
        }
        if let Some((_, html)) = self.files.iter().find(|(l, _)| l == "HTML") {
            whereto.push(format!("`{}`", html.replace('`', "'")));
        }
        let whereto = if whereto.is_empty() {
            "the JSON document (`mf report FILE --format html` shows everything)".to_owned()
        } else {
            whereto.join(" · ")
        };
        let left = if dropped.is_empty() {
            "the end".to_owned()
        } else {
            dropped.join(", ")
        };
        format!(
            "\n> ✂️ Cut to fit the {} limit (left out: {left}). Full report: {whereto}\n",
            limit.describe()
        )
    }
}

fn regression_sentence(r: &CompareRow) -> String {
    format!(
        "{} regressed on {}: {} → {} ({}), cases {}",
        r.label, r.model, r.before.percent, r.after.percent, r.delta, r.cases
    )
}

fn model_view(card: &Scorecard, m: &ModelResult) -> ModelView {
    let x = &m.metrics;
    let fig = |name: &str, text: String| Figure {
        name: name.to_owned(),
        text,
    };
    let mut metrics = vec![
        fig("selection accuracy", rate_text(&x.selection_accuracy)),
        fig(
            "per case",
            format!(
                "{}{}",
                rate_text(&x.case_level.rate),
                if x.case_level.ties > 0 {
                    format!(" ({} ties counted as misses)", x.case_level.ties)
                } else {
                    String::new()
                }
            ),
        ),
        fig("argument accuracy", rate_text(&x.argument_accuracy)),
        fig("over-trigger", rate_text(&x.over_trigger)),
        fig("abstention", rate_text(&x.abstention)),
        fig("phantom calls", rate_text(&x.phantom)),
        fig("multi-call", rate_text(&x.multi_call)),
        fig(
            "errors",
            format!("{} ({} retries)", rate_text(&x.error_rate), x.retries),
        ),
    ];
    if let Some(u) = &x.unreviewed {
        metrics.push(fig(
            "unreviewed cases",
            format!(
                "{} (not in official figures)",
                rate_text(&u.selection_accuracy)
            ),
        ));
    }
    let mut spend = Vec::new();
    if let Some(l) = &x.latency_ms {
        spend.push(fig(
            "latency",
            format!("p50 {} ms · p95 {} ms (n = {})", l.p50, l.p95, l.n),
        ));
    }
    if x.tokens.trials_with_usage > 0 {
        spend.push(fig(
            "tokens",
            format!(
                "{} in · {} out over {} trials",
                x.tokens.input, x.tokens.output, x.tokens.trials_with_usage
            ),
        ));
    }
    if let Some(c) = &x.cost {
        spend.push(fig("cost", format!("{:.4} {}", c.amount, c.currency)));
    }
    let cases = case_outcomes(m, &card.suite.cases)
        .into_iter()
        .map(|o| {
            let (status, icon, failure) = match o.status {
                CaseStatus::Pass => ("pass", "✅", None),
                CaseStatus::Fail(k) => ("fail", "❌", Some(k.as_str().to_owned())),
                CaseStatus::Error => ("error", "⚠️", None),
                CaseStatus::NotRun => ("not run", "⏭️", None),
                CaseStatus::Unreviewed => ("unreviewed", "📝", None),
            };
            CaseView {
                id: o.id.clone(),
                expected: o.expected.clone().unwrap_or_else(|| "(none)".into()),
                status: status.to_owned(),
                icon,
                failure,
                outcome: o.summary(),
                verdicts: o
                    .verdicts
                    .iter()
                    .map(|(v, n)| format!("{v} ×{n}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                failures: (!o.failures.is_empty()).then(|| o.failure_text()),
                errors: (o.error_count() > 0).then(|| o.error_text()),
            }
        })
        .collect();
    ModelView {
        label: m.label.clone(),
        place: if m.wire == "offline" {
            "offline".to_owned()
        } else {
            format!("{} · {} · {}", m.provider, m.wire, m.endpoint)
        },
        selection: RateView::new(&x.selection_accuracy),
        metrics,
        spend,
        problems: m.health.problems.clone(),
        tools: x
            .per_tool
            .iter()
            .map(|t| ToolView {
                tool: t.tool.clone(),
                on_surface: t.on_surface,
                cases: t.cases,
                accuracy: RateView::new(&t.accuracy),
                picked: t.picked,
                picked_wrongly: t.picked_wrongly,
                arguments: RateView::new(&t.argument_accuracy),
            })
            .collect(),
        confusion_pairs: x
            .confusion_pairs
            .iter()
            .map(|p| PairView {
                expected: p.expected.clone(),
                picked: p.picked.clone(),
                count: p.count,
            })
            .collect(),
        confusion: ConfusionView {
            rows: x.confusion.rows.clone(),
            columns: x.confusion.columns.clone(),
            counts: x.confusion.counts.clone(),
        },
        cases,
    }
}

fn compare_row(model: &str, c: &MetricComparison, gated: &[String]) -> CompareRow {
    let label = match &c.subject {
        Some(s) => format!("{} {s}", c.metric),
        None => c.metric.clone(),
    };
    CompareRow {
        model: model.to_owned(),
        label,
        gated: gated.contains(&c.metric),
        before: RateView::new(&c.before),
        after: RateView::new(&c.after),
        delta: c
            .delta
            .map_or_else(String::new, |d| format!("{:+.1} pts", d * 100.0)),
        delta_value: c.delta,
        cases: test_text(&c.case),
        trials: test_text(&c.trial),
        verdict: verdict_word(c.verdict).to_owned(),
        icon: match c.verdict {
            CompareVerdict::Regressed => "❌",
            CompareVerdict::Improved => "✅",
            CompareVerdict::Unchanged => "➖",
            CompareVerdict::InsufficientData => "⚠️",
        },
        lower_is_better: !c.higher_is_better,
    }
}

fn compare_view(report: &CompareReport) -> CompareView {
    let mut view = CompareView {
        verdict: report
            .verdict
            .map_or("surface diff", verdict_word)
            .to_owned(),
        icon: status_icon(report.verdict.map_or("surface-diff", verdict_key)),
        base: report.base.source.clone(),
        head: report.head.source.clone(),
        line: String::new(),
        left_out: Vec::new(),
        models: Vec::new(),
        regressions: Vec::new(),
    };
    let Some(eval) = &report.eval else {
        return view;
    };
    view.line = format!(
        "{} paired cases · gate: {}, α = {}, gated: {}",
        eval.cases.paired,
        pairing_text(eval.gate.pairing),
        eval.gate.alpha,
        eval.gate.metrics.join(", ")
    );
    for (what, ids) in [
        ("only in base", &eval.cases.only_in_base),
        ("only in head", &eval.cases.only_in_head),
        ("input changed, not paired", &eval.cases.input_changed),
    ] {
        if !ids.is_empty() {
            view.left_out.push(format!("{what}: {}", ids.join(", ")));
        }
    }
    for models in [&eval.models_only_in_base, &eval.models_only_in_head] {
        if !models.is_empty() {
            view.left_out
                .push(format!("models on one side only: {}", models.join(", ")));
        }
    }
    let gated = &eval.gate.metrics;
    for m in &eval.models {
        let metrics: Vec<CompareRow> = m
            .metrics
            .iter()
            .map(|c| compare_row(&m.model, c, gated))
            .collect();
        let others: Vec<&MetricComparison> = m.tools.iter().chain(&m.pairs).collect();
        let moved: Vec<CompareRow> = others
            .iter()
            .filter(|c| c.verdict != CompareVerdict::Unchanged)
            .map(|c| compare_row(&m.model, c, gated))
            .collect();
        let notes = m
            .metrics
            .iter()
            .chain(&m.tools)
            .chain(&m.pairs)
            .flat_map(|c| {
                let label = c
                    .subject
                    .as_ref()
                    .map_or_else(|| c.metric.clone(), |s| format!("{} {s}", c.metric));
                c.notes.iter().map(move |n| format!("{label}: {n}"))
            })
            .collect();
        view.regressions.extend(
            metrics
                .iter()
                .chain(&moved)
                .filter(|r| r.verdict == "regressed")
                .cloned(),
        );
        view.models.push(CompareModelView {
            model: m.model.clone(),
            quiet: others.len() - moved.len(),
            metrics,
            moved,
            notes,
        });
    }
    view
}

fn finding_view(f: &Finding) -> FindingView {
    FindingView {
        severity: f.severity.as_str(),
        icon: match f.severity {
            Severity::Error => "❌",
            Severity::Warn => "⚠️",
            Severity::Info => "ℹ️",
        },
        code: f.code.clone(),
        subject: match &f.param {
            Some(p) => format!("{} ({p})", subject(f)),
            None => subject(f),
        },
        message: f.message.clone(),
        suggestion: f.suggestion.clone(),
        location: location(f).unwrap_or_default(),
    }
}

fn surface_view(d: &SurfaceDiff) -> SurfaceView {
    let with_origin = |t: &crate::report::compare::ToolChange| match &t.origin {
        Some(o) => format!("{} ({o})", t.name),
        None => t.name.clone(),
    };
    SurfaceView {
        line: format!(
            "{} added, {} removed, {} re-described, {} re-schemed · tokens {} → {} ({:+})",
            d.added.len(),
            d.removed.len(),
            d.redescribed.len(),
            d.reschemed.len(),
            d.tokens.before,
            d.tokens.after,
            d.tokens.delta
        ),
        added: d.added.iter().map(with_origin).collect(),
        removed: d.removed.iter().map(with_origin).collect(),
        redescribed: d.redescribed.iter().map(with_origin).collect(),
        reschemed: d
            .reschemed
            .iter()
            .map(|t| format!("{}: {}", t.name, t.schema_changes.join(", ")))
            .collect(),
        new_findings: d.new_findings.iter().map(finding_view).collect(),
        resolved_findings: d.resolved_findings,
        newly_confusable: d
            .newly_confusable
            .iter()
            .map(|p| {
                format!(
                    "{} ↔ {} {:.2}{}",
                    p.a,
                    p.b,
                    p.score,
                    p.before
                        .map_or_else(|| " (new tool)".to_owned(), |b| format!(" (was {b:.2})"))
                )
            })
            .collect(),
    }
}

fn lint_view(l: &LintReport) -> LintView {
    let s = &l.summary;
    let problems: Vec<FindingView> = l
        .findings
        .iter()
        .filter(|f| f.severity != Severity::Info)
        .map(finding_view)
        .collect();
    LintView {
        line: summary_phrase(s),
        icon: if s.errors > 0 {
            "❌"
        } else if s.warnings > 0 {
            "⚠️"
        } else {
            "✅"
        },
        errors: s.errors,
        warnings: s.warnings,
        more: problems.len().saturating_sub(TOP_FINDINGS),
        top: problems.into_iter().take(TOP_FINDINGS).collect(),
        all: l.findings.iter().map(finding_view).collect(),
    }
}
