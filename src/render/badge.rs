//! Badges: a shields.io endpoint JSON (`{"schemaVersion": 1, "label", "message", "color"}`,
//! for `https://img.shields.io/endpoint?url=…`) and a small self-contained SVG, for a
//! scorecard, a compare or a ci document.
//!
//! - **scorecard**: the first model's selection accuracy, `91% (±4)` where `±` is half the
//!   width of its Wilson 95% interval, rounded to whole points; `red` when a gate failed,
//!   `yellow` when the run is unhealthy or the accuracy is under 90%, else `brightgreen`
//!   (under 70% is `red` too). `unmeasured` (yellow) when nothing was scored.
//! - **compare**: the verdict: `regressed` red, `insufficient data` yellow, `improved` and
//!   `unchanged` brightgreen; `surface diff` (yellow) when only surfaces were compared.
//! - **ci**: the status, with the head's accuracy when an eval ran (`pass · 91% (±4)`), or
//!   `pass (free checks)` in free mode; `pass` brightgreen, `fail` red, `unhealthy` yellow —
//!   the colour always agrees with the word (the gates, not the badge, judge the accuracy).

use super::document::Document;
use crate::report::ci::{CiMode, CiStatus};
use crate::report::compare::Verdict as CompareVerdict;
use crate::report::metrics::Rate;
use crate::report::scorecard::{Scorecard, Status};

/// The badge label.
pub const LABEL: &str = "tool selection";

/// A badge colour (shields.io names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Color {
    /// Good.
    BrightGreen,
    /// Look closer.
    Yellow,
    /// Bad.
    Red,
}

impl Color {
    /// The shields.io colour name.
    pub fn as_str(self) -> &'static str {
        match self {
            Color::BrightGreen => "brightgreen",
            Color::Yellow => "yellow",
            Color::Red => "red",
        }
    }

    /// The colour shields.io draws for the name.
    pub fn hex(self) -> &'static str {
        match self {
            Color::BrightGreen => "#4c1",
            Color::Yellow => "#dfb317",
            Color::Red => "#e05d44",
        }
    }
}

/// What a badge says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Badge {
    /// Left side.
    pub label: String,
    /// Right side.
    pub message: String,
    /// Right side's colour.
    pub color: Color,
}

/// `91% (±4)`, or `None` when the rate was not measured.
fn accuracy_text(r: &Rate) -> Option<String> {
    let v = r.value?;
    Some(match r.ci95 {
        Some([lo, hi]) => format!(
            "{:.0}% (±{:.0})",
            v * 100.0,
            ((hi - lo) / 2.0 * 100.0).round()
        ),
        None => format!("{:.0}%", v * 100.0),
    })
}

/// Green from 90% selection accuracy, yellow from 70%, red below.
fn accuracy_color(value: f64) -> Color {
    if value >= 0.9 {
        Color::BrightGreen
    } else if value >= 0.7 {
        Color::Yellow
    } else {
        Color::Red
    }
}

fn scorecard_badge(card: &Scorecard) -> Badge {
    let rate = card.models.first().map(|m| &m.metrics.selection_accuracy);
    let (message, color) = match rate.and_then(|r| Some((accuracy_text(r)?, r.value?))) {
        None => ("unmeasured".to_owned(), Color::Yellow),
        Some((text, value)) => {
            let color = match card.status {
                Status::Fail => Color::Red,
                Status::Unhealthy => Color::Yellow,
                Status::Pass => accuracy_color(value),
            };
            (text, color)
        }
    };
    Badge {
        label: LABEL.to_owned(),
        message,
        color,
    }
}

/// The badge of a document.
pub fn badge(doc: &Document) -> Badge {
    match doc {
        Document::Scorecard(card) => scorecard_badge(card),
        Document::Compare(report) => {
            let (message, color) = match report.verdict {
                Some(CompareVerdict::Regressed) => ("regressed", Color::Red),
                Some(CompareVerdict::Improved) => ("improved", Color::BrightGreen),
                Some(CompareVerdict::Unchanged) => ("unchanged", Color::BrightGreen),
                Some(CompareVerdict::InsufficientData) => ("insufficient data", Color::Yellow),
                Some(CompareVerdict::NoSignificantChange) => {
                    ("no significant change", Color::BrightGreen)
                }
                Some(CompareVerdict::LikelyRegressed) => ("likely regressed", Color::Yellow),
                None => ("surface diff", Color::Yellow),
            };
            Badge {
                label: LABEL.to_owned(),
                message: message.to_owned(),
                color,
            }
        }
        Document::Ci(ci) => {
            let (word, color) = match ci.status {
                CiStatus::Pass => ("pass", Color::BrightGreen),
                CiStatus::Fail => ("fail", Color::Red),
                CiStatus::Unhealthy => ("unhealthy", Color::Yellow),
            };
            let rate = ci
                .head
                .as_ref()
                .and_then(|c| c.models.first())
                .map(|m| &m.metrics.selection_accuracy);
            let accuracy = rate.and_then(accuracy_text);
            // The colour is the verdict's: a passing run is green whatever its accuracy (the
            // accuracy gates decided it passed), so "pass · 69%" is never red.
            let message = match (ci.mode, accuracy) {
                (CiMode::Free, _) => format!("{word} (free checks)"),
                (CiMode::Full, Some(a)) => format!("{word} · {a}"),
                (CiMode::Full, None) => word.to_owned(),
            };
            Badge {
                label: LABEL.to_owned(),
                message,
                color,
            }
        }
    }
}

/// The shields.io endpoint JSON, one line with a trailing newline.
pub fn endpoint_json(badge: &Badge) -> String {
    let value = serde_json::json!({
        "schemaVersion": 1,
        "label": badge.label,
        "message": badge.message,
        "color": badge.color.as_str(),
    });
    format!("{value}\n")
}

/// Approximate width in pixels of `text` in 11px Verdana (shields' font), per character class.
fn text_width(text: &str) -> f64 {
    text.chars()
        .map(|c| match c {
            'i' | 'l' | 'j' | '\'' | '.' | ',' | ':' | ';' | '|' | '!' | ' ' => 3.9,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' => 4.9,
            'm' | 'w' | 'M' | 'W' | '%' => 10.0,
            c if c.is_ascii_uppercase() => 7.6,
            c if c.is_ascii_digit() => 7.0,
            c if c.is_ascii() => 6.6,
            _ => 8.0,
        })
        .sum()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A flat badge as a standalone SVG (no external font, image or link), with `<title>` and
/// `aria-label` for screen readers.
pub fn svg(badge: &Badge) -> String {
    let lw = (text_width(&badge.label) + 12.0).round();
    let mw = (text_width(&badge.message) + 12.0).round();
    let w = lw + mw;
    let label = escape(&badge.label);
    let message = escape(&badge.message);
    let color = badge.color.hex();
    let lx = lw / 2.0;
    let mx = lw + mw / 2.0;
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="20" role="img" aria-label="{label}: {message}">
<title>{label}: {message}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="{w}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{mw}" height="20" fill="{color}"/><rect width="{w}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="{lx}" y="15" fill="#010101" fill-opacity=".3">{label}</text><text x="{lx}" y="14">{label}</text>
<text x="{mx}" y="15" fill="#010101" fill-opacity=".3">{message}</text><text x="{mx}" y="14">{message}</text>
</g>
</svg>
"##
    )
}
