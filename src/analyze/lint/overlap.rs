//! Overlap family: tools a model may confuse. Lexical overlap (compat: trigram Dice over name
//! words + description, warn ≥ 0.6, info ≥ 0.4, the 20 strongest pairs listed and the rest
//! summarised), parameter-shape overlap (same arguments, different-looking text), and
//! `tool-name-family`: tools whose names share distinctive words (read_file / read_text_file)
//! while their descriptions read differently, and `pair-no-boundary`: a confusable pair (lexical ≥ 0.6) where neither description says when
//! not to use it or names the other tool.
//!
//! Pairs come from the similarity index computed once in [`super::lint`]; nothing here loops
//! over all pairs of tools.

use std::sync::LazyLock;

use regex::Regex;

use super::{LintInput, OVERLAP_INFO, OVERLAP_WARN, pair_finding, surface_finding};
use crate::analyze::similarity::PairSimilarity;
use crate::report::lint::{Finding, Severity};

/// Pairs listed individually per kind (compat: top 20).
pub const MAX_LISTED_PAIRS: usize = 20;
/// Parameter-shape similarity at or above which two tools "take the same arguments". The
/// structural score is smoothed (see `similarity`): 0.6 needs about three shared required
/// parameters, so one shared `path` never triggers it.
pub const STRUCTURAL_OVERLAP: f64 = 0.6;
/// Family (shared distinctive name words, IDF-weighted) similarity at or above which two tools
/// are a name family a model may confuse even when their descriptions read differently — the
/// cluster threshold.
pub const FAMILY_OVERLAP: f64 = 0.5;
/// A name family whose tools also take alike arguments (structural ≥ this) is a warning.
pub const FAMILY_SAME_ARGS: f64 = 0.5;

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

/// Whether a pair is confusable enough to need a boundary (and to matter across profiles).
pub fn confusable(pair: &PairSimilarity) -> bool {
    pair.lexical >= OVERLAP_WARN
}

/// Run the overlap family.
pub fn check(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let tools = input.tools();
    let by_lexical = ranked(input.pairs, |p| p.lexical >= OVERLAP_INFO, |p| p.lexical);
    let by_shape = ranked(
        input.pairs,
        |p| {
            p.structural >= STRUCTURAL_OVERLAP
                && p.lexical < OVERLAP_INFO
                && !tools[p.a].parameter_names().is_empty()
                && !tools[p.b].parameter_names().is_empty()
        },
        |p| p.structural,
    );
    let by_family = ranked(
        input.pairs,
        |p| p.family >= FAMILY_OVERLAP && p.lexical < OVERLAP_INFO,
        |p| p.family.max(p.structural),
    );
    for p in by_family.iter().take(MAX_LISTED_PAIRS) {
        let (a, b) = (&tools[p.a], &tools[p.b]);
        use crate::surface::terms::{name_tokens, stem};
        let stems_b: Vec<String> = name_tokens(&b.name).iter().map(|w| stem(w)).collect();
        let words: Vec<String> = name_tokens(&a.name)
            .into_iter()
            .filter(|w| stems_b.contains(&stem(w)))
            .collect();
        let same_args = p.structural >= FAMILY_SAME_ARGS;
        out.push(pair_finding(
            if same_args { Severity::Warn } else { Severity::Info },
            "tool-name-family",
            a,
            b,
            format!(
                "`{}` and `{}` share the name words `{}` (family similarity {:.2}){}; a model choosing by name may call one for the other.",
                a.name,
                b.name,
                words.join(" "),
                p.family,
                if same_args { format!(" and take alike arguments (parameter similarity {:.2})", p.structural) } else { String::new() }
            ),
            format!(
                "Say in each description when to use it rather than the other (e.g. \"for … use `{}`\"); if one is a deprecated alias, stop serving it.",
                b.name
            ),
        ));
    }
    for p in by_lexical.iter().take(MAX_LISTED_PAIRS) {
        let (a, b) = (&tools[p.a], &tools[p.b]);
        let severity = if p.lexical >= OVERLAP_WARN {
            Severity::Warn
        } else {
            Severity::Info
        };
        out.push(pair_finding(
            severity,
            "tool-overlap",
            a,
            b,
            format!(
                "`{}` and `{}` read alike (lexical similarity {:.2}{}); a model may call one for the other.",
                a.name,
                b.name,
                p.lexical,
                shared(p)
            ),
            "Make names and descriptions say what differs (object, scope, side effects), or merge them into one tool with a parameter.".into(),
        ));
    }
    for p in by_shape.iter().take(MAX_LISTED_PAIRS) {
        let (a, b) = (&tools[p.a], &tools[p.b]);
        out.push(pair_finding(
            Severity::Info,
            "param-shape-overlap",
            a,
            b,
            format!(
                "`{}` and `{}` take the same arguments (parameter similarity {:.2}); only their names and descriptions tell them apart.",
                a.name, b.name, p.structural
            ),
            "Check that each description states what it does differently; if they differ only by mode, consider one tool with an enum parameter.".into(),
        ));
    }
    let hidden: Vec<&&PairSimilarity> = by_lexical
        .iter()
        .skip(MAX_LISTED_PAIRS)
        .chain(by_shape.iter().skip(MAX_LISTED_PAIRS))
        .chain(by_family.iter().skip(MAX_LISTED_PAIRS))
        .collect();
    if !hidden.is_empty() {
        let warn = hidden.iter().filter(|p| p.lexical >= OVERLAP_WARN).count();
        out.push(surface_finding(
            if warn > 0 { Severity::Warn } else { Severity::Info },
            "tool-overlap-more",
            format!(
                "{} more overlapping pairs are not listed ({warn} at warning level); only the {MAX_LISTED_PAIRS} strongest of each kind are shown.",
                hidden.len()
            ),
            "Run `mf cluster` to see every group of similar tools, and fix the strongest pairs first.".into(),
        ));
    }
    no_boundary(input, out);
}

