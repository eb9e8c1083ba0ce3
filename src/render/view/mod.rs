//! The view every template reads: one document (scorecard, compare, ci) laid out as
//! pre-formatted text — every rate as `k/n = p% [lo–hi]` with its Wilson interval from the
//! report. The view computes no statistic and decides nothing: it formats what the report
//! holds, and the case outcomes it lists come from `eval::cases`.
//!
//! [`types`] holds the shapes, [`build`] lays out a whole document from the part builders
//! ([`scorecard`], [`compare`], [`lint`]), [`words`] the small wording they share, and
//! [`limit`] the size limits and cuttable sections.

pub mod build;
pub mod compare;
pub mod limit;
pub mod lint;
pub mod scorecard;
pub mod types;
pub mod words;

pub use limit::{Limit, SECTIONS};
pub use types::{
    CaseView, CompareModelView, CompareRow, CompareView, ConfusionView, EventView, Figure,
    FindingView, GateView, Headline, LintView, ModelView, PairView, RateView, SuiteView,
    SurfaceView, ToolView, View,
};
