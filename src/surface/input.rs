//! The surface a command was pointed at: files (each through its loader), folders (scanned),
//! `http(s)://` MCP endpoints and one live server (`--stdio`, `--server`), merged in argument
//! order into one [`Surface`]. The suite-aware default (`mf.suite.json`, else a scan of `.`)
//! is one level up, in `suite::input`.

use crate::util::untrusted::inline;
use std::path::Path;

use super::Surface;
use super::error::InputError;
use super::formats::{self, display_path};
use super::live::LiveOptions;
use super::scan::{ScanOptions, scan};
use super::target::{Target, load_target};

/// What to read, validated: paths and URLs in order, plus at most one live server.
#[derive(Debug, Clone, Default)]
pub struct InputSpec {
    /// Files, folders and `http(s)://` URLs, in argument order.
    pub paths: Vec<String>,
    /// The live server of `--stdio` or `--server`, read first.
    pub live: Option<Target>,
    /// How live servers are started and listed (`--save-snapshot` included).
    pub live_options: LiveOptions,
}

impl InputSpec {
    /// Just these paths, with the default live options.
    pub fn paths(paths: &[&str]) -> InputSpec {
        InputSpec {
            paths: paths.iter().map(|p| (*p).to_owned()).collect(),
            ..InputSpec::default()
        }
    }

    /// Whether anything at all was named (else the caller picks a default).
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty() && self.live.is_none()
    }
}

/// A surface, read.
#[derive(Debug, Default)]
pub struct Input {
    /// All tools and skills, merged in argument order.
    pub surface: Surface,
    /// What was read, for reports (`a.json + b.json`).
    pub label: String,
    /// Problems that did not stop loading (skipped files, unfollowed refs).
    pub warnings: Vec<String>,
}

impl Input {
    /// Add a labelled part.
    pub fn merge(&mut self, other: Input) {
        self.surface.merge(other.surface);
        self.warnings.extend(other.warnings);
        if !other.label.is_empty() {
            if !self.label.is_empty() {
                self.label.push_str(" + ");
            }
            self.label.push_str(&other.label);
        }
    }
}

/// Read everything `spec` names: the live server first, then each path (file → loader,
/// folder → scan, URL → MCP client). Nothing named → an empty input.
pub fn load(spec: &InputSpec) -> Result<Input, InputError> {
    let mut input = Input::default();
    let mut labels = Vec::new();
    if let Some(target) = &spec.live {
        let loaded = load_target(target, &spec.live_options)?;
        input.warnings.extend(loaded.warnings);
        input.surface.merge(loaded.surface);
        labels.push(target.display_name());
    } else if spec.live_options.save_snapshot.is_some() && !spec.paths.iter().any(|p| is_url(p)) {
        return Err(InputError::Usage(
            "--save-snapshot needs a live server: a URL, --stdio or --server".into(),
        ));
    }
    for p in &spec.paths {
        if is_url(p) {
            let target = Target::positional(p)?;
            let loaded = load_target(&target, &spec.live_options)?;
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

/// Load one path into `input`: a folder is scanned (origins made relative to where mf runs),
/// a file goes through its loader.
pub fn load_path(path: &Path, input: &mut Input) -> Result<(), InputError> {
    let display = path.to_string_lossy().replace('\\', "/");
    if path.is_dir() {
        let result = scan(path, &ScanOptions::default())?;
        input
            .warnings
            .extend(result.warnings.iter().map(|w| match w.line {
                Some(l) => format!("{}:{l}: {}", inline(&w.file), inline(&w.message)),
                None => format!("{}: {}", inline(&w.file), inline(&w.message)),
            }));
        // Origins from a scan are relative to the folder; make them relative to where mf runs.
        let prefix = |mut o: super::Origin| {
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
        for mut u in result.unread {
            if display != "." {
                u.file = format!("{}/{}", display.trim_end_matches('/'), u.file);
            }
            input.surface.unread.push(u);
        }
    } else if super::scan::is_source_file(path) {
        let result = super::scan::scan_source_file(path, &display, &ScanOptions::default())?;
        input.warnings.extend(
            result
                .warnings
                .iter()
                .map(|w| format!("{}: {}", inline(&w.file), inline(&w.message))),
        );
        input.surface.tools.extend(result.tools);
        input.surface.unread.extend(result.unread);
    } else {
        let loaded = formats::load_path(path, &display_path(path, Path::new("")))?;
        input.warnings.extend(loaded.warnings);
        input.surface.merge(loaded.surface);
    }
    Ok(())
}

/// Whether an argument is an MCP endpoint rather than a path.
pub fn is_url(s: &str) -> bool {
    let l = s.to_ascii_lowercase();
    l.starts_with("http://") || l.starts_with("https://")
}
