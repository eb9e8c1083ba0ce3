//! Why a command's surface could not be read: a file, a scan, a live server, a snapshot that
//! could not be written, or arguments that name no surface.

use std::path::PathBuf;

use super::formats::LoadError;
use super::live::LiveError;
use super::scan::ScanError;

/// Everything that can stop reading the surface a command was pointed at.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// A tool file could not be read.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// A folder could not be scanned.
    #[error(transparent)]
    Scan(#[from] ScanError),
    /// A live MCP server could not be listed.
    #[error(transparent)]
    Live(#[from] LiveError),
    /// `--save-snapshot` could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The snapshot file.
        path: PathBuf,
        /// What the OS said.
        source: std::io::Error,
    },
    /// The arguments name no surface, or a combination that cannot be read.
    #[error("{0}")]
    Usage(String),
}
