//! `mf tasks generate`: the surface (and suite, for named models) → the plan (`generate::plan`:
//! requests, caps, key rules) → a dry run, a refusal that shows what would be sent, or the
//! requests → a task set of unreviewed drafts, refused over an existing file without `--force`.

use std::path::Path;

use crate::cli::tasks::generate::GenerateArgs;
use crate::generate;
use crate::render::terminal::Style;
use crate::suite::input::{SurfaceRequest, resolve};
use crate::suite::{Suite, SuiteFormat, write};
use crate::{Error, Exit, render};

pub(super) fn run(args: &GenerateArgs, style: Style) -> Result<Exit, Error> {
    let config = args.config()?;
    if !config.dry_run {
        super::refuse_overwrite(&args.out, args.force)?;
    }
    let request = SurfaceRequest {
        input: args.live.input_spec(&args.paths)?,
        suite: args.suite.clone(),
    };
    let input = resolve(&request)?;
    for w in &input.warnings {
        crate::commands::note(&format!("warning: {w}"));
    }
    let suite = input.suite.clone().unwrap_or_default();
    let suite_display = args
        .suite
        .as_ref()
        .map_or_else(String::new, |p| p.to_string_lossy().replace('\\', "/"));
    let tools = &input.surface.tools;
    let (plan, specs) = generate::plan(&config, tools, &suite, &suite_display)?;
    if config.dry_run || !plan.refusals.is_empty() {
        // What it would send goes to stdout either way; a refusal is also the error (exit 1).
        crate::commands::print(&render::terminal::generate_plan(&plan, style))?;
        if plan.refusals.is_empty() {
            return Ok(Exit::Ok);
        }
        return Err(generate::GenerateError::Refused(plan.refusals).into());
    }
    let mut note = |line: &str| crate::commands::note(line);
    let drafted = generate::run(&config, &plan, specs, tools, &mut note)?;
    for n in &drafted.notes {
        crate::commands::note(&format!("warning: {n}"));
    }
    let set = Suite {
        cases: drafted.cases,
        surface: surface_path(&args.paths, &args.out),
        format: SuiteFormat::TaskSetJson,
        ..Suite::default()
    };
    if set.surface.is_none() {
        crate::commands::note(
            "note: the task set names no surface (the tools did not come from one path inside \
             its folder); give the tools to `mf tasks lint` and `mf eval` as PATH",
        );
    }
    let text = write::to_text(&set, write::is_yaml_path(&args.out))?;
    crate::commands::write_file(&args.out, &text)?;
    crate::commands::note(&format!(
        "drafted {} cases in {} requests ({} input, {} output tokens reported), all reviewed: \
         false; review them before they count",
        set.cases.len(),
        drafted.requests,
        drafted.usage.0,
        drafted.usage.1
    ));
    Ok(Exit::Ok)
}

/// The task set's `surface`: the one PATH the tools came from, relative to the output's folder,
/// when it lies inside it.
fn surface_path(paths: &[String], out: &Path) -> Option<String> {
    let [only] = paths else {
        return None;
    };
    if only.contains("://") {
        return None;
    }
    let mut probe = Suite {
        surface: Some(only.clone()),
        ..Suite::default()
    };
    // PATH is relative to the current folder: rebase it from a file here.
    write::relocate(&mut probe, Path::new("here"), out).ok()?;
    probe.surface
}
