//! The validated settings of one eval run ([`EvalConfig`]): what `mf eval` flags and `mf ci`
//! inputs turn into, checked once by [`EvalConfig::validate`]. The engine (`eval::evaluate`)
//! never sees a raw flag.
//!
//! The defaults here are the command line's defaults (`cli/eval.rs` and `cli/ci.rs` name these
//! constants), so a setting `mf ci` does not set means what `mf eval` means without the flag.

use std::path::PathBuf;
use std::time::Duration;

use super::plan::{Budgets, HARD_MAX_TOOLS, HARD_MAX_TRIALS};
use crate::suite::Selection;

/// Trials per case and model.
pub const DEFAULT_REPEAT: u32 = 5;
/// Most paid trials a run may send.
pub const DEFAULT_MAX_TRIALS: u64 = 50;
/// A paid run refuses a surface with more tools (OpenAI's own limit per request is 128; the
/// money is guarded by [`DEFAULT_MAX_INPUT_TOKENS`]).
pub const DEFAULT_MAX_TOOLS: usize = 128;
/// Most input tokens (lower bound) all paid trials of a run may send: the money guard. A
/// million input tokens cost about 0.40 USD on gpt-4.1-mini and 3 USD on claude-sonnet-4-5.
pub const DEFAULT_MAX_INPUT_TOKENS: u64 = 1_000_000;
/// Output token cap per request.
pub const DEFAULT_MAX_OUTPUT_TOKENS: u32 = 1024;
/// Requests in flight at once.
pub const DEFAULT_CONCURRENCY: usize = 4;
/// Most requests in flight.
pub const MAX_CONCURRENCY: usize = 64;
/// Seconds allowed per request.
pub const DEFAULT_TIMEOUT_SECS: u64 = 120;
/// Share of errored trials above which a run is unhealthy.
pub const DEFAULT_MAX_ERROR_RATE: f64 = 0.1;
/// Fewer scored trials per model make a run unhealthy.
pub const DEFAULT_MIN_SCORED: u64 = 1;

/// Everything that shapes one eval run, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalConfig {
    /// Models as written (`PROVIDER:MODEL`, a configured name, `lexical` …).
    pub models: Vec<String>,
    /// Config file with named models; `None` = `./mf.toml` when present.
    pub config_file: Option<PathBuf>,
    /// Base URL for models that have none configured.
    pub base_url: Option<String>,
    /// Key variables allowed on the command line (`--allow-key-env`): extra `api_key_env`
    /// names, and built-in key variables a file-defined model may send to its own `base_url`.
    pub allow_key_env: Vec<String>,
    /// Sampling temperature (`None` = the provider's default).
    pub temperature: Option<f64>,
    /// Send `tool_choice: "auto"`.
    pub tool_choice_auto: bool,
    /// Output token cap per request.
    pub max_output_tokens: u32,
    /// Offer only the tools of this suite profile (mounted alone).
    pub profile: Option<String>,
    /// Mount-group scoring (`--profile all|NAME`): besides the run with every tool, each chosen
    /// group mounted alone over its cases (`eval::mount`).
    pub mount_groups: Option<MountGroups>,
    /// Leave these tools out of the offered set (`mf ablate`); every trial keeps the order the
    /// full plan gave the remaining tools.
    pub without: Vec<String>,
    /// Which cases run.
    pub selection: Selection,
    /// Trials per case and model.
    pub repeat: u32,
    /// Seed of the per-trial tool order.
    pub seed: u64,
    /// Trial, tool and context budgets.
    pub budgets: Budgets,
    /// Plan only: call nothing.
    pub dry_run: bool,
    /// With `dry_run`: seconds per request for the wall-time estimate.
    pub seconds_per_trial: Option<f64>,
    /// Requests in flight at once.
    pub concurrency: usize,
    /// Time allowed per request.
    pub timeout: Duration,
    /// Extra attempts for 429, 5xx and timeouts.
    pub retries: u32,
    /// The trial cache directory; `None` = no cache (`--no-cache`).
    pub cache_dir: Option<PathBuf>,
    /// Quality and health gates.
    pub gates: EvalGates,
    /// Run only this shard of the plan (`--shard K/N`); `None` = every trial.
    pub shard: Option<super::shard::Shard>,
    /// `--execute`: run the picked tool and check `expect`; `None` = never execute (the
    /// default, and always in `mf ci`).
    pub execute: Option<ExecuteConfig>,
}

