//! `mf snapshot` for people: one line per server (written, unchanged, fresh, stale, missing,
//! failed), then each added, removed and changed tool by name.

use std::fmt::Write;

use super::style::Style;
use crate::render::text::plural;
use crate::report::snapshot::{ServerSnapshot, SnapshotReport, SnapshotStatus};
use crate::util::untrusted::inline;

/// The snapshot report for people.
pub fn snapshot(report: &SnapshotReport, style: Style) -> String {
    let mut out = String::new();
    for s in &report.servers {
        let _ = writeln!(out, "{}", headline(s, style));
        for name in &s.added {
            let _ = writeln!(out, "  + {}  added", inline(name));
        }
        for name in &s.removed {
            let _ = writeln!(out, "  - {}  removed", inline(name));
        }
        for c in &s.changed {
            let at: Vec<String> = c.pointers.iter().map(|p| inline(p).into_owned()).collect();
            let _ = writeln!(
                out,
                "  ~ {}  changed: {}{}",
                inline(&c.name),
                c.fields.join(", "),
                if at.is_empty() {
                    String::new()
                } else {
                    style.dim(&format!(" ({})", at.join(", ")))
                }
            );
        }
        if let Some(e) = &s.error {
            for line in e.lines() {
                let _ = writeln!(out, "  {}", inline(line));
            }
        }
    }
    out
}

fn headline(s: &ServerSnapshot, style: Style) -> String {
    let name = style.bold(&inline(&s.name));
    let file = inline(&s.snapshot);
    let tools = s
        .tools
        .map(|n| plural(n, "tool", "tools"))
        .unwrap_or_default();
    match s.status {
        SnapshotStatus::Written => format!("{name}: wrote {file} ({tools})"),
        SnapshotStatus::Unchanged => format!("{name}: {file} is up to date ({tools})"),
        SnapshotStatus::Fresh => format!("{name}: fresh: {file} matches the server ({tools})"),
        SnapshotStatus::Stale => format!(
            "{name}: {}: {file} differs from what the server serves now; run `mf snapshot {}` and commit the file",
            style.yellow("stale"),
            inline(&s.name)
        ),
        SnapshotStatus::Missing => format!(
            "{name}: {}: no snapshot yet at {file}: run `mf snapshot {}` and commit the file",
            style.yellow("missing"),
            inline(&s.name)
        ),
        SnapshotStatus::Failed => format!("{name}: {}", style.yellow("failed")),
    }
}
