//! `mf tasks`: one subcommand per file in `commands/tasks/`, dispatched here.

mod generate;
mod lint;
mod mutate;

use std::path::Path;

use crate::cli::tasks::{TasksArgs, TasksCommand};
use crate::render::terminal::Style;
use crate::{Error, Exit};

pub(super) fn run(args: &TasksArgs, style: Style) -> Result<Exit, Error> {
    match &args.command {
        TasksCommand::Lint(a) => lint::run(a, style),
        TasksCommand::Mutate(a) => mutate::run(a),
        TasksCommand::Generate(a) => generate::run(a, style),
    }
}

/// Refuse to replace `out` unless `force`: a drafted or mutated file is edited by hand
/// afterwards, and regenerating over it would lose that work.
fn refuse_overwrite(out: &Path, force: bool) -> Result<(), Error> {
    if !force && std::fs::symlink_metadata(out).is_ok() {
        return Err(Error::Usage(format!(
            "{} exists; pass --force to replace it (its edits would be lost), or choose another --out",
            out.display()
        )));
    }
    Ok(())
}
