//! `mf exec` and `mf sandbox check` flags, and the execution policy flags `mf eval --execute`
//! shares.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};

use crate::exec::{EngineChoice, ExecFlags};
use crate::suite::execution::Runtime;

/// What an executed tool may touch. Flags override the suite's `execution` block.
#[derive(Debug, Clone, Default, Args)]
pub struct PolicyArgs {
    /// A path the tool may also read (repeatable). The entry's folder is always readable.
    #[arg(long, value_name = "PATH", help_heading = "Execution policy")]
    pub allow_read: Vec<PathBuf>,
    /// A folder the tool may write (repeatable); needed to run a `sideEffects: write` tool.
    #[arg(long, value_name = "PATH", help_heading = "Execution policy")]
    pub allow_write: Vec<PathBuf>,
    /// Let the tool use the network; needed to run a `sideEffects: external` tool.
    #[arg(long, help_heading = "Execution policy")]
    pub allow_net: bool,
    /// Kill a call above this resident memory, in MiB (default 512).
    #[arg(long, value_name = "MB", help_heading = "Execution policy")]
    pub max_memory_mb: Option<u64>,
    /// Kill a call that writes more than this many bytes on stdout (default 1048576).
    #[arg(long, value_name = "BYTES", help_heading = "Execution policy")]
    pub max_output_bytes: Option<u64>,
    /// Python isolation: auto (bubblewrap, else Landlock, else plain), or one of them, which
    /// must be available (see `mf sandbox check`).
    #[arg(long, value_enum, default_value_t = EngineArg::Auto, help_heading = "Execution policy")]
    pub engine: EngineArg,
}

/// `--engine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum EngineArg {
    /// The strongest available.
    #[default]
    Auto,
    /// bubblewrap namespaces.
    Bubblewrap,
    /// Landlock.
    Landlock,
    /// A plain process (limits only).
    Plain,
}

/// `--runtime`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RuntimeArg {
    /// Node.js.
    Node,
    /// Python.
    Python,
}

/// Where the implementation is, overriding the suite's `execution` block.
#[derive(Debug, Clone, Default, Args)]
pub struct ImplementationArgs {
    /// The runtime (`execution.runtime`).
    #[arg(long, value_enum, help_heading = "Implementation")]
    pub runtime: Option<RuntimeArg>,
    /// The entry module (`execution.entry`), relative to the current folder.
    #[arg(long, value_name = "FILE", help_heading = "Implementation")]
    pub entry: Option<PathBuf>,
    /// Node: the exported object holding the tools (`execution.export`).
    #[arg(long, value_name = "NAME", help_heading = "Implementation")]
    pub export: Option<String>,
    /// The Python interpreter (`execution.python`, default python3).
    #[arg(long, value_name = "PATH", help_heading = "Implementation")]
    pub python: Option<String>,
}

impl PolicyArgs {
    /// These flags with the implementation flags, a timeout and env names, as engine flags.
    pub fn flags(
        &self,
        imp: &ImplementationArgs,
        timeout: Option<f64>,
        env: &[String],
    ) -> Result<ExecFlags, String> {
        let timeout = match timeout {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => {
                Some(Duration::from_secs_f64(s))
            }
            Some(s) => {
                return Err(format!(
                    "the timeout {s} must be between 0 and 86400 seconds"
                ));
            }
        };
        if self.max_memory_mb == Some(0) || self.max_output_bytes == Some(0) {
            return Err("--max-memory-mb and --max-output-bytes must be above 0".into());
        }
        Ok(ExecFlags {
            runtime: imp.runtime.map(|r| match r {
                RuntimeArg::Node => Runtime::Node,
                RuntimeArg::Python => Runtime::Python,
            }),
            entry: imp.entry.clone(),
            export: imp.export.clone(),
            python: imp.python.clone(),
            timeout,
            allow_read: self.allow_read.clone(),
            allow_write: self.allow_write.clone(),
            allow_net: self.allow_net,
            env: env.to_vec(),
            max_memory_mb: self.max_memory_mb,
            max_output_bytes: self.max_output_bytes,
            engine: match self.engine {
                EngineArg::Auto => EngineChoice::Auto,
                EngineArg::Bubblewrap => EngineChoice::Bubblewrap,
                EngineArg::Landlock => EngineChoice::Landlock,
                EngineArg::Plain => EngineChoice::Plain,
            },
        })
    }
}

/// Run one tool implementation from the suite's `execution` block, isolated, and print its
/// result with duration and peak memory. Exit 0 returned, 1 threw or bad input, 3 refused by
/// policy, 4 timed out.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf exec --tool read_note --input '{\"name\": \"todo\"}'
  mf exec --suite mf.suite.json --tool save_note --input '{\"text\": \"x\"}' --allow-write out/
  mf exec --tool slow_search --input '{}' --timeout 2 --format json")]
pub struct ExecArgs {
    /// The suite with the tool and its `execution` block. Default: ./mf.suite.json.
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// The tool to run.
    #[arg(long, value_name = "NAME")]
    pub tool: String,
    /// The arguments, a JSON object (validated against the tool's input schema first).
    #[arg(long, value_name = "JSON", default_value = "{}")]
    pub input: String,
    /// Seconds before the call is killed with its whole process group (default: the suite's
    /// `timeoutMs`, else 10).
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Pass environment variable NAME through (repeatable); nothing else beyond PATH, locale
    /// and terminal basics reaches the tool.
    #[arg(long, value_name = "NAME")]
    pub env: Vec<String>,
    /// What the tool may touch.
    #[command(flatten)]
    pub policy: PolicyArgs,
    /// Where the implementation is.
    #[command(flatten)]
    pub implementation: ImplementationArgs,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = ExecFormat::Terminal)]
    pub format: ExecFormat,
}

/// `mf exec` / `mf sandbox check` output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExecFormat {
    /// Readable text.
    Terminal,
    /// JSON (SCHEMA.md).
    Json,
}

/// `mf sandbox`: the isolation this machine offers `mf exec`.
#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: SandboxAction,
}

/// `mf sandbox` actions.
#[derive(Debug, Subcommand)]
pub enum SandboxAction {
    /// Which engines work here (node-permission, bubblewrap, Landlock, seccomp, plain) and what
    /// a Node or Python call would run under.
    #[command(after_help = "Examples:
  mf sandbox check
  mf sandbox check --format json")]
    Check(SandboxCheckArgs),
}

/// `mf sandbox check` flags.
#[derive(Debug, Args)]
pub struct SandboxCheckArgs {
    /// The Python interpreter to look for.
    #[arg(long, value_name = "PATH", default_value = "python3")]
    pub python: String,
    /// Output format on stdout.
    #[arg(long, value_enum, default_value_t = ExecFormat::Terminal)]
    pub format: ExecFormat,
}
