//! The geometry of the HTML charts: where each bar, whisker, cell and label goes, from the
//! rates and counts the view holds. Layout, not statistics: every value placed is one the
//! report already has.

use super::shapes::{Bar, BarChart, Charts, DeltaChart, DeltaRow, HeatCell, HeatMap, Label, Tick};
use crate::render::view::{CompareRow, ModelView, RateView, View};

/// Most rows and columns a heat map draws; larger matrices keep the tools in the most
/// confusion pairs.
pub const HEATMAP_MAX: usize = 40;
/// Most bars a per-tool chart draws (the table below it lists every tool).
pub const BARS_MAX: usize = 100;
/// Most rows of a base vs head chart.
const DELTAS_MAX: usize = 40;

const ROW: f64 = 24.0;
const PLOT_W: f64 = 400.0;
const TEXT_W: f64 = 240.0;
const CELL: f64 = 28.0;
const CHAR_W: f64 = 7.0;
const LABEL_CHARS: usize = 32;

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let head: String = text.chars().take(max.saturating_sub(1)).collect();
        format!("{head}…")
    }
}

fn label_width(labels: impl Iterator<Item = usize>) -> f64 {
    let chars = labels.max().unwrap_or(4).clamp(4, LABEL_CHARS);
    chars as f64 * CHAR_W + 16.0
}

fn ticks(plot_x: f64) -> Vec<Tick> {
    (0..=4)
        .map(|i| Tick {
            x: plot_x + PLOT_W * f64::from(i) / 4.0,
            label: format!("{}%", i * 25),
        })
        .collect()
}

fn bar(y: f64, height: f64, plot_x: f64, label: &str, r: &RateView) -> Bar {
    Bar {
        y,
        mid: y + height / 2.0,
        label: cut(label, LABEL_CHARS),
        full: label.to_owned(),
        text: r.text.clone(),
        w: r.value.unwrap_or(0.0) * PLOT_W,
        lo_x: r.lo.map(|lo| plot_x + lo * PLOT_W),
        hi_x: r.hi.map(|hi| plot_x + hi * PLOT_W),
        tip: format!("{label}: {}", r.text),
    }
}

fn accuracy_chart(index: usize, m: &ModelView) -> BarChart {
    let shown = &m.tools[..m.tools.len().min(BARS_MAX)];
    let plot_x = label_width(shown.iter().map(|t| t.tool.chars().count()));
    let top = 8.0;
    let bars = shown
        .iter()
        .enumerate()
        .map(|(i, t)| bar(top + i as f64 * ROW, ROW, plot_x, &t.tool, &t.accuracy))
        .collect::<Vec<_>>();
    let axis_y = top + bars.len() as f64 * ROW + 4.0;
    BarChart {
        id: format!("accuracy-{index}"),
        title: format!("Selection accuracy per tool: {}", m.label),
        desc: format!(
            "Horizontal bars: the share of trials of each tool's cases that picked it, with the \
             Wilson 95% interval as a whisker; {} tools.",
            m.tools.len()
        ),
        width: plot_x + PLOT_W + TEXT_W,
        height: axis_y + 22.0,
        plot_x,
        plot_w: PLOT_W,
        axis_y,
        ticks: ticks(plot_x),
        bars,
        more: m.tools.len().saturating_sub(BARS_MAX),
    }
}

/// Which rows and columns a large matrix keeps: the labels in the most off-diagonal trials.
fn keep_labels(m: &ModelView) -> Option<Vec<String>> {
    let c = &m.confusion;
    if c.rows.len() <= HEATMAP_MAX && c.columns.len() <= HEATMAP_MAX + 3 {
        return None;
    }
    let mut weight: std::collections::BTreeMap<&str, u64> = Default::default();
    for p in &m.confusion_pairs {
        *weight.entry(p.expected.as_str()).or_default() += p.count;
        *weight.entry(p.picked.as_str()).or_default() += p.count;
    }
    let mut ranked: Vec<(&str, u64)> = weight.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    Some(
        ranked
            .into_iter()
            .take(HEATMAP_MAX)
            .map(|(l, _)| l.to_owned())
            .collect(),
    )
}

