//! `mf scan`: walk, build the report and the draft, write them atomically, print.

use std::path::Path;

use crate::cli::scan::ScanArgs;
use crate::render::terminal::Style;
use crate::report::scan::{build, draft_suite};
use crate::surface::scan::{ScanOptions, scan};

use crate::{Error, Exit, render};

pub(super) fn run(args: &ScanArgs, style: Style) -> Result<Exit, Error> {
    let options = ScanOptions {
        max_file_bytes: args.max_file_size,
        threads: args.threads,
        respect_gitignore: !args.no_ignore,
    };
    let mut result = scan(&args.root, &options)?;
    // `--probe` is the only path on which anything from the repository is executed.
    let probes = if args.probe {
        probe_servers(&args.root, &mut result, args.probe_timeout)?
    } else {
        Vec::new()
    };
    for n in &result.notes {
        super::note(&format!("note: {n}"));
    }
    let root_display = args.root.to_string_lossy().replace('\\', "/");
    let mut report = build(&root_display, &result);
    report.probes = probes;
    let name = std::fs::canonicalize(&args.root)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "suite".into());
    let draft = draft_suite(&name, &result);
    let found = !result.tools.is_empty() || !result.skills.is_empty();

    if found && !args.no_write {
        let dir = args.out_dir.clone().unwrap_or_else(|| args.root.clone());
        let suite_path = crate::suite::discover::scan_suite_target(&dir);
        super::write_file(&dir.join("mf.scan.json"), &render::json::to_string(&report))?;
        super::write_file(&suite_path, &render::json::to_string(&draft))?;
    }
    if args.json {
        let doc = serde_json::json!({ "report": report, "draft": draft });
        super::print(&render::json::to_string(&doc))?;
    } else {
        super::print(&render::terminal::scan_width(
            &report,
            style,
            crate::util::term::width(),
        ))?;
    }
    if found {
        Ok(Exit::Ok)
    } else {
        if !args.json {
            super::note("no tool definitions found (exit 3)");
        }
        Ok(Exit::NothingFound)
    }
}

/// Start every configured server and say how each went.
fn probe_servers(
    root: &Path,
    result: &mut crate::surface::scan::ScanResult,
    secs: u64,
) -> Result<Vec<crate::report::scan::Probe>, Error> {
    let timeout = std::time::Duration::from_secs(secs.max(1));
    let probes = crate::surface::scan::probe::probe_servers(root, result, timeout)?;
    for probe in &probes {
        match &probe.error {
            None => super::note(&format!(
                "probe {}: {}",
                probe.server,
                crate::render::text::plural(probe.tools, "tool", "tools")
            )),
            Some(e) => super::note(&format!("probe {}: failed: {e}", probe.server)),
        }
    }
    Ok(probes)
}
