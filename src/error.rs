//! The top-level error: one variant per subsystem, each with its own error enum, mapped once to
//! an exit code in [`crate::Exit::from_error`].

use std::path::PathBuf;

use crate::analyze::baseline::BaselineError;
use crate::ci::CiError;
use crate::eval::config::EvalConfigError;
use crate::eval::{EvalError, plan::BudgetError};
use crate::exec::ExecError;
use crate::generate::{GenerateConfigError, GenerateError};
use crate::github::comment::CommentError;
use crate::mcp::{LimitsError, ServeError};
use crate::providers::config::ConfigError;
use crate::render::RenderError;
use crate::render::template::TemplateError;
use crate::suite::SuiteError;
use crate::suite::author::AuthorError;
use crate::suite::import::ImportError;
use crate::suite::input::ResolveError;
use crate::surface::error::InputError;
use crate::surface::formats::LoadError;
use crate::surface::git::GitError;
use crate::surface::live::LiveError;
use crate::surface::scan::ScanError;

/// Everything that can stop a command. Messages say what happened, where, and what to do.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A tool surface could not be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A repository scan could not run.
    #[error(transparent)]
    Scan(#[from] ScanError),
    /// A live MCP server could not be listed.
    #[error(transparent)]
    Live(#[from] LiveError),
    /// A command's surface could not be read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A suite could not be read.
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// A benchmark file could not be imported (`mf tasks import`).
    #[error(transparent)]
    Import(#[from] ImportError),
    /// A baseline could not be read.
    #[error(transparent)]
    Baseline(#[from] BaselineError),
    /// A git revision could not be read.
    #[error(transparent)]
    Git(#[from] GitError),
    /// Eval settings out of range.
    #[error(transparent)]
    EvalConfig(#[from] EvalConfigError),
    /// A budget refused a paid plan.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// A model configuration (`mf.toml`, `--models`) is wrong.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// An eval could not run.
    #[error(transparent)]
    Eval(Box<EvalError>),
    /// A tool could not be executed (`mf exec`, `--execute`).
    #[error(transparent)]
    Exec(#[from] ExecError),
    /// Scorecard parts could not be merged.
    #[error(transparent)]
    Merge(#[from] crate::eval::merge::MergeError),
    /// `mf ci` could not run.
    #[error(transparent)]
    Ci(Box<CiError>),
    /// `mf tasks generate` could not run.
    #[error(transparent)]
    Generate(Box<GenerateError>),
    /// A `mf tasks generate` setting.
    #[error(transparent)]
    GenerateConfig(#[from] GenerateConfigError),
    /// A template could not be rendered.
    /// `mf mcp`'s limits are out of range, or its config file does not read.
    #[error(transparent)]
    McpLimits(#[from] LimitsError),
    /// `mf mcp` could not serve.
    #[error(transparent)]
    McpServe(#[from] ServeError),
    /// Cases could not be added to a suite (`mf case add`).
    #[error(transparent)]
    Author(Box<AuthorError>),
    #[error(transparent)]
    Template(#[from] TemplateError),
    /// The PR comment could not be written.
    #[error(transparent)]
    Comment(#[from] CommentError),
    /// Writing an output file failed.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file mf tried to write.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// A saved document (scorecard, compare, ci report, suite to update) is not one mf can read.
    #[error("{0}")]
    Document(String),
    /// An output could not be rendered.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// Command-line arguments that clap accepted but that make no sense together.
    #[error("{0}")]
    Usage(String),
    /// The user pressed Ctrl-C.
    #[error("interrupted")]
    Interrupted,
}

impl From<ResolveError> for Error {
    fn from(e: ResolveError) -> Error {
        match e {
            ResolveError::Suite(e) => Error::Suite(e),
            ResolveError::Input(e) => Error::Input(e),
        }
    }
}

impl Error {
    /// Whether the user stopped the run (Ctrl-C), at whatever depth it was noticed.
    pub fn is_interrupted(&self) -> bool {
        let live = |e: &LiveError| matches!(e, LiveError::Interrupted);
        let input = |e: &InputError| matches!(e, InputError::Live(l) if live(l));
        match self {
            Error::Interrupted => true,
            Error::Live(e) => live(e),
            Error::Input(e) => input(e),
            Error::Eval(e) => {
                matches!(&**e, EvalError::Surface(ResolveError::Input(e)) if input(e))
            }
            Error::Ci(e) => matches!(&**e, CiError::Input(e) if input(e)),
            _ => false,
        }
    }
}

impl From<EvalError> for Error {
    fn from(e: EvalError) -> Error {
        Error::Eval(Box::new(e))
    }
}

impl From<GenerateError> for Error {
    fn from(e: GenerateError) -> Error {
        Error::Generate(Box::new(e))
    }
}

impl From<AuthorError> for Error {
    fn from(e: AuthorError) -> Error {
        Error::Author(Box::new(e))
    }
}

impl From<CiError> for Error {
    fn from(e: CiError) -> Error {
        Error::Ci(Box::new(e))
    }
}