fn heat_map(index: usize, m: &ModelView) -> HeatMap {
    let c = &m.confusion;
    let keep = keep_labels(m);
    let special = |l: &str| l.starts_with('(');
    let rows: Vec<usize> = (0..c.rows.len())
        .filter(|&i| keep.as_ref().is_none_or(|k| k.contains(&c.rows[i])))
        .collect();
    let cols: Vec<usize> = (0..c.columns.len())
        .filter(|&j| {
            keep.as_ref()
                .is_none_or(|k| special(&c.columns[j]) || k.contains(&c.columns[j]))
        })
        .collect();
    let left = label_width(rows.iter().map(|&i| c.rows[i].chars().count()));
    let top = label_width(cols.iter().map(|&j| c.columns[j].chars().count())) * 0.75 + 8.0;
    let max = c.counts.iter().flatten().copied().max().unwrap_or(0).max(1) as f64;
    let mut cells = Vec::new();
    for (ri, &i) in rows.iter().enumerate() {
        for (ci, &j) in cols.iter().enumerate() {
            let count = c.counts.get(i).and_then(|r| r.get(j)).copied().unwrap_or(0);
            let diagonal = c.rows[i] == c.columns[j];
            let opacity = if count == 0 {
                1.0
            } else {
                0.15 + 0.85 * count as f64 / max
            };
            cells.push(HeatCell {
                x: left + ci as f64 * CELL,
                y: top + ri as f64 * CELL,
                fill: match (count, diagonal) {
                    (0, _) => "#f6f8fa",
                    (_, true) => "#1a7f37",
                    (_, false) => "#cf222e",
                },
                opacity: (opacity * 100.0).round() / 100.0,
                count: if count == 0 {
                    String::new()
                } else {
                    count.to_string()
                },
                ink: if count > 0 && opacity > 0.55 {
                    "#ffffff"
                } else {
                    "#1f2328"
                },
                tip: format!(
                    "expected {}, picked {}: {count} trial{}",
                    c.rows[i],
                    c.columns[j],
                    if count == 1 { "" } else { "s" }
                ),
            });
        }
    }
    let note = keep.map(|_| {
        format!(
            "Showing {} of {} expected tools and {} of {} columns: the tools in the most \
             confusion pairs. The table lists every pair.",
            rows.len(),
            c.rows.len(),
            cols.len(),
            c.columns.len()
        )
    });
    HeatMap {
        id: format!("heatmap-{index}"),
        title: format!("Confusion heat map: {}", m.label),
        desc: format!(
            "Rows: the expected tool ({} rows). Columns: what the model picked ({} columns). \
             Colour strength: trials in the cell; green on the diagonal (right), red off it \
             (confused).",
            rows.len(),
            cols.len()
        ),
        // Rotated column labels reach past the last column by about their length × cos 45°.
        width: left + cols.len() as f64 * CELL + (top - 8.0) * 0.75 + 16.0,
        height: top + rows.len() as f64 * CELL + 8.0,
        cell: CELL,
        columns: cols
            .iter()
            .enumerate()
            .map(|(ci, &j)| Label {
                x: left + ci as f64 * CELL + CELL / 2.0,
                y: top - 6.0,
                text: cut(&c.columns[j], LABEL_CHARS),
                full: c.columns[j].clone(),
            })
            .collect(),
        rows: rows
            .iter()
            .enumerate()
            .map(|(ri, &i)| Label {
                x: left - 6.0,
                y: top + ri as f64 * CELL + CELL / 2.0,
                text: cut(&c.rows[i], LABEL_CHARS),
                full: c.rows[i].clone(),
            })
            .collect(),
        cells,
        note,
    }
}

fn delta_chart(index: usize, model: &str, rows: &[&CompareRow]) -> DeltaChart {
    let shown = &rows[..rows.len().min(DELTAS_MAX)];
    let plot_x = label_width(shown.iter().map(|r| r.label.chars().count()));
    let row_h = 36.0;
    let top = 8.0;
    let rows = shown
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let y = top + i as f64 * row_h;
            DeltaRow {
                y,
                label: cut(&r.label, LABEL_CHARS),
                full: r.label.clone(),
                base: bar(
                    y + 4.0,
                    12.0,
                    plot_x,
                    &format!("{} base", r.label),
                    &r.before,
                ),
                head: bar(
                    y + 18.0,
                    12.0,
                    plot_x,
                    &format!("{} head", r.label),
                    &r.after,
                ),
                color: match r.verdict.as_str() {
                    "regressed" => "#cf222e",
                    "improved" => "#1a7f37",
                    _ => "#0969da",
                },
                text: format!(
                    "{} → {}{} · {}",
                    r.before.percent,
                    r.after.percent,
                    if r.delta.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", r.delta)
                    },
                    r.verdict
                ),
            }
        })
        .collect::<Vec<_>>();
    let axis_y = top + rows.len() as f64 * row_h + 4.0;
    DeltaChart {
        id: format!("deltas-{index}"),
        title: format!("Base vs head: {model}"),
        desc: format!(
            "For each compared metric, a grey bar for base and a coloured bar for head (red: \
             regressed, green: improved, blue: no significant change), each with its Wilson 95% \
             interval; {} metrics.",
            rows.len()
        ),
        width: plot_x + PLOT_W + TEXT_W + 60.0,
        height: axis_y + 22.0,
        plot_x,
        plot_w: PLOT_W,
        axis_y,
        ticks: ticks(plot_x),
        rows,
    }
}

/// Lay out the charts of a view.
pub fn charts(view: &View) -> Charts {
    Charts {
        accuracy: view
            .models
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.tools.is_empty())
            .map(|(i, m)| accuracy_chart(i, m))
            .collect(),
        heatmaps: view
            .models
            .iter()
            .enumerate()
            .filter(|(_, m)| !m.confusion.rows.is_empty())
            .map(|(i, m)| heat_map(i, m))
            .collect(),
        deltas: view
            .compare
            .iter()
            .flat_map(|c| &c.models)
            .enumerate()
            .map(|(i, cm)| {
                let rows: Vec<&CompareRow> = cm.metrics.iter().chain(&cm.moved).collect();
                delta_chart(i, &cm.model, &rows)
            })
            .collect(),
    }
}
