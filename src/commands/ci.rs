//! `mf ci`: the GitHub Action's one entry point. Free checks always; eval, base eval and compare
//! when a suite, models with their keys and a trusted event allow; then every output, and the
//! exit code the gates earned.
//!
//! Steps, in order:
//! 1. Read the GitHub context (`GITHUB_*`, the event payload) and find the suite.
//! 2. Free: load the surface at PATH and lint it (suite profiles and suppressions, `--baseline`).
//! 3. Free: the base revision (`--base-ref`, else the pull request's base), its merge base with
//!    PATH's `HEAD`, the surface at the merge base (`git archive`, nothing executed), the surface
//!    diff. Skipped with a note without a base, or when history is too shallow to find it.
//! 4. Mode: free on a fork's `pull_request`/`pull_request_target` run, without a suite, without
//!    models, or when a model's key variable is unset; full otherwise.
//! 5. Full: eval head (PATH's surface, the suite here) with the `mf eval` engine; eval base (the
//!    surface at the merge base, the suite file as it is at the merge base) with identical
//!    settings, reusing a stored base scorecard when one matches (base commit + settings + suite
//!    and surface fingerprints); compare when the two are comparable.
//! 6. Status, reasons and exit code: 5 when an eval is unhealthy; 2 when lint fails `--fail-on`,
//!    `--fail-on-regression` meets a significant regression (or runs it cannot compare), or
//!    `--min-accuracy` fails; 1 when the head eval could not run at all; else 0.
//! 7. Outputs: SARIF, JUnit, HTML and badge; the sticky PR comment; the job summary; the CI
//!    report JSON; the step outputs; in Actions, annotations on stdout and the status on stderr
//!    (elsewhere the terminal rendering on stdout).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::analyze::baseline::{self, Baseline};
use crate::analyze::lint::{LintOptions, lint};
use crate::cli::ci::{CiArgs, Switch};
use crate::cli::input::SurfaceArgs;
use crate::compare::git::{GitError, merge_base, surface_at_ref};
use crate::compare::surface_diff::diff;
use crate::github::event::Context;
use crate::github::{annotations, outputs, summary};
use crate::render::document::Document;
use crate::render::terminal::Style;
use crate::report::ci::{CI_VERSION, CiMode, CiReport, CiStatus, Files};
use crate::report::compare::Verdict;
use crate::report::lint::LintReport;
use crate::report::scorecard::{GateKind, Status};
use crate::suite::Suite;
use crate::surface::Surface;
use crate::util::atomic::write_atomic;
use crate::{Error, Exit, render};

mod eval_part;
mod publish;

use eval_part::{EvalPart, free_reason, run_eval};
use publish::{default_json_path, post_comment, write_reports};

/// Suite files looked for when `--suite` is not given: in PATH (a folder), then here.
const DEFAULT_SUITES: &[&str] = &["mf.suite.json", "mf.suite.yaml", "mf.suite.yml"];

/// The surface at PATH, loaded.
struct Head {
    surface: Surface,
    label: String,
}

/// The suite `mf ci` found, as read (for lint) — not yet checked for eval.
struct FoundSuite {
    path: PathBuf,
    display: String,
    suite: Suite,
}

