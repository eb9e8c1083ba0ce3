//! Target flags shared by commands that read one surface (lint, cluster, eval, check):
//! a snapshot path or URL, `--stdio`, or `--server`, plus timeouts and `--save-snapshot`.
//! Flatten [`TargetArgs`] into a command and call [`TargetArgs::resolve`] once.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::Error;
use crate::surface::input::InputSpec;
use crate::surface::live::LiveOptions;
use crate::surface::target::Target;

/// How to reach live servers: `--stdio`, `--server`, their environment and timeouts, and
/// `--save-snapshot`. Flattened into every command that reads a surface.
#[derive(Debug, Clone, Args)]
pub struct LiveArgs {
    /// Start an MCP server over stdio: "command args" (split like a shell, but no shell runs).
    #[arg(long, value_name = "COMMAND", help_heading = "Live servers")]
    pub stdio: Option<String>,
    /// Start the server of this name from an MCP client config (.mcp.json …) under --config-root.
    #[arg(long, value_name = "NAME", help_heading = "Live servers")]
    pub server: Option<String>,
    /// Where to look for client configs for --server.
    #[arg(
        long,
        value_name = "DIR",
        default_value = ".",
        help_heading = "Live servers"
    )]
    pub config_root: PathBuf,
    /// Pass this environment variable through to a stdio server (repeatable). The child
    /// otherwise gets only PATH, HOME, locale and terminal basics.
    #[arg(long = "env", value_name = "NAME", help_heading = "Live servers")]
    pub env: Vec<String>,
    /// Seconds allowed to start the server (stdio) or connect (HTTP).
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 30,
        help_heading = "Live servers"
    )]
    pub timeout_start: u64,
    /// Seconds allowed for the initialize handshake.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 30,
        help_heading = "Live servers"
    )]
    pub timeout_init: u64,
    /// Seconds allowed for the whole tools/list listing.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 30,
        help_heading = "Live servers"
    )]
    pub timeout_list: u64,
    /// Write the live tools/list result, as served, to this file (a snapshot mf can read back).
    #[arg(long, value_name = "FILE", help_heading = "Live servers")]
    pub save_snapshot: Option<PathBuf>,
}

/// The same defaults as the command line (for commands that build one in code).
impl Default for LiveArgs {
    fn default() -> LiveArgs {
        LiveArgs {
            stdio: None,
            server: None,
            config_root: PathBuf::from("."),
            env: Vec::new(),
            timeout_start: 30,
            timeout_init: 30,
            timeout_list: 30,
            save_snapshot: None,
        }
    }
}

impl LiveArgs {
    /// Whether a live server was asked for with a flag.
    pub fn wants_live(&self) -> bool {
        self.stdio.is_some() || self.server.is_some()
    }

    /// The live target named by `--stdio` or `--server`, if any (not both).
    pub fn target(&self) -> Result<Option<Target>, Error> {
        match (&self.stdio, &self.server) {
            (Some(cmd), None) => Ok(Some(Target::stdio(cmd)?)),
            (None, Some(name)) => Ok(Some(Target::configured(&self.config_root, name)?)),
            (None, None) => Ok(None),
            _ => Err(Error::Usage("give --stdio or --server, not both".into())),
        }
    }

    /// Validate once into the options live loading uses.
    pub fn options(&self) -> Result<LiveOptions, Error> {
        if let Some(bad) = self.env.iter().find(|n| n.is_empty() || n.contains('=')) {
            return Err(Error::Usage(format!(
                "--env takes a variable NAME (its value comes from your environment), got {bad:?}"
            )));
        }
        for (flag, secs) in [
            ("--timeout-start", self.timeout_start),
            ("--timeout-init", self.timeout_init),
            ("--timeout-list", self.timeout_list),
        ] {
            if secs == 0 {
                return Err(Error::Usage(format!("{flag} must be at least 1 second")));
            }
        }
        Ok(LiveOptions {
            timeout_start: Duration::from_secs(self.timeout_start),
            timeout_init: Duration::from_secs(self.timeout_init),
            timeout_list: Duration::from_secs(self.timeout_list),
            pass_env: self.env.clone(),
            save_snapshot: self.save_snapshot.clone(),
            ..LiveOptions::default()
        })
    }
}

/// Exactly one target: a snapshot path or URL, `--stdio`, or `--server`.
#[derive(Debug, Clone, Args)]
pub struct TargetArgs {
    /// A tools/list snapshot (or any tool JSON file), or an http(s):// streamable HTTP URL.
    #[arg(value_name = "TARGET")]
    pub target: Option<String>,
    /// How to reach a live server.
    #[command(flatten)]
    pub live: LiveArgs,
}

impl TargetArgs {
    /// Validate once: the target and the options to load it with.
    pub fn resolve(&self) -> Result<(Target, LiveOptions), Error> {
        let target = match (&self.target, self.live.target()?) {
            (Some(t), None) => Target::positional(t)?,
            (None, Some(t)) => t,
            _ => {
                return Err(Error::Usage(
                    "give exactly one of TARGET, --stdio or --server".into(),
                ));
            }
        };
        Ok((target, self.live.options()?))
    }
}

impl LiveArgs {
    /// `paths` plus the live server of these flags, validated into what the surface reader
    /// takes.
    pub fn input_spec(&self, paths: &[String]) -> Result<InputSpec, Error> {
        Ok(InputSpec {
            paths: paths.to_vec(),
            live: self.target()?,
            live_options: self.options()?,
        })
    }
}
