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
        let suite_path = suite_target(&dir);
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

/// `mf.suite.json`, unless one exists that a person owns (not a draft): then
/// `mf.suite.draft.json`, so a scan never overwrites a hand-written suite.
///
/// Anything at `mf.suite.json` that is not readably a draft — not UTF-8, not JSON, a symlink,
/// a folder — is treated as the author's: only a missing file is written over.
fn suite_target(dir: &Path) -> std::path::PathBuf {
    use crate::suite::discover::{SuiteFile, suite_file};
    let main = dir.join("mf.suite.json");
    match suite_file(&main) {
        SuiteFile::Missing | SuiteFile::Draft => main,
        SuiteFile::Unreadable | SuiteFile::Authored => dir.join("mf.suite.draft.json"),
    }
}

/// Start every configured server, add its live tools to `result` (origin `{server, live}`).
fn probe_servers(
    root: &Path,
    result: &mut crate::surface::scan::ScanResult,
    secs: u64,
) -> Result<Vec<crate::report::scan::Probe>, Error> {
    use crate::surface::live::LiveOptions;
    use crate::surface::target::{Target, load_target};
    let timeout = std::time::Duration::from_secs(secs.max(1));
    let opts = LiveOptions {
        timeout_start: timeout,
        timeout_init: timeout,
        timeout_list: timeout,
        ..LiveOptions::default()
    };
    let mut probes = Vec::new();
    for server in result.servers.clone() {
        let loaded = Target::from_config(root, &server)
            .map_err(crate::surface::error::InputError::from)
            .and_then(|t| load_target(&t, &opts));
        let probe = match loaded {
            Ok(loaded) => {
                let n = loaded.surface.tools.len();
                result.tools.extend(loaded.surface.tools);
                crate::report::scan::Probe {
                    server: server.name.clone(),
                    transport: server.transport,
                    ok: true,
                    tools: n,
                    error: None,
                }
            }
            Err(crate::surface::error::InputError::Live(
                crate::surface::live::LiveError::Interrupted,
            )) => return Err(Error::Interrupted),
            Err(e) => crate::report::scan::Probe {
                server: server.name.clone(),
                transport: server.transport,
                ok: false,
                tools: 0,
                error: Some(e.to_string()),
            },
        };
        match &probe.error {
            None => super::note(&format!(
                "probe {}: {}",
                probe.server,
                crate::render::text::plural(probe.tools, "tool", "tools")
            )),
            Some(e) => super::note(&format!("probe {}: failed: {e}", probe.server)),
        }
        probes.push(probe);
    }
    Ok(probes)
}
