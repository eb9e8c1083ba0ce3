//! Budget family: tokens the surface costs in every request (o200k_base, the wire form). The
//! whole surface over `--max-context-tokens` is an error; one tool over `--max-tool-tokens` a
//! warning. Without the flags, defaults apply: a tool over [`DEFAULT_TOOL_TOKENS`] and a
//! surface over [`DEFAULT_SURFACE_TOKENS`] are warnings. One info names the top consumer when a single tool is more than
//! [`TOP_SHARE`] of the surface and more than twice the mean tool, on surfaces of at least
//! [`TOP_MIN_TOOLS`] tools (with fewer, a large share is just arithmetic).

use super::{LintInput, surface_finding, tool_finding};
use crate::report::lint::{Finding, Severity};
use crate::surface::tokens::tool_tokens;

/// Share of the surface's tokens above which one tool is worth pointing at.
pub const TOP_SHARE: f64 = 0.25;
/// Fewest tools for the top-consumer info.
pub const TOP_MIN_TOOLS: usize = 4;
/// Per-tool budget when `--max-tool-tokens` is not given (warn above it).
pub const DEFAULT_TOOL_TOKENS: usize = 2_000;
/// Surface budget when `--max-context-tokens` is not given: a warning (not the error an
/// explicit budget gives) above it.
pub const DEFAULT_SURFACE_TOKENS: usize = 20_000;

/// Run the budget family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let raw = &input.raw.tools;
    if raw.is_empty() {
        return;
    }
    let counts: Vec<usize> = raw.iter().map(|t| tool_tokens(t).total).collect();
    let total: usize = counts.iter().sum();
    let tools = input.tools();
    if let Some(max) = input.options.max_context_tokens
        && total > max
    {
        let mut order: Vec<usize> = (0..counts.len()).collect();
        order.sort_by(|&x, &y| counts[y].cmp(&counts[x]).then(x.cmp(&y)));
        let top: Vec<String> = order
            .iter()
            .take(3)
            .map(|&i| format!("`{}` {}", tools[i].name, counts[i]))
            .collect();
        out.push(surface_finding(
                Severity::Error,
                "tokens-over-budget",
                format!("The surface costs {total} tokens per request, over the budget of {max} (largest: {}).", top.join(", ")),
                "Shorten the largest schemas and descriptions, split the surface into profiles, or raise `--max-context-tokens`.".into(),
            ));
    }
    if input.options.max_context_tokens.is_none() && total > DEFAULT_SURFACE_TOKENS {
        out.push(surface_finding(
            Severity::Warn,
            "tokens-over-budget",
            format!("The surface costs {total} tokens per request, over the default budget of {DEFAULT_SURFACE_TOKENS} (a tenth of a 200k context, paid on every call)."),
            "Shorten the largest schemas and descriptions or split the surface into profiles; set `--max-context-tokens` to make a budget a gate.".into(),
        ));
    }
    {
        let max = input.options.max_tool_tokens.unwrap_or(DEFAULT_TOOL_TOKENS);
        for (tool, &n) in tools.iter().zip(&counts).filter(|(_, n)| **n > max) {
            out.push(tool_finding(
                Severity::Warn,
                "tool-over-budget",
                tool,
                format!("`{}` costs {n} tokens per request, over the per-tool budget of {max}.", tool.name),
                "Trim long descriptions and enum lists, move examples to documentation, or split the tool; or raise `--max-tool-tokens`.".into(),
            ));
        }
    }
    if counts.len() >= TOP_MIN_TOOLS && total > 0 {
        let Some((i, &n)) = counts
            .iter()
            .enumerate()
            .max_by(|x, y| x.1.cmp(y.1).then(y.0.cmp(&x.0)))
        else {
            return;
        };
        let share = n as f64 / total as f64;
        let mean = total as f64 / counts.len() as f64;
        if share > TOP_SHARE && n as f64 > 2.0 * mean {
            out.push(tool_finding(
                Severity::Info,
                "tokens-top-consumer",
                &tools[i],
                format!("`{}` alone costs {n} of the surface's {total} tokens ({:.0}%).", tools[i].name, share * 100.0),
                "Check whether its description and schema can be shorter (long enums, embedded examples, repeated text).".into(),
            ));
        }
    }
}
