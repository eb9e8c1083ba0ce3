//! `mf ci --live`: every server declared in PATH/mf.toml is started and its committed snapshot
//! compared with what it serves now ([`crate::compare::snapshot`], as `mf snapshot --check`).
//! A stale, missing or failing one fails the run (exit 1) with a reason naming the tools.
//! This executes the repository's code; the free checks never do.

use std::path::Path;
use std::time::Duration;

use crate::compare::snapshot::{SnapshotConfig, run};
use crate::github::event::Context;
use crate::render::text::snapshot_reason;
use crate::report::snapshot::{ServerSnapshot, SnapshotReport, SnapshotStatus};
use crate::surface::live::LiveError;
use crate::surface::scan::declared::{CONFIG_FILE, DeclaredError, read_config};

/// Per-phase timeout of a declared server without its own `timeout`.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The freshness check of PATH's declared servers: `None` (with a note) when there is nothing
/// to check.
pub fn check(path: &str, notes: &mut Vec<String>) -> Result<Option<SnapshotReport>, LiveError> {
    let dir = Path::new(path);
    if !dir.is_dir() {
        notes.push(format!(
            "--live: {path} is a file; servers are declared in mf.toml of a folder: nothing checked"
        ));
        return Ok(None);
    }
    let file = dir.join(CONFIG_FILE).display().to_string();
    let servers = match read_config(dir) {
        Ok(Some(s)) if !s.is_empty() => s,
        Ok(_) => {
            notes.push(format!(
                "--live: {file} declares no server ([servers.NAME]): nothing checked"
            ));
            return Ok(None);
        }
        Err(DeclaredError(e)) => {
            return Ok(Some(config_failure(&file, e)));
        }
    };
    let config = SnapshotConfig {
        file,
        dir: dir.to_path_buf(),
        servers,
        check: true,
        timeout: TIMEOUT,
    };
    Ok(Some(run(&config)?.report))
}

/// Why `--live` must not start anything in this run: any `pull_request_target` run (it would
/// run the pull request's code with the base repository's token and secrets), and every run
/// where [`Context::execution_refusal`] refuses tool implementations (a fork's pull request, or
/// a payload that cannot tell). `None` = allowed.
pub fn refusal(ctx: &Context) -> Option<String> {
    if ctx.event.name.as_deref() == Some("pull_request_target") {
        return Some(
            "--live starts the repository's servers, and this is a `pull_request_target` run              (the pull request's code with this repository's token and secrets); run --live on              `push` or a same-repository `pull_request` instead"
                .into(),
        );
    }
    ctx.execution_refusal()
        .map(|why| format!("--live starts the repository's servers: {why}"))
}

/// An unreadable `mf.toml` as a failed check (its error is the reason).
fn config_failure(file: &str, error: String) -> SnapshotReport {
    SnapshotReport {
        version: crate::report::snapshot::SNAPSHOT_VERSION,
        kind: "snapshot".into(),
        mode: crate::report::snapshot::SnapshotMode::Check,
        config: file.to_owned(),
        ok: false,
        servers: vec![ServerSnapshot {
            name: CONFIG_FILE.into(),
            snapshot: String::new(),
            status: SnapshotStatus::Failed,
            tools: None,
            added: vec![],
            removed: vec![],
            changed: vec![],
            error: Some(error),
        }],
    }
}

/// One sentence per server that is not fresh, for the run's reasons.
pub fn reasons(report: &SnapshotReport) -> Vec<String> {
    report
        .servers
        .iter()
        .filter(|s| s.status != SnapshotStatus::Fresh)
        .map(snapshot_reason)
        .collect()
}