pub(super) fn run(args: &CiArgs, style: Style) -> Result<Exit, Error> {
    args.check_templates().map_err(Error::Usage)?;
    validate(args)?;
    let ctx = Context::from_env();
    for w in &ctx.warnings {
        super::note(&format!("warning: {w}"));
    }
    let mut event = ctx.event.clone();
    if let Some(n) = args.pull_request {
        event.pull_request = Some(n);
    }
    let mut notes = Vec::new();

    // 1–2. The suite and the lint of head.
    let found = find_suite(args, &mut notes)?;
    let head = load_head(&args.path)?;
    let lint_report = lint_head(args, &head, found.as_ref().map(|f| &f.suite))?;

    // 3. The base revision and the surface diff.
    let (repo, rel) = repo_and_path(&args.path);
    let base_rev = args.base_ref.clone().or_else(|| ctx.pr_base_sha.clone());
    let base_commit = match &base_rev {
        None => {
            notes.push(
                "no base revision (not a pull request, and no --base-ref): no surface diff and \
                 no base eval"
                    .to_owned(),
            );
            None
        }
        Some(rev) => match merge_base(&repo, rev, "HEAD") {
            Ok(mb) => Some(mb),
            Err(e) => {
                notes.push(format!("no base: {e}; no surface diff and no base eval"));
                None
            }
        },
    };
    if let Some(mb) = &base_commit {
        event.base_sha = Some(mb.clone());
    }
    let base_surface = base_commit
        .as_deref()
        .and_then(|mb| base_surface(&repo, mb, &rel, &args.path, &mut notes));
    let surface_diff = base_surface.as_ref().map(|b| diff(b, &head.surface));

    // 4–5. Mode, then the eval part.
    let mut eval = EvalPart::default();
    let free_reason = free_reason(args, &event, found.as_ref())?;
    if free_reason.is_none()
        && let Some(found) = &found
    {
        let base = base_commit.as_deref().zip(base_surface.as_ref());
        match run_eval(args, found, &head, base, &mut notes)? {
            Some(part) => eval = part,
            None => return Ok(Exit::Interrupted),
        }
    }
    if let Some(reason) = &free_reason {
        if args.min_accuracy.is_some() {
            notes.push(format!(
                "--min-accuracy was not checked: the eval did not run ({reason})"
            ));
        }
        if args.fail_on_regression {
            notes.push("--fail-on-regression was not checked: the eval did not run".to_owned());
        }
    }

    // 6. Status, reasons, exit code.
    let (status, reasons) = verdict(args, &lint_report, &eval);
    let exit = match (&eval.error, status) {
        (Some(_), _) => Exit::InputError,
        (None, CiStatus::Unhealthy) => Exit::Unhealthy,
        (None, CiStatus::Fail) => Exit::GateFailed,
        (None, CiStatus::Pass) => Exit::Ok,
    };

    // 7. Outputs.
    let json_path = args.json_out.clone().or_else(default_json_path);
    let mut ci = CiReport {
        version: CI_VERSION,
        kind: "ci".into(),
        status,
        reasons,
        event,
        mode: if free_reason.is_some() {
            CiMode::Free
        } else {
            CiMode::Full
        },
        free_reason,
        notes,
        lint: lint_report,
        lint_fail_on: args.fail_on.severity(),
        surface: surface_diff,
        head: eval.head,
        base: eval.base,
        base_reused: eval.base_reused,
        compare: eval.compare,
        files: Files::default(),
    };
    write_reports(args, &mut ci, json_path.as_deref())?;
    let comment_url = post_comment(args, &ctx, &mut ci);
    if args.summary == Switch::On
        && let Some(path) = &ctx.step_summary
    {
        let text = match &args.template_summary {
            Some(t) => publish::custom_or_builtin(
                render::ci::summary_with(&Document::Ci(Box::new(ci.clone())), Some(t)),
                t,
                || render::ci::summary(&ci),
            ),
            None => render::ci::summary(&ci),
        };
        match summary::append(path, &text) {
            Ok(summary::Appended::Whole) => {}
            Ok(summary::Appended::Cut) => {
                super::note("note: the job summary was cut to stay under 1 MiB");
            }
            Ok(summary::Appended::Full) => {
                super::note("note: the job summary already holds 1 MiB; mf's summary was not added")
            }
            Err(e) => super::note(&format!(
                "warning: cannot write the job summary {}: {e}",
                path.display()
            )),
        }
    }
    if let Some(path) = &json_path {
        write(path, &render::json::to_string(&ci))?;
    }
    if let Some(path) = &ctx.output {
        let mut o = outputs::from_report(&ci);
        o.set("comment-url", comment_url.unwrap_or_default());
        o.append_to(path).map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
    }
    if ctx.in_actions {
        let new_in_head: BTreeSet<String> = ci
            .surface
            .iter()
            .flat_map(|d| d.new_findings.iter().map(|f| f.baseline_key()))
            .collect();
        let origin_of = |tool: &str| {
            head.surface
                .tools
                .iter()
                .find(|t| t.name == tool)
                .and_then(|t| t.origin.file.clone().map(|f| (f, t.origin.line)))
        };
        let lines: String =
            annotations::select(&ci.lint, ci.compare.as_ref(), &new_in_head, &origin_of)
                .iter()
                .map(|a| a.render() + "\n")
                .collect();
        super::print(&lines)?;
        super::note(&status_line(&ci));
    } else {
        super::print(&render::terminal::ci(&ci, style))?;
    }
    // The CI report's notes are not in the renderings yet: say them here.
    for n in &ci.notes {
        super::note(&format!("note: {n}"));
    }
    Ok(exit)
}

