//! The chart shapes the HTML template draws: per-tool accuracy bars with whiskers, the
//! confusion heat map, the base vs head rows, with their ticks and labels. Plain positioned
//! data, serialized into the template context.

use serde::Serialize;

/// Every chart of a report.
#[derive(Debug, Serialize)]
pub struct Charts {
    /// Per model: selection accuracy per tool.
    pub accuracy: Vec<BarChart>,
    /// Per model: the confusion heat map.
    pub heatmaps: Vec<HeatMap>,
    /// Per compared model: base vs head per metric.
    pub deltas: Vec<DeltaChart>,
}

/// An axis tick.
#[derive(Debug, Serialize)]
pub struct Tick {
    /// x position.
    pub x: f64,
    /// `50%`.
    pub label: String,
}

/// A horizontal bar chart of rates with whiskers.
#[derive(Debug, Serialize)]
pub struct BarChart {
    /// Element id prefix.
    pub id: String,
    /// Chart title.
    pub title: String,
    /// What the chart shows, for screen readers.
    pub desc: String,
    /// SVG width.
    pub width: f64,
    /// SVG height.
    pub height: f64,
    /// x where the plot starts (labels end).
    pub plot_x: f64,
    /// Plot width (0–100%).
    pub plot_w: f64,
    /// y of the axis.
    pub axis_y: f64,
    /// Ticks.
    pub ticks: Vec<Tick>,
    /// The bars.
    pub bars: Vec<Bar>,
    /// Tools not drawn.
    pub more: usize,
}

/// One bar.
#[derive(Debug, Serialize)]
pub struct Bar {
    /// Top of the row.
    pub y: f64,
    /// Middle of the row (text baseline and whisker).
    pub mid: f64,
    /// The label, cut to fit.
    pub label: String,
    /// The whole label.
    pub full: String,
    /// `k/n = p% [lo–hi]`.
    pub text: String,
    /// Bar width (0 when unmeasured).
    pub w: f64,
    /// Whisker ends, when measured.
    pub lo_x: Option<f64>,
    /// Whisker ends, when measured.
    pub hi_x: Option<f64>,
    /// Hover text: the full label and figure.
    pub tip: String,
}

/// A confusion heat map.
#[derive(Debug, Serialize)]
pub struct HeatMap {
    /// Element id prefix.
    pub id: String,
    /// Chart title.
    pub title: String,
    /// What the chart shows, for screen readers.
    pub desc: String,
    /// SVG width.
    pub width: f64,
    /// SVG height.
    pub height: f64,
    /// Cell size.
    pub cell: f64,
    /// Column labels (rotated), anchored at their x, y.
    pub columns: Vec<Label>,
    /// Row labels.
    pub rows: Vec<Label>,
    /// The cells.
    pub cells: Vec<HeatCell>,
    /// Why some rows or columns are not drawn.
    pub note: Option<String>,
}

/// A positioned label.
#[derive(Debug, Serialize)]
pub struct Label {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
    /// The text, cut to fit.
    pub text: String,
    /// The full text.
    pub full: String,
}

/// One heat-map cell.
#[derive(Debug, Serialize)]
pub struct HeatCell {
    /// x.
    pub x: f64,
    /// y.
    pub y: f64,
    /// Fill colour.
    pub fill: &'static str,
    /// Fill opacity, from the count.
    pub opacity: f64,
    /// The count (empty when 0).
    pub count: String,
    /// Text colour readable on the fill.
    pub ink: &'static str,
    /// Hover text.
    pub tip: String,
}

/// Base vs head per metric.
#[derive(Debug, Serialize)]
pub struct DeltaChart {
    /// Element id prefix.
    pub id: String,
    /// Chart title.
    pub title: String,
    /// What the chart shows, for screen readers.
    pub desc: String,
    /// SVG width.
    pub width: f64,
    /// SVG height.
    pub height: f64,
    /// x where the plot starts.
    pub plot_x: f64,
    /// Plot width.
    pub plot_w: f64,
    /// y of the axis.
    pub axis_y: f64,
    /// Ticks.
    pub ticks: Vec<Tick>,
    /// One row per metric.
    pub rows: Vec<DeltaRow>,
}

/// One metric, base and head.
#[derive(Debug, Serialize)]
pub struct DeltaRow {
    /// Top of the row.
    pub y: f64,
    /// The metric label, cut to fit.
    pub label: String,
    /// The whole label.
    pub full: String,
    /// Base bar.
    pub base: Bar,
    /// Head bar.
    pub head: Bar,
    /// Head bar colour by verdict.
    pub color: &'static str,
    /// `100.0% → 53.5% (−46.5 pts) · regressed`.
    pub text: String,
}
