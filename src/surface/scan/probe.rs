//! `--probe`: start every MCP server the scan found configured and list its live tools. The
//! only step of a scan that executes anything from the repository, so callers opt in
//! (`mf scan --probe`; `scan_tools` of `mf mcp` only with `--allow-live-targets`).

use std::path::Path;
use std::time::Duration;

use serde::Serialize;

use super::ScanResult;
use super::mcp_config::Transport;
use crate::surface::error::InputError;
use crate::surface::live::{LiveError, LiveOptions};
use crate::surface::target::{Target, load_target};

/// The outcome of starting one configured server.
#[derive(Debug, Clone, Serialize)]
pub struct Probe {
    /// The config entry's name.
    pub server: String,
    /// How it was reached.
    pub transport: Transport,
    /// Whether its tools were listed.
    pub ok: bool,
    /// How many tools it served.
    pub tools: usize,
    /// Why it failed (command not found, timeout, exited early with its stderr tail, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Start every configured server of `result` (each phase limited to `timeout`), add its live
/// tools to `result` (origin `{server, live}`), and say how each went. Only an interrupt
/// (Ctrl-C) is an error; a server that fails is a [`Probe`] with its error.
pub fn probe_servers(
    root: &Path,
    result: &mut ScanResult,
    timeout: Duration,
) -> Result<Vec<Probe>, LiveError> {
    let opts = LiveOptions {
        timeout_start: timeout,
        timeout_init: timeout,
        timeout_list: timeout,
        ..LiveOptions::default()
    };
    let mut probes = Vec::new();
    for server in result.servers.clone() {
        let loaded = Target::from_config(root, &server)
            .map_err(InputError::from)
            .and_then(|t| load_target(&t, &opts));
        let probe = match loaded {
            Ok(loaded) => {
                let n = loaded.surface.tools.len();
                result.tools.extend(loaded.surface.tools);
                Probe {
                    server: server.name.clone(),
                    transport: server.transport,
                    ok: true,
                    tools: n,
                    error: None,
                }
            }
            Err(InputError::Live(LiveError::Interrupted)) => return Err(LiveError::Interrupted),
            Err(e) => Probe {
                server: server.name.clone(),
                transport: server.transport,
                ok: false,
                tools: 0,
                error: Some(e.to_string()),
            },
        };
        probes.push(probe);
    }
    Ok(probes)
}
