//! Where a command reads its tool surface from: files, folders to scan, or a suite.

use std::path::PathBuf;

use clap::Args;

use crate::suite::input::SurfaceRequest;

/// The surface a free command analyses. With no path: `mf.suite.json` in the current folder if
/// there is one that is not a draft, else a scan of the current folder.
#[derive(Debug, Args, Clone, Default)]
pub struct SurfaceArgs {
    /// Surface files (tools/list snapshots, OpenAI/Anthropic tool JSON, function.json, suites),
    /// folders to scan, or http(s):// MCP endpoints. Several are merged into one surface.
    #[arg(value_name = "PATH|URL")]
    pub paths: Vec<String>,
    /// A suite whose profiles, suppressions and cases apply (its tools are added when no PATH
    /// is given).
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// Live servers (`--stdio`, `--server`) and their options.
    #[command(flatten)]
    pub live: super::target::LiveArgs,
}

impl SurfaceArgs {
    /// Validate once into the request the input resolution takes.
    pub fn request(&self) -> Result<SurfaceRequest, crate::Error> {
        Ok(SurfaceRequest {
            input: self.live.input_spec(&self.paths)?,
            suite: self.suite.clone(),
        })
    }
}
