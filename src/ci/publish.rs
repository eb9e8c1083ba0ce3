//! The publishing half of `mf ci` ([`publish`]): which rendering goes where — the report files
//! (SARIF, JUnit, HTML, badge), the sticky PR comment, the job summary, the CI report JSON and
//! the step outputs. The GitHub I/O itself is in [`crate::github`].

use std::path::{Path, PathBuf};

use super::{CiConfig, CiError, CommentMode};
use crate::analyze::lint::rules;
use crate::eval::Observer;
use crate::github::event::Context;
use crate::github::{comment, outputs, summary};
use crate::render;
use crate::render::document::Document;
use crate::report::ci::{CiReport, Files};
use crate::util::atomic::write_atomic;

/// Step 7: every output of a finished run, in order — report files, the PR comment, the job
/// summary, the JSON report, the step outputs. Notes about skipped or failed steps go into the
/// report (the comment) or to `observer` (the summary).
pub fn publish(
    config: &CiConfig,
    ctx: &Context,
    ci: &mut CiReport,
    observer: &mut dyn Observer,
) -> Result<(), CiError> {
    let json_path = config.files.json.clone().or_else(default_json_path);
    write_reports(config, ci, json_path.as_deref(), observer)?;
    let comment_url = post_comment(config, ctx, ci, observer);
    if config.summary
        && let Some(path) = &ctx.step_summary
    {
        let text = match &config.templates.summary {
            Some(t) => custom_or_builtin(
                render::ci::summary_with(&Document::Ci(Box::new(ci.clone())), Some(t)),
                t,
                || render::ci::summary(ci),
                observer,
            ),
            None => render::ci::summary(ci),
        };
        match summary::append(path, &text) {
            Ok(summary::Appended::Whole) => {}
            Ok(summary::Appended::Cut) => {
                observer.note("note: the job summary was cut to stay under 1 MiB");
            }
            Ok(summary::Appended::Full) => observer
                .note("note: the job summary already holds 1 MiB; mf's summary was not added"),
            Err(e) => observer.note(&format!(
                "warning: cannot write the job summary {}: {e}",
                path.display()
            )),
        }
    }
    if let Some(path) = &json_path {
        write(path, &render::json::to_string(ci))?;
    }
    if let Some(path) = &ctx.output {
        let mut o = outputs::from_report(ci);
        o.set("comment-url", comment_url.unwrap_or_default());
        o.append_to(path).map_err(|source| CiError::Write {
            path: path.clone(),
            source,
        })?;
    }
    Ok(())
}

/// Write `text` to `path` atomically, creating its folder.
fn write(path: &Path, text: &str) -> Result<(), CiError> {
    let fail = |source| CiError::Write {
        path: path.to_path_buf(),
        source,
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(fail)?;
    }
    write_atomic(path, text.as_bytes()).map_err(fail)
}

/// Where the CI report goes without `--json-out`: `$RUNNER_TEMP/mf-ci.json` in GitHub Actions
/// (outside the checkout, readable by later steps), nowhere elsewhere.
pub fn default_json_path() -> Option<PathBuf> {
    let in_actions = std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true");
    let temp = std::env::var_os("RUNNER_TEMP").filter(|v| !v.is_empty())?;
    in_actions.then(|| PathBuf::from(temp).join("mf-ci.json"))
}

/// SARIF (lint), JUnit (lint, eval and compare), HTML and the badge (shields endpoint JSON, or
/// SVG for a `.svg` path). Every path is recorded in `ci.files` first (the JSON path too,
/// written last by the caller), so each rendering lists them all.
fn write_reports(
    config: &CiConfig,
    ci: &mut CiReport,
    json: Option<&Path>,
    observer: &mut dyn Observer,
) -> Result<(), CiError> {
    let files = &config.files;
    let shown = |p: &PathBuf| p.to_string_lossy().into_owned();
    ci.files = Files {
        json: json.map(|p| p.to_string_lossy().into_owned()),
        junit: files.junit.as_ref().map(shown),
        sarif: files.sarif.as_ref().map(shown),
        html: files.html.as_ref().map(shown),
        badge: files.badge.as_ref().map(shown),
    };
    if let Some(p) = &files.sarif {
        let doc = |code: &str| {
            rules::find(code).map(|r| render::sarif::RuleDoc {
                summary: r.summary.to_owned(),
                fix: r.fix.to_owned(),
            })
        };
        write(p, &render::sarif::lint(&ci.lint, &doc))?;
    }
    if let Some(p) = &files.junit {
        write(p, &render::junit::ci(ci))?;
    }
    if files.html.is_none() && files.badge.is_none() {
        return Ok(());
    }
    let doc = Document::Ci(Box::new(ci.clone()));
    if let Some(p) = &files.html {
        let html = match &config.templates.html {
            Some(t) => custom_or_builtin(
                render::html::report_with(&doc, Some(t)),
                t,
                || render::html::report(&doc),
                observer,
            ),
            None => render::html::report(&doc),
        };
        write(p, &html)?;
    }
    if let Some(p) = &files.badge {
        let badge = render::badge::badge(&doc);
        let svg = p.extension().is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        let text = if svg {
            render::badge::svg(&badge)
        } else {
            render::badge::endpoint_json(&badge)
        };
        write(p, &text)?;
    }
    Ok(())
}

