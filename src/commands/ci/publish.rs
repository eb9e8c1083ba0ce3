//! The publishing half of `mf ci`: the report files (SARIF, JUnit, HTML, badge; the JSON path)
//! and the sticky PR comment.

use std::path::{Path, PathBuf};

use super::write;
use crate::Error;
use crate::analyze::lint::rules;
use crate::cli::ci::{CiArgs, Switch3};
use crate::github::comment;
use crate::github::event::Context;
use crate::render;
use crate::render::document::Document;
use crate::report::ci::{CiReport, Files};

/// Where the CI report goes without `--json-out`: `$RUNNER_TEMP/mf-ci.json` in GitHub Actions
/// (outside the checkout, readable by later steps), nowhere elsewhere.
pub(super) fn default_json_path() -> Option<PathBuf> {
    let in_actions = std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true");
    let temp = std::env::var_os("RUNNER_TEMP").filter(|v| !v.is_empty())?;
    in_actions.then(|| PathBuf::from(temp).join("mf-ci.json"))
}

/// SARIF (lint), JUnit (lint, eval and compare), HTML and the badge (shields endpoint JSON, or
/// SVG for a `.svg` path). Every path is recorded in `ci.files` first (the JSON path too,
/// written last by the caller), so each rendering lists them all.
pub(super) fn write_reports(
    args: &CiArgs,
    ci: &mut CiReport,
    json: Option<&Path>,
) -> Result<(), Error> {
    let shown = |p: &PathBuf| p.to_string_lossy().into_owned();
    ci.files = Files {
        json: json.map(|p| p.to_string_lossy().into_owned()),
        junit: args.junit.as_ref().map(shown),
        sarif: args.sarif.as_ref().map(shown),
        html: args.html.as_ref().map(shown),
        badge: args.badge.as_ref().map(shown),
    };
    if let Some(p) = &args.sarif {
        let doc = |code: &str| {
            rules::find(code).map(|r| render::sarif::RuleDoc {
                summary: r.summary.to_owned(),
                fix: r.fix.to_owned(),
            })
        };
        write(p, &render::sarif::lint(&ci.lint, &doc))?;
    }
    if let Some(p) = &args.junit {
        write(p, &render::junit::ci(ci))?;
    }
    if args.html.is_none() && args.badge.is_none() {
        return Ok(());
    }
    let doc = Document::Ci(Box::new(ci.clone()));
    if let Some(p) = &args.html {
        let html = match &args.template_html {
            Some(t) => custom_or_builtin(render::html::report_with(&doc, Some(t)), t, || {
                render::html::report(&doc)
            }),
            None => render::html::report(&doc),
        };
        write(p, &html)?;
    }
    if let Some(p) = &args.badge {
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
pub(super) fn post_comment(args: &CiArgs, ctx: &Context, ci: &mut CiReport) -> Option<String> {
    let event = ci.event.clone();
    let is_pr = event.pull_request.is_some();
    let read_only_event = event.fork && event.name.as_deref() == Some("pull_request");
    let want = match args.comment {
        Switch3::Off => false,
        Switch3::On => true,
        Switch3::Auto => is_pr,
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
    if args.comment == Switch3::Auto && read_only_event {
        return skip(
            ci,
            format!(
                "{repository}#{number} comes from a fork; fork pull requests get a read-only token"
            ),
        );
    }
    let token = std::env::var(&args.github_token_env)
        .ok()
        .filter(|t| !t.is_empty());
    let Some(token) = token else {
        return skip(
            ci,
            format!(
                "no token in ${} (give the step a token with pull-requests: write)",
                args.github_token_env
            ),
        );
    };
    let mut body = match &args.template_comment {
        Some(t) => {
            let doc = Document::Ci(Box::new(ci.clone()));
            custom_or_builtin(render::ci::comment_with(&doc, Some(t)), t, || {
                render::ci::comment(ci)
            })
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
            super::super::note(&format!(
                "created the PR comment {id} on {repository}#{number}"
            ));
            url
        }
        Ok(comment::Outcome::Updated { id, url }) => {
            super::super::note(&format!(
                "updated the PR comment {id} on {repository}#{number}"
            ));
            url
        }
        Ok(comment::Outcome::Unchanged { id }) => {
            super::super::note(&format!(
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
pub(super) fn custom_or_builtin(
    custom: Result<String, crate::render::template::TemplateError>,
    template: &Path,
    builtin: impl FnOnce() -> String,
) -> String {
    match custom {
        Ok(text) => text,
        Err(e) => {
            super::super::note(&format!(
                "warning: template {}: {e}; using the built-in one",
                template.display()
            ));
            builtin()
        }
    }
}
