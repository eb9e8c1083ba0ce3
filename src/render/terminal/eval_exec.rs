//! The `--execute` part of a model's block in the eval summary: the execution metric and, per
//! failing case, the expectation that failed and the tool's output excerpt.

use std::fmt::Write;

use super::style::Style;
use crate::render::text::rate;
use crate::report::exec::ModelExecution;
use crate::util::untrusted::inline;

/// Append the execution lines of one model.
pub(super) fn execution(s: &mut String, x: &ModelExecution, style: Style) {
    let _ = writeln!(s, "  {:<20} {} passed", "execution", rate(&x.rate));
    for c in x.cases.iter().filter(|c| c.passed < c.executed) {
        let _ = writeln!(
            s,
            "    {} {} ({} of {} executions failed): {}",
            style.yellow("exec failed"),
            inline(&c.case),
            c.executed - c.passed,
            c.executed,
            inline(&c.failed.join("; "))
        );
        let _ = writeln!(
            s,
            "      {}",
            style.dim(&format!("output: {}", inline(&c.output)))
        );
    }
    for c in x.cases.iter().filter(|c| c.executed == 0) {
        let why = c.not_run.first().map_or("", String::as_str);
        let _ = writeln!(
            s,
            "    {} {} ({})",
            style.dim("not executed"),
            inline(&c.case),
            inline(why)
        );
    }
}
