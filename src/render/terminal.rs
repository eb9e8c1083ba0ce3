//! Terminal output: readable summaries for people. Colour only when asked (a TTY without
//! `NO_COLOR`); the caller decides.

use std::fmt::Write;

use crate::report::scan::ScanReport;

/// Styling switch for terminal output.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// Emit ANSI colour codes.
    pub color: bool,
}

impl Style {
    pub(crate) fn bold(self, s: &str) -> String {
        if self.color {
            format!("\x1b[1m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
    pub(crate) fn dim(self, s: &str) -> String {
        if self.color {
            format!("\x1b[2m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
    pub(crate) fn yellow(self, s: &str) -> String {
        if self.color {
            format!("\x1b[33m{s}\x1b[0m")
        } else {
            s.to_owned()
        }
    }
}

fn first_line(s: Option<&str>, max: usize) -> String {
    let line = s
        .unwrap_or("(no description)")
        .lines()
        .next()
        .unwrap_or_default();
    if line.chars().count() > max {
        let cut: String = line.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    } else {
        line.to_owned()
    }
}

/// A scan report for people.
pub fn scan(report: &ScanReport, style: Style) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let _ = writeln!(
        out,
        "{} {} tools, {} skills, {} configured servers in {} ({} files walked, {} recognized)",
        style.bold("mf scan:"),
        s.tools,
        s.skills,
        s.servers,
        report.root,
        s.files_walked,
        s.files_recognized
    );
    if !report.tools.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("Tools"));
        let width = report
            .tools
            .iter()
            .map(|t| t.tool.name.chars().count())
            .max()
            .unwrap_or(0)
            .min(40);
        for t in &report.tools {
            let params = t.tool.parameter_names();
            let _ = writeln!(
                out,
                "  {:<width$}  {}  {}",
                t.tool.name,
                first_line(t.tool.description.as_deref(), 60),
                style.dim(&format!(
                    "{} · params: {} · {} tokens",
                    t.tool.origin.display(),
                    if params.is_empty() {
                        "-".into()
                    } else {
                        params.join(", ")
                    },
                    t.tokens.total
                )),
            );
        }
    }
    if !report.skills.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("Skills"));
        for k in &report.skills {
            let _ = writeln!(
                out,
                "  {}  {}  {}",
                k.name,
                first_line(k.description.as_deref(), 60),
                style.dim(&k.origin.display())
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
                sv.name,
                sv.transport.as_str(),
                target.trim_end(),
                style.dim(&sv.origin.display())
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
                        "  {}  {}  ok, {} tools",
                        p.server,
                        p.transport.as_str(),
                        p.tools
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
            style.yellow(&format!("{} warnings", report.warnings.len()))
        );
        for w in report.warnings.iter().take(20) {
            let at = w
                .line
                .map(|l| format!("{}:{l}", w.file))
                .unwrap_or_else(|| w.file.clone());
            let _ = writeln!(out, "  {at}: {}", w.message);
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

/// The install-gate report for people.
pub fn check(report: &crate::report::check::CheckReport, style: Style) -> String {
    let mut out = String::new();
    let verdict = match report.verdict {
        crate::report::check::Verdict::Pass => "pass",
        crate::report::check::Verdict::Warn => "warn",
    };
    let _ = writeln!(
        out,
        "{} {} — {} new tools against {} installed",
        style.bold(&format!("mf check {}:", report.name)),
        verdict,
        report.summary.new_tools,
        report.summary.installed_tools
    );
    for f in &report.findings {
        let _ = writeln!(
            out,
            "  {} {}  {}",
            crate::render::lint_terminal::label(style, f.severity),
            f.code,
            f.message
        );
        let _ = writeln!(out, "    {}", style.dim(&format!("→ {}", f.suggestion)));
    }
    if !report.family.is_empty() {
        let _ = writeln!(out, "  competes with: {}", report.family.join(", "));
    }
    out
}

/// The coverage report for people.
pub fn coverage(report: &crate::report::coverage::CoverageReport, style: Style) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let share = super::percent(s.must_not_call_share);
    let _ = writeln!(
        out,
        "{} {}/{} tools have ≥3 reviewed cases; {} reviewed cases ({} must-not-call = {share}, guidance ≥15%) — {}",
        style.bold(&format!("mf coverage {}:", report.suite)),
        s.tools_covered,
        s.tools,
        s.reviewed_cases,
        s.must_not_call,
        if s.meets_guidance {
            "meets guidance"
        } else {
            "below guidance"
        }
    );
    for t in &report.tools {
        let mark = if t.missing == 0 { "ok  " } else { "need" };
        let extra = if t.missing > 0 {
            format!("  (+{} needed)", t.missing)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {mark} {:<32} {} reviewed{}{extra}",
            t.tool,
            t.reviewed_cases,
            if t.unreviewed_cases > 0 {
                format!(", {} unreviewed", t.unreviewed_cases)
            } else {
                String::new()
            }
        );
    }
    for p in &report.profiles {
        let _ = writeln!(
            out,
            "  profile {}: {} tools, {} reviewed cases, below minimum: {}",
            p.profile,
            p.tools,
            p.reviewed_cases,
            if p.tools_below_minimum.is_empty() {
                "none".into()
            } else {
                p.tools_below_minimum.join(", ")
            }
        );
    }
    for u in &report.unknown_expected_tools {
        let _ = writeln!(
            out,
            "  case {} expects `{}`, which is not on the surface",
            u.case, u.expected_tool
        );
    }
    out
}

/// The cluster report for people.
pub fn cluster(report: &crate::report::cluster::ClusterReport, style: Style) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let _ = writeln!(
        out,
        "{} {} tools → {} clusters, {} unclustered, {} risky pairs (threshold {:.2})",
        style.bold("mf cluster:"),
        s.tools,
        s.clusters,
        s.unclustered,
        s.risky_pairs,
        report.threshold
    );
    for c in &report.clusters {
        let _ = writeln!(
            out,
            "\n{} {}  {}",
            style.bold(&c.id),
            c.label,
            style.dim(&format!(
                "cohesion mean {:.2}, min {:.2}",
                c.cohesion.mean, c.cohesion.min
            ))
        );
        let _ = writeln!(out, "  {}", c.tools.join(", "));
    }
    if !report.risky_pairs.is_empty() {
        let _ = writeln!(out, "\n{}", style.bold("Risky pairs"));
        for p in report.risky_pairs.iter().take(20) {
            let _ = writeln!(
                out,
                "  {:.2}  {} ↔ {}  {}",
                p.score,
                p.a,
                p.b,
                style.dim(
                    &format!("{:?}; shared: {}", p.basis, p.shared_terms.join(", ")).to_lowercase()
                )
            );
        }
    }
    for b in &report.boundaries {
        let _ = writeln!(out, "\n{} {}", style.bold("Boundary"), b.tools.join(" / "));
        for t in &b.per_tool {
            let words = if t.distinguishing_words.is_empty() {
                "-".into()
            } else {
                t.distinguishing_words.join(", ")
            };
            let params = if t.distinguishing_params.is_empty() {
                "-".into()
            } else {
                t.distinguishing_params.join(", ")
            };
            let _ = writeln!(out, "  {:<28} words: {words}; params: {params}", t.tool);
        }
        if !b.shared_params.is_empty() {
            let _ = writeln!(
                out,
                "  shared params (cannot tell them apart): {}",
                b.shared_params.join(", ")
            );
        }
        let _ = writeln!(out, "  {}", style.dim(&format!("→ {}", b.suggestion)));
    }
    for h in &report.family_hints {
        let _ = writeln!(
            out,
            "\nfamily `{}` is split across {}: {}",
            h.token,
            h.clusters.join(", "),
            h.tools.join(", ")
        );
    }
    out
}