fn ranked(
    pairs: &[PairSimilarity],
    keep: impl Fn(&PairSimilarity) -> bool,
    key: impl Fn(&PairSimilarity) -> f64,
) -> Vec<&PairSimilarity> {
    let mut v: Vec<&PairSimilarity> = pairs.iter().filter(|p| keep(p)).collect();
    v.sort_by(|x, y| {
        key(y)
            .total_cmp(&key(x))
            .then_with(|| (x.a, x.b).cmp(&(y.a, y.b)))
    });
    v
}

fn shared(p: &PairSimilarity) -> String {
    if p.shared_terms.is_empty() {
        return String::new();
    }
    let terms: Vec<&str> = p.shared_terms.iter().take(6).map(String::as_str).collect();
    format!("; shared terms: {}", terms.join(", "))
}

fn no_boundary(input: &LintInput<'_>, out: &mut Vec<Finding>) {
    let tools = input.tools();
    let mut phrase: Vec<Option<bool>> = vec![None; tools.len()];
    let mut stated = |i: usize| {
        *phrase[i].get_or_insert_with(|| has_boundary_phrase(&input.facts[i].description))
    };
    for p in input.pairs.iter().filter(|p| confusable(p)) {
        let (a, b) = (&tools[p.a], &tools[p.b]);
        let names_other = input.facts[p.a]
            .description
            .contains(&b.name.to_lowercase())
            || input.facts[p.b]
                .description
                .contains(&a.name.to_lowercase());
        if names_other || stated(p.a) || stated(p.b) {
            continue;
        }
        out.push(pair_finding(
            Severity::Warn,
            "pair-no-boundary",
            a,
            b,
            format!(
                "`{}` and `{}` are easy to confuse (similarity {:.2}) and neither description says when not to use it or names the other.",
                a.name, b.name, p.lexical
            ),
            format!("Add a boundary to one description, e.g. \"Use for …; for … use `{}` instead.\"", b.name),
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