/// The sticky PR comment, when asked for and possible. Returns the comment's URL. Every way it
/// can be skipped or fail is a note, never a failure of the run.
fn post_comment(
    config: &CiConfig,
    ctx: &Context,
    ci: &mut CiReport,
    observer: &mut dyn Observer,
) -> Option<String> {
    let event = ci.event.clone();
    let is_pr = event.pull_request.is_some();
    let read_only_event = event.fork && event.name.as_deref() == Some("pull_request");
    let want = match config.comment {
        CommentMode::Off => false,
        CommentMode::On => true,
        CommentMode::Auto => is_pr,
    };
    if !want {
        return None;
    }
    let skip = |ci: &mut CiReport, why: String| {
        ci.notes.push(format!("skipping the PR comment: {why}"));
        None
    };
    let (Some(number), Some(repository)) = (event.pull_request, event.repository.clone()) else {
        return skip(
            ci,
            "no pull request in this event (GITHUB_REPOSITORY and a pull request number are \
             needed; pass --pull-request N for a workflow_run)"
                .to_owned(),
        );
    };
    if config.comment == CommentMode::Auto && read_only_event {
        return skip(
            ci,
            format!(
                "{repository}#{number} comes from a fork; fork pull requests get a read-only token"
            ),
        );
    }
    let token = std::env::var(&config.github_token_env)
        .ok()
        .filter(|t| !t.is_empty());
    let Some(token) = token else {
        return skip(
            ci,
            format!(
                "no token in ${} (give the step a token with pull-requests: write)",
                config.github_token_env
            ),
        );
    };
    let mut body = match &config.templates.comment {
        Some(t) => {
            let doc = Document::Ci(Box::new(ci.clone()));
            custom_or_builtin(
                render::ci::comment_with(&doc, Some(t)),
                t,
                || render::ci::comment(ci),
                observer,
            )
        }
        None => render::ci::comment(ci),
    };
    if !comment::is_ours(&body) {
        body = format!("{}\n{body}", comment::COMMENT_MARKER);
    }
    let target = comment::Target {
        api_url: ctx.api_url.clone(),
        repository: repository.clone(),
        number,
    };
    match comment::upsert(&target, token, &body) {
        Ok(comment::Outcome::Created { id, url }) => {
            observer.note(&format!(
                "created the PR comment {id} on {repository}#{number}"
            ));
            url
        }
        Ok(comment::Outcome::Updated { id, url }) => {
            observer.note(&format!(
                "updated the PR comment {id} on {repository}#{number}"
            ));
            url
        }
        Ok(comment::Outcome::Unchanged { id }) => {
            observer.note(&format!(
                "the PR comment {id} on {repository}#{number} is up to date"
            ));
            None
        }
        Ok(comment::Outcome::ReadOnly { status }) => skip(
            ci,
            format!(
                "the token cannot write to {repository}#{number} (HTTP {status}); fork pull \
                 requests get a read-only token"
            ),
        ),
        Err(e) => skip(ci, format!("{e}")),
    }
}

/// The custom template's rendering, or — when it fails after the run has already paid for its
/// evals — the built-in one, with a warning naming the template and the error.
fn custom_or_builtin(
    custom: Result<String, crate::render::template::TemplateError>,
    template: &Path,
    builtin: impl FnOnce() -> String,
    observer: &mut dyn Observer,
) -> String {
    match custom {
        Ok(text) => text,
        Err(e) => {
            observer.note(&format!(
                "warning: template {}: {e}; using the built-in one",
                template.display()
            ));
            builtin()
        }
    }
}