fn validate(args: &CiArgs) -> Result<(), Error> {
    if let Some(v) = args.min_accuracy
        && !(0.0..=1.0).contains(&v)
    {
        return Err(Error::Usage(format!(
            "--min-accuracy is a rate between 0 and 1, got {v}"
        )));
    }
    let name = &args.github_token_env;
    if name.is_empty() || name.contains(['=', '\0']) {
        return Err(Error::Usage(format!(
            "--github-token-env takes a variable NAME (the token stays in the environment), got {name:?}"
        )));
    }
    Ok(())
}

/// `--suite`, else the first default suite in PATH (a folder), else here. A default suite that
/// cannot be read is a note (the run is free); an explicit one is an error.
fn find_suite(args: &CiArgs, notes: &mut Vec<String>) -> Result<Option<FoundSuite>, Error> {
    let read = |path: &Path| {
        let display = path.to_string_lossy().replace('\\', "/");
        crate::suite::read_suite_any(path, &display).map(|suite| FoundSuite {
            path: path.to_path_buf(),
            display,
            suite,
        })
    };
    if let Some(path) = &args.suite {
        return Ok(Some(read(path)?));
    }
    let mut dirs = Vec::new();
    let path = Path::new(&args.path);
    if path.is_dir() && path != Path::new(".") {
        dirs.push(path.to_path_buf());
    }
    dirs.push(PathBuf::new());
    let candidates: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|d| DEFAULT_SUITES.iter().map(move |f| d.join(f)))
        .filter(|p| p.is_file())
        .collect();
    let mut drafts = Vec::new();
    for candidate in candidates {
        match read(&candidate) {
            Ok(found) if found.suite.draft => drafts.push(found),
            Ok(found) => return Ok(Some(found)),
            Err(e) => notes.push(format!("{e}; it is not used")),
        }
    }
    Ok(drafts.into_iter().next())
}

fn load_head(path: &str) -> Result<Head, Error> {
    let input = super::input::load(&SurfaceArgs {
        paths: vec![path.to_owned()],
        ..SurfaceArgs::default()
    })?;
    for w in &input.warnings {
        super::note(&format!("warning: {w}"));
    }
    Ok(Head {
        surface: input.surface,
        label: input.label,
    })
}

fn lint_head(args: &CiArgs, head: &Head, suite: Option<&Suite>) -> Result<LintReport, Error> {
    let options = LintOptions {
        max_tools: args.max_tools,
        profiles: suite.map(|s| s.profiles.clone()).unwrap_or_default(),
        ..LintOptions::default()
    };
    let findings = lint(&head.surface, &options);
    let accepted = match &args.baseline {
        Some(p) => Some(Baseline::read(p, &p.to_string_lossy())?),
        None => None,
    };
    let (findings, suppressed) = baseline::apply(
        findings,
        accepted.as_ref(),
        suite.map(|s| s.suppressions.as_slice()).unwrap_or_default(),
    );
    Ok(super::lint::build_report(
        &head.label,
        &head.surface,
        findings,
        suppressed,
    ))
}

/// The git repository folder for PATH and the path inside it to read at a revision: PATH
/// itself (`.`) for a folder, the file name in its parent for a file.
fn repo_and_path(path: &str) -> (PathBuf, String) {
    let p = Path::new(path);
    if p.is_file()
        && let Some(name) = p.file_name()
    {
        let parent = p
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
        return (parent, name.to_string_lossy().into_owned());
    }
    (p.to_path_buf(), ".".to_owned())
}

