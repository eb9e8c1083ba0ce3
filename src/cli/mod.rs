//! Command-line types (clap derive) only. Each command's flags live in their own file and are
//! converted once into a validated configuration before anything runs.

pub mod ablate;
pub mod case;
pub mod check;
pub mod ci;
pub mod cluster;
pub mod compare;
pub mod coverage;
pub mod eval;
pub mod exec;
pub mod input;
pub mod lint;
pub mod mcp;
pub mod merge;
pub mod report;
pub mod scan;
pub mod snapshot;
pub mod target;
pub mod tasks;

use clap::{Parser, Subcommand, ValueEnum};

/// mf: the CI gate for AI tool surfaces (MCP servers, function-calling JSON, skills).
#[derive(Debug, Parser)]
#[command(
    name = "mf",
    version,
    about,
    long_about = None,
    propagate_version = true,
    after_help = EXAMPLES
)]
pub struct Cli {
    /// When to colour: auto (a terminal, unless NO_COLOR is set; FORCE_COLOR or CLICOLOR_FORCE
    /// force it), always, never.
    #[arg(
        long,
        value_enum,
        default_value_t = ColorChoice::Auto,
        global = true,
        help_heading = "Global options",
        hide_possible_values = true,
        hide_default_value = true,
        value_name = "WHEN"
    )]
    pub color: ColorChoice,
    /// Print only the result and errors: no notes, progress or "wrote FILE" lines on stderr.
    #[arg(
        long,
        short,
        global = true,
        help_heading = "Global options",
        conflicts_with = "verbose"
    )]
    pub quiet: bool,
    /// Say more on stderr (the suite, surface, models and mf.toml an eval used).
    #[arg(long, short, global = true, help_heading = "Global options")]
    pub verbose: bool,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// The examples under `mf --help`.
const EXAMPLES: &str = "Examples:
  mf scan                      find every tool definition here, draft mf.suite.json
  mf lint tools.json           what will confuse a model (exit 2 on an error)
  mf eval --models lexical     an offline eval of the default suite, no key needed
  mf ci                        the GitHub Action's entry point
  mf completions bash > ~/.local/share/bash-completion/completions/mf

Exit codes: 0 ok, 1 input or usage error, 2 a gate failed, 3 nothing found or exec refused, 4 timed out,
5 unhealthy run, 130 interrupted. Docs: README.md and SCHEMA.md.";

/// Colour policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour on a terminal unless `NO_COLOR` is set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The commands.
// Parsed once per process; boxing the larger argument structs would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Find every tool definition in a repository (free, offline, executes nothing).
    Scan(scan::ScanArgs),
    /// Find what will confuse a model (free, offline).
    Lint(lint::LintArgs),
    /// Group confusable tools into clusters and show what tells them apart.
    Cluster(cluster::ClusterArgs),
    /// The install gate: compare a new capability with the installed tools (pass | warn).
    Check(check::CheckArgs),
    /// Which tools lack reviewed test cases.
    Coverage(coverage::CoverageArgs),
    /// Add test cases to a suite: `mf case add` (checked against the suite's tools).
    Case(case::CaseArgs),
    /// Ask models which tool they would call (offline models need no key; others read their
    /// key from the environment).
    Eval(eval::EvalArgs),
    /// Run one tool implementation isolated (Node, Python), with timeout, memory and output
    /// caps and admission by `sideEffects`. Executes repository code: never part of the free gate.
    Exec(exec::ExecArgs),
    /// The isolation this machine offers `mf exec`: `check`.
    Sandbox(exec::SandboxArgs),
    /// Join the parts of a sharded eval (`mf eval --shard K/N`) into one scorecard.
    Merge(merge::MergeArgs),
    /// Leave one tool out and see what it was taking from the others (paired tests per case and
    /// tool).
    Ablate(ablate::AblateArgs),
    /// Base vs head: paired statistics for two scorecards, or the free surface diff.
    Compare(compare::CompareArgs),
    /// The eval trial cache: `info`, `clear`.
    Cache(eval::CacheArgs),
    /// Re-render a saved scorecard, compare or ci document (terminal, json, markdown, comment, summary, html, junit, badge).
    Report(report::ReportArgs),
    /// The CI gate (the GitHub Action's entry point): lint, surface diff, eval and compare, every output.
    Ci(ci::CiArgs),
    /// Write each `mf.toml`-declared server's tools/list snapshot (starts the servers), or
    /// `--check` that the committed snapshots are what the servers serve.
    Snapshot(snapshot::SnapshotArgs),
    /// Author and check task sets: `lint`, `mutate`, `generate`.
    Tasks(tasks::TasksArgs),
    /// Serve mf's tools to agents over MCP (stdio), under limits only the operator sets.
    Mcp(mcp::McpArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to stdout.
    Completions(CompletionsArgs),
}

/// `mf completions SHELL`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  mf completions bash > ~/.local/share/bash-completion/completions/mf
  mf completions zsh > \"${fpath[1]}/_mf\"
  mf completions fish > ~/.config/fish/completions/mf.fish")]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}
