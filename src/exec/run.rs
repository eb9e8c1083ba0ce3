//! One call from start to result: admission, schema validation, the engine's command, a fresh
//! temp folder with the harness, the supervised run, and the harness's envelope read back into
//! an [`ExecReport`]. Nothing is written outside the temp folder (removed afterwards) unless the
//! call was allowed to write.

use std::ffi::OsString;

use serde_json::Value;

use super::admission::{self, Effective};
use super::config::ExecSetup;
use super::engine::{self, CallDirs, Planned};
use super::process::{self, Limits, Stopped};
use super::shim::ShimSpec;
use super::{ExecError, probe};
use crate::report::exec::{EXEC_VERSION, ExecError as ToolError, ExecReport, ExecStatus};
use crate::suite::execution::Runtime;

const NODE_HARNESS: &str = include_str!("harness/harness.mjs");
const PYTHON_HARNESS: &str = include_str!("harness/harness.py");
const LOG_CAP: usize = 4096;

/// One call to make.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The tool name (the export or function called).
    pub tool: &'a str,
    /// Its side effects for admission.
    pub effective: Effective,
    /// Its input schema, when it has one.
    pub schema: Option<&'a Value>,
    /// The arguments.
    pub input: &'a Value,
}

fn report(setup: &ExecSetup, tool: &str, status: ExecStatus) -> ExecReport {
    ExecReport {
        version: EXEC_VERSION,
        kind: "exec".into(),
        tool: tool.to_owned(),
        runtime: setup.runtime.as_str().to_owned(),
        entry: setup.entry_display.clone(),
        status,
        ok: false,
        result: None,
        error: None,
        reasons: Vec::new(),
        duration_ms: 0,
        wall_ms: 0,
        peak_rss_mb: None,
        logs: String::new(),
        isolation: None,
    }
}

fn nonce() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("\u{1e}mf-result-{}-{nanos}\u{1e}", std::process::id())
}

/// The engine a call of `setup` gets here.
pub fn engine_for(setup: &ExecSetup) -> Result<&'static str, ExecError> {
    engine::choose(setup.runtime, setup.engine, probe::probes()).map_err(ExecError::Config)
}

