//! `mf case` flags: `mf case add`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::suite::author::{DEFAULT_SOURCE, Marking, NewCase};
use crate::{Error, eval::author::AddRequest};

/// `mf case ACTION`.
#[derive(Debug, Args)]
pub struct CaseArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: CaseAction,
}

/// Case actions.
#[derive(Debug, Subcommand)]
pub enum CaseAction {
    /// Append one case to a suite, checked against the suite's tools; the rest of the file is
    /// kept as written.
    Add(CaseAddArgs),
}

/// `mf case add`.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  mf case add --suite mf.suite.json --input \"where is order 7?\" --expected get_order
  mf case add --suite mf.suite.yaml --input \"hi there\" --expected none --tag chitchat
  mf case add --suite mf.suite.json --input \"refund order 7\" --expected refund_order \\
      --args '{\"order_id\": \"7\"}' --dry-run

The case lands as `source: agent`, `reviewed: false` (it never counts in official scores until a
person sets `reviewed: true`) unless --source / --reviewed say otherwise. An unknown tool or
argument key exits 1 naming it and the closest names; nothing is written then.")]
pub struct CaseAddArgs {
    /// The suite to append to (mf.suite.json, a YAML suite or a task set) [default: the
    /// default suite here: mf.suite.json, mf.suite.yaml or mf.suite.yml].
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// The user message.
    #[arg(long, value_name = "TEXT")]
    pub input: String,
    /// The tool a model should call, or `none` when it should call no tool.
    #[arg(long, value_name = "TOOL|none")]
    pub expected: String,
    /// Assertions on the arguments, as a JSON object (`expectedArgs`).
    #[arg(long, value_name = "JSON")]
    pub args: Option<String>,
    /// A tag for --only / --skip (repeatable).
    #[arg(long = "tag", value_name = "T")]
    pub tags: Vec<String>,
    /// The case id (default: a stable id from the tool and the input).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// Where the case came from.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_SOURCE)]
    pub source: String,
    /// Mark the case reviewed (it then counts in official scores).
    #[arg(long)]
    pub reviewed: bool,
    /// Check the case and print it; write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Print the added case as JSON.
    #[arg(long)]
    pub json: bool,
}

impl CaseAddArgs {
    /// The engine request these flags stand for.
    pub fn request(&self) -> Result<AddRequest, Error> {
        let expected_args = match &self.args {
            None => None,
            Some(text) => Some(serde_json::from_str(text).map_err(|e| {
                Error::Usage(format!(
                    "--args is not JSON ({e}); give an object like '{{\"id\": \"7\"}}'"
                ))
            })?),
        };
        let expected_tool = (self.expected != "none").then(|| self.expected.clone());
        let suite = match &self.suite {
            Some(path) => path.clone(),
            None => crate::suite::discover::default_suite(std::path::Path::new("")).ok_or_else(|| {
                Error::Usage(
                    "no suite here (mf.suite.json, mf.suite.yaml or mf.suite.yml): give --suite FILE, \
                     or draft one with `mf scan`"
                        .into(),
                )
            })?,
        };
        Ok(AddRequest {
            suite,
            cases: vec![NewCase {
                id: self.id.clone(),
                input: self.input.clone(),
                expected_tool,
                expected_args,
                tags: self.tags.clone(),
            }],
            marking: Marking {
                source: self.source.clone(),
                reviewed: self.reviewed,
            },
            dry_run: self.dry_run,
        })
    }
}
