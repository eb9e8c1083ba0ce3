//! Resolve a command's surface arguments into one merged surface, plus the suite that applies.

use std::path::Path;

use crate::Error;
use crate::cli::input::SurfaceArgs;
use crate::suite::{Suite, read_suite};
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
        input.suite = Some(read_suite(path, &display)?);
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
        if args.suite.is_some() {
            load_path(args.suite.as_deref().unwrap_or(default_suite), &mut input)?;
            labels.push(
                args.suite
                    .as_ref()
                    .map(|p| p.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
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
