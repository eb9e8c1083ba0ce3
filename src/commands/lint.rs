//! `mf lint`: load the surface, run the rules, drop accepted findings, render, gate.

use std::path::Path;

use crate::analyze::baseline::{self, Baseline};
use crate::analyze::lint::{LintOptions, lint, rules};
use crate::cli::lint::{LintArgs, LintFormat};
use crate::render::terminal::Style;
use crate::report::lint::{LINT_REPORT_VERSION, LintReport, LintSummary, Severity};
use crate::surface::fingerprint::surface_fingerprint;
use crate::surface::tokens::surface_tokens;
use crate::util::atomic::write_atomic;
use crate::{Error, Exit, render};

use super::input;

pub(super) fn run(args: &LintArgs, style: Style) -> Result<Exit, Error> {
    if let Some(code) = &args.explain {
        return explain(code);
    }
    if args.list_rules {
        let mut text = String::new();
        for r in rules::RULES {
            text.push_str(&format!(
                "{:<32} {:<5} {:<12} {}\n",
                r.code,
                r.severity.as_str(),
                r.family,
                r.summary
            ));
        }
        super::print(&text)?;
        return Ok(Exit::Ok);
    }
    let input = input::load(&args.input)?;
    for w in &input.warnings {
        super::note(&format!("warning: {w}"));
    }
    let suite = input.suite.as_ref();
    let options = LintOptions {
        max_tools: args.max_tools,
        max_context_tokens: args.max_context_tokens,
        max_tool_tokens: args.max_tool_tokens,
        profiles: suite.map(|s| s.profiles.clone()).unwrap_or_default(),
        ..LintOptions::default()
    };
    let findings = lint(&input.surface, &options);
    if let Some(path) = &args.write_baseline {
        let b = Baseline::from_findings(&findings);
        write(path, &render::json::to_string(&b))?;
        super::note(&format!(
            "wrote a baseline of {} findings to {}",
            b.findings.len(),
            path.display()
        ));
        return Ok(Exit::Ok);
    }
    let base = match &args.baseline {
        Some(p) => Some(Baseline::read(p, &p.to_string_lossy())?),
        None => None,
    };
    let (findings, suppressed) = baseline::apply(
        findings,
        base.as_ref(),
        suite.map(|s| s.suppressions.as_slice()).unwrap_or_default(),
    );
    let report = build_report(&input.label, &input.surface, findings, suppressed);

    let fail_on = args.fail_on.severity();
    let doc = |code: &str| {
        rules::find(code).map(|r| render::sarif::RuleDoc {
            summary: r.summary.to_owned(),
            fix: r.fix.to_owned(),
        })
    };
    let junit = |r: &LintReport| {
        render::junit::lint(r, fail_on)
            .map_err(|e| Error::Usage(format!("cannot write JUnit XML: {e}")))
    };
    if let Some(p) = &args.sarif {
        write(p, &render::sarif::lint(&report, &doc))?;
    }
    if let Some(p) = &args.junit {
        write(p, &junit(&report)?)?;
    }
    if let Some(p) = &args.markdown {
        write(p, &render::markdown::lint(&report))?;
    }
    if let Some(p) = &args.json_out {
        write(p, &render::json::to_string(&report))?;
    }
    let text = match args.format {
        LintFormat::Terminal => render::terminal::lint(&report, style),
        LintFormat::Json => render::json::to_string(&report),
        LintFormat::Sarif => render::sarif::lint(&report, &doc),
        LintFormat::Junit => junit(&report)?,
        LintFormat::Markdown => render::markdown::lint(&report),
    };
    super::print(&text)?;
    let failed = fail_on.is_some_and(|level| report.findings.iter().any(|f| f.severity >= level));
    Ok(if failed { Exit::GateFailed } else { Exit::Ok })
}

/// Build the report: counts, fingerprint and tokens beside the findings.
pub fn build_report(
    label: &str,
    surface: &crate::surface::Surface,
    findings: Vec<crate::report::lint::Finding>,
    suppressed: usize,
) -> LintReport {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (_, tokens) = surface_tokens(&surface.tools, true);
    LintReport {
        version: LINT_REPORT_VERSION,
        kind: "lint".into(),
        target: label.to_owned(),
        fingerprint: surface_fingerprint(surface),
        tokens,
        summary: LintSummary {
            tools: surface.tools.len(),
            skills: surface.skills.len(),
            errors: count(Severity::Error),
            warnings: count(Severity::Warn),
            infos: count(Severity::Info),
            suppressed,
        },
        findings,
    }
}

fn explain(code: &str) -> Result<Exit, Error> {
    let Some(r) = rules::find(code) else {
        let near: Vec<&str> = rules::RULES
            .iter()
            .map(|r| r.code)
            .filter(|c| c.contains(code) || code.contains(c))
            .collect();
        let hint = if near.is_empty() {
            "run `mf lint --list-rules` for every code".to_owned()
        } else {
            format!("did you mean {}?", near.join(", "))
        };
        return Err(Error::Usage(format!("unknown rule code `{code}`; {hint}")));
    };
    let text = format!(
        "{code} ({severity}, {family})\n\n{summary}\n\nExample that triggers it:\n{example}\n\nFix:\n{fix}\n",
        code = r.code,
        severity = r.severity.as_str(),
        family = r.family,
        summary = r.summary,
        example = indent(r.example),
        fix = indent(r.fix)
    );
    super::print(&text)?;
    Ok(Exit::Ok)
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    write_atomic(path, text.as_bytes()).map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })
}
