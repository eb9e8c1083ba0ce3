//! `mf tasks lint`: the suite (duplicate ids kept for the report) → its surface → the checks
//! (`eval::task_lint`) → terminal, JSON or SARIF → exit 2 on a finding at `--fail-on`.

use crate::cli::tasks::lint::{TasksLintArgs, TasksLintFormat};
use crate::eval::task_lint::{self, TASK_RULES};
use crate::render::terminal::Style;
use crate::suite::input::suite_surface;
use crate::suite::read::read_suite_for_lint;
use crate::surface::input::{Input, load};
use crate::{Error, Exit, render};

pub(super) fn run(args: &TasksLintArgs, style: Style) -> Result<Exit, Error> {
    if let Some(code) = &args.explain {
        let Some(r) = task_lint::find(code) else {
            let codes: Vec<&str> = TASK_RULES.iter().map(|r| r.code).collect();
            return Err(Error::Usage(format!(
                "unknown tasks lint code `{code}`; codes: {}",
                codes.join(", ")
            )));
        };
        let text = format!(
            "{} ({})\n\n{}\n\nFix:\n    {}\n",
            r.code,
            r.severity.as_str(),
            r.summary,
            r.fix
        );
        crate::commands::print(&text)?;
        return Ok(Exit::Ok);
    }
    if args.list_rules {
        let mut text = String::new();
        for r in TASK_RULES {
            text.push_str(&format!(
                "{:<24} {:<5} {}\n",
                r.code,
                r.severity.as_str(),
                r.summary
            ));
        }
        crate::commands::print(&text)?;
        return Ok(Exit::Ok);
    }
    let display = args.suite.to_string_lossy().replace('\\', "/");
    let suite = read_suite_for_lint(&args.suite, &display)?;
    let spec = args.live.input_spec(&args.paths)?;
    let Input {
        surface,
        label,
        warnings,
    } = if spec.is_empty() {
        let (surface, warnings, label) = suite_surface(&suite, &args.suite, &display)?;
        Input {
            surface,
            label,
            warnings,
        }
    } else {
        load(&spec)?
    };
    for w in &warnings {
        crate::commands::note(&format!("warning: {w}"));
    }
    // As in eval: a suite whose every case offers its own tools needs no surface.
    if surface.tools.is_empty() && suite.cases.iter().any(|c| c.tools.is_none()) {
        return Err(Error::Usage(format!(
            "no tools to check {display} against: it has no tools[] or surface; give the tools \
             as PATH, URL, --stdio or --server"
        )));
    }
    let report = task_lint::lint(&suite, &display, &surface.tools, &label);
    let doc = |code: &str| {
        task_lint::find(code).map(|r| render::sarif::RuleDoc {
            summary: r.summary.to_owned(),
            fix: r.fix.to_owned(),
        })
    };
    if let Some(p) = &args.sarif {
        crate::commands::write_file(p, &render::sarif::tasks_lint(&report, &doc))?;
    }
    if let Some(p) = &args.json_out {
        crate::commands::write_file(p, &render::json::to_string(&report))?;
    }
    let text = match args.format {
        TasksLintFormat::Terminal => render::terminal::tasks_lint(&report, style),
        TasksLintFormat::Json => render::json::to_string(&report),
        TasksLintFormat::Sarif => render::sarif::tasks_lint(&report, &doc),
    };
    crate::commands::print(&text)?;
    let fails = args
        .fail_on
        .severity()
        .is_some_and(|least| report.findings.iter().any(|f| f.severity >= least));
    Ok(if fails { Exit::GateFailed } else { Exit::Ok })
}
