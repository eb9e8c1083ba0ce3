//! The top-level error: one variant per subsystem, each with its own error enum.

use std::path::PathBuf;

use crate::surface::formats::LoadError;
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
    /// A suite could not be read.
    #[error(transparent)]
    Suite(#[from] crate::suite::SuiteError),
    /// A baseline could not be read.
    #[error(transparent)]
    Baseline(#[from] crate::analyze::baseline::BaselineError),
    /// Writing an output file failed.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file mf tried to write.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// Command-line arguments that clap accepted but that make no sense together.
    #[error("{0}")]
    Usage(String),
    /// The user pressed Ctrl-C.
    #[error("interrupted")]
    Interrupted,
}