/// Run one call. Errors are mf's own trouble (no interpreter, no temp folder); everything the
/// tool did, including being refused, is in the report.
pub fn execute(setup: &ExecSetup, call: Call<'_>) -> Result<ExecReport, ExecError> {
    let refused = admission::refusals(call.tool, call.effective, setup);
    if !refused.is_empty() {
        let mut r = report(setup, call.tool, ExecStatus::Refused);
        r.error = Some(ToolError {
            kind: "Refused".into(),
            code: None,
            message: refused.join("; "),
        });
        r.reasons = refused;
        return Ok(r);
    }
    let violations = admission::schema_violations(call.tool, call.schema, call.input);
    if !violations.is_empty() {
        let mut r = report(setup, call.tool, ExecStatus::InvalidInput);
        r.error = Some(ToolError {
            kind: "InvalidInput".into(),
            code: None,
            message: format!(
                "the arguments do not match the input schema of `{}`",
                call.tool
            ),
        });
        r.reasons = violations;
        return Ok(r);
    }
    let probes = probe::probes();
    let engine_name = engine_for(setup)?;
    let temp = tempfile::Builder::new()
        .prefix("mf-exec-")
        .tempdir()
        .map_err(|e| ExecError::Config(format!("cannot create a temp folder: {e}")))?;
    // Canonical, so the permission flags and mounts name the real path (macOS /var → /private).
    let root = std::fs::canonicalize(temp.path())
        .map_err(|e| ExecError::Config(format!("temp folder: {e}")))?;
    let (name, text) = match setup.runtime {
        Runtime::Node => ("harness.mjs", NODE_HARNESS),
        Runtime::Python => ("harness.py", PYTHON_HARNESS),
    };
    let harness_dir = root.join("harness");
    let dirs = CallDirs {
        harness: harness_dir.join(name),
        work: root.join("work"),
    };
    for d in [&harness_dir, &dirs.work] {
        std::fs::create_dir(d).map_err(|e| ExecError::Config(format!("temp folder: {e}")))?;
    }
    std::fs::write(&dirs.harness, text)
        .map_err(|e| ExecError::Config(format!("cannot write the harness: {e}")))?;
    let mut env = crate::surface::target::child_env(&setup.env);
    env.retain(|(k, _)| !matches!(k.as_str(), "HOME" | "TMPDIR" | "TEMP" | "TMP"));
    for k in ["HOME", "TMPDIR"] {
        env.push((k.to_owned(), dirs.work.clone().into_os_string()));
    }
    env.push(("PYTHONDONTWRITEBYTECODE".into(), "1".into()));
    let nonce = nonce();
    let planned: Planned = match setup.runtime {
        Runtime::Node => {
            if probes.node.is_none() {
                return Err(ExecError::Config(
                    "node is not on PATH: install Node.js 20 or newer".into(),
                ));
            }
            engine::node(setup, &dirs, call.tool, &nonce, engine_name, probes, &env)
        }
        Runtime::Python => {
            let py = probe::python(&setup.python).map_err(ExecError::Config)?;
            let mut planned =
                engine::python(setup, &dirs, call.tool, &nonce, engine_name, &py, &env)?;
            if engine::deny_tcp(engine_name, probes.landlock_abi, setup.allow_net) {
                planned.shim.deny_tcp = true;
                planned.isolation = engine::isolation(engine_name, setup.allow_net, None, true);
            }
            planned
        }
    };
    let exe = std::env::current_exe()
        .map_err(|e| ExecError::Config(format!("mf cannot find its own executable: {e}")))?;
    let mut argv: Vec<OsString> = vec![exe.into_os_string()];
    let shim = ShimSpec {
        parent: Some(std::process::id()),
        ..planned.shim.clone()
    };
    argv.extend(shim.to_args(&planned.program, &planned.args));
    let input = serde_json::to_vec(call.input).unwrap_or_else(|_| b"{}".to_vec());
    let finished = process::run(
        &argv,
        &env,
        &dirs.work,
        &input,
        Limits {
            timeout: setup.timeout,
            memory: setup.max_memory_bytes,
            output: setup.max_output_bytes,
        },
    )?;
    let mut r = report(setup, call.tool, ExecStatus::Crashed);
    r.isolation = Some(planned.isolation);
    r.wall_ms = finished.wall.as_millis() as u64;
    r.duration_ms = r.wall_ms;
    let stdout = String::from_utf8_lossy(&finished.stdout);
    let (before, envelope) = match stdout.rfind(&nonce) {
        Some(at) => (
            stdout[..at].to_owned(),
            serde_json::from_str::<Value>(stdout[at + nonce.len()..].trim()).ok(),
        ),
        None => (stdout.clone().into_owned(), None),
    };
    r.logs = logs(&before, &String::from_utf8_lossy(&finished.stderr));
    let watchdog_mb = (finished.peak_rss > 0).then(|| mib(finished.peak_rss));
    r.peak_rss_mb = watchdog_mb;
    match finished.stopped {
        Stopped::Timeout => {
            r.status = ExecStatus::Timeout;
            r.error = Some(mf_error(
                "Timeout",
                format!(
                    "killed after {} ms with its whole process group (--timeout)",
                    setup.timeout.as_millis()
                ),
            ));
            return Ok(r);
        }
        Stopped::Memory => {
            r.status = ExecStatus::MemoryExceeded;
            r.error = Some(mf_error(
                "MemoryExceeded",
                format!(
                    "killed above {} MiB resident memory (--max-memory-mb)",
                    setup.max_memory_bytes / (1024 * 1024)
                ),
            ));
            return Ok(r);
        }
        Stopped::Output => {
            r.status = ExecStatus::OutputExceeded;
            r.error = Some(mf_error(
                "OutputExceeded",
                format!(
                    "killed after writing more than {} bytes on stdout (--max-output-bytes)",
                    setup.max_output_bytes
                ),
            ));
            return Ok(r);
        }
        Stopped::Exited => {}
    }
    let Some(env) = envelope else {
        let heap = r.logs.contains("heap out of memory");
        r.status = if heap {
            ExecStatus::MemoryExceeded
        } else {
            ExecStatus::Crashed
        };
        let how = finished.code.map_or_else(
            || "was killed by a signal".to_owned(),
            |c| format!("exited with {c}"),
        );
        r.error = Some(mf_error(
            if heap { "MemoryExceeded" } else { "Crashed" },
            format!("the process {how} without a result; see logs"),
        ));
        return Ok(r);
    };
    if let Some(ms) = env.get("durationMs").and_then(Value::as_f64) {
        r.duration_ms = ms.round().max(0.0) as u64;
    }
    if let Some(bytes) = env.get("peakRssBytes").and_then(Value::as_u64) {
        let own = mib(bytes);
        r.peak_rss_mb = Some(watchdog_mb.map_or(own, |w| w.max(own)));
    }
    if env.get("ok").and_then(Value::as_bool) == Some(true) {
        r.status = ExecStatus::Ok;
        r.ok = true;
        r.result = Some(env.get("result").cloned().unwrap_or(Value::Null));
    } else {
        let e = env.get("error");
        let field = |k: &str| e.and_then(|e| e.get(k)).and_then(Value::as_str);
        r.status = match env.get("stage").and_then(Value::as_str) {
            Some("load" | "lookup" | "harness") => ExecStatus::Crashed,
            _ => ExecStatus::Error,
        };
        r.error = Some(ToolError {
            kind: field("type").unwrap_or("Error").to_owned(),
            code: field("code").map(str::to_owned),
            message: field("message").unwrap_or_default().to_owned(),
        });
    }
    Ok(r)
}

fn mib(bytes: u64) -> f64 {
    (bytes as f64 / (1024.0 * 1024.0) * 10.0).round() / 10.0
}

fn mf_error(kind: &str, message: String) -> ToolError {
    ToolError {
        kind: kind.to_owned(),
        code: None,
        message,
    }
}

/// What the tool printed besides its result: stdout before the envelope and stderr, without
/// Node's permission-model warning, the last [`LOG_CAP`] bytes.
fn logs(stdout: &str, stderr: &str) -> String {
    let lines: Vec<&str> = stdout
        .lines()
        .chain(stderr.lines())
        .filter(|l| {
            !l.trim().is_empty()
                && !l.contains("ExperimentalWarning: Permission is an experimental feature")
                && !l.contains("node --trace-warnings ...")
        })
        .collect();
    let text = lines.join("\n");
    if text.len() <= LOG_CAP {
        return text;
    }
    let mut start = text.len() - LOG_CAP;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    format!("…{}", &text[start..])
}
