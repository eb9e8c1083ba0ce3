//! Overlap family: tools a model may confuse, one finding per pair (`confusable-pair`), from
//! the surface pair scorer ([`crate::analyze::confusable`]): action and object read from the
//! names, text weighted by how rare a word is on this surface, parameter shape. The finding
//! carries the boundary advice; pairs whose descriptions name each other are already dropped
//! by the scorer. Pairs come strongest first; each tool is named in at most
//! [`MAX_PAIRS_PER_TOOL`] pair findings and a report lists at most [`MAX_LISTED_PAIRS`]; one
//! `confusable-pair-more` finding counts the rest.
//!
//! The codes this family used before (`tool-overlap`, `pair-no-boundary`, `tool-name-family`,
//! `param-shape-overlap`, `tool-overlap-more`) are aliases of these two inside v1
//! ([`super::rules::ALIASES`]).

use std::sync::LazyLock;

use regex::Regex;

use super::{LintInput, pair_finding, surface_finding};
use crate::report::lint::{Finding, Severity};

/// The pair finding's code.
pub const PAIR_CODE: &str = "confusable-pair";
/// Pair findings listed per report.
pub const MAX_LISTED_PAIRS: usize = 30;
/// Pair findings naming one tool.
pub const MAX_PAIRS_PER_TOOL: usize = 5;

/// Phrases that mark a description as stating its boundary.
static BOUNDARY: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(instead of|not for|only (when|if|for)|(do not|don't|never) use|rather than|unlike|as opposed to|should not be used|not (meant|intended|to be used) for|prefer|otherwise use)\b",
    )
    .ok()
});
/// "use X for/when/if/instead", where X is not "this"/"it".
static USE_OTHER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(?i)\buse\s+[`'"]?([a-z0-9_.\-]+)[`'"]?\s+(for|when|if|instead)\b"#).ok()
});

/// Whether a description states a boundary in general terms.
pub fn has_boundary_phrase(description: &str) -> bool {
    if BOUNDARY.as_ref().is_some_and(|re| re.is_match(description)) {
        return true;
    }
    USE_OTHER.as_ref().is_some_and(|re| {
        re.captures_iter(description).any(|c| {
            c.get(1).is_some_and(|m| {
                !matches!(
                    m.as_str().to_lowercase().as_str(),
                    "this" | "it" | "me" | "them"
                )
            })
        })
    })
}

/// Run the overlap family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let tools = input.tools();
    let mut per_tool = vec![0usize; tools.len()];
    let (mut listed, mut hidden) = (0usize, 0usize);
    for p in input.pairs {
        if listed >= MAX_LISTED_PAIRS
            || per_tool[p.a] >= MAX_PAIRS_PER_TOOL
            || per_tool[p.b] >= MAX_PAIRS_PER_TOOL
        {
            hidden += 1;
            continue;
        }
        per_tool[p.a] += 1;
        per_tool[p.b] += 1;
        listed += 1;
        let (a, b) = (&tools[p.a], &tools[p.b]);
        let shared = if p.shared.is_empty() {
            String::new()
        } else {
            format!("; shared terms: {}", p.shared.join(", "))
        };
        let hedge = if has_boundary_phrase(&input.facts[p.a].description)
            || has_boundary_phrase(&input.facts[p.b].description)
        {
            " A description states a limit, but neither names the other tool."
        } else {
            ""
        };
        out.push(pair_finding(
            Severity::Warn,
            PAIR_CODE,
            a,
            b,
            format!(
                "`{}` and `{}` may be confused (score {:.2}: {}; text {:.2}, parameters {:.2}{shared}).{hedge}",
                a.name,
                b.name,
                p.score,
                p.relation.phrase(),
                p.text,
                p.shape,
            ),
            format!(
                "Say in each description when to use it and name the other (e.g. \"for … use `{}` instead\"), or merge the two into one tool with a parameter.",
                b.name
            ),
        ));
    }
    if hidden > 0 {
        out.push(surface_finding(
            Severity::Info,
            "confusable-pair-more",
            format!(
                "{hidden} more confusable pairs are not listed (at most {MAX_PAIRS_PER_TOOL} per tool, {MAX_LISTED_PAIRS} per report, strongest first)."
            ),
            "Fix the listed pairs first, then run `mf cluster` to see every group of similar tools; merge near-identical tools behind a parameter.".into(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundary_phrases_are_recognised() {
        for text in [
            "Search issues. Not for pull requests.",
            "Use this only when the id is known.",
            "Do not use for directories.",
            "Lists files rather than reading them.",
            "For folders use list_directory instead.",
            "Use `search_code` for file contents.",
        ] {
            assert!(has_boundary_phrase(text), "{text}");
        }
        for text in [
            "Use this to search open issues by label.",
            "Use it for anything about files.",
            "Returns the file.",
        ] {
            assert!(!has_boundary_phrase(text), "{text}");
        }
    }
}