/// The surface at the merge base, or `None` (with a note) when it cannot be read. A path that
/// does not exist at the base is an empty surface: every tool is added.
fn base_surface(
    repo: &Path,
    commit: &str,
    rel: &str,
    shown: &str,
    notes: &mut Vec<String>,
) -> Option<Surface> {
    let short = short(commit);
    match surface_at_ref(repo, commit, rel) {
        Ok((surface, warnings)) => {
            for w in warnings {
                super::note(&format!("warning: {short}: {w}"));
            }
            Some(surface)
        }
        Err(GitError::PathAbsent { .. }) => {
            notes.push(format!(
                "{shown} does not exist at the base {short}: every tool in it is added"
            ));
            Some(Surface::default())
        }
        Err(e) => {
            notes.push(format!(
                "cannot read the surface at the base {short}: {e}; no surface diff and no base eval"
            ));
            None
        }
    }
}

/// The status and its reasons, worst first.
fn verdict(args: &CiArgs, lint_report: &LintReport, eval: &EvalPart) -> (CiStatus, Vec<String>) {
    let mut unhealthy = Vec::new();
    for (side, card) in [("head", &eval.head), ("base", &eval.base)] {
        let Some(card) = card else { continue };
        if card.status != Status::Unhealthy {
            continue;
        }
        let problems: Vec<String> = card
            .models
            .iter()
            .flat_map(|m| {
                m.health
                    .problems
                    .iter()
                    .map(move |p| format!("{}: {p}", m.label))
            })
            .collect();
        unhealthy.push(format!(
            "the {side} eval is unhealthy: {}",
            if problems.is_empty() {
                "a health gate failed".to_owned()
            } else {
                problems.join("; ")
            }
        ));
    }
    let mut failed = Vec::new();
    if let Some(e) = &eval.error {
        failed.push(e.clone());
    }
    let level = args.fail_on.severity();
    if let Some(level) = level {
        let n = lint_report
            .findings
            .iter()
            .filter(|f| f.severity >= level)
            .count();
        if n > 0 {
            failed.push(format!(
                "lint: {n} finding{} at {} or worse (--fail-on {})",
                if n == 1 { "" } else { "s" },
                level.as_str(),
                level.as_str()
            ));
        }
    }
    if args.fail_on_regression
        && let Some(cmp) = &eval.compare
        && cmp.verdict == Some(Verdict::Regressed)
        && let Some(e) = &cmp.eval
    {
        for m in &e.models {
            for metric in m
                .metrics
                .iter()
                .chain(&m.tools)
                .chain(&m.pairs)
                .filter(|x| x.verdict == Verdict::Regressed && e.gate.metrics.contains(&x.metric))
            {
                let what = match &metric.subject {
                    Some(s) => format!("{} of {s}", metric.metric),
                    None => metric.metric.clone(),
                };
                failed.push(format!(
                    "regression: {what} for {}: {} → {} (p = {:.4}, --fail-on-regression)",
                    m.model,
                    render::text::percent(metric.before.value),
                    render::text::percent(metric.after.value),
                    metric.case.p_adjusted,
                ));
            }
        }
    }
    if let Some(card) = &eval.head {
        for g in card
            .gates
            .iter()
            .filter(|g| !g.passed && g.kind == GateKind::Quality)
        {
            failed.push(format!(
                "{}: {} is {} (--{} {})",
                g.model,
                g.name,
                g.value
                    .map_or_else(|| "unmeasured".to_owned(), |v| format!("{v:.4}")),
                g.name,
                g.threshold
            ));
        }
    }
    failed.extend(eval.failures.iter().cloned());
    let status = if !unhealthy.is_empty() {
        CiStatus::Unhealthy
    } else if !failed.is_empty() {
        CiStatus::Fail
    } else {
        CiStatus::Pass
    };
    unhealthy.extend(failed);
    (status, unhealthy)
}

fn status_line(ci: &CiReport) -> String {
    let status = match ci.status {
        CiStatus::Pass => "pass",
        CiStatus::Fail => "fail",
        CiStatus::Unhealthy => "unhealthy",
    };
    let mode = match (&ci.mode, &ci.free_reason) {
        (CiMode::Free, Some(why)) => format!("free checks only — {why}"),
        (CiMode::Free, None) => "free checks only".to_owned(),
        (CiMode::Full, _) => "free checks, eval and compare".to_owned(),
    };
    let mut line = format!("mf ci: {status} ({mode})");
    for r in &ci.reasons {
        line.push_str(&format!("\n  - {r}"));
    }
    line
}

/// The first 12 characters of a commit id.
fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    let fail = |source| Error::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    write_atomic(path, text.as_bytes()).map_err(fail)
}
