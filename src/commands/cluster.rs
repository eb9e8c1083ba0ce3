//! `mf cluster`: group confusable tools; optionally write the groups into a suite as profiles.

use std::path::Path;

use serde_json::Value;

use crate::analyze::cluster::{ClusterOptions, cluster, profiles_from_clusters};
use crate::cli::check::SimpleFormat;
use crate::cli::cluster::ClusterArgs;
use crate::render::terminal::Style;
use crate::suite::edit::with_profiles;
use crate::suite::input::resolve;
use crate::surface::formats;
use crate::{Error, Exit, render};

pub(super) fn run(args: &ClusterArgs, style: Style) -> Result<Exit, Error> {
    if !(0.0..=1.0).contains(&args.threshold) {
        return Err(Error::Usage(format!(
            "--threshold {} is outside 0..=1",
            args.threshold
        )));
    }
    if args.max_size < 2 {
        return Err(Error::Usage("--max-size must be at least 2".into()));
    }
    let input = resolve(&args.input.request()?)?;
    for w in &input.warnings {
        super::note(&format!("warning: {w}"));
    }
    if let Some(exit) = super::nothing_to_check(&input.label, &input.surface) {
        return Ok(exit);
    }
    super::note_unread(&input.surface);
    let report = cluster(
        &input.surface,
        &ClusterOptions {
            threshold: args.threshold,
            max_cluster_size: args.max_size,
        },
    );
    if let Some(out) = &args.out {
        let profiles = profiles_from_clusters(&report);
        write_profiles(out, &profiles, &input.surface)?;
        super::note(&format!(
            "wrote {} to {}",
            crate::render::text::plural(profiles.len(), "profile", "profiles"),
            out.display()
        ));
    }
    let text = match args.format {
        SimpleFormat::Json => render::json::to_string(&report),
        SimpleFormat::Terminal => render::terminal::cluster(&report, style),
        SimpleFormat::Markdown => render::markdown::cluster(&report),
    };
    super::print(&text)?;
    Ok(Exit::Ok)
}

/// Set `profiles` in the suite at `path`, keeping everything else as written (comments and
/// hand-written profiles included; see `suite::edit`). A missing suite is created as a draft
/// holding the clustered tools.
fn write_profiles(
    path: &Path,
    profiles: &std::collections::BTreeMap<String, Vec<String>>,
    surface: &crate::surface::Surface,
) -> Result<(), Error> {
    let display = path.to_string_lossy().replace('\\', "/");
    let text = if path.exists() {
        let text = formats::read_text(path, &display, formats::MAX_FILE_BYTES)?;
        with_profiles(path, &display, &text, profiles)
            .map_err(|e| Error::Document(e.to_string()))?
    } else {
        let tools: Vec<Value> = surface
            .tools
            .iter()
            .map(|t| {
                let mut o = serde_json::Map::new();
                o.insert("name".into(), t.name.clone().into());
                if let Some(d) = &t.description {
                    o.insert("description".into(), d.clone().into());
                }
                if let Some(s) = &t.input_schema {
                    o.insert("parameters".into(), s.clone());
                }
                Value::Object(o)
            })
            .collect();
        let mut doc = serde_json::json!({"version": 1, "name": "suite", "draft": true, "tools": tools, "cases": []});
        doc["profiles"] = serde_json::to_value(profiles).unwrap_or_default();
        render::json::to_string(&doc)
    };
    super::write_file(path, &text)
}
