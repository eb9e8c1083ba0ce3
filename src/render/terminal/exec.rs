//! `mf exec` and `mf sandbox check` for people: the call's outcome with its duration and peak
//! memory, the result, the isolation it ran under said plainly, and the tool's own log lines;
//! the engines this machine offers and what each runtime would get.

use std::fmt::Write;

use super::style::Style;
use crate::report::exec::{ExecReport, ExecStatus, Isolation, SandboxReport};
use crate::util::untrusted::inline;

fn isolation_lines(out: &mut String, iso: &Isolation, style: Style) {
    let flag = iso
        .flag
        .as_deref()
        .map(|f| format!(" ({f})"))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "  isolation: {}{flag} · file system {} · network {} · limits {}",
        iso.engine,
        iso.filesystem,
        iso.network,
        iso.limits.join(", ")
    );
    for n in &iso.notes {
        let _ = writeln!(out, "    {}", style.dim(n));
    }
}

/// One call for people.
pub fn exec(r: &ExecReport, style: Style) -> String {
    let mut out = String::new();
    let head = style.bold(&format!("mf exec {}:", inline(&r.tool)));
    let peak = r.peak_rss_mb.map_or_else(
        || "peak memory not measured".to_owned(),
        |m| format!("peak {m} MiB"),
    );
    match r.status {
        ExecStatus::Refused | ExecStatus::InvalidInput => {
            let what = if r.status == ExecStatus::Refused {
                "refused, nothing ran"
            } else {
                "invalid input, nothing ran"
            };
            let _ = writeln!(out, "{head} {what}");
            for reason in &r.reasons {
                let _ = writeln!(out, "  - {}", inline(reason));
            }
        }
        _ => {
            let _ = writeln!(
                out,
                "{head} {} in {} ms (process {} ms), {peak} — {} {}",
                r.status.as_str(),
                r.duration_ms,
                r.wall_ms,
                r.runtime,
                inline(&r.entry)
            );
            if let Some(result) = &r.result {
                let text = serde_json::to_string_pretty(result).unwrap_or_default();
                let _ = writeln!(out, "  result:");
                for line in text.lines() {
                    let _ = writeln!(out, "    {}", inline(line));
                }
            }
            if let Some(e) = &r.error {
                let code = e
                    .code
                    .as_deref()
                    .map(|c| format!(" ({c})"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  error: {}{code}: {}",
                    inline(&e.kind),
                    inline(&e.message)
                );
            }
        }
    }
    if let Some(iso) = &r.isolation {
        isolation_lines(&mut out, iso, style);
    }
    if !r.logs.is_empty() {
        let _ = writeln!(out, "  logs:");
        for line in r.logs.lines() {
            let _ = writeln!(out, "    | {}", inline(line));
        }
    }
    out
}

/// The sandbox check for people.
pub fn sandbox(r: &SandboxReport, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} isolation engines on {}",
        style.bold("mf sandbox check:"),
        r.platform
    );
    for e in &r.engines {
        let mark = if e.available { "yes" } else { "no " };
        let detail = e
            .detail
            .as_deref()
            .map(|d| format!(" [{d}]"))
            .unwrap_or_default();
        let _ = writeln!(out, "  {mark} {}{detail}  {}", e.name, style.dim(&e.note));
    }
    for p in &r.runtimes {
        match (&p.interpreter, &p.engine) {
            (Some(i), Some(engine)) => {
                let fallback = if p.fallback.is_empty() {
                    String::new()
                } else {
                    format!(", falls back to {}", p.fallback.join(" → "))
                };
                let _ = writeln!(out, "{}: {i} runs under {engine}{fallback}", p.runtime);
                if let Some(iso) = &p.isolation {
                    isolation_lines(&mut out, iso, style);
                }
            }
            _ => {
                let _ = writeln!(out, "{}: no interpreter found, calls cannot run", p.runtime);
            }
        }
    }
    out
}
