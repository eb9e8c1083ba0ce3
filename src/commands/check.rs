//! `mf check`: the install gate.

use crate::analyze::check::{CheckOptions, check};
use crate::cli::check::{CheckArgs, SimpleFormat};
use crate::render::terminal::Style;
use crate::report::check::Verdict;
use crate::surface::Surface;
use crate::surface::formats::{self, LoadError, Source};
use crate::surface::input;
use crate::{Error, Exit, render};

pub(super) fn run(args: &CheckArgs, style: Style) -> Result<Exit, Error> {
    if !(0.0..=1.0).contains(&args.threshold) {
        return Err(Error::Usage(format!(
            "--threshold {} is outside 0..=1",
            args.threshold
        )));
    }
    let (name, new) = read_manifest(&args.manifest)?;
    // The same resolution as lint's inputs: files, folders, URLs, --stdio, --server.
    let installed = input::load(&args.live.input_spec(&args.installed)?)?;
    for w in &installed.warnings {
        super::note(&format!("warning: {w}"));
    }
    let report = check(
        &name,
        &new,
        &installed.surface,
        &CheckOptions {
            threshold: args.threshold,
        },
    );
    let text = match args.format {
        SimpleFormat::Json => render::json::to_string(&report),
        SimpleFormat::Terminal => render::terminal::check(&report, style),
        SimpleFormat::Markdown => render::markdown::check(&report),
    };
    super::print(&text)?;
    Ok(if args.fail_on_warn && report.verdict == Verdict::Warn {
        Exit::GateFailed
    } else {
        Exit::Ok
    })
}

/// A manifest: `{name, tools: [...]}` in any supported tool shape, or one tool definition whose
/// `name` names the capability. The only hard error is a missing `name`.
fn read_manifest(path: &std::path::Path) -> Result<(String, Surface), Error> {
    let display = path.to_string_lossy().replace('\\', "/");
    let text = formats::read_text(path, &display, formats::MAX_FILE_BYTES)?;
    let doc = formats::parse_json(&text, &display)?;
    let src = Source {
        file: &display,
        text: &text,
        doc: &doc,
        base_dir: path.parent(),
    };
    let name = match doc.value.get("name") {
        Some(serde_json::Value::String(n)) if !n.trim().is_empty() => n.clone(),
        other => {
            return Err(src
                .shape_error(
                    "",
                    other.unwrap_or(&doc.value),
                    "a manifest with a non-empty `name` (the capability being installed)",
                )
                .into());
        }
    };
    if let Some(tools) = doc.value.get("tools").and_then(serde_json::Value::as_array) {
        let mut surface = Surface::default();
        for (i, t) in tools.iter().enumerate() {
            surface
                .tools
                .push(formats::load_tool(&src, t, &format!("/tools/{i}"))?);
        }
        return Ok((name, surface));
    }
    // One tool (any shape); a bare {name, description} capability counts as one tool too.
    let tool = formats::load_tool(&src, &doc.value, "").map_err(|e: LoadError| Error::from(e))?;
    Ok((
        name,
        Surface {
            tools: vec![tool],
            skills: vec![],
        },
    ))
}
