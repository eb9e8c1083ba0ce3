//! `mf scan`: walk, build the report and the draft, write them atomically, print.

use std::path::Path;

use crate::cli::scan::ScanArgs;
use crate::render::terminal::Style;
use crate::report::scan::{build, draft_suite};
use crate::surface::scan::{scan, ScanOptions};
use crate::util::atomic::write_atomic;
use crate::{render, Error, Exit};

pub(super) fn run(args: &ScanArgs, style: Style) -> Result<Exit, Error> {
    let options = ScanOptions { max_file_bytes: args.max_file_size, threads: args.threads, respect_gitignore: !args.no_ignore };
    let result = scan(&args.root, &options)?;
    let root_display = args.root.to_string_lossy().replace('\\', "/");
    let report = build(&root_display, &result);
    let name = std::fs::canonicalize(&args.root)
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "suite".into());
    let draft = draft_suite(&name, &result);
    let found = !result.tools.is_empty() || !result.skills.is_empty();

    if found && !args.no_write {
        let dir = args.out_dir.clone().unwrap_or_else(|| args.root.clone());
        let suite_path = suite_target(&dir);
        write(&dir.join("mf.scan.json"), &render::json::to_string(&report))?;
        write(&suite_path, &render::json::to_string(&draft))?;
        if !args.json {
            super::note(&format!("wrote {} and {}", dir.join("mf.scan.json").display(), suite_path.display()));
        }
    }
    if args.json {
        let doc = serde_json::json!({ "report": report, "draft": draft });
        super::print(&render::json::to_string(&doc))?;
    } else {
        super::print(&render::terminal::scan(&report, style))?;
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
fn suite_target(dir: &Path) -> std::path::PathBuf {
    let main = dir.join("mf.suite.json");
    match std::fs::read_to_string(&main) {
        Ok(text) => {
            let is_draft = serde_json::from_str::<serde_json::Value>(&text)
                .ok()
                .and_then(|v| v.get("draft").and_then(serde_json::Value::as_bool))
                == Some(true);
            if is_draft { main } else { dir.join("mf.suite.draft.json") }
        }
        Err(_) => main,
    }
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    write_atomic(path, text.as_bytes()).map_err(|source| Error::Write { path: path.to_path_buf(), source })
}
