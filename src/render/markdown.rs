//! GitHub-flavoured markdown output of `mf lint` (and of `check`, `coverage`, `cluster`), for the job summary and the PR comment: a
//! verdict line first, a table of errors and warnings with their suggestions, infos folded in
//! `<details>`. Table cells are escaped (`|`, newlines, HTML) and both lists are capped at
//! [`MAX_ROWS`] with a "… N more" line, so a huge report stays a readable section.

use std::fmt::Write;

use crate::render::text::{location, percent, plural, scope_phrase, subject};
use crate::report::lint::{Finding, LintReport, Severity};

/// At most this many errors+warnings rows, and this many infos, are listed.
pub const MAX_ROWS: usize = 50;

/// Text made safe for a GFM table cell: HTML special characters escaped, `|` escaped, line
/// breaks as `<br>`. Outside code spans, the text is also kept from being live markdown —
/// quoted tool descriptions come from the pull request: `@user` (a mention that pings),
/// `[text](url)` (a link that hides where it goes), `*`/`~` emphasis and `\` escapes are
/// shown as written. Code spans (between backticks) are left as they are.
pub(crate) fn cell(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_code = false;
    while let Some(c) = chars.next() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '|' => out.push_str("\\|"),
            // A backtick opens a code span only when another one closes it; a lone one is
            // literal text (GFM renders it so), and what follows it stays escaped.
            '`' if in_code || chars.clone().any(|n| n == '`') => {
                in_code = !in_code;
                out.push(c);
            }
            '`' => out.push_str("\\`"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("<br>");
            }
            '\n' => out.push_str("<br>"),
            '@' if !in_code => out.push_str("&#64;"),
            // A link or an image needs `](`: escaping that `]` leaves `[x](y)` as plain text
            // while interval brackets (`[41.2–69.1]`) stay as they are. (`_` inside a word
            // never emphasises in GFM, and names are full of it.)
            ']' if !in_code && chars.peek() == Some(&'(') => out.push_str("\\]"),
            '*' | '~' | '\\' if !in_code => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Text made safe inside a code span in a table cell: `|` escaped (GFM unescapes it there),
/// backticks and line breaks replaced, since a code span cannot hold them here.
fn code_cell(text: &str) -> String {
    text.replace('|', "\\|")
        .replace('`', "'")
        .replace(['\r', '\n'], " ")
}

/// The verdict line: `❌ **mf lint: 3 errors, 4 warnings** on 12 tools · 3 infos · 1 suppressed`.
fn verdict(report: &LintReport) -> String {
    let s = &report.summary;
    let (icon, headline) = if s.errors > 0 || s.warnings > 0 {
        let icon = if s.errors > 0 { "❌" } else { "⚠️" };
        (
            icon,
            format!(
                "{}, {}",
                plural(s.errors, "error", "errors"),
                plural(s.warnings, "warning", "warnings")
            ),
        )
    } else {
        ("✅", "no errors or warnings".to_owned())
    };
    let mut line = format!("{icon} **mf lint: {headline}** {}", scope_phrase(s));
    if s.infos > 0 {
        let _ = write!(line, " · {}", plural(s.infos, "info", "infos"));
    }
    if s.suppressed > 0 {
        let _ = write!(line, " · {} suppressed", s.suppressed);
    }
    line
}

fn severity_label(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "❌ error",
        Severity::Warn => "⚠️ warn",
        Severity::Info => "ℹ️ info",
    }
}

fn table_row(finding: &Finding) -> String {
    let subject = match &finding.param {
        Some(param) => format!("`{}` ({})", code_cell(&subject(finding)), cell(param)),
        None => format!("`{}`", code_cell(&subject(finding))),
    };
    let at = location(finding)
        .map(|at| format!("`{}`", code_cell(&at)))
        .unwrap_or_else(|| "—".to_owned());
    format!(
        "| {} | `{}` | {} | {} | {} | {} |",
        severity_label(finding.severity),
        code_cell(&finding.code),
        subject,
        cell(&finding.message),
        cell(&finding.suggestion),
        at,
    )
}

fn info_item(finding: &Finding) -> String {
    let mut item = format!(
        "- `{}` **{}**",
        code_cell(&finding.code),
        cell(&subject(finding))
    );
    if let Some(param) = &finding.param {
        let _ = write!(item, " ({})", cell(param));
    }
    let _ = write!(item, ": {}", cell(&finding.message));
    if !finding.suggestion.is_empty() {
        let _ = write!(item, " → {}", cell(&finding.suggestion));
    }
    if let Some(at) = location(finding) {
        let _ = write!(item, " (`{}`)", code_cell(&at));
    }
    item
}

fn more_line(out: &mut String, total: usize) {
    if total > MAX_ROWS {
        let _ = writeln!(out, "\n… {} more", total - MAX_ROWS);
    }
}

