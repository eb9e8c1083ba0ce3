//! A ci document for people: the status and its reasons, the event, then the lint, the head
//! scorecard and base vs head as their own terminal renderers show them, and the files written.

use std::fmt::Write;

use super::style::Style;
use crate::render::text::ci_status_word;
use crate::report::ci::{CiMode, CiReport};

/// A ci document for people: the status and its reasons, then the lint, the head scorecard
/// and base vs head as their own terminal renderers show them.
pub fn ci(ci: &CiReport, style: Style) -> String {
    let mut s = String::new();
    let mode = match ci.mode {
        CiMode::Full => String::new(),
        CiMode::Free => format!(
            " (free checks only{})",
            ci.free_reason
                .as_deref()
                .map(|r| format!(": {r}"))
                .unwrap_or_default()
        ),
    };
    let _ = writeln!(
        s,
        "{}{mode}",
        style.bold(&format!(
            "mf ci: {}",
            ci_status_word(ci.status).to_uppercase()
        ))
    );
    for r in &ci.reasons {
        let _ = writeln!(s, "  - {r}");
    }
    let e = &ci.event;
    let mut event = Vec::new();
    if let Some(n) = &e.name {
        event.push(n.clone());
    }
    if let Some(pr) = e.pull_request {
        event.push(format!("#{pr}"));
    }
    if let (Some(b), Some(h)) = (&e.base_sha, &e.head_sha) {
        event.push(format!(
            "{} → {}",
            b.chars().take(12).collect::<String>(),
            h.chars().take(12).collect::<String>()
        ));
    }
    if let Some(u) = &e.run_url {
        event.push(u.clone());
    }
    if !event.is_empty() {
        let _ = writeln!(s, "{}", style.dim(&event.join(" · ")));
    }
    let _ = writeln!(s);
    s.push_str(&super::lint::lint(&ci.lint, style));
    if let Some(card) = &ci.head {
        let _ = writeln!(s);
        s.push_str(&super::eval::eval(card, style));
    }
    if let Some(c) = &ci.compare {
        let _ = writeln!(s);
        s.push_str(&super::compare::compare(c, style));
    }
    let shown = ci.compare.as_ref().is_some_and(|c| c.surface.is_some());
    if let Some(d) = ci.surface.as_ref().filter(|_| !shown) {
        let report = crate::report::compare::CompareReport {
            version: crate::report::compare::COMPARE_VERSION,
            kind: "compare".into(),
            verdict: None,
            base: crate::report::compare::Side {
                source: ci.event.base_sha.clone().unwrap_or_else(|| "base".into()),
                kind: "surface".into(),
                fingerprint: None,
            },
            head: crate::report::compare::Side {
                source: ci.event.head_sha.clone().unwrap_or_else(|| "head".into()),
                kind: "surface".into(),
                fingerprint: None,
            },
            eval: None,
            surface: Some(d.clone()),
        };
        let _ = writeln!(s);
        s.push_str(&super::compare::compare(&report, style));
    }
    let files: Vec<&String> = [
        &ci.files.json,
        &ci.files.junit,
        &ci.files.sarif,
        &ci.files.html,
        &ci.files.badge,
    ]
    .into_iter()
    .flatten()
    .collect();
    if !files.is_empty() {
        let _ = writeln!(
            s,
            "\nwrote: {}",
            files
                .iter()
                .map(|f| f.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    s
}
