//! Templates (minijinja) for the markdown job summary, the PR comment and the HTML report, and
//! the engine that renders them over a [`View`](super::view::View).
//!
//! The templates live in `templates/` and are embedded at build time; `--template FILE`
//! replaces one of them for a run (it is registered under the built-in name, so an HTML
//! override is auto-escaped like the built-in one, and it may `{% import "macros.md.j2" %}`).
//! Templates compute nothing: [`View::new`](super::view::View::new) lays out what a document holds as pre-formatted
//! text (every rate as `k/n = p% [lo–hi]` with its Wilson interval from the report), and the
//! templates arrange it. Sections a size limit may cut are switched by `show.*`; see [`fit`].

use std::path::{Path, PathBuf};

use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

use super::markdown::cell;
use super::view::View;
pub use super::view::{Limit, SECTIONS};

/// The job summary (`$GITHUB_STEP_SUMMARY`, `mf report --format summary|markdown`).
pub const SUMMARY: &str = "summary.md.j2";
/// The sticky PR comment (`mf report --format comment`).
pub const COMMENT: &str = "comment.md.j2";
/// The self-contained HTML report (`mf report --format html`).
pub const HTML: &str = "report.html.j2";
/// Markdown macros shared by the summary and the comment.
pub const MACROS: &str = "macros.md.j2";

const BUILTIN: [(&str, &str); 4] = [
    (SUMMARY, include_str!("../../templates/summary.md.j2")),
    (COMMENT, include_str!("../../templates/comment.md.j2")),
    (HTML, include_str!("../../templates/report.html.j2")),
    (MACROS, include_str!("../../templates/macros.md.j2")),
];

/// The text of a built-in template.
pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// Why a template could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    /// The override file could not be read.
    #[error("cannot read template {path}: {source}")]
    Read {
        /// The file given with `--template`.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// No built-in template has this name.
    #[error("no built-in template {0:?} (templates: summary.md.j2, comment.md.j2, report.html.j2)")]
    Unknown(String),
    /// The template does not parse or failed while rendering.
    #[error("template {origin}: {message}")]
    Render {
        /// The override file, or the built-in name.
        origin: String,
        /// minijinja's message, with the line.
        message: String,
    },
}

/// A template environment with every built-in template and, optionally, one overridden.
pub(crate) struct Engine {
    env: Environment<'static>,
    name: &'static str,
    origin: String,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("name", &self.name)
            .field("origin", &self.origin)
            .finish()
    }
}

impl Engine {
    /// The environment for rendering `name`, with its text read from `custom` when given.
    pub(crate) fn new(name: &str, custom: Option<&Path>) -> Result<Engine, TemplateError> {
        let name = BUILTIN
            .iter()
            .map(|(n, _)| *n)
            .find(|n| *n == name)
            .ok_or_else(|| TemplateError::Unknown(name.to_owned()))?;
        let origin = custom.map_or_else(|| name.to_owned(), |p| p.display().to_string());
        let render_error = |e: minijinja::Error| TemplateError::Render {
            origin: origin.clone(),
            message: e.to_string(),
        };
        let mut env = Environment::new();
        env.set_undefined_behavior(UndefinedBehavior::Strict);
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .keep_trailing_newline(true)
                .build()
                .map_err(render_error)?,
        );
        env.add_filter("cell", |s: String| cell(&s));
        env.add_filter("code", |s: String| code_span(&s));
        for (n, text) in BUILTIN {
            if n == name && custom.is_some() {
                continue;
            }
            env.add_template(n, text).map_err(render_error)?;
        }
        if let Some(path) = custom {
            let text = std::fs::read_to_string(path).map_err(|source| TemplateError::Read {
                path: path.to_owned(),
                source,
            })?;
            env.add_template_owned(name, text).map_err(render_error)?;
        }
        Ok(Engine { env, name, origin })
    }

    /// Render the template with `ctx`.
    pub(crate) fn render(&self, ctx: &impl Serialize) -> Result<String, TemplateError> {
        let ctx = minijinja::Value::from(minijinja::value::Serde(ctx));
        self.env
            .get_template(self.name)
            .and_then(|t| t.render(ctx))
            .map_err(|e| TemplateError::Render {
                origin: self.origin.clone(),
                message: format!("{e:#}"),
            })
    }
}

/// Render the built-in template `name` (or the file `custom` in its place) with `ctx`.
/// `mf ci` and `mf report` use it; `ctx` is usually a [`View`].
pub fn render_with(
    name: &str,
    custom: Option<&Path>,
    ctx: &impl Serialize,
) -> Result<String, TemplateError> {
    Engine::new(name, custom)?.render(ctx)
}

/// Render `name` for `view`, `prefix` first, within `limit`. When the text is too long, whole
/// sections are left out from the end of [`SECTIONS`] until it fits, and a pointer line to the
/// full report ([`View::pointer`]) ends the text. Should the sections that are never cut
/// still not fit, the text is cut at the last line break that leaves room for the pointer.
pub fn fit(
    name: &str,
    custom: Option<&Path>,
    view: &View,
    prefix: &str,
    limit: Limit,
) -> Result<String, TemplateError> {
    let engine = Engine::new(name, custom)?;
    let mut view = view.clone();
    let mut text = format!("{prefix}{}", engine.render(&view)?);
    if limit.measure(&text) <= limit.max() {
        return Ok(text);
    }
    let mut dropped = Vec::new();
    for section in SECTIONS.iter().rev() {
        if !view.show.get(*section).copied().unwrap_or(false) {
            continue;
        }
        view.show.insert((*section).to_owned(), false);
        let shorter = format!("{prefix}{}", engine.render(&view)?);
        // A section with nothing in it (no lint in a scorecard, …) is not named as left out.
        if limit.measure(&shorter) < limit.measure(&text) {
            dropped.insert(0, section_title(section));
        }
        text = shorter;
        let pointer = view.pointer(&dropped, limit);
        if limit.measure(&text) + limit.measure(&pointer) <= limit.max() {
            text.push_str(&pointer);
            return Ok(text);
        }
    }
    // Still too long: keep whole lines up to the room left for the pointer.
    let pointer = view.pointer(&dropped, limit);
    let room = limit.max().saturating_sub(limit.measure(&pointer));
    let mut end = 0;
    let mut used = 0;
    for (i, c) in text.char_indices() {
        let size = match limit {
            Limit::Bytes(_) => c.len_utf8(),
            Limit::Chars(_) => 1,
        };
        if used + size > room {
            break;
        }
        used += size;
        if c == '\n' {
            end = i + 1;
        }
    }
    text.truncate(end);
    text.push_str(&pointer);
    Ok(text)
}

fn section_title(section: &str) -> &'static str {
    match section {
        "compare" => "base vs head",
        "metrics" => "metrics",
        "confusion" => "confusion pairs",
        "surface" => "surface diff",
        "lint" => "lint findings",
        "tools" => "per-tool accuracy",
        _ => "details",
    }
}

/// Text made safe inside a markdown code span in a table cell.
fn code_span(text: &str) -> String {
    format!(
        "`{}`",
        text.replace('|', "\\|")
            .replace('`', "'")
            .replace(['\r', '\n'], " ")
    )
}