/// A lint report as a markdown section (no heading of its own, so callers can nest it).
pub fn lint(report: &LintReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", verdict(report));

    let (infos, problems): (Vec<&Finding>, Vec<&Finding>) = report
        .findings
        .iter()
        .partition(|f| f.severity == Severity::Info);

    if !problems.is_empty() {
        let _ = writeln!(
            out,
            "\n| Severity | Code | Subject | Message | Suggestion | Where |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|");
        for finding in problems.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "{}", table_row(finding));
        }
        more_line(&mut out, problems.len());
    }

    if !infos.is_empty() {
        let _ = writeln!(
            out,
            "\n<details><summary>{}</summary>\n",
            plural(infos.len(), "info", "infos")
        );
        for finding in infos.iter().take(MAX_ROWS) {
            let _ = writeln!(out, "{}", info_item(finding));
        }
        more_line(&mut out, infos.len());
        let _ = writeln!(out, "\n</details>");
    }
    out
}

/// The install-gate report (`mf check --format markdown`).
pub fn check(report: &crate::report::check::CheckReport) -> String {
    let mut out = String::new();
    let verdict = match report.verdict {
        crate::report::check::Verdict::Pass => "pass",
        crate::report::check::Verdict::Warn => "warn",
    };
    let _ = writeln!(
        out,
        "**mf check `{}`: {verdict}** — {} against {} installed\n",
        report.name,
        plural(report.summary.new_tools, "new tool", "new tools"),
        report.summary.installed_tools
    );
    if !report.findings.is_empty() {
        let _ = writeln!(
            out,
            "| severity | code | message | suggestion |\n|---|---|---|---|"
        );
        for f in &report.findings {
            let _ = writeln!(
                out,
                "| {} | `{}` | {} | {} |",
                f.severity.as_str(),
                f.code,
                cell(&f.message),
                cell(&f.suggestion)
            );
        }
    }
    if !report.family.is_empty() {
        let _ = writeln!(
            out,
            "\nCompetes with: {}",
            report
                .family
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    out
}

/// The coverage report (`mf coverage --format markdown`).
pub fn coverage(report: &crate::report::coverage::CoverageReport) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let share = percent(s.must_not_call_share);
    let _ = writeln!(
        out,
        "**mf coverage `{}`: {}/{} tools have ≥3 reviewed cases; must-not-call {share}**\n",
        report.suite, s.tools_covered, s.tools
    );
    let _ = writeln!(
        out,
        "| tool | reviewed | unreviewed | still needed |\n|---|---:|---:|---:|"
    );
    for t in &report.tools {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            t.tool, t.reviewed_cases, t.unreviewed_cases, t.missing
        );
    }
    out
}

/// The cluster report (`mf cluster --format markdown`).
pub fn cluster(report: &crate::report::cluster::ClusterReport) -> String {
    let mut out = String::new();
    let s = &report.summary;
    let _ = writeln!(
        out,
        "**mf cluster: {} → {}, {}**\n",
        plural(s.tools, "tool", "tools"),
        plural(s.clusters, "cluster", "clusters"),
        plural(s.risky_pairs, "risky pair", "risky pairs")
    );
    if !report.clusters.is_empty() {
        let _ = writeln!(out, "| cluster | label | tools |\n|---|---|---|");
        for c in &report.clusters {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                c.id,
                cell(&c.label),
                c.tools
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    if !report.risky_pairs.is_empty() {
        let _ = writeln!(
            out,
            "\n| score | pair | why | shared terms |\n|---:|---|---|---|"
        );
        for p in report.risky_pairs.iter().take(20) {
            let _ = writeln!(
                out,
                "| {:.2} | `{}` ↔ `{}` | {} | {} |",
                p.score,
                p.a,
                p.b,
                p.relation.phrase(),
                cell(&p.shared_terms.join(", "))
            );
        }
    }
    for b in &report.boundaries {
        let _ = writeln!(
            out,
            "\n- **{}** — {}",
            b.tools.join(" / "),
            cell(&b.suggestion)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn quoted_text_cannot_ping_link_or_format_but_code_spans_stay_as_written() {
        assert_eq!(
            cell("Ask @octocat, see [docs](https://evil.example) *now*"),
            "Ask &#64;octocat, see [docs\\](https://evil.example) \\*now\\*"
        );
        assert_eq!(cell("`read_file` uses `@x`"), "`read_file` uses `@x`");
        // A lone backtick opens nothing: what follows it is escaped as usual.
        assert_eq!(cell("a ` @b [c](d)"), "a \\` &#64;b [c\\](d)");
        assert_eq!(cell("55.6% [41.2–69.1]"), "55.6% [41.2–69.1]");
        assert_eq!(cell("a|b\nc"), "a\\|b<br>c");
    }
}
