//! [`View::new`]: lay out a scorecard, compare or ci document (headline, event, suite, the
//! sections that are present) from the part builders, and the pointer line a size-limited text
//! ends with.

use super::compare::{compare_view, surface_view};
use super::limit::{Limit, SECTIONS};
use super::lint::lint_view;
use super::scorecard::model_view;
use super::types::{EventView, GateView, GroupView, Headline, SuiteView, View};
use super::words::{regression_sentence, short_sha, status_icon, status_word, verdict_key};
use crate::render::document::Document;
use crate::render::text::{plural, rate as rate_text, verdict_word};
use crate::report::ci::{CiMode, CiReport, CiStatus};
use crate::report::compare::CompareReport;
use crate::report::scorecard::Scorecard;

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
            groups: Vec::new(),
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
                "{} ({} tokens) · {} × {} · seed {} · {}{}",
                plural(card.suite.tools.len(), "tool", "tools"),
                card.suite.tool_tokens,
                plural(card.suite.cases.len(), "case", "cases"),
                plural(r.repeat as usize, "repeat", "repeats"),
                r.seed,
                r.permutation,
                sharding(card)
            ),
            fingerprint: card.suite.fingerprint.clone(),
            tools: card.suite.tools.len(),
            cases: card.suite.cases.len(),
        });
        self.models = card.models.iter().map(|m| model_view(card, m)).collect();
        self.groups = card
            .profiles
            .iter()
            .flat_map(|p| &p.groups)
            .map(|g| {
                let list = |v: &[String]| {
                    if v.is_empty() {
                        "none".to_owned()
                    } else {
                        v.join(", ")
                    }
                };
                GroupView {
                    profile: g.profile.clone(),
                    model: g.model.clone(),
                    mounted: rate_text(&g.mounted),
                    all_in_one: rate_text(&g.all_in_one),
                    delta: g.delta.map_or("n/a".to_owned(), |d| {
                        format!(
                            "{}{:.1} pts",
                            if d < 0.0 { "−" } else { "+" },
                            d.abs() * 100.0
                        )
                    }),
                    lifted: list(&g.lifted),
                    jammed: list(&g.jammed),
                    problems: g.problems.clone(),
                }
            })
            .collect();
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
        view.lint = Some(lint_view(&ci.lint, ci.lint_gate.as_ref()));
        // A ci document lists the new findings once, under `lint` (split by the gate).
        if let Some(sv) = view.surface.as_mut() {
            sv.new_findings.clear();
        }
        let f = &ci.files;
        view.files = [
            ("JSON", &f.json),
            ("JUnit", &f.junit),
            ("SARIF", &f.sarif),
            ("HTML", &f.html),
            ("badge", &f.badge),
        ]
        .into_iter()
        .filter_map(|(label, path)| path.as_ref().map(|p| (label.to_owned(), file_name(p))))
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

/// The last component of a path a run wrote: a runner's absolute paths mean nothing to a
/// reviewer, the file name finds the file in the run's artifacts.
fn file_name(path: &str) -> String {
    path.rsplit(['/', '\\'])
        .find(|s| !s.is_empty())
        .unwrap_or(path)
        .to_owned()
}

/// What a part or a partial merge covers, for the suite line (empty for a whole run).
fn sharding(card: &Scorecard) -> String {
    match (&card.shard, &card.partial) {
        (Some(s), _) => format!(" · {}", crate::render::text::part_phrase(s)),
        (None, Some(p)) => format!(" · {}", crate::render::text::partial_phrase(p)),
        (None, None) => String::new(),
    }
}
