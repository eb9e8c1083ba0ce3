//! The `mf` binary: parse arguments, run, map the outcome to an exit code. Nothing else.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // `mf __mf-exec-shim …`: mf re-executed by `mf exec` to restrict itself, then become the
    // tool's interpreter (see `exec::shim`).
    if let Some(code) = mf::exec::shim::main_if_shim() {
        return code;
    }
    let cli = match mf::cli::Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version print and exit 0; every usage error (an unknown command or flag, a
        // bad value, a missing argument) is exit 1 — never 2, which means "a gate failed".
        Err(e) => {
            let code = if e.use_stderr() {
                mf::Exit::InputError
            } else {
                mf::Exit::Ok
            };
            let _ = e.print();
            return code.into();
        }
    };
    match mf::run(cli) {
        Ok(exit) => exit.into(),
        Err(err) => {
            // The one place the binary talks to the user about a failure.
            #[allow(clippy::print_stderr)]
            {
                let line = format!("error: {err:#}");
                eprintln!("{}", mf::util::untrusted::log_text(&line));
            }
            mf::Exit::from_error(&err).into()
        }
    }
}
