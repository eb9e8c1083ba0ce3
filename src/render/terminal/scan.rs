//! `mf scan` for people: what was found where, tools and skills with their first description
//! line, and the surface fingerprint.

use crate::render::text::plural;
use crate::util::term::{DEFAULT_WIDTH, truncate, wrap};
use std::fmt::Write;

use super::style::Style;
use crate::report::scan::ScanReport;
use crate::util::untrusted::inline;

fn first_line(s: Option<&str>, max: usize) -> String {
    let line = s
        .unwrap_or("(no description)")
        .lines()
        .next()
        .unwrap_or_default();
    truncate(&inline(line), max)
}

/// A scan report for people, laid out for [`DEFAULT_WIDTH`] columns.
pub fn scan(report: &ScanReport, style: Style) -> String {
    scan_width(report, style, DEFAULT_WIDTH)
}

/// A scan report for people, laid out for `columns` (see `util::term::width`): each tool's
/// description is cut to fit its line, and the line under it (where, parameters, tokens)
/// wraps with its indent kept.
pub fn scan_width(report: &ScanReport, style: Style, columns: usize) -> String {
    let mut out = String::new();
    let s = &report.summary;
    // The summary wraps at the width too (the root can be long), its rest indented.
    let summary = format!(
        "mf scan: {}, {}, {} in {} ({} walked, {} recognized)",
        plural(s.tools, "tool", "tools"),
        plural(s.skills, "skill", "skills"),
        plural(s.servers, "configured server", "configured servers"),
        report.root,
        plural(s.files_walked, "file", "files"),
        s.files_recognized
    );
    let summary = wrap(&summary, columns, "  ");
    let rest = summary.strip_prefix("mf scan:").unwrap_or(&summary);
    let _ = writeln!(out, "{}{rest}", style.bold("mf scan:"));
    if !report.tools.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("Tools"));
        let width = report
            .tools
            .iter()
            .map(|t| t.tool.name.chars().count())
            .max()
            .unwrap_or(0)
            .min(40);
        let indent = " ".repeat(width + 4);
        let room = columns.saturating_sub(width + 4).max(20);
        for t in &report.tools {
            let params = t.tool.parameter_names();
            let _ = writeln!(
                out,
                "  {:<width$}  {}",
                inline(&t.tool.name),
                first_line(t.tool.description.as_deref(), room),
            );
            let detail = format!(
                "{} · params: {} · {}",
                inline(&t.tool.origin.display()),
                if params.is_empty() {
                    "-".into()
                } else {
                    inline(&params.join(", ")).into_owned()
                },
                plural(t.tokens.total, "token", "tokens")
            );
            let _ = writeln!(
                out,
                "{indent}{}",
                style.dim(&wrap(&detail, columns.saturating_sub(width + 4), &indent))
            );
        }
    }
    if !report.skills.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("Skills"));
        for k in &report.skills {
            let room = columns.saturating_sub(k.name.chars().count() + 4).max(20);
            let _ = writeln!(
                out,
                "  {}  {}\n    {}",
                inline(&k.name),
                first_line(k.description.as_deref(), room),
                style.dim(&inline(&k.origin.display()))
            );
        }
    }
    if !report.servers.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("Configured MCP servers"));
        for sv in &report.servers {
            let target = sv
                .command
                .clone()
                .map(|c| format!("{c} {}", sv.args.join(" ")))
                .or_else(|| sv.url.clone())
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  {}  {}  {}  {}",
                inline(&sv.name),
                sv.transport.as_str(),
                inline(target.trim_end()),
                style.dim(&inline(&sv.origin.display()))
            );
        }
    }
    if !report.probes.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("Probed servers"));
        for p in &report.probes {
            match &p.error {
                None => {
                    let _ = writeln!(
                        out,
                        "  {}  {}  ok, {}",
                        p.server,
                        p.transport.as_str(),
                        plural(p.tools, "tool", "tools")
                    );
                }
                Some(e) => {
                    let _ = writeln!(
                        out,
                        "  {}  {}  {}",
                        p.server,
                        p.transport.as_str(),
                        style.yellow(&format!("failed: {}", e.lines().next().unwrap_or_default()))
                    );
                }
            }
        }
    }
    if !report.warnings.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            style.yellow(&plural(report.warnings.len(), "warning", "warnings"))
        );
        for w in report.warnings.iter().take(20) {
            let at = w
                .line
                .map(|l| format!("{}:{l}", inline(&w.file)))
                .unwrap_or_else(|| inline(&w.file).into_owned());
            let _ = writeln!(out, "  {at}: {}", inline(&w.message));
        }
        if report.warnings.len() > 20 {
            let _ = writeln!(
                out,
                "  … {} more in mf.scan.json",
                report.warnings.len() - 20
            );
        }
    }
    let _ = writeln!(
        out,
        "\n{} {} tokens ({}), fingerprint {}",
        style.dim("surface:"),
        report.tokens.total,
        report.tokens.tokenizer,
        report.fingerprint
    );
    out
}
