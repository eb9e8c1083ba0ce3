//! The `mf` binary: parse arguments, run, map the outcome to an exit code. Nothing else.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = mf::cli::Cli::parse();
    match mf::run(cli) {
        Ok(exit) => exit.into(),
        Err(err) => {
            // The one place the binary talks to the user about a failure.
            #[allow(clippy::print_stderr)]
            {
                eprintln!("error: {err:#}");
            }
            mf::Exit::from_error(&err).into()
        }
    }
}
