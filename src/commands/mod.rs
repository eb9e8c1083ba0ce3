//! One thin file per command: flags → validated config (`cli/`) → the engine → renderings
//! (`render/`) → files and stdout → the exit code. No engine logic lives here; the shared
//! helpers below are the only I/O primitives commands use.

mod check;
mod ci;
mod cluster;
mod compare;
mod coverage;
mod eval;
mod lint;
mod report;
mod scan;

use std::io::{IsTerminal, Write};
use std::path::Path;

use crate::cli::{Cli, ColorChoice, Command};
use crate::render::terminal::Style;
use crate::util::atomic::write_atomic;
use crate::util::untrusted;
use crate::{Error, Exit};

/// Run the parsed command.
pub fn dispatch(cli: Cli) -> Result<Exit, Error> {
    let style = Style {
        color: use_color(cli.color),
    };
    match cli.command {
        Command::Scan(args) => scan::run(&args, style),
        Command::Lint(args) => lint::run(&args, style),
        Command::Cluster(args) => cluster::run(&args, style),
        Command::Check(args) => check::run(&args, style),
        Command::Coverage(args) => coverage::run(&args, style),
        Command::Eval(args) => eval::run(&args, style),
        Command::Cache(args) => eval::cache_cmd(&args),
        Command::Compare(args) => compare::run(&args, style),
        Command::Report(args) => report::run(&args, style),
        Command::Ci(args) => ci::run(&args, style),
    }
}

fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::io::stdout().is_terminal()
        }
    }
}

/// Write to stdout; a closed pipe (`mf … | head`) is not an error worth a message. No line of
/// it can be a workflow command ([`untrusted::log_text`]): the runner parses stdout.
pub(crate) fn print(text: &str) -> Result<(), Error> {
    write_stdout(&untrusted::log_text(text))
}

/// Write mf's own workflow commands (annotations) to stdout, as they are: the one writer that
/// may start a line with `::`. Their data was escaped by `github::annotations`.
pub(crate) fn print_workflow_commands(lines: &str) -> Result<(), Error> {
    write_stdout(lines)
}

fn write_stdout(text: &str) -> Result<(), Error> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::Write {
            path: "<stdout>".into(),
            source: e,
        }),
        _ => Ok(()),
    }
}

/// Write to stderr (progress notes and warnings for people); neutralised like [`print`] (the
/// runner parses stderr too).
pub(crate) fn note(text: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{}", untrusted::log_text(text));
}

/// Write an output file atomically (write, then rename).
pub(crate) fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    write_atomic(path, text.as_bytes()).map_err(|source| Error::Write {
        path: path.to_path_buf(),
        source,
    })
}
