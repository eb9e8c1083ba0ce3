//! A ci document for people, in the order of the PR comment (the same [`View`]): the status and
//! its reasons, the event, what changed by name (tools with their token deltas, newly confusable
//! pairs), the lint findings the gate counted with `file:line` (pre-existing ones counted, not
//! listed), then the head scorecard and base vs head as their own terminal renderers show them,
//! the notes and the files written.

use std::fmt::Write;

use super::style::{Style, label};
use crate::render::text::{ci_status_word, plural};
use crate::render::view::View;
use crate::report::ci::{CiMode, CiReport};
use crate::report::lint::Severity;

/// A ci document for people (see the module docs for the order).
pub fn ci(ci: &CiReport, style: Style) -> String {
    let view = View::of_ci(ci);
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
    if let Some(sv) = &view.surface {
        let _ = writeln!(s, "\n{}", style.bold("What changed"));
        let _ = writeln!(s, "  {}", sv.line);
        for (what, list) in [
            ("added", &sv.added),
            ("removed", &sv.removed),
            ("re-described", &sv.redescribed),
            ("re-schemed", &sv.reschemed),
        ] {
            for t in list {
                let mut line = format!("  {what:<13} {} ({})", t.name, t.tokens);
                if !t.detail.is_empty() {
                    let _ = write!(line, ": {}", t.detail);
                }
                if !t.origin.is_empty() {
                    let _ = write!(line, "  {}", t.origin);
                }
                let _ = writeln!(s, "{line}");
            }
        }
        for p in &sv.newly_confusable {
            let _ = writeln!(
                s,
                "  {}  {} ↔ {} ({})",
                style.yellow("newly confusable"),
                p.a,
                p.b,
                p.text
            );
        }
    }
    if let Some(lv) = &view.lint {
        let _ = writeln!(s, "\n{}", style.bold(&lv.title));
        let _ = writeln!(s, "  {}", lv.gate_line);
        for f in &lv.new {
            let severity = match f.severity {
                "error" => Severity::Error,
                "warn" => Severity::Warn,
                _ => Severity::Info,
            };
            let at = if f.location.is_empty() {
                String::new()
            } else {
                format!("{}: ", f.location)
            };
            let _ = writeln!(
                s,
                "  {} {at}{} [{}] {}",
                label(style, severity),
                f.subject,
                f.code,
                f.message.replace('\n', " ")
            );
        }
        if !lv.new_infos.is_empty() {
            let _ = writeln!(
                s,
                "  {} (not listed; `mf lint` shows them)",
                plural(lv.new_infos.len(), "info", "infos")
            );
        }
        let _ = writeln!(s, "  {}", style.dim(&format!("all findings: {}", lv.line)));
    }
    if let Some(card) = &ci.head {
        let _ = writeln!(s);
        s.push_str(&super::eval::eval(card, style));
    }
    if let Some(c) = ci.compare.as_ref().filter(|c| c.eval.is_some()) {
        // The surface diff is shown above.
        let mut c = c.clone();
        c.surface = None;
        let _ = writeln!(s);
        s.push_str(&super::compare::compare(&c, style));
    }
    if !ci.notes.is_empty() {
        let _ = writeln!(s);
        for n in &ci.notes {
            let _ = writeln!(s, "{}", style.dim(&format!("note: {n}")));
        }
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
