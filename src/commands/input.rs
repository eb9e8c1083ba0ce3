//! Resolve a command's surface arguments into one merged surface, plus the suite that applies.

use std::path::Path;

use crate::Error;
use crate::cli::input::SurfaceArgs;
use crate::suite::{Suite, read_suite, read_suite_any};
use crate::surface::Surface;
use crate::surface::formats::{self, display_path};
use crate::surface::scan::{ScanOptions, scan};

/// A resolved input.
#[derive(Debug, Default)]
pub struct Input {
    /// All tools and skills, merged in argument order.
    pub surface: Surface,
    /// The suite given with `--suite` (or used as the default input).
    pub suite: Option<Suite>,
    /// What was read, for reports (`a.json + b.json`).
    pub label: String,
    /// Problems that did not stop loading (skipped files, unfollowed refs).
    pub warnings: Vec<String>,
}

/// Load every path (file → loader, folder → scan), merged.
pub fn load(args: &SurfaceArgs) -> Result<Input, Error> {
    let mut input = Input::default();
    if let Some(path) = &args.suite {
        let display = path.to_string_lossy().replace('\\', "/");
        input.suite = Some(read_suite_any(path, &display)?);
    }
    let mut labels = Vec::new();
    let live = args.live.options()?;
    if let Some(target) = args.live.target()? {
        let loaded = crate::surface::target::load_target(&target, &live)?;
        input.warnings.extend(loaded.warnings);
        input.surface.merge(loaded.surface);
        labels.push(target.display_name());
    } else if live.save_snapshot.is_some() && !args.paths.iter().any(|p| is_url(p)) {
        return Err(Error::Usage(
            "--save-snapshot needs a live server: a URL, --stdio or --server".into(),
        ));
    }
    if args.paths.is_empty() && labels.is_empty() {
        let default_suite = Path::new("mf.suite.json");
        if let (Some(path), Some(suite)) = (&args.suite, &input.suite) {
            let display = path.to_string_lossy().replace('\\', "/");
            let (surface, warnings, label) = suite_surface(suite, path, &display)?;
            input.warnings.extend(warnings);
            input.surface.merge(surface);
            labels.push(label);
        } else if is_owned_suite(default_suite) {
            input.suite = Some(read_suite(default_suite, "mf.suite.json")?);
            load_path(default_suite, &mut input)?;
            labels.push("mf.suite.json".to_owned());
        } else {
            load_path(Path::new("."), &mut input)?;
            labels.push(".".to_owned());
        }
    }
    for p in &args.paths {
        if is_url(p) {
            let target = crate::surface::target::Target::positional(p)?;
            let loaded = crate::surface::target::load_target(&target, &live)?;
            input.warnings.extend(loaded.warnings);
            input.surface.merge(loaded.surface);
            labels.push(target.display_name());
        } else {
            load_path(Path::new(p), &mut input)?;
            labels.push(p.replace('\\', "/"));
        }
    }
    input.label = labels.join(" + ");
    Ok(input)
}

/// Load one path into `input`.
pub fn load_path(path: &Path, input: &mut Input) -> Result<(), Error> {
    let display = path.to_string_lossy().replace('\\', "/");
    if path.is_dir() {
        let result = scan(path, &ScanOptions::default())?;
        input
            .warnings
            .extend(result.warnings.iter().map(|w| match w.line {
                Some(l) => format!("{}:{l}: {}", w.file, w.message),
                None => format!("{}: {}", w.file, w.message),
            }));
        // Origins from a scan are relative to the folder; make them relative to where mf runs.
        let prefix = |mut o: crate::surface::Origin| {
            if display != "." {
                o.file = o
                    .file
                    .map(|f| format!("{}/{f}", display.trim_end_matches('/')));
            }
            o
        };
        for mut t in result.tools {
            t.origin = prefix(t.origin);
            input.surface.tools.push(t);
        }
        for mut s in result.skills {
            s.origin = prefix(s.origin);
            input.surface.skills.push(s);
        }
    } else {
        let loaded = formats::load_path(path, &display_path(path, Path::new("")))?;
        input.warnings.extend(loaded.warnings);
        input.surface.merge(loaded.surface);
    }
    Ok(())
}

fn is_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.starts_with("http://") || l.starts_with("https://")
}

fn is_owned_suite(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .is_some_and(|v| v.get("draft").and_then(serde_json::Value::as_bool) != Some(true))
}

/// A suite's own `tools[]` through the surface loader (refs followed, shapes checked). JSON
/// suites keep exact origins; a YAML suite is loaded from its JSON form, so its tools carry the
/// file but no line.
pub(super) fn suite_tools(
    suite: &Suite,
    path: &Path,
    display: &str,
) -> Result<crate::surface::formats::Loaded, Error> {
    use crate::surface::formats;
    if !suite.format.is_yaml() {
        return Ok(formats::load_path(path, display)?);
    }
    let text = serde_json::to_string(suite).map_err(|e| Error::Usage(e.to_string()))?;
    let doc = formats::parse_json(&text, display)?;
    let source = formats::Source {
        file: display,
        text: &text,
        doc: &doc,
        base_dir: path.parent(),
    };
    let mut loaded = formats::load_doc(&source)?.unwrap_or_default();
    for t in &mut loaded.surface.tools {
        t.origin.line = None;
        t.origin.column = None;
    }
    Ok(loaded)
}

/// The tools a suite names: its own `tools[]`, else the folder or file its `surface` points at
/// (relative to the suite file). Returns the surface, load warnings and a label; an empty surface
/// when the suite names neither.
pub(super) fn suite_surface(
    suite: &Suite,
    path: &Path,
    display: &str,
) -> Result<(crate::surface::Surface, Vec<String>, String), Error> {
    if !suite.tools.is_empty() {
        let loaded = suite_tools(suite, path, display)?;
        return Ok((loaded.surface, loaded.warnings, display.to_owned()));
    }
    if let Some(rel) = &suite.surface {
        let base = path.parent().unwrap_or(Path::new(""));
        // `surface: .` names the suite's own folder; keep labels free of `/.`.
        let target = if rel == "." || rel == "./" {
            if base.as_os_str().is_empty() {
                Path::new(".").to_path_buf()
            } else {
                base.to_path_buf()
            }
        } else {
            base.join(rel)
        };
        let mut input = Input::default();
        load_path(&target, &mut input)?;
        let label = target.to_string_lossy().replace('\\', "/");
        return Ok((input.surface, input.warnings, label));
    }
    Ok((
        crate::surface::Surface::default(),
        Vec::new(),
        display.to_owned(),
    ))
}