/// `--execute` settings.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExecuteConfig {
    /// The execution policy and implementation overrides.
    pub flags: crate::exec::ExecFlags,
    /// `--execute-model-args`: use the model's arguments where a case has no `toolInput`.
    pub model_args: bool,
    /// `--min-execution` (default 1.0).
    pub min_rate: f64,
}

/// The gates of one run: quality (exit 2) and health (exit 5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EvalGates {
    /// Lowest selection accuracy that passes.
    pub min_accuracy: Option<f64>,
    /// Highest over-trigger rate that passes.
    pub max_over_trigger: Option<f64>,
    /// Highest share of errored trials of a healthy run.
    pub max_error_rate: f64,
    /// Fewest scored trials per model of a healthy run.
    pub min_scored: u64,
}

impl Default for EvalGates {
    fn default() -> EvalGates {
        EvalGates {
            min_accuracy: None,
            max_over_trigger: None,
            max_error_rate: DEFAULT_MAX_ERROR_RATE,
            min_scored: DEFAULT_MIN_SCORED,
        }
    }
}

impl Default for EvalConfig {
    /// The command line's defaults; no models.
    fn default() -> EvalConfig {
        EvalConfig {
            models: Vec::new(),
            config_file: None,
            base_url: None,
            allow_key_env: Vec::new(),
            temperature: None,
            tool_choice_auto: false,
            max_output_tokens: DEFAULT_MAX_OUTPUT_TOKENS,
            profile: None,
            mount_groups: None,
            without: Vec::new(),
            selection: Selection::default(),
            repeat: DEFAULT_REPEAT,
            seed: 0,
            budgets: Budgets {
                max_trials: DEFAULT_MAX_TRIALS,
                max_tools: DEFAULT_MAX_TOOLS,
                max_input_tokens: Some(DEFAULT_MAX_INPUT_TOKENS),
                max_context_tokens: None,
            },
            dry_run: false,
            seconds_per_trial: None,
            concurrency: DEFAULT_CONCURRENCY,
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
            retries: 0,
            cache_dir: Some(super::cache::default_dir()),
            gates: EvalGates::default(),
            shard: None,
            execute: None,
        }
    }
}

/// Which mount groups `--profile` scores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MountGroups {
    /// `--profile all`: every group of the suite's `profiles`.
    All,
    /// `--profile NAME`: that group.
    One(String),
}

/// A setting out of range or a combination that makes no sense; the message names the flag.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EvalConfigError(pub String);

