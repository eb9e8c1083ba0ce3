//! A free command's input with the suite in the picture: `--suite` (its profiles and
//! suppressions apply; its tools are the surface when no path is given), the default
//! `mf.suite.json` here when it is not a draft, else a scan of the current folder; plus the
//! tools a suite names ([`suite_surface`]: its `tools[]`, else its `surface` path).

use std::path::{Path, PathBuf};

use super::{Suite, SuiteError, read_suite, read_suite_any};
use crate::surface::Surface;
use crate::surface::error::InputError;
use crate::surface::formats::{self, Loaded};
use crate::surface::input::{self as surface_input, Input, InputSpec};

/// Why a command's input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// The suite could not be read.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// The surface could not be read.
    #[error(transparent)]
    Input(#[from] InputError),
}

impl From<formats::LoadError> for ResolveError {
    fn from(e: formats::LoadError) -> ResolveError {
        ResolveError::Input(InputError::Load(e))
    }
}

/// A free command's surface arguments, validated.
#[derive(Debug, Clone, Default)]
pub struct SurfaceRequest {
    /// Paths, URLs and the live server.
    pub input: InputSpec,
    /// `--suite`.
    pub suite: Option<PathBuf>,
}

/// The surface and the suite that applies to it.
#[derive(Debug, Default)]
pub struct Resolved {
    /// All tools and skills, merged in argument order.
    pub surface: Surface,
    /// The suite given with `--suite` (or used as the default input).
    pub suite: Option<Suite>,
    /// What was read, for reports (`a.json + b.json`).
    pub label: String,
    /// Problems that did not stop loading (skipped files, unfollowed refs).
    pub warnings: Vec<String>,
}

/// Resolve a request: the suite, then the live server and paths; with neither, the suite's
/// tools, the default `mf.suite.json` (not a draft), or a scan of `.`.
pub fn resolve(req: &SurfaceRequest) -> Result<Resolved, ResolveError> {
    let mut out = Resolved::default();
    if let Some(path) = &req.suite {
        let display = path.to_string_lossy().replace('\\', "/");
        out.suite = Some(read_suite_any(path, &display)?);
    }
    let input = surface_input::load(&req.input)?;
    let mut default = Input::default();
    if req.input.is_empty() {
        let default_suite = Path::new("mf.suite.json");
        if let (Some(path), Some(suite)) = (&req.suite, &out.suite) {
            let display = path.to_string_lossy().replace('\\', "/");
            let (surface, warnings, label) = suite_surface(suite, path, &display)?;
            default = Input {
                surface,
                label,
                warnings,
            };
        } else if super::discover::suite_file(default_suite) == super::discover::SuiteFile::Authored
        {
            out.suite = Some(read_suite(default_suite, "mf.suite.json")?);
            surface_input::load_path(default_suite, &mut default)?;
            default.label = "mf.suite.json".to_owned();
        } else {
            surface_input::load_path(Path::new("."), &mut default)?;
            default.label = ".".to_owned();
        }
    }
    // The default stands where the live target would have been: first.
    default.merge(input);
    out.surface = default.surface;
    out.label = default.label;
    out.warnings = default.warnings;
    Ok(out)
}

/// A suite's own `tools[]` through the surface loader (refs followed, shapes checked). JSON
/// suites keep exact origins; a YAML suite is loaded from its JSON form, so its tools carry the
/// file but no line.
pub fn suite_tools(suite: &Suite, path: &Path, display: &str) -> Result<Loaded, ResolveError> {
    if !suite.format.is_yaml() {
        return Ok(formats::load_path(path, display)?);
    }
    let text = serde_json::to_string(suite)
        .map_err(|e| ResolveError::Input(InputError::Usage(e.to_string())))?;
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
pub fn suite_surface(
    suite: &Suite,
    path: &Path,
    display: &str,
) -> Result<(Surface, Vec<String>, String), ResolveError> {
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
        surface_input::load_path(&target, &mut input)?;
        let label = target.to_string_lossy().replace('\\', "/");
        return Ok((input.surface, input.warnings, label));
    }
    Ok((Surface::default(), Vec::new(), display.to_owned()))
}
