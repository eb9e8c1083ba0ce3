//! Execution: run one tool implementation from a suite's `execution` block (`mf exec`, `mf eval
//! --execute`) under the strongest isolation the machine offers, and say which
//! (`mf sandbox check`). Never used by the free commands: nothing from a repository runs unless
//! one of these commands is asked to.
//!
//! The pieces, in call order: [`config`] (suite `execution` + flags → [`ExecSetup`]),
//! [`admission`] (`sideEffects` against the allowances, the input against the tool's schema),
//! [`probe`] (which engines work here), [`engine`] (the command line per engine and what it
//! isolates), [`shim`] (the re-executed mf that sets rlimits and Landlock on itself, then
//! `exec`s the interpreter), [`process`] (the supervised child: timeout, memory and output caps,
//! the whole group killed), [`run`] (one call to an [`ExecReport`]), [`expect`] (a case's
//! `expect` against a result) and [`sandbox`] (the `mf sandbox check` document).

pub mod admission;
pub mod config;
pub mod engine;
pub mod expect;
pub mod probe;
pub mod process;
pub mod run;
pub mod sandbox;
pub mod shim;

pub use config::{EngineChoice, ExecFlags, ExecSetup};
pub use run::{Call, execute};

use crate::report::exec::ExecReport;
use crate::suite::Suite;
use crate::surface::Tool;

/// Why an execution could not be attempted (mf's trouble or bad settings; the tool's own
/// failures are in the [`ExecReport`]).
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// Bad settings or a missing piece (interpreter, entry, temp folder).
    #[error("{0}")]
    Config(String),
}

/// The tool called `name` on `tools`, or an error listing what there is.
pub fn find_tool<'a>(
    tools: &'a [Tool],
    name: &str,
    suite_display: &str,
) -> Result<&'a Tool, ExecError> {
    tools.iter().find(|t| t.name == name).ok_or_else(|| {
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        ExecError::Config(format!(
            "{suite_display} has no tool {name:?} (tools: {})",
            if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            }
        ))
    })
}

/// Run `tool` of `suite` with `input` under `setup`.
pub fn execute_tool(
    setup: &ExecSetup,
    suite: &Suite,
    tool: &Tool,
    input: &serde_json::Value,
) -> Result<ExecReport, ExecError> {
    let effective = admission::effective(suite.side_effects_of(tool), tool.annotations.as_ref());
    execute(
        setup,
        Call {
            tool: &tool.name,
            effective,
            schema: tool.input_schema.as_ref(),
            input,
        },
    )
}