impl EvalConfig {
    /// Check what clap cannot (ranges, caps, combinations). Every way of building a config
    /// (flags, `mf ci`) goes through this before the engine runs.
    pub fn validate(&self) -> Result<(), EvalConfigError> {
        let bad = |m: String| Err(EvalConfigError(m));
        if self.repeat == 0 {
            return bad("--repeat must be at least 1".into());
        }
        if let Some(name) = self
            .allow_key_env
            .iter()
            .find(|n| n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            return bad(format!(
                "--allow-key-env takes a variable NAME (letters, digits, _), got {name:?}"
            ));
        }
        if self.budgets.max_trials > HARD_MAX_TRIALS {
            return bad(format!("--max-trials is capped at {HARD_MAX_TRIALS}"));
        }
        if self.budgets.max_tools > HARD_MAX_TOOLS {
            return bad(format!("--max-tools is capped at {HARD_MAX_TOOLS}"));
        }
        if self.concurrency == 0 || self.concurrency > MAX_CONCURRENCY {
            return bad(format!("--concurrency must be 1–{MAX_CONCURRENCY}"));
        }
        if self.timeout.is_zero() {
            return bad("--timeout must be at least 1 second".into());
        }
        for (flag, v) in [
            ("--min-accuracy", self.gates.min_accuracy),
            ("--max-over-trigger", self.gates.max_over_trigger),
            ("--max-error-rate", Some(self.gates.max_error_rate)),
        ] {
            if let Some(v) = v
                && !(0.0..=1.0).contains(&v)
            {
                return bad(format!("{flag} is a rate between 0 and 1, got {v}"));
            }
        }
        if let Some(t) = self.temperature
            && !(0.0..=2.0).contains(&t)
        {
            return bad(format!("--temperature must be between 0 and 2, got {t}"));
        }
        if self.mount_groups.is_some() && self.profile.is_some() {
            return bad(
                "--profile scores mount groups; with --mounted-only it offers one group's tools \
                 alone: not both"
                    .into(),
            );
        }
        if self.mount_groups.is_some() && self.shard.is_some() {
            return bad(
                "--profile all|NAME runs several plans; --shard splits one plan across jobs: \
                 not both"
                    .into(),
            );
        }
        // `--execute` attaches its executions to one scorecard after its run: a shard is not
        // the whole run (`mf merge` cannot join executions), and mount-group scoring runs
        // several plans whose scorecards the executions would not follow.
        if self.execute.is_some() && self.shard.is_some() {
            return bad(
                "--execute runs the picked tools of one whole eval; --shard splits it across \
                 jobs and `mf merge` cannot join executions: drop one of them"
                    .into(),
            );
        }
        if self.execute.is_some() && self.mount_groups.is_some() {
            return bad(
                "--execute runs the picked tools of one eval; --profile all|NAME scores mount \
                 groups over several runs: drop one of them (--profile NAME --mounted-only \
                 --execute runs one group's tools)"
                    .into(),
            );
        }
        if self.seconds_per_trial.is_some() && !self.dry_run {
            return bad("--seconds-per-trial only applies to --dry-run".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_models() -> EvalConfig {
        EvalConfig {
            models: vec!["lexical".into()],
            ..EvalConfig::default()
        }
    }

    #[test]
    fn the_defaults_validate() {
        assert_eq!(EvalConfig::default().validate(), Ok(()));
        assert_eq!(with_models().validate(), Ok(()));
    }

    #[test]
    fn out_of_range_settings_name_their_flag() {
        let cases: Vec<(EvalConfig, &str)> = vec![
            (
                EvalConfig {
                    repeat: 0,
                    ..with_models()
                },
                "--repeat",
            ),
            (
                EvalConfig {
                    concurrency: MAX_CONCURRENCY + 1,
                    ..with_models()
                },
                "--concurrency",
            ),
            (
                EvalConfig {
                    timeout: Duration::ZERO,
                    ..with_models()
                },
                "--timeout",
            ),
            (
                EvalConfig {
                    gates: EvalGates {
                        min_accuracy: Some(1.5),
                        ..EvalGates::default()
                    },
                    ..with_models()
                },
                "--min-accuracy",
            ),
            (
                EvalConfig {
                    temperature: Some(3.0),
                    ..with_models()
                },
                "--temperature",
            ),
            (
                EvalConfig {
                    seconds_per_trial: Some(1.0),
                    ..with_models()
                },
                "--seconds-per-trial",
            ),
            (
                EvalConfig {
                    budgets: Budgets {
                        max_trials: HARD_MAX_TRIALS + 1,
                        ..with_models().budgets
                    },
                    ..with_models()
                },
                "--max-trials",
            ),
        ];
        for (config, flag) in cases {
            let err = config.validate().expect_err(flag).to_string();
            assert!(err.contains(flag), "{flag}: {err}");
        }
    }
}
