//! mf: the CI gate for AI tool surfaces.
//!
//! Data flows one way: loaders build a normalized [`surface::Surface`]; analyses read it and
//! produce plain data ([`report`]); renderers turn that data into bytes. The binary in
//! `main.rs` only parses arguments, calls [`run`] and maps the result to an [`Exit`] code.

pub mod analyze;
pub mod ci;
pub mod cli;
pub mod compare;
pub mod error;
pub mod eval;
pub mod exec;
pub mod exit;
pub mod generate;
pub mod github;
pub mod mcp;
pub mod providers;
pub mod render;
pub mod report;
pub mod stats;
pub mod suite;
pub mod surface;
pub mod util;

mod commands;

pub use error::Error;
pub use exit::Exit;

/// Run one parsed command line. Returns the exit status the command earned (a gate can fail
/// without an error), or the error that stopped it.
pub fn run(cli: cli::Cli) -> Result<Exit, Error> {
    commands::dispatch(cli)
}
