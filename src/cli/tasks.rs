//! `mf tasks` flags: one subcommand per file in `cli/tasks/`, one variant of [`TasksCommand`]
//! each (dispatched by `commands/tasks.rs`).

pub mod generate;
pub mod lint;
pub mod mutate;

use clap::{Args, Subcommand};

/// Author and check task sets: lint a suite against its surface, write seeded robustness
/// variants, or let a model draft cases.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf tasks lint --suite mf.suite.json               unknown tools, duplicates, guidance (free)
  mf tasks mutate --suite mf.suite.json --seed 7 --out mf.mutated.json
  mf tasks generate tools.json --models openai:gpt-4.1-mini --out drafts.tasks.yaml --dry-run")]
pub struct TasksArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: TasksCommand,
}

/// The `mf tasks` subcommands.
#[derive(Debug, Subcommand)]
pub enum TasksCommand {
    /// Check a suite's cases against the surface before spending anything (free, offline).
    Lint(lint::TasksLintArgs),
    /// Write deterministic, model-free variants of each reviewed case (unreviewed).
    Mutate(mutate::MutateArgs),
    /// Let a model draft cases per tool, must-not-call and boundary cases (unreviewed).
    Generate(generate::GenerateArgs),
}
