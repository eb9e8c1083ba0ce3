//! Terminal output: readable summaries for people, one file per document, with the shared
//! styling in [`style`]. Colour only when asked (a TTY without `NO_COLOR`); the caller decides.
//! Every document's renderer is re-exported here under the document's name
//! (`terminal::lint(&report, style)`).

pub mod ablate;
pub mod cases_added;
pub mod check;
pub mod ci;
pub mod cluster;
pub mod compare;
pub mod coverage;
pub mod eval;
mod eval_exec;
pub mod exec;
pub mod lint;
pub mod scan;
pub mod snapshot;
pub mod style;
pub mod tasks;

pub use ablate::ablate;
pub use cases_added::cases_added;
pub use check::check;
pub use ci::ci;
pub use cluster::cluster;
pub use compare::compare;
pub use coverage::coverage;
pub use eval::eval;
pub use lint::{LintView, lint, lint_with};
pub use scan::{scan, scan_width};
pub use snapshot::snapshot;
pub use style::Style;
pub use tasks::{generate_plan, tasks_lint};
