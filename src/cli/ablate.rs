//! `mf ablate` flags: `mf eval`'s (models, cases, plan and budget, running, output) plus the
//! tools to leave out.

use clap::Args;

use super::eval::EvalArgs;
use crate::compare::ablate::{AblateConfig, Target};
use crate::eval::config::{EvalConfigError, MountGroups};

/// Leave one out: run the same plan without a tool and see, case by case, what it was taking
/// from the others (paired before/after counts and the exact tests of `mf compare`). Within a
/// mount group with --profile NAME. Offline models (`lexical`) need no key.
#[derive(Debug, Args)]
#[command(
    mut_arg("profile", |a| a
        .value_name("NAME")
        .help("Ablate within this mount group of the suite's `profiles`: the group mounted alone over its cases (those expecting one of its tools, and the must-not-call cases)")),
    mut_arg("mounted_only", |a| a.hide(true)),
    mut_arg("min_accuracy", |a| a.hide(true)),
    mut_arg("max_over_trigger", |a| a.hide(true)),
    mut_arg("shard", |a| a.hide(true)),
    mut_arg("execute", |a| a.hide(true)),
    mut_arg("execute_model_args", |a| a.hide(true)),
    mut_arg("min_execution", |a| a.hide(true)),
    mut_arg("exec_timeout", |a| a.hide(true)),
    mut_arg("exec_env", |a| a.hide(true)),
    mut_arg("allow_read", |a| a.hide(true)),
    mut_arg("allow_write", |a| a.hide(true)),
    mut_arg("allow_net", |a| a.hide(true)),
    mut_arg("max_memory_mb", |a| a.hide(true)),
    mut_arg("max_output_bytes", |a| a.hide(true)),
    mut_arg("engine", |a| a.hide(true)),
    mut_arg("runtime", |a| a.hide(true)),
    mut_arg("entry", |a| a.hide(true)),
    mut_arg("export", |a| a.hide(true)),
    mut_arg("python", |a| a.hide(true)),
    mut_arg("format", |a| a.help("Output format on stdout (terminal, json: SCHEMA.md \"Ablation report\", markdown)")),
    mut_arg("json_out", |a| a.help("Also write the ablation report JSON to FILE"))
)]
#[command(after_help = "Examples:
  mf ablate --tool read_graph --models lexical       what read_graph takes from the others
  mf ablate --all --models openai:gpt-4.1-mini --max-trials 400 --dry-run
  mf ablate --profile reading --tool read_graph --models lexical --format json")]
pub struct AblateArgs {
    /// Leave this tool out (repeatable or comma-separated: each is left out in turn).
    #[arg(
        long,
        value_name = "NAME",
        value_delimiter = ',',
        required_unless_present = "all",
        conflicts_with = "all",
        help_heading = "Ablation"
    )]
    pub tool: Vec<String>,
    /// Leave out every offered tool in turn (the whole cost is planned first, within the
    /// trial budget).
    #[arg(long, help_heading = "Ablation")]
    pub all: bool,
    /// `mf eval`'s settings; `--profile NAME` ablates within that mount group.
    #[command(flatten)]
    pub eval: EvalArgs,
}

impl AblateArgs {
    /// The validated settings.
    pub fn config(&self) -> Result<AblateConfig, EvalConfigError> {
        let bad = |m: &str| Err(EvalConfigError(m.to_owned()));
        if self.eval.execute {
            return bad(
                "mf ablate measures tool selection only; --execute runs implementations in \
                 `mf eval` (drop --execute and its flags)",
            );
        }
        let mut eval = self.eval.config()?;
        if self.eval.mounted_only {
            return bad(
                "mf ablate runs within --profile NAME mounted alone already; drop --mounted-only",
            );
        }
        if eval.shard.is_some() {
            return bad(
                "mf ablate runs whole plans; --shard splits one eval across jobs (drop --shard)",
            );
        }
        if eval.gates.min_accuracy.is_some() || eval.gates.max_over_trigger.is_some() {
            return bad(
                "--min-accuracy and --max-over-trigger gate an eval; mf ablate reports changes and has no quality gate",
            );
        }
        let profile = match eval.mount_groups.take() {
            None => None,
            Some(MountGroups::One(name)) => Some(name),
            Some(MountGroups::All) => {
                return bad("mf ablate works within one mount group: give --profile NAME");
            }
        };
        if let Some(t) = self.tool.iter().find(|t| t.trim().is_empty()) {
            return Err(EvalConfigError(format!(
                "--tool takes a tool name, got {t:?}"
            )));
        }
        Ok(AblateConfig {
            eval,
            profile,
            target: if self.all {
                Target::All
            } else {
                Target::Tools(self.tool.clone())
            },
        })
    }
}
