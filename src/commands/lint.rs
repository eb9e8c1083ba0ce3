//! `mf lint`: flags → the surface → the rules (analyze::lint) → accepted findings dropped →
//! every requested rendering → the `--fail-on` exit code.

use crate::analyze::baseline::{self, Baseline};
use crate::analyze::lint::report::build_report;
use crate::analyze::lint::{LintOptions, lint, rules, select};
use crate::cli::lint::{LintArgs, LintFormat};
use crate::render::terminal::Style;
use crate::report::lint::LintReport;
use crate::suite::input::resolve;
use crate::{Error, Exit, render};

use super::write_file as write;

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
    let input = resolve(&args.input.request()?)?;
    for w in &input.warnings {
        super::note(&format!("warning: {w}"));
    }
    if let Some(exit) = super::nothing_to_check(&input.label, &input.surface) {
        return Ok(exit);
    }
    let suite = input.suite.as_ref();
    let options = LintOptions {
        max_tools: args.max_tools,
        max_context_tokens: args.max_context_tokens,
        max_tool_tokens: args.max_tool_tokens,
        profiles: suite.map(|s| s.profiles.clone()).unwrap_or_default(),
        ..LintOptions::default()
    };
    let findings = select(lint(&input.surface, &options), &args.select, &args.ignore);
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
            .map_err(|e| Error::Render(crate::render::RenderError::Junit(e.to_string())))
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
        LintFormat::Terminal => {
            // Cut to the terminal (`$COLUMNS`, else the tty's width); piped output is not cut.
            let width = (std::env::var_os("COLUMNS").is_some()
                || std::io::IsTerminal::is_terminal(&std::io::stdout()))
            .then(crate::util::term::width);
            let view = render::terminal::LintView {
                verbose: args.verbose,
                width,
            };
            render::terminal::lint_with(&report, style, view)
        }
        LintFormat::Json => render::json::to_string(&report),
        LintFormat::Sarif => render::sarif::lint(&report, &doc),
        LintFormat::Junit => junit(&report)?,
        LintFormat::Markdown => render::markdown::lint(&report),
    };
    super::print(&text)?;
    let failed = report
        .findings
        .iter()
        .any(|f| crate::analyze::lint::fails(f, fail_on));
    Ok(if failed { Exit::GateFailed } else { Exit::Ok })
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
