//! Renderers: one module per output format, each a plain function from report data to bytes.
//! A renderer never computes a statistic; it only lays out what the report holds.

pub mod badge;
pub mod ci;
pub mod compare;
pub mod document;
pub mod dry_run;
pub mod eval_junit;
pub mod eval_terminal;
pub mod html;
pub mod json;
pub mod junit;
pub mod lint_terminal;
pub mod markdown;
pub mod progress;
pub mod sarif;
pub mod template;
pub mod terminal;
pub mod view;

/// A share as a whole percentage (`17%`), or `n/a` when it was not measured.
pub(crate) fn percent(value: Option<f64>) -> String {
    value
        .map(|v| format!("{:.0}%", v * 100.0))
        .unwrap_or_else(|| "n/a".into())
}
